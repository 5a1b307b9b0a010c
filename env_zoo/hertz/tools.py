"""Hertz tools: locations, car classes and extras, availability and quotes, reservations (book, modify, cancel,
extras, additional drivers), the Gold Plus Rewards profile and points, plus what only the renter does (signing in,
showing a driver's license at the counter)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

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
    VehicleOffer,
    reservation_object,
    reservation_summary,
    vehicle_label,
)
from .rules import (
    CHILD_SEATS,
    FEE_WAIVED_RELATIONSHIPS,
    MAX_CHILD_SEATS,
    NOTICE,
    PAY_NOW_FEE_EARLY,
    PAY_NOW_FEE_LATE,
    age_on,
    cars_left,
    changeable,
    check_booking,
    extra_rows,
    hours_until_pickup,
    ineligibility,
    local_now,
    offering,
    own_reservation,
    parse_date,
    pay_now_rate,
    plan_trip,
    price,
    signed_in_member,
)
from .schema import (
    extras,
    fleet,
    locations,
    members,
    points_activity,
    rental_agreements,
    reservations,
    sessions,
    vehicle_classes,
)

LocalDateTime = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$")]
Date = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")]
PaymentType = Literal["pay_later", "pay_now", "points"]
Status = Literal["confirmed", "on_rent", "completed", "cancelled", "no_show"]
Relationship = Literal["spouse", "domestic_partner", "parent", "child", "sibling", "friend", "coworker"]
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
FLIGHT = re.compile(r"^[A-Z0-9]{2}\d{1,4}$")
MAX_ADDITIONAL_DRIVERS = 4
PICKUP_EARLY = timedelta(hours=1)  # the car is ready an hour before the reservation time
PICKUP_HELD = timedelta(hours=2)  # and held two hours past it
TRIP_FIELDS = {"pickup_location_id", "pickup_datetime", "return_location_id", "return_datetime", "sipp_code"}


# ---------------------------------------------------------------- helpers


def _member_profile(db: Database, member: dict[str, Any]) -> MemberProfile:
    partner = member["partner_member_number"]
    partner_row = db.get(members, partner, "Member") if partner else None
    return MemberProfile(
        **{k: member[k] for k in MemberProfile.model_fields if k in member},
        age=age_on(member["date_of_birth"], db.now().date()),
        partner_name=f"{partner_row['first_name']} {partner_row['last_name']}" if partner_row else None,
    )


def _post_points(
    db: Database,
    member: dict[str, Any],
    points: int,
    kind: str,
    description: str,
    confirmation_number: str | None = None,
) -> dict[str, Any]:
    """Move a member's points balance and record the posting."""
    db.insert(
        points_activity,
        activity_id=db.new_id(points_activity, "PA", 6),
        member_number=member["member_number"],
        activity_type=kind,
        points=points,
        confirmation_number=confirmation_number,
        description=description,
        posted_at=db.now_iso(),
    )
    return db.update(members, member["member_number"], points_balance=member["points_balance"] + points)


def _check_points(member: dict[str, Any], needed: int) -> None:
    if needed > member["points_balance"]:
        raise Conflict(
            f"Not enough Gold Plus Rewards points: this needs {needed:,} and you have {member['points_balance']:,}."
        )


def _flight(flight_number: str) -> str:
    clean = flight_number.replace(" ", "").upper()
    if not FLIGHT.match(clean):
        raise InvalidRequest("flight_number must be an airline code and number, like UA1234.")
    return clean


def _phone(value: str) -> str:
    """A US phone number as 415-555-0134."""
    digits = re.sub(r"\D", "", value)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10:
        raise InvalidRequest("phone must be a 10-digit US number.")
    return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"


def _reprice(db: Database, member: dict[str, Any], row: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Re-check and re-price a confirmed reservation with `changes` (trip, class, extras or drivers) applied."""
    merged = {**row, **changes}
    trip = plan_trip(
        db,
        merged["pickup_location_id"],
        merged["return_location_id"],
        merged["pickup_datetime"],
        merged["return_datetime"],
    )
    redeeming = row["payment_type"] == "points" and bool(TRIP_FIELDS & changes.keys())
    booking = check_booking(
        db,
        member,
        trip,
        merged["sipp_code"],
        row["payment_type"],
        merged["extras"],
        merged["additional_drivers"],
        exclude=row["confirmation_number"],
        redeeming=redeeming,
    )
    columns = booking.columns(row["payment_type"])
    points_change = columns["points_redeemed"] - row["points_redeemed"]
    if points_change > 0:
        _check_points(member, points_change)
        _post_points(db, member, -points_change, "redemption", "Reward rental changed", row["confirmation_number"])
    elif points_change < 0:
        _post_points(
            db, member, -points_change, "redemption_refund", "Reward rental changed", row["confirmation_number"]
        )
    return db.update(reservations, row["confirmation_number"], **{**changes, **columns, "updated_at": db.now_iso()})


# ---------------------------------------------------------------- what only the renter does


@tool(user_only=True)
def sign_in(db: Database, login: str) -> SessionObject:
    """(User only) The renter signs in to their Gold Plus Rewards account on hertz.com with their member number or
    email; the password never reaches the assistant.

    Args:
        login: The Gold Plus Rewards member number or the account email.
    """
    value = login.strip().lower()
    found = db.find(members, member_number=value) or db.find(members, email=value)
    if not found:
        raise NotFound("We couldn't find a Gold Plus Rewards account with that member number or email.")
    db.start_session(sessions, member_number=found[0]["member_number"])
    return SessionObject(
        member_number=found[0]["member_number"], first_name=found[0]["first_name"], tier=found[0]["tier"]
    )


@tool(user_only=True)
def present_license_at_counter(db: Database, confirmation_number: str, license_number: str) -> RentalAgreementObject:
    """(User only, at the Hertz counter) The renter shows their driver's license to pick up the car: it must match
    the license on the member profile and be valid. From an hour before the pickup time to two hours after it, the
    rental agreement opens and the reservation goes on rent.

    Args:
        confirmation_number: The reservation being picked up.
        license_number: The number on the driver's license shown at the counter.
    """
    member = signed_in_member(db)
    row = own_reservation(db, member, confirmation_number)
    if row["status"] != "confirmed":
        raise Conflict(f"Reservation {row['confirmation_number']} is {row['status']} and can't be picked up.")
    left = hours_until_pickup(db, row)
    if left > PICKUP_EARLY:
        raise Conflict(f"Too early: the car is ready from an hour before {row['pickup_datetime']}.")
    if left < -PICKUP_HELD:
        raise Conflict("The car was held for two hours past the pickup time; this reservation has lapsed.")
    if license_number.replace(" ", "").upper() != member["license_number"].upper():
        raise PermissionDenied("The license shown doesn't match the license on the renter's profile.")
    today = local_now(db, db.get(locations, row["pickup_location_id"], "Location")).date().isoformat()
    if member["license_expiration"] < today:
        raise PermissionDenied(f"The driver's license expired on {member['license_expiration']}.")
    vehicle = db.get(vehicle_classes, row["sipp_code"], "Vehicle class")
    agreement = db.insert(
        rental_agreements,
        agreement_number=db.new_id(rental_agreements, "6", 8),
        confirmation_number=row["confirmation_number"],
        status="open",
        vehicle=vehicle["example_model"].removesuffix(" or similar"),
        license_number=member["license_number"],
        license_state=member["license_state"],
        opened_at=db.now_iso(),
        closed_at=None,
    )
    db.update(reservations, row["confirmation_number"], status="on_rent", updated_at=db.now_iso())
    return RentalAgreementObject(
        **{k: agreement[k] for k in ("agreement_number", "confirmation_number", "status", "vehicle", "license_number")},
        pickup_location_id=row["pickup_location_id"],
        return_location_id=row["return_location_id"],
        return_datetime=row["return_datetime"],
    )


# ---------------------------------------------------------------- locations, cars, extras


@tool(read_only=True)
def search_locations(
    db: Database, query: str | None = None, page_size: int = 10, cursor: str | None = None
) -> Page[LocationObject]:
    """Find Hertz locations by city, airport code, state, ZIP, name or location code, with their opening hours,
    after-hours return, minimum renter age and local fees.

    Args:
        query: Words to match, e.g. "LAX", "Chicago downtown" or "Miami Beach"; empty lists every location.
        page_size: Locations per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    terms = (query or "").lower().split()
    rows = []
    for row in db.find(locations, order_by=[locations.c.city, locations.c.name]):
        text = " ".join(
            str(row[k] or "")
            for k in ("location_id", "name", "airport_code", "address", "city", "state", "postal_code", "location_type")
        ).lower()
        if all(term in text for term in terms):
            rows.append(LocationObject(**row))
    return paginate(rows, page_size, cursor, max_page_size=25)


@tool(read_only=True)
def list_vehicle_classes(
    db: Database, category: Literal["car", "suv", "van", "convertible"] | None = None
) -> list[VehicleClassObject]:
    """List Hertz car classes (SIPP codes) with seats, bags, minimum renter age and Gold Plus Rewards points per
    day.

    Args:
        category: Only this kind of vehicle.
    """
    equals = {"category": category} if category else {}
    return [
        VehicleClassObject(**r) for r in db.find(vehicle_classes, order_by=[vehicle_classes.c.points_per_day], **equals)
    ]


@tool(read_only=True)
def list_extras(db: Database, location_id: str | None = None) -> list[ExtraObject]:
    """List protections (LDW, LIS, PAI/PEC, PERS) and equipment (GPS, satellite radio, child seats, ski racks) with
    prices per day, caps and quantity limits.

    Args:
        location_id: Only extras offered at this location (e.g. LAXT15).
    """
    if location_id is not None:
        db.get(locations, location_id, "Location")
    return [
        ExtraObject(**r)
        for r in db.find(extras, order_by=[extras.c.category.desc()])
        if location_id is None or r["available_at"] is None or location_id in r["available_at"]
    ]


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
    age = age_on(member["date_of_birth"], trip.pickup.date())
    offers = []
    for row in db.find(fleet, location_id=pickup_location_id, order_by=[fleet.c.daily_rate]):
        vehicle = db.get(vehicle_classes, row["sipp_code"], "Vehicle class")
        available = cars_left(db, trip, row) > 0
        problem = ineligibility(trip, vehicle, age)
        offers.append(
            VehicleOffer(
                **{k: vehicle[k] for k in VehicleOffer.model_fields if k in vehicle},
                available=available,
                eligible=problem is None,
                rate_per_day=row["daily_rate"],
                pay_now_rate_per_day=pay_now_rate(row["daily_rate"]),
                estimated_total=price(trip, vehicle, row, "pay_later", age).estimated_total,
                points_required=vehicle["points_per_day"] * trip.days,
                note=problem or (None if available else "Sold out for these dates"),
            )
        )
    return AvailabilityObject(
        pickup_location_id=pickup_location_id,
        return_location_id=trip.return_location["location_id"],
        pickup_datetime=pickup_datetime,
        return_datetime=return_datetime,
        rental_days=trip.days,
        drop_fee=trip.drop_fee,
        vehicles=offers,
    )


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
    vehicle, fleet_row = offering(db, trip, sipp_code)
    age = age_on(member["date_of_birth"], trip.pickup.date())
    problem = ineligibility(trip, vehicle, age)
    if problem:
        raise PermissionDenied(problem)
    booked = extra_rows(db, [{"code": c, "quantity": 1} for c in extras_codes or []], pickup_location_id)
    charges = price(trip, vehicle, fleet_row, payment_type, age, booked)
    return QuoteObject(
        pickup_location_id=pickup_location_id,
        return_location_id=trip.return_location["location_id"],
        pickup_datetime=pickup_datetime,
        return_datetime=return_datetime,
        sipp_code=vehicle["sipp_code"],
        vehicle=vehicle_label(db, vehicle["sipp_code"]),
        payment_type=payment_type,
        available=cars_left(db, trip, fleet_row) > 0,
        rental_days=trip.days,
        rate_per_day=charges.rate_per_day,
        base_charge=charges.base_charge,
        extras=charges.extra_lines,
        extras_charge=charges.extras_charge,
        young_renter_charge=charges.young_renter_charge,
        drop_fee=charges.drop_fee,
        fees=charges.fee_lines,
        taxes_and_fees=charges.taxes_and_fees,
        estimated_total=charges.estimated_total,
        points_required=charges.points_required,
    )


# ---------------------------------------------------------------- reservations


@tool(read_only=True)
def list_reservations(
    db: Database, status: Status | None = None, page_size: int = 10, cursor: str | None = None
) -> Page[ReservationSummary]:
    """List the signed-in member's reservations and past rentals, latest pickup first.

    Args:
        status: Only reservations in this status.
        page_size: Reservations per page, 1 to 25.
        cursor: The next_cursor of the previous page.
    """
    member = signed_in_member(db)
    equals = {"status": status} if status else {}
    rows = db.find(
        reservations, member_number=member["member_number"], order_by=[reservations.c.pickup_datetime.desc()], **equals
    )
    return paginate([reservation_summary(db, r) for r in rows], page_size, cursor, max_page_size=25)


@tool(read_only=True)
def get_reservation(db: Database, confirmation_number: str, last_name: str) -> ReservationObject:
    """Look up a reservation by its confirmation number and the renter's last name, with extras, additional
    drivers and estimated charges.

    Args:
        confirmation_number: The Hertz confirmation number, e.g. K7000000191.
        last_name: The renter's last name on the reservation.
    """
    found = db.find(reservations, confirmation_number=confirmation_number.strip().upper())
    if not found or found[0]["last_name"].lower() != last_name.strip().lower():
        raise NotFound("No reservation matches that confirmation number and last name.")
    return reservation_object(db, found[0])


@tool()
def create_reservation(
    db: Database,
    pickup_location_id: str,
    pickup_datetime: LocalDateTime,
    return_datetime: LocalDateTime,
    sipp_code: str,
    payment_type: PaymentType = "pay_later",
    return_location_id: str | None = None,
    flight_number: str | None = None,
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
    _check_points(member, booking.charges.points_required)
    now = db.now_iso()
    number = db.new_id(reservations, "K7", 9)
    row = db.insert(
        reservations,
        confirmation_number=number,
        member_number=member["member_number"],
        first_name=member["first_name"],
        last_name=member["last_name"],
        status="confirmed",
        payment_type=payment_type,
        extras=[],
        additional_drivers=[],
        cancellation_fee=0,
        refund_amount=0,
        flight_number=_flight(flight_number) if flight_number else None,
        created_at=now,
        updated_at=now,
        cancelled_at=None,
        **booking.columns(payment_type),
    )
    if booking.charges.points_required:
        _post_points(
            db,
            member,
            -booking.charges.points_required,
            "redemption",
            f"Reward rental {booking.vehicle['name']}",
            number,
        )
    return reservation_object(db, row)


@tool()
def modify_reservation(
    db: Database,
    confirmation_number: str,
    pickup_location_id: str | None = None,
    pickup_datetime: LocalDateTime | None = None,
    return_location_id: str | None = None,
    return_datetime: LocalDateTime | None = None,
    sipp_code: str | None = None,
    flight_number: str | None = None,
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
    given = {
        "pickup_location_id": pickup_location_id,
        "pickup_datetime": pickup_datetime,
        "return_location_id": return_location_id,
        "return_datetime": return_datetime,
        "sipp_code": sipp_code,
    }
    trip_changes = {k: v for k, v in given.items() if v is not None}
    if not trip_changes and flight_number is None:
        raise InvalidRequest("Nothing to change.")
    if trip_changes and row["payment_type"] != "pay_later" and hours_until_pickup(db, row) < NOTICE:
        label = "Pay Now" if row["payment_type"] == "pay_now" else "Points"
        raise PermissionDenied(f"{label} reservations can't be changed within 24 hours of pickup.")
    if pickup_location_id and not return_location_id and row["return_location_id"] == row["pickup_location_id"]:
        trip_changes["return_location_id"] = pickup_location_id
    if flight_number is not None:
        row = db.update(
            reservations, row["confirmation_number"], flight_number=_flight(flight_number), updated_at=db.now_iso()
        )
    if trip_changes:
        row = _reprice(db, member, row, **trip_changes)
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
    row = changeable(db, own_reservation(db, member, confirmation_number))
    early = hours_until_pickup(db, row) >= NOTICE
    fee = 0
    if row["payment_type"] == "pay_now":
        fee = min(PAY_NOW_FEE_EARLY if early else PAY_NOW_FEE_LATE, row["prepaid_amount"])
    refunded = row["points_redeemed"] if early else 0
    if refunded:
        _post_points(db, member, refunded, "redemption_refund", "Reward rental cancelled", row["confirmation_number"])
    db.update(
        reservations,
        row["confirmation_number"],
        status="cancelled",
        cancellation_fee=fee,
        refund_amount=row["prepaid_amount"] - fee,
        cancelled_at=db.now_iso(),
        updated_at=db.now_iso(),
    )
    return CancellationObject(
        confirmation_number=row["confirmation_number"],
        status="cancelled",
        payment_type=row["payment_type"],
        cancellation_fee=fee,
        refund_amount=row["prepaid_amount"] - fee,
        points_refunded=refunded,
        points_forfeited=row["points_redeemed"] - refunded,
    )


@tool()
def add_extra(db: Database, confirmation_number: str, code: str, quantity: int = 1) -> ReservationObject:
    """Add a protection or piece of equipment to a confirmed reservation; it is re-priced. Protections are added
    once; equipment up to its max_quantity, and at most 3 child seats (CSI, CST, BST) in all.

    Args:
        confirmation_number: The reservation.
        code: The extra's code from list_extras, e.g. LDW or CST.
        quantity: How many to add (equipment only).
    """
    member = signed_in_member(db)
    row = changeable(db, own_reservation(db, member, confirmation_number))
    extra = db.get(extras, code.strip().upper(), "Extra")
    if quantity < 1:
        raise InvalidRequest("quantity must be at least 1.")
    held = {item["code"]: item["quantity"] for item in row["extras"]}
    if extra["category"] == "protection" and extra["code"] in held:
        raise Conflict(f"{extra['name']} is already on this reservation.")
    total = held.get(extra["code"], 0) + quantity
    if total > extra["max_quantity"]:
        raise InvalidRequest(f"At most {extra['max_quantity']} {extra['name']} per rental.")
    if (
        extra["code"] in CHILD_SEATS
        and sum(q for c, q in held.items() if c in CHILD_SEATS) + quantity > MAX_CHILD_SEATS
    ):
        raise InvalidRequest(f"At most {MAX_CHILD_SEATS} child seats per rental.")
    held[extra["code"]] = total
    booked = [{"code": c, "quantity": q} for c, q in held.items()]
    return reservation_object(db, _reprice(db, member, row, extras=booked))


@tool()
def remove_extra(db: Database, confirmation_number: str, code: str) -> ReservationObject:
    """Remove an extra (all of its units) from a confirmed reservation; it is re-priced.

    Args:
        confirmation_number: The reservation.
        code: The extra's code, e.g. NAV.
    """
    member = signed_in_member(db)
    row = changeable(db, own_reservation(db, member, confirmation_number))
    wanted = code.strip().upper()
    if wanted not in {item["code"] for item in row["extras"]}:
        raise NotFound(f"Extra {wanted} is not on reservation {row['confirmation_number']}.")
    booked = [item for item in row["extras"] if item["code"] != wanted]
    return reservation_object(db, _reprice(db, member, row, extras=booked))


@tool()
def add_additional_driver(
    db: Database,
    confirmation_number: str,
    first_name: str,
    last_name: str,
    date_of_birth: Date,
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
    first, last = first_name.strip(), last_name.strip()
    if not first or not last:
        raise InvalidRequest("first_name and last_name are required.")
    drivers = row["additional_drivers"]
    if len(drivers) >= MAX_ADDITIONAL_DRIVERS:
        raise Conflict(f"A rental can have at most {MAX_ADDITIONAL_DRIVERS} additional drivers.")
    if any((d["first_name"].lower(), d["last_name"].lower()) == (first.lower(), last.lower()) for d in drivers):
        raise Conflict(f"{first} {last} is already an additional driver.")
    born = parse_date(date_of_birth, "date_of_birth")
    if not date(1900, 1, 1) <= born < db.now().date():
        raise InvalidRequest("date_of_birth is not a valid birth date.")
    driver = {
        "first_name": first,
        "last_name": last,
        "date_of_birth": date_of_birth,
        "relationship": relationship,
        "fee_waived": relationship in FEE_WAIVED_RELATIONSHIPS,
    }
    return reservation_object(db, _reprice(db, member, row, additional_drivers=[*drivers, driver]))


# ---------------------------------------------------------------- Gold Plus Rewards


@tool(read_only=True)
def get_member_profile(db: Database) -> MemberProfile:
    """The signed-in member's Gold Plus Rewards profile: tier, points balance, spouse or domestic partner, driver's
    license on file, preferred car class."""
    return _member_profile(db, signed_in_member(db))


@tool(read_only=True)
def list_points_activity(db: Database, page_size: int = 20, cursor: str | None = None) -> Page[PointsActivityObject]:
    """List the signed-in member's Gold Plus Rewards points postings, newest first.

    Args:
        page_size: Postings per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    member = signed_in_member(db)
    rows = db.find(
        points_activity,
        member_number=member["member_number"],
        order_by=[points_activity.c.posted_at.desc(), points_activity.c.activity_id.desc()],
    )
    return paginate([PointsActivityObject(**r) for r in rows], page_size, cursor, max_page_size=50)


@tool()
def transfer_points(db: Database, recipient_member_number: str, points: int) -> PointsTransferObject:
    """Transfer Gold Plus Rewards points to the spouse or domestic partner on the member's profile (they must be a
    member too), in multiples of 100.

    Args:
        recipient_member_number: The partner's Gold Plus Rewards member number.
        points: Points to transfer.
    """
    member = signed_in_member(db)
    recipient = db.get(members, recipient_member_number.strip(), "Member")
    if recipient["member_number"] != member["partner_member_number"]:
        raise PermissionDenied("Points can only be transferred to the spouse or domestic partner on your profile.")
    if points < 100 or points % 100:
        raise InvalidRequest("Points transfer in multiples of 100.")
    _check_points(member, points)
    name = f"{recipient['first_name']} {recipient['last_name']}"
    sender = _post_points(db, member, -points, "transfer_out", f"Points transferred to {name}")
    _post_points(
        db, recipient, points, "transfer_in", f"Points transferred from {member['first_name']} {member['last_name']}"
    )
    return PointsTransferObject(
        from_member_number=member["member_number"],
        to_member_number=recipient["member_number"],
        recipient_name=name,
        points=points,
        points_balance=sender["points_balance"],
    )


@tool()
def update_member_profile(
    db: Database,
    email: str | None = None,
    phone: str | None = None,
    license_number: str | None = None,
    license_state: str | None = None,
    license_expiration: Date | None = None,
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
    changes: dict[str, Any] = {}
    if email is not None:
        clean = email.strip().lower()
        if not EMAIL.match(clean):
            raise InvalidRequest("email is not a valid email address.")
        taken = db.find(members, email=clean)
        if taken and taken[0]["member_number"] != member["member_number"]:
            raise Conflict("That email is already used by another Gold Plus Rewards account.")
        changes["email"] = clean
    if phone is not None:
        changes["phone"] = _phone(phone)
    if license_number is not None:
        clean = license_number.replace(" ", "").upper()
        if not re.fullmatch(r"[A-Z0-9-]{5,20}", clean):
            raise InvalidRequest("license_number must be 5 to 20 letters or digits.")
        changes["license_number"] = clean
    if license_state is not None:
        if not re.fullmatch(r"[A-Za-z]{2}", license_state.strip()):
            raise InvalidRequest("license_state must be a two-letter state code.")
        changes["license_state"] = license_state.strip().upper()
    if license_expiration is not None:
        if parse_date(license_expiration, "license_expiration") <= db.now().date():
            raise InvalidRequest("license_expiration must be in the future; an expired license can't be used.")
        changes["license_expiration"] = license_expiration
    if preferred_sipp_code is not None:
        changes["preferred_sipp_code"] = db.get(vehicle_classes, preferred_sipp_code.strip().upper(), "Vehicle class")[
            "sipp_code"
        ]
    if not changes:
        raise InvalidRequest("Nothing to update.")
    return _member_profile(db, db.update(members, member["member_number"], **changes))
