"""Stays search: a city's listings filtered in SQL by guests, price, room type, bedrooms and Instant Book, then by
amenities and, with dates, by the calendar and the listing's minimum and maximum nights; best rated first."""

from __future__ import annotations

from datetime import date
from typing import Any

from envfactory_gym import Database

from .objects import ListingSummary, listing_summary
from .rules import booked_listings, quote
from .schema import listings


def search(
    db: Database,
    city: str,
    stay: tuple[date, date] | None,
    party: dict[str, int],
    filters: dict[str, Any],
) -> list[ListingSummary]:
    """Listings that fit the party, the filters and (given dates) the calendar."""
    clauses = ["city = ?", "max_guests >= ?", "bedrooms >= ?"]
    params: list[Any] = [city, party["adults"] + party["children"], filters["min_bedrooms"]]
    if party["pets"]:
        clauses.append("pets_allowed = 1")
    if filters["price_min"] is not None:
        clauses.append("nightly_price >= ?")
        params.append(filters["price_min"] * 100)
    if filters["price_max"] is not None:
        clauses.append("nightly_price <= ?")
        params.append(filters["price_max"] * 100)
    if filters["room_type"] is not None:
        clauses.append("room_type = ?")
        params.append(filters["room_type"])
    if filters["instant_book_only"]:
        clauses.append("instant_book = 1")
    wanted = {name.lower() for name in filters["amenities"] or []}
    taken = set() if stay is None else booked_listings(db, *stay)
    results = []
    for row in db.select(listings, " AND ".join(clauses), params, order_by="rating DESC, id"):
        if not wanted <= {name.lower() for name in row["amenities"]}:
            continue
        if stay is None:
            results.append(listing_summary(db, row, None))
            continue
        nights = (stay[1] - stay[0]).days
        if row["min_nights"] <= nights <= row["max_nights"] and row["id"] not in taken:
            results.append(listing_summary(db, row, quote(row, stay[0], stay[1], party["adults"], party["children"])))
    return results
