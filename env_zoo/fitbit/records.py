"""How stored rows become Fitbit's resources, in the user's own units."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from .objects import (
    ActivityLog,
    Alarm,
    BodyLog,
    Device,
    FoodLog,
    Goals,
    Profile,
    SleepLog,
    SleepStages,
    WaterLog,
    WeightGoal,
)
from .rules import FOOD_UNITS, MEAL_TYPES, bmi, to_distance, to_water, to_weight


def profile(user: dict[str, Any]) -> Profile:
    """A user's profile."""
    return Profile(
        encodedId=user["id"],
        fullName=user["full_name"],
        displayName=user["display_name"],
        timezone=user["timezone"],
        memberSince=user["member_since"],
        gender=user["gender"],
        height=user["height_cm"],
        strideLengthWalking=user["stride_walking_cm"],
        strideLengthRunning=user["stride_running_cm"],
        distanceUnit=user["distance_unit"],
        weightUnit=user["weight_unit"],
        waterUnit=user["water_unit"],
    )


def activity_log(row: dict[str, Any], user: dict[str, Any]) -> ActivityLog:
    """An activity log in the user's distance unit."""
    return ActivityLog(
        logId=row["id"],
        activityId=row["activity_id"],
        activityName=row["activity_name"],
        logType=row["log_type"],
        startDate=row["date"],
        startTime=row["start_time"],
        duration=row["duration_ms"],
        distance=None if row["distance_km"] is None else to_distance(row["distance_km"], user["distance_unit"]),
        distanceUnit=user["distance_unit"],
        calories=row["calories"],
        steps=row["steps"],
    )


def goals(row: dict[str, Any], user: dict[str, Any]) -> Goals:
    """Activity goals in the user's distance unit."""
    return Goals(
        period=row["period"],
        steps=row["steps"],
        distance=to_distance(row["distance_km"], user["distance_unit"]),
        floors=row["floors"],
        activeMinutes=row["active_minutes"],
        caloriesOut=row["calories_out"],
    )


def sleep_log(row: dict[str, Any], main: bool) -> SleepLog:
    """A sleep log; `main` marks the longest sleep of its date."""
    start = datetime.fromisoformat(row["start"])
    end = start + timedelta(milliseconds=row["duration_ms"])
    stages = (
        SleepStages(deep=row["deep"], light=row["light"], rem=row["rem"], wake=row["wake"])
        if row["type"] == "stages"
        else None
    )
    in_bed = row["minutes_asleep"] + row["minutes_awake"]
    return SleepLog(
        logId=row["id"],
        dateOfSleep=row["date_of_sleep"],
        startTime=start.strftime("%Y-%m-%dT%H:%M:%S.000"),
        endTime=end.strftime("%Y-%m-%dT%H:%M:%S.000"),
        duration=row["duration_ms"],
        minutesAsleep=row["minutes_asleep"],
        minutesAwake=row["minutes_awake"],
        efficiency=round(100 * row["minutes_asleep"] / in_bed) if in_bed else 0,
        type=row["type"],
        logType=row["log_type"],
        isMainSleep=main,
        levels=stages,
    )


def body_log(row: dict[str, Any], user: dict[str, Any]) -> BodyLog:
    """A weight or fat log in the user's weight unit."""
    weight = row["kind"] == "weight"
    return BodyLog(
        logId=row["id"],
        kind=row["kind"],
        date=row["date"],
        time=row["time"],
        weight=to_weight(row["value"], user["weight_unit"]) if weight else None,
        bmi=bmi(row["value"], user["height_cm"]) if weight else None,
        fat=None if weight else row["value"],
        source=row["source"],
    )


def weight_goal(row: dict[str, Any], user: dict[str, Any]) -> WeightGoal:
    """The weight goal in the user's weight unit, with its direction."""
    change = row["goal_kg"] - row["start_kg"]
    kind = "MAINTAIN" if abs(change) < 0.5 else ("LOSE" if change < 0 else "GAIN")
    return WeightGoal(
        startDate=row["start_date"],
        startWeight=to_weight(row["start_kg"], user["weight_unit"]),
        weight=to_weight(row["goal_kg"], user["weight_unit"]),
        goalType=kind,
        weightUnit=user["weight_unit"],
    )


def food_log(row: dict[str, Any]) -> FoodLog:
    """A food log entry."""
    return FoodLog(
        logId=row["id"],
        logDate=row["date"],
        mealTypeId=row["meal_type_id"],
        mealType=MEAL_TYPES[row["meal_type_id"]],
        name=row["food_name"],
        brand=row["brand"],
        amount=row["amount"],
        unitId=row["unit_id"],
        unit=FOOD_UNITS[row["unit_id"]],
        calories=row["calories"],
    )


def water_log(row: dict[str, Any], user: dict[str, Any]) -> WaterLog:
    """A water log entry in the user's water unit."""
    return WaterLog(
        logId=row["id"],
        logDate=row["date"],
        amount=to_water(row["amount_ml"], user["water_unit"]),
        unit="fl oz" if user["water_unit"] == "en_US" else "ml",
    )


def alarm(row: dict[str, Any]) -> Alarm:
    """A tracker alarm."""
    return Alarm(
        alarmId=row["id"],
        time=row["time"],
        enabled=row["enabled"],
        recurring=bool(row["week_days"]),
        weekDays=row["week_days"],
        snoozeLength=row["snooze_length"],
        snoozeCount=row["snooze_count"],
        label=row["label"],
    )


def battery(level: int) -> str:
    """Fitbit's battery word for a charge level."""
    return "High" if level >= 60 else "Medium" if level >= 25 else "Low" if level > 5 else "Empty"


def device(row: dict[str, Any], alarms: list[dict[str, Any]]) -> Device:
    """A device with its alarms."""
    return Device(
        id=row["id"],
        deviceVersion=row["device_version"],
        type=row["type"],
        battery=battery(row["battery_level"]),
        batteryLevel=row["battery_level"],
        lastSyncTime=row["last_sync_time"],
        mac=row["mac"],
        alarms=[alarm(a) for a in alarms],
    )
