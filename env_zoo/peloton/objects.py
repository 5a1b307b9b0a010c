"""What Peloton's tools answer with: member profiles, instructors, classes, reservations, bookmarks and the stack,
workouts with their metrics, personal records and challenges with the member's progress."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import instructors


class MemberProfile(BaseModel):
    """A member as others see them; counts only for the signed-in member."""

    member_id: str
    username: str
    name: str
    location: str
    is_private: bool


class MemberListing(MemberProfile):
    """A member in search results, with the signed-in member's follow status."""

    follow_status: str | None


class FollowResult(BaseModel):
    username: str
    status: str


class Me(MemberProfile):
    """The signed-in member with subscription and history totals."""

    subscription: str
    member_since: str
    total_workouts: int
    workouts_by_discipline: dict[str, int]
    following_count: int
    followers_count: int


class Instructor(BaseModel):
    instructor_id: str
    name: str
    fitness_disciplines: list[str]
    languages: list[str]


class PelotonClass(BaseModel):
    """A class from the library (on demand) or the schedule (live or encore, with scheduled_start)."""

    class_id: str
    title: str
    fitness_discipline: str
    class_type: str
    instructor: str
    instructor_id: str
    duration_minutes: int
    difficulty_level: str
    difficulty_rating: float
    explicit: bool
    has_closed_captions: bool
    original_air_time: str
    scheduled_start: str | None
    is_encore: bool
    status: str
    total_workouts: int


class Reservation(BaseModel):
    reservation_id: str
    kind: str
    status: str
    start_time: str
    peloton_class: PelotonClass
    invited: list[str]


class Bookmark(BaseModel):
    peloton_class: PelotonClass


class StackEntry(BaseModel):
    position: int
    peloton_class: PelotonClass


class Stack(BaseModel):
    """The member's single stack, played in position order."""

    classes: list[StackEntry]
    total_minutes: int
    slots_left: int


class WorkoutSummary(BaseModel):
    workout_id: str
    title: str
    fitness_discipline: str
    start_time: str
    duration_minutes: int
    status: str
    total_output_kj: int | None
    calories: int


class Workout(WorkoutSummary):
    """A workout with every metric the platform recorded."""

    class_id: str | None
    instructor: str | None
    avg_cadence: int | None
    avg_resistance_pct: int | None
    distance_mi: float | None
    avg_heart_rate: int | None
    leaderboard_rank: int | None
    leaderboard_total: int | None
    is_personal_record: bool


class PersonalRecord(BaseModel):
    """Best total output for one class length."""

    duration_minutes: int
    total_output_kj: int
    workout_id: str
    date: str


class PersonalRecords(BaseModel):
    fitness_discipline: str
    records: list[PersonalRecord]


class Challenge(BaseModel):
    challenge_id: str
    title: str
    kind: str
    fitness_disciplines: list[str]
    goal: int
    start_date: str
    end_date: str
    state: str
    badge: str
    joined: bool
    progress: float | None
    badge_earned: bool


class Removed(BaseModel):
    removed: str


def instructor_name(db: Database, instructor_id: str) -> str:
    """The instructor's display name."""
    return str(db.get(instructors, instructor_id)["name"])


def class_object(db: Database, row: dict[str, Any]) -> PelotonClass:
    """A class row as Peloton shows it."""
    return PelotonClass(
        class_id=row["id"],
        title=row["title"],
        fitness_discipline=row["fitness_discipline"],
        class_type=row["class_type"],
        instructor=instructor_name(db, row["instructor_id"]),
        instructor_id=row["instructor_id"],
        duration_minutes=row["duration"] // 60,
        difficulty_level=row["difficulty_level"],
        difficulty_rating=row["difficulty_rating"] / 100,
        explicit=row["explicit"],
        has_closed_captions=row["has_closed_captions"],
        original_air_time=row["original_air_time"],
        scheduled_start=row["scheduled_start"],
        is_encore=row["is_encore"],
        status=row["status"],
        total_workouts=row["total_workouts"],
    )


def profile(row: dict[str, Any]) -> MemberProfile:
    """A member's public profile."""
    return MemberProfile(
        member_id=row["id"],
        username=row["username"],
        name=row["name"],
        location=row["location"],
        is_private=row["is_private"],
    )


def workout_summary(row: dict[str, Any]) -> WorkoutSummary:
    """A workout's line in the history list."""
    return WorkoutSummary(
        workout_id=row["id"],
        title=row["title"],
        fitness_discipline=row["fitness_discipline"],
        start_time=row["start_time"],
        duration_minutes=row["duration"] // 60,
        status=row["status"],
        total_output_kj=row["total_output_kj"],
        calories=row["calories"],
    )
