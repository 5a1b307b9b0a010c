"""Whose account the API key opens, its configurations, and whether it may place orders now (the holder's own
trading suspension, a broker restriction)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import account_configurations, accounts


def account(db: Database) -> dict[str, Any]:
    """The one trading account the API key belongs to."""
    return db.find(accounts)[0]


def configurations(db: Database) -> dict[str, Any]:
    """The account's configurations row."""
    return db.find(account_configurations)[0]


def check_may_trade(db: Database) -> None:
    """Refuse new orders while the holder has suspended trading or the broker has restricted the account."""
    if configurations(db)["suspend_trade"]:
        raise PermissionDenied("new orders are rejected: trading is suspended by the account holder")
    if account(db)["trading_blocked"]:
        raise PermissionDenied("account is restricted from trading")
