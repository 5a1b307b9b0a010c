"""Finding a car: locations matching the words a person types, the classes and rates a location offers for a
trip, and a line-by-line quote for one class."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .objects import AvailabilityObject, LocationObject, QuoteObject, VehicleOffer, vehicle_label
from .rules import (
    Trip,
    age_on,
    booked_by_class,
    cars_left,
    extra_rows,
    fmt,
    ineligibility,
    offering,
    pay_now_rate,
    price,
)
from .schema import fleet, locations, vehicle_classes

SEARCHED = ("location_id", "name", "airport_code", "address", "city", "state", "postal_code", "location_type")


def locations_matching(db: Database, query: str | None) -> list[LocationObject]:
    """Locations holding every word of `query` (any case) in their code, name, airport, address, city, state,
    ZIP or type, by city then name."""
    terms = (query or "").lower().split()
    anywhere = " OR ".join(f"instr(lower(coalesce({column}, '')), ?) > 0" for column in SEARCHED)
    where = " AND ".join(f"({anywhere})" for _ in terms)
    params = [term for term in terms for _ in SEARCHED]
    return [LocationObject(**row) for row in db.select(locations, where, params, order_by="city, name")]


def availability(db: Database, member: dict[str, Any], trip: Trip) -> AvailabilityObject:
    """Every class the pickup location rents for the trip, cheapest first, priced for the member: sold-out
    classes and classes the member is too young for flagged."""
    age = age_on(member["date_of_birth"], trip.pickup.date())
    classes = {row["sipp_code"]: row for row in db.find(vehicle_classes)}
    booked = booked_by_class(db, trip)
    offers = []
    for row in db.find(fleet, location_id=trip.pickup_location["location_id"], order_by=[fleet.c.daily_rate]):
        vehicle = classes[row["sipp_code"]]
        available = row["units"] - booked[row["sipp_code"]] > 0
        problem = ineligibility(trip, vehicle, age)
        offers.append(
            VehicleOffer(
                **{k: vehicle[k] for k in VehicleOffer.model_fields if k in vehicle},
                available=available,
                eligible=problem is None,
                rate_per_day=row["daily_rate"],
                pay_now_rate_per_day=pay_now_rate(row["daily_rate"]),
                estimated_total=price(trip, vehicle, row, "pay_later", age).estimated_total,
                points_required=vehicle["points_per_day"] * trip.days,
                note=problem or (None if available else "Sold out for these dates"),
            )
        )
    return AvailabilityObject(
        pickup_location_id=trip.pickup_location["location_id"],
        return_location_id=trip.return_location["location_id"],
        pickup_datetime=fmt(trip.pickup),
        return_datetime=fmt(trip.ret),
        rental_days=trip.days,
        drop_fee=trip.drop_fee,
        vehicles=offers,
    )


def quote(
    db: Database, member: dict[str, Any], trip: Trip, sipp_code: str, payment_type: str, extras_codes: list[str]
) -> QuoteObject:
    """One class priced line by line for the member, with one of each extra in `extras_codes`."""
    vehicle, fleet_row = offering(db, trip, sipp_code)
    age = age_on(member["date_of_birth"], trip.pickup.date())
    problem = ineligibility(trip, vehicle, age)
    if problem:
        raise PermissionDenied(problem)
    location_id = trip.pickup_location["location_id"]
    booked = extra_rows(db, [{"code": c, "quantity": 1} for c in extras_codes], location_id)
    charges = price(trip, vehicle, fleet_row, payment_type, age, booked)
    return QuoteObject(
        pickup_location_id=location_id,
        return_location_id=trip.return_location["location_id"],
        pickup_datetime=fmt(trip.pickup),
        return_datetime=fmt(trip.ret),
        sipp_code=vehicle["sipp_code"],
        vehicle=vehicle_label(db, vehicle["sipp_code"]),
        payment_type=payment_type,
        available=cars_left(db, trip, fleet_row) > 0,
        rental_days=trip.days,
        rate_per_day=charges.rate_per_day,
        base_charge=charges.base_charge,
        extras=charges.extra_lines,
        extras_charge=charges.extras_charge,
        young_renter_charge=charges.young_renter_charge,
        drop_fee=charges.drop_fee,
        fees=charges.fee_lines,
        taxes_and_fees=charges.taxes_and_fees,
        estimated_total=charges.estimated_total,
        points_required=charges.points_required,
    )
