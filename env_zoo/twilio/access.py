"""What the credentials reach: the main account's API key acts on the main account and every subaccount, each
resource only through the account that owns it; suspended and closed accounts can't send or buy."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .errors import inactive_account, missing_text, not_found
from .schema import accounts, campaigns, messages, messaging_services, phone_numbers


def main_account(db: Database) -> dict[str, Any]:
    """The main account (the one without a parent), whose balance every subaccount draws on."""
    found = db.select(accounts, "owner_account_sid IS NULL", limit=1)
    if not found:
        raise NotFound("20404: The main account was not found")
    return found[0]


def account(db: Database, sid: str) -> dict[str, Any]:
    """An account the credentials reach, by SID; 20404 otherwise."""
    return db.find_one(accounts, sid=sid, not_found=missing_text("Account", sid))


def active_account(db: Database, sid: str) -> dict[str, Any]:
    """An account that may send messages and buy numbers; 10001 when suspended or closed."""
    row = account(db, sid)
    if row["status"] != "active":
        raise inactive_account(sid, row["status"])
    return row


def number(db: Database, sid: str, account_sid: str | None = None) -> dict[str, Any]:
    """An owned number by its PN SID (within `account_sid` when given); 20404 otherwise."""
    row = db.find_one(phone_numbers, sid=sid, not_found=missing_text("IncomingPhoneNumber", sid))
    if account_sid is not None and row["account_sid"] != account_sid:
        raise not_found("IncomingPhoneNumber", sid)
    return row


def service(db: Database, sid: str) -> dict[str, Any]:
    """A Messaging Service by its MG SID; 20404 otherwise."""
    return db.find_one(messaging_services, sid=sid, not_found=missing_text("Service", sid))


def campaign_of(db: Database, service_sid: str) -> dict[str, Any] | None:
    """The US A2P campaign registered on a service, if any."""
    found = db.find(campaigns, messaging_service_sid=service_sid)
    return found[0] if found else None


def message(db: Database, sid: str) -> dict[str, Any]:
    """A message by its SM SID; 20404 otherwise."""
    return db.find_one(messages, sid=sid, not_found=missing_text("Message", sid))
