"""Ticketmaster's API objects as output models (Discovery events and venues, offers, the fan's cart, orders,
tickets, transfers and resale listings), and how stored rows become them. Money is integer USD cents."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import hold_status, open_seats, seat_text, venue_of
from .schema import accounts, attractions, events, listings, payment_methods, price_levels, seats, tickets, transfers


class SessionObject(BaseModel):
    """The fan signed in to Ticketmaster."""

    account_id: str
    first_name: str
    email: str


class PaymentMethodObject(BaseModel):
    """A saved card."""

    id: str
    brand: str
    last4: str
    exp_month: int
    exp_year: int
    is_default: bool
    expired: bool


class AccountObject(BaseModel):
    """The signed-in fan's account with saved cards."""

    id: str
    first_name: str
    last_name: str
    email: str
    phone: str | None
    postal_code: str
    member_since: str
    payment_methods: list[PaymentMethodObject]


class VenueObject(BaseModel):
    """A venue of the Discovery API."""

    id: str
    name: str
    address: str
    city: str
    state_code: str
    postal_code: str
    country_code: str
    timezone: str
    box_office_info: str | None


class AttractionRef(BaseModel):
    """A performer or team on the bill."""

    id: str
    name: str


class PriceRange(BaseModel):
    """Face values of the event's standard offers."""

    type: str = "standard"
    currency: str = "USD"
    min: int = Field(description="cents")
    max: int = Field(description="cents")


class PresaleObject(BaseModel):
    """A presale window (codes are sent to eligible fans, never shown here)."""

    name: str
    start_datetime: str
    end_datetime: str


class EventSummary(BaseModel):
    """An event in search results."""

    id: str
    name: str
    local_date: str
    local_time: str
    status: str = Field(description="onsale, offsale, cancelled, postponed or rescheduled")
    venue_name: str
    city: str
    state_code: str
    segment: str
    genre: str
    attractions: list[str]
    price_range: PriceRange | None


class EventObject(BaseModel):
    """An event with its dates, sales windows, venue, bill and ticket policies."""

    id: str
    name: str
    url: str
    status: str = Field(description="onsale, offsale, cancelled, postponed or rescheduled")
    local_date: str
    local_time: str
    start_datetime: str = Field(description="UTC")
    original_local_date: str | None = Field(description="the date before a reschedule")
    public_sale_start: str
    public_sale_end: str
    presales: list[PresaleObject]
    segment: str
    genre: str
    attractions: list[AttractionRef]
    venue: VenueObject
    price_ranges: list[PriceRange]
    ticket_limit: int = Field(description="tickets one account may buy for this event")
    delivery_methods: list[str]
    transfer_enabled: bool
    transfer_cutoff_hours: int | None = Field(description="Ticket Transfer closes this many hours before the show")
    resale_enabled: bool
    resale_price_cap_pct: int | None = Field(description="resale price cap as % of face value; null: no cap")
    order_processing_fee: int = Field(description="cents per order")
    refund_deadline: str | None
    please_note: str | None


class OfferObject(BaseModel):
    """A way to buy tickets: a standard price level, or a Verified Resale listing sold as a set."""

    offer_id: str
    offer_type: str = Field(description="standard or resale")
    name: str
    price_level: str | None
    sections: list[str]
    seats: list[str] = Field(description="resale only: the seats of the listing")
    price: int = Field(description="cents per ticket before fees")
    fees: int = Field(description="cents per ticket")
    total_per_ticket: int
    available: int = Field(description="standard: open seats; resale: tickets in the listing (bought together)")


class EventOffersObject(BaseModel):
    """Everything on sale for one event."""

    event_id: str
    event_name: str
    status: str
    ticket_limit: int
    order_processing_fee: int
    offers: list[OfferObject]


class SeatObject(BaseModel):
    """An open seat."""

    seat_id: str
    section: str
    row: str
    number: int
    offer_id: str
    price_level: str
    face_value: int


class HoldObject(BaseModel):
    """Tickets reserved in the fan's cart until the hold expires."""

    hold_id: str
    event_id: str
    event_name: str
    offer_type: str
    offer_id: str
    seats: list[str]
    seat_ids: list[str]
    quantity: int
    unit_price: int
    unit_fees: int
    order_processing_fee: int
    estimated_total: int
    delivery_methods: list[str]
    status: str = Field(description="active, expired, released or purchased")
    expires_at: str


class TicketObject(BaseModel):
    """A ticket in the fan's account."""

    ticket_id: str
    event_id: str
    event_name: str
    order_id: str | None
    seat: str
    section: str
    row: str
    number: int
    face_value: int
    delivery_method: str
    origin: str = Field(description="purchase, resale or transfer")
    status: str = Field(description="active, transfer_pending, transferred, listed, resold, scanned or refunded")
    listing_id: str | None
    transfer_id: str | None


class OrderSummary(BaseModel):
    """An order in the fan's order history."""

    order_id: str
    event_id: str
    event_name: str
    event_date: str
    venue_name: str
    event_status: str
    offer_type: str
    quantity: int
    total: int
    status: str = Field(description="completed or refunded")
    created: str


class OrderObject(BaseModel):
    """An order with its price breakdown, payment, refund and tickets."""

    order_id: str
    event_id: str
    event_name: str
    event_date: str
    venue_name: str
    event_status: str
    offer_type: str
    quantity: int
    subtotal: int
    ticket_fees: int
    order_processing_fee: int
    total: int
    delivery_method: str
    payment: str
    status: str = Field(description="completed or refunded")
    refund_amount: int
    created: str
    tickets: list[TicketObject]


class TransferObject(BaseModel):
    """A ticket transfer, sent or received."""

    transfer_id: str
    direction: str = Field(description="sent or received")
    event_id: str
    event_name: str
    event_date: str
    sender_name: str
    recipient_name: str
    recipient_email: str
    message: str | None
    seats: list[str]
    ticket_ids: list[str] = Field(description="the sender's tickets")
    accepted_ticket_ids: list[str] | None = Field(description="the recipient's tickets once accepted")
    status: str = Field(description="pending, accepted or cancelled")
    created: str


class ListingObject(BaseModel):
    """One of the fan's Verified Resale listings."""

    listing_id: str
    event_id: str
    event_name: str
    event_date: str
    ticket_ids: list[str]
    seats: list[str]
    quantity: int
    price_per_ticket: int
    buyer_fee_per_ticket: int
    seller_fee_per_ticket: int
    payout_per_ticket: int
    total_payout: int
    status: str = Field(description="active, sold or cancelled")
    created: str


# ---------------------------------------------------------------- rows to objects


def venue_object(row: dict[str, Any]) -> VenueObject:
    """A venue row as the API shows it."""
    return VenueObject(**{k: row[k] for k in VenueObject.model_fields})


def price_range(db: Database, event_id: str) -> PriceRange | None:
    """Lowest and highest face value of the event's price levels."""
    faces = [p["face_value"] for p in db.find(price_levels, event_id=event_id)]
    return PriceRange(min=min(faces), max=max(faces)) if faces else None


def attraction_refs(db: Database, event: dict[str, Any]) -> list[AttractionRef]:
    """The event's bill, headliner first."""
    return [AttractionRef(id=a, name=db.get(attractions, a, "Attraction")["name"]) for a in event["attraction_ids"]]


def event_summary(db: Database, event: dict[str, Any]) -> EventSummary:
    """An event row as a search result."""
    venue = venue_of(db, event)
    return EventSummary(
        **{k: event[k] for k in ("id", "name", "local_date", "local_time", "status", "segment", "genre")},
        venue_name=venue["name"],
        city=venue["city"],
        state_code=venue["state_code"],
        attractions=[a.name for a in attraction_refs(db, event)],
        price_range=price_range(db, event["id"]),
    )


def event_object(db: Database, event: dict[str, Any], event_presales: list[dict[str, Any]]) -> EventObject:
    """An event row with its venue, bill, presales and price ranges."""
    own = {k: event[k] for k in EventObject.model_fields if k in event}
    ranges = price_range(db, event["id"])
    return EventObject(
        **own,
        url=f"https://www.ticketmaster.com/event/{event['id']}",
        presales=[
            PresaleObject(name=p["name"], start_datetime=p["start_datetime"], end_datetime=p["end_datetime"])
            for p in event_presales
        ],
        attractions=attraction_refs(db, event),
        venue=venue_object(venue_of(db, event)),
        price_ranges=[ranges] if ranges else [],
    )


def standard_offer(db: Database, level: dict[str, Any]) -> OfferObject:
    """A standard price level as an offer, with its open seats counted."""
    free = open_seats(db, level["event_id"], price_level_id=level["id"])
    sections = sorted({s["section"] for s in db.find(seats, price_level_id=level["id"])})
    fees = level["service_fee"] + level["facility_fee"]
    return OfferObject(
        offer_id=level["id"],
        offer_type="standard",
        name=level["offer_name"],
        price_level=level["name"],
        sections=sections,
        seats=[],
        price=level["face_value"],
        fees=fees,
        total_per_ticket=level["face_value"] + fees,
        available=len(free),
    )


def resale_offer(db: Database, listing: dict[str, Any]) -> OfferObject:
    """A Verified Resale listing as an offer, sold as a set."""
    seat_rows = [db.get(seats, db.get(tickets, t, "Ticket")["seat_id"], "Seat") for t in listing["ticket_ids"]]
    return OfferObject(
        offer_id=listing["id"],
        offer_type="resale",
        name="Verified Resale Ticket",
        price_level=None,
        sections=sorted({s["section"] for s in seat_rows}),
        seats=[seat_text(s) for s in seat_rows],
        price=listing["price_per_ticket"],
        fees=listing["buyer_fee_per_ticket"],
        total_per_ticket=listing["price_per_ticket"] + listing["buyer_fee_per_ticket"],
        available=len(seat_rows),
    )


def card_object(card: dict[str, Any], expired: bool) -> PaymentMethodObject:
    """A saved card."""
    return PaymentMethodObject(
        **{k: card[k] for k in PaymentMethodObject.model_fields if k != "expired"}, expired=expired
    )


def ticket_object(db: Database, ticket: dict[str, Any]) -> TicketObject:
    """A ticket with its seat, and the listing or transfer it is in."""
    seat = db.get(seats, ticket["seat_id"], "Seat")
    listing = next(
        (
            x["id"]
            for x in db.find(listings, seller_account_id=ticket["account_id"], status="active")
            if ticket["id"] in x["ticket_ids"]
        ),
        None,
    )
    transfer = next(
        (
            t["id"]
            for t in db.find(transfers, sender_account_id=ticket["account_id"], status="pending")
            if ticket["id"] in t["ticket_ids"]
        ),
        None,
    )
    return TicketObject(
        ticket_id=ticket["id"],
        event_id=ticket["event_id"],
        event_name=db.get(events, ticket["event_id"])["name"],
        order_id=ticket["order_id"],
        seat=seat_text(seat),
        section=seat["section"],
        row=seat["row"],
        number=seat["number"],
        face_value=ticket["face_value"],
        delivery_method=ticket["delivery_method"],
        origin=ticket["origin"],
        status=ticket["status"],
        listing_id=listing,
        transfer_id=transfer,
    )


def _event_fields(db: Database, event_id: str) -> dict[str, str]:
    event = db.get(events, event_id, "Event")
    return {
        "event_name": event["name"],
        "event_date": event["local_date"],
        "event_status": event["status"],
        "venue_name": venue_of(db, event)["name"],
    }


def order_summary(db: Database, order: dict[str, Any]) -> OrderSummary:
    """An order row as a line of the order history."""
    return OrderSummary(
        order_id=order["id"],
        **_event_fields(db, order["event_id"]),
        **{k: order[k] for k in ("event_id", "offer_type", "quantity", "total", "status", "created")},
    )


def order_object(db: Database, order: dict[str, Any]) -> OrderObject:
    """An order row with its tickets and the card that paid."""
    card = db.get(payment_methods, order["payment_method_id"], "Payment method")
    return OrderObject(
        order_id=order["id"],
        **_event_fields(db, order["event_id"]),
        **{k: order[k] for k in OrderObject.model_fields if k in order and k != "id"},
        payment=f"{card['brand']} ending {card['last4']}",
        tickets=[ticket_object(db, t) for t in db.find(tickets, order_id=order["id"])],
    )


def _seats_of(db: Database, ticket_ids: list[str]) -> list[str]:
    return [seat_text(db.get(seats, db.get(tickets, t, "Ticket")["seat_id"], "Seat")) for t in ticket_ids]


def transfer_object(db: Database, transfer: dict[str, Any], viewer_id: str) -> TransferObject:
    """A transfer as its sender or recipient sees it."""
    sender = db.get(accounts, transfer["sender_account_id"], "Account")
    event = db.get(events, transfer["event_id"], "Event")
    return TransferObject(
        transfer_id=transfer["id"],
        direction="sent" if transfer["sender_account_id"] == viewer_id else "received",
        event_id=event["id"],
        event_name=event["name"],
        event_date=event["local_date"],
        sender_name=f"{sender['first_name']} {sender['last_name']}",
        recipient_name=f"{transfer['recipient_first_name']} {transfer['recipient_last_name']}",
        recipient_email=transfer["recipient_email"],
        message=transfer["message"],
        seats=_seats_of(db, transfer["ticket_ids"]),
        ticket_ids=transfer["ticket_ids"],
        accepted_ticket_ids=transfer["accepted_ticket_ids"],
        status=transfer["status"],
        created=transfer["created"],
    )


def listing_object(db: Database, listing: dict[str, Any]) -> ListingObject:
    """A resale listing with what the seller gets."""
    event = db.get(events, listing["event_id"], "Event")
    payout = listing["price_per_ticket"] - listing["seller_fee_per_ticket"]
    quantity = len(listing["ticket_ids"])
    return ListingObject(
        listing_id=listing["id"],
        event_id=event["id"],
        event_name=event["name"],
        event_date=event["local_date"],
        ticket_ids=listing["ticket_ids"],
        seats=_seats_of(db, listing["ticket_ids"]),
        quantity=quantity,
        payout_per_ticket=payout,
        total_payout=payout * quantity,
        **{
            k: listing[k]
            for k in ("price_per_ticket", "buyer_fee_per_ticket", "seller_fee_per_ticket", "status", "created")
        },
    )


def hold_object(db: Database, hold: dict[str, Any]) -> HoldObject:
    """A cart with its seats and the estimated total."""
    event = db.get(events, hold["event_id"], "Event")
    quantity = len(hold["seat_ids"])
    fee = event["order_processing_fee"]
    return HoldObject(
        hold_id=hold["id"],
        event_id=event["id"],
        event_name=event["name"],
        offer_type=hold["offer_type"],
        offer_id=hold["listing_id"] or hold["price_level_id"],
        seats=[seat_text(db.get(seats, s, "Seat")) for s in hold["seat_ids"]],
        seat_ids=hold["seat_ids"],
        quantity=quantity,
        unit_price=hold["unit_price"],
        unit_fees=hold["unit_fees"],
        order_processing_fee=fee,
        estimated_total=(hold["unit_price"] + hold["unit_fees"]) * quantity + fee,
        delivery_methods=["mobile"] if hold["offer_type"] == "resale" else event["delivery_methods"],
        status=hold_status(db, hold),
        expires_at=hold["expires_at"],
    )


def seat_object(seat: dict[str, Any], level: dict[str, Any]) -> SeatObject:
    """An open seat with its price level."""
    return SeatObject(
        seat_id=seat["id"],
        section=seat["section"],
        row=seat["row"],
        number=seat["number"],
        offer_id=seat["price_level_id"],
        price_level=level["name"],
        face_value=level["face_value"],
    )
