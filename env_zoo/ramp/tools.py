"""Ramp Developer API tools as a signed-in Ramp user sees them: the business's departments and users, spend programs,
cards and their spending restrictions and lifecycle (suspend, unsuspend, terminate), card transactions with memos and
receipts, reimbursements and their review, spend requests against a program, and bill pay (vendors, bills, approval,
payment); plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, PermissionDenied, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoDate, NonBlankText, text
from envfactory_gym.values import parse_date

from . import rules
from .access import check_reviewer, check_visible, is_admin, me, require_admin, require_bookkeeping, visible_user_ids
from .objects import (
    Bill,
    Card,
    CardDetail,
    Department,
    Receipt,
    Reimbursement,
    SpendProgram,
    SpendRequest,
    Transaction,
    User,
    Vendor,
    bill_object,
    card_detail,
    card_object,
    program_object,
    reimbursement_object,
    request_object,
    transaction_object,
    user_object,
)
from .rules import Amount, Categories, Category, Interval, PageSize, RampId, cents
from .schema import (
    bills,
    cards,
    departments,
    receipts,
    reimbursements,
    sessions,
    spend_programs,
    spend_requests,
    transactions,
    users,
    vendors,
)

Role = Literal["BUSINESS_OWNER", "BUSINESS_ADMIN", "BUSINESS_BOOKKEEPER", "BUSINESS_USER"]
Decision = Literal["APPROVE", "REJECT"]
Filename = Annotated[
    str, Field(pattern=r"(?i)^[\w .()-]{1,120}\.(pdf|jpe?g|png|heic)$", description="e.g. receipt.pdf")
]


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> User:
    """(User only) The user signs in to Ramp; the assistant then acts with their role's permissions.

    Args:
        email: The user's Ramp login email.
        password: Their password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("Unauthorized: wrong email or password.")
    if found[0]["status"] != "USER_ACTIVE":
        raise PermissionDenied("Unauthorized: this Ramp user is not active.")
    db.start_session(sessions, user_id=found[0]["id"])
    return user_object(db, found[0])


@tool(read_only=True)
def list_departments(db: Database) -> list[Department]:
    """List the business's departments by name."""
    me(db)
    return [Department(**d) for d in db.find(departments, order_by=[departments.c.name])]


@tool(read_only=True)
def list_users(
    db: Database,
    name: NonBlankText | None = None,
    department_id: RampId | None = None,
    role: Role | None = None,
    manager_id: RampId | None = None,
    page_size: PageSize = 20,
    start: str | None = None,
) -> Page[User]:
    """List the business's users (the signed-in user first, then by last name); the directory is visible to all.

    Args:
        name: Text the first name, last name or email contains, case-insensitively.
        department_id: Only users of this department.
        role: Only users with this role.
        manager_id: Only this manager's direct reports.
        page_size: Results per page.
        start: The cursor from the previous page's next_cursor.
    """
    signed = me(db)
    where, params = "1 = 1", []
    for column, value in (("department_id", department_id), ("role", role), ("manager_id", manager_id)):
        if value is not None:
            where += f" AND {column} = ?"
            params.append(value)
    if name is not None:
        where += " AND (first_name || ' ' || last_name || ' ' || email) LIKE ?"
        params.append(f"%{name.strip()}%")
    rows = db.select(users, where, params, order_by="last_name, first_name")
    rows.sort(key=lambda u: u["id"] != signed["id"])
    return paginate([user_object(db, u) for u in rows], page_size, start)


@tool(read_only=True)
def list_spend_programs(db: Database) -> list[SpendProgram]:
    """List spend programs: templates whose restrictions (amount, interval, per-transaction limit, categories) cards
    issued from them inherit; employees request spend against the virtual ones."""
    me(db)
    return [program_object(p) for p in db.find(spend_programs, order_by=[spend_programs.c.display_name])]


@tool(read_only=True)
def list_cards(
    db: Database,
    user_id: RampId | None = None,
    display_name: NonBlankText | None = None,
    state: Literal["ACTIVE", "SUSPENDED", "TERMINATED", "UNACTIVATED"] | None = None,
    is_physical: bool | None = None,
    spend_program_id: RampId | None = None,
    page_size: PageSize = 20,
    start: str | None = None,
) -> Page[Card]:
    """List cards with their spending restrictions. Employees see their own cards, managers also their reports'.

    Args:
        user_id: Only this cardholder's cards.
        display_name: Text the card's name contains, case-insensitively.
        state: Only cards in this state.
        is_physical: Only physical (true) or virtual (false) cards.
        spend_program_id: Only cards issued from this spend program.
        page_size: Results per page.
        start: The cursor from the previous page's next_cursor.
    """
    signed = me(db)
    if user_id is not None:
        check_visible(db, signed, user_id, "cards")
    rows = db.find(
        cards,
        **given(cardholder_id=user_id, state=state, is_physical=is_physical, spend_program_id=spend_program_id),
        order_by=[cards.c.created_at, cards.c.id],
    )
    allowed = visible_user_ids(db, signed)
    rows = [c for c in rows if allowed is None or c["cardholder_id"] in allowed]
    if display_name is not None:
        rows = [c for c in rows if display_name.strip().lower() in c["display_name"].lower()]
    return paginate([card_object(db, c) for c in rows], page_size, start)


@tool(read_only=True)
def get_card(db: Database, card_id: RampId) -> CardDetail:
    """One card with its restrictions and how much of its limit the current interval has used (cleared and pending
    spend since the interval began; a TOTAL limit counts all spend).

    Args:
        card_id: The card.
    """
    card = db.get(cards, card_id, "Card")
    check_visible(db, me(db), card["cardholder_id"], "cards")
    return card_detail(db, card)


@tool()
def issue_virtual_card(
    db: Database,
    user_id: RampId,
    display_name: Annotated[str, text(60)],
    spend_program_id: RampId | None = None,
    amount: Amount | None = None,
    interval: Interval | None = None,
    transaction_amount_limit: Amount | None = None,
    allowed_categories: Categories | None = None,
    blocked_categories: Categories | None = None,
) -> Card:
    """(Admins) Issue a virtual card to an active user, either from a virtual spend program (the card inherits its
    restrictions; give no restrictions then) or with its own amount and interval.

    Args:
        user_id: The cardholder.
        display_name: The card's name, e.g. the vendor it pays.
        spend_program_id: A virtual spend program to issue from.
        amount: Spend limit per interval, without a program.
        interval: The interval the amount applies to, without a program.
        transaction_amount_limit: Largest single transaction, without a program.
        allowed_categories: Only these categories may be charged (empty: any), without a program.
        blocked_categories: These categories are declined.
    """
    require_admin(db, "issue cards")
    holder = db.get(users, user_id, "User")
    if holder["status"] != "USER_ACTIVE":
        raise Conflict(f"User {user_id} is {holder['status']}; cards can only be issued to active users.")
    if spend_program_id is not None:
        program = db.get(spend_programs, spend_program_id, "Spend program")
        if program["is_physical"]:
            raise InvalidRequest(f"Spend program '{program['display_name']}' issues physical cards, not virtual ones.")
        if amount is not None or interval is not None or transaction_amount_limit is not None or allowed_categories:
            raise InvalidRequest("A card issued from a spend program takes the program's restrictions; omit them.")
        amount_c, interval, limit_c = program["amount"], program["interval"], program["transaction_amount_limit"]
        allowed = list(program["allowed_categories"])
    else:
        if amount is None or interval is None:
            raise InvalidRequest("amount and interval are required when no spend_program_id is given.")
        amount_c, limit_c = cents(amount), cents(transaction_amount_limit) if transaction_amount_limit else None
        allowed = sorted(allowed_categories or [])
    blocked = sorted(blocked_categories or [])
    rules.check_restrictions(amount_c, limit_c, allowed, blocked)
    card_id = db.new_uuid(cards)
    row = db.insert(
        cards, id=card_id, cardholder_id=user_id, display_name=display_name.strip(), last_four=rules.last_four(card_id),
        is_physical=False, state="ACTIVE", amount=amount_c, interval=interval, transaction_amount_limit=limit_c,
        allowed_categories=allowed, blocked_categories=blocked, spend_program_id=spend_program_id,
        created_at=db.now_iso(),
    )  # fmt: skip
    return card_object(db, row)


@tool()
def update_card(
    db: Database,
    card_id: RampId,
    display_name: Annotated[str, text(60)] | None = None,
    amount: Amount | None = None,
    interval: Interval | None = None,
    transaction_amount_limit: Amount | None = None,
    allowed_categories: Categories | None = None,
    blocked_categories: Categories | None = None,
) -> CardDetail:
    """(Admins) Rename a card or change its spending restrictions; only what is given changes. A card issued from a
    spend program keeps the program's restrictions (only its name and blocked categories change here).

    Args:
        card_id: The card.
        display_name: A new name.
        amount: A new spend limit per interval.
        interval: A new interval.
        transaction_amount_limit: A new largest single transaction.
        allowed_categories: The new full list of allowed categories (empty: any).
        blocked_categories: The new full list of blocked categories.
    """
    require_admin(db, "change cards")
    card = db.get(cards, card_id, "Card")
    rules.check_card_action(card, "update")
    governed = amount is not None or interval is not None or transaction_amount_limit is not None
    if card["spend_program_id"] and (governed or allowed_categories is not None):
        name = db.get(spend_programs, card["spend_program_id"])["display_name"]
        raise Conflict(f"Card {card_id} follows spend program '{name}'; its limits are set by the program.")
    changes = {
        **given(display_name=display_name.strip() if display_name else None, interval=interval),
        **given(amount=cents(amount) if amount is not None else None),
        **given(transaction_amount_limit=cents(transaction_amount_limit) if transaction_amount_limit else None),
        **given(allowed_categories=sorted(allowed_categories) if allowed_categories is not None else None),
        **given(blocked_categories=sorted(blocked_categories) if blocked_categories is not None else None),
    }
    merged = {**card, **changes}
    rules.check_restrictions(
        merged["amount"], merged["transaction_amount_limit"], merged["allowed_categories"], merged["blocked_categories"]
    )
    return card_detail(db, db.update(cards, card_id, **changes))


@tool()
def suspend_card(db: Database, card_id: RampId) -> Card:
    """Suspend (lock) an active card: new charges are declined until it is unsuspended. Admins may suspend any card,
    cardholders their own.

    Args:
        card_id: The card.
    """
    signed, card = me(db), db.get(cards, card_id, "Card")
    if not is_admin(signed) and card["cardholder_id"] != signed["id"]:
        raise PermissionDenied("Forbidden: only admins or the cardholder can suspend this card.")
    rules.check_card_action(card, "suspend")
    return card_object(db, db.update(cards, card_id, state="SUSPENDED"))


@tool()
def unsuspend_card(db: Database, card_id: RampId) -> Card:
    """Unsuspend (unlock) a suspended card of an active user. Admins may unsuspend any card, cardholders their own.

    Args:
        card_id: The card.
    """
    signed, card = me(db), db.get(cards, card_id, "Card")
    if not is_admin(signed) and card["cardholder_id"] != signed["id"]:
        raise PermissionDenied("Forbidden: only admins or the cardholder can unsuspend this card.")
    rules.check_card_action(card, "unsuspend")
    holder = db.get(users, card["cardholder_id"])
    if holder["status"] != "USER_ACTIVE":
        raise Conflict(f"The cardholder is {holder['status']}; their cards cannot be unsuspended.")
    return card_object(db, db.update(cards, card_id, state="ACTIVE"))


@tool()
def terminate_card(db: Database, card_id: RampId) -> Card:
    """(Admins) Terminate a card for good; a terminated card can never be used or reactivated.

    Args:
        card_id: The card.
    """
    require_admin(db, "terminate cards")
    card = db.get(cards, card_id, "Card")
    rules.check_card_action(card, "terminate")
    return card_object(db, db.update(cards, card_id, state="TERMINATED"))


@tool(read_only=True)
def list_transactions(
    db: Database,
    user_id: RampId | None = None,
    card_id: RampId | None = None,
    state: Literal["CLEARED", "PENDING", "DECLINED"] | None = None,
    from_date: IsoDate | None = None,
    to_date: IsoDate | None = None,
    merchant_name: NonBlankText | None = None,
    sk_category_name: Category | None = None,
    min_amount: Amount | None = None,
    max_amount: Amount | None = None,
    has_no_receipts: bool | None = None,
    page_size: PageSize = 20,
    start: str | None = None,
) -> Page[Transaction]:
    """List card transactions, newest first. Employees see their own, managers also their reports'.

    Args:
        user_id: Only this cardholder's transactions.
        card_id: Only this card's transactions.
        state: Only transactions in this state.
        from_date: Only transactions on or after this day.
        to_date: Only transactions on or before this day.
        merchant_name: Text the merchant's name contains, case-insensitively.
        sk_category_name: Only this spend category.
        min_amount: Only transactions of at least this many dollars.
        max_amount: Only transactions of at most this many dollars.
        has_no_receipts: true: only transactions without a receipt; false: only those with one.
        page_size: Results per page.
        start: The cursor from the previous page's next_cursor.
    """
    signed = me(db)
    if user_id is not None:
        check_visible(db, signed, user_id, "transactions")
    where, params = "1 = 1", []
    equals = (("user_id", user_id), ("card_id", card_id), ("state", state), ("sk_category_name", sk_category_name))
    for column, value in equals:
        if value is not None:
            where += f" AND {column} = ?"
            params.append(value)
    if from_date is not None:
        where += " AND user_transaction_time >= ?"
        params.append(parse_date(from_date, "from_date").isoformat())
    if to_date is not None:
        where += " AND user_transaction_time < ?"
        params.append(f"{parse_date(to_date, 'to_date').isoformat()}T99")
    if merchant_name is not None:
        where += " AND merchant_name LIKE ?"
        params.append(f"%{merchant_name.strip()}%")
    for op, value in ((">=", min_amount), ("<=", max_amount)):
        if value is not None:
            where += f" AND amount {op} ?"
            params.append(cents(value))
    if has_no_receipts is not None:
        with_receipt = "SELECT transaction_id FROM receipts WHERE transaction_id IS NOT NULL"
        where += f" AND id {'NOT IN' if has_no_receipts else 'IN'} ({with_receipt})"
    allowed = visible_user_ids(db, signed)
    if allowed is not None:
        where += f" AND user_id IN ({', '.join('?' * len(allowed))})"
        params.extend(allowed)
    rows = db.select(transactions, where, params, order_by="user_transaction_time DESC, id")
    return paginate([transaction_object(db, t) for t in rows], page_size, start)


@tool()
def update_transaction_memo(db: Database, transaction_id: RampId, memo: Annotated[str, text(500)]) -> Transaction:
    """Set (replace) the memo of a cleared or pending transaction: the cardholder or an admin.

    Args:
        transaction_id: The transaction.
        memo: The memo text, e.g. who the meal was with and why.
    """
    signed, row = me(db), db.get(transactions, transaction_id, "Transaction")
    if not is_admin(signed) and row["user_id"] != signed["id"]:
        raise PermissionDenied("Forbidden: only the cardholder or an admin can edit this transaction's memo.")
    if row["state"] == "DECLINED":
        raise Conflict(f"Transaction {transaction_id} was declined; declined transactions take no memo.")
    return transaction_object(db, db.update(transactions, transaction_id, memo=memo.strip()))


@tool()
def upload_receipt(
    db: Database, filename: Filename, transaction_id: RampId | None = None, reimbursement_id: RampId | None = None
) -> Receipt:
    """Attach a receipt file to a card transaction (the cardholder or an admin; not a declined one) or to one of your
    own pending reimbursements. Give exactly one of transaction_id and reimbursement_id.

    Args:
        filename: The receipt file's name as the user gives it.
        transaction_id: The card transaction it belongs to.
        reimbursement_id: The reimbursement it belongs to.
    """
    signed = me(db)
    if (transaction_id is None) == (reimbursement_id is None):
        raise InvalidRequest("Give exactly one of transaction_id and reimbursement_id.")
    if transaction_id is not None:
        row = db.get(transactions, transaction_id, "Transaction")
        if not is_admin(signed) and row["user_id"] != signed["id"]:
            raise PermissionDenied("Forbidden: only the cardholder or an admin can add receipts to this transaction.")
        if row["state"] == "DECLINED":
            raise Conflict(f"Transaction {transaction_id} was declined; it needs no receipt.")
    else:
        row = db.get(reimbursements, reimbursement_id, "Reimbursement")
        if row["user_id"] != signed["id"]:
            raise PermissionDenied("Forbidden: only the submitter can add receipts to a reimbursement.")
        if row["state"] != "PENDING":
            raise Conflict(f"Reimbursement {reimbursement_id} is {row['state']}; receipts go on pending ones.")
    receipt = db.insert(
        receipts, id=db.new_uuid(receipts), transaction_id=transaction_id, reimbursement_id=reimbursement_id,
        user_id=row["user_id"], filename=filename, created_at=db.now_iso(),
    )  # fmt: skip
    return Receipt(**{k: receipt[k] for k in Receipt.model_fields})


@tool(read_only=True)
def list_reimbursements(
    db: Database,
    user_id: RampId | None = None,
    state: Literal["PENDING", "APPROVED", "REJECTED", "REIMBURSED"] | None = None,
    from_date: IsoDate | None = None,
    to_date: IsoDate | None = None,
    page_size: PageSize = 20,
    start: str | None = None,
) -> Page[Reimbursement]:
    """List out-of-pocket reimbursements, newest spend first. Employees see their own, managers also their reports'.

    Args:
        user_id: Only this person's reimbursements.
        state: Only reimbursements in this state.
        from_date: Only spend on or after this day.
        to_date: Only spend on or before this day.
        page_size: Results per page.
        start: The cursor from the previous page's next_cursor.
    """
    signed = me(db)
    if user_id is not None:
        check_visible(db, signed, user_id, "reimbursements")
    rows = db.find(reimbursements, **given(user_id=user_id, state=state), order_by=[reimbursements.c.id])
    allowed = visible_user_ids(db, signed)
    rows = [
        r
        for r in rows
        if (allowed is None or r["user_id"] in allowed)
        and (from_date is None or r["transaction_date"] >= parse_date(from_date, "from_date").isoformat())
        and (to_date is None or r["transaction_date"] <= parse_date(to_date, "to_date").isoformat())
    ]
    rows.sort(key=lambda r: r["transaction_date"], reverse=True)
    return paginate([reimbursement_object(db, r) for r in rows], page_size, start)


@tool()
def submit_reimbursement(
    db: Database,
    merchant: Annotated[str, text(80)],
    amount: Amount,
    transaction_date: IsoDate,
    sk_category_name: Category,
    memo: Annotated[str, text(500)],
    receipt_filename: Filename | None = None,
) -> Reimbursement:
    """Submit an out-of-pocket expense of the signed-in user for reimbursement. Policy: spend within the last 90
    days, a receipt for $75.00 or more, and no second claim for the same merchant, amount and day.

    Args:
        merchant: Where the money was spent.
        amount: Dollars spent.
        transaction_date: The day of the spend.
        sk_category_name: The spend category.
        memo: What it was for.
        receipt_filename: The receipt file to attach.
    """
    signed = me(db)
    spent_on = parse_date(transaction_date, "transaction_date")
    rules.check_reimbursement_date(db.now().date(), spent_on)
    amount_c = cents(amount)
    if amount_c >= rules.RECEIPT_REQUIRED_CENTS and receipt_filename is None:
        raise InvalidRequest("A receipt is required for reimbursements of $75.00 or more.")
    for other in db.find(reimbursements, user_id=signed["id"], amount=amount_c, transaction_date=spent_on.isoformat()):
        if other["state"] != "REJECTED" and other["merchant"].lower() == merchant.strip().lower():
            raise Conflict(f"Duplicate reimbursement: {other['id']} already claims this expense.")
    row = db.insert(
        reimbursements, id=db.new_uuid(reimbursements), user_id=signed["id"], merchant=merchant.strip(),
        sk_category_name=sk_category_name, amount=amount_c, currency="USD", transaction_date=spent_on.isoformat(),
        memo=memo.strip(), state="PENDING", reviewer_id=None, rejection_reason=None, created_at=db.now_iso(),
    )  # fmt: skip
    if receipt_filename is not None:
        db.insert(
            receipts, id=db.new_uuid(receipts), transaction_id=None, reimbursement_id=row["id"], user_id=signed["id"],
            filename=receipt_filename, created_at=db.now_iso(),
        )  # fmt: skip
    return reimbursement_object(db, row)


@tool()
def review_reimbursement(
    db: Database,
    reimbursement_id: RampId,
    decision: Decision,
    rejection_reason: Annotated[str, text(300)] | None = None,
) -> Reimbursement:
    """Approve or reject a pending reimbursement: an admin or the submitter's manager, never the submitter. A
    rejection needs a reason; approval needs a receipt when the amount is $75.00 or more.

    Args:
        reimbursement_id: The reimbursement.
        decision: APPROVE or REJECT.
        rejection_reason: Why it is rejected (required to reject).
    """
    signed, row = me(db), db.get(reimbursements, reimbursement_id, "Reimbursement")
    check_reviewer(db, signed, row["user_id"], "reimbursement")
    if row["state"] != "PENDING":
        raise Conflict(f"Reimbursement {reimbursement_id} is {row['state']}; only pending ones can be reviewed.")
    if decision == "REJECT" and not rejection_reason:
        raise InvalidRequest("rejection_reason is required to reject a reimbursement.")
    if decision == "APPROVE" and row["amount"] >= rules.RECEIPT_REQUIRED_CENTS:
        if not db.find(receipts, reimbursement_id=reimbursement_id):
            raise Conflict("A receipt is required before approving a reimbursement of $75.00 or more.")
    state = "APPROVED" if decision == "APPROVE" else "REJECTED"
    reason = rejection_reason.strip() if decision == "REJECT" and rejection_reason else None
    return reimbursement_object(
        db, db.update(reimbursements, reimbursement_id, state=state, reviewer_id=signed["id"], rejection_reason=reason)
    )


@tool()
def request_spend(
    db: Database,
    spend_program_id: RampId,
    display_name: Annotated[str, text(60)],
    amount: Amount,
    reason: Annotated[str, text(300)],
) -> SpendRequest:
    """Request a virtual card of the signed-in user from a spend program, for up to the program's amount. Programs
    that need approval wait for an admin or the requester's manager; the others issue the card at once.

    Args:
        spend_program_id: The virtual spend program.
        display_name: The card's name, e.g. the tool or trip it is for.
        amount: The limit asked for, in dollars.
        reason: Why it is needed.
    """
    signed = me(db)
    program = db.get(spend_programs, spend_program_id, "Spend program")
    if program["is_physical"]:
        raise InvalidRequest(f"Spend program '{program['display_name']}' issues physical cards; ask an admin.")
    if cents(amount) > program["amount"]:
        raise InvalidRequest(
            f"Requested amount exceeds the program's limit of {program['amount'] / 100:.2f} per {program['interval']}."
        )
    if db.find(spend_requests, user_id=signed["id"], spend_program_id=spend_program_id, status="PENDING"):
        raise Conflict(f"You already have a pending request for '{program['display_name']}'.")
    row = db.insert(
        spend_requests, id=db.new_uuid(spend_requests), user_id=signed["id"], spend_program_id=spend_program_id,
        display_name=display_name.strip(), amount=cents(amount), reason=reason.strip(), status="PENDING",
        reviewer_id=None, card_id=None, created_at=db.now_iso(),
    )  # fmt: skip
    if not program["requires_approval"]:
        row = rules.approve_request(db, row, program, None)
    return request_object(db, row)


@tool(read_only=True)
def list_spend_requests(
    db: Database,
    status: Literal["PENDING", "APPROVED", "REJECTED"] | None = None,
    user_id: RampId | None = None,
) -> list[SpendRequest]:
    """List spend requests, newest first. Employees see their own, managers also their reports'.

    Args:
        status: Only requests with this status.
        user_id: Only this person's requests.
    """
    signed = me(db)
    if user_id is not None:
        check_visible(db, signed, user_id, "spend requests")
    allowed = visible_user_ids(db, signed)
    order = [spend_requests.c.created_at.desc(), spend_requests.c.id]
    rows = db.find(spend_requests, **given(status=status, user_id=user_id), order_by=order)
    return [request_object(db, r) for r in rows if allowed is None or r["user_id"] in allowed]


@tool()
def review_spend_request(
    db: Database, request_id: RampId, decision: Decision, amount: Amount | None = None
) -> SpendRequest:
    """Approve or reject a pending spend request: an admin or the requester's manager, never the requester.
    Approving issues the virtual card from the program, with the requested amount or a lower one given here.

    Args:
        request_id: The spend request.
        decision: APPROVE or REJECT.
        amount: Approve for this many dollars instead (not above the request).
    """
    signed, row = me(db), db.get(spend_requests, request_id, "Spend request")
    check_reviewer(db, signed, row["user_id"], "spend request")
    if row["status"] != "PENDING":
        raise Conflict(f"Spend request {request_id} is {row['status']}; only pending requests can be reviewed.")
    if decision == "REJECT":
        return request_object(db, db.update(spend_requests, request_id, status="REJECTED", reviewer_id=signed["id"]))
    if amount is not None and cents(amount) > row["amount"]:
        raise InvalidRequest("The approved amount cannot be greater than the amount requested.")
    program = db.get(spend_programs, row["spend_program_id"])
    return request_object(db, rules.approve_request(db, row, program, signed["id"], cents(amount) if amount else None))


@tool(read_only=True)
def list_vendors(db: Database, name: NonBlankText | None = None, include_inactive: bool = False) -> list[Vendor]:
    """List bill-pay vendors by name.

    Args:
        name: Text the vendor's name contains, case-insensitively.
        include_inactive: Also list inactive vendors.
    """
    require_bookkeeping(db, "see vendors")
    rows = db.find(vendors, **({} if include_inactive else {"is_active": True}), order_by=[vendors.c.name])
    return [Vendor(**v) for v in rows if name is None or name.strip().lower() in v["name"].lower()]


@tool(read_only=True)
def list_bills(
    db: Database,
    vendor_id: RampId | None = None,
    status: Literal["OPEN", "PAID"] | None = None,
    approval_status: Literal["PENDING", "APPROVED", "REJECTED"] | None = None,
    from_due_date: IsoDate | None = None,
    to_due_date: IsoDate | None = None,
    page_size: PageSize = 20,
    start: str | None = None,
) -> Page[Bill]:
    """List bills (accounts payable) by due date (owners, admins and bookkeepers).

    Args:
        vendor_id: Only this vendor's bills.
        status: OPEN (unpaid) or PAID.
        approval_status: Only bills with this approval status.
        from_due_date: Only bills due on or after this day.
        to_due_date: Only bills due on or before this day.
        page_size: Results per page.
        start: The cursor from the previous page's next_cursor.
    """
    require_bookkeeping(db, "see bills")
    where, params = "1 = 1", []
    for column, op, value in (
        ("vendor_id", "=", vendor_id), ("status", "=", status), ("approval_status", "=", approval_status),
        ("due_at", ">=", from_due_date), ("due_at", "<=", to_due_date),
    ):  # fmt: skip
        if value is not None:
            where += f" AND {column} {op} ?"
            params.append(value)
    rows = db.select(bills, where, params, order_by="due_at, invoice_number")
    return paginate([bill_object(db, b) for b in rows], page_size, start)


@tool()
def create_bill(
    db: Database,
    vendor_id: RampId,
    invoice_number: Annotated[str, text(40)],
    amount: Amount,
    issued_at: IsoDate,
    due_at: IsoDate,
    memo: Annotated[str, text(300)] | None = None,
) -> Bill:
    """Record a vendor's invoice as a bill (owners, admins, bookkeepers). Bills created through the API are
    approved at once and wait OPEN for payment; a vendor's invoice number can be billed once.

    Args:
        vendor_id: The active vendor.
        invoice_number: The vendor's invoice number.
        amount: The invoice total in dollars.
        issued_at: The invoice date.
        due_at: The payment due date (not before the invoice date).
        memo: What it is for.
    """
    signed = require_bookkeeping(db, "create bills")
    vendor = db.get(vendors, vendor_id, "Vendor")
    if not vendor["is_active"]:
        raise Conflict(f"Vendor '{vendor['name']}' is inactive; bills cannot be created for it.")
    issued, due = parse_date(issued_at, "issued_at"), parse_date(due_at, "due_at")
    if due < issued:
        raise InvalidRequest("due_at cannot be before issued_at.")
    number = invoice_number.strip()
    if db.find(bills, vendor_id=vendor_id, invoice_number=number):
        raise Conflict(f"A bill for invoice {number} from '{vendor['name']}' already exists.")
    row = db.insert(
        bills, id=db.new_uuid(bills), vendor_id=vendor_id, invoice_number=number, amount=cents(amount),
        currency="USD", issued_at=issued.isoformat(), due_at=due.isoformat(), memo=memo.strip() if memo else None,
        approval_status="APPROVED", status="OPEN", payment_method=None, paid_at=None, owner_id=signed["id"],
    )  # fmt: skip
    return bill_object(db, row)


@tool()
def approve_bill(db: Database, bill_id: RampId) -> Bill:
    """(Admins) Approve a bill waiting for approval so it can be paid.

    Args:
        bill_id: The bill.
    """
    require_admin(db, "approve bills")
    row = db.get(bills, bill_id, "Bill")
    if row["approval_status"] != "PENDING":
        raise Conflict(f"Bill {bill_id} is {row['approval_status']}; only bills pending approval can be approved.")
    return bill_object(db, db.update(bills, bill_id, approval_status="APPROVED"))


@tool()
def pay_bill(db: Database, bill_id: RampId, payment_method: Literal["ACH", "CHECK", "WIRE"]) -> Bill:
    """(Admins) Pay an approved, open bill today; a paid bill cannot be paid again.

    Args:
        bill_id: The bill.
        payment_method: How the vendor is paid.
    """
    require_admin(db, "pay bills")
    row = db.get(bills, bill_id, "Bill")
    if row["status"] == "PAID":
        raise Conflict(f"Bill {bill_id} was already paid on {row['paid_at']}.")
    if row["approval_status"] != "APPROVED":
        raise Conflict(f"Bill {bill_id} is {row['approval_status']} approval; only approved bills can be paid.")
    today = db.now().date().isoformat()
    return bill_object(db, db.update(bills, bill_id, status="PAID", payment_method=payment_method, paid_at=today))
