"""Mercury's API objects as output models (amounts in dollars, as Mercury returns them), and how stored rows become
them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .rules import dollars
from .schema import accounts, recipients, users


class TeamMember(BaseModel):
    id: str
    first_name: str
    last_name: str
    email: str
    role: str
    can_move_money: bool
    status: str


class PaymentLimits(BaseModel):
    user_id: str
    role: str
    can_move_money: bool
    daily_payment_limit: float
    sent_today: float
    remaining_today: float
    approvals_required_for_requests: int
    resets_at: str


class Account(BaseModel):
    id: str
    name: str
    nickname: str | None
    kind: str
    status: str
    account_number: str
    routing_number: str
    current_balance: float
    available_balance: float
    created_at: str


class ElectronicRoutingInfo(BaseModel):
    account_number: str
    routing_number: str
    electronic_account_type: str | None
    bank_name: str | None


class DomesticWireRoutingInfo(BaseModel):
    account_number: str
    routing_number: str
    bank_name: str | None


class Address(BaseModel):
    address1: str
    city: str
    region: str
    postal_code: str
    country: str


class Recipient(BaseModel):
    id: str
    name: str
    nickname: str | None
    emails: list[str]
    status: str
    is_business: bool
    default_payment_method: str
    electronic_routing_info: ElectronicRoutingInfo | None
    domestic_wire_routing_info: DomesticWireRoutingInfo | None
    check_address: Address | None
    date_last_paid: str | None


class Transaction(BaseModel):
    id: str
    account_id: str
    account_name: str
    amount: float
    kind: str
    status: str
    payment_method: str | None
    counterparty_id: str | None
    counterparty_name: str
    bank_description: str | None
    note: str | None
    external_memo: str | None
    category: str | None
    created_by: str | None
    request_id: str | None
    created_at: str
    posted_at: str | None
    estimated_delivery_date: str | None
    reason_for_failure: str | None


class InternalTransfer(BaseModel):
    debit_transaction: Transaction
    credit_transaction: Transaction


class SendMoneyRequest(BaseModel):
    id: str
    account_id: str
    account_name: str
    recipient_id: str
    recipient_name: str
    amount: float
    payment_method: str
    note: str | None
    external_memo: str | None
    status: str
    requested_by: str
    requested_by_name: str
    approvals_required: int
    approved_by: list[str]
    reviewer_id: str | None
    rejection_reason: str | None
    transaction_id: str | None
    created_at: str


class Statement(BaseModel):
    id: str
    account_id: str
    start_date: str
    end_date: str
    starting_balance: float
    ending_balance: float
    money_in: float
    money_out: float
    download_url: str


def member_object(row: dict[str, Any]) -> TeamMember:
    return TeamMember(**{k: row[k] for k in TeamMember.model_fields})


def account_object(row: dict[str, Any]) -> Account:
    return Account(
        **{k: row[k] for k in Account.model_fields if k not in ("current_balance", "available_balance")},
        current_balance=dollars(row["current_balance"]),
        available_balance=dollars(row["available_balance"]),
    )


def recipient_object(row: dict[str, Any]) -> Recipient:
    ach = wire = address = None
    if row["ach_account_number"]:
        ach = ElectronicRoutingInfo(
            account_number=row["ach_account_number"], routing_number=row["ach_routing_number"],
            electronic_account_type=row["electronic_account_type"], bank_name=row["bank_name"],
        )  # fmt: skip
    if row["wire_account_number"]:
        wire = DomesticWireRoutingInfo(
            account_number=row["wire_account_number"], routing_number=row["wire_routing_number"],
            bank_name=row["bank_name"],
        )  # fmt: skip
    if row["address1"]:
        address = Address(
            address1=row["address1"], city=row["city"], region=row["region"], postal_code=row["postal_code"],
            country="US",
        )  # fmt: skip
    return Recipient(
        id=row["id"], name=row["name"], nickname=row["nickname"], emails=list(row["emails"]), status=row["status"],
        is_business=row["is_business"], default_payment_method=row["default_payment_method"],
        electronic_routing_info=ach, domestic_wire_routing_info=wire, check_address=address,
        date_last_paid=row["date_last_paid"],
    )  # fmt: skip


_TRANSACTION_FIELDS = tuple(k for k in Transaction.model_fields if k not in ("amount", "account_name"))


def transaction_object(db: Database, row: dict[str, Any], account_names: dict[str, str] | None = None) -> Transaction:
    """A stored transaction as Mercury shows it; `account_names` (id -> name) saves a lookup per row in lists."""
    name = account_names[row["account_id"]] if account_names else db.get(accounts, row["account_id"])["name"]
    return Transaction(**{k: row[k] for k in _TRANSACTION_FIELDS}, amount=dollars(row["amount"]), account_name=name)


def request_object(db: Database, row: dict[str, Any]) -> SendMoneyRequest:
    requester = db.get(users, row["requested_by"])
    fields = {k: row[k] for k in SendMoneyRequest.model_fields if k in row and k != "amount"}
    return SendMoneyRequest(
        **fields, amount=dollars(row["amount"]), account_name=db.get(accounts, row["account_id"])["name"],
        recipient_name=db.get(recipients, row["recipient_id"])["name"],
        requested_by_name=f"{requester['first_name']} {requester['last_name']}",
    )  # fmt: skip


def statement_object(row: dict[str, Any]) -> Statement:
    return Statement(
        id=row["id"], account_id=row["account_id"], start_date=row["start_date"], end_date=row["end_date"],
        starting_balance=dollars(row["starting_balance"]), ending_balance=dollars(row["ending_balance"]),
        money_in=dollars(row["money_in"]), money_out=dollars(row["money_out"]),
        download_url=f"https://api.mercury.com/api/v1/statements/{row['id']}/pdf",
    )  # fmt: skip
