"""The Uber Riders API's objects as output models (rider, locations, products with price details, price and time
estimates, upfront fares, ride requests, history, receipts, places, payment methods, payment profiles) and how
stored rows become them. Amounts are USD strings like "23.45"."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym.values import format_amount

CURRENCY = "USD"


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, CURRENCY)


class RiderObject(BaseModel):
    """The signed-in rider (GET /me), with their Uber Cash and any balance owed."""

    rider_id: str
    first_name: str
    last_name: str
    email: str
    mobile_verified: bool
    rating: float
    promo_code: str
    uber_cash: str
    outstanding_balance: str
    applied_promotions: list[str]


class LocationObject(BaseModel):
    """A place the app's search found, with the coordinates rides use."""

    location_id: str
    name: str
    address: str
    city: str | None
    latitude: float
    longitude: float


class PriceDetails(BaseModel):
    """How a product is priced."""

    base: str
    minimum: str
    cost_per_minute: str
    cost_per_distance: str
    distance_unit: str
    booking_fee: str
    cancellation_fee: str
    currency_code: str


class ProductObject(BaseModel):
    """An Uber product offered at a location."""

    product_id: str
    display_name: str
    product_group: str
    description: str
    capacity: int
    shared: bool
    upfront_fare_enabled: bool
    cash_enabled: bool
    price_details: PriceDetails


class PriceEstimate(BaseModel):
    """A product's estimated price range for a trip."""

    product_id: str
    display_name: str
    estimate: str
    low_estimate: int
    high_estimate: int
    surge_multiplier: float
    duration: int  # seconds
    distance: float  # miles
    currency_code: str


class TimeEstimate(BaseModel):
    """A product's pickup ETA at a location."""

    product_id: str
    display_name: str
    estimate: int  # seconds


class Endpoint(BaseModel):
    """A pickup or drop-off point."""

    address: str
    latitude: float
    longitude: float


class FareObject(BaseModel):
    """An upfront fare (POST /requests/estimate): request the ride with its fare_id before it expires."""

    fare_id: str
    product_id: str
    display_name: str
    value: str
    display: str
    currency_code: str
    expires_at: str
    surge_multiplier: float
    surge_confirmation_id: str | None
    surge_confirmed: bool
    pickup_estimate: int  # minutes
    trip_distance_miles: float
    trip_duration_minutes: int
    start: Endpoint
    end: Endpoint


class Driver(BaseModel):
    """The driver assigned to a ride."""

    name: str
    rating: float
    phone_number: str


class Vehicle(BaseModel):
    """The driver's car."""

    make: str
    model: str
    license_plate: str


class RideObject(BaseModel):
    """A ride request and its status."""

    request_id: str
    status: str
    product_id: str
    display_name: str
    shared: bool
    seat_count: int
    pickup: Endpoint
    destination: Endpoint
    fare: str
    surge_multiplier: float
    profile_id: str
    payment_method_id: str
    requested_at: str
    scheduled_pickup_time: str | None
    accepted_at: str | None
    pickup_time: str | None
    dropoff_time: str | None
    canceled_at: str | None
    driver: Driver | None
    vehicle: Vehicle | None
    expense_memo: str | None
    tip: str
    rating_given: int | None


class HistoryItem(BaseModel):
    """One ride in the rider's history."""

    request_id: str
    status: str
    display_name: str
    request_time: str
    start_address: str
    end_address: str
    distance: float
    total_charged: str | None


class HistoryPage(BaseModel):
    """A page of ride history, newest first (offset pagination)."""

    offset: int
    limit: int
    count: int
    history: list[HistoryItem]


class Charge(BaseModel):
    """A line of a receipt."""

    name: str
    amount: str


class ReceiptObject(BaseModel):
    """A ride's receipt."""

    request_id: str
    charges: list[Charge]
    total_charged: str
    total_fare: str
    currency_code: str
    distance: float
    distance_label: str
    duration_minutes: int
    payment_method_id: str
    profile_id: str


class PlaceObject(BaseModel):
    """A saved place (home, work, or a labelled favourite)."""

    place_id: str
    label: str
    address: str
    latitude: float
    longitude: float


class PaymentMethodObject(BaseModel):
    """One of the rider's payment methods."""

    payment_method_id: str
    type: str
    description: str
    expiration: str | None
    last_used: bool


class ProfileObject(BaseModel):
    """A payment profile and, for a business profile, its organization's ride policy."""

    profile_id: str
    name: str
    type: str
    default_payment_method_id: str | None
    receipt_email: str
    organization: str | None
    allowed_product_groups: list[str] | None
    expense_memo_required: bool


class PromotionResult(BaseModel):
    """A redeemed promotion code."""

    promotion_code: str
    description: str
    credit: str
    uber_cash: str


def rider_object(row: dict[str, Any]) -> RiderObject:
    """A rider row as the API shows it."""
    return RiderObject(
        **{k: row[k] for k in ("rider_id", "first_name", "last_name", "email", "mobile_verified", "rating")},
        promo_code=row["promo_code"],
        uber_cash=usd(row["uber_cash"]),
        outstanding_balance=usd(row["outstanding_balance"]),
        applied_promotions=list(row["applied_promotions"]),
    )


def product_object(row: dict[str, Any]) -> ProductObject:
    """A product row with its price details."""
    return ProductObject(
        **{
            k: row[k]
            for k in (
                "product_id",
                "display_name",
                "product_group",
                "description",
                "capacity",
                "shared",
                "upfront_fare_enabled",
                "cash_enabled",
            )
        },
        price_details=PriceDetails(
            base=usd(row["base"]),
            minimum=usd(row["minimum"]),
            cost_per_minute=usd(row["cost_per_minute"]),
            cost_per_distance=usd(row["cost_per_distance"]),
            distance_unit="mile",
            booking_fee=usd(row["booking_fee"]),
            cancellation_fee=usd(row["cancellation_fee"]),
            currency_code=CURRENCY,
        ),
    )


def fare_object(row: dict[str, Any], product: dict[str, Any]) -> FareObject:
    """A stored upfront fare."""
    return FareObject(
        fare_id=row["fare_id"],
        product_id=row["product_id"],
        display_name=product["display_name"],
        value=usd(row["value"]),
        display=f"${usd(row['value'])}",
        currency_code=CURRENCY,
        expires_at=row["expires_at"],
        surge_multiplier=row["surge_multiplier"],
        surge_confirmation_id=row["surge_confirmation_id"],
        surge_confirmed=row["surge_confirmed"],
        pickup_estimate=product["eta_minutes"],
        trip_distance_miles=row["distance_miles"],
        trip_duration_minutes=row["duration_minutes"],
        start=Endpoint(**row["start"]),
        end=Endpoint(**row["end"]),
    )


def ride_object(row: dict[str, Any], product: dict[str, Any]) -> RideObject:
    """A stored ride request."""
    return RideObject(
        request_id=row["request_id"],
        status=row["status"],
        product_id=row["product_id"],
        display_name=product["display_name"],
        shared=product["shared"],
        seat_count=row["seat_count"],
        pickup=Endpoint(**row["start"]),
        destination=Endpoint(**row["end"]),
        fare=usd(row["fare"]),
        surge_multiplier=row["surge_multiplier"],
        profile_id=row["profile_id"],
        payment_method_id=row["payment_method_id"],
        requested_at=row["requested_at"],
        scheduled_pickup_time=row["scheduled_pickup"],
        accepted_at=row["accepted_at"],
        pickup_time=row["pickup_at"],
        dropoff_time=row["dropoff_at"],
        canceled_at=row["canceled_at"],
        driver=Driver(**row["driver"]) if row["driver"] else None,
        vehicle=Vehicle(**row["vehicle"]) if row["vehicle"] else None,
        expense_memo=row["expense_memo"],
        tip=usd(row["tip"]),
        rating_given=row["rating_given"],
    )


def receipt_object(row: dict[str, Any]) -> ReceiptObject:
    """A charged ride's receipt."""
    return ReceiptObject(
        request_id=row["request_id"],
        charges=[Charge(name=c["name"], amount=usd(c["amount"])) for c in row["charges"]],
        total_charged=usd(row["total_charged"] or 0),
        total_fare=usd(sum(c["amount"] for c in row["charges"] if c["name"] != "Tip")),
        currency_code=CURRENCY,
        distance=row["distance_miles"] if row["status"] == "completed" else 0.0,
        distance_label="miles",
        duration_minutes=row["duration_minutes"] if row["status"] == "completed" else 0,
        payment_method_id=row["payment_method_id"],
        profile_id=row["profile_id"],
    )


def place_object(row: dict[str, Any]) -> PlaceObject:
    """A saved place."""
    return PlaceObject(**{k: row[k] for k in ("place_id", "label", "address", "latitude", "longitude")})


def profile_object(row: dict[str, Any]) -> ProfileObject:
    """A payment profile."""
    return ProfileObject(
        **{k: row[k] for k in ("profile_id", "name", "type", "default_payment_method_id", "receipt_email")},
        organization=row["organization"],
        allowed_product_groups=row["allowed_products"],
        expense_memo_required=row["expense_memo_required"],
    )
