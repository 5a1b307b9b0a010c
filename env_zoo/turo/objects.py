"""Turo's objects as output models (listings with rules and Extras, quotes, trips with their price breakdown,
change requests, check-in and checkout records, reimbursement requests, reviews, cards, messages) and how stored
rows become them. Amounts are USD strings like "45.00"."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from . import rules
from .schema import accounts, extras, protection_plans, reimbursements, trip_changes, trip_photos, vehicles


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, "USD")


class SessionObject(BaseModel):
    """The signed-in account."""

    account_id: str
    name: str
    role: str = Field(description="guest or host")
    city: str


class ExtraObject(BaseModel):
    """An Extra a host offers with a car."""

    extra_id: str
    name: str
    price: str
    per: str = Field(description="day or trip")
    max_quantity: int


class PlanObject(BaseModel):
    """A guest protection plan."""

    plan_id: str
    name: str
    percent_of_trip_price: int
    out_of_pocket_max: str
    description: str


class VehicleSummary(BaseModel):
    """A listing in search results."""

    vehicle_id: str
    title: str = Field(description="year make model")
    vehicle_type: str
    neighborhood: str
    seats: int
    fuel_type: str
    daily_price: str
    distance_per_day: int | None = Field(description="miles included a day; null = unlimited")
    instant_book: bool
    rating: float | None
    trip_count: int
    all_star_host: bool


class VehicleListing(BaseModel):
    """A vehicle's full listing: its rules, pricing, discounts, Extras and host."""

    vehicle_id: str
    title: str
    make: str
    model: str
    year: int
    vehicle_type: str
    vehicle_class: str = Field(description="economy, standard, deluxe or super_deluxe (age limits 21, 21, 25, 30)")
    color: str
    city: str
    neighborhood: str
    seats: int
    fuel_type: str
    transmission: str
    daily_price: str
    distance_per_day: int | None
    extra_mile_fee: str
    discount_3_day: int
    discount_7_day: int
    discount_30_day: int
    min_trip_days: int
    max_trip_days: int
    advance_notice_hours: int
    instant_book: bool
    pets_allowed: bool
    description: str
    rating: float | None
    trip_count: int
    status: str
    host_id: str
    host_name: str
    all_star_host: bool
    extras: list[ExtraObject]


def vehicle_title(row: dict[str, Any]) -> str:
    """ "2021 Toyota RAV4"."""
    return f"{row['year']} {row['make']} {row['model']}"


def extra_object(row: dict[str, Any]) -> ExtraObject:
    """A stored Extra."""
    return ExtraObject(
        extra_id=row["id"],
        name=row["name"],
        price=usd(row["price"]),
        per=row["per"],
        max_quantity=row["max_quantity"],
    )


def vehicle_listing(db: Database, row: dict[str, Any]) -> VehicleListing:
    """A stored vehicle as its listing."""
    host = db.get(accounts, row["host_id"], "Host")
    offered = [extra_object(e) for e in db.find(extras, vehicle_id=row["id"])]
    copied = {k: row[k] for k in VehicleListing.model_fields if k in row and k not in ("daily_price", "rating")}
    return VehicleListing(
        vehicle_id=row["id"],
        title=vehicle_title(row),
        daily_price=usd(row["daily_price"]),
        extra_mile_fee=usd(row["extra_mile_fee"]),
        rating=row["rating"] / 100 if row["rating"] is not None else None,
        host_name=host["name"],
        all_star_host=host["all_star_host"],
        extras=offered,
        **{k: v for k, v in copied.items() if k not in ("extra_mile_fee",)},
    )


def plan_object(row: dict[str, Any]) -> PlanObject:
    """A stored protection plan."""
    return PlanObject(
        plan_id=row["id"],
        name=row["name"],
        percent_of_trip_price=row["percent_of_trip_price"],
        out_of_pocket_max=usd(row["out_of_pocket_max"]),
        description=row["description"],
    )


class PriceBreakdown(BaseModel):
    """A trip's costs."""

    days: int
    daily_price: str
    trip_price: str
    discount: str
    trip_fee: str
    protection_cost: str
    extras_cost: str
    young_driver_fee: str
    total: str
    distance_allowed: int | None = Field(description="miles for the whole trip; null = unlimited")


def breakdown(row: dict[str, Any]) -> PriceBreakdown:
    """A priced trip (or quote) as its breakdown."""
    money = ("daily_price", "trip_price", "discount", "trip_fee", "protection_cost", "extras_cost")
    return PriceBreakdown(
        days=row["days"],
        young_driver_fee=usd(row["young_driver_fee"]),
        total=usd(row["total"]),
        distance_allowed=row["distance_allowed"],
        **{k: usd(row[k]) for k in money},
    )


class TripQuote(BaseModel):
    """What a trip would cost, and whether the car is free then."""

    vehicle_id: str
    start_at: str
    end_at: str
    protection_plan: str
    price: PriceBreakdown
    available: bool
    unavailable_reason: str | None
    instant_book: bool


class ChangeObject(BaseModel):
    """A request to change a trip's times."""

    change_id: str
    trip_id: str
    new_start_at: str
    new_end_at: str
    new_days: int
    price_difference: str = Field(description="charged when positive, refunded when negative")
    message: str | None
    status: str
    requested_at: str
    expires_at: str


def change_object(row: dict[str, Any]) -> ChangeObject:
    """A stored change request."""
    return ChangeObject(
        change_id=row["id"],
        price_difference=usd(row["price_difference"]),
        **{k: row[k] for k in ChangeObject.model_fields if k in row and k != "price_difference"},
    )


class Reading(BaseModel):
    """A check-in or checkout record."""

    odometer: int | None
    fuel_percent: int | None
    at: str | None
    photos: list[str]


class ReimbursementObject(BaseModel):
    """A host's reimbursement request for a trip."""

    reimbursement_id: str
    trip_id: str
    kind: str
    amount: str
    description: str
    status: str
    dispute_reason: str | None
    requested_at: str
    due_at: str = Field(description="the guest pays or disputes by then")


def reimbursement_object(row: dict[str, Any]) -> ReimbursementObject:
    """A stored reimbursement request."""
    return ReimbursementObject(
        reimbursement_id=row["id"],
        amount=usd(row["amount"]),
        **{k: row[k] for k in ReimbursementObject.model_fields if k in row and k != "amount"},
    )


class TripObject(BaseModel):
    """A trip (or trip request) with its vehicle, times, price, changes, readings and reimbursements."""

    trip_id: str
    status: str = Field(description="pending, booked, in_progress, completed, canceled, declined or expired")
    vehicle_id: str
    vehicle: str
    guest_id: str
    guest_name: str
    host_id: str
    host_name: str
    start_at: str
    end_at: str
    protection_plan: str
    extras: list[dict[str, Any]]
    price: PriceBreakdown
    extra_mile_fee: str
    payment_method_id: str | None
    requested_at: str
    booked_at: str | None
    free_cancellation_until: str | None
    changes: list[ChangeObject]
    check_in: Reading
    checkout: Reading
    distance_driven: int | None
    canceled_by: str | None
    cancel_reason: str | None
    cancellation_fee: str | None
    refund: str | None
    reimbursements: list[ReimbursementObject]


def trip_object(db: Database, row: dict[str, Any]) -> TripObject:
    """A stored trip as the trip page shows it."""
    car = db.get(vehicles, row["vehicle_id"], "Vehicle")
    guest = db.get(accounts, row["guest_id"], "Guest")
    host = db.get(accounts, row["host_id"], "Host")
    photos = db.find(trip_photos, trip_id=row["id"])
    status = rules.live_status(db, row)
    offered = {e["id"]: e["name"] for e in db.find(extras, vehicle_id=row["vehicle_id"])}
    driven = None
    if row["checkin_odometer"] is not None and row["checkout_odometer"] is not None:
        driven = row["checkout_odometer"] - row["checkin_odometer"]
    free_until = None
    if status in ("pending", "booked"):
        free_until = rules.text_of(rules.free_cancel_until(row))
    return TripObject(
        trip_id=row["id"],
        status=status,
        vehicle=vehicle_title(car),
        guest_name=guest["name"],
        host_name=host["name"],
        extras=[{**e, "name": offered.get(e["extra_id"], e["extra_id"])} for e in row["extras"]],
        price=breakdown(row),
        extra_mile_fee=usd(row["extra_mile_fee"]),
        free_cancellation_until=free_until,
        changes=[change_object(c) for c in db.find(trip_changes, trip_id=row["id"], order_by=[trip_changes.c.id])],
        check_in=Reading(
            odometer=row["checkin_odometer"],
            fuel_percent=row["checkin_fuel"],
            at=row["checkin_at"],
            photos=[p["angle"] for p in photos if p["phase"] == "check_in"],
        ),
        checkout=Reading(
            odometer=row["checkout_odometer"],
            fuel_percent=row["checkout_fuel"],
            at=row["checkout_at"],
            photos=[p["angle"] for p in photos if p["phase"] == "checkout"],
        ),
        distance_driven=driven,
        cancellation_fee=usd(row["cancellation_fee"]) if row["cancellation_fee"] is not None else None,
        refund=usd(row["refund"]) if row["refund"] is not None else None,
        reimbursements=[reimbursement_object(r) for r in db.find(reimbursements, trip_id=row["id"])],
        **{
            k: row[k]
            for k in (
                "vehicle_id",
                "guest_id",
                "host_id",
                "start_at",
                "end_at",
                "protection_plan",
                "payment_method_id",
                "requested_at",
                "booked_at",
                "canceled_by",
                "cancel_reason",
            )
        },
    )


class TripSummary(BaseModel):
    """A trip in the Trips list."""

    trip_id: str
    status: str
    vehicle_id: str
    vehicle: str
    guest_name: str
    start_at: str
    end_at: str
    total: str


class CancellationQuote(BaseModel):
    """What canceling a trip now would cost."""

    trip_id: str
    status: str
    free_cancellation_until: str | None
    cancellation_fee: str
    refund: str
    total_paid: str
    host_penalty: str | None = Field(description="for a host canceling: the host's fee")


class ReviewObject(BaseModel):
    """A guest's review of a car."""

    review_id: str
    author: str
    rating: int
    text: str
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
    """A message in a trip's thread."""

    message_id: str
    trip_id: str
    sender_id: str
    sender_name: str
    text: str
    sent_at: str


def plans(db: Database) -> list[PlanObject]:
    """Every protection plan."""
    return [plan_object(r) for r in db.find(protection_plans)]
