"""Etsy Open API v3 tools as a seller's app sees them: the seller's user and shop, listings (drafts, activation,
renewal), their inventory and images, shop sections, shipping profiles, receipts with shipments and refunds,
reviews and the payment-account ledger; plus the seller's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoTimestamp, NonBlankText

from . import rules
from .access import me, own_listing, own_profile, own_receipt, own_shop, readable_listing
from .inputs import (
    Carrier,
    Cost,
    Country,
    DeliveryDays,
    Description,
    Limit,
    ListingState,
    Materials,
    Note,
    Offset,
    Price,
    ProcessingDays,
    ProductInput,
    Quantity,
    Rating,
    RefundAmount,
    RefundReason,
    Region,
    SectionTitle,
    SortOn,
    SortOrder,
    Tags,
    Title,
    TrackingCode,
    WhenMade,
    WhoMade,
)
from .objects import (
    LedgerEntry,
    Listing,
    ListingInventory,
    ListingSummary,
    Me,
    Receipt,
    ReceiptSummary,
    Results,
    Review,
    ShippingDestination,
    ShippingProfile,
    ShippingUpgrade,
    ShopSection,
    inventory_object,
    listing_object,
    listing_summary,
    me_object,
    money,
    profile_object,
    receipt_object,
    receipt_summary,
    section_object,
)
from .schema import (
    ledger_entries,
    listing_images,
    listing_products,
    listings,
    receipts,
    reviews,
    sessions,
    shipping_profiles,
    shop_sections,
    tokens,
    transactions,
)

ORDER = {"created": "created_timestamp", "price": "price", "title": "title", "ending": "ending_timestamp"}


# ---------------------------------------------------------------- the seller


@tool(user_only=True)
def sign_in(db: Database, access_token: NonBlankText) -> Me:
    """(User only) The seller connects their Etsy account: the assistant then acts with their OAuth access token.

    Args:
        access_token: The OAuth access token, "<user_id>.<token>".
    """
    found = db.find(tokens, access_token=access_token.strip())
    if not found:
        raise PermissionDenied("invalid_token: the access token is not valid")
    db.start_session(sessions, user_id=found[0]["user_id"])
    return me_object(db, found[0]["user_id"])


@tool(read_only=True)
def get_me(db: Database) -> Me:
    """The signed-in seller (getMe) with the shops they own: shop_id, name, currency, vacation mode, active listings."""
    return me_object(db, me(db))


# ---------------------------------------------------------------- listings


@tool(read_only=True)
def find_shop_listings(
    db: Database,
    shop_id: int,
    state: ListingState = "active",
    keywords: str | None = None,
    shop_section_id: int | None = None,
    sort_on: SortOn = "created",
    sort_order: SortOrder = "desc",
    limit: Limit = 25,
    offset: Offset = 0,
) -> Results[ListingSummary]:
    """List a shop's listings in one state (getListingsByShop), optionally only those whose title or tags contain
    the keywords, or those of one section.

    Args:
        shop_id: The shop's id (from get_me).
        state: Which listings: active (default), inactive, sold_out, draft or expired.
        keywords: Words that must all appear in the title or tags (case-insensitive).
        shop_section_id: Only listings in this shop section.
        sort_on: Order by created (default), price, title or ending (end of the listing's term).
        sort_order: asc or desc (default).
        limit: Results per page, 1 to 100 (default 25).
        offset: How many results to skip.
    """
    shop = own_shop(db, shop_id)
    where, params = ["shop_id = ?", "state = ?"], [shop_id, state]
    for word in (keywords or "").lower().split():
        where.append("(lower(title) LIKE ? OR lower(tags) LIKE ?)")
        params += [f"%{word}%", f"%{word}%"]
    if shop_section_id is not None:
        where.append("shop_section_id = ?")
        params.append(shop_section_id)
    rows = db.select(listings, " AND ".join(where), params, order_by=f"{ORDER[sort_on]} {sort_order}")
    page = rows[offset : offset + limit]
    return Results(count=len(rows), results=[listing_summary(r, shop["currency_code"]) for r in page])


@tool(read_only=True)
def get_listing(db: Database, listing_id: int) -> Listing:
    """One listing with its state, price, quantity, tags, shipping profile, section, term end and images
    (getListing with images). Other shops' listings are visible only while active.

    Args:
        listing_id: The listing's id.
    """
    listing, shop = readable_listing(db, listing_id)
    return listing_object(db, listing, shop["currency_code"])


@tool()
def create_draft_listing(
    db: Database,
    shop_id: int,
    title: Title,
    description: Description,
    price: Price,
    quantity: Quantity,
    who_made: WhoMade,
    when_made: WhenMade,
    taxonomy_id: Annotated[int, Field(ge=1)],
    is_supply: bool = False,
    tags: Tags | None = None,
    materials: Materials | None = None,
    shipping_profile_id: int | None = None,
    shop_section_id: int | None = None,
    should_auto_renew: bool = False,
) -> Listing:
    """Create a draft listing (createDraftListing) with one product at the given price and quantity. A draft is not
    for sale: activating it with update_listing needs a shipping profile and an image, and costs the $0.20 listing fee.

    Args:
        shop_id: The shop's id.
        title: The listing title, 1 to 140 characters.
        description: The description buyers read.
        price: The price in the shop's currency, 0.20 to 50000.00.
        quantity: How many are for sale, 1 to 999.
        who_made: i_did, collective, or someone_else (vintage items and craft supplies only).
        when_made: made_to_order, 2020_2026, ... or a vintage period (before_2007 and older).
        taxonomy_id: The seller taxonomy category id (e.g. 1069 Mugs, 1633 Bowls, 1866 Vases, 2823 Scarves).
        is_supply: True for a craft supply, false for a finished item.
        tags: Up to 13 search tags, each at most 20 characters (kept in alphabetical order).
        materials: Up to 13 materials (kept in alphabetical order).
        shipping_profile_id: One of the shop's shipping profiles.
        shop_section_id: One of the shop's sections.
        should_auto_renew: Renew automatically (for the listing fee) when the term ends.
    """
    shop = own_shop(db, shop_id)
    rules.check_vintage(who_made, when_made, is_supply)
    if shipping_profile_id is not None:
        own_profile(db, shop_id, shipping_profile_id)
    if shop_section_id is not None:
        rules.section_of(db, shop_id, shop_section_id)
    cents = rules.cents(price, shop["currency_code"], "price")
    number = db.next_number("etsy:listing", listings)
    key = 1_800_000_000 + number
    row = db.insert(
        listings,
        listing_id=key,
        shop_id=shop_id,
        title=title.strip(),
        description=description,
        state="draft",
        quantity=quantity,
        price=cents,
        who_made=who_made,
        when_made=when_made,
        taxonomy_id=taxonomy_id,
        is_supply=is_supply,
        tags=rules.keywords(tags or []),
        materials=rules.keywords(materials or []),
        shipping_profile_id=shipping_profile_id,
        shop_section_id=shop_section_id,
        should_auto_renew=should_auto_renew,
        num_favorers=0,
        views=0,
        price_on_property=[],
        quantity_on_property=[],
        created_timestamp=db.now_iso(),
        ending_timestamp=None,
        state_timestamp=db.now_iso(),
    )
    db.insert(
        listing_products,
        product_id=7_200_000_000 + db.next_number("etsy:product", listing_products),
        offering_id=7_300_000_000 + number,
        listing_id=key,
        sku="",
        property_values=[],
        price=cents,
        quantity=quantity,
        is_enabled=True,
    )
    return listing_object(db, row, shop["currency_code"])


@tool()
def update_listing(
    db: Database,
    shop_id: int,
    listing_id: int,
    title: Title | None = None,
    description: Description | None = None,
    tags: Tags | None = None,
    materials: Materials | None = None,
    shipping_profile_id: int | None = None,
    shop_section_id: int | None = None,
    who_made: WhoMade | None = None,
    when_made: WhenMade | None = None,
    is_supply: bool | None = None,
    should_auto_renew: bool | None = None,
    state: Literal["active", "inactive"] | None = None,
) -> Listing:
    """Change a listing's details (updateListing). Price and quantity are not here: they live in the inventory
    (update_listing_inventory). state "active" publishes a draft ($0.20 listing fee), renews an expired or sold-out
    listing ($0.20, a new four-month term) or reactivates an inactive one (free within its term); "inactive"
    takes an active listing off the shop.

    Args:
        shop_id: The shop's id.
        listing_id: The listing's id.
        title: A new title, 1 to 140 characters.
        description: A new description.
        tags: The new full list of tags (replaces the old ones), up to 13.
        materials: The new full list of materials, up to 13.
        shipping_profile_id: Another of the shop's shipping profiles.
        shop_section_id: Another of the shop's sections.
        who_made: i_did, collective or someone_else.
        when_made: When it was made.
        is_supply: Whether it is a craft supply.
        should_auto_renew: Renew automatically when the term ends.
        state: active or inactive.
    """
    listing, shop = own_listing(db, shop_id, listing_id)
    if shipping_profile_id is not None:
        own_profile(db, shop_id, shipping_profile_id)
    if shop_section_id is not None:
        rules.section_of(db, shop_id, shop_section_id)
    merged = {**listing, **given(who_made=who_made, when_made=when_made, is_supply=is_supply)}
    rules.check_vintage(merged["who_made"], merged["when_made"], merged["is_supply"])
    changes = given(
        title=title.strip() if title else None,
        description=description,
        tags=rules.keywords(tags) if tags is not None else None,
        materials=rules.keywords(materials) if materials is not None else None,
        shipping_profile_id=shipping_profile_id,
        shop_section_id=shop_section_id,
        who_made=who_made,
        when_made=when_made,
        is_supply=is_supply,
        should_auto_renew=should_auto_renew,
    )
    if not changes and state is None:
        raise InvalidRequest("Nothing to update: give at least one field")
    row = db.update(listings, listing_id, **changes) if changes else listing
    if state == "active":
        row = rules.activate(db, row)
    elif state == "inactive":
        row = rules.deactivate(db, row)
    return listing_object(db, row, shop["currency_code"])


@tool()
def delete_listing(db: Database, shop_id: int, listing_id: int) -> ListingSummary:
    """Delete a listing for good (deleteListing), with its images and inventory. A listing that has sold keeps its
    order history, so it cannot be deleted: deactivate it instead.

    Args:
        shop_id: The shop's id.
        listing_id: The listing's id.
    """
    listing, shop = own_listing(db, shop_id, listing_id)
    if db.find(transactions, listing_id=listing_id):
        raise Conflict(f"Listing {listing_id} has sales and cannot be deleted; deactivate it instead")
    for image in db.find(listing_images, listing_id=listing_id):
        db.delete(listing_images, image["listing_image_id"])
    for product in db.find(listing_products, listing_id=listing_id):
        db.delete(listing_products, product["product_id"])
    db.delete(listings, listing_id)
    return listing_summary(listing, shop["currency_code"])


# ---------------------------------------------------------------- inventory and images


@tool(read_only=True)
def get_listing_inventory(db: Database, shop_id: int, listing_id: int) -> ListingInventory:
    """A listing's inventory (getListingInventory): its products (variations such as Color or Size), each with one
    offering's price, quantity and whether it is enabled.

    Args:
        shop_id: The shop's id.
        listing_id: The listing's id.
    """
    listing, shop = own_listing(db, shop_id, listing_id)
    return inventory_object(db, listing, shop["currency_code"])


@tool()
def update_listing_inventory(
    db: Database,
    shop_id: int,
    listing_id: int,
    products: Annotated[list[ProductInput], Field(min_length=1, max_length=70)],
    price_on_property: list[str] | None = None,
    quantity_on_property: list[str] | None = None,
) -> ListingInventory:
    """Replace a listing's whole inventory (updateListingInventory): products left out are removed. Prices and
    quantities may differ between products only by the properties named in price_on_property and
    quantity_on_property. An active listing whose stock reaches 0 becomes sold out (renewing it costs $0.20).

    Args:
        shop_id: The shop's id.
        listing_id: The listing's id.
        products: Every product the listing should have: sku, property_values (at most 2, e.g.
            [{"property_name": "Color", "value": "Sage"}]), price, quantity (0 to 999), is_enabled.
        price_on_property: The property names that prices vary by.
        quantity_on_property: The property names that quantities vary by.
    """
    listing, shop = own_listing(db, shop_id, listing_id)
    stored = [
        {
            "sku": p.sku.strip(),
            "property_values": [
                {"property_name": v.property_name.strip(), "value": v.value.strip()} for v in p.property_values
            ],
            "price": rules.cents(p.price, shop["currency_code"], "price"),
            "quantity": p.quantity,
            "is_enabled": p.is_enabled,
        }
        for p in products
    ]
    price_on, quantity_on = price_on_property or [], quantity_on_property or []
    rules.check_inventory(stored, price_on, quantity_on)
    db.update(listings, listing_id, price_on_property=price_on, quantity_on_property=quantity_on)
    rules.replace_inventory(db, listing, stored)
    return inventory_object(db, db.get(listings, listing_id), shop["currency_code"])


@tool()
def upload_listing_image(
    db: Database,
    shop_id: int,
    listing_id: int,
    file_name: Annotated[str, Field(pattern=r"^[\w\-. ]+\.(jpg|jpeg|png|gif)$")],
    alt_text: Annotated[str, Field(max_length=500)] = "",
    rank: Annotated[int, Field(ge=1, le=10)] | None = None,
) -> Listing:
    """Add a photo to a listing (uploadListingImage). A listing holds at most 10 images; rank 1 is the main photo
    (default: after the others).

    Args:
        shop_id: The shop's id.
        listing_id: The listing's id.
        file_name: The photo's file name from the seller's device (jpg, png or gif).
        alt_text: A description of the photo for screen readers, at most 500 characters.
        rank: Where it goes, 1 to 10; later photos move down one.
    """
    listing, shop = own_listing(db, shop_id, listing_id)
    rules.add_image(db, listing_id, file_name.strip(), alt_text, rank)
    return listing_object(db, listing, shop["currency_code"])


@tool()
def delete_listing_image(db: Database, shop_id: int, listing_id: int, listing_image_id: int) -> Listing:
    """Remove a photo from a listing (deleteListingImage); the photos after it move up. An active listing must keep
    at least one photo.

    Args:
        shop_id: The shop's id.
        listing_id: The listing's id.
        listing_image_id: The image's id (from get_listing).
    """
    listing, shop = own_listing(db, shop_id, listing_id)
    rules.remove_image(db, listing, listing_image_id)
    return listing_object(db, listing, shop["currency_code"])


# ---------------------------------------------------------------- sections


@tool(read_only=True)
def get_shop_sections(db: Database, shop_id: int) -> Results[ShopSection]:
    """A shop's sections (getShopSections) with how many active listings each holds.

    Args:
        shop_id: The shop's id.
    """
    own_shop(db, shop_id)
    found = [section_object(db, s) for s in db.find(shop_sections, shop_id=shop_id, order_by=[shop_sections.c.rank])]
    return Results(count=len(found), results=found)


@tool()
def create_shop_section(db: Database, shop_id: int, title: SectionTitle) -> ShopSection:
    """Add a section to a shop (createShopSection); titles are unique within the shop.

    Args:
        shop_id: The shop's id.
        title: The section's title, 1 to 24 characters.
    """
    own_shop(db, shop_id)
    return rules.new_section(db, shop_id, title.strip())


# ---------------------------------------------------------------- shipping profiles


@tool(read_only=True)
def get_shipping_profiles(db: Database, shop_id: int) -> Results[ShippingProfile]:
    """A shop's shipping profiles (getShopShippingProfiles) with their destinations, costs and upgrades.

    Args:
        shop_id: The shop's id.
    """
    shop = own_shop(db, shop_id)
    found = [profile_object(db, p, shop["currency_code"]) for p in db.find(shipping_profiles, shop_id=shop_id)]
    return Results(count=len(found), results=found)


@tool()
def create_shipping_profile(
    db: Database,
    shop_id: int,
    title: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")],
    origin_country_iso: Country,
    origin_postal_code: Annotated[str, Field(min_length=3, max_length=10)],
    min_processing_days: ProcessingDays,
    max_processing_days: ProcessingDays,
    primary_cost: Cost,
    secondary_cost: Cost,
    destination_country_iso: Country | None = None,
    destination_region: Region = "none",
    mail_class: str | None = None,
    min_delivery_days: DeliveryDays | None = None,
    max_delivery_days: DeliveryDays | None = None,
) -> ShippingProfile:
    """Create a shipping profile with its first destination (createShopShippingProfile). The destination is a
    country (destination_country_iso, region "none") or a region (eu, non_eu, no country).

    Args:
        shop_id: The shop's id.
        title: The profile's name, e.g. "Small ceramics".
        origin_country_iso: Where orders ship from.
        origin_postal_code: The postal code they ship from.
        min_processing_days: Fewest days to get an order ready, 1 to 10.
        max_processing_days: Most days to get an order ready, 1 to 10, not fewer than the minimum.
        primary_cost: Shipping for the first item, in the shop's currency.
        secondary_cost: Shipping for each further item in the same order.
        destination_country_iso: The destination country.
        destination_region: eu, non_eu, or none when a country is given.
        mail_class: The mail service, e.g. "Priority Mail".
        min_delivery_days: Fewest days in transit.
        max_delivery_days: Most days in transit.
    """
    shop = own_shop(db, shop_id)
    if min_processing_days > max_processing_days:
        raise InvalidRequest("min_processing_days cannot be greater than max_processing_days")
    key = 5_100_000_000 + db.next_number("etsy:profile", shipping_profiles)
    profile = db.insert(
        shipping_profiles,
        shipping_profile_id=key,
        shop_id=shop_id,
        title=title.strip(),
        origin_country_iso=origin_country_iso,
        origin_postal_code=origin_postal_code.strip(),
        min_processing_days=min_processing_days,
        max_processing_days=max_processing_days,
    )
    rules.add_destination(
        db,
        profile,
        shop["currency_code"],
        destination_country_iso,
        destination_region,
        (primary_cost, secondary_cost),
        mail_class,
        (min_delivery_days, max_delivery_days),
    )
    return profile_object(db, profile, shop["currency_code"])


@tool()
def create_shipping_profile_destination(
    db: Database,
    shop_id: int,
    shipping_profile_id: int,
    primary_cost: Cost,
    secondary_cost: Cost,
    destination_country_iso: Country | None = None,
    destination_region: Region = "none",
    mail_class: str | None = None,
    min_delivery_days: DeliveryDays | None = None,
    max_delivery_days: DeliveryDays | None = None,
) -> ShippingDestination:
    """Add a destination to a shipping profile (createShopShippingProfileDestination). A country or region may
    appear once per profile.

    Args:
        shop_id: The shop's id.
        shipping_profile_id: The profile's id.
        primary_cost: Shipping for the first item.
        secondary_cost: Shipping for each further item.
        destination_country_iso: The destination country.
        destination_region: eu, non_eu, or none when a country is given.
        mail_class: The mail service.
        min_delivery_days: Fewest days in transit.
        max_delivery_days: Most days in transit.
    """
    profile, shop = own_profile(db, shop_id, shipping_profile_id)
    return rules.add_destination(
        db,
        profile,
        shop["currency_code"],
        destination_country_iso,
        destination_region,
        (primary_cost, secondary_cost),
        mail_class,
        (min_delivery_days, max_delivery_days),
    )


@tool()
def update_shipping_profile_destination(
    db: Database,
    shop_id: int,
    shipping_profile_id: int,
    shipping_profile_destination_id: int,
    primary_cost: Cost | None = None,
    secondary_cost: Cost | None = None,
    mail_class: str | None = None,
) -> ShippingDestination:
    """Change a destination's costs or mail class (updateShopShippingProfileDestination).

    Args:
        shop_id: The shop's id.
        shipping_profile_id: The profile's id.
        shipping_profile_destination_id: The destination's id (from get_shipping_profiles).
        primary_cost: New shipping for the first item.
        secondary_cost: New shipping for each further item.
        mail_class: New mail service.
    """
    profile, shop = own_profile(db, shop_id, shipping_profile_id)
    return rules.change_destination(
        db, profile, shop["currency_code"], shipping_profile_destination_id, primary_cost, secondary_cost, mail_class
    )


@tool()
def create_shipping_profile_upgrade(
    db: Database,
    shop_id: int,
    shipping_profile_id: int,
    type: Literal["0", "1"],
    upgrade_name: Annotated[str, Field(min_length=1, max_length=50, pattern=r"\S")],
    price: Cost,
    secondary_price: Cost,
) -> ShippingUpgrade:
    """Offer buyers a faster service for extra (createShopShippingProfileUpgrade); names are unique per profile and
    type.

    Args:
        shop_id: The shop's id.
        shipping_profile_id: The profile's id.
        type: "0" for domestic orders, "1" for international ones.
        upgrade_name: What buyers see, e.g. "Priority Mail Express".
        price: The extra cost for the first item.
        secondary_price: The extra cost for each further item.
    """
    profile, shop = own_profile(db, shop_id, shipping_profile_id)
    return rules.add_upgrade(
        db, profile, shop["currency_code"], int(type), upgrade_name.strip(), price, secondary_price
    )


# ---------------------------------------------------------------- receipts


@tool(read_only=True)
def get_shop_receipts(
    db: Database,
    shop_id: int,
    was_paid: bool | None = None,
    was_shipped: bool | None = None,
    was_canceled: bool | None = None,
    min_created: IsoTimestamp | None = None,
    max_created: IsoTimestamp | None = None,
    sort_order: SortOrder = "desc",
    limit: Limit = 25,
    offset: Offset = 0,
) -> Results[ReceiptSummary]:
    """A shop's orders (getShopReceipts), newest first by default, with the buyer's name, items and status.

    Args:
        shop_id: The shop's id.
        was_paid: Only paid (true) or unpaid (false) orders.
        was_shipped: Only shipped (true) or unshipped (false) orders.
        was_canceled: Only canceled (true) or not canceled (false) orders.
        min_created: Orders placed at or after this time.
        max_created: Orders placed at or before this time.
        sort_order: desc (newest first) or asc.
        limit: Results per page, 1 to 100 (default 25).
        offset: How many results to skip.
    """
    shop = own_shop(db, shop_id)
    where, params = rules.receipt_filter(shop_id, was_paid, was_shipped, was_canceled, min_created, max_created)
    rows = db.select(receipts, where, params, order_by=f"create_timestamp {sort_order}")
    page = [receipt_summary(db, r, shop["currency_code"]) for r in rows[offset : offset + limit]]
    return Results(count=len(rows), results=page)


@tool(read_only=True)
def get_shop_receipt(db: Database, shop_id: int, receipt_id: int) -> Receipt:
    """One order (getShopReceipt) with its address, totals, transactions (items and variations), shipments and
    refunds.

    Args:
        shop_id: The shop's id.
        receipt_id: The receipt's id.
    """
    receipt, shop = own_receipt(db, shop_id, receipt_id)
    return receipt_object(db, receipt, shop["currency_code"])


@tool()
def create_receipt_shipment(
    db: Database,
    shop_id: int,
    receipt_id: int,
    tracking_code: TrackingCode,
    carrier_name: Carrier,
    note_to_buyer: Note = "",
    send_bcc: bool = False,
) -> Receipt:
    """Add tracking to an order (createReceiptShipment): the buyer is notified and the order is marked shipped
    and completed. The order must be paid and not canceled or fully refunded.

    Args:
        shop_id: The shop's id.
        receipt_id: The receipt's id.
        tracking_code: The carrier's tracking number.
        carrier_name: usps, ups, fedex, dhl, canada-post, royal-mail, australia-post or other.
        note_to_buyer: A message sent with the shipping notice, at most 500 characters.
        send_bcc: Also send the seller a copy of the notice.
    """
    receipt, shop = own_receipt(db, shop_id, receipt_id)
    rules.ship(db, receipt, tracking_code.upper(), carrier_name, note_to_buyer)
    return receipt_object(db, db.get(receipts, receipt_id), shop["currency_code"])


@tool()
def issue_refund(
    db: Database,
    shop_id: int,
    receipt_id: int,
    amount: RefundAmount,
    reason: RefundReason,
    note_to_buyer: Note = "",
) -> Receipt:
    """Refund part or all of an order, as Shop Manager does: within 180 days of the sale, at most what is left
    unrefunded. The order becomes Partially or Fully Refunded; the amount is taken from the payment account.

    Args:
        shop_id: The shop's id.
        receipt_id: The receipt's id.
        amount: How much to refund, in the shop's currency.
        reason: buyer_canceled, item_out_of_stock, wrong_item_sent, item_damaged, not_as_described,
            shipping_adjustment or other (other needs a note).
        note_to_buyer: A note the buyer sees with the refund.
    """
    receipt, shop = own_receipt(db, shop_id, receipt_id)
    if reason == "other" and not note_to_buyer.strip():
        raise InvalidRequest("note_to_buyer: a refund for another reason needs a note to the buyer")
    cents = rules.cents(amount, shop["currency_code"], "amount")
    rules.check_refund(db, receipt, cents)
    rules.refund(db, receipt, cents, reason, note_to_buyer)
    return receipt_object(db, db.get(receipts, receipt_id), shop["currency_code"])


# ---------------------------------------------------------------- reviews and the ledger


@tool(read_only=True)
def get_reviews_by_shop(
    db: Database,
    shop_id: int,
    listing_id: int | None = None,
    max_rating: Rating | None = None,
    limit: Limit = 25,
    offset: Offset = 0,
) -> Results[Review]:
    """Buyers' reviews of a shop (getReviewsByShop), newest first; optionally of one listing or at most some rating.

    Args:
        shop_id: The shop's id.
        listing_id: Only reviews of this listing.
        max_rating: Only reviews rated this many stars or fewer (1 to 5).
        limit: Results per page, 1 to 100 (default 25).
        offset: How many results to skip.
    """
    own_shop(db, shop_id)
    where, params = ["shop_id = ?"], [shop_id]
    if listing_id is not None:
        where.append("listing_id = ?")
        params.append(listing_id)
    if max_rating is not None:
        where.append("rating <= ?")
        params.append(max_rating)
    rows = db.select(reviews, " AND ".join(where), params, order_by="create_timestamp DESC")
    return Results(count=len(rows), results=[Review(**r) for r in rows[offset : offset + limit]])


@tool(read_only=True)
def get_ledger_entries(
    db: Database,
    shop_id: int,
    min_created: IsoTimestamp | None = None,
    limit: Limit = 25,
    offset: Offset = 0,
) -> Results[LedgerEntry]:
    """The shop's payment-account ledger (getShopPaymentAccountLedgerEntries), newest first: sales, listing and
    renewal fees, shipping labels and refunds.

    Args:
        shop_id: The shop's id.
        min_created: Only entries at or after this time.
        limit: Results per page, 1 to 100 (default 25).
        offset: How many results to skip.
    """
    shop = own_shop(db, shop_id)
    where, params = rules.since("shop_id = ?", [shop_id], "create_date", min_created)
    rows = db.select(ledger_entries, where, params, order_by="create_date DESC")
    found = [
        LedgerEntry(
            **{k: r[k] for k in ("entry_id", "description", "reference_id", "create_date")},
            amount=money(r["amount"], shop["currency_code"]),
        )
        for r in rows[offset : offset + limit]
    ]
    return Results(count=len(rows), results=found)
