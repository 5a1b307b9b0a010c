"""The airlines' fare rules: fare brands per cabin and their conditions (changes and refunds with penalties),
included baggage, how a slice is priced (schedule fare, cabin, brand, how soon it departs, passenger type, taxes),
payment requirements (hold or instant), identity documents and the loyalty programmes an airline accepts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from .rules import fraction, iso, money

CABIN_FACTOR = {"economy": 1.0, "premium_economy": 1.9, "business": 3.6, "first": 6.2}
SHORT_HAUL_BUSINESS_FACTOR = 2.3
PASSENGER_FACTOR = {"adult": 1.0, "child": 0.75, "infant_without_seat": 0.1}
LONG_HAUL_KM = 3000
SEATED = ("adult", "child")
EMISSIONS_PER_KM = {"economy": 0.085, "premium_economy": 0.13, "business": 0.25, "first": 0.34}
ALLIANCES = {
    "oneworld": ["BA", "AA", "IB", "AY", "QR"],
    "skyteam": ["AF", "KL", "DL", "VS"],
    "star": ["LH", "LX", "SK", "TP", "AC", "SQ", "UA"],
}
LOYALTY_PARTNERS = {"VS": ["VS", "DL", "AF", "KL"], "EK": ["EK", "QF"], "EI": ["EI", "BA", "AA"]}
DOCUMENT_COUNTRIES = {"US", "CA", "SG", "AE", "QA"}  # itineraries touching these need passports at booking

#: economy brand names per airline: (basic, standard, flex); low-cost carriers sell (standard, flexi)
ECONOMY_BRANDS = {
    "BA": ("Basic", "Standard", "Flex"),
    "VS": ("Economy Light", "Economy Classic", "Economy Delight"),
    "AA": ("Basic Economy", "Main Cabin", "Main Cabin Flexible"),
    "AF": ("Light", "Standard", "Flex"),
    "KL": ("Light", "Standard", "Flex"),
    "LH": ("Economy Light", "Economy Classic", "Economy Flex"),
    "LX": ("Economy Light", "Economy Classic", "Economy Flex"),
    "IB": ("Basic", "Classic", "Flexible"),
    "TP": ("Discount", "Classic", "Plus"),
    "EI": ("Saver", "Smart", "Flex"),
    "SK": ("Go Light", "Go Smart", "Plus"),
    "AY": ("Light", "Classic", "Flex"),
    "EK": ("Saver", "Flex", "Flex Plus"),
    "QR": ("Economy Classic", "Economy Convenience", "Economy Comfort"),
    "SQ": ("Lite", "Standard", "Flexi"),
    "AC": ("Basic", "Standard", "Flex"),
    "U2": ("Standard", "FLEXI"),
    "VY": ("Basic", "TimeFlex"),
}
CABIN_NAMES = {
    "BA": {
        "economy": ("Euro Traveller", "World Traveller"),
        "premium_economy": "World Traveller Plus",
        "business": ("Club Europe", "Club World"),
        "first": "First",
    },
    "VS": {"economy": "Economy", "premium_economy": "Premium", "business": "Upper Class"},
    "AA": {
        "economy": "Main Cabin",
        "premium_economy": "Premium Economy",
        "business": "Flagship Business",
        "first": "Flagship First",
    },
    "AF": {"economy": "Economy", "premium_economy": "Premium", "business": "Business", "first": "La Première"},
    "EK": {"economy": "Economy", "premium_economy": "Premium Economy", "business": "Business", "first": "First"},
    "QR": {"economy": "Economy", "business": "Qsuite"},
    "SQ": {"economy": "Economy", "premium_economy": "Premium Economy", "business": "Business"},
}


@dataclass(frozen=True)
class Brand:
    """A fare brand: what it is called, how it is priced and what it allows."""

    code: str  # basic | standard | flex | first
    name: str
    factor: float
    checked_bags: int
    change_allowed: bool
    change_penalty: int  # per seated passenger per slice, pence
    refund_allowed: bool
    refund_penalty: int  # per seated passenger per slice, pence


def brands(airline: dict[str, Any], cabin: str, long_haul: bool) -> list[Brand]:
    """The fare brands an airline sells in a cabin, cheapest first."""
    if airline["low_cost"]:
        standard, flexi = ECONOMY_BRANDS[airline["iata_code"]]
        return [
            Brand("standard", standard, 1.0, 0, True, 4900, False, 0),
            Brand("flex", flexi, 1.6, 1, True, 0, False, 0),
        ]
    if cabin == "economy":
        basic, standard, flex = ECONOMY_BRANDS[airline["iata_code"]]
        change = 15000 if long_haul else 5500
        return [
            Brand("basic", basic, 1.0, 0, False, 0, False, 0),
            Brand("standard", standard, 1.22, 1, True, change, False, 0),
            Brand("flex", flex, 1.85, 2 if long_haul else 1, True, 0, True, 0),
        ]
    label = {"premium_economy": "Premium", "business": "Business", "first": "First"}[cabin]
    if cabin == "first":
        return [Brand("first", "First", 1.0, 3, True, 0, True, 0)]
    return [
        Brand("standard", f"{label} Standard", 1.0, 2, True, 15000, True, 25000),
        Brand("flex", f"{label} Flex", 1.35, 2, True, 0, True, 0),
    ]


def brand_named(airline: dict[str, Any], cabin: str, long_haul: bool, code: str) -> Brand:
    """The airline's brand with this code in a cabin (a removed slice keeps its brand when it is changed)."""
    found = [b for b in brands(airline, cabin, long_haul) if b.code == code]
    return found[0] if found else brands(airline, cabin, long_haul)[0]


def cabin_marketing_name(airline: dict[str, Any], cabin: str, long_haul: bool) -> str:
    """What the airline calls the cabin."""
    names = CABIN_NAMES.get(airline["iata_code"], {})
    name = names.get(cabin, cabin.replace("_", " ").title())
    if isinstance(name, tuple):
        return name[1] if long_haul else name[0]
    return name


def demand_factor(today: date, departure: date) -> float:
    """Fares rise as departure nears: +2% a day inside four weeks."""
    days = max(0, (departure - today).days)
    return 1.0 + max(0, 28 - days) * 0.02


def slice_fare(legs: list[dict[str, Any]], cabin: str, brand: Brand, today: date) -> int:
    """One adult's base fare for a slice, in whole pounds (pence)."""
    total = 0.0
    long_haul = any(leg["distance_km"] >= LONG_HAUL_KM for leg in legs)
    for leg in legs:
        cabin_factor = CABIN_FACTOR[cabin]
        if cabin == "business" and not long_haul:
            cabin_factor = SHORT_HAUL_BUSINESS_FACTOR
        variation = 0.9 + 0.3 * fraction("fare", leg["flight_key"])
        total += leg["base_fare"] * cabin_factor * variation
    if len(legs) > 1:
        total *= 0.85
    total *= brand.factor * demand_factor(today, date.fromisoformat(legs[0]["departing_at"][:10]))
    return int(round(total / 100)) * 100


def slice_tax(legs: list[dict[str, Any]], cabin: str, passenger_type: str) -> int:
    """Taxes, fees and charges for one passenger on a slice (UK air passenger duty from UK airports)."""
    if passenger_type == "infant_without_seat":
        return 0
    long_haul = any(leg["distance_km"] >= LONG_HAUL_KM for leg in legs)
    tax = 0
    if legs[0]["origin_country"] == "GB":
        premium = cabin != "economy"
        tax += (19100 if premium else 8700) if long_haul else (2600 if premium else 1300)
        if passenger_type == "child":
            tax = 0  # children under 12 are exempt from UK air passenger duty in economy and above
    tax += 1850 * len(legs)  # airport and security charges per departure
    return tax


def conditions(brand: Brand, seated: int) -> dict[str, Any]:
    """A slice's conditions for all seated passengers."""
    return {
        "change_before_departure": {
            "allowed": brand.change_allowed,
            "penalty_amount": brand.change_penalty * seated if brand.change_allowed else None,
        },
        "refund_before_departure": {
            "allowed": brand.refund_allowed,
            "penalty_amount": brand.refund_penalty * seated if brand.refund_allowed else None,
        },
    }


def combined_conditions(slices: list[dict[str, Any]]) -> dict[str, Any]:
    """An offer's (or order's) conditions: a change or refund of the whole trip is allowed only if every slice
    allows it, with the slices' penalties added up."""
    result: dict[str, Any] = {}
    for kind in ("change_before_departure", "refund_before_departure"):
        parts = [s["conditions"][kind] for s in slices]
        allowed = all(p["allowed"] for p in parts)
        result[kind] = {
            "allowed": allowed,
            "penalty_amount": sum(p["penalty_amount"] or 0 for p in parts) if allowed else None,
        }
    return result


def render_conditions(stored: dict[str, Any]) -> dict[str, Any]:
    """Stored conditions as the API shows them: penalties as decimal strings with their currency."""
    shown = {}
    for kind, rule in stored.items():
        penalty = rule.get("penalty_amount")
        shown[kind] = {
            "allowed": rule["allowed"],
            "penalty_amount": None if penalty is None else money(penalty),
            "penalty_currency": None if penalty is None else "GBP",
        }
    return shown


def payment_requirements(airline: dict[str, Any], today: date, first_departure_utc: datetime) -> dict[str, Any]:
    """Whether an offer must be paid at once, and for a hold: the payment deadline and the price guarantee.
    Low-cost carriers and trips leaving within 72 hours need instant payment."""
    if airline["low_cost"] or first_departure_utc - timedelta(hours=72) <= _day_end(today):
        return {"requires_instant_payment": True, "payment_required_by": None, "price_guarantee_expires_at": None}
    deadline = min(_day_end(today + timedelta(days=3)), first_departure_utc - timedelta(hours=72))
    guarantee = min(_day_end(today + timedelta(days=1)), deadline)
    return {
        "requires_instant_payment": False,
        "payment_required_by": iso(deadline),
        "price_guarantee_expires_at": iso(guarantee),
    }


def _day_end(day: date) -> datetime:
    return datetime.combine(day, time(17, 0), tzinfo=timezone.utc)


def needs_documents(countries: set[str]) -> bool:
    """Itineraries to or from the US, Canada, Singapore, the UAE or Qatar need a passport for every passenger."""
    return bool(countries & DOCUMENT_COUNTRIES)


def allowed_documents(countries: set[str]) -> list[str]:
    """Identity documents an offer accepts: none on UK domestic trips, passports otherwise."""
    return [] if countries == {"GB"} else ["passport"]


def supported_loyalty(owner: str) -> list[str]:
    """The loyalty programmes whose accounts an airline's offers accept."""
    if owner in LOYALTY_PARTNERS:
        return LOYALTY_PARTNERS[owner]
    for members in ALLIANCES.values():
        if owner in members:
            return members
    return []


def emissions(legs: list[dict[str, Any]], cabin: str, seated: int) -> int:
    """Estimated kilograms of CO2 for the passengers flying these legs."""
    return int(round(sum(leg["distance_km"] for leg in legs) * EMISSIONS_PER_KM[cabin] * seated))


def bag_price(airline: dict[str, Any], long_haul: bool) -> int:
    """The price of one extra 23 kg checked bag per passenger per slice."""
    if airline["low_cost"]:
        return 4299
    return 7000 if long_haul else 3500
