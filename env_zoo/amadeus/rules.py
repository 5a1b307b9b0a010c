"""Amadeus business rules the tools share: traveler types and parties, fares and prices, fare rules (refunds,
changes), ticketing deadlines, loyalty crediting, record locators, contact details and seat plans."""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, Literal, Mapping, Sequence

from envfactory_gym import InvalidRequest
from envfactory_gym.values import parse_date

TravelerType = Literal["ADULT", "CHILD", "HELD_INFANT"]
TYPE_FACTOR = {"ADULT": 1.0, "CHILD": 0.75, "HELD_INFANT": 0.1}
TYPE_RANK = {"ADULT": 0, "CHILD": 1, "HELD_INFANT": 2}
MIN_CONNECTION = timedelta(minutes=60)
MAX_CONNECTION = timedelta(hours=6)
HOLD_DAYS = 3
CONNECTION_FACTOR = 0.75
CURRENCY = "EUR"
MAX_SEATED = 9
EXIT_ROW_MIN_AGE = 18
_PNR_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_CALLING_CODES = sorted(
    [
        "1",
        "7",
        "30",
        "31",
        "32",
        "33",
        "34",
        "36",
        "39",
        "41",
        "43",
        "44",
        "45",
        "46",
        "47",
        "48",
        "49",
        "90",
        "351",
        "353",
        "358",
        "420",
        "971",
    ],
    key=len,
    reverse=True,
)
_PHONE_SEPARATORS = re.compile(r"[\s\-().]")


# ---------------------------------------------------------------- values


def amount(cents: int) -> str:
    """Minor units as Amadeus prints amounts: `551900` -> `5519.00` (no symbol, no grouping)."""
    return f"{cents // 100}.{cents % 100:02d}"


def iso_duration(delta: timedelta) -> str:
    """An elapsed time as ISO 8601, as Amadeus prints durations: `PT2H10M`, `PT11H`."""
    hours, minutes = divmod(int(delta.total_seconds() // 60), 60)
    return f"PT{hours}H{minutes}M" if minutes else f"PT{hours}H"


@lru_cache(maxsize=64)
def utc_offset(text: str) -> timedelta:
    """A time-zone offset such as `+02:00` or `-04:00`."""
    sign = -1 if text.startswith("-") else 1
    hours, minutes = text.lstrip("+-").split(":")
    return sign * timedelta(hours=int(hours), minutes=int(minutes))


# ---------------------------------------------------------------- travelers


def age(date_of_birth: str, on: date) -> int:
    """Age in whole years on a day."""
    born = date.fromisoformat(date_of_birth)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def traveler_type(date_of_birth: str, on: date) -> TravelerType:
    """ADULT from 12, CHILD from 2, HELD_INFANT below, by the age on the day of departure."""
    years = age(date_of_birth, on)
    return "HELD_INFANT" if years < 2 else "CHILD" if years < 12 else "ADULT"


def party(adults: int, children: int, infants: int) -> list[TravelerType]:
    """The traveler types of a searched party: at most 9 seated travelers and one infant per adult's lap."""
    if adults + children > MAX_SEATED:
        raise InvalidRequest("adults plus children must not exceed 9 seated travelers")
    if infants > adults:
        raise InvalidRequest("each infant must travel on the lap of an adult: infants cannot exceed adults")
    return ["ADULT"] * adults + ["CHILD"] * children + ["HELD_INFANT"] * infants


def seated(types: Sequence[TravelerType]) -> int:
    """Travelers who take a seat (infants ride on a lap)."""
    return sum(1 for t in types if t != "HELD_INFANT")


def birth_date(value: str, today: date) -> str:
    """A date of birth: a real date, not in the future."""
    if parse_date(value, "date_of_birth", example="1986-04-12") > today:
        raise InvalidRequest("dateOfBirth cannot be in the future")
    return value


def passenger_name(value: str) -> str:
    """A name as airlines store it: single-spaced, upper case."""
    return " ".join(value.split()).upper()


def email_address(value: str) -> str:
    """An e-mail address, lower case."""
    return value.strip().lower()


def phone_number(value: str) -> str:
    """A phone number in E.164 (`+4915112345678`); `00` stands for `+`."""
    cleaned = _PHONE_SEPARATORS.sub("", value)
    return "+" + cleaned[2:] if cleaned.startswith("00") else cleaned


def phone_parts(e164: str) -> tuple[str, str]:
    """(country calling code, number) of an E.164 number."""
    digits = e164.lstrip("+")
    code = next((c for c in _CALLING_CODES if digits.startswith(c)), digits[:2])
    return code, digits[len(code) :]


def loyalty_number(value: str) -> str:
    """A frequent flyer number, spaces removed, upper case."""
    return value.replace(" ", "").upper()


def credits_on(airline: Mapping[str, Any], owner: Mapping[str, Any]) -> bool:
    """Whether miles flown on `airline` can be credited to `owner`'s program (same airline or same alliance)."""
    same_alliance = airline["alliance"] is not None and airline["alliance"] == owner["alliance"]
    return airline["code"] == owner["code"] or same_alliance


def record_locator(number: int) -> str:
    """The PNR of the n-th order: a fixed bijective scramble of n into six characters."""
    value = (number * 387420489 + 16777619) % (32**6)
    chars = []
    for _ in range(6):
        value, digit = divmod(value, 32)
        chars.append(_PNR_ALPHABET[digit])
    return "".join(reversed(chars))


# ---------------------------------------------------------------- prices and fare rules


def itinerary_base(itinerary: Sequence[Mapping[str, Any]], fare: Mapping[str, Any], kind: TravelerType) -> int:
    """Base fare in cents of one traveler on one itinerary: the cabin fare of each flight times the brand's and the
    traveler type's factors, connections at a discount."""
    factor = fare["price_factor"] * TYPE_FACTOR[kind]
    if len(itinerary) > 1:
        factor *= CONNECTION_FACTOR
    cabin = fare["cabin"]
    return sum(round(leg["base_fares"][cabin] * 100 * factor) for leg in itinerary)


def itinerary_taxes(itinerary: Sequence[Mapping[str, Any]]) -> int:
    """Departure charges in cents of one seated traveler on one itinerary."""
    return sum((leg["departure_charge"] or 0) * 100 for leg in itinerary)


def traveler_price(
    itineraries: Sequence[Sequence[Mapping[str, Any]]], fare: Mapping[str, Any], kind: TravelerType
) -> tuple[int, int]:
    """(base, total) in cents of one traveler: fares plus departure charges (infants pay no charges)."""
    base = sum(itinerary_base(itinerary, fare, kind) for itinerary in itineraries)
    taxes = 0 if kind == "HELD_INFANT" else sum(itinerary_taxes(itinerary) for itinerary in itineraries)
    return base, base + taxes


def party_price(
    itinerary: Sequence[Mapping[str, Any]], fare: Mapping[str, Any], counts: Mapping[TravelerType, int]
) -> int:
    """Total in cents of a party on one itinerary (a round trip costs the sum of its two itineraries)."""
    taxes = itinerary_taxes(itinerary)
    return sum(
        count * (itinerary_base(itinerary, fare, kind) + (0 if kind == "HELD_INFANT" else taxes))
        for kind, count in counts.items()
    )


def fare_rules(fare: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The REFUNDS and EXCHANGE rules of a branded fare, with the penalty per traveler."""
    return [
        {
            "category": "REFUNDS",
            "notApplicable": not fare["refundable"],
            "maxPenaltyAmount": amount(fare["cancellation_fee"] * 100) if fare["refundable"] else None,
        },
        {
            "category": "EXCHANGE",
            "notApplicable": not fare["changeable"],
            "maxPenaltyAmount": amount(fare["change_fee"] * 100) if fare["changeable"] else None,
        },
    ]


def cancellation(order: Mapping[str, Any], fare: Mapping[str, Any], seats: int) -> tuple[int, int]:
    """(fee, refund) in cents of cancelling an order: holds and basic fares refund nothing, other ticketed fares
    the price minus the cancellation fee per seated traveler."""
    if order["status"] != "TICKETED" or not fare["refundable"]:
        return 0, 0
    fee = min(order["grand_total"], fare["cancellation_fee"] * 100 * seats)
    return fee, order["grand_total"] - fee


def last_ticketing_date(today: date, departure: date) -> date:
    """Until when an offer can be held: HOLD_DAYS from today, at the latest the day before departure."""
    return max(today, hold_deadline(today, departure))


def hold_deadline(today: date, departure: date) -> date:
    """When a hold made today lapses (before today when the flights leave too soon to hold)."""
    return min(today + timedelta(days=HOLD_DAYS), departure - timedelta(days=1))


# ---------------------------------------------------------------- seats

SeatPlan = Mapping[str, tuple[str, int, tuple[str, ...]]]


def seat_plan(layout: Mapping[str, Any]) -> SeatPlan:
    """seat number -> (cabin, row, characteristics codes) of an aircraft layout (computed once per layout)."""
    cabins = tuple((s["cabin"], tuple(s["rows"]), s["columns"]) for s in layout["cabins"])
    return _seat_plan(cabins, tuple(layout.get("exitRows", [])))


@lru_cache(maxsize=64)
def _seat_plan(cabins: tuple[tuple[str, tuple[int, ...], str], ...], exit_rows: tuple[int, ...]) -> SeatPlan:
    plan: dict[str, tuple[str, int, tuple[str, ...]]] = {}
    exits = set(exit_rows)
    for cabin, (first_row, last_row), columns in cabins:
        blocks = columns.split()
        for row in range(first_row, last_row + 1):
            for b, block in enumerate(blocks):
                for i, letter in enumerate(block):
                    codes = []
                    if (b == 0 and i == 0) or (b == len(blocks) - 1 and i == len(block) - 1):
                        codes.append("W")
                    if (i == len(block) - 1 and b < len(blocks) - 1) or (i == 0 and b > 0):
                        codes.append("A")
                    if not codes:
                        codes.append("9")
                    if row in exits:
                        codes += ["E", "L"]
                    if row == first_row:
                        codes.append("K")
                    plan[f"{row}{letter}"] = (cabin, row, tuple(codes))
    return plan


def exit_row_refusal(
    traveler: Mapping[str, Any], travelers: Sequence[Mapping[str, Any]], departure: date
) -> str | None:
    """Why a traveler may not sit in an exit row (under 18, or holding an infant), or None."""
    if age(traveler["dateOfBirth"], departure) < EXIT_ROW_MIN_AGE:
        return "not for travelers under 18"
    if any(t["associatedAdultId"] == traveler["id"] for t in travelers):
        return "not for a traveler holding an infant"
    return None
