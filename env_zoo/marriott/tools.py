"""Marriott Bonvoy tools for a signed-in member: account, point activity and the award chart; hotel search,
details and availability; reservations paid in cash or redeemed as free night awards (with Free Night
Certificates and Points Advance), changes and cancellations; Suite Night Award upgrades; point transfers; and
missing stay credit."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, page_size, text
from envfactory_gym.values import iso_timestamp

from . import access, rules
from .objects import (
    AccountObject,
    AvailabilityObject,
    AwardChartRow,
    AwardPrice,
    CertificateObject,
    PostingObject,
    PropertyObject,
    PropertySummary,
    RatePlan,
    ReservationObject,
    RoomAvailability,
    SessionObject,
    StayPrice,
    SuiteNightAwardObject,
    account_object,
    certificate_object,
    property_object,
    reservation_object,
    suite_night_object,
    usd,
)
from .schema import certificates, members, postings, properties, rates, reservations, room_types, suite_night_awards

PropertyCode = Annotated[str, Field(pattern=r"^[A-Za-z]{5}$"), ErrorText("A hotel code is 5 letters, like BOSCY.")]
RoomCode = Annotated[str, Field(pattern=r"^[A-Za-z0-9]{2,6}$"), ErrorText("A room code is 2-6 letters or digits.")]
Confirmation = Annotated[str, Field(pattern=r"^\d{8}$"), ErrorText("A confirmation number is 8 digits, like 84131207.")]
MemberNumber = Annotated[str, Field(pattern=r"^\d{9}$"), ErrorText("A Marriott Bonvoy member number is 9 digits.")]
Guests = Annotated[int, Field(ge=1, le=8), ErrorText("Guests per room must be 1 to 8.")]
TransferPoints = Annotated[
    int,
    Field(ge=1000, le=100000, multiple_of=1000),
    ErrorText("Points are transferred in multiples of 1,000, from 1,000 to 100,000."),
]
PostingType = Literal[
    "STAY",
    "ELITE_BONUS",
    "AWARD",
    "AWARD_REFUND",
    "TRANSFER_OUT",
    "TRANSFER_IN",
    "CREDIT_CARD",
    "PROMOTION",
    "PURCHASE",
]
PageSize = page_size(50)


# ---------------------------------------------------------------- the member


@tool(user_only=True)
def sign_in(db: Database, login: Annotated[str, Field(min_length=3, max_length=120)]) -> SessionObject:
    """(Member only) Sign in to Marriott Bonvoy with a member number or email and the password, which never
    reaches the assistant.

    Args:
        login: The member number or the account's email address.
    """
    member = access.sign_in(db, login)
    return SessionObject(**{key: member[key] for key in SessionObject.model_fields})


@tool(read_only=True)
def get_account(db: Database) -> AccountObject:
    """The signed-in member's account: points balance, elite tier and nights this year, nights to the next tier,
    and how many Suite Night Awards, Free Night Certificates and Points Advance reservations they hold."""
    return account_object(db, access.me(db))


@tool(read_only=True)
def list_point_activity(
    db: Database,
    type: PostingType | None = None,
    posted_from: IsoDate | None = None,
    posted_to: IsoDate | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[PostingObject]:
    """The member's point activity, newest first: stays, elite bonuses, redemptions and refunds, transfers, card
    and promotion points.

    Args:
        type: Only postings of this type.
        posted_from: Posted on or after this date.
        posted_to: Posted on or before this date.
        page_size: Postings per page.
        cursor: next_cursor of the previous page.
    """
    member = access.me(db)
    where, params = (
        ["member_number = ?", "posted_on >= ?", "posted_on <= ?"],
        [
            member["member_number"],
            posted_from or "",
            posted_to or "9999",
        ],
    )
    if type is not None:
        where.append("type = ?")
        params.append(type)
    found = db.select(postings, " AND ".join(where), params, order_by="posted_on DESC, id DESC")
    shown = [
        PostingObject(
            posting_id=row["id"],
            elite_nights=row["nights"],
            **{key: row[key] for key in ("posted_on", "type", "points", "description", "confirmation_number")},
        )
        for row in found
    ]
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def get_award_chart(db: Database) -> list[AwardChartRow]:
    """Points a night for a standard room at each award category (1-8), at off-peak, standard and peak dates;
    on stays of five nights or more paid in points, every fifth night is free."""
    return [
        AwardChartRow(category=category, off_peak=low, standard=mid, peak=high)
        for category, (low, mid, high) in rules.AWARD_CHART.items()
    ]


# ---------------------------------------------------------------- hotels


@tool(read_only=True)
def search_properties(
    db: Database,
    city: text(80) | None = None,
    name: text(100) | None = None,
    brand: text(60) | None = None,
    max_category: Annotated[int, Field(ge=1, le=8)] | None = None,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[PropertySummary]:
    """Find Marriott Bonvoy hotels by city, name or brand, optionally at or below an award category.

    Args:
        city: The city, e.g. "Chicago".
        name: Words of the hotel's name, e.g. "Riverwalk".
        brand: The brand, e.g. "Courtyard", "Westin", "The Ritz-Carlton".
        max_category: Highest award category (1-8).
        page_size: Hotels per page.
        cursor: next_cursor of the previous page.
    """
    where, params = ["category <= ?"], [max_category or 8]
    for column, value in (("city", city), ("brand", brand)):
        if value is not None:
            where.append(f"lower({column}) LIKE ?")
            params.append(f"%{value.strip().lower()}%")
    found = db.select(properties, " AND ".join(where), params, order_by="city, name")
    if name is not None:
        words = name.lower().split()
        found = [row for row in found if all(word in row["name"].lower() for word in words)]
    shown = [
        PropertySummary(
            property_code=row["code"], **{k: row[k] for k in PropertySummary.model_fields if k != "property_code"}
        )
        for row in found
    ]
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def get_property(db: Database, property_code: PropertyCode) -> PropertyObject:
    """A hotel's details: award category and its peak and off-peak months, cancellation policy, base points
    earned a dollar, and its room types (which can be confirmed with Suite Night Awards) with their rate plans.

    Args:
        property_code: The hotel's 5-letter code, e.g. "BOSCY".
    """
    prop = db.find_one(properties, not_found=f"Hotel {property_code} not found.", code=property_code.upper())
    return property_object(db, prop)


@tool(read_only=True)
def check_availability(
    db: Database, property_code: PropertyCode, arrival: IsoDate, departure: IsoDate, guests: Guests = 1
) -> AvailabilityObject:
    """Rooms at a hotel for a stay: which room types are free every night, the price of each rate plan, and for
    standard rooms the points a free night award costs (Stay for 5, Pay for 4 included).

    Args:
        property_code: The hotel's code.
        arrival: Check-in date.
        departure: Check-out date.
        guests: Guests in the room.
    """
    prop = rules.open_property(db, property_code)
    nights = rules.stay_nights(db, arrival, departure)
    rooms = []
    closed_by_room = rules.property_sold_out(db, prop["code"], nights)
    rates_by_room = rules.property_rates(db, prop["code"])
    for row in db.find(room_types, property_code=prop["code"]):
        closed = closed_by_room.get(row["id"], [])
        prices = [
            StayPrice(
                plan=rate["plan"],
                nightly=[usd(rate["nightly"])] * len(nights),
                total=usd(rate["nightly"] * len(nights)),
            )
            for rate in rates_by_room.get(row["id"], [])
        ]
        award = None
        if row["kind"] == "STANDARD":
            nightly = rules.award_nightly(prop, nights)
            free = rules.free_nights(nightly)
            award = AwardPrice(points_per_night=nightly, free_nights_points=free, points_total=sum(nightly) - free)
        rooms.append(
            RoomAvailability(
                room_code=row["room_code"],
                name=row["name"],
                kind=row["kind"],
                available=not closed,
                unavailable_nights=closed,
                fits_party=guests <= row["max_occupancy"],
                prices=prices,
                award=award,
            )
        )
    until = iso_timestamp(rules.deadline(prop, arrival))
    return AvailabilityObject(
        property_code=prop["code"],
        arrival=arrival,
        departure=departure,
        nights=len(nights),
        free_cancellation_until=until,
        rooms=rooms,
    )


# ---------------------------------------------------------------- reservations


@tool(read_only=True)
def list_reservations(
    db: Database,
    status: Literal["CONFIRMED", "CANCELLED", "COMPLETED"] | None = None,
    property_code: PropertyCode | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[ReservationObject]:
    """The member's reservations by arrival date, optionally by status or hotel.

    Args:
        status: CONFIRMED (upcoming), COMPLETED (past stays) or CANCELLED.
        property_code: Only stays at this hotel.
        page_size: Reservations per page.
        cursor: next_cursor of the previous page.
    """
    member = access.me(db)
    where, params = ["member_number = ?"], [member["member_number"]]
    if property_code is not None:
        where.append("property_code = ?")
        params.append(property_code.upper())
    found = db.select(reservations, " AND ".join(where), params, order_by="arrival, confirmation_number")
    seen: dict = {}
    shown = [reservation_object(db, row, seen) for row in found]
    if status is not None:
        shown = [row for row in shown if row.status == status]
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def get_reservation(db: Database, confirmation_number: Confirmation) -> ReservationObject:
    """One of the member's reservations: dates, room, rate, price in cash or points, free cancellation deadline,
    Points Advance due date, Suite Night Award request and stay credit.

    Args:
        confirmation_number: The 8-digit confirmation number.
    """
    return reservation_object(db, access.own_reservation(db, access.me(db), confirmation_number))


@tool()
def book_stay(
    db: Database,
    property_code: PropertyCode,
    room_code: RoomCode,
    rate_plan: RatePlan,
    arrival: IsoDate,
    departure: IsoDate,
    guests: Guests = 1,
    special_requests: text(300) | None = None,
) -> ReservationObject:
    """Book a paid stay for the signed-in member at one of a room type's rate plans. Prepay and Save is charged
    now and can't be refunded or changed.

    Args:
        property_code: The hotel's code.
        room_code: The room type's code, from get_property or check_availability.
        rate_plan: FLEXIBLE, MEMBER, PREPAY, AAA or SENIOR, as the room type offers.
        arrival: Check-in date.
        departure: Check-out date.
        guests: Guests in the room.
        special_requests: Requests for the hotel (high floor, crib), not guaranteed.
    """
    member = access.me(db)
    prop = rules.open_property(db, property_code)
    row = rules.room(db, prop, room_code)
    rate = db.find_one(
        rates,
        not_found=f"The {row['name']} isn't sold at the {rate_plan} rate.",
        room_type_id=row["id"],
        plan=rate_plan,
    )
    nights = rules.stay_nights(db, arrival, departure)
    rules.check_guests(row, guests)
    rules.check_open(db, row, nights)
    stored = db.insert(
        reservations,
        confirmation_number=rules.new_confirmation(db),
        member_number=member["member_number"],
        property_code=prop["code"],
        room_type_id=row["id"],
        rate_plan=rate_plan,
        arrival=arrival,
        departure=departure,
        guests=guests,
        status="CONFIRMED",
        nightly=[rate["nightly"]] * len(nights),
        cash_total=rate["nightly"] * len(nights),
        points_total=0,
        top_up_points=0,
        points_advance=False,
        points_paid=False,
        credited=False,
        special_requests=special_requests,
        penalty=0,
        booked_on=rules.today(db).isoformat(),
    )
    return reservation_object(db, stored)


@tool()
def redeem_free_night_award(
    db: Database,
    property_code: PropertyCode,
    room_code: RoomCode,
    arrival: IsoDate,
    departure: IsoDate,
    guests: Guests = 1,
    certificate_id: Annotated[str, Field(pattern=r"^FNC\d+$")] | None = None,
) -> ReservationObject:
    """Book a standard room with points at the award chart price (Stay for 5, Pay for 4 on five nights or
    more). A Free Night Certificate pays the first night if that night costs no more than its cap plus a top-up
    of up to 15,000 points. Without enough points the stay is booked as a Points Advance (arrival at least 30
    days away, at most 3 open): the points are due 60 days after booking or 14 days before arrival, whichever
    is first.

    Args:
        property_code: The hotel's code.
        room_code: A standard room type's code.
        arrival: Check-in date.
        departure: Check-out date.
        guests: Guests in the room.
        certificate_id: A Free Night Certificate to use for the first night.
    """
    member = access.me(db)
    prop = rules.open_property(db, property_code)
    row = rules.room(db, prop, room_code)
    if row["kind"] != "STANDARD":
        raise InvalidRequest("Free night awards book standard rooms; use Suite Night Awards to request a suite.")
    nights = rules.stay_nights(db, arrival, departure)
    rules.check_guests(row, guests)
    rules.check_open(db, row, nights)
    nightly = rules.award_nightly(prop, nights)
    cert, top_up = None, 0
    if certificate_id is None:
        due = sum(nightly) - rules.free_nights(nightly)
    else:
        cert = db.find_one(
            certificates,
            not_found=f"Free Night Certificate {certificate_id} not found on your account.",
            id=certificate_id,
            member_number=member["member_number"],
        )
        if cert["status"] != "AVAILABLE":
            raise Conflict(f"Free Night Certificate {certificate_id} is {cert['status'].lower()}.")
        if cert["expires_on"] < arrival:
            raise Conflict(f"Free Night Certificate {certificate_id} expires on {cert['expires_on']}, before arrival.")
        top_up = max(nightly[0] - cert["cap"], 0)
        if top_up > rules.TOP_UP_LIMIT:
            raise Conflict(
                f"This night costs {nightly[0]:,} points, more than the certificate's {cert['cap']:,}-point cap "
                f"plus a {rules.TOP_UP_LIMIT:,}-point top-up."
            )
        due = top_up + sum(nightly[1:])
    advance = member["points"] < due
    number = rules.new_confirmation(db)
    if advance:
        if (rules.day(arrival, "arrival") - rules.today(db)).days < rules.POINTS_ADVANCE_LEAD_DAYS:
            raise Conflict(
                f"You need {due:,} points and have {member['points']:,}. Points Advance is only available for "
                f"stays at least {rules.POINTS_ADVANCE_LEAD_DAYS} days away."
            )
        if rules.open_points_advances(db, member["member_number"]) >= rules.POINTS_ADVANCE_LIMIT:
            raise Conflict(f"You already hold {rules.POINTS_ADVANCE_LIMIT} Points Advance reservations.")
    else:
        db.update(members, member["member_number"], points=member["points"] - due)
        rules.post(
            db, member["member_number"], "AWARD", -due, f"Free night award, {prop['name']}", confirmation_number=number
        )
    if cert is not None:
        db.update(certificates, cert["id"], status="USED", confirmation_number=number)
    stored = db.insert(
        reservations,
        confirmation_number=number,
        member_number=member["member_number"],
        property_code=prop["code"],
        room_type_id=row["id"],
        rate_plan=rules.REWARD,
        arrival=arrival,
        departure=departure,
        guests=guests,
        status="CONFIRMED",
        nightly=nightly,
        cash_total=0,
        points_total=due,
        certificate_id=cert["id"] if cert else None,
        top_up_points=top_up,
        points_advance=advance,
        points_due_by=rules.points_due_by(db, arrival) if advance else None,
        points_paid=not advance,
        credited=False,
        penalty=0,
        booked_on=rules.today(db).isoformat(),
    )
    return reservation_object(db, stored)


@tool()
def pay_points_advance(db: Database, confirmation_number: Confirmation) -> ReservationObject:
    """Pay a Points Advance reservation with points now that the balance covers it.

    Args:
        confirmation_number: The Points Advance reservation's confirmation number.
    """
    member = access.me(db)
    row = access.own_reservation(db, member, confirmation_number)
    if not row["points_advance"] or row["points_paid"]:
        raise Conflict(f"Reservation {confirmation_number} has no points due.")
    if rules.live_status(db, row) != "CONFIRMED":
        raise Conflict(f"Reservation {confirmation_number} was cancelled; its Points Advance due date passed.")
    if member["points"] < row["points_total"]:
        raise Conflict(f"You need {row['points_total']:,} points and have {member['points']:,}.")
    db.update(members, member["member_number"], points=member["points"] - row["points_total"])
    hotel = db.get(properties, row["property_code"])["name"]
    rules.post(
        db,
        member["member_number"],
        "AWARD",
        -row["points_total"],
        f"Free night award, {hotel}",
        confirmation_number=confirmation_number,
    )
    return reservation_object(db, db.update(reservations, confirmation_number, points_paid=True))


@tool()
def change_reservation(
    db: Database,
    confirmation_number: Confirmation,
    arrival: IsoDate | None = None,
    departure: IsoDate | None = None,
    guests: Guests | None = None,
    special_requests: text(300) | None = None,
) -> ReservationObject:
    """Change the dates, guests or requests of a paid flexible-rate reservation before its free cancellation
    deadline; new dates are priced at the current rate. Prepay and Save and award reservations can't be changed
    (cancel and book again).

    Args:
        confirmation_number: The reservation's confirmation number.
        arrival: New check-in date.
        departure: New check-out date.
        guests: New number of guests.
        special_requests: New requests for the hotel.
    """
    member = access.me(db)
    row = access.own_reservation(db, member, confirmation_number)
    if rules.live_status(db, row) != "CONFIRMED":
        raise Conflict(f"Reservation {confirmation_number} is {rules.live_status(db, row).lower()}.")
    if row["rate_plan"] == rules.REWARD:
        raise Conflict("Award reservations can't be changed; cancel it and redeem the new dates.")
    if row["rate_plan"] == "PREPAY":
        raise Conflict("Prepay and Save reservations can't be changed or refunded.")
    prop = db.get(properties, row["property_code"])
    if not rules.within_deadline(db, prop, row):
        raise Conflict("This reservation is past its free cancellation deadline and can't be changed online.")
    first, last = arrival or row["arrival"], departure or row["departure"]
    room_row = rules.room_by_id(db, row["room_type_id"])
    updates: dict = {}
    if (first, last) != (row["arrival"], row["departure"]):
        if row["upgrade_status"] == "REQUESTED":
            raise Conflict("Withdraw the Suite Night Award request before changing the dates.")
        nights = rules.stay_nights(db, first, last)
        rules.check_open(db, room_row, nights)
        rate = db.find_one(
            rates, not_found="Rate no longer offered.", room_type_id=row["room_type_id"], plan=row["rate_plan"]
        )
        updates = {
            "arrival": first,
            "departure": last,
            "nightly": [rate["nightly"]] * len(nights),
            "cash_total": rate["nightly"] * len(nights),
        }
    if guests is not None:
        rules.check_guests(room_row, guests)
        updates["guests"] = guests
    if special_requests is not None:
        updates["special_requests"] = special_requests
    if not updates:
        raise InvalidRequest("Nothing to change.")
    return reservation_object(db, db.update(reservations, confirmation_number, **updates))


@tool()
def cancel_reservation(db: Database, confirmation_number: Confirmation) -> ReservationObject:
    """Cancel an upcoming reservation. Before the hotel's deadline it is free (award points and certificates
    come back); after it, a flexible stay is charged one night and an award keeps the first night's points (or
    its certificate). Prepay and Save is never refunded. An unpaid Points Advance cancels free; Suite Night
    Awards requested for the stay come back.

    Args:
        confirmation_number: The reservation's confirmation number.
    """
    member = access.me(db)
    row = access.own_reservation(db, member, confirmation_number)
    if rules.live_status(db, row) != "CONFIRMED":
        raise Conflict(
            f"Reservation {confirmation_number} is {rules.live_status(db, row).lower()} and can't be cancelled."
        )
    prop = db.get(properties, row["property_code"])
    free = rules.within_deadline(db, prop, row)
    penalty = 0
    if row["rate_plan"] == "PREPAY":
        penalty = row["cash_total"]
    elif row["rate_plan"] != rules.REWARD:
        penalty = 0 if free else row["nightly"][0]
    elif row["points_paid"]:
        first_night = 0 if row["certificate_id"] else row["nightly"][0]
        kept = row["top_up_points"] if row["certificate_id"] else first_night
        penalty = 0 if free else min(kept, row["points_total"])
        refund = row["points_total"] - penalty
        if refund:
            db.update(members, member["member_number"], points=member["points"] + refund)
            rules.post(
                db,
                member["member_number"],
                "AWARD_REFUND",
                refund,
                f"Cancelled award, {prop['name']}",
                confirmation_number=confirmation_number,
            )
    if row["certificate_id"] and free:
        db.update(certificates, row["certificate_id"], status="AVAILABLE", confirmation_number=None)
    if row["upgrade_status"] in ("REQUESTED", "CONFIRMED"):
        for award in db.find(suite_night_awards, confirmation_number=confirmation_number, status="APPLIED"):
            db.update(suite_night_awards, award["id"], status="AVAILABLE", confirmation_number=None)
    stored = db.update(
        reservations,
        confirmation_number,
        status="CANCELLED",
        penalty=penalty,
        cancelled_at=db.now_iso(),
        upgrade_status=None if row["upgrade_status"] == "REQUESTED" else row["upgrade_status"],
    )
    return reservation_object(db, stored)


# ---------------------------------------------------------------- upgrades and awards held


@tool(read_only=True)
def list_free_night_certificates(
    db: Database, status: Literal["AVAILABLE", "USED", "EXPIRED"] | None = None
) -> list[CertificateObject]:
    """The member's Free Night Certificates with their point caps and expiry dates.

    Args:
        status: Only certificates in this status.
    """
    member = access.me(db)
    found = db.find(certificates, member_number=member["member_number"], order_by=[certificates.c.expires_on])
    return [certificate_object(row) for row in found if status is None or row["status"] == status]


@tool(read_only=True)
def list_suite_night_awards(
    db: Database, status: Literal["AVAILABLE", "APPLIED", "USED", "EXPIRED"] | None = None
) -> list[SuiteNightAwardObject]:
    """The member's Suite Night Awards with their expiry dates (December 31 of the year after they were
    earned) and the reservation any is applied to.

    Args:
        status: Only awards in this status.
    """
    member = access.me(db)
    found = db.find(
        suite_night_awards, member_number=member["member_number"], order_by=[suite_night_awards.c.expires_on]
    )
    return [suite_night_object(row) for row in found if status is None or row["status"] == status]


@tool()
def request_suite_night_upgrade(
    db: Database, confirmation_number: Confirmation, room_code: RoomCode
) -> ReservationObject:
    """Request an upgrade to a suite or premium room with Suite Night Awards: one award for every night of the
    stay, each valid on the arrival date, requested by 2 p.m. local time the day before arrival. The hotel
    confirms from three days before arrival; unconfirmed awards come back to the account.

    Args:
        confirmation_number: The reservation to upgrade.
        room_code: The suite or premium room type wanted; it must be Suite Night Award eligible.
    """
    member = access.me(db)
    row = access.own_reservation(db, member, confirmation_number)
    if rules.live_status(db, row) != "CONFIRMED":
        raise Conflict(f"Reservation {confirmation_number} is {rules.live_status(db, row).lower()}.")
    if row["upgrade_status"] in ("REQUESTED", "CONFIRMED"):
        raise Conflict(f"Suite Night Awards are already {row['upgrade_status'].lower()} for this reservation.")
    if db.now() >= rules.upgrade_cutoff(row["arrival"]):
        raise Conflict("Suite Night Awards must be requested by 2 p.m. local time the day before arrival.")
    prop = db.get(properties, row["property_code"])
    target = rules.room(db, prop, room_code)
    if not target["suite_night_eligible"]:
        raise InvalidRequest(f"The {target['name']} can't be confirmed with Suite Night Awards.")
    if target["id"] == row["room_type_id"]:
        raise InvalidRequest("The reservation is already in that room type.")
    needed = len(row["nightly"])
    usable = rules.usable_suite_nights(db, member["member_number"], row["arrival"])
    if len(usable) < needed:
        raise Conflict(
            f"This stay needs {needed} Suite Night Awards, one per night; you have {len(usable)} valid on "
            f"{row['arrival']}."
        )
    for award in usable[:needed]:
        db.update(suite_night_awards, award["id"], status="APPLIED", confirmation_number=confirmation_number)
    stored = db.update(reservations, confirmation_number, upgrade_status="REQUESTED", upgrade_room_type_id=target["id"])
    return reservation_object(db, stored)


@tool()
def withdraw_suite_night_request(db: Database, confirmation_number: Confirmation) -> ReservationObject:
    """Withdraw a pending Suite Night Award request; the awards come back to the account.

    Args:
        confirmation_number: The reservation with the request.
    """
    member = access.me(db)
    row = access.own_reservation(db, member, confirmation_number)
    if row["upgrade_status"] != "REQUESTED":
        raise Conflict(f"Reservation {confirmation_number} has no pending Suite Night Award request.")
    for award in db.find(suite_night_awards, confirmation_number=confirmation_number, status="APPLIED"):
        db.update(suite_night_awards, award["id"], status="AVAILABLE", confirmation_number=None)
    stored = db.update(reservations, confirmation_number, upgrade_status=None, upgrade_room_type_id=None)
    return reservation_object(db, stored)


# ---------------------------------------------------------------- points


@tool()
def transfer_points(db: Database, recipient_member_number: MemberNumber, points: TransferPoints) -> AccountObject:
    """Transfer points to another Marriott Bonvoy member: up to 100,000 points sent and 500,000 received per
    calendar year, in multiples of 1,000.

    Args:
        recipient_member_number: The other member's 9-digit member number.
        points: How many points to send.
    """
    member = access.me(db)
    number = member["member_number"]
    if recipient_member_number == number:
        raise InvalidRequest("You can't transfer points to your own account.")
    other = db.find_one(
        members,
        not_found=f"No Marriott Bonvoy member {recipient_member_number}.",
        member_number=recipient_member_number,
    )
    if member["points"] < points:
        raise Conflict(f"You have {member['points']:,} points.")
    sent = rules.year_transfers(db, number, "TRANSFER_OUT")
    if sent + points > rules.TRANSFER_OUT_LIMIT:
        raise Conflict(
            f"Members can transfer up to {rules.TRANSFER_OUT_LIMIT:,} points a year; you can send "
            f"{rules.TRANSFER_OUT_LIMIT - sent:,} more this year."
        )
    if rules.year_transfers(db, recipient_member_number, "TRANSFER_IN") + points > rules.TRANSFER_IN_LIMIT:
        raise Conflict(
            f"Member {recipient_member_number} can't receive more than {rules.TRANSFER_IN_LIMIT:,} points a year."
        )
    db.update(members, number, points=member["points"] - points)
    db.update(members, recipient_member_number, points=other["points"] + points)
    rules.post(
        db,
        number,
        "TRANSFER_OUT",
        -points,
        f"Points transfer to {other['first_name']} {other['last_name'][0]}.",
        counterparty=recipient_member_number,
    )
    rules.post(
        db,
        recipient_member_number,
        "TRANSFER_IN",
        points,
        f"Points transfer from {member['first_name']} {member['last_name'][0]}.",
        counterparty=number,
    )
    return account_object(db, access.me(db))


@tool()
def request_missing_stay_credit(db: Database, confirmation_number: Confirmation) -> ReservationObject:
    """Ask for the points and elite nights of a completed stay that never posted: base points on the room charge
    (10 a US dollar, 5 at extended-stay brands) plus the member's elite bonus for a paid stay, and one elite
    night a night for paid and award stays; reaching a tier's nights upgrades the member at once.

    Args:
        confirmation_number: The completed stay's confirmation number.
    """
    member = access.me(db)
    row = access.own_reservation(db, member, confirmation_number)
    if row["status"] != "COMPLETED":
        raise Conflict(f"Reservation {confirmation_number} isn't a completed stay.")
    if row["credited"]:
        raise Conflict(f"The stay {confirmation_number} was already credited to your account.")
    prop = db.get(properties, row["property_code"])
    nights = len(row["nightly"])
    base, bonus = (
        (0, 0) if row["rate_plan"] == rules.REWARD else rules.stay_points(prop, member["tier"], row["cash_total"])
    )
    number = member["member_number"]
    rules.post(
        db, number, "STAY", base, f"Stay, {prop['name']}", nights=nights, confirmation_number=confirmation_number
    )
    if bonus:
        rules.post(
            db,
            number,
            "ELITE_BONUS",
            bonus,
            f"{member['tier'].title()} Elite bonus, {prop['name']}",
            confirmation_number=confirmation_number,
        )
    in_year = row["departure"][:4] == str(rules.today(db).year)
    total = member["nights_this_year"] + (nights if in_year else 0)
    db.update(
        members,
        number,
        points=member["points"] + base + bonus,
        nights_this_year=total,
        lifetime_nights=member["lifetime_nights"] + nights,
        tier=rules.tier_for(member["tier"], total),
    )
    return reservation_object(db, db.update(reservations, confirmation_number, credited=True))
