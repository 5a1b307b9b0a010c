"""Yelp's business search: centre on a neighborhood or the city, filter by term, categories, price and open now,
sort by best match, rating, review count or distance, then page by limit and offset."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .objects import Region, SearchResult, summary, titles
from .rules import SORTS, best_match, category_family, check_window, distance_m, is_open_at, local_now, matches_term
from .rules import place as find_place
from .schema import businesses


def search(
    db: Database,
    location: str,
    term: str,
    category_aliases: list[str],
    price: list[int],
    open_now: bool,
    radius: int | None,
    sort_by: str,
    window: tuple[int, int],
) -> SearchResult:
    """Businesses matching every filter, sorted and paged; closed-for-good businesses never show."""
    limit, offset = window
    check_window(limit, offset)
    centre = find_place(db, location)
    family = category_family(db, category_aliases) if category_aliases else None
    names = titles(db)
    now = local_now(db)
    where, params = "is_closed = 0", []
    if radius is None and centre["kind"] == "neighborhood":
        where, params = where + " AND neighborhood = ?", [centre["name"]]
    if price:
        where, params = where + f" AND price IN ({', '.join('?' * len(price))})", [*params, *price]
    found: list[tuple[dict[str, Any], float]] = []
    for row in db.select(businesses, where, params):
        away = distance_m(centre["latitude"], centre["longitude"], row["latitude"], row["longitude"])
        if radius is not None and away > radius:
            continue
        if term and not matches_term(row, names, term):
            continue
        if family is not None and not family.intersection(row["categories"]):
            continue
        if open_now and not is_open_at(row, now):
            continue
        found.append((row, away))
    if sort_by == "best_match":
        found.sort(key=lambda pair: best_match(pair[0], term))
    else:
        found.sort(key=lambda pair: SORTS[sort_by](pair[0], pair[1]))
    return SearchResult(
        businesses=[summary(row, names, away) for row, away in found[offset : offset + limit]],
        total=len(found),
        region=Region(name=centre["name"], latitude=centre["latitude"], longitude=centre["longitude"]),
    )
