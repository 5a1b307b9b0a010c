"""A reservation's life: booking it, re-checking and re-pricing it when its trip, car, extras or drivers change
(redeemed points adjusted), its extras and additional drivers, cancelling it, and opening the rental agreement
at the counter."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import parse_date

from .objects import CancellationObject
from .rewards import post_points, require_points
from .rules import (
    CHILD_SEATS,
    FEE_WAIVED_RELATIONSHIPS,
    MAX_CHILD_SEATS,
    NOTICE,
    PAY_NOW_FEE_EARLY,
    PAY_NOW_FEE_LATE,
    Booking,
    check_booking,
    hours_until_pickup,
    local_now,
    plan_trip,
)
from .schema import extras, locations, rental_agreements, reservations, vehicle_classes

MAX_ADDITIONAL_DRIVERS = 4
PICKUP_EARLY = timedelta(hours=1)  # the car is ready an hour before the reservation time
PICKUP_HELD = timedelta(hours=2)  # and held two hours past it
TRIP_FIELDS = {"pickup_location_id", "pickup_datetime", "return_location_id", "return_datetime", "sipp_code"}


def flight_code(flight_number: str | None) -> str | None:
    """An arriving flight as stored: 'ua 1520' -> 'UA1520' (its type checks the shape)."""
    return flight_number.replace(" ", "").upper() if flight_number else None


def book(
    db: Database, member: dict[str, Any], booking: Booking, payment_type: str, flight_number: str | None
) -> dict[str, Any]:
    """Store a checked booking as a confirmed reservation, redeeming its points."""
    require_points(member, booking.charges.points_required)
    now = db.now_iso()
    number = db.new_id(reservations, "K7", 9)
    row = db.insert(
        reservations,
        confirmation_number=number,
        member_number=member["member_number"],
        first_name=member["first_name"],
        last_name=member["last_name"],
        status="confirmed",
        payment_type=payment_type,
        extras=[],
        additional_drivers=[],
        cancellation_fee=0,
        refund_amount=0,
        flight_number=flight_number,
        created_at=now,
        updated_at=now,
        cancelled_at=None,
        **booking.columns(payment_type),
    )
    if booking.charges.points_required:
        label = f"Reward rental {booking.vehicle['name']}"
        post_points(db, member, -booking.charges.points_required, "redemption", label, number)
    return row


def reprice(db: Database, member: dict[str, Any], row: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Re-check and re-price a confirmed reservation with `changes` (trip, class, extras or drivers) applied."""
    merged = {**row, **changes}
    trip = plan_trip(
        db,
        merged["pickup_location_id"],
        merged["return_location_id"],
        merged["pickup_datetime"],
        merged["return_datetime"],
    )
    redeeming = row["payment_type"] == "points" and bool(TRIP_FIELDS & changes.keys())
    booking = check_booking(
        db,
        member,
        trip,
        merged["sipp_code"],
        row["payment_type"],
        merged["extras"],
        merged["additional_drivers"],
        exclude=row["confirmation_number"],
        redeeming=redeeming,
    )
    columns = booking.columns(row["payment_type"])
    points_change = columns["points_redeemed"] - row["points_redeemed"]
    number = row["confirmation_number"]
    if points_change > 0:
        require_points(member, points_change)
        post_points(db, member, -points_change, "redemption", "Reward rental changed", number)
    elif points_change < 0:
        post_points(db, member, -points_change, "redemption_refund", "Reward rental changed", number)
    return db.update(reservations, row["confirmation_number"], **{**changes, **columns, "updated_at": db.now_iso()})


def change_trip(db: Database, member: dict[str, Any], row: dict[str, Any], **trip: str) -> dict[str, Any]:
    """Move a reservation's trip or car class: Pay Now and points ones not within 24 hours of pickup; when only
    the pickup location of a round trip changes, the return location follows it."""
    if row["payment_type"] != "pay_later" and hours_until_pickup(db, row) < NOTICE:
        label = "Pay Now" if row["payment_type"] == "pay_now" else "Points"
        raise PermissionDenied(f"{label} reservations can't be changed within 24 hours of pickup.")
    round_trip = row["return_location_id"] == row["pickup_location_id"]
    if "pickup_location_id" in trip and "return_location_id" not in trip and round_trip:
        trip["return_location_id"] = trip["pickup_location_id"]
    return reprice(db, member, row, **trip)


def with_extra(row: dict[str, Any], extra: dict[str, Any], quantity: int) -> list[dict[str, Any]]:
    """The reservation's extras with `quantity` more of `extra`: protections once, equipment up to its
    max_quantity, at most 3 child seats in all."""
    held = {item["code"]: item["quantity"] for item in row["extras"]}
    if extra["category"] == "protection" and extra["code"] in held:
        raise Conflict(f"{extra['name']} is already on this reservation.")
    total = held.get(extra["code"], 0) + quantity
    if total > extra["max_quantity"]:
        raise InvalidRequest(f"At most {extra['max_quantity']} {extra['name']} per rental.")
    seats = sum(q for c, q in held.items() if c in CHILD_SEATS)
    if extra["code"] in CHILD_SEATS and seats + quantity > MAX_CHILD_SEATS:
        raise InvalidRequest(f"At most {MAX_CHILD_SEATS} child seats per rental.")
    held[extra["code"]] = total
    return [{"code": c, "quantity": q} for c, q in held.items()]


def without_extra(row: dict[str, Any], code: str) -> list[dict[str, Any]]:
    """The reservation's extras without any unit of `code`, which must be on it."""
    wanted = code.strip().upper()
    if wanted not in {item["code"] for item in row["extras"]}:
        raise NotFound(f"Extra {wanted} is not on reservation {row['confirmation_number']}.")
    return [item for item in row["extras"] if item["code"] != wanted]


def catalog_extra(db: Database, code: str) -> dict[str, Any]:
    """An extra of the catalog by its code (any case)."""
    return db.get(extras, code.strip().upper(), "Extra")


def with_driver(
    db: Database, row: dict[str, Any], first_name: str, last_name: str, date_of_birth: str, relationship: str
) -> list[dict[str, Any]]:
    """The reservation's additional drivers with a new one (at most 4, no one twice, a real birth date); the
    daily fee is waived for a spouse or domestic partner."""
    first, last = first_name.strip(), last_name.strip()
    drivers = row["additional_drivers"]
    if len(drivers) >= MAX_ADDITIONAL_DRIVERS:
        raise Conflict(f"A rental can have at most {MAX_ADDITIONAL_DRIVERS} additional drivers.")
    if any((d["first_name"].lower(), d["last_name"].lower()) == (first.lower(), last.lower()) for d in drivers):
        raise Conflict(f"{first} {last} is already an additional driver.")
    born = parse_date(date_of_birth, "date_of_birth")
    if not date(1900, 1, 1) <= born < db.now().date():
        raise InvalidRequest("date_of_birth is not a valid birth date.")
    driver = {
        "first_name": first,
        "last_name": last,
        "date_of_birth": date_of_birth,
        "relationship": relationship,
        "fee_waived": relationship in FEE_WAIVED_RELATIONSHIPS,
    }
    return [*drivers, driver]


def cancel(db: Database, member: dict[str, Any], row: dict[str, Any]) -> CancellationObject:
    """Cancel a reservation: Pay Later free, Pay Now keeps $50 ($100 within 24 hours of pickup), points come back
    only when cancelled 24 hours ahead."""
    early = hours_until_pickup(db, row) >= NOTICE
    fee = 0
    if row["payment_type"] == "pay_now":
        fee = min(PAY_NOW_FEE_EARLY if early else PAY_NOW_FEE_LATE, row["prepaid_amount"])
    refunded = row["points_redeemed"] if early else 0
    if refunded:
        post_points(db, member, refunded, "redemption_refund", "Reward rental cancelled", row["confirmation_number"])
    now = db.now_iso()
    db.update(
        reservations,
        row["confirmation_number"],
        status="cancelled",
        cancellation_fee=fee,
        refund_amount=row["prepaid_amount"] - fee,
        cancelled_at=now,
        updated_at=now,
    )
    return CancellationObject(
        confirmation_number=row["confirmation_number"],
        status="cancelled",
        payment_type=row["payment_type"],
        cancellation_fee=fee,
        refund_amount=row["prepaid_amount"] - fee,
        points_refunded=refunded,
        points_forfeited=row["points_redeemed"] - refunded,
    )


def open_rental(db: Database, member: dict[str, Any], row: dict[str, Any], license_number: str) -> dict[str, Any]:
    """Hand over the car: the reservation is confirmed, it is between an hour before and two hours after pickup,
    the license shown is the one on file and valid today. Opens the agreement; the reservation goes on rent."""
    if row["status"] != "confirmed":
        raise Conflict(f"Reservation {row['confirmation_number']} is {row['status']} and can't be picked up.")
    left = hours_until_pickup(db, row)
    if left > PICKUP_EARLY:
        raise Conflict(f"Too early: the car is ready from an hour before {row['pickup_datetime']}.")
    if left < -PICKUP_HELD:
        raise Conflict("The car was held for two hours past the pickup time; this reservation has lapsed.")
    if license_number.replace(" ", "").upper() != member["license_number"].upper():
        raise PermissionDenied("The license shown doesn't match the license on the renter's profile.")
    today = local_now(db, db.get(locations, row["pickup_location_id"], "Location")).date().isoformat()
    if member["license_expiration"] < today:
        raise PermissionDenied(f"The driver's license expired on {member['license_expiration']}.")
    vehicle = db.get(vehicle_classes, row["sipp_code"], "Vehicle class")
    agreement = db.insert(
        rental_agreements,
        agreement_number=db.new_id(rental_agreements, "6", 8),
        confirmation_number=row["confirmation_number"],
        status="open",
        vehicle=vehicle["example_model"].removesuffix(" or similar"),
        license_number=member["license_number"],
        license_state=member["license_state"],
        opened_at=db.now_iso(),
        closed_at=None,
    )
    db.update(reservations, row["confirmation_number"], status="on_rent", updated_at=db.now_iso())
    return agreement
