"""Mercury API tools as a signed-in team member sees them: the team and the payment approval policy, accounts
(checking, savings, treasury) and their transactions, recipients with their routing info, payments by ACH, domestic
wire and check (sent at once within the daily limit, or as send money requests that admins approve), internal
transfers between the company's accounts, and monthly statements; plus the team member's own sign-in."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, PermissionDenied, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoDate, NonBlankText, text
from envfactory_gym.values import parse_date

from . import rules
from .access import admin, banking_user, money_mover
from .objects import (
    Account,
    InternalTransfer,
    PaymentLimits,
    Recipient,
    SendMoneyRequest,
    Statement,
    TeamMember,
    Transaction,
    account_object,
    member_object,
    recipient_object,
    request_object,
    statement_object,
    transaction_object,
)
from .rules import AccountNumber, Amount, Category, Kind, MercuryId, PageSize, PaymentMethod, RoutingNumber, Status
from .schema import accounts, organization, recipients, send_money_requests, sessions, statements, transactions, users

Note = Annotated[str, text(280)]
ExternalMemo = Annotated[str, Field(min_length=1, max_length=80, description="shown to the recipient (ACH: 80)")]
AccountType = Literal["businessChecking", "businessSavings", "personalChecking", "personalSavings"]
Region = Annotated[str, Field(pattern=r"^[A-Z]{2}$", description="2-letter US state code, e.g. CA")]
PostalCode = Annotated[str, Field(pattern=r"^\d{5}(-\d{4})?$", description="US ZIP code")]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", max_length=120)]
IdempotencyKey = Annotated[str, text(64)]


def _window(cursor: str | None, page_size: int) -> int | None:
    """How many rows a page needs fetched: those before it, its own and one more to tell whether more follow (None
    for a malformed cursor, which paginate then refuses)."""
    try:
        return int(cursor or 0) + page_size + 1
    except ValueError:
        return None


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> TeamMember:
    """(User only) The team member signs in to Mercury; the assistant then acts with their role's permissions.

    Args:
        email: The team member's Mercury login email.
        password: Their password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("Unauthorized: wrong email or password.")
    if found[0]["status"] != "active":
        raise PermissionDenied("Unauthorized: this team member has been disabled.")
    db.start_session(sessions, user_id=found[0]["id"])
    return member_object(found[0])


@tool(read_only=True)
def list_team_members(
    db: Database, role: Literal["admin", "custom", "bookkeeper", "employee"] | None = None
) -> list[TeamMember]:
    """List the company's team members (by last name) with their role and whether they may move money.

    Args:
        role: Only team members with this role.
    """
    banking_user(db)
    return [member_object(u) for u in db.find(users, **given(role=role), order_by=[users.c.last_name])]


@tool(read_only=True)
def get_payment_limits(db: Database) -> PaymentLimits:
    """The company's payment approval policy as it applies to the signed-in team member: the daily limit on payments
    to recipients (internal transfers don't count), how much they sent today, what is left before a payment needs
    admin approval, and how many admin approvals their send money requests need (1 for an admin, else 2)."""
    user = banking_user(db)
    limit = db.get(organization, "org")["daily_payment_limit"]
    sent = rules.sent_today(db, user["id"])
    midnight = (db.now() + timedelta(days=1)).strftime("%Y-%m-%dT00:00:00Z")
    return PaymentLimits(
        user_id=user["id"], role=user["role"], can_move_money=user["role"] == "admin" or user["can_move_money"],
        daily_payment_limit=limit / 100, sent_today=sent / 100, remaining_today=max(limit - sent, 0) / 100,
        approvals_required_for_requests=1 if user["role"] == "admin" else 2, resets_at=midnight,
    )  # fmt: skip


@tool(read_only=True)
def list_accounts(
    db: Database, kind: Literal["checking", "savings", "treasury"] | None = None, include_archived: bool = False
) -> list[Account]:
    """List the company's Mercury accounts with balances (current: posted; available: less pending payments).

    Args:
        kind: Only accounts of this kind.
        include_archived: Also list archived accounts.
    """
    banking_user(db)
    rows = db.find(accounts, **given(kind=kind), order_by=[accounts.c.created_at])
    return [account_object(a) for a in rows if include_archived or a["status"] != "archived"]


@tool(read_only=True)
def get_account(db: Database, account_id: MercuryId) -> Account:
    """One account with its account and routing numbers and balances.

    Args:
        account_id: The account.
    """
    banking_user(db)
    return account_object(db.get(accounts, account_id, "Account"))


@tool(read_only=True)
def list_transactions(
    db: Database,
    account_id: MercuryId | None = None,
    start: IsoDate | None = None,
    end: IsoDate | None = None,
    status: Status | None = None,
    kind: Kind | None = None,
    search: NonBlankText | None = None,
    counterparty_id: MercuryId | None = None,
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> Page[Transaction]:
    """List transactions across the company's accounts, newest first. Amounts are negative when money leaves.

    Args:
        account_id: Only this account's transactions.
        start: Only transactions created on or after this day.
        end: Only transactions created on or before this day.
        status: Only transactions in this status.
        kind: Only transactions of this kind.
        search: Text the counterparty's name, the note, the memo or the bank description contains, case-insensitively.
        counterparty_id: Only transactions with this recipient.
        page_size: Results per page.
        cursor: The next_cursor of the previous page.
    """
    banking_user(db)
    where, params = "1 = 1", []
    for column, value in (("account_id", account_id), ("status", status), ("kind", kind)):
        if value is not None:
            where += f" AND {column} = ?"
            params.append(value)
    if counterparty_id is not None:
        where += " AND counterparty_id = ?"
        params.append(counterparty_id)
    if start is not None:
        where += " AND created_at >= ?"
        params.append(parse_date(start, "start").isoformat())
    if end is not None:
        where += " AND created_at < ?"
        params.append(f"{parse_date(end, 'end').isoformat()}T99")
    if search is not None:
        text_of = "counterparty_name || ' ' || coalesce(note, '') || ' ' || coalesce(external_memo, '') || ' ' || "
        where += f" AND ({text_of}coalesce(bank_description, '')) LIKE ?"
        params.append(f"%{search.strip()}%")
    rows = db.select(transactions, where, params, order_by="created_at DESC", limit=_window(cursor, page_size))
    page = paginate(rows, page_size, cursor)
    names = {a["id"]: a["name"] for a in db.find(accounts)}
    return Page[Transaction](
        results=[transaction_object(db, t, names) for t in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool(read_only=True)
def get_transaction(db: Database, transaction_id: MercuryId) -> Transaction:
    """One transaction with its status, payment method, note, category and delivery estimate.

    Args:
        transaction_id: The transaction.
    """
    banking_user(db)
    return transaction_object(db, db.get(transactions, transaction_id, "Transaction"))


@tool()
def update_transaction(
    db: Database, transaction_id: MercuryId, note: Note | None = None, category: Category | None = None
) -> Transaction:
    """Set a transaction's internal note and/or its category (for bookkeeping); only what is given changes.

    Args:
        transaction_id: The transaction.
        note: The internal note (not shown to the counterparty).
        category: The category.
    """
    banking_user(db)
    row = db.get(transactions, transaction_id, "Transaction")
    if note is None and category is None:
        raise InvalidRequest("Give a note or a category to change.")
    return transaction_object(db, db.update(transactions, row["id"], **given(note=note, category=category)))


@tool()
def cancel_transaction(db: Database, transaction_id: MercuryId) -> Transaction:
    """Cancel a payment to a recipient that is still pending (ACH or check; a wire cannot be recalled once
    submitted): its amount returns to the available balance.

    Args:
        transaction_id: The pending payment.
    """
    user = money_mover(db)
    row = db.get(transactions, transaction_id, "Transaction")
    if row["payment_method"] is None:
        raise InvalidRequest("Only payments sent to recipients can be cancelled.")
    if row["status"] != "pending":
        raise Conflict(f"This payment is {row['status']}; only pending payments can be cancelled.")
    if row["payment_method"] == "domesticWire":
        raise Conflict("Wires cannot be cancelled once submitted.")
    if user["role"] != "admin" and row["created_by"] != user["id"]:
        raise PermissionDenied("Forbidden: only admins can cancel payments someone else sent.")
    account = db.get(accounts, row["account_id"])
    db.update(accounts, account["id"], available_balance=account["available_balance"] - row["amount"])
    return transaction_object(db, db.update(transactions, row["id"], status="cancelled"))


@tool(read_only=True)
def list_recipients(
    db: Database,
    name: NonBlankText | None = None,
    status: Literal["active", "deleted"] = "active",
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> Page[Recipient]:
    """List saved payment recipients by name, with their routing info.

    Args:
        name: Text the recipient's name, nickname or email contains, case-insensitively.
        status: active recipients, or deleted ones.
        page_size: Results per page.
        cursor: The next_cursor of the previous page.
    """
    banking_user(db)
    where, params = "status = ?", [status]
    if name is not None:
        where += " AND (name || ' ' || coalesce(nickname, '') || ' ' || CAST(emails AS TEXT)) LIKE ?"
        params.append(f"%{name.strip()}%")
    page = paginate(db.select(recipients, where, params, order_by="name"), page_size, cursor)
    return Page[Recipient](
        results=[recipient_object(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def get_recipient(db: Database, recipient_id: MercuryId) -> Recipient:
    """One recipient with its routing info and when it was last paid.

    Args:
        recipient_id: The recipient.
    """
    banking_user(db)
    return recipient_object(db.get(recipients, recipient_id, "Recipient"))


def _routing(
    ach_account_number: str | None, ach_routing_number: str | None, wire_account_number: str | None,
    wire_routing_number: str | None,
) -> None:  # fmt: skip
    """Account and routing numbers come in pairs, and each routing number passes the ABA check."""
    for account, routing, what in (
        (ach_account_number, ach_routing_number, "ACH"),
        (wire_account_number, wire_routing_number, "domestic wire"),
    ):
        if (account is None) != (routing is None):
            raise InvalidRequest(f"Give both the account number and the routing number for {what}.")
        if routing is not None:
            rules.check_routing_number(routing)


@tool()
def create_recipient(
    db: Database,
    name: Annotated[str, text(100)],
    emails: Annotated[list[Email], Field(min_length=1, max_length=5)],
    default_payment_method: PaymentMethod,
    is_business: bool = True,
    nickname: Annotated[str, text(60)] | None = None,
    ach_account_number: AccountNumber | None = None,
    ach_routing_number: RoutingNumber | None = None,
    electronic_account_type: AccountType = "businessChecking",
    bank_name: Annotated[str, text(80)] | None = None,
    wire_account_number: AccountNumber | None = None,
    wire_routing_number: RoutingNumber | None = None,
    address1: Annotated[str, text(120)] | None = None,
    city: Annotated[str, text(60)] | None = None,
    region: Region | None = None,
    postal_code: PostalCode | None = None,
) -> Recipient:
    """Save a new payment recipient with the routing info for the methods it will be paid by (the default method's
    info is required). A recipient with the same ACH account and routing number already saved is refused.

    Args:
        name: The recipient's legal name.
        emails: Where Mercury sends payment notifications.
        default_payment_method: How the recipient is usually paid.
        is_business: A business (true) or a person (false).
        nickname: A short name for the team.
        ach_account_number: Account number for ACH.
        ach_routing_number: ABA routing number for ACH.
        electronic_account_type: The kind of account ACH pays into.
        bank_name: The recipient's bank.
        wire_account_number: Account number for domestic wires.
        wire_routing_number: ABA routing number for domestic wires.
        address1: Street address (needed for checks).
        city: City.
        region: State.
        postal_code: ZIP code.
    """
    money_mover(db)
    _routing(ach_account_number, ach_routing_number, wire_account_number, wire_routing_number)
    address = (address1, city, region, postal_code)
    if any(a is not None for a in address) and not all(a is not None for a in address):
        raise InvalidRequest("A check address needs address1, city, region and postal_code.")
    row = {
        "ach_account_number": ach_account_number, "wire_account_number": wire_account_number, "address1": address1,
    }  # fmt: skip
    needed = {"ach": "ach_account_number", "domesticWire": "wire_account_number", "check": "address1"}
    if row[needed[default_payment_method]] is None:
        raise InvalidRequest(f"defaultPaymentMethod {default_payment_method} needs its routing info or address.")
    if ach_account_number is not None:
        same = db.find(
            recipients, status="active", ach_account_number=ach_account_number, ach_routing_number=ach_routing_number
        )
        if same:
            raise Conflict(f"A recipient with this account and routing number already exists: {same[0]['name']}.")
    created = db.insert(
        recipients, id=db.new_uuid(recipients), name=name.strip(), nickname=nickname, emails=list(emails),
        status="active", is_business=is_business, default_payment_method=default_payment_method,
        ach_account_number=ach_account_number, ach_routing_number=ach_routing_number,
        electronic_account_type=electronic_account_type if ach_account_number else None, bank_name=bank_name,
        wire_account_number=wire_account_number, wire_routing_number=wire_routing_number, address1=address1,
        city=city, region=region, postal_code=postal_code, date_last_paid=None, created_at=db.now_iso(),
    )  # fmt: skip
    return recipient_object(created)


@tool()
def update_recipient(
    db: Database,
    recipient_id: MercuryId,
    nickname: Annotated[str, text(60)] | None = None,
    emails: Annotated[list[Email], Field(min_length=1, max_length=5)] | None = None,
    default_payment_method: PaymentMethod | None = None,
    ach_account_number: AccountNumber | None = None,
    ach_routing_number: RoutingNumber | None = None,
    bank_name: Annotated[str, text(80)] | None = None,
    wire_account_number: AccountNumber | None = None,
    wire_routing_number: RoutingNumber | None = None,
) -> Recipient:
    """Change a recipient's nickname, emails, default payment method or routing info; only what is given changes
    (account and routing numbers change together).

    Args:
        recipient_id: The recipient.
        nickname: A new nickname.
        emails: The new full list of notification emails.
        default_payment_method: A new default method (its routing info must be on file).
        ach_account_number: New ACH account number.
        ach_routing_number: New ACH routing number.
        bank_name: The bank's name.
        wire_account_number: New domestic wire account number.
        wire_routing_number: New domestic wire routing number.
    """
    money_mover(db)
    recipient = db.get(recipients, recipient_id, "Recipient")
    if recipient["status"] != "active":
        raise Conflict(f"Recipient {recipient['name']} has been deleted.")
    _routing(ach_account_number, ach_routing_number, wire_account_number, wire_routing_number)
    changes = given(
        nickname=nickname, emails=list(emails) if emails else None, default_payment_method=default_payment_method,
        ach_account_number=ach_account_number, ach_routing_number=ach_routing_number, bank_name=bank_name,
        wire_account_number=wire_account_number, wire_routing_number=wire_routing_number,
    )  # fmt: skip
    if not changes:
        raise InvalidRequest("Give something to change.")
    merged = {**recipient, **changes}
    needed = {"ach": "ach_account_number", "domesticWire": "wire_account_number", "check": "address1"}
    if not merged[needed[merged["default_payment_method"]]]:
        raise InvalidRequest(f"defaultPaymentMethod {merged['default_payment_method']} needs its routing info first.")
    if ach_account_number is not None and merged["electronic_account_type"] is None:
        changes["electronic_account_type"] = "businessChecking"
    return recipient_object(db.update(recipients, recipient_id, **changes))


@tool()
def delete_recipient(db: Database, recipient_id: MercuryId) -> Recipient:
    """Delete a saved recipient (it stays in transaction history); refused while a send money request to it waits
    for approval.

    Args:
        recipient_id: The recipient.
    """
    money_mover(db)
    recipient = db.get(recipients, recipient_id, "Recipient")
    if recipient["status"] != "active":
        raise Conflict(f"Recipient {recipient['name']} has already been deleted.")
    if rules.pending_requests_for(db, recipient_id):
        raise Conflict(f"Recipient {recipient['name']} has a send money request waiting for approval.")
    return recipient_object(db.update(recipients, recipient_id, status="deleted"))


@tool()
def send_money(
    db: Database,
    account_id: MercuryId,
    recipient_id: MercuryId,
    amount: Amount,
    payment_method: PaymentMethod,
    note: Note | None = None,
    external_memo: ExternalMemo | None = None,
    idempotency_key: IdempotencyKey | None = None,
) -> Transaction:
    """Send a payment to a saved recipient from a checking account. It is booked pending (held out of the available
    balance) with an estimated delivery date. Refused when it would take the signed-in team member's payments today
    over the company's daily limit: then use request_send_money for admin approval. Repeating an idempotency key
    returns the first payment instead of paying twice.

    Args:
        account_id: The checking account to pay from.
        recipient_id: The recipient.
        amount: Dollars to send.
        payment_method: ach, domesticWire or check (the recipient needs that method's routing info).
        note: Internal note for the team.
        external_memo: Memo the recipient sees.
        idempotency_key: A key unique to this payment, to make retries safe.
    """
    user = money_mover(db)
    if idempotency_key is not None:
        earlier = db.find(transactions, idempotency_key=idempotency_key)
        if earlier:
            return transaction_object(db, earlier[0])
    account = rules.payout_account(db, account_id)
    recipient = rules.payable_recipient(db, recipient_id, payment_method)
    cents = rules.cents(amount)
    limit = db.get(organization, "org")["daily_payment_limit"]
    sent = rules.sent_today(db, user["id"])
    if sent + cents > limit:
        raise Conflict(
            f"This payment would exceed your daily payment limit of ${limit / 100:,.2f} "
            f"(${sent / 100:,.2f} sent today); submit it as a send money request for admin approval."
        )
    row = rules.book_payment(
        db, user["id"], account, recipient, cents, payment_method, note, external_memo, idempotency_key=idempotency_key
    )
    return transaction_object(db, row)


@tool()
def request_send_money(
    db: Database,
    account_id: MercuryId,
    recipient_id: MercuryId,
    amount: Amount,
    payment_method: PaymentMethod,
    note: Note | None = None,
    external_memo: ExternalMemo | None = None,
) -> SendMoneyRequest:
    """Create a send money request that waits for admin approval (whatever the amount): one other admin approves an
    admin's request, two admins anyone else's. Nothing leaves the account until it is approved.

    Args:
        account_id: The checking account to pay from.
        recipient_id: The recipient.
        amount: Dollars to send.
        payment_method: ach, domesticWire or check.
        note: Internal note for the approvers.
        external_memo: Memo the recipient sees.
    """
    user = money_mover(db)
    account = rules.payout_account(db, account_id)
    rules.payable_recipient(db, recipient_id, payment_method)
    cents = rules.cents(amount)
    rules.check_funds(account, cents)
    row = db.insert(
        send_money_requests, id=db.new_uuid(send_money_requests), account_id=account_id, recipient_id=recipient_id,
        amount=cents, payment_method=payment_method, note=note, external_memo=external_memo,
        status="pendingApproval", requested_by=user["id"], approvals_required=1 if user["role"] == "admin" else 2,
        approved_by=[], reviewer_id=None, rejection_reason=None, transaction_id=None, created_at=db.now_iso(),
    )  # fmt: skip
    return request_object(db, row)


@tool(read_only=True)
def list_send_money_requests(
    db: Database,
    status: Literal["pendingApproval", "approved", "rejected", "cancelled"] | None = None,
    recipient_id: MercuryId | None = None,
) -> list[SendMoneyRequest]:
    """List send money requests, newest first, with who asked and which admins approved so far.

    Args:
        status: Only requests in this status.
        recipient_id: Only requests to this recipient.
    """
    banking_user(db)
    rows = db.select(
        send_money_requests,
        " AND ".join(["1 = 1", *(f"{c} = ?" for c, v in (("status", status), ("recipient_id", recipient_id)) if v)]),
        [v for v in (status, recipient_id) if v],
        order_by="created_at DESC",
    )
    return [request_object(db, r) for r in rows]


def _waiting(db: Database, request_id: str, reviewer: dict[str, str]) -> dict:
    request = db.get(send_money_requests, request_id, "Send money request")
    if request["status"] != "pendingApproval":
        raise Conflict(f"This send money request is {request['status']}; only pending requests can be reviewed.")
    if request["requested_by"] == reviewer["id"]:
        raise PermissionDenied("Forbidden: you cannot review your own send money request.")
    return request


@tool()
def approve_send_money_request(db: Database, request_id: MercuryId) -> SendMoneyRequest:
    """(Admins) Approve another team member's send money request. When the last required approval is given the
    payment is booked (pending) from the request's account; until then the request keeps waiting.

    Args:
        request_id: The send money request.
    """
    reviewer = admin(db, "approve send money requests")
    request = _waiting(db, request_id, reviewer)
    if reviewer["id"] in request["approved_by"]:
        raise Conflict("You have already approved this send money request.")
    approved = [*request["approved_by"], reviewer["id"]]
    if len(approved) < request["approvals_required"]:
        return request_object(db, db.update(send_money_requests, request_id, approved_by=approved))
    account = rules.open_account(db, request["account_id"])
    recipient = rules.payable_recipient(db, request["recipient_id"], request["payment_method"])
    row = rules.book_payment(
        db, request["requested_by"], account, recipient, request["amount"], request["payment_method"],
        request["note"], request["external_memo"], request_id=request_id,
    )  # fmt: skip
    updated = db.update(
        send_money_requests, request_id, approved_by=approved, status="approved", transaction_id=row["id"]
    )
    return request_object(db, updated)


@tool()
def reject_send_money_request(
    db: Database, request_id: MercuryId, reason: Annotated[str, text(280)] | None = None
) -> SendMoneyRequest:
    """(Admins) Reject another team member's send money request; nothing is paid.

    Args:
        request_id: The send money request.
        reason: Why, for the requester.
    """
    reviewer = admin(db, "reject send money requests")
    _waiting(db, request_id, reviewer)
    updated = db.update(
        send_money_requests, request_id, status="rejected", reviewer_id=reviewer["id"], rejection_reason=reason
    )
    return request_object(db, updated)


@tool()
def cancel_send_money_request(db: Database, request_id: MercuryId) -> SendMoneyRequest:
    """Withdraw a send money request that is still waiting for approval (its requester or an admin).

    Args:
        request_id: The send money request.
    """
    user = money_mover(db)
    request = db.get(send_money_requests, request_id, "Send money request")
    if request["status"] != "pendingApproval":
        raise Conflict(f"This send money request is {request['status']}; only pending requests can be cancelled.")
    if user["role"] != "admin" and request["requested_by"] != user["id"]:
        raise PermissionDenied("Forbidden: only the requester or an admin can cancel this request.")
    return request_object(db, db.update(send_money_requests, request_id, status="cancelled"))


@tool()
def create_internal_transfer(
    db: Database,
    source_account_id: MercuryId,
    destination_account_id: MercuryId,
    amount: Amount,
    note: Note | None = None,
) -> InternalTransfer:
    """Move money between two of the company's active accounts at once (no approval; it does not count toward the
    daily payment limit). Treasury moves only to or from a checking account.

    Args:
        source_account_id: The account the money leaves.
        destination_account_id: The account it goes to.
        amount: Dollars to move.
        note: Internal note on both legs.
    """
    user = money_mover(db)
    source = rules.open_account(db, source_account_id)
    destination = rules.open_account(db, destination_account_id)
    rules.check_transfer_pair(source, destination)
    cents = rules.cents(amount)
    rules.check_funds(source, cents)
    treasury = "treasury" in (source["kind"], destination["kind"])
    legs = []
    for account, other, sign in ((source, destination, -1), (destination, source, 1)):
        legs.append(
            db.insert(
                transactions,
                id=db.new_uuid(transactions),
                account_id=account["id"],
                amount=sign * cents,
                kind="treasuryTransfer" if treasury else "internalTransfer",
                status="sent",
                payment_method=None,
                counterparty_id=other["id"],
                counterparty_name=other["name"],
                bank_description=None,
                note=note,
                external_memo=None,
                category="Transfer",
                created_by=user["id"],
                request_id=None,
                idempotency_key=None,
                created_at=db.now_iso(),
                posted_at=db.now_iso(),
                estimated_delivery_date=db.now().date().isoformat(),
                reason_for_failure=None,
            )  # fmt: skip
        )
        db.update(
            accounts, account["id"], current_balance=account["current_balance"] + sign * cents,
            available_balance=account["available_balance"] + sign * cents,
        )  # fmt: skip
    return InternalTransfer(
        debit_transaction=transaction_object(db, legs[0]), credit_transaction=transaction_object(db, legs[1])
    )


@tool(read_only=True)
def list_statements(
    db: Database, account_id: MercuryId, start: IsoDate | None = None, end: IsoDate | None = None
) -> list[Statement]:
    """List an account's monthly statements (opening and closing balance, money in and out), oldest first.

    Args:
        account_id: The account.
        start: Only statements of periods ending on or after this day.
        end: Only statements of periods starting on or before this day.
    """
    banking_user(db)
    db.get(accounts, account_id, "Account")
    where, params = "account_id = ?", [account_id]
    if start is not None:
        where += " AND end_date >= ?"
        params.append(parse_date(start, "start").isoformat())
    if end is not None:
        where += " AND start_date <= ?"
        params.append(parse_date(end, "end").isoformat())
    return [statement_object(s) for s in db.select(statements, where, params, order_by="start_date")]
