"""Uber's ride rules: which city (and so which products) a point is in, the trip's distance and duration, the
upfront fare (time and distance, minimum, surge, booking fee, a second seat on a shared ride), surge periods, fare
expiry, one on-demand ride at a time, payment checks (expired cards, cash, business accounts, an outstanding
balance), a business profile's policy, scheduling windows, and the cancellation fee."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import locations, products, requests, surges

CITIES: dict[str, tuple[float, float, float]] = {
    # city: (latitude, longitude, service radius in miles)
    "San Francisco": (37.7749, -122.4194, 30.0),
    "Los Angeles": (34.0522, -118.2437, 40.0),
}
MAX_TRIP_MILES = 100.0
ROAD_FACTOR = 1.25
CITY_MPH = 20.0
FARE_TTL = timedelta(minutes=5)
FREE_CANCEL_AFTER_ACCEPT = timedelta(minutes=2)
RESERVE_FREE_CANCEL = timedelta(minutes=60)
RESERVE_MIN_AHEAD = timedelta(minutes=15)
RESERVE_MAX_AHEAD = timedelta(days=30)
TIP_WINDOW = timedelta(days=30)
ACTIVE = ("processing", "accepted", "arriving", "in_progress")
TERMINAL = ("completed", "rider_canceled", "driver_canceled", "no_drivers_available")
SHARED_SECOND_SEAT = 0.3  # a second seat on a shared ride adds 30% of the fare


def miles_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance in miles."""
    lat1, lng1, lat2, lng2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(h))


def city_of(latitude: float, longitude: float) -> str | None:
    """The service city a point lies in, if any."""
    for city, (lat, lng, radius) in CITIES.items():
        if miles_between((latitude, longitude), (lat, lng)) <= radius:
            return city
    return None


def products_at(db: Database, latitude: float, longitude: float) -> list[dict[str, Any]]:
    """The products offered at a point, in display order (none outside the service area)."""
    city = city_of(latitude, longitude)
    if city is None:
        return []
    return db.select(products, "city = ?", (city,), order_by="display_order")


def product(db: Database, product_id: str) -> dict[str, Any]:
    """A product by id."""
    return db.find_one(products, product_id=product_id, not_found=f"Product {product_id} not found.")


def point(db: Database, latitude: float, longitude: float) -> dict[str, Any]:
    """A trip end at coordinates, with the address the app shows for them."""
    found = db.select(locations, "latitude = ? AND longitude = ?", (latitude, longitude), limit=1)
    address = found[0]["address"] if found else f"{latitude:.5f}, {longitude:.5f}"
    return {"address": address, "latitude": latitude, "longitude": longitude}


def trip_shape(start: dict[str, Any], end: dict[str, Any]) -> tuple[float, int]:
    """Road miles (one decimal) and minutes for a trip; refuses one too long or going nowhere."""
    crow = miles_between((start["latitude"], start["longitude"]), (end["latitude"], end["longitude"]))
    if crow > MAX_TRIP_MILES:
        raise InvalidRequest("distance_exceeded: Distance between two points exceeds 100 miles.")
    if crow < 0.05:
        raise InvalidRequest("same_pickup_dropoff: Pickup and dropoff can't be the same.")
    miles = round(crow * ROAD_FACTOR, 1)
    return miles, round(miles / CITY_MPH * 60) + 4


def surge_at(db: Database, product_id: str, moment: datetime) -> float:
    """The product's surge multiplier at a moment (1.0 outside every surge period)."""
    now = iso_timestamp(moment)
    found = db.select(surges, "product_id = ? AND starts_at <= ? AND ends_at > ?", (product_id, now, now), limit=1)
    return float(found[0]["multiplier"]) if found else 1.0


def fare_value(row: dict[str, Any], miles: float, minutes: int, surge: float, seat_count: int) -> int:
    """The upfront fare in cents: base plus time and distance (at least the minimum), times surge, plus the
    booking fee; a second seat on a shared ride adds 30%."""
    ride = max(row["base"] + row["cost_per_minute"] * minutes + round(row["cost_per_distance"] * miles), row["minimum"])
    ride = round(ride * surge)
    if row["shared"] and seat_count == 2:
        ride = round(ride * (1 + SHARED_SECOND_SEAT))
    return int(ride + row["booking_fee"])


def check_seats(row: dict[str, Any], seat_count: int) -> None:
    """Only shared products take a seat count above one (and at most two)."""
    if seat_count > 1 and not row["shared"]:
        raise InvalidRequest(
            f"invalid_seat_count: Number of seats exceeds max capacity; {row['display_name']} is not shared, so "
            "seat_count is 1."
        )


def check_served(row: dict[str, Any], start: dict[str, Any]) -> None:
    """Refuse a pickup outside the product's city."""
    if city_of(start["latitude"], start["longitude"]) != row["city"]:
        raise InvalidRequest(
            f"outside_service_area: {row['display_name']} is not available at this pickup location "
            f"(it serves {row['city']})."
        )


def current_ride(db: Database, rider_id: str) -> dict[str, Any] | None:
    """The rider's on-demand ride that is still under way, if any."""
    found = db.select(
        requests,
        "rider_id = ? AND status IN (?, ?, ?, ?)",
        (rider_id, *ACTIVE),
        order_by="requested_at DESC",
        limit=1,
    )
    return found[0] if found else None


def check_fare(fare: dict[str, Any], now: datetime) -> None:
    """Refuse a used or expired fare, or a surged one the rider has not accepted."""
    if fare["used"]:
        raise Conflict("invalid_fare_id: The fare id is invalid or expired; it was already used for a request.")
    if fare["expires_at"] <= iso_timestamp(now):
        raise Conflict(
            "fare_expired: The fare has expired for the requested product. Get estimates again, confirm the new fare "
            "and then re-request."
        )
    if fare["surge_multiplier"] > 1.0 and not fare["surge_confirmed"]:
        raise Conflict(
            f"surge: Surge pricing ({fare['surge_multiplier']}x) is in effect; the rider must accept it with "
            f"surge_confirmation_id {fare['surge_confirmation_id']} before the ride can be requested."
        )


def check_payment(method: dict[str, Any], row: dict[str, Any], profile: dict[str, Any], now: datetime) -> None:
    """Refuse a payment method that can't pay for this ride on this profile."""
    expiry = method["expiration"]
    if expiry and expiry < now.strftime("%Y-%m"):
        raise InvalidRequest(f"invalid_payment_method: The card {method['description']} has expired.")
    if method["type"] == "cash" and not row["cash_enabled"]:
        raise InvalidRequest(f"payment_method_not_allowed: {row['display_name']} does not take cash.")
    if method["type"] == "business_account" and profile["type"] != "business":
        raise InvalidRequest("payment_method_not_allowed: A business account pays only on a business profile.")


def check_policy(profile: dict[str, Any], row: dict[str, Any], expense_memo: str | None) -> None:
    """A business profile's ride policy: allowed products and a required expense memo."""
    if profile["type"] != "business":
        return
    allowed = profile["allowed_products"]
    if allowed is not None and row["product_group"] not in allowed:
        raise InvalidRequest(
            f"product_not_allowed: The ride policy of {profile['organization']} does not allow {row['display_name']}; "
            "select another product."
        )
    if profile["expense_memo_required"] and not expense_memo:
        raise InvalidRequest(f"validation_failed: {profile['organization']} requires an expense memo on every ride.")


def check_schedule(pickup: str, now: datetime) -> str:
    """A scheduled pickup time, 15 minutes to 30 days ahead, normalised to ISO."""
    moment = parse_timestamp(pickup, "scheduled_pickup_time")
    if not now + RESERVE_MIN_AHEAD <= moment <= now + RESERVE_MAX_AHEAD:
        raise InvalidRequest("scheduled_pickup_time must be 15 minutes to 30 days from now.")
    return iso_timestamp(moment)


def cancellation_fee(ride: dict[str, Any], row: dict[str, Any], now: datetime) -> int:
    """What cancelling now costs: free while a driver is still being found, within 2 minutes of a driver
    accepting, and for a scheduled ride 60 minutes or more before its pickup; otherwise the product's fee."""
    status = ride["status"]
    if status in TERMINAL:
        raise Conflict(f"Request {ride['request_id']} is already {status} and can't be canceled.")
    if status == "in_progress":
        raise Conflict("The trip is already in progress and can't be canceled; ask the driver to end it.")
    if status == "processing":
        return 0
    if status == "scheduled":
        pickup = parse_timestamp(ride["scheduled_pickup"], "scheduled_pickup")
        return 0 if pickup - now >= RESERVE_FREE_CANCEL else int(row["cancellation_fee"])
    accepted = parse_timestamp(ride["accepted_at"], "accepted_at")
    return 0 if now - accepted <= FREE_CANCEL_AFTER_ACCEPT else int(row["cancellation_fee"])


def completed(ride: dict[str, Any], action: str) -> None:
    """Refuse tipping or rating a ride that did not complete."""
    if ride["status"] != "completed":
        raise Conflict(f"Only completed trips can be {action}; this one is {ride['status']}.")


def within_tip_window(ride: dict[str, Any], now: datetime) -> None:
    """Tips are added within 30 days of the drop-off, once."""
    if ride["tip"]:
        raise Conflict("A tip was already added to this trip.")
    if now - parse_timestamp(ride["dropoff_at"], "dropoff_at") > TIP_WINDOW:
        raise Conflict("Tips can only be added within 30 days of the trip.")
