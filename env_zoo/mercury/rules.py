"""Mercury's money rules: amounts in cents, ABA routing numbers, which accounts can pay out or move money where,
the daily payment limit above which an admin must approve, delivery estimates per payment method, and how a
payment leaves an account (pending, holding the available balance) or comes back when cancelled."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.fields import ErrorText
from envfactory_gym.values import minor_units

from .schema import accounts, recipients, send_money_requests, transactions

PaymentMethod = Literal["ach", "domesticWire", "check"]
#: Transaction kinds as Mercury names them.
Kind = Literal[
    "externalTransfer", "internalTransfer", "outgoingPayment", "debitCardTransaction", "incomingDomesticWire",
    "checkDeposit", "treasuryTransfer", "fee", "other",
]  # fmt: skip
Status = Literal["pending", "sent", "cancelled", "failed"]
#: Mercury's transaction categories that a team member can set.
Category = Literal[
    "Advertising", "Bank Fees", "Contractors", "Equipment", "Insurance", "Legal & Professional", "Meals",
    "Office Supplies", "Payroll", "Rent", "Revenue", "Software", "Taxes", "Travel", "Utilities", "Transfer", "Other",
]  # fmt: skip
Amount = Annotated[
    Decimal,
    Field(ge=Decimal("0.01"), max_digits=12, decimal_places=2, description="US dollars, at least 0.01, e.g. 1250.00"),
    ErrorText("amount must be a positive dollar amount with at least 1 cent"),
]
MercuryId = Annotated[str, Field(min_length=36, max_length=36, description="a Mercury UUID")]
RoutingNumber = Annotated[
    str,
    Field(pattern=r"^\d{9}$", description="a 9-digit ABA routing number"),
    ErrorText("routingNumber must be 9 digits"),
]
AccountNumber = Annotated[
    str, Field(pattern=r"^\d{4,17}$", description="4-17 digits"), ErrorText("accountNumber must be 4-17 digits")
]
PageSize = Annotated[int, Field(ge=1, le=100, description="results per page (1-100)")]
#: What a payment takes to leave, in business days, per method.
DELIVERY_DAYS = {"ach": 1, "domesticWire": 0, "check": 5}
#: Which payment kinds a payment method books as.
PAYMENT_KIND = {"ach": "externalTransfer", "domesticWire": "externalTransfer", "check": "outgoingPayment"}


def cents(amount: Decimal) -> int:
    return minor_units(amount, "USD", "amount")


def dollars(amount: int | None) -> float | None:
    return None if amount is None else amount / 100


def check_routing_number(number: str, field: str = "routingNumber") -> None:
    """An ABA routing number's check digit: 3-7-1 weights over its nine digits sum to a multiple of ten."""
    digits = [int(c) for c in number]
    total = 3 * (digits[0] + digits[3] + digits[6]) + 7 * (digits[1] + digits[4] + digits[7])
    if (total + digits[2] + digits[5] + digits[8]) % 10:
        raise InvalidRequest(f"{field} {number} is not a valid ABA routing number.")


def business_days_after(start: date, days: int) -> date:
    """The day `days` business days after `start` (0: `start` itself, or the next weekday if it is a weekend)."""
    day = start
    while day.weekday() >= 5:
        day += timedelta(days=1)
    for _ in range(days):
        day += timedelta(days=1)
        while day.weekday() >= 5:
            day += timedelta(days=1)
    return day


def open_account(db: Database, account_id: str) -> dict[str, Any]:
    account = db.get(accounts, account_id, "Account")
    if account["status"] != "active":
        raise Conflict(f"Account {account['name']} is {account['status']}; it cannot move money.")
    return account


def payout_account(db: Database, account_id: str) -> dict[str, Any]:
    """Payments to recipients leave from an active checking account only."""
    account = open_account(db, account_id)
    if account["kind"] != "checking":
        raise InvalidRequest(
            f"Payments can only be sent from a checking account; {account['name']} is a {account['kind']} account. "
            "Move the money to checking with an internal transfer first."
        )
    return account


def check_transfer_pair(source: dict[str, Any], destination: dict[str, Any]) -> None:
    """Internal transfers go between two different accounts; Treasury only to or from a checking account."""
    if source["id"] == destination["id"]:
        raise InvalidRequest("The source and destination accounts must be different.")
    for one, other in ((source, destination), (destination, source)):
        if one["kind"] == "treasury" and other["kind"] != "checking":
            raise InvalidRequest("Treasury transfers must go to or from a checking account.")


def check_funds(account: dict[str, Any], amount: int) -> None:
    if amount > account["available_balance"]:
        raise Conflict(
            f"Insufficient funds: {account['name']} has ${account['available_balance'] / 100:,.2f} available."
        )


def payable_recipient(db: Database, recipient_id: str, method: str) -> dict[str, Any]:
    """An active recipient with the routing info `method` needs."""
    recipient = db.get(recipients, recipient_id, "Recipient")
    if recipient["status"] != "active":
        raise Conflict(f"Recipient {recipient['name']} has been deleted.")
    needs = {
        "ach": ("ach_account_number", "electronic routing info (ACH)"),
        "domesticWire": ("wire_account_number", "domestic wire routing info"),
        "check": ("address1", "a mailing address for checks"),
    }[method]
    if not recipient[needs[0]]:
        raise InvalidRequest(f"Recipient {recipient['name']} has no {needs[1]}; add it to the recipient first.")
    return recipient


def sent_today(db: Database, user_id: str) -> int:
    """Cents the team member sent to recipients today (UTC day), not counting cancelled or failed payments."""
    start = db.now().date().isoformat()
    rows = db.select(
        transactions,
        "created_by = ? AND created_at >= ? AND payment_method IS NOT NULL AND status IN ('pending', 'sent')"
        " AND request_id IS NULL",
        [user_id, start],
    )
    return -sum(t["amount"] for t in rows)


def book_payment(
    db: Database, user_id: str, account: dict[str, Any], recipient: dict[str, Any], amount: int, method: str,
    note: str | None, external_memo: str | None, request_id: str | None = None, idempotency_key: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Book a pending payment: it holds the amount out of the available balance until it is sent."""
    check_funds(account, amount)
    today = db.now().date()
    row = db.insert(
        transactions, id=db.new_uuid(transactions), account_id=account["id"], amount=-amount,
        kind=PAYMENT_KIND[method], status="pending", payment_method=method, counterparty_id=recipient["id"],
        counterparty_name=recipient["name"], bank_description=None, note=note, external_memo=external_memo,
        category=None, created_by=user_id, request_id=request_id, idempotency_key=idempotency_key,
        created_at=db.now_iso(), posted_at=None,
        estimated_delivery_date=business_days_after(today, DELIVERY_DAYS[method]).isoformat(), reason_for_failure=None,
    )  # fmt: skip
    db.update(accounts, account["id"], available_balance=account["available_balance"] - amount)
    db.update(recipients, recipient["id"], date_last_paid=db.now_iso())
    return row


def pending_requests_for(db: Database, recipient_id: str) -> list[dict[str, Any]]:
    return db.find(send_money_requests, recipient_id=recipient_id, status="pendingApproval")
