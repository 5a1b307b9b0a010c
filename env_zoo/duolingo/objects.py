"""What Duolingo's tools answer with: the learner's profile, streak, courses and their path, XP history, the weekly
leaderboard, shop items and purchases, quests, the gem ledger and other learners' profiles."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from . import rules
from .schema import enrollments, follows, quests, units, users


class Me(BaseModel):
    """The signed-in learner with today's progress."""

    user_id: int
    username: str
    name: str
    total_xp: int
    gems: int
    hearts: int | None  # null with Super: unlimited
    unlimited_hearts: bool
    has_super: bool
    daily_goal_xp: int
    daily_goal_name: str
    xp_today: int
    daily_goal_met: bool
    streak: int
    streak_freezes: int
    league: str
    leaderboards_enabled: bool
    current_course_id: str | None
    created_at: str


class Wager(BaseModel):
    started_on: str
    days_kept: int
    days_needed: int
    payout_gems: int


class Streak(BaseModel):
    streak: int
    extended_today: bool
    longest_streak: int
    streak_freezes: int
    wager: Wager | None
    repairable_streak: int | None
    repair_until: str | None


class Course(BaseModel):
    course_id: str
    title: str
    learning_language: str
    from_language: str
    subject: str
    num_learners: int
    enrolled: bool
    is_current: bool
    xp: int | None
    lessons_completed: int | None
    total_lessons: int


class UnitProgress(BaseModel):
    unit_id: str
    section: int
    unit_index: int
    title: str
    cefr_level: str | None
    num_lessons: int
    lessons_completed: int
    status: str  # complete | in_progress | locked


class CourseProgress(BaseModel):
    course_id: str
    title: str
    is_current: bool
    xp: int
    lessons_completed: int
    total_lessons: int
    current_unit: str | None
    units: list[UnitProgress]


class XpDay(BaseModel):
    date: str
    xp: int
    lessons: int
    goal_met: bool
    frozen: bool


class XpHistory(BaseModel):
    start_date: str
    end_date: str
    daily_goal_xp: int
    total_xp: int
    days_goal_met: int
    days: list[XpDay]


class LeaderboardEntry(BaseModel):
    rank: int
    username: str
    name: str
    xp: int
    zone: str
    is_me: bool


class Leaderboard(BaseModel):
    enabled: bool
    tier: str
    week_start: str | None
    week_end: str | None
    my_rank: int | None
    my_xp: int | None
    my_zone: str | None
    promotion_spots: int
    demotion_spots: int
    entries: list[LeaderboardEntry]
    note: str | None


class ShopItem(BaseModel):
    item_id: str
    name: str
    price_gems: int
    description: str
    can_afford: bool


class Purchase(BaseModel):
    item_id: str
    quantity: int
    gems_spent: int
    gems_left: int
    hearts: int | None
    streak: int
    streak_freezes: int
    wager: Wager | None


class Quest(BaseModel):
    quest_id: str
    kind: str
    title: str
    target: int
    progress: int
    reward_gems: int
    partner: str | None
    starts_on: str
    ends_on: str
    status: str  # in_progress | complete | claimed | expired


class QuestClaim(BaseModel):
    quest_id: str
    gems_awarded: int
    gems: int


class GemTransaction(BaseModel):
    amount: int
    reason: str
    created_at: str


class Learner(BaseModel):
    """Another learner as a search result or friend list entry."""

    user_id: int
    username: str
    name: str
    streak: int
    total_xp: int
    league: str
    following: bool
    follows_you: bool


class EnrolledCourse(BaseModel):
    course_id: str
    title: str
    xp: int


class Profile(Learner):
    has_super: bool
    created_at: str
    following_count: int
    followers_count: int
    courses: list[EnrolledCourse]
    can_be_followed: bool


class FollowResult(BaseModel):
    username: str
    following: bool
    follows_you: bool


class LeaderboardSetting(BaseModel):
    leaderboards_enabled: bool
    note: str


# ---------------------------------------------------------------- building answers from rows


def enrollment(db: Database, user_id: int, course_id: str) -> dict[str, Any] | None:
    rows = db.find(enrollments, user_id=user_id, course_id=course_id)
    return rows[0] if rows else None


def course_units(db: Database, course_id: str) -> list[dict[str, Any]]:
    return db.find(units, course_id=course_id, order_by=[units.c.unit_index])


def wager_object(db: Database, user: dict[str, Any]) -> Wager | None:
    kept = rules.wager_days(db, user)
    if kept is None:
        return None
    return Wager(
        started_on=user["wager_started_on"],
        days_kept=kept,
        days_needed=rules.WAGER_DAYS,
        payout_gems=rules.WAGER_PAYOUT,
    )


def is_following(db: Database, follower: int, followee: int) -> bool:
    return bool(db.find(follows, follower_id=follower, followee_id=followee))


def learner(db: Database, viewer: int, row: dict[str, Any]) -> Learner:
    return Learner(
        user_id=row["id"],
        username=row["username"],
        name=row["name"],
        streak=row["streak"],
        total_xp=row["total_xp"],
        league=row["league"],
        following=is_following(db, viewer, row["id"]),
        follows_you=is_following(db, row["id"], viewer),
    )


def quest_status(db: Database, row: dict[str, Any]) -> tuple[int, str]:
    """(progress, status): a Friends Quest counts both partners' progress."""
    progress = row["progress"]
    if row["kind"] == "FRIENDS" and row["partner_id"] is not None:
        partner = db.find(
            quests, user_id=row["partner_id"], partner_id=row["user_id"], kind="FRIENDS", starts_on=row["starts_on"]
        )
        progress += partner[0]["progress"] if partner else 0
    if row["claimed"]:
        return progress, "claimed"
    if progress >= row["target"]:
        return progress, "complete"
    if row["ends_on"] < rules.today(db).isoformat():
        return progress, "expired"
    return progress, "in_progress"


def quest_object(db: Database, row: dict[str, Any]) -> Quest:
    progress, status = quest_status(db, row)
    partner = db.get(users, row["partner_id"])["username"] if row["partner_id"] is not None else None
    return Quest(
        quest_id=row["id"],
        kind=row["kind"],
        title=row["title"],
        target=row["target"],
        progress=min(progress, row["target"]),
        reward_gems=row["reward_gems"],
        partner=partner,
        starts_on=row["starts_on"],
        ends_on=row["ends_on"],
        status=status,
    )


def course_object(db: Database, user: dict[str, Any], row: dict[str, Any]) -> Course:
    enrolled = enrollment(db, user["id"], row["id"])
    return Course(
        course_id=row["id"],
        title=row["title"],
        learning_language=row["learning_language"],
        from_language=row["from_language"],
        subject=row["subject"],
        num_learners=row["num_learners"],
        enrolled=enrolled is not None,
        is_current=user["current_course_id"] == row["id"],
        xp=enrolled["xp"] if enrolled else None,
        lessons_completed=enrolled["lessons_completed"] if enrolled else None,
        total_lessons=sum(u["num_lessons"] for u in course_units(db, row["id"])),
    )
