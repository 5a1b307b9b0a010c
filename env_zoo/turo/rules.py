"""Turo's trip rules, read from the simulated clock in the vehicle's local time: trip length in 24-hour days, the
listing's advance notice and minimum and maximum trip length, availability (blocked dates, overlapping trips),
age limits by vehicle class, pricing (daily price x days less the 3+, 7+ or 30+ day discount, a trip fee, the
protection plan's share, Extras, a young driver fee), request and change-request expiry (8 hours, or the trip's
start), the free cancellation period and the guest's and host's cancellation fees, and the host's reimbursement
windows and fixed fees."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import parse_date

from .schema import blocked_dates, extras, protection_plans, trips, vehicles

TIME_FORMAT = "%Y-%m-%dT%H:%M"
DAY = timedelta(hours=24)
TRIP_FEE_PERCENT = 15
YOUNG_DRIVER_FEE = 3000  # cents a day for guests under 25
REQUEST_WINDOW = timedelta(hours=8)
FREE_CANCEL_BEFORE = timedelta(hours=24)
LATE_BOOKING_GRACE = timedelta(hours=1)
EARLY_CHECK_IN = timedelta(hours=1)
INVOICE_RESPONSE = timedelta(hours=48)
INCIDENTAL_WINDOW = timedelta(hours=24)
TOLLS_WINDOW = timedelta(days=90)
FUEL_CONVENIENCE_FEE = 1000
SMOKING_FEE = 15000
LATE_RETURN_FEE = 2000
LATE_RETURN_AFTER = timedelta(hours=2)
HOST_CANCEL_FEE_EARLY = 2500
HOST_CANCEL_FEE_LATE = 5000
EXTERIOR = ("front", "rear", "driver_side", "passenger_side")
LIVE = ("pending", "booked", "in_progress")
CLASS_MIN_AGE = {"economy": 21, "standard": 21, "deluxe": 25, "super_deluxe": 30}


def moment(value: str, name: str) -> datetime:
    """A trip time argument, `YYYY-MM-DDTHH:MM` in the vehicle's local time."""
    try:
        return datetime.strptime(value.strip(), TIME_FORMAT)
    except ValueError:
        raise InvalidRequest(f"{name} must be a date and time like 2026-06-12T10:00.") from None


def text_of(when: datetime) -> str:
    """A trip time as stored."""
    return when.strftime(TIME_FORMAT)


def now(db: Database) -> datetime:
    """The simulated clock as local wall time."""
    return db.now().replace(tzinfo=None, second=0, microsecond=0)


def days_between(start: datetime, end: datetime) -> int:
    """Trip length in days: each started 24 hours counts as a day."""
    return math.ceil((end - start) / DAY)


def vehicle(db: Database, vehicle_id: str) -> dict[str, Any]:
    """A vehicle listing by id."""
    return db.find_one(vehicles, not_found=f"Vehicle {vehicle_id} not found.", id=vehicle_id.strip())


def plan(db: Database, plan_id: str) -> dict[str, Any]:
    """A protection plan."""
    return db.get(protection_plans, plan_id, "Protection plan")


def check_span(db: Database, car: dict[str, Any], start: datetime, end: datetime, new_start: bool = True) -> int:
    """Refuse a start in the past or inside the listing's advance notice, an end not after the start, or a length
    outside the listing's minimum and maximum; returns the trip's days."""
    if end <= start:
        raise InvalidRequest("Trip end must be after trip start.")
    if new_start:
        if start <= now(db):
            raise InvalidRequest("Trip start must be in the future.")
        if start < now(db) + timedelta(hours=car["advance_notice_hours"]):
            raise InvalidRequest(
                f"This host requires {car['advance_notice_hours']} hours' notice before a trip starts."
            )
    days = days_between(start, end)
    if days < car["min_trip_days"]:
        raise InvalidRequest(f"This car has a {car['min_trip_days']}-day minimum trip length.")
    if days > car["max_trip_days"]:
        raise InvalidRequest(f"This car has a {car['max_trip_days']}-day maximum trip length.")
    return days


def request_expiry(requested: datetime, deadline: datetime) -> datetime:
    """A trip or change request expires 8 hours after it is sent, or at the time it concerns if that is sooner."""
    return min(requested + REQUEST_WINDOW, deadline)


def live_status(db: Database, trip: dict[str, Any]) -> str:
    """A trip's status on the clock: a pending request the host didn't answer in time has expired."""
    status = str(trip["status"])
    if status == "pending":
        expires = request_expiry(moment(trip["requested_at"], "requested_at"), moment(trip["start_at"], "start_at"))
        if now(db) >= expires:
            return "expired"
    return status


def conflict_on(
    db: Database, car: dict[str, Any], start: datetime, end: datetime, skip: str | None = None
) -> str | None:
    """Why the car can't be booked for the span (snoozed, a blocked date, another trip), or None."""
    if car["status"] != "listed":
        return "The host has snoozed this listing."
    first, last = start.date().isoformat(), end.date().isoformat()
    closed = db.select(blocked_dates, "vehicle_id = ? AND date BETWEEN ? AND ?", (car["id"], first, last))
    if closed:
        return f"The host has blocked {closed[0]['date']}."
    others = db.select(
        trips,
        "vehicle_id = ? AND status IN ('pending', 'booked', 'in_progress') AND start_at < ? AND end_at > ?",
        (car["id"], text_of(end), text_of(start)),
    )
    for other in others:
        if other["id"] != skip and live_status(db, other) in LIVE:
            return "The car is already booked for part of these times."
    return None


def check_available(db: Database, car: dict[str, Any], start: datetime, end: datetime, skip: str | None = None) -> None:
    """Refuse a span the car can't take."""
    reason = conflict_on(db, car, start, end, skip)
    if reason is not None:
        raise Conflict(f"This car is unavailable for those times. {reason}")


def age_on(account: dict[str, Any], on: date) -> int:
    """The account holder's age in whole years on a date."""
    born = parse_date(account["birth_date"], "birth_date")
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def check_driver(account: dict[str, Any], car: dict[str, Any], start: datetime) -> None:
    """Refuse a guest not approved to drive, or too young for the vehicle's class."""
    if not account["approved_to_drive"]:
        raise InvalidRequest("You need to be approved to drive before you can book a trip.")
    need = CLASS_MIN_AGE[car["vehicle_class"]]
    if age_on(account, start.date()) < need:
        label = car["vehicle_class"].replace("_", " ")
        raise InvalidRequest(f"You must be at least {need} to book a {label} vehicle.")


def chosen_extras(db: Database, car: dict[str, Any], wanted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Extras a guest picked, checked against the listing's Extras and their quantity limits."""
    offered = {row["id"]: row for row in db.find(extras, vehicle_id=car["id"])}
    picked: list[dict[str, Any]] = []
    seen: set[str] = set()
    for item in wanted:
        extra_id = item["extra_id"].strip()
        if extra_id not in offered:
            raise NotFound(f"Extra {extra_id} isn't offered with this car.")
        if extra_id in seen:
            raise InvalidRequest(f"Extra {extra_id} is listed twice.")
        seen.add(extra_id)
        row = offered[extra_id]
        if item["quantity"] > row["max_quantity"]:
            raise InvalidRequest(f"{row['name']} is limited to {row['max_quantity']} per trip.")
        picked.append({"extra_id": extra_id, "quantity": item["quantity"]})
    return picked


def discount_percent(car: dict[str, Any], days: int) -> int:
    """The listing's duration discount for a trip length."""
    if days >= 30:
        return int(car["discount_30_day"])
    if days >= 7:
        return int(car["discount_7_day"])
    if days >= 3:
        return int(car["discount_3_day"])
    return 0


def price(
    db: Database,
    car: dict[str, Any],
    daily_price: int,
    days: int,
    plan_id: str,
    picked: list[dict[str, Any]],
    driver: dict[str, Any],
    start: datetime,
) -> dict[str, Any]:
    """A trip's price: daily price x days, less the duration discount; a 15% trip fee and the protection plan's
    share of the discounted trip price; Extras per day or per trip; $30 a day for a guest under 25."""
    trip_price = daily_price * days
    discount = trip_price * discount_percent(car, days) // 100
    net = trip_price - discount
    trip_fee = net * TRIP_FEE_PERCENT // 100
    protection = net * plan(db, plan_id)["percent_of_trip_price"] // 100
    offered = {row["id"]: row for row in db.find(extras, vehicle_id=car["id"])}
    extras_cost = sum(
        offered[p["extra_id"]]["price"] * p["quantity"] * (days if offered[p["extra_id"]]["per"] == "day" else 1)
        for p in picked
    )
    young = YOUNG_DRIVER_FEE * days if age_on(driver, start.date()) < 25 else 0
    allowed = car["distance_per_day"] * days if car["distance_per_day"] is not None else None
    return {
        "days": days,
        "daily_price": daily_price,
        "trip_price": trip_price,
        "discount": discount,
        "trip_fee": trip_fee,
        "protection_cost": protection,
        "extras_cost": extras_cost,
        "young_driver_fee": young,
        "total": net + trip_fee + protection + extras_cost + young,
        "distance_allowed": allowed,
    }


def free_cancel_until(trip: dict[str, Any]) -> datetime:
    """The end of the free cancellation period: 24 hours before the start, or one hour after booking for a trip
    booked within 24 hours of its start. A trip change never resets it."""
    start = moment(trip["start_at"], "start_at")
    booked = moment(trip["booked_at"] or trip["requested_at"], "booked_at")
    if start - booked >= FREE_CANCEL_BEFORE + LATE_BOOKING_GRACE:
        return start - FREE_CANCEL_BEFORE
    return min(booked + LATE_BOOKING_GRACE, start)


def guest_cancellation(db: Database, trip: dict[str, Any]) -> dict[str, Any]:
    """What a guest's cancellation costs now: nothing for a request or inside the free period; otherwise one
    day's average trip cost (trip price after discount plus trip fee, over the days) for a trip longer than two
    days, half of that for two days or fewer. Protection, Extras and the young driver fee always come back."""
    status = live_status(db, trip)
    if status == "pending" or now(db) < free_cancel_until(trip):
        fee = 0
    else:
        per_day = (trip["trip_price"] - trip["discount"] + trip["trip_fee"]) // trip["days"]
        fee = per_day if trip["days"] > 2 else per_day // 2
    paid = 0 if status == "pending" else trip["total"]
    return {"fee": fee, "refund": paid - fee, "paid": paid, "free": fee == 0}


def host_cancellation_penalty(db: Database, trip: dict[str, Any]) -> int:
    """The host's fee for canceling a booked trip: $50 within 24 hours of the start, $25 before that; none for
    declining a request."""
    if live_status(db, trip) == "pending":
        return 0
    start = moment(trip["start_at"], "start_at")
    return HOST_CANCEL_FEE_LATE if start - now(db) < FREE_CANCEL_BEFORE else HOST_CANCEL_FEE_EARLY


def check_cancellable(db: Database, trip: dict[str, Any]) -> str:
    """The live status of a trip that can still be canceled (requests and booked trips before they start)."""
    status = live_status(db, trip)
    if status == "in_progress":
        raise Conflict("This trip is in progress and can't be canceled. Request a change to end it early.")
    if status not in ("pending", "booked"):
        raise Conflict(f"This trip is {status} and can't be canceled.")
    if status == "booked" and moment(trip["start_at"], "start_at") <= now(db):
        raise Conflict("This trip has already started and can't be canceled.")
    return status
