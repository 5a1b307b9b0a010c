"""Trainline's objects as the tools return them, and how stored rows become them. Prices are GBP decimal
strings ("45.10")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from . import rules
from .schema import refunds, stations, tickets


def gbp(pence: int) -> str:
    return format_amount(pence, "GBP")


class StationObject(BaseModel):
    code: str
    name: str
    city: str
    country: str


class PassengerPrice(BaseModel):
    passenger_type: str
    price: str
    railcard_applied: bool


class FareOffer(BaseModel):
    fare_type: str
    travel_class: str
    single_price: str
    return_price: str | None
    passengers: list[PassengerPrice]
    advance_seats_left: int | None
    refundable: bool
    railcard_note: str | None


class JourneyObject(BaseModel):
    service_id: str
    operator: str
    origin: str
    destination: str
    departs: str
    arrives: str
    duration_minutes: int
    status: str
    peak: bool
    fares: list[FareOffer]
    unavailable: list[str]


class ServiceObject(BaseModel):
    service_id: str
    headcode: str
    operator: str
    origin: str
    destination: str
    departs: str
    arrives: str
    status: str
    peak: bool
    advance_standard_left: int
    advance_first_left: int
    free_seats_standard: int
    free_seats_first: int


class SeatObject(BaseModel):
    coach: str
    seat: int
    features: list[str]


class SeatMap(BaseModel):
    service_id: str
    travel_class: str
    free_seats: int
    seats: list[SeatObject]


class FareConditions(BaseModel):
    fare_type: str
    summary: str
    refundable: bool
    changeable: bool
    refund_rule: str
    change_rule: str
    refund_fee_table: list[str]
    change_fee_table: list[str]


class RailcardObject(BaseModel):
    railcard_id: str
    type: str
    name: str
    number: str
    holders: list[str]
    expires: str
    expired: bool


class PassengerObject(BaseModel):
    passenger_id: str
    name: str
    passenger_type: str
    date_of_birth: str


class AccountObject(BaseModel):
    user_id: str
    name: str
    email: str
    payment_card: str
    saved_passengers: list[PassengerObject]


class TicketObject(BaseModel):
    ticket_id: str
    passenger_name: str
    passenger_type: str
    fare_type: str
    travel_class: str
    journey_type: str
    service_id: str
    outward: str
    return_service_id: str | None
    return_journey: str | None
    price: str
    railcard_applied: bool
    status: str
    seat: str | None
    return_seat: str | None


class RefundObject(BaseModel):
    refund_id: str
    ticket_ids: list[str]
    ticket_value: str
    fee: str
    amount: str
    reason: str


class BookingObject(BaseModel):
    booking_ref: str
    status: str
    delivery: str
    railcard_id: str | None
    total_paid: str
    currency: str
    exchanged_to: str | None
    exchanged_from: str | None
    change_paid: str | None
    tickets: list[TicketObject]
    refunds: list[RefundObject]


class BookingSummary(BaseModel):
    booking_ref: str
    status: str
    route: str
    first_departure: str
    passengers: int
    total_paid: str


class TicketQuote(BaseModel):
    ticket_id: str
    passenger_name: str
    price: str
    refundable: bool
    reason: str | None
    fee: str
    refund_amount: str


class RefundQuote(BaseModel):
    booking_ref: str
    tickets: list[TicketQuote]
    total_refund: str
    total_fees: str


class ExchangeLine(BaseModel):
    passenger_name: str
    old_price: str
    new_price: str
    difference: str
    admin_fee: str


class ExchangeQuote(BaseModel):
    booking_ref: str
    new_service_id: str
    departs: str
    fare_type: str
    lines: list[ExchangeLine]
    amount_to_pay: str


class ExchangeResult(BaseModel):
    old_booking_ref: str
    amount_charged: str
    new_booking: BookingObject


def station_object(row: dict[str, Any]) -> StationObject:
    return StationObject(code=row["code"], name=row["name"], city=row["city"], country=row["country"])


def station_name(db: Database, code: str) -> str:
    return str(db.get(stations, code, "Station")["name"])


def leg(db: Database, service_id: str) -> str:
    row = rules.service(db, service_id)
    route = f"{station_name(db, row['origin'])} -> {station_name(db, row['destination'])}"
    return f"{row['departs']} {route} ({row['operator']})"


def ticket_object(db: Database, row: dict[str, Any]) -> TicketObject:
    return TicketObject(
        ticket_id=row["id"],
        passenger_name=row["passenger_name"],
        passenger_type=row["passenger_type"],
        fare_type=row["fare_type"],
        travel_class=row["travel_class"],
        journey_type=row["journey_type"],
        service_id=row["service_id"],
        outward=leg(db, row["service_id"]),
        return_service_id=row["return_service_id"],
        return_journey=leg(db, row["return_service_id"]) if row["return_service_id"] else None,
        price=gbp(row["price"]),
        railcard_applied=row["railcard_applied"],
        status=row["status"],
        seat=f"{row['coach']}{row['seat']}" if row["seat"] is not None else None,
        return_seat=f"{row['return_coach']}{row['return_seat']}" if row["return_seat"] is not None else None,
    )


def booking_object(db: Database, row: dict[str, Any]) -> BookingObject:
    found = db.find(tickets, booking_ref=row["booking_ref"])
    paid_back = db.find(refunds, booking_ref=row["booking_ref"])
    return BookingObject(
        booking_ref=row["booking_ref"],
        status=row["status"],
        delivery=row["delivery"],
        railcard_id=row["railcard_id"],
        total_paid=gbp(row["total"]),
        currency="GBP",
        exchanged_to=row["exchanged_to"],
        exchanged_from=row["exchanged_from"],
        change_paid=gbp(row["change_paid"]) if row["change_paid"] is not None else None,
        tickets=[ticket_object(db, t) for t in found],
        refunds=[
            RefundObject(
                refund_id=r["id"],
                ticket_ids=r["ticket_ids"],
                ticket_value=gbp(r["ticket_value"]),
                fee=gbp(r["fee"]),
                amount=gbp(r["amount"]),
                reason=r["reason"],
            )
            for r in paid_back
        ],
    )


def railcard_object(row: dict[str, Any], today: str) -> RailcardObject:
    return RailcardObject(
        railcard_id=row["id"],
        type=row["type"],
        name=rules.RAILCARDS[row["type"]]["name"],
        number=row["number"],
        holders=row["holders"],
        expires=row["expires"],
        expired=row["expires"] < today,
    )


def fee_table(table: tuple[tuple[int, int], ...], cap: int) -> list[str]:
    lines, low = [], 0
    for upto, fee in table:
        lines.append(f"{gbp(low)}-{gbp(upto)}: {gbp(fee)}")
        low = upto + 1
    lines.append(f"{gbp(low)} and over: {gbp(cap)}")
    return lines


def account_object(db: Database, user: dict[str, Any], saved: list[dict[str, Any]]) -> AccountObject:
    return AccountObject(
        user_id=user["id"],
        name=user["name"],
        email=user["email"],
        payment_card=f"Visa ending {user['card_last4']}",
        saved_passengers=[
            PassengerObject(
                passenger_id=p["id"],
                name=p["name"],
                passenger_type=p["passenger_type"],
                date_of_birth=p["date_of_birth"],
            )
            for p in saved
        ],
    )


def journey_object(db: Database, row: dict[str, Any], fares: list[FareOffer], unavailable: list[str]) -> JourneyObject:
    return JourneyObject(
        service_id=row["id"],
        operator=row["operator"],
        origin=row["origin"],
        destination=row["destination"],
        departs=row["departs"],
        arrives=row["arrives"],
        duration_minutes=rules.duration_minutes(db, row),
        status=row["status"],
        peak=rules.is_peak(row),
        fares=fares,
        unavailable=unavailable,
    )


def service_object(db: Database, row: dict[str, Any]) -> ServiceObject:
    taken = rules.taken_seats(db, row["id"])
    free = {kind: len([s for s in rules.all_seats(row, kind) if s not in taken]) for kind in ("STANDARD", "FIRST")}
    return ServiceObject(
        service_id=row["id"],
        headcode=row["headcode"],
        operator=row["operator"],
        origin=row["origin"],
        destination=row["destination"],
        departs=row["departs"],
        arrives=row["arrives"],
        status=row["status"],
        peak=rules.is_peak(row),
        advance_standard_left=row["advance_standard_left"] if row["advance_standard"] is not None else 0,
        advance_first_left=row["advance_first_left"] if row["advance_first"] is not None else 0,
        free_seats_standard=free["STANDARD"],
        free_seats_first=free["FIRST"],
    )


def summary_object(db: Database, row: dict[str, Any], held: list[dict[str, Any]]) -> BookingSummary:
    first = rules.service(db, held[0]["service_id"]) if held else None
    route = (
        f"{station_name(db, first['origin'])} -> {station_name(db, first['destination'])}"
        + (" (return)" if held[0]["return_service_id"] else "")
        if first
        else ""
    )
    return BookingSummary(
        booking_ref=row["booking_ref"],
        status=row["status"],
        route=route,
        first_departure=first["departs"] if first else "",
        passengers=len(held),
        total_paid=gbp(row["total"]),
    )
