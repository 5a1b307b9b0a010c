"""Google Calendar's business rules: reminders, guests and the rooms that answer for themselves, busy time and
free/busy, a guest's answer, cancelling and moving events, Meet links, and sharing (ACL) rules."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .access import role
from .agenda import Row, exceptions_of, expand, guest_entry, materialize, organizes, rows_on, rule_of, single_events
from .objects import AttendeeInput, DomainScope, PersonScope, PublicScope, Reminders
from .schema import acl_rules, calendar_list, calendars, events, people, rooms
from .times import overlaps, span

SERIES_HORIZON = timedelta(days=366)
MAX_FREEBUSY_DAYS = 62
FORBIDDEN_FOR_GUEST = (
    "forbiddenForNonOrganizer: Only the organizer can change this event; as a guest you can only answer the invitation."
)


# ---------------------------------------------------------------- event details


def reminders(value: Reminders | None) -> dict[str, Any]:
    """Stored reminders: the calendar's defaults or custom ones, not both."""
    value = value or Reminders()
    if value.useDefault and value.overrides:
        raise InvalidRequest("Cannot specify both default reminders and overrides at the same time.")
    return value.model_dump()


def check_event_type(event_type: str, cal: Row, has_guests: bool) -> None:
    """Out-of-office and focus-time events belong on a person's primary calendar, without guests."""
    if event_type != "default" and (cal["kind"] != "primary" or has_guests):
        raise InvalidRequest(
            f"eventTypeRestriction: {event_type} events can only be created on a primary calendar "
            "and can't have guests."
        )


def meet_link(db: Database) -> dict[str, Any]:
    """A new Google Meet conference (its code drawn from a counter kept in the state)."""
    letters = "".join(
        chr(ord("a") + int(c, 16) % 26)
        for c in uuid.uuid5(uuid.NAMESPACE_URL, f"meet:{db.next_number('gcal:meet')}").hex[:10]
    )
    code = f"{letters[:3]}-{letters[3:7]}-{letters[7:]}"
    return {
        "conferenceId": code,
        "conferenceSolution": {"name": "Google Meet", "type": "hangoutsMeet"},
        "entryPoints": [{"entryPointType": "video", "uri": f"https://meet.google.com/{code}", "label": code}],
    }


def check_series(row: Row) -> None:
    """A series' recurrence must parse."""
    if row["recurrence"]:
        rule_of(row)


# ---------------------------------------------------------------- busy time


def busy_rows(db: Database, cal: Row, lo: datetime, hi: datetime, skip: str = "") -> list[Row]:
    """Events that make a calendar busy within [lo, hi): not cancelled, not shown as free, not declined by the
    calendar's owner (skipping the series `skip`)."""
    found = []
    for row in single_events(db, rows_on(db, cal, lo, hi), lo, hi):
        same_series = row["id"].partition("_")[0] == skip.partition("_")[0]
        if same_series or row["status"] == "cancelled" or row["transparency"] == "transparent":
            continue
        guest = guest_entry(row, cal["id"])
        if guest is not None and not organizes(cal, row) and guest["responseStatus"] == "declined":
            continue
        found.append(row)
    return found


def busy_periods(db: Database, cal: Row, lo: datetime, hi: datetime) -> list[tuple[datetime, datetime]]:
    """A calendar's busy time within [lo, hi), overlapping periods merged."""
    periods = sorted((max(s, lo), min(e, hi)) for s, e in (span(r) for r in busy_rows(db, cal, lo, hi)))
    merged: list[list[datetime]] = []
    for start, end in periods:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def check_free_busy_range(lo: datetime, hi: datetime) -> None:
    """A free/busy query covers a non-empty range of at most 62 days."""
    if hi <= lo:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty.")
    if hi - lo > timedelta(days=MAX_FREEBUSY_DAYS):
        raise InvalidRequest(f"timeRangeTooLong: The requested time range is longer than {MAX_FREEBUSY_DAYS} days.")


def room_answer(db: Database, room_email: str, row: Row) -> str:
    """A room accepts an invitation when it is free for every instance (within a year), else declines."""
    room = {**db.get(calendars, room_email, "Calendar"), "role": "reader"}
    begins, ends = span(row)
    windows = [(begins, ends)]
    if row["recurrence"]:
        windows = [span(i) for i in expand(row, begins, begins + SERIES_HORIZON, exceptions_of(db, [row])[row["id"]])]
    if not windows:
        return "accepted"
    lo, hi = min(w[0] for w in windows), max(w[1] for w in windows)
    taken = [span(other) for other in busy_rows(db, room, lo, hi, skip=row["id"])]
    clash = any(overlaps(other, w_lo, w_hi) for w_lo, w_hi in windows for other in taken)
    return "declined" if clash else "accepted"


# ---------------------------------------------------------------- guests


def guest_list(db: Database, row: Row, wanted: list[AttendeeInput], organizer_copy: bool) -> list[dict[str, Any]]:
    """The new guest list, the organizer first and the others by email (the order they were given in does not
    matter): answers of kept guests stay, new guests need to answer, rooms are marked as resources (they answer in
    `answer_rooms`)."""
    current = {a["email"]: a for a in row["attendees"]}
    out: list[dict[str, Any]] = []
    organizer = row["organizer_email"]
    if organizer in current or (organizer_copy and wanted and db.find(people, email=organizer)):
        out.append(
            {
                **current.get(organizer, {}),
                "email": organizer,
                "organizer": True,
                "responseStatus": current.get(organizer, {}).get("responseStatus", "accepted"),
            }
        )
    emails = [guest.email.strip().lower() for guest in wanted]
    room_emails = {r["email"] for r in db.find(rooms)} if emails else set()
    for guest, email in zip(wanted, emails):
        if email == organizer or email in {a["email"] for a in out}:
            continue
        entry = {**current.get(email, {"responseStatus": "needsAction"}), "email": email, "optional": guest.optional}
        if email in room_emails:
            entry["resource"] = True
        out.append(entry)
    return (
        out[:1] + sorted(out[1:], key=lambda a: a["email"])
        if out and out[0].get("organizer")
        else sorted(out, key=lambda a: a["email"])
    )


def answer_rooms(db: Database, row: Row) -> list[dict[str, Any]]:
    """The guest list with every room's answer for the event's (new) time."""
    return [
        {**a, "responseStatus": room_answer(db, a["email"], row)} if a.get("resource") else a for a in row["attendees"]
    ]


def rsvp(db: Database, cal: Row, row: Row, attendees: list[AttendeeInput]) -> Row:
    """A guest's answer to an invitation, given as their own attendee entry (other entries unchanged)."""
    current = {a["email"]: a for a in row["attendees"]}
    if cal["id"] not in current:
        raise NotFound(f"notFound: {cal['id']} is not a guest of this event.")
    for guest in attendees:
        email = guest.email.strip().lower()
        if email == cal["id"]:
            continue
        known = current.get(email)
        if known is None or guest.optional != known.get("optional", False):
            raise PermissionDenied(
                "forbiddenForNonOrganizer: The attendees of a meeting can only be modified by the organizer."
            )
    mine = next((a for a in attendees if a.email.strip().lower() == cal["id"]), None)
    if mine is None or mine.responseStatus is None:
        raise InvalidRequest("To answer, send your own attendee entry with a responseStatus.")
    stored = materialize(db, row)
    guests = [
        {**a, "responseStatus": mine.responseStatus, **({"comment": mine.comment} if mine.comment else {})}
        if a["email"] == cal["id"]
        else a
        for a in stored["attendees"]
    ]
    return db.update(events, stored["id"], attendees=guests, updated=db.now_iso())


# ---------------------------------------------------------------- creating, cancelling and moving


def new_event(db: Database, cal: Row, creator: str, values: dict[str, Any]) -> Row:
    """Store a new event organized by `cal`; rooms answer at once."""
    event_id = db.new_uuid(events).replace("-", "")
    now = db.now_iso()
    row = {
        "id": event_id,
        "calendar_id": cal["id"],
        "i_cal_uid": f"{event_id}@google.com",
        "status": "confirmed",
        "summary": "",
        "description": "",
        "location": "",
        "color_id": None,
        "creator_email": creator,
        "organizer_email": cal["id"],
        "recurrence": [],
        "recurring_event_id": None,
        "original_start_time": None,
        "transparency": "opaque",
        "visibility": "default",
        "attendees": [],
        "guests_can_modify": False,
        "guests_can_invite_others": True,
        "guests_can_see_other_guests": True,
        "reminders": {"useDefault": True, "overrides": []},
        "conference_data": None,
        "event_type": "default",
        "sequence": 0,
        "created": now,
        "updated": now,
        **values,
    }
    check_series(row)
    row["attendees"] = answer_rooms(db, row)
    return db.insert(events, **row)


def check_not_cancelled(row: Row, message: str) -> None:
    """A cancelled event can't be changed or deleted again."""
    if row["status"] == "cancelled":
        raise Conflict(f"deleted: {message}")


def apply_changes(db: Database, row: Row, changes: dict[str, Any], bump: bool) -> Row:
    """Write an organizer's changes to an event (a virtual instance becomes an exception first); a new time, guest
    list or recurrence bumps the sequence and lets every room answer again."""
    stored = materialize(db, row)
    updated = {**stored, **changes}
    check_series(updated)
    if bump:
        changes = {**changes, "attendees": answer_rooms(db, updated)}
    return db.update(
        events, stored["id"], **changes, sequence=stored["sequence"] + (1 if bump else 0), updated=db.now_iso()
    )


def answer_on_phone(db: Database, cal: Row, summary: str, day: datetime, response: str) -> str:
    """The calendar owner's answer to the invitation called `summary` on `day` (local midnight); for a recurring
    invitation it applies to the whole series."""
    lo, hi = day, day + timedelta(days=1)
    for row in single_events(db, rows_on(db, cal, lo, hi), lo, hi):
        if row["summary"].casefold() == summary.strip().casefold() and not organizes(cal, row):
            stored = row if db.find(events, id=row["id"]) else db.get(events, row["recurring_event_id"], "Event")
            guests = [{**a, "responseStatus": response} if a["email"] == cal["id"] else a for a in stored["attendees"]]
            db.update(events, stored["id"], attendees=guests, updated=db.now_iso())
            return f"{response}: {row['summary']}"
    raise NotFound(f"No invitation called {summary!r} on {day.date().isoformat()}.")


def cancel(db: Database, row: Row) -> Row:
    """Cancel an event for everyone: a series with all its exceptions, or one instance."""
    stored = materialize(db, row)
    for exception in db.find(events, recurring_event_id=stored["id"]):
        db.update(events, exception["id"], status="cancelled", updated=db.now_iso())
    return db.update(events, stored["id"], status="cancelled", sequence=stored["sequence"] + 1, updated=db.now_iso())


def move(db: Database, cal: Row, target: Row, row: Row) -> Row:
    """Give an event (with its exceptions) to another calendar, which becomes its organizer."""
    if not organizes(cal, row):
        raise PermissionDenied("forbiddenForNonOrganizer: Only the organizer's copy of an event can be moved.")
    if row["recurring_event_id"]:
        raise InvalidRequest(
            "cannotChangeOrganizerOfInstance: A single instance of a recurring event can't be moved; move the series."
        )
    if row["event_type"] != "default":
        raise InvalidRequest(f"eventTypeRestriction: {row['event_type']} events can't be moved.")
    if target["id"] == cal["id"]:
        raise InvalidRequest("The event is already on that calendar.")
    for item in [row, *db.find(events, recurring_event_id=row["id"])]:
        guests = [a for a in item["attendees"] if not a.get("organizer")]
        if guests and target["kind"] == "primary":
            guests.insert(0, {"email": target["id"], "organizer": True, "responseStatus": "accepted"})
        db.update(
            events,
            item["id"],
            calendar_id=target["id"],
            organizer_email=target["id"],
            attendees=guests,
            sequence=item["sequence"] + 1,
            updated=db.now_iso(),
        )
    return db.get(events, row["id"], "Event")


# ---------------------------------------------------------------- calendars and sharing


def create_calendar(db: Database, owner: str, summary: str, description: str, zone_name: str) -> Row:
    """A new secondary calendar: `owner` owns it and finds it on their calendar list."""
    cid = f"c_{db.new_uuid(calendars).replace('-', '')[:26]}@group.calendar.google.com"
    row = db.insert(
        calendars, id=cid, summary=summary, description=description, location="", time_zone=zone_name, kind="secondary"
    )
    db.insert(acl_rules, calendar_id=cid, id=f"user:{owner}", role="owner", scope_type="user", scope_value=owner)
    db.insert(
        calendar_list, email=owner, calendar_id=cid, summary_override=None, color_id="14", hidden=False, selected=True
    )
    return row


def change_list_entry(db: Database, account: str, cal: Row, changes: dict[str, Any]) -> Row:
    """Change how a calendar shows on `account`'s own list (an empty name goes back to the calendar's title)."""
    found = db.find(calendar_list, email=account, calendar_id=cal["id"])
    if not found:
        raise NotFound(f"notFound: {cal['id']} is not on your calendar list.")
    if "summary_override" in changes:
        changes = {**changes, "summary_override": changes["summary_override"].strip() or None}
    db.conn.execute(
        calendar_list.update()
        .where(calendar_list.c.email == account, calendar_list.c.calendar_id == cal["id"])
        .values(**changes)
    )
    return {**found[0], **changes}


def share(
    db: Database, cal: Row, owner: str, new_role: str, scope: PersonScope | DomainScope | PublicScope
) -> tuple[str, str | None]:
    """Add or change a sharing rule; a person gets the calendar on their calendar list. Returns (rule ID, value)."""
    if isinstance(scope, PublicScope):
        if new_role in ("writer", "owner"):
            raise InvalidRequest("The public can only get free/busy or reader access.")
        rule_id, value = "default", None
    else:
        value = scope.value.strip().lower()
        rule_id = f"{scope.type}:{value}"
    if scope.type == "user" and value == owner:
        raise PermissionDenied("cannotChangeOwnAcl: You cannot change your own access level.")
    if db.find(acl_rules, calendar_id=cal["id"], id=rule_id):
        db.conn.execute(
            acl_rules.update()
            .where(acl_rules.c.calendar_id == cal["id"], acl_rules.c.id == rule_id)
            .values(role=new_role)
        )
    else:
        db.insert(acl_rules, calendar_id=cal["id"], id=rule_id, role=new_role, scope_type=scope.type, scope_value=value)
    if (
        scope.type == "user"
        and db.find(people, email=value)
        and not db.find(calendar_list, email=value, calendar_id=cal["id"])
    ):
        db.insert(
            calendar_list,
            email=value,
            calendar_id=cal["id"],
            summary_override=None,
            color_id="1",
            hidden=False,
            selected=True,
        )
    return rule_id, value


def unshare(db: Database, cal: Row, owner: str, rule_id: str) -> Row:
    """Remove a sharing rule (never the owner's own); a person left without access loses the calendar from their
    calendar list."""
    found = db.find(acl_rules, calendar_id=cal["id"], id=rule_id)
    if not found:
        raise NotFound(f"notFound: No sharing rule {rule_id} on this calendar.")
    rule = found[0]
    if rule["scope_type"] == "user" and rule["scope_value"] == owner:
        raise PermissionDenied("cannotChangeOwnAcl: You cannot remove your own access.")
    db.conn.execute(acl_rules.delete().where(acl_rules.c.calendar_id == cal["id"], acl_rules.c.id == rule_id))
    if rule["scope_type"] == "user" and role(db, cal["id"], rule["scope_value"]) == "none":
        db.conn.execute(
            calendar_list.delete().where(
                calendar_list.c.email == rule["scope_value"], calendar_list.c.calendar_id == cal["id"]
            )
        )
    return rule
