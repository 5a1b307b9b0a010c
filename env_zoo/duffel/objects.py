"""Duffel's API objects as output models (field names as in the API's JSON), and how stored rows become them."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from envfactory_gym import KeptGeneric

from . import fares
from .rules import duration, money
from .search import Reference

T = TypeVar("T")


class ListMeta(BaseModel):
    """Pagination of a list: pass `after` (or `before`) back to get the next (or previous) page."""

    limit: int
    after: str | None
    before: str | None


class DuffelList(KeptGeneric, Generic[T]):
    """One page of a Duffel list."""

    data: list[T]
    meta: ListMeta


class Place(BaseModel):
    """An airport."""

    type: Literal["airport"]
    iata_code: str
    name: str
    city_name: str
    iata_city_code: str
    iata_country_code: str
    time_zone: str


class City(BaseModel):
    """A city with several airports."""

    type: Literal["city"]
    iata_code: str
    name: str
    iata_country_code: str
    airports: list[Place]


class Airline(BaseModel):
    """An airline."""

    iata_code: str
    name: str


class Aircraft(BaseModel):
    """An aircraft type."""

    iata_code: str
    name: str


class Baggage(BaseModel):
    """A baggage allowance included in the fare."""

    type: Literal["checked", "carry_on"]
    quantity: int


class Seat(BaseModel):
    """A seat booked for a passenger on a segment."""

    designator: str
    name: str
    disclosures: list[str]


class SegmentPassenger(BaseModel):
    """What one passenger gets on a segment."""

    passenger_id: str
    cabin_class: str
    cabin_class_marketing_name: str
    baggages: list[Baggage]
    seat: Seat | None = None


class Segment(BaseModel):
    """One flight of a slice."""

    id: str
    marketing_carrier: Airline
    marketing_carrier_flight_number: str
    operating_carrier: Airline
    operating_carrier_flight_number: str
    origin: Place
    destination: Place
    origin_terminal: str | None
    destination_terminal: str | None
    departing_at: str = Field(description="local time at the origin airport")
    arriving_at: str = Field(description="local time at the destination airport")
    duration: str
    distance: str = Field(description="kilometres")
    aircraft: Aircraft
    passengers: list[SegmentPassenger] | None = Field(None, description="only on a single offer or an order")


class Condition(BaseModel):
    """Whether a change or refund is allowed before departure, and its penalty for all passengers."""

    allowed: bool
    penalty_amount: str | None
    penalty_currency: str | None


class SliceConditions(BaseModel):
    """What a slice allows."""

    change_before_departure: Condition


class Conditions(BaseModel):
    """What the whole offer or order allows."""

    change_before_departure: Condition
    refund_before_departure: Condition


class Slice(BaseModel):
    """A journey between an origin and a destination, made of one or more segments."""

    id: str
    origin: Place
    destination: Place
    duration: str
    fare_brand_name: str
    segments: list[Segment]
    conditions: SliceConditions
    changeable: bool | None = Field(None, description="orders only: whether this slice can still be changed")


class LoyaltyProgrammeAccount(BaseModel):
    """A passenger's frequent flyer account."""

    airline_iata_code: str
    account_number: str


class OfferPassenger(BaseModel):
    """A passenger of an offer request and its offers."""

    id: str
    type: str
    age: int | None
    given_name: str | None
    family_name: str | None
    loyalty_programme_accounts: list[LoyaltyProgrammeAccount]


class PaymentRequirements(BaseModel):
    """Whether the offer must be paid when booking, or may be held and paid by a deadline."""

    requires_instant_payment: bool
    payment_required_by: str | None
    price_guarantee_expires_at: str | None


class BaggageMetadata(BaseModel):
    """What a bag service is."""

    type: Literal["checked"]
    maximum_weight_kg: int


class AvailableService(BaseModel):
    """An extra that can be booked with the offer or order (an extra checked bag)."""

    id: str
    type: Literal["baggage"]
    passenger_ids: list[str]
    segment_ids: list[str]
    maximum_quantity: int
    total_amount: str
    total_currency: str
    metadata: BaggageMetadata


class Offer(BaseModel):
    """Flights an airline sells at a price, for the passengers of the offer request."""

    id: str
    owner: Airline
    slices: list[Slice]
    passengers: list[OfferPassenger]
    base_amount: str
    tax_amount: str
    total_amount: str
    total_currency: str
    conditions: Conditions
    payment_requirements: PaymentRequirements
    passenger_identity_documents_required: bool
    allowed_passenger_identity_document_types: list[str]
    supported_loyalty_programmes: list[str]
    total_emissions_kg: str
    expires_at: str
    created_at: str
    available_services: list[AvailableService] | None = Field(None, description="with return_available_services")


class SegmentSummary(BaseModel):
    """A flight of a slice, in short: carriers, airports (IATA codes), local times, aircraft."""

    id: str
    marketing_carrier: str
    marketing_carrier_flight_number: str
    operating_carrier: str
    operating_carrier_flight_number: str
    origin: str
    destination: str
    departing_at: str
    arriving_at: str
    duration: str
    aircraft: str


class SliceSummary(BaseModel):
    """A slice in short."""

    id: str
    origin: str
    destination: str
    duration: str
    fare_brand_name: str
    segments: list[SegmentSummary]


class OfferSummary(BaseModel):
    """An offer as lists show it; get_offer has every detail."""

    id: str
    owner: Airline
    slices: list[SliceSummary]
    total_amount: str
    total_currency: str
    conditions: Conditions
    payment_requirements: PaymentRequirements
    passenger_identity_documents_required: bool
    total_emissions_kg: str
    expires_at: str


class OfferRequestSlice(BaseModel):
    """What was searched for one slice."""

    origin: str
    destination: str
    departure_date: str


class OfferRequest(BaseModel):
    """A search: slices, passengers and cabin; its offers are listed with list_offers."""

    id: str
    slices: list[OfferRequestSlice]
    passengers: list[OfferPassenger]
    cabin_class: str
    max_connections: int
    created_at: str
    offers: list[OfferSummary] | None = Field(None, description="with return_offers")


class SeatService(BaseModel):
    """Booking this seat for one passenger."""

    id: str
    passenger_id: str
    total_amount: str
    total_currency: str


class SeatElement(BaseModel):
    """A seat; it is unavailable when available_services is empty."""

    designator: str
    name: str
    disclosures: list[str]
    available_services: list[SeatService]


class SeatCabin(BaseModel):
    """The seats of the offer's cabin on one aircraft."""

    cabin_class: str
    deck: int
    aisles: int
    first_row: int
    last_row: int
    seats: list[SeatElement]


class SeatMap(BaseModel):
    """The seat map of one segment of an offer."""

    id: str
    slice_id: str
    segment_id: str
    cabins: list[SeatCabin]


class OrderPassenger(BaseModel):
    """A booked passenger."""

    id: str
    type: str
    title: str
    gender: str
    given_name: str
    family_name: str
    born_on: str
    email: str
    phone_number: str
    infant_passenger_id: str | None
    loyalty_programme_accounts: list[LoyaltyProgrammeAccount]


class ServiceMetadata(BaseModel):
    """A booked bag's allowance or a booked seat's designator."""

    type: str | None = None
    maximum_weight_kg: int | None = None
    designator: str | None = None
    name: str | None = None


class OrderService(BaseModel):
    """An extra bag or a seat booked with the order."""

    id: str
    type: Literal["baggage", "seat"]
    passenger_ids: list[str]
    segment_ids: list[str]
    quantity: int
    total_amount: str
    total_currency: str
    metadata: ServiceMetadata


class PaymentStatus(BaseModel):
    """Whether the order is paid, and for a hold order the deadline and price guarantee."""

    awaiting_payment: bool
    payment_required_by: str | None
    price_guarantee_expires_at: str | None
    paid_at: str | None


class Document(BaseModel):
    """An e-ticket."""

    type: Literal["electronic_ticket"]
    unique_identifier: str
    passenger_ids: list[str]


class Order(BaseModel):
    """A booking made from an offer."""

    id: str
    booking_reference: str
    owner: Airline
    type: Literal["instant", "hold"]
    slices: list[Slice]
    passengers: list[OrderPassenger]
    services: list[OrderService]
    base_amount: str
    tax_amount: str
    total_amount: str = Field(description="flights and services, including taxes")
    total_currency: str
    conditions: Conditions
    payment_status: PaymentStatus
    documents: list[Document]
    metadata: dict[str, str]
    available_actions: list[str]
    cancelled_at: str | None
    created_at: str


class PassengerName(BaseModel):
    """Who travels on an order, in short."""

    id: str
    type: str
    given_name: str
    family_name: str


class OrderSummary(BaseModel):
    """An order as lists show it; get_order has every detail."""

    id: str
    booking_reference: str
    owner: Airline
    type: Literal["instant", "hold"]
    slices: list[SliceSummary]
    passengers: list[PassengerName]
    total_amount: str
    total_currency: str
    payment_status: PaymentStatus
    metadata: dict[str, str]
    cancelled_at: str | None
    created_at: str


class Payment(BaseModel):
    """A payment for a hold order."""

    id: str
    type: str
    amount: str
    currency: str
    created_at: str


class OrderChangeSlices(BaseModel):
    """The slices an order change adds and removes."""

    add: list[Slice]
    remove: list[Slice]


class OrderChangeOffer(BaseModel):
    """A way to make the requested change: the new slices, the airline's penalty and what it costs or refunds."""

    id: str
    order_change_id: str | None
    slices: OrderChangeSlices
    penalty_amount: str
    penalty_currency: str
    change_total_amount: str = Field(description="what you pay (negative: what is refunded), penalty included")
    change_total_currency: str
    new_total_amount: str = Field(description="the order's total after the change")
    new_total_currency: str
    refund_to: str | None
    expires_at: str
    created_at: str


class ChangeSliceSearch(BaseModel):
    """A slice asked for in an order change request."""

    origin: str
    destination: str
    departure_date: str
    cabin_class: str


class ChangeRemoval(BaseModel):
    """A slice to remove."""

    slice_id: str


class OrderChangeRequestSlices(BaseModel):
    """What an order change request asked for."""

    add: list[ChangeSliceSearch]
    remove: list[ChangeRemoval]


class OrderChangeRequest(BaseModel):
    """A request to change an order's slices, with the offers to do it."""

    id: str
    order_id: str
    slices: OrderChangeRequestSlices
    order_change_offers: list[OrderChangeOffer]
    created_at: str


class OrderChange(BaseModel):
    """A pending or confirmed change of an order."""

    id: str
    order_id: str
    slices: OrderChangeSlices
    penalty_amount: str
    penalty_currency: str
    change_total_amount: str
    change_total_currency: str
    new_total_amount: str
    new_total_currency: str
    refund_to: str | None
    confirmed_at: str | None
    expires_at: str
    created_at: str


class OrderCancellation(BaseModel):
    """A quote (then, once confirmed, the record) of an order's cancellation."""

    id: str
    order_id: str
    refund_amount: str
    refund_currency: str
    refund_to: str
    confirmed_at: str | None
    expires_at: str
    created_at: str


class Refund(BaseModel):
    """Money sent back to the customer's card from a payment intent."""

    id: str
    payment_intent_id: str
    amount: str
    currency: str
    net_amount: str
    net_currency: str
    status: str
    destination: str
    created_at: str


class PaymentIntent(BaseModel):
    """Money collected from a customer's card into the Duffel balance (Duffel Payments)."""

    id: str
    amount: str
    currency: str
    status: str
    client_token: str
    card_network: str | None
    card_last_four_digits: str | None
    card_country_code: str | None
    last_payment_error: str | None
    fees_amount: str | None
    net_amount: str | None
    net_currency: str | None
    refunds: list[Refund]
    confirmed_at: str | None
    created_at: str


# ---------------------------------------------------------------- rendering


def place(ref: Reference, code: str) -> Place:
    """An airport as a place."""
    row = ref.airports[code]
    return Place(
        type="airport",
        iata_code=code,
        name=row["name"],
        city_name=row["city_name"],
        iata_city_code=row["iata_city_code"],
        iata_country_code=row["iata_country_code"],
        time_zone=row["time_zone"],
    )


def airline(ref: Reference, code: str) -> Airline:
    """An airline by its IATA code."""
    return Airline(iata_code=code, name=ref.airlines[code]["name"])


def conditions(stored: dict[str, Any]) -> Conditions:
    """An offer's or order's conditions."""
    return Conditions(**fares.render_conditions(stored))


def segment_passengers(
    stored_slice: dict[str, Any],
    passengers: list[dict[str, Any]],
    segment_id: str,
    seats: dict[tuple[str, str], dict[str, Any]],
) -> list[SegmentPassenger]:
    """Cabin, baggage allowance and booked seat of each passenger on a segment (infants get no bags)."""
    result = []
    for pax in passengers:
        infant = pax["type"] == "infant_without_seat"
        bags = [
            Baggage(type="checked", quantity=0 if infant else stored_slice["checked_bags"]),
            Baggage(type="carry_on", quantity=0 if infant else 1),
        ]
        seat = seats.get((segment_id, pax["id"]))
        result.append(
            SegmentPassenger(
                passenger_id=pax["id"],
                cabin_class=stored_slice["cabin_class"],
                cabin_class_marketing_name=stored_slice["cabin_class_marketing_name"],
                baggages=bags,
                seat=Seat(**seat) if seat else None,
            )
        )
    return result


def slice_object(
    ref: Reference,
    stored: dict[str, Any],
    passengers: list[dict[str, Any]] | None,
    seats: dict[tuple[str, str], dict[str, Any]] | None = None,
    changeable: bool | None = None,
) -> Slice:
    """A stored slice as the API shows it; segment passengers only when `passengers` is given."""
    segments = [
        Segment(
            id=seg["id"],
            marketing_carrier=airline(ref, seg["marketing_carrier"]),
            marketing_carrier_flight_number=seg["marketing_carrier_flight_number"],
            operating_carrier=airline(ref, seg["operating_carrier"]),
            operating_carrier_flight_number=seg["operating_carrier_flight_number"],
            origin=place(ref, seg["origin"]),
            destination=place(ref, seg["destination"]),
            origin_terminal=seg["origin_terminal"],
            destination_terminal=seg["destination_terminal"],
            departing_at=seg["departing_at"],
            arriving_at=seg["arriving_at"],
            duration=duration(seg["duration_minutes"]),
            distance=str(seg["distance_km"]),
            aircraft=Aircraft(iata_code=seg["aircraft_iata_code"], name=seg["aircraft_name"]),
            passengers=None if passengers is None else segment_passengers(stored, passengers, seg["id"], seats or {}),
        )
        for seg in stored["segments"]
    ]
    change = fares.render_conditions({"change_before_departure": stored["conditions"]["change_before_departure"]})
    return Slice(
        id=stored["id"],
        origin=place(ref, stored["origin"]),
        destination=place(ref, stored["destination"]),
        duration=duration(stored["duration_minutes"]),
        fare_brand_name=stored["fare_brand_name"],
        segments=segments,
        conditions=SliceConditions(**change),
        changeable=changeable,
    )


def offer_passenger(stored: dict[str, Any]) -> OfferPassenger:
    """A stored offer passenger."""
    return OfferPassenger(
        id=stored["id"],
        type=stored["type"],
        age=stored.get("age"),
        given_name=stored.get("given_name"),
        family_name=stored.get("family_name"),
        loyalty_programme_accounts=[LoyaltyProgrammeAccount(**a) for a in stored.get("loyalty_programme_accounts", [])],
    )


def offer_object(
    ref: Reference, row: dict[str, Any], detailed: bool = False, services: list[AvailableService] | None = None
) -> Offer:
    """An offer; `detailed` adds each segment's passengers (cabin, baggage) as the single-offer endpoint does."""
    return Offer(
        id=row["id"],
        owner=airline(ref, row["owner"]),
        slices=[slice_object(ref, s, row["passengers"] if detailed else None) for s in row["slices"]],
        passengers=[offer_passenger(p) for p in row["passengers"]],
        base_amount=money(row["base_amount"]),
        tax_amount=money(row["tax_amount"]),
        total_amount=money(row["total_amount"]),
        total_currency=row["total_currency"],
        conditions=conditions(row["conditions"]),
        payment_requirements=PaymentRequirements(
            requires_instant_payment=row["requires_instant_payment"],
            payment_required_by=row["payment_required_by"],
            price_guarantee_expires_at=row["price_guarantee_expires_at"],
        ),
        passenger_identity_documents_required=row["identity_documents_required"],
        allowed_passenger_identity_document_types=row["allowed_identity_document_types"],
        supported_loyalty_programmes=row["supported_loyalty_programmes"],
        total_emissions_kg=str(row["total_emissions_kg"]),
        expires_at=row["expires_at"],
        created_at=row["created_at"],
        available_services=services,
    )


def offer_request_object(row: dict[str, Any], offer_list: list[OfferSummary] | None = None) -> OfferRequest:
    """An offer request."""
    return OfferRequest(
        id=row["id"],
        slices=[OfferRequestSlice(**s) for s in row["slices"]],
        passengers=[offer_passenger(p) for p in row["passengers"]],
        cabin_class=row["cabin_class"],
        max_connections=row["max_connections"],
        created_at=row["created_at"],
        offers=offer_list,
    )


def change_offer_object(ref: Reference, row: dict[str, Any], order_change_id: str | None) -> OrderChangeOffer:
    """An order change offer."""
    return OrderChangeOffer(
        id=row["id"],
        order_change_id=order_change_id,
        slices=OrderChangeSlices(
            add=[slice_object(ref, s, None) for s in row["slices"]["add"]],
            remove=[slice_object(ref, s, None) for s in row["slices"]["remove"]],
        ),
        penalty_amount=money(row["penalty_amount"]),
        penalty_currency=row["currency"],
        change_total_amount=money(row["change_total_amount"]),
        change_total_currency=row["currency"],
        new_total_amount=money(row["new_total_amount"]),
        new_total_currency=row["currency"],
        refund_to=row["refund_to"],
        expires_at=row["expires_at"],
        created_at=row["created_at"],
    )


def order_change_object(ref: Reference, change: dict[str, Any], offer: dict[str, Any]) -> OrderChange:
    """An order change with the slices, amounts and refund of the offer it was made from."""
    shown = change_offer_object(ref, offer, change["id"])
    return OrderChange(
        id=change["id"],
        order_id=change["order_id"],
        slices=shown.slices,
        penalty_amount=shown.penalty_amount,
        penalty_currency=shown.penalty_currency,
        change_total_amount=shown.change_total_amount,
        change_total_currency=shown.change_total_currency,
        new_total_amount=shown.new_total_amount,
        new_total_currency=shown.new_total_currency,
        refund_to=shown.refund_to,
        confirmed_at=change["confirmed_at"],
        expires_at=change["expires_at"],
        created_at=change["created_at"],
    )


def cancellation_object(row: dict[str, Any]) -> OrderCancellation:
    """An order cancellation."""
    return OrderCancellation(
        id=row["id"],
        order_id=row["order_id"],
        refund_amount=money(row["refund_amount"]),
        refund_currency=row["refund_currency"],
        refund_to=row["refund_to"],
        confirmed_at=row["confirmed_at"],
        expires_at=row["expires_at"],
        created_at=row["created_at"],
    )


def refund_object(row: dict[str, Any]) -> Refund:
    """A refund of a payment intent."""
    return Refund(
        id=row["id"],
        payment_intent_id=row["payment_intent_id"],
        amount=money(row["amount"]),
        currency=row["currency"],
        net_amount=money(row["net_amount"]),
        net_currency=row["net_currency"],
        status=row["status"],
        destination=row["destination"],
        created_at=row["created_at"],
    )


def payment_intent_object(row: dict[str, Any], refunds: list[dict[str, Any]]) -> PaymentIntent:
    """A payment intent with its refunds."""

    def amount(value: int | None) -> str | None:
        return None if value is None else money(value)

    return PaymentIntent(
        id=row["id"],
        amount=money(row["amount"]),
        currency=row["currency"],
        status=row["status"],
        client_token=f"{row['id']}_secret",
        card_network=row["card_network"],
        card_last_four_digits=row["card_last_four_digits"],
        card_country_code=row["card_country_code"],
        last_payment_error=row["last_payment_error"],
        fees_amount=amount(row["fees_amount"]),
        net_amount=amount(row["net_amount"]),
        net_currency=row["net_currency"],
        refunds=[refund_object(r) for r in refunds],
        confirmed_at=row["confirmed_at"],
        created_at=row["created_at"],
    )


def slice_summary(stored: dict[str, Any]) -> SliceSummary:
    """A stored slice in short."""
    return SliceSummary(
        id=stored["id"],
        origin=stored["origin"],
        destination=stored["destination"],
        duration=duration(stored["duration_minutes"]),
        fare_brand_name=stored["fare_brand_name"],
        segments=[
            SegmentSummary(
                id=seg["id"],
                marketing_carrier=seg["marketing_carrier"],
                marketing_carrier_flight_number=seg["marketing_carrier_flight_number"],
                operating_carrier=seg["operating_carrier"],
                operating_carrier_flight_number=seg["operating_carrier_flight_number"],
                origin=seg["origin"],
                destination=seg["destination"],
                departing_at=seg["departing_at"],
                arriving_at=seg["arriving_at"],
                duration=duration(seg["duration_minutes"]),
                aircraft=seg["aircraft_name"],
            )
            for seg in stored["segments"]
        ],
    )


def offer_summary(ref: Reference, row: dict[str, Any]) -> OfferSummary:
    """An offer in short."""
    return OfferSummary(
        id=row["id"],
        owner=airline(ref, row["owner"]),
        slices=[slice_summary(s) for s in row["slices"]],
        total_amount=money(row["total_amount"]),
        total_currency=row["total_currency"],
        conditions=conditions(row["conditions"]),
        payment_requirements=PaymentRequirements(
            requires_instant_payment=row["requires_instant_payment"],
            payment_required_by=row["payment_required_by"],
            price_guarantee_expires_at=row["price_guarantee_expires_at"],
        ),
        passenger_identity_documents_required=row["identity_documents_required"],
        total_emissions_kg=str(row["total_emissions_kg"]),
        expires_at=row["expires_at"],
    )
