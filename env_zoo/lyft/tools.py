"""Lyft rider tools: log in, find places, the ride types, ETAs and cost estimates at a location, request a ride now
or scheduled (accepting Prime Time with its token), follow and re-route it, cancel it (accepting a cancellation
fee with its token), read ride history and receipts, rate and tip, report a lost item and arrange its return, and
manage saved places and payment methods."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, tool
from envfactory_gym.fields import ErrorText, IsoTimestamp, NonBlankText, text
from envfactory_gym.values import parse_timestamp

from . import access, rules
from .objects import (
    CancellationCost,
    Charge,
    CostEstimate,
    EtaObject,
    LineItem,
    LostItemObject,
    PaymentMethodObject,
    PlaceObject,
    PricingDetails,
    Profile,
    ReceiptObject,
    RideObject,
    RideSummary,
    RideTypeObject,
    SavedPlaceObject,
    lost_item_object,
    payment_label,
    payment_method_object,
    ride_object,
    ride_summary,
    saved_place_object,
)
from .schema import lost_items, payment_methods, places, ride_types, rides, saved_places

RideType = Literal["lyft", "lyft_line", "lyft_plus", "lyft_premier", "lyft_lux", "lyft_luxsuv"]
Lat = Annotated[float, Field(ge=-90, le=90), ErrorText("invalid_parameter: lat must be between -90 and 90.")]
Lng = Annotated[float, Field(ge=-180, le=180), ErrorText("invalid_parameter: lng must be between -180 and 180.")]
RideId = Annotated[str, Field(pattern=r"^\d{6,20}$"), ErrorText("invalid_parameter: ride_id is a string of digits.")]
PaymentMethodId = Annotated[
    str, Field(pattern=r"^pm_[a-z0-9]{8}$"), ErrorText("invalid_parameter: not a payment method id.")
]
ReportId = Annotated[str, Field(pattern=r"^LF-\d{6}$"), ErrorText("invalid_parameter: report ids look like LF-204117.")]
Phone = Annotated[
    str,
    Field(pattern=r"^\+?1?[\s\-.()]*\d{3}[\s\-.()]*\d{3}[\s\-.]*\d{4}$"),
    ErrorText("invalid_phone: a US phone number."),
]
Cents = Annotated[int, Field(ge=1, le=10000), ErrorText("invalid_parameter: amount is 1 to 10000 cents.")]
Address = text(200)


# ---------------------------------------------------------------- account


@tool(user_only=True)
def log_in(db: Database, phone_number: Phone) -> Profile:
    """Log in to Lyft with the phone number on your account (the rider does this themselves).

    Args:
        phone_number: The account's phone number, e.g. "+1 206 555 0143".
    """
    return profile(access.log_in(db, phone_number))


@tool(read_only=True)
def get_profile(db: Database) -> Profile:
    """The logged-in rider's profile: id, name, email, home region and whether they have taken a ride."""
    return profile(access.me(db))


def profile(row: dict) -> Profile:
    return Profile(id=row["user_id"], **{key: row[key] for key in Profile.model_fields if key != "id"})


# ---------------------------------------------------------------- places and public estimates


@tool(read_only=True)
def search_places(db: Database, query: text(100), region: Literal["SEA", "BOS"] | None = None) -> list[PlaceObject]:
    """Find places (airports, stations, venues, hotels, offices, street addresses) by name or address, with the
    coordinates a ride needs. At most 10 results.

    Args:
        query: Words of the place's name or address (all must appear), e.g. "Pike Place".
        region: Only places in Seattle (SEA) or Boston (BOS).
    """
    where: list[str] = []
    params: list[str] = []
    for word in query.lower().split():
        where.append("(lower(name) LIKE ? OR lower(address) LIKE ?)")
        params += [f"%{word}%", f"%{word}%"]
    if region is not None:
        where.append("region = ?")
        params.append(region)
    found = db.select(places, " AND ".join(where) or "1 = 1", params, order_by="name", limit=10)
    return [PlaceObject(**{key: row[key] for key in PlaceObject.model_fields}) for row in found]


@tool(read_only=True)
def get_ride_types(db: Database, lat: Lat, lng: Lng, ride_type: RideType | None = None) -> list[RideTypeObject]:
    """The ride types Lyft offers at a location, with seats, whether they can be scheduled and their pricing
    details (base charge, per mile, per minute, minimum, service fee, cancellation penalty), in cents.

    Args:
        lat: Latitude of the location.
        lng: Longitude of the location.
        ride_type: Only this ride type.
    """
    zone = rules.zone_at(db, lat, lng)
    found = db.find(ride_types, region=zone["region"])
    if ride_type is not None:
        found = [row for row in found if row["ride_type"] == ride_type]
    return [
        RideTypeObject(
            ride_type=row["ride_type"],
            display_name=row["display_name"],
            seats=row["seats"],
            schedulable=row["schedulable"],
            pricing_details=PricingDetails(
                **{key: row[key] for key in PricingDetails.model_fields if key != "currency"}
            ),
        )
        for row in found
    ]


@tool(read_only=True)
def get_etas(db: Database, lat: Lat, lng: Lng, ride_type: RideType | None = None) -> list[EtaObject]:
    """How many seconds a driver of each ride type needs to reach a pickup point; eta_seconds is null where no
    driver of that type is nearby.

    Args:
        lat: Latitude of the pickup point.
        lng: Longitude of the pickup point.
        ride_type: Only this ride type.
    """
    zone = rules.zone_at(db, lat, lng)
    found = db.find(ride_types, region=zone["region"])
    return [
        EtaObject(
            ride_type=row["ride_type"],
            display_name=row["display_name"],
            eta_seconds=zone["eta_seconds"].get(row["ride_type"]),
            is_valid_estimate=row["ride_type"] in zone["eta_seconds"],
        )
        for row in found
        if ride_type is None or row["ride_type"] == ride_type
    ]


@tool(read_only=True)
def get_cost_estimates(
    db: Database, start_lat: Lat, start_lng: Lng, end_lat: Lat, end_lng: Lng, ride_type: RideType | None = None
) -> list[CostEstimate]:
    """Estimated cost, distance and duration of a trip for each ride type, with the pickup zone's Prime Time. When
    Prime Time is on, the estimate carries the primetime_confirmation_token a ride request must pass to accept it.

    Args:
        start_lat: Latitude of the pickup.
        start_lng: Longitude of the pickup.
        end_lat: Latitude of the drop-off.
        end_lng: Longitude of the drop-off.
        ride_type: Only this ride type.
    """
    zone = rules.zone_at(db, start_lat, start_lng)
    rules.zone_at(db, end_lat, end_lng)
    miles, seconds = rules.trip((start_lat, start_lng), (end_lat, end_lng))
    estimates = []
    for row in db.find(ride_types, region=zone["region"]):
        if ride_type is not None and row["ride_type"] != ride_type:
            continue
        total = sum(line["amount"] for line in rules.fare(row, miles, seconds, zone["primetime_percentage"]))
        primetime = zone["primetime_percentage"]
        estimates.append(
            CostEstimate(
                ride_type=row["ride_type"],
                display_name=row["display_name"],
                estimated_cost_cents_min=total * 9 // 10,
                estimated_cost_cents_max=total * 11 // 10,
                estimated_distance_miles=miles,
                estimated_duration_seconds=seconds,
                primetime_percentage=f"{primetime}%",
                primetime_confirmation_token=rules.primetime_token(zone, row["ride_type"]) if primetime else None,
                is_valid_estimate=row["ride_type"] in zone["eta_seconds"],
            )
        )
    return estimates


# ---------------------------------------------------------------- rides


def address_near(db: Database, lat: float, lng: float) -> str:
    """The address a ride shows: a known or saved place at the point, else the coordinates."""
    near, params = "abs(lat - ?) < 0.0005 AND abs(lng - ?) < 0.0005", (lat, lng)
    found = db.select(places, near, params, limit=1) or db.select(saved_places, near, params, limit=1)
    return found[0]["address"] if found else f"{lat:.5f}, {lng:.5f}"


@tool()
def request_ride(
    db: Database,
    ride_type: RideType,
    origin_lat: Lat,
    origin_lng: Lng,
    destination_lat: Lat,
    destination_lng: Lng,
    party_size: Annotated[int, Field(ge=1, le=6)] = 1,
    primetime_confirmation_token: text(40) | None = None,
    payment_method_id: PaymentMethodId | None = None,
    scheduled_pickup_at: IsoTimestamp | None = None,
) -> RideObject:
    """Request a Lyft now (status pending until a driver accepts) or schedule one 1 hour to 7 days ahead (status
    scheduled, priced without Prime Time; Shared can't be scheduled). Under Prime Time an on-demand request must
    pass the primetime_confirmation_token from get_cost_estimates. One on-demand ride at a time.

    Args:
        ride_type: lyft, lyft_line (Shared), lyft_plus (XL), lyft_premier (Lux), lyft_lux (Lux Black) or
            lyft_luxsuv (Lux Black XL).
        origin_lat: Pickup latitude.
        origin_lng: Pickup longitude.
        destination_lat: Drop-off latitude.
        destination_lng: Drop-off longitude.
        party_size: Riders, at most the ride type's seats (Shared: 2).
        primetime_confirmation_token: Accepts the current Prime Time (from get_cost_estimates).
        payment_method_id: Pay with this method instead of the default.
        scheduled_pickup_at: Schedule the pickup for this time (UTC) instead of now.
    """
    rider = access.me(db)
    zone = rules.zone_at(db, origin_lat, origin_lng)
    rules.zone_at(db, destination_lat, destination_lng)
    kind = rules.ride_type(db, zone["region"], ride_type)
    if party_size > kind["seats"]:
        raise InvalidRequest(f"party_size_too_large: {kind['display_name']} takes at most {kind['seats']} riders.")
    method = (
        access.own_payment_method(db, rider, payment_method_id)
        if payment_method_id is not None
        else access.default_payment_method(db, rider)
    )
    if method["expires"] is not None and method["expires"] < db.now().strftime("%Y-%m"):
        raise InvalidRequest(f"invalid_payment_method: the {method['label']} ending {method['last4']} has expired.")
    pickup: datetime | None = None
    primetime = zone["primetime_percentage"]
    if scheduled_pickup_at is not None:
        pickup = parse_timestamp(scheduled_pickup_at, "scheduled_pickup_at")
        if not kind["schedulable"]:
            raise InvalidRequest(f"ride_type_not_schedulable: {kind['display_name']} rides can't be scheduled.")
        rules.check_schedule(db, pickup)
        primetime = 0
    else:
        rules.check_no_active_ride(db, rider["user_id"])
        if ride_type not in zone["eta_seconds"]:
            raise Conflict(f"no_drivers_available: no {kind['display_name']} drivers are available nearby right now.")
        if primetime and primetime_confirmation_token != rules.primetime_token(zone, ride_type):
            raise InvalidRequest(
                f"primetime_confirmation_required: Prime Time is {primetime}% at this pickup; get a cost estimate "
                "and pass its primetime_confirmation_token to accept it."
            )
    miles, seconds = rules.trip((origin_lat, origin_lng), (destination_lat, destination_lng))
    lines = rules.fare(kind, miles, seconds, primetime)
    stored = db.insert(
        rides,
        ride_id=rules.new_ride_id(db),
        user_id=rider["user_id"],
        region=zone["region"],
        ride_type=ride_type,
        status="scheduled" if pickup else "pending",
        origin={"lat": origin_lat, "lng": origin_lng, "address": address_near(db, origin_lat, origin_lng)},
        destination={
            "lat": destination_lat,
            "lng": destination_lng,
            "address": address_near(db, destination_lat, destination_lng),
        },
        party_size=party_size,
        primetime_percentage=primetime,
        distance_miles=miles,
        duration_seconds=seconds,
        price=sum(line["amount"] for line in lines),
        line_items=lines,
        payment_method_id=method["payment_method_id"],
        driver_id=None,
        requested_at=db.now_iso(),
        scheduled_pickup_at=rules.stamp(pickup) if pickup else None,
        cancel_fee=0,
        tip=0,
    )
    return ride_object(db, stored)


@tool(read_only=True)
def get_ride(db: Database, ride_id: RideId) -> RideObject:
    """A ride's details: status, pickup and drop-off, driver and vehicle, timing, price and line items, rating and
    tip.

    Args:
        ride_id: The ride's id.
    """
    return ride_object(db, access.own_ride(db, access.me(db), ride_id))


@tool(read_only=True)
def list_rides(
    db: Database,
    start_time: IsoTimestamp,
    end_time: IsoTimestamp | None = None,
    limit: Annotated[int, Field(ge=1, le=50)] = 10,
) -> list[RideSummary]:
    """The logged-in rider's rides requested in a time range, newest first.

    Args:
        start_time: Rides requested at or after this time (UTC), e.g. "2026-07-01T00:00:00Z".
        end_time: Rides requested before this time; default now.
        limit: At most this many rides (1-50).
    """
    rider = access.me(db)
    first = rules.stamp(parse_timestamp(start_time, "start_time"))
    last = rules.stamp(parse_timestamp(end_time, "end_time")) if end_time is not None else "9999"
    found = db.select(
        rides,
        "user_id = ? AND requested_at >= ? AND requested_at < ?",
        (rider["user_id"], first, last),
        order_by="requested_at DESC",
        limit=limit,
    )
    return [ride_summary(row) for row in found]


@tool(read_only=True)
def get_cancellation_cost(db: Database, ride_id: RideId) -> CancellationCost:
    """What cancelling a ride now would cost, or why it can't be cancelled. When there is a fee, the token
    returned is the cancel_confirmation_token that accepts it (valid token_duration seconds).

    Args:
        ride_id: The ride's id.
    """
    ride = access.own_ride(db, access.me(db), ride_id)
    try:
        fee = rules.cancel_fee(db, ride)
    except Conflict as refused:
        return CancellationCost(
            ride_id=ride_id, cancellable=False, reason=str(refused), amount=0, token=None, token_duration=None
        )
    return CancellationCost(
        ride_id=ride_id,
        cancellable=True,
        reason=None,
        amount=fee,
        token=rules.cancel_token(ride, fee) if fee else None,
        token_duration=60 if fee else None,
    )


@tool()
def cancel_ride(db: Database, ride_id: RideId, cancel_confirmation_token: text(40) | None = None) -> RideObject:
    """Cancel a pending, accepted, arrived or scheduled ride. Cancelling is free before a driver is matched, within
    2 minutes of the match, when the driver is running 5+ minutes late, and more than an hour before a scheduled
    pickup; otherwise the ride type's cancellation penalty applies: pass the token from get_cancellation_cost (or
    from the cancel_confirmation_required error) to accept the fee.

    Args:
        ride_id: The ride's id.
        cancel_confirmation_token: Accepts the cancellation fee (from the cancel_confirmation_required error).
    """
    ride = access.own_ride(db, access.me(db), ride_id)
    fee = rules.cancel_fee(db, ride)
    if fee:
        expected = rules.cancel_token(ride, fee)
        if cancel_confirmation_token is None:
            raise InvalidRequest(
                f"cancel_confirmation_required: canceling ride {ride_id} now costs {fee / 100:.2f} USD. "
                f"To accept the fee, cancel again with cancel_confirmation_token {expected} (token_duration 60 s)."
            )
        if cancel_confirmation_token != expected:
            raise InvalidRequest("invalid_cancel_confirmation: the cancel_confirmation_token is invalid or expired.")
    stored = db.update(
        rides,
        ride_id,
        status="canceled",
        canceled_at=db.now_iso(),
        canceled_by="passenger",
        cancel_fee=fee,
    )
    return ride_object(db, stored)


@tool()
def update_ride_destination(db: Database, ride_id: RideId, lat: Lat, lng: Lng) -> RideObject:
    """Change where a ride that isn't over goes; the price is worked out again for the new trip at the ride's Prime
    Time. Shared rides can't change their destination.

    Args:
        ride_id: The ride's id.
        lat: New drop-off latitude.
        lng: New drop-off longitude.
    """
    ride = access.own_ride(db, access.me(db), ride_id)
    if ride["status"] in ("droppedOff", "canceled"):
        raise Conflict(f"ride_not_active: ride {ride_id} is already {ride['status']}.")
    if ride["ride_type"] == "lyft_line":
        raise Conflict("destination_change_not_allowed: Shared rides can't change their destination.")
    zone = rules.zone_at(db, lat, lng)
    if zone["region"] != ride["region"]:
        raise InvalidRequest("no_service_in_area: the new destination is outside this ride's region.")
    origin = ride["origin"]
    miles, seconds = rules.trip((origin["lat"], origin["lng"]), (lat, lng))
    lines = rules.fare(
        rules.ride_type(db, ride["region"], ride["ride_type"]), miles, seconds, ride["primetime_percentage"]
    )
    stored = db.update(
        rides,
        ride_id,
        destination={"lat": lat, "lng": lng, "address": address_near(db, lat, lng)},
        distance_miles=miles,
        duration_seconds=seconds,
        line_items=lines,
        price=sum(line["amount"] for line in lines),
    )
    return ride_object(db, stored)


@tool()
def rate_ride(
    db: Database,
    ride_id: RideId,
    rating: Annotated[int, Field(ge=1, le=5), ErrorText("invalid_rating: rating is 1 to 5 stars.")],
    feedback: text(500) | None = None,
    tip_amount: Cents | None = None,
) -> RideObject:
    """Rate the driver of a completed ride (once), with optional feedback and an optional tip in cents (tips: up to
    72 hours after the ride, at most $100 and twice the fare).

    Args:
        ride_id: The ride's id.
        rating: 1 to 5 stars.
        feedback: What went well or wrong.
        tip_amount: A tip for the driver, in cents.
    """
    ride = access.own_ride(db, access.me(db), ride_id)
    if ride["status"] != "droppedOff":
        raise Conflict(f"ride_not_complete: only completed rides can be rated; ride {ride_id} is {ride['status']}.")
    if ride["rating"] is not None:
        raise Conflict(f"rating_already_submitted: ride {ride_id} was already rated.")
    changes: dict = {"rating": rating, "feedback": feedback.strip() if feedback else None}
    if tip_amount is not None:
        rules.check_tip(db, ride, tip_amount)
        changes.update(tip=tip_amount, tipped_at=db.now_iso())
    return ride_object(db, db.update(rides, ride_id, **changes))


@tool()
def add_tip(db: Database, ride_id: RideId, amount: Cents) -> RideObject:
    """Tip the driver of a completed ride after the fact: once per ride, up to 72 hours after drop-off, at most
    $100 and twice the fare.

    Args:
        ride_id: The ride's id.
        amount: The tip, in cents.
    """
    ride = access.own_ride(db, access.me(db), ride_id)
    rules.check_tip(db, ride, amount)
    return ride_object(db, db.update(rides, ride_id, tip=amount, tipped_at=db.now_iso()))


@tool(read_only=True)
def get_ride_receipt(db: Database, ride_id: RideId) -> ReceiptObject:
    """The receipt of a completed ride (fare, Prime Time, service fee, tip, any lost-item return fee) or of a
    canceled ride that was charged a cancellation fee.

    Args:
        ride_id: The ride's id.
    """
    ride = access.own_ride(db, access.me(db), ride_id)
    if ride["status"] == "droppedOff":
        lines = [LineItem(type=line["type"], amount=line["amount"]) for line in ride["line_items"]]
        if ride["tip"]:
            lines.append(LineItem(type="Tip", amount=ride["tip"]))
        for report in db.find(lost_items, ride_id=ride_id):
            if report["return_fee"]:
                lines.append(LineItem(type="Lost item return fee", amount=report["return_fee"]))
    elif ride["status"] == "canceled" and ride["cancel_fee"]:
        lines = [LineItem(type="Cancel penalty", amount=ride["cancel_fee"])]
    else:
        raise Conflict(f"receipt_not_available: ride {ride_id} is {ride['status']} and has no receipt.")
    total = sum(line.amount for line in lines)
    return ReceiptObject(
        ride_id=ride_id,
        status=ride["status"],
        line_items=lines,
        charges=[Charge(amount=total, payment_method=payment_label(db, ride["payment_method_id"]))],
        total=total,
        requested_at=ride["requested_at"],
    )


# ---------------------------------------------------------------- lost and found


@tool()
def report_lost_item(
    db: Database, ride_id: RideId, description: NonBlankText, contact_phone: Phone | None = None
) -> LostItemObject:
    """Report an item left in a completed ride (up to 30 days after it); Lyft passes the report to the driver.
    One open report per ride.

    Args:
        ride_id: The ride the item was left in.
        description: What the item is and where it was left.
        contact_phone: Where the driver can reach you; default your account's number.
    """
    rider = access.me(db)
    ride = access.own_ride(db, rider, ride_id)
    rules.check_lost_item_ride(db, ride)
    open_reports = db.select(
        lost_items, "ride_id = ? AND status IN ('reported', 'driver_has_item', 'return_arranged')", (ride_id,), limit=1
    )
    if open_reports:
        raise Conflict(f"report_already_open: report {open_reports[0]['report_id']} is already open for this ride.")
    stored = db.insert(
        lost_items,
        report_id=f"LF-{204200 + db.next_number('lost_item_numbers')}",
        ride_id=ride_id,
        user_id=rider["user_id"],
        description=description.strip(),
        contact_phone=access.e164(contact_phone) if contact_phone else rider["phone_number"],
        status="reported",
        reported_at=db.now_iso(),
        return_fee=0,
    )
    return lost_item_object(stored)


@tool(read_only=True)
def list_lost_items(db: Database) -> list[LostItemObject]:
    """The logged-in rider's lost-item reports and what the driver said."""
    rider = access.me(db)
    found = db.select(lost_items, "user_id = ?", (rider["user_id"],), order_by="reported_at DESC")
    return [lost_item_object(row) for row in found]


@tool()
def arrange_item_return(db: Database, report_id: ReportId, return_address: Address) -> LostItemObject:
    """Arrange for the driver to bring back an item they have found: the $20 return fee, which goes to the driver,
    is charged to the ride's payment method and shows on its receipt.

    Args:
        report_id: The lost-item report.
        return_address: Where the driver should bring the item.
    """
    report = access.own_lost_item(db, access.me(db), report_id)
    if report["status"] != "driver_has_item":
        reason = {
            "reported": "the driver hasn't confirmed having the item yet",
            "driver_no_item": "the driver didn't find the item",
            "return_arranged": "a return is already arranged",
            "returned": "the item was already returned",
        }[report["status"]]
        raise Conflict(f"return_not_possible: {reason}.")
    stored = db.update(
        lost_items,
        report_id,
        status="return_arranged",
        return_address=return_address.strip(),
        return_fee=rules.RETURN_FEE,
        return_arranged_at=db.now_iso(),
    )
    return lost_item_object(stored)


# ---------------------------------------------------------------- saved places and payment


@tool(read_only=True)
def list_saved_places(db: Database) -> list[SavedPlaceObject]:
    """The logged-in rider's saved places: Home, Work and favourites."""
    rider = access.me(db)
    return [
        saved_place_object(row)
        for row in db.find(saved_places, user_id=rider["user_id"], order_by=[saved_places.c.place_id])
    ]


@tool()
def save_place(
    db: Database,
    label: Literal["home", "work", "other"],
    lat: Lat,
    lng: Lng,
    address: Address,
    name: text(60) | None = None,
) -> SavedPlaceObject:
    """Save a place. Home and Work are one each: saving them again moves them (named Home and Work unless given
    a name). Favourites (other) need a name of their own.

    Args:
        label: home, work or other (a favourite).
        lat: Latitude.
        lng: Longitude.
        address: Its address.
        name: What to call it, e.g. "Mom's"; required for a favourite.
    """
    rider = access.me(db)
    rules.zone_at(db, lat, lng)
    if name is None and label == "other":
        raise InvalidRequest("invalid_parameter: a favourite place needs a name.")
    values = {"name": (name or label.title()).strip(), "lat": lat, "lng": lng, "address": address.strip()}
    if label != "other":
        existing = db.find(saved_places, user_id=rider["user_id"], label=label)
        if existing:
            return saved_place_object(db.update(saved_places, existing[0]["place_id"], **values))
    else:
        clash = db.select(
            saved_places, "user_id = ? AND lower(name) = ?", (rider["user_id"], values["name"].lower()), limit=1
        )
        if clash:
            raise Conflict(f"place_name_taken: you already have a saved place named {clash[0]['name']}.")
    stored = db.insert(
        saved_places,
        place_id=f"sp_{880000 + db.next_number('saved_place_numbers')}",
        user_id=rider["user_id"],
        label=label,
        **values,
    )
    return saved_place_object(stored)


@tool()
def delete_saved_place(db: Database, place_id: Annotated[str, Field(pattern=r"^sp_\d+$")]) -> SavedPlaceObject:
    """Remove one of the rider's saved places; returns what was removed.

    Args:
        place_id: The saved place's id.
    """
    row = access.own_saved_place(db, access.me(db), place_id)
    db.delete(saved_places, place_id)
    return saved_place_object(row)


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """The logged-in rider's payment methods, the default marked."""
    rider = access.me(db)
    found = db.find(payment_methods, user_id=rider["user_id"], order_by=[payment_methods.c.payment_method_id])
    return [payment_method_object(row) for row in found]


@tool()
def set_default_payment_method(db: Database, payment_method_id: PaymentMethodId) -> PaymentMethodObject:
    """Make a payment method the default for new rides; an expired card can't be the default.

    Args:
        payment_method_id: The payment method's id.
    """
    rider = access.me(db)
    method = access.own_payment_method(db, rider, payment_method_id)
    if method["expires"] is not None and method["expires"] < db.now().strftime("%Y-%m"):
        raise InvalidRequest(f"invalid_payment_method: the {method['label']} ending {method['last4']} has expired.")
    for row in db.find(payment_methods, user_id=rider["user_id"], is_default=True):
        db.update(payment_methods, row["payment_method_id"], is_default=False)
    return payment_method_object(db.update(payment_methods, payment_method_id, is_default=True))
