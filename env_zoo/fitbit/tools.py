"""Fitbit Web API tools for the user who authorized the assistant ("-" in the API's paths): profile and units,
daily activity summaries, time series and logs, activity goals, sleep, body measurements, food and water logs,
devices and their alarms, and the friends leaderboard."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import available_timezones

from pydantic import Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.fields import IsoDate, NonBlankText, bounded, text
from envfactory_gym.values import parse_date

from . import records
from .access import SCOPES, me
from .activity import day_totals, latest_weight_kg, step_totals, totals
from .errors import conflict, not_found, validation
from .objects import (
    ActivityLog,
    ActivityLogList,
    ActivityType,
    ActivityTypeList,
    Alarm,
    Authorization,
    BodyLog,
    BodyLogs,
    DailyActivity,
    DaySummary,
    Deleted,
    DeviceList,
    FoodDay,
    FoodLog,
    Goals,
    Leaderboard,
    LeaderboardEntry,
    Pagination,
    Profile,
    SleepGoal,
    SleepLog,
    SleepLogs,
    TimeSeries,
    TimeSeriesPoint,
    WaterLog,
    WeightGoal,
)
from .rules import (
    DEFAULT_WEIGHT_KG,
    MAX_ALARMS,
    activity_calories,
    date_range,
    day,
    from_distance,
    from_weight,
    local_now,
    to_distance,
    water_ml,
)
from .schema import (
    activity_goals,
    activity_logs,
    activity_types,
    alarms,
    body_logs,
    devices,
    food_logs,
    friends,
    sessions,
    sleep_logs,
    users,
    water_logs,
    weight_goals,
)

Scope = Literal["activity", "heartrate", "nutrition", "profile", "settings", "sleep", "social", "weight"]
ClockTime = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="HH:mm, 24-hour local time")]
LogTime = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$", description="HH:mm or HH:mm:ss")]
DateOrTime = Annotated[
    str,
    Field(
        pattern=r"^\d{4}-\d{2}-\d{2}(T([01]\d|2[0-3]):[0-5]\d:[0-5]\d)?$",
        description="yyyy-MM-dd or yyyy-MM-ddTHH:mm:ss",
    ),
]
LogId = Annotated[int, Field(ge=1)]
Weekday = Literal["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
Unit = Literal["en_US", "METRIC"]
Resource = Literal[
    "steps",
    "distance",
    "floors",
    "calories",
    "minutesVeryActive",
    "minutesFairlyActive",
    "minutesLightlyActive",
    "minutesSedentary",
]
RESOURCE_FIELDS = {
    "steps": "steps",
    "distance": "distance_km",
    "floors": "floors",
    "calories": "calories_out",
    "minutesVeryActive": "very_active_minutes",
    "minutesFairlyActive": "fairly_active_minutes",
    "minutesLightlyActive": "lightly_active_minutes",
    "minutesSedentary": "sedentary_minutes",
}
MealTypeId = Annotated[
    Literal[1, 2, 3, 4, 5, 7],
    Field(description="1 Breakfast, 2 Morning Snack, 3 Lunch, 4 Afternoon Snack, 5 Dinner, 7 Anytime"),
]
FoodUnitId = Annotated[
    Literal[304, 147, 226, 91, 349, 364, 311, 279],
    Field(description="304 serving, 147 gram, 226 oz, 91 cup, 349 tbsp, 364 tsp, 311 slice, 279 piece"),
]


def _today(db: Database, user: dict[str, Any]) -> date:
    return local_now(db.now(), user["timezone"]).date()


def _day_logs(db: Database, user: dict[str, Any], on: str) -> list[ActivityLog]:
    rows = db.find(activity_logs, user_id=user["id"], date=on, order_by=[activity_logs.c.start_time])
    return [records.activity_log(r, user) for r in rows]


def _goals_row(db: Database, user: dict[str, Any], period: str) -> dict[str, Any]:
    return db.find_one(
        activity_goals, user_id=user["id"], period=period, not_found=f"No {period} goals are set for this user."
    )


def _own(db: Database, table: Any, log_id: int, user_id: str, what: str) -> dict[str, Any]:
    found = db.find(table, id=log_id, user_id=user_id)
    if not found:
        raise not_found("log-id", f"{what} with log id {log_id} not found.")
    return found[0]


# ---------------------------------------------------------------- authorization and profile


@tool(user_only=True)
def authorize_app(
    db: Database, email: NonBlankText, scopes: Annotated[list[Scope], Unordered] | None = None
) -> Authorization:
    """(User only) The user signs in to Fitbit and grants the assistant access to their data (OAuth consent).

    Args:
        email: The email of the user's Fitbit account.
        scopes: The scopes granted; all of them when left out.
    """
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise not_found("email", f"No Fitbit account uses {email.strip()}.")
    granted = sorted(set(scopes)) if scopes else list(SCOPES)
    db.start_session(sessions, user_id=found[0]["id"], scopes=granted)
    return Authorization(user=records.profile(found[0]), scopes=granted)


@tool(read_only=True)
def get_profile(db: Database) -> Profile:
    """Get the user's profile: name, time zone, height, stride lengths and unit settings (GET /1/user/-/profile)."""
    return records.profile(me(db, "profile"))


@tool()
def update_profile(
    db: Database,
    display_name: Annotated[str, Field(min_length=1, max_length=30)] | None = None,
    timezone: str | None = None,
    stride_length_walking: bounded(30, 250, integer=False) | None = None,
    stride_length_running: bounded(30, 300, integer=False) | None = None,
    distance_unit: Unit | None = None,
    weight_unit: Unit | None = None,
    water_unit: Unit | None = None,
) -> Profile:
    """Update profile fields and unit settings (POST /1/user/-/profile). Stride lengths set how many steps a logged
    walk or run of a given distance counts.

    Args:
        display_name: The name friends see.
        timezone: An IANA time zone such as America/Denver; it decides which date is "today".
        stride_length_walking: Walking stride in centimetres.
        stride_length_running: Running stride in centimetres.
        distance_unit: en_US for miles, METRIC for kilometres.
        weight_unit: en_US for pounds, METRIC for kilograms.
        water_unit: en_US for fluid ounces, METRIC for millilitres.
    """
    user = me(db, "profile", "write")
    changes: dict[str, Any] = {}
    if timezone is not None:
        if timezone.strip() not in available_timezones():
            raise validation("timezone", f"Invalid timezone: {timezone}. Use an IANA name such as America/Denver.")
        changes["timezone"] = timezone.strip()
    for column, value in (
        ("display_name", display_name),
        ("stride_walking_cm", stride_length_walking),
        ("stride_running_cm", stride_length_running),
        ("distance_unit", distance_unit),
        ("weight_unit", weight_unit),
        ("water_unit", water_unit),
    ):
        if value is not None:
            changes[column] = value
    if not changes:
        raise validation("profile", "At least one field to update is required.")
    return records.profile(db.update(users, user["id"], **changes))


# ---------------------------------------------------------------- activity


@tool(read_only=True)
def get_daily_activity_summary(db: Database, date: IsoDate) -> DailyActivity:
    """Get one day's activity: the logged and detected activities, the totals and the daily goals
    (GET /1/user/-/activities/date/{date}).

    Args:
        date: The day, yyyy-MM-dd.
    """
    user = me(db, "activity")
    on = parse_date(date, "date")
    t = day_totals(db, user["id"], on)
    summary = DaySummary(
        steps=int(t["steps"]),
        floors=int(t["floors"]),
        distance=to_distance(t["distance_km"], user["distance_unit"]),
        distanceUnit=user["distance_unit"],
        caloriesOut=int(t["calories_out"]),
        veryActiveMinutes=int(t["very_active_minutes"]),
        fairlyActiveMinutes=int(t["fairly_active_minutes"]),
        lightlyActiveMinutes=int(t["lightly_active_minutes"]),
        sedentaryMinutes=int(t["sedentary_minutes"]),
    )
    goals = records.goals(_goals_row(db, user, "daily"), user)
    return DailyActivity(
        date=on.isoformat(), activities=_day_logs(db, user, on.isoformat()), summary=summary, goals=goals
    )


@tool(read_only=True)
def get_activity_time_series(db: Database, resource: Resource, start_date: IsoDate, end_date: IsoDate) -> TimeSeries:
    """Get one activity resource's daily values over a date range of at most 1095 days
    (GET /1/user/-/activities/{resource}/date/{start}/{end}).

    Args:
        resource: steps, distance, floors, calories or minutes at an intensity.
        start_date: First day, yyyy-MM-dd.
        end_date: Last day, yyyy-MM-dd.
    """
    user = me(db, "activity")
    first, last = date_range(start_date, end_date, "activity time series")
    column = RESOURCE_FIELDS[resource]
    values = []
    for on, t in totals(db, user["id"], first, last).items():
        value = to_distance(t[column], user["distance_unit"]) if resource == "distance" else t[column]
        values.append(TimeSeriesPoint(dateTime=on, value=value))
    unit = ("miles" if user["distance_unit"] == "en_US" else "km") if resource == "distance" else resource
    return TimeSeries(resource=f"activities-{resource}", unit=unit, values=values)


@tool(read_only=True)
def list_activity_logs(
    db: Database,
    before_date: DateOrTime | None = None,
    after_date: DateOrTime | None = None,
    sort: Literal["asc", "desc"] = "desc",
    limit: bounded(1, 100) = 20,
    offset: Literal[0] = 0,
) -> ActivityLogList:
    """List logged and auto-detected activities before or after a date (GET /1/user/-/activities/list). Give
    exactly one of before_date (with sort desc) or after_date (with sort asc); page on with `next`.

    Args:
        before_date: Activities that started before this date or date-time, newest first.
        after_date: Activities that started after this date or date-time, oldest first.
        sort: desc with before_date, asc with after_date.
        limit: Activities per page, at most 100.
        offset: Only 0 is supported; page with the date-time in `next`.
    """
    user = me(db, "activity")
    if (before_date is None) == (after_date is None):
        raise validation("beforeDate", "Either beforeDate or afterDate should be specified, but not both.")
    if before_date is not None and sort != "desc":
        raise validation("sort", "The sort must be desc when beforeDate is specified.")
    if after_date is not None and sort != "asc":
        raise validation("sort", "The sort must be asc when afterDate is specified.")
    bound = before_date or after_date or ""
    parse_date(bound[:10], "beforeDate" if before_date else "afterDate")
    stamp = bound if "T" in bound else (f"{bound}T00:00:00" if before_date else f"{bound}T23:59:59")
    moment = "date || 'T' || start_time || ':00'"
    where = f"user_id = ? AND {moment} {'<' if before_date else '>'} ?"
    order = f"{moment} {'DESC' if before_date else 'ASC'}"
    rows = db.select(activity_logs, where, [user["id"], stamp], order_by=order, limit=limit + 1)
    page = rows[:limit]
    last = page[-1] if page else None
    following = f"{last['date']}T{last['start_time']}:00" if last and len(rows) > limit else None
    return ActivityLogList(
        activities=[records.activity_log(r, user) for r in page],
        pagination=Pagination(
            beforeDate=before_date, afterDate=after_date, sort=sort, limit=limit, offset=offset, next=following
        ),
    )


@tool(read_only=True)
def browse_activity_types(db: Database, query: NonBlankText) -> ActivityTypeList:
    """Search Fitbit's activity catalog by name or category (GET /1/activities), for the activityId to log.

    Args:
        query: Part of the activity's name or category, e.g. swim or yoga.
    """
    me(db, "activity")
    like = f"%{query.strip().lower()}%"
    rows = db.select(activity_types, "lower(name) LIKE ? OR lower(category) LIKE ?", [like, like], order_by="name")
    return ActivityTypeList(
        activities=[
            ActivityType(
                activityId=r["id"],
                name=r["name"],
                category=r["category"],
                mets=r["mets"],
                hasDistance=r["has_distance"],
            )
            for r in rows
        ]
    )


@tool()
def log_activity(
    db: Database,
    date: IsoDate,
    start_time: ClockTime,
    duration_millis: bounded(60_000, 86_400_000),
    activity_id: Annotated[int, Field(ge=1)] | None = None,
    activity_name: text(60) | None = None,
    manual_calories: bounded(1, 10_000) | None = None,
    distance: bounded(0.01, 1000, integer=False) | None = None,
    distance_unit: Literal["Mile", "Kilometer"] | None = None,
) -> ActivityLog:
    """Log an activity the tracker missed (POST /1/user/-/activities). Name a catalog activity by activity_id, or a
    custom one by activity_name with manual_calories. Logged steps, distance, calories and minutes add to the day.

    Args:
        date: The day, yyyy-MM-dd (not in the future).
        start_time: Start, HH:mm local time.
        duration_millis: Duration in milliseconds (1 minute to 24 hours).
        activity_id: The catalog activity's id.
        activity_name: A custom activity's name (needs manual_calories).
        manual_calories: Calories burned; without it a catalog activity's are estimated from METs and weight.
        distance: Distance covered, for activities with distance.
        distance_unit: Mile or Kilometer; the user's distance unit when left out.
    """
    user = me(db, "activity", "write")
    on = day(date, "date", db.now(), user["timezone"])
    if (activity_id is None) == (activity_name is None):
        raise validation("activityId", "Either activityId or activityName must be provided, but not both.")
    if on == _today(db, user) and start_time > local_now(db.now(), user["timezone"]).strftime("%H:%M"):
        raise validation("startTime", f"Invalid startTime:{start_time}. The activity cannot start in the future.")
    kind: dict[str, Any] | None = None
    if activity_id is not None:
        catalog = db.find(activity_types, id=activity_id)
        if not catalog:
            raise not_found("activityId", f"Activity with id {activity_id} not found.")
        kind = catalog[0]
        if distance is not None and not kind["has_distance"]:
            raise validation("distance", f"{kind['name']} does not support a distance.")
    elif manual_calories is None:
        raise validation("manualCalories", "manualCalories is required when logging a custom activity by name.")
    unit = distance_unit or ("Mile" if user["distance_unit"] == "en_US" else "Kilometer")
    km = None if distance is None else round(from_distance(distance, "en_US" if unit == "Mile" else "METRIC"), 3)
    if manual_calories is not None:
        calories = manual_calories
    else:
        assert kind is not None
        weight = latest_weight_kg(db, user["id"], on.isoformat(), body_logs, DEFAULT_WEIGHT_KG)
        calories = activity_calories(kind["mets"], weight, duration_millis)
    steps = 0
    if km is not None and kind is not None and kind["category"] in ("Walking", "Running"):
        stride = user["stride_running_cm"] if kind["category"] == "Running" else user["stride_walking_cm"]
        steps = round(km * 100_000 / stride)
    row = db.insert(
        activity_logs,
        id=db.next_number("log:activity") + 40_000_000_000,
        user_id=user["id"],
        activity_id=activity_id,
        activity_name=kind["name"] if kind else (activity_name or "").strip(),
        log_type="manual",
        date=on.isoformat(),
        start_time=start_time,
        duration_ms=duration_millis,
        distance_km=km,
        calories=calories,
        steps=steps,
    )
    return records.activity_log(row, user)


@tool()
def delete_activity_log(db: Database, log_id: LogId) -> Deleted:
    """Delete one of the user's activity logs (DELETE /1/user/-/activities/{log-id}); its steps, distance and calories
    leave the day's totals.

    Args:
        log_id: The activity log's logId.
    """
    user = me(db, "activity", "write")
    _own(db, activity_logs, log_id, user["id"], "Activity log")
    db.delete(activity_logs, log_id)
    return Deleted(deleted="activity", logId=log_id)


@tool(read_only=True)
def get_activity_goals(db: Database, period: Literal["daily", "weekly"]) -> Goals:
    """Get the daily or weekly activity goals (GET /1/user/-/activities/goals/{period}).

    Args:
        period: daily or weekly.
    """
    user = me(db, "activity")
    return records.goals(_goals_row(db, user, period), user)


@tool()
def update_activity_goals(
    db: Database,
    period: Literal["daily", "weekly"],
    steps: bounded(0, 1_000_000) | None = None,
    distance: bounded(0, 10_000, integer=False) | None = None,
    floors: bounded(0, 10_000) | None = None,
    active_minutes: bounded(0, 1440) | None = None,
    calories_out: bounded(0, 100_000) | None = None,
) -> Goals:
    """Change daily or weekly activity goals (POST /1/user/-/activities/goals/{period}). Weekly goals have steps,
    distance and floors only.

    Args:
        period: daily or weekly.
        steps: Steps goal.
        distance: Distance goal in the user's distance unit.
        floors: Floors goal.
        active_minutes: Daily active minutes goal.
        calories_out: Daily calories burned goal.
    """
    user = me(db, "activity", "write")
    current = _goals_row(db, user, period)
    if period == "weekly":
        for name, value in (("activeMinutes", active_minutes), ("caloriesOut", calories_out)):
            if value is not None:
                raise validation(name, f"{name} is not a valid weekly goal. Weekly goals: steps, distance, floors.")
    changes = {
        column: value
        for column, value in (
            ("steps", steps),
            ("distance_km", None if distance is None else round(from_distance(distance, user["distance_unit"]), 3)),
            ("floors", floors),
            ("active_minutes", active_minutes),
            ("calories_out", calories_out),
        )
        if value is not None
    }
    if not changes:
        raise validation("goals", "At least one goal value is required.")
    db.conn.execute(
        activity_goals.update()
        .where(activity_goals.c.user_id == user["id"], activity_goals.c.period == period)
        .values(**changes)
    )
    return records.goals({**current, **changes}, user)


# ---------------------------------------------------------------- sleep


def _sleep_logs(db: Database, user_id: str, first: str, last: str) -> list[SleepLog]:
    rows = db.select(
        sleep_logs, "user_id = ? AND date_of_sleep BETWEEN ? AND ?", [user_id, first, last], order_by="start DESC"
    )
    longest: dict[str, int] = {}
    for r in rows:
        if r["duration_ms"] > longest.get(r["date_of_sleep"], -1):
            longest[r["date_of_sleep"]] = r["duration_ms"]
    seen: set[str] = set()
    logs = []
    for r in rows:
        main = r["duration_ms"] == longest[r["date_of_sleep"]] and r["date_of_sleep"] not in seen
        if main:
            seen.add(r["date_of_sleep"])
        logs.append(records.sleep_log(r, main))
    return logs


@tool(read_only=True)
def get_sleep_logs(db: Database, start_date: IsoDate, end_date: IsoDate | None = None) -> SleepLogs:
    """Get sleep logs by the date the sleep ended, one day or a range of at most 100 days, newest first, with the
    sleep goal (GET /1.2/user/-/sleep/date/{start}/{end}).

    Args:
        start_date: The day (or first day), yyyy-MM-dd.
        end_date: The last day of a range; one day when left out.
    """
    user = me(db, "sleep")
    first, last = date_range(start_date, end_date or start_date, "sleep")
    logs = _sleep_logs(db, user["id"], first.isoformat(), last.isoformat())
    return SleepLogs(
        sleep=logs,
        totalMinutesAsleep=sum(s.minutesAsleep for s in logs),
        goal=SleepGoal(minDuration=user["sleep_goal_minutes"]),
    )


@tool()
def log_sleep(
    db: Database, date: IsoDate, start_time: ClockTime, duration_millis: bounded(60_000, 86_400_000)
) -> SleepLog:
    """Log a sleep the tracker missed (POST /1.2/user/-/sleep). Manual logs are classic (no stages); a sleep may not
    overlap another log or end in the future.

    Args:
        date: The day the sleep started, yyyy-MM-dd.
        start_time: When it started, HH:mm local time.
        duration_millis: How long, in milliseconds.
    """
    user = me(db, "sleep", "write")
    day(date, "date", db.now(), user["timezone"])
    start = datetime.fromisoformat(f"{date}T{start_time}")
    end = start + timedelta(milliseconds=duration_millis)
    if end > local_now(db.now(), user["timezone"]).replace(tzinfo=None):
        raise validation("duration", "The sleep log cannot end in the future.")
    table = sleep_logs
    window = [user["id"], (start - timedelta(days=1)).isoformat(), end.isoformat()]
    for other in db.select(table, "user_id = ? AND start BETWEEN ? AND ?", window):
        other_start = datetime.fromisoformat(other["start"])
        if other_start < end and start < other_start + timedelta(milliseconds=other["duration_ms"]):
            raise conflict("startTime", f"The sleep log overlaps with an existing sleep log (logId {other['id']}).")
    minutes = duration_millis // 60000
    row = db.insert(
        table,
        id=db.next_number("log:sleep") + 30_000_000_000,
        user_id=user["id"],
        date_of_sleep=end.date().isoformat(),
        start=start.strftime("%Y-%m-%dT%H:%M"),
        duration_ms=duration_millis,
        minutes_asleep=minutes,
        minutes_awake=0,
        type="classic",
        log_type="manual",
        deep=None,
        light=None,
        rem=None,
        wake=None,
    )
    return next(
        s for s in _sleep_logs(db, user["id"], row["date_of_sleep"], row["date_of_sleep"]) if s.logId == row["id"]
    )


@tool()
def update_sleep_goal(db: Database, min_duration: bounded(60, 1440)) -> SleepGoal:
    """Set the sleep goal (POST /1.2/user/-/sleep/goal).

    Args:
        min_duration: Minutes of sleep a night to aim for.
    """
    user = me(db, "sleep", "write")
    db.update(users, user["id"], sleep_goal_minutes=min_duration)
    return SleepGoal(minDuration=min_duration)


# ---------------------------------------------------------------- body


@tool(read_only=True)
def get_body_logs(db: Database, start_date: IsoDate, end_date: IsoDate | None = None) -> BodyLogs:
    """Get weight and body fat logs for one day or a range of at most 31 days, with the weight goal
    (GET /1/user/-/body/log/weight and /fat).

    Args:
        start_date: The day (or first day), yyyy-MM-dd.
        end_date: The last day of a range; one day when left out.
    """
    user = me(db, "weight")
    first, last = date_range(start_date, end_date or start_date, "body")
    rows = db.select(
        body_logs,
        "user_id = ? AND date BETWEEN ? AND ?",
        [user["id"], first.isoformat(), last.isoformat()],
        "date, time",
    )
    goal = db.find(weight_goals, user_id=user["id"])
    return BodyLogs(
        weight=[records.body_log(r, user) for r in rows if r["kind"] == "weight"],
        fat=[records.body_log(r, user) for r in rows if r["kind"] == "fat"],
        goal=records.weight_goal(goal[0], user) if goal else None,
        weightUnit=user["weight_unit"],
    )


@tool()
def log_body_measurement(
    db: Database,
    date: IsoDate,
    weight: bounded(10, 1000, integer=False) | None = None,
    fat: bounded(1, 75, integer=False) | None = None,
    time: LogTime | None = None,
) -> BodyLog:
    """Log a weight (in the user's weight unit) or a body fat percentage (POST /1/user/-/body/log/weight or /fat).

    Args:
        date: The day, yyyy-MM-dd (not in the future).
        weight: The weight, in pounds (en_US) or kilograms (METRIC) as the profile says.
        fat: Body fat in percent.
        time: HH:mm[:ss] local time; 23:59:59 when left out.
    """
    user = me(db, "weight", "write")
    on = day(date, "date", db.now(), user["timezone"])
    if (weight is None) == (fat is None):
        raise validation("weight", "Give either a weight or a fat percentage, one per log.")
    clock = (time + ":00" if time and len(time) == 5 else time) or "23:59:59"
    row = db.insert(
        body_logs,
        id=db.next_number("log:body") + 20_000_000_000,
        user_id=user["id"],
        kind="weight" if weight is not None else "fat",
        date=on.isoformat(),
        time=clock,
        value=round(from_weight(weight, user["weight_unit"]), 2) if weight is not None else fat,
        source="API",
    )
    return records.body_log(row, user)


@tool()
def delete_body_log(db: Database, log_id: LogId) -> Deleted:
    """Delete one of the user's weight or body fat logs (DELETE /1/user/-/body/log/weight|fat/{log-id}).

    Args:
        log_id: The log's logId.
    """
    user = me(db, "weight", "write")
    row = _own(db, body_logs, log_id, user["id"], "Body log")
    db.delete(body_logs, log_id)
    return Deleted(deleted=row["kind"], logId=log_id)


@tool()
def set_weight_goal(
    db: Database,
    start_date: IsoDate,
    start_weight: bounded(10, 1000, integer=False),
    weight: bounded(10, 1000, integer=False),
) -> WeightGoal:
    """Set the weight goal (POST /1/user/-/body/log/weight/goal); weights in the user's weight unit.

    Args:
        start_date: When the goal starts, yyyy-MM-dd (not in the future).
        start_weight: The weight at the start.
        weight: The target weight.
    """
    user = me(db, "weight", "write")
    on = day(start_date, "startDate", db.now(), user["timezone"])
    row = {
        "user_id": user["id"],
        "start_date": on.isoformat(),
        "start_kg": round(from_weight(start_weight, user["weight_unit"]), 2),
        "goal_kg": round(from_weight(weight, user["weight_unit"]), 2),
    }
    if db.find(weight_goals, user_id=user["id"]):
        db.update(weight_goals, user["id"], **{k: v for k, v in row.items() if k != "user_id"})
    else:
        db.insert(weight_goals, **row)
    return records.weight_goal(row, user)


# ---------------------------------------------------------------- food and water


@tool(read_only=True)
def get_food_log(db: Database, date: IsoDate) -> FoodDay:
    """Get the food and water logged on one day, with calories per meal (GET /1/user/-/foods/log/date/{date}).

    Args:
        date: The day, yyyy-MM-dd.
    """
    user = me(db, "nutrition")
    on = parse_date(date, "date").isoformat()
    foods = [
        records.food_log(r)
        for r in db.find(food_logs, user_id=user["id"], date=on, order_by=[food_logs.c.meal_type_id])
    ]
    water = [records.water_log(r, user) for r in db.find(water_logs, user_id=user["id"], date=on)]
    by_meal: dict[str, int] = {}
    for f in foods:
        by_meal[f.mealType] = by_meal.get(f.mealType, 0) + f.calories
    return FoodDay(
        date=on,
        foods=foods,
        caloriesByMeal=by_meal,
        calories=sum(f.calories for f in foods),
        water=water,
        waterTotal=round(sum(w.amount for w in water), 1),
        waterUnit="fl oz" if user["water_unit"] == "en_US" else "ml",
    )


@tool()
def log_food(
    db: Database,
    date: IsoDate,
    food_name: text(80),
    calories: bounded(0, 10_000),
    meal_type_id: MealTypeId,
    unit_id: FoodUnitId,
    amount: bounded(0.01, 10_000, integer=False),
    brand_name: text(60, min_length=0) = "",
) -> FoodLog:
    """Log a food (POST /1/user/-/foods/log) by name with its calories for the amount eaten.

    Args:
        date: The day, yyyy-MM-dd (not in the future).
        food_name: What was eaten.
        calories: Calories of the amount eaten.
        meal_type_id: 1 Breakfast, 2 Morning Snack, 3 Lunch, 4 Afternoon Snack, 5 Dinner, 7 Anytime.
        unit_id: The unit the amount is in (304 serving, 147 gram, 226 oz, 91 cup, 349 tbsp, 364 tsp, 311 slice,
            279 piece).
        amount: How many units, e.g. 1.5.
        brand_name: The brand, if any.
    """
    user = me(db, "nutrition", "write")
    on = day(date, "date", db.now(), user["timezone"])
    row = db.insert(
        food_logs,
        id=db.next_number("log:food") + 10_000_000_000,
        user_id=user["id"],
        date=on.isoformat(),
        food_name=food_name.strip(),
        brand=brand_name.strip(),
        meal_type_id=meal_type_id,
        unit_id=unit_id,
        amount=amount,
        calories=calories,
    )
    return records.food_log(row)


@tool()
def log_water(
    db: Database,
    date: IsoDate,
    amount: bounded(1, 10_000, integer=False),
    unit: Literal["ml", "fl oz", "cup"] | None = None,
) -> WaterLog:
    """Log water drunk (POST /1/user/-/foods/log/water).

    Args:
        date: The day, yyyy-MM-dd (not in the future).
        amount: How much.
        unit: ml, fl oz or cup; the user's water unit when left out.
    """
    user = me(db, "nutrition", "write")
    on = day(date, "date", db.now(), user["timezone"])
    chosen = unit or ("fl oz" if user["water_unit"] == "en_US" else "ml")
    row = db.insert(
        water_logs,
        id=db.next_number("log:water") + 11_000_000_000,
        user_id=user["id"],
        date=on.isoformat(),
        amount_ml=round(water_ml(amount, chosen), 1),
    )
    return records.water_log(row, user)


@tool()
def delete_food_log(db: Database, log_id: LogId, kind: Literal["food", "water"] = "food") -> Deleted:
    """Delete a food or water log (DELETE /1/user/-/foods/log/{log-id} or /foods/log/water/{log-id}).

    Args:
        log_id: The log's logId.
        kind: food or water.
    """
    user = me(db, "nutrition", "write")
    table = food_logs if kind == "food" else water_logs
    _own(db, table, log_id, user["id"], "Food log" if kind == "food" else "Water log")
    db.delete(table, log_id)
    return Deleted(deleted=kind, logId=log_id)


# ---------------------------------------------------------------- devices and alarms


@tool(read_only=True)
def get_devices(db: Database) -> DeviceList:
    """List the user's paired devices with battery, last sync and, for trackers, their alarms
    (GET /1/user/-/devices and /devices/tracker/{id}/alarms)."""
    user = me(db, "settings")
    rows = db.find(devices, user_id=user["id"])
    return DeviceList(
        devices=[records.device(r, db.find(alarms, device_id=r["id"], order_by=[alarms.c.time])) for r in rows]
    )


@tool()
def set_alarm(
    db: Database,
    tracker_id: NonBlankText,
    time: ClockTime,
    week_days: Annotated[list[Weekday], Unordered] | None = None,
    enabled: bool = True,
    alarm_id: LogId | None = None,
    snooze_length: bounded(1, 30) = 9,
    snooze_count: bounded(0, 10) = 3,
    label: text(30, min_length=0) = "",
) -> Alarm:
    """Add a silent alarm to a tracker, or change one (POST /1/user/-/devices/tracker/{tracker-id}/alarms[/{alarm-id}]).
    A tracker holds at most 8 alarms; scales have none. Disable an alarm with enabled false.

    Args:
        tracker_id: The tracker's device id.
        time: HH:mm local time.
        week_days: Days it repeats on; a one-time alarm when empty or left out.
        enabled: Whether it rings.
        alarm_id: The alarm to change; a new alarm when left out.
        snooze_length: Minutes per snooze.
        snooze_count: Snoozes allowed.
        label: A short label.
    """
    user = me(db, "settings", "write")
    found = db.find(devices, id=tracker_id.strip(), user_id=user["id"])
    if not found:
        raise not_found("tracker-id", f"Tracker with id {tracker_id.strip()} not found.")
    if found[0]["type"] != "TRACKER":
        raise validation(
            "tracker-id", f"Device {tracker_id.strip()} is a {found[0]['type'].lower()}; only trackers have alarms."
        )
    days = [
        d
        for d in ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")
        if d in set(week_days or [])
    ]
    values = dict(
        time=time,
        enabled=enabled,
        week_days=days,
        snooze_length=snooze_length,
        snooze_count=snooze_count,
        label=label.strip(),
    )
    if alarm_id is not None:
        if not db.find(alarms, id=alarm_id, device_id=found[0]["id"]):
            raise not_found("alarm-id", f"Alarm with id {alarm_id} not found on tracker {found[0]['id']}.")
        return records.alarm(db.update(alarms, alarm_id, **values))
    if len(db.find(alarms, device_id=found[0]["id"])) >= MAX_ALARMS:
        raise conflict("alarm", f"Tracker {found[0]['id']} already has {MAX_ALARMS} alarms, the most it can hold.")
    row = db.insert(alarms, id=db.next_number("alarm", alarms) + 600_000_000, device_id=found[0]["id"], **values)
    return records.alarm(row)


# ---------------------------------------------------------------- social


@tool(read_only=True)
def get_friends_leaderboard(db: Database) -> Leaderboard:
    """The user and their friends ranked by steps over the last 7 days, today included
    (GET /1.1/user/-/leaderboard/friends)."""
    user = me(db, "social")
    end = _today(db, user)
    start = end - timedelta(days=6)
    people = [user["id"]] + [f["friend_id"] for f in db.find(friends, user_id=user["id"])]
    steps = step_totals(db, people, start, end)
    board = [(steps[row["id"]], row) for row in db.select(users, f"id IN ({', '.join('?' * len(people))})", people)]
    board.sort(key=lambda e: (-e[0], e[1]["display_name"]))
    return Leaderboard(
        startDate=start.isoformat(),
        endDate=end.isoformat(),
        entries=[
            LeaderboardEntry(
                rank=i + 1, encodedId=r["id"], displayName=r["display_name"], steps=s, isMe=r["id"] == user["id"]
            )
            for i, (s, r) in enumerate(board)
        ],
    )
