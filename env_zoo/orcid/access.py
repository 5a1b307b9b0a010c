"""What the portal may see and do on a record: the record's state (deprecated, deactivated, locked), the scopes the
researcher granted it, which items it may read (public ones; limited ones with /read-limited; private ones only
where it is the source), and which it may change (only its own)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import bad_request, conflict, forbidden, moved, not_found, unauthorized
from .rules import PORTAL, READ_LIMITED, valid_orcid
from .schema import permissions, records


def record(db: Database, orcid: str, deactivated_ok: bool = False) -> dict[str, Any]:
    """A readable record: a wrong check digit is a bad request, a deprecated iD points to its primary record, a
    deactivated record is a conflict (unless the caller only reports the record's state)."""
    if not valid_orcid(orcid):
        raise bad_request(9001, f"{orcid} is not a valid ORCID iD: the check digit does not match.")
    row = db.find(records, orcid=orcid)
    if not row:
        raise not_found(f"The ORCID record {orcid} was not found.", 9011)
    found = row[0]
    if found["state"] == "deprecated":
        raise moved(found["primary_orcid"], orcid)
    if found["state"] == "deactivated" and not deactivated_ok:
        raise conflict(9044, "The ORCID record is deactivated and cannot be edited.")
    return found


def writable(db: Database, orcid: str, scope: str) -> dict[str, Any]:
    """A record the portal may change in a section: the researcher granted `scope` and the record is not locked."""
    found = record(db, orcid)
    if found["state"] == "locked":
        raise conflict(9018, f"The ORCID record is locked and cannot be edited. ORCID {orcid}")
    if scope not in scopes(db, orcid):
        if not scopes(db, orcid):
            raise unauthorized("The client application is not authorized for this ORCID record.")
        raise forbidden(9004, f"Insufficient or wrong scope: the researcher has not granted {scope}.")
    return found


def scopes(db: Database, orcid: str) -> list[str]:
    """The scopes the researcher granted the portal on their record (none: only public data is readable)."""
    granted = db.find(permissions, orcid=orcid, client_id=PORTAL)
    return sorted(granted[0]["scopes"]) if granted else []


def visible(item: dict[str, Any], granted: list[str]) -> bool:
    """Whether the portal sees an item: public, limited with /read-limited, private only where it is the source."""
    if item["visibility"] == "public" or item["source"] == PORTAL:
        return True
    return item["visibility"] == "limited" and READ_LIMITED in granted


def own_item(item: dict[str, Any], what: str) -> dict[str, Any]:
    """An item the portal added; another source's item is read-only for it (9010)."""
    if item["source"] != PORTAL:
        raise forbidden(9010, f"You are not the source of the {what}, so you are not allowed to update it.")
    return item


def item_of(db: Database, table: Any, orcid: str, put_code: int, what: str, **equals: Any) -> dict[str, Any]:
    """One item of a record by put-code, if the portal can see it (otherwise it does not exist for the portal)."""
    found = db.find(table, put_code=put_code, orcid=orcid, **equals)
    if not found or not visible(found[0], scopes(db, orcid)):
        raise not_found(f"No {what} with put-code {put_code} on record {orcid}.")
    return found[0]
