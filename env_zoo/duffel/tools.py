"""Duffel Flights API tools for Kestrel Travel's Duffel account: places, offer requests and offers, seat maps,
orders (instant and hold) with passengers, services and payments, order changes, order cancellations, and Duffel
Payments (payment intents and refunds); plus the customer's own card payment."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.fields import CurrencyCode, ErrorText, IsoDate, NonEmptyText

from . import ancillaries, changes, orders, payments, shopping
from .objects import (
    AvailableService,
    BaggageMetadata,
    City,
    DuffelList,
    ListMeta,
    Offer,
    OfferPassenger,
    OfferRequest,
    OfferSummary,
    Order,
    OrderCancellation,
    OrderChange,
    OrderChangeOffer,
    OrderChangeRequest,
    OrderChangeRequestSlices,
    OrderSummary,
    Payment,
    PaymentIntent,
    Place,
    Refund,
    SeatCabin,
    SeatElement,
    SeatMap,
    SeatService,
    cancellation_object,
    change_offer_object,
    offer_object,
    offer_passenger,
    offer_request_object,
    offer_summary,
    order_change_object,
    payment_intent_object,
    place,
    refund_object,
)
from .payments import refunded
from .rules import CURRENCY, Amount, Limit, content_id, get, money, page
from .schema import (
    airports,
    offer_requests,
    offers,
    order_change_offers,
    order_change_requests,
    order_changes,
    order_passengers,
    payment_intents,
)
from .schema import (
    orders as order_rows,
)
from .search import Reference

Cabin = Literal["economy", "premium_economy", "business", "first"]
IataCode = Annotated[str, Field(pattern=r"^[A-Za-z]{3}$"), ErrorText("must be a 3-letter IATA airport or city code")]
Name = Annotated[
    str,
    Field(min_length=1, max_length=20, pattern=r"^[A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u017F' -]+$"),
    ErrorText("must be 1 to 20 letters, spaces, hyphens or apostrophes"),
]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"), ErrorText("must be an email address")]
Phone = Annotated[str, Field(pattern=r"^\+[1-9]\d{6,14}$"), ErrorText("must be in E.164 format, e.g. +442080160509")]
Metadata = Annotated[
    dict[Annotated[str, Field(min_length=1, max_length=40)], Annotated[str, Field(max_length=500)]],
    Field(max_length=50),
    ErrorText("metadata holds at most 50 keys of up to 40 characters, values of up to 500 characters"),
]
Cursor = Annotated[str, Field(min_length=1)]


class SliceSearch(BaseModel):
    """One journey to search for."""

    origin: IataCode = Field(description="IATA code of the departure airport or city (LHR, LON)")
    destination: IataCode = Field(description="IATA code of the arrival airport or city")
    departure_date: IsoDate = Field(description="local departure date, YYYY-MM-DD")


class LoyaltyAccount(BaseModel):
    """A frequent flyer account."""

    airline_iata_code: Annotated[str, Field(pattern=r"^[A-Za-z0-9]{2}$")] = Field(
        description="the programme's airline, e.g. BA for Executive Club, AF for Flying Blue"
    )
    account_number: Annotated[str, Field(min_length=1, max_length=30)]


class PassengerSearch(BaseModel):
    """A passenger to search for: an adult by type, anyone under 18 by age."""

    type: Literal["adult"] | None = Field(None, description="adult (18 or over); give age instead for others")
    age: Annotated[int, Field(ge=0, le=130)] | None = Field(None, description="age on the last slice's departure")
    given_name: Name | None = Field(None, description="required with loyalty_programme_accounts")
    family_name: Name | None = Field(None, description="required with loyalty_programme_accounts")
    loyalty_programme_accounts: list[LoyaltyAccount] = Field(default_factory=list)


class IdentityDocument(BaseModel):
    """A passenger's identity document."""

    type: Literal["passport", "tax_id", "known_traveler_number", "passenger_redress_number"]
    unique_identifier: Annotated[str, Field(min_length=1, max_length=20)] = Field(description="the document number")
    issuing_country_code: Annotated[str, Field(pattern=r"^[A-Z]{2}$")] = Field(description="ISO 3166-1 alpha-2")
    expires_on: IsoDate


class BookingPassenger(BaseModel):
    """A passenger's details for the airline."""

    id: str = Field(description="the offer's passenger id (pas_...)")
    title: Literal["mr", "ms", "mrs", "miss", "dr"]
    gender: Literal["m", "f"]
    given_name: Name
    family_name: Name
    born_on: IsoDate
    email: Email
    phone_number: Phone
    infant_passenger_id: str | None = Field(None, description="the infant_without_seat this adult travels with")
    identity_documents: list[IdentityDocument] = Field(default_factory=list)


class SelectedService(BaseModel):
    """A service to book and how many."""

    id: str = Field(description="an available service id (ase_...)")
    quantity: Annotated[int, Field(ge=1)] = 1


class PaymentDetails(BaseModel):
    """A payment from the Duffel balance."""

    type: Literal["balance", "arc_bsp_cash"] = "balance"
    amount: Amount
    currency: CurrencyCode


class ChangeSearch(BaseModel):
    """A new slice to search for in an order change."""

    origin: IataCode
    destination: IataCode
    departure_date: IsoDate
    cabin_class: Cabin


class SliceToRemove(BaseModel):
    """A slice of the order to remove."""

    slice_id: str = Field(description="the order's slice id (sli_...)")


class ChangeSlices(BaseModel):
    """The slices to remove from an order and the new slices to search for in their place."""

    add: list[ChangeSearch]
    remove: list[SliceToRemove]


def _listing(items: list, keys: list[str], limit: int, after: str | None, before: str | None) -> DuffelList:
    chosen, meta = page(items, keys, limit, after, before)
    return DuffelList(data=chosen, meta=ListMeta(**meta))


# ---------------------------------------------------------------- places


@tool(read_only=True)
def get_place_suggestions(db: Database, query: NonEmptyText) -> list[City | Place]:
    """Find airports and cities by name or IATA code (GET /places/suggestions); a city lists its airports.

    Args:
        query: A city or airport name, or an IATA code, e.g. "lisbon" or "LON".
    """
    needle = query.strip().casefold()
    rows = db.find(airports, order_by=[airports.c.iata_city_code, airports.c.iata_code])
    ref = Reference(db)
    matched = [
        r
        for r in rows
        if needle in r["name"].casefold()
        or needle in r["city_name"].casefold()
        or needle == r["iata_code"].casefold()
        or needle == r["iata_city_code"].casefold()
    ]
    result: list[City | Place] = []
    for city in sorted({r["iata_city_code"] for r in matched}):
        members = [r for r in rows if r["iata_city_code"] == city]
        if len(members) > 1:
            result.append(
                City(
                    type="city",
                    iata_code=city,
                    name=members[0]["city_name"],
                    iata_country_code=members[0]["iata_country_code"],
                    airports=[place(ref, m["iata_code"]) for m in members],
                )
            )
    result += [place(ref, r["iata_code"]) for r in matched]
    return result


# ---------------------------------------------------------------- searching


@tool()
def create_offer_request(
    db: Database,
    slices: Annotated[list[SliceSearch], Field(min_length=1, max_length=4)],
    passengers: Annotated[list[PassengerSearch], Field(min_length=1, max_length=9), Unordered],
    cabin_class: Cabin = "economy",
    max_connections: Literal[0, 1, 2] = 1,
    return_offers: bool = False,
) -> OfferRequest:
    """Search for flights (POST /air/offer_requests): airlines answer with offers, listed with list_offers. One slice
    for a one-way trip, two for a return. A passenger is {"type": "adult"} or, under 18, {"age": n} (under 2 travels
    as infant_without_seat on an adult's lap); at least one adult, and no more infants than adults. Offers expire
    30 minutes after the search; the same search on the same day renews them.

    Args:
        slices: The journeys, in chronological order, e.g. [{"origin": "LHR", "destination": "JFK", "departure_date": "2025-07-01"}].
        passengers: Who travels; names are only needed with loyalty_programme_accounts (which can also be added to the chosen offer with update_offer_passenger).
        cabin_class: economy, premium_economy, business or first.
        max_connections: 0 for direct flights only, 1 (default) or 2.
        return_offers: Include the offers in the response (they are otherwise listed with list_offers).
    """
    request, found = shopping.create_offer_request(
        db, [s.model_dump() for s in slices], [p.model_dump() for p in passengers], cabin_class, max_connections
    )
    if not return_offers:
        return offer_request_object(request)
    ref = Reference(db)
    return offer_request_object(
        request, [offer_summary(ref, o) for o in sorted(found, key=lambda o: (o["total_amount"], o["id"]))]
    )


@tool(read_only=True)
def list_offer_requests(
    db: Database, limit: Limit = 50, after: Cursor | None = None, before: Cursor | None = None
) -> DuffelList[OfferRequest]:
    """List the offer requests (searches) made, newest first (GET /air/offer_requests).

    Args:
        limit: Results per page, 1 to 200.
        after: The meta.after cursor of the previous page, for the next page.
        before: The meta.before cursor, for the previous page.
    """
    rows = sorted(db.find(offer_requests), key=lambda r: (r["created_at"], r["id"]), reverse=True)
    return _listing([offer_request_object(r) for r in rows], [r["id"] for r in rows], limit, after, before)


@tool(read_only=True)
def list_offers(
    db: Database,
    offer_request_id: str,
    sort: Literal["total_amount", "total_duration"] = "total_amount",
    max_connections: Literal[0, 1, 2] | None = None,
    limit: Limit = 50,
    after: Cursor | None = None,
    before: Cursor | None = None,
) -> DuffelList[OfferSummary]:
    """List an offer request's offers (GET /air/offers), in short: airline, price, fare brand, flights, conditions,
    payment requirements, expiry. get_offer has every detail (baggage, passengers, identity documents, loyalty).

    Args:
        offer_request_id: The offer request (orq_...).
        sort: total_amount (cheapest first) or total_duration (shortest first).
        max_connections: Only offers with at most this many connections in every slice.
        limit: Results per page, 1 to 200.
        after: The meta.after cursor of the previous page, for the next page.
        before: The meta.before cursor, for the previous page.
    """
    get(db, offer_requests, offer_request_id, "Offer request")
    rows = db.find(offers, offer_request_id=offer_request_id)
    if max_connections is not None:
        rows = [r for r in rows if all(len(s["segments"]) - 1 <= max_connections for s in r["slices"])]
    key = "total_amount" if sort == "total_amount" else "sort_duration"
    rows.sort(key=lambda r: (r[key], r["total_amount"], r["id"]))
    ref = Reference(db)
    return _listing([offer_summary(ref, r) for r in rows], [r["id"] for r in rows], limit, after, before)


@tool(read_only=True)
def get_offer(db: Database, offer_id: str, return_available_services: bool = False) -> Offer:
    """Get one offer with each passenger's cabin and included baggage per segment (GET /air/offers/{id}), and with
    return_available_services the extra bags that can be booked with it.

    Args:
        offer_id: The offer (off_...).
        return_available_services: Include available_services (extra checked bags).
    """
    offer = get(db, offers, offer_id, "Offer")
    ref = Reference(db)
    services = None
    if return_available_services:
        services = [
            AvailableService(
                id=s.id,
                type="baggage",
                passenger_ids=[s.passenger_id],
                segment_ids=list(s.segment_ids),
                maximum_quantity=s.maximum_quantity,
                total_amount=money(s.unit_amount),
                total_currency=CURRENCY,
                metadata=BaggageMetadata(type="checked", maximum_weight_kg=ancillaries.BAG_WEIGHT_KG),
            )
            for s in ancillaries.offer_bags(ref, offer)
        ]
    return offer_object(ref, offer, detailed=True, services=services)


@tool()
def update_offer_passenger(
    db: Database,
    offer_id: str,
    passenger_id: str,
    given_name: Name,
    family_name: Name,
    loyalty_programme_accounts: list[LoyaltyAccount] = [],  # noqa: B006 - pydantic copies defaults
) -> OfferPassenger:
    """Add a passenger's name and loyalty programme accounts to an offer before booking it
    (PATCH /air/offers/{offer_id}/passengers/{id}); the accounts replace any set before. Only programmes in the
    offer's supported_loyalty_programmes are accepted, and the order must later use the same name.

    Args:
        offer_id: The offer (off_...).
        passenger_id: The offer's passenger (pas_...).
        given_name: The passenger's given name as on the loyalty account.
        family_name: The passenger's family name as on the loyalty account.
        loyalty_programme_accounts: The accounts, e.g. [{"airline_iata_code": "BA", "account_number": "41886259"}].
    """
    offer = get(db, offers, offer_id, "Offer")
    updated = shopping.update_passenger(
        db, offer, passenger_id, given_name, family_name, [a.model_dump() for a in loyalty_programme_accounts]
    )
    return offer_passenger(updated)


@tool(read_only=True)
def get_seat_maps(db: Database, offer_id: str) -> list[SeatMap]:
    """Get the seat maps of an offer's segments for its cabin (GET /air/seat_maps): the seats still free, each with
    the service that books it for every passenger who may sit there (exit rows: adults only). Book seats with
    create_order's services.

    Args:
        offer_id: The offer (off_...).
    """
    offer = get(db, offers, offer_id, "Offer")
    ref = Reference(db)
    maps = []
    for s in offer["slices"]:
        for seg in s["segments"]:
            shape = ancillaries.seat_cabin_shape(ref, offer, seg)
            seats = [
                SeatElement(
                    designator=x["designator"],
                    name=x["name"],
                    disclosures=x["disclosures"],
                    available_services=[
                        SeatService(
                            id=v["id"],
                            passenger_id=v["passenger_id"],
                            total_amount=money(v["total_amount"]),
                            total_currency=CURRENCY,
                        )
                        for v in x["available_services"]
                    ],
                )
                for x in ancillaries.segment_seats(db, ref, offer, s, seg)
                if x["available_services"]
            ]
            maps.append(
                SeatMap(
                    id=content_id("sea", offer["id"], seg["id"]),
                    slice_id=s["id"],
                    segment_id=seg["id"],
                    cabins=[SeatCabin(cabin_class=offer["cabin_class"], deck=0, seats=seats, **shape)],
                )
            )
    return maps


# ---------------------------------------------------------------- orders


@tool()
def create_order(
    db: Database,
    selected_offers: Annotated[list[str], Field(min_length=1, max_length=1)],
    passengers: Annotated[list[BookingPassenger], Unordered],
    type: Literal["instant", "hold"] = "instant",
    services: Annotated[list[SelectedService], Unordered] = [],  # noqa: B006
    payments: list[PaymentDetails] = [],  # noqa: B006
    metadata: Metadata = {},  # noqa: B006
) -> Order:
    """Book an offer (POST /air/orders). An instant order is paid now from the Duffel balance: one payment for
    exactly the offer's total_amount plus the selected services. A hold order (only when the offer's
    payment_requirements allow it) reserves the seats without payment and without services, to be paid by
    payment_required_by. Every passenger of the offer needs their details; born_on must fit the type or age searched
    for; each infant is assigned to an adult with infant_passenger_id; identity documents as the offer requires.

    Args:
        selected_offers: The one offer to book, e.g. ["off_..."].
        passengers: Every passenger of the offer with their details.
        type: instant (pay now) or hold (pay later).
        services: Extra bags and seats from get_offer's available_services and get_seat_maps, e.g. [{"id": "ase_...", "quantity": 1}].
        payments: For an instant order, one payment: {"type": "balance", "amount": "436.20", "currency": "GBP"}.
        metadata: Your own key-value data for the order (at most 50 keys).
    """
    order_id = orders.create_order(
        db,
        selected_offers[0],
        type,
        [p.model_dump() for p in passengers],
        [s.model_dump() for s in services],
        [p.model_dump() for p in payments],
        metadata,
    )
    return orders.order_object(db, Reference(db), get(db, order_rows, order_id, "Order"))


@tool(read_only=True)
def list_orders(
    db: Database,
    booking_reference: Annotated[str, Field(min_length=6, max_length=6)] | None = None,
    awaiting_payment: bool | None = None,
    passenger_name: Annotated[list[NonEmptyText], Unordered] | None = None,
    sort: Literal["payment_required_by", "-payment_required_by"] | None = None,
    limit: Limit = 50,
    after: Cursor | None = None,
    before: Cursor | None = None,
) -> DuffelList[OrderSummary]:
    """List orders in short, newest first (GET /air/orders), cancelled ones included (cancelled_at is set); get_order
    has every detail.

    Args:
        booking_reference: Only the order with this airline booking reference.
        awaiting_payment: true for hold orders not yet paid, false for paid ones.
        passenger_name: Only orders with a passenger matching each of these names (any part, any case).
        sort: payment_required_by (soonest deadline first) or -payment_required_by.
        limit: Results per page, 1 to 200.
        after: The meta.after cursor of the previous page, for the next page.
        before: The meta.before cursor, for the previous page.
    """
    names_of: dict[str, list[dict[str, Any]]] = {}
    for p in db.find(order_passengers):
        names_of.setdefault(p["order_id"], []).append(p)
    where, params = [], []
    if booking_reference is not None:
        where.append('"booking_reference" = ?')
        params.append(booking_reference.strip().upper())
    if awaiting_payment is not None:
        where.append('"awaiting_payment" = ?')
        params.append(awaiting_payment)
    if passenger_name:
        wanted = [n.strip().casefold() for n in passenger_name]
        matching = [
            order_id
            for order_id, people in names_of.items()
            if all(any(n in f"{p['given_name']} {p['family_name']}".casefold() for p in people) for n in wanted)
        ]
        where.append(f'"id" IN ({", ".join("?" * len(matching))})' if matching else "0")
        params.extend(matching)
    rows = db.select(order_rows, " AND ".join(where), params)
    rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    if sort is not None:
        rows.sort(key=lambda r: r["payment_required_by"] or "9999", reverse=sort.startswith("-"))
    chosen, meta = page(rows, [r["id"] for r in rows], limit, after, before)
    ref = Reference(db)
    return DuffelList(
        data=[orders.order_summary(ref, r, names_of.get(r["id"], [])) for r in chosen], meta=ListMeta(**meta)
    )


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> Order:
    """Get one order (GET /air/orders/{id}): flights, passengers, seats and bags, tickets, payment status, conditions
    and the actions still available.

    Args:
        order_id: The order (ord_...).
    """
    return orders.order_object(db, Reference(db), get(db, order_rows, order_id, "Order"))


@tool()
def update_order(db: Database, order_id: str, metadata: Metadata) -> Order:
    """Replace an order's metadata, your own key-value data (PATCH /air/orders/{id}).

    Args:
        order_id: The order (ord_...).
        metadata: The new metadata; it replaces the old one entirely.
    """
    orders.live_order(db, order_id)
    row = db.update(order_rows, order_id, metadata=dict(metadata))
    return orders.order_object(db, Reference(db), row)


@tool()
def create_payment(db: Database, order_id: str, payment: PaymentDetails) -> Payment:
    """Pay for a hold order from the Duffel balance before its payment_required_by (POST /air/payments): exactly
    the order's current total_amount (after a price guarantee lapses the airline may have repriced it). Its tickets
    are then issued.

    Args:
        order_id: The hold order (ord_...).
        payment: {"type": "balance", "amount": "<the order's total_amount>", "currency": "GBP"}.
    """
    row = orders.pay_hold_order(db, order_id, payment.model_dump())
    return Payment(
        id=row["id"],
        type=row["type"],
        amount=money(row["amount"]),
        currency=row["currency"],
        created_at=row["created_at"],
    )


@tool(read_only=True)
def list_available_services(db: Database, order_id: str) -> list[AvailableService]:
    """List the extra checked bags that can still be added to a paid order (GET /air/orders/{id}/available_services):
    per passenger and slice not yet flown, up to two bags counting those already booked.

    Args:
        order_id: The order (ord_...).
    """
    order = orders.live_order(db, order_id)
    if order["awaiting_payment"]:
        return []
    ref = Reference(db)
    return [
        AvailableService(
            id=s.id,
            type="baggage",
            passenger_ids=[s.passenger_id],
            segment_ids=list(s.segment_ids),
            maximum_quantity=s.maximum_quantity,
            total_amount=money(s.unit_amount),
            total_currency=CURRENCY,
            metadata=BaggageMetadata(type="checked", maximum_weight_kg=ancillaries.BAG_WEIGHT_KG),
        )
        for s in ancillaries.order_bags(db, ref, order, db.find(order_passengers, order_id=order_id))
    ]


@tool()
def add_order_services(
    db: Database,
    order_id: str,
    add_services: Annotated[list[SelectedService], Field(min_length=1), Unordered],
    payment: PaymentDetails,
) -> Order:
    """Add extra bags to a paid order (POST /air/orders/{id}/services), paying their total from the balance.

    Args:
        order_id: The order (ord_...).
        add_services: Services from list_available_services, e.g. [{"id": "ase_...", "quantity": 1}].
        payment: {"type": "balance", "amount": "<the services' total>", "currency": "GBP"}.
    """
    orders.add_services(db, order_id, [(s.id, s.quantity) for s in add_services], payment.model_dump())
    return orders.order_object(db, Reference(db), get(db, order_rows, order_id, "Order"))


# ---------------------------------------------------------------- changes


@tool()
def create_order_change_request(db: Database, order_id: str, slices: ChangeSlices) -> OrderChangeRequest:
    """Ask the airline how an order's slices can be changed (POST /air/order_change_requests): remove slices of a
    paid order whose fare allows changes and search new ones in their place (one added slice per removed slice),
    on the same airline and fare brand. Each order change offer shows the penalty, what the change costs
    (change_total_amount) and the order's new total; services on removed slices are dropped.

    Args:
        order_id: The order (ord_...).
        slices: {"remove": [{"slice_id": "sli_..."}], "add": [{"origin": "LHR", "destination": "JFK", "departure_date": "2025-07-03", "cabin_class": "economy"}]}.
    """
    request, created = changes.request_change(
        db, order_id, [a.model_dump() for a in slices.add], [r.slice_id for r in slices.remove]
    )
    ref = Reference(db)
    created.sort(key=lambda r: (r["change_total_amount"], r["id"]))
    return OrderChangeRequest(
        id=request["id"],
        order_id=request["order_id"],
        slices=OrderChangeRequestSlices(**request["slices"]),
        order_change_offers=[change_offer_object(ref, r, None) for r in created],
        created_at=request["created_at"],
    )


@tool(read_only=True)
def list_order_change_offers(
    db: Database,
    order_change_request_id: str,
    sort: Literal["change_total_amount", "total_duration"] = "change_total_amount",
    limit: Limit = 50,
    after: Cursor | None = None,
    before: Cursor | None = None,
) -> DuffelList[OrderChangeOffer]:
    """List the order change offers of an order change request (GET /air/order_change_offers).

    Args:
        order_change_request_id: The order change request (ocr_...).
        sort: change_total_amount (cheapest first) or total_duration (shortest first).
        limit: Results per page, 1 to 200.
        after: The meta.after cursor of the previous page, for the next page.
        before: The meta.before cursor, for the previous page.
    """
    get(db, order_change_requests, order_change_request_id, "Order change request")
    rows = db.find(order_change_offers, order_change_request_id=order_change_request_id)
    key = "change_total_amount" if sort == "change_total_amount" else "sort_duration"
    rows.sort(key=lambda r: (r[key], r["change_total_amount"], r["id"]))
    ref = Reference(db)
    made = {c["order_change_offer_id"]: c["id"] for c in db.find(order_changes)}
    return _listing(
        [change_offer_object(ref, r, made.get(r["id"])) for r in rows], [r["id"] for r in rows], limit, after, before
    )


@tool()
def create_order_change(db: Database, selected_order_change_offer: str) -> OrderChange:
    """Create a pending order change from an order change offer (POST /air/order_changes); nothing changes until
    it is confirmed, before it expires.

    Args:
        selected_order_change_offer: The order change offer (oco_...).
    """
    change = changes.create_change(db, selected_order_change_offer)
    offer = get(db, order_change_offers, change["order_change_offer_id"], "Order change offer")
    return order_change_object(Reference(db), change, offer)


@tool()
def confirm_order_change(db: Database, order_change_id: str, payment: PaymentDetails | None = None) -> OrderChange:
    """Confirm a pending order change (POST /air/order_changes/{id}/actions/confirm). When change_total_amount is
    above zero, pay exactly that from the balance; otherwise give no payment (a negative amount is refunded to the
    balance). The order gets its new flights, tickets and total.

    Args:
        order_change_id: The order change (oce_...).
        payment: {"type": "balance", "amount": "<change_total_amount>", "currency": "GBP"}, only when it is above zero.
    """
    change = changes.confirm_change(db, order_change_id, None if payment is None else payment.model_dump())
    offer = get(db, order_change_offers, change["order_change_offer_id"], "Order change offer")
    return order_change_object(Reference(db), change, offer)


# ---------------------------------------------------------------- cancellations


@tool()
def create_order_cancellation(db: Database, order_id: str) -> OrderCancellation:
    """Get a quote to cancel an order (POST /air/order_cancellations): refund_amount and where it goes
    (refund_to). Nothing is cancelled until the quote is confirmed, within an hour.

    Args:
        order_id: The order (ord_...).
    """
    return cancellation_object(orders.quote_cancellation(db, order_id))


@tool()
def confirm_order_cancellation(db: Database, order_cancellation_id: str) -> OrderCancellation:
    """Confirm an order cancellation (POST /air/order_cancellations/{id}/actions/confirm): the order is cancelled
    and the refund is sent. Only the most recent, unexpired quote of an order can be confirmed; this can't be undone.

    Args:
        order_cancellation_id: The order cancellation (ore_...).
    """
    return cancellation_object(orders.confirm_cancellation(db, order_cancellation_id))


# ---------------------------------------------------------------- Duffel Payments


@tool()
def create_payment_intent(db: Database, amount: Amount, currency: CurrencyCode) -> PaymentIntent:
    """Start collecting a payment from a customer's card (POST /payments/payment_intents): the customer then pays
    in Duffel's card form, and you confirm the payment intent to add the money to your balance.

    Args:
        amount: What the customer pays, e.g. "436.20".
        currency: GBP.
    """
    return payment_intent_object(payments.create_intent(db, amount, currency), [])


@tool()
def confirm_payment_intent(db: Database, payment_intent_id: str) -> PaymentIntent:
    """Confirm a payment intent once the customer has paid it (POST /payments/payment_intents/{id}/actions/confirm):
    the amount less Duffel's 2.9% card fee reaches the balance.

    Args:
        payment_intent_id: The payment intent (pit_...).
    """
    row = payments.confirm_intent(db, payment_intent_id)
    return payment_intent_object(row, refunded(db, row["id"]))


@tool(read_only=True)
def get_payment_intent(db: Database, payment_intent_id: str) -> PaymentIntent:
    """Get a payment intent with its status, card, fees and refunds (GET /payments/payment_intents/{id}).

    Args:
        payment_intent_id: The payment intent (pit_...).
    """
    return payment_intent_object(
        get(db, payment_intents, payment_intent_id, "Payment intent"), refunded(db, payment_intent_id)
    )


@tool()
def create_refund(db: Database, payment_intent_id: str, amount: Amount, currency: CurrencyCode) -> Refund:
    """Refund some or all of a confirmed payment intent to the customer's card (POST /payments/refunds); all refunds
    together never exceed the amount paid.

    Args:
        payment_intent_id: The payment intent (pit_...).
        amount: How much to refund, e.g. "120.00".
        currency: The payment intent's currency.
    """
    return refund_object(payments.refund(db, payment_intent_id, amount, currency))


@tool(user_only=True)
def pay_with_card(
    db: Database,
    amount: Amount,
    currency: CurrencyCode,
    card_number: Annotated[str, Field(pattern=r"^\d{13,19}$")],
    expiry_month: Annotated[int, Field(ge=1, le=12)],
    expiry_year: Annotated[int, Field(ge=2000, le=2100)],
) -> PaymentIntent:
    """(Customer only, in Duffel's card payment form) Pay the payment request of this amount with a card.

    Args:
        amount: The amount shown in the payment form.
        currency: Its currency.
        card_number: The card number.
        expiry_month: The card's expiry month.
        expiry_year: The card's expiry year.
    """
    row = payments.pay_by_card(db, amount, currency, card_number, expiry_month, expiry_year)
    return payment_intent_object(row, refunded(db, row["id"]))
