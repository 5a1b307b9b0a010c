"""Bitwarden's rules the tools share: folder and organization filters, member seats and collection grants, the
dates, options and password of a Send, and what an item edit changes."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any, Literal

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from . import vault
from .access import REVOKED, Access, applying_policies, require_edit, require_reprompt, require_view_password
from .inputs import CardInput, CollectionAccess, FieldInput, IdentityInput, UriInput
from .schema import collections, folders, members

ItemType = Literal[1, 2, 3, 4]
MemberType = Literal[0, 1, 2, 3]
TWO_STEP_POLICY, GENERATOR_POLICY, SEND_OPTIONS_POLICY = 0, 2, 7
MAX_SEND_DAYS = 31
NULL = "null"  # the CLI's filter value for "no folder" or "no organization"
MAX_PAGE_SIZE = 30


def digest(secret: str) -> str:
    """How a master password or a Send password is kept: its SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()


def folder_id(db: Database, value: str | None) -> str | None:
    """A folder of the user's, or None for "null" (no folder)."""
    if value is None or value == NULL:
        return None
    return db.get(folders, value, "Folder")["id"]


def equals_or_null(column: Any, value: Any) -> Any:
    """`column = value`, or `column IS NULL` for None."""
    return column.is_(None) if value is None else column == value


def on_the_hour(db: Database, days: int) -> str:
    """The current hour plus `days`, as Send dates are kept."""
    moment = db.now().replace(minute=0, second=0, microsecond=0) + timedelta(days=days)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def occupied_seats(db: Database, organization_id: str) -> int:
    """Seats taken: every member who is not revoked, invited ones included."""
    return sum(1 for m in db.find(members, organization_id=organization_id) if m["status"] != REVOKED)


def collection_grants(db: Database, organization_id: str, grants: list[CollectionAccess]) -> list[dict[str, Any]]:
    """Member collection access as stored; every collection must belong to the organization, once."""
    if len({g.id for g in grants}) != len(grants):
        raise InvalidRequest("A collection is listed more than once.")
    for grant in grants:
        if not db.find(collections, id=grant.id, organization_id=organization_id):
            raise NotFound(f"Collection '{grant.id}' not found in this organization")
    return sorted((g.model_dump() for g in grants), key=lambda g: g["id"])


def merged(current: dict[str, Any] | None, update: CardInput | IdentityInput) -> dict[str, Any]:
    """Card or identity parts with the given ones replacing the old."""
    return {**(current or {}), **update.model_dump(exclude_none=True)}


def check_send_options(db: Database, hide_email: bool | None) -> None:
    """Refuse to hide the sender's email where a Send options policy binds the user."""
    if hide_email and any(
        (p["data"] or {}).get("disableHideEmail") for p in applying_policies(db, SEND_OPTIONS_POLICY)
    ):
        raise PermissionDenied(
            "Due to an organization policy, you can't hide your email address from recipients of a Send."
        )


def send_dates(
    db: Database, deletion_days: int | None, expiration_days: int | None, current: dict[str, Any] | None = None
) -> dict[str, Any]:
    """New deletion and expiration dates, counted in days from the current hour (their argument types keep them
    within 1 to 31 days); a Send can't expire after it is deleted."""
    dates: dict[str, Any] = {}
    if deletion_days is not None:
        dates["deletion_date"] = on_the_hour(db, deletion_days)
    if expiration_days is not None:
        dates["expiration_date"] = on_the_hour(db, expiration_days)
    deletion = dates.get("deletion_date") or (current or {}).get("deletion_date")
    expiration = dates.get("expiration_date") or (current or {}).get("expiration_date")
    if expiration is not None and deletion is not None and expiration > deletion:
        raise InvalidRequest(f"A Send can't expire after its deletion date ({deletion}).")
    return dates


def item_changes(
    db: Database,
    item: dict[str, Any],
    access: Access,
    now: str,
    *,
    name: str | None,
    notes: str | None,
    reprompt: int | None,
    username: str | None,
    password: str | None,
    totp: str | None,
    uris: list[UriInput] | None,
    card: CardInput | None,
    identity: IdentityInput | None,
    fields: list[FieldInput] | None,
) -> dict[str, Any] | None:
    """The columns an edit of the item's content changes (None when no content was given), after the checks:
    edit access, the master-password re-prompt, parts that fit the item's type, and a visible password for
    password and TOTP changes."""
    login_parts = (username, password, totp, uris)
    if all(v is None for v in (name, notes, reprompt, card, identity, fields, *login_parts)):
        return None
    require_edit(item, access)
    require_reprompt(db, item)
    if any(v is not None for v in login_parts) and item["type"] != vault.LOGIN:
        raise InvalidRequest(f"'{item['name']}' is not a login; it has no username, password, TOTP or URIs.")
    if password is not None or totp is not None:
        require_view_password(item, access)
    if card is not None and item["type"] != vault.CARD:
        raise InvalidRequest(f"'{item['name']}' is not a card.")
    if identity is not None and item["type"] != vault.IDENTITY:
        raise InvalidRequest(f"'{item['name']}' is not an identity.")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = vault.clean_name(name)
    if notes is not None:
        changes["notes"] = notes or None
    if reprompt is not None:
        changes["reprompt"] = reprompt
    if username is not None:
        changes["login_username"] = username or None
    if totp is not None:
        changes["login_totp"] = vault.totp(totp)
    if uris is not None:
        changes["login_uris"] = vault.uris(uris)
    if card is not None:
        changes["card"] = vault.card(CardInput(**merged(item["card"], card)))
    if identity is not None:
        changes["identity"] = vault.identity(IdentityInput(**merged(item["identity"], identity)))
    if fields is not None:
        changes["fields"] = vault.custom_fields(fields)
    if password is not None and password != item["login_password"]:
        changes.update(
            login_password=password or None,
            password_history=vault.retire_password(item, now),
            password_revision_date=now,
        )
    return changes
