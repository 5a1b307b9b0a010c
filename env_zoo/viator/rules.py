"""Viator's booking rules: the traveler mix a product takes (age bands, per-booking minimums and maximums, an
adult with children), pricing by age band, seats left on a slot, cart holds, booking questions a booking must
answer, and refunds under the product's cancellation policy, read from the simulated clock. Start times are local
to the destination and compared with the clock as they are."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import iso_timestamp, parse_date

from .schema import age_bands, bookings, product_options, products, slots

HOLD_MINUTES = 30
SEAT_HOLDING = ("CONFIRMED", "PENDING")
PER_TRAVELER = ("FULL_NAMES_FIRST", "FULL_NAMES_LAST", "DATE_OF_BIRTH", "PASSPORT_NUMBER", "PASSPORT_EXPIRY", "WEIGHT")
PICKUP_ELSEWHERE = ("MEET_AT_DEPARTURE_POINT", "CONTACT_SUPPLIER_LATER")
BOOKING_QUESTIONS: dict[str, tuple[str, str, str]] = {
    # id: (group, label, answer format)
    "FULL_NAMES_FIRST": ("PER_TRAVELER", "First name", "first_name of every traveler"),
    "FULL_NAMES_LAST": ("PER_TRAVELER", "Last name", "last_name of every traveler"),
    "DATE_OF_BIRTH": ("PER_TRAVELER", "Date of birth", "date_of_birth, YYYY-MM-DD"),
    "PASSPORT_NUMBER": ("PER_TRAVELER", "Passport number", "passport_number, 5-20 letters and digits"),
    "PASSPORT_EXPIRY": ("PER_TRAVELER", "Passport expiry date", "passport_expiry, YYYY-MM-DD, after the travel date"),
    "WEIGHT": ("PER_TRAVELER", "Weight", "weight_kg, whole kilograms; the product's weight limit applies"),
    "PICKUP_POINT": (
        "PER_BOOKING",
        "Pickup point",
        "pickup_location_id from list_pickup_locations, or MEET_AT_DEPARTURE_POINT / CONTACT_SUPPLIER_LATER",
    ),
    "SPECIAL_REQUIREMENTS": ("PER_BOOKING", "Special requirements", "special_requirements, free text (optional)"),
}
CANCEL_REASONS = {
    "Customer_Service.Weather": "Weather",
    "Customer_Service.Duplicate_Booking": "Duplicate booking",
    "Customer_Service.Booked_wrong_tour_date": "Booked the wrong tour date",
    "Customer_Service.Chose_a_different_cheaper_tour": "Chose a different or cheaper tour",
    "Customer_Service.I_canceled_my_entire_trip": "Cancelled the entire trip",
    "Customer_Service.Unexpected_medical_circumstances": "Unexpected medical circumstances",
    "Customer_Service.Significant_global_event": "Significant global event",
    "Customer_Service.Unable_to_meet_booking_requirements": "Unable to meet the booking requirements",
}
WEIGHT_LIMIT_KG = 115  # products asking for weight (helicopters, balloons, ziplines) refuse heavier travelers


def product(db: Database, product_code: str, *, bookable: bool = False) -> dict[str, Any]:
    """A product by code; `bookable` refuses one no longer sold."""
    row = db.find_one(products, not_found=f"Product {product_code} not found.", product_code=product_code.strip())
    if bookable and row["status"] != "ACTIVE":
        raise Conflict(f"Product {product_code} is no longer available for booking.")
    return row


def option(db: Database, product_code: str, option_code: str) -> dict[str, Any]:
    """One of a product's options."""
    return db.find_one(
        product_options,
        not_found=f"Product option {option_code} not found for product {product_code}.",
        product_code=product_code,
        option_code=option_code,
    )


def check_mix(db: Database, row: dict[str, Any], travelers: dict[str, int]) -> None:
    """Refuse a traveler mix the product's age bands and per-booking limits don't allow."""
    bands = {band["band"]: band for band in db.find(age_bands, product_code=row["product_code"])}
    for band, count in travelers.items():
        if band not in bands:
            raise InvalidRequest(f"Age band {band} is not available for product {row['product_code']}.")
        limits = bands[band]
        if not limits["min_per_booking"] <= count <= limits["max_per_booking"]:
            raise InvalidRequest(
                f"{band} travelers must be between {limits['min_per_booking']} and {limits['max_per_booking']} "
                "per booking."
            )
    for band, limits in bands.items():
        if band not in travelers and limits["min_per_booking"] > 0:
            raise InvalidRequest(f"At least {limits['min_per_booking']} {band} traveler(s) required per booking.")
    total = sum(travelers.values())
    if not row["min_travelers"] <= total <= row["max_travelers"]:
        raise InvalidRequest(
            f"This product takes {row['min_travelers']} to {row['max_travelers']} travelers per booking."
        )
    grown = travelers.get("ADULT", 0) + travelers.get("SENIOR", 0) + travelers.get("TRAVELER", 0)
    if row["adult_required"] and not grown:
        raise InvalidRequest("At least one adult or senior must be on this booking.")


def line_items(option_row: dict[str, Any], travelers: dict[str, int]) -> list[dict[str, Any]]:
    """Price lines by age band: each band's price times its travelers, in the option's band order."""
    prices = option_row["prices"]
    return [
        {"band": band, "count": travelers[band], "unit_price": prices[band], "subtotal": prices[band] * travelers[band]}
        for band in prices
        if band in travelers
    ]


def seats_left(db: Database, slot: dict[str, Any]) -> int:
    """A slot's capacity less the travelers on bookings and unexpired holds for it."""
    taken = db.select(
        bookings,
        "product_code = ? AND option_code = ? AND travel_date = ? AND start_time = ? AND status IN (?, ?, ?)",
        (slot["product_code"], slot["option_code"], slot["travel_date"], slot["start_time"], *SEAT_HOLDING, "HELD"),
    )
    now = iso_timestamp(db.now())
    used = sum(
        sum(row["travelers"].values())
        for row in taken
        if row["status"] != "HELD" or (row["hold_expires_at"] or "") > now
    )
    return max(slot["capacity"] - used, 0)


def find_slot(db: Database, product_code: str, option_code: str, travel_date: str, start_time: str) -> dict[str, Any]:
    """The slot an option runs at on a date and time."""
    found = db.find(
        slots, product_code=product_code, option_code=option_code, travel_date=travel_date, start_time=start_time
    )
    if not found:
        raise NotFound(f"No availability for option {option_code} on {travel_date} at {start_time}.")
    return found[0]


def start_moment(travel_date: str, start_time: str) -> datetime:
    """When a tour starts, on the clock's terms."""
    day = parse_date(travel_date, "travel_date", example="2026-06-14")
    hour, minute = (int(part) for part in start_time.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc)


def check_future(db: Database, travel_date: str, start_time: str) -> None:
    """Refuse a start that has already passed."""
    if start_moment(travel_date, start_time) <= db.now():
        raise InvalidRequest("The travel date and time must be in the future.")


def new_booking_number(db: Database) -> int:
    """The next booking number; new bookings follow the account's existing BR-5803xxxxx references."""
    return 580400000 + db.next_number("booking_numbers")


def hold_expiry(db: Database) -> str:
    """When a new cart hold lapses."""
    return iso_timestamp(db.now() + timedelta(minutes=HOLD_MINUTES))


def live_status(db: Database, booking: dict[str, Any]) -> str:
    """A booking's status, with a lapsed hold read as EXPIRED."""
    if booking["status"] == "HELD" and (booking["hold_expires_at"] or "") <= iso_timestamp(db.now()):
        return "EXPIRED"
    return str(booking["status"])


def check_answers(
    product_row: dict[str, Any],
    travel_date: date,
    traveler_count: int,
    travelers: list[dict[str, Any]],
    pickup_ids: list[str],
    pickup: str | None,
) -> None:
    """Refuse a booking whose answers miss a question the product asks or break its rules."""
    asked = product_row["booking_questions"]
    per_traveler = [question for question in asked if question in PER_TRAVELER]
    if per_traveler and len(travelers) != traveler_count:
        raise InvalidRequest(
            f"Answers for all {traveler_count} travelers are required ({', '.join(per_traveler)}); "
            f"got {len(travelers)}."
        )
    fields = {
        "FULL_NAMES_FIRST": "first_name",
        "FULL_NAMES_LAST": "last_name",
        "DATE_OF_BIRTH": "date_of_birth",
        "PASSPORT_NUMBER": "passport_number",
        "PASSPORT_EXPIRY": "passport_expiry",
        "WEIGHT": "weight_kg",
    }
    for number, traveler in enumerate(travelers, start=1):
        for question in per_traveler:
            if traveler.get(fields[question]) in (None, ""):
                raise InvalidRequest(f"Missing answer to booking question {question} for traveler {number}.")
        expiry = traveler.get("passport_expiry")
        if "PASSPORT_EXPIRY" in asked and expiry:
            if parse_date(expiry, "passport_expiry", example="2030-01-31") <= travel_date:
                raise InvalidRequest(f"Traveler {number}'s passport expires before the travel date.")
        if "WEIGHT" in asked and (traveler.get("weight_kg") or 0) > WEIGHT_LIMIT_KG:
            raise InvalidRequest(f"Traveler {number} is over this product's weight limit of {WEIGHT_LIMIT_KG} kg.")
    if "PICKUP_POINT" in asked:
        if pickup is None:
            raise InvalidRequest("Missing answer to booking question PICKUP_POINT.")
        if pickup not in PICKUP_ELSEWHERE and pickup not in pickup_ids:
            raise InvalidRequest(f"Pickup location {pickup} is not offered by product {product_row['product_code']}.")


def refund_percentage(product_row: dict[str, Any], booking: dict[str, Any], now: datetime) -> int:
    """The share of the price refunded if the booking were cancelled now, under the product's policy: STANDARD
    refunds in full 24 hours or more before the start and nothing after; ALL_SALES_FINAL refunds nothing; CUSTOM
    refunds the tier whose minimum days before the start have not passed. A pending (unconfirmed) booking is
    refunded in full."""
    if booking["status"] == "PENDING":
        return 100
    start = start_moment(booking["travel_date"], booking["start_time"])
    ahead = start - now
    if ahead <= timedelta(0):
        return 0
    kind = product_row["cancellation_type"]
    if kind == "ALL_SALES_FINAL":
        return 0
    if kind == "STANDARD":
        return 100 if ahead >= timedelta(hours=24) else 0
    tiers = sorted(product_row["refund_tiers"], key=lambda tier: -tier["day_range_min"])
    for tier in tiers:
        if ahead >= timedelta(days=tier["day_range_min"]):
            return int(tier["percentage_refundable"])
    return 0
