"""Amadeus Self-Service flight tools: locations, offers search and pricing, orders, seat maps and traveler profiles."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.values import parse_date

from .objects import (
    Adults,
    AirlineCodes,
    CancellationResult,
    Cabin,
    ChangeResult,
    Children,
    Day,
    EmailAddress,
    FlightOfferPricing,
    FlightOffersSearchResponse,
    FlightOrder,
    FlightOrderSummary,
    Gender,
    Infants,
    Keyword,
    Location,
    LocationCode,
    LoyaltyProgramInput,
    OrderStatus,
    OrderTravelerInput,
    PersonName,
    PhoneNumber,
    Position,
    PricePerTraveler,
    RecordLocator,
    ReleasedOrder,
    ResultCount,
    SeatMap,
    SeatNumber,
    TicketingOption,
    TravelerProfile,
    flight_offer,
    location_object,
    order_summary,
    priced_offer,
    profile_object,
    seat_map,
)
from .offers import (
    airports_for,
    departed,
    flight_name,
    itineraries,
    names_of,
    parse_offer,
    rank_offers,
    routes_of,
)
from .orders import (
    booked_travelers,
    get_order,
    move_seats,
    order_response,
    pay,
    prices,
    release_seats,
    require_same_trip,
    take_seats,
    taken_seats,
    traveler_types,
)
from .rules import (
    CURRENCY,
    amount,
    birth_date,
    cancellation,
    email_address,
    exit_row_refusal,
    hold_deadline,
    last_ticketing_date,
    loyalty_number,
    party,
    passenger_name,
    phone_number,
    record_locator,
    seat_plan,
    seated,
)
from .schema import aircraft, airlines, fare_families, flight_orders, locations
from .schema import travelers as profiles

DATE_EXAMPLE = "2025-05-15"


# ---------------------------------------------------------------- locations and offers


@tool(read_only=True)
def search_airports(
    db: Database, keyword: Keyword, sub_type: Literal["AIRPORT", "CITY"] | None = None
) -> list[Location]:
    """Airport & City Search: find airports and cities by IATA code or by (part of) their name or city name.

    A city code (LON, NYC, PAR, MIL...) stands for all of its airports in flight searches.

    Args:
        keyword: An IATA code or text to look for, e.g. "MUC", "london", "Newark".
        sub_type: Only airports or only cities; both when left out.
    """
    needle = keyword.strip().casefold()
    matches = [
        r
        for r in db.find(locations, **given(sub_type=sub_type))
        if r["iata_code"].casefold() == needle
        or any(needle in r[k].casefold() for k in ("name", "detailed_name", "city_name"))
    ]
    matches.sort(key=lambda r: (r["iata_code"].casefold() != needle, -r["traveler_score"], r["id"]))
    return [Location.model_validate(location_object(r)) for r in matches]


@tool(read_only=True)
def search_flight_offers(
    db: Database,
    origin_location_code: LocationCode,
    destination_location_code: LocationCode,
    departure_date: Day,
    return_date: Day | None = None,
    adults: Adults = 1,
    children: Children = 0,
    infants: Infants = 0,
    travel_class: Cabin | None = None,
    included_airline_codes: AirlineCodes | None = None,
    non_stop: bool = False,
    max_price: PricePerTraveler | None = None,
    max_results: ResultCount = 10,
) -> FlightOffersSearchResponse:
    """Flight Offers Search: bookable offers (direct flights and one-stop connections on one airline) for a trip,
    one offer per itinerary and branded fare, cheapest first. Only offers with enough seats for the party are
    returned; numberOfBookableSeats is capped at 9.

    Args:
        origin_location_code: IATA code of the departure airport or city, e.g. "BER" or "LON".
        destination_location_code: IATA code of the arrival airport or city.
        departure_date: Local departure date of the outbound flight, YYYY-MM-DD.
        return_date: Local departure date of the return flight for a round trip, YYYY-MM-DD.
        adults: Travelers aged 12 or more, 1 to 9.
        children: Travelers aged 2 to 11 (they get a seat); adults plus children at most 9.
        infants: Travelers under 2, on an adult's lap; at most one per adult.
        travel_class: Only this cabin; every cabin when left out.
        included_airline_codes: Only these airlines (IATA codes).
        non_stop: Only direct flights.
        max_price: Maximum price per traveler in EUR (whole number).
        max_results: Offers to return, 1 to 250.
    """
    types = party(adults, children, infants)
    outbound_day = parse_date(departure_date, "departure_date", DATE_EXAMPLE)
    if outbound_day < db.now().date():
        raise InvalidRequest(f"INVALID DATE: departure_date {departure_date} is in the past")
    if return_date is not None and parse_date(return_date, "return_date", DATE_EXAMPLE) < outbound_day:
        raise InvalidRequest("INVALID DATE: return_date must not be before departure_date")
    origins, destinations = airports_for(db, origin_location_code, destination_location_code)
    if set(origins) & set(destinations):
        raise InvalidRequest("origin and destination must differ")
    carriers = {c.strip().upper() for c in included_airline_codes or []}
    outbound = itineraries(db, origins, destinations, departure_date, carriers, non_stop)
    inbound = itineraries(db, destinations, origins, return_date, carriers, non_stop) if return_date else None
    flown = {i[0]["carrier_code"] for i in outbound}
    if inbound is not None:
        flown &= {i[0]["carrier_code"] for i in inbound}
    families = [
        f
        for carrier in sorted(flown)
        for f in db.find(fare_families, **given(carrier_code=carrier, cabin=travel_class))
    ]
    max_total = max_price * 100 * len(types) if max_price is not None else None
    count, best = rank_offers(db, outbound, inbound, families, types, max_total, max_results)
    today = db.now().date()
    offers = [flight_offer(o, prices(o, types), last_ticketing_date(today, o.departure_date)) for o in best]
    carriers_named, aircraft_named = names_of(best)
    return FlightOffersSearchResponse.model_validate(
        {
            "meta": {"count": count},
            "data": offers,
            "carriers": carriers_named,
            "aircraft": aircraft_named,
        }
    )


@tool(read_only=True)
def price_flight_offer(
    db: Database, flight_offer_id: str, adults: Adults = 1, children: Children = 0, infants: Infants = 0
) -> FlightOfferPricing:
    """Flight Offers Price: confirm an offer's availability and final price for the party, with each traveler's
    pricing, fare details per segment, the refund and exchange rules and what the booking will require.

    Args:
        flight_offer_id: The offer's id, as returned by search_flight_offers.
        adults: Travelers aged 12 or more, 1 to 9.
        children: Travelers aged 2 to 11; adults plus children at most 9.
        infants: Travelers under 2, on an adult's lap; at most one per adult.
    """
    types = party(adults, children, infants)
    offer = parse_offer(db, flight_offer_id)
    offer.require_not_departed(db, "price this offer")
    left = offer.seats_left()
    if left < adults + children:
        raise Conflict(f"NO FARE AVAILABLE: only {left} seat(s) left in {offer.cabin} for this offer")
    last_ticketing = last_ticketing_date(db.now().date(), offer.departure_date)
    return FlightOfferPricing.model_validate(
        {
            "flightOffers": [priced_offer(offer, types, prices(offer, types), last_ticketing)],
            "travelerRequirements": [
                {"travelerId": str(i), "travelerType": t, "dateOfBirthRequired": True, "contactRequired": t == "ADULT"}
                for i, t in enumerate(types, start=1)
            ],
        }
    )


# ---------------------------------------------------------------- traveler profiles


@tool(read_only=True)
def list_traveler_profiles(db: Database, name: str | None = None) -> list[TravelerProfile]:
    """List the company's saved traveler profiles (name, date of birth, contact, loyalty programs).

    Args:
        name: Only profiles whose first or last name contains this text (case-insensitive).
    """
    rows = db.find(profiles, order_by=[profiles.c.last_name, profiles.c.first_name])
    if name:
        words = name.upper().split()
        rows = [r for r in rows if all(w in f"{r['first_name']} {r['last_name']}" for w in words)]
    return [profile_object(r) for r in rows]


@tool()
def create_traveler_profile(
    db: Database,
    first_name: PersonName,
    last_name: PersonName,
    date_of_birth: Day | None = None,
    gender: Gender | None = None,
    email: EmailAddress | None = None,
    phone: PhoneNumber | None = None,
) -> TravelerProfile:
    """Save a new traveler profile. Names are stored in upper case, as on the passport.

    Args:
        first_name: First (given) name as on the passport.
        last_name: Last name as on the passport.
        date_of_birth: YYYY-MM-DD, not in the future.
        gender: MALE or FEMALE.
        email: Contact e-mail address.
        phone: Mobile number with country code, e.g. "+44 7700 900123".
    """
    first, last = passenger_name(first_name), passenger_name(last_name)
    if db.find(profiles, first_name=first, last_name=last):
        raise Conflict(f"A traveler profile for {first} {last} already exists")
    row = db.insert(
        profiles,
        id=db.new_id(profiles, "TRV"),
        first_name=first,
        last_name=last,
        date_of_birth=birth_date(date_of_birth, db.now().date()) if date_of_birth else None,
        gender=gender,
        email=email_address(email) if email else None,
        phone=phone_number(phone) if phone else None,
        loyalty_programs=[],
    )
    return profile_object(row)


@tool()
def update_traveler_profile(
    db: Database,
    traveler_profile_id: str,
    date_of_birth: Day | None = None,
    gender: Gender | None = None,
    email: EmailAddress | None = None,
    phone: PhoneNumber | None = None,
    loyalty_program: LoyaltyProgramInput | None = None,
) -> TravelerProfile:
    """Complete or correct a saved traveler profile; unset arguments stay as they are. A loyalty program replaces
    the traveler's saved number for the same program owner.

    Args:
        traveler_profile_id: The profile to update, as listed by list_traveler_profiles.
        date_of_birth: YYYY-MM-DD, not in the future.
        gender: MALE or FEMALE.
        email: Contact e-mail address.
        phone: Mobile number with country code, e.g. "+44 7700 900123".
        loyalty_program: A frequent flyer account to add: its program owner airline and membership number.
    """
    row = db.get(profiles, traveler_profile_id, "Traveler profile")
    changes: dict[str, Any] = given(
        date_of_birth=birth_date(date_of_birth, db.now().date()) if date_of_birth is not None else None,
        gender=gender,
        email=email_address(email) if email is not None else None,
        phone=phone_number(phone) if phone is not None else None,
    )
    if loyalty_program is not None:
        owner = loyalty_program.program_owner.strip().upper()
        airline = db.find(airlines, code=owner)
        if not airline or airline[0]["loyalty_program"] is None:
            raise InvalidRequest(f"{owner} does not run a frequent flyer program")
        kept = [p for p in row["loyalty_programs"] if p["programOwner"] != owner]
        changes["loyalty_programs"] = sorted(
            kept + [{"programOwner": owner, "id": loyalty_number(loyalty_program.id)}], key=lambda p: p["programOwner"]
        )
    if not changes:
        raise InvalidRequest("Nothing to update")
    return profile_object(db.update(profiles, traveler_profile_id, **changes))


# ---------------------------------------------------------------- flight orders


@tool()
def create_flight_order(
    db: Database,
    flight_offer_id: str,
    travelers: Annotated[list[OrderTravelerInput], Field(min_length=1, max_length=9), Unordered],
    ticketing_option: TicketingOption = "CONFIRM",
) -> FlightOrder:
    """Flight Create Orders: book an offer for saved travelers. Each traveler needs a date of birth and each adult
    an e-mail or phone; traveler types (ADULT 12+, CHILD 2-11, HELD_INFANT under 2) follow the age on the day of
    departure and set the price. Travelers get order ids "1", "2"... (adults, then children, then infants;
    each infant rides with an adult). CONFIRM tickets at once on the company card; DELAY_TO_CANCEL holds the seats
    unpaid until the last ticketing date, when the traveler approves the payment in the app.

    Args:
        flight_offer_id: The offer to book, as returned by search_flight_offers or price_flight_offer.
        travelers: The travelers (1 to 9, each once), by saved profile, each optionally crediting one of their
            loyalty programs.
        ticketing_option: CONFIRM to ticket now, DELAY_TO_CANCEL to hold.
    """
    offer = parse_offer(db, flight_offer_id)
    offer.require_not_departed(db, "book this offer")
    order_travelers = booked_travelers(db, offer, travelers)
    types = [t["travelerType"] for t in order_travelers]
    today = db.now().date()
    last_ticketing = None
    if ticketing_option == "DELAY_TO_CANCEL":
        deadline = hold_deadline(today, offer.departure_date)
        if deadline < today:
            raise InvalidRequest("Flights departing within a day cannot be held: book them with CONFIRM")
        last_ticketing = deadline.isoformat()
    take_seats(db, offer, seated(types))
    charged = prices(offer, types)
    order_id = db.new_id(flight_orders, "FO", 6)
    order = db.insert(
        flight_orders,
        id=order_id,
        record_locator=record_locator(int(order_id[2:])),
        status="TICKETED" if ticketing_option == "CONFIRM" else "HELD",
        flight_offer_id=offer.id,
        travelers=order_travelers,
        seats=[],
        base_total=sum(p[0] for p in charged),
        grand_total=sum(p[1] for p in charged),
        currency=CURRENCY,
        ticketing_option=ticketing_option,
        last_ticketing_date=last_ticketing,
        created_at=db.now_iso(),
    )
    if ticketing_option == "CONFIRM":
        pay(db, order_id, "CHARGE", order["grand_total"])
    return order_response(db, order, offer)


@tool(read_only=True)
def list_flight_orders(
    db: Database,
    status: OrderStatus | None = None,
    record_locator: RecordLocator | None = None,
    traveler_name: str | None = None,
) -> list[FlightOrderSummary]:
    """List the company's flight orders in short, by first departure.

    Args:
        status: Only orders in this status.
        record_locator: Only the order with this PNR reference (from the confirmation e-mail).
        traveler_name: Only orders with a traveler whose name contains this text.
    """
    rows = db.find(
        flight_orders,
        **given(
            status=status,
            record_locator=record_locator.strip().upper() if record_locator else None,
        ),
    )
    if traveler_name:
        words = traveler_name.upper().split()
        rows = [
            o for o in rows if any(all(w in f"{t['firstName']} {t['lastName']}" for w in words) for t in o["travelers"])
        ]
    routes = routes_of(db, [o["flight_offer_id"] for o in rows]) if rows else {}
    summaries = [order_summary(o, routes[o["flight_offer_id"]]) for o in rows]
    summaries.sort(key=lambda s: (s["itineraries"][0]["departureAt"], s["id"]))
    return [FlightOrderSummary.model_validate(s) for s in summaries]


@tool(read_only=True)
def get_flight_order(db: Database, flight_order_id: str) -> FlightOrder:
    """Flight Order Management: retrieve an order with its flights, travelers, seats, ticketing and payments.

    Args:
        flight_order_id: The order's id, as listed by list_flight_orders.
    """
    return order_response(db, get_order(db, flight_order_id))


@tool()
def cancel_flight_order(db: Database, flight_order_id: str) -> CancellationResult:
    """Flight Order Management: cancel an order before its first flight and give its seats back. A held order is
    cancelled free; a ticketed order is refunded by its fare rules: basic fares are non-refundable, other fares
    refund the ticket price minus the cancellation fee per seated traveler.

    Args:
        flight_order_id: The order to cancel.
    """
    order = get_order(db, flight_order_id)
    if order["status"] == "CANCELLED":
        raise Conflict(f"Flight order {order['record_locator']} is already cancelled")
    offer = parse_offer(db, order["flight_offer_id"])
    offer.require_not_departed(db, "cancel the order")
    seats = seated(traveler_types(order))
    fee, refund = cancellation(order, offer.fare, seats)
    release_seats(db, offer, seats)
    db.update(flight_orders, order["id"], status="CANCELLED", seats=[])
    pay(db, order["id"], "REFUND", refund)
    return CancellationResult(
        flightOrderId=order["id"],
        recordLocator=order["record_locator"],
        status="CANCELLED",
        cancellationFee=amount(fee),
        refundAmount=amount(refund),
        currency=order["currency"],
    )


@tool()
def change_flight_order(db: Database, flight_order_id: str, new_flight_offer_id: str) -> ChangeResult:
    """Move a ticketed order to other flights on the same route, same airline and same branded fare. Basic fares
    cannot be changed; standard fares pay the change fee per seated traveler; flexible fares change free. A higher
    new price is charged as a fare difference (a lower one is not refunded). Seats on flights that are kept stay.

    Args:
        flight_order_id: The order to change.
        new_flight_offer_id: The offer with the new flights, as returned by search_flight_offers.
    """
    order = get_order(db, flight_order_id)
    if order["status"] != "TICKETED":
        raise Conflict(
            f"Flight order {order['record_locator']} is {order['status']}: only ticketed orders can be changed"
            + (" (cancel the hold and book the new flights instead)" if order["status"] == "HELD" else "")
        )
    old = parse_offer(db, order["flight_offer_id"])
    new = parse_offer(db, new_flight_offer_id)
    require_same_trip(old, new)
    old.require_not_departed(db, "change the order")
    new.require_not_departed(db, "book the new flights")
    types = traveler_types(order)
    move_seats(db, old, new, seated(types))
    charged = prices(new, types)
    new_total = sum(p[1] for p in charged)
    fee = new.fare["change_fee"] * 100 * seated(types)
    difference = max(0, new_total - order["grand_total"])
    kept = {leg["id"] for leg in new.segments}
    updated = db.update(
        flight_orders,
        order["id"],
        flight_offer_id=new.id,
        base_total=sum(p[0] for p in charged),
        grand_total=new_total,
        seats=[s for s in order["seats"] if s["flightId"] in kept],
    )
    pay(db, order["id"], "CHANGE_FEE", fee)
    pay(db, order["id"], "FARE_DIFFERENCE", difference)
    return ChangeResult(
        changeFee=amount(fee),
        fareDifference=amount(difference),
        currency=CURRENCY,
        flightOrder=order_response(db, updated, new),
    )


# ---------------------------------------------------------------- seats


@tool(read_only=True)
def get_seatmap(
    db: Database,
    flight_order_id: str | None = None,
    flight_offer_id: str | None = None,
    segment_id: Position | None = None,
    only_available: bool = True,
) -> list[SeatMap]:
    """SeatMap Display: the seats of the booked cabin on each segment of an order (or of an offer), with their
    characteristics and availability. Give exactly one of flight_order_id or flight_offer_id.

    Args:
        flight_order_id: The order whose flights to show.
        flight_offer_id: An offer whose flights to show, before booking.
        segment_id: Only this segment ("1", "2"...); every segment when left out.
        only_available: Leave occupied seats out.
    """
    if (flight_order_id is None) == (flight_offer_id is None):
        raise InvalidRequest("Give exactly one of flight_order_id or flight_offer_id")
    offer_id = get_order(db, flight_order_id)["flight_offer_id"] if flight_order_id else flight_offer_id
    offer = parse_offer(db, offer_id)  # type: ignore[arg-type]
    segments = list(enumerate(offer.segments, start=1))
    if segment_id is not None:
        segments = [(n, leg) for n, leg in segments if str(n) == segment_id]
        if not segments:
            raise NotFound(f"Segment '{segment_id}' not found: this trip has segments 1 to {len(offer.segments)}")
    taken = taken_seats(db, [leg for _, leg in segments])
    return [
        SeatMap.model_validate(
            seat_map(
                leg,
                str(n),
                offer.cabin,
                seat_plan(db.get(aircraft, leg["aircraft_code"], "Aircraft")["layout"]),
                taken[leg["id"]],
                only_available,
            )
        )
        for n, leg in segments
    ]


@tool()
def assign_seat(
    db: Database, flight_order_id: str, segment_id: Position, traveler_id: Position, seat_number: SeatNumber
) -> FlightOrder:
    """Assign (or move) a traveler's seat on one segment of an order. The seat must be free and in the booked
    cabin; infants have no seat of their own; exit-row seats are not for travelers under 18 or adults holding an
    infant.

    Args:
        flight_order_id: The order.
        segment_id: The segment ("1", "2"...) as in the order's itineraries.
        traveler_id: The order's traveler id ("1", "2"...) as in the order's travelers.
        seat_number: The seat, e.g. "14C".
    """
    order = get_order(db, flight_order_id)
    if order["status"] == "CANCELLED":
        raise Conflict(f"Flight order {order['record_locator']} is cancelled")
    offer = parse_offer(db, order["flight_offer_id"])
    leg = offer.segment(segment_id)
    if leg is None:
        raise NotFound(f"Segment '{segment_id}' not found: this order has segments 1 to {len(offer.segments)}")
    traveler = next((t for t in order["travelers"] if t["id"] == traveler_id), None)
    if traveler is None:
        raise NotFound(f"Traveler '{traveler_id}' not found in order {order['record_locator']}")
    if departed(db, leg):
        raise Conflict(f"{flight_name(leg)} has already departed")
    who = f"{traveler['firstName']} {traveler['lastName']}"
    if traveler["travelerType"] == "HELD_INFANT":
        raise InvalidRequest(f"{who} is an infant travelling on an adult's lap and gets no seat")
    number = seat_number.strip().upper()
    plan = seat_plan(db.get(aircraft, leg["aircraft_code"], "Aircraft")["layout"])
    if number not in plan:
        raise NotFound(f"Seat {number} does not exist on this {leg['aircraft_code']} aircraft")
    cabin, _, codes = plan[number]
    if cabin != offer.cabin:
        raise InvalidRequest(f"Seat {number} is in {cabin}; this booking is in {offer.cabin}")
    holder = taken_seats(db, [leg])[leg["id"]].get(number, False)
    if holder is not False:
        mine = holder == (order["id"], traveler_id)
        raise Conflict(f"Seat {number} is {'already assigned to ' + who if mine else 'occupied'}")
    if "E" in codes:
        refusal = exit_row_refusal(traveler, order["travelers"], date.fromisoformat(leg["departure_at"][:10]))
        if refusal:
            raise InvalidRequest(f"Seat {number} is in an exit row: {refusal} ({who})")
    seats = [s for s in order["seats"] if not (s["flightId"] == leg["id"] and s["travelerId"] == traveler_id)]
    seats.append({"flightId": leg["id"], "travelerId": traveler_id, "number": number})
    positions = offer.segment_ids()
    seats.sort(key=lambda s: (int(positions.get(s["flightId"], "0")), s["travelerId"]))
    return order_response(db, db.update(flight_orders, order["id"], seats=seats), offer)


@tool()
def cancel_all_held_orders(db: Database) -> list[ReleasedOrder]:
    """Cancel every order on hold (DELAY_TO_CANCEL, not yet paid) and give their seats back. Ticketed orders are
    not touched."""
    held = db.find(flight_orders, status="HELD")
    if not held:
        raise Conflict("No flight orders are on hold")
    for order in held:
        release_seats(db, parse_offer(db, order["flight_offer_id"]), seated(traveler_types(order)))
        db.update(flight_orders, order["id"], status="CANCELLED", seats=[])
    return [ReleasedOrder(flightOrderId=o["id"], recordLocator=o["record_locator"]) for o in held]


@tool(user_only=True)
def approve_payment(db: Database, record_locator: RecordLocator) -> FlightOrder:
    """(User only, in the travel app) Approve the card payment of an order on hold: it is charged and ticketed.

    Args:
        record_locator: The PNR reference of the held order, from the confirmation e-mail.
    """
    matches = db.find(flight_orders, record_locator=record_locator.strip().upper())
    if not matches:
        raise NotFound(f"No flight order with record locator {record_locator!r}")
    order = matches[0]
    if order["status"] != "HELD":
        raise Conflict(f"Flight order {order['record_locator']} is {order['status']}, not on hold")
    if order["last_ticketing_date"] and db.now().date().isoformat() > order["last_ticketing_date"]:
        raise Conflict(f"The hold on {order['record_locator']} lapsed on {order['last_ticketing_date']}")
    updated = db.update(flight_orders, order["id"], status="TICKETED")
    pay(db, order["id"], "CHARGE", order["grand_total"])
    return order_response(db, updated)
