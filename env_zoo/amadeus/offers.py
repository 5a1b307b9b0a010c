"""Flight offers: the flights ("legs") they are made of, offer ids, the itinerary search over the schedule and the
ranking of offers by price.

An offer id names its flights and branded fare: `<flight>+<flight>~<flight>/<brandedFare>` (`+` joins the flights
of one itinerary, `~` the outbound and return itineraries). Legs carry the time-zone offsets and the departure
charge of their airports and the names of their airline and aircraft, read with the flights in one query.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import cached_property
from typing import Any, Iterable, Sequence

from sqlalchemy import String, bindparam, literal, select, type_coerce

from envfactory_gym import Conflict, Database, NotFound
from envfactory_gym.fastpath import json_value

from .rules import MAX_CONNECTION, MIN_CONNECTION, TravelerType, party_price, seated, utc_offset
from .schema import aircraft, airlines, fare_families, flights, locations

Leg = dict[str, Any]
Itinerary = list[Leg]

_DEPARTURE = locations.alias("departure_airport")
_ARRIVAL = locations.alias("arrival_airport")
_LEGS = (
    select(
        flights.c.id,
        flights.c.carrier_code,
        flights.c.number,
        flights.c.departure_iata,
        flights.c.departure_terminal,
        flights.c.departure_at,
        flights.c.arrival_iata,
        flights.c.arrival_terminal,
        flights.c.arrival_at,
        flights.c.aircraft_code,
        type_coerce(flights.c.base_fares, String).label("base_fares"),  # decoded by orjson in `legs`
        type_coerce(flights.c.seats_left, String).label("seats_left"),
        _DEPARTURE.c.time_zone_offset.label("departure_offset"),
        _DEPARTURE.c.passenger_charge.label("departure_charge"),
        _ARRIVAL.c.time_zone_offset.label("arrival_offset"),
        airlines.c.business_name.label("carrier_name"),
        aircraft.c.name.label("aircraft_name"),
    )
    .join_from(flights, _DEPARTURE, _DEPARTURE.c.id == literal("A") + flights.c.departure_iata)
    .join(_ARRIVAL, _ARRIVAL.c.id == literal("A") + flights.c.arrival_iata)
    .join(airlines, airlines.c.code == flights.c.carrier_code)
    .join(aircraft, aircraft.c.code == flights.c.aircraft_code)
    .order_by(flights.c.departure_at, flights.c.id)
)
# Statements are built once, with bound parameters, so a call only binds values (building one costs more than
# running it).
_LEGS_BY_ID = _LEGS.where(flights.c.id.in_(bindparam("ids", expanding=True)))
_FIRST_LEGS = _LEGS.where(
    flights.c.departure_iata.in_(bindparam("origins", expanding=True)),
    flights.c.departure_at >= bindparam("start"),
    flights.c.departure_at < bindparam("end"),
)
_FIRST_LEGS_ON = _FIRST_LEGS.where(flights.c.carrier_code.in_(bindparam("carriers", expanding=True)))
_CONNECTING_LEGS = _LEGS.where(
    flights.c.departure_iata.in_(bindparam("hubs", expanding=True)),
    flights.c.arrival_iata.in_(bindparam("destinations", expanding=True)),
    flights.c.departure_at >= bindparam("earliest"),
    flights.c.departure_at <= bindparam("latest"),
)


def legs(db: Database, statement: Any, **params: Any) -> list[Leg]:
    """Flights a prepared statement selects, with their airports' offsets and charges, by departure."""
    found = [dict(row) for row in db.conn.execute(statement, params).mappings().all()]
    for leg in found:
        leg["base_fares"], leg["seats_left"] = json_value(leg["base_fares"]), json_value(leg["seats_left"])
    return found


def departs(leg: Leg) -> datetime:
    """A leg's departure in UTC (worked out once per leg)."""
    moment = leg.get("departs_utc")
    if moment is None:
        moment = leg["departs_utc"] = _utc(leg["departure_at"], leg["departure_offset"])
    return moment


def arrives(leg: Leg) -> datetime:
    """A leg's arrival in UTC (worked out once per leg)."""
    moment = leg.get("arrives_utc")
    if moment is None:
        moment = leg["arrives_utc"] = _utc(leg["arrival_at"], leg["arrival_offset"])
    return moment


def _utc(local: str, offset: str) -> datetime:
    return datetime.fromisoformat(local).replace(tzinfo=timezone.utc) - utc_offset(offset)


def departed(db: Database, leg: Leg) -> bool:
    """Whether a leg has left (by the simulated clock)."""
    return departs(leg) <= db.now()


def flight_name(leg: Leg) -> str:
    """`LH454`."""
    return f"{leg['carrier_code']}{leg['number']}"


def itinerary_key(itinerary: Sequence[Leg]) -> str:
    """The part of an offer id that names one itinerary's flights."""
    return "+".join(leg["id"] for leg in itinerary)


@dataclass(frozen=True)
class Offer:
    """A resolved flight-offer: its itineraries (lists of legs) and branded fare (a fare_families row)."""

    id: str
    itineraries: list[Itinerary]
    fare: dict[str, Any]

    @cached_property
    def segments(self) -> list[Leg]:
        """Every flight of the offer, in order (segment ids are their 1-based positions)."""
        return [leg for itinerary in self.itineraries for leg in itinerary]

    @property
    def cabin(self) -> str:
        """The booked cabin."""
        return self.fare["cabin"]

    @property
    def departure_date(self) -> date:
        """Local date of the first departure."""
        return date.fromisoformat(self.segments[0]["departure_at"][:10])

    def seats_left(self) -> int:
        """Seats still for sale in the booked cabin on its fullest flight."""
        return min(leg["seats_left"][self.cabin] for leg in self.segments)

    def segment_ids(self) -> dict[str, str]:
        """flight id -> segment id ("1", "2"...)."""
        return {leg["id"]: str(n) for n, leg in enumerate(self.segments, start=1)}

    def segment(self, segment_id: str) -> Leg | None:
        """The leg with this segment id, or None."""
        return next((leg for n, leg in enumerate(self.segments, start=1) if str(n) == segment_id), None)

    def require_not_departed(self, db: Database, action: str) -> None:
        """Conflict when any flight of the offer has left."""
        for leg in self.segments:
            if departed(db, leg):
                raise Conflict(
                    f"Cannot {action}: {flight_name(leg)} of {leg['departure_at'][:10]} has already departed"
                )


def _connects(first: Leg, second: Leg) -> bool:
    if first["arrival_iata"] != second["departure_iata"] or first["carrier_code"] != second["carrier_code"]:
        return False
    gap = datetime.fromisoformat(second["departure_at"]) - datetime.fromisoformat(first["arrival_at"])
    return MIN_CONNECTION <= gap <= MAX_CONNECTION


def parse_offer(db: Database, offer_id: str) -> Offer:
    """Resolve a flight-offer id or raise NotFound: known flights, at most two itineraries, connections on one
    airline within the connection window, and a branded fare of that airline sold in the cabin on every flight."""
    missing = NotFound(f"Flight offer '{offer_id}' not found: search flight offers again")
    if offer_id.count("/") != 1:
        raise missing
    flights_part, brand = offer_id.split("/")
    parts = [part.split("+") for part in flights_part.split("~")]
    if len(parts) > 2 or any(not ids[0] or len(set(ids)) != len(ids) for ids in parts):
        raise missing
    found = {leg["id"]: leg for leg in legs(db, _LEGS_BY_ID, ids=sorted({i for ids in parts for i in ids}))}
    if any(i not in found for ids in parts for i in ids):
        raise missing
    itineraries = [[found[i] for i in ids] for ids in parts]
    if any(not _connects(a, b) for itinerary in itineraries for a, b in zip(itinerary, itinerary[1:])):
        raise missing
    carriers = {leg["carrier_code"] for itinerary in itineraries for leg in itinerary}
    if len(carriers) != 1:
        raise missing
    fare = db.find(fare_families, id=f"{carriers.pop()}-{brand}")
    if not fare or any(fare[0]["cabin"] not in leg["base_fares"] for leg in found.values()):
        raise missing
    return Offer(offer_id, itineraries, fare[0])


_ROUTE_LEGS = select(
    flights.c.id,
    flights.c.carrier_code,
    flights.c.number,
    flights.c.departure_iata,
    flights.c.departure_at,
    flights.c.arrival_iata,
).where(flights.c.id.in_(bindparam("ids", expanding=True)))
_FARE_NAMES = select(fare_families.c.id, fare_families.c.cabin, fare_families.c.branded_fare).where(
    fare_families.c.id.in_(bindparam("ids", expanding=True))
)


@dataclass(frozen=True)
class Route:
    """What a listing shows of a stored offer: its itineraries' flights (route and times only) and its fare."""

    itineraries: list[Itinerary]
    cabin: str
    branded_fare: str


def routes_of(db: Database, offer_ids: Iterable[str]) -> dict[str, Route]:
    """The routes of stored offers (those of existing orders), with one query for their flights and one for their
    fares."""
    split = {oid: [part.split("+") for part in oid.split("/")[0].split("~")] for oid in set(offer_ids)}
    wanted = sorted({i for parts in split.values() for ids in parts for i in ids})
    found = {row["id"]: dict(row) for row in db.conn.execute(_ROUTE_LEGS, {"ids": wanted}).mappings().all()}
    fare_of = {oid: f"{found[parts[0][0]]['carrier_code']}-{oid.split('/')[1]}" for oid, parts in split.items()}
    fares = {row["id"]: row for row in db.conn.execute(_FARE_NAMES, {"ids": sorted(set(fare_of.values()))}).mappings()}
    return {
        oid: Route(
            [[found[i] for i in ids] for ids in parts],
            fares[fare_of[oid]]["cabin"],
            fares[fare_of[oid]]["branded_fare"],
        )
        for oid, parts in split.items()
    }


# ---------------------------------------------------------------- search

_AIRPORTS = (
    select(locations.c.iata_code, locations.c.city_code)
    .where(
        locations.c.sub_type == "AIRPORT",
        locations.c.iata_code.in_(bindparam("codes", expanding=True))
        | locations.c.city_code.in_(bindparam("codes", expanding=True)),
    )
    .order_by(locations.c.id)
)


def airports_for(db: Database, *codes: str) -> list[list[str]]:
    """For each IATA airport or city code, the airports it stands for (LON: LCY, LGW, LHR)."""
    wanted = [code.strip().upper() for code in codes]
    rows = db.conn.execute(_AIRPORTS, {"codes": sorted(set(wanted))}).all()
    found = []
    for code in wanted:
        airports = [iata for iata, city in rows if code in (iata, city)]
        if not airports:
            raise NotFound(f"LOCATION NOT FOUND: no airport or city with IATA code {code!r}")
        found.append(airports)
    return found


def itineraries(
    db: Database, origins: list[str], destinations: list[str], day: str, carriers: set[str], non_stop: bool
) -> list[Itinerary]:
    """Direct flights and one-stop connections on the same carrier, departing on the local date `day`, by
    departure (a first flight's connections follow it, by their departure)."""
    window = {"origins": origins, "start": f"{day}T", "end": f"{day}U"}
    firsts = (
        legs(db, _FIRST_LEGS_ON, **window, carriers=sorted(carriers)) if carriers else legs(db, _FIRST_LEGS, **window)
    )
    hubs = {leg["arrival_iata"] for leg in firsts} - set(destinations) - set(origins)
    by_hub: dict[str, list[Leg]] = {}
    if hubs and not non_stop:
        arrivals = [datetime.fromisoformat(leg["arrival_at"]) for leg in firsts if leg["arrival_iata"] in hubs]
        for leg in legs(
            db,
            _CONNECTING_LEGS,
            hubs=sorted(hubs),
            destinations=destinations,
            earliest=(min(arrivals) + MIN_CONNECTION).isoformat(),
            latest=(max(arrivals) + MAX_CONNECTION).isoformat(),
        ):
            by_hub.setdefault(leg["departure_iata"], []).append(leg)
    found: list[Itinerary] = []
    for first in firsts:
        if first["arrival_iata"] in destinations:
            found.append([first])
        elif first["arrival_iata"] in by_hub:
            arrived = datetime.fromisoformat(first["arrival_at"])
            earliest, latest = (arrived + MIN_CONNECTION).isoformat(), (arrived + MAX_CONNECTION).isoformat()
            found.extend(
                [first, second]
                for second in by_hub[first["arrival_iata"]]
                if second["carrier_code"] == first["carrier_code"] and earliest <= second["departure_at"] <= latest
            )
    return found


@dataclass(frozen=True)
class _Priced:
    """An itinerary that can carry the party on a fare, and what the party pays for it."""

    price: int
    itinerary: Itinerary


def _priced(
    itineraries_found: list[Itinerary], fare: dict[str, Any], counts: Counter[TravelerType], need: int
) -> list[_Priced]:
    cabin = fare["cabin"]
    out = []
    for itinerary in itineraries_found:
        if itinerary[0]["carrier_code"] != fare["carrier_code"]:
            continue
        if any(cabin not in leg["base_fares"] or leg["seats_left"][cabin] < need for leg in itinerary):
            continue
        out.append(_Priced(party_price(itinerary, fare, counts), itinerary))
    out.sort(key=lambda p: p.price)
    return out


def rank_offers(
    db: Database,
    outbound: list[Itinerary],
    inbound: list[Itinerary] | None,
    families: list[dict[str, Any]],
    types: list[TravelerType],
    max_total: int | None,
    limit: int,
) -> tuple[int, list[Offer]]:
    """(how many offers match, the `limit` cheapest): one offer per itinerary (pair) and branded fare with seats
    for the party, the outbound not yet departed, at most `max_total` cents; ties by departure, then offer id.

    A round trip's price is the sum of its itineraries' prices, so each itinerary is priced once per fare and the
    pairs are ranked without building every one of them."""
    counts, need = Counter(types), seated(types)
    outbound = [itinerary for itinerary in outbound if not departed(db, itinerary[0])]
    ranked: list[tuple[int, str, str, list[Itinerary], dict[str, Any]]] = []
    total = 0
    for fare in families:
        outs = _priced(outbound, fare, counts, need)
        if inbound is None:
            for o in outs:
                if max_total is None or o.price <= max_total:
                    total += 1
                    ranked.append(
                        (
                            o.price,
                            o.itinerary[0]["departure_at"],
                            f"{itinerary_key(o.itinerary)}/{fare['branded_fare']}",
                            [o.itinerary],
                            fare,
                        )
                    )
            continue
        ins = _priced(inbound, fare, counts, need)
        if not outs or not ins:
            continue
        in_prices = [i.price for i in ins]
        total += (
            sum(bisect_right(in_prices, max_total - o.price) for o in outs)
            if max_total is not None
            else len(outs) * len(ins)
        )
        threshold = _kth_pair_sum([o.price for o in outs], in_prices, limit, max_total)
        if threshold is None:
            continue
        for o in outs:
            if o.price + ins[0].price > threshold:
                break
            for i in ins:
                if o.price + i.price > threshold:
                    break
                ranked.append(
                    (
                        o.price + i.price,
                        o.itinerary[0]["departure_at"],
                        f"{itinerary_key(o.itinerary)}~{itinerary_key(i.itinerary)}/{fare['branded_fare']}",
                        [o.itinerary, i.itinerary],
                        fare,
                    )
                )
    ranked.sort(key=lambda r: (r[0], r[1], r[2]))
    return total, [Offer(offer_id, found, fare) for _, _, offer_id, found, fare in ranked[:limit]]


def _kth_pair_sum(a: list[int], b: list[int], k: int, cap: int | None) -> int | None:
    """The k-th smallest a[i] + b[j] of two ascending lists (the largest one up to `cap` when fewer than k are),
    or None when no sum is within `cap`."""
    heap = [(a[0] + b[0], 0, 0)]
    seen = {(0, 0)}
    found = None
    for _ in range(k):
        if not heap:
            break
        value, i, j = heapq.heappop(heap)
        if cap is not None and value > cap:
            break
        found = value
        for ni, nj in ((i + 1, j), (i, j + 1)):
            if ni < len(a) and nj < len(b) and (ni, nj) not in seen:
                seen.add((ni, nj))
                heapq.heappush(heap, (a[ni] + b[nj], ni, nj))
    return found


def span(first: Leg, last: Leg) -> timedelta:
    """Elapsed time from the departure of `first` to the arrival of `last`."""
    return arrives(last) - departs(first)


def names_of(offers: Iterable[Offer]) -> tuple[dict[str, str], dict[str, str]]:
    """The dictionaries of a search result: airline code -> name and aircraft code -> name, by code."""
    found = [leg for offer in offers for leg in offer.segments]
    return (
        dict(sorted((leg["carrier_code"], leg["carrier_name"]) for leg in found)),
        dict(sorted((leg["aircraft_code"], leg["aircraft_name"]) for leg in found)),
    )
