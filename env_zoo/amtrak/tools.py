"""Amtrak booking tools: stations, timetables, train search and status, fare rules, Guest Rewards profiles, points
and eVouchers, reservations (book, change, cancel, remove a traveller, contact details) and the on-board eTicket
scan."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, Unordered, paginate, tool

from . import schema
from .booking import (
    Line,
    cancellation_lines,
    check_party,
    held,
    open_segments,
    party,
    refresh,
    release,
    require_confirmed,
    reservation_row,
    segment_of,
    settle,
)
from .ledger import Refund, charge, member_row, post_points, record, redeem_evoucher, refund, reissue_eticket
from .objects import (
    ActivityObject,
    CancellationObject,
    CancellationQuote,
    ChangeObject,
    EVoucherObject,
    FareRuleObject,
    MemberObject,
    ReservationObject,
    ReservationSummary,
    ScanObject,
    StationObject,
    StopStatus,
    TrainObject,
    TrainOption,
    TrainStatusObject,
    duration,
    evoucher_object,
    member_object,
    reservation_object,
    reservation_segments,
    reservation_summary,
    segment_amount,
    stamp,
    train_object,
)
from .reservations import (
    FareCode,
    PassengerRequest,
    SegmentRequest,
    _book_segment,
    _check_order,
    _code,
    _email,
    _fares,
    _new_reservation_number,
    _phone,
    _targets,
    _trip_type,
)
from .rules import (
    BOARDING_OPENS,
    FARE_FAMILY,
    FARE_RULES,
    SLEEPERS,
    change_fee,
    check_open,
    local_time,
    now_in,
    parse_date,
    points_earned,
    segment_times,
    stops_of,
    timing,
)
from .schema import (
    departures,
    etickets,
    evouchers,
    fare_plans,
    members,
    passengers,
    reservations,
    rewards_activity,
    routes,
    segments,
    stations,
    trains,
)

RefundMethod = Literal["original_payment", "evoucher"]
MAX_SEGMENTS = 4


# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- stations, trains, fares


@tool(read_only=True)
def list_stations(
    db: Database, query: str | None = None, state: str | None = None, page_size: int = 25, cursor: str | None = None
) -> Page[StationObject]:
    """Find Amtrak stations by code, name or city, optionally in one state.

    Args:
        query: Text matched against the station code, name and city, e.g. "Philadelphia" or "PHL".
        state: Two-letter state code, e.g. NY.
        page_size: Stations per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    rows = db.find(stations, order_by=[stations.c.code])
    if query:
        text = query.strip().casefold()
        rows = [r for r in rows if text in f"{r['code']} {r['name']} {r['city']}".casefold()]
    if state:
        rows = [r for r in rows if r["state"] == state.strip().upper()]
    return paginate([StationObject(**r) for r in rows], page_size, cursor)


@tool(read_only=True)
def get_train_schedule(db: Database, train_number: str) -> TrainObject:
    """A train's timetable: its stops with local arrival and departure times, the days it runs, its classes of
    service and amenities.

    Args:
        train_number: The train number, e.g. 49 for the Lake Shore Limited.
    """
    return train_object(db, db.get(trains, train_number.strip(), "Train"))


@tool(read_only=True)
def search_trains(
    db: Database, origin: str, destination: str, travel_date: str, passengers: int = 1
) -> list[TrainOption]:
    """Search direct trains between two stations on a date, with each fare's price and the seats left for the
    whole ride. Trains that have already left are not shown.

    Args:
        origin: Boarding station code, e.g. NYP.
        destination: Leaving station code, e.g. WAS.
        travel_date: Travel date, YYYY-MM-DD.
        passengers: Travellers who need a seat (infants on a lap don't), 1 to 8.
    """
    origin, destination = _code(db, origin), _code(db, destination)
    day = parse_date(travel_date, "travel_date")
    if not 1 <= passengers <= 8:
        raise InvalidRequest("passengers must be between 1 and 8.")
    options = []
    for train in db.find(trains, order_by=[trains.c.train_number]):
        stops = stops_of(db, train["train_number"])
        codes = [s["station_code"] for s in stops]
        if origin not in codes or destination not in codes or codes.index(origin) >= codes.index(destination):
            continue
        i, j = codes.index(origin), codes.index(destination)
        service_date = (day - timedelta(days=stops[i]["day_offset"])).isoformat()
        found = db.find(departures, train_number=train["train_number"], service_date=service_date)
        leaves = local_time(db, stops[i], service_date, "departure")
        if not found or db.now() >= leaves:
            continue
        arrives = local_time(db, stops[j], service_date, "arrival")
        options.append(
            (
                leaves,
                TrainOption(
                    train_number=train["train_number"],
                    train_name=train["train_name"],
                    route_name=db.get(routes, train["route_id"], "Route")["route_name"],
                    travel_date=travel_date,
                    origin=origin,
                    destination=destination,
                    departs_at=stamp(leaves),
                    arrives_at=stamp(arrives),
                    duration=duration(int((arrives - leaves).total_seconds() // 60)),
                    status=found[0]["status"],
                    fares=_fares(db, train, found[0], stops, i, j, passengers),
                ),
            )
        )
    return [option for _, option in sorted(options, key=lambda pair: pair[0])]


@tool(read_only=True)
def get_train_status(db: Database, train_number: str, service_date: str | None = None) -> TrainStatusObject:
    """Track a train on a service date: on time, delayed or cancelled, service alerts, and the stops it has passed.

    Args:
        train_number: The train number.
        service_date: The date the train leaves its origin, YYYY-MM-DD; defaults to today.
    """
    train = db.get(trains, train_number.strip(), "Train")
    stops = stops_of(db, train["train_number"])
    day = service_date or now_in(db, db.get(stations, stops[0]["station_code"])["timezone"]).date().isoformat()
    parse_date(day, "service_date")
    found = db.find(departures, train_number=train["train_number"], service_date=day)
    if not found:
        raise NotFound(f"Train {train['train_number']} has no departure on {day}")
    departure = found[0]
    delay = timedelta(minutes=departure["delay_minutes"])
    running = departure["status"] != "CANCELLED"
    lines = []
    for stop in stops:
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


@tool(read_only=True)
def list_fare_rules(db: Database) -> list[FareRuleObject]:
    """Amtrak's fare rules: for each fare, the classes it is sold in, its refund and change terms and whether
    passenger discounts apply. Every fare is fully refundable within 24 hours of booking and when Amtrak cancels
    the train; unused travel is forfeited once the train leaves (no-show)."""
    classes: dict[str, list[str]] = {}
    for plan in db.find(fare_plans, order_by=[fare_plans.c.fare_plan_id]):
        listed = classes.setdefault(plan["fare_code"], [])
        if plan["class_of_service"] not in listed:
            listed.append(plan["class_of_service"])
    return [
        FareRuleObject(
            fare_code=code,
            classes_of_service=classes.get(code, []),
            refunds=rule.refunds,
            changes=rule.changes,
            passenger_discounts=rule.discounts,
        )
        for code, rule in FARE_RULES.items()
    ]


# ---------------------------------------------------------------- Guest Rewards


@tool(read_only=True)
def find_member(db: Database, email: str | None = None, member_number: str | None = None) -> MemberObject:
    """Look up an Amtrak Guest Rewards member by email address or member number: profile, tier, points balance
    and the card on file.

    Args:
        email: The member's email address.
        member_number: The 10-digit Guest Rewards number.
    """
    if member_number:
        return member_object(member_row(db, member_number))
    if not email:
        raise InvalidRequest("Give an email or a member_number.")
    found = db.find(members, email=email.strip().lower())
    if not found:
        raise NotFound(f"No Guest Rewards account with the email {email}")
    return member_object(found[0])


@tool()
def update_member_profile(
    db: Database,
    member_number: str,
    email: str | None = None,
    phone: str | None = None,
    home_station: str | None = None,
) -> MemberObject:
    """Update a Guest Rewards profile: email, phone or preferred home station.

    Args:
        member_number: The 10-digit Guest Rewards number.
        email: New email address (must not belong to another account).
        phone: New 10-digit US phone number.
        home_station: Station code of the preferred departure station, e.g. PHL.
    """
    member = member_row(db, member_number)
    changes: dict[str, Any] = {}
    if email is not None:
        changes["email"] = _email(email)
        taken = [m for m in db.find(members, email=changes["email"]) if m["member_number"] != member["member_number"]]
        if taken:
            raise Conflict(f"{changes['email']} is already used by another Guest Rewards account.")
    if phone is not None:
        changes["phone"] = _phone(phone)
    if home_station is not None:
        changes["home_station"] = _code(db, home_station)
    if not changes:
        raise InvalidRequest("Nothing to update: give an email, phone or home_station.")
    return member_object(db.update(members, member["member_number"], **changes))


@tool(read_only=True)
def get_rewards_activity(
    db: Database, member_number: str, page_size: int = 10, cursor: str | None = None
) -> Page[ActivityObject]:
    """A member's Guest Rewards points activity, newest first: points earned on travel, redeemed and redeposited.

    Args:
        member_number: The 10-digit Guest Rewards number.
        page_size: Lines per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    member = member_row(db, member_number)
    rows = db.find(
        rewards_activity,
        member_number=member["member_number"],
        order_by=[rewards_activity.c.posted_at.desc(), rewards_activity.c.activity_id.desc()],
    )
    return paginate([ActivityObject(**{k: r[k] for k in ActivityObject.model_fields}) for r in rows], page_size, cursor)


@tool(read_only=True)
def list_evouchers(db: Database, member_number: str, include_used: bool = False) -> list[EVoucherObject]:
    """A member's eVouchers (value from cancelled or changed trips, usable on new bookings for a year).

    Args:
        member_number: The 10-digit Guest Rewards number.
        include_used: Also list fully redeemed and expired eVouchers.
    """
    member = member_row(db, member_number)
    rows = db.find(evouchers, member_number=member["member_number"], order_by=[evouchers.c.expires_on])
    return [evoucher_object(r) for r in rows if include_used or r["status"] == "ACTIVE"]


# ---------------------------------------------------------------- reservations


@tool(read_only=True)
def list_reservations(
    db: Database,
    member_number: str,
    status: Literal["CONFIRMED", "CANCELLED", "COMPLETED"] | None = None,
    page_size: int = 10,
    cursor: str | None = None,
) -> Page[ReservationSummary]:
    """A member's trips (My Trips), latest travel date first, one line per segment.

    Args:
        member_number: The 10-digit Guest Rewards number.
        status: Only trips in this status.
        page_size: Trips per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    member = member_row(db, member_number)
    equals = {"status": status} if status else {}
    rows = db.find(reservations, member_number=member["member_number"], **equals)
    trips = [reservation_summary(db, r) for r in rows]
    trips.sort(key=lambda t: (t.itinerary[0][:10] if t.itinerary else "", t.reservation_number), reverse=True)
    return paginate(trips, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_reservation(db: Database, reservation_number: str) -> ReservationObject:
    """A reservation with its segments (times, fares, status), travellers, payment and current eTicket number.

    Args:
        reservation_number: The six-character reservation number, e.g. 4C7A1F.
    """
    return reservation_object(db, reservation_row(db, reservation_number))


@tool()
def create_reservation(
    db: Database,
    member_number: str,
    segments: list[SegmentRequest],
    passengers: list[PassengerRequest],
    payment_method: Literal["card", "points"] = "card",
    evoucher_number: str | None = None,
) -> ReservationObject:
    """Book a one-way, round-trip or multi-city trip (up to 4 segments, in travel order) for up to 8 travellers and
    issue the eTicket. Card payments use the member's card on file, after an eVoucher if one is given; points
    bookings redeem Guest Rewards points (2.9 cents a point) and can't be combined with an eVoucher.

    Args:
        member_number: The booking member's 10-digit Guest Rewards number.
        segments: The rides in travel order: train_number, travel_date, origin, destination, fare_code.
        passengers: The travellers: first_name, last_name, passenger_type.
        payment_method: card (the card on file) or points.
        evoucher_number: An eVoucher of the member to apply first (card payments only).
    """
    member = member_row(db, member_number)
    check_party([p.passenger_type for p in passengers])
    if not 1 <= len(segments) <= MAX_SEGMENTS:
        raise InvalidRequest(f"A reservation holds 1 to {MAX_SEGMENTS} segments.")
    if any(not (p.first_name.strip() and p.last_name.strip()) for p in passengers):
        raise InvalidRequest("Every passenger needs a first and a last name.")
    if payment_method == "points" and evoucher_number:
        raise InvalidRequest("eVouchers can't be combined with a points redemption.")
    number = _new_reservation_number(db)
    db.insert(
        reservations,
        reservation_number=number,
        member_number=member["member_number"],
        status="CONFIRMED",
        trip_type=_trip_type(segments),
        contact_email=member["email"],
        contact_phone=member["phone"],
        total_cents=0,
        paid_card_cents=0,
        paid_evoucher_cents=0,
        award=payment_method == "points",
        paid_points=0,
        booked_at=db.now_iso(),
    )
    travellers = {}
    for p in passengers:
        pid = db.new_id(schema.passengers, "PAX", 5)
        db.insert(
            schema.passengers,
            passenger_id=pid,
            reservation_number=number,
            first_name=p.first_name.strip(),
            last_name=p.last_name.strip(),
            passenger_type=p.passenger_type,
            status="ACTIVE",
        )
        travellers[pid] = p.passenger_type
    previous = None
    for sequence, request in enumerate(segments, start=1):
        values = _book_segment(
            db,
            request.train_number,
            request.travel_date,
            request.origin,
            request.destination,
            request.fare_code,
            travellers,
        )
        _check_order(db, previous, values)
        previous = db.insert(
            schema.segments,
            segment_id=db.new_id(schema.segments, "SEG", 5),
            reservation_number=number,
            sequence=sequence,
            **values,
        )
    total = refresh(db, number)["total_cents"]
    due = total
    if evoucher_number:
        covered = redeem_evoucher(db, member["member_number"], evoucher_number, total, number)
        db.update(reservations, number, paid_evoucher_cents=covered)
        due -= covered
    if due:
        charge(db, db.get(reservations, number), due, f"Reservation {number}")
    reissue_eticket(db, number, None)
    return reservation_object(db, db.get(reservations, number))


@tool()
def change_segment(
    db: Database,
    reservation_number: str,
    segment_id: str,
    new_train_number: str,
    new_travel_date: str,
    new_fare_code: FareCode,
) -> ChangeObject:
    """Change one segment to another train, date or fare (an upgrade or downgrade) between the same stations,
    and reissue the eTicket. The new fare is priced today: a higher fare is charged (card on file, or points for award
    bookings); residual value goes to an eVoucher (refunded to the card for Flex and First fares). Saver fares
    can't be changed after 24 hours; Value-type fares pay a 15% fee within 14 days of departure.

    Args:
        reservation_number: The six-character reservation number.
        segment_id: The segment to change (SEG...), from get_reservation.
        new_train_number: The train to ride (the current one to keep it).
        new_travel_date: The date to board at the segment's origin, YYYY-MM-DD (the current one to keep it).
        new_fare_code: The fare to ride on (the current one to keep it).
    """
    reservation = reservation_row(db, reservation_number)
    segment = segment_of(db, reservation, segment_id)
    when = timing(db, reservation, segment)
    check_open(segment, when, "changed")
    train_number, travel_date, fare_code = new_train_number.strip(), new_travel_date, new_fare_code
    if (train_number, travel_date, fare_code) == (
        segment["train_number"],
        when.departs_at.date().isoformat(),
        segment["fare_code"],
    ):
        raise InvalidRequest("Nothing to change: that is already the segment's train, date and fare.")
    fee = change_fee(segment, when, member_row(db, reservation["member_number"])["tier"])
    release(db, segment, held(db, segment))
    values = _book_segment(
        db,
        train_number,
        travel_date,
        segment["origin"],
        segment["destination"],
        fare_code,
        {
            pid: t
            for pid, t in party(db, reservation["reservation_number"]).items()
            if pid in segment["passenger_fares"]
        },
    )
    if when.amtrak_cancelled and fare_code == segment["fare_code"]:
        values.update(passenger_fares=segment["passenger_fares"], accommodation_cents=segment["accommodation_cents"])
    others = [
        s
        for s in reservation_segments(db, reservation["reservation_number"])
        if s["status"] == "CONFIRMED" and s["segment_id"] != segment["segment_id"]
    ]
    _check_order(
        db, next((s for s in reversed(others) if s["sequence"] < segment["sequence"]), None), {**segment, **values}
    )
    _check_order(db, {**segment, **values}, next((s for s in others if s["sequence"] > segment["sequence"]), None))
    old, new = segment_amount(segment), sum(values["passenger_fares"].values()) + values["accommodation_cents"]
    db.update(segments, segment["segment_id"], **values)
    number = reservation["reservation_number"]
    if fee:
        record(db, number, "fee", "none", fee, f"Change fee 15%, segment {segment['segment_id']}")
    difference = new - old + fee
    collected = (0, 0)
    back = Refund()
    if difference > 0:
        collected = charge(db, db.get(reservations, number), difference, f"Change of segment {segment['segment_id']}")
    elif difference < 0:
        to_card = FARE_FAMILY[segment["fare_code"]] == "flex" or when.in_grace or when.amtrak_cancelled
        back = refund(
            db,
            db.get(reservations, number),
            -difference,
            "original_payment" if to_card else "evoucher",
            f"Residual value of segment {segment['segment_id']}",
        )
    refresh(db, number)
    reissue_eticket(db, number, "exchanged")
    return ChangeObject(
        reservation=reservation_object(db, db.get(reservations, number)),
        old_fare_cents=old,
        new_fare_cents=new,
        change_fee_cents=fee,
        collected_cents=collected[0],
        collected_points=collected[1],
        refunded_to_card_cents=back.to_card,
        points_returned=back.points,
        evoucher=evoucher_object(back.evoucher),
    )


@tool(read_only=True)
def quote_cancellation(
    db: Database, reservation_number: str, segment_ids: Annotated[list[str], Unordered]
) -> CancellationQuote:
    """Preview what cancelling some or all segments of a trip would give back under each fare's rules (fees,
    refund, eVoucher, forfeited value); nothing is cancelled.

    Args:
        reservation_number: The six-character reservation number.
        segment_ids: The segments to cancel (SEG...), from get_reservation; all of them for the whole trip.
    """
    reservation = reservation_row(db, reservation_number)
    lines = cancellation_lines(db, reservation, _targets(db, reservation, segment_ids), segment_amount, "cancelled")
    quotes = [line.quote() for line in lines]
    return CancellationQuote(
        reservation_number=reservation["reservation_number"],
        lines=quotes,
        refundable_cents=sum(q.refundable_cents for q in quotes),
        fee_cents=sum(q.fee_cents for q in quotes),
        forfeited_cents=sum(q.forfeited_cents for q in quotes),
    )


@tool()
def cancel_reservation(
    db: Database, reservation_number: str, segment_ids: Annotated[list[str], Unordered], refund_method: RefundMethod
) -> CancellationObject:
    """Cancel some or all segments of a trip and release the seats. Each segment is refunded under its fare's
    rules: the refundable value goes back to the original payment or to an eVoucher, as the fare allows (Value-type
    fares within 14 days of departure: eVoucher only, less 25%; Saver after 24 hours: nothing back). Award
    bookings get their points back.

    Args:
        reservation_number: The six-character reservation number.
        segment_ids: The segments to cancel (SEG...), from get_reservation; all of them for the whole trip.
        refund_method: original_payment (card, or points for award bookings) or evoucher.
    """
    reservation = reservation_row(db, reservation_number)
    lines = cancellation_lines(db, reservation, _targets(db, reservation, segment_ids), segment_amount, "cancelled")

    def cancel(line: Line) -> None:
        release(db, line.segment, held(db, line.segment))
        db.update(segments, line.segment["segment_id"], status="CANCELLED")

    return settle(db, reservation, lines, refund_method, "Cancelled", cancel)


@tool()
def remove_passenger(
    db: Database, reservation_number: str, passenger_id: str, refund_method: RefundMethod
) -> CancellationObject:
    """Take one traveller off a reservation's remaining segments and refund their fare under each fare's rules
    (as cancel_reservation). Children and infants must keep an adult on the reservation; the last traveller can't
    be removed (cancel the trip instead). Sleeper room charges stay with the room.

    Args:
        reservation_number: The six-character reservation number.
        passenger_id: The traveller (PAX...), from get_reservation.
        refund_method: original_payment (card, or points for award bookings) or evoucher.
    """
    reservation = reservation_row(db, reservation_number)
    traveller = db.get(passengers, passenger_id, "Passenger")
    if traveller["reservation_number"] != reservation["reservation_number"] or traveller["status"] != "ACTIVE":
        raise NotFound(
            f"Passenger '{passenger_id}' is not travelling on reservation {reservation['reservation_number']}"
        )
    remaining = party(db, reservation["reservation_number"])
    del remaining[passenger_id]
    if not remaining:
        raise Conflict(
            f"{traveller['first_name']} {traveller['last_name']} is the only traveller: cancel the reservation instead."
        )
    check_party(list(remaining.values()))
    targets = [s for s in open_segments(db, reservation) if passenger_id in s["passenger_fares"]]
    if not targets:
        raise Conflict(f"{traveller['first_name']} has no remaining travel on this reservation.")
    lines = cancellation_lines(db, reservation, targets, lambda s: s["passenger_fares"][passenger_id], "changed")

    def drop(line: Line) -> None:
        segment = line.segment
        seated = traveller["passenger_type"] != "infant" and segment["class_of_service"] not in SLEEPERS
        release(db, segment, 1 if seated else 0)
        fares = {pid: c for pid, c in segment["passenger_fares"].items() if pid != passenger_id}
        db.update(segments, segment["segment_id"], passenger_fares=fares)

    result = settle(
        db, reservation, lines, refund_method, f"Removed {traveller['first_name']} {traveller['last_name']}", drop
    )
    db.update(passengers, passenger_id, status="REMOVED")
    return result


@tool()
def update_reservation_contact(
    db: Database, reservation_number: str, contact_email: str | None = None, contact_phone: str | None = None
) -> ReservationObject:
    """Change the email and phone a reservation's eTicket and service alerts go to.

    Args:
        reservation_number: The six-character reservation number.
        contact_email: New contact email.
        contact_phone: New 10-digit US contact phone number.
    """
    reservation = reservation_row(db, reservation_number)
    require_confirmed(reservation)
    changes = {}
    if contact_email is not None:
        changes["contact_email"] = _email(contact_email)
    if contact_phone is not None:
        changes["contact_phone"] = _phone(contact_phone)
    if not changes:
        raise InvalidRequest("Nothing to update: give a contact_email or contact_phone.")
    return reservation_object(db, db.update(reservations, reservation["reservation_number"], **changes))


# ---------------------------------------------------------------- on board


@tool(user_only=True)
def scan_eticket(db: Database, eticket_number: str, train_number: str) -> ScanObject:
    """(Traveller only, on board) Show the eTicket to the conductor, who scans it for the ride on this train. The
    ride is then used, and Guest Rewards points for it are credited (not for award bookings).

    Args:
        eticket_number: The number on the eTicket.
        train_number: The train the traveller is on.
    """
    ticket = db.get(etickets, eticket_number.strip(), "eTicket")
    if ticket["status"] != "ISSUED":
        raise Conflict(
            f"eTicket {ticket['eticket_number']} is void ({ticket['void_reason']}): show the current "
            f"eTicket of reservation {ticket['reservation_number']}."
        )
    reservation = db.get(reservations, ticket["reservation_number"], "Reservation")
    rides = [
        s
        for s in reservation_segments(db, reservation["reservation_number"])
        if s["train_number"] == train_number.strip() and s["status"] == "CONFIRMED"
    ]
    if not rides:
        raise Conflict(f"This eTicket has no confirmed ride on train {train_number}.")
    now = db.now()
    boarding = [s for s in rides if segment_times(db, s)[0] - BOARDING_OPENS <= now <= segment_times(db, s)[1]]
    if not boarding:
        raise Conflict(
            f"This eTicket is for train {train_number} leaving {rides[0]['origin']} at "
            f"{segment_times(db, rides[0])[0]:%Y-%m-%d %H:%M}; it can be scanned only on board that "
            "train."
        )
    segment = boarding[0]
    db.update(segments, segment["segment_id"], status="USED")
    points = 0
    if not reservation["award"]:
        member = member_row(db, reservation["member_number"])
        points = points_earned(segment_amount(segment), member["tier"])
        post_points(
            db,
            member["member_number"],
            points,
            f"Travel: train {segment['train_number']} {segment['origin']}-{segment['destination']}",
            reservation["reservation_number"],
        )
    refresh(db, reservation["reservation_number"])
    return ScanObject(
        eticket_number=ticket["eticket_number"],
        reservation_number=reservation["reservation_number"],
        segment_id=segment["segment_id"],
        train_number=segment["train_number"],
        origin=segment["origin"],
        destination=segment["destination"],
        travelers=len(segment["passenger_fares"]),
        status="USED",
        points_credited=points,
    )
