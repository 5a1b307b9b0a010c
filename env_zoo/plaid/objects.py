"""Plaid's API objects as output models (field names as in Plaid's JSON: balances as numbers, transfer amounts as
decimal strings), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .rules import decimal, item_error


class Institution(BaseModel):
    """A financial institution Plaid connects to, with the products it supports and its current health."""

    institution_id: str
    name: str
    products: list[str]
    country_codes: list[str]
    routing_numbers: list[str]
    oauth: bool
    status: str = Field(description="HEALTHY, DEGRADED or DOWN (real-time balance calls fail while DOWN)")


class ItemError(BaseModel):
    """Why an Item needs attention."""

    error_type: str
    error_code: str
    error_message: str


class Item(BaseModel):
    """A login at one institution: its products and, when it needs the user, its error."""

    item_id: str
    institution_id: str
    institution_name: str
    products: list[str]
    error: ItemError | None
    consent_expiration_time: str | None
    created: str


class AppItem(BaseModel):
    """An Item as the app's backend stores it, with the access token and last saved sync cursor."""

    item_id: str
    access_token: str
    institution_name: str
    status: str = Field(description="good, ITEM_LOGIN_REQUIRED (or another error code), or removed")
    saved_cursor: str | None


class EndUser(BaseModel):
    """One of the app's users and the Items they linked."""

    client_user_id: str
    legal_name: str
    email: str
    signed_up: str
    items: list[AppItem]


class Balances(BaseModel):
    """An account's balances in its currency (`available` may be null; `limit` for credit accounts)."""

    available: float | None
    current: float
    limit: float | None
    iso_currency_code: str


class Account(BaseModel):
    """One account of an Item."""

    account_id: str
    name: str
    official_name: str | None
    mask: str
    type: str
    subtype: str
    balances: Balances


class AccountsResponse(BaseModel):
    """The Item and its accounts."""

    item: Item
    accounts: list[Account]


class AchNumbers(BaseModel):
    """An account's ACH numbers."""

    account_id: str
    account: str
    routing: str
    wire_routing: str | None


class AuthNumbers(BaseModel):
    """Auth's numbers by network."""

    ach: list[AchNumbers]


class AuthResponse(BaseModel):
    """The accounts of an Item with their account and routing numbers (depository checking and savings only)."""

    accounts: list[Account]
    numbers: AuthNumbers


class PersonalFinanceCategory(BaseModel):
    """Plaid's category of a transaction."""

    primary: str
    detailed: str


class Transaction(BaseModel):
    """A transaction; a positive `amount` is money leaving the account."""

    transaction_id: str
    account_id: str
    amount: float
    iso_currency_code: str
    date: str
    authorized_date: str | None
    name: str
    merchant_name: str | None
    payment_channel: str
    pending: bool
    pending_transaction_id: str | None
    personal_finance_category: PersonalFinanceCategory


class RemovedTransaction(BaseModel):
    """A transaction removed since the cursor."""

    transaction_id: str
    account_id: str


class SyncResponse(BaseModel):
    """Transactions added, modified and removed since the cursor; keep `next_cursor` for the next call and call
    again while `has_more`."""

    added: list[Transaction]
    modified: list[Transaction]
    removed: list[RemovedTransaction]
    next_cursor: str
    has_more: bool


class LinkToken(BaseModel):
    """A Link token to open Link with (update mode for the Item it names)."""

    link_token: str
    expiration: str


class DecisionRationale(BaseModel):
    """Why Plaid declined (or could not fully check) a proposed transfer."""

    code: str
    description: str


class ProposedTransfer(BaseModel):
    """What was authorized."""

    account_id: str
    type: str
    network: str
    ach_class: str | None
    amount: str
    legal_name: str


class TransferAuthorization(BaseModel):
    """Plaid's decision on a proposed transfer; a transfer needs an approved one of the same account and amount."""

    id: str
    created: str
    decision: str = Field(description="approved, declined or user_action_required")
    decision_rationale: DecisionRationale | None
    proposed_transfer: ProposedTransfer
    transfer_id: str | None = Field(description="the transfer created with it, if any (each is used once)")


class Transfer(BaseModel):
    """A money movement: debit pulls from the user's account into the ledger, credit pays out of the ledger."""

    id: str
    authorization_id: str
    account_id: str
    type: str
    network: str
    ach_class: str | None
    amount: str
    description: str
    legal_name: str
    status: str = Field(description="pending, posted, settled, cancelled, failed or returned")
    failure_reason: str | None
    cancellable: bool
    created: str


class TransferEvent(BaseModel):
    """One status change of a transfer."""

    event_id: int
    transfer_id: str
    account_id: str
    transfer_type: str
    transfer_amount: str
    event_type: str
    failure_reason: str | None
    timestamp: str


class TransferList(BaseModel):
    """Transfers, newest first."""

    transfers: list[Transfer]


class TransferEventList(BaseModel):
    """Transfer events, oldest first."""

    transfer_events: list[TransferEvent]


class LedgerBalance(BaseModel):
    """The client's Plaid Ledger: `available` can pay out credits; `pending` holds debits until they settle."""

    available: str
    pending: str


class Connected(BaseModel):
    """The Plaid team whose keys the assistant now uses."""

    client_id: str
    company_name: str


class ItemRemoved(BaseModel):
    """The Item was removed; its access token no longer works."""

    item_id: str
    removed: bool


class ItemUpdated(BaseModel):
    """The Item after the user finished Link."""

    item_id: str
    status: str


def institution_object(row: dict[str, Any]) -> Institution:
    return Institution(**row)


def item_object(row: dict[str, Any], institution_name: str) -> Item:
    error = ItemError(**item_error(row["error_code"])) if row["error_code"] else None
    return Item(
        item_id=row["item_id"],
        institution_id=row["institution_id"],
        institution_name=institution_name,
        products=row["products"],
        error=error,
        consent_expiration_time=row["consent_expiration_time"],
        created=row["created"],
    )


def app_item_object(row: dict[str, Any], institution_name: str) -> AppItem:
    status = "removed" if row["removed"] else (row["error_code"] or "good")
    return AppItem(
        item_id=row["item_id"],
        access_token=row["access_token"],
        institution_name=institution_name,
        status=status,
        saved_cursor=row["saved_cursor"],
    )


def account_object(row: dict[str, Any]) -> Account:
    def money(value: int | None) -> float | None:
        return None if value is None else value / 100

    balances = Balances(
        available=money(row["available"]),
        current=row["current"] / 100,
        limit=money(row["credit_limit"]),
        iso_currency_code=row["iso_currency_code"],
    )
    keep = ("account_id", "name", "official_name", "mask", "type", "subtype")
    return Account(**{key: row[key] for key in keep}, balances=balances)


def transaction_object(row: dict[str, Any]) -> Transaction:
    keep = (
        "transaction_id", "account_id", "iso_currency_code", "date", "authorized_date", "name", "merchant_name",
        "payment_channel", "pending", "pending_transaction_id",
    )  # fmt: skip
    return Transaction(
        **{key: row[key] for key in keep},
        amount=row["amount"] / 100,
        personal_finance_category=PersonalFinanceCategory(primary=row["pfc_primary"], detailed=row["pfc_detailed"]),
    )


def authorization_object(row: dict[str, Any]) -> TransferAuthorization:
    rationale = (
        DecisionRationale(code=row["rationale_code"], description=row["rationale_description"])
        if row["rationale_code"]
        else None
    )
    proposed = ProposedTransfer(
        account_id=row["account_id"],
        type=row["type"],
        network=row["network"],
        ach_class=row["ach_class"],
        amount=decimal(row["amount"]),
        legal_name=row["legal_name"],
    )
    return TransferAuthorization(
        id=row["id"],
        created=row["created"],
        decision=row["decision"],
        decision_rationale=rationale,
        proposed_transfer=proposed,
        transfer_id=row["transfer_id"],
    )


def transfer_object(row: dict[str, Any]) -> Transfer:
    keep = (
        "id", "authorization_id", "account_id", "type", "network", "ach_class", "description", "legal_name",
        "status", "failure_reason", "created",
    )  # fmt: skip
    return Transfer(
        **{key: row[key] for key in keep}, amount=decimal(row["amount"]), cancellable=row["status"] == "pending"
    )


def ledger_object(client: dict[str, Any]) -> LedgerBalance:
    return LedgerBalance(available=decimal(client["ledger_available"]), pending=decimal(client["ledger_pending"]))


def event_object(row: dict[str, Any]) -> TransferEvent:
    keep = ("event_id", "transfer_id", "account_id", "transfer_type", "event_type", "failure_reason", "timestamp")
    return TransferEvent(**{key: row[key] for key in keep}, transfer_amount=decimal(row["transfer_amount"]))
