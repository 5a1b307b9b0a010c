"""Monzo's API objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .schema import merchants, pots


class Owner(BaseModel):
    """An account holder."""

    user_id: str
    preferred_name: str


class AccountObject(BaseModel):
    """A current account (personal, joint or the legacy prepaid)."""

    id: str
    description: str
    type: str
    owners: list[Owner]
    currency: str
    sort_code: str | None
    account_number: str | None
    overdraft_limit: int = Field(description="arranged overdraft in pennies")
    daily_transfer_limit: int = Field(description="outgoing bank transfers allowed per calendar day, pennies")
    closed: bool
    created: str


class BalanceObject(BaseModel):
    """An account's balance."""

    balance: int = Field(description="available balance in pennies (negative when overdrawn)")
    total_balance: int = Field(description="balance plus the money in the account's pots")
    currency: str
    spend_today: int = Field(description="today's card and transfer spending, negative pennies")


class PotObject(BaseModel):
    """A pot: money set aside from a current account."""

    id: str
    name: str
    style: str
    type: str
    balance: int
    currency: str
    goal_amount: int | None
    round_up: bool
    locked: bool
    locked_until: str | None
    current_account_id: str
    deleted: bool
    created: str
    updated: str


class MerchantObject(BaseModel):
    """Where a card payment was made."""

    id: str
    group_id: str
    name: str
    category: str
    logo: str | None
    online: bool
    address: dict[str, Any] | None


class Counterparty(BaseModel):
    """The other side of a bank transfer."""

    name: str
    sort_code: str | None = None
    account_number: str | None = None


class TransactionObject(BaseModel):
    """A transaction with its merchant expanded."""

    id: str
    account_id: str
    amount: int = Field(description="pennies; negative is money out")
    currency: str
    local_amount: int
    local_currency: str
    description: str
    merchant: MerchantObject | None
    category: str
    notes: str
    is_load: bool
    scheme: str
    decline_reason: str | None
    counterparty: Counterparty | None
    include_in_spending: bool
    created: str
    settled: str | None


class CardObject(BaseModel):
    """A debit card of an account."""

    id: str
    account_id: str
    type: str
    name_on_card: str
    last_digits: str
    expires: str
    status: str = Field(description="ACTIVE, INACTIVE (frozen) or CANCELLED")


class PayeeObject(BaseModel):
    """A saved bank-transfer recipient."""

    id: str
    account_id: str
    name: str
    sort_code: str
    account_number: str
    default_reference: str | None


class PaymentObject(BaseModel):
    """An outgoing Faster Payment."""

    id: str
    account_id: str
    payee_id: str
    payee_name: str
    amount: int = Field(description="pennies sent")
    reference: str
    status: str = Field(description="pending_approval (approve in the Monzo app), completed or declined")
    transaction_id: str | None
    created: str


class FeedItemObject(BaseModel):
    """An item posted to the account's feed."""

    id: str
    account_id: str
    type: str
    title: str
    body: str | None
    image_url: str
    url: str | None
    background_color: str | None
    title_color: str | None
    body_color: str | None
    created: str


def _transaction(row: dict[str, Any], merchant: dict[str, Any] | None) -> TransactionObject:
    return TransactionObject(
        **{k: row[k] for k in TransactionObject.model_fields if k not in ("merchant", "counterparty")},
        merchant=MerchantObject(**merchant) if merchant else None,
        counterparty=Counterparty(**row["counterparty"]) if row["counterparty"] else None,
    )


def transaction_object(db: Database, row: dict[str, Any]) -> TransactionObject:
    """A transaction with its merchant expanded (expand[]=merchant)."""
    return _transaction(row, db.get(merchants, row["merchant"], "Merchant") if row["merchant"] else None)


def transaction_objects(db: Database, rows: list[dict[str, Any]]) -> list[TransactionObject]:
    """Transactions with their merchants expanded, the merchants read once for all of them."""
    wanted = sorted({r["merchant"] for r in rows if r["merchant"]})
    found = db.select(merchants, f"id IN ({', '.join('?' * len(wanted))})", wanted) if wanted else []
    by_id = {m["id"]: m for m in found}
    return [_transaction(r, by_id.get(r["merchant"]) if r["merchant"] else None) for r in rows]


def balance_object(db: Database, account: dict[str, Any], spent_today: int) -> BalanceObject:
    """An account's balance, with the money in its live pots and today's spending."""
    in_pots = sum(p["balance"] for p in db.find(pots, current_account_id=account["id"], deleted=False))
    return BalanceObject(
        balance=account["balance"],
        total_balance=account["balance"] + in_pots,
        currency=account["currency"],
        spend_today=spent_today,
    )
