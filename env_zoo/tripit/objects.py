"""TripIt's API objects as output models (Profile, Trip with its invitees, the air, lodging, car and activity
objects with their air segments and flight status, flight alerts, inbox items) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import FLIGHT_STATUS, PURPOSES
from .schema import invitees, objects, profiles, segments


class ConnectionObject(BaseModel):
    """A traveler in the signed-in traveler's network."""

    profile_ref: str
    public_display_name: str
    email: str
    home_city: str
    company: str | None


class InvitationObject(BaseModel):
    """A trip someone invited the signed-in traveler to, not yet answered."""

    trip_id: str
    display_name: str
    owner: str
    start_date: str
    end_date: str
    is_traveler: bool
    is_read_only: bool


class ProfileObject(BaseModel):
    """The signed-in traveler's profile."""

    profile_ref: str
    screen_name: str
    public_display_name: str
    email: str
    home_city: str
    company: str | None
    is_pro: bool = Field(description="TripIt Pro: flight alerts and status")
    pending_invitations: list[InvitationObject]


class SessionObject(BaseModel):
    """Who signed in."""

    profile_ref: str
    public_display_name: str


class InviteeObject(BaseModel):
    """Someone on a trip: the owner or an invitee."""

    invitee_id: str | None
    profile_ref: str | None
    name: str | None
    email: str
    is_owner: bool
    is_traveler: bool
    is_read_only: bool
    status: str = Field(description="owner, pending (not answered yet) or accepted")


class SegmentObject(BaseModel):
    """One flight of an air object, with its flight status."""

    segment_id: str
    marketing_airline_code: str
    marketing_flight_number: str
    start_airport_code: str
    end_airport_code: str
    start_date: str
    start_time: str
    end_date: str
    end_time: str
    seats: str | None
    service_class: str | None
    flight_status: int
    flight_status_text: str
    departure_terminal: str | None
    departure_gate: str | None
    estimated_departure_time: str | None


class PlanObject(BaseModel):
    """A travel object in a trip: an air, lodging, car or activity plan."""

    object_id: str
    trip_id: str
    type: str
    display_name: str
    supplier_name: str
    supplier_conf_num: str | None
    booking_site_name: str | None
    start_date: str
    start_time: str | None
    end_date: str
    end_time: str | None
    location: str | None
    details: dict[str, Any] = Field(
        description="lodging: room_type, number_guests, number_rooms; car: car_type, driver_name, "
        "dropoff_location; activity: detail_type_code, location_name"
    )
    total_cost: str | None
    notes: str | None
    segments: list[SegmentObject]


class PlanSummary(BaseModel):
    """A travel object in a list."""

    object_id: str
    trip_id: str
    type: str
    display_name: str
    supplier_name: str
    supplier_conf_num: str | None
    start_date: str
    start_time: str | None
    end_date: str
    location: str | None


class TripSummary(BaseModel):
    """A trip in a list."""

    trip_id: str
    display_name: str
    primary_location: str
    start_date: str
    end_date: str
    is_private: bool
    role: str = Field(description="owner, editor or viewer")
    owner: str


class TripObject(BaseModel):
    """A trip with its people and its plans in date order."""

    trip_id: str
    display_name: str
    primary_location: str
    start_date: str
    end_date: str
    description: str | None
    purpose: str | None
    is_private: bool
    role: str = Field(description="your role: owner, editor, viewer, or invited (invitation not answered yet)")
    invitees: list[InviteeObject]
    plans: list[PlanSummary]


class AlertObject(BaseModel):
    """A flight alert (TripIt Pro)."""

    alert_id: str
    alert_type: str
    message: str
    created_at: str
    is_read: bool
    segment_id: str | None
    flight: str | None
    trip_id: str | None


class InboxItemObject(BaseModel):
    """A confirmation email forwarded to plans@tripit.com, and what TripIt read from it."""

    inbox_id: str
    from_address: str
    subject: str
    received_at: str
    status: str = Field(description="unfiled, filed, or unrecognized (TripIt could not read it)")
    parsed: dict[str, Any] | None
    trip_id: str | None
    object_id: str | None


def segment_object(row: dict[str, Any]) -> SegmentObject:
    """A stored segment as the API shows it."""
    fields = {key: row[key] for key in SegmentObject.model_fields if key in row}
    return SegmentObject(segment_id=row["id"], flight_status_text=FLIGHT_STATUS[row["flight_status"]], **fields)


def plan_object(db: Database, row: dict[str, Any]) -> PlanObject:
    """A stored travel object with its segments."""
    found = db.find(segments, object_id=row["id"], order_by=[segments.c.start_date, segments.c.start_time])
    fields = {key: row[key] for key in PlanObject.model_fields if key in row}
    return PlanObject(object_id=row["id"], segments=[segment_object(s) for s in found], **fields)


def plan_summary(row: dict[str, Any]) -> PlanSummary:
    """A stored travel object in a list."""
    return PlanSummary(object_id=row["id"], **{key: row[key] for key in PlanSummary.model_fields if key in row})


def names(db: Database, refs: list[str]) -> dict[str, str]:
    """Display names by profile ref."""
    if not refs:
        return {}
    marks = ", ".join("?" for _ in refs)
    return {row["ref"]: row["public_display_name"] for row in db.select(profiles, f"ref IN ({marks})", refs)}


def trip_summary(db: Database, row: dict[str, Any], role: str, owner_name: str) -> TripSummary:
    """A stored trip in a list."""
    return TripSummary(
        trip_id=row["id"],
        display_name=row["display_name"],
        primary_location=row["primary_location"],
        start_date=row["start_date"],
        end_date=row["end_date"],
        is_private=row["is_private"],
        role=role,
        owner=owner_name,
    )


def trip_object(db: Database, row: dict[str, Any], role: str) -> TripObject:
    """A stored trip with its people and plans."""
    people = db.find(invitees, trip_id=row["id"])
    shown = names(db, [row["owner_ref"], *[p["profile_ref"] for p in people if p["profile_ref"]]])
    owner = db.get(profiles, row["owner_ref"], "Profile")
    people_out = [
        InviteeObject(
            invitee_id=None,
            profile_ref=owner["ref"],
            name=owner["public_display_name"],
            email=owner["email"],
            is_owner=True,
            is_traveler=True,
            is_read_only=False,
            status="owner",
        )
    ] + [
        InviteeObject(
            invitee_id=p["id"],
            profile_ref=p["profile_ref"],
            name=shown.get(p["profile_ref"] or ""),
            email=p["email"],
            is_owner=False,
            is_traveler=p["is_traveler"],
            is_read_only=p["is_read_only"],
            status=p["status"],
        )
        for p in people
    ]
    plans = db.find(objects, trip_id=row["id"], order_by=[objects.c.start_date, objects.c.start_time])
    return TripObject(
        trip_id=row["id"],
        display_name=row["display_name"],
        primary_location=row["primary_location"],
        start_date=row["start_date"],
        end_date=row["end_date"],
        description=row["description"],
        purpose=PURPOSES.get(row["purpose_type_code"] or ""),
        is_private=row["is_private"],
        role=role,
        invitees=people_out,
        plans=[plan_summary(p) for p in plans],
    )


def invitee_object(db: Database, row: dict[str, Any]) -> InviteeObject:
    """A stored invitation as the trip shows it."""
    shown = names(db, [row["profile_ref"]]) if row["profile_ref"] else {}
    return InviteeObject(
        invitee_id=row["id"],
        profile_ref=row["profile_ref"],
        name=shown.get(row["profile_ref"] or ""),
        email=row["email"],
        is_owner=False,
        is_traveler=row["is_traveler"],
        is_read_only=row["is_read_only"],
        status=row["status"],
    )


def alert_object(db: Database, row: dict[str, Any]) -> AlertObject:
    """A stored alert, with the flight and trip it is about."""
    flight = trip_id = None
    if row["segment_id"]:
        segment = db.get(segments, row["segment_id"], "Segment")
        flight = f"{segment['marketing_airline_code']}{segment['marketing_flight_number']} {segment['start_date']}"
        trip_id = db.get(objects, segment["object_id"], "Object")["trip_id"]
    return AlertObject(
        alert_id=row["id"],
        alert_type=row["alert_type"],
        message=row["message"],
        created_at=row["created_at"],
        is_read=row["is_read"],
        segment_id=row["segment_id"],
        flight=flight,
        trip_id=trip_id,
    )


def inbox_object(row: dict[str, Any]) -> InboxItemObject:
    """A stored inbox item."""
    return InboxItemObject(inbox_id=row["id"], **{key: row[key] for key in InboxItemObject.model_fields if key in row})
