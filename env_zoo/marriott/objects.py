"""Marriott Bonvoy's member-facing objects as output models (account, point activity, award chart, hotels with
room types and rates, availability, reservations, Free Night Certificates, Suite Night Awards) and how stored rows
become them. Cash amounts are US dollar strings like "289.00"."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount, iso_timestamp

from . import rules
from .schema import certificates, properties, room_types, suite_night_awards

Tier = Literal["MEMBER", "SILVER", "GOLD", "PLATINUM", "TITANIUM", "AMBASSADOR"]
RatePlan = Literal["FLEXIBLE", "MEMBER", "PREPAY", "AAA", "SENIOR"]
PLAN_TERMS = {
    "FLEXIBLE": "Flexible rate: free cancellation until the hotel's deadline",
    "MEMBER": "Member rate: flexible, for signed-in Marriott Bonvoy members",
    "PREPAY": "Prepay and Save: charged at booking, non-refundable, can't be changed",
    "AAA": "AAA/CAA rate: flexible, membership card shown at check-in",
    "SENIOR": "Senior rate: flexible, guests 62 and older",
}


def usd(cents: int) -> str:
    """Cents as a plain US dollar amount."""
    return format_amount(cents, "USD")


class SessionObject(BaseModel):
    """The member now signed in."""

    member_number: str
    first_name: str
    last_name: str
    tier: Tier


class AccountObject(BaseModel):
    """A member's account: points, elite status and what they hold."""

    member_number: str
    name: str
    email: str
    tier: Tier
    points: int
    nights_this_year: int = Field(description="Elite night credits earned this calendar year")
    lifetime_nights: int
    elite_bonus_percent: int = Field(description="Bonus on base points from paid stays")
    next_tier: str | None
    nights_to_next_tier: int
    suite_night_awards: int = Field(description="Unused Suite Night Awards")
    free_night_certificates: int = Field(description="Unused Free Night Certificates")
    open_points_advances: int = Field(description="Unpaid Points Advance reservations (at most 3)")


class PostingObject(BaseModel):
    """One line of point activity."""

    posting_id: str
    posted_on: str
    type: str
    points: int
    elite_nights: int
    description: str
    confirmation_number: str | None


class AwardChartRow(BaseModel):
    """Points a night for a standard room at one award category."""

    category: int
    off_peak: int
    standard: int
    peak: int


class PropertySummary(BaseModel):
    """A hotel in search results."""

    property_code: str
    name: str
    brand: str
    city: str
    country: str
    category: int
    status: str


class RateObject(BaseModel):
    """A rate plan a room type is sold at."""

    plan: RatePlan
    nightly: str
    terms: str


class RoomTypeObject(BaseModel):
    """A kind of room at a hotel."""

    room_code: str
    name: str
    kind: Literal["STANDARD", "PREMIUM", "SUITE"]
    max_occupancy: int
    suite_night_eligible: bool
    rates: list[RateObject]


class PropertyObject(BaseModel):
    """A hotel's details."""

    property_code: str
    name: str
    brand: str
    address: str
    city: str
    country: str
    status: str
    category: int
    peak_months: list[int]
    off_peak_months: list[int]
    cancellation_policy: str
    base_points_per_usd: int
    room_types: list[RoomTypeObject]


class StayPrice(BaseModel):
    """What one rate plan costs for the stay."""

    plan: RatePlan
    nightly: list[str]
    total: str


class AwardPrice(BaseModel):
    """What the stay costs in points (standard rooms only)."""

    points_per_night: list[int]
    free_nights_points: int = Field(description="Points waived by Stay for 5, Pay for 4")
    points_total: int


class RoomAvailability(BaseModel):
    """One room type for the dates asked."""

    room_code: str
    name: str
    kind: str
    available: bool
    unavailable_nights: list[str]
    fits_party: bool
    prices: list[StayPrice]
    award: AwardPrice | None


class AvailabilityObject(BaseModel):
    """Rooms and prices at a hotel for a stay."""

    property_code: str
    arrival: str
    departure: str
    nights: int
    free_cancellation_until: str
    rooms: list[RoomAvailability]


class ReservationObject(BaseModel):
    """A reservation on the member's account."""

    confirmation_number: str
    status: Literal["CONFIRMED", "CANCELLED", "COMPLETED"]
    property_code: str
    hotel: str
    room_code: str
    room: str
    rate_plan: str
    arrival: str
    departure: str
    nights: int
    guests: int
    nightly: list[int] = Field(description="Per night: cents for a paid stay, points for an award stay")
    cash_total: str
    points_total: int
    certificate_id: str | None
    top_up_points: int
    points_advance: bool
    points_due_by: str | None
    points_paid: bool
    free_cancellation_until: str
    upgrade_status: str | None
    upgrade_room: str | None
    credited: bool = Field(description="Points and nights posted (completed stays)")
    special_requests: str | None
    penalty: int = Field(description="Cents (paid) or points (award) kept on cancellation")


class CertificateObject(BaseModel):
    """A Free Night Certificate."""

    certificate_id: str
    source: str
    cap: int = Field(description="Points a night may cost; up to 15,000 more points can top it up")
    expires_on: str
    status: str
    confirmation_number: str | None


class SuiteNightAwardObject(BaseModel):
    """A Suite Night Award."""

    award_id: str
    earned_on: str
    expires_on: str
    status: str
    confirmation_number: str | None


def account_object(db: Database, member: dict[str, Any]) -> AccountObject:
    """A member row as their account."""
    number = member["member_number"]
    snas = len(db.find(suite_night_awards, member_number=number, status="AVAILABLE"))
    held = len(db.find(certificates, member_number=number, status="AVAILABLE"))
    following, to_go = rules.next_tier(member["tier"], member["nights_this_year"])
    return AccountObject(
        member_number=member["member_number"],
        name=f"{member['first_name']} {member['last_name']}",
        email=member["email"],
        tier=member["tier"],
        points=member["points"],
        nights_this_year=member["nights_this_year"],
        lifetime_nights=member["lifetime_nights"],
        elite_bonus_percent=rules.ELITE_BONUS[member["tier"]],
        next_tier=following,
        nights_to_next_tier=to_go,
        suite_night_awards=snas,
        free_night_certificates=held,
        open_points_advances=rules.open_points_advances(db, member["member_number"]),
    )


def cancellation_policy(prop: dict[str, Any]) -> str:
    """The hotel's cancellation policy in words."""
    days = prop["cancel_days"]
    return (
        f"Flexible rates and awards: cancel free until 11:59 p.m. local time {days} day{'s' if days > 1 else ''} "
        "before arrival; later, one night (or one night's points) is charged. Prepay and Save is non-refundable."
    )


def property_object(db: Database, prop: dict[str, Any]) -> PropertyObject:
    """A property row with its room types and rates."""
    rooms = []
    by_room = rules.property_rates(db, prop["code"])
    for row in db.find(room_types, property_code=prop["code"]):
        plans = [
            RateObject(plan=rate["plan"], nightly=usd(rate["nightly"]), terms=PLAN_TERMS[rate["plan"]])
            for rate in by_room.get(row["id"], [])
        ]
        rooms.append(
            RoomTypeObject(
                room_code=row["room_code"],
                name=row["name"],
                kind=row["kind"],
                max_occupancy=row["max_occupancy"],
                suite_night_eligible=row["suite_night_eligible"],
                rates=plans,
            )
        )
    return PropertyObject(
        property_code=prop["code"],
        **{key: prop[key] for key in ("name", "brand", "address", "city", "country", "status", "category")},
        peak_months=prop["peak_months"],
        off_peak_months=prop["off_peak_months"],
        cancellation_policy=cancellation_policy(prop),
        base_points_per_usd=prop["base_points_per_usd"],
        room_types=rooms,
    )


def reservation_object(db: Database, row: dict[str, Any], seen: dict[str, Any] | None = None) -> ReservationObject:
    """A reservation row as the member sees it; `seen` keeps hotels and room types already read (a listing)."""
    seen = {} if seen is None else seen

    def looked_up(key: str, read: Any) -> Any:
        if key not in seen:
            seen[key] = read()
        return seen[key]

    prop = looked_up(row["property_code"], lambda: db.get(properties, row["property_code"], "Hotel"))
    booked = looked_up(row["room_type_id"], lambda: rules.room_by_id(db, row["room_type_id"]))
    upgrade = row["upgrade_room_type_id"]
    upgraded = looked_up(upgrade, lambda: rules.room_by_id(db, upgrade)) if upgrade else None
    keys = ("confirmation_number", "arrival", "departure", "guests", "nightly", "points_total", "certificate_id")
    more = ("top_up_points", "points_advance", "points_due_by", "points_paid", "upgrade_status", "credited")
    return ReservationObject(
        **{key: row[key] for key in keys + more},
        status=rules.live_status(db, row),  # type: ignore[arg-type]
        property_code=prop["code"],
        hotel=prop["name"],
        room_code=booked["room_code"],
        room=booked["name"],
        rate_plan=row["rate_plan"],
        nights=len(row["nightly"]),
        cash_total=usd(row["cash_total"]),
        free_cancellation_until=iso_timestamp(rules.deadline(prop, row["arrival"])),
        upgrade_room=upgraded["name"] if upgraded else None,
        special_requests=row["special_requests"],
        penalty=row["penalty"],
    )


def certificate_object(row: dict[str, Any]) -> CertificateObject:
    """A certificate row."""
    return CertificateObject(
        certificate_id=row["id"], **{k: row[k] for k in CertificateObject.model_fields if k != "certificate_id"}
    )


def suite_night_object(row: dict[str, Any]) -> SuiteNightAwardObject:
    """A Suite Night Award row."""
    return SuiteNightAwardObject(
        award_id=row["id"], **{k: row[k] for k in SuiteNightAwardObject.model_fields if k != "award_id"}
    )
