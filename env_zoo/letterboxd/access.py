"""Who is signed in to Letterboxd, and what they may see or change: members by username, films, log entries and
lists (a member's unpublished lists are theirs alone), blocks in either direction."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import blocks, films, lists, log_entries, member_sessions, members

NOT_SIGNED_IN = "You must be signed in to do that."


def sign_in(db: Database, username: str) -> dict[str, Any]:
    """Start the member's session by username or email; an unknown one is refused like the sign-in form does."""
    name = username.strip().lower()
    field = "email" if "@" in name else "username"
    member = db.find_one(members, not_found="Your credentials don't match. Please try again.", **{field: name})
    db.start_session(member_sessions, member_id=member["id"])
    return member


def me(db: Database) -> dict[str, Any]:
    """The signed-in member."""
    session = db.current_session(member_sessions, NOT_SIGNED_IN)
    return db.get(members, session["member_id"], "Member")


def blocked_between(db: Database, first: str, second: str) -> bool:
    """Whether either member blocks the other."""
    return bool(db.find(blocks, id=f"{first}:{second}") or db.find(blocks, id=f"{second}:{first}"))


def member(db: Database, username: str | None, viewer: dict[str, Any]) -> dict[str, Any]:
    """A member by username (the viewer when None); one who blocks the viewer is not found, as on the site."""
    if username is None:
        return viewer
    row = db.find_one(members, not_found=f"Member {username} not found.", username=username.strip().lower())
    if db.find(blocks, id=f"{row['id']}:{viewer['id']}"):
        raise NotFound(f"Member {username} not found.")
    return row


def film(db: Database, film_id: str) -> dict[str, Any]:
    """A film by its id."""
    return db.find_one(films, not_found=f"Film {film_id} not found.", id=film_id.strip())


def entry(db: Database, entry_id: str, viewer: dict[str, Any]) -> dict[str, Any]:
    """A log entry the viewer may see."""
    row = db.find_one(log_entries, not_found=f"Log entry {entry_id} not found.", id=entry_id.strip())
    if row["member_id"] != viewer["id"] and blocked_between(db, row["member_id"], viewer["id"]):
        raise NotFound(f"Log entry {entry_id} not found.")
    return row


def own_entry(db: Database, entry_id: str, viewer: dict[str, Any]) -> dict[str, Any]:
    """One of the viewer's own log entries."""
    row = entry(db, entry_id, viewer)
    if row["member_id"] != viewer["id"]:
        raise PermissionDenied("You can only edit your own diary entries and reviews.")
    return row


def visible_list(db: Database, list_id: str, viewer: dict[str, Any]) -> dict[str, Any]:
    """A list the viewer may see: their own, or a published one by a member not blocking them."""
    row = db.find_one(lists, not_found=f"List {list_id} not found.", id=list_id.strip())
    if row["owner_id"] != viewer["id"] and (not row["published"] or blocked_between(db, row["owner_id"], viewer["id"])):
        raise NotFound(f"List {list_id} not found.")
    return row


def own_list(db: Database, list_id: str, viewer: dict[str, Any]) -> dict[str, Any]:
    """One of the viewer's own lists."""
    row = visible_list(db, list_id, viewer)
    if row["owner_id"] != viewer["id"]:
        raise PermissionDenied("You can only edit your own lists.")
    return row
