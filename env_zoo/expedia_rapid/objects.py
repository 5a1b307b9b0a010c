"""Rapid's response objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .rules import CURRENCY, money, penalty_now, stay_total


class Region(BaseModel):
    id: str
    name: str
    type: str
    country_code: str
    parent_id: str | None
    property_ids: list[str]


class Address(BaseModel):
    line_1: str
    city: str
    postal_code: str
    country_code: str


class Checkin(BaseModel):
    begin_time: str
    end_time: str
    min_age: int


class RoomContent(BaseModel):
    id: str
    name: str
    max_adults: int
    max_occupancy: int
    bed_group: str
    amenities: list[str]


class PropertyContent(BaseModel):
    property_id: str
    name: str
    region_id: str
    address: Address
    category: str
    chain: str | None
    star_rating: str
    guest_rating: str
    phone: str
    checkin: Checkin
    checkout_time: str
    amenities: list[str]
    pets_allowed: bool
    know_before_you_go: str
    resort_fee_per_night: str
    rooms: list[RoomContent]


class PropertySummary(BaseModel):
    property_id: str
    name: str
    city: str
    category: str
    star_rating: str
    guest_rating: str


class Review(BaseModel):
    id: str
    rating: str
    title: str
    text: str
    date_submitted: str
    traveler_type: str
    reviewer_name: str


class CalendarDay(BaseModel):
    date: str
    available: bool
    rooms_available: int


class PropertyCalendar(BaseModel):
    property_id: str
    days: list[CalendarDay]


class NightPrice(BaseModel):
    date: str
    base_rate: str
    tax_and_service_fee: str


class OccupancyPricing(BaseModel):
    occupancy: str
    nightly: list[NightPrice]
    exclusive: str
    inclusive: str
    resort_fee_due_at_property: str


class CancelPenalty(BaseModel):
    currency: str = CURRENCY
    start: str
    end: str
    amount: str | None = None
    nights: str | None = None
    percent: str | None = None


class Rate(BaseModel):
    id: str
    status: str
    available_rooms: int
    board: str
    refundable: bool
    holdable: bool
    cancel_penalties: list[CancelPenalty]
    occupancy_pricing: list[OccupancyPricing]
    total_inclusive: str


class RoomAvailability(BaseModel):
    id: str
    room_name: str
    rates: list[Rate]


class PropertyAvailability(BaseModel):
    property_id: str
    name: str
    status: str
    currency: str = CURRENCY
    rooms: list[RoomAvailability]


class PriceCheck(BaseModel):
    status: str
    token: str | None
    property_id: str
    room_id: str
    rate_id: str
    occupancy_pricing: list[OccupancyPricing]
    total_inclusive: str
    currency: str = CURRENCY


class PaymentOptions(BaseModel):
    property_id: str
    affiliate_collect: bool
    property_collect_card_types: list[str]


class ItineraryLinks(BaseModel):
    retrieve: str
    resume: str | None = None
    cancel: str | None = None


class ItineraryCreated(BaseModel):
    itinerary_id: str
    links: ItineraryLinks


class BookedRoom(BaseModel):
    id: str
    confirmation_id: str
    room_id: str
    rate_id: str
    checkin: str
    checkout: str
    number_of_adults: int
    child_ages: list[int]
    given_name: str
    family_name: str
    smoking: bool
    special_request: str | None
    status: str
    refundable: bool
    cancel_penalties: list[CancelPenalty]
    total_inclusive: str
    cancel_refund_now: str | None
    penalty_charged: str | None
    refund: str | None


class Itinerary(BaseModel):
    itinerary_id: str
    property_id: str
    property_name: str
    email: str
    phone: str
    affiliate_reference_id: str | None
    hold_status: str | None
    hold_expires_at: str | None
    payment_type: str
    creation_date_time: str
    rooms: list[BookedRoom]
    currency: str = CURRENCY


class RoomCanceled(BaseModel):
    itinerary_id: str
    room_id: str
    status: str
    penalty_charged: str
    refund: str


class HoldResult(BaseModel):
    itinerary_id: str
    hold_status: str
    room_statuses: list[str]


def pricing(occupancy: str, nights: list[str], nightly: list[list[int]], resort_fee: int) -> OccupancyPricing:
    return OccupancyPricing(
        occupancy=occupancy,
        nightly=[
            NightPrice(date=d, base_rate=money(b), tax_and_service_fee=money(t)) for d, (b, t) in zip(nights, nightly)
        ],
        exclusive=money(sum(b for b, _ in nightly)),
        inclusive=money(stay_total(nightly)),
        resort_fee_due_at_property=money(resort_fee * len(nights)),
    )


def booked_room(db: Any, row: dict[str, Any]) -> BookedRoom:
    total = stay_total(row["nightly"])
    active = row["status"] == "booked"
    return BookedRoom(
        id=row["id"],
        confirmation_id=row["confirmation_expedia"],
        room_id=row["room_id"],
        rate_id=row["rate_id"],
        checkin=row["checkin"],
        checkout=row["checkout"],
        number_of_adults=row["number_of_adults"],
        child_ages=row["child_ages"],
        given_name=row["given_name"],
        family_name=row["family_name"],
        smoking=row["smoking"],
        special_request=row["special_request"],
        status=row["status"],
        refundable=row["refundable"],
        cancel_penalties=[CancelPenalty(**w) for w in row["cancel_penalties"]],
        total_inclusive=money(total),
        cancel_refund_now=money(total - penalty_now(db, row)) if active else None,
        penalty_charged=money(row["penalty_charged"]) if row["penalty_charged"] is not None else None,
        refund=money(row["refund"]) if row["refund"] is not None else None,
    )
