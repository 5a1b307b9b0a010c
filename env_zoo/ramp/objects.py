"""Ramp's API objects as output models (amounts in dollars, as Ramp returns them), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .rules import dollars, spent
from .schema import departments, receipts, spend_programs, users, vendors


class Department(BaseModel):
    id: str
    name: str


class User(BaseModel):
    id: str
    first_name: str
    last_name: str
    email: str
    role: str
    department_id: str | None
    department_name: str | None
    manager_id: str | None
    is_manager: bool
    status: str


class SpendingRestrictions(BaseModel):
    amount: float
    interval: str
    transaction_amount_limit: float | None
    allowed_categories: list[str]
    blocked_categories: list[str]


class SpendProgram(BaseModel):
    id: str
    display_name: str
    description: str
    is_physical: bool
    requires_approval: bool
    spending_restrictions: SpendingRestrictions


class Card(BaseModel):
    id: str
    display_name: str
    last_four: str
    cardholder_id: str
    cardholder_name: str
    is_physical: bool
    state: str
    spend_program_id: str | None
    spending_restrictions: SpendingRestrictions
    created_at: str


class CardDetail(Card):
    interval_start: str | None
    spent_this_interval: float
    remaining_this_interval: float


class Receipt(BaseModel):
    id: str
    transaction_id: str | None
    reimbursement_id: str | None
    filename: str


class Transaction(BaseModel):
    id: str
    card_id: str
    user_id: str
    cardholder_name: str
    merchant_name: str
    sk_category_name: str
    amount: float
    currency_code: str
    user_transaction_time: str
    state: str
    memo: str | None
    receipts: list[str]


class Reimbursement(BaseModel):
    id: str
    user_id: str
    user_name: str
    merchant: str
    sk_category_name: str
    amount: float
    currency: str
    transaction_date: str
    memo: str | None
    state: str
    receipts: list[str]
    reviewer_id: str | None
    rejection_reason: str | None


class SpendRequest(BaseModel):
    id: str
    user_id: str
    user_name: str
    spend_program_id: str
    spend_program_name: str
    display_name: str
    amount: float
    reason: str
    status: str
    reviewer_id: str | None
    card_id: str | None


class Vendor(BaseModel):
    id: str
    name: str
    is_active: bool


class Bill(BaseModel):
    id: str
    vendor_id: str
    vendor_name: str
    invoice_number: str
    amount: float
    currency: str
    issued_at: str
    due_at: str
    memo: str | None
    approval_status: str
    status: str
    payment_method: str | None
    paid_at: str | None


def full_name(db: Database, user_id: str) -> str:
    u = db.get(users, user_id)
    return f"{u['first_name']} {u['last_name']}"


def user_object(db: Database, row: dict[str, Any]) -> User:
    dept = db.get(departments, row["department_id"])["name"] if row["department_id"] else None
    fields = {k: row[k] for k in User.model_fields if k in row}
    return User(**fields, department_name=dept)


def restrictions(row: dict[str, Any]) -> SpendingRestrictions:
    return SpendingRestrictions(
        amount=dollars(row["amount"]) or 0.0,
        interval=row["interval"],
        transaction_amount_limit=dollars(row["transaction_amount_limit"]),
        allowed_categories=row["allowed_categories"],
        blocked_categories=row.get("blocked_categories", []),
    )


def program_object(row: dict[str, Any]) -> SpendProgram:
    return SpendProgram(
        id=row["id"],
        display_name=row["display_name"],
        description=row["description"],
        is_physical=row["is_physical"],
        requires_approval=row["requires_approval"],
        spending_restrictions=restrictions(row),
    )


def card_object(db: Database, row: dict[str, Any]) -> Card:
    return Card(
        id=row["id"],
        display_name=row["display_name"],
        last_four=row["last_four"],
        cardholder_id=row["cardholder_id"],
        cardholder_name=full_name(db, row["cardholder_id"]),
        is_physical=row["is_physical"],
        state=row["state"],
        spend_program_id=row["spend_program_id"],
        spending_restrictions=restrictions(row),
        created_at=row["created_at"],
    )


def card_detail(db: Database, row: dict[str, Any]) -> CardDetail:
    used, start = spent(db, row)
    return CardDetail(
        **card_object(db, row).model_dump(),
        interval_start=start.isoformat() if start else None,
        spent_this_interval=used / 100,
        remaining_this_interval=max(row["amount"] - used, 0) / 100,
    )


def transaction_object(db: Database, row: dict[str, Any]) -> Transaction:
    return Transaction(
        **{k: row[k] for k in ("id", "card_id", "user_id", "merchant_name", "sk_category_name", "currency_code")},
        cardholder_name=full_name(db, row["user_id"]),
        amount=row["amount"] / 100,
        user_transaction_time=row["user_transaction_time"],
        state=row["state"],
        memo=row["memo"],
        receipts=[r["id"] for r in db.find(receipts, transaction_id=row["id"], order_by=[receipts.c.filename])],
    )


def reimbursement_object(db: Database, row: dict[str, Any]) -> Reimbursement:
    return Reimbursement(
        **{
            k: row[k] for k in ("id", "user_id", "merchant", "sk_category_name", "currency", "transaction_date", "memo")
        },
        user_name=full_name(db, row["user_id"]),
        amount=row["amount"] / 100,
        state=row["state"],
        receipts=[r["id"] for r in db.find(receipts, reimbursement_id=row["id"], order_by=[receipts.c.filename])],
        reviewer_id=row["reviewer_id"],
        rejection_reason=row["rejection_reason"],
    )


def request_object(db: Database, row: dict[str, Any]) -> SpendRequest:
    return SpendRequest(
        **{k: row[k] for k in ("id", "user_id", "spend_program_id", "display_name", "reason", "status", "reviewer_id")},
        user_name=full_name(db, row["user_id"]),
        spend_program_name=db.get(spend_programs, row["spend_program_id"])["display_name"],
        amount=row["amount"] / 100,
        card_id=row["card_id"],
    )


def bill_object(db: Database, row: dict[str, Any]) -> Bill:
    return Bill(
        **{k: row[k] for k in Bill.model_fields if k in row and k != "amount"},
        vendor_name=db.get(vendors, row["vendor_id"])["name"],
        amount=row["amount"] / 100,
    )
