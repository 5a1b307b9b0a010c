"""OpenTable's API objects as output models (restaurants, availability, slot locks, reservations, waitlist
entries, the diner's profile, rewards and reviews) and how stored rows become them. Money is integer cents (USD)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import DAY_NAMES, fmt, local_now, policy_terms, starts_at
from .schema import (
    diners,
    dining_tables,
    experiences,
    favorites,
    reservations,
    restaurants,
    reviews,
    rewards,
    seatings,
    waitlist_entries,
)

Occasion = Literal["birthday", "anniversary", "date_night", "business_meal", "celebration"]
SeatingOption = Literal["standard", "bar", "outdoor", "counter", "private_room"]


class SessionObject(BaseModel):
    """The diner signed in to OpenTable."""

    diner_id: str
    first_name: str
    email: str


class Ratings(BaseModel):
    """Averages of the restaurant's verified diner reviews."""

    overall: float | None
    food: float | None
    service: float | None
    ambience: float | None
    value: float | None
    review_count: int


class RestaurantSummary(BaseModel):
    """A restaurant in search results."""

    rid: str
    name: str
    cuisine: str
    neighborhood: str
    price_band: str = Field(description="$ ($15 and under), $$ ($30 and under), $$$ ($31 to $50), $$$$ ($50 and over)")
    dining_style: str
    rating: float | None
    review_count: int
    saved: bool


class SeatingObject(BaseModel):
    """A service period and its bookable times."""

    name: str
    days: list[str]
    first_seating: str
    last_seating: str


class ExperienceObject(BaseModel):
    """A special event with its own times and card-guarantee policy."""

    id: str
    name: str
    description: str
    date: str
    times: list[str]
    price_per_person: int = Field(description="cents, paid at the restaurant")
    no_show_fee_per_person: int = Field(description="cents")
    cancellation_window_hours: int


class ReviewSummary(BaseModel):
    """A published diner review."""

    diner: str = Field(description="first name and last initial")
    overall: int
    text: str
    dined_on: str


class RestaurantObject(BaseModel):
    """A restaurant's profile with policies, hours, experiences, ratings and recent reviews."""

    rid: str
    name: str
    cuisine: str
    cuisines: list[str]
    neighborhood: str
    city: str
    address: str
    phone: str
    price_band: str
    dining_style: str
    dress_code: str
    description: str
    max_party_size: int = Field(description="larger parties must call the restaurant")
    cc_party_threshold: int = Field(description="parties of this size or more need a credit card guarantee")
    no_show_fee_per_person: int = Field(description="cents, charged for no-shows and late cancellations")
    cancellation_window_hours: int = Field(description="guaranteed bookings cancel free until this long before")
    booking_window_days: int
    accepts_waitlist: bool
    seatings: list[SeatingObject]
    experiences: list[ExperienceObject]
    ratings: Ratings
    recent_reviews: list[ReviewSummary]
    saved: bool


class SlotObject(BaseModel):
    """A bookable time with the seating options free then."""

    date_time: str = Field(description="local time, YYYY-MM-DDTHH:MM")
    seating_options: list[SeatingOption]
    credit_card_required: bool
    points: int = Field(description="dining points earned when seated (1,000 on bonus-point tables)")
    experience_id: str | None


class AvailabilityObject(BaseModel):
    """Availability around a requested time."""

    rid: str
    party_size: int
    requested: str
    slots: list[SlotObject]


class CancellationPolicy(BaseModel):
    """The fee that applies to a guaranteed booking cancelled late or not honoured."""

    free_cancellation_until: str = Field(description="local time")
    fee_per_person: int = Field(description="cents")
    fee_total: int = Field(description="cents")


class SlotLockObject(BaseModel):
    """A table held for the diner for a few minutes while they complete the booking."""

    slot_lock_id: str
    rid: str
    date_time: str
    party_size: int
    seating_option: str
    experience_id: str | None
    credit_card_required: bool
    cancellation_policy: CancellationPolicy | None
    expires_at: str = Field(description="UTC")


class RestaurantRef(BaseModel):
    """The restaurant of a reservation."""

    rid: str
    name: str
    neighborhood: str


class ReservationObject(BaseModel):
    """A reservation (its id is the confirmation number)."""

    confirmation_number: str
    restaurant: RestaurantRef
    date_time: str
    party_size: int
    seating_option: str
    experience: str | None
    status: Literal["pending", "booked", "seated", "done", "cancelled", "no_show"]
    credit_card_required: bool
    card_hold_status: str | None = Field(
        description="awaiting_confirmation until the diner approves it in their "
        "bank app; then confirmed, released or charged"
    )
    special_request: str
    occasion: str | None
    points: int
    cancellation_policy: CancellationPolicy | None
    reviewed: bool


class CancellationResult(BaseModel):
    """A cancelled reservation and any fee charged."""

    confirmation_number: str
    status: str
    fee_charged: int = Field(description="cents")
    card_hold_status: str | None


class WaitlistObject(BaseModel):
    """A place on a restaurant's same-day waitlist."""

    id: str
    rid: str
    restaurant_name: str
    date: str
    party_size: int
    status: Literal["waiting", "seated", "cancelled"]
    quoted_wait_minutes: int


class CardObject(BaseModel):
    """The diner's saved card."""

    brand: str
    last4: str


class RewardObject(BaseModel):
    """A dining reward bought with points, taken off a bill."""

    id: str
    points: int
    amount: int = Field(description="cents")
    status: str


class SavedRestaurant(BaseModel):
    """A restaurant the diner saved."""

    rid: str
    name: str


class DinerProfile(BaseModel):
    """The signed-in diner's account."""

    id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    member_since: str
    points_balance: int
    card: CardObject | None
    dietary_notes: str
    saved_restaurants: list[SavedRestaurant]
    upcoming_reservations: int
    waitlist: list[WaitlistObject]
    rewards: list[RewardObject]


class RedemptionResult(BaseModel):
    """Points redeemed for a reward."""

    reward: RewardObject
    points_balance: int


class ReviewObject(BaseModel):
    """A review the diner submitted, with the restaurant's updated ratings."""

    id: str
    confirmation_number: str
    rid: str
    overall: int
    food: int
    service: int
    ambience: int
    value: int
    text: str
    dined_on: str
    restaurant_ratings: Ratings


# ---------------------------------------------------------------- rows -> objects

RATING_KEYS = ("overall", "food", "service", "ambience", "value")
SUMMARY_KEYS = ("rid", "name", "cuisine", "neighborhood", "price_band", "dining_style")


NO_RATINGS = Ratings(overall=None, food=None, service=None, ambience=None, value=None, review_count=0)


def _averages(rows: list[dict[str, Any]]) -> Ratings:
    if not rows:
        return NO_RATINGS
    return Ratings(**{k: round(sum(r[k] for r in rows) / len(rows), 1) for k in RATING_KEYS}, review_count=len(rows))


def ratings(db: Database, rid: str) -> Ratings:
    """Average ratings from the restaurant's reviews."""
    return _averages(db.find(reviews, rid=rid))


def saved_rids(db: Database, diner_id: str | None) -> set[str]:
    """The restaurants the diner saved (none when no one is signed in)."""
    return {f["rid"] for f in db.find(favorites, diner_id=diner_id)} if diner_id else set()


def restaurant_summary(rest: dict[str, Any], score: Ratings, saved: bool) -> RestaurantSummary:
    """A restaurant as search results show it."""
    return RestaurantSummary(
        **{k: rest[k] for k in SUMMARY_KEYS}, rating=score.overall, review_count=score.review_count, saved=saved
    )


def restaurant_object(db: Database, rest: dict[str, Any], saved: bool) -> RestaurantObject:
    """A restaurant's full profile: seatings, upcoming experiences, ratings and the five latest reviews."""
    today = local_now(db).date().isoformat()
    latest = sorted(db.find(reviews, rid=rest["rid"]), key=lambda r: (r["dined_on"], r["id"]), reverse=True)[:5]
    authors = {r["diner_id"]: db.get(diners, r["diner_id"], "Diner") for r in latest}
    return RestaurantObject(
        **{k: rest[k] for k in RestaurantObject.model_fields if k in rest},
        seatings=[
            SeatingObject(
                name=s["name"],
                days=[DAY_NAMES[d] for d in s["days"]],
                first_seating=s["first_seating"],
                last_seating=s["last_seating"],
            )
            for s in db.find(seatings, rid=rest["rid"])
        ],
        experiences=[
            ExperienceObject(**{k: e[k] for k in ExperienceObject.model_fields})
            for e in db.find(experiences, rid=rest["rid"], order_by=[experiences.c.date])
            if e["date"] >= today
        ],
        ratings=ratings(db, rest["rid"]),
        recent_reviews=[
            ReviewSummary(
                diner=f"{authors[r['diner_id']]['first_name']} {authors[r['diner_id']]['last_name'][0]}.",
                overall=r["overall"],
                text=r["text"],
                dined_on=r["dined_on"],
            )
            for r in latest
        ],
        saved=saved,
    )


def cancellation_policy(
    rest: dict[str, Any], experience: dict[str, Any] | None, moment: datetime, party_size: int
) -> CancellationPolicy:
    """The late-cancellation and no-show terms of a guaranteed booking."""
    until, fee = policy_terms(rest, experience, moment)
    return CancellationPolicy(free_cancellation_until=fmt(until), fee_per_person=fee, fee_total=fee * party_size)


RESERVATION_KEYS = (
    "date_time",
    "party_size",
    "status",
    "credit_card_required",
    "card_hold_status",
    "special_request",
    "occasion",
    "points",
)


def reservation_object(db: Database, row: dict[str, Any]) -> ReservationObject:
    """A reservation row as the API returns it."""
    rest = db.get(restaurants, row["rid"], "Restaurant")
    experience = db.get(experiences, row["experience_id"], "Experience") if row["experience_id"] else None
    table = db.get(dining_tables, row["table_id"], "Table")
    moment = starts_at(row)
    return ReservationObject(
        confirmation_number=row["id"],
        restaurant=RestaurantRef(rid=rest["rid"], name=rest["name"], neighborhood=rest["neighborhood"]),
        **{k: row[k] for k in RESERVATION_KEYS},
        seating_option=table["section"],
        experience=experience["name"] if experience else None,
        cancellation_policy=(
            cancellation_policy(rest, experience, moment, row["party_size"]) if row["credit_card_required"] else None
        ),
        reviewed=bool(db.find(reviews, reservation_id=row["id"])),
    )


def waitlist_object(db: Database, row: dict[str, Any]) -> WaitlistObject:
    """A waitlist entry with its restaurant's name."""
    rest = db.get(restaurants, row["rid"], "Restaurant")
    return WaitlistObject(**{k: row[k] for k in WaitlistObject.model_fields if k in row}, restaurant_name=rest["name"])


def reward_object(row: dict[str, Any]) -> RewardObject:
    """A dining reward row."""
    return RewardObject(**{k: row[k] for k in RewardObject.model_fields})


PROFILE_KEYS = ("id", "first_name", "last_name", "email", "phone", "member_since", "points_balance", "dietary_notes")


def diner_profile(db: Database, diner: dict[str, Any]) -> DinerProfile:
    """The diner's account as the profile shows it."""
    card = diner["card"]
    saved = [db.get(restaurants, f["rid"], "Restaurant") for f in db.find(favorites, diner_id=diner["id"])]
    upcoming = db.select(reservations, "diner_id = ? AND status IN ('pending', 'booked')", (diner["id"],))
    return DinerProfile(
        **{k: diner[k] for k in PROFILE_KEYS},
        card=CardObject(brand=card["brand"], last4=card["last4"]) if card else None,
        saved_restaurants=[
            SavedRestaurant(rid=r["rid"], name=r["name"]) for r in sorted(saved, key=lambda r: r["name"])
        ],
        upcoming_reservations=len(upcoming),
        waitlist=[waitlist_object(db, w) for w in db.find(waitlist_entries, diner_id=diner["id"], status="waiting")],
        rewards=[reward_object(r) for r in db.find(rewards, diner_id=diner["id"], status="active")],
    )


def review_object(row: dict[str, Any], restaurant_ratings: Ratings) -> ReviewObject:
    """A submitted review with the restaurant's updated averages."""
    return ReviewObject(
        **{k: row[k] for k in ("id", "rid", *RATING_KEYS, "text", "dined_on")},
        confirmation_number=row["reservation_id"],
        restaurant_ratings=restaurant_ratings,
    )
