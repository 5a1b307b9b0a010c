"""Etsy's seller rules the tools share: the listing state machine with its $0.20 listing and renewal fees and
four-month term, what a listing needs to go active, the vintage rule, inventory replacement, image limits,
shipments and refunds."""

from __future__ import annotations

from calendar import monthrange
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.database import given
from envfactory_gym.values import iso_timestamp, minor_units, parse_timestamp

from .objects import (
    ShippingDestination,
    ShippingUpgrade,
    ShopSection,
    destination_object,
    section_object,
    upgrade_object,
)
from .schema import (
    ledger_entries,
    listing_images,
    listing_products,
    listings,
    receipt_shipments,
    receipts,
    refunds,
    shipping_destinations,
    shipping_upgrades,
    shop_sections,
)

LISTING_FEE = 20  # cents: publishing a listing, and every renewal
TERM_MONTHS = 4  # an active listing expires four months after it was listed or renewed
MAX_IMAGES = 10
REFUND_WINDOW = timedelta(days=180)
VINTAGE_WHEN_MADE = {"before_2007", "2000_2006", "1990s", "1980s", "1970s", "1960s", "1950s", "before_1950"}
RECEIPT_OPEN = {"Paid", "Completed", "Partially Refunded"}


def cents(amount: float, currency: str, name: str) -> int:
    """A price or cost the user gives in major units (12.5) as cents."""
    return minor_units(round(amount, 2), currency, name)


def add_months(moment: datetime, months: int) -> datetime:
    """The same day and time `months` later (the last day of a shorter month)."""
    month = moment.month - 1 + months
    year, month = moment.year + month // 12, month % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, monthrange(year, month)[1]))


def keywords(values: list[str]) -> list[str]:
    """Tags or materials as stored: trimmed, without repeats (any case), in alphabetical order."""
    unique = {v.strip().lower(): v.strip() for v in values}
    return [unique[k] for k in sorted(unique)]


def check_vintage(who_made: str, when_made: str, is_supply: bool) -> None:
    """Items someone else made may be sold only as craft supplies or as vintage (20 years or older)."""
    if who_made == "someone_else" and not is_supply and when_made not in VINTAGE_WHEN_MADE:
        raise InvalidRequest(
            "who_made: items made by someone else must be vintage (made before 2007) or craft supplies (is_supply)"
        )


def charge(db: Database, shop_id: int, description: str, reference_id: int, amount: int) -> None:
    """Write a ledger entry to the shop's payment account (negative amounts are fees and refunds)."""
    db.insert(
        ledger_entries,
        entry_id=8_100_000_000 + db.next_number("etsy:ledger", ledger_entries),
        shop_id=shop_id,
        description=description,
        reference_id=reference_id,
        amount=amount,
        create_date=db.now_iso(),
    )


def activate(db: Database, listing: dict[str, Any]) -> dict[str, Any]:
    """Make a listing active: it needs a shipping profile, an image and stock. Publishing a draft costs the listing
    fee; renewing an expired or sold-out listing (or an inactive one past its end date) costs it again and starts a
    new four-month term; reactivating an inactive listing within its term is free."""
    state, key = listing["state"], listing["listing_id"]
    if state == "active":
        raise Conflict(f"Listing {key} is already active")
    if listing["shipping_profile_id"] is None:
        raise Conflict("A physical listing needs a shipping_profile_id before it can be activated")
    if not db.find(listing_images, listing_id=key):
        raise Conflict("A listing needs at least one image before it can be activated")
    if listing["quantity"] < 1:
        raise Conflict("A listing needs a quantity of at least 1 before it can be activated")
    now = db.now()
    ending = listing["ending_timestamp"]
    still_running = state == "inactive" and ending is not None and parse_timestamp(ending, "ending_timestamp") > now
    changes: dict[str, Any] = {"state": "active", "state_timestamp": iso_timestamp(now)}
    if not still_running:
        fee = {"draft": "listing", "sold_out": "renew_sold"}.get(state, "renew_expired")
        charge(db, listing["shop_id"], fee, key, -LISTING_FEE)
        changes["ending_timestamp"] = iso_timestamp(add_months(now, TERM_MONTHS))
    return db.update(listings, key, **changes)


def deactivate(db: Database, listing: dict[str, Any]) -> dict[str, Any]:
    """Take an active listing off the shop (it keeps its end date)."""
    if listing["state"] != "active":
        raise Conflict(
            f"Only an active listing can be deactivated; listing {listing['listing_id']} is {listing['state']}"
        )
    return db.update(listings, listing["listing_id"], state="inactive", state_timestamp=db.now_iso())


def check_inventory(products: list[dict[str, Any]], price_on: list[str], quantity_on: list[str]) -> None:
    """An inventory is valid when every product names the same properties (at most two), no two products share a
    combination, prices and quantities vary only by the properties named for them, and something is in stock."""
    names = [tuple(v["property_name"] for v in p["property_values"]) for p in products]
    if len(set(names)) > 1:
        raise InvalidRequest("products: every product must have values for the same properties")
    properties = list(names[0])
    if len(set(properties)) != len(properties):
        raise InvalidRequest("products: a property may appear only once per product")
    combos = [tuple(v["value"].strip().lower() for v in p["property_values"]) for p in products]
    if len(set(combos)) != len(combos):
        raise InvalidRequest("products: two products have the same property values")
    for field, named in (("price", price_on), ("quantity", quantity_on)):
        unknown = [n for n in named if n not in properties]
        if unknown:
            raise InvalidRequest(f"{field}_on_property: {unknown[0]} is not a property of these products")
        varying = {p[field] for p in products if p["is_enabled"]}
        if len(varying) > 1 and not named:
            raise InvalidRequest(
                f"products: offerings differ in {field}, so {field}_on_property must name the property it varies by"
            )
        if named:
            groups: dict[tuple[str, ...], set[int]] = {}
            index = [properties.index(n) for n in named]
            for p, combo in zip(products, combos):
                groups.setdefault(tuple(combo[i] for i in index), set()).add(p[field])
            if any(len(v) > 1 for v in groups.values()):
                raise InvalidRequest(
                    f"products: {field} must be the same for products with the same {', '.join(named)}"
                )
    if not any(p["is_enabled"] for p in products):
        raise InvalidRequest("products: at least one offering must be enabled")


def replace_inventory(db: Database, listing: dict[str, Any], products: list[dict[str, Any]]) -> None:
    """Replace a listing's products (a product keeps its id when its property values match an existing one) and
    recompute the listing's quantity and price; an active listing with nothing left in stock becomes sold out."""
    key = listing["listing_id"]
    existing = {
        tuple(v["value"].strip().lower() for v in p["property_values"]): p
        for p in db.find(listing_products, listing_id=key)
    }
    kept: set[int] = set()
    for product in products:
        combo = tuple(v["value"].strip().lower() for v in product["property_values"])
        old = existing.get(combo)
        if old is not None:
            kept.add(old["product_id"])
            db.update(listing_products, old["product_id"], **product)
        else:
            number = db.next_number("etsy:product", listing_products)
            db.insert(
                listing_products,
                product_id=7_200_000_000 + number,
                offering_id=7_300_000_000 + number,
                listing_id=key,
                **product,
            )
    for old in existing.values():
        if old["product_id"] not in kept:
            db.delete(listing_products, old["product_id"])
    enabled = [p for p in products if p["is_enabled"]]
    quantity = sum(p["quantity"] for p in enabled)
    changes: dict[str, Any] = {"quantity": quantity, "price": min(p["price"] for p in enabled)}
    if listing["state"] == "active" and quantity == 0:
        changes.update(state="sold_out", state_timestamp=db.now_iso())
    db.update(listings, key, **changes)


def check_refund(db: Database, receipt: dict[str, Any], amount: int) -> None:
    """A refund needs an open, paid receipt no older than 180 days, and at most what is left to refund."""
    if receipt["status"] not in RECEIPT_OPEN or not receipt["is_paid"]:
        raise Conflict(f"Receipt {receipt['receipt_id']} is {receipt['status']} and cannot be refunded")
    if db.now() - parse_timestamp(receipt["create_timestamp"], "create_timestamp") > REFUND_WINDOW:
        raise Conflict("Refunds can only be issued within 180 days of the sale")
    left = receipt["grandtotal"] - receipt["refunded"]
    if amount > left:
        raise InvalidRequest(f"amount: at most {left / 100:.2f} is left to refund on this receipt")


def section_of(db: Database, shop_id: int, shop_section_id: int) -> dict[str, Any]:
    """One of the shop's sections."""
    return db.find_one(
        shop_sections,
        shop_section_id=shop_section_id,
        shop_id=shop_id,
        not_found=f"Shop section {shop_section_id} not found in shop {shop_id}",
    )


def new_section(db: Database, shop_id: int, title: str) -> ShopSection:
    """Add a section at the end of the shop's list; titles are unique in a shop (any case)."""
    existing = db.find(shop_sections, shop_id=shop_id)
    if any(s["title"].lower() == title.lower() for s in existing):
        raise Conflict(f"A section titled {title!r} already exists in this shop")
    row = db.insert(
        shop_sections,
        shop_section_id=40_000_000 + db.next_number("etsy:section", shop_sections),
        shop_id=shop_id,
        title=title,
        rank=max((s["rank"] for s in existing), default=0) + 1,
    )
    return section_object(db, row)


def add_destination(
    db: Database,
    profile: dict[str, Any],
    currency: str,
    country: str | None,
    region: str,
    costs: tuple[float, float],
    mail_class: str | None,
    days: tuple[int | None, int | None],
) -> ShippingDestination:
    """Add a country or region (eu, non_eu) to a profile, once per profile."""
    if (country is None) == (region == "none"):
        raise InvalidRequest(
            "Give either destination_country_iso (with destination_region none) or a destination_region"
        )
    if days[0] is not None and days[1] is not None and days[0] > days[1]:
        raise InvalidRequest("min_delivery_days cannot be greater than max_delivery_days")
    key = profile["shipping_profile_id"]
    for d in db.find(shipping_destinations, shipping_profile_id=key):
        if d["destination_country_iso"] == country and d["destination_region"] == region:
            raise Conflict(f"Shipping profile {key} already has a destination for {country or region}")
    row = db.insert(
        shipping_destinations,
        shipping_profile_destination_id=5_200_000_000 + db.next_number("etsy:destination", shipping_destinations),
        shipping_profile_id=key,
        destination_country_iso=country,
        destination_region=region,
        primary_cost=cents(costs[0], currency, "primary_cost"),
        secondary_cost=cents(costs[1], currency, "secondary_cost"),
        mail_class=mail_class,
        min_delivery_days=days[0],
        max_delivery_days=days[1],
    )
    return destination_object(row, currency)


def change_destination(
    db: Database,
    profile: dict[str, Any],
    currency: str,
    destination_id: int,
    primary_cost: float | None,
    secondary_cost: float | None,
    mail_class: str | None,
) -> ShippingDestination:
    """Change a destination of this profile."""
    db.find_one(
        shipping_destinations,
        shipping_profile_destination_id=destination_id,
        shipping_profile_id=profile["shipping_profile_id"],
        not_found=f"Destination {destination_id} not found in shipping profile {profile['shipping_profile_id']}",
    )
    changes = given(
        primary_cost=cents(primary_cost, currency, "primary_cost") if primary_cost is not None else None,
        secondary_cost=cents(secondary_cost, currency, "secondary_cost") if secondary_cost is not None else None,
        mail_class=mail_class,
    )
    if not changes:
        raise InvalidRequest("Nothing to update: give primary_cost, secondary_cost or mail_class")
    return destination_object(db.update(shipping_destinations, destination_id, **changes), currency)


def add_upgrade(
    db: Database, profile: dict[str, Any], currency: str, kind: int, name: str, price: float, secondary: float
) -> ShippingUpgrade:
    """Add a paid shipping upgrade; its name is unique per profile and type."""
    key = profile["shipping_profile_id"]
    if any(
        u["upgrade_name"].lower() == name.lower()
        for u in db.find(shipping_upgrades, shipping_profile_id=key, type=kind)
    ):
        raise Conflict(f"Shipping profile {key} already has an upgrade named {name!r}")
    row = db.insert(
        shipping_upgrades,
        upgrade_id=5_300_000_000 + db.next_number("etsy:upgrade", shipping_upgrades),
        shipping_profile_id=key,
        upgrade_name=name,
        type=kind,
        price=cents(price, currency, "price"),
        secondary_price=cents(secondary, currency, "secondary_price"),
    )
    return upgrade_object(row, currency)


def add_image(db: Database, listing_id: int, file_name: str, alt_text: str, rank: int | None) -> None:
    """Add a photo at `rank` (default last), moving later photos down; at most 10 photos."""
    images = db.find(listing_images, listing_id=listing_id, order_by=[listing_images.c.rank])
    if len(images) >= MAX_IMAGES:
        raise Conflict(f"Listing {listing_id} already has {MAX_IMAGES} images, the most a listing can have")
    place = min(rank or len(images) + 1, len(images) + 1)
    for image in reversed(images[place - 1 :]):
        db.update(listing_images, image["listing_image_id"], rank=image["rank"] + 1)
    db.insert(
        listing_images,
        listing_image_id=6_100_000_000 + db.next_number("etsy:image", listing_images),
        listing_id=listing_id,
        rank=place,
        file_name=file_name,
        alt_text=alt_text,
    )


def remove_image(db: Database, listing: dict[str, Any], image_id: int) -> None:
    """Delete a photo and close the gap; an active listing keeps at least one."""
    key = listing["listing_id"]
    images = db.find(listing_images, listing_id=key, order_by=[listing_images.c.rank])
    if not any(i["listing_image_id"] == image_id for i in images):
        raise InvalidRequest(f"Image {image_id} is not an image of listing {key}")
    if listing["state"] == "active" and len(images) == 1:
        raise Conflict("An active listing must have at least one image; add another before deleting this one")
    db.delete(listing_images, image_id)
    for rank, image in enumerate((i for i in images if i["listing_image_id"] != image_id), start=1):
        if image["rank"] != rank:
            db.update(listing_images, image["listing_image_id"], rank=rank)


def since(where: str, params: list[Any], column: str, start: str | None) -> tuple[str, list[Any]]:
    """Add "column >= start" (an ISO timestamp argument) to an SQL filter."""
    if start is None:
        return where, params
    return f"{where} AND {column} >= ?", [*params, iso_timestamp(parse_timestamp(start, column, dates=True))]


def receipt_filter(
    shop_id: int,
    was_paid: bool | None,
    was_shipped: bool | None,
    was_canceled: bool | None,
    min_created: str | None,
    max_created: str | None,
) -> tuple[str, list[Any]]:
    """The SQL filter of getShopReceipts."""
    where, params = since("shop_id = ?", [shop_id], "create_timestamp", min_created)
    for column, value in (("is_paid", was_paid), ("is_shipped", was_shipped)):
        if value is not None:
            where += f" AND {column} = ?"
            params.append(int(value))
    if was_canceled is not None:
        where += " AND status " + ("=" if was_canceled else "!=") + " 'Canceled'"
    if max_created is not None:
        where += " AND create_timestamp <= ?"
        params.append(iso_timestamp(parse_timestamp(max_created, "max_created", dates=True)))
    return where, params


def ship(db: Database, receipt: dict[str, Any], tracking_code: str, carrier: str, note: str) -> None:
    """Record a shipment: the order must be paid and still open; the same tracking code is not added twice."""
    key = receipt["receipt_id"]
    if not receipt["is_paid"]:
        raise Conflict(f"Receipt {key} is not paid yet and cannot be shipped")
    if receipt["status"] in ("Canceled", "Fully Refunded"):
        raise Conflict(f"Receipt {key} is {receipt['status']} and cannot be shipped")
    if db.find(receipt_shipments, receipt_id=key, tracking_code=tracking_code):
        raise Conflict(f"Tracking code {tracking_code} is already on receipt {key}")
    db.insert(
        receipt_shipments,
        receipt_shipping_id=9_400_000_000 + db.next_number("etsy:shipment", receipt_shipments),
        receipt_id=key,
        carrier_name=carrier,
        tracking_code=tracking_code,
        note_to_buyer=note,
        shipment_notification_timestamp=db.now_iso(),
    )
    status = "Completed" if receipt["status"] == "Paid" else receipt["status"]
    db.update(receipts, key, is_shipped=True, status=status)


def refund(db: Database, receipt: dict[str, Any], amount: int, reason: str, note: str) -> None:
    """Record a refund, update the receipt's status and take the amount from the payment account."""
    key = receipt["receipt_id"]
    db.insert(
        refunds,
        refund_id=9_500_000_000 + db.next_number("etsy:refund", refunds),
        receipt_id=key,
        amount=amount,
        reason=reason,
        note_from_seller=note,
        created_timestamp=db.now_iso(),
    )
    total = receipt["refunded"] + amount
    status = "Fully Refunded" if total == receipt["grandtotal"] else "Partially Refunded"
    db.update(receipts, key, refunded=total, status=status)
    charge(db, receipt["shop_id"], "refund", key, -amount)
