"""Lyft's rider-facing objects as output models (profile, places, ride types with pricing details, ETAs, cost
estimates, rides with driver and vehicle, receipts, payment methods, saved places, lost-item reports) and how
stored rows become them. Amounts are integer cents with a currency, as Lyft's API gives them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .schema import drivers, payment_methods

CURRENCY = "USD"


class Profile(BaseModel):
    """The logged-in rider."""

    id: str
    first_name: str
    last_name: str
    email: str
    home_region: str
    has_taken_a_ride: bool


class PlaceObject(BaseModel):
    """A searchable place with the coordinates rides take."""

    place_id: str
    name: str
    address: str
    lat: float
    lng: float
    region: str


class PricingDetails(BaseModel):
    """A ride type's rate card, in cents."""

    base_charge: int
    cost_per_mile: int
    cost_per_minute: int
    cost_minimum: int
    trust_and_service: int
    cancel_penalty_amount: int
    currency: str = CURRENCY


class RideTypeObject(BaseModel):
    """A ride type offered at a location."""

    ride_type: str
    display_name: str
    seats: int
    schedulable: bool
    pricing_details: PricingDetails


class EtaObject(BaseModel):
    """How soon a ride type's driver could reach a pickup point."""

    ride_type: str
    display_name: str
    eta_seconds: int | None = Field(description="null: no drivers of this type nearby")
    is_valid_estimate: bool


class CostEstimate(BaseModel):
    """A ride type's estimated cost between two points."""

    ride_type: str
    display_name: str
    estimated_cost_cents_min: int
    estimated_cost_cents_max: int
    estimated_distance_miles: float
    estimated_duration_seconds: int
    primetime_percentage: str
    primetime_confirmation_token: str | None = Field(
        description="Pass to request_ride to accept Prime Time; null when there is none"
    )
    currency: str = CURRENCY
    is_valid_estimate: bool


class Location(BaseModel):
    """A ride's pickup or drop-off point."""

    lat: float
    lng: float
    address: str


class Vehicle(BaseModel):
    """The driver's car."""

    make: str
    model: str
    year: int
    color: str
    license_plate: str


class DriverObject(BaseModel):
    """The matched driver."""

    first_name: str
    phone_number: str
    rating: float


class LineItem(BaseModel):
    """One line of a price or receipt."""

    type: str
    amount: int
    currency: str = CURRENCY


class RideObject(BaseModel):
    """A ride with its status, places, driver, price and what the rider has done with it."""

    ride_id: str
    status: str
    ride_type: str
    origin: Location
    destination: Location
    party_size: int
    requested_at: str
    scheduled_pickup_at: str | None
    accepted_at: str | None
    eta_at: str | None = Field(description="When the driver is now due at pickup")
    pickup_at: str | None
    dropoff_at: str | None
    canceled_at: str | None
    canceled_by: str | None
    primetime_percentage: str
    distance_miles: float
    duration_seconds: int
    price: LineItem = Field(description="Fare charged, or the upfront price until drop-off")
    line_items: list[LineItem]
    payment_method: str
    driver: DriverObject | None
    vehicle: Vehicle | None
    rating: int | None
    feedback: str | None
    tip: int
    cancellation_fee: int


class RideSummary(BaseModel):
    """A ride in the rider's history."""

    ride_id: str
    status: str
    ride_type: str
    origin: str
    destination: str
    requested_at: str
    scheduled_pickup_at: str | None
    price: int
    currency: str = CURRENCY


class CancellationCost(BaseModel):
    """What cancelling a ride now costs, with the token that accepts the fee."""

    ride_id: str
    cancellable: bool
    reason: str | None = Field(description="Why the ride can't be cancelled; null when it can")
    amount: int
    currency: str = CURRENCY
    token: str | None = Field(description="cancel_confirmation_token for cancel_ride; null when cancelling is free")
    token_duration: int | None = Field(description="Seconds the token stays valid")


class Charge(BaseModel):
    """A payment taken for a ride."""

    amount: int
    currency: str = CURRENCY
    payment_method: str


class ReceiptObject(BaseModel):
    """What a ride cost: its line items and the charges taken."""

    ride_id: str
    status: str
    line_items: list[LineItem]
    charges: list[Charge]
    total: int
    currency: str = CURRENCY
    requested_at: str


class PaymentMethodObject(BaseModel):
    """A payment method on the rider's account."""

    payment_method_id: str
    type: str
    brand: str | None
    last4: str | None
    expires: str | None
    label: str
    is_default: bool


class SavedPlaceObject(BaseModel):
    """A saved place (Home, Work or a favourite)."""

    place_id: str
    label: str
    name: str
    address: str
    lat: float
    lng: float


class LostItemObject(BaseModel):
    """A lost-item report and where it stands."""

    report_id: str
    ride_id: str
    description: str
    contact_phone: str
    status: str = Field(description="reported | driver_has_item | driver_no_item | return_arranged | returned")
    reported_at: str
    return_address: str | None
    return_fee: int


def payment_label(db: Database, payment_method_id: str) -> str:
    """How a payment method is shown on a ride: its label and last digits."""
    row = db.get(payment_methods, payment_method_id, "Payment method")
    return f"{row['label']} ({row['last4']})" if row["last4"] else row["label"]


def ride_object(db: Database, row: dict[str, Any]) -> RideObject:
    """A stored ride as the API shows it."""
    driver = db.get(drivers, row["driver_id"], "Driver") if row["driver_id"] else None
    lines = [LineItem(type=line["type"], amount=line["amount"]) for line in row["line_items"]]
    return RideObject(
        ride_id=row["ride_id"],
        status=row["status"],
        ride_type=row["ride_type"],
        origin=Location(**row["origin"]),
        destination=Location(**row["destination"]),
        party_size=row["party_size"],
        requested_at=row["requested_at"],
        scheduled_pickup_at=row["scheduled_pickup_at"],
        accepted_at=row["accepted_at"],
        eta_at=row["eta_at"],
        pickup_at=row["pickup_at"],
        dropoff_at=row["dropoff_at"],
        canceled_at=row["canceled_at"],
        canceled_by=row["canceled_by"],
        primetime_percentage=f"{row['primetime_percentage']}%",
        distance_miles=row["distance_miles"],
        duration_seconds=row["duration_seconds"],
        price=LineItem(type="price", amount=row["price"]),
        line_items=lines,
        payment_method=payment_label(db, row["payment_method_id"]),
        driver=None
        if driver is None
        else DriverObject(
            first_name=driver["first_name"], phone_number=driver["phone_number"], rating=driver["rating"]
        ),
        vehicle=None if driver is None else Vehicle(**driver["vehicle"]),
        rating=row["rating"],
        feedback=row["feedback"],
        tip=row["tip"],
        cancellation_fee=row["cancel_fee"],
    )


def ride_summary(row: dict[str, Any]) -> RideSummary:
    """A stored ride as a history line."""
    return RideSummary(
        ride_id=row["ride_id"],
        status=row["status"],
        ride_type=row["ride_type"],
        origin=row["origin"]["address"],
        destination=row["destination"]["address"],
        requested_at=row["requested_at"],
        scheduled_pickup_at=row["scheduled_pickup_at"],
        price=row["price"] if row["status"] != "canceled" else row["cancel_fee"],
    )


def lost_item_object(row: dict[str, Any]) -> LostItemObject:
    """A stored lost-item report."""
    return LostItemObject(**{key: row[key] for key in LostItemObject.model_fields})


def payment_method_object(row: dict[str, Any]) -> PaymentMethodObject:
    """A stored payment method."""
    return PaymentMethodObject(**{key: row[key] for key in PaymentMethodObject.model_fields})


def saved_place_object(row: dict[str, Any]) -> SavedPlaceObject:
    """A stored saved place."""
    return SavedPlaceObject(**{key: row[key] for key in SavedPlaceObject.model_fields})
