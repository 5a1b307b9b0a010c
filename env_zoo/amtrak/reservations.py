"""A reservation and what is on it: lookups by number, its travellers (the party) and the seats they hold, and its
total and status recomputed from its segments."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .objects import reservation_segments, segment_amount
from .rules import ADULT_TYPES, SEATED_TYPES, SLEEPERS, leg_range, release_seats, stops_of
from .schema import passengers, reservations, segments, trains

MAX_PASSENGERS = 8


def reservation_row(db: Database, reservation_number: str) -> dict[str, Any]:
    """A reservation by its six-character number (case-insensitive)."""
    return db.find_one(
        reservations,
        reservation_number=reservation_number.strip().upper(),
        not_found=f"Reservation '{reservation_number}' not found",
    )


def segment_of(db: Database, reservation: dict[str, Any], segment_id: str) -> dict[str, Any]:
    """A segment that belongs to the reservation."""
    segment = db.get(segments, segment_id, "Segment")
    if segment["reservation_number"] != reservation["reservation_number"]:
        raise NotFound(f"Segment '{segment_id}' is not on reservation {reservation['reservation_number']}")
    return segment


def party(db: Database, reservation_number: str) -> dict[str, str]:
    """The active travellers: {passenger_id: passenger_type}."""
    rows = db.find(passengers, reservation_number=reservation_number, status="ACTIVE")
    return {p["passenger_id"]: p["passenger_type"] for p in rows}


def check_party(types: list[str]) -> None:
    """1 to 8 travellers; children and infants travel with an adult, one infant per adult."""
    adults = sum(1 for t in types if t in ADULT_TYPES)
    if not 1 <= len(types) <= MAX_PASSENGERS:
        raise InvalidRequest(f"A reservation holds 1 to {MAX_PASSENGERS} passengers.")
    if adults == 0:
        raise InvalidRequest(
            "Children and infants must travel with an adult (an adult, senior or military "
            "passenger) on the same reservation."
        )
    if types.count("infant") > adults:
        raise InvalidRequest("Each infant rides on an adult's lap: at most one infant per adult.")


def held(db: Database, segment: dict[str, Any]) -> int:
    """Seats (rooms for sleepers) a segment holds on each of its legs."""
    if segment["class_of_service"] in SLEEPERS:
        return segment["rooms"]
    types = party_types(db, segment)
    return sum(1 for t in types if t in SEATED_TYPES)


def party_types(db: Database, segment: dict[str, Any]) -> list[str]:
    """Passenger types of the travellers priced on a segment."""
    return [db.get(passengers, pid, "Passenger")["passenger_type"] for pid in segment["passenger_fares"]]


def legs(db: Database, segment: dict[str, Any]) -> tuple[list[dict[str, Any]], int, int]:
    """The train's stops and the stop indexes the segment rides between."""
    stops = stops_of(db, segment["train_number"])
    train = db.get(trains, segment["train_number"], "Train")
    i, j = leg_range(stops, train, segment["origin"], segment["destination"])
    return stops, i, j


def release(db: Database, segment: dict[str, Any], count: int) -> None:
    """Give `count` of a segment's seats (rooms) back to sale."""
    if count:
        _, i, j = legs(db, segment)
        release_seats(
            db, segment["departure_id"], segment["class_of_service"], i, j, count, segment["fare_code"] == "SAVER"
        )


def refresh(db: Database, reservation_number: str) -> dict[str, Any]:
    """Recompute a reservation's total and status from its segments."""
    rows = reservation_segments(db, reservation_number)
    statuses = {s["status"] for s in rows}
    if statuses == {"CANCELLED"}:
        status = "CANCELLED"
    elif "CONFIRMED" in statuses:
        status = "CONFIRMED"
    else:
        status = "COMPLETED"
    total = sum(segment_amount(s) for s in rows if s["status"] != "CANCELLED")
    return db.update(reservations, reservation_number, status=status, total_cents=total)


def require_confirmed(reservation: dict[str, Any]) -> None:
    """Only a confirmed reservation (not cancelled or completed) can still change."""
    if reservation["status"] != "CONFIRMED":
        raise Conflict(f"Reservation {reservation['reservation_number']} is {reservation['status'].lower()}.")


def open_segments(db: Database, reservation: dict[str, Any]) -> list[dict[str, Any]]:
    """The confirmed segments of a confirmed reservation."""
    require_confirmed(reservation)
    return [s for s in reservation_segments(db, reservation["reservation_number"]) if s["status"] == "CONFIRMED"]
