"""The booking lifecycle on OpenTable: slot locks, reservations (booked, or pending on a card hold), changes of
time and size, cancellations with late fees, check-in at the host stand, and the same-day waitlist."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database
from envfactory_gym.values import iso_timestamp

from .rules import (
    bookable_times,
    busy_tables,
    card_required,
    check_party_and_date,
    fmt,
    free_table,
    inside_window,
    local_now,
    points_for,
    policy_terms,
    refuse_overlap,
    refuse_unbookable,
    refuse_without_card,
    seating_times,
    starts_at,
    tables_of,
)
from .schema import charges, dining_tables, reservations, slot_locks, waitlist_entries

LOCK_MINUTES = 10
CHANGEABLE = ("pending", "booked")


def lock_table(
    db: Database,
    diner: dict[str, Any],
    rest: dict[str, Any],
    moment: datetime,
    party_size: int,
    seating_option: str,
    experience: dict[str, Any] | None,
) -> dict[str, Any]:
    """Hold the smallest free table of the section for the party for 10 minutes."""
    check_party_and_date(db, rest, moment, party_size)
    refuse_unbookable(db, rest, moment, experience)
    refuse_overlap(db, diner["id"], moment)
    held = busy_tables(db, rest["rid"], moment.date().isoformat())
    table = free_table(tables_of(db, rest, experience), held, moment, party_size, seating_option)
    if table is None:
        raise Conflict(f"No {seating_option} table for {party_size} is free at {fmt(moment)} any more.")
    return db.insert(
        slot_locks,
        id=db.new_id(slot_locks, "lock_"),
        rid=rest["rid"],
        diner_id=diner["id"],
        table_id=table["id"],
        date_time=fmt(moment),
        party_size=party_size,
        experience_id=experience["id"] if experience else None,
        expires_at=iso_timestamp(db.now() + timedelta(minutes=LOCK_MINUTES)),
        used=False,
    )


def book(
    db: Database,
    diner: dict[str, Any],
    lock: dict[str, Any],
    rest: dict[str, Any],
    experience: dict[str, Any] | None,
    special_request: str,
    occasion: str | None,
) -> dict[str, Any]:
    """Turn an unexpired, unused slot lock into a reservation; a guarantee leaves it pending on the card hold."""
    if lock["used"]:
        raise Conflict("This slot lock was already used for a reservation.")
    if lock["expires_at"] <= db.now_iso():
        raise Conflict("The slot lock expired; lock the time again.")
    needs_card = card_required(rest, lock["party_size"], experience)
    refuse_without_card(diner, rest, needs_card)
    db.update(slot_locks, lock["id"], used=True)
    return db.insert(
        reservations,
        id=db.new_id(reservations, "21105", 5),
        rid=rest["rid"],
        diner_id=diner["id"],
        table_id=lock["table_id"],
        date_time=lock["date_time"],
        party_size=lock["party_size"],
        experience_id=lock["experience_id"],
        status="pending" if needs_card else "booked",
        credit_card_required=needs_card,
        card_hold_status="awaiting_confirmation" if needs_card else None,
        special_request=special_request.strip(),
        occasion=occasion,
        points=points_for(rest, starts_at(lock)),
        created_at=db.now_iso(),
        cancelled_at=None,
    )


def refuse_unless_changeable(row: dict[str, Any]) -> None:
    """Only upcoming (pending or booked) reservations can change."""
    if row["status"] not in CHANGEABLE:
        raise Conflict(f"Reservation {row['id']} is {row['status']} and can't be changed.")


def reschedule(
    db: Database,
    diner: dict[str, Any],
    row: dict[str, Any],
    rest: dict[str, Any],
    experience: dict[str, Any] | None,
    moment: datetime,
    size: int,
) -> dict[str, Any]:
    """The column changes that move a reservation to a new time or party size: a free table (same section
    first), the time's points, and a new card hold when the party grows to the guarantee size (released when it
    shrinks below). A guaranteed booking can't move inside its cancellation window."""
    if row["credit_card_required"] and inside_window(db, row, rest, experience):
        raise Conflict(
            f"This guaranteed reservation is inside {rest['name']}'s cancellation window; call the "
            f"restaurant at {rest['phone']} to change it."
        )
    check_party_and_date(db, rest, moment, size)
    refuse_unbookable(db, rest, moment, experience)
    refuse_overlap(db, diner["id"], moment, exclude=row["id"])
    held = busy_tables(db, rest["rid"], moment.date().isoformat(), exclude=row["id"])
    tables = tables_of(db, rest, experience)
    section = db.get(dining_tables, row["table_id"], "Table")["section"]
    table = free_table(tables, held, moment, size, section) or free_table(tables, held, moment, size, None)
    if table is None:
        raise Conflict(f"No table for {size} is free at {fmt(moment)}; try another time.")
    needs_card = card_required(rest, size, experience)
    refuse_without_card(diner, rest, needs_card)
    changes: dict[str, Any] = dict(
        date_time=fmt(moment), party_size=size, table_id=table["id"], points=points_for(rest, moment)
    )
    if needs_card and not row["credit_card_required"]:
        changes.update(credit_card_required=True, status="pending", card_hold_status="awaiting_confirmation")
    elif not needs_card and row["credit_card_required"]:
        changes.update(credit_card_required=False, status="booked", card_hold_status="released")
    return changes


def cancel(
    db: Database, row: dict[str, Any], rest: dict[str, Any], experience: dict[str, Any] | None
) -> tuple[int, str | None]:
    """Cancel an upcoming reservation: a confirmed guarantee inside its window is charged the fee per guest, any
    other hold is released. Returns the fee (cents) and the card hold's new status."""
    if row["status"] not in CHANGEABLE:
        raise Conflict(f"Reservation {row['id']} is already {row['status']}.")
    if local_now(db) >= starts_at(row):
        raise Conflict("The reservation time has passed; contact the restaurant.")
    fee, hold = 0, row["card_hold_status"]
    if hold == "confirmed" and inside_window(db, row, rest, experience):
        fee = policy_terms(rest, experience, starts_at(row))[1] * row["party_size"]
        db.insert(
            charges,
            id=db.new_id(charges, "chg_"),
            reservation_id=row["id"],
            diner_id=row["diner_id"],
            kind="late_cancellation",
            amount=fee,
            created_at=db.now_iso(),
        )
        hold = "charged"
    elif hold in ("confirmed", "awaiting_confirmation"):
        hold = "released"
    db.update(reservations, row["id"], status="cancelled", card_hold_status=hold, cancelled_at=db.now_iso())
    return fee, hold


def refuse_check_in(db: Database, row: dict[str, Any]) -> None:
    """The host seats a booked party from 30 minutes before to 15 minutes after its time."""
    if row["status"] == "pending":
        raise Conflict("The card hold for this reservation hasn't been approved yet.")
    if row["status"] != "booked":
        raise Conflict(f"Reservation {row['id']} is {row['status']} and can't be checked in.")
    moment, now = starts_at(row), local_now(db)
    if now < moment - timedelta(minutes=30):
        raise Conflict("Too early to check in: the host seats parties from 30 minutes before their time.")
    if now > moment + timedelta(minutes=15):
        raise Conflict("This reservation is more than 15 minutes late; the host must seat you as a walk-in.")


def join_waitlist(db: Database, diner: dict[str, Any], rest: dict[str, Any], party_size: int) -> dict[str, Any]:
    """Today's waitlist: only where the restaurant takes one, it still seats today and no table is free in the
    next two hours; the quote grows 20 minutes per party ahead (10 more for parties over four)."""
    if not rest["accepts_waitlist"]:
        raise Conflict(f"{rest['name']} doesn't take a waitlist on OpenTable.")
    now = local_now(db)
    check_party_and_date(db, rest, now, party_size)
    if not any(t >= now for t in seating_times(db, rest["rid"], now)):
        raise Conflict(f"{rest['name']} has no more seatings today.")
    held = busy_tables(db, rest["rid"], now.date().isoformat())
    tables = tables_of(db, rest, None)
    for when in bookable_times(db, rest, now, None):
        if when <= now + timedelta(hours=2) and free_table(tables, held, when, party_size, None):
            raise Conflict(f"A table for {party_size} is free at {fmt(when)}; book it instead of waiting.")
    today = now.date().isoformat()
    waiting = db.find(waitlist_entries, rid=rest["rid"], date=today, status="waiting")
    if any(w["diner_id"] == diner["id"] for w in waiting):
        raise Conflict(f"You're already on {rest['name']}'s waitlist today.")
    return db.insert(
        waitlist_entries,
        id=db.new_id(waitlist_entries, "wl_"),
        rid=rest["rid"],
        diner_id=diner["id"],
        date=today,
        party_size=party_size,
        status="waiting",
        quoted_wait_minutes=20 * (len(waiting) + 1) + (10 if party_size > 4 else 0),
        created_at=db.now_iso(),
    )
