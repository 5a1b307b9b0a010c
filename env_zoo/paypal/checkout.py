"""Orders v2 and Payments v2: creating and approving checkout orders, authorizing and capturing them, capturing,
voiding and reauthorizing authorizations, and refunding captures."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import iso_timestamp

from .errors import invalid, unprocessable
from .rules import (
    CURRENCY,
    HONOR_PERIOD,
    REFUND_WINDOW,
    VALIDITY,
    adjust_balance,
    cents,
    dollars,
    fee_for,
    fetch,
    moment,
    paypal_id,
)
from .schema import authorizations, captures, disputes, orders, payers, refunds

CAPTURABLE = ("CREATED", "PARTIALLY_CAPTURED")
REFUNDABLE = ("COMPLETED", "PARTIALLY_REFUNDED")


def create_order(db: Database, intent: str, unit: Any) -> dict[str, Any]:
    """A CREATED order whose amount must equal its breakdown (items + shipping + tax - discount)."""
    items = [
        {"name": i.name, "quantity": i.quantity, "unit_amount": cents(i.unit_amount.value, "unit_amount"), "sku": i.sku}
        for i in unit.items
    ]
    item_total = sum(i["unit_amount"] * int(i["quantity"]) for i in items)
    breakdown = unit.amount.breakdown
    declared_items = cents(breakdown.item_total.value, "breakdown.item_total") if breakdown.item_total else 0
    if items and declared_items != item_total:
        raise unprocessable(
            "ITEM_TOTAL_MISMATCH",
            f"Should equal sum of (unit_amount * quantity) across all items: {dollars(item_total)}.",
            "/purchase_units/@reference_id=='default'/amount/breakdown/item_total/value",
        )
    shipping = _optional(breakdown.shipping, "shipping")
    tax = _optional(breakdown.tax_total, "tax_total")
    discount = _optional(breakdown.discount, "discount")
    amount = cents(unit.amount.value, "amount")
    expected = declared_items + shipping + tax - discount
    if amount != expected:
        raise unprocessable(
            "AMOUNT_MISMATCH",
            f"Should equal item_total + tax_total + shipping - discount: {dollars(expected)}.",
            "/purchase_units/@reference_id=='default'/amount/value",
        )
    now = db.now_iso()
    return db.insert(
        orders,
        id=paypal_id(db, orders, 17),
        intent=intent,
        status="CREATED",
        payer_id=None,
        reference_id=unit.reference_id or "default",
        description=unit.description,
        invoice_id=unit.invoice_id,
        items=items,
        item_total=declared_items,
        shipping=shipping,
        tax_total=tax,
        discount=discount,
        amount=amount,
        currency=CURRENCY,
        create_time=now,
        update_time=now,
    )


def _optional(money: Any, name: str) -> int:
    return cents(money.value, f"breakdown.{name}") if money is not None else 0


def approve_order(db: Database, order_id: str, payer_email: str) -> dict[str, Any]:
    """The payer approves a CREATED order at PayPal's checkout with their account."""
    order = fetch(db, orders, order_id, "order", "order_id")
    if order["status"] != "CREATED":
        raise unprocessable(
            "ORDER_ALREADY_APPROVED" if order["status"] == "APPROVED" else "ORDER_NOT_APPROVABLE",
            f"The order is {order['status']}.",
            "order_id",
        )
    payer = db.find(payers, email_address=payer_email.lower())
    if not payer:
        raise unprocessable("PAYER_ACCOUNT_NOT_FOUND", f"No PayPal account uses `{payer_email}`.", "payer_email")
    return db.update(orders, order_id, status="APPROVED", payer_id=payer[0]["payer_id"], update_time=db.now_iso())


def _approved(db: Database, order_id: str, intent: str) -> dict[str, Any]:
    order = fetch(db, orders, order_id, "order", "order_id")
    if order["status"] == "COMPLETED":
        issue = "ORDER_ALREADY_CAPTURED" if order["intent"] == "CAPTURE" else "ORDER_ALREADY_AUTHORIZED"
        raise unprocessable(issue, f"Order `{order_id}` is already COMPLETED.", "order_id")
    if order["intent"] != intent:
        raise unprocessable(
            "ACTION_DOES_NOT_MATCH_INTENT",
            f"Order was created with an intent to {order['intent']}. Please use /v2/checkout/orders/order_id/"
            f"{'capture' if order['intent'] == 'CAPTURE' else 'authorize'} to complete the transaction.",
            "order_id",
        )
    if order["status"] != "APPROVED":
        raise unprocessable("ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.", "order_id")
    return order


def new_capture(
    db: Database, order: dict[str, Any], amount: int, authorization_id: str | None, final: bool, invoice_id: str | None
) -> dict[str, Any]:
    """A COMPLETED capture; its amount less PayPal's fee joins the merchant's balance."""
    fee = fee_for(amount)
    adjust_balance(db, amount - fee)
    now = db.now_iso()
    return db.insert(
        captures,
        id=paypal_id(db, captures, 17),
        order_id=order["id"],
        authorization_id=authorization_id,
        amount=amount,
        fee=fee,
        currency=CURRENCY,
        status="COMPLETED",
        final_capture=final,
        invoice_id=invoice_id,
        create_time=now,
        update_time=now,
    )


def capture_order(db: Database, order_id: str) -> dict[str, Any]:
    """Capture an APPROVED CAPTURE-intent order in full: the order is COMPLETED."""
    order = _approved(db, order_id, "CAPTURE")
    new_capture(db, order, order["amount"], None, True, order["invoice_id"])
    return db.update(orders, order_id, status="COMPLETED", update_time=db.now_iso())


def authorize_order(db: Database, order_id: str) -> dict[str, Any]:
    """Authorize an APPROVED AUTHORIZE-intent order: a CREATED authorization holds the funds; the order is
    COMPLETED."""
    order = _approved(db, order_id, "AUTHORIZE")
    now = db.now()
    db.insert(
        authorizations,
        id=paypal_id(db, authorizations, 17),
        order_id=order_id,
        amount=order["amount"],
        currency=CURRENCY,
        status="CREATED",
        reauthorized_from=None,
        honor_until=iso_timestamp(now + HONOR_PERIOD),
        expiration_time=iso_timestamp(now + VALIDITY),
        create_time=iso_timestamp(now),
        update_time=iso_timestamp(now),
    )
    return db.update(orders, order_id, status="COMPLETED", update_time=iso_timestamp(now))


def captured_of(db: Database, authorization_id: str) -> int:
    """What has been captured from an authorization."""
    return sum(c["amount"] for c in db.find(captures, authorization_id=authorization_id))


def _live_authorization(db: Database, authorization_id: str) -> dict[str, Any]:
    auth = fetch(db, authorizations, authorization_id, "authorization", "authorization_id")
    if auth["status"] == "VOIDED":
        raise unprocessable(
            "PREVIOUSLY_VOIDED",
            "Authorization has been previously voided and hence cannot be captured, voided or reauthorized.",
            "authorization_id",
        )
    if auth["status"] == "CAPTURED":
        raise unprocessable(
            "AUTHORIZATION_ALREADY_CAPTURED", "Authorization has already been captured.", "authorization_id"
        )
    if auth["status"] == "EXPIRED" or db.now() >= moment(auth["expiration_time"]):
        raise unprocessable("AUTHORIZATION_EXPIRED", "Authorization has expired.", "authorization_id")
    return auth


def capture_authorization(
    db: Database, authorization_id: str, amount: str | None, final_capture: bool, invoice_id: str | None
) -> dict[str, Any]:
    """Capture all that is left of an authorization, or part of it; a final or complete capture ends it."""
    auth = _live_authorization(db, authorization_id)
    left = auth["amount"] - captured_of(db, authorization_id)
    wanted = cents(amount, "amount.value") if amount is not None else left
    if wanted > left:
        raise unprocessable(
            "MAX_CAPTURE_AMOUNT_EXCEEDED",
            f"Capture amount exceeds allowable limit: {dollars(left)} is left on the authorization.",
            "amount.value",
        )
    order = db.get(orders, auth["order_id"])
    done = final_capture or wanted == left
    capture = new_capture(db, order, wanted, authorization_id, done, invoice_id)
    db.update(
        authorizations, authorization_id, status="CAPTURED" if done else "PARTIALLY_CAPTURED", update_time=db.now_iso()
    )
    return capture


def void_authorization(db: Database, authorization_id: str) -> dict[str, Any]:
    """Release what an authorization still holds: VOIDED (earlier partial captures stand)."""
    _live_authorization(db, authorization_id)
    return db.update(authorizations, authorization_id, status="VOIDED", update_time=db.now_iso())


def reauthorize(db: Database, authorization_id: str, amount: str | None) -> dict[str, Any]:
    """A new authorization for a CREATED one whose honor period is over (once, up to 115% of it, within its
    29-day validity); the old one is VOIDED."""
    auth = _live_authorization(db, authorization_id)
    if auth["status"] != "CREATED":
        raise unprocessable(
            "REAUTHORIZATION_NOT_ALLOWED",
            "A partially captured authorization cannot be reauthorized.",
            "authorization_id",
        )
    if auth["reauthorized_from"] is not None:
        raise unprocessable(
            "MAX_NUMBER_OF_REAUTHORIZATIONS_EXCEEDED",
            "An authorization can be reauthorized only once.",
            "authorization_id",
        )
    if db.now() < moment(auth["honor_until"]):
        raise unprocessable(
            "REAUTHORIZE_BEFORE_HONOR_PERIOD_EXPIRY",
            f"The authorization is still within its 3-day honor period (until {auth['honor_until']}).",
            "authorization_id",
        )
    wanted = cents(amount, "amount.value") if amount is not None else auth["amount"]
    if wanted * 100 > auth["amount"] * 115:
        raise unprocessable(
            "MAX_REAUTHORIZATION_AMOUNT_EXCEEDED",
            "A reauthorization can be at most 115% of the original amount.",
            "amount.value",
        )
    now = db.now()
    db.update(authorizations, authorization_id, status="VOIDED", update_time=iso_timestamp(now))
    return db.insert(
        authorizations,
        id=paypal_id(db, authorizations, 17),
        order_id=auth["order_id"],
        amount=wanted,
        currency=CURRENCY,
        status="CREATED",
        reauthorized_from=authorization_id,
        honor_until=iso_timestamp(now + HONOR_PERIOD),
        expiration_time=auth["expiration_time"],
        create_time=iso_timestamp(now),
        update_time=iso_timestamp(now),
    )


def refunded_of(db: Database, capture_id: str) -> int:
    """What has been refunded from a capture."""
    return sum(r["amount"] for r in db.find(refunds, capture_id=capture_id))


def refund(
    db: Database, capture_id: str, amount: int | None, note: str | None, dispute_id: str | None = None
) -> dict[str, Any]:
    """Refund what is left of a capture, or part of it, within 180 days; never more than captured less refunded."""
    capture = fetch(db, captures, capture_id, "capture", "capture_id")
    if capture["status"] == "REFUNDED":
        raise unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.", "capture_id")
    if capture["status"] not in REFUNDABLE:
        raise unprocessable("REFUND_NOT_ALLOWED", f"A {capture['status']} capture cannot be refunded.", "capture_id")
    if db.now() > moment(capture["create_time"]) + REFUND_WINDOW:
        raise unprocessable(
            "REFUND_TIME_LIMIT_EXCEEDED",
            "You are over the time limit to perform a refund on this capture (180 days).",
            "capture_id",
        )
    if dispute_id is None and db.find(disputes, capture_id=capture_id, outcome=None):
        raise unprocessable(
            "REFUND_NOT_ALLOWED",
            "The capture has an open dispute: respond to or accept the dispute instead.",
            "capture_id",
        )
    left = capture["amount"] - refunded_of(db, capture_id)
    wanted = amount if amount is not None else left
    if wanted > left:
        raise unprocessable(
            "REFUND_AMOUNT_EXCEEDED",
            f"The refund amount must be less than or equal to the capture amount that has not yet been refunded "
            f"({dollars(left)}).",
            "amount.value",
        )
    adjust_balance(db, -wanted)
    now = db.now_iso()
    row = db.insert(
        refunds,
        id=paypal_id(db, refunds, 17),
        capture_id=capture_id,
        amount=wanted,
        currency=CURRENCY,
        status="COMPLETED",
        note_to_payer=note,
        dispute_id=dispute_id,
        create_time=now,
    )
    db.update(captures, capture_id, status="REFUNDED" if wanted == left else "PARTIALLY_REFUNDED", update_time=now)
    return row


def find_transactions(
    db: Database,
    payer_email: str | None,
    payer_name: str | None,
    start: str | None,
    end: str | None,
    status: str | None,
    page: int,
    page_size: int,
) -> tuple[int, list[dict[str, Any]]]:
    """How many captures and authorizations match the filters, and the rows of page `page` (newest first), each
    with its `transaction_type`; the filtering, ordering and paging run in SQL."""
    where, params = ["1 = 1"], []
    if payer_email is not None:
        where.append("lower(p.email_address) = ?")
        params.append(payer_email.lower())
    for word in (payer_name or "").lower().split():
        where.append("lower(p.given_name || ' ' || p.surname) LIKE ? ESCAPE '\\'")
        params.append("%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    for clause, value in (("t.create_time >= ?", start), ("t.create_time < ?", end), ("t.status = ?", status)):
        if value is not None:
            where.append(clause)
            params.append(value)
    matching = " UNION ALL ".join(
        f"SELECT t.id AS id, t.create_time AS at, '{kind}' AS kind FROM {name} t "
        f"JOIN orders o ON o.id = t.order_id JOIN payers p ON p.payer_id = o.payer_id WHERE {' AND '.join(where)}"
        for kind, name in (("CAPTURE", "captures"), ("AUTHORIZATION", "authorizations"))
    )
    both = tuple(params) * 2
    total = db.conn.exec_driver_sql(f"SELECT count(*) FROM ({matching})", both).scalar_one()
    chosen = db.conn.exec_driver_sql(
        f"SELECT id, kind FROM ({matching}) ORDER BY at DESC, id DESC LIMIT ? OFFSET ?",
        (*both, page_size, (page - 1) * page_size),
    ).all()
    tables = {"CAPTURE": captures, "AUTHORIZATION": authorizations}
    return total, [{**db.get(tables[kind], key), "transaction_type": kind} for key, kind in chosen]


def check_no_invalid_range(start: str | None, end: str | None) -> None:
    """start_date must come before end_date."""
    if start is not None and end is not None and moment(start) >= moment(end):
        raise invalid("INVALID_DATE_RANGE", "start_date must be before end_date.", "start_date")
