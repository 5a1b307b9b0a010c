"""TripIt API tools for a signed-in traveler: their profile and network, trips and the plans in them (flights,
hotels, rental cars, activities), sharing trips with invitees and answering invitations, flight alerts, and the
inbox of confirmation emails forwarded to plans@tripit.com."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, PermissionDenied, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text

from . import access, rules
from .objects import (
    AlertObject,
    ConnectionObject,
    InboxItemObject,
    InvitationObject,
    InviteeObject,
    PlanObject,
    PlanSummary,
    ProfileObject,
    SessionObject,
    TripObject,
    TripSummary,
    alert_object,
    inbox_object,
    invitee_object,
    names,
    plan_object,
    plan_summary,
    trip_object,
    trip_summary,
)
from .schema import alerts, connections, inbox, invitees, objects, profiles, segments, trips

TripId = Annotated[str, Field(pattern=r"^\d{6,12}$"), ErrorText("400 Bad Request: trip id must be numeric.")]
ObjectId = Annotated[str, Field(pattern=r"^\d{6,12}$"), ErrorText("400 Bad Request: object id must be numeric.")]
Time = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$"), ErrorText("Times are HH:MM, 24-hour.")]
Airport = Annotated[str, Field(pattern=r"^[A-Z]{3}$"), ErrorText("Airport codes are three capital letters.")]
Cost = Annotated[
    str, Field(pattern=r"^\d{1,7}(\.\d{2})? [A-Z]{3}$"), ErrorText('Costs are an amount and currency: "412.80 USD".')
]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"), ErrorText("Invalid email address.")]
ConfNum = Annotated[
    str, Field(pattern=r"^[A-Za-z0-9-]{3,20}$"), ErrorText("Confirmation numbers are 3-20 letters, digits or dashes.")
]
Purpose = Literal["B", "L", "C", "H"]
PlanType = Literal["air", "lodging", "car", "activity"]
ActivityType = Literal["Concert", "Theatre", "Meeting", "Tour"]
PageSize = page_size(50)


class SegmentInput(BaseModel):
    """One flight of an air object."""

    marketing_airline_code: Annotated[str, Field(pattern=r"^[A-Z0-9]{2}$")]
    marketing_flight_number: Annotated[str, Field(pattern=r"^\d{1,4}$")]
    start_airport_code: Airport
    end_airport_code: Airport
    start_date: IsoDate
    start_time: Time
    end_date: IsoDate
    end_time: Time
    seats: Annotated[str, Field(max_length=20)] | None = None
    service_class: Literal["Economy", "Premium Economy", "Business", "First"] | None = None


# ---------------------------------------------------------------- the traveler


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The traveler signs in to TripIt and authorizes this app; the password never reaches the
    assistant.

    Args:
        email: The TripIt account's email address.
    """
    profile = access.sign_in(db, email)
    return SessionObject(profile_ref=profile["ref"], public_display_name=profile["public_display_name"])


@tool(read_only=True)
def get_profile(db: Database) -> ProfileObject:
    """The signed-in traveler's profile: name, home city, whether they have TripIt Pro, and trip invitations
    waiting for an answer."""
    me = access.me(db)
    waiting = db.find(invitees, profile_ref=me["ref"], status="pending")
    found = [db.get(trips, row["trip_id"], "Trip") for row in waiting]
    owners = names(db, [trip["owner_ref"] for trip in found])
    return ProfileObject(
        profile_ref=me["ref"],
        screen_name=me["screen_name"],
        public_display_name=me["public_display_name"],
        email=me["email"],
        home_city=me["home_city"],
        company=me["company"],
        is_pro=me["is_pro"],
        pending_invitations=[
            InvitationObject(
                trip_id=trip["id"],
                display_name=trip["display_name"],
                owner=owners[trip["owner_ref"]],
                start_date=trip["start_date"],
                end_date=trip["end_date"],
                is_traveler=row["is_traveler"],
                is_read_only=row["is_read_only"],
            )
            for row, trip in zip(waiting, found)
        ],
    )


@tool(read_only=True)
def list_connections(db: Database, name: text(100) | None = None) -> list[ConnectionObject]:
    """The travelers in the signed-in traveler's network, optionally those whose name contains some text.

    Args:
        name: Part of the connection's name, e.g. "Okafor".
    """
    me = access.me(db)
    refs = [row["connection_ref"] for row in db.find(connections, profile_ref=me["ref"])]
    marks = ", ".join("?" for _ in refs) or "NULL"
    found = db.select(profiles, f"ref IN ({marks})", refs, order_by="public_display_name")
    if name is not None:
        found = [row for row in found if name.strip().lower() in row["public_display_name"].lower()]
    return [
        ConnectionObject(
            profile_ref=row["ref"],
            public_display_name=row["public_display_name"],
            email=row["email"],
            home_city=row["home_city"],
            company=row["company"],
        )
        for row in found
    ]


# ---------------------------------------------------------------- trips


@tool(read_only=True)
def list_trips(
    db: Database,
    past: bool = False,
    traveler: Literal["true", "false", "all"] = "all",
    text: text(100) | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[TripSummary]:
    """List the trips the traveler owns or has joined: upcoming and current ones (ending today or later) by start
    date, or past ones, most recent first.

    Args:
        past: True for trips that have ended.
        traveler: "true": trips the traveler is on as a traveler; "false": trips they only follow or plan; "all".
        text: Words the trip's name or primary location must contain.
        page_size: Trips per page.
        cursor: next_cursor of the previous page.
    """
    me = access.me(db)
    today = db.now().date().isoformat()
    found = db.select(
        trips,
        "(owner_ref = ? OR id IN (SELECT trip_id FROM invitees WHERE profile_ref = ? AND status = 'accepted'"
        + (")) AND end_date < ?" if past else ")) AND end_date >= ?"),
        (me["ref"], me["ref"], today),
        order_by="start_date DESC" if past else "start_date",
    )
    joined = {row["trip_id"]: row for row in db.find(invitees, profile_ref=me["ref"], status="accepted")}
    owners = names(db, sorted({row["owner_ref"] for row in found}))
    shown = []
    for row in found:
        invite = joined.get(row["id"])
        on_it = invite is None or invite["is_traveler"]
        if traveler != "all" and on_it != (traveler == "true"):
            continue
        if text is not None and not all(
            w in f"{row['display_name']} {row['primary_location']}".lower() for w in text.lower().split()
        ):
            continue
        role = "owner" if invite is None else ("viewer" if invite["is_read_only"] else "editor")
        shown.append(trip_summary(db, row, role, owners[row["owner_ref"]]))
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def get_trip(db: Database, trip_id: TripId) -> TripObject:
    """Retrieve a trip with its owner and invitees and all its plans in date order.

    Args:
        trip_id: The trip's id, from list_trips.
    """
    trip, role = access.visible_trip(db, access.me(db), trip_id)
    return trip_object(db, trip, role)


@tool()
def create_trip(
    db: Database,
    display_name: Annotated[str, Field(min_length=1, max_length=100)],
    primary_location: Annotated[str, Field(min_length=2, max_length=100)],
    start_date: IsoDate,
    end_date: IsoDate,
    purpose_type_code: Purpose | None = None,
    description: text(1000) | None = None,
    is_private: bool = False,
) -> TripObject:
    """Create a trip owned by the signed-in traveler.

    Args:
        display_name: The trip's name, e.g. "Chicago client visit".
        primary_location: The main destination, e.g. "Chicago, IL".
        start_date: First day of the trip.
        end_date: Last day of the trip.
        purpose_type_code: B business, L leisure, C conference, H holiday.
        description: Free-text notes about the trip.
        is_private: Hide the trip from the traveler's network.
    """
    me = access.me(db)
    if rules.day(end_date, "end_date") < rules.day(start_date, "start_date"):
        raise InvalidRequest("The trip's end date must be on or after its start date.")
    stored = db.insert(
        trips,
        id=rules.trip_id(db),
        owner_ref=me["ref"],
        display_name=display_name.strip(),
        primary_location=primary_location.strip(),
        start_date=start_date,
        end_date=end_date,
        description=description,
        purpose_type_code=purpose_type_code,
        is_private=is_private,
        last_modified=db.now_iso(),
    )
    return trip_object(db, stored, "owner")


@tool()
def update_trip(
    db: Database,
    trip_id: TripId,
    display_name: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
    primary_location: Annotated[str, Field(min_length=2, max_length=100)] | None = None,
    start_date: IsoDate | None = None,
    end_date: IsoDate | None = None,
    purpose_type_code: Purpose | None = None,
    description: text(1000) | None = None,
    is_private: bool | None = None,
) -> TripObject:
    """Change a trip's details; only the fields given change. New dates must still cover every plan in the trip.
    Only the owner can make a trip private or public.

    Args:
        trip_id: The trip's id.
        display_name: New name.
        primary_location: New main destination.
        start_date: New first day.
        end_date: New last day.
        purpose_type_code: B business, L leisure, C conference, H holiday.
        description: New notes (replaces the old ones).
        is_private: Hide the trip from (True) or show it to (False) the traveler's network.
    """
    me = access.me(db)
    trip = access.editable_trip(db, me, trip_id)
    if is_private is not None and trip["owner_ref"] != me["ref"]:
        raise PermissionDenied("403 Forbidden: only the trip's owner can change its privacy.")
    start, end = start_date or trip["start_date"], end_date or trip["end_date"]
    rules.check_trip_dates(db, trip, start, end)
    changes = {
        key: value
        for key, value in {
            "display_name": display_name,
            "primary_location": primary_location,
            "purpose_type_code": purpose_type_code,
            "description": description,
            "is_private": is_private,
        }.items()
        if value is not None
    }
    stored = db.update(trips, trip["id"], start_date=start, end_date=end, last_modified=db.now_iso(), **changes)
    return trip_object(db, stored, access.role(db, me["ref"], stored) or "viewer")


@tool()
def delete_trip(db: Database, trip_id: TripId) -> TripSummary:
    """Delete a trip with all its plans and invitations; confirmation emails filed to it go back to the inbox
    as unfiled. Cannot be undone; only the owner can do it.

    Args:
        trip_id: The trip's id.
    """
    me = access.me(db)
    trip = access.owned_trip(db, me, trip_id, "delete it")
    gone = trip_summary(db, trip, "owner", me["public_display_name"])
    rules.delete_trip_rows(db, trip["id"])
    return gone


# ---------------------------------------------------------------- plans


@tool(read_only=True)
def list_objects(
    db: Database,
    trip_id: TripId | None = None,
    type: PlanType | None = None,
    start_date_from: IsoDate | None = None,
    start_date_to: IsoDate | None = None,
    text: text(100) | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[PlanSummary]:
    """List travel objects (plans) in the traveler's trips by start date, optionally filtered.

    Args:
        trip_id: Only this trip's plans.
        type: air, lodging, car or activity.
        start_date_from: Plans starting on or after this date.
        start_date_to: Plans starting on or before this date.
        text: Words the plan's name, supplier, confirmation number or location must contain.
        page_size: Plans per page.
        cursor: next_cursor of the previous page.
    """
    me = access.me(db)
    where = [
        "trip_id IN (SELECT id FROM trips WHERE owner_ref = ? UNION "
        "SELECT trip_id FROM invitees WHERE profile_ref = ? AND status = 'accepted')",
        "start_date >= ?",
        "start_date <= ?",
    ]
    params: list[object] = [me["ref"], me["ref"], start_date_from or "", start_date_to or "9999"]
    if trip_id is not None:
        access.visible_trip(db, me, trip_id)
        where.append("trip_id = ?")
        params.append(trip_id)
    if type is not None:
        where.append("type = ?")
        params.append(type)
    found = db.select(objects, " AND ".join(where), params, order_by="start_date, start_time")
    if text is not None:
        words = text.lower().split()
        found = [
            row
            for row in found
            if all(
                w
                in " ".join(
                    [row["display_name"], row["supplier_name"], row["supplier_conf_num"] or "", row["location"] or ""]
                ).lower()
                for w in words
            )
        ]
    return paginate([plan_summary(row) for row in found], page_size, cursor)


@tool(read_only=True)
def get_object(db: Database, object_id: ObjectId) -> PlanObject:
    """Retrieve a travel object with all its details; a flight comes with its segments, seats and flight status.

    Args:
        object_id: The object's id, from get_trip or list_objects.
    """
    row = db.find_one(objects, not_found=f"404 Not Found: Object {object_id} not found.", id=object_id)
    access.visible_trip(db, access.me(db), row["trip_id"])
    return plan_object(db, row)


@tool()
def add_flight(
    db: Database,
    trip_id: TripId,
    supplier_name: Annotated[str, Field(min_length=2, max_length=80)],
    segments: Annotated[list[SegmentInput], Field(min_length=1, max_length=8)],
    supplier_conf_num: ConfNum | None = None,
    booking_site_name: text(80) | None = None,
    total_cost: Cost | None = None,
    notes: text(1000) | None = None,
) -> PlanObject:
    """Add a flight (an air object with one or more segments, in flying order) to a trip; the trip's dates
    stretch to cover it.

    Args:
        trip_id: The trip's id.
        supplier_name: The airline, e.g. "United Airlines".
        segments: The flights, each with airline code, flight number, airports, local dates and times.
        supplier_conf_num: The airline's confirmation code (record locator), e.g. "K7PQ2D".
        booking_site_name: Where it was booked, if not with the airline.
        total_cost: What it cost, e.g. "412.80 USD".
        notes: Free-text notes.
    """
    me = access.me(db)
    trip = access.editable_trip(db, me, trip_id)
    flights = [segment.model_dump() for segment in segments]
    stored = rules.insert_flight(
        db, trip, me["ref"], supplier_name, supplier_conf_num, booking_site_name, flights, total_cost, notes
    )
    return plan_object(db, stored)


@tool()
def add_lodging(
    db: Database,
    trip_id: TripId,
    supplier_name: Annotated[str, Field(min_length=2, max_length=100)],
    check_in_date: IsoDate,
    check_out_date: IsoDate,
    address: text(200) | None = None,
    check_in_time: Time | None = None,
    check_out_time: Time | None = None,
    room_type: text(80) | None = None,
    number_guests: Annotated[int, Field(ge=1, le=20)] = 1,
    number_rooms: Annotated[int, Field(ge=1, le=10)] = 1,
    supplier_conf_num: ConfNum | None = None,
    booking_site_name: text(80) | None = None,
    total_cost: Cost | None = None,
    notes: text(1000) | None = None,
) -> PlanObject:
    """Add a hotel or other stay (a lodging object) to a trip; the trip's dates stretch to cover it.

    Args:
        trip_id: The trip's id.
        supplier_name: The hotel's name.
        check_in_date: Check-in day.
        check_out_date: Check-out day (after check-in).
        address: The hotel's address.
        check_in_time: Check-in time, HH:MM.
        check_out_time: Check-out time, HH:MM.
        room_type: e.g. "King, non-smoking".
        number_guests: Guests staying.
        number_rooms: Rooms booked.
        supplier_conf_num: The hotel's confirmation number.
        booking_site_name: Where it was booked, e.g. "Booking.com".
        total_cost: What it cost, e.g. "612.40 EUR".
        notes: Free-text notes.
    """
    me = access.me(db)
    trip = access.editable_trip(db, me, trip_id)
    if rules.day(check_out_date, "check_out_date") <= rules.day(check_in_date, "check_in_date"):
        raise InvalidRequest("Check-out must be at least one day after check-in.")
    stored = rules.insert_plan(
        db,
        trip,
        me["ref"],
        type="lodging",
        display_name=supplier_name.strip(),
        supplier_name=supplier_name.strip(),
        supplier_conf_num=supplier_conf_num,
        booking_site_name=booking_site_name,
        start_date=check_in_date,
        start_time=check_in_time,
        end_date=check_out_date,
        end_time=check_out_time,
        location=address,
        details={"room_type": room_type, "number_guests": number_guests, "number_rooms": number_rooms},
        total_cost=total_cost,
        notes=notes,
    )
    return plan_object(db, stored)


@tool()
def add_car(
    db: Database,
    trip_id: TripId,
    supplier_name: Annotated[str, Field(min_length=2, max_length=80)],
    pickup_date: IsoDate,
    pickup_time: Time,
    dropoff_date: IsoDate,
    dropoff_time: Time,
    pickup_location: Annotated[str, Field(min_length=2, max_length=200)],
    dropoff_location: text(200) | None = None,
    car_type: text(80) | None = None,
    driver_name: text(100) | None = None,
    supplier_conf_num: ConfNum | None = None,
    booking_site_name: text(80) | None = None,
    total_cost: Cost | None = None,
    notes: text(1000) | None = None,
) -> PlanObject:
    """Add a rental car (a car object) to a trip; the trip's dates stretch to cover it.

    Args:
        trip_id: The trip's id.
        supplier_name: The rental company, e.g. "Hertz".
        pickup_date: Pick-up day.
        pickup_time: Pick-up time, HH:MM.
        dropoff_date: Drop-off day.
        dropoff_time: Drop-off time, HH:MM.
        pickup_location: Where the car is picked up, e.g. "Denver International Airport (DEN)".
        dropoff_location: Where it is returned, if not where it was picked up.
        car_type: e.g. "Intermediate SUV".
        driver_name: The driver named on the rental.
        supplier_conf_num: The rental's confirmation number.
        booking_site_name: Where it was booked.
        total_cost: What it cost, e.g. "289.10 USD".
        notes: Free-text notes.
    """
    me = access.me(db)
    trip = access.editable_trip(db, me, trip_id)
    stored = rules.insert_plan(
        db,
        trip,
        me["ref"],
        type="car",
        display_name=f"{supplier_name.strip()} rental",
        supplier_name=supplier_name.strip(),
        supplier_conf_num=supplier_conf_num,
        booking_site_name=booking_site_name,
        start_date=pickup_date,
        start_time=pickup_time,
        end_date=dropoff_date,
        end_time=dropoff_time,
        location=pickup_location.strip(),
        details={
            "car_type": car_type,
            "driver_name": driver_name,
            "dropoff_location": dropoff_location or pickup_location.strip(),
        },
        total_cost=total_cost,
        notes=notes,
    )
    return plan_object(db, stored)


@tool()
def add_activity(
    db: Database,
    trip_id: TripId,
    display_name: Annotated[str, Field(min_length=1, max_length=100)],
    start_date: IsoDate,
    start_time: Time | None = None,
    end_date: IsoDate | None = None,
    end_time: Time | None = None,
    detail_type_code: ActivityType | None = None,
    location_name: text(100) | None = None,
    address: text(200) | None = None,
    supplier_name: text(100) | None = None,
    supplier_conf_num: ConfNum | None = None,
    total_cost: Cost | None = None,
    notes: text(1000) | None = None,
) -> PlanObject:
    """Add an activity (a meeting, concert, show or tour) to a trip; the trip's dates stretch to cover it.

    Args:
        trip_id: The trip's id.
        display_name: What it is, e.g. "Quarterly review with Halvorsen".
        start_date: The day it starts.
        start_time: When it starts, HH:MM.
        end_date: The day it ends (defaults to start_date).
        end_time: When it ends, HH:MM.
        detail_type_code: Concert, Theatre, Meeting or Tour.
        location_name: The venue, e.g. "Halvorsen HQ".
        address: The venue's address.
        supplier_name: Who runs it or sold the tickets.
        supplier_conf_num: Booking or ticket reference.
        total_cost: What it cost, e.g. "95.00 USD".
        notes: Free-text notes.
    """
    me = access.me(db)
    trip = access.editable_trip(db, me, trip_id)
    stored = rules.insert_plan(
        db,
        trip,
        me["ref"],
        type="activity",
        display_name=display_name.strip(),
        supplier_name=(supplier_name or location_name or display_name).strip(),
        supplier_conf_num=supplier_conf_num,
        booking_site_name=None,
        start_date=start_date,
        start_time=start_time,
        end_date=end_date or start_date,
        end_time=end_time,
        location=address,
        details={"detail_type_code": detail_type_code, "location_name": location_name},
        total_cost=total_cost,
        notes=notes,
    )
    return plan_object(db, stored)


@tool()
def update_object(
    db: Database,
    object_id: ObjectId,
    trip_id: TripId | None = None,
    display_name: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
    supplier_conf_num: ConfNum | None = None,
    start_date: IsoDate | None = None,
    start_time: Time | None = None,
    end_date: IsoDate | None = None,
    end_time: Time | None = None,
    location: text(200) | None = None,
    total_cost: Cost | None = None,
    notes: text(1000) | None = None,
) -> PlanObject:
    """Change a plan's details, or move it to another of the traveler's trips (trip_id); only the fields given
    change, and the trip's dates stretch to cover it. A flight's dates and times follow its segments: change
    those with update_segment.

    Args:
        object_id: The object's id.
        trip_id: Move the plan to this trip.
        display_name: New name.
        supplier_conf_num: New confirmation number.
        start_date: New start (check-in, pick-up) day.
        start_time: New start time, HH:MM.
        end_date: New end (check-out, drop-off) day.
        end_time: New end time, HH:MM.
        location: New address or place.
        total_cost: New cost, e.g. "412.80 USD".
        notes: New notes (replace the old ones).
    """
    me = access.me(db)
    row = db.find_one(objects, not_found=f"404 Not Found: Object {object_id} not found.", id=object_id)
    access.editable_trip(db, me, row["trip_id"])
    timing = {"start_date": start_date, "start_time": start_time, "end_date": end_date, "end_time": end_time}
    if row["type"] == "air" and any(value is not None for value in timing.values()):
        raise InvalidRequest("A flight's dates and times come from its segments; change them with update_segment.")
    target = access.editable_trip(db, me, trip_id) if trip_id is not None else db.get(trips, row["trip_id"], "Trip")
    changed = {**row, **{key: value for key, value in timing.items() if value is not None}}
    rules.check_span(changed["start_date"], changed["start_time"], changed["end_date"], changed["end_time"], "The plan")
    if row["type"] == "lodging" and changed["end_date"] <= changed["start_date"]:
        raise InvalidRequest("Check-out must be at least one day after check-in.")
    conf = supplier_conf_num or row["supplier_conf_num"]
    if conf and (target["id"] != row["trip_id"] or supplier_conf_num is not None):
        clash = db.select(objects, "trip_id = ? AND supplier_conf_num = ? AND id != ?", (target["id"], conf, row["id"]))
        if clash:
            raise Conflict(f"Trip {target['id']} already has a plan with confirmation number {conf}.")
    fields = {
        "display_name": display_name,
        "supplier_conf_num": supplier_conf_num,
        "location": location,
        "total_cost": total_cost,
        "notes": notes,
        **timing,
    }
    stored = db.update(
        objects, row["id"], trip_id=target["id"], **{key: value for key, value in fields.items() if value is not None}
    )
    rules.cover(db, target, stored["start_date"], stored["end_date"], db.now_iso())
    return plan_object(db, stored)


@tool()
def update_segment(
    db: Database,
    segment_id: Annotated[str, Field(pattern=r"^\d{6,12}$")],
    start_date: IsoDate | None = None,
    start_time: Time | None = None,
    end_date: IsoDate | None = None,
    end_time: Time | None = None,
    marketing_flight_number: Annotated[str, Field(pattern=r"^\d{1,4}$")] | None = None,
    seats: Annotated[str, Field(min_length=1, max_length=20)] | None = None,
    service_class: Literal["Economy", "Premium Economy", "Business", "First"] | None = None,
) -> PlanObject:
    """Change one flight of an air object (a schedule change, a new seat or cabin); only the fields given change.
    The flight's dates follow, and its trip stretches to cover them.

    Args:
        segment_id: The segment's id, from get_object.
        start_date: New departure day (local).
        start_time: New departure time, HH:MM.
        end_date: New arrival day (local).
        end_time: New arrival time, HH:MM.
        marketing_flight_number: New flight number (same airline).
        seats: New seat assignment, e.g. "14C".
        service_class: New cabin.
    """
    me = access.me(db)
    segment = db.find_one(segments, not_found=f"404 Not Found: Segment {segment_id} not found.", id=segment_id)
    row = db.get(objects, segment["object_id"], "Object")
    access.editable_trip(db, me, row["trip_id"])
    fields = {
        "start_date": start_date,
        "start_time": start_time,
        "end_date": end_date,
        "end_time": end_time,
        "marketing_flight_number": marketing_flight_number,
        "seats": seats,
        "service_class": service_class,
    }
    changes = {key: value for key, value in fields.items() if value is not None}
    changed = {**segment, **changes}
    rules.check_span(
        changed["start_date"], changed["start_time"], changed["end_date"], changed["end_time"], "The flight", True
    )
    db.update(segments, segment["id"], **changes)
    return plan_object(db, rules.resync_flight(db, row))


@tool()
def delete_object(db: Database, object_id: ObjectId) -> PlanSummary:
    """Delete a plan from its trip (a flight goes with its segments); the trip keeps its dates. Cannot be undone.

    Args:
        object_id: The object's id.
    """
    me = access.me(db)
    row = db.find_one(objects, not_found=f"404 Not Found: Object {object_id} not found.", id=object_id)
    access.editable_trip(db, me, row["trip_id"])
    rules.delete_object_rows(db, row["id"])
    return plan_summary(row)


# ---------------------------------------------------------------- sharing


@tool()
def invite_to_trip(
    db: Database, trip_id: TripId, email: Email, is_traveler: bool = True, is_read_only: bool = False
) -> InviteeObject:
    """Invite someone to a trip by email (the owner only); they see it once they accept. A traveler is on the
    trip; a non-traveler only follows or helps plan it. Read-only invitees can't change its plans.

    Args:
        trip_id: The trip's id.
        email: The invitee's email address.
        is_traveler: Whether they travel on this trip.
        is_read_only: View-only access.
    """
    me = access.me(db)
    trip = access.owned_trip(db, me, trip_id, "invite people to it")
    address = email.strip().lower()
    if address == me["email"]:
        raise InvalidRequest("You can't invite yourself to your own trip.")
    if db.find(invitees, trip_id=trip["id"], email=address):
        raise Conflict(f"{address} is already invited to trip {trip['id']}.")
    known = db.find(profiles, email=address)
    stored = db.insert(
        invitees,
        id=db.new_id(invitees, "", width=7),
        trip_id=trip["id"],
        profile_ref=known[0]["ref"] if known else None,
        email=address,
        is_traveler=is_traveler,
        is_read_only=is_read_only,
        status="pending",
    )
    return invitee_object(db, stored)


@tool()
def update_invitee(
    db: Database,
    trip_id: TripId,
    invitee_id: Annotated[str, Field(pattern=r"^\d{1,9}$")],
    is_traveler: bool | None = None,
    is_read_only: bool | None = None,
) -> InviteeObject:
    """Change an invitee's access to a trip (the owner only): traveler or not, read-only or able to edit.

    Args:
        trip_id: The trip's id.
        invitee_id: The invitee's id, from get_trip.
        is_traveler: Whether they travel on this trip.
        is_read_only: View-only access.
    """
    me = access.me(db)
    trip = access.owned_trip(db, me, trip_id, "change who has access")
    row = db.find_one(
        invitees,
        not_found=f"404 Not Found: Invitee {invitee_id} not found on trip {trip['id']}.",
        id=invitee_id,
        trip_id=trip["id"],
    )
    changes = {
        key: value
        for key, value in {"is_traveler": is_traveler, "is_read_only": is_read_only}.items()
        if value is not None
    }
    return invitee_object(db, db.update(invitees, row["id"], **changes))


@tool()
def remove_invitee(
    db: Database, trip_id: TripId, invitee_id: Annotated[str, Field(pattern=r"^\d{1,9}$")]
) -> InviteeObject:
    """Take someone off a trip: the owner removes any invitee, and an invitee may remove themselves (leave it).

    Args:
        trip_id: The trip's id.
        invitee_id: The invitee's id, from get_trip.
    """
    me = access.me(db)
    trip, role = access.visible_trip(db, me, trip_id)
    row = db.find_one(
        invitees,
        not_found=f"404 Not Found: Invitee {invitee_id} not found on trip {trip['id']}.",
        id=invitee_id,
        trip_id=trip["id"],
    )
    if role != "owner" and row["profile_ref"] != me["ref"]:
        raise PermissionDenied("403 Forbidden: only the trip's owner can remove other people from it.")
    gone = invitee_object(db, row)
    db.delete(invitees, row["id"])
    return gone


@tool()
def respond_to_invitation(db: Database, trip_id: TripId, accept: bool) -> InvitationObject:
    """Accept or decline a trip invitation the traveler has not answered yet (see get_profile); declining removes
    it.

    Args:
        trip_id: The trip's id.
        accept: True to join the trip, False to decline.
    """
    me = access.me(db)
    row = db.find_one(
        invitees,
        not_found=f"You have no pending invitation to trip {trip_id}.",
        trip_id=trip_id,
        profile_ref=me["ref"],
        status="pending",
    )
    trip = db.get(trips, trip_id, "Trip")
    if accept:
        db.update(invitees, row["id"], status="accepted")
    else:
        db.delete(invitees, row["id"])
    return InvitationObject(
        trip_id=trip["id"],
        display_name=trip["display_name"],
        owner=names(db, [trip["owner_ref"]])[trip["owner_ref"]],
        start_date=trip["start_date"],
        end_date=trip["end_date"],
        is_traveler=row["is_traveler"],
        is_read_only=row["is_read_only"],
    )


# ---------------------------------------------------------------- alerts and inbox


@tool(read_only=True)
def list_alerts(
    db: Database, unread_only: bool = False, page_size: PageSize = 20, cursor: str | None = None
) -> Page[AlertObject]:
    """The traveler's flight alerts (delays, cancellations, gate changes, check-in reminders), newest first. A
    TripIt Pro feature.

    Args:
        unread_only: Only alerts not read yet.
        page_size: Alerts per page.
        cursor: next_cursor of the previous page.
    """
    me = access.me(db)
    if not me["is_pro"]:
        raise PermissionDenied("403 Forbidden: flight alerts are a TripIt Pro feature.")
    found = db.select(
        alerts,
        "profile_ref = ?" + (" AND is_read = 0" if unread_only else ""),
        (me["ref"],),
        order_by="created_at DESC",
    )
    return paginate([alert_object(db, row) for row in found], page_size, cursor)


@tool(read_only=True)
def list_inbox(
    db: Database,
    status: Literal["unfiled", "filed", "unrecognized"] | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[InboxItemObject]:
    """The confirmation emails the traveler forwarded to plans@tripit.com, newest first, with what TripIt read
    from each.

    Args:
        status: unfiled, filed or unrecognized.
        page_size: Items per page.
        cursor: next_cursor of the previous page.
    """
    me = access.me(db)
    found = db.select(
        inbox,
        "profile_ref = ?" + (" AND status = ?" if status else ""),
        (me["ref"], status) if status else (me["ref"],),
        order_by="received_at DESC",
    )
    return paginate([inbox_object(row) for row in found], page_size, cursor)


@tool()
def file_inbox_item(
    db: Database, inbox_id: Annotated[str, Field(pattern=r"^\d{1,9}$")], trip_id: TripId | None = None
) -> InboxItemObject:
    """Add the plan TripIt read from a forwarded confirmation to a trip. Without trip_id it goes, as TripIt does
    on its own, into the traveler's trip whose dates overlap it (a day either side), or else into a new trip
    named after the place and month.

    Args:
        inbox_id: The inbox item's id.
        trip_id: The trip to file it in.
    """
    me = access.me(db)
    item = db.find_one(
        inbox, not_found=f"404 Not Found: Inbox item {inbox_id} not found.", id=inbox_id, profile_ref=me["ref"]
    )
    if item["status"] == "unrecognized":
        raise Conflict("TripIt couldn't read a plan from this email; add the plan by hand.")
    if item["status"] == "filed":
        raise Conflict(f"Inbox item {inbox_id} is already filed in trip {item['trip_id']}.")
    trip = rules.filing_trip(db, me, item["parsed"], access.editable_trip(db, me, trip_id) if trip_id else None)
    stored = rules.file_parsed(db, trip, me["ref"], item["parsed"])
    return inbox_object(db.update(inbox, item["id"], status="filed", trip_id=trip["id"], object_id=stored["id"]))
