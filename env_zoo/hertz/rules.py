"""Hertz's rental rules shared by the tools: local time and opening hours, rental days, one-way routes, age and
licence checks, availability and pricing (rates, extras, young renter and additional driver fees, taxes and fees)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import parse_date, parse_timestamp

from .objects import ChargeLine
from .schema import extras, fleet, locations, one_way_routes, reservations, vehicle_classes

ACTIVE = ("confirmed", "on_rent")
GRACE_MINUTES = 29  # a rental day is 24 hours; the first 29 minutes past it are free
MAX_RENTAL_DAYS = 28
PAY_NOW_DISCOUNT_PCT = 15
YOUNG_RENTER_AGE = 25
ADDITIONAL_DRIVER_FEE = 1350  # cents per day
FEE_WAIVED_RELATIONSHIPS = ("spouse", "domestic_partner")
CHILD_SEATS = ("CSI", "CST", "BST")
MAX_CHILD_SEATS = 3
NOTICE = timedelta(hours=24)  # points redemptions; Pay Now changes; cancellation fee tiers
PAY_NOW_FEE_EARLY = 5000  # cancelling a Pay Now rental 24 hours or more before pickup
PAY_NOW_FEE_LATE = 10000  # cancelling within 24 hours of pickup
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


# ---------------------------------------------------------------- when


def parse_local(value: str, name: str) -> datetime:
    """A local 'YYYY-MM-DDTHH:MM' argument (its type checks the shape) as a naive datetime."""
    return parse_timestamp(value, name, "2025-07-03T10:00", naive_as_utc=True).replace(tzinfo=None)


def fmt(moment: datetime) -> str:
    """A naive local datetime as stored: 'YYYY-MM-DDTHH:MM'."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def local_now(db: Database, location: dict[str, Any]) -> datetime:
    """The location's wall-clock time (naive)."""
    sign = -1 if location["utc_offset"].startswith("-") else 1
    hours, minutes = location["utc_offset"][1:].split(":")
    offset = timedelta(hours=int(hours), minutes=int(minutes)) * sign
    return (db.now() + offset).replace(tzinfo=None)


def age_on(date_of_birth: str, day: date) -> int:
    """Completed years on `day`."""
    born = parse_date(date_of_birth, "date_of_birth")
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def percent(amount: int, pct: float) -> int:
    """`pct` percent of `amount` cents, rounded half up."""
    return (amount * round(pct * 100) + 5000) // 10000


# ---------------------------------------------------------------- the trip


@dataclass(frozen=True)
class Trip:
    """Where and when a rental starts and ends, checked against hours and one-way routes."""

    pickup_location: dict[str, Any]
    return_location: dict[str, Any]
    pickup: datetime
    ret: datetime
    days: int
    drop_fee: int


def check_open(location: dict[str, Any], moment: datetime, action: str) -> None:
    """Pickups happen during opening hours; returns too, unless the location takes after-hours returns."""
    if location["open_24_hours"] or (action == "return" and location["after_hours_return"]):
        return
    day = WEEKDAYS[moment.weekday()]
    hours = location["hours"][day]
    closing = " and has no after-hours return" if action == "return" else ""
    if hours == "closed":
        raise InvalidRequest(f"{location['location_id']} is closed on {moment.strftime('%A')}s{closing}.")
    opens, closes = hours.split("-")
    if not opens <= moment.strftime("%H:%M") <= closes:
        raise InvalidRequest(
            f"{location['location_id']} is open {hours} on {moment.strftime('%A')}s; a {action} at "
            f"{moment.strftime('%H:%M')} is outside its hours{closing}."
        )


def rental_days(pickup: datetime, ret: datetime) -> int:
    """24-hour rental days, with the 29-minute grace period."""
    if ret <= pickup:
        raise InvalidRequest("return_datetime must be after pickup_datetime.")
    minutes = (ret - pickup).total_seconds() / 60
    days = max(1, math.ceil((minutes - GRACE_MINUTES) / 1440))
    if days > MAX_RENTAL_DAYS:
        raise InvalidRequest(
            f"Rentals longer than {MAX_RENTAL_DAYS} days can't be booked online; ask about Hertz Multi-Month."
        )
    return days


def drop_fee(db: Database, pickup_location_id: str, return_location_id: str) -> int:
    """The one-way drop fee between two locations (0 for a round trip)."""
    if pickup_location_id == return_location_id:
        return 0
    route = db.find(one_way_routes, pickup_location_id=pickup_location_id, return_location_id=return_location_id)
    if not route:
        raise InvalidRequest(f"One-way rentals from {pickup_location_id} to {return_location_id} are not offered.")
    return route[0]["drop_fee"]


def plan_trip(
    db: Database, pickup_location_id: str, return_location_id: str | None, pickup_datetime: str, return_datetime: str
) -> Trip:
    """A checked trip: both locations exist, pickup is ahead, both ends fall in opening hours, the route exists."""
    pickup_location = db.get(locations, pickup_location_id, "Location")
    return_id = return_location_id or pickup_location_id
    return_location = db.get(locations, return_id, "Location")
    pickup = parse_local(pickup_datetime, "pickup_datetime")
    ret = parse_local(return_datetime, "return_datetime")
    if pickup <= local_now(db, pickup_location):
        raise InvalidRequest("pickup_datetime is in the past.")
    days = rental_days(pickup, ret)
    check_open(pickup_location, pickup, "pickup")
    check_open(return_location, ret, "return")
    return Trip(pickup_location, return_location, pickup, ret, days, drop_fee(db, pickup_location_id, return_id))


def hours_until_pickup(db: Database, row: dict[str, Any]) -> timedelta:
    """Time left before a reservation's pickup, in the pickup location's time."""
    location = db.get(locations, row["pickup_location_id"], "Location")
    return parse_local(row["pickup_datetime"], "pickup_datetime") - local_now(db, location)


# ---------------------------------------------------------------- cars and drivers


def offering(db: Database, trip: Trip, sipp_code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The car class and the pickup location's fleet row for it."""
    vehicle = db.get(vehicle_classes, sipp_code.upper(), "Vehicle class")
    rows = db.find(fleet, location_id=trip.pickup_location["location_id"], sipp_code=vehicle["sipp_code"])
    if not rows:
        raise InvalidRequest(
            f"{vehicle['name']} ({vehicle['sipp_code']}) is not offered at {trip.pickup_location['location_id']}."
        )
    return vehicle, rows[0]


def overlapping(
    db: Database, trip: Trip, where: str, params: Sequence[Any], exclude: str | None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Active reservations matching `where` whose dates overlap the trip, other than `exclude`."""
    return db.select(
        reservations,
        f"{where} AND status IN (?, ?) AND pickup_datetime < ? AND return_datetime > ? AND confirmation_number != ?",
        [*params, *ACTIVE, fmt(trip.ret), fmt(trip.pickup), exclude or ""],
        limit=limit,
    )


def booked_by_class(db: Database, trip: Trip) -> Counter[str]:
    """Active reservations per car class at the pickup location that overlap the trip."""
    rows = overlapping(db, trip, "pickup_location_id = ?", [trip.pickup_location["location_id"]], None)
    return Counter(row["sipp_code"] for row in rows)


def cars_left(db: Database, trip: Trip, fleet_row: dict[str, Any], exclude: str | None = None) -> int:
    """Cars of the class still free at the pickup location over the whole trip."""
    where, params = "pickup_location_id = ? AND sipp_code = ?", [fleet_row["location_id"], fleet_row["sipp_code"]]
    return fleet_row["units"] - len(overlapping(db, trip, where, params, exclude))


def minimum_age(trip: Trip, vehicle: dict[str, Any]) -> int:
    """The youngest a driver of this class may be at this location."""
    return max(trip.pickup_location["min_renter_age"], vehicle["min_age"] or 0)


def ineligibility(trip: Trip, vehicle: dict[str, Any], age: int) -> str | None:
    """Why a driver of `age` can't rent this class here, or None."""
    if age < trip.pickup_location["min_renter_age"]:
        return (
            f"Renters must be at least {trip.pickup_location['min_renter_age']} "
            f"at {trip.pickup_location['location_id']}."
        )
    if age < (vehicle["min_age"] or 0):
        return f"{vehicle['collection'] or vehicle['name']} vehicles require renters {vehicle['min_age']} or older."
    return None


def check_renter(member: dict[str, Any], trip: Trip, vehicle: dict[str, Any]) -> int:
    """The renter's age at pickup, once the age rules and the licence on file allow the rental."""
    age = age_on(member["date_of_birth"], trip.pickup.date())
    problem = ineligibility(trip, vehicle, age)
    if problem:
        raise PermissionDenied(problem)
    if member["license_expiration"] < trip.ret.date().isoformat():
        raise InvalidRequest(
            f"The driver's license on your profile expires {member['license_expiration']}, before the return date. "
            "Update your license details first."
        )
    return age


def check_additional_driver(driver: dict[str, Any], trip: Trip, vehicle: dict[str, Any]) -> None:
    """Additional drivers meet the same minimum age as the renter."""
    if age_on(driver["date_of_birth"], trip.pickup.date()) < minimum_age(trip, vehicle):
        raise PermissionDenied(f"Additional drivers must be at least {minimum_age(trip, vehicle)} for this rental.")


def extra_rows(db: Database, booked: list[dict[str, Any]], location_id: str) -> list[tuple[dict[str, Any], int]]:
    """The extras of a booking with their catalog rows, each offered at the pickup location."""
    rows = []
    for item in booked:
        extra = db.get(extras, item["code"].upper(), "Extra")
        if extra["available_at"] is not None and location_id not in extra["available_at"]:
            raise InvalidRequest(f"{extra['name']} ({extra['code']}) is not offered at {location_id}.")
        rows.append((extra, item["quantity"]))
    return rows


def check_no_overlap(db: Database, member: dict[str, Any], trip: Trip, exclude: str | None = None) -> None:
    """A member holds one car at a time: no two active reservations overlap."""
    found = overlapping(db, trip, "member_number = ?", [member["member_number"]], exclude, limit=1)
    if found:
        raise Conflict(f"You already have reservation {found[0]['confirmation_number']} for overlapping dates.")


# ---------------------------------------------------------------- prices


@dataclass(frozen=True)
class Charges:
    """A priced rental, in cents."""

    rate_per_day: int
    base_charge: int
    extra_lines: list[ChargeLine]
    extras_charge: int
    young_renter_charge: int
    additional_driver_charge: int
    drop_fee: int
    fee_lines: list[ChargeLine]
    taxes_and_fees: int
    estimated_total: int
    points_required: int


def pay_now_rate(daily_rate: int) -> int:
    """The prepaid rate: Pay Now saves 15% on the base rate."""
    return daily_rate - percent(daily_rate, PAY_NOW_DISCOUNT_PCT)


def price(
    trip: Trip,
    vehicle: dict[str, Any],
    fleet_row: dict[str, Any],
    payment_type: str,
    age: int,
    booked_extras: Sequence[tuple[dict[str, Any], int]] = (),
    drivers: Sequence[dict[str, Any]] = (),
) -> Charges:
    """Price a rental: base rate (none with points), extras (capped per rental), young renter fees for the renter
    and any additional driver under 25, additional driver fees (waived for a spouse or domestic partner), the
    drop fee, airport concession recovery, facility and licensing charges, then sales tax on all of it."""
    location, days = trip.pickup_location, trip.days
    rate = {"pay_later": fleet_row["daily_rate"], "pay_now": pay_now_rate(fleet_row["daily_rate"]), "points": 0}[
        payment_type
    ]
    base = rate * days
    extra_lines = []
    for extra, quantity in booked_extras:
        each = extra["price_per_day"] * days
        if extra["max_charge_per_rental"] is not None:
            each = min(each, extra["max_charge_per_rental"])
        extra_lines.append(
            ChargeLine(code=extra["code"], description=extra["name"], quantity=quantity, amount=each * quantity)
        )
    extras_charge = sum(line.amount for line in extra_lines)
    young_drivers = (age < YOUNG_RENTER_AGE) + sum(
        age_on(d["date_of_birth"], trip.pickup.date()) < YOUNG_RENTER_AGE for d in drivers
    )
    young = location["young_renter_fee_per_day"] * days * young_drivers
    additional = ADDITIONAL_DRIVER_FEE * days * sum(not d["fee_waived"] for d in drivers)
    rental = base + extras_charge + young + additional
    fee_lines = []
    if location["concession_fee_pct"]:
        fee_lines.append(
            ChargeLine(
                code="CFR",
                description=f"Concession fee recovery {location['concession_fee_pct']}%",
                amount=percent(rental, location["concession_fee_pct"]),
            )
        )
    if location["facility_charge_per_day"]:
        fee_lines.append(
            ChargeLine(
                code="CFC",
                description="Customer facility charge",
                quantity=days,
                amount=location["facility_charge_per_day"] * days,
            )
        )
    fee_lines.append(
        ChargeLine(
            code="VLF",
            description="Vehicle licensing cost recovery",
            quantity=days,
            amount=location["vehicle_license_fee_per_day"] * days,
        )
    )
    taxable = rental + trip.drop_fee + sum(line.amount for line in fee_lines)
    fee_lines.append(
        ChargeLine(
            code="TAX",
            description=f"Sales tax {location['sales_tax_pct']}%",
            amount=percent(taxable, location["sales_tax_pct"]),
        )
    )
    taxes = sum(line.amount for line in fee_lines)
    return Charges(
        rate_per_day=rate,
        base_charge=base,
        extra_lines=extra_lines,
        extras_charge=extras_charge,
        young_renter_charge=young,
        additional_driver_charge=additional,
        drop_fee=trip.drop_fee,
        fee_lines=fee_lines,
        taxes_and_fees=taxes,
        estimated_total=rental + trip.drop_fee + taxes,
        points_required=vehicle["points_per_day"] * days if payment_type == "points" else 0,
    )


def charge_columns(charges: Charges, trip: Trip, payment_type: str, age: int) -> dict[str, Any]:
    """A priced rental as the reservation's stored columns."""
    return {
        "pickup_location_id": trip.pickup_location["location_id"],
        "pickup_datetime": fmt(trip.pickup),
        "return_location_id": trip.return_location["location_id"],
        "return_datetime": fmt(trip.ret),
        "driver_age": age,
        "rental_days": trip.days,
        "rate_per_day": charges.rate_per_day,
        "base_charge": charges.base_charge,
        "extras_charge": charges.extras_charge,
        "young_renter_charge": charges.young_renter_charge,
        "additional_driver_charge": charges.additional_driver_charge,
        "drop_fee": charges.drop_fee,
        "taxes_and_fees": charges.taxes_and_fees,
        "estimated_total": charges.estimated_total,
        "prepaid_amount": charges.estimated_total if payment_type == "pay_now" else 0,
        "points_redeemed": charges.points_required,
    }


# ---------------------------------------------------------------- a booking as a whole


@dataclass(frozen=True)
class Booking:
    """A fully checked booking: the trip, the class, the renter's age and the price."""

    trip: Trip
    vehicle: dict[str, Any]
    age: int
    charges: Charges

    def columns(self, payment_type: str) -> dict[str, Any]:
        """The reservation columns this booking sets."""
        return {
            "sipp_code": self.vehicle["sipp_code"],
            **charge_columns(self.charges, self.trip, payment_type, self.age),
        }


def check_booking(
    db: Database,
    member: dict[str, Any],
    trip: Trip,
    sipp_code: str,
    payment_type: str,
    booked_extras: list[dict[str, Any]],
    drivers: list[dict[str, Any]],
    exclude: str | None = None,
    redeeming: bool = False,
) -> Booking:
    """Every rule a new or changed reservation must meet, then its price. `exclude`: the reservation being changed
    (it does not compete with itself for a car or overlap itself); `redeeming`: points are being redeemed for this
    trip now (a new reward booking, or a reward's trip being changed)."""
    vehicle, fleet_row = offering(db, trip, sipp_code)
    age = check_renter(member, trip, vehicle)
    for driver in drivers:
        check_additional_driver(driver, trip, vehicle)
    rows = extra_rows(db, booked_extras, trip.pickup_location["location_id"])
    if redeeming and trip.pickup - local_now(db, trip.pickup_location) < NOTICE:
        raise InvalidRequest("Gold Plus Rewards points must be redeemed at least 24 hours before pickup.")
    check_no_overlap(db, member, trip, exclude)
    if cars_left(db, trip, fleet_row, exclude) <= 0:
        raise Conflict(
            f"{vehicle['name']} ({vehicle['sipp_code']}) is sold out at "
            f"{trip.pickup_location['location_id']} for those dates."
        )
    return Booking(trip, vehicle, age, price(trip, vehicle, fleet_row, payment_type, age, rows, drivers))


def changeable(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A reservation that can still be changed: confirmed and before its pickup time."""
    if row["status"] != "confirmed":
        raise Conflict(f"Reservation {row['confirmation_number']} is {row['status']} and can't be changed.")
    if hours_until_pickup(db, row) <= timedelta(0):
        raise Conflict(f"The pickup time of reservation {row['confirmation_number']} has passed.")
    return row
