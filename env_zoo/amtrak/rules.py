"""Amtrak's booking rules: the timetable in local time, fares and passenger discounts, seat inventory per leg, and
the refund and change terms of each fare (the 24-hour rule, Saver, Value, Flex, no-shows, trains Amtrak cancels)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import parse_date, parse_timestamp

from .schema import departures, fare_plans, routes, stations, train_stops, trains

FARE_FAMILY = {
    "SAVER": "saver",
    "VALUE": "value",
    "BUSINESS": "value",
    "ROOMETTE": "value",
    "BEDROOM": "value",
    "FLEX": "flex",
    "FIRST": "flex",
}
SLEEPERS = {"roomette", "bedroom"}
SEATED_TYPES = {"adult", "senior", "military", "child"}  # infants under 2 ride on a lap
ADULT_TYPES = {"adult", "senior", "military"}
DISCOUNT_PCT = {"adult": 0, "senior": 10, "military": 10, "child": 50, "infant": 100}
TIER_BONUS_PCT = {"Member": 100, "Select": 125, "Select Plus": 150, "Select Executive": 200}
POINTS_PER_DOLLAR = 2
POINT_VALUE_TENTHS_OF_CENT = 29  # a redeemed point is worth 2.9 cents
FREE_CANCEL_DAYS = 15  # Value-type fares: no fee 15 days or more before departure
CANCEL_FEE_PCT = 25
CHANGE_FEE_PCT = 15
GRACE = timedelta(hours=24)
BOARDING_OPENS = timedelta(minutes=30)
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


# ---------------------------------------------------------------- timetable


def station(db: Database, code: str) -> dict[str, Any]:
    """A station by its code (case-insensitive)."""
    return db.get(stations, code.strip().upper(), "Station")


def station_code(db: Database, code: str) -> str:
    """The code of an existing station, upper-case."""
    return station(db, code)["code"]


def stops_of(db: Database, train_number: str) -> list[dict[str, Any]]:
    """A train's stops in order."""
    return db.find(train_stops, train_number=train_number, order_by=[train_stops.c.stop_sequence])


def leg_range(stops: list[dict[str, Any]], train: dict[str, Any], origin: str, destination: str) -> tuple[int, int]:
    """Indexes of the boarding and the leaving stop; the legs used are i .. j - 1."""
    codes = [s["station_code"] for s in stops]
    if origin not in codes[:-1] or destination not in codes[1:] or codes.index(origin) >= codes.index(destination):
        raise InvalidRequest(f"Train {train['train_number']} does not run from {origin} to {destination}.")
    return codes.index(origin), codes.index(destination)


def local_time(db: Database, stop: dict[str, Any], service_date: str, which: str) -> datetime:
    """When a train is at a stop ('departure' or 'arrival'), in the station's own time zone."""
    clock = stop[f"{which}_time"] or stop["arrival_time" if which == "departure" else "departure_time"]
    day = date.fromisoformat(service_date) + timedelta(days=stop["day_offset"])
    hour, minute = (int(x) for x in clock.split(":"))
    zone = ZoneInfo(db.get(stations, stop["station_code"], "Station")["timezone"])
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone)


def segment_times(db: Database, segment: dict[str, Any]) -> tuple[datetime, datetime]:
    """When a segment leaves its origin and reaches its destination, in local time."""
    stops = {s["station_code"]: s for s in stops_of(db, segment["train_number"])}
    return (
        local_time(db, stops[segment["origin"]], segment["service_date"], "departure"),
        local_time(db, stops[segment["destination"]], segment["service_date"], "arrival"),
    )


def departure_on(
    db: Database, train_number: str, travel_date: str, origin: str
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], int]:
    """The departure a passenger boarding `train_number` at `origin` on `travel_date` rides, with the train's stops
    and the boarding stop index (an overnight train boarded after midnight left its origin the day before)."""
    parse_date(travel_date, "travel_date")  # the type checks the shape, this the calendar (no June 31)
    train = db.get(trains, train_number.strip(), "Train")
    stops = stops_of(db, train["train_number"])
    codes = [s["station_code"] for s in stops]
    if origin not in codes:
        raise InvalidRequest(f"Train {train['train_number']} does not stop at {origin}.")
    offset = stops[codes.index(origin)]["day_offset"]
    service_date = (date.fromisoformat(travel_date) - timedelta(days=offset)).isoformat()
    found = db.find(departures, train_number=train["train_number"], service_date=service_date)
    if not found:
        weekday = WEEKDAYS[date.fromisoformat(service_date).weekday()]
        if weekday not in train["days_of_operation"]:
            raise NotFound(f"Train {train['train_number']} does not run on {weekday}, {service_date}")
        raise NotFound(f"Train {train['train_number']} on {travel_date} is not open for booking")
    return found[0], stops, train, codes.index(origin)


def now_in(db: Database, zone: str) -> datetime:
    """The simulated clock in a time zone."""
    return db.now().astimezone(ZoneInfo(zone))


# ---------------------------------------------------------------- contact details


def us_phone(value: str) -> str:
    """A US phone number (its type lets only 10 digits, or 11 with a leading 1, through) as 212-555-0142."""
    digits = re.sub(r"\D", "", value)[-10:]
    return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"


# ---------------------------------------------------------------- fares


def fare_plan(db: Database, route_id: str, fare_code: str) -> dict[str, Any]:
    """A route's fare plan for one fare code; lists the offered codes when it has none."""
    found = db.find(fare_plans, route_id=route_id, fare_code=fare_code)
    if not found:
        offered = ", ".join(p["fare_code"] for p in db.find(fare_plans, route_id=route_id))
        name = db.get(routes, route_id, "Route")["route_name"]
        raise InvalidRequest(f"{fare_code} is not sold on {name} trains (fares: {offered}).")
    return found[0]


def adult_fare(plan: dict[str, Any], miles: float, demand_pct: int) -> int:
    """One adult's fare in cents: the plan's base plus its rate per mile, at the day's price level, in whole dollars."""
    dollars = (plan["base_cents"] + plan["per_mile_cents"] * miles) * demand_pct / 100 / 100
    return math.floor(dollars + 0.5) * 100


def passenger_fare(adult_cents: int, passenger_type: str, fare_code: str) -> int:
    """A passenger's rail fare: passenger-type discounts are not valid with Saver fares (infants always ride free)."""
    if passenger_type == "infant":
        return 0
    if fare_code == "SAVER":
        return adult_cents
    return adult_cents * (100 - DISCOUNT_PCT[passenger_type]) // 100


def rooms_for(seated: int) -> int:
    """Sleeper rooms a party needs: a Roomette or a Bedroom sleeps two."""
    return (seated + 1) // 2


@dataclass(frozen=True)
class SegmentPrice:
    """What one segment costs a party."""

    class_of_service: str
    passenger_fares: dict[str, int]
    accommodation_cents: int
    rooms: int
    seats: int  # seats (rooms for sleepers) taken on every leg

    @property
    def total(self) -> int:
        """Rail fares plus room charges."""
        return sum(self.passenger_fares.values()) + self.accommodation_cents


def price_segment(
    db: Database,
    departure: dict[str, Any],
    train: dict[str, Any],
    stops: list[dict[str, Any]],
    i: int,
    j: int,
    fare_code: str,
    party: dict[str, str],
) -> SegmentPrice:
    """Price a segment for a party {passenger_id: passenger_type}; sleepers add a room charge per room to the
    Value coach fare of each traveller."""
    plan = fare_plan(db, train["route_id"], fare_code)
    cls = plan["class_of_service"]
    if cls not in train["capacity"]:
        raise InvalidRequest(f"Train {train['train_number']} has no {cls} class.")
    miles = stops[j]["miles"] - stops[i]["miles"]
    seated = sum(1 for t in party.values() if t in SEATED_TYPES)
    if cls in SLEEPERS:
        rail = adult_fare(fare_plan(db, train["route_id"], "VALUE"), miles, departure["demand_pct"])
        rooms = rooms_for(seated)
        room_charge = adult_fare(plan, miles, departure["demand_pct"]) * rooms
        fares = {pid: passenger_fare(rail, t, "VALUE") for pid, t in party.items()}
        return SegmentPrice(cls, fares, room_charge, rooms, rooms)
    adult = adult_fare(plan, miles, departure["demand_pct"])
    fares = {pid: passenger_fare(adult, t, fare_code) for pid, t in party.items()}
    return SegmentPrice(cls, fares, 0, 0, seated)


def points_for(cents: int) -> int:
    """Guest Rewards points that pay for an amount."""
    return math.ceil(cents * 10 / POINT_VALUE_TENTHS_OF_CENT)


def points_earned(cents: int, tier: str) -> int:
    """Points a member earns for travel: 2 per dollar, plus the tier bonus."""
    return cents // 100 * POINTS_PER_DOLLAR * TIER_BONUS_PCT[tier] // 100


# ---------------------------------------------------------------- seat inventory


def seats_left(departure: dict[str, Any], cls: str, i: int, j: int) -> int:
    """Seats (rooms) free on every leg from stop i to stop j."""
    legs = departure["seats_available"].get(cls)
    return min(legs[i:j]) if legs else 0


def take_seats(
    db: Database, departure: dict[str, Any], cls: str, i: int, j: int, count: int, saver: bool, where: str
) -> dict[str, Any]:
    """Hold `count` seats on legs i .. j - 1 (and Saver inventory for Saver fares); Conflict when sold out."""
    left = seats_left(departure, cls, i, j)
    if left < count:
        unit = "rooms" if cls in SLEEPERS else "seats"
        raise Conflict(
            f"Sold out: {left} {cls} {unit} left on train {departure['train_number']} {where} on "
            f"{departure['service_date']}."
        )
    if saver and departure["saver_seats"] < count:
        raise Conflict(
            f"Saver fares are sold out on train {departure['train_number']} on "
            f"{departure['service_date']} ({departure['saver_seats']} left)."
        )
    return _move_seats(db, departure, cls, i, j, -count, -count if saver else 0)


def release_seats(db: Database, departure_id: str, cls: str, i: int, j: int, count: int, saver: bool) -> dict[str, Any]:
    """Give seats held on legs i .. j - 1 back to sale."""
    departure = db.get(departures, departure_id, "Departure")
    return _move_seats(db, departure, cls, i, j, count, count if saver else 0)


def _move_seats(
    db: Database, departure: dict[str, Any], cls: str, i: int, j: int, delta: int, saver_delta: int
) -> dict[str, Any]:
    inventory = {k: list(v) for k, v in departure["seats_available"].items()}
    inventory[cls] = [n + delta if i <= leg < j else n for leg, n in enumerate(inventory[cls])]
    return db.update(
        departures,
        departure["departure_id"],
        seats_available=inventory,
        saver_seats=departure["saver_seats"] + saver_delta,
    )


# ---------------------------------------------------------------- refund and change terms


@dataclass(frozen=True)
class Terms:
    """What cancelling (part of) a segment gives back under its fare's rules."""

    fee_cents: int
    refundable_cents: int
    forfeited_cents: int
    refund_methods: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class Timing:
    """Where a segment stands in time: departed, booked within 24 hours, days left, cancelled by Amtrak."""

    departs_at: datetime
    departed: bool
    in_grace: bool
    days_before: int
    amtrak_cancelled: bool


def timing(db: Database, reservation: dict[str, Any], segment: dict[str, Any]) -> Timing:
    """The segment's timing at the simulated now."""
    departs, _ = segment_times(db, segment)
    now = db.now()
    booked = parse_timestamp(reservation["booked_at"], "booked_at")
    departure = db.get(departures, segment["departure_id"], "Departure")
    return Timing(
        departs_at=departs,
        departed=now >= departs,
        in_grace=now - booked < GRACE,
        days_before=(departs.date() - now.astimezone(departs.tzinfo).date()).days,
        amtrak_cancelled=departure["status"] == "CANCELLED",
    )


def check_open(segment: dict[str, Any], when: Timing, action: str) -> None:
    """A segment can be changed or cancelled only while confirmed and before its train leaves."""
    if segment["status"] != "CONFIRMED":
        raise Conflict(f"Segment {segment['segment_id']} is {segment['status'].lower()} and can't be {action}.")
    if when.departed and not when.amtrak_cancelled:
        raise Conflict(
            f"Train {segment['train_number']} left {segment['origin']} at "
            f"{when.departs_at:%Y-%m-%d %H:%M}; unused travel is forfeited after departure (no-show)."
        )


def cancellation_terms(segment: dict[str, Any], when: Timing, amount: int, award: bool) -> Terms:
    """Refund terms for `amount` cents of a segment: full refunds for trains Amtrak cancelled, within 24 hours of
    booking, for Flex and First fares, and for Value-type fares 15+ days out; otherwise a 25% fee with the rest as
    an eVoucher (Value, Business, sleepers) or nothing back (Saver). Award bookings get points back."""
    both = ("original_payment",) if award else ("original_payment", "evoucher")
    family = FARE_FAMILY[segment["fare_code"]]
    if when.amtrak_cancelled:
        return Terms(0, amount, 0, both, "Amtrak cancelled this train: full refund")
    if when.in_grace:
        return Terms(0, amount, 0, both, "Cancelled within 24 hours of booking: full refund")
    if family == "flex":
        return Terms(0, amount, 0, both, f"{segment['fare_code'].title()} fares are fully refundable")
    if family == "value" and when.days_before >= FREE_CANCEL_DAYS:
        return Terms(0, amount, 0, both, "15 or more days before departure: full refund")
    if family == "value":
        fee = amount * CANCEL_FEE_PCT // 100
        methods = ("original_payment",) if award else ("evoucher",)
        return Terms(fee, amount - fee, 0, methods, "Within 14 days of departure: 25% fee, the rest as an eVoucher")
    return Terms(0, 0, amount, (), "Saver fares are non-refundable 24 hours after booking")


def change_fee(segment: dict[str, Any], when: Timing, tier: str) -> int:
    """Fee for changing a segment: Saver fares can't be changed after 24 hours; Value-type fares pay 15% within 14
    days of departure (waived for Select Executive members, within 24 hours and when Amtrak cancelled the train)."""
    family = FARE_FAMILY[segment["fare_code"]]
    if when.in_grace or when.amtrak_cancelled:
        return 0
    if family == "saver":
        raise PermissionDenied(
            f"Segment {segment['segment_id']} is a Saver fare: Saver fares can't be changed or "
            "upgraded 24 hours or more after booking (cancel it instead; it is non-refundable)."
        )
    if family == "value" and when.days_before < FREE_CANCEL_DAYS and tier != "Select Executive":
        amount = sum(segment["passenger_fares"].values()) + segment["accommodation_cents"]
        return amount * CHANGE_FEE_PCT // 100
    return 0


class FareRule(NamedTuple):
    """The published terms of one fare."""

    refunds: str
    changes: str
    discounts: bool


VALUE_REFUNDS = (
    "Full refund to the card or an eVoucher 15 or more days before departure; within 14 days a 25% fee "
    "and the rest as an eVoucher."
)
VALUE_CHANGES = (
    "Free 15 or more days before departure; within 14 days a 15% change fee (waived for Select "
    "Executive). Residual value goes to an eVoucher."
)
FLEX_REFUNDS = "Fully refundable to the card or an eVoucher until departure."
FLEX_CHANGES = "Free changes until departure; residual value refunded to the card."
FARE_RULES = {
    "SAVER": FareRule(
        refunds="Refundable only within 24 hours of booking; non-refundable afterwards (nothing back, no eVoucher).",
        changes="No changes or upgrades 24 hours or more after booking.",
        discounts=False,
    ),
    "VALUE": FareRule(refunds=VALUE_REFUNDS, changes=VALUE_CHANGES, discounts=True),
    "FLEX": FareRule(refunds=FLEX_REFUNDS, changes=FLEX_CHANGES, discounts=True),
    "BUSINESS": FareRule(refunds=f"As Value. {VALUE_REFUNDS}", changes=f"As Value. {VALUE_CHANGES}", discounts=True),
    "FIRST": FareRule(refunds=FLEX_REFUNDS, changes=FLEX_CHANGES, discounts=True),
    "ROOMETTE": FareRule(
        refunds=f"Room charge and rail fare as Value. {VALUE_REFUNDS}",
        changes=f"As Value; a room sleeps two. {VALUE_CHANGES}",
        discounts=True,
    ),
    "BEDROOM": FareRule(
        refunds=f"Room charge and rail fare as Value. {VALUE_REFUNDS}",
        changes=f"As Value; a room sleeps two. {VALUE_CHANGES}",
        discounts=True,
    ),
}
"""Every fare is also fully refundable within 24 hours of booking and when Amtrak cancels the train, and forfeited
once the train leaves (no-show)."""
