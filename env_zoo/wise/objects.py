"""Wise's API objects as output models (field names as in Wise's JSON; amounts in minor units with their currency),
and how stored rows become them."""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

from pydantic import BaseModel, Field

from envfactory_gym import Database, KeptGeneric

from .rules import account_summary, quote_status

T = TypeVar("T")


class Amount(BaseModel):
    """Money: `value` in the currency's minor unit (pence, cents; whole yen)."""

    value: int
    currency: str


class OffsetPage(KeptGeneric, Generic[T]):
    """One page of a list, paged with offset and limit; `hasMore` says whether a next page exists."""

    items: list[T]
    offset: int
    limit: int
    hasMore: bool


def page(rows: list[dict[str, Any]], offset: int, limit: int, convert: Callable[[dict[str, Any]], T]) -> OffsetPage[T]:
    """The page `offset` .. `offset + limit` of `rows` as output objects; `rows` holds at least one row past the
    page when there is a next page (fetch `offset + limit + 1`)."""
    items = [convert(row) for row in rows[offset : offset + limit]]
    return OffsetPage[Any](items=items, offset=offset, limit=limit, hasMore=len(rows) > offset + limit)


class Profile(BaseModel):
    """A profile the user may act for: their personal one or a business whose team they are on."""

    id: int
    type: str = Field(description="PERSONAL or BUSINESS")
    fullName: str
    businessCategory: str | None
    country: str
    city: str
    role: str = Field(description="the signed-in user's role: OWNER, ADMIN, PAYER, PREPARER or VIEWER")
    created: str


class Me(BaseModel):
    """The connected Wise user and the profiles they can act for."""

    id: int
    name: str
    email: str
    profiles: list[Profile]


class Balance(BaseModel):
    """A balance in one currency: STANDARD (one per currency) or SAVINGS (a named jar)."""

    id: int
    profileId: int
    currency: str
    type: str
    name: str | None
    amount: Amount
    reservedAmount: Amount
    visible: bool
    creationTime: str
    modificationTime: str


class Rate(BaseModel):
    """The mid-market rate of a currency pair."""

    source: str
    target: str
    rate: float
    time: str


class Quote(BaseModel):
    """A quote: the rate, fee and amounts of a conversion or transfer, usable once until it expires."""

    id: str
    profileId: int
    sourceCurrency: str
    targetCurrency: str
    sourceAmount: int = Field(description="minor units, fee included")
    targetAmount: int = Field(description="minor units the recipient or target balance gets")
    rate: float
    fee: Amount
    rateType: str
    providedAmountType: str = Field(description="SOURCE or TARGET: which amount was asked for")
    targetAccount: int | None
    status: str = Field(description="PENDING, ACCEPTED (used by a transfer), FUNDED or EXPIRED")
    createdTime: str
    expirationTime: str


class Recipient(BaseModel):
    """A recipient account: who gets paid, in which currency, and their bank details."""

    id: int
    profileId: int
    accountHolderName: str
    currency: str
    country: str
    type: str = Field(description="sort_code, iban, aba or australian")
    legalType: str
    details: dict[str, Any]
    accountSummary: str
    email: str | None
    active: bool
    created: str


class RequirementField(BaseModel):
    """One field an account type needs."""

    key: str
    name: str
    required: bool
    example: str


class AccountRequirement(BaseModel):
    """An account type that can receive a currency, and the details it needs."""

    type: str
    title: str
    fields: list[RequirementField]


class Transfer(BaseModel):
    """A transfer to a recipient, made from a quote."""

    id: int
    profileId: int
    user: int
    targetAccount: int
    quoteUuid: str
    status: str = Field(
        description="incoming_payment_waiting, processing, funds_converted, outgoing_payment_sent, cancelled, "
        "funds_refunded or bounced_back"
    )
    reference: str
    rate: float
    sourceCurrency: str
    sourceValue: int
    targetCurrency: str
    targetValue: int
    fee: int
    customerTransactionId: str
    created: str


class Funding(BaseModel):
    """The result of paying a transfer: COMPLETED, or REJECTED with Wise's error code."""

    type: str
    status: str
    errorCode: str | None
    balanceId: int | None


class BalanceMovement(BaseModel):
    """Money moved between the profile's own balances: a conversion, or a deposit to or withdrawal from a jar."""

    id: int
    type: str
    state: str
    sourceBalanceId: int
    targetBalanceId: int
    sourceAmount: Amount
    targetAmount: Amount
    fee: Amount
    rate: float
    quoteId: str | None
    creationTime: str


class Activity(BaseModel):
    """One entry of the profile's activity list."""

    id: str
    type: str
    resource: dict[str, str]
    title: str
    description: str
    primaryAmount: Amount = Field(description="negative is money out")
    secondaryAmount: Amount | None
    status: str
    createdOn: str


def profile_object(row: dict[str, Any], role: str) -> Profile:
    """A stored profile with the user's role on it."""
    return Profile(
        id=row["id"],
        type=row["type"],
        fullName=row["full_name"],
        businessCategory=row["business_category"],
        country=row["country"],
        city=row["city"],
        role=role,
        created=row["created"],
    )


def balance_object(row: dict[str, Any]) -> Balance:
    """A stored balance."""
    return Balance(
        id=row["id"],
        profileId=row["profile_id"],
        currency=row["currency"],
        type=row["type"],
        name=row["name"],
        amount=Amount(value=row["amount"], currency=row["currency"]),
        reservedAmount=Amount(value=row["reserved"], currency=row["currency"]),
        visible=row["visible"],
        creationTime=row["creation_time"],
        modificationTime=row["modification_time"],
    )


def quote_object(db: Database, row: dict[str, Any]) -> Quote:
    """A stored quote, its status read against the clock."""
    return Quote(
        id=row["id"],
        profileId=row["profile_id"],
        sourceCurrency=row["source_currency"],
        targetCurrency=row["target_currency"],
        sourceAmount=row["source_amount"],
        targetAmount=row["target_amount"],
        rate=row["rate"],
        fee=Amount(value=row["fee"], currency=row["source_currency"]),
        rateType=row["rate_type"],
        providedAmountType=row["provided_amount_type"],
        targetAccount=row["target_account"],
        status=quote_status(db, row),
        createdTime=row["created_time"],
        expirationTime=row["expiration_time"],
    )


def recipient_object(row: dict[str, Any]) -> Recipient:
    """A stored recipient account."""
    return Recipient(
        id=row["id"],
        profileId=row["profile_id"],
        accountHolderName=row["account_holder_name"],
        currency=row["currency"],
        country=row["country"],
        type=row["type"],
        legalType=row["legal_type"],
        details=row["details"],
        accountSummary=account_summary(row["type"], row["details"]),
        email=row["email"],
        active=row["active"],
        created=row["created"],
    )


def transfer_object(row: dict[str, Any]) -> Transfer:
    """A stored transfer."""
    return Transfer(
        id=row["id"],
        profileId=row["profile_id"],
        user=row["user_id"],
        targetAccount=row["target_account"],
        quoteUuid=row["quote_uuid"],
        status=row["status"],
        reference=row["reference"],
        rate=row["rate"],
        sourceCurrency=row["source_currency"],
        sourceValue=row["source_value"],
        targetCurrency=row["target_currency"],
        targetValue=row["target_value"],
        fee=row["fee"],
        customerTransactionId=row["customer_transaction_id"],
        created=row["created"],
    )


def movement_object(row: dict[str, Any]) -> BalanceMovement:
    """A stored balance movement."""
    return BalanceMovement(
        id=row["id"],
        type=row["type"],
        state="COMPLETED",
        sourceBalanceId=row["source_balance_id"],
        targetBalanceId=row["target_balance_id"],
        sourceAmount=Amount(value=row["source_amount"], currency=row["source_currency"]),
        targetAmount=Amount(value=row["target_amount"], currency=row["target_currency"]),
        fee=Amount(value=row["fee"], currency=row["source_currency"]),
        rate=row["rate"],
        quoteId=row["quote_id"],
        creationTime=row["created"],
    )


def activity_object(row: dict[str, Any]) -> Activity:
    """A stored activity."""
    secondary = None
    if row["secondary_amount"] is not None:
        secondary = Amount(value=row["secondary_amount"], currency=row["secondary_currency"])
    return Activity(
        id=row["id"],
        type=row["type"],
        resource={"type": row["resource_type"], "id": row["resource_id"]},
        title=row["title"],
        description=row["description"],
        primaryAmount=Amount(value=row["primary_amount"], currency=row["primary_currency"]),
        secondaryAmount=secondary,
        status=row["status"],
        createdOn=row["created_on"],
    )
