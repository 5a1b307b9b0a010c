"""Services sold with an offer or an order: extra checked bags (per passenger and slice, with a maximum quantity)
and seats (seat maps of the offer's cabin: occupied seats, exit rows closed to children, prices by zone)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Database

from . import fares
from .rules import content_id, fraction, validation
from .schema import order_services, orders
from .search import Reference, seats_left

MAX_BAGS = 2
BAG_WEIGHT_KG = 23
EXIT_DISCLOSURES = [
    "Do not seat children in exit row seats",
    "Do not seat passengers with special needs in exit row seats",
]
DEFAULT_LOAD = 0.8
FULL_LOAD = 0.92


@dataclass(frozen=True)
class Service:
    """A bookable service: what it is, for whom, on which segments, at what price."""

    id: str
    type: str  # baggage | seat
    passenger_id: str
    slice_id: str
    segment_ids: tuple[str, ...]
    flight_keys: tuple[str, ...]
    maximum_quantity: int
    unit_amount: int
    designator: str | None = None
    name: str | None = None
    disclosures: tuple[str, ...] = ()

    @property
    def exit_row(self) -> bool:
        """Whether this is an exit-row seat."""
        return bool(self.disclosures)


# ---------------------------------------------------------------- bags


def offer_bags(ref: Reference, offer: dict[str, Any]) -> list[Service]:
    """Extra checked bags bookable with an offer: up to two per seated passenger and slice."""
    owner = ref.airlines[offer["owner"]]
    return [
        Service(
            content_id("ase", offer["id"], s["id"], p["id"], "checked"),
            "baggage",
            p["id"],
            s["id"],
            tuple(seg["id"] for seg in s["segments"]),
            tuple(seg["flight_key"] for seg in s["segments"]),
            MAX_BAGS,
            fares.bag_price(owner, s["long_haul"]),
        )
        for s in offer["slices"]
        for p in offer["passengers"]
        if p["type"] in fares.SEATED
    ]


def order_bags(db: Database, ref: Reference, order: dict[str, Any], passengers: list[dict[str, Any]]) -> list[Service]:
    """Extra checked bags still bookable on a paid order: slices not yet flown, up to two per passenger and slice
    counting those already booked."""
    owner = ref.airlines[order["owner"]]
    booked: dict[tuple[str, str], int] = {}
    for row in db.find(order_services, order_id=order["id"], type="baggage"):
        booked[(row["passenger_id"], row["slice_id"])] = (
            booked.get((row["passenger_id"], row["slice_id"]), 0) + row["quantity"]
        )
    services = []
    for s in order["slices"]:
        if departed(db, s):
            continue
        for p in passengers:
            left = MAX_BAGS - booked.get((p["id"], s["id"]), 0)
            if p["type"] in fares.SEATED and left > 0:
                services.append(
                    Service(
                        content_id("ase", order["id"], s["id"], p["id"], "checked", booked.get((p["id"], s["id"]), 0)),
                        "baggage",
                        p["id"],
                        s["id"],
                        tuple(seg["id"] for seg in s["segments"]),
                        tuple(seg["flight_key"] for seg in s["segments"]),
                        left,
                        fares.bag_price(owner, s["long_haul"]),
                    )
                )
    return services


def departed(db: Database, stored_slice: dict[str, Any]) -> bool:
    """Whether a slice's first flight has left."""
    return stored_slice["segments"][0]["departing_at_utc"] <= db.now_iso()


# ---------------------------------------------------------------- seats


def _rows(ref: Reference, segment: dict[str, Any], cabin: str, low_cost: bool) -> list[dict[str, Any]]:
    layout = ref.aircraft[segment["aircraft_id"]]["layout"]
    if low_cost:
        return [dict(c, cabin_class="economy") for c in layout]
    return [c for c in layout if c["cabin_class"] == cabin]


def booked_seats(db: Database, flight_key: str) -> set[str]:
    """Designators booked on a dated flight by orders that are not cancelled."""
    taken = set()
    for row in db.find(order_services, type="seat"):
        if flight_key in row["flight_keys"]:
            if not db.find(orders, id=row["order_id"], cancelled=True):
                taken.add(row["designator"])
    return taken


def _seat_price(cabin: str, brand: str, row: int, first_row: int, exit_row: bool, kind: str, long_haul: bool) -> int:
    if cabin in ("business", "first") or brand in ("flex", "first"):
        return 0
    if exit_row:
        price = 3500
    elif row < first_row + 3:
        price = 1800
    else:
        price = 1200 if kind in ("window", "aisle") else 800
    return price * 2 if long_haul else price


def segment_seats(
    db: Database, ref: Reference, offer: dict[str, Any], stored_slice: dict[str, Any], segment: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every seat of the offer's cabin on one segment: designator, name, disclosures, and the services that book it
    (none when it is taken)."""
    owner = ref.airlines[offer["owner"]]
    cabin = offer["cabin_class"]
    left = seats_left(db, [segment["flight_key"]])[segment["flight_key"]][cabin]
    load = FULL_LOAD if left <= 2 else DEFAULT_LOAD
    taken = booked_seats(db, segment["flight_key"])
    seats = []
    for block in _rows(ref, segment, cabin, owner["low_cost"]):
        groups = block["seats"].split("|")
        for row in range(block["first_row"], block["last_row"] + 1):
            exit_row = row in block.get("exit_rows", [])
            for g, group in enumerate(groups):
                for i, letter in enumerate(group):
                    designator = f"{row}{letter}"
                    window = (g == 0 and i == 0) or (g == len(groups) - 1 and i == len(group) - 1)
                    aisle = not window and (i == 0 or i == len(group) - 1)
                    kind = "window" if window else "aisle" if aisle else "middle"
                    name = "Extra legroom exit row seat" if exit_row else f"{kind.capitalize()} seat"
                    free = designator not in taken and fraction("seat", segment["flight_key"], designator) >= load
                    price = _seat_price(
                        cabin, stored_slice["brand"], row, block["first_row"], exit_row, kind, stored_slice["long_haul"]
                    )
                    services = []
                    if free:
                        for p in offer["passengers"]:
                            if p["type"] == "adult" or (p["type"] == "child" and not exit_row):
                                services.append(
                                    {
                                        "id": content_id("ase", offer["id"], segment["id"], p["id"], designator),
                                        "passenger_id": p["id"],
                                        "total_amount": price,
                                    }
                                )
                    seats.append(
                        {
                            "designator": designator,
                            "name": name,
                            "disclosures": EXIT_DISCLOSURES if exit_row else [],
                            "available_services": services,
                            "row": row,
                            "exit_row": exit_row,
                        }
                    )
    return seats


def seat_cabin_shape(ref: Reference, offer: dict[str, Any], segment: dict[str, Any]) -> dict[str, int]:
    """Rows and aisles of the offer's cabin on a segment's aircraft."""
    blocks = _rows(ref, segment, offer["cabin_class"], ref.airlines[offer["owner"]]["low_cost"])
    return {
        "first_row": min(b["first_row"] for b in blocks),
        "last_row": max(b["last_row"] for b in blocks),
        "aisles": max(len(b["seats"].split("|")) - 1 for b in blocks),
    }


def offer_seats(db: Database, ref: Reference, offer: dict[str, Any]) -> list[Service]:
    """Every seat service of an offer."""
    services = []
    for s in offer["slices"]:
        for seg in s["segments"]:
            for seat in segment_seats(db, ref, offer, s, seg):
                for svc in seat["available_services"]:
                    services.append(
                        Service(
                            svc["id"],
                            "seat",
                            svc["passenger_id"],
                            s["id"],
                            (seg["id"],),
                            (seg["flight_key"],),
                            1,
                            svc["total_amount"],
                            seat["designator"],
                            seat["name"],
                            tuple(seat["disclosures"]),
                        )
                    )
    return services


# ---------------------------------------------------------------- choosing services


def resolve(
    db: Database, ref: Reference, offer: dict[str, Any], requested: list[tuple[str, int]], infant_carriers: set[str]
) -> list[tuple[Service, int]]:
    """The services asked for when creating an order, checked: each id belongs to the offer, bag quantities within
    the maximum, one seat per passenger and segment, each seat once, no exit-row seat for an adult with an infant."""
    if not requested:
        return []
    catalog = {s.id: s for s in offer_bags(ref, offer)}
    if any(sid not in catalog for sid, _ in requested):
        catalog |= {s.id: s for s in offer_seats(db, ref, offer)}
    chosen: list[tuple[Service, int]] = []
    seats_per_segment: set[tuple[str, str]] = set()
    designators: set[tuple[str, str]] = set()
    for sid, quantity in sorted(requested):  # the list is unordered: rows are booked in service-id order
        service = catalog.get(sid)
        if service is None:
            raise validation("services", f"The service {sid} is not available for this offer.")
        if quantity > service.maximum_quantity:
            raise validation("services", f"The quantity of {sid} can be at most {service.maximum_quantity}.")
        if service.type == "seat":
            key = (service.segment_ids[0], service.passenger_id)
            if key in seats_per_segment:
                raise validation("services", f"Passenger {service.passenger_id} already has a seat on this segment.")
            if (service.segment_ids[0], service.designator or "") in designators:
                raise validation("services", f"Seat {service.designator} was selected more than once.")
            if service.exit_row and service.passenger_id in infant_carriers:
                raise validation(
                    "services",
                    f"Seat {service.designator} is in an exit row, which is not available to "
                    "a passenger travelling with an infant.",
                )
            seats_per_segment.add(key)
            designators.add((service.segment_ids[0], service.designator or ""))
        chosen.append((service, quantity))
    return chosen
