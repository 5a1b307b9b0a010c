"""Delta's customer-facing objects as output models (profile, flights with fares, trips with passengers, segments
and seats, seat maps, quotes, eCredits, SkyMiles activity) and how stored rows become them. Amounts are USD strings
like "189.00"; award prices are whole miles."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from . import rules
from .schema import passengers, seat_assignments, segments

FareBrand = Literal["MAIN_BASIC", "MAIN_CLASSIC", "COMFORT_PLUS", "FIRST"]


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, "USD")


class ProfileObject(BaseModel):
    """The signed-in SkyMiles member."""

    skymiles_number: str
    name: str
    email: str
    medallion: str
    miles_balance: int
    card_on_file: str = Field(description="The saved card's last four digits")


class FlightObject(BaseModel):
    """A flight with its fares by brand (cash per passenger and miles per passenger) and seats left by cabin."""

    flight_id: str
    flight_number: str
    flight_date: str
    origin: str
    destination: str
    departs_at: str
    arrives_at: str
    aircraft: str
    status: str
    fares: dict[str, str]
    award_miles: dict[str, int]
    seats_left: dict[str, int]


class PassengerObject(BaseModel):
    """A passenger on a trip and their seats by flight."""

    passenger_id: str
    name: str
    skymiles_number: str | None
    known_traveler_number: str | None
    seats: dict[str, str] = Field(description="flight_id -> seat")


class SegmentObject(BaseModel):
    """One flight of a trip."""

    flight_id: str
    flight_number: str
    origin: str
    destination: str
    departs_at: str
    status: str
    checked_in: bool


class TripObject(BaseModel):
    """A reservation under its confirmation number."""

    confirmation: str
    ticket_number: str
    fare_brand: str
    refundable: bool
    payment: str
    fare_paid: str
    miles_paid: int
    purchased_at: str
    status: str
    segments: list[SegmentObject]
    passengers: list[PassengerObject]


class SeatObject(BaseModel):
    """A seat on a seat map."""

    seat: str
    cabin: str
    available: bool
    preferred: bool
    fee: str


class SeatMapObject(BaseModel):
    """The seats of the cabin a trip's fare sits in."""

    flight_id: str
    cabin: str
    seats: list[SeatObject]


class ChangeQuote(BaseModel):
    """What moving a trip from one flight to another costs."""

    confirmation: str
    from_flight: str
    to_flight: str
    fare_difference: str = Field(description="Positive: collected; negative: returned as an eCredit")
    miles_difference: int
    change_fee: str


class CancelQuote(BaseModel):
    """What canceling a trip returns."""

    confirmation: str
    outcome: Literal["REFUND", "ECREDIT", "MILES_REDEPOSIT", "NO_VALUE"]
    amount: str
    miles: int
    reason: str


class CreditObject(BaseModel):
    """An eCredit on the member's account."""

    credit_number: str
    original_value: str
    remaining: str
    issued_on: str
    expires_on: str
    source_confirmation: str | None
    usable: bool


class SameDayOption(BaseModel):
    """A flight a same-day change could move to."""

    flight_id: str
    flight_number: str
    departs_at: str
    confirmed_seats: int
    confirmed_fee: str
    standby: bool


class ActivityObject(BaseModel):
    """A line of SkyMiles activity."""

    posted_on: str
    description: str
    miles: int


class CancelResult(BaseModel):
    """A canceled trip and what it returned."""

    trip: TripObject
    outcome: str
    amount: str
    miles: int
    credit_number: str | None


def flight_object(row: dict) -> FlightObject:
    """A stored flight as output."""
    return FlightObject(
        flight_id=row["id"],
        flight_number=row["flight_number"],
        flight_date=row["flight_date"],
        origin=row["origin"],
        destination=row["destination"],
        departs_at=row["departs_at"],
        arrives_at=row["arrives_at"],
        aircraft=row["aircraft"],
        status=row["status"],
        fares={brand: usd(cents) for brand, cents in row["fares"].items()},
        award_miles=row["award_miles"],
        seats_left=row["seats_left"],
    )


def trip_object(db: Database, trip: dict) -> TripObject:
    """A stored trip with its segments, passengers and seats."""
    legs = db.find(segments, confirmation=trip["confirmation"], order_by=["id"])
    flight_rows = {leg["flight_id"]: rules.flight(db, leg["flight_id"]) for leg in legs}
    people = db.find(passengers, confirmation=trip["confirmation"], order_by=["id"])
    seats: dict[str, dict[str, str]] = {person["id"]: {} for person in people}
    for flight_id in flight_rows:
        for seat in db.find(seat_assignments, flight_id=flight_id):
            if seat["passenger_id"] in seats:
                seats[seat["passenger_id"]][flight_id] = seat["seat"]
    return TripObject(
        confirmation=trip["confirmation"],
        ticket_number=trip["ticket_number"],
        fare_brand=trip["fare_brand"],
        refundable=trip["refundable"],
        payment=trip["payment"],
        fare_paid=usd(trip["fare_paid"]),
        miles_paid=trip["miles_paid"],
        purchased_at=trip["purchased_at"],
        status=trip["status"],
        segments=[
            SegmentObject(
                flight_id=leg["flight_id"],
                flight_number=flight_rows[leg["flight_id"]]["flight_number"],
                origin=flight_rows[leg["flight_id"]]["origin"],
                destination=flight_rows[leg["flight_id"]]["destination"],
                departs_at=flight_rows[leg["flight_id"]]["departs_at"],
                status=leg["status"],
                checked_in=leg["checked_in"],
            )
            for leg in legs
        ],
        passengers=[
            PassengerObject(
                passenger_id=person["id"],
                name=f"{person['first_name']} {person['last_name']}",
                skymiles_number=person["skymiles_number"],
                known_traveler_number=person["known_traveler_number"],
                seats=seats[person["id"]],
            )
            for person in people
        ],
    )


def credit_object(row: dict, today: str) -> CreditObject:
    """A stored eCredit as output."""
    return CreditObject(
        credit_number=row["credit_number"],
        original_value=usd(row["original_value"]),
        remaining=usd(row["remaining"]),
        issued_on=row["issued_on"],
        expires_on=row["expires_on"],
        source_confirmation=row["source_confirmation"],
        usable=row["remaining"] > 0 and row["expires_on"] >= today,
    )
