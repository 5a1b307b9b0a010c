"""Flight search behind offer requests and order change requests: the dated flights of the airlines' schedules,
direct and one-stop itineraries on one marketing carrier, seat availability per cabin, and the priced slices and
offers built from them."""

from __future__ import annotations

import itertools
from datetime import date, datetime, timedelta, timezone
from functools import cached_property
from typing import Any

from envfactory_gym import Database

from . import fares
from .rules import content_id, local_to_utc
from .schema import aircraft, airlines, airports, flight_loads, schedules

DEFAULT_SEATS = {"economy": 9, "premium_economy": 7, "business": 5, "first": 2}
MIN_CONNECTION, MAX_CONNECTION = 60, 480
ITINERARIES_PER_AIRLINE = 3
COMBINATIONS_PER_AIRLINE = 4


class Reference:
    """The reference tables one call needs (airports, airlines, aircraft), read once per call."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._schedules: list[dict[str, Any]] | None = None

    @cached_property
    def airports(self) -> dict[str, dict[str, Any]]:
        """Airports by IATA code (read on first use)."""
        return {a["iata_code"]: a for a in self._db.find(airports)}

    @cached_property
    def airlines(self) -> dict[str, dict[str, Any]]:
        """Airlines by IATA code (read on first use)."""
        return {a["iata_code"]: a for a in self._db.find(airlines)}

    @cached_property
    def aircraft(self) -> dict[str, dict[str, Any]]:
        """Aircraft by id (read on first use)."""
        return {a["id"]: a for a in self._db.find(aircraft)}

    @property
    def schedules(self) -> list[dict[str, Any]]:
        """Every schedule entry (read on first use)."""
        if self._schedules is None:
            self._schedules = self._db.find(schedules)
        return self._schedules

    def place_codes(self, code: str) -> list[str]:
        """The airports an IATA airport or city code stands for (LON -> LCY, LGW, LHR, STN)."""
        upper = code.strip().upper()
        if upper in self.airports:
            return [upper]
        return sorted(a for a, row in self.airports.items() if row["iata_city_code"] == upper)


def flight_key(schedule: dict[str, Any], day: date) -> str:
    """The dated operating flight a schedule entry stands for (codeshares share their operating flight's key)."""
    return f"{schedule['operating_carrier']}{int(schedule['operating_flight_number']):04d}/{day.isoformat()}"


def _loads(db: Database, keys: list[str]) -> dict[str, dict[str, Any]]:
    """The stored seat counts of these dated flights (flights never sold have none), in one read."""
    wanted = sorted(set(keys))
    return {r["id"]: r for r in db.select(flight_loads, f'"id" IN ({", ".join("?" * len(wanted))})', wanted)}


def seats_left(db: Database, keys: list[str]) -> dict[str, dict[str, int]]:
    """Seats still for sale per cabin on these dated flights."""
    if not keys:
        return {}
    rows = _loads(db, keys)
    return {
        key: {cabin: (rows[key][cabin] if key in rows else DEFAULT_SEATS[cabin]) for cabin in DEFAULT_SEATS}
        for key in keys
    }


def take_seats(db: Database, legs: list[dict[str, Any]], cabin: str, seated: int) -> None:
    """Sell (or, with a negative count, release) seats on dated flights."""
    keys = sorted({leg["flight_key"] for leg in legs})
    if not keys:
        return
    stored = _loads(db, keys)
    for key in keys:
        current = {c: (stored[key][c] if key in stored else DEFAULT_SEATS[c]) for c in DEFAULT_SEATS}
        current[cabin] = max(0, current[cabin] - seated)
        if key in stored:
            db.update(flight_loads, key, **{cabin: current[cabin]})
        else:
            db.insert(flight_loads, id=key, **current)


def _leg(ref: Reference, schedule: dict[str, Any], day: date) -> dict[str, Any]:
    origin, destination = ref.airports[schedule["origin"]], ref.airports[schedule["destination"]]
    departing_local = f"{day.isoformat()}T{schedule['departure_time']}:00"
    departing_utc = local_to_utc(departing_local, origin["utc_offset_minutes"])
    arriving_utc = departing_utc + timedelta(minutes=schedule["duration_minutes"])
    arriving_local = (arriving_utc + timedelta(minutes=destination["utc_offset_minutes"])).replace(tzinfo=None)
    plane = ref.aircraft[schedule["aircraft_id"]]
    return {
        "flight_key": flight_key(schedule, day),
        "marketing_carrier": schedule["marketing_carrier"],
        "marketing_carrier_flight_number": schedule["flight_number"],
        "operating_carrier": schedule["operating_carrier"],
        "operating_carrier_flight_number": schedule["operating_flight_number"],
        "origin": schedule["origin"],
        "destination": schedule["destination"],
        "origin_country": origin["iata_country_code"],
        "destination_country": destination["iata_country_code"],
        "origin_terminal": schedule["origin_terminal"],
        "destination_terminal": schedule["destination_terminal"],
        "departing_at": departing_local,
        "arriving_at": arriving_local.isoformat(timespec="seconds"),
        "departing_at_utc": departing_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "arriving_at_utc": arriving_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "duration_minutes": schedule["duration_minutes"],
        "distance_km": schedule["distance_km"],
        "aircraft_id": plane["id"],
        "aircraft_name": plane["name"],
        "aircraft_iata_code": plane["iata_code"],
        "base_fare": schedule["base_fare"],
        "cabins": schedule["cabins"],
    }


def _dated(
    ref: Reference, origins: set[str], destinations: set[str] | None, exclude: set[str], days: list[date]
) -> list[dict[str, Any]]:
    rows = [
        s
        for s in ref.schedules
        if s["origin"] in origins
        and (s["destination"] in destinations if destinations is not None else s["destination"] not in exclude)
    ]
    legs = []
    for day in days:
        stamp = day.isoformat()
        legs += [
            _leg(ref, s, day)
            for s in rows
            if str(day.isoweekday()) in s["days"] and s["valid_from"] <= stamp <= s["valid_to"]
        ]
    return legs


def itineraries(
    db: Database,
    ref: Reference,
    origins: list[str],
    destinations: list[str],
    day: date,
    max_connections: int,
    cabin: str,
    seated: int,
) -> dict[str, list[list[dict[str, Any]]]]:
    """Each airline's itineraries for one slice: direct flights, and with max_connections >= 1 one-stop connections
    on the same marketing carrier (60 minutes to 8 hours at the hub), where the cabin is sold and has seats for
    everyone who needs one. At most three per airline, fewest connections first, then earliest."""
    starts, ends = set(origins), set(destinations)
    options = [[leg] for leg in _dated(ref, starts, ends, set(), [day])]
    if max_connections >= 1:
        firsts = _dated(ref, starts, None, ends, [day])
        hubs = {leg["destination"] for leg in firsts}
        seconds = _dated(ref, hubs, ends, set(), [day, day + timedelta(days=1)]) if hubs else []
        for first in firsts:
            arrive = datetime.fromisoformat(first["arriving_at_utc"].replace("Z", "+00:00"))
            for second in seconds:
                if (
                    second["origin"] != first["destination"]
                    or second["marketing_carrier"] != first["marketing_carrier"]
                ):
                    continue
                leave = datetime.fromisoformat(second["departing_at_utc"].replace("Z", "+00:00"))
                if MIN_CONNECTION <= (leave - arrive).total_seconds() / 60 <= MAX_CONNECTION:
                    options.append([first, second])
    seats = seats_left(db, [leg["flight_key"] for option in options for leg in option])
    by_airline: dict[str, list[list[dict[str, Any]]]] = {}
    for option in options:
        carrier = option[0]["marketing_carrier"]
        sold = cabin if not ref.airlines[carrier]["low_cost"] else "economy"
        if sold != cabin:
            continue
        if all(cabin in leg["cabins"] and seats[leg["flight_key"]][cabin] >= seated for leg in option):
            by_airline.setdefault(carrier, []).append(option)
    for carrier, found in by_airline.items():
        found.sort(key=lambda o: (len(o), o[0]["departing_at"], o[0]["marketing_carrier_flight_number"]))
        by_airline[carrier] = found[:ITINERARIES_PER_AIRLINE]
    return by_airline


def minutes_between(legs: list[dict[str, Any]]) -> int:
    """A slice's duration, first departure to last arrival."""
    start = datetime.fromisoformat(legs[0]["departing_at_utc"].replace("Z", "+00:00"))
    end = datetime.fromisoformat(legs[-1]["arriving_at_utc"].replace("Z", "+00:00"))
    return int((end - start).total_seconds() // 60)


def priced_slice(
    ref: Reference,
    legs: list[dict[str, Any]],
    cabin: str,
    brand: fares.Brand,
    passenger_types: list[str],
    today: date,
    slice_id: str,
    segment_ids: list[str],
) -> dict[str, Any]:
    """A stored slice: its segments, fare brand, conditions and what it costs for these passengers."""
    adult_fare = fares.slice_fare(legs, cabin, brand, today)
    base = sum(int(round(adult_fare * fares.PASSENGER_FACTOR[t])) for t in passenger_types)
    tax = sum(fares.slice_tax(legs, cabin, t) for t in passenger_types)
    seated = sum(t in fares.SEATED for t in passenger_types)
    long_haul = any(leg["distance_km"] >= fares.LONG_HAUL_KM for leg in legs)
    owner = ref.airlines[legs[0]["marketing_carrier"]]
    segments = [
        {k: v for k, v in leg.items() if k not in ("base_fare", "cabins")} | {"id": seg_id}
        for leg, seg_id in zip(legs, segment_ids)
    ]
    return {
        "id": slice_id,
        "origin": legs[0]["origin"],
        "destination": legs[-1]["destination"],
        "departure_date": legs[0]["departing_at"][:10],
        "fare_brand_name": brand.name,
        "brand": brand.code,
        "cabin_class": cabin,
        "cabin_class_marketing_name": fares.cabin_marketing_name(owner, cabin, long_haul),
        "checked_bags": brand.checked_bags,
        "long_haul": long_haul,
        "duration_minutes": minutes_between(legs),
        "conditions": fares.conditions(brand, seated),
        "base_amount": base,
        "tax_amount": tax,
        "segments": segments,
    }


def build_offers(
    db: Database,
    ref: Reference,
    request: dict[str, Any],
    today: date,
    options: list[dict[str, list[list[dict[str, Any]]]]],
) -> list[dict[str, Any]]:
    """The offers of an offer request: per airline that flies every slice, its itinerary combinations (at most
    four) in every fare brand of the cabin."""
    cabin = request["cabin_class"]
    types = [p["type"] for p in request["passengers"]]
    seated = sum(t in fares.SEATED for t in types)
    owners = sorted(set.intersection(*(set(o) for o in options))) if options else []
    built = []
    for owner in owners:
        airline = ref.airlines[owner]
        combos = sorted(
            itertools.product(*(o[owner] for o in options)),
            key=lambda c: (sum(len(s) for s in c), [s[0]["departing_at"] for s in c]),
        )
        for combo in combos[:COMBINATIONS_PER_AIRLINE]:
            long_haul = any(leg["distance_km"] >= fares.LONG_HAUL_KM for legs in combo for leg in legs)
            for brand in fares.brands(airline, cabin, long_haul):
                keys = [leg["flight_key"] for legs in combo for leg in legs]
                offer_id = content_id("off", request["id"], owner, *keys, brand.code)
                slices = [
                    priced_slice(
                        ref,
                        list(legs),
                        cabin,
                        brand,
                        types,
                        today,
                        content_id("sli", offer_id, i),
                        [content_id("seg", offer_id, i, j) for j in range(len(legs))],
                    )
                    for i, legs in enumerate(combo)
                ]
                built.append(offer_row(ref, offer_id, request, owner, slices, today, seated))
    return built


def offer_row(
    ref: Reference,
    offer_id: str,
    request: dict[str, Any],
    owner: str,
    slices: list[dict[str, Any]],
    today: date,
    seated: int,
) -> dict[str, Any]:
    """The stored offer (timestamps are added by the caller)."""
    legs = [seg for s in slices for seg in s["segments"]]
    countries = {seg["origin_country"] for seg in legs} | {seg["destination_country"] for seg in legs}
    first = datetime.fromisoformat(legs[0]["departing_at_utc"].replace("Z", "+00:00")).astimezone(timezone.utc)
    base = sum(s["base_amount"] for s in slices)
    tax = sum(s["tax_amount"] for s in slices)
    requirements = fares.payment_requirements(ref.airlines[owner], today, first)
    return {
        "id": offer_id,
        "offer_request_id": request["id"],
        "owner": owner,
        "slices": slices,
        "passengers": request["passengers"],
        "cabin_class": request["cabin_class"],
        "base_amount": base,
        "tax_amount": tax,
        "total_amount": base + tax,
        "total_currency": "GBP",
        "conditions": fares.combined_conditions(slices),
        "requires_instant_payment": requirements["requires_instant_payment"],
        "payment_required_by": requirements["payment_required_by"],
        "price_guarantee_expires_at": requirements["price_guarantee_expires_at"],
        "identity_documents_required": fares.needs_documents(countries),
        "allowed_identity_document_types": fares.allowed_documents(countries),
        "supported_loyalty_programmes": fares.supported_loyalty(owner),
        "total_emissions_kg": fares.emissions(legs, request["cabin_class"], seated),
        "sort_duration": sum(s["duration_minutes"] for s in slices),
    }
