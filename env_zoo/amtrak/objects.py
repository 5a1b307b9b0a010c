"""Amtrak's booking objects as output models, and how stored rows become them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import local_time, segment_times, stops_of
from .schema import departures, etickets, passengers, routes, segments, stations, trains


class StationObject(BaseModel):
    """A station and its services."""

    code: str
    name: str
    city: str
    state: str
    timezone: str
    ticket_office: bool
    accessible: bool


class StopObject(BaseModel):
    """A stop of a train's timetable (local times)."""

    stop_sequence: int
    station_code: str
    station_name: str
    arrival_time: str | None
    departure_time: str | None
    day_offset: int = Field(description="days after the train leaves its origin")


class TrainObject(BaseModel):
    """A train and its timetable."""

    train_number: str
    train_name: str
    route_name: str
    route_type: str
    days_of_operation: list[str]
    classes_of_service: list[str]
    amenities: list[str]
    stops: list[StopObject]


class FareOption(BaseModel):
    """One fare on one train between two stations."""

    fare_code: str
    class_of_service: str
    price_cents: int = Field(description="one adult; sleepers: one room plus one adult's rail fare")
    room_charge_cents: int | None = Field(description="sleepers only: the charge per room (sleeps two)")
    seats_left: int = Field(description="seats (rooms for sleepers) left at this fare between the two stations")
    available: bool = Field(description="enough seats for the party searched for")


class TrainOption(BaseModel):
    """A direct train between two stations on a date."""

    train_number: str
    train_name: str
    route_name: str
    travel_date: str
    origin: str
    destination: str
    departs_at: str
    arrives_at: str
    duration: str
    status: str
    fares: list[FareOption]


class StopStatus(BaseModel):
    """A stop as Track Your Train shows it."""

    station_code: str
    scheduled: str
    estimated: str
    state: str = Field(description="Departed, Arrived or Expected")


class TrainStatusObject(BaseModel):
    """A train's status on one service date."""

    train_number: str
    train_name: str
    service_date: str
    status: str = Field(description="SCHEDULED, DELAYED, CANCELLED, EN ROUTE or ARRIVED")
    delay_minutes: int
    service_alert: str | None
    stops: list[StopStatus]


class FareRuleObject(BaseModel):
    """The change and refund rules of one fare."""

    fare_code: str
    classes_of_service: list[str]
    refunds: str
    changes: str
    passenger_discounts: bool


class CardOnFile(BaseModel):
    """The payment card saved to a Guest Rewards profile."""

    brand: str
    last4: str
    expires: str


class MemberObject(BaseModel):
    """An Amtrak Guest Rewards member's profile."""

    member_number: str
    first_name: str
    last_name: str
    email: str
    phone: str
    tier: str
    points_balance: int
    card_on_file: CardOnFile | None
    home_station: str | None
    member_since: str


class ReservationSummary(BaseModel):
    """A trip as My Trips lists it."""

    reservation_number: str
    status: str
    trip_type: str
    itinerary: list[str] = Field(description="one line per segment: date, train, origin-destination, status")
    travelers: int
    total_cents: int
    booked_at: str


class PassengerObject(BaseModel):
    """A traveller on a reservation."""

    passenger_id: str
    first_name: str
    last_name: str
    passenger_type: str = Field(description="adult, senior (65+), child (2-12), infant (under 2) or military")
    status: str


class SegmentObject(BaseModel):
    """One train ride of a reservation."""

    segment_id: str
    sequence: int
    train_number: str
    train_name: str
    service_date: str
    origin: str
    destination: str
    departs_at: str
    arrives_at: str
    fare_code: str
    class_of_service: str
    rooms: int
    passenger_fares: dict[str, int] = Field(description="rail fare in cents per passenger_id")
    accommodation_cents: int
    fare_cents: int
    status: str = Field(description="CONFIRMED, CANCELLED, USED or NO_SHOW")
    train_status: str


class ReservationObject(BaseModel):
    """A reservation with its segments, travellers, payment and current eTicket."""

    reservation_number: str
    member_number: str
    status: str
    trip_type: str
    contact_email: str
    contact_phone: str
    total_cents: int
    paid_card_cents: int
    paid_evoucher_cents: int
    award: bool = Field(description="paid with Guest Rewards points")
    paid_points: int
    eticket_number: str | None
    booked_at: str
    passengers: list[PassengerObject]
    segments: list[SegmentObject]


class EVoucherObject(BaseModel):
    """An eVoucher: stored value for future Amtrak travel."""

    evoucher_number: str
    member_number: str
    source_reservation: str | None
    original_cents: int
    balance_cents: int
    expires_on: str
    status: str


class ActivityObject(BaseModel):
    """A line of Guest Rewards points activity."""

    activity_id: str
    reservation_number: str | None
    description: str
    points: int
    posted_at: str


class QuoteLine(BaseModel):
    """What cancelling one segment (or one traveller's part of it) would give back."""

    segment_id: str
    train_number: str
    origin: str
    destination: str
    service_date: str
    fare_code: str
    amount_cents: int
    fee_cents: int
    refundable_cents: int
    forfeited_cents: int
    refund_methods: list[str] = Field(description="original_payment and/or evoucher; empty when nothing comes back")
    rule: str


class CancellationQuote(BaseModel):
    """A refund preview; nothing is cancelled."""

    reservation_number: str
    lines: list[QuoteLine]
    refundable_cents: int
    fee_cents: int
    forfeited_cents: int


class CancellationObject(BaseModel):
    """The outcome of a cancellation or of removing a traveller."""

    reservation_number: str
    reservation_status: str
    lines: list[QuoteLine]
    refunded_to_card_cents: int
    points_returned: int
    evoucher: EVoucherObject | None
    fee_cents: int
    forfeited_cents: int
    eticket_number: str | None = Field(description="the reissued eTicket; null when nothing is left to travel")


class ChangeObject(BaseModel):
    """The outcome of changing a segment's train, date or fare."""

    reservation: ReservationObject
    old_fare_cents: int
    new_fare_cents: int
    change_fee_cents: int
    collected_cents: int = Field(description="charged to the card on file")
    collected_points: int
    refunded_to_card_cents: int
    points_returned: int
    evoucher: EVoucherObject | None


class ScanObject(BaseModel):
    """An eTicket lifted by the conductor on board."""

    eticket_number: str
    reservation_number: str
    segment_id: str
    train_number: str
    origin: str
    destination: str
    travelers: int
    status: str
    points_credited: int


# ---------------------------------------------------------------- rows to objects


def stamp(moment: datetime) -> str:
    """A local time with its UTC offset, e.g. 2025-06-20T15:40:00-04:00."""
    return moment.isoformat(timespec="seconds")


def duration(minutes: int) -> str:
    """Minutes as 3h 05m."""
    return f"{minutes // 60}h {minutes % 60:02d}m"


def station_name(db: Database, code: str) -> str:
    """A station's display name."""
    return db.get(stations, code, "Station")["name"]


def train_object(db: Database, train: dict[str, Any]) -> TrainObject:
    """A train with its stops."""
    route = db.get(routes, train["route_id"], "Route")
    stops = [
        StopObject(
            station_name=station_name(db, s["station_code"]),
            **{k: s[k] for k in ("stop_sequence", "station_code", "arrival_time", "departure_time", "day_offset")},
        )
        for s in stops_of(db, train["train_number"])
    ]
    return TrainObject(
        train_number=train["train_number"],
        train_name=train["train_name"],
        route_name=route["route_name"],
        route_type=route["route_type"],
        days_of_operation=train["days_of_operation"],
        classes_of_service=list(train["capacity"]),
        amenities=train["amenities"],
        stops=stops,
    )


def train_status(db: Database, train: dict[str, Any], departure: dict[str, Any]) -> TrainStatusObject:
    """A departure's status at the simulated now, stop by stop: expected, or arrived/departed (delay included)."""
    delay = timedelta(minutes=departure["delay_minutes"])
    running = departure["status"] != "CANCELLED"
    day = departure["service_date"]
    lines = []
    for stop in stops_of(db, train["train_number"]):
        which = "departure" if stop["departure_time"] else "arrival"
        scheduled = local_time(db, stop, day, which)
        passed = running and db.now() >= scheduled + delay
        lines.append(
            StopStatus(
                station_code=stop["station_code"],
                scheduled=stamp(scheduled),
                estimated=stamp(scheduled + delay),
                state=("Departed" if which == "departure" else "Arrived") if passed else "Expected",
            )
        )
    status = departure["status"]
    if running and lines[-1].state == "Arrived":
        status = "ARRIVED"
    elif running and lines[0].state == "Departed":
        status = "EN ROUTE"
    return TrainStatusObject(
        train_number=train["train_number"],
        train_name=train["train_name"],
        service_date=day,
        status=status,
        delay_minutes=departure["delay_minutes"],
        service_alert=departure["service_alert"],
        stops=lines,
    )


def member_object(row: dict[str, Any]) -> MemberObject:
    """A member's profile."""
    card = row["card_on_file"]
    return MemberObject(**{**row, "card_on_file": CardOnFile(**card) if card else None})


def segment_amount(segment: dict[str, Any]) -> int:
    """What a segment's travellers pay: rail fares plus room charges."""
    return sum(segment["passenger_fares"].values()) + segment["accommodation_cents"]


def segment_object(db: Database, segment: dict[str, Any]) -> SegmentObject:
    """A segment with local departure and arrival times and its train's status."""
    leaves, arrives = segment_times(db, segment)
    departure = db.get(departures, segment["departure_id"], "Departure")
    return SegmentObject(
        **{
            k: segment[k]
            for k in (
                "segment_id",
                "sequence",
                "train_number",
                "service_date",
                "origin",
                "destination",
                "fare_code",
                "class_of_service",
                "rooms",
                "passenger_fares",
                "accommodation_cents",
                "status",
            )
        },
        train_name=db.get(trains, segment["train_number"], "Train")["train_name"],
        departs_at=stamp(leaves),
        arrives_at=stamp(arrives),
        fare_cents=segment_amount(segment),
        train_status=departure["status"],
    )


def current_eticket(db: Database, reservation_number: str) -> str | None:
    """The eTicket number in force for a reservation."""
    issued = db.find(etickets, reservation_number=reservation_number, status="ISSUED")
    return issued[0]["eticket_number"] if issued else None


def reservation_segments(db: Database, reservation_number: str) -> list[dict[str, Any]]:
    """A reservation's segments in travel order."""
    return db.find(segments, reservation_number=reservation_number, order_by=[segments.c.sequence])


def reservation_object(db: Database, row: dict[str, Any]) -> ReservationObject:
    """A reservation with everything on it."""
    number = row["reservation_number"]
    travellers = db.find(passengers, reservation_number=number, order_by=[passengers.c.passenger_id])
    return ReservationObject(
        **{
            k: row[k]
            for k in (
                "reservation_number",
                "member_number",
                "status",
                "trip_type",
                "contact_email",
                "contact_phone",
                "total_cents",
                "paid_card_cents",
                "paid_evoucher_cents",
                "award",
                "paid_points",
                "booked_at",
            )
        },
        eticket_number=current_eticket(db, number),
        passengers=[PassengerObject(**{k: p[k] for k in PassengerObject.model_fields}) for p in travellers],
        segments=[segment_object(db, s) for s in reservation_segments(db, number)],
    )


def reservation_summary(db: Database, row: dict[str, Any]) -> ReservationSummary:
    """A reservation as one line per segment."""
    number = row["reservation_number"]
    lines = [
        f"{s['service_date']} train {s['train_number']} {s['origin']}-{s['destination']} {s['status']}"
        for s in reservation_segments(db, number)
    ]
    travellers = db.find(passengers, reservation_number=number, status="ACTIVE")
    return ReservationSummary(
        reservation_number=number,
        status=row["status"],
        trip_type=row["trip_type"],
        itinerary=lines,
        travelers=len(travellers),
        total_cents=row["total_cents"],
        booked_at=row["booked_at"],
    )


def evoucher_object(row: dict[str, Any] | None) -> EVoucherObject | None:
    """An eVoucher row as the agent sees it (None stays None)."""
    return EVoucherObject(**{k: row[k] for k in EVoucherObject.model_fields}) if row else None
