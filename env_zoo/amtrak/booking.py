"""Booking: what a train offers between two stations (fares, seats left), the booking requests, and booking,
pricing and re-booking segments of a reservation."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.fields import IsoDate, NonBlankText

from .ledger import Refund, charge, record, redeem_evoucher, refund, reissue_eticket
from .objects import (
    ChangeObject,
    FareOption,
    TrainOption,
    duration,
    evoucher_object,
    reservation_object,
    reservation_segments,
    segment_amount,
    stamp,
)
from .reservations import held, party, refresh, release
from .rules import (
    FARE_FAMILY,
    FARE_RULES,
    SLEEPERS,
    adult_fare,
    change_fee,
    check_open,
    departure_on,
    leg_range,
    local_time,
    price_segment,
    rooms_for,
    seats_left,
    segment_times,
    station_code,
    stops_of,
    take_seats,
    timing,
)
from .schema import departures, fare_plans, passengers, reservations, routes, segments, trains

FareCode = Literal["SAVER", "VALUE", "FLEX", "BUSINESS", "FIRST", "ROOMETTE", "BEDROOM"]
PassengerType = Literal["adult", "senior", "child", "infant", "military"]
PaymentMethod = Literal["card", "points"]
FARE_ORDER = list(FARE_RULES)


class SegmentRequest(BaseModel):
    """One train ride to book."""

    train_number: str = Field(description="The train number, e.g. 171")
    travel_date: IsoDate = Field(description="The date the passenger boards at the origin, YYYY-MM-DD")
    origin: str = Field(description="Boarding station code, e.g. NYP")
    destination: str = Field(description="Leaving station code, e.g. WAS")
    fare_code: FareCode = Field(description="SAVER, VALUE, FLEX, BUSINESS, FIRST, ROOMETTE or BEDROOM")


class PassengerRequest(BaseModel):
    """One traveller to book."""

    first_name: NonBlankText
    last_name: NonBlankText
    passenger_type: PassengerType = Field(
        description="adult; senior (65+, 10% off); child (2-12, half price); infant (under 2, free on a lap); "
        "military (10% off). Discounts are not valid with Saver fares."
    )


# ---------------------------------------------------------------- what a train offers


def fare_options(
    db: Database,
    train: dict[str, Any],
    departure: dict[str, Any],
    stops: list[dict[str, Any]],
    i: int,
    j: int,
    travellers: int,
) -> list[FareOption]:
    """Every fare of a train between stops i and j, for a party of `travellers`."""
    miles = stops[j]["miles"] - stops[i]["miles"]
    plans = sorted(db.find(fare_plans, route_id=train["route_id"]), key=lambda p: FARE_ORDER.index(p["fare_code"]))
    value = next((p for p in plans if p["fare_code"] == "VALUE"), None)
    options = []
    for plan in plans:
        cls = plan["class_of_service"]
        if cls not in train["capacity"]:
            continue
        left = seats_left(departure, cls, i, j)
        if plan["fare_code"] == "SAVER":
            left = min(left, departure["saver_seats"])
        price, room, need = adult_fare(plan, miles, departure["demand_pct"]), None, travellers
        if cls in SLEEPERS and value is not None:
            room, need = price, rooms_for(travellers)
            price = room + adult_fare(value, miles, departure["demand_pct"])
        options.append(
            FareOption(
                fare_code=plan["fare_code"],
                class_of_service=cls,
                price_cents=price,
                room_charge_cents=room,
                seats_left=left,
                available=departure["status"] != "CANCELLED" and left >= need,
            )
        )
    return options


def train_options(db: Database, origin: str, destination: str, day: date, travellers: int) -> list[TrainOption]:
    """The direct trains from `origin` to `destination` boarding on `day` that have not left yet, earliest first,
    each with its fares for the party."""
    options = []
    for train in db.find(trains, order_by=[trains.c.train_number]):
        stops = stops_of(db, train["train_number"])
        codes = [s["station_code"] for s in stops]
        if origin not in codes or destination not in codes or codes.index(origin) >= codes.index(destination):
            continue
        i, j = codes.index(origin), codes.index(destination)
        service_date = (day - timedelta(days=stops[i]["day_offset"])).isoformat()
        found = db.find(departures, train_number=train["train_number"], service_date=service_date)
        leaves = local_time(db, stops[i], service_date, "departure")
        if not found or db.now() >= leaves:
            continue
        arrives = local_time(db, stops[j], service_date, "arrival")
        option = TrainOption(
            train_number=train["train_number"],
            train_name=train["train_name"],
            route_name=db.get(routes, train["route_id"], "Route")["route_name"],
            travel_date=day.isoformat(),
            origin=origin,
            destination=destination,
            departs_at=stamp(leaves),
            arrives_at=stamp(arrives),
            duration=duration(int((arrives - leaves).total_seconds() // 60)),
            status=found[0]["status"],
            fares=fare_options(db, train, found[0], stops, i, j, travellers),
        )
        options.append((leaves, option))
    return [option for _, option in sorted(options, key=lambda pair: pair[0])]


# ---------------------------------------------------------------- booking segments


def check_order(db: Database, earlier: dict[str, Any] | None, later: dict[str, Any] | None) -> None:
    """A segment must leave after the one before it arrives."""
    if earlier is None or later is None:
        return
    if segment_times(db, later)[0] <= segment_times(db, earlier)[1]:
        raise InvalidRequest(
            f"Segments must be in travel order: train {later['train_number']} leaves "
            f"{later['origin']} before train {earlier['train_number']} reaches "
            f"{earlier['destination']}."
        )


def check_bookable(db: Database, departure: dict[str, Any], boarding: dict[str, Any]) -> None:
    """A departure is sold until it leaves the boarding station, unless Amtrak cancelled it."""
    if departure["status"] == "CANCELLED":
        raise Conflict(
            f"Train {departure['train_number']} on {departure['service_date']} is cancelled: "
            f"{departure['service_alert']}"
        )
    if db.now() >= local_time(db, boarding, departure["service_date"], "departure"):
        raise Conflict(f"Train {departure['train_number']} has already left {boarding['station_code']}.")


def book_segment(
    db: Database,
    train_number: str,
    travel_date: str,
    origin: str,
    destination: str,
    fare_code: str,
    travellers: dict[str, str],
) -> dict[str, Any]:
    """Check, price and hold seats for one ride; returns the segment's values (without ids)."""
    origin, destination = station_code(db, origin), station_code(db, destination)
    departure, stops, train, _ = departure_on(db, train_number, travel_date, origin)
    i, j = leg_range(stops, train, origin, destination)
    check_bookable(db, departure, stops[i])
    price = price_segment(db, departure, train, stops, i, j, fare_code, travellers)
    take_seats(
        db,
        departure,
        price.class_of_service,
        i,
        j,
        price.seats,
        fare_code == "SAVER",
        f"from {origin} to {destination}",
    )
    return {
        "departure_id": departure["departure_id"],
        "train_number": train["train_number"],
        "service_date": departure["service_date"],
        "origin": origin,
        "destination": destination,
        "fare_code": fare_code,
        "class_of_service": price.class_of_service,
        "rooms": price.rooms,
        "passenger_fares": price.passenger_fares,
        "accommodation_cents": price.accommodation_cents,
        "status": "CONFIRMED",
    }


def trip_type(requests: list[SegmentRequest]) -> str:
    """one_way, round_trip (there and straight back) or multi_city."""
    if len(requests) == 1:
        return "one_way"
    legs = [(r.origin.strip().upper(), r.destination.strip().upper()) for r in requests]
    if len(legs) == 2 and legs[0] == legs[1][::-1]:
        return "round_trip"
    return "multi_city"


def new_reservation_number(db: Database) -> str:
    """A fresh six-character reservation number."""
    while True:
        number = db.new_uuid(reservations).replace("-", "")[:6].upper()
        if not db.find(reservations, reservation_number=number):
            return number


def book_reservation(
    db: Database,
    member: dict[str, Any],
    requests: list[SegmentRequest],
    travellers: list[PassengerRequest],
    payment_method: PaymentMethod,
    evoucher_number: str | None,
) -> str:
    """Book the segments for the travellers, take payment (eVoucher first, then card or points) and issue the
    eTicket; returns the reservation number."""
    if payment_method == "points" and evoucher_number:
        raise InvalidRequest("eVouchers can't be combined with a points redemption.")
    number = new_reservation_number(db)
    db.insert(
        reservations,
        reservation_number=number,
        member_number=member["member_number"],
        status="CONFIRMED",
        trip_type=trip_type(requests),
        contact_email=member["email"],
        contact_phone=member["phone"],
        total_cents=0,
        paid_card_cents=0,
        paid_evoucher_cents=0,
        award=payment_method == "points",
        paid_points=0,
        booked_at=db.now_iso(),
    )
    party_types = {}
    for p in travellers:
        pid = db.new_id(passengers, "PAX", 5)
        db.insert(
            passengers,
            passenger_id=pid,
            reservation_number=number,
            first_name=p.first_name.strip(),
            last_name=p.last_name.strip(),
            passenger_type=p.passenger_type,
            status="ACTIVE",
        )
        party_types[pid] = p.passenger_type
    previous = None
    for sequence, r in enumerate(requests, start=1):
        values = book_segment(db, r.train_number, r.travel_date, r.origin, r.destination, r.fare_code, party_types)
        check_order(db, previous, values)
        previous = db.insert(
            segments, segment_id=db.new_id(segments, "SEG", 5), reservation_number=number, sequence=sequence, **values
        )
    due = refresh(db, number)["total_cents"]
    if evoucher_number:
        covered = redeem_evoucher(db, member["member_number"], evoucher_number, due, number)
        db.update(reservations, number, paid_evoucher_cents=covered)
        due -= covered
    if due:
        charge(db, db.get(reservations, number), due, f"Reservation {number}")
    reissue_eticket(db, number, None)
    return number


def rebook_segment(
    db: Database,
    reservation: dict[str, Any],
    segment: dict[str, Any],
    train_number: str,
    travel_date: str,
    fare_code: str,
    tier: str,
) -> ChangeObject:
    """Move a segment to another train, date or fare between the same stations: release its seats, book the new
    ride, collect the difference and any change fee or give back the residual, and reissue the eTicket."""
    when = timing(db, reservation, segment)
    check_open(segment, when, "changed")
    if (train_number, travel_date, fare_code) == (
        segment["train_number"],
        when.departs_at.date().isoformat(),
        segment["fare_code"],
    ):
        raise InvalidRequest("Nothing to change: that is already the segment's train, date and fare.")
    number = reservation["reservation_number"]
    fee = change_fee(segment, when, tier)
    release(db, segment, held(db, segment))
    riders = {pid: t for pid, t in party(db, number).items() if pid in segment["passenger_fares"]}
    values = book_segment(db, train_number, travel_date, segment["origin"], segment["destination"], fare_code, riders)
    if when.amtrak_cancelled and fare_code == segment["fare_code"]:
        values.update(passenger_fares=segment["passenger_fares"], accommodation_cents=segment["accommodation_cents"])
    others = [
        s
        for s in reservation_segments(db, number)
        if s["status"] == "CONFIRMED" and s["segment_id"] != segment["segment_id"]
    ]
    moved = {**segment, **values}
    check_order(db, next((s for s in reversed(others) if s["sequence"] < segment["sequence"]), None), moved)
    check_order(db, moved, next((s for s in others if s["sequence"] > segment["sequence"]), None))
    old, new = segment_amount(segment), segment_amount(values)
    db.update(segments, segment["segment_id"], **values)
    if fee:
        record(db, number, "fee", "none", fee, f"Change fee 15%, segment {segment['segment_id']}")
    difference = new - old + fee
    collected = (0, 0)
    back = Refund()
    if difference > 0:
        collected = charge(db, db.get(reservations, number), difference, f"Change of segment {segment['segment_id']}")
    elif difference < 0:
        to_card = FARE_FAMILY[segment["fare_code"]] == "flex" or when.in_grace or when.amtrak_cancelled
        back = refund(
            db,
            db.get(reservations, number),
            -difference,
            "original_payment" if to_card else "evoucher",
            f"Residual value of segment {segment['segment_id']}",
        )
    refresh(db, number)
    reissue_eticket(db, number, "exchanged")
    return ChangeObject(
        reservation=reservation_object(db, db.get(reservations, number)),
        old_fare_cents=old,
        new_fare_cents=new,
        change_fee_cents=fee,
        collected_cents=collected[0],
        collected_points=collected[1],
        refunded_to_card_cents=back.to_card,
        points_returned=back.points,
        evoucher=evoucher_object(back.evoucher),
    )
