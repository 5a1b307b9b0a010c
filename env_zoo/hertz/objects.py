"""Hertz's API objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .schema import members, vehicle_classes


class LocationObject(BaseModel):
    """A Hertz rental location with its opening hours, age rules and local fees."""

    location_id: str = Field(description="Hertz location code, e.g. LAXT15")
    name: str
    location_type: str = Field(description="airport or neighborhood")
    airport_code: str | None
    address: str
    city: str
    state: str
    postal_code: str
    country: str
    phone: str
    utc_offset: str
    open_24_hours: bool
    hours: dict[str, str] = Field(description="opening hours per weekday (mon..sun), HH:MM-HH:MM or closed")
    after_hours_return: bool = Field(description="cars may be returned (key drop) while the location is closed")
    min_renter_age: int
    young_renter_fee_per_day: int = Field(description="cents per day for renters under 25")
    concession_fee_pct: float
    facility_charge_per_day: int = Field(description="cents")
    vehicle_license_fee_per_day: int = Field(description="cents")
    sales_tax_pct: float


class VehicleClassObject(BaseModel):
    """A car class (ACRISS/SIPP code) with its minimum renter age and Gold Plus Rewards points per day."""

    sipp_code: str
    class_code: str
    name: str
    example_model: str
    category: str
    collection: str | None
    passengers: int
    large_bags: int
    small_bags: int
    transmission: str
    fuel: str
    min_age: int | None = Field(description="minimum renter age for the class; null: the location's minimum applies")
    points_per_day: int


class ExtraObject(BaseModel):
    """A protection product or piece of equipment that can be added to a reservation."""

    code: str
    name: str
    category: str = Field(description="protection or equipment")
    description: str
    price_per_day: int = Field(description="cents per day, per unit")
    max_charge_per_rental: int | None = Field(description="cents per unit per rental, caps the daily price")
    max_quantity: int
    available_at: list[str] | None = Field(description="location ids offering it; null means every location")


class VehicleOffer(BaseModel):
    """One car class offered for the requested trip."""

    sipp_code: str
    class_code: str
    name: str
    example_model: str
    category: str
    collection: str | None
    passengers: int
    large_bags: int
    available: bool = Field(description="false when sold out for these dates")
    eligible: bool = Field(description="false when the signed-in renter is too young for the class")
    rate_per_day: int = Field(description="Pay Later rate, cents per day")
    pay_now_rate_per_day: int = Field(description="Pay Now (prepaid) rate, cents per day")
    estimated_total: int = Field(description="Pay Later total with taxes and fees, cents")
    points_required: int = Field(description="Gold Plus Rewards points to redeem for the whole rental")
    note: str | None = None


class AvailabilityObject(BaseModel):
    """The car classes and rates for a trip (pickup and return place and time)."""

    pickup_location_id: str
    return_location_id: str
    pickup_datetime: str
    return_datetime: str
    rental_days: int
    drop_fee: int = Field(description="one-way drop fee, cents")
    vehicles: list[VehicleOffer]


class ChargeLine(BaseModel):
    """One line of a quote: an extra, a fee or a tax."""

    code: str
    description: str
    quantity: int = 1
    amount: int = Field(description="cents")


class QuoteObject(BaseModel):
    """A priced quote for one car class, payment type and set of extras."""

    pickup_location_id: str
    return_location_id: str
    pickup_datetime: str
    return_datetime: str
    sipp_code: str
    vehicle: str
    payment_type: str
    available: bool
    rental_days: int
    rate_per_day: int = Field(description="cents; 0 when paid with points")
    base_charge: int
    extras: list[ChargeLine]
    extras_charge: int
    young_renter_charge: int
    drop_fee: int
    fees: list[ChargeLine] = Field(description="taxes and fees, each line")
    taxes_and_fees: int
    estimated_total: int = Field(description="cents; with points, what is still paid at the counter")
    points_required: int


class ExtraOnReservation(BaseModel):
    """An extra booked on a reservation."""

    code: str
    quantity: int


class AdditionalDriver(BaseModel):
    """A driver besides the renter."""

    first_name: str
    last_name: str
    date_of_birth: str
    relationship: str
    fee_waived: bool = Field(description="true for a Gold Plus Rewards member's spouse or domestic partner")


class ReservationObject(BaseModel):
    """A car reservation with its estimated charges (cents)."""

    confirmation_number: str
    member_number: str
    first_name: str
    last_name: str
    status: str = Field(description="confirmed, on_rent, completed, cancelled or no_show")
    pickup_location_id: str
    pickup_datetime: str
    return_location_id: str
    return_datetime: str
    sipp_code: str
    vehicle: str
    payment_type: str = Field(description="pay_later, pay_now (prepaid) or points (Gold Plus Rewards)")
    driver_age: int
    rental_days: int
    rate_per_day: int
    extras: list[ExtraOnReservation]
    additional_drivers: list[AdditionalDriver]
    base_charge: int
    extras_charge: int
    young_renter_charge: int
    additional_driver_charge: int
    drop_fee: int
    taxes_and_fees: int
    estimated_total: int
    prepaid_amount: int
    points_redeemed: int
    cancellation_fee: int
    refund_amount: int
    flight_number: str | None
    created_at: str
    updated_at: str
    cancelled_at: str | None


class ReservationSummary(BaseModel):
    """A reservation as listed."""

    confirmation_number: str
    status: str
    pickup_location_id: str
    pickup_datetime: str
    return_location_id: str
    return_datetime: str
    sipp_code: str
    vehicle: str
    payment_type: str
    estimated_total: int
    points_redeemed: int


class CancellationObject(BaseModel):
    """The outcome of a cancellation."""

    confirmation_number: str
    status: str
    payment_type: str
    cancellation_fee: int = Field(description="cents kept from a Pay Now prepayment")
    refund_amount: int = Field(description="cents refunded to the card")
    points_refunded: int
    points_forfeited: int


class MemberProfile(BaseModel):
    """The signed-in Gold Plus Rewards member's profile."""

    member_number: str
    first_name: str
    last_name: str
    email: str
    phone: str
    date_of_birth: str
    age: int
    tier: str = Field(description="Gold, Five Star or President's Circle")
    points_balance: int
    enrolled_on: str
    partner_member_number: str | None = Field(description="spouse or domestic partner on the profile")
    partner_name: str | None
    license_number: str
    license_state: str
    license_country: str
    license_expiration: str
    preferred_sipp_code: str | None
    rentals_ytd: int


class SessionObject(BaseModel):
    """A signed-in session."""

    member_number: str
    first_name: str
    tier: str


class PointsActivityObject(BaseModel):
    """A Gold Plus Rewards points posting."""

    activity_id: str
    activity_type: str
    points: int
    confirmation_number: str | None
    description: str
    posted_at: str


class PointsTransferObject(BaseModel):
    """A points transfer to the member's spouse or domestic partner."""

    from_member_number: str
    to_member_number: str
    recipient_name: str
    points: int
    points_balance: int = Field(description="the sender's balance after the transfer")


class RentalAgreementObject(BaseModel):
    """The rental agreement opened at the counter."""

    agreement_number: str
    confirmation_number: str
    status: str
    vehicle: str
    pickup_location_id: str
    return_location_id: str
    return_datetime: str
    license_number: str


def vehicle_label(db: Database, sipp_code: str) -> str:
    """'Compact (Nissan Versa or similar)'."""
    row = db.get(vehicle_classes, sipp_code, "Vehicle class")
    return f"{row['name']} ({row['example_model']})"


def reservation_object(db: Database, row: dict[str, Any]) -> ReservationObject:
    """A stored reservation as the API returns it."""
    return ReservationObject(**{**row, "vehicle": vehicle_label(db, row["sipp_code"])})


def reservation_summaries(db: Database, rows: list[dict[str, Any]]) -> list[ReservationSummary]:
    """Stored reservations as listed, the car classes read once."""
    labels = {r["sipp_code"]: f"{r['name']} ({r['example_model']})" for r in db.find(vehicle_classes)}
    fields = [k for k in ReservationSummary.model_fields if k != "vehicle"]
    return [ReservationSummary(**{k: row[k] for k in fields}, vehicle=labels[row["sipp_code"]]) for row in rows]


def member_profile(db: Database, member: dict[str, Any], age: int) -> MemberProfile:
    """A member row as their profile, with their age and their partner's name."""
    partner = member["partner_member_number"]
    partner_row = db.get(members, partner, "Member") if partner else None
    return MemberProfile(
        **{k: member[k] for k in MemberProfile.model_fields if k in member},
        age=age,
        partner_name=f"{partner_row['first_name']} {partner_row['last_name']}" if partner_row else None,
    )


def rental_agreement_object(agreement: dict[str, Any], reservation: dict[str, Any]) -> RentalAgreementObject:
    """An opened rental agreement with the trip it is for."""
    return RentalAgreementObject(
        **{k: agreement[k] for k in ("agreement_number", "confirmation_number", "status", "vehicle", "license_number")},
        pickup_location_id=reservation["pickup_location_id"],
        return_location_id=reservation["return_location_id"],
        return_datetime=reservation["return_datetime"],
    )
