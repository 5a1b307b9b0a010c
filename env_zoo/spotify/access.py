"""Who the app acts as: the account whose access token it holds (the runtime's session), and what that account's
subscription allows."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import accounts, authorizations

NOT_AUTHORIZED = "No token provided"  # Spotify's 401 when a request carries no access token
PREMIUM_REQUIRED = "Player command failed: Premium required"


def me(db: Database) -> dict[str, Any]:
    """The signed-in account (user_id, email, country, product)."""
    return db.get(accounts, db.current_session(authorizations, NOT_AUTHORIZED)["user_id"], "Account")


def my_id(db: Database) -> str:
    """The signed-in user's Spotify user id."""
    return me(db)["user_id"]


def premium(db: Database) -> None:
    """Player commands are for Premium accounts only."""
    if me(db)["product"] != "premium":
        raise PermissionDenied(PREMIUM_REQUIRED)
