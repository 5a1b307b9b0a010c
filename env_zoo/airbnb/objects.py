"""Airbnb's guest-facing objects as output models (listings, calendars, price quotes, reservations, messages,
wishlists, reviews, payment methods) and how stored rows become them. Amounts are USD strings like "1234.50"."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from .rules import Quote, refund_for
from .schema import hosts, listings, messages, payment_methods, wishlist_items

RoomType = Literal["entire_home", "private_room", "shared_room", "hotel_room"]
POLICY_TERMS = {
    "flexible": "Full refund until 24 hours before check-in; after that, all but the first night.",
    "moderate": "Full refund until 5 days before check-in; after that, half of the nights.",
    "firm": "Full refund until 30 days before check-in; 50% of the nights until 7 days before; no refund after.",
    "strict": "Full refund within 48 hours of booking if check-in is at least 14 days away; 50% of the nights "
    "until 7 days before check-in; no refund after.",
}


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, "USD")


class SessionObject(BaseModel):
    """The guest signed in to Airbnb."""

    guest_id: str
    first_name: str
    identity_verified: bool


class PaymentMethodObject(BaseModel):
    """A saved way to pay."""

    id: str
    kind: str
    brand: str
    last4: str | None
    expires: str | None = Field(description="MM/YYYY for cards")
    is_default: bool


class ListingSummary(BaseModel):
    """A listing in search results."""

    id: str
    title: str
    city: str
    neighborhood: str
    room_type: RoomType
    property_type: str
    max_guests: int
    bedrooms: int
    nightly_price: str
    total_before_taxes: str | None = Field(
        description="For the searched dates: nights, discounts and fees before taxes"
    )
    rating: float | None
    review_count: int
    instant_book: bool
    superhost: bool


class HouseRules(BaseModel):
    """What the host allows."""

    pets_allowed: bool
    smoking_allowed: bool
    events_allowed: bool
    quiet_hours: str | None
    check_in_after: str = "15:00"
    checkout_before: str = "11:00"


class HostObject(BaseModel):
    """The listing's host."""

    first_name: str
    superhost: bool
    joined: str
    response_time: str
    requires_verified_id: bool = Field(description="Declines requests from guests who haven't verified their identity")


class ListingObject(BaseModel):
    """A listing with its rules, pricing and cancellation policy."""

    id: str
    title: str
    description: str
    city: str
    neighborhood: str
    property_type: str
    room_type: RoomType
    max_guests: int = Field(description="Adults and children; infants don't count")
    bedrooms: int
    beds: int
    baths: int
    amenities: list[str]
    house_rules: HouseRules
    instant_book: bool = Field(description="False: a request the host accepts or declines")
    min_nights: int
    max_nights: int
    nightly_price: str
    cleaning_fee: str
    guests_included: int
    extra_guest_fee: str = Field(description="Per night for each guest above guests_included")
    weekly_discount_percent: int
    monthly_discount_percent: int
    cancellation_policy: str
    cancellation_terms: str
    rating: float | None
    review_count: int
    host: HostObject


class CalendarObject(BaseModel):
    """Which nights of a listing are open to book."""

    listing_id: str
    start_date: str
    end_date: str
    available_nights: list[str]
    min_nights: int
    max_nights: int


class QuoteObject(BaseModel):
    """The price of a stay, as shown before booking."""

    listing_id: str
    check_in: str
    check_out: str
    nights: int
    available: bool
    nightly_price: str
    nights_subtotal: str = Field(description="Nights x nightly price")
    extra_guest_fees: str
    discount: str
    discount_kind: str | None
    cleaning_fee: str
    service_fee: str
    taxes: str
    total: str


class ReservationObject(BaseModel):
    """A reservation as the guest sees it in Trips."""

    code: str
    status: Literal["pending", "accepted", "confirmed", "declined", "cancelled", "completed"]
    listing_id: str
    listing_title: str
    city: str
    host_first_name: str
    check_in: str
    check_out: str
    nights: int
    adults: int
    children: int
    infants: int
    pets: int
    nights_total: str
    cleaning_fee: str
    service_fee: str
    taxes: str
    total: str
    paid: str
    payment_method: str
    cancellation_policy: str
    refund_if_cancelled_now: str | None = Field(description="For an upcoming reservation")
    refund_rule: str | None
    refund: str | None = Field(description="What was refunded, for a cancelled reservation")


class AlterationObject(BaseModel):
    """A changed reservation and what the change cost or gave back."""

    reservation: ReservationObject
    price_difference: str = Field(description="New total minus old total; negative is refunded")
    charged_now: str
    refunded_now: str


class CancellationObject(BaseModel):
    """The outcome of cancelling a reservation."""

    code: str
    status: str
    refund: str
    refund_rule: str


class MessageObject(BaseModel):
    """One message in a conversation with a host."""

    id: str
    sender: Literal["guest", "host"]
    text: str
    sent_at: str


class ThreadObject(BaseModel):
    """The guest's conversation with a listing's host."""

    listing_id: str
    listing_title: str
    host_first_name: str
    messages: list[MessageObject]


class WishlistListing(BaseModel):
    """A listing saved to a wishlist."""

    id: str
    title: str
    city: str
    nightly_price: str


class WishlistObject(BaseModel):
    """A named wishlist of saved listings."""

    id: str
    name: str
    listings: list[WishlistListing]


class ReviewObject(BaseModel):
    """A guest review of a stay."""

    id: str
    listing_id: str
    author: str
    rating: int
    text: str
    created_at: str


def rating(row: dict[str, Any]) -> float | None:
    """Stored hundredths as a star rating."""
    return None if row["rating"] is None else row["rating"] / 100


def listing_summary(db: Database, row: dict[str, Any], stay: Quote | None) -> ListingSummary:
    """A listing row as a search result."""
    host = db.get(hosts, row["host_id"])
    before_taxes = None if stay is None else usd(stay.total - stay.taxes)
    return ListingSummary(
        id=row["id"],
        title=row["title"],
        city=row["city"],
        neighborhood=row["neighborhood"],
        room_type=row["room_type"],
        property_type=row["property_type"],
        max_guests=row["max_guests"],
        bedrooms=row["bedrooms"],
        nightly_price=usd(row["nightly_price"]),
        total_before_taxes=before_taxes,
        rating=rating(row),
        review_count=row["review_count"],
        instant_book=row["instant_book"],
        superhost=host["is_superhost"],
    )


def listing_object(db: Database, row: dict[str, Any]) -> ListingObject:
    """A listing row with its host."""
    host = db.get(hosts, row["host_id"])
    return ListingObject(
        id=row["id"],
        title=row["title"],
        description=row["description"],
        city=row["city"],
        neighborhood=row["neighborhood"],
        property_type=row["property_type"],
        room_type=row["room_type"],
        max_guests=row["max_guests"],
        bedrooms=row["bedrooms"],
        beds=row["beds"],
        baths=row["baths"],
        amenities=row["amenities"],
        house_rules=HouseRules(
            pets_allowed=row["pets_allowed"],
            smoking_allowed=row["smoking_allowed"],
            events_allowed=row["events_allowed"],
            quiet_hours=row["quiet_hours"],
        ),
        instant_book=row["instant_book"],
        min_nights=row["min_nights"],
        max_nights=row["max_nights"],
        nightly_price=usd(row["nightly_price"]),
        cleaning_fee=usd(row["cleaning_fee"]),
        guests_included=row["guests_included"],
        extra_guest_fee=usd(row["extra_guest_fee"]),
        weekly_discount_percent=row["weekly_discount"],
        monthly_discount_percent=row["monthly_discount"],
        cancellation_policy=row["cancellation_policy"],
        cancellation_terms=POLICY_TERMS[row["cancellation_policy"]],
        rating=rating(row),
        review_count=row["review_count"],
        host=HostObject(
            first_name=host["first_name"],
            superhost=host["is_superhost"],
            joined=host["joined"],
            response_time=host["response_time"],
            requires_verified_id=host["verified_guests_only"],
        ),
    )


def quote_object(listing_id: str, check_in: str, check_out: str, stay: Quote, available: bool) -> QuoteObject:
    """A computed quote as the API object."""
    return QuoteObject(
        listing_id=listing_id,
        check_in=check_in,
        check_out=check_out,
        nights=stay.nights,
        available=available,
        nightly_price=usd(stay.nightly_price),
        nights_subtotal=usd(stay.base),
        extra_guest_fees=usd(stay.extra_guests),
        discount=usd(stay.discount),
        discount_kind=stay.discount_kind,
        cleaning_fee=usd(stay.cleaning_fee),
        service_fee=usd(stay.service_fee),
        taxes=usd(stay.taxes),
        total=usd(stay.total),
    )


def payment_method_object(row: dict[str, Any]) -> PaymentMethodObject:
    """A stored payment method."""
    expires = None if row["exp_month"] is None else f"{row['exp_month']:02d}/{row['exp_year']}"
    return PaymentMethodObject(
        id=row["id"],
        kind=row["kind"],
        brand=row["brand"],
        last4=row["last4"],
        expires=expires,
        is_default=row["is_default"],
    )


def reservation_object(db: Database, row: dict[str, Any]) -> ReservationObject:
    """A reservation row with its listing, host, payment method and what cancelling now would refund."""
    place = db.get(listings, row["listing_id"])
    host = db.get(hosts, place["host_id"])
    method = db.get(payment_methods, row["payment_method_id"])
    card = method["brand"] if method["last4"] is None else f"{method['brand']} ending {method['last4']}"
    refund_now, rule = None, None
    if row["status"] in ("pending", "accepted", "confirmed"):
        cents, rule = refund_for(place["cancellation_policy"], row, db.now().replace(tzinfo=None))
        refund_now = usd(cents)
    nights = (datetime.fromisoformat(row["check_out"]) - datetime.fromisoformat(row["check_in"])).days
    return ReservationObject(
        code=row["code"],
        status=row["status"],
        listing_id=place["id"],
        listing_title=place["title"],
        city=place["city"],
        host_first_name=host["first_name"],
        check_in=row["check_in"],
        check_out=row["check_out"],
        nights=nights,
        adults=row["adults"],
        children=row["children"],
        infants=row["infants"],
        pets=row["pets"],
        nights_total=usd(row["nights_total"]),
        cleaning_fee=usd(row["cleaning_fee"]),
        service_fee=usd(row["service_fee"]),
        taxes=usd(row["taxes"]),
        total=usd(row["total"]),
        paid=usd(row["paid"]),
        payment_method=card,
        cancellation_policy=place["cancellation_policy"],
        refund_if_cancelled_now=refund_now,
        refund_rule=rule,
        refund=None if row["refund"] is None else usd(row["refund"]),
    )


def review_object(row: dict[str, Any]) -> ReviewObject:
    """A stored review."""
    return ReviewObject(
        id=row["id"],
        listing_id=row["listing_id"],
        author=row["author"],
        rating=row["rating"],
        text=row["text"],
        created_at=row["created_at"],
    )


def thread_object(db: Database, guest: dict[str, Any], listing: dict[str, Any]) -> ThreadObject:
    """The guest's messages with a listing's host, oldest first."""
    host = db.get(hosts, listing["host_id"])
    found = db.select(messages, "guest_id = ? AND listing_id = ?", (guest["id"], listing["id"]), order_by="id")
    return ThreadObject(
        listing_id=listing["id"],
        listing_title=listing["title"],
        host_first_name=host["first_name"],
        messages=[MessageObject(id=m["id"], sender=m["sender"], text=m["text"], sent_at=m["sent_at"]) for m in found],
    )


def wishlist_object(db: Database, row: dict[str, Any]) -> WishlistObject:
    """A wishlist with its saved listings."""
    saved = []
    for item in db.find(wishlist_items, wishlist_id=row["id"]):
        place = db.get(listings, item["listing_id"])
        saved.append(
            WishlistListing(
                id=place["id"], title=place["title"], city=place["city"], nightly_price=usd(place["nightly_price"])
            )
        )
    return WishlistObject(id=row["id"], name=row["name"], listings=saved)
