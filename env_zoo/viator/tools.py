"""Viator Partner API tools for a partner's booking desk: find destinations and products, read product details,
schedules, availability, booking questions, pickup points and reviews, hold a cart item and book it with the
booking questions answered, look bookings up, and quote and cancel them."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text
from envfactory_gym.values import parse_date

from . import rules
from .objects import (
    AgeBand,
    AvailabilityObject,
    BookableItem,
    BookingObject,
    BookingQuestionObject,
    CancelQuoteObject,
    CancelReasonObject,
    DestinationObject,
    PickupLocationObject,
    ProductObject,
    ProductSummary,
    RefundDetails,
    ReviewObject,
    ScheduleDay,
    ScheduleTime,
    TagObject,
    booking_object,
    destination_object,
    from_price,
    line_item_objects,
    policy_object,
    product_object,
    product_summary,
    usd,
)
from .schema import bookings, destinations, pickup_locations, products, reviews, slots, tags

ProductCode = Annotated[str, Field(min_length=3, max_length=20, pattern=r"^\S+$"), ErrorText("Invalid product code.")]
BookingRef = Annotated[str, Field(pattern=r"^BR-\d{9}$"), ErrorText("Invalid booking reference; like BR-580336258.")]
Travelers = Annotated[
    dict[AgeBand, Annotated[int, Field(ge=1, le=30)]],
    Field(min_length=1),
    ErrorText('travelers must map age bands to 1-30 travelers each, e.g. {"ADULT": 2}.'),
]
Days = Annotated[int, Field(ge=1, le=14), ErrorText("days must be 1 to 14.")]
ReasonCode = Literal[
    "Customer_Service.Weather",
    "Customer_Service.Duplicate_Booking",
    "Customer_Service.Booked_wrong_tour_date",
    "Customer_Service.Chose_a_different_cheaper_tour",
    "Customer_Service.I_canceled_my_entire_trip",
    "Customer_Service.Unexpected_medical_circumstances",
    "Customer_Service.Significant_global_event",
    "Customer_Service.Unable_to_meet_booking_requirements",
]
BookingStatus = Literal["HELD", "EXPIRED", "CONFIRMED", "PENDING", "REJECTED", "CANCELLED"]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"), ErrorText("Invalid email address.")]
PageSize = page_size(50)


class TravelerAnswers(BaseModel):
    """Answers to the per-traveler booking questions for one traveler, in traveler order (lead traveler first)."""

    first_name: Annotated[str, Field(min_length=1, max_length=50)] | None = None
    last_name: Annotated[str, Field(min_length=1, max_length=50)] | None = None
    date_of_birth: IsoDate | None = None
    passport_number: Annotated[str, Field(pattern=r"^[A-Z0-9]{5,20}$")] | None = None
    passport_expiry: IsoDate | None = None
    weight_kg: Annotated[int, Field(ge=20, le=250)] | None = None


# ---------------------------------------------------------------- taxonomy


@tool(read_only=True)
def list_destinations(db: Database, name: text(100) | None = None) -> list[DestinationObject]:
    """List Viator destinations (cities, regions, countries) with their ids, optionally those whose name contains
    some text.

    Args:
        name: Part of the destination's name, e.g. "Lisbon".
    """
    rows = db.find(destinations)
    if name is not None:
        rows = [row for row in rows if name.strip().lower() in row["name"].lower()]
    return [destination_object(db, row) for row in rows]


@tool(read_only=True)
def list_tags(db: Database) -> list[TagObject]:
    """List the product tags (categories such as food tours or day trips) that search can filter by."""
    return [TagObject(tag_id=row["id"], name=row["name"]) for row in db.find(tags)]


# ---------------------------------------------------------------- products


@tool(read_only=True)
def search_products(
    db: Database,
    destination_id: int,
    text: text(100) | None = None,
    tag_id: int | None = None,
    max_price: Annotated[int, Field(ge=1, le=10000)] | None = None,
    min_rating: Annotated[float, Field(ge=1, le=5)] | None = None,
    sort: Literal["DEFAULT", "PRICE", "TRAVELER_RATING", "ITINERARY_DURATION"] = "DEFAULT",
    order: Literal["ASCENDING", "DESCENDING"] = "ASCENDING",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ProductSummary]:
    """Search the active products of a destination (a region or country includes its cities). DEFAULT sorts by
    popularity (most reviewed first); the others by the field in the order given.

    Args:
        destination_id: The destination's id, from list_destinations.
        text: Words the title or description must contain.
        tag_id: Only products with this tag (list_tags).
        max_price: Highest from-price in USD.
        min_rating: Lowest average traveler rating (1-5).
        sort: DEFAULT, PRICE, TRAVELER_RATING or ITINERARY_DURATION.
        order: ASCENDING or DESCENDING (ignored for DEFAULT).
        page_size: Results per page.
        cursor: next_cursor of the previous page.
    """
    db.get(destinations, destination_id, "Destination")
    rows = db.select(
        products,
        "status = 'ACTIVE' AND destination_id IN (SELECT id FROM destinations WHERE id = ? OR parent_id = ?)",
        (destination_id, destination_id),
    )
    if text is not None:
        words = text.lower().split()
        rows = [row for row in rows if all(w in (row["title"] + " " + row["description"]).lower() for w in words)]
    if tag_id is not None:
        rows = [row for row in rows if tag_id in row["tag_ids"]]
    if min_rating is not None:
        rows = [row for row in rows if row["rating"] is not None and row["rating"] >= min_rating * 100]
    priced = [(row, from_price(db, row)) for row in rows]
    if max_price is not None:
        priced = [(row, price) for row, price in priced if price <= max_price * 100]
    keys = {
        "PRICE": lambda pair: pair[1],
        "TRAVELER_RATING": lambda pair: pair[0]["rating"] or 0,
        "ITINERARY_DURATION": lambda pair: pair[0]["duration_minutes"],
    }
    if sort == "DEFAULT":
        priced.sort(key=lambda pair: -pair[0]["review_count"])
    else:
        priced.sort(key=keys[sort], reverse=order == "DESCENDING")
    return paginate([product_summary(db, row, price) for row, price in priced], page_size, cursor)


@tool(read_only=True)
def get_product(db: Database, product_code: ProductCode) -> ProductObject:
    """Retrieve a product's details: options and their prices per age band, who counts as which age band and how
    many a booking may take, the booking questions a booking must answer, pickup, confirmation type and the
    cancellation policy.

    Args:
        product_code: The product's code, e.g. "5010PAR".
    """
    return product_object(db, rules.product(db, product_code))


@tool(read_only=True)
def get_availability_schedule(
    db: Database, product_code: ProductCode, start_date: IsoDate, days: Days = 7, option_code: str | None = None
) -> list[ScheduleDay]:
    """The departures of a product's options over a range of dates, with the seats left on each.

    Args:
        product_code: The product's code.
        start_date: First date of the range.
        days: How many dates from start_date.
        option_code: Only this option (tour grade).
    """
    row = rules.product(db, product_code)
    first = parse_date(start_date, "start_date", example="2026-06-14")
    last = (first + timedelta(days=days - 1)).isoformat()
    found = db.select(
        slots,
        "product_code = ? AND travel_date BETWEEN ? AND ?",
        (row["product_code"], first.isoformat(), last),
        order_by="option_code, travel_date, start_time",
    )
    days_out: dict[tuple[str, str], list[ScheduleTime]] = {}
    for slot in found:
        if option_code is None or slot["option_code"] == option_code:
            times = days_out.setdefault((slot["option_code"], slot["travel_date"]), [])
            times.append(ScheduleTime(start_time=slot["start_time"], seats_left=rules.seats_left(db, slot)))
    return [ScheduleDay(option_code=key[0], travel_date=key[1], times=times) for key, times in days_out.items()]


@tool(read_only=True)
def check_availability(
    db: Database,
    product_code: ProductCode,
    travel_date: IsoDate,
    travelers: Travelers,
    option_code: str | None = None,
) -> AvailabilityObject:
    """Check whether a product can be booked on a date for a group of travelers, per option and start time, with
    the price lines by age band and the total.

    Args:
        product_code: The product's code.
        travel_date: The date of travel.
        travelers: How many travelers of each age band, e.g. {"ADULT": 2, "CHILD": 1}.
        option_code: Only this option (tour grade).
    """
    row = rules.product(db, product_code, bookable=True)
    parse_date(travel_date, "travel_date", example="2026-06-14")
    rules.check_mix(db, row, travelers)
    found = db.select(
        slots,
        "product_code = ? AND travel_date = ?",
        (row["product_code"], travel_date),
        order_by="option_code, start_time",
    )
    items = []
    party = sum(travelers.values())
    for slot in found:
        if option_code is not None and slot["option_code"] != option_code:
            continue
        option = rules.option(db, row["product_code"], slot["option_code"])
        lines = rules.line_items(option, travelers)
        left = rules.seats_left(db, slot)
        missing = [band for band in travelers if band not in option["prices"]]
        reason = None
        if missing:
            reason = "TRAVELER_MISMATCH"
        elif rules.start_moment(travel_date, slot["start_time"]) <= db.now():
            reason = "PAST_DATE"
        elif left < party:
            reason = "SOLD_OUT"
        items.append(
            BookableItem(
                option_code=slot["option_code"],
                start_time=slot["start_time"],
                available=reason is None,
                unavailable_reason=reason,
                seats_left=left,
                line_items=line_item_objects(lines),
                total_price=usd(sum(line["subtotal"] for line in lines)),
            )
        )
    return AvailabilityObject(
        product_code=row["product_code"], travel_date=travel_date, currency="USD", bookable_items=items
    )


@tool(read_only=True)
def list_booking_questions(db: Database) -> list[BookingQuestionObject]:
    """The booking questions products may ask (a product's details name the ones it asks), with how to answer
    each: per-traveler questions go in traveler_answers, per-booking ones in their own fields."""
    return [
        BookingQuestionObject(id=key, group=group, label=label, answer_format=answer)
        for key, (group, label, answer) in rules.BOOKING_QUESTIONS.items()
    ]


@tool(read_only=True)
def list_pickup_locations(db: Database, product_code: ProductCode) -> list[PickupLocationObject]:
    """The hotels, ports and other places a product's supplier picks travelers up from.

    Args:
        product_code: The product's code.
    """
    row = rules.product(db, product_code)
    found = db.find(pickup_locations, product_code=row["product_code"], order_by=[pickup_locations.c.name])
    return [PickupLocationObject(id=p["id"], name=p["name"], type=p["type"], address=p["address"]) for p in found]


@tool(read_only=True)
def get_reviews(
    db: Database,
    product_code: ProductCode,
    rating: Annotated[int, Field(ge=1, le=5)] | None = None,
    provider: Literal["VIATOR", "TRIPADVISOR"] | None = None,
    sort: Literal["MOST_RECENT", "HIGHEST_RATING", "LOWEST_RATING"] = "MOST_RECENT",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ReviewObject]:
    """Read travelers' reviews of a product.

    Args:
        product_code: The product's code.
        rating: Only reviews with this many stars.
        provider: Only reviews left on VIATOR or TRIPADVISOR.
        sort: MOST_RECENT, HIGHEST_RATING or LOWEST_RATING.
        page_size: Reviews per page.
        cursor: next_cursor of the previous page.
    """
    row = rules.product(db, product_code)
    found = db.find(reviews, product_code=row["product_code"], **given(rating=rating, provider=provider))
    found.sort(key=lambda review: review["published_date"], reverse=True)
    if sort != "MOST_RECENT":
        found.sort(key=lambda review: review["rating"], reverse=sort == "HIGHEST_RATING")
    results = [
        ReviewObject(review_id=r["id"], **{key: r[key] for key in ReviewObject.model_fields if key != "review_id"})
        for r in found
    ]
    return paginate(results, page_size, cursor)


# ---------------------------------------------------------------- booking


@tool()
def hold_booking(
    db: Database,
    product_code: ProductCode,
    option_code: NonBlankText,
    travel_date: IsoDate,
    start_time: Annotated[str, Field(pattern=r"^\d{2}:\d{2}$")],
    travelers: Travelers,
    partner_booking_ref: text(40) | None = None,
) -> BookingObject:
    """Put a product in a new cart and hold its seats and price for 30 minutes; book it with book_hold before
    the hold expires.

    Args:
        product_code: The product's code.
        option_code: The option (tour grade) to book.
        travel_date: The date of travel.
        start_time: The departure, HH:MM, from the schedule.
        travelers: How many travelers of each age band, e.g. {"ADULT": 2, "CHILD": 1}.
        partner_booking_ref: Your own reference for the booking.
    """
    row = rules.product(db, product_code, bookable=True)
    option = rules.option(db, row["product_code"], option_code)
    rules.check_mix(db, row, travelers)
    missing = [band for band in travelers if band not in option["prices"]]
    if missing:
        raise InvalidRequest(f"Option {option_code} has no price for age band {missing[0]}.")
    slot = rules.find_slot(db, row["product_code"], option_code, travel_date, start_time)
    rules.check_future(db, travel_date, start_time)
    if rules.seats_left(db, slot) < sum(travelers.values()):
        raise Conflict(f"Not enough availability: {rules.seats_left(db, slot)} seats left at {start_time}.")
    lines = rules.line_items(option, travelers)
    number = rules.new_booking_number(db)
    stored = db.insert(
        bookings,
        booking_ref=f"BR-{number}",
        cart_ref=f"CR-{number - 360000000}",
        partner_booking_ref=partner_booking_ref,
        product_code=row["product_code"],
        option_code=option_code,
        travel_date=travel_date,
        start_time=start_time,
        travelers=dict(travelers),
        line_items=lines,
        total=sum(line["subtotal"] for line in lines),
        status="HELD",
        hold_expires_at=rules.hold_expiry(db),
        answers={},
    )
    return booking_object(db, stored, row["title"])


@tool()
def book_hold(
    db: Database,
    booking_ref: BookingRef,
    lead_traveler: Annotated[str, Field(min_length=3, max_length=100, pattern=r"\S+ \S+")],
    email: Email,
    traveler_answers: list[TravelerAnswers] | None = None,
    pickup_location_id: str | None = None,
    special_requirements: text(500) | None = None,
) -> BookingObject:
    """Book a held cart item, answering the product's booking questions. Instant-confirmation products come back
    CONFIRMED; on-request (MANUAL) ones PENDING until the supplier answers.

    Args:
        booking_ref: The held booking's reference, from hold_booking.
        lead_traveler: The lead traveler's full name, for the voucher.
        email: Where the voucher is sent.
        traveler_answers: Per-traveler answers (names, date of birth, passport, weight) for every traveler, lead
            first, when the product asks any.
        pickup_location_id: The answer to PICKUP_POINT: a pickup location id, MEET_AT_DEPARTURE_POINT or
            CONTACT_SUPPLIER_LATER.
        special_requirements: Anything the supplier should know (dietary needs, accessibility).
    """
    booking = db.find_one(bookings, not_found=f"Booking {booking_ref} not found.", booking_ref=booking_ref)
    status = rules.live_status(db, booking)
    if status == "EXPIRED":
        raise Conflict("The cart hold has expired; hold the item again to book it.")
    if status != "HELD":
        raise Conflict(f"Booking {booking_ref} is {status} and can't be booked again.")
    row = rules.product(db, booking["product_code"], bookable=True)
    answers = [answer.model_dump() for answer in traveler_answers or []]
    pickups = [p["id"] for p in db.find(pickup_locations, product_code=row["product_code"])]
    travel_day = parse_date(booking["travel_date"], "travel_date")
    rules.check_answers(row, travel_day, sum(booking["travelers"].values()), answers, pickups, pickup_location_id)
    stored = db.update(
        bookings,
        booking_ref,
        status="CONFIRMED" if row["confirmation_type"] == "INSTANT" else "PENDING",
        hold_expires_at=None,
        lead_traveler=lead_traveler.strip(),
        email=email,
        answers={
            "travelers": [{"traveler_num": n, **answer} for n, answer in enumerate(answers, start=1)],
            "pickup_location_id": pickup_location_id,
            "special_requirements": special_requirements,
        },
        booked_at=db.now_iso(),
    )
    return booking_object(db, stored, row["title"])


@tool()
def release_hold(db: Database, booking_ref: BookingRef) -> BookingObject:
    """Remove a held item from its cart before it is booked, freeing its seats.

    Args:
        booking_ref: The held booking's reference.
    """
    booking = db.find_one(bookings, not_found=f"Booking {booking_ref} not found.", booking_ref=booking_ref)
    if rules.live_status(db, booking) != "HELD":
        raise Conflict(f"Booking {booking_ref} is not on hold.")
    stored = db.update(bookings, booking_ref, status="EXPIRED", hold_expires_at=None)
    return booking_object(db, stored, rules.product(db, booking["product_code"])["title"])


@tool(read_only=True)
def get_booking(db: Database, booking_ref: BookingRef) -> BookingObject:
    """Retrieve a booking with its status, travelers, answers and price.

    Args:
        booking_ref: The booking reference, e.g. "BR-580336258".
    """
    booking = db.find_one(bookings, not_found=f"Booking {booking_ref} not found.", booking_ref=booking_ref)
    return booking_object(db, booking, rules.product(db, booking["product_code"])["title"])


@tool(read_only=True)
def list_bookings(
    db: Database,
    status: BookingStatus | None = None,
    lead_traveler: text(100) | None = None,
    product_code: ProductCode | None = None,
    travel_date_from: IsoDate | None = None,
    travel_date_to: IsoDate | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[BookingObject]:
    """List the partner's bookings by travel date, optionally filtered.

    Args:
        status: Only bookings in this status.
        lead_traveler: Part of the lead traveler's name.
        product_code: Only bookings of this product.
        travel_date_from: Travel on or after this date.
        travel_date_to: Travel on or before this date.
        page_size: Bookings per page.
        cursor: next_cursor of the previous page.
    """
    where, params = ["travel_date >= ?", "travel_date <= ?"], [travel_date_from or "", travel_date_to or "9999"]
    if product_code is not None:
        where.append("product_code = ?")
        params.append(product_code)
    if lead_traveler is not None:
        where.append("lower(lead_traveler) LIKE ?")
        params.append(f"%{lead_traveler.strip().lower()}%")
    found = db.select(bookings, " AND ".join(where), params, order_by="travel_date, start_time, booking_ref")
    titles = {row["product_code"]: row["title"] for row in db.find(products)}
    shown = [booking_object(db, row, titles[row["product_code"]]) for row in found]
    if status is not None:
        shown = [booking for booking in shown if booking.status == status]
    return paginate(shown, page_size, cursor)


# ---------------------------------------------------------------- cancellation


@tool(read_only=True)
def list_cancel_reasons(db: Database) -> list[CancelReasonObject]:
    """The reason codes a cancellation must give."""
    return [
        CancelReasonObject(cancellation_reason_code=code, cancellation_reason_text=label)
        for code, label in rules.CANCEL_REASONS.items()
    ]


@tool(read_only=True)
def get_cancel_quote(db: Database, booking_ref: BookingRef) -> CancelQuoteObject:
    """Quote what cancelling a booking now would refund under its product's cancellation policy.

    Args:
        booking_ref: The booking reference.
    """
    booking = db.find_one(bookings, not_found=f"Booking {booking_ref} not found.", booking_ref=booking_ref)
    row = rules.product(db, booking["product_code"])
    policy = policy_object(row).description
    status = rules.live_status(db, booking)
    if status not in rules.SEAT_HOLDING:
        reason = f"Booking is {status}." if status != "HELD" else "Booking is only held; release the hold instead."
        return CancelQuoteObject(
            booking_ref=booking_ref, status="NOT_CANCELLABLE", reason=reason, refund_details=None, policy=policy
        )
    share = rules.refund_percentage(row, booking, db.now())
    return CancelQuoteObject(
        booking_ref=booking_ref,
        status="CANCELLABLE",
        reason=None,
        refund_details=RefundDetails(
            item_price=usd(booking["total"]),
            refund_amount=usd(booking["total"] * share // 100),
            refund_percentage=share,
        ),
        policy=policy,
    )


@tool()
def cancel_booking(db: Database, booking_ref: BookingRef, reason_code: ReasonCode) -> BookingObject:
    """Cancel a confirmed or pending booking with a reason; the refund follows the product's cancellation policy
    at this moment (see get_cancel_quote).

    Args:
        booking_ref: The booking reference.
        reason_code: Why it is cancelled (list_cancel_reasons).
    """
    booking = db.find_one(bookings, not_found=f"Booking {booking_ref} not found.", booking_ref=booking_ref)
    status = rules.live_status(db, booking)
    if status not in rules.SEAT_HOLDING:
        raise Conflict(f"Booking {booking_ref} is {status} and can't be cancelled.")
    row = rules.product(db, booking["product_code"])
    share = rules.refund_percentage(row, booking, db.now())
    stored = db.update(
        bookings,
        booking_ref,
        status="CANCELLED",
        cancel_reason=reason_code,
        refund=booking["total"] * share // 100,
        cancelled_at=db.now_iso(),
    )
    return booking_object(db, stored, row["title"])
