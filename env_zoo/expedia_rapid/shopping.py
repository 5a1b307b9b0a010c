"""Shopping: content lookups, availability across properties for dates and occupancies, and the price check that
returns the live price and a booking token."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest

from .objects import (
    Address,
    CancelPenalty,
    Checkin,
    OccupancyPricing,
    PriceCheck,
    PropertyAvailability,
    PropertyContent,
    PropertySummary,
    Rate,
    RoomAvailability,
    RoomContent,
    pricing,
)
from .rules import cancel_penalties, fits, money, nightly_prices, room_type, rooms_left, stay_dates, stay_total
from .schema import price_checks, properties, rates, regions, rooms


def content(db: Database, prop: dict[str, Any]) -> PropertyContent:
    return PropertyContent(
        property_id=prop["property_id"],
        name=prop["name"],
        region_id=prop["region_id"],
        address=Address(
            line_1=prop["line_1"], city=prop["city"], postal_code=prop["postal_code"], country_code=prop["country_code"]
        ),
        category=prop["category"],
        chain=prop["chain"],
        star_rating=prop["star_rating"],
        guest_rating=prop["guest_rating"],
        phone=prop["phone"],
        checkin=Checkin(
            begin_time=prop["checkin_begin_time"], end_time=prop["checkin_end_time"], min_age=prop["checkin_min_age"]
        ),
        checkout_time=prop["checkout_time"],
        amenities=prop["amenities"],
        pets_allowed=prop["pets_allowed"],
        know_before_you_go=prop["know_before_you_go"],
        resort_fee_per_night=money(prop["resort_fee"]),
        rooms=[
            RoomContent(
                id=r["room_id"],
                name=r["name"],
                max_adults=r["max_adults"],
                max_occupancy=r["max_occupancy"],
                bed_group=r["bed_group"],
                amenities=r["amenities"],
            )
            for r in db.find(rooms, property_id=prop["property_id"])
        ],
    )


def search(
    db: Database,
    region_id: str | None,
    category: str | None,
    star_rating_min: float | None,
    amenity: str | None,
    pets_allowed: bool | None,
) -> list[PropertySummary]:
    """Properties matching the content filters; a region includes its child regions' properties."""
    where, params = [], []
    if region_id is not None:
        region = db.get(regions, region_id, "Region")
        ids = set(region["property_ids"]).union(*(c["property_ids"] for c in db.find(regions, parent_id=region_id)))
        where.append(f"property_id IN ({', '.join('?' for _ in ids)})" if ids else "0")
        params += sorted(ids)
    if category is not None:
        where.append("category = ?")
        params.append(category)
    if star_rating_min is not None:
        where.append("CAST(star_rating AS REAL) >= ?")
        params.append(star_rating_min)
    if pets_allowed is not None:
        where.append("pets_allowed = ?")
        params.append(pets_allowed)
    rows = db.select(properties, " AND ".join(where), params)
    if amenity is not None:
        rows = [p for p in rows if amenity.lower() in (a.lower() for a in p["amenities"])]
    return [PropertySummary(**{k: p[k] for k in PropertySummary.model_fields}) for p in rows]


def _pricing(
    prop: dict[str, Any], rate: dict[str, Any], nights: list[str], occupancy: list[str], live: bool
) -> tuple[list[OccupancyPricing], int]:
    """Per-room pricing for each occupancy and the inclusive total of all rooms, in cents."""
    nightly = nightly_prices(rate, nights, live)
    per_room = [pricing(o, nights, nightly, prop["resort_fee"]) for o in occupancy]
    return per_room, stay_total(nightly) * len(occupancy)


def _rate(
    db: Database,
    prop: dict[str, Any],
    rate: dict[str, Any],
    nights: list[str],
    occupancy: list[str],
    left: int,
    checkin: str,
    checkout: str,
) -> Rate:
    """One shopped rate at its cached price, with its penalty windows for this stay."""
    per_room, total = _pricing(prop, rate, nights, occupancy, live=False)
    return Rate(
        id=rate["rate_id"],
        status="available",
        available_rooms=left,
        board=rate["board"],
        refundable=rate["refundable"],
        holdable=rate["holdable"],
        cancel_penalties=[CancelPenalty(**w) for w in cancel_penalties(db, rate, checkin, checkout)],
        occupancy_pricing=per_room,
        total_inclusive=money(total),
    )


def availability(
    db: Database, property_ids: list[str], checkin: str, checkout: str, occupancy: list[str], refundable_only: bool
) -> list[PropertyAvailability]:
    """Properties with at least one rate bookable for every room asked for; rooms sold out or too small are left
    out, as Rapid leaves them out."""
    nights = stay_dates(db, checkin, checkout)
    found = []
    for property_id in property_ids:
        prop = db.get(properties, property_id, "Property")
        offered = []
        for room in db.find(rooms, property_id=property_id):
            if not all(fits(room, o) for o in occupancy):
                continue
            left = rooms_left(db, room["room_id"], nights)
            if left < len(occupancy):
                continue
            offers = [
                _rate(db, prop, rate, nights, occupancy, left, checkin, checkout)
                for rate in db.find(rates, room_id=room["room_id"])
                if rate["refundable"] or not refundable_only
            ]
            if offers:
                offered.append(RoomAvailability(id=room["room_id"], room_name=room["name"], rates=offers))
        if offered:
            found.append(
                PropertyAvailability(property_id=property_id, name=prop["name"], status="available", rooms=offered)
            )
    return found


def price_check(
    db: Database, property_id: str, room_id: str, rate_id: str, checkin: str, checkout: str, occupancy: list[str]
) -> PriceCheck:
    """The live price of a rate for a stay: available (same as shopped), price_changed (a new price, and a token
    that books at it) or sold_out (no token)."""
    prop = db.get(properties, property_id, "Property")
    room = room_type(db, property_id, room_id)
    rate = db.get(rates, rate_id, "Rate")
    if rate["room_id"] != room_id:
        raise InvalidRequest(f"resource.not_found: rate {rate_id} is not a rate of room {room_id}")
    nights = stay_dates(db, checkin, checkout)
    for o in occupancy:
        if not fits(room, o):
            raise InvalidRequest(f"invalid_input: occupancy {o} does not fit room {room_id}")
    per_room, total = _pricing(prop, rate, nights, occupancy, live=True)
    if rooms_left(db, room_id, nights) < len(occupancy):
        status = "sold_out"
    else:
        status = "price_changed" if rate["live_change_percent"] else "available"
    token = None
    if status != "sold_out":
        token = db.new_id(price_checks, "tok_", width=6)
        db.insert(
            price_checks,
            token=token,
            property_id=property_id,
            room_id=room_id,
            rate_id=rate_id,
            checkin=checkin,
            checkout=checkout,
            occupancy=list(occupancy),
            status=status,
            total=total,
            used=False,
        )
    return PriceCheck(
        status=status,
        token=token,
        property_id=property_id,
        room_id=room_id,
        rate_id=rate_id,
        occupancy_pricing=per_room,
        total_inclusive=money(total),
    )
