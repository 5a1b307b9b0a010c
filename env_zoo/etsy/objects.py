"""Etsy's API objects as output models (ShopListing, ListingInventory, ShopReceipt, ShippingProfile, ...) and how
stored rows become them. Money is Etsy's Money object: an integer amount over a divisor, with a currency code."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, KeptGeneric

from .schema import (
    listing_images,
    listing_products,
    listings,
    receipt_shipments,
    refunds,
    shipping_destinations,
    shipping_upgrades,
    shops,
    transactions,
    users,
)

T = TypeVar("T")


class Money(BaseModel):
    amount: int
    divisor: int
    currency_code: str


class Results(KeptGeneric, Generic[T]):
    """A page of results: `count` is how many match in all, `results` this page (page on with offset)."""

    count: int
    results: list[T]


class Shop(BaseModel):
    shop_id: int
    shop_name: str
    title: str
    user_id: int
    currency_code: str
    is_vacation: bool
    listing_active_count: int
    url: str


class ShopSection(BaseModel):
    shop_section_id: int
    title: str
    rank: int
    active_listing_count: int


class ShippingDestination(BaseModel):
    shipping_profile_destination_id: int
    destination_country_iso: str | None
    destination_region: str
    primary_cost: Money
    secondary_cost: Money
    mail_class: str | None
    min_delivery_days: int | None
    max_delivery_days: int | None


class ShippingUpgrade(BaseModel):
    upgrade_id: int
    upgrade_name: str
    type: str
    price: Money
    secondary_price: Money


class ShippingProfile(BaseModel):
    shipping_profile_id: int
    title: str
    origin_country_iso: str
    origin_postal_code: str
    min_processing_days: int
    max_processing_days: int
    shipping_profile_destinations: list[ShippingDestination]
    shipping_profile_upgrades: list[ShippingUpgrade]


class ListingImage(BaseModel):
    listing_image_id: int
    rank: int
    alt_text: str
    url_fullxfull: str


class Listing(BaseModel):
    listing_id: int
    shop_id: int
    title: str
    description: str
    state: str
    quantity: int
    price: Money
    who_made: str
    when_made: str
    taxonomy_id: int
    is_supply: bool
    tags: list[str]
    materials: list[str]
    shipping_profile_id: int | None
    shop_section_id: int | None
    should_auto_renew: bool
    num_favorers: int
    views: int
    created_timestamp: str
    ending_timestamp: str | None
    url: str
    images: list[ListingImage]


class ListingSummary(BaseModel):
    listing_id: int
    title: str
    state: str
    quantity: int
    price: Money
    shop_section_id: int | None
    ending_timestamp: str | None


class PropertyValue(BaseModel):
    property_name: str
    value: str


class Offering(BaseModel):
    offering_id: int
    price: Money
    quantity: int
    is_enabled: bool


class Product(BaseModel):
    product_id: int
    sku: str
    property_values: list[PropertyValue]
    offerings: list[Offering]


class ListingInventory(BaseModel):
    listing_id: int
    products: list[Product]
    price_on_property: list[str]
    quantity_on_property: list[str]


class Transaction(BaseModel):
    transaction_id: int
    listing_id: int
    product_id: int | None
    title: str
    sku: str
    variations: list[PropertyValue]
    quantity: int
    price: Money
    shipping_cost: Money


class Shipment(BaseModel):
    receipt_shipping_id: int
    carrier_name: str
    tracking_code: str
    note_to_buyer: str
    shipment_notification_timestamp: str


class Refund(BaseModel):
    refund_id: int
    amount: Money
    reason: str
    note_from_seller: str
    created_timestamp: str


class ReceiptSummary(BaseModel):
    receipt_id: int
    name: str
    buyer_email: str
    status: str
    is_paid: bool
    is_shipped: bool
    grandtotal: Money
    create_timestamp: str
    expected_ship_date: str
    items: list[str]


class Receipt(BaseModel):
    receipt_id: int
    shop_id: int
    buyer_user_id: int
    name: str
    buyer_email: str
    formatted_address: str
    country_iso: str
    status: str
    is_paid: bool
    is_shipped: bool
    message_from_buyer: str
    shipping_upgrade: str | None
    subtotal: Money
    total_shipping_cost: Money
    total_tax_cost: Money
    grandtotal: Money
    refunded_amount: Money
    create_timestamp: str
    expected_ship_date: str
    transactions: list[Transaction]
    shipments: list[Shipment]
    refunds: list[Refund]


class Review(BaseModel):
    shop_id: int
    listing_id: int
    transaction_id: int
    buyer_user_id: int
    rating: int
    review: str
    create_timestamp: str


class LedgerEntry(BaseModel):
    entry_id: int
    description: str
    reference_id: int
    amount: Money
    create_date: str


def money(amount: int, currency: str) -> Money:
    """Cents as Etsy's Money object."""
    return Money(amount=amount, divisor=100, currency_code=currency)


def images_of(db: Database, listing_id: int) -> list[ListingImage]:
    """A listing's images in rank order."""
    rows = db.find(listing_images, listing_id=listing_id, order_by=[listing_images.c.rank])
    return [
        ListingImage(
            listing_image_id=r["listing_image_id"],
            rank=r["rank"],
            alt_text=r["alt_text"],
            url_fullxfull=f"https://i.etsystatic.com/il/{r['listing_image_id']}/{r['file_name']}",
        )
        for r in rows
    ]


def listing_object(db: Database, row: dict[str, Any], currency: str) -> Listing:
    """A stored listing as the ShopListing object, with its images."""
    fields = {k: row[k] for k in Listing.model_fields if k in row and k != "price"}
    return Listing(
        **fields,
        price=money(row["price"], currency),
        url=f"https://www.etsy.com/listing/{row['listing_id']}",
        images=images_of(db, row["listing_id"]),
    )


def listing_summary(row: dict[str, Any], currency: str) -> ListingSummary:
    """A stored listing as one line of a listing search."""
    fields = {k: row[k] for k in ListingSummary.model_fields if k != "price"}
    return ListingSummary(**fields, price=money(row["price"], currency))


def inventory_object(db: Database, listing: dict[str, Any], currency: str) -> ListingInventory:
    """A listing's products, each with its one offering."""
    products = [
        Product(
            product_id=p["product_id"],
            sku=p["sku"],
            property_values=[PropertyValue(**v) for v in p["property_values"]],
            offerings=[
                Offering(
                    offering_id=p["offering_id"],
                    price=money(p["price"], currency),
                    quantity=p["quantity"],
                    is_enabled=p["is_enabled"],
                )
            ],
        )
        for p in db.find(listing_products, listing_id=listing["listing_id"], order_by=[listing_products.c.product_id])
    ]
    return ListingInventory(
        listing_id=listing["listing_id"],
        products=products,
        price_on_property=listing["price_on_property"],
        quantity_on_property=listing["quantity_on_property"],
    )


def destination_object(row: dict[str, Any], currency: str) -> ShippingDestination:
    """A stored shipping destination with its costs as Money."""
    plain = {k: row[k] for k in ShippingDestination.model_fields if k not in ("primary_cost", "secondary_cost")}
    return ShippingDestination(
        **plain,
        primary_cost=money(row["primary_cost"], currency),
        secondary_cost=money(row["secondary_cost"], currency),
    )


def upgrade_object(row: dict[str, Any], currency: str) -> ShippingUpgrade:
    """A stored shipping upgrade ("0" domestic, "1" international)."""
    return ShippingUpgrade(
        upgrade_id=row["upgrade_id"],
        upgrade_name=row["upgrade_name"],
        type=str(row["type"]),
        price=money(row["price"], currency),
        secondary_price=money(row["secondary_price"], currency),
    )


def profile_object(db: Database, row: dict[str, Any], currency: str) -> ShippingProfile:
    """A shipping profile with its destinations and upgrades."""
    key = row["shipping_profile_id"]
    return ShippingProfile(
        **{k: row[k] for k in ShippingProfile.model_fields if k in row},
        shipping_profile_destinations=[
            destination_object(d, currency) for d in db.find(shipping_destinations, shipping_profile_id=key)
        ],
        shipping_profile_upgrades=[
            upgrade_object(u, currency) for u in db.find(shipping_upgrades, shipping_profile_id=key)
        ],
    )


def section_object(db: Database, row: dict[str, Any]) -> ShopSection:
    """A shop section with how many active listings it holds."""
    active = db.select(listings, "shop_section_id = ? AND state = 'active'", (row["shop_section_id"],))
    return ShopSection(
        shop_section_id=row["shop_section_id"], title=row["title"], rank=row["rank"], active_listing_count=len(active)
    )


def receipt_summary(db: Database, row: dict[str, Any], currency: str) -> ReceiptSummary:
    """One line of a receipt listing: who, what, how much, and where it stands."""
    items = [f"{t['quantity']} x {t['title']}" for t in db.find(transactions, receipt_id=row["receipt_id"])]
    fields = {k: row[k] for k in ReceiptSummary.model_fields if k in row and k != "grandtotal"}
    return ReceiptSummary(**fields, grandtotal=money(row["grandtotal"], currency), items=items)


def receipt_object(db: Database, row: dict[str, Any], currency: str) -> Receipt:
    """A receipt with its transactions, shipments and refunds."""
    key = row["receipt_id"]
    sold = [
        Transaction(
            **{k: t[k] for k in ("transaction_id", "listing_id", "product_id", "title", "sku", "quantity")},
            variations=[PropertyValue(**v) for v in t["variations"]],
            price=money(t["price"], currency),
            shipping_cost=money(t["shipping_cost"], currency),
        )
        for t in db.find(transactions, receipt_id=key, order_by=[transactions.c.transaction_id])
    ]
    shipments = [
        Shipment(**{k: s[k] for k in Shipment.model_fields})
        for s in db.find(receipt_shipments, receipt_id=key, order_by=[receipt_shipments.c.receipt_shipping_id])
    ]
    paid_back = [
        Refund(
            refund_id=r["refund_id"],
            amount=money(r["amount"], currency),
            reason=r["reason"],
            note_from_seller=r["note_from_seller"],
            created_timestamp=r["created_timestamp"],
        )
        for r in db.find(refunds, receipt_id=key, order_by=[refunds.c.refund_id])
    ]
    cents = {k: money(row[k], currency) for k in ("subtotal", "total_shipping_cost", "total_tax_cost", "grandtotal")}
    plain = ("receipt_id", "shop_id", "buyer_user_id", "name", "buyer_email", "country_iso", "status", "is_paid")
    return Receipt(
        **{k: row[k] for k in plain},
        is_shipped=row["is_shipped"],
        message_from_buyer=row["message_from_buyer"],
        shipping_upgrade=row["shipping_upgrade"],
        create_timestamp=row["create_timestamp"],
        expected_ship_date=row["expected_ship_date"],
        formatted_address=f"{row['name']}\n{row['first_line']}\n{row['city']}, {row['state']} {row['zip']}",
        refunded_amount=money(row["refunded"], currency),
        transactions=sold,
        shipments=shipments,
        refunds=paid_back,
        **cents,
    )


class Me(BaseModel):
    user_id: int
    first_name: str
    last_name: str
    primary_email: str
    shops: list[Shop]


def shop_object(db: Database, row: dict[str, Any]) -> Shop:
    """A stored shop with its count of active listings."""
    active = db.select(listings, "shop_id = ? AND state = 'active'", (row["shop_id"],))
    return Shop(
        **{k: row[k] for k in ("shop_id", "shop_name", "title", "user_id", "currency_code", "is_vacation")},
        listing_active_count=len(active),
        url=f"https://www.etsy.com/shop/{row['shop_name']}",
    )


def me_object(db: Database, user_id: int) -> Me:
    """The signed-in seller with the shops they own."""
    person = db.get(users, user_id, "User")
    owned = [shop_object(db, s) for s in db.find(shops, user_id=user_id, order_by=[shops.c.shop_id])]
    return Me(**{k: person[k] for k in ("user_id", "first_name", "last_name", "primary_email")}, shops=owned)
