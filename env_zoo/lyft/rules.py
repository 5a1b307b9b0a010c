"""Lyft's ride rules: where a point is served (the nearest zone of a region, within 15 miles), trip distance and
time, the fare from a ride type's rate card with Prime Time on top, confirmation tokens for Prime Time and for a
cancellation fee, who may cancel free (before a driver is matched, within 2 minutes of the match, when the driver
runs 5+ minutes late, or more than an hour before a scheduled pickup), scheduling windows, tips and lost-item
returns. Everything reads the simulated clock."""

from __future__ import annotations

import hashlib
import math
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import ride_types, rides, zones

SERVICE_RADIUS_MILES = 15.0
ROAD_FACTOR = 1.3
AVERAGE_MPH = 24.0
FREE_CANCEL_AFTER_MATCH = timedelta(minutes=2)
LATE_DRIVER = timedelta(minutes=5)
SCHEDULED_FREE_CANCEL = timedelta(hours=1)
SCHEDULE_MIN_AHEAD = timedelta(hours=1)
SCHEDULE_MAX_AHEAD = timedelta(days=7)
TIP_WINDOW = timedelta(hours=72)
MAX_TIP = 10000  # cents
MAX_TIP_SHARE = 2  # a tip may be at most twice the ride's fare
LOST_ITEM_WINDOW = timedelta(days=30)
RETURN_FEE = 2000  # cents, paid to the driver who brings the item back
ACTIVE = ("pending", "accepted", "arrived", "pickedUp")


def miles_between(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle miles between two points."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(h))


def zone_at(db: Database, lat: float, lng: float) -> dict[str, Any]:
    """The service zone whose centre is nearest a point; refuses points outside every region."""
    best = min(db.find(zones), key=lambda zone: miles_between(lat, lng, zone["lat"], zone["lng"]))
    if miles_between(lat, lng, best["lat"], best["lng"]) > SERVICE_RADIUS_MILES:
        raise InvalidRequest(f"no_service_in_area: Lyft does not serve the location ({lat}, {lng}).")
    return best


def trip(start: tuple[float, float], end: tuple[float, float]) -> tuple[float, int]:
    """Road miles (one decimal) and seconds of a trip between two points."""
    miles = round(miles_between(*start, *end) * ROAD_FACTOR, 1)
    seconds = int(round(miles / AVERAGE_MPH * 3600 + 180))
    return miles, seconds


def ride_type(db: Database, region: str, name: str) -> dict[str, Any]:
    """A ride type as a region offers it."""
    found = db.find(ride_types, region=region, ride_type=name)
    if not found:
        raise InvalidRequest(f"ride_type_unavailable: {name} is not offered in this area.")
    return found[0]


def fare(kind: dict[str, Any], miles: float, seconds: int, primetime: int) -> list[dict[str, Any]]:
    """The fare's line items: the rate card's fare (at least its minimum), Prime Time on top, the service fee."""
    base = kind["base_charge"] + round(kind["cost_per_mile"] * miles) + round(kind["cost_per_minute"] * seconds / 60)
    base = max(base, kind["cost_minimum"])
    lines = [{"type": "Ride fare", "amount": base}]
    if primetime:
        lines.append({"type": f"Prime Time ({primetime}%)", "amount": base * primetime // 100})
    lines.append({"type": "Service fee", "amount": kind["trust_and_service"]})
    return lines


def token(*parts: Any) -> str:
    """A short confirmation token bound to what it confirms."""
    return hashlib.sha256("|".join(str(part) for part in parts).encode()).hexdigest()[:10]


def primetime_token(zone: dict[str, Any], name: str) -> str:
    """The token that accepts a zone's current Prime Time for a ride type."""
    return token("primetime", zone["zone_id"], name, zone["primetime_percentage"])


def moment(value: str | None) -> datetime | None:
    """A stored timestamp as a datetime."""
    return None if value is None else parse_timestamp(value, "timestamp")


def cancel_fee(db: Database, ride: dict[str, Any]) -> int:
    """What cancelling the ride now would cost the rider (0 when free); refuses a ride that can't be cancelled."""
    status, now = ride["status"], db.now()
    if status == "pickedUp":
        raise Conflict("ride_in_progress: a ride can't be canceled once you've been picked up.")
    if status in ("droppedOff", "canceled"):
        raise Conflict(f"ride_not_cancellable: ride {ride['ride_id']} is already {status}.")
    penalty = ride_type(db, ride["region"], ride["ride_type"])["cancel_penalty_amount"]
    if status == "pending":
        return 0
    if status == "scheduled":
        pickup = moment(ride["scheduled_pickup_at"])
        assert pickup is not None
        if ride["driver_id"] is None or pickup - now > SCHEDULED_FREE_CANCEL:
            return 0
        return penalty
    if status == "arrived":
        return penalty
    accepted, promised, eta = moment(ride["accepted_at"]), moment(ride["original_eta_at"]), moment(ride["eta_at"])
    if accepted is not None and now - accepted <= FREE_CANCEL_AFTER_MATCH:
        return 0
    if promised is not None and eta is not None and eta - promised >= LATE_DRIVER:
        return 0
    return penalty


def cancel_token(ride: dict[str, Any], fee: int) -> str:
    """The token that accepts a ride's cancellation fee."""
    return token("cancel", ride["ride_id"], fee)


def check_schedule(db: Database, pickup: datetime) -> None:
    """A scheduled pickup must be 1 hour to 7 days ahead."""
    ahead = pickup - db.now()
    if ahead < SCHEDULE_MIN_AHEAD or ahead > SCHEDULE_MAX_AHEAD:
        raise InvalidRequest("invalid_scheduled_time: scheduled rides must be requested 1 hour to 7 days ahead.")


def check_no_active_ride(db: Database, user_id: str) -> None:
    """A rider has one on-demand ride at a time."""
    found = db.select(rides, "user_id = ? AND status IN (?, ?, ?, ?)", (user_id, *ACTIVE), limit=1)
    if found:
        raise Conflict(f"ride_already_active: you already have ride {found[0]['ride_id']} in progress.")


def check_tip(db: Database, ride: dict[str, Any], amount: int) -> None:
    """A tip goes on a dropped-off ride, once, within 72 hours, up to $100 and twice the fare."""
    if ride["status"] != "droppedOff":
        raise Conflict(
            f"tip_not_allowed: only completed rides can be tipped; ride {ride['ride_id']} is {ride['status']}."
        )
    if ride["tip"]:
        raise Conflict(f"tip_already_added: ride {ride['ride_id']} already has a tip.")
    dropoff = moment(ride["dropoff_at"])
    assert dropoff is not None
    if db.now() - dropoff > TIP_WINDOW:
        raise Conflict("tip_window_expired: tips can be added up to 72 hours after the ride.")
    if amount > min(MAX_TIP, ride["price"] * MAX_TIP_SHARE):
        limit = min(MAX_TIP, ride["price"] * MAX_TIP_SHARE)
        raise InvalidRequest(f"tip_too_large: the most you can tip on this ride is {limit / 100:.2f} USD.")


def check_lost_item_ride(db: Database, ride: dict[str, Any]) -> None:
    """Lost items are reported for a completed ride within 30 days."""
    if ride["status"] != "droppedOff":
        raise Conflict(
            f"invalid_ride: lost items can be reported only for completed rides; ride {ride['ride_id']} is "
            f"{ride['status']}."
        )
    dropoff = moment(ride["dropoff_at"])
    assert dropoff is not None
    if db.now() - dropoff > LOST_ITEM_WINDOW:
        raise Conflict(
            "report_window_expired: lost items can be reported up to 30 days after the ride; contact Lyft Support."
        )


def new_ride_id(db: Database) -> str:
    """The next ride id; new rides follow the seed's numbering."""
    return str(4210050000 + db.next_number("ride_numbers"))


def stamp(moment_: datetime) -> str:
    """A datetime as the stored timestamp."""
    return iso_timestamp(moment_)
