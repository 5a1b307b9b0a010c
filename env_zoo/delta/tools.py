"""Delta Air Lines tools for a signed-in SkyMiles member: profile and SkyMiles activity, flight search and status,
booking with a card, eCredit or miles, trips, seat maps and seats, change and cancellation quotes and actions,
eCredits, same-day confirmed and standby, check-in and traveler details."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText

from . import rules
from .objects import (
    ActivityObject,
    CancelQuote,
    CancelResult,
    ChangeQuote,
    CreditObject,
    FareBrand,
    FlightObject,
    ProfileObject,
    SameDayOption,
    SeatMapObject,
    SeatObject,
    TripObject,
    credit_object,
    flight_object,
    trip_object,
    usd,
)
from .schema import customers, ecredits, flights, miles_activity, passengers, seat_assignments, segments, trips

Airport = Annotated[str, Field(pattern=r"^[A-Z]{3}$"), ErrorText("Airports are three-letter codes, e.g. ATL.")]
Confirmation = Annotated[
    str, Field(pattern=r"^[A-Z0-9]{6}$"), ErrorText("Confirmation numbers are six letters and numbers, e.g. GX7K2M.")
]
FlightId = Annotated[
    str, Field(pattern=r"^DL\d{1,4}-\d{4}-\d{2}-\d{2}$"), ErrorText("Flight ids look like DL1234-2026-07-02.")
]
FlightNumber = Annotated[str, Field(pattern=r"^DL\d{1,4}$"), ErrorText("Flight numbers look like DL1234.")]
SkyMilesNumber = Annotated[str, Field(pattern=r"^\d{10}$"), ErrorText("SkyMiles numbers are ten digits.")]
CreditNumber = Annotated[str, Field(pattern=r"^006\d{10}$"), ErrorText("eCredit numbers are 13 digits starting 006.")]
Seat = Annotated[str, Field(pattern=r"^\d{1,2}[A-F]$"), ErrorText("Seats look like 21C.")]
KnownTraveler = Annotated[
    str, Field(pattern=r"^[A-Z0-9]{8,10}$"), ErrorText("Known Traveler Numbers are 8-10 letters and digits.")
]
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z' -]+$"), ErrorText("Invalid name.")]


class NewPassenger(BaseModel):
    """A passenger to book, named as on their ID."""

    first_name: Name
    last_name: Name
    skymiles_number: SkyMilesNumber | None = None


# ---------------------------------------------------------------- the member


@tool(user_only=True)
def sign_in(db: Database, skymiles_number: SkyMilesNumber, password: NonBlankText) -> ProfileObject:
    """(User only) The member logs in to their SkyMiles account.

    Args:
        skymiles_number: The member's SkyMiles number.
        password: The account password.
    """
    found = db.find(customers, skymiles_number=skymiles_number)
    if not found or found[0]["password"] != password:
        raise rules.wrong_password()
    db.start_session(rules.sessions, skymiles_number=skymiles_number)
    return get_profile(db)


@tool(read_only=True)
def get_profile(db: Database) -> ProfileObject:
    """The signed-in member's SkyMiles profile: Medallion status, miles balance and the card on file."""
    row = rules.me(db)
    return ProfileObject(
        skymiles_number=row["skymiles_number"],
        name=f"{row['first_name']} {row['last_name']}",
        email=row["email"],
        medallion=row["medallion"],
        miles_balance=row["miles_balance"],
        card_on_file=row["card_last4"],
    )


@tool(read_only=True)
def get_skymiles_activity(db: Database, limit: Annotated[int, Field(ge=1, le=50)] = 10) -> list[ActivityObject]:
    """The member's most recent SkyMiles activity (miles earned, redeemed and redeposited), newest first.

    Args:
        limit: How many lines.
    """
    rows = db.select(
        miles_activity,
        "skymiles_number = ?",
        (rules.me(db)["skymiles_number"],),
        order_by="posted_on DESC, id DESC",
        limit=limit,
    )
    return [ActivityObject(posted_on=r["posted_on"], description=r["description"], miles=r["miles"]) for r in rows]


# ---------------------------------------------------------------- flights


@tool(read_only=True)
def search_flights(db: Database, origin: Airport, destination: Airport, date: IsoDate) -> list[FlightObject]:
    """Nonstop Delta flights between two airports on a date, earliest first, with each fare brand's price per
    passenger in dollars and in SkyMiles and the seats left in each cabin.

    Args:
        origin: Departure airport code.
        destination: Arrival airport code.
        date: Travel date.
    """
    rows = db.select(
        flights,
        "origin = ? AND destination = ? AND flight_date = ?",
        (origin, destination, date),
        order_by="departs_at",
    )
    return [flight_object(row) for row in rows]


@tool(read_only=True)
def get_flight_status(db: Database, flight_number: FlightNumber, date: IsoDate) -> FlightObject:
    """A flight's status and times on a date.

    Args:
        flight_number: e.g. DL1234.
        date: The flight's date.
    """
    return flight_object(rules.flight(db, f"{flight_number}-{date}"))


# ---------------------------------------------------------------- trips


@tool(read_only=True)
def list_trips(db: Database, status: Literal["TICKETED", "CANCELED", "FLOWN"] | None = "TICKETED") -> list[TripObject]:
    """The trips on the member's account (upcoming ones by default).

    Args:
        status: TICKETED (upcoming), CANCELED or FLOWN; null for all.
    """
    owner = rules.me(db)["skymiles_number"]
    rows = db.find(trips, skymiles_number=owner, order_by=["purchased_at"])
    return [trip_object(db, row) for row in rows if status is None or row["status"] == status]


@tool(read_only=True)
def get_trip(db: Database, confirmation: Confirmation) -> TripObject:
    """A trip by confirmation number: fare brand, payment, flights, passengers and their seats.

    Args:
        confirmation: The six-character confirmation number.
    """
    return trip_object(db, rules.my_trip(db, confirmation))


@tool()
def book_trip(
    db: Database,
    flight_ids: Annotated[list[FlightId], Field(min_length=1, max_length=4)],
    fare_brand: FareBrand,
    travelers: Annotated[list[NewPassenger], Field(min_length=1, max_length=9)],
    payment: Literal["CARD", "MILES", "ECREDIT"] = "CARD",
    credit_number: CreditNumber | None = None,
) -> TripObject:
    """Book flights for up to nine passengers in one fare brand. CARD charges the card on file; MILES pays the
    award price in SkyMiles plus $5.60 per passenger per flight on the card; ECREDIT applies an eCredit first and
    charges any rest to the card (unused eCredit value stays on the credit).

    Args:
        flight_ids: The flights, in travel order.
        fare_brand: MAIN_BASIC (Basic Economy), MAIN_CLASSIC (Main Cabin), COMFORT_PLUS or FIRST.
        travelers: Who flies.
        payment: CARD, MILES or ECREDIT.
        credit_number: The eCredit to apply, for ECREDIT.
    """
    member = rules.me(db)
    rows = [rules.flight(db, fid) for fid in flight_ids]
    count = len(travelers)
    for row in rows:
        if rules.departed(db, row) or row["status"] == "CANCELED":
            raise Conflict(f"{row['flight_number']} on {row['flight_date']} can no longer be booked.")
        rules.check_room(row, fare_brand, count)
    if payment == "ECREDIT" and credit_number is None:
        raise InvalidRequest("credit_number is required to pay with an eCredit.")
    shell = {"payment": payment, "fare_brand": fare_brand}
    per_flight = [rules.price(row, shell) for row in rows]
    total = sum(per_flight) * count
    cents, miles = (rules.AWARD_TAX * count * len(rows), total) if payment == "MILES" else (total, 0)
    if miles > member["miles_balance"]:
        raise Conflict(f"You need {miles} miles for this award; your balance is {member['miles_balance']}.")
    if payment == "ECREDIT":
        credit = db.find_one(
            ecredits,
            not_found=f"We couldn't find eCredit {credit_number} on your account.",
            credit_number=credit_number,
            skymiles_number=member["skymiles_number"],
        )
        if credit["remaining"] <= 0 or credit["expires_on"] < db.now().date().isoformat():
            raise Conflict(f"eCredit {credit_number} has no value left or has expired.")
        db.update(ecredits, credit_number, remaining=credit["remaining"] - min(credit["remaining"], cents))
    confirmation = rules.new_confirmation(db)
    db.insert(
        trips,
        confirmation=confirmation,
        skymiles_number=member["skymiles_number"],
        ticket_number=f"006{db.next_number('ticket', trips) + 2_345_600_000:010d}",
        fare_brand=fare_brand,
        refundable=False,
        payment=payment,
        fare_paid=cents,
        miles_paid=miles,
        purchased_at=rules.stamp(db),
        status="TICKETED",
    )
    for index, (row, fare) in enumerate(zip(rows, per_flight), start=1):
        rules.take_seats(db, row, fare_brand, count)
        db.insert(
            segments,
            id=f"{confirmation}-S{index}",
            confirmation=confirmation,
            flight_id=row["id"],
            fare_paid=fare,
            status="CONFIRMED",
            checked_in=False,
        )
    for index, person in enumerate(travelers, start=1):
        db.insert(
            passengers,
            id=f"{confirmation}-P{index}",
            confirmation=confirmation,
            first_name=person.first_name,
            last_name=person.last_name,
            skymiles_number=person.skymiles_number,
            known_traveler_number=None,
        )
    if miles:
        rules.post_miles(db, member, -miles, f"Award ticket {confirmation}")
    return trip_object(db, rules.my_trip(db, confirmation))


# ---------------------------------------------------------------- seats


@tool(read_only=True)
def get_seat_map(db: Database, confirmation: Confirmation, flight_id: FlightId) -> SeatMapObject:
    """The seat map of the cabin a trip's fare sits in on one of its flights, with Preferred seats and their fee
    for this member.

    Args:
        confirmation: The trip.
        flight_id: One of the trip's flights.
    """
    trip = rules.my_trip(db, confirmation)
    rules.live_segment(db, confirmation, flight_id)
    cabin = rules.CABIN_OF[trip["fare_brand"]]
    used = rules.taken(db, flight_id)
    medallion = rules.me(db)["medallion"]
    seats = [
        SeatObject(
            seat=f"{row}{letter}",
            cabin=cabin,
            available=f"{row}{letter}" not in used,
            preferred=cabin == "MAIN" and row in rules.PREFERRED_ROWS,
            fee=usd(rules.seat_fee(f"{row}{letter}", medallion) if cabin == "MAIN" else 0),
        )
        for row in rules.ROWS[cabin]
        for letter in rules.LETTERS[cabin]
    ]
    return SeatMapObject(flight_id=flight_id, cabin=cabin, seats=seats)


@tool()
def select_seat(
    db: Database, confirmation: Confirmation, flight_id: FlightId, passenger_id: NonBlankText, seat: Seat
) -> TripObject:
    """Choose (or change) a passenger's seat on one of the trip's flights, in the cabin the fare sits in. Basic
    Economy seats are assigned at check-in. A Preferred seat's fee is charged to the card on file.

    Args:
        confirmation: The trip.
        flight_id: The flight.
        passenger_id: The passenger, from the trip.
        seat: e.g. 21C.
    """
    trip = rules.my_trip(db, confirmation)
    rules.refuse_closed(trip)
    if trip["fare_brand"] == "MAIN_BASIC":
        raise Conflict("Seats for Basic Economy tickets are assigned after check-in.")
    rules.live_segment(db, confirmation, flight_id)
    db.find_one(
        passengers, not_found=f"No passenger {passenger_id} on this trip.", id=passenger_id, confirmation=confirmation
    )
    cabin = rules.seat_cabin(seat)
    if cabin != rules.CABIN_OF[trip["fare_brand"]]:
        raise InvalidRequest(
            f"Seat {seat} is not in the {rules.CABIN_OF[trip['fare_brand']]} cabin your fare includes."
        )
    used = rules.taken(db, flight_id)
    if seat in used and used[seat]["passenger_id"] != passenger_id:
        raise Conflict(f"Seat {seat} is not available.")
    rules.assign_seat(
        db, flight_id, passenger_id, seat, rules.seat_fee(seat, rules.me(db)["medallion"]) if cabin == "MAIN" else 0
    )
    return trip_object(db, trip)


# ---------------------------------------------------------------- changes and cancellations


@tool(read_only=True)
def quote_change(db: Database, confirmation: Confirmation, flight_id: FlightId, new_flight_id: FlightId) -> ChangeQuote:
    """What moving the trip from one of its flights to another flight on the same route costs: no change fee on
    Main Cabin and above, the fare difference (returned as an eCredit when lower); Basic Economy can't change.

    Args:
        confirmation: The trip.
        flight_id: The flight to leave.
        new_flight_id: The flight to move to (same origin and destination).
    """
    trip, old, new, cash, miles = rules.change_terms(db, confirmation, flight_id, new_flight_id)
    return ChangeQuote(
        confirmation=confirmation,
        from_flight=old["id"],
        to_flight=new["id"],
        fare_difference=usd(cash),
        miles_difference=miles,
        change_fee=usd(0),
    )


@tool()
def change_flight(db: Database, confirmation: Confirmation, flight_id: FlightId, new_flight_id: FlightId) -> TripObject:
    """Move the trip from one of its flights to another on the same route, in the same fare brand. A higher fare
    is charged to the card on file (or in miles for an award); a lower one comes back as an eCredit (or miles).
    Seats chosen on the old flight are released.

    Args:
        confirmation: The trip.
        flight_id: The flight to leave.
        new_flight_id: The flight to move to.
    """
    trip, old, new, cash, miles = rules.change_terms(db, confirmation, flight_id, new_flight_id)
    rules.move_segment(db, trip, old, new)
    if miles:
        rules.post_miles(db, rules.me(db), -miles, f"Award change {confirmation}")
    if cash < 0:
        rules.issue_credit(db, trip, -cash)
    db.update(trips, confirmation, fare_paid=trip["fare_paid"] + max(cash, 0), miles_paid=trip["miles_paid"] + miles)
    return trip_object(db, rules.my_trip(db, confirmation))


@tool(read_only=True)
def quote_cancel(db: Database, confirmation: Confirmation) -> CancelQuote:
    """What canceling the trip returns: a full refund within 24 hours of purchase or on a refundable fare, an
    eCredit for a non-refundable Main Cabin or premium fare, miles redeposited for an award, nothing for Basic
    Economy after 24 hours.

    Args:
        confirmation: The trip.
    """
    trip = rules.my_trip(db, confirmation)
    outcome, cents, miles, reason = rules.cancel_terms(db, trip)
    return CancelQuote(confirmation=confirmation, outcome=outcome, amount=usd(cents), miles=miles, reason=reason)


@tool()
def cancel_trip(db: Database, confirmation: Confirmation) -> CancelResult:
    """Cancel the whole trip before its first flight; its value comes back as quote_cancel says.

    Args:
        confirmation: The trip.
    """
    trip = rules.my_trip(db, confirmation)
    outcome, cents, miles, _ = rules.cancel_terms(db, trip)
    credit = rules.cancel(db, trip, outcome, cents, miles)
    return CancelResult(
        trip=trip_object(db, rules.my_trip(db, confirmation)),
        outcome=outcome,
        amount=usd(cents),
        miles=miles,
        credit_number=credit,
    )


@tool(read_only=True)
def list_ecredits(db: Database) -> list[CreditObject]:
    """The member's eCredits, with what is left on each and when it expires."""
    rows = db.find(ecredits, skymiles_number=rules.me(db)["skymiles_number"], order_by=["expires_on"])
    return [credit_object(row, db.now().date().isoformat()) for row in rows]


# ---------------------------------------------------------------- day of travel


@tool(read_only=True)
def list_same_day_options(db: Database, confirmation: Confirmation, flight_id: FlightId) -> list[SameDayOption]:
    """On the day of travel, the other flights on the same route that day a same-day change could move to, with
    the confirmed seats left and the fee for this member (standby is free). Not for Basic Economy.

    Args:
        confirmation: The trip.
        flight_id: The trip's flight today.
    """
    trip = rules.my_trip(db, confirmation)
    rules.same_day_pair(db, trip, flight_id, None)
    old = rules.flight(db, flight_id)
    fee = rules.same_day_fee(trip, rules.me(db)["medallion"])
    cabin = rules.CABIN_OF[trip["fare_brand"]]
    rows = db.select(
        flights,
        "origin = ? AND destination = ? AND flight_date = ? AND id != ? AND departs_at > ? AND status != 'CANCELED'",
        (old["origin"], old["destination"], old["flight_date"], old["id"], rules.stamp(db)),
        order_by="departs_at",
    )
    return [
        SameDayOption(
            flight_id=row["id"],
            flight_number=row["flight_number"],
            departs_at=row["departs_at"],
            confirmed_seats=row["seats_left"].get(cabin, 0),
            confirmed_fee=usd(fee),
            standby=True,
        )
        for row in rows
    ]


@tool()
def same_day_confirm(
    db: Database, confirmation: Confirmation, flight_id: FlightId, new_flight_id: FlightId
) -> TripObject:
    """Same-day confirmed: on the day of travel, move to another flight on the same route with a seat confirmed
    in the same cabin. $75 on Main Cabin, free for Gold Medallion and above and for Comfort+ and First fares.

    Args:
        confirmation: The trip.
        flight_id: The trip's flight today.
        new_flight_id: The flight to move to.
    """
    trip = rules.my_trip(db, confirmation)
    old, new = rules.same_day_pair(db, trip, flight_id, new_flight_id)
    rules.check_room(new, trip["fare_brand"], len(db.find(passengers, confirmation=confirmation)))
    rules.move_segment(db, trip, old, new)
    fee = rules.same_day_fee(trip, rules.me(db)["medallion"])
    db.update(trips, confirmation, fare_paid=trip["fare_paid"] + fee)
    return trip_object(db, rules.my_trip(db, confirmation))


@tool()
def same_day_standby(
    db: Database, confirmation: Confirmation, flight_id: FlightId, new_flight_id: FlightId
) -> TripObject:
    """Same-day standby: on the day of travel, list for another flight on the same route while keeping the
    confirmed seat on the original flight. Free; not for Basic Economy.

    Args:
        confirmation: The trip.
        flight_id: The trip's confirmed flight today.
        new_flight_id: The flight to stand by for.
    """
    trip = rules.my_trip(db, confirmation)
    old, new = rules.same_day_pair(db, trip, flight_id, new_flight_id)
    if db.find(segments, confirmation=confirmation, flight_id=new["id"], status="STANDBY"):
        raise Conflict(f"You are already on the standby list for {new['flight_number']}.")
    count = len(db.find(segments, confirmation=confirmation))
    db.insert(
        segments,
        id=f"{confirmation}-S{count + 1}",
        confirmation=confirmation,
        flight_id=new["id"],
        fare_paid=0,
        status="STANDBY",
        checked_in=False,
    )
    return trip_object(db, trip)


@tool()
def check_in(db: Database, confirmation: Confirmation, flight_id: FlightId) -> TripObject:
    """Check every passenger on the trip in for a flight, from 24 hours before departure. Basic Economy passengers
    without a seat get one assigned now.

    Args:
        confirmation: The trip.
        flight_id: The flight to check in for.
    """
    trip = rules.my_trip(db, confirmation)
    rules.refuse_closed(trip)
    leg = rules.live_segment(db, confirmation, flight_id)
    rules.check_in_window(db, rules.flight(db, flight_id))
    if leg["checked_in"]:
        raise Conflict("You are already checked in for this flight.")
    seated = {row["passenger_id"] for row in db.find(seat_assignments, flight_id=flight_id)}
    for person in db.find(passengers, confirmation=confirmation, order_by=["id"]):
        if person["id"] not in seated:
            rules.assign_seat(db, flight_id, person["id"], rules.first_free_main_seat(db, flight_id), 0)
    db.update(segments, leg["id"], checked_in=True)
    return trip_object(db, trip)


@tool()
def update_traveler_info(
    db: Database,
    confirmation: Confirmation,
    passenger_id: NonBlankText,
    known_traveler_number: KnownTraveler | None = None,
    skymiles_number: SkyMilesNumber | None = None,
) -> TripObject:
    """Add a passenger's Known Traveler Number (TSA PreCheck) or SkyMiles number to a trip.

    Args:
        confirmation: The trip.
        passenger_id: The passenger, from the trip.
        known_traveler_number: The KTN.
        skymiles_number: The passenger's own SkyMiles number (must exist).
    """
    trip = rules.my_trip(db, confirmation)
    rules.refuse_closed(trip)
    person = db.find_one(
        passengers, not_found=f"No passenger {passenger_id} on this trip.", id=passenger_id, confirmation=confirmation
    )
    if known_traveler_number is None and skymiles_number is None:
        raise InvalidRequest("Give a known_traveler_number or a skymiles_number.")
    if skymiles_number is not None:
        member = db.find_one(
            customers, not_found=f"SkyMiles number {skymiles_number} was not found.", skymiles_number=skymiles_number
        )
        if member["last_name"].lower() != person["last_name"].lower():
            raise InvalidRequest("The SkyMiles account's name doesn't match the passenger's name.")
    changes = {
        k: v
        for k, v in {"known_traveler_number": known_traveler_number, "skymiles_number": skymiles_number}.items()
        if v
    }
    db.update(passengers, passenger_id, **changes)
    return trip_object(db, trip)
