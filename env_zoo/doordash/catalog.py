"""Stores as a consumer finds them: which stores deliver to an address (radius) or are near enough for pickup,
matched on names, cuisines and dishes, nearest first; a store's page measured from an address; item options checked
against the item's extras."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .objects import OpenHours, StoreObject, StoreSummary
from .rules import PICKUP_RADIUS_MILES, is_open, miles_between, travel_minutes
from .schema import extra_options, extras, items, stores

SUMMARY_FIELDS = (
    "id",
    "name",
    "cuisines",
    "price_range",
    "rating",
    "accepting_orders",
    "delivery_fee",
    "dashpass_eligible",
    "offers_pickup",
)


def miles_to(store: dict[str, Any], address: dict[str, Any]) -> float:
    """Distance from the store to an address."""
    return miles_between(store["lat"], store["lng"], address["lat"], address["lng"])


def eta_minutes(store: dict[str, Any], miles: float) -> int:
    """Prep plus drive time of a delivery."""
    return store["prep_time_minutes"] + travel_minutes(miles)


def reaches(store: dict[str, Any], miles: float, fulfillment_type: str) -> bool:
    """Whether the store serves an address `miles` away: within its delivery radius, or 10 miles for pickup."""
    if fulfillment_type == "delivery":
        return bool(store["offers_delivery"]) and miles <= store["delivery_radius_miles"]
    return bool(store["offers_pickup"]) and miles <= PICKUP_RADIUS_MILES


def _dish_matches(db: Database, words: list[str]) -> list[set[str]]:
    """Per word, the stores with a dish whose name contains it."""
    return [{row["store_id"] for row in db.select(items, "instr(lower(name), ?) > 0", (word,))} for word in words]


def search(
    db: Database,
    address: dict[str, Any],
    query: str | None,
    fulfillment_type: str,
    open_now: bool,
    dashpass_only: bool,
) -> list[StoreSummary]:
    """Stores serving the address whose name, description, cuisines or dishes hold every query word, nearest
    first (then by name)."""
    words = (query or "").casefold().split()
    dishes = _dish_matches(db, words)
    now = db.now()
    found = []
    for store in db.find(stores, **({"dashpass_eligible": True} if dashpass_only else {})):
        miles = miles_to(store, address)
        if not reaches(store, miles, fulfillment_type):
            continue
        own = " ".join([store["name"], store["description"], *store["cuisines"]]).casefold()
        if not all(w in own or store["id"] in hits for w, hits in zip(words, dishes)):
            continue
        open_ = is_open(store, now)
        if open_now and not open_:
            continue
        summary = StoreSummary(
            **{k: store[k] for k in SUMMARY_FIELDS},
            distance_miles=round(miles, 1),
            is_open=open_,
            estimated_delivery_minutes=eta_minutes(store, miles),
        )
        found.append((miles, store["name"], summary))
    found.sort(key=lambda f: (f[0], f[1]))
    return [f[2] for f in found]


def store_object(db: Database, store: dict[str, Any], address: dict[str, Any]) -> StoreObject:
    """A store's page, measured from an address."""
    miles = miles_to(store, address)
    computed = {"address", "open_hours", "is_open", "distance_miles", "delivers_to_address"}
    computed.add("estimated_delivery_minutes")
    return StoreObject(
        **{k: store[k] for k in set(StoreObject.model_fields) - computed},
        address=f"{store['street']}, {store['city']}, CA {store['zip_code']}",
        open_hours=[OpenHours(**h) for h in store["open_hours"]],
        is_open=is_open(store, db.now()),
        distance_miles=round(miles, 1),
        delivers_to_address=reaches(store, miles, "delivery"),
        estimated_delivery_minutes=eta_minutes(store, miles),
    )


def chosen_options(db: Database, item: dict[str, Any], option_ids: list[str]) -> list[str]:
    """The chosen options, sorted, checked against the item's extras (each once, active, required choices made,
    no more than an extra allows)."""
    if len(set(option_ids)) != len(option_ids):
        raise InvalidRequest("Each option can be chosen only once.")
    groups = db.find(extras, item_id=item["id"], order_by=[extras.c.sort_index])
    owner = {o["id"]: (o, g) for g in groups for o in db.find(extra_options, extra_id=g["id"])}
    for option_id in option_ids:
        if option_id not in owner:
            raise InvalidRequest(f"Option '{option_id}' isn't an option of {item['name']}.")
        option, _ = owner[option_id]
        if not option["is_active"]:
            raise Conflict(f"{option['name']} is unavailable right now.")
    for group in groups:
        chosen = sum(1 for i in option_ids if owner[i][1]["id"] == group["id"])
        if chosen < group["min_num_options"]:
            raise InvalidRequest(f"Choose at least {group['min_num_options']} for '{group['name']}' ({item['name']}).")
        if chosen > group["max_num_options"]:
            raise InvalidRequest(f"Choose at most {group['max_num_options']} for '{group['name']}' ({item['name']}).")
    return sorted(option_ids)
