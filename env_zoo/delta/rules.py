"""Delta's published customer rules: who is signed in, fare brands and the cabins they sit in, Basic Economy
restrictions (no changes, no same-day changes, no advance seats, no value after the 24-hour window), the 24-hour
risk-free cancellation, eCredits for non-refundable value (valid one year), award tickets paid in SkyMiles with miles
redeposited on cancellation, seat maps by cabin with Preferred seats free for Gold Medallion and above, check-in
from 24 hours before departure, and same-day confirmed ($75 unless Gold Medallion and above or a premium fare) and
standby on the day of travel."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import (
    customers,
    ecredits,
    flights,
    miles_activity,
    passengers,
    seat_assignments,
    segments,
    sessions,
    trips,
)

CABIN_OF = {"MAIN_BASIC": "MAIN", "MAIN_CLASSIC": "MAIN", "COMFORT_PLUS": "COMFORT_PLUS", "FIRST": "FIRST"}
ROWS = {"FIRST": range(1, 5), "COMFORT_PLUS": range(10, 15), "MAIN": range(20, 36)}
LETTERS = {"FIRST": "ACDF", "COMFORT_PLUS": "ABCDEF", "MAIN": "ABCDEF"}
PREFERRED_ROWS = range(20, 23)
PREFERRED_FEE = 3000
SAME_DAY_FEE = 7500
AWARD_TAX = 560  # September 11 Security Fee per passenger per segment, cents
ELITE = ("GOLD", "PLATINUM", "DIAMOND")
RISK_FREE = timedelta(hours=24)
CHECK_IN_OPENS = timedelta(hours=24)


def me(db: Database) -> dict[str, Any]:
    """The signed-in SkyMiles member."""
    number = db.current_session(sessions, "Please log in to your SkyMiles account.")["skymiles_number"]
    return db.get(customers, number, "SkyMiles member")


def my_trip(db: Database, confirmation: str) -> dict[str, Any]:
    """A trip on the signed-in member's account."""
    owner = me(db)["skymiles_number"]
    return db.find_one(
        trips,
        not_found=f"We couldn't find a trip with confirmation number {confirmation} on your account.",
        confirmation=confirmation,
        skymiles_number=owner,
    )


def flight(db: Database, flight_id: str) -> dict[str, Any]:
    """A scheduled flight by id."""
    return db.find_one(flights, not_found=f"Flight {flight_id} not found.", id=flight_id)


def departed(db: Database, row: dict[str, Any]) -> bool:
    """Whether a flight has left (by its departure time against the clock)."""
    return parse_timestamp(row["departs_at"], "departs_at") <= db.now()


def live_segment(db: Database, confirmation: str, flight_id: str) -> dict[str, Any]:
    """The trip's confirmed segment on a flight."""
    return db.find_one(
        segments,
        not_found=f"Flight {flight_id} is not a confirmed flight on trip {confirmation}.",
        confirmation=confirmation,
        flight_id=flight_id,
        status="CONFIRMED",
    )


def refuse_basic(trip: dict[str, Any], what: str) -> None:
    """Basic Economy refuses changes of any kind."""
    if trip["fare_brand"] == "MAIN_BASIC":
        raise Conflict(f"Basic Economy tickets are not eligible for {what}.")


def refuse_closed(trip: dict[str, Any]) -> None:
    """Only ticketed trips change."""
    if trip["status"] != "TICKETED":
        raise Conflict(f"Trip {trip['confirmation']} is {trip['status'].lower()}.")


def price(row: dict[str, Any], trip: dict[str, Any]) -> int:
    """A flight's price per passenger in the trip's brand: cents, or miles for an award."""
    table = row["award_miles"] if trip["payment"] == "MILES" else row["fares"]
    return table[trip["fare_brand"]]


def check_room(row: dict[str, Any], brand: str, count: int) -> None:
    """Refuse a flight with too few seats left in the brand's cabin."""
    cabin = CABIN_OF[brand]
    if row["seats_left"].get(cabin, 0) < count:
        raise Conflict(f"{row['flight_number']} on {row['flight_date']} has no {brand} seats left for {count}.")


def take_seats(db: Database, row: dict[str, Any], brand: str, count: int) -> None:
    """Sell count seats of the brand's cabin on a flight (negative gives them back)."""
    left = dict(row["seats_left"])
    left[CABIN_OF[brand]] = left.get(CABIN_OF[brand], 0) - count
    db.update(flights, row["id"], seats_left=left)


def seat_cabin(seat: str) -> str | None:
    """The cabin a seat like "21C" sits in, or None if the aircraft has no such seat."""
    number, letter = seat[:-1], seat[-1]
    if not number.isdigit():
        return None
    for cabin, rows in ROWS.items():
        if int(number) in rows and letter in LETTERS[cabin]:
            return cabin
    return None


def taken(db: Database, flight_id: str) -> dict[str, dict[str, Any]]:
    """Seats already assigned on a flight."""
    return {row["seat"]: row for row in db.find(seat_assignments, flight_id=flight_id)}


def seat_fee(seat: str, medallion: str) -> int:
    """Preferred seats (rows 20-22) cost a fee unless the member is Gold Medallion or above."""
    return PREFERRED_FEE if int(seat[:-1]) in PREFERRED_ROWS and medallion not in ELITE else 0


def within_risk_free(db: Database, trip: dict[str, Any]) -> bool:
    """Whether the trip was bought less than 24 hours ago."""
    return db.now() - parse_timestamp(trip["purchased_at"], "purchased_at") < RISK_FREE


def same_day_fee(trip: dict[str, Any], medallion: str) -> int:
    """Same-day confirmed costs $75 on Main Cabin unless Gold Medallion or above; premium fares are free."""
    return SAME_DAY_FEE if trip["fare_brand"] == "MAIN_CLASSIC" and medallion not in ELITE else 0


def same_day_pair(
    db: Database, trip: dict[str, Any], flight_id: str, new_flight_id: str | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check a same-day change: not Basic, on the day of travel, same route and date, the new flight not gone."""
    refuse_closed(trip)
    refuse_basic(trip, "same-day changes")
    live_segment(db, trip["confirmation"], flight_id)
    old = flight(db, flight_id)
    if old["flight_date"] != db.now().date().isoformat():
        raise Conflict("Same-day changes are only available on the day of travel.")
    if departed(db, old):
        raise Conflict(f"{old['flight_number']} has already departed.")
    if new_flight_id is None:
        return old, old
    new = flight(db, new_flight_id)
    if (new["origin"], new["destination"], new["flight_date"]) != (
        old["origin"],
        old["destination"],
        old["flight_date"],
    ):
        raise InvalidRequest("A same-day change must keep the same origin, destination and travel date.")
    if new["id"] == old["id"] or departed(db, new) or new["status"] == "CANCELED":
        raise Conflict(f"{new['flight_number']} is not available for a same-day change.")
    return old, new


def check_in_window(db: Database, row: dict[str, Any]) -> None:
    """Check-in opens 24 hours before departure and closes at departure."""
    leaves = parse_timestamp(row["departs_at"], "departs_at")
    if db.now() < leaves - CHECK_IN_OPENS:
        raise Conflict(f"Check-in for {row['flight_number']} opens 24 hours before departure.")
    if db.now() >= leaves:
        raise Conflict(f"{row['flight_number']} has already departed.")


def first_free_main_seat(db: Database, flight_id: str) -> str:
    """The seat check-in gives a Basic Economy passenger: the rearmost free Main Cabin seat."""
    used = taken(db, flight_id)
    for row in reversed(ROWS["MAIN"]):
        for letter in LETTERS["MAIN"]:
            if f"{row}{letter}" not in used:
                return f"{row}{letter}"
    raise Conflict("No seats are left to assign; see an agent at the gate.")


def expiry(issued: datetime) -> str:
    """eCredits expire one year from issue."""
    return (issued.date() + timedelta(days=365)).isoformat()


def stamp(db: Database) -> str:
    """The clock as an ISO timestamp."""
    return iso_timestamp(db.now())


def not_found(what: str) -> NotFound:
    """A not-found error in Delta's wording."""
    return NotFound(f"We couldn't find {what}.")


def wrong_password() -> PermissionDenied:
    """Delta's sign-in failure."""
    return PermissionDenied("The SkyMiles number or password you entered is incorrect.")


CONFIRMATION_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_confirmation(db: Database) -> str:
    """The next six-character confirmation number (deterministic, from the state's counter)."""
    number = db.next_number("confirmation", trips) * 7919 + 104_729
    chars = []
    for _ in range(6):
        number, digit = divmod(number, len(CONFIRMATION_LETTERS))
        chars.append(CONFIRMATION_LETTERS[digit])
    return "".join(chars)


def post_miles(db: Database, member: dict[str, Any], miles: int, description: str) -> None:
    """Move miles in or out of the member's balance and write the activity line."""
    db.update(customers, member["skymiles_number"], miles_balance=me(db)["miles_balance"] + miles)
    db.insert(
        miles_activity,
        id=db.new_id(miles_activity, "MA", 6),
        skymiles_number=member["skymiles_number"],
        posted_on=db.now().date().isoformat(),
        description=description,
        miles=miles,
    )


def assign_seat(db: Database, flight_id: str, passenger_id: str, seat: str, fee: int) -> None:
    """Give a passenger a seat on a flight, releasing the one they had."""
    for row in db.find(seat_assignments, flight_id=flight_id, passenger_id=passenger_id):
        db.delete(seat_assignments, row["id"])
    db.insert(
        seat_assignments,
        id=db.new_id(seat_assignments, "SA", 6),
        flight_id=flight_id,
        seat=seat,
        passenger_id=passenger_id,
        fee=fee,
    )


def change_terms(
    db: Database, confirmation: str, flight_id: str, new_flight_id: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], int, int]:
    """Check a change and price it: (trip, old flight, new flight, cash difference, miles difference)."""
    trip = my_trip(db, confirmation)
    refuse_closed(trip)
    refuse_basic(trip, "changes")
    leg = live_segment(db, confirmation, flight_id)
    old, new = flight(db, flight_id), flight(db, new_flight_id)
    if departed(db, old):
        raise Conflict(f"{old['flight_number']} has already departed and can't be changed.")
    if (new["origin"], new["destination"]) != (old["origin"], old["destination"]):
        raise InvalidRequest(
            "The new flight must fly the same origin and destination; to change cities, cancel and rebook."
        )
    if new["id"] == old["id"] or departed(db, new) or new["status"] == "CANCELED":
        raise Conflict(f"{new['flight_number']} on {new['flight_date']} can't be booked.")
    count = len(db.find(passengers, confirmation=confirmation))
    check_room(new, trip["fare_brand"], count)
    difference = (price(new, trip) - leg["fare_paid"]) * count
    if trip["payment"] == "MILES":
        if difference > me(db)["miles_balance"]:
            raise Conflict(f"You need {difference} more miles for this change.")
        return trip, old, new, 0, difference
    return trip, old, new, difference, 0


def move_segment(db: Database, trip: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> None:
    """Move a trip's confirmed segment to another flight: seats given back, seat choices released."""
    leg = live_segment(db, trip["confirmation"], old["id"])
    count = len(db.find(passengers, confirmation=trip["confirmation"]))
    take_seats(db, old, trip["fare_brand"], -count)
    take_seats(db, flight(db, new["id"]), trip["fare_brand"], count)
    for person in db.find(passengers, confirmation=trip["confirmation"]):
        for row in db.find(seat_assignments, flight_id=old["id"], passenger_id=person["id"]):
            db.delete(seat_assignments, row["id"])
    for standby in db.find(segments, confirmation=trip["confirmation"], flight_id=new["id"], status="STANDBY"):
        db.update(segments, standby["id"], status="REMOVED")
    db.update(segments, leg["id"], flight_id=new["id"], fare_paid=price(new, trip), checked_in=False)


def issue_credit(db: Database, trip: dict[str, Any], cents: int) -> str:
    """An eCredit for unused value, valid one year; numbered like a Delta ticket."""
    number = f"006{db.next_number('ecredit', ecredits) + 9_870_000_000:010d}"
    db.insert(
        ecredits,
        credit_number=number,
        skymiles_number=trip["skymiles_number"],
        original_value=cents,
        remaining=cents,
        issued_on=db.now().date().isoformat(),
        expires_on=expiry(db.now()),
        source_confirmation=trip["confirmation"],
    )
    return number


def cancel_terms(db: Database, trip: dict[str, Any]) -> tuple[str, int, int, str]:
    """What canceling returns: (outcome, cents, miles, reason)."""
    refuse_closed(trip)
    legs = db.find(segments, confirmation=trip["confirmation"], status="CONFIRMED")
    if any(departed(db, flight(db, leg["flight_id"])) for leg in legs):
        raise Conflict("This trip has already started; its remaining flights can't be canceled online.")
    if trip["payment"] == "MILES":
        return "MILES_REDEPOSIT", trip["fare_paid"], trip["miles_paid"], "Award tickets redeposit miles with no fee."
    if within_risk_free(db, trip):
        return "REFUND", trip["fare_paid"], 0, "Canceled within 24 hours of purchase: full refund."
    if trip["refundable"]:
        return "REFUND", trip["fare_paid"], 0, "Refundable fare: refund to the original form of payment."
    if trip["fare_brand"] == "MAIN_BASIC":
        return "NO_VALUE", 0, 0, "Basic Economy tickets have no value once the 24-hour window has passed."
    return "ECREDIT", trip["fare_paid"], 0, "Non-refundable fare: the ticket's value becomes an eCredit."


def cancel(db: Database, trip: dict[str, Any], outcome: str, cents: int, miles: int) -> str | None:
    """Cancel a trip: seats given back, value returned by outcome; the eCredit number if one was issued."""
    count = len(db.find(passengers, confirmation=trip["confirmation"]))
    for leg in db.find(segments, confirmation=trip["confirmation"]):
        if leg["status"] == "CONFIRMED":
            take_seats(db, flight(db, leg["flight_id"]), trip["fare_brand"], -count)
            for person in db.find(passengers, confirmation=trip["confirmation"]):
                for row in db.find(seat_assignments, flight_id=leg["flight_id"], passenger_id=person["id"]):
                    db.delete(seat_assignments, row["id"])
        if leg["status"] in ("CONFIRMED", "STANDBY"):
            db.update(segments, leg["id"], status="CANCELED")
    db.update(trips, trip["confirmation"], status="CANCELED")
    if outcome == "MILES_REDEPOSIT":
        post_miles(db, me(db), miles, f"Award redeposit {trip['confirmation']}")
    if outcome == "ECREDIT":
        return issue_credit(db, trip, cents)
    return None
