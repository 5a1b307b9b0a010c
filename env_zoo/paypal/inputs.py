"""The PayPal tools' argument types: money, purchase units, dispute evidence, payout and invoice items, paging, with
the bounds and patterns PayPal enforces (so the schema shows them)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym.fields import ErrorText

Value = Annotated[
    str,
    Field(pattern=r"^[0-9]{1,7}(\.[0-9]{2})?$"),
    ErrorText(
        "INVALID_REQUEST: [INVALID_PARAMETER_SYNTAX] The value of a field does not conform to the expected "
        "format: an amount like 12.50 (field: value)"
    ),
]
PageNumber = Annotated[int, Field(ge=1, le=1000)]
PageSize = Annotated[
    int,
    Field(ge=1, le=100),
    ErrorText("INVALID_REQUEST: [INVALID_PARAMETER_VALUE] page_size must be 1 to 100 (field: page_size)"),
]
Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"),
    ErrorText("INVALID_REQUEST: [INVALID_PARAMETER_SYNTAX] Must be a valid email address (field: email_address)"),
]
Quantity = Annotated[str, Field(pattern=r"^[1-9][0-9]{0,3}$")]
Name = Annotated[str, Field(min_length=1, max_length=127, pattern=r"\S")]
Note = Annotated[str, Field(max_length=255)]
TransactionStatus = Literal[
    "COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED", "CREATED", "PARTIALLY_CAPTURED", "CAPTURED", "VOIDED", "EXPIRED"
]
DisputeStatus = Literal["OPEN", "WAITING_FOR_BUYER_RESPONSE", "WAITING_FOR_SELLER_RESPONSE", "UNDER_REVIEW", "RESOLVED"]
InvoiceStatus = Literal["DRAFT", "SENT", "PARTIALLY_PAID", "PAID", "MARKED_AS_PAID", "CANCELLED"]


class MoneyInput(BaseModel):
    """An amount: {"currency_code": "USD", "value": "12.50"}."""

    currency_code: Literal["USD"]
    value: Value


class BreakdownInput(BaseModel):
    """What the amount is made of: amount = item_total + shipping + tax_total - discount."""

    item_total: MoneyInput | None = None
    shipping: MoneyInput | None = None
    tax_total: MoneyInput | None = None
    discount: MoneyInput | None = None


class AmountInput(BaseModel):
    """The purchase unit's total, with its breakdown (required with items)."""

    currency_code: Literal["USD"]
    value: Value
    breakdown: BreakdownInput = Field(default_factory=BreakdownInput)


class ItemInput(BaseModel):
    """A line of the purchase: its unit price times quantity counts towards breakdown.item_total."""

    name: Name
    quantity: Quantity
    unit_amount: MoneyInput
    sku: Annotated[str, Field(max_length=127)] | None = None


class PurchaseUnitInput(BaseModel):
    """What the payer buys from the merchant."""

    amount: AmountInput
    items: list[ItemInput] = Field(default_factory=list, max_length=100)
    reference_id: Annotated[str, Field(max_length=256)] | None = None
    description: Annotated[str, Field(max_length=127)] | None = None
    invoice_id: Annotated[str, Field(max_length=127)] | None = Field(None, description="The merchant's invoice number.")


class TrackingInfo(BaseModel):
    carrier_name: Literal["UPS", "USPS", "FEDEX", "DHL", "OTHER"]
    tracking_number: Annotated[str, Field(min_length=4, max_length=64, pattern=r"^[A-Za-z0-9]+$")]


class EvidenceInput(BaseModel):
    """Evidence for a dispute: PROOF_OF_FULFILLMENT needs tracking_info, PROOF_OF_REFUND a refund_id of the disputed
    transaction."""

    evidence_type: Literal["PROOF_OF_FULFILLMENT", "PROOF_OF_REFUND", "OTHER"]
    tracking_info: TrackingInfo | None = None
    refund_id: str | None = None
    notes: Annotated[str, Field(max_length=2000)] | None = None


class PayoutItemInput(BaseModel):
    """One payment of a payout batch, to an email address."""

    receiver: Email
    amount: MoneyInput
    sender_item_id: Annotated[str, Field(max_length=63)] | None = None
    note: Note | None = None


class InvoiceItemInput(BaseModel):
    name: Name
    quantity: Quantity
    unit_amount: MoneyInput
