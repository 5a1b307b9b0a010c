"""Uber Riders API tools for a signed-in rider: find places, the products at a location and their price and time
estimates, get an upfront fare and request a ride (now or scheduled), follow, redirect or cancel it, read ride
history and receipts, tip and rate drivers, and manage saved places, payment profiles, an outstanding balance and
promotion codes. The rider signs in and accepts surge pricing themselves."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, tool
from envfactory_gym.fields import ErrorText, IsoTimestamp, NonBlankText, text
from envfactory_gym.values import minor_units

from . import access, rules
from .objects import (
    FareObject,
    HistoryItem,
    HistoryPage,
    LocationObject,
    PaymentMethodObject,
    PlaceObject,
    PriceEstimate,
    ProductObject,
    ProfileObject,
    PromotionResult,
    ReceiptObject,
    RideObject,
    RiderObject,
    TimeEstimate,
    fare_object,
    place_object,
    product_object,
    profile_object,
    receipt_object,
    ride_object,
    rider_object,
    usd,
)
from .schema import fares, locations, payment_methods, places, profiles, promotions, requests, riders

Latitude = Annotated[float, Field(ge=-90, le=90), ErrorText("latitude must be between -90 and 90.")]
Longitude = Annotated[float, Field(ge=-180, le=180), ErrorText("longitude must be between -180 and 180.")]
Uuid = Annotated[
    str,
    Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"),
    ErrorText("Invalid id; Uber ids are UUIDs like a1111c8c-c720-46c3-8534-2fcdd730040d."),
]
PlaceId = Annotated[
    str, Field(pattern=r"^[a-z0-9_]{2,30}$"), ErrorText("place_id is home, work or a saved place's id like gym.")
]
SeatCount = Annotated[int, Field(ge=1, le=2), ErrorText("seat_count must be 1 or 2.")]
TipAmount = Annotated[
    str, Field(pattern=r"^\d{1,3}(\.\d{2})?$"), ErrorText('amount is dollars like "5" or "7.50", up to 999.')
]


def _endpoint(
    db: Database, rider: dict, place_id: str | None, latitude: float | None, longitude: float | None, which: str
) -> dict:
    """A trip end from a saved place or from coordinates."""
    if place_id is not None:
        place = access.own_place(db, rider, place_id)
        return {"address": place["address"], "latitude": place["latitude"], "longitude": place["longitude"]}
    if latitude is None or longitude is None:
        raise InvalidRequest(f"Give {which}_place_id or both {which}_latitude and {which}_longitude.")
    return rules.point(db, latitude, longitude)


def _ride(db: Database, row: dict) -> RideObject:
    return ride_object(row, rules.product(db, row["product_id"]))


# ---------------------------------------------------------------- account


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> RiderObject:
    """(Rider only) The rider signs in to the Uber app with their email and the code texted to their phone; the
    assistant then acts on that account.

    Args:
        email: The account's email address.
    """
    return rider_object(access.sign_in(db, email))


@tool(read_only=True)
def get_me(db: Database) -> RiderObject:
    """The signed-in rider's profile: name, email, rating, invite code, Uber Cash, any outstanding balance and the
    promotion codes already redeemed."""
    return rider_object(access.me(db))


@tool()
def apply_promo_code(db: Database, code: Annotated[str, Field(pattern=r"^[A-Za-z0-9]{3,20}$")]) -> PromotionResult:
    """Redeem a promotion code; its credit goes to the rider's Uber Cash. A code is used once per rider, before it
    expires; some only work in one city or before a rider's first trip.

    Args:
        code: The promotion code, e.g. "SFRIDE10" (any case).
    """
    rider = access.me(db)
    wanted = code.upper()
    promo = db.find_one(promotions, code=wanted, not_found=f"Promotion code {wanted} is not valid.")
    if wanted in rider["applied_promotions"]:
        raise Conflict(f"Promotion code {wanted} has already been applied to this account.")
    if promo["expires_at"] <= db.now_iso():
        raise Conflict(f"Promotion code {wanted} has expired.")
    rides = db.find(requests, rider_id=rider["rider_id"], status="completed")
    if promo["first_ride_only"] and rides:
        raise Conflict(f"Promotion code {wanted} is only for a rider's first trip.")
    if promo["city"] is not None:
        cities = {rules.product(db, ride["product_id"])["city"] for ride in rides}
        if promo["city"] not in cities:
            raise Conflict(f"Promotion code {wanted} is only valid for riders in {promo['city']}.")
    stored = db.update(
        riders,
        rider["rider_id"],
        uber_cash=rider["uber_cash"] + promo["credit"],
        applied_promotions=[*rider["applied_promotions"], wanted],
    )
    return PromotionResult(
        promotion_code=wanted,
        description=promo["description"],
        credit=usd(promo["credit"]),
        uber_cash=usd(stored["uber_cash"]),
    )


@tool()
def pay_outstanding_balance(db: Database, payment_method_id: Uuid) -> RiderObject:
    """Pay the balance left by a failed charge with one of the rider's payment methods; rides can't be requested
    while a balance is owed.

    Args:
        payment_method_id: The payment method to charge (list_payment_methods).
    """
    rider = access.me(db)
    if not rider["outstanding_balance"]:
        raise Conflict("There is no outstanding balance on this account.")
    method = access.own_payment_method(db, rider, payment_method_id)
    if method["type"] in ("cash", "business_account"):
        raise InvalidRequest(f"A balance can't be paid with {method['type']}; use a card or wallet.")
    if method["expiration"] and method["expiration"] < db.now().strftime("%Y-%m"):
        raise InvalidRequest(f"invalid_payment_method: The card {method['description']} has expired.")
    return rider_object(db.update(riders, rider["rider_id"], outstanding_balance=0))


# ---------------------------------------------------------------- places


@tool(read_only=True)
def search_locations(
    db: Database,
    query: Annotated[str, Field(min_length=1, max_length=100, pattern=r"\S")],
    city: Literal["San Francisco", "Los Angeles"] | None = None,
) -> list[LocationObject]:
    """Search addresses and points of interest by name or street, with the coordinates ride tools take.

    Args:
        query: Words of the place's name or address, e.g. "SFO terminal 2".
        city: Only places in this service city.
    """
    words = query.lower().split()
    where = " AND ".join("lower(name || ' ' || address) LIKE ?" for _ in words)
    params: list = [f"%{word}%" for word in words]
    if city is not None:
        where += " AND city = ?"
        params.append(city)
    found = db.select(locations, where, params, order_by="name", limit=10)
    return [
        LocationObject(**{k: row[k] for k in LocationObject.model_fields if k != "city"}, city=row["city"] or None)
        for row in found
    ]


@tool(read_only=True)
def list_places(db: Database) -> list[PlaceObject]:
    """The rider's saved places: home, work and labelled favourites."""
    rider = access.me(db)
    return [place_object(row) for row in db.find(places, rider_id=rider["rider_id"])]


@tool()
def save_place(db: Database, place_id: PlaceId, address: NonBlankText, label: text(40) | None = None) -> PlaceObject:
    """Set the address of home, work or a labelled saved place (created if new). The address must be one the app's
    search finds (search_locations).

    Args:
        place_id: "home", "work", or a short id for a favourite such as "gym" or "moms_house".
        address: The full address as search_locations shows it.
        label: The name shown for a favourite (defaults to Home / Work / the id).
    """
    rider = access.me(db)
    found = db.select(locations, "lower(address) = lower(?)", (address.strip(),), limit=1)
    if not found:
        raise InvalidRequest(f"Address not found: {address.strip()}. Search for it first.")
    spot = found[0]
    shown = label or {"home": "Home", "work": "Work"}.get(place_id, place_id.replace("_", " ").title())
    key = f"{rider['rider_id']}:{place_id}"
    values = {"label": shown, "address": spot["address"], "latitude": spot["latitude"], "longitude": spot["longitude"]}
    if db.find(places, id=key):
        return place_object(db.update(places, key, **values))
    return place_object(db.insert(places, id=key, rider_id=rider["rider_id"], place_id=place_id, **values))


@tool()
def delete_place(db: Database, place_id: PlaceId) -> PlaceObject:
    """Remove a saved place.

    Args:
        place_id: The saved place's id (list_places).
    """
    rider = access.me(db)
    return place_object(db.delete(places, access.own_place(db, rider, place_id)["id"]))


# ---------------------------------------------------------------- products and estimates


@tool(read_only=True)
def list_products(db: Database, latitude: Latitude, longitude: Longitude) -> list[ProductObject]:
    """The Uber products offered at a location, in display order, with capacity and price details (empty outside
    the service area).

    Args:
        latitude: The location's latitude.
        longitude: The location's longitude.
    """
    return [product_object(row) for row in rules.products_at(db, latitude, longitude)]


@tool(read_only=True)
def get_price_estimates(
    db: Database,
    start_latitude: Latitude,
    start_longitude: Longitude,
    end_latitude: Latitude,
    end_longitude: Longitude,
    seat_count: SeatCount = 1,
) -> list[PriceEstimate]:
    """Estimated price ranges of every product for a trip, with the surge in effect now, duration and distance.

    Args:
        start_latitude: Pickup latitude.
        start_longitude: Pickup longitude.
        end_latitude: Drop-off latitude.
        end_longitude: Drop-off longitude.
        seat_count: Seats on a shared product (1 or 2).
    """
    start, end = rules.point(db, start_latitude, start_longitude), rules.point(db, end_latitude, end_longitude)
    miles, minutes = rules.trip_shape(start, end)
    out = []
    for row in rules.products_at(db, start_latitude, start_longitude):
        surge = rules.surge_at(db, row["product_id"], db.now())
        value = rules.fare_value(row, miles, minutes, surge, seat_count if row["shared"] else 1)
        low, high = int(value * 0.9) // 100, -(-int(value * 1.15) // 100)
        out.append(
            PriceEstimate(
                product_id=row["product_id"],
                display_name=row["display_name"],
                estimate=f"${low}-{high}",
                low_estimate=low,
                high_estimate=high,
                surge_multiplier=surge,
                duration=minutes * 60,
                distance=miles,
                currency_code="USD",
            )
        )
    return out


@tool(read_only=True)
def get_time_estimates(
    db: Database, start_latitude: Latitude, start_longitude: Longitude, product_id: Uuid | None = None
) -> list[TimeEstimate]:
    """Pickup ETAs, in seconds, of the products at a location.

    Args:
        start_latitude: Pickup latitude.
        start_longitude: Pickup longitude.
        product_id: Only this product.
    """
    found = rules.products_at(db, start_latitude, start_longitude)
    return [
        TimeEstimate(product_id=row["product_id"], display_name=row["display_name"], estimate=row["eta_minutes"] * 60)
        for row in found
        if product_id is None or row["product_id"] == product_id
    ]


@tool()
def estimate_ride(
    db: Database,
    product_id: Uuid,
    start_place_id: PlaceId | None = None,
    start_latitude: Latitude | None = None,
    start_longitude: Longitude | None = None,
    end_place_id: PlaceId | None = None,
    end_latitude: Latitude | None = None,
    end_longitude: Longitude | None = None,
    seat_count: SeatCount = 1,
) -> FareObject:
    """Get an upfront fare for a ride in one product; request the ride with its fare_id within 5 minutes. Under
    surge the fare carries a surge_confirmation_id the rider must accept before requesting.

    Args:
        product_id: The product (list_products).
        start_place_id: Pickup at a saved place ("home", "work", ...) instead of coordinates.
        start_latitude: Pickup latitude.
        start_longitude: Pickup longitude.
        end_place_id: Drop-off at a saved place instead of coordinates.
        end_latitude: Drop-off latitude.
        end_longitude: Drop-off longitude.
        seat_count: Seats on a shared product (1 or 2).
    """
    rider = access.me(db)
    row = rules.product(db, product_id)
    rules.check_seats(row, seat_count)
    start = _endpoint(db, rider, start_place_id, start_latitude, start_longitude, "start")
    end = _endpoint(db, rider, end_place_id, end_latitude, end_longitude, "end")
    rules.check_served(row, start)
    miles, minutes = rules.trip_shape(start, end)
    surge = rules.surge_at(db, product_id, db.now())
    stored = db.insert(
        fares,
        fare_id=db.new_uuid(fares),
        rider_id=rider["rider_id"],
        product_id=product_id,
        start=start,
        end=end,
        seat_count=seat_count,
        value=rules.fare_value(row, miles, minutes, surge, seat_count),
        distance_miles=miles,
        duration_minutes=minutes,
        surge_multiplier=surge,
        surge_confirmation_id=db.new_uuid(requests) if surge > 1.0 else None,
        surge_confirmed=False,
        expires_at=(db.now() + rules.FARE_TTL).strftime("%Y-%m-%dT%H:%M:%SZ"),
        used=False,
    )
    return fare_object(stored, row)


@tool(user_only=True)
def confirm_surge(db: Database, surge_confirmation_id: Uuid) -> FareObject:
    """(Rider only) The rider reads the surge multiplier in the app and accepts the higher fare.

    Args:
        surge_confirmation_id: The fare's surge_confirmation_id.
    """
    rider = access.me(db)
    fare = db.find_one(
        fares,
        surge_confirmation_id=surge_confirmation_id,
        rider_id=rider["rider_id"],
        not_found=f"Surge confirmation {surge_confirmation_id} not found.",
    )
    stored = db.update(fares, fare["fare_id"], surge_confirmed=True)
    return fare_object(stored, rules.product(db, fare["product_id"]))


# ---------------------------------------------------------------- rides


@tool()
def request_ride(
    db: Database,
    fare_id: Uuid,
    payment_method_id: Uuid | None = None,
    profile_id: Uuid | None = None,
    expense_memo: text(200) | None = None,
    scheduled_pickup_time: IsoTimestamp | None = None,
) -> RideObject:
    """Request the ride an upfront fare describes, now or scheduled (15 minutes to 30 days ahead). The rider pays
    with the profile's default payment method unless another is given; a business profile's policy applies.
    Only one on-demand ride at a time; nothing can be requested while a balance is owed.

    Args:
        fare_id: The fare from estimate_ride (unused, not expired, surge accepted).
        payment_method_id: Pay with this method instead of the profile's default.
        profile_id: The payment profile (list_profiles); the Personal profile by default.
        expense_memo: A note for a business profile's expense report.
        scheduled_pickup_time: Schedule the pickup for this time (ISO 8601) instead of now.
    """
    rider = access.me(db)
    fare = db.find_one(fares, fare_id=fare_id, rider_id=rider["rider_id"], not_found=f"Fare {fare_id} not found.")
    rules.check_fare(fare, db.now())
    row = rules.product(db, fare["product_id"])
    profile = access.own_profile(db, rider, profile_id)
    method_id = payment_method_id or profile["default_payment_method_id"]
    if method_id is None:
        raise InvalidRequest("invalid_payment_method: Choose a payment method; this profile has no default.")
    method = access.own_payment_method(db, rider, method_id)
    if rider["outstanding_balance"]:
        raise Conflict(
            f"pay_balance: You have an outstanding balance of ${usd(rider['outstanding_balance'])}; pay it before "
            "requesting a ride."
        )
    rules.check_payment(method, row, profile, db.now())
    rules.check_policy(profile, row, expense_memo)
    pickup = rules.check_schedule(scheduled_pickup_time, db.now()) if scheduled_pickup_time else None
    if pickup is None and rules.current_ride(db, rider["rider_id"]) is not None:
        raise Conflict("current_trip_exists: The user is currently on a trip; cancel it or wait for it to end.")
    db.update(fares, fare_id, used=True)
    for other in db.find(payment_methods, rider_id=rider["rider_id"], last_used=True):
        db.update(payment_methods, other["payment_method_id"], last_used=False)
    db.update(payment_methods, method_id, last_used=True)
    stored = db.insert(
        requests,
        request_id=db.new_uuid(requests),
        rider_id=rider["rider_id"],
        product_id=row["product_id"],
        profile_id=profile["profile_id"],
        payment_method_id=method_id,
        status="scheduled" if pickup else "processing",
        start=fare["start"],
        end=fare["end"],
        seat_count=fare["seat_count"],
        fare=fare["value"],
        surge_multiplier=fare["surge_multiplier"],
        requested_at=db.now_iso(),
        scheduled_pickup=pickup,
        distance_miles=fare["distance_miles"],
        duration_minutes=fare["duration_minutes"],
        charges=[],
        tip=0,
        expense_memo=expense_memo,
    )
    return ride_object(stored, row)


@tool(read_only=True)
def get_ride(db: Database, request_id: Uuid | None = None) -> RideObject:
    """A ride request's status and details (driver, car, pickup, destination, fare); without an id, the rider's
    current on-demand ride.

    Args:
        request_id: The ride's request_id; leave out for the current ride.
    """
    rider = access.me(db)
    if request_id is None:
        current = rules.current_ride(db, rider["rider_id"])
        if current is None:
            raise NotFound("no_current_trip: User is not currently on a trip.")
        return _ride(db, current)
    return _ride(db, access.own_request(db, rider, request_id))


@tool()
def update_ride_destination(
    db: Database,
    request_id: Uuid,
    end_place_id: PlaceId | None = None,
    end_latitude: Latitude | None = None,
    end_longitude: Longitude | None = None,
) -> RideObject:
    """Change where an active or scheduled ride goes; the upfront fare is recalculated at the ride's surge. Shared
    rides can't change destination.

    Args:
        request_id: The ride's request_id.
        end_place_id: The new drop-off at a saved place.
        end_latitude: The new drop-off latitude.
        end_longitude: The new drop-off longitude.
    """
    rider = access.me(db)
    ride = access.own_request(db, rider, request_id)
    if ride["status"] not in (*rules.ACTIVE, "scheduled"):
        raise Conflict(f"Request {request_id} is {ride['status']}; its destination can't be changed.")
    row = rules.product(db, ride["product_id"])
    if row["shared"]:
        raise Conflict(f"The destination of a {row['display_name']} ride can't be changed.")
    end = _endpoint(db, rider, end_place_id, end_latitude, end_longitude, "end")
    miles, minutes = rules.trip_shape(ride["start"], end)
    value = rules.fare_value(row, miles, minutes, ride["surge_multiplier"], ride["seat_count"])
    stored = db.update(requests, request_id, end=end, distance_miles=miles, duration_minutes=minutes, fare=value)
    return ride_object(stored, row)


@tool()
def cancel_ride(db: Database, request_id: Uuid) -> RideObject:
    """Cancel a ride. Free while a driver is being found, within 2 minutes of a driver accepting, and for a
    scheduled ride up to 60 minutes before pickup; otherwise the product's cancellation fee is charged. A trip in
    progress can't be canceled.

    Args:
        request_id: The ride's request_id.
    """
    rider = access.me(db)
    ride = access.own_request(db, rider, request_id)
    row = rules.product(db, ride["product_id"])
    fee = rules.cancellation_fee(ride, row, db.now())
    stored = db.update(
        requests,
        request_id,
        status="rider_canceled",
        canceled_at=db.now_iso(),
        charges=[{"name": "Cancellation fee", "amount": fee}] if fee else [],
        total_charged=fee if fee else None,
    )
    return ride_object(stored, row)


@tool(read_only=True)
def list_ride_history(
    db: Database,
    offset: Annotated[int, Field(ge=0)] = 0,
    limit: Annotated[int, Field(ge=1, le=50), ErrorText("limit must be 1 to 50.")] = 5,
) -> HistoryPage:
    """The rider's rides, newest first (scheduled and active ones included), paged by offset and limit.

    Args:
        offset: How many rides to skip.
        limit: Rides per page (at most 50).
    """
    rider = access.me(db)
    found = db.select(requests, "rider_id = ?", (rider["rider_id"],), order_by="requested_at DESC")
    names = {}
    items = []
    for row in found[offset : offset + limit]:
        if row["product_id"] not in names:
            names[row["product_id"]] = rules.product(db, row["product_id"])["display_name"]
        items.append(
            HistoryItem(
                request_id=row["request_id"],
                status=row["status"],
                display_name=names[row["product_id"]],
                request_time=row["requested_at"],
                start_address=row["start"]["address"],
                end_address=row["end"]["address"],
                distance=row["distance_miles"],
                total_charged=usd(row["total_charged"]) if row["total_charged"] is not None else None,
            )
        )
    return HistoryPage(offset=offset, limit=limit, count=len(found), history=items)


@tool(read_only=True)
def get_receipt(db: Database, request_id: Uuid) -> ReceiptObject:
    """A charged ride's receipt: the fare's lines, fees, tip, the total charged and how it was paid.

    Args:
        request_id: The ride's request_id.
    """
    rider = access.me(db)
    ride = access.own_request(db, rider, request_id)
    if ride["total_charged"] is None:
        raise Conflict(f"No receipt for request {request_id}: it is {ride['status']} and nothing was charged.")
    return receipt_object(ride)


@tool()
def tip_driver(db: Database, request_id: Uuid, amount: TipAmount) -> ReceiptObject:
    """Add a tip for the driver of a completed trip, once, within 30 days of it; it is charged to the trip's
    payment method.

    Args:
        request_id: The trip's request_id.
        amount: The tip in dollars, e.g. "5" or "7.50".
    """
    rider = access.me(db)
    ride = access.own_request(db, rider, request_id)
    rules.completed(ride, "tipped")
    rules.within_tip_window(ride, db.now())
    cents = minor_units(amount, "USD", "amount")
    if cents <= 0:
        raise InvalidRequest("amount must be more than zero.")
    stored = db.update(
        requests,
        request_id,
        tip=cents,
        charges=[*ride["charges"], {"name": "Tip", "amount": cents}],
        total_charged=(ride["total_charged"] or 0) + cents,
    )
    return receipt_object(stored)


@tool()
def rate_trip(db: Database, request_id: Uuid, rating: Annotated[int, Field(ge=1, le=5)]) -> RideObject:
    """Rate the driver of a completed trip from 1 to 5 stars; a trip is rated once.

    Args:
        request_id: The trip's request_id.
        rating: Stars, 1 to 5.
    """
    rider = access.me(db)
    ride = access.own_request(db, rider, request_id)
    rules.completed(ride, "rated")
    if ride["rating_given"] is not None:
        raise Conflict(f"This trip was already rated {ride['rating_given']} stars.")
    return _ride(db, db.update(requests, request_id, rating_given=rating))


# ---------------------------------------------------------------- payment


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """The rider's payment methods (cards with their expiry, wallets, cash, business accounts) and which was used
    last."""
    rider = access.me(db)
    return [
        PaymentMethodObject(**{k: row[k] for k in PaymentMethodObject.model_fields})
        for row in db.find(payment_methods, rider_id=rider["rider_id"])
    ]


@tool(read_only=True)
def list_profiles(db: Database) -> list[ProfileObject]:
    """The rider's payment profiles (Personal, Business) with their default payment method, receipt email and, for
    business profiles, the organization's ride policy."""
    rider = access.me(db)
    return [profile_object(row) for row in db.find(profiles, rider_id=rider["rider_id"])]


@tool()
def update_profile(
    db: Database,
    profile_id: Uuid,
    default_payment_method_id: Uuid | None = None,
    receipt_email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")] | None = None,
) -> ProfileObject:
    """Change a payment profile's default payment method or the email its receipts go to. A business account can
    only be the default of a business profile, and an expired card of none.

    Args:
        profile_id: The profile (list_profiles).
        default_payment_method_id: The new default payment method.
        receipt_email: The new receipt email.
    """
    rider = access.me(db)
    profile = access.own_profile(db, rider, profile_id)
    changes: dict = {}
    if default_payment_method_id is not None:
        method = access.own_payment_method(db, rider, default_payment_method_id)
        if method["type"] == "business_account" and profile["type"] != "business":
            raise InvalidRequest("payment_method_not_allowed: A business account pays only on a business profile.")
        if method["expiration"] and method["expiration"] < db.now().strftime("%Y-%m"):
            raise InvalidRequest(f"invalid_payment_method: The card {method['description']} has expired.")
        changes["default_payment_method_id"] = default_payment_method_id
    if receipt_email is not None:
        changes["receipt_email"] = receipt_email
    if not changes:
        raise InvalidRequest("Give default_payment_method_id or receipt_email to change.")
    return profile_object(db.update(profiles, profile_id, **changes))
