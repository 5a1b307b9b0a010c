"""How a member trades on Vinted: conversations about an item, offers and counter-offers, checkout with bundle
discounts and accepted offers, and what happens to an order from payment to completion."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import minor_units, parse_timestamp

from . import rules
from .objects import CheckoutSummary, money
from .schema import conversations, feedback, issues, items, messages, offers, orders, tracking_events


def conversation_for(db: Database, buyer: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """The buyer's conversation with the seller about this item, opened when there is none."""
    found = db.find(conversations, item_id=row["id"], buyer_id=buyer["id"])
    if found:
        return found[0]
    return db.insert(
        conversations,
        id=rules.next_id(db, conversations, 11230000000),
        item_id=row["id"],
        buyer_id=buyer["id"],
        seller_id=row["user_id"],
        updated_at=db.now_iso(),
    )


def post(db: Database, conversation: dict[str, Any], sender_id: int, body: str) -> dict[str, Any]:
    stored = db.insert(
        messages,
        id=rules.next_id(db, messages, 1),
        conversation_id=conversation["id"],
        sender_id=sender_id,
        body=body,
        created_at=db.now_iso(),
    )
    db.update(conversations, conversation["id"], updated_at=db.now_iso())
    return stored


def accepted_offer(db: Database, buyer: dict[str, Any], item_ids: list[int]) -> dict[str, Any] | None:
    """The buyer's accepted offer for exactly these items, if any."""
    for offer in db.find(offers, buyer_id=buyer["id"], status="accepted"):
        if sorted(offer["item_ids"]) == sorted(item_ids):
            return offer
    return None


def make_offer(db: Database, buyer: dict[str, Any], item_ids: list[int], price: int) -> dict[str, Any]:
    seller, rows = rules.basket(db, buyer, item_ids)
    full, bundle = rules.asking_price(seller, rows)
    asking = full - bundle
    if price >= asking:
        raise InvalidRequest(f"Your offer must be lower than the price ({rules.gbp(asking)}); otherwise just buy it.")
    conversation = conversation_for(db, buyer, rows[0])
    if db.find(offers, conversation_id=conversation["id"], status="pending"):
        raise Conflict("There's already an offer waiting for an answer in this conversation.")
    return db.insert(
        offers,
        id=rules.next_id(db, offers, 1),
        conversation_id=conversation["id"],
        item_ids=list(item_ids),
        buyer_id=buyer["id"],
        seller_id=seller["id"],
        offered_by=buyer["id"],
        price=price,
        original_price=asking,
        status="pending",
        created_at=db.now_iso(),
    )


def answer_offer(
    db: Database, member: dict[str, Any], offer: dict[str, Any], action: str, price: int | None
) -> dict[str, Any]:
    """Accept, decline or counter an offer the other party made; only the seller counters."""
    if offer["status"] != "pending":
        raise Conflict(f"This offer is {offer['status']} and can't be answered.")
    if offer["offered_by"] == member["id"]:
        raise Conflict("You made this offer; wait for the other member to answer it.")
    if action != "counter":
        if price is not None:
            raise InvalidRequest("price is only for a counter-offer.")
        return db.update(offers, offer["id"], status="accepted" if action == "accept" else "declined")
    if member["id"] != offer["seller_id"]:
        raise PermissionDenied("Only the seller can counter an offer; accept or decline it, or make a new offer.")
    if price is None:
        raise InvalidRequest("A counter-offer needs a price.")
    if not offer["price"] < price < offer["original_price"]:
        raise InvalidRequest(
            f"A counter-offer must be between the buyer's offer ({rules.gbp(offer['price'])}) "
            f"and the price ({rules.gbp(offer['original_price'])})."
        )
    db.update(offers, offer["id"], status="countered")
    counter = {**offer, "id": rules.next_id(db, offers, 1), "offered_by": member["id"], "price": price}
    return db.insert(offers, **{**counter, "status": "pending", "created_at": db.now_iso()})


def checkout(
    db: Database, buyer: dict[str, Any], item_ids: list[int], carrier: str, delivery_type: str
) -> tuple[CheckoutSummary, dict[str, Any] | None]:
    """The price breakdown of buying these items together, and the accepted offer it uses."""
    seller, rows = rules.basket(db, buyer, item_ids)
    full, bundle = rules.asking_price(seller, rows)
    offer = accepted_offer(db, buyer, item_ids)
    paid = offer["price"] if offer else full - bundle
    size = rules.parcel_size(rows)
    shipping = rules.shipping_fee(seller, carrier, delivery_type, size)
    fee = rules.protection_fee(paid)
    summary = CheckoutSummary(
        item_ids=list(item_ids),
        seller_login=seller["login"],
        items_price=money(full),
        bundle_discount_percent=0 if offer else rules.bundle_percent(seller, len(rows)),
        discount=money(full - paid),
        accepted_offer_id=offer["id"] if offer else None,
        item_total=money(paid),
        buyer_protection_fee=money(fee),
        parcel_size=size,
        carrier=carrier,
        delivery_type=delivery_type,
        shipping_fee=money(shipping),
        total=money(paid + fee + shipping),
    )
    return summary, offer


def place_order(
    db: Database, buyer: dict[str, Any], item_ids: list[int], carrier: str, delivery_type: str
) -> dict[str, Any]:
    summary, offer = checkout(db, buyer, item_ids, carrier, delivery_type)
    pence = {name: rules_pence(getattr(summary, name).amount) for name in ("items_price", "discount", "total")}
    seller = rules.member_by_login(db, summary.seller_login)
    now = db.now()
    order = db.insert(
        orders,
        id=rules.next_id(db, orders, 9012000000),
        buyer_id=buyer["id"],
        seller_id=seller["id"],
        item_ids=list(item_ids),
        offer_id=offer["id"] if offer else None,
        items_price=pence["items_price"],
        discount=pence["discount"],
        buyer_protection_fee=rules_pence(summary.buyer_protection_fee.amount),
        shipping_fee=rules_pence(summary.shipping_fee.amount),
        total=pence["total"],
        carrier=carrier,
        delivery_type=delivery_type,
        status="paid",
        tracking_number=None,
        paid_at=db.now_iso(),
        ship_by=rules.ship_by(now).strftime("%Y-%m-%dT%H:%M:%SZ"),
        shipped_at=None,
        delivered_at=None,
        completed_at=None,
        cancel_reason=None,
    )
    if offer:
        db.update(offers, offer["id"], status="used")
    for item_id in item_ids:
        db.update(items, item_id, status="sold", reserved_for=None)
    for pending in db.find(offers, seller_id=seller["id"], status="pending"):  # sold items take no more offers
        if set(pending["item_ids"]) & set(item_ids):
            db.update(offers, pending["id"], status="cancelled")
    return order


def rules_pence(amount: str) -> int:
    return minor_units(amount, rules.CURRENCY)


def create_label(db: Database, order: dict[str, Any]) -> dict[str, Any]:
    if order["status"] != "paid":
        raise Conflict(
            f"A shipping label can only be made for a paid order that isn't sent yet; it is {order['status']}."
        )
    number = rules.tracking_number(order["carrier"], order["id"])
    db.insert(
        tracking_events,
        id=rules.next_id(db, tracking_events, 1),
        order_id=order["id"],
        status="label_created",
        location=order["carrier"],
        at=db.now_iso(),
    )
    return db.update(orders, order["id"], status="label_created", tracking_number=number)


def cancel(db: Database, member: dict[str, Any], order: dict[str, Any], reason: str) -> dict[str, Any]:
    """The seller cancels before the parcel is sent; the buyer only once the 5 working days to ship have passed."""
    if order["status"] not in ("paid", "label_created"):
        raise Conflict(f"The order is {rules.live_status(db, order)} and can no longer be cancelled.")
    if member["id"] == order["buyer_id"] and db.now() < parse(order["ship_by"]):
        raise Conflict(
            f"The seller has until {order['ship_by']} to send the item; you can cancel only if it isn't sent by then."
        )
    for item_id in order["item_ids"]:
        db.update(items, item_id, status="active")
    return db.update(orders, order["id"], status="cancelled", cancel_reason=reason)


def parse(value: str) -> Any:
    return parse_timestamp(value, "ship_by")


def report(db: Database, order: dict[str, Any], reason: str, description: str) -> dict[str, Any]:
    status = rules.live_status(db, order)
    if status in ("paid", "label_created", "shipped"):
        raise Conflict("You can report an issue once the order is marked as delivered.")
    if status == "completed" and order["status"] == "delivered":
        raise Conflict("The 2-day window to report an issue with this order has closed.")
    if status != "delivered":
        raise Conflict(f"The order is {status}; an issue can't be reported.")
    db.insert(
        issues,
        id=rules.next_id(db, issues, 1),
        order_id=order["id"],
        reason=reason,
        description=description,
        status="open",
        created_at=db.now_iso(),
    )
    return db.update(orders, order["id"], status="issue_reported")


def complete(db: Database, order: dict[str, Any], rating: int | None, comment: str | None) -> dict[str, Any]:
    status = rules.live_status(db, order)
    if status != "delivered":
        raise Conflict(f"Only a delivered order can be confirmed; this one is {status}.")
    if rating is not None:
        db.insert(
            feedback,
            id=rules.next_id(db, feedback, 1),
            order_id=order["id"],
            from_user_id=order["buyer_id"],
            to_user_id=order["seller_id"],
            rating=rating,
            comment=comment or "",
            created_at=db.now_iso(),
        )
    elif comment is not None:
        raise InvalidRequest("A review comment needs a rating.")
    return db.update(orders, order["id"], status="completed", completed_at=db.now_iso())
