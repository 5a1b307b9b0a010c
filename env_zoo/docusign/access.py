"""Who is signed in and what their permission profile lets them do. Account administrators see and manage every
envelope of the account; senders only the envelopes they sent and the templates they own or that are shared;
viewers read their own envelopes and send nothing."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import NO_ENVELOPE, NO_TEMPLATE, NOT_SIGNED_IN, lacks_permission, not_found
from .rules import ADMIN_PROFILE, SENDING_PROFILES
from .schema import envelopes, sessions, templates, users


def me(db: Database) -> dict[str, Any]:
    """The account user the assistant acts for."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def is_admin(user: dict[str, Any]) -> bool:
    """Whether the user administers the account."""
    return user["permission_profile"] == ADMIN_PROFILE


def sender(db: Database) -> dict[str, Any]:
    """The signed-in user, who must be allowed to send (USER_LACKS_PERMISSIONS otherwise)."""
    user = me(db)
    if user["permission_profile"] not in SENDING_PROFILES:
        raise lacks_permission(f"The {user['permission_profile']} profile can't send or change envelopes.")
    return user


def visible_envelope(db: Database, envelope_id: str) -> dict[str, Any]:
    """An envelope the signed-in user may see: any of the account's for an administrator, their own otherwise."""
    user = me(db)
    rows = db.find(envelopes, id=envelope_id.strip().lower(), account_id=user["account_id"])
    if not rows or not (is_admin(user) or rows[0]["sender_id"] == user["id"]):
        raise not_found(NO_ENVELOPE)
    return rows[0]


def managed_envelope(db: Database, envelope_id: str) -> dict[str, Any]:
    """An envelope the signed-in user may change: visible to them, and they may send."""
    sender(db)
    return visible_envelope(db, envelope_id)


def usable_template(db: Database, template_id: str) -> dict[str, Any]:
    """A template the signed-in user may use: shared with the account, owned by them, or any for an administrator."""
    user = me(db)
    rows = db.find(templates, id=template_id.strip().lower(), account_id=user["account_id"])
    if not rows or not (rows[0]["shared"] or rows[0]["owner_id"] == user["id"] or is_admin(user)):
        raise not_found(NO_TEMPLATE)
    return rows[0]
