"""Who is signed in (the seller whose Seller Central login authorised the assistant) and the marketplaces the
seller participates in."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import unauthorized
from .schema import marketplaces, participations, sessions

NOT_SIGNED_IN = "403 Unauthorized: Access to requested resource is denied. Ask the seller to sign in first."


def seller_id(db: Database) -> str:
    """The signed-in seller's id (merchant token); refused when nobody signed in."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["seller_id"])


def marketplace(db: Database, marketplace_id: str) -> dict[str, Any]:
    """A marketplace the signed-in seller participates in; others are refused as the API does."""
    me = seller_id(db)
    if not db.find(participations, seller_id=me, marketplace_id=marketplace_id):
        raise unauthorized(f"Seller {me} does not participate in marketplace {marketplace_id}.")
    return db.get(marketplaces, marketplace_id, "Marketplace")
