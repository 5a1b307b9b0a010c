"""Viator's partner-facing objects as output models (destinations, tags, products with options, age bands and
cancellation policy, availability, booking questions, pickup locations, bookings, cancellation quotes, reviews)
and how stored rows become them. Amounts are USD strings like "189.00"."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from .rules import live_status
from .schema import age_bands, destinations, product_options, tags

AgeBand = Literal["ADULT", "SENIOR", "YOUTH", "CHILD", "INFANT", "TRAVELER"]
CURRENCY = "USD"


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, CURRENCY)


class DestinationObject(BaseModel):
    """A Viator destination."""

    destination_id: int
    name: str
    type: str
    parent_name: str | None


class TagObject(BaseModel):
    """A product tag (category)."""

    tag_id: int
    name: str


class ProductSummary(BaseModel):
    """A product in search results."""

    product_code: str
    title: str
    destination: str
    duration_minutes: int
    from_price: str = Field(description="Lowest adult (or per-traveler) price over the product's options")
    rating: float | None
    review_count: int
    confirmation_type: str
    cancellation_type: str


class AgeBandObject(BaseModel):
    """Who counts as which traveler, and how many a booking may have."""

    band: AgeBand
    start_age: int
    end_age: int
    min_per_booking: int
    max_per_booking: int


class OptionObject(BaseModel):
    """A bookable variant of a product (a tour grade) with its prices per traveler."""

    option_code: str
    title: str
    description: str
    languages: list[str]
    prices: dict[str, str]


class RefundTier(BaseModel):
    """Part of a CUSTOM policy: cancelling at least `day_range_min` days before the start refunds this share."""

    day_range_min: int
    percentage_refundable: int


class CancellationPolicy(BaseModel):
    """The product's cancellation policy."""

    type: str
    description: str
    refund_tiers: list[RefundTier]


class ProductObject(BaseModel):
    """A product's full details."""

    product_code: str
    title: str
    destination: str
    description: str
    supplier: str
    status: str
    duration_minutes: int
    tags: list[str]
    confirmation_type: str = Field(
        description="INSTANT: confirmed on booking; MANUAL: PENDING until the supplier answers"
    )
    min_travelers: int
    max_travelers: int
    adult_required: bool
    age_bands: list[AgeBandObject]
    options: list[OptionObject]
    booking_questions: list[str]
    pickup_offered: bool
    cancellation_policy: CancellationPolicy
    rating: float | None
    review_count: int


class ScheduleTime(BaseModel):
    """One departure of an option on a date."""

    start_time: str
    seats_left: int


class ScheduleDay(BaseModel):
    """An option's departures on one date."""

    option_code: str
    travel_date: str
    times: list[ScheduleTime]


class LineItem(BaseModel):
    """The price for the travelers of one age band."""

    age_band: str
    number_of_travelers: int
    unit_price: str
    subtotal: str


class BookableItem(BaseModel):
    """Whether one option and start time can be booked for the travelers, and at what price."""

    option_code: str
    start_time: str
    available: bool
    unavailable_reason: str | None
    seats_left: int
    line_items: list[LineItem]
    total_price: str


class AvailabilityObject(BaseModel):
    """The result of an availability check."""

    product_code: str
    travel_date: str
    currency: str
    bookable_items: list[BookableItem]


class BookingQuestionObject(BaseModel):
    """A question a booking may have to answer."""

    id: str
    group: str
    label: str
    answer_format: str


class PickupLocationObject(BaseModel):
    """A place the supplier picks travelers up."""

    id: str
    name: str
    type: str
    address: str


class TravelerAnswerObject(BaseModel):
    """What was given for one traveler."""

    traveler_num: int
    first_name: str | None
    last_name: str | None
    date_of_birth: str | None
    passport_number: str | None
    passport_expiry: str | None
    weight_kg: int | None


class BookingObject(BaseModel):
    """A booking (an item held in a cart, or booked)."""

    booking_ref: str
    cart_ref: str
    partner_booking_ref: str | None
    status: str = Field(description="HELD | EXPIRED | CONFIRMED | PENDING | REJECTED | CANCELLED")
    product_code: str
    product_title: str
    option_code: str
    travel_date: str
    start_time: str
    travelers: dict[str, int]
    line_items: list[LineItem]
    total_price: str
    currency: str = CURRENCY
    hold_expires_at: str | None
    lead_traveler: str | None
    email: str | None
    traveler_answers: list[TravelerAnswerObject]
    pickup_location_id: str | None
    special_requirements: str | None
    rejection_reason: str | None
    cancel_reason: str | None
    refund_amount: str | None


class RefundDetails(BaseModel):
    """What cancelling now would refund."""

    item_price: str
    refund_amount: str
    refund_percentage: int
    currency: str = CURRENCY


class CancelQuoteObject(BaseModel):
    """A cancellation quote for a booking."""

    booking_ref: str
    status: Literal["CANCELLABLE", "NOT_CANCELLABLE"]
    reason: str | None
    refund_details: RefundDetails | None
    policy: str


class CancelReasonObject(BaseModel):
    """A reason a cancellation may give."""

    cancellation_reason_code: str
    cancellation_reason_text: str


class ReviewObject(BaseModel):
    """A traveler's review of a product."""

    review_id: str
    provider: str
    rating: int
    title: str
    text: str
    author: str
    published_date: str
    traveler_type: str


def stars(rating: int | None) -> float | None:
    """Hundredths of a star as stars."""
    return None if rating is None else rating / 100


def destination_name(db: Database, destination_id: int) -> str:
    """A destination's name."""
    return str(db.get(destinations, destination_id, "Destination")["name"])


def destination_object(db: Database, row: dict[str, Any]) -> DestinationObject:
    """A stored destination as the API shows it."""
    parent = None if row["parent_id"] is None else destination_name(db, row["parent_id"])
    return DestinationObject(destination_id=row["id"], name=row["name"], type=row["type"], parent_name=parent)


def option_object(row: dict[str, Any]) -> OptionObject:
    """A stored option with printed prices."""
    return OptionObject(
        option_code=row["option_code"],
        title=row["title"],
        description=row["description"],
        languages=row["languages"],
        prices={band: usd(cents) for band, cents in row["prices"].items()},
    )


def policy_object(row: dict[str, Any]) -> CancellationPolicy:
    """The product's cancellation policy in words and tiers."""
    kind = row["cancellation_type"]
    if kind == "STANDARD":
        text = "Full refund if cancelled at least 24 hours before the start time; no refund after that."
    elif kind == "ALL_SALES_FINAL":
        text = "All sales are final: no refund on cancellation."
    else:
        parts = [
            f"{tier['percentage_refundable']}% refund if cancelled at least {tier['day_range_min']} days before"
            for tier in sorted(row["refund_tiers"], key=lambda tier: -tier["day_range_min"])
        ]
        text = "; ".join(parts) + "; no refund after that."
    return CancellationPolicy(
        type=kind, description=text, refund_tiers=[RefundTier(**tier) for tier in row["refund_tiers"]]
    )


def from_price(db: Database, row: dict[str, Any]) -> int:
    """The lowest adult or per-traveler price of a product's options."""
    options = db.find(product_options, product_code=row["product_code"])
    prices = [
        option["prices"].get("ADULT", option["prices"].get("TRAVELER", min(option["prices"].values())))
        for option in options
    ]
    return min(prices)


def product_summary(db: Database, row: dict[str, Any], price: int) -> ProductSummary:
    """A product as a search result."""
    return ProductSummary(
        product_code=row["product_code"],
        title=row["title"],
        destination=destination_name(db, row["destination_id"]),
        duration_minutes=row["duration_minutes"],
        from_price=usd(price),
        rating=stars(row["rating"]),
        review_count=row["review_count"],
        confirmation_type=row["confirmation_type"],
        cancellation_type=row["cancellation_type"],
    )


def product_object(db: Database, row: dict[str, Any]) -> ProductObject:
    """A product with its options, bands, questions and policy."""
    names = {tag["id"]: tag["name"] for tag in db.find(tags)}
    bands = db.find(age_bands, product_code=row["product_code"], order_by=[age_bands.c.start_age.desc()])
    return ProductObject(
        product_code=row["product_code"],
        title=row["title"],
        destination=destination_name(db, row["destination_id"]),
        description=row["description"],
        supplier=row["supplier"],
        status=row["status"],
        duration_minutes=row["duration_minutes"],
        tags=[names[tag] for tag in row["tag_ids"] if tag in names],
        confirmation_type=row["confirmation_type"],
        min_travelers=row["min_travelers"],
        max_travelers=row["max_travelers"],
        adult_required=row["adult_required"],
        age_bands=[AgeBandObject(**{key: band[key] for key in AgeBandObject.model_fields}) for band in bands],
        options=[
            option_object(option)
            for option in db.find(product_options, product_code=row["product_code"], order_by=[product_options.c.id])
        ],
        booking_questions=row["booking_questions"],
        pickup_offered=row["pickup_offered"],
        cancellation_policy=policy_object(row),
        rating=stars(row["rating"]),
        review_count=row["review_count"],
    )


def line_item_objects(items: list[dict[str, Any]]) -> list[LineItem]:
    """Stored price lines as the API prints them."""
    return [
        LineItem(
            age_band=item["band"],
            number_of_travelers=item["count"],
            unit_price=usd(item["unit_price"]),
            subtotal=usd(item["subtotal"]),
        )
        for item in items
    ]


def booking_object(db: Database, row: dict[str, Any], title: str) -> BookingObject:
    """A stored booking as the API shows it."""
    answers = row["answers"]
    return BookingObject(
        booking_ref=row["booking_ref"],
        cart_ref=row["cart_ref"],
        partner_booking_ref=row["partner_booking_ref"],
        status=live_status(db, row),
        product_code=row["product_code"],
        product_title=title,
        option_code=row["option_code"],
        travel_date=row["travel_date"],
        start_time=row["start_time"],
        travelers=row["travelers"],
        line_items=line_item_objects(row["line_items"]),
        total_price=usd(row["total"]),
        hold_expires_at=row["hold_expires_at"] if row["status"] == "HELD" else None,
        lead_traveler=row["lead_traveler"],
        email=row["email"],
        traveler_answers=[TravelerAnswerObject(**traveler) for traveler in answers.get("travelers", [])],
        pickup_location_id=answers.get("pickup_location_id"),
        special_requirements=answers.get("special_requirements"),
        rejection_reason=row["rejection_reason"],
        cancel_reason=row["cancel_reason"],
        refund_amount=None if row["refund"] is None else usd(row["refund"]),
    )
