"""Turo tools for a signed-in guest or host: find cars and read their listings, reviews and protection plans,
price and book trips, change a trip's times or Extras, cancel, check in and out with photos, odometer and fuel,
answer (as a host) trip and change requests, ask for and settle reimbursements, message about a trip, and edit a
listing."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, NonBlankText, page_size, text

from . import access, rules
from .objects import (
    CancellationQuote,
    ChangeObject,
    MessageObject,
    PaymentMethodObject,
    PlanObject,
    ReimbursementObject,
    ReviewObject,
    SessionObject,
    TripObject,
    TripQuote,
    TripSummary,
    VehicleListing,
    VehicleSummary,
    breakdown,
    change_object,
    plans,
    reimbursement_object,
    trip_object,
    usd,
    vehicle_listing,
    vehicle_title,
)
from .schema import (
    accounts,
    messages,
    payment_methods,
    reimbursements,
    reviews,
    trip_changes,
    trip_photos,
    trips,
    vehicles,
)

TripTime = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):(00|30)$"),
    ErrorText("Trip times start on the hour or half hour, like 2026-06-12T10:00."),
]
Plan = Literal["premier", "standard", "minimum"]
Extras = Annotated[dict[str, Annotated[int, Field(ge=1, le=10)]], Field(max_length=8)]
Angle = Literal["front", "rear", "driver_side", "passenger_side", "interior", "dashboard"]
Photos = Annotated[list[Angle], Field(min_length=1, max_length=12)]
Odometer = Annotated[int, Field(ge=0, le=999_999), ErrorText("Enter the odometer reading in miles.")]
Fuel = Annotated[int, Field(ge=0, le=100), ErrorText("Fuel level is a percent from 0 to 100.")]
Dollars = Annotated[float, Field(gt=0, le=5000), ErrorText("Enter an amount between $0.01 and $5,000.")]
CancelReason = Literal["plans_changed", "found_another_car", "price", "host_asked", "vehicle_issue", "other"]
TripStatus = Literal["pending", "booked", "in_progress", "completed", "canceled", "declined", "expired"]
PageSize = page_size(50)


# ---------------------------------------------------------------- what only the person does


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The guest or host logs in to Turo; the password never reaches the assistant.

    Args:
        email: The account's email address.
    """
    account = access.sign_in(db, email)
    return SessionObject(account_id=account["id"], name=account["name"], role=account["role"], city=account["city"])


# ---------------------------------------------------------------- finding a car


@tool(read_only=True)
def search_vehicles(
    db: Database,
    city: Literal["Austin", "Denver"],
    start_at: TripTime,
    end_at: TripTime,
    vehicle_type: Literal["car", "suv", "minivan", "truck", "van"] | None = None,
    min_seats: Annotated[int, Field(ge=2, le=15)] | None = None,
    fuel_type: Literal["gas", "hybrid", "electric"] | None = None,
    max_daily_price: Annotated[int, Field(ge=10, le=2000)] | None = None,
    instant_book_only: bool = False,
    sort: Literal["relevance", "price_low", "rating"] = "relevance",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[VehicleSummary]:
    """Cars listed in a city that can be booked for the trip times: free then (no blocked date or other trip),
    within their advance notice and minimum and maximum trip length. "relevance" sorts by trips taken.

    Args:
        city: Austin or Denver.
        start_at: Trip start, local time, e.g. "2026-06-12T10:00".
        end_at: Trip end, local time.
        vehicle_type: car, suv, minivan, truck or van.
        min_seats: Fewest seats.
        fuel_type: gas, hybrid or electric.
        max_daily_price: Highest daily price in USD.
        instant_book_only: Only cars that book instantly, without the host's approval.
        sort: relevance, price_low or rating.
        page_size: Cars per page.
        cursor: next_cursor of the previous page.
    """
    start, end = rules.moment(start_at, "start_at"), rules.moment(end_at, "end_at")
    if end <= start:
        raise InvalidRequest("Trip end must be after trip start.")
    if start <= rules.now(db):
        raise InvalidRequest("Trip start must be in the future.")
    days = rules.days_between(start, end)
    where = "city = ? AND status = 'listed' AND min_trip_days <= ? AND max_trip_days >= ?"
    params: list[object] = [city, days, days]
    for column, value in (("vehicle_type", vehicle_type), ("fuel_type", fuel_type)):
        if value is not None:
            where += f" AND {column} = ?"
            params.append(value)
    if min_seats is not None:
        where += " AND seats >= ?"
        params.append(min_seats)
    if max_daily_price is not None:
        where += " AND daily_price <= ?"
        params.append(max_daily_price * 100)
    if instant_book_only:
        where += " AND instant_book = 1"
    lead = (start - rules.now(db)).total_seconds() / 3600
    found = [
        row
        for row in db.select(vehicles, where, params)
        if row["advance_notice_hours"] <= lead and rules.conflict_on(db, row, start, end) is None
    ]
    keys = {
        "relevance": lambda r: (-r["trip_count"], r["id"]),
        "price_low": lambda r: (r["daily_price"], -(r["rating"] or 0)),
        "rating": lambda r: (-(r["rating"] or 0), -r["trip_count"]),
    }
    found.sort(key=keys[sort])
    stars = {h["id"]: h["all_star_host"] for h in db.find(accounts, role="host")}
    results = [
        VehicleSummary(
            vehicle_id=r["id"],
            title=vehicle_title(r),
            daily_price=usd(r["daily_price"]),
            rating=r["rating"] / 100 if r["rating"] is not None else None,
            all_star_host=stars.get(r["host_id"], False),
            **{
                k: r[k]
                for k in (
                    "vehicle_type",
                    "neighborhood",
                    "seats",
                    "fuel_type",
                    "distance_per_day",
                    "instant_book",
                    "trip_count",
                )
            },
        )
        for r in found
    ]
    return paginate(results, page_size, cursor)


@tool(read_only=True)
def get_vehicle(db: Database, vehicle_id: NonBlankText) -> VehicleListing:
    """A car's listing: price, distance included and extra-mile fee, duration discounts, trip length limits,
    advance notice, Instant Book, rules, Extras and host.

    Args:
        vehicle_id: The listing number, e.g. "683717".
    """
    return vehicle_listing(db, rules.vehicle(db, vehicle_id))


@tool(read_only=True)
def list_vehicle_reviews(
    db: Database,
    vehicle_id: NonBlankText,
    rating: Annotated[int, Field(ge=1, le=5)] | None = None,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ReviewObject]:
    """Guests' reviews of a car, newest first.

    Args:
        vehicle_id: The listing number.
        rating: Only reviews with this many stars.
        page_size: Reviews per page.
        cursor: next_cursor of the previous page.
    """
    car = rules.vehicle(db, vehicle_id)
    found = db.find(reviews, vehicle_id=car["id"], **given(rating=rating))
    found.sort(key=lambda r: (r["created_date"], r["id"]), reverse=True)
    shown = [
        ReviewObject(review_id=r["id"], **{k: r[k] for k in ("author", "rating", "text", "created_date")})
        for r in found
    ]
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def list_protection_plans(db: Database) -> list[PlanObject]:
    """The guest protection plans: their price as a share of the trip price and the most the guest pays out of
    pocket for damage to the host's car."""
    return plans(db)


@tool(read_only=True)
def get_trip_quote(
    db: Database,
    vehicle_id: NonBlankText,
    start_at: TripTime,
    end_at: TripTime,
    protection_plan: Plan = "standard",
    extras: Extras | None = None,
) -> TripQuote:
    """Price a trip in a car for the signed-in guest (trip price, duration discount, trip fee, protection, Extras,
    young driver fee) and say whether the car is free then.

    Args:
        vehicle_id: The listing number.
        start_at: Trip start, local time.
        end_at: Trip end, local time.
        protection_plan: premier, standard or minimum.
        extras: Extras to add, as {extra_id: quantity}.
    """
    driver = access.guest(db)
    car = rules.vehicle(db, vehicle_id)
    start, end = rules.moment(start_at, "start_at"), rules.moment(end_at, "end_at")
    days = rules.check_span(db, car, start, end)
    rules.check_driver(driver, car, start)
    picked = rules.chosen_extras(db, car, [{"extra_id": k, "quantity": v} for k, v in (extras or {}).items()])
    priced = rules.price(db, car, car["daily_price"], days, protection_plan, picked, driver, start)
    reason = rules.conflict_on(db, car, start, end)
    return TripQuote(
        vehicle_id=car["id"],
        start_at=start_at,
        end_at=end_at,
        protection_plan=protection_plan,
        price=breakdown(priced),
        available=reason is None,
        unavailable_reason=reason,
        instant_book=car["instant_book"],
    )


# ---------------------------------------------------------------- booking and the trip


@tool()
def book_trip(
    db: Database,
    vehicle_id: NonBlankText,
    start_at: TripTime,
    end_at: TripTime,
    protection_plan: Plan,
    extras: Extras | None = None,
    payment_method_id: str | None = None,
) -> TripObject:
    """Book a car: an Instant Book car is booked at once; otherwise the request waits for the host, who has 8
    hours (or until the trip starts) to accept. The card is charged the quoted total.

    Args:
        vehicle_id: The listing number.
        start_at: Trip start, local time.
        end_at: Trip end, local time.
        protection_plan: premier, standard or minimum.
        extras: Extras to add, as {extra_id: quantity}.
        payment_method_id: The card to charge; the default card when left out.
    """
    driver = access.guest(db)
    car = rules.vehicle(db, vehicle_id)
    start, end = rules.moment(start_at, "start_at"), rules.moment(end_at, "end_at")
    days = rules.check_span(db, car, start, end)
    rules.check_driver(driver, car, start)
    picked = rules.chosen_extras(db, car, [{"extra_id": k, "quantity": v} for k, v in (extras or {}).items()])
    rules.check_available(db, car, start, end)
    chosen = access.card(db, driver, payment_method_id)
    priced = rules.price(db, car, car["daily_price"], days, protection_plan, picked, driver, start)
    stamp = rules.text_of(rules.now(db))
    stored = db.insert(
        trips,
        id=str(31_841_000 + db.next_number("trip_numbers", trips)),
        guest_id=driver["id"],
        host_id=car["host_id"],
        vehicle_id=car["id"],
        start_at=start_at,
        end_at=end_at,
        status="booked" if car["instant_book"] else "pending",
        protection_plan=protection_plan,
        extras=picked,
        extra_mile_fee=car["extra_mile_fee"],
        payment_method_id=chosen["id"],
        requested_at=stamp,
        booked_at=stamp if car["instant_book"] else None,
        **priced,
    )
    return trip_object(db, stored)


@tool(read_only=True)
def list_trips(
    db: Database, status: TripStatus | None = None, page_size: PageSize = 20, cursor: str | None = None
) -> Page[TripSummary]:
    """The signed-in account's trips (a guest's bookings, or trips in a host's cars), latest start first.

    Args:
        status: Only trips in this status.
        page_size: Trips per page.
        cursor: next_cursor of the previous page.
    """
    account = access.signed_in(db)
    column = "guest_id" if account["role"] == "guest" else "host_id"
    found = db.find(trips, **{column: account["id"]})
    found.sort(key=lambda t: (t["start_at"], t["id"]), reverse=True)
    cars = {
        v["id"]: v
        for v in db.select(vehicles, "id IN (SELECT vehicle_id FROM trips WHERE " + column + " = ?)", (account["id"],))
    }
    names = {
        a["id"]: a["name"]
        for a in db.select(accounts, "id IN (SELECT guest_id FROM trips WHERE " + column + " = ?)", (account["id"],))
    }
    shown = []
    for row in found:
        live = rules.live_status(db, row)
        if status is not None and live != status:
            continue
        shown.append(
            TripSummary(
                trip_id=row["id"],
                status=live,
                vehicle_id=row["vehicle_id"],
                vehicle=vehicle_title(cars[row["vehicle_id"]]),
                guest_name=names[row["guest_id"]],
                start_at=row["start_at"],
                end_at=row["end_at"],
                total=usd(row["total"]),
            )
        )
    return paginate(shown, page_size, cursor)


@tool(read_only=True)
def get_trip(db: Database, trip_id: NonBlankText) -> TripObject:
    """One trip with its car, times, price breakdown, Extras, free cancellation deadline, change requests,
    check-in and checkout records and reimbursement requests.

    Args:
        trip_id: The reservation number, e.g. "31840212".
    """
    return trip_object(db, access.own_trip(db, access.signed_in(db), trip_id))


@tool()
def respond_to_trip_request(db: Database, trip_id: NonBlankText, decision: Literal["accept", "decline"]) -> TripObject:
    """(Host) Accept or decline a guest's pending trip request before it expires.

    Args:
        trip_id: The requested trip's reservation number.
        decision: accept or decline.
    """
    owner = access.host(db)
    trip = access.own_trip(db, owner, trip_id)
    status = rules.live_status(db, trip)
    if status != "pending":
        raise Conflict(f"This request is {status} and can no longer be answered.")
    if decision == "decline":
        return trip_object(db, db.update(trips, trip["id"], status="declined"))
    car = rules.vehicle(db, trip["vehicle_id"])
    start, end = rules.moment(trip["start_at"], "start_at"), rules.moment(trip["end_at"], "end_at")
    rules.check_available(db, car, start, end, skip=trip["id"])
    stored = db.update(trips, trip["id"], status="booked", booked_at=rules.text_of(rules.now(db)))
    return trip_object(db, stored)


@tool()
def request_trip_change(
    db: Database,
    trip_id: NonBlankText,
    new_start_at: TripTime | None = None,
    new_end_at: TripTime | None = None,
    message: text(500) | None = None,
) -> ChangeObject:
    """Ask the host to change a booked trip's start or end, or to extend or shorten a trip in progress (its start
    can no longer move). The host has 8 hours, or until the time it concerns, to approve; the price difference is
    charged or refunded on approval. It doesn't reset the free cancellation period.

    Args:
        trip_id: The trip's reservation number.
        new_start_at: New start, local time (booked trips only).
        new_end_at: New end, local time.
        message: A note to the host.
    """
    driver = access.guest(db)
    trip = access.own_trip(db, driver, trip_id)
    status = rules.live_status(db, trip)
    if status not in ("booked", "in_progress"):
        raise Conflict(f"Only booked trips or trips in progress can be changed; this one is {status}.")
    if new_start_at is None and new_end_at is None:
        raise InvalidRequest("Choose a new start or end time.")
    if status == "in_progress" and new_start_at is not None and new_start_at != trip["start_at"]:
        raise Conflict("This trip has started; only its end time can change.")
    open_ones = db.find(trip_changes, trip_id=trip["id"], status="pending")
    if any(rules.now(db) < rules.moment(c["expires_at"], "expires_at") for c in open_ones):
        raise Conflict("You already have a change request waiting for the host.")
    car = rules.vehicle(db, trip["vehicle_id"])
    start = rules.moment(new_start_at or trip["start_at"], "new_start_at")
    end = rules.moment(new_end_at or trip["end_at"], "new_end_at")
    if end <= rules.now(db):
        raise InvalidRequest("The new end time must be in the future.")
    days = rules.check_span(db, car, start, end, new_start=new_start_at is not None and status == "booked")
    rules.check_available(db, car, start, end, skip=trip["id"])
    driver_row = db.get(accounts, trip["guest_id"], "Guest")
    priced = rules.price(db, car, trip["daily_price"], days, trip["protection_plan"], trip["extras"], driver_row, start)
    concerns = rules.moment(trip["start_at"] if status == "booked" else trip["end_at"], "at")
    stored = db.insert(
        trip_changes,
        id=db.new_id(trip_changes, "chg_", 5),
        trip_id=trip["id"],
        new_start_at=rules.text_of(start),
        new_end_at=rules.text_of(end),
        new_days=days,
        price_difference=priced["total"] - trip["total"],
        message=message,
        status="pending",
        requested_at=rules.text_of(rules.now(db)),
        expires_at=rules.text_of(rules.request_expiry(rules.now(db), concerns)),
    )
    return change_object(stored)


@tool()
def respond_to_trip_change(
    db: Database, change_id: NonBlankText, decision: Literal["approve", "decline"]
) -> TripObject:
    """(Host) Approve or decline a guest's pending change request; on approval the trip's times and price change.

    Args:
        change_id: The change request's id, e.g. "chg_00012".
        decision: approve or decline.
    """
    owner = access.host(db)
    change = db.find_one(trip_changes, not_found=f"Change request {change_id} not found.", id=change_id.strip())
    trip = access.own_trip(db, owner, change["trip_id"])
    if change["status"] != "pending" or rules.now(db) >= rules.moment(change["expires_at"], "expires_at"):
        state = change["status"] if change["status"] != "pending" else "expired"
        raise Conflict(f"This change request is {state} and can no longer be answered.")
    if decision == "decline":
        db.update(trip_changes, change["id"], status="declined")
        return trip_object(db, trip)
    car = rules.vehicle(db, trip["vehicle_id"])
    start, end = rules.moment(change["new_start_at"], "s"), rules.moment(change["new_end_at"], "e")
    rules.check_available(db, car, start, end, skip=trip["id"])
    driver = db.get(accounts, trip["guest_id"], "Guest")
    priced = rules.price(
        db, car, trip["daily_price"], change["new_days"], trip["protection_plan"], trip["extras"], driver, start
    )
    db.update(trip_changes, change["id"], status="approved")
    stored = db.update(trips, trip["id"], start_at=change["new_start_at"], end_at=change["new_end_at"], **priced)
    return trip_object(db, stored)


@tool()
def update_trip_extras(
    db: Database,
    trip_id: NonBlankText,
    extras: Extras,
    protection_plan: Plan | None = None,
) -> TripObject:
    """Replace a booked trip's Extras (and optionally its protection plan) before the trip starts; the trip is
    re-priced and the difference charged or refunded.

    Args:
        trip_id: The trip's reservation number.
        extras: The Extras the trip should have, as {extra_id: quantity} ({} removes them all).
        protection_plan: A new protection plan.
    """
    driver = access.guest(db)
    trip = access.own_trip(db, driver, trip_id)
    status = rules.live_status(db, trip)
    if status not in ("pending", "booked"):
        raise Conflict(f"Extras can only change before a trip starts; this one is {status}.")
    car = rules.vehicle(db, trip["vehicle_id"])
    picked = rules.chosen_extras(db, car, [{"extra_id": k, "quantity": v} for k, v in extras.items()])
    chosen_plan = protection_plan or trip["protection_plan"]
    start = rules.moment(trip["start_at"], "start_at")
    priced = rules.price(db, car, trip["daily_price"], trip["days"], chosen_plan, picked, driver, start)
    stored = db.update(trips, trip["id"], extras=picked, protection_plan=chosen_plan, **priced)
    return trip_object(db, stored)


@tool(read_only=True)
def get_cancellation_quote(db: Database, trip_id: NonBlankText) -> CancellationQuote:
    """What canceling a trip now costs: for a guest, free in the free cancellation period (until 24 hours before
    the start, or an hour after booking when booked within 24 hours), otherwise a fee of one day's average trip
    cost (half of it for trips of two days or less); for a host, the host's fee ($25, or $50 within 24 hours).

    Args:
        trip_id: The trip's reservation number.
    """
    account = access.signed_in(db)
    trip = access.own_trip(db, account, trip_id)
    status = rules.check_cancellable(db, trip)
    until = rules.text_of(rules.free_cancel_until(trip)) if status == "booked" else None
    if account["role"] == "host":
        paid = trip["total"] if status == "booked" else 0
        penalty = rules.host_cancellation_penalty(db, trip)
        return CancellationQuote(
            trip_id=trip["id"],
            status=status,
            free_cancellation_until=until,
            cancellation_fee=usd(0),
            refund=usd(paid),
            total_paid=usd(paid),
            host_penalty=usd(penalty),
        )
    cost = rules.guest_cancellation(db, trip)
    return CancellationQuote(
        trip_id=trip["id"],
        status=status,
        free_cancellation_until=until,
        cancellation_fee=usd(cost["fee"]),
        refund=usd(cost["refund"]),
        total_paid=usd(cost["paid"]),
        host_penalty=None,
    )


@tool()
def cancel_trip(db: Database, trip_id: NonBlankText, reason: CancelReason) -> TripObject:
    """Cancel a trip request or a booked trip before it starts. A guest pays the fee get_cancellation_quote shows;
    when the host cancels, the guest gets everything back and the host is charged a fee.

    Args:
        trip_id: The trip's reservation number.
        reason: plans_changed, found_another_car, price, host_asked, vehicle_issue or other.
    """
    account = access.signed_in(db)
    trip = access.own_trip(db, account, trip_id)
    status = rules.check_cancellable(db, trip)
    if account["role"] == "host":
        paid = trip["total"] if status == "booked" else 0
        fee, refund, penalty = 0, paid, rules.host_cancellation_penalty(db, trip)
    else:
        cost = rules.guest_cancellation(db, trip)
        fee, refund, penalty = cost["fee"], cost["refund"], None
    for change in db.find(trip_changes, trip_id=trip["id"], status="pending"):
        db.update(trip_changes, change["id"], status="withdrawn")
    stored = db.update(
        trips,
        trip["id"],
        status="canceled",
        canceled_by=account["role"],
        cancel_reason=reason,
        cancellation_fee=fee,
        refund=refund,
        host_penalty=penalty,
        canceled_at=db.now_iso(),
    )
    return trip_object(db, stored)


def record_photos(db: Database, trip_id: str, phase: str, photos: list[str]) -> None:
    """Refuse a set without the four sides and the dashboard, then store the photos."""
    missing = [a for a in (*rules.EXTERIOR, "dashboard") if a not in photos]
    if missing:
        raise InvalidRequest(
            "Take photos of the front, rear, both sides and the dashboard (fuel and odometer). Missing: "
            + ", ".join(missing)
            + "."
        )
    for angle in dict.fromkeys(photos):
        db.insert(
            trip_photos,
            id=db.new_id(trip_photos, "ph_", 6),
            trip_id=trip_id,
            phase=phase,
            angle=angle,
            taken_by="guest",
            taken_at=db.now_iso(),
        )


@tool()
def check_in(db: Database, trip_id: NonBlankText, odometer: Odometer, fuel_percent: Fuel, photos: Photos) -> TripObject:
    """(Guest, at the car) Check in to a booked trip, from an hour before its start: photos of the car's four
    sides and the dashboard, and the odometer and fuel (or charge) level. The trip is then in progress.

    Args:
        trip_id: The trip's reservation number.
        odometer: Odometer reading, miles.
        fuel_percent: Fuel or battery level, percent.
        photos: The angles photographed: front, rear, driver_side, passenger_side, interior, dashboard.
    """
    driver = access.guest(db)
    trip = access.own_trip(db, driver, trip_id)
    status = rules.live_status(db, trip)
    if status != "booked":
        raise Conflict(f"Only booked trips can be checked in; this one is {status}.")
    start, end = rules.moment(trip["start_at"], "start_at"), rules.moment(trip["end_at"], "end_at")
    if rules.now(db) < start - rules.EARLY_CHECK_IN:
        raise Conflict("You can check in up to an hour before your trip starts.")
    if rules.now(db) >= end:
        raise Conflict("This trip's scheduled end has passed.")
    record_photos(db, trip["id"], "check_in", photos)
    stored = db.update(
        trips,
        trip["id"],
        status="in_progress",
        checkin_odometer=odometer,
        checkin_fuel=fuel_percent,
        checkin_at=rules.text_of(rules.now(db)),
    )
    return trip_object(db, stored)


@tool()
def check_out(
    db: Database, trip_id: NonBlankText, odometer: Odometer, fuel_percent: Fuel, photos: Photos
) -> TripObject:
    """(Guest, at the car) End a trip in progress: photos of the four sides and the dashboard, and the odometer
    and fuel level. Fuel below the check-in level, miles over the allowance or a return 2+ hours late can be
    invoiced by the host.

    Args:
        trip_id: The trip's reservation number.
        odometer: Odometer reading, miles.
        fuel_percent: Fuel or battery level, percent.
        photos: The angles photographed.
    """
    driver = access.guest(db)
    trip = access.own_trip(db, driver, trip_id)
    status = rules.live_status(db, trip)
    if status != "in_progress":
        raise Conflict(f"Only trips in progress can be checked out; this one is {status}.")
    if odometer < trip["checkin_odometer"]:
        raise InvalidRequest(f"The odometer can't be lower than at check-in ({trip['checkin_odometer']} mi).")
    record_photos(db, trip["id"], "checkout", photos)
    stored = db.update(
        trips,
        trip["id"],
        status="completed",
        checkout_odometer=odometer,
        checkout_fuel=fuel_percent,
        checkout_at=rules.text_of(rules.now(db)),
    )
    return trip_object(db, stored)


# ---------------------------------------------------------------- reimbursements


@tool(read_only=True)
def list_reimbursements(
    db: Database,
    trip_id: str | None = None,
    status: Literal["requested", "paid", "disputed"] | None = None,
) -> list[ReimbursementObject]:
    """Reimbursement requests on the signed-in account's trips (sent by the host, or owed by the guest), newest
    first.

    Args:
        trip_id: Only those for this trip.
        status: requested, paid or disputed.
    """
    account = access.signed_in(db)
    column = "guest_id" if account["role"] == "guest" else "host_id"
    where = f"trip_id IN (SELECT id FROM trips WHERE {column} = ?)"
    params: list[object] = [account["id"]]
    if trip_id is not None:
        where += " AND trip_id = ?"
        params.append(trip_id.strip())
    if status is not None:
        where += " AND status = ?"
        params.append(status)
    found = db.select(reimbursements, where, params, order_by="requested_at DESC")
    return [reimbursement_object(r) for r in found]


@tool()
def request_reimbursement(
    db: Database,
    trip_id: NonBlankText,
    kind: Literal["fuel", "distance", "tolls", "tickets", "cleaning", "smoking", "late_return"],
    description: text(1000),
    amount: Dollars | None = None,
) -> ReimbursementObject:
    """(Host) Invoice the guest of a completed trip. Fuel, distance, cleaning, smoking and late returns within 24
    hours of checkout; tolls and tickets within 90 days. Distance is priced from the odometer (miles over the
    allowance x the extra-mile fee); fuel adds a $10 convenience fee to the fuel cost and needs a lower fuel
    level at checkout; smoking is a $150 fee; late return a $20 fee for a return 2+ hours late. The guest has 48
    hours to pay or dispute.

    Args:
        trip_id: The completed trip's reservation number.
        kind: fuel, distance, tolls, tickets, cleaning, smoking or late_return.
        description: What happened, with receipt details.
        amount: USD: the fuel cost, toll or ticket total, or cleaning cost (not used for distance, smoking or
            late_return).
    """
    owner = access.host(db)
    trip = access.own_trip(db, owner, trip_id)
    status = rules.live_status(db, trip)
    if status != "completed" or trip["checkout_at"] is None:
        raise Conflict(f"Reimbursements can only be requested for completed trips; this one is {status}.")
    ended = rules.moment(trip["checkout_at"], "checkout_at")
    window = rules.TOLLS_WINDOW if kind in ("tolls", "tickets") else rules.INCIDENTAL_WINDOW
    if rules.now(db) > ended + window:
        limit = "90 days" if kind in ("tolls", "tickets") else "24 hours"
        raise Conflict(
            f"{kind.replace('_', ' ').capitalize()} reimbursements must be requested within {limit} of the trip's end."
        )
    if kind not in ("tolls", "tickets") and db.find(reimbursements, trip_id=trip["id"], kind=kind):
        raise Conflict(f"You've already requested a {kind.replace('_', ' ')} reimbursement for this trip.")
    needs_amount = kind in ("fuel", "tolls", "tickets", "cleaning")
    if needs_amount and amount is None:
        raise InvalidRequest(f"Enter the amount for a {kind} reimbursement.")
    if not needs_amount and amount is not None:
        raise InvalidRequest(f"Turo sets the amount for a {kind.replace('_', ' ')} reimbursement; leave it out.")
    cents = round(amount * 100) if amount is not None else 0
    if kind == "fuel":
        if trip["checkout_fuel"] >= trip["checkin_fuel"]:
            raise Conflict(
                f"The car came back with {trip['checkout_fuel']}% fuel, "
                f"not below the {trip['checkin_fuel']}% at check-in."
            )
        cents += rules.FUEL_CONVENIENCE_FEE
    elif kind == "distance":
        driven = trip["checkout_odometer"] - trip["checkin_odometer"]
        allowed = trip["distance_allowed"]
        if allowed is None or driven <= allowed:
            limit = "unlimited" if allowed is None else f"{allowed} mi"
            raise Conflict(f"The guest drove {driven} mi, within the trip's allowance ({limit}).")
        cents = (driven - allowed) * trip["extra_mile_fee"]
    elif kind == "smoking":
        cents = rules.SMOKING_FEE
    elif kind == "late_return":
        late = ended - rules.moment(trip["end_at"], "end_at")
        if late < rules.LATE_RETURN_AFTER:
            raise Conflict("A late return fee applies only when the car comes back 2 or more hours late.")
        cents = rules.LATE_RETURN_FEE
    now = rules.now(db)
    stored = db.insert(
        reimbursements,
        id=db.new_id(reimbursements, "rmb_", 5),
        trip_id=trip["id"],
        kind=kind,
        amount=cents,
        description=description,
        status="requested",
        dispute_reason=None,
        payment_method_id=None,
        requested_at=rules.text_of(now),
        due_at=rules.text_of(now + rules.INVOICE_RESPONSE),
    )
    return reimbursement_object(stored)


@tool()
def respond_to_reimbursement(
    db: Database,
    reimbursement_id: NonBlankText,
    action: Literal["pay", "dispute"],
    dispute_reason: text(1000) | None = None,
    payment_method_id: str | None = None,
) -> ReimbursementObject:
    """(Guest) Pay or dispute a host's reimbursement request within 48 hours of it being sent.

    Args:
        reimbursement_id: The request's id, e.g. "rmb_00031".
        action: pay or dispute.
        dispute_reason: Why the charge is wrong (needed to dispute).
        payment_method_id: The card to pay with; the default card when left out.
    """
    driver = access.guest(db)
    row = db.find_one(
        reimbursements, not_found=f"Reimbursement {reimbursement_id} not found.", id=reimbursement_id.strip()
    )
    access.own_trip(db, driver, row["trip_id"])
    if row["status"] != "requested":
        raise Conflict(f"This reimbursement is already {row['status']}.")
    if rules.now(db) > rules.moment(row["due_at"], "due_at"):
        raise Conflict("The 48-hour window to pay or dispute this reimbursement has passed.")
    if action == "dispute":
        if not dispute_reason:
            raise InvalidRequest("Tell us why you're disputing this charge.")
        return reimbursement_object(
            db.update(reimbursements, row["id"], status="disputed", dispute_reason=dispute_reason)
        )
    chosen = access.card(db, driver, payment_method_id)
    return reimbursement_object(db.update(reimbursements, row["id"], status="paid", payment_method_id=chosen["id"]))


# ---------------------------------------------------------------- messages, cards, listings


@tool(read_only=True)
def list_messages(db: Database, trip_id: NonBlankText) -> list[MessageObject]:
    """A trip's message thread between guest and host, oldest first.

    Args:
        trip_id: The trip's reservation number.
    """
    trip = access.own_trip(db, access.signed_in(db), trip_id)
    names = {a["id"]: a["name"] for a in db.select(accounts, "id IN (?, ?)", (trip["guest_id"], trip["host_id"]))}
    return [
        MessageObject(
            message_id=m["id"],
            trip_id=m["trip_id"],
            sender_id=m["sender_id"],
            sender_name=names[m["sender_id"]],
            text=m["text"],
            sent_at=m["sent_at"],
        )
        for m in db.find(messages, trip_id=trip["id"], order_by=[messages.c.sent_at])
    ]


@tool()
def send_message(db: Database, trip_id: NonBlankText, text: text(2000)) -> MessageObject:
    """Message the other side of a trip (the host, or the guest) through Turo.

    Args:
        trip_id: The trip's reservation number.
        text: The message.
    """
    account = access.signed_in(db)
    trip = access.own_trip(db, account, trip_id)
    stored = db.insert(
        messages,
        id=db.new_id(messages, "msg_", 5),
        trip_id=trip["id"],
        sender_id=account["id"],
        text=text,
        sent_at=db.now_iso(),
    )
    return MessageObject(
        message_id=stored["id"],
        trip_id=trip["id"],
        sender_id=account["id"],
        sender_name=account["name"],
        text=text,
        sent_at=stored["sent_at"],
    )


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """The signed-in account's saved cards."""
    account = access.signed_in(db)
    return [
        PaymentMethodObject(payment_method_id=r["id"], **{k: r[k] for k in PaymentMethodObject.model_fields if k in r})
        for r in db.find(payment_methods, account_id=account["id"])
    ]


@tool()
def update_listing(
    db: Database,
    vehicle_id: NonBlankText,
    daily_price: Annotated[int, Field(ge=10, le=2000)] | None = None,
    distance_per_day: Annotated[int, Field(ge=50, le=1000)] | None = None,
    unlimited_distance: bool | None = None,
    extra_mile_fee: Annotated[float, Field(ge=0, le=5)] | None = None,
    discount_3_day: Annotated[int, Field(ge=0, le=60)] | None = None,
    discount_7_day: Annotated[int, Field(ge=0, le=60)] | None = None,
    min_trip_days: Annotated[int, Field(ge=1, le=30)] | None = None,
    advance_notice_hours: Literal[1, 3, 6, 12, 24, 48] | None = None,
    instant_book: bool | None = None,
    status: Literal["listed", "snoozed"] | None = None,
) -> VehicleListing:
    """(Host) Edit a listing; only the fields given change. Trips already booked keep their price and
    allowance. A 7+ day discount can't be smaller than the 3+ day discount.

    Args:
        vehicle_id: The listing number.
        daily_price: Daily price in whole USD.
        distance_per_day: Miles included a day.
        unlimited_distance: True for unlimited miles (then no distance_per_day).
        extra_mile_fee: USD per mile over the allowance.
        discount_3_day: Percent off 3+ day trips.
        discount_7_day: Percent off 7+ day trips.
        min_trip_days: Shortest trip in days.
        advance_notice_hours: Notice needed before a trip starts.
        instant_book: Let guests book without approval.
        status: listed, or snoozed (hidden from search, no new trips).
    """
    owner = access.host(db)
    car = access.own_vehicle(db, owner, vehicle_id)
    if unlimited_distance and distance_per_day is not None:
        raise InvalidRequest("Choose either unlimited distance or a daily distance, not both.")
    changes = given(
        daily_price=daily_price * 100 if daily_price is not None else None,
        distance_per_day=distance_per_day,
        extra_mile_fee=round(extra_mile_fee * 100) if extra_mile_fee is not None else None,
        discount_3_day=discount_3_day,
        discount_7_day=discount_7_day,
        min_trip_days=min_trip_days,
        advance_notice_hours=advance_notice_hours,
        instant_book=instant_book,
        status=status,
    )
    if unlimited_distance:
        changes["distance_per_day"] = None
    elif unlimited_distance is False and distance_per_day is None and car["distance_per_day"] is None:
        raise InvalidRequest("Set distance_per_day when turning off unlimited distance.")
    if not changes and unlimited_distance is None:
        raise InvalidRequest("Nothing to update.")
    three = changes.get("discount_3_day", car["discount_3_day"])
    seven = changes.get("discount_7_day", car["discount_7_day"])
    if seven < three:
        raise InvalidRequest("The weekly discount must be at least the 3-day discount.")
    if changes.get("min_trip_days", car["min_trip_days"]) > car["max_trip_days"]:
        raise InvalidRequest(f"The minimum trip can't be longer than the maximum ({car['max_trip_days']} days).")
    return vehicle_listing(db, db.update(vehicles, car["id"], **changes))
