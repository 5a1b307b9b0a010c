"""Whose Guest Rewards account a request is for. The booking desk serves members by their number (or email, through
find_member); there is no sign-in, so every member-scoped tool names the member it acts for."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import members


def member_row(db: Database, member_number: str) -> dict[str, Any]:
    """A Guest Rewards member by number."""
    return db.find_one(
        members, member_number=member_number.strip(), not_found=f"Guest Rewards member '{member_number}' not found"
    )
