"""Rover's owner-facing objects as output models (pets, sitters with services and rates, availability, price
quotes, meet & greets, bookings, cancellation quotes, reviews, cards, messages) and how stored rows become them.
Amounts are USD strings like "45.00"."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from . import rules
from .schema import pets, services, sitters


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, "USD")


class SessionObject(BaseModel):
    """The signed-in owner."""

    owner_id: str
    name: str
    city: str


class PetObject(BaseModel):
    """A pet profile."""

    pet_id: str
    name: str
    species: str
    breed: str
    weight_lbs: int
    size: str | None = Field(description="Rover dog size: small 0-15 lbs, medium 16-40, large 41-100, giant 101+")
    birth_date: str
    sex: str
    spayed_neutered: bool
    microchipped: bool
    house_trained: bool
    friendly_with_dogs: bool
    friendly_with_cats: bool
    friendly_with_children: bool
    energy_level: str
    care_instructions: str
    medications: str
    vet_name: str
    status: str


def pet_object(row: dict[str, Any]) -> PetObject:
    """A stored pet as its profile."""
    size = rules.size_of(row["weight_lbs"]) if row["species"] == "dog" else None
    return PetObject(pet_id=row["id"], size=size, **{k: row[k] for k in PetObject.model_fields if k in row})


class ServiceRate(BaseModel):
    """One service a sitter offers and its rates per unit."""

    service_type: str
    unit: str
    rate: str
    additional_pet_rate: str
    holiday_rate: str
    puppy_rate: str | None


def service_rate(row: dict[str, Any]) -> ServiceRate:
    """A stored service as its rates."""
    return ServiceRate(
        service_type=row["service_type"],
        unit=rules.SERVICE_UNITS[row["service_type"]],
        rate=usd(row["rate"]),
        additional_pet_rate=usd(row["additional_pet_rate"]),
        holiday_rate=usd(row["holiday_rate"]),
        puppy_rate=usd(row["puppy_rate"]) if row["puppy_rate"] is not None else None,
    )


class SitterSummary(BaseModel):
    """A sitter in search results, with the rate of the service searched."""

    sitter_id: str
    name: str
    neighborhood: str
    city: str
    headline: str
    rating: float | None
    review_count: int
    repeat_clients: int
    star_sitter: bool
    service_type: str
    rate: str
    unit: str


class SitterProfile(BaseModel):
    """A sitter's profile: services and rates, pet preferences and cancellation policy."""

    sitter_id: str
    name: str
    neighborhood: str
    city: str
    zip_code: str
    headline: str
    bio: str
    rating: float | None
    review_count: int
    repeat_clients: int
    star_sitter: bool
    background_checked: bool
    status: str = Field(description="active, or away (not taking requests)")
    services: list[ServiceRate]
    max_pets: int
    dog_sizes: list[str]
    accepts_cats: bool
    accepts_puppies: bool
    cancellation_policy: str
    cancellation_policy_details: str


def sitter_profile(db: Database, row: dict[str, Any]) -> SitterProfile:
    """A stored sitter as their profile."""
    offered = db.find(services, sitter_id=row["id"], order_by=[services.c.service_type])
    return SitterProfile(
        sitter_id=row["id"],
        rating=row["rating"] / 100 if row["rating"] is not None else None,
        services=[service_rate(s) for s in offered],
        cancellation_policy_details=rules.POLICY_TEXT[row["cancellation_policy"]],
        **{k: row[k] for k in SitterProfile.model_fields if k in row and k not in ("rating", "sitter_id")},
    )


class AvailabilityDay(BaseModel):
    """Whether a sitter can take more pets on a date."""

    date: str
    available: bool
    pets_booked: int
    max_pets: int


class PriceQuote(BaseModel):
    """What a booking would cost."""

    sitter_id: str
    service_type: str
    start_date: str
    end_date: str
    units: int
    unit: str
    unit_price: str = Field(description="Per unit for all the pets")
    holiday_rate_applied: bool
    subtotal: str
    service_fee: str
    total: str
    available: bool
    unavailable_reason: str | None


class MeetGreetObject(BaseModel):
    """A Meet & Greet with a sitter."""

    meet_greet_id: str
    sitter_id: str
    sitter_name: str
    pets: list[str]
    date: str
    time: str
    location: str
    note: str | None
    status: str


def meet_greet_object(db: Database, row: dict[str, Any]) -> MeetGreetObject:
    """A stored meet & greet."""
    names = [db.get(pets, pet_id)["name"] for pet_id in row["pet_ids"]]
    return MeetGreetObject(
        meet_greet_id=row["id"],
        sitter_name=db.get(sitters, row["sitter_id"])["name"],
        pets=names,
        **{k: row[k] for k in ("sitter_id", "date", "time", "location", "note", "status")},
    )


class BookingObject(BaseModel):
    """A booking request or booked service."""

    booking_id: str
    status: str = Field(description="pending, accepted, booked, completed, declined, expired or canceled")
    sitter_id: str
    sitter_name: str
    service_type: str
    pet_ids: list[str]
    pets: list[str]
    start_date: str
    end_date: str
    visits_per_day: int
    units: int
    unit_price: str
    holiday_rate_applied: bool
    subtotal: str
    service_fee: str
    total: str
    cancellation_policy: str
    accept_by: str | None = Field(description="For an accepted request: book it before this time or it expires")
    payment_method_id: str | None
    cancel_reason: str | None
    refund: str | None


def booking_object(db: Database, row: dict[str, Any]) -> BookingObject:
    """A stored booking with its live status."""
    names = [db.get(pets, pet_id)["name"] for pet_id in row["pet_ids"]]
    return BookingObject(
        booking_id=row["id"],
        status=rules.live_status(db, row),
        sitter_name=db.get(sitters, row["sitter_id"])["name"],
        pets=names,
        unit_price=usd(row["unit_price"]),
        subtotal=usd(row["subtotal"]),
        service_fee=usd(row["service_fee"]),
        total=usd(row["total"]),
        cancellation_policy=rules.policy_for(row),
        accept_by=rules.accepted_deadline(row),
        refund=usd(row["refund"]) if row["refund"] is not None else None,
        **{
            k: row[k]
            for k in (
                "sitter_id",
                "service_type",
                "pet_ids",
                "start_date",
                "end_date",
                "visits_per_day",
                "units",
                "holiday_rate_applied",
                "payment_method_id",
                "cancel_reason",
            )
        },
    )


class CancellationQuote(BaseModel):
    """What canceling a booking now would refund."""

    booking_id: str
    status: str
    cancellation_policy: str
    policy_details: str
    full_refund_until: str | None
    service_refund: str
    service_fee_refund: str
    total_refund: str
    total_paid: str


class ReviewObject(BaseModel):
    """An owner's review of a sitter."""

    review_id: str
    sitter_id: str
    booking_id: str | None
    author: str
    service_type: str
    rating: int
    text: str
    tip: str
    created_date: str


class PaymentMethodObject(BaseModel):
    """A saved card."""

    payment_method_id: str
    brand: str
    last4: str
    exp_month: int
    exp_year: int
    is_default: bool


class MessageObject(BaseModel):
    """A message in a conversation with a sitter."""

    message_id: str
    sitter_id: str
    sender: str
    text: str
    sent_at: str
