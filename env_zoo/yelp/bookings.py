"""Yelp Reservations and Yelp Waitlist: holds, bookings, changes and cancellations, joining and leaving a line."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database
from envfactory_gym.values import iso_timestamp

from .rules import (
    at,
    business,
    line,
    local_now,
    refuse_after_cutoff,
    refuse_double_booking,
    refuse_party,
    refuse_unavailable,
    refuse_waitlist,
    starts,
    takes,
)
from .schema import holds, reservations, waitlist_visits

HOLD_MINUTES = 5


def bookable(row: dict[str, Any], covers: int) -> None:
    """The business takes Yelp Reservations for a party this size."""
    takes(row, "restaurant_reservation", "reservations")
    refuse_party(row, covers)


def hold(db: Database, user: dict[str, Any], row: dict[str, Any], moment: datetime, covers: int) -> dict[str, Any]:
    """Hold an opening for the person for five minutes."""
    bookable(row, covers)
    refuse_unavailable(db, row, moment, covers)
    return db.insert(
        holds,
        id=db.new_id(holds, "hold_"),
        business_id=row["id"],
        user_id=user["id"],
        date=moment.date().isoformat(),
        time=moment.strftime("%H:%M"),
        covers=covers,
        expires_at=iso_timestamp(db.now() + timedelta(minutes=HOLD_MINUTES)),
        used=False,
    )


def book(db: Database, user: dict[str, Any], held: dict[str, Any], notes: str) -> dict[str, Any]:
    """Turn an unexpired, unused hold into a confirmed reservation."""
    if held["used"]:
        raise Conflict(f"Hold {held['id']} was already used for a reservation.")
    if held["expires_at"] < db.now_iso():
        raise Conflict(f"Hold {held['id']} has expired; hold the time again.")
    row = business(db, held["business_id"])
    moment = starts(held)
    refuse_unavailable(db, row, moment, held["covers"])
    refuse_double_booking(db, user["id"], moment)
    db.update(holds, held["id"], used=True)
    return db.insert(
        reservations,
        id=db.new_id(reservations, "yr_", 6),
        business_id=row["id"],
        user_id=user["id"],
        date=held["date"],
        time=held["time"],
        covers=held["covers"],
        status="confirmed",
        notes=notes.strip(),
        created_at=db.now_iso(),
    )


def modify(
    db: Database, res: dict[str, Any], when: tuple[date | None, str | None], covers: int | None, notes: str | None
) -> dict[str, Any]:
    """Move a confirmed reservation, resize it or change its notes, before the cut-off."""
    row = business(db, res["business_id"])
    refuse_after_cutoff(db, res, row, "changed")
    day = when[0] or date.fromisoformat(res["date"])
    moment = at(day, when[1] or res["time"])
    size = covers if covers is not None else res["covers"]
    changes: dict[str, Any] = {} if notes is None else {"notes": notes.strip()}
    if moment != starts(res) or size != res["covers"]:
        refuse_party(row, size)
        refuse_unavailable(db, row, moment, size, exclude=res["id"])
        refuse_double_booking(db, res["user_id"], moment, exclude=res["id"])
        changes.update(date=moment.date().isoformat(), time=moment.strftime("%H:%M"), covers=size)
    return db.update(reservations, res["id"], **changes)


def cancel(db: Database, res: dict[str, Any]) -> dict[str, Any]:
    """Cancel a confirmed reservation before the cut-off."""
    refuse_after_cutoff(db, res, business(db, res["business_id"]), "cancelled")
    return db.update(reservations, res["id"], status="cancelled")


def cutoff(db: Database, res: dict[str, Any]) -> str:
    """The local time online changes end for a reservation."""
    minutes = business(db, res["business_id"])["change_cutoff_minutes"]
    return (starts(res) - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


def join(db: Database, user: dict[str, Any], row: dict[str, Any], party_size: int, notes: str) -> dict[str, Any]:
    """Put the person at the end of a business's line with a quoted wait."""
    refuse_waitlist(db, user, row, party_size)
    ahead = len(line(db, row["id"]))
    return db.insert(
        waitlist_visits,
        id=db.new_id(waitlist_visits, "wv_", 5),
        business_id=row["id"],
        user_id=user["id"],
        party_size=party_size,
        status="waiting",
        quoted_wait_minutes=(ahead + 1) * row["wait_minutes_per_party"],
        notes=notes.strip(),
        joined_at=local_now(db).strftime("%Y-%m-%dT%H:%M:%S"),
    )


def leave(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Step out of a line; only a party still waiting can."""
    if row["status"] != "waiting":
        raise Conflict(f"Waitlist visit {row['id']} is already {row['status']}.")
    return db.update(waitlist_visits, row["id"], status="left")
