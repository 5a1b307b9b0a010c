"""Fitbit's rules and conversions: units per user setting, the meal types and food units, date-range limits,
calories burned by a logged activity (METs x weight x hours), and "today" in the user's own time zone."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from envfactory_gym.values import parse_date

from .errors import validation

KM_PER_MILE = 1.609344
KG_PER_LB = 0.45359237
ML_PER_FL_OZ = 29.5735295625
ML_PER_CUP = 236.5882365

#: the longest date range each kind of range query accepts, in days
MAX_RANGE_DAYS = {"activity time series": 1095, "sleep": 100, "body": 31}

MEAL_TYPES = {1: "Breakfast", 2: "Morning Snack", 3: "Lunch", 4: "Afternoon Snack", 5: "Dinner", 7: "Anytime"}

#: Fitbit's food unit ids the tools accept, with their names
FOOD_UNITS = {304: "serving", 147: "gram", 226: "oz", 91: "cup", 349: "tbsp", 364: "tsp", 311: "slice", 279: "piece"}

WEEKDAYS = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")

#: silent alarms one tracker holds at most
MAX_ALARMS = 8

#: the weight Fitbit assumes for calorie estimates when the user has never logged one
DEFAULT_WEIGHT_KG = 70.0


def today(now: datetime, timezone: str) -> date:
    """The user's current date: the simulated clock in their time zone."""
    return now.astimezone(ZoneInfo(timezone)).date()


def local_now(now: datetime, timezone: str) -> datetime:
    """The simulated clock in the user's time zone."""
    return now.astimezone(ZoneInfo(timezone))


def day(value: str, field: str, now: datetime, timezone: str, *, past_only: bool = True) -> date:
    """A yyyy-MM-dd argument as a date; logging for a day after the user's today is refused."""
    parsed = parse_date(value, field)
    if past_only and parsed > today(now, timezone):
        raise validation(field, f"Invalid date:{value}. The date cannot be in the future.")
    return parsed


def date_range(start: str, end: str, kind: str) -> tuple[date, date]:
    """A start and end date at most MAX_RANGE_DAYS[kind] days apart, start first."""
    first, last = parse_date(start, "start_date"), parse_date(end, "end_date")
    if last < first:
        raise validation("end_date", f"Invalid date range: end date {end} is before start date {start}.")
    limit = MAX_RANGE_DAYS[kind]
    if (last - first).days + 1 > limit:
        raise validation("end_date", f"The maximum date range for {kind} is {limit} days.")
    return first, last


def to_distance(km: float, unit: str) -> float:
    """Kilometres in the user's distance unit (miles for en_US), 2 decimals."""
    return round(km / KM_PER_MILE if unit == "en_US" else km, 2)


def from_distance(value: float, unit: str) -> float:
    """A distance in `unit` (en_US: miles, METRIC: km) in kilometres."""
    return value * KM_PER_MILE if unit == "en_US" else value


def to_weight(kg: float, unit: str) -> float:
    """Kilograms in the user's weight unit (pounds for en_US), 1 decimal."""
    return round(kg / KG_PER_LB if unit == "en_US" else kg, 1)


def from_weight(value: float, unit: str) -> float:
    """A weight in `unit` (en_US: lb, METRIC: kg) in kilograms."""
    return value * KG_PER_LB if unit == "en_US" else value


def to_water(ml: float, unit: str) -> float:
    """Millilitres in the user's water unit (fluid ounces for en_US), 1 decimal."""
    return round(ml / ML_PER_FL_OZ if unit == "en_US" else ml, 1)


def water_ml(amount: float, unit: str) -> float:
    """A water amount in ml, fl oz or cup, in millilitres."""
    return amount * {"ml": 1.0, "fl oz": ML_PER_FL_OZ, "cup": ML_PER_CUP}[unit]


def activity_calories(mets: float, weight_kg: float, duration_ms: int) -> int:
    """Calories an activity burns: METs x body weight (kg) x hours."""
    return round(mets * weight_kg * duration_ms / 3_600_000)


def bmi(weight_kg: float, height_cm: float) -> float:
    """Body mass index from weight and height."""
    return round(weight_kg / (height_cm / 100) ** 2, 2)
