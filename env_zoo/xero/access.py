"""Who is signed in (the Xero user who connected the assistant) and which organisations (tenants) they connected."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import connections, organisations, sessions

NOT_SIGNED_IN = "AuthenticationUnsuccessful: ask the user to connect their Xero login first."


def signed_in(db: Database) -> str:
    """The id of the user who connected the assistant; refused when nobody has."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def tenant(db: Database, tenant_id: str) -> dict[str, Any]:
    """An organisation the signed-in user has connected; others are not found (as Xero answers an unknown tenant)."""
    user_id = signed_in(db)
    if not db.find(connections, user_id=user_id, tenant_id=tenant_id):
        raise NotFound(f"Organisation '{tenant_id}' not found among your connections.")
    return db.get(organisations, tenant_id, "Organisation")


def tenant_ids(db: Database) -> list[str]:
    """The organisations the signed-in user connected, in connection order."""
    return [c["tenant_id"] for c in db.find(connections, user_id=signed_in(db))]
