"""Who is signed in: an organizer (a member of an organization) or a ticket buyer, and what each may touch."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import events, orders, sessions, users

NO_AUTH = "NO_AUTH: nobody is signed in; ask the person to sign in to Eventbrite first."
NOT_AUTHORIZED = "NOT_AUTHORIZED: You do not have permission to access the resource you requested."


def me(db: Database) -> dict[str, Any]:
    """The signed-in user; NO_AUTH when nobody is."""
    return db.get(users, db.current_session(sessions, NO_AUTH)["user_id"], "User")


def organization_id(db: Database) -> str:
    """The signed-in organizer's organization; NOT_AUTHORIZED for a ticket buyer."""
    org = me(db)["organization_id"]
    if org is None:
        raise PermissionDenied(NOT_AUTHORIZED)
    return str(org)


def event(db: Database, event_id: str) -> dict[str, Any]:
    """Any event by id (buyers may read live events; drafts only their organization sees)."""
    row = db.find_one(events, not_found=f"NOT_FOUND: event {event_id} does not exist.", id=event_id.strip())
    if row["status"] == "draft" and me(db)["organization_id"] != row["organization_id"]:
        raise NotFound(f"NOT_FOUND: event {event_id} does not exist.")
    return row


def own_event(db: Database, event_id: str) -> dict[str, Any]:
    """An event of the signed-in organizer's organization; NOT_AUTHORIZED for anyone else."""
    org = organization_id(db)
    row = db.find_one(events, not_found=f"NOT_FOUND: event {event_id} does not exist.", id=event_id.strip())
    if row["organization_id"] != org:
        raise PermissionDenied(NOT_AUTHORIZED)
    return row


def order(db: Database, order_id: str) -> dict[str, Any]:
    """An order its buyer or the event's organization may see; NOT_FOUND for anyone else."""
    row = db.find_one(orders, not_found=f"NOT_FOUND: order {order_id} does not exist.", id=order_id.strip())
    user = me(db)
    if row["user_id"] != user["id"]:
        owner = db.get(events, row["event_id"], "Event")["organization_id"]
        if user["organization_id"] != owner:
            raise NotFound(f"NOT_FOUND: order {order_id} does not exist.")
    return row
