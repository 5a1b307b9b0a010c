"""Fitbit Web API resources as output models (profile, daily summary, activity logs, goals, sleep, body, food and
water logs, devices with alarms, the friends leaderboard)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Profile(BaseModel):
    """The user's profile and unit settings."""

    encodedId: str
    fullName: str
    displayName: str
    timezone: str
    memberSince: str
    gender: str
    height: float = Field(description="centimetres")
    strideLengthWalking: float = Field(description="centimetres")
    strideLengthRunning: float = Field(description="centimetres")
    distanceUnit: str = Field(description="en_US (miles) or METRIC (kilometres)")
    weightUnit: str = Field(description="en_US (pounds) or METRIC (kilograms)")
    waterUnit: str = Field(description="en_US (fluid ounces) or METRIC (millilitres)")


class Authorization(BaseModel):
    """Who authorized the app, and the scopes granted."""

    user: Profile
    scopes: list[str]


class ActivityType(BaseModel):
    """An entry of Fitbit's activity catalog."""

    activityId: int
    name: str
    category: str
    mets: float
    hasDistance: bool = Field(description="whether a distance may be logged with it")


class ActivityTypeList(BaseModel):
    """Catalog entries matching a search."""

    activities: list[ActivityType]


class ActivityLog(BaseModel):
    """One logged or auto-detected activity."""

    logId: int
    activityId: int | None
    activityName: str
    logType: str = Field(description="auto_detected, manual or tracker")
    startDate: str
    startTime: str
    duration: int = Field(description="milliseconds")
    distance: float | None = Field(description="in the user's distance unit")
    distanceUnit: str
    calories: int
    steps: int


class Pagination(BaseModel):
    """Where this page of the activity log list sits."""

    beforeDate: str | None
    afterDate: str | None
    sort: str
    limit: int
    offset: int
    next: str | None = Field(description="pass as beforeDate (desc) or afterDate (asc) for the next page")


class ActivityLogList(BaseModel):
    """One page of the activity log list."""

    activities: list[ActivityLog]
    pagination: Pagination


class Goals(BaseModel):
    """Daily or weekly activity goals."""

    period: str
    steps: int
    distance: float = Field(description="in the user's distance unit")
    floors: int
    activeMinutes: int | None = Field(description="daily goals only")
    caloriesOut: int | None = Field(description="daily goals only")


class DaySummary(BaseModel):
    """Totals of one day (tracker data plus logged activities)."""

    steps: int
    floors: int
    distance: float
    distanceUnit: str
    caloriesOut: int
    veryActiveMinutes: int
    fairlyActiveMinutes: int
    lightlyActiveMinutes: int
    sedentaryMinutes: int


class DailyActivity(BaseModel):
    """GET activities/date/{date}: the day's activities, summary and daily goals."""

    date: str
    activities: list[ActivityLog]
    summary: DaySummary
    goals: Goals


class TimeSeriesPoint(BaseModel):
    """One day's value of a time series."""

    dateTime: str
    value: float


class TimeSeries(BaseModel):
    """A resource's daily values over a date range."""

    resource: str
    unit: str
    values: list[TimeSeriesPoint]


class SleepStages(BaseModel):
    """Minutes in each stage (stages logs only)."""

    deep: int
    light: int
    rem: int
    wake: int


class SleepLog(BaseModel):
    """One sleep log."""

    logId: int
    dateOfSleep: str
    startTime: str
    endTime: str
    duration: int = Field(description="milliseconds")
    minutesAsleep: int
    minutesAwake: int
    efficiency: int
    type: str = Field(description="stages (tracked) or classic (logged by hand)")
    logType: str
    isMainSleep: bool
    levels: SleepStages | None


class SleepGoal(BaseModel):
    """The sleep goal."""

    minDuration: int = Field(description="minutes of sleep a night")


class SleepLogs(BaseModel):
    """Sleep logs of a date range, newest first, with the goal."""

    sleep: list[SleepLog]
    totalMinutesAsleep: int
    goal: SleepGoal


class BodyLog(BaseModel):
    """A weight or body fat log."""

    logId: int
    kind: str = Field(description="weight or fat")
    date: str
    time: str
    weight: float | None = Field(description="in the user's weight unit")
    bmi: float | None
    fat: float | None = Field(description="percent")
    source: str


class WeightGoal(BaseModel):
    """The weight goal."""

    startDate: str
    startWeight: float
    weight: float
    goalType: str = Field(description="LOSE, GAIN or MAINTAIN")
    weightUnit: str


class BodyLogs(BaseModel):
    """Weight and fat logs of a date range with the weight goal."""

    weight: list[BodyLog]
    fat: list[BodyLog]
    goal: WeightGoal | None
    weightUnit: str


class FoodLog(BaseModel):
    """One food log entry."""

    logId: int
    logDate: str
    mealTypeId: int
    mealType: str
    name: str
    brand: str
    amount: float
    unitId: int
    unit: str
    calories: int


class WaterLog(BaseModel):
    """One water log entry."""

    logId: int
    logDate: str
    amount: float = Field(description="in the user's water unit")
    unit: str


class FoodDay(BaseModel):
    """The food and water logged on one day."""

    date: str
    foods: list[FoodLog]
    caloriesByMeal: dict[str, int]
    calories: int
    water: list[WaterLog]
    waterTotal: float
    waterUnit: str


class Deleted(BaseModel):
    """What a delete removed."""

    deleted: str
    logId: int


class Alarm(BaseModel):
    """A silent alarm on a tracker."""

    alarmId: int
    time: str = Field(description="HH:mm local time")
    enabled: bool
    recurring: bool
    weekDays: list[str]
    snoozeLength: int = Field(description="minutes")
    snoozeCount: int
    label: str


class Device(BaseModel):
    """A paired tracker or scale."""

    id: str
    deviceVersion: str
    type: str = Field(description="TRACKER or SCALE")
    battery: str = Field(description="High, Medium, Low or Empty")
    batteryLevel: int
    lastSyncTime: str
    mac: str
    alarms: list[Alarm] = Field(description="trackers only")


class DeviceList(BaseModel):
    """The user's devices."""

    devices: list[Device]


class LeaderboardEntry(BaseModel):
    """One person on the friends leaderboard."""

    rank: int
    encodedId: str
    displayName: str
    steps: int = Field(description="steps over the last 7 days, today included")
    isMe: bool


class Leaderboard(BaseModel):
    """The user and their friends ranked by steps over the last 7 days."""

    startDate: str
    endDate: str
    entries: list[LeaderboardEntry]
