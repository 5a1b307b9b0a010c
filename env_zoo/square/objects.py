"""Square's API objects as output models (field names as in the API's JSON), and how stored rows become them."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, KeptGeneric, paginate

from .errors import bad_request
from .rules import REFUND_HOLDING, line_gross, order_discount, order_gross, order_total
from .schema import (
    categories,
    loyalty_rewards,
    modifier_lists,
    modifiers,
    payments,
    refunds,
    reward_tiers,
    variations,
)

T = TypeVar("T")


class Money(BaseModel):
    """An amount in the currency's smallest unit (cents): {"amount": 450, "currency": "USD"} is $4.50."""

    amount: int
    currency: str


def money(amount: int, currency: str = "USD") -> Money:
    return Money(amount=amount, currency=currency)


class ListPage(KeptGeneric, Generic[T]):
    """One page of results; pass `cursor` back to get the next page (None on the last one)."""

    results: list[T]
    cursor: str | None


def page_of(rows: list[Any], limit: int, cursor: str | None, convert: Any) -> ListPage[Any]:
    """A page of `rows` converted with `convert`, Square's way: a `cursor` to pass back while more remain."""
    if cursor is not None and not cursor.isdigit():
        raise bad_request("INVALID_CURSOR", "The pagination cursor is not valid.", "cursor")
    page = paginate(rows, limit, cursor)
    return ListPage[Any](results=[convert(row) for row in page.results], cursor=page.next_cursor)


# ---------------------------------------------------------------- locations


class Address(BaseModel):
    address_line_1: str
    locality: str
    administrative_district_level_1: str
    postal_code: str


class LocationObject(BaseModel):
    """A business location: orders, payments and loyalty activity happen at an ACTIVE one."""

    id: str
    name: str
    status: str
    address: Address
    timezone: str
    currency: str
    phone_number: str | None


def location_object(row: dict[str, Any]) -> LocationObject:
    return LocationObject(
        **{k: row[k] for k in ("id", "name", "status", "timezone", "currency", "phone_number")},
        address=Address(**{k: row[k] for k in Address.model_fields}),
    )


# ---------------------------------------------------------------- catalog


class VariationObject(BaseModel):
    """An ITEM_VARIATION: what is actually sold (a size, a bag weight), with its price."""

    type: Literal["ITEM_VARIATION"] = "ITEM_VARIATION"
    id: str
    version: int
    item_id: str
    name: str
    sku: str | None
    ordinal: int
    pricing_type: str
    price_money: Money | None


def variation_object(row: dict[str, Any]) -> VariationObject:
    price = money(row["price_amount"], row["currency"]) if row["price_amount"] is not None else None
    return VariationObject(
        **{k: row[k] for k in ("id", "version", "item_id", "name", "sku", "ordinal", "pricing_type")},
        price_money=price,
    )


class ModifierObject(BaseModel):
    """A MODIFIER: an option of a modifier list (oat milk, an extra shot), with what it adds to the price."""

    type: Literal["MODIFIER"] = "MODIFIER"
    id: str
    version: int
    modifier_list_id: str
    name: str
    price_money: Money


def modifier_object(row: dict[str, Any]) -> ModifierObject:
    return ModifierObject(
        **{k: row[k] for k in ("id", "version", "modifier_list_id", "name")}, price_money=money(row["price_amount"])
    )


class ModifierListObject(BaseModel):
    """A MODIFIER_LIST: SINGLE lists allow one of their modifiers per line item, MULTIPLE lists several."""

    type: Literal["MODIFIER_LIST"] = "MODIFIER_LIST"
    id: str
    version: int
    name: str
    selection_type: str
    modifiers: list[ModifierObject]


def modifier_list_object(db: Database, row: dict[str, Any]) -> ModifierListObject:
    options = db.find(modifiers, modifier_list_id=row["id"], order_by=[modifiers.c.ordinal])
    return ModifierListObject(
        **{k: row[k] for k in ("id", "version", "name", "selection_type")},
        modifiers=[modifier_object(m) for m in options],
    )


class CategoryObject(BaseModel):
    """A CATEGORY of items."""

    type: Literal["CATEGORY"] = "CATEGORY"
    id: str
    version: int
    name: str


def category_object(row: dict[str, Any]) -> CategoryObject:
    return CategoryObject(**{k: row[k] for k in ("id", "version", "name")})


class ItemObject(BaseModel):
    """An ITEM with its variations and the modifier lists enabled on it."""

    type: Literal["ITEM"] = "ITEM"
    id: str
    version: int
    name: str
    description: str | None
    category_id: str | None
    product_type: str
    is_archived: bool
    present_at_all_locations: bool
    present_at_location_ids: list[str]
    modifier_list_ids: list[str]
    variations: list[VariationObject]


def item_object(db: Database, row: dict[str, Any]) -> ItemObject:
    rows = db.find(variations, item_id=row["id"], order_by=[variations.c.ordinal])
    return ItemObject(
        **{k: row[k] for k in ("id", "version", "name", "description", "category_id", "product_type", "is_archived")},
        present_at_all_locations=row["present_at_location_ids"] is None,
        present_at_location_ids=row["present_at_location_ids"] or [],
        modifier_list_ids=row["modifier_list_ids"],
        variations=[variation_object(v) for v in rows],
    )


class CatalogObjectResult(BaseModel):
    """One catalog object (exactly one of item, item_variation, category, modifier_list, modifier is set) and,
    when asked for, the objects it refers to."""

    object_type: str
    item: ItemObject | None = None
    item_variation: VariationObject | None = None
    category: CategoryObject | None = None
    modifier_list: ModifierListObject | None = None
    modifier: ModifierObject | None = None
    related_objects: list[ItemObject | CategoryObject | ModifierListObject] = []


def related_of_item(db: Database, item: dict[str, Any]) -> list[ItemObject | CategoryObject | ModifierListObject]:
    """The category and modifier lists an item refers to."""
    related: list[ItemObject | CategoryObject | ModifierListObject] = []
    if item["category_id"]:
        related.append(category_object(db.get(categories, item["category_id"])))
    related.extend(modifier_list_object(db, db.get(modifier_lists, mid)) for mid in item["modifier_list_ids"])
    return related


# ---------------------------------------------------------------- customers


class CustomerObject(BaseModel):
    """A customer profile in the Customer Directory."""

    id: str
    given_name: str | None
    family_name: str | None
    company_name: str | None
    email_address: str | None
    phone_number: str | None
    reference_id: str | None
    note: str | None
    birthday: str | None
    creation_source: str
    version: int
    created_at: str


def customer_object(row: dict[str, Any]) -> CustomerObject:
    return CustomerObject(**{k: row[k] for k in CustomerObject.model_fields})


class CardObject(BaseModel):
    """A card on file; its id (ccof:...) is the source_id to charge it."""

    id: str
    customer_id: str
    card_brand: str
    last_4: str
    exp_month: int
    exp_year: int
    cardholder_name: str | None
    card_type: str
    enabled: bool


def card_object(row: dict[str, Any]) -> CardObject:
    return CardObject(**{k: row[k] for k in CardObject.model_fields})


# ---------------------------------------------------------------- orders


class OrderModifier(BaseModel):
    uid: str
    catalog_object_id: str | None
    name: str
    base_price_money: Money


class OrderLineItem(BaseModel):
    """A line item; `quantity` is a decimal string as in the API."""

    uid: str
    catalog_object_id: str | None
    name: str
    variation_name: str | None
    quantity: str
    base_price_money: Money
    modifiers: list[OrderModifier]
    note: str | None
    gross_sales_money: Money


class OrderDiscount(BaseModel):
    uid: str
    name: str
    amount_money: Money
    reward_id: str | None


class OrderFulfillment(BaseModel):
    """A PICKUP fulfillment: PROPOSED -> RESERVED -> PREPARED -> COMPLETED (or CANCELED / FAILED)."""

    uid: str
    type: str
    state: str
    recipient_display_name: str
    pickup_at: str | None
    note: str | None


class OrderTender(BaseModel):
    """A payment applied to the order."""

    payment_id: str
    type: str
    amount_money: Money
    tip_money: Money
    card_brand: str | None
    last_4: str | None


class OrderRefund(BaseModel):
    id: str
    payment_id: str
    amount_money: Money
    status: str
    reason: str | None


class OrderObject(BaseModel):
    """An order with its line items, discounts, fulfillments, tenders (payments applied), refunds and totals."""

    id: str
    location_id: str
    customer_id: str | None
    reference_id: str | None
    source_name: str
    state: str
    version: int
    line_items: list[OrderLineItem]
    discounts: list[OrderDiscount]
    fulfillments: list[OrderFulfillment]
    tenders: list[OrderTender]
    refunds: list[OrderRefund]
    gross_sales_money: Money
    total_discount_money: Money
    total_money: Money
    net_amount_due_money: Money
    refunded_money: Money
    reward_ids: list[str]
    created_at: str
    closed_at: str | None


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    currency = row["currency"]
    lines = [
        OrderLineItem(
            uid=line["uid"],
            catalog_object_id=line.get("catalog_object_id"),
            name=line["name"],
            variation_name=line.get("variation_name"),
            quantity=line["quantity"],
            base_price_money=money(line["base_price_amount"], currency),
            modifiers=[
                OrderModifier(
                    uid=m["uid"],
                    catalog_object_id=m.get("catalog_object_id"),
                    name=m["name"],
                    base_price_money=money(m["base_price_amount"], currency),
                )
                for m in line.get("modifiers", [])
            ],
            note=line.get("note"),
            gross_sales_money=money(line_gross(line), currency),
        )
        for line in row["line_items"]
    ]
    tenders = []
    for payment_id in row["tender_payment_ids"]:
        paid = db.get(payments, payment_id)
        tenders.append(
            OrderTender(
                payment_id=payment_id,
                type=paid["source_type"],
                amount_money=money(paid["amount"], currency),
                tip_money=money(paid["tip_amount"], currency),
                card_brand=paid["card_brand"],
                last_4=paid["last_4"],
            )
        )
    returned = db.find(refunds, order_id=row["id"], order_by=[refunds.c.created_at])
    held = sum(r["amount"] for r in returned if r["status"] in REFUND_HOLDING)
    total = order_total(row)
    rewards = db.find(loyalty_rewards, order_id=row["id"], order_by=[loyalty_rewards.c.created_at])
    return OrderObject(
        **{k: row[k] for k in ("id", "location_id", "customer_id", "reference_id", "source_name", "state")},
        version=row["version"],
        line_items=lines,
        discounts=[
            OrderDiscount(
                uid=d["uid"], name=d["name"], amount_money=money(d["amount"], currency), reward_id=d.get("reward_id")
            )
            for d in row["discounts"]
        ],
        fulfillments=[
            OrderFulfillment(
                uid=f["uid"],
                type=f["type"],
                state=f["state"],
                recipient_display_name=f["recipient"],
                pickup_at=f.get("pickup_at"),
                note=f.get("note"),
            )
            for f in row["fulfillments"]
        ],
        tenders=tenders,
        refunds=[
            OrderRefund(
                id=r["id"],
                payment_id=r["payment_id"],
                amount_money=money(r["amount"], currency),
                status=r["status"],
                reason=r["reason"],
            )
            for r in returned
        ],
        gross_sales_money=money(order_gross(row), currency),
        total_discount_money=money(order_discount(row), currency),
        total_money=money(total, currency),
        net_amount_due_money=money(0 if row["tender_payment_ids"] else total, currency),
        refunded_money=money(held, currency),
        reward_ids=[r["id"] for r in rewards if r["status"] != "DELETED"],
        created_at=row["created_at"],
        closed_at=row["closed_at"],
    )


# ---------------------------------------------------------------- payments and refunds


class CardDetails(BaseModel):
    card_id: str | None
    card_brand: str | None
    last_4: str | None


class PaymentObject(BaseModel):
    """A payment: APPROVED (authorized, awaiting completion or cancellation before delayed_until), COMPLETED,
    CANCELED or FAILED. total_money is amount_money plus tip_money; refunded_money counts PENDING and COMPLETED
    refunds."""

    id: str
    status: str
    location_id: str
    order_id: str | None
    customer_id: str | None
    source_type: str
    card_details: CardDetails | None
    amount_money: Money
    tip_money: Money
    total_money: Money
    refunded_money: Money
    refundable_money: Money
    delay_action: str | None
    delayed_until: str | None
    note: str | None
    reference_id: str | None
    refund_ids: list[str]
    created_at: str


def payment_object(db: Database, row: dict[str, Any]) -> PaymentObject:
    currency = row["currency"]
    refund_rows = db.find(refunds, payment_id=row["id"], order_by=[refunds.c.created_at])
    card = (
        CardDetails(card_id=row["card_id"], card_brand=row["card_brand"], last_4=row["last_4"])
        if row["source_type"] == "CARD"
        else None
    )
    held = sum(r["amount"] for r in refund_rows if r["status"] in REFUND_HOLDING)
    left = row["amount"] + row["tip_amount"] - held if row["status"] == "COMPLETED" else 0
    return PaymentObject(
        **{
            k: row[k]
            for k in (
                "id",
                "status",
                "location_id",
                "order_id",
                "customer_id",
                "source_type",
                "delay_action",
                "delayed_until",
                "note",
                "reference_id",
                "created_at",
            )
        },
        card_details=card,
        amount_money=money(row["amount"], currency),
        tip_money=money(row["tip_amount"], currency),
        total_money=money(row["amount"] + row["tip_amount"], currency),
        refunded_money=money(held, currency),
        refundable_money=money(left, currency),
        refund_ids=[r["id"] for r in refund_rows],
    )


class RefundObject(BaseModel):
    """A refund: card refunds are PENDING until the card network settles them, cash and external ones COMPLETED."""

    id: str
    status: str
    payment_id: str
    order_id: str | None
    location_id: str
    amount_money: Money
    reason: str | None
    created_at: str


def refund_object(row: dict[str, Any]) -> RefundObject:
    return RefundObject(
        **{k: row[k] for k in ("id", "status", "payment_id", "order_id", "location_id", "reason", "created_at")},
        amount_money=money(row["amount"], row["currency"]),
    )


# ---------------------------------------------------------------- loyalty


class RewardTierObject(BaseModel):
    """A reward a buyer can claim for points: a fixed amount or a percentage off the whole order."""

    id: str
    name: str
    points: int
    discount_type: str
    fixed_discount_money: Money | None
    percentage_discount: str | None
    max_discount_money: Money | None


class LoyaltyProgramObject(BaseModel):
    """The seller's loyalty program: how points accrue and the reward tiers."""

    id: str
    status: str
    name: str
    terminology: dict[str, str]
    accrual_rule: str
    excluded_category_ids: list[str]
    location_ids: list[str]
    reward_tiers: list[RewardTierObject]


def program_object(db: Database, row: dict[str, Any]) -> LoyaltyProgramObject:
    tiers = db.find(reward_tiers, program_id=row["id"], order_by=[reward_tiers.c.points])
    return LoyaltyProgramObject(
        id=row["id"],
        status=row["status"],
        name=row["name"],
        terminology={"one": row["points_one"], "other": row["points_other"]},
        accrual_rule=f"SPEND: 1 point per {row['accrual_spend_amount'] / 100:.2f} USD of an order's total",
        excluded_category_ids=row["excluded_category_ids"],
        location_ids=row["location_ids"],
        reward_tiers=[
            RewardTierObject(
                id=t["id"],
                name=t["name"],
                points=t["points"],
                discount_type=t["discount_type"],
                fixed_discount_money=money(t["amount"]) if t["amount"] is not None else None,
                percentage_discount=t["percentage"],
                max_discount_money=money(t["max_discount_amount"]) if t["max_discount_amount"] is not None else None,
            )
            for t in tiers
        ],
    )


class LoyaltyRewardObject(BaseModel):
    """A reward: ISSUED (points spent, discount on an order if one was named), REDEEMED when that order is paid,
    DELETED when taken back (points returned)."""

    id: str
    status: str
    loyalty_account_id: str
    reward_tier_id: str
    order_id: str | None
    points: int
    created_at: str
    redeemed_at: str | None


def reward_object(row: dict[str, Any]) -> LoyaltyRewardObject:
    return LoyaltyRewardObject(**{k: row[k] for k in LoyaltyRewardObject.model_fields})


class LoyaltyAccountObject(BaseModel):
    """A buyer's loyalty account, found by its phone number mapping, with its point balance and open rewards."""

    id: str
    program_id: str
    customer_id: str
    phone_number: str
    balance: int
    lifetime_points: int
    enrolled_at: str
    issued_rewards: list[LoyaltyRewardObject]


def account_object(db: Database, row: dict[str, Any]) -> LoyaltyAccountObject:
    issued = db.find(loyalty_rewards, loyalty_account_id=row["id"], status="ISSUED")
    return LoyaltyAccountObject(
        **{k: row[k] for k in ("id", "program_id", "customer_id", "phone_number", "balance", "lifetime_points")},
        enrolled_at=row["enrolled_at"],
        issued_rewards=[reward_object(r) for r in issued],
    )
