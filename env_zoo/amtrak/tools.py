"""Amtrak booking tools: stations, timetables, train search and status, fare rules, Guest Rewards profiles, points
and eVouchers, reservations (book, change, cancel, remove a traveller, contact details) and the on-board eTicket
scan."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, PageSize, bounded, page_size
from envfactory_gym.values import parse_date

from .access import member_row
from .booking import (
    FareCode,
    PassengerRequest,
    PaymentMethod,
    SegmentRequest,
    book_reservation,
    rebook_segment,
    train_options,
)
from .cancellation import cancel_segments, cancellation_lines, cancellation_targets, remove_traveller
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
    TrainObject,
    TrainOption,
    TrainStatusObject,
    evoucher_object,
    member_object,
    reservation_object,
    reservation_summary,
    segment_amount,
    train_object,
    train_status,
)
from .onboard import scan
from .reservations import check_party, require_confirmed, reservation_row, segment_of
from .rules import FARE_RULES, now_in, station, station_code, stops_of, us_phone
from .schema import departures, evouchers, fare_plans, members, reservations, rewards_activity, stations, trains

RefundMethod = Literal["original_payment", "evoucher"]
MAX_SEGMENTS = 4
MAX_PASSENGERS = 8
StateCode = Annotated[
    str, Field(pattern=r"^\s*[A-Za-z]{2}\s*$"), ErrorText("must be a two-letter state code, like NY.")
]
EmailAddress = Annotated[
    str,
    Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[A-Za-z]{2,}\s*$"),
    ErrorText("must be a valid email address, like maya.okafor@gmail.com."),
]
UsPhone = Annotated[
    str,
    Field(pattern=r"^\D*(1\D*)?(\d\D*){10}$"),
    ErrorText("must be a 10-digit US phone number, like 212-555-0142."),
]
Date = Annotated[IsoDate, ErrorText("must be a date like 2025-06-20.")]
Travellers = Annotated[bounded(1, MAX_PASSENGERS), ErrorText(f"must be between 1 and {MAX_PASSENGERS}.")]
Segments = Annotated[
    list[SegmentRequest],
    Field(min_length=1, max_length=MAX_SEGMENTS),
    ErrorText(
        f"A reservation holds 1 to {MAX_SEGMENTS} segments in travel order, each with a train_number, a travel_date "
        "(YYYY-MM-DD), origin and destination station codes and a fare_code of SAVER, VALUE, FLEX, BUSINESS, FIRST, "
        "ROOMETTE or BEDROOM."
    ),
]
Passengers = Annotated[
    list[PassengerRequest],
    Field(min_length=1, max_length=MAX_PASSENGERS),
    ErrorText(
        f"A reservation holds 1 to {MAX_PASSENGERS} passengers, each with a first and a last name and a "
        "passenger_type of adult, senior, child, infant or military."
    ),
]
SegmentIds = Annotated[
    list[str],
    Unordered,
    Field(min_length=1),
    ErrorText("give the segment_ids to cancel (all of them to cancel the whole trip)."),
]


# ---------------------------------------------------------------- stations, trains, fares


@tool(read_only=True)
def list_stations(
    db: Database,
    query: str | None = None,
    state: StateCode | None = None,
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> Page[StationObject]:
    """Find Amtrak stations by code, name or city, optionally in one state.

    Args:
        query: Text matched against the station code, name and city, e.g. "Philadelphia" or "PHL".
        state: Two-letter state code, e.g. NY.
        page_size: Stations per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    rows = db.find(stations, **given(state=state.strip().upper() if state else None), order_by=[stations.c.code])
    if query:
        text = query.strip().casefold()
        rows = [r for r in rows if text in f"{r['code']} {r['name']} {r['city']}".casefold()]
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
    db: Database, origin: str, destination: str, travel_date: Date, passengers: Travellers = 1
) -> list[TrainOption]:
    """Search direct trains between two stations on a date, with each fare's price and the seats left for the
    whole ride. Trains that have already left are not shown.

    Args:
        origin: Boarding station code, e.g. NYP.
        destination: Leaving station code, e.g. WAS.
        travel_date: Travel date, YYYY-MM-DD.
        passengers: Travellers who need a seat (infants on a lap don't), 1 to 8.
    """
    origin, destination = station_code(db, origin), station_code(db, destination)
    return train_options(db, origin, destination, parse_date(travel_date, "travel_date"), passengers)


@tool(read_only=True)
def get_train_status(db: Database, train_number: str, service_date: Date | None = None) -> TrainStatusObject:
    """Track a train on a service date: on time, delayed or cancelled, service alerts, and the stops it has passed.

    Args:
        train_number: The train number.
        service_date: The date the train leaves its origin, YYYY-MM-DD; defaults to today.
    """
    train = db.get(trains, train_number.strip(), "Train")
    if service_date is None:
        origin = station(db, stops_of(db, train["train_number"])[0]["station_code"])
        service_date = now_in(db, origin["timezone"]).date().isoformat()
    parse_date(service_date, "service_date")
    departure = db.find_one(
        departures,
        train_number=train["train_number"],
        service_date=service_date,
        not_found=f"Train {train['train_number']} has no departure on {service_date}",
    )
    return train_status(db, train, departure)


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
    return member_object(
        db.find_one(members, email=email.strip().lower(), not_found=f"No Guest Rewards account with the email {email}")
    )


@tool()
def update_member_profile(
    db: Database,
    member_number: str,
    email: EmailAddress | None = None,
    phone: UsPhone | None = None,
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
    changes = given(
        email=email.strip().lower() if email is not None else None,
        phone=us_phone(phone) if phone is not None else None,
        home_station=station_code(db, home_station) if home_station is not None else None,
    )
    if not changes:
        raise InvalidRequest("Nothing to update: give an email, phone or home_station.")
    if "email" in changes and any(
        m["member_number"] != member["member_number"] for m in db.find(members, email=changes["email"])
    ):
        raise Conflict(f"{changes['email']} is already used by another Guest Rewards account.")
    return member_object(db.update(members, member["member_number"], **changes))


@tool(read_only=True)
def get_rewards_activity(
    db: Database, member_number: str, page_size: PageSize = 10, cursor: str | None = None
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
    rows = db.find(
        evouchers,
        member_number=member["member_number"],
        **given(status=None if include_used else "ACTIVE"),
        order_by=[evouchers.c.expires_on],
    )
    return [evoucher_object(r) for r in rows]


# ---------------------------------------------------------------- reservations


@tool(read_only=True)
def list_reservations(
    db: Database,
    member_number: str,
    status: Literal["CONFIRMED", "CANCELLED", "COMPLETED"] | None = None,
    page_size: page_size(50) = 10,
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
    rows = db.find(reservations, member_number=member["member_number"], **given(status=status))
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
    segments: Segments,
    passengers: Passengers,
    payment_method: PaymentMethod = "card",
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
    number = book_reservation(db, member, segments, passengers, payment_method, evoucher_number)
    return reservation_object(db, db.get(reservations, number))


@tool()
def change_segment(
    db: Database,
    reservation_number: str,
    segment_id: str,
    new_train_number: str,
    new_travel_date: Date,
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
    tier = member_row(db, reservation["member_number"])["tier"]
    return rebook_segment(db, reservation, segment, new_train_number.strip(), new_travel_date, new_fare_code, tier)


@tool(read_only=True)
def quote_cancellation(db: Database, reservation_number: str, segment_ids: SegmentIds) -> CancellationQuote:
    """Preview what cancelling some or all segments of a trip would give back under each fare's rules (fees,
    refund, eVoucher, forfeited value); nothing is cancelled.

    Args:
        reservation_number: The six-character reservation number.
        segment_ids: The segments to cancel (SEG...), from get_reservation; all of them for the whole trip.
    """
    reservation = reservation_row(db, reservation_number)
    targets = cancellation_targets(db, reservation, segment_ids)
    quotes = [line.quote() for line in cancellation_lines(db, reservation, targets, segment_amount, "cancelled")]
    return CancellationQuote(
        reservation_number=reservation["reservation_number"],
        lines=quotes,
        refundable_cents=sum(q.refundable_cents for q in quotes),
        fee_cents=sum(q.fee_cents for q in quotes),
        forfeited_cents=sum(q.forfeited_cents for q in quotes),
    )


@tool()
def cancel_reservation(
    db: Database, reservation_number: str, segment_ids: SegmentIds, refund_method: RefundMethod
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
    return cancel_segments(db, reservation_row(db, reservation_number), segment_ids, refund_method)


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
    return remove_traveller(db, reservation_row(db, reservation_number), passenger_id, refund_method)


@tool()
def update_reservation_contact(
    db: Database,
    reservation_number: str,
    contact_email: EmailAddress | None = None,
    contact_phone: UsPhone | None = None,
) -> ReservationObject:
    """Change the email and phone a reservation's eTicket and service alerts go to.

    Args:
        reservation_number: The six-character reservation number.
        contact_email: New contact email.
        contact_phone: New 10-digit US contact phone number.
    """
    reservation = reservation_row(db, reservation_number)
    require_confirmed(reservation)
    changes = given(
        contact_email=contact_email.strip().lower() if contact_email is not None else None,
        contact_phone=us_phone(contact_phone) if contact_phone is not None else None,
    )
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
    return scan(db, eticket_number.strip(), train_number.strip())
