"""Itineraries: booking from a price-check token (instantly or on hold), resuming or releasing a hold, retrieval,
and room-level cancellation and changes under the booked rate's penalty windows."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import iso_timestamp

from .objects import BookedRoom, HoldResult, Itinerary, ItineraryCreated, ItineraryLinks, RoomCanceled, booked_room
from .rules import (
    HOLD_WINDOW,
    cancel_penalties,
    money,
    nightly_prices,
    penalty_now,
    require_not_started,
    rooms_left,
    split_occupancy,
    stay_dates,
    stay_total,
    take_rooms,
)
from .schema import itineraries, itinerary_rooms, price_checks, properties, rates


def _span(checkin: str, checkout: str) -> list[str]:
    start, end = date.fromisoformat(checkin), date.fromisoformat(checkout)
    return [(start + timedelta(days=n)).isoformat() for n in range((end - start).days)]


def links(itinerary_id: str, held: bool) -> ItineraryLinks:
    base = f"/v3/itineraries/{itinerary_id}"
    return ItineraryLinks(retrieve=base, resume=base if held else None, cancel=base if held else None)


def create(
    db: Database,
    token: str,
    email: str,
    phone: str,
    guests: list[dict[str, Any]],
    hold: bool,
    payment_type: str,
    affiliate_reference_id: str | None,
) -> ItineraryCreated:
    """Book the rate a price check priced, at that price, one guest per room of its occupancy."""
    check = db.find_one(price_checks, token=token, not_found=f"link.expired: token {token} is unknown or expired")
    if check["used"]:
        raise Conflict(f"duplicate_itinerary: token {token} has already been used to book")
    if len(guests) != len(check["occupancy"]):
        raise InvalidRequest(
            f"invalid_input: rooms must list one guest per room priced ({len(check['occupancy'])}), got {len(guests)}"
        )
    if affiliate_reference_id and db.find(itineraries, affiliate_reference_id=affiliate_reference_id):
        raise Conflict(f"duplicate_itinerary: affiliate_reference_id {affiliate_reference_id} is already used")
    rate = db.get(rates, check["rate_id"], "Rate")
    if hold and not rate["holdable"]:
        raise InvalidRequest(f"invalid_input: rate {rate['rate_id']} cannot be held")
    nights = stay_dates(db, check["checkin"], check["checkout"])
    if rooms_left(db, check["room_id"], nights) < len(guests):
        raise Conflict("sold_out: the room is no longer available for these dates")
    nightly = nightly_prices(rate, nights, live=True)
    if stay_total(nightly) * len(guests) != check["total"]:
        raise Conflict("price.mismatch: the price changed since the price check; check the price again")
    number = db.next_number("expedia:itinerary", itineraries)
    itinerary_id = str(7_300_000_000_000 + number * 7_919)
    db.insert(
        itineraries,
        itinerary_id=itinerary_id,
        property_id=check["property_id"],
        email=email,
        phone=phone,
        affiliate_reference_id=affiliate_reference_id,
        hold_status="held" if hold else None,
        hold_expires_at=iso_timestamp(db.now() + HOLD_WINDOW) if hold else None,
        payment_type=payment_type,
        creation_date_time=db.now_iso(),
    )
    penalties = cancel_penalties(db, rate, check["checkin"], check["checkout"])
    for index, (guest, occupancy) in enumerate(zip(guests, check["occupancy"]), start=1):
        adults, ages = split_occupancy(occupancy)
        db.insert(
            itinerary_rooms,
            id=f"{itinerary_id}-{index}",
            itinerary_id=itinerary_id,
            room_id=check["room_id"],
            rate_id=check["rate_id"],
            checkin=check["checkin"],
            checkout=check["checkout"],
            number_of_adults=adults,
            child_ages=ages,
            given_name=guest["given_name"],
            family_name=guest["family_name"],
            smoking=guest["smoking"],
            special_request=guest.get("special_request"),
            status="pending" if hold else "booked",
            confirmation_expedia=str(int(itinerary_id) % 1_000_000_007 + index),
            nightly=nightly,
            refundable=rate["refundable"],
            cancel_penalties=penalties,
            penalty_charged=None,
            refund=None,
        )
    take_rooms(db, check["room_id"], nights, len(guests))
    db.update(price_checks, token, used=True)
    return ItineraryCreated(itinerary_id=itinerary_id, links=links(itinerary_id, hold))


def _held(db: Database, itinerary_id: str) -> dict[str, Any]:
    row = db.get(itineraries, itinerary_id, "Itinerary")
    if row["hold_status"] != "held":
        raise Conflict(f"invalid_input: itinerary {itinerary_id} is not on hold")
    return row


def resume(db: Database, itinerary_id: str) -> HoldResult:
    """Confirm a held itinerary within its hold window: its rooms become booked."""
    row = _held(db, itinerary_id)
    if iso_timestamp(db.now()) >= row["hold_expires_at"]:
        raise Conflict(f"link.expired: the hold on itinerary {itinerary_id} expired at {row['hold_expires_at']}")
    booked = db.find(itinerary_rooms, itinerary_id=itinerary_id)
    for room in booked:
        db.update(itinerary_rooms, room["id"], status="booked")
    db.update(itineraries, itinerary_id, hold_status="resumed")
    return HoldResult(itinerary_id=itinerary_id, hold_status="resumed", room_statuses=["booked"] * len(booked))


def release(db: Database, itinerary_id: str) -> HoldResult:
    """Cancel a held itinerary: nothing is charged and the rooms go back on sale."""
    _held(db, itinerary_id)
    booked = db.find(itinerary_rooms, itinerary_id=itinerary_id)
    for room in booked:
        db.update(itinerary_rooms, room["id"], status="canceled", penalty_charged=0, refund=0)
        take_rooms(db, room["room_id"], _span(room["checkin"], room["checkout"]), -1)
    db.update(itineraries, itinerary_id, hold_status="released")
    return HoldResult(itinerary_id=itinerary_id, hold_status="released", room_statuses=["canceled"] * len(booked))


def itinerary(db: Database, row: dict[str, Any]) -> Itinerary:
    prop = db.get(properties, row["property_id"], "Property")
    return Itinerary(
        itinerary_id=row["itinerary_id"],
        property_id=row["property_id"],
        property_name=prop["name"],
        email=row["email"],
        phone=row["phone"],
        affiliate_reference_id=row["affiliate_reference_id"],
        hold_status=row["hold_status"],
        hold_expires_at=row["hold_expires_at"],
        payment_type=row["payment_type"],
        creation_date_time=row["creation_date_time"],
        rooms=[booked_room(db, r) for r in db.find(itinerary_rooms, itinerary_id=row["itinerary_id"])],
    )


def retrieve(db: Database, itinerary_id: str, email: str) -> Itinerary:
    """An itinerary, only for the email it was booked with (Rapid answers not found otherwise)."""
    rows = db.find(itineraries, itinerary_id=itinerary_id)
    if not rows or rows[0]["email"].lower() != email.lower():
        raise NotFound(f"resource.not_found: no itinerary {itinerary_id} for {email}")
    return itinerary(db, rows[0])


def _room(db: Database, itinerary_id: str, room_id: str) -> dict[str, Any]:
    return db.find_one(
        itinerary_rooms,
        id=room_id,
        itinerary_id=itinerary_id,
        not_found=f"resource.not_found: itinerary {itinerary_id} has no room {room_id}",
    )


def cancel_room(db: Database, itinerary_id: str, room_id: str) -> RoomCanceled:
    """Cancel one booked room now, charging the penalty of the window the clock is in."""
    room = _room(db, itinerary_id, room_id)
    if room["status"] == "pending":
        raise Conflict(f"cancel.not_allowed: room {room_id} is on hold; cancel the held itinerary instead")
    require_not_started(db, room, "cancel")
    penalty = penalty_now(db, room)
    refund = stay_total(room["nightly"]) - penalty
    db.update(itinerary_rooms, room_id, status="canceled", penalty_charged=penalty, refund=refund)
    take_rooms(db, room["room_id"], _span(room["checkin"], room["checkout"]), -1)
    return RoomCanceled(
        itinerary_id=itinerary_id,
        room_id=room_id,
        status="canceled",
        penalty_charged=money(penalty),
        refund=money(refund),
    )


def change_room(db: Database, itinerary_id: str, room_id: str, changes: dict[str, Any]) -> BookedRoom:
    """Change the guest name, smoking preference or special request of a booked room."""
    room = _room(db, itinerary_id, room_id)
    require_not_started(db, room, "change")
    if not changes:
        raise InvalidRequest("invalid_input: give at least one of given_name, family_name, smoking, special_request")
    return booked_room(db, db.update(itinerary_rooms, room_id, **changes))
