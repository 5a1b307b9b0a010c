"""Hertz tools: locations, car classes and extras, availability and quotes, reservations (book, modify, cancel,
extras, additional drivers), the Gold Plus Rewards profile and points, plus what only the renter does (signing in,
showing a driver's license at the counter)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import (
    Database,
    InvalidRequest,
    Page,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size

from .access import member_by_login, own_reservation, reservation_by_name, signed_in_member
from .objects import (
    AvailabilityObject,
    CancellationObject,
    ExtraObject,
    LocationObject,
    MemberProfile,
    PointsActivityObject,
    PointsTransferObject,
    QuoteObject,
    RentalAgreementObject,
    ReservationObject,
    ReservationSummary,
    SessionObject,
    VehicleClassObject,
    rental_agreement_object,
    reservation_object,
    reservation_summaries,
)
from .reservations import (
    book,
    cancel,
    catalog_extra,
    change_trip,
    flight_code,
    open_rental,
    reprice,
    with_driver,
    with_extra,
    without_extra,
)
from .rewards import partner_of, profile, profile_changes, transfer
from .rules import changeable, check_booking, plan_trip
from .schema import extras, locations, members, points_activity, reservations, sessions, vehicle_classes
from .search import availability, locations_matching, quote

LocalDateTime = Annotated[
    str, Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"), ErrorText("must be a local time like 2025-07-03T10:00")
]
ListPageSize = page_size(25)
PointsPageSize = page_size(50)
PaymentType = Literal["pay_later", "pay_now", "points"]
Status = Literal["confirmed", "on_rent", "completed", "cancelled", "no_show"]
Relationship = Literal["spouse", "domestic_partner", "parent", "child", "sibling", "friend", "coworker"]
DriverName = Annotated[NonBlankText, ErrorText("first_name and last_name are required.")]
FlightNumber = Annotated[
    str,
    Field(pattern=r"^ *[A-Za-z0-9] *[A-Za-z0-9] *(?:\d *){1,4}$"),
    ErrorText("flight_number must be an airline code and number, like UA1234."),
]
Quantity = Annotated[int, Field(ge=1), ErrorText("quantity must be at least 1.")]
TransferPoints = Annotated[int, Field(ge=100, multiple_of=100), ErrorText("Points transfer in multiples of 100.")]
Email = Annotated[
    str, Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[A-Za-z]{2,}\s*$"), ErrorText("email is not a valid email address.")
]
UsPhone = Annotated[
    str,
    Field(pattern=r"^\s*(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\s*$"),
    ErrorText("phone must be a 10-digit US number."),
]
LicenseNumber = Annotated[
    str, Field(pattern=r"^ *(?:[A-Za-z0-9-] *){5,20}$"), ErrorText("license_number must be 5 to 20 letters or digits.")
]
LicenseState = Annotated[
    str, Field(pattern=r"^\s*[A-Za-z]{2}\s*$"), ErrorText("license_state must be a two-letter state code.")
]


# ---------------------------------------------------------------- what only the renter does


@tool(user_only=True)
def sign_in(db: Database, login: NonBlankText) -> SessionObject:
    """(User only) The renter signs in to their Gold Plus Rewards account on hertz.com with their member number or
    email; the password never reaches the assistant.

    Args:
        login: The Gold Plus Rewards member number or the account email.
    """
    member = member_by_login(db, login)
    db.start_session(sessions, member_number=member["member_number"])
    return SessionObject(member_number=member["member_number"], first_name=member["first_name"], tier=member["tier"])


@tool(user_only=True)
def present_license_at_counter(
    db: Database, confirmation_number: str, license_number: NonBlankText
) -> RentalAgreementObject:
    """(User only, at the Hertz counter) The renter shows their driver's license to pick up the car: it must match
    the license on the member profile and be valid. From an hour before the pickup time to two hours after it, the
    rental agreement opens and the reservation goes on rent.

    Args:
        confirmation_number: The reservation being picked up.
        license_number: The number on the driver's license shown at the counter.
    """
    member = signed_in_member(db)
    row = own_reservation(db, member, confirmation_number)
    return rental_agreement_object(open_rental(db, member, row, license_number), row)


# ---------------------------------------------------------------- locations, cars, extras


@tool(read_only=True)
def search_locations(
    db: Database, query: str | None = None, page_size: ListPageSize = 10, cursor: str | None = None
) -> Page[LocationObject]:
    """Find Hertz locations by city, airport code, state, ZIP, name or location code, with their opening hours,
    after-hours return, minimum renter age and local fees.

    Args:
        query: Words to match, e.g. "LAX", "Chicago downtown" or "Miami Beach"; empty lists every location.
        page_size: Locations per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    return paginate(locations_matching(db, query), page_size, cursor)


@tool(read_only=True)
def list_vehicle_classes(
    db: Database, category: Literal["car", "suv", "van", "convertible"] | None = None
) -> list[VehicleClassObject]:
    """List Hertz car classes (SIPP codes) with seats, bags, minimum renter age and Gold Plus Rewards points per
    day.

    Args:
        category: Only this kind of vehicle.
    """
    rows = db.find(vehicle_classes, order_by=[vehicle_classes.c.points_per_day], **given(category=category))
    return [VehicleClassObject(**r) for r in rows]


@tool(read_only=True)
def list_extras(db: Database, location_id: str | None = None) -> list[ExtraObject]:
    """List protections (LDW, LIS, PAI/PEC, PERS) and equipment (GPS, satellite radio, child seats, ski racks) with
    prices per day, caps and quantity limits.

    Args:
        location_id: Only extras offered at this location (e.g. LAXT15).
    """
    if location_id is not None:
        db.get(locations, location_id, "Location")
    rows = db.select(extras, order_by="category DESC")
    offered = [r for r in rows if location_id is None or r["available_at"] is None or location_id in r["available_at"]]
    return [ExtraObject(**r) for r in offered]


# ---------------------------------------------------------------- availability and quotes


@tool(read_only=True)
def check_availability(
    db: Database,
    pickup_location_id: str,
    pickup_datetime: LocalDateTime,
    return_datetime: LocalDateTime,
    return_location_id: str | None = None,
) -> AvailabilityObject:
    """Search the car classes and rates for a trip, priced for the signed-in member (young renter fees under 25,
    classes they are too young for flagged). Times are the locations' local times.

    Args:
        pickup_location_id: Where the car is picked up (a location_id such as LAXT15).
        pickup_datetime: Local pickup time, YYYY-MM-DDTHH:MM.
        return_datetime: Local return time, YYYY-MM-DDTHH:MM.
        return_location_id: Where the car is returned, for a one-way rental; defaults to the pickup location.
    """
    member = signed_in_member(db)
    trip = plan_trip(db, pickup_location_id, return_location_id, pickup_datetime, return_datetime)
    return availability(db, member, trip)


@tool(read_only=True)
def get_quote(
    db: Database,
    pickup_location_id: str,
    pickup_datetime: LocalDateTime,
    return_datetime: LocalDateTime,
    sipp_code: str,
    return_location_id: str | None = None,
    payment_type: PaymentType = "pay_later",
    extras_codes: Annotated[list[str], Unordered] | None = None,
) -> QuoteObject:
    """Price one car class for the signed-in member, line by line: base rate, extras, young renter fee, one-way drop
    fee, concession recovery, facility and licensing charges and sales tax. With points, the quote shows the points
    needed and what is still paid at the counter.

    Args:
        pickup_location_id: Where the car is picked up (location_id).
        pickup_datetime: Local pickup time, YYYY-MM-DDTHH:MM.
        return_datetime: Local return time, YYYY-MM-DDTHH:MM.
        sipp_code: The car class, e.g. CCAR for Compact.
        return_location_id: Return location for a one-way rental; defaults to the pickup location.
        payment_type: pay_later (pay at the counter), pay_now (prepaid, 15% off the base rate) or points.
        extras_codes: Extras to include, one of each (e.g. ["LDW", "NAV"]).
    """
    member = signed_in_member(db)
    trip = plan_trip(db, pickup_location_id, return_location_id, pickup_datetime, return_datetime)
    return quote(db, member, trip, sipp_code, payment_type, extras_codes or [])


# ---------------------------------------------------------------- reservations


@tool(read_only=True)
def list_reservations(
    db: Database, status: Status | None = None, page_size: ListPageSize = 10, cursor: str | None = None
) -> Page[ReservationSummary]:
    """List the signed-in member's reservations and past rentals, latest pickup first.

    Args:
        status: Only reservations in this status.
        page_size: Reservations per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    member = signed_in_member(db)
    rows = db.select(
        reservations,
        "member_number = ? AND status = coalesce(?, status)",
        [member["member_number"], status],
        order_by="pickup_datetime DESC",
    )
    return paginate(reservation_summaries(db, rows), page_size, cursor)


@tool(read_only=True)
def get_reservation(db: Database, confirmation_number: str, last_name: NonBlankText) -> ReservationObject:
    """Look up a reservation by its confirmation number and the renter's last name, with extras, additional
    drivers and estimated charges.

    Args:
        confirmation_number: The Hertz confirmation number, e.g. K7000000191.
        last_name: The renter's last name on the reservation.
    """
    return reservation_object(db, reservation_by_name(db, confirmation_number, last_name))


@tool()
def create_reservation(
    db: Database,
    pickup_location_id: str,
    pickup_datetime: LocalDateTime,
    return_datetime: LocalDateTime,
    sipp_code: str,
    payment_type: PaymentType = "pay_later",
    return_location_id: str | None = None,
    flight_number: FlightNumber | None = None,
) -> ReservationObject:
    """Book a car for the signed-in member. The renter must meet the location's and the class's minimum age (young
    renter fee under 25) and hold a license valid through the return date; the class must not be sold out; a
    member can't hold overlapping reservations. Pay Later is paid at the counter and cancels free; Pay Now is
    prepaid at 15% off and cancelling costs $50 (or $100 within 24 hours of pickup); points redeem the base rate
    and must be booked at least 24 hours ahead.

    Args:
        pickup_location_id: Where the car is picked up (location_id, e.g. LAXT15).
        pickup_datetime: Local pickup time, YYYY-MM-DDTHH:MM, within the location's opening hours.
        return_datetime: Local return time, YYYY-MM-DDTHH:MM.
        sipp_code: The car class, e.g. ICAR for Midsize.
        payment_type: pay_later, pay_now (prepaid) or points (Gold Plus Rewards redemption).
        return_location_id: Return location for a one-way rental (drop fee applies); defaults to the pickup location.
        flight_number: Arriving flight, e.g. DL1842, so the counter can hold the car if the flight is late.
    """
    member = signed_in_member(db)
    trip = plan_trip(db, pickup_location_id, return_location_id, pickup_datetime, return_datetime)
    booking = check_booking(db, member, trip, sipp_code, payment_type, [], [], redeeming=payment_type == "points")
    return reservation_object(db, book(db, member, booking, payment_type, flight_code(flight_number)))


@tool()
def modify_reservation(
    db: Database,
    confirmation_number: str,
    pickup_location_id: str | None = None,
    pickup_datetime: LocalDateTime | None = None,
    return_location_id: str | None = None,
    return_datetime: LocalDateTime | None = None,
    sipp_code: str | None = None,
    flight_number: FlightNumber | None = None,
) -> ReservationObject:
    """Change a confirmed reservation's times, locations, car class or flight; it is re-checked and re-priced at
    today's rates (a prepaid difference is charged or refunded, redeemed points adjusted). The trip and car of Pay
    Now and points reservations can't be changed within 24 hours of pickup (the flight can), and the payment type
    never changes (cancel and rebook). When only the pickup location changes on a round trip, the return location follows it.

    Args:
        confirmation_number: The reservation to change.
        pickup_location_id: New pickup location.
        pickup_datetime: New local pickup time, YYYY-MM-DDTHH:MM.
        return_location_id: New return location (one-way rentals pay the drop fee).
        return_datetime: New local return time, YYYY-MM-DDTHH:MM.
        sipp_code: New car class.
        flight_number: New arriving flight number.
    """  # noqa: E501 - the tool description the model sees: its line breaks are part of the schema
    member = signed_in_member(db)
    row = changeable(db, own_reservation(db, member, confirmation_number))
    trip = given(
        pickup_location_id=pickup_location_id,
        pickup_datetime=pickup_datetime,
        return_location_id=return_location_id,
        return_datetime=return_datetime,
        sipp_code=sipp_code,
    )
    if not trip and flight_number is None:
        raise InvalidRequest("Nothing to change.")
    if trip:
        row = change_trip(db, member, row, **trip)
    if flight_number is not None:
        flight = flight_code(flight_number)
        row = db.update(reservations, row["confirmation_number"], flight_number=flight, updated_at=db.now_iso())
    return reservation_object(db, row)


@tool()
def cancel_reservation(db: Database, confirmation_number: str) -> CancellationObject:
    """Cancel a confirmed reservation. Pay Later cancels free. Pay Now keeps a $50 fee (or $100 within 24 hours of
    pickup) and refunds the rest. Points come back when cancelled at least 24 hours before pickup and are
    forfeited after that.

    Args:
        confirmation_number: The reservation to cancel.
    """
    member = signed_in_member(db)
    return cancel(db, member, changeable(db, own_reservation(db, member, confirmation_number)))


@tool()
def add_extra(db: Database, confirmation_number: str, code: str, quantity: Quantity = 1) -> ReservationObject:
    """Add a protection or piece of equipment to a confirmed reservation; it is re-priced. Protections are added
    once; equipment up to its max_quantity, and at most 3 child seats (CSI, CST, BST) in all.

    Args:
        confirmation_number: The reservation.
        code: The extra's code from list_extras, e.g. LDW or CST.
        quantity: How many to add (equipment only).
    """
    member = signed_in_member(db)
    row = changeable(db, own_reservation(db, member, confirmation_number))
    booked = with_extra(row, catalog_extra(db, code), quantity)
    return reservation_object(db, reprice(db, member, row, extras=booked))


@tool()
def remove_extra(db: Database, confirmation_number: str, code: str) -> ReservationObject:
    """Remove an extra (all of its units) from a confirmed reservation; it is re-priced.

    Args:
        confirmation_number: The reservation.
        code: The extra's code, e.g. NAV.
    """
    member = signed_in_member(db)
    row = changeable(db, own_reservation(db, member, confirmation_number))
    return reservation_object(db, reprice(db, member, row, extras=without_extra(row, code)))


@tool()
def add_additional_driver(
    db: Database,
    confirmation_number: str,
    first_name: DriverName,
    last_name: DriverName,
    date_of_birth: IsoDate,
    relationship: Relationship,
) -> ReservationObject:
    """Add an additional driver to a confirmed reservation (up to 4). They must meet the rental's minimum age;
    the $13.50 daily fee is waived for the member's spouse or domestic partner, and drivers under 25 add the young
    renter fee.

    Args:
        confirmation_number: The reservation.
        first_name: The driver's first name.
        last_name: The driver's last name.
        date_of_birth: The driver's date of birth, YYYY-MM-DD.
        relationship: How the driver is related to the renter.
    """
    member = signed_in_member(db)
    row = changeable(db, own_reservation(db, member, confirmation_number))
    drivers = with_driver(db, row, first_name, last_name, date_of_birth, relationship)
    return reservation_object(db, reprice(db, member, row, additional_drivers=drivers))


# ---------------------------------------------------------------- Gold Plus Rewards


@tool(read_only=True)
def get_member_profile(db: Database) -> MemberProfile:
    """The signed-in member's Gold Plus Rewards profile: tier, points balance, spouse or domestic partner, driver's
    license on file, preferred car class."""
    return profile(db, signed_in_member(db))


@tool(read_only=True)
def list_points_activity(
    db: Database, page_size: PointsPageSize = 20, cursor: str | None = None
) -> Page[PointsActivityObject]:
    """List the signed-in member's Gold Plus Rewards points postings, newest first.

    Args:
        page_size: Postings per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    member = signed_in_member(db)
    rows = db.select(
        points_activity, "member_number = ?", [member["member_number"]], order_by="posted_at DESC, activity_id DESC"
    )
    return paginate([PointsActivityObject(**r) for r in rows], page_size, cursor)


@tool()
def transfer_points(db: Database, recipient_member_number: str, points: TransferPoints) -> PointsTransferObject:
    """Transfer Gold Plus Rewards points to the spouse or domestic partner on the member's profile (they must be a
    member too), in multiples of 100.

    Args:
        recipient_member_number: The partner's Gold Plus Rewards member number.
        points: Points to transfer.
    """
    member = signed_in_member(db)
    recipient = partner_of(db, member, recipient_member_number)
    sender = transfer(db, member, recipient, points)
    return PointsTransferObject(
        from_member_number=member["member_number"],
        to_member_number=recipient["member_number"],
        recipient_name=f"{recipient['first_name']} {recipient['last_name']}",
        points=points,
        points_balance=sender["points_balance"],
    )


@tool()
def update_member_profile(
    db: Database,
    email: Email | None = None,
    phone: UsPhone | None = None,
    license_number: LicenseNumber | None = None,
    license_state: LicenseState | None = None,
    license_expiration: IsoDate | None = None,
    preferred_sipp_code: str | None = None,
) -> MemberProfile:
    """Update the signed-in member's contact details, driver's license on file or preferred car class.

    Args:
        email: New email address (not used by another member).
        phone: New phone number, 10 digits (US).
        license_number: New driver's license number.
        license_state: Issuing state of the license, two letters (e.g. CA).
        license_expiration: License expiry date, YYYY-MM-DD; must be in the future.
        preferred_sipp_code: Preferred car class (SIPP code, e.g. IFAR).
    """
    member = signed_in_member(db)
    changes = profile_changes(
        db, member, email, phone, license_number, license_state, license_expiration, preferred_sipp_code
    )
    return profile(db, db.update(members, member["member_number"], **changes))
