"""Trainline tools for a signed-in traveller: find stations and journeys with their fares (Advance, Off-Peak,
Anytime; child and Railcard prices), read fare conditions and seat maps, manage Railcards and saved passengers,
book e-tickets with seat reservations, and refund or change bookings by their fare rules."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text
from envfactory_gym.values import minor_units

from . import rules, ticketing
from .access import me, my_booking, my_railcard
from .objects import (
    AccountObject,
    BookingObject,
    BookingSummary,
    ExchangeQuote,
    ExchangeResult,
    FareConditions,
    FareOffer,
    JourneyObject,
    PassengerObject,
    PassengerPrice,
    RailcardObject,
    RefundQuote,
    SeatMap,
    SeatObject,
    ServiceObject,
    StationObject,
    TicketObject,
    TicketQuote,
    account_object,
    booking_object,
    fee_table,
    gbp,
    journey_object,
    railcard_object,
    service_object,
    station_object,
    summary_object,
    ticket_object,
)
from .schema import bookings, passengers, railcards, refunds, services, sessions, stations, tickets, users

Crs = Annotated[str, Field(pattern=r"^[A-Z]{3}$"), ErrorText("Station codes are 3-letter CRS codes, e.g. KGX.")]
BookingRef = Annotated[str, Field(pattern=r"^TL\d{8}$"), ErrorText("Booking references look like TL61000012.")]
ServiceId = Annotated[str, Field(pattern=r"^svc_\d{8}_\w{4}$"), ErrorText("Invalid journey id.")]
TicketId = Annotated[str, Field(pattern=r"^tkt_\d{5}$"), ErrorText("Invalid ticket id.")]
FareType = Literal["ADVANCE", "OFF_PEAK", "ANYTIME", "EUROSTAR"]
TravelClass = Literal["STANDARD", "FIRST"]
RailcardType = Literal["16-25", "26-30", "SENIOR", "DISABLED", "TWO_TOGETHER", "FAMILY_AND_FRIENDS"]
SeatPreference = Literal["WINDOW", "AISLE", "TABLE", "QUIET"]
Time = Annotated[str, Field(pattern=r"^\d{2}:\d{2}$"), ErrorText("Times are HH:MM, e.g. 09:30.")]
Name = Annotated[str, Field(min_length=3, max_length=80, pattern=r"\S+ \S+"), ErrorText("Give a full name.")]
Count = Annotated[int, Field(ge=0, le=8)]


class Traveller(BaseModel):
    """One passenger on a booking: their full name and whether an adult or a child aged 5-15."""

    name: Name
    passenger_type: Literal["ADULT", "CHILD"] = "ADULT"


# ---------------------------------------------------------------- the traveller


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> AccountObject:
    """(User only) The traveller signs in to their Trainline account.

    Args:
        email: The account's email address.
        password: The account's password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("The email or password you entered is incorrect.")
    db.start_session(sessions, user_id=found[0]["id"])
    return account_object(db, found[0], db.find(passengers, user_id=found[0]["id"]))


@tool(read_only=True)
def get_account(db: Database) -> AccountObject:
    """The signed-in traveller's account: name, email, saved payment card and saved passengers."""
    user = db.get(users, me(db), "User")
    return account_object(db, user, db.find(passengers, user_id=user["id"]))


@tool()
def add_passenger(
    db: Database, name: Name, passenger_type: Literal["ADULT", "CHILD"], date_of_birth: IsoDate
) -> PassengerObject:
    """Save a passenger to the account for quicker booking.

    Args:
        name: The passenger's full name.
        passenger_type: ADULT, or CHILD for ages 5-15.
        date_of_birth: Their date of birth.
    """
    user_id = me(db)
    if any(p["name"].lower() == name.strip().lower() for p in db.find(passengers, user_id=user_id)):
        raise Conflict(f"{name.strip()} is already a saved passenger.")
    row = db.insert(
        passengers,
        id=db.new_id(passengers, "pax_", 4),
        user_id=user_id,
        name=name.strip(),
        passenger_type=passenger_type,
        date_of_birth=date_of_birth,
    )
    return PassengerObject(
        passenger_id=row["id"], name=row["name"], passenger_type=passenger_type, date_of_birth=date_of_birth
    )


@tool(read_only=True)
def list_railcards(db: Database) -> list[RailcardObject]:
    """The Railcards saved to the account, with their holders and expiry dates."""
    today = db.now().date().isoformat()
    return [railcard_object(row, today) for row in db.find(railcards, user_id=me(db), status="ACTIVE")]


@tool()
def add_railcard(
    db: Database,
    type: RailcardType,
    number: Annotated[
        str, Field(pattern=r"^[A-Z0-9]{8,12}$"), ErrorText("Railcard numbers are 8-12 letters or digits.")
    ],
    holders: Annotated[list[Name], Field(min_length=1, max_length=2)],
    expires: IsoDate,
) -> RailcardObject:
    """Save a Railcard to the account so its discount can be applied to bookings.

    Args:
        type: The Railcard: 16-25, 26-30, SENIOR, DISABLED, TWO_TOGETHER or FAMILY_AND_FRIENDS.
        number: The number printed on the card.
        holders: The name(s) on the card (two for Two Together; up to two for Family & Friends).
        expires: The expiry date printed on the card.
    """
    user_id = me(db)
    today = db.now().date().isoformat()
    if expires < today:
        raise InvalidRequest("This Railcard has expired.")
    if type == "TWO_TOGETHER" and len(holders) != 2:
        raise InvalidRequest("A Two Together Railcard names two cardholders.")
    if type not in ("TWO_TOGETHER", "FAMILY_AND_FRIENDS") and len(holders) != 1:
        raise InvalidRequest(f"A {rules.RAILCARDS[type]['name']} names one cardholder.")
    if db.find(railcards, user_id=user_id, number=number, status="ACTIVE"):
        raise Conflict("This Railcard is already saved to your account.")
    row = db.insert(
        railcards,
        id=db.new_id(railcards, "rc_", 4),
        user_id=user_id,
        type=type,
        number=number,
        holders=[h.strip() for h in holders],
        expires=expires,
        status="ACTIVE",
    )
    return railcard_object(row, today)


@tool()
def remove_railcard(db: Database, railcard_id: Annotated[str, Field(pattern=r"^rc_\d{4}$")]) -> RailcardObject:
    """Remove a Railcard from the account (bookings already made with it keep their tickets).

    Args:
        railcard_id: The Railcard's id, from list_railcards.
    """
    row = my_railcard(db, railcard_id)
    return railcard_object(db.update(railcards, row["id"], status="REMOVED"), db.now().date().isoformat())


# ---------------------------------------------------------------- stations and journeys


@tool(read_only=True)
def search_stations(db: Database, query: text(60)) -> list[StationObject]:
    """Find stations by name, city or CRS code (e.g. "Manchester" finds Piccadilly and Victoria).

    Args:
        query: Part of a station's name or city, or its 3-letter code.
    """
    words = query.strip().lower()
    found = db.select(
        stations,
        "lower(name) LIKE ? OR lower(city) LIKE ? OR lower(code) = ?",
        (f"%{words}%", f"%{words}%", words),
        order_by="name",
    )
    return [station_object(row) for row in found]


@tool(read_only=True)
def search_journeys(
    db: Database,
    origin: Crs,
    destination: Crs,
    date: IsoDate,
    depart_after: Time = "00:00",
    adults: Annotated[int, Field(ge=0, le=8)] = 1,
    children: Count = 0,
    railcard_id: str | None = None,
    travel_class: TravelClass | None = None,
    page_size: page_size(20) = 10,
    cursor: str | None = None,
) -> Page[JourneyObject]:
    """Search direct trains on a date with their fares for the party: Advance singles (with seats left at that
    price), Off-Peak and Anytime singles and returns, each priced per passenger with child and Railcard discounts;
    Eurostar trains (St Pancras to Paris and Brussels) sell EUROSTAR singles instead. Fares a train doesn't sell
    are listed under `unavailable` with the reason.

    Args:
        origin: Departure station's CRS code (search_stations).
        destination: Arrival station's CRS code.
        date: Travel date.
        depart_after: Earliest departure time, HH:MM.
        adults: Adults travelling (16 and over).
        children: Children aged 5-15 (under-5s travel free without a ticket).
        railcard_id: A Railcard saved to the account (list_railcards) to price with.
        travel_class: Only STANDARD or FIRST fares.
        page_size: Journeys per page.
        cursor: next_cursor of the previous page.
    """
    if adults + children < 1:
        raise InvalidRequest("Add at least one passenger.")
    db.get(stations, origin, "Station")
    db.get(stations, destination, "Station")
    card = my_railcard(db, railcard_id) if railcard_id else None
    rows = db.select(
        services,
        "origin = ? AND destination = ? AND travel_date = ? AND departs >= ? AND departs > ?",
        (origin, destination, date, f"{date}T{depart_after}", rules.local_now(db)),
        order_by="departs",
    )
    kinds = ["ADULT"] * adults + ["CHILD"] * children
    known = rules.route_fares_of(db, origin, destination)
    journeys = []
    for row in rows:
        fares, unavailable = [], []
        for fare_type in rules.fare_types(row):
            for kind in ("STANDARD", "FIRST") if travel_class is None else (travel_class,):
                try:
                    single = rules.adult_fare(db, row, fare_type, kind, "SINGLE", known)
                    if fare_type in rules.RESERVED and rules.advance_left(row, kind) < len(kinds):
                        raise Conflict(f"Not enough {kind.lower()} tickets left at this fare.")
                except (Conflict, InvalidRequest, NotFound) as refused:
                    unavailable.append(f"{fare_type} {kind}: {refused}")
                    continue
                note = rules.railcard_problem(card, row, kind, adults, children) if card else ""
                used = card if card and not note else None
                lines = rules.price_passengers(single, kinds, used, row, [True] * len(kinds))
                back = None
                if fare_type not in rules.RESERVED:
                    returned = rules.adult_fare(db, row, fare_type, kind, "RETURN", known)
                    back = gbp(
                        sum(p for p, _ in rules.price_passengers(returned, kinds, used, row, [True] * len(kinds)))
                    )
                fares.append(
                    FareOffer(
                        fare_type=fare_type,
                        travel_class=kind,
                        single_price=gbp(sum(p for p, _ in lines)),
                        return_price=back,
                        passengers=[
                            PassengerPrice(passenger_type=k, price=gbp(p), railcard_applied=a)
                            for k, (p, a) in zip(kinds, lines)
                        ],
                        advance_seats_left=rules.advance_left(row, kind) if fare_type in rules.RESERVED else None,
                        refundable=rules.CONDITIONS[fare_type]["refundable"],
                        railcard_note=note or None,
                    )
                )
        journeys.append(journey_object(db, row, fares, unavailable))
    return paginate(journeys, page_size, cursor)


@tool(read_only=True)
def get_journey(db: Database, service_id: ServiceId) -> ServiceObject:
    """One train's details: operator, times, whether it is peak or cancelled, Advance tickets left and free seats.

    Args:
        service_id: The journey's id, from search_journeys or a ticket.
    """
    return service_object(db, rules.service(db, service_id))


@tool(read_only=True)
def get_fare_conditions(db: Database, fare_type: FareType) -> FareConditions:
    """The conditions of a ticket type: where and when it is valid, and its refund and change rules and fees.

    Args:
        fare_type: ADVANCE, OFF_PEAK, ANYTIME, or EUROSTAR on Eurostar trains.
    """
    rule = rules.CONDITIONS[fare_type]
    return FareConditions(
        fare_type=fare_type,
        summary=rule["summary"],
        refundable=rule["refundable"],
        changeable=rule["changeable"],
        refund_rule=rule["refund_rule"],
        change_rule=rule["change_rule"],
        refund_fee_table=fee_table(rules.REFUND_FEES, rules.REFUND_FEE_CAP),
        change_fee_table=fee_table(rules.EXCHANGE_FEES, rules.EXCHANGE_FEE_CAP),
    )


@tool(read_only=True)
def get_seat_map(
    db: Database, service_id: ServiceId, travel_class: TravelClass = "STANDARD", feature: SeatPreference | None = None
) -> SeatMap:
    """The free reservable seats on a train in a class, coach by coach, with their features (the first 40 that
    match; free_seats counts them all).

    Args:
        service_id: The journey's id.
        travel_class: STANDARD or FIRST.
        feature: Only seats that are WINDOW, AISLE, TABLE or in a QUIET coach.
    """
    row = rules.service(db, service_id)
    taken = rules.taken_seats(db, row["id"])
    free = [s for s in rules.all_seats(row, travel_class) if s not in taken]
    shown = [
        SeatObject(coach=c, seat=n, features=rules.seat_features(c, n))
        for c, n in free
        if feature is None or feature in rules.seat_features(c, n)
    ]
    return SeatMap(service_id=row["id"], travel_class=travel_class, free_seats=len(free), seats=shown[:40])


# ---------------------------------------------------------------- bookings


@tool()
def create_booking(
    db: Database,
    service_id: ServiceId,
    fare_type: FareType,
    passengers: Annotated[list[Traveller], Field(min_length=1, max_length=8)],
    travel_class: TravelClass = "STANDARD",
    return_service_id: ServiceId | None = None,
    railcard_id: str | None = None,
    delivery: Literal["ETICKET", "MTICKET"] = "ETICKET",
    reserve_seats: bool = True,
    seat_preference: SeatPreference | None = None,
) -> BookingObject:
    """Buy tickets for a train (and a return train for an Off-Peak or Anytime return), paid with the account's
    saved card. Advance and Eurostar tickets always come with a reserved seat; Off-Peak and Anytime ones get free
    seat reservations when reserve_seats is true.

    Args:
        service_id: The outward journey's id, from search_journeys.
        fare_type: ADVANCE, OFF_PEAK, ANYTIME, or EUROSTAR on Eurostar trains.
        passengers: Everyone travelling, each with their full name and ADULT or CHILD.
        travel_class: STANDARD or FIRST (Eurostar Plus on Eurostar).
        return_service_id: The return journey's id, for a return ticket (not Advance).
        railcard_id: A Railcard saved to the account; its holder must be travelling.
        delivery: ETICKET (PDF e-ticket) or MTICKET (mobile ticket, activated in the app on the day).
        reserve_seats: Reserve seats for Off-Peak and Anytime tickets.
        seat_preference: WINDOW, AISLE, TABLE or QUIET.
    """
    user_id = me(db)
    out = rules.bookable_service(db, service_id)
    back = rules.bookable_service(db, return_service_id) if return_service_id else None
    if back is not None:
        ticketing.check_return(db, out, back, fare_type)
    card = my_railcard(db, railcard_id) if railcard_id else None
    party = [(p.name, p.passenger_type) for p in passengers]
    stored = ticketing.issue(
        db, user_id, out, back, fare_type, travel_class, party, card, delivery, reserve_seats, seat_preference
    )
    return booking_object(db, stored)


@tool(read_only=True)
def list_bookings(
    db: Database,
    when: Literal["UPCOMING", "PAST", "ALL"] = "UPCOMING",
    page_size: page_size(20) = 10,
    cursor: str | None = None,
) -> Page[BookingSummary]:
    """The traveller's bookings with their route, first departure and status, soonest first (PAST: latest first).

    Args:
        when: UPCOMING (first train not yet departed), PAST, or ALL.
        page_size: Bookings per page.
        cursor: next_cursor of the previous page.
    """
    now = rules.local_now(db)
    listed = []
    for row in db.find(bookings, user_id=me(db)):
        held = db.find(tickets, booking_ref=row["booking_ref"])
        summary = summary_object(db, row, held)
        upcoming = summary.first_departure > now
        if when == "ALL" or (when == "UPCOMING") == upcoming:
            listed.append(summary)
    listed.sort(key=lambda s: s.first_departure, reverse=when == "PAST")
    return paginate(listed, page_size, cursor)


@tool(read_only=True)
def get_booking(db: Database, booking_ref: BookingRef) -> BookingObject:
    """A booking with its tickets (passenger, fare, train, seat, status) and any refunds.

    Args:
        booking_ref: The booking reference, e.g. "TL61000012".
    """
    return booking_object(db, my_booking(db, booking_ref))


@tool()
def reserve_seat(
    db: Database,
    ticket_id: TicketId,
    coach: Annotated[str, Field(pattern=r"^[A-Z]$")],
    seat: Annotated[int, Field(ge=1, le=64)],
    leg: Literal["OUTWARD", "RETURN"] = "OUTWARD",
) -> TicketObject:
    """Reserve (or move to) a particular free seat for a ticket's train, in the ticket's class.

    Args:
        ticket_id: The ticket's id, from get_booking.
        coach: The coach letter, from get_seat_map.
        seat: The seat number.
        leg: OUTWARD, or RETURN for a return ticket's return train.
    """
    ticket = db.find_one(tickets, not_found=f"Ticket {ticket_id} not found.", id=ticket_id)
    my_booking(db, ticket["booking_ref"])
    if ticket["status"] not in ("ISSUED", "ACTIVATED"):
        raise Conflict(f"This ticket is {ticket['status'].lower()}.")
    service_id = ticket["service_id"] if leg == "OUTWARD" else ticket["return_service_id"]
    if service_id is None:
        raise InvalidRequest("This ticket has no return journey.")
    row = rules.bookable_service(db, service_id)
    if (coach, seat) not in rules.all_seats(row, ticket["travel_class"]):
        raise InvalidRequest(f"Seat {coach}{seat} is not a {ticket['travel_class'].lower()} class seat on this train.")
    if (coach, seat) in rules.taken_seats(db, row["id"]):
        raise Conflict(f"Seat {coach}{seat} is already reserved.")
    columns = ("coach", "seat") if leg == "OUTWARD" else ("return_coach", "return_seat")
    stored = db.update(tickets, ticket_id, **{columns[0]: coach, columns[1]: seat})
    return ticket_object(db, stored)


@tool(user_only=True)
def activate_ticket(db: Database, ticket_id: TicketId) -> TicketObject:
    """(User only) The traveller activates a mobile ticket in the app on the day of travel, before boarding.

    Args:
        ticket_id: The mobile ticket's id.
    """
    ticket = db.find_one(tickets, not_found=f"Ticket {ticket_id} not found.", id=ticket_id)
    booking = my_booking(db, ticket["booking_ref"])
    if booking["delivery"] != "MTICKET":
        raise InvalidRequest("Only mobile tickets are activated; show the e-ticket's barcode instead.")
    if ticket["status"] != "ISSUED":
        raise Conflict(f"This ticket is {ticket['status'].lower()}.")
    if rules.service(db, ticket["service_id"])["travel_date"] != db.now().date().isoformat():
        raise Conflict("Mobile tickets can only be activated on the day of travel.")
    return ticket_object(db, db.update(tickets, ticket_id, status="ACTIVATED"))


# ---------------------------------------------------------------- refunds and changes


@tool(read_only=True)
def get_refund_quote(
    db: Database, booking_ref: BookingRef, ticket_ids: Annotated[list[TicketId], Unordered] | None = None
) -> RefundQuote:
    """What refunding a booking's tickets (all, or some) would pay back after the refund fee per ticket, and why
    any can't be refunded.

    Args:
        booking_ref: The booking reference.
        ticket_ids: Only these tickets (default: every ticket of the booking).
    """
    booking = my_booking(db, booking_ref)
    chosen = [
        t for t in db.find(tickets, booking_ref=booking["booking_ref"]) if not ticket_ids or t["id"] in ticket_ids
    ]
    lines, total, fees = [], 0, 0
    for ticket in chosen:
        problem = rules.refund_problem(db, ticket)
        fee, amount = (0, 0) if problem else rules.ticket_refund(db, ticket)
        total, fees = total + amount, fees + fee
        lines.append(
            TicketQuote(
                ticket_id=ticket["id"],
                passenger_name=ticket["passenger_name"],
                price=gbp(ticket["price"]),
                refundable=not problem,
                reason=problem or None,
                fee=gbp(fee),
                refund_amount=gbp(amount),
            )
        )
    return RefundQuote(booking_ref=booking["booking_ref"], tickets=lines, total_refund=gbp(total), total_fees=gbp(fees))


@tool()
def refund_tickets(
    db: Database,
    booking_ref: BookingRef,
    ticket_ids: Annotated[list[TicketId], Field(min_length=1), Unordered],
    reason: Literal["CHANGE_OF_PLANS", "TRAIN_CANCELLED", "BOOKED_IN_ERROR", "OTHER"] = "CHANGE_OF_PLANS",
) -> BookingObject:
    """Refund unused tickets of a booking to the card that paid, less the refund fee per ticket (none when the
    train was cancelled). Advance tickets are non-refundable.

    Args:
        booking_ref: The booking reference.
        ticket_ids: The tickets to refund (get_booking).
        reason: Why: CHANGE_OF_PLANS, TRAIN_CANCELLED, BOOKED_IN_ERROR or OTHER.
    """
    booking = my_booking(db, booking_ref)
    own = {t["id"]: t for t in db.find(tickets, booking_ref=booking["booking_ref"])}
    value = fees = amount = 0
    for ticket_id in ticket_ids:
        if ticket_id not in own:
            raise InvalidRequest(f"Ticket {ticket_id} is not part of booking {booking['booking_ref']}.")
        problem = rules.refund_problem(db, own[ticket_id])
        if problem:
            raise Conflict(f"Ticket {ticket_id}: {problem}")
        fee, paid = rules.ticket_refund(db, own[ticket_id])
        value, fees, amount = value + own[ticket_id]["price"], fees + fee, amount + paid
        db.update(tickets, ticket_id, status="REFUNDED")
    db.insert(
        refunds,
        id=db.new_id(refunds, "rfd_", 4),
        booking_ref=booking["booking_ref"],
        ticket_ids=sorted(ticket_ids),
        ticket_value=value,
        fee=fees,
        amount=amount,
        reason=reason,
        created_at=db.now_iso(),
    )
    left = [t for t in db.find(tickets, booking_ref=booking["booking_ref"]) if t["status"] in ("ISSUED", "ACTIVATED")]
    stored = db.update(bookings, booking["booking_ref"], status="PARTLY_REFUNDED" if left else "REFUNDED")
    return booking_object(db, stored)


@tool(read_only=True)
def get_exchange_quote(
    db: Database, booking_ref: BookingRef, new_service_id: ServiceId, fare_type: FareType | None = None
) -> ExchangeQuote:
    """Price changing a booking's single tickets to another train on the same route before the booked one departs:
    the fare difference (never refunded when cheaper) plus the admin fee per ticket.

    Args:
        booking_ref: The booking reference.
        new_service_id: The train to change to, from search_journeys.
        fare_type: The new ticket type (default: the same as now).
    """
    booking = my_booking(db, booking_ref)
    card = db.get(railcards, booking["railcard_id"]) if booking["railcard_id"] else None
    new = rules.bookable_service(db, new_service_id)
    return ticketing.exchange_quote(db, booking, new, fare_type, card)[0]


@tool()
def exchange_booking(
    db: Database, booking_ref: BookingRef, new_service_id: ServiceId, fare_type: FareType | None = None
) -> ExchangeResult:
    """Change a booking's single tickets to another train on the same route, paying the quoted difference and
    admin fees with the saved card; the old tickets are cancelled and a new booking is issued with seats.

    Args:
        booking_ref: The booking reference.
        new_service_id: The train to change to.
        fare_type: The new ticket type (default: the same as now).
    """
    booking = my_booking(db, booking_ref)
    card = db.get(railcards, booking["railcard_id"]) if booking["railcard_id"] else None
    new = rules.bookable_service(db, new_service_id)
    quote, held, _, kind = ticketing.exchange_quote(db, booking, new, fare_type, card)
    party = [(t["passenger_name"], t["passenger_type"]) for t in held]
    stored = ticketing.issue(
        db, booking["user_id"], new, None, kind, held[0]["travel_class"], party, card, booking["delivery"], True, None
    )
    for ticket in held:
        db.update(tickets, ticket["id"], status="EXCHANGED")
    db.update(bookings, booking["booking_ref"], status="EXCHANGED", exchanged_to=stored["booking_ref"])
    paid = minor_units(quote.amount_to_pay, "GBP")
    stored = db.update(bookings, stored["booking_ref"], exchanged_from=booking["booking_ref"], change_paid=paid)
    return ExchangeResult(
        old_booking_ref=booking["booking_ref"],
        amount_charged=quote.amount_to_pay,
        new_booking=booking_object(db, stored),
    )
