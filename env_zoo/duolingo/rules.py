"""Duolingo's published rules: a streak counts days in a row with a lesson; up to 2 streak freezes equipped at a
time; Double or Nothing pays double after 7 more streak days; a lost streak can be repaired for two days; 5 hearts
unless Super; weekly leagues of ten tiers starting Monday 00:00 UTC with per-tier promotion zones and a bottom-5
demotion zone (none in Bronze); quests pay gems once complete; a Friends Quest pairs two learners who follow each
other, once a week."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .schema import follows, gem_transactions, users

TIERS = ("BRONZE", "SILVER", "GOLD", "SAPPHIRE", "RUBY", "EMERALD", "AMETHYST", "PEARL", "OBSIDIAN", "DIAMOND")
PROMOTED = {
    "BRONZE": 20,
    "SILVER": 15,
    "GOLD": 10,
    "SAPPHIRE": 7,
    "RUBY": 7,
    "EMERALD": 7,
    "AMETHYST": 7,
    "PEARL": 7,
    "OBSIDIAN": 5,
    "DIAMOND": 0,
}
DEMOTED = 5  # the bottom five of a league drop a tier, except in Bronze
MAX_HEARTS = 5
MAX_FREEZES = 2
WAGER_DAYS = 7
WAGER_PAYOUT = 100
REPAIR_DAYS = 2
MAX_HISTORY_DAYS = 31
FRIENDS_QUEST_TARGET = 1000
FRIENDS_QUEST_REWARD = 40
GOAL_NAMES = {10: "Casual", 20: "Regular", 30: "Serious", 50: "Intense"}


def today(db: Database) -> date:
    """The simulated day (UTC)."""
    return db.now().date()


def week_start(db: Database) -> date:
    """Monday of the current league week (leagues start Monday 00:00 UTC)."""
    day = today(db)
    return day - timedelta(days=day.weekday())


def week_end(db: Database) -> date:
    """Sunday, the league week's last day."""
    return week_start(db) + timedelta(days=6)


def zone(tier: str, rank: int, size: int) -> str:
    """promotion, demotion or safe for a rank in a league of `size`."""
    if rank <= PROMOTED[tier]:
        return "promotion"
    if tier != "BRONZE" and rank > size - DEMOTED:
        return "demotion"
    return "safe"


def repair_deadline(user: dict[str, Any]) -> date | None:
    """The last day a lost streak can be repaired, or None when there is nothing to repair."""
    if not user["lost_streak"] or not user["streak_lost_on"]:
        return None
    return date.fromisoformat(user["streak_lost_on"]) + timedelta(days=REPAIR_DAYS)


def can_repair(db: Database, user: dict[str, Any]) -> bool:
    """True while a lost streak is inside its repair window."""
    deadline = repair_deadline(user)
    return deadline is not None and today(db) <= deadline


def wager_days(db: Database, user: dict[str, Any]) -> int | None:
    """Days of an active Double or Nothing already kept (0-7), or None when none is active."""
    if not user["wager_started_on"]:
        return None
    return min(WAGER_DAYS, (today(db) - date.fromisoformat(user["wager_started_on"])).days)


def follows_each_other(db: Database, a: int, b: int) -> bool:
    """True when a follows b and b follows a."""
    return bool(db.find(follows, follower_id=a, followee_id=b)) and bool(db.find(follows, follower_id=b, followee_id=a))


def date_range(start: date, end: date) -> list[date]:
    """Every day from start to end, inclusive; InvalidRequest when the range is reversed or too long."""
    if end < start:
        raise InvalidRequest("end_date must not be before start_date.")
    if (end - start).days + 1 > MAX_HISTORY_DAYS:
        raise InvalidRequest(f"The date range may span at most {MAX_HISTORY_DAYS} days.")
    return [start + timedelta(days=i) for i in range((end - start).days + 1)]


def spend_gems(db: Database, user: dict[str, Any], gems: int, reason: str) -> None:
    """Take gems from the learner with a ledger line; Conflict when they have too few."""
    if user["gems"] < gems:
        raise Conflict(f"Not enough gems: this costs {gems} gems and you have {user['gems']}.")
    db.update(users, user["id"], gems=user["gems"] - gems)
    db.insert(
        gem_transactions,
        id=db.new_id(gem_transactions, "gtx_", 5),
        user_id=user["id"],
        amount=-gems,
        reason=reason,
        created_at=db.now_iso(),
    )
