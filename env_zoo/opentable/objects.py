"""OpenTable's API objects as output models: restaurants, availability, slot locks, reservations, waitlist
entries, the diner's profile, rewards and reviews. Money is integer cents (USD)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

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
