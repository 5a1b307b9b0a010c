"""OpenTable's dining points and reviews: points credited when the diner is seated, rewards bought with points,
and reviews only from seated diners, once per reservation, within 30 days of the meal."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database
from envfactory_gym.values import format_money

from .rules import local_now, starts_at
from .schema import diners, points_activity, reservations, restaurants, reviews, rewards

REVIEW_DAYS = 30
REWARDS = {2000: 2000, 5000: 5000, 10000: 10000}  # points -> cents off the bill ($20, $50, $100)
DOLLARS = {"USD": "$"}


def _activity(db: Database, diner_id: str, points: int, description: str, reservation_id: str | None) -> None:
    db.insert(
        points_activity,
        id=db.new_id(points_activity, "pts_"),
        diner_id=diner_id,
        reservation_id=reservation_id,
        points=points,
        description=description,
        created_at=db.now_iso(),
    )


def seat(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Seat the party and credit the booking's points to the diner."""
    diner = db.get(diners, row["diner_id"], "Diner")
    db.update(diners, diner["id"], points_balance=diner["points_balance"] + row["points"])
    rest = db.get(restaurants, row["rid"], "Restaurant")
    _activity(db, diner["id"], row["points"], f"Dined at {rest['name']}", row["id"])
    return db.update(reservations, row["id"], status="seated")


def redeem(db: Database, diner: dict[str, Any], points: int) -> tuple[dict[str, Any], int]:
    """Trade points for a reward off a future bill: the reward row and the new balance."""
    if diner["points_balance"] < points:
        raise Conflict(f"You have {diner['points_balance']:,} points; {points:,} are needed for this reward.")
    balance = diner["points_balance"] - points
    db.update(diners, diner["id"], points_balance=balance)
    reward = format_money(REWARDS[points], "USD", DOLLARS).removesuffix(".00")
    _activity(db, diner["id"], -points, f"Redeemed for a {reward} dining reward", None)
    row = db.insert(
        rewards,
        id=db.new_id(rewards, "rwd_"),
        diner_id=diner["id"],
        points=points,
        amount=REWARDS[points],
        status="active",
        created_at=db.now_iso(),
    )
    return row, balance


def review(db: Database, row: dict[str, Any], scores: dict[str, int], text: str) -> dict[str, Any]:
    """Store a review of a meal the diner was seated for, once per reservation, within 30 days."""
    if row["status"] not in ("seated", "done"):
        raise Conflict(
            f"Only diners who were seated can review; this reservation is {row['status'].replace('_', '-')}."
        )
    if db.find(reviews, reservation_id=row["id"]):
        raise Conflict("You already reviewed this reservation.")
    if local_now(db) > starts_at(row) + timedelta(days=REVIEW_DAYS):
        raise Conflict(f"Reviews can be written up to {REVIEW_DAYS} days after dining.")
    return db.insert(
        reviews,
        id=db.new_id(reviews, "rev_"),
        rid=row["rid"],
        diner_id=row["diner_id"],
        reservation_id=row["id"],
        **scores,
        text=text.strip(),
        dined_on=row["date_time"][:10],
        submitted_at=db.now_iso(),
    )
