"""Distances and routes, computed deterministically from coordinates: great-circle distance, a detour factor and
average speed per travel mode, and the Tagus between Lisbon and the south bank (no walking or cycling across)."""

from __future__ import annotations

import math
from dataclasses import dataclass

EARTH_RADIUS_M = 6_371_008.8
BRIDGE_DETOUR_M = 5_000  # by road the south bank is reached over the 25 de Abril bridge
FERRY_WAIT_S = 600  # Cais do Sodré - Cacilhas ferry


@dataclass(frozen=True)
class Mode:
    """How one travel mode turns a straight line into a route."""

    detour: float  # route length over great-circle distance
    speed: float  # metres per second, stops included
    overhead: int  # seconds: parking, waiting for the first vehicle
    crosses_river: bool


MODES = {
    "DRIVE": Mode(1.4, 8.3, 180, True),
    "TWO_WHEELER": Mode(1.35, 9.7, 60, True),
    "BICYCLE": Mode(1.3, 4.2, 0, False),
    "WALK": Mode(1.25, 1.35, 0, False),
    "TRANSIT": Mode(1.35, 6.0, 420, True),
}


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle (haversine) distance in metres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(a))


def south_bank(lat: float, lon: float) -> bool:
    """Whether a point lies across the Tagus from Lisbon (Almada, Cacilhas)."""
    return lat < 38.692 and lon > -9.24


def route(origin: tuple[float, float], destination: tuple[float, float], travel_mode: str) -> tuple[int, int] | None:
    """(distance in metres, duration in seconds) of a route, or None when the mode can't make the trip."""
    if origin == destination:
        return 0, 0
    mode = MODES[travel_mode]
    crossing = south_bank(*origin) != south_bank(*destination)
    if crossing and not mode.crosses_river:
        return None
    meters = distance_m(*origin, *destination) * mode.detour
    seconds = meters / mode.speed + mode.overhead
    if crossing and travel_mode == "TRANSIT":
        seconds += FERRY_WAIT_S
    elif crossing:
        meters += BRIDGE_DETOUR_M
        seconds += BRIDGE_DETOUR_M / mode.speed
    return round(meters), round(seconds)


def localized_distance(meters: int) -> str:
    """'850 m' or '3.4 km'."""
    return f"{meters} m" if meters < 1000 else f"{meters / 1000:.1f} km"


def localized_duration(seconds: int) -> str:
    """'1 min', '14 mins', '1 hour 5 mins'."""
    minutes = max(1, round(seconds / 60)) if seconds else 0
    hours, rest = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours > 1 else ''}")
    if rest or not hours:
        parts.append(f"{rest} min{'s' if rest != 1 else ''}")
    return " ".join(parts)
