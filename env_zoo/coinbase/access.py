"""Who the API key belongs to and the security settings that guard their money: address allowlisting (sends only
to address-book entries past their 48-hour wait) and the 2-step threshold from which a send waits for approval
in the Coinbase app."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

from envfactory_gym import Database, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import address_book, users

ALLOWLIST_DELAY = timedelta(hours=48)


def me(db: Database) -> dict[str, Any]:
    """The user the API key belongs to (the account holder)."""
    return db.find(users)[0]


def usable_from(db: Database, entry: dict[str, Any]) -> str:
    """When an address-book entry can first be sent to: 48 hours after it was added while allowlisting is on."""
    if not me(db)["address_allowlisting"]:
        return entry["added_at"]
    return iso_timestamp(parse_timestamp(entry["added_at"], "added_at") + ALLOWLIST_DELAY)


def check_allowlisted(db: Database, code: str, network_name: str, address: str) -> None:
    """With allowlisting on, only address-book entries past their 48-hour wait can receive sends."""
    if not me(db)["address_allowlisting"]:
        return
    entries = db.find(address_book, currency=code, network=network_name, address=address)
    if not entries:
        raise PermissionDenied("Address allowlisting is on: add this address to your address book to send to it")
    usable = usable_from(db, entries[0])
    if db.now_iso() < usable:
        raise PermissionDenied(
            f"'{entries[0]['label']}' was added to your address book less than 48 hours ago; "
            f"it can receive from {usable}"
        )


def needs_approval(db: Database, usd_value: Decimal) -> bool:
    """Whether a send worth `usd_value` waits for the account holder's approval in the app."""
    return usd_value >= Decimal(me(db)["send_2fa_threshold"])
