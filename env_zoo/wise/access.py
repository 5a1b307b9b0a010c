"""Who is signed in (the personal API token the user gave the assistant) and what they may do for each profile:
their own personal profile, and businesses whose team they are on, with the team role's permissions."""

from __future__ import annotations

from typing import Any, Literal

from envfactory_gym import Database, NotFound, PermissionDenied

from .rules import wise_error
from .schema import profile_members, profiles, sessions

NOT_SIGNED_IN = "Unauthorized: ask the user to connect their Wise account with a personal API token."
Action = Literal["view", "prepare", "pay", "manage"]
#: What each team role allows: view (read), prepare (quotes, recipients, transfers), pay (fund transfers and move
#: money between balances), manage (open and close balances and jars).
ALLOWED: dict[str, tuple[str, ...]] = {
    "OWNER": ("view", "prepare", "pay", "manage"),
    "ADMIN": ("view", "prepare", "pay", "manage"),
    "PAYER": ("view", "prepare", "pay"),
    "PREPARER": ("view", "prepare"),
    "VIEWER": ("view",),
}
WORDS = {
    "prepare": "create quotes, recipients or transfers",
    "pay": "pay out or move money",
    "manage": "open or close balances",
}


def signed_in(db: Database) -> int:
    """The id of the user whose token the assistant holds; refused when nobody has connected."""
    return int(db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def role(db: Database, user_id: int, profile_id: int) -> str | None:
    """The user's role on a profile, or None when they are not on it."""
    found = db.find(profile_members, profile_id=profile_id, user_id=user_id)
    return found[0]["role"] if found else None


def profile_for(db: Database, profile_id: int, action: Action = "view") -> dict[str, Any]:
    """A profile the signed-in user may act for, checked for the permission `action` needs."""
    user_id = signed_in(db)
    held = role(db, user_id, profile_id)
    if held is None:
        raise NotFound(f"Profile {profile_id} not found.")
    if action not in ALLOWED[held]:
        raise wise_error(
            PermissionDenied, "forbidden", f"Your role on this profile ({held}) doesn't let you {WORDS[action]}."
        )
    return db.get(profiles, profile_id, "Profile")


def my_profile_ids(db: Database) -> list[int]:
    """The profiles the signed-in user may act for, in id order."""
    user_id = signed_in(db)
    return sorted(m["profile_id"] for m in db.find(profile_members, user_id=user_id))
