"""How the portal's writes behave: the visibility a new item gets (never above the researcher's default), the
duplicate check on external identifiers (9021), fuzzy date order, and works grouped by shared identifiers."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import bad_request, conflict, forbidden
from .rules import PORTAL, date_key, more_open, self_ids


def new_visibility(record_row: dict[str, Any], requested: str | None) -> str:
    """A new item's visibility: the researcher's default unless a more private one was asked for (9035)."""
    default = str(record_row["default_visibility"])
    if requested is None:
        return default
    if more_open(requested, default):
        raise forbidden(
            9035,
            f"The visibility '{requested}' is more open than the researcher's default visibility ('{default}'); "
            "a member client cannot raise it.",
        )
    return requested


def same_visibility(item: dict[str, Any], requested: str | None) -> None:
    """An update may not change an item's visibility (only the researcher can, in the registry)."""
    if requested is not None and requested != item["visibility"]:
        raise forbidden(
            9035,
            "You can't change the visibility of an item, please remove the visibility or set it to the current value.",
        )


def check_dates(start: str | None, end: str | None) -> None:
    """An end date may not come before the start date."""
    if start and end and date_key(end) < date_key(start):
        raise bad_request(9020, f"Invalid incoming message: end-date {end} is before start-date {start}.")


def check_duplicate(
    rows: list[dict[str, Any]], keys: set[tuple[str, str]], keys_of: Any, skip: int | None = None
) -> None:
    """409 9021 when one of the portal's own items on the record already has one of these identifiers."""
    for row in rows:
        if row["source"] == PORTAL and row["put_code"] != skip and keys & keys_of(row):
            raise conflict(
                9021,
                "You have already added this activity (matched by external identifiers), please see element with "
                f"put-code {row['put_code']}. If you are trying to edit the item, please use PUT instead of POST.",
            )


def group_works(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Works that share a self identifier (directly or through another version) in one group, in record order;
    a work without identifiers is a group of its own."""
    groups: list[list[dict[str, Any]]] = []
    keys: list[set[tuple[str, str]]] = []
    for row in rows:
        mine = self_ids(row["external_ids"])
        joined = [index for index, group_keys in enumerate(keys) if mine & group_keys]
        if not joined:
            groups.append([row])
            keys.append(set(mine))
            continue
        target = joined[0]
        for index in reversed(joined[1:]):
            groups[target].extend(groups.pop(index))
            keys[target] |= keys.pop(index)
        groups[target].append(row)
        keys[target] |= mine
    return groups


def preferred(group: list[dict[str, Any]]) -> dict[str, Any]:
    """The version a group shows: the highest display index, then the oldest put-code."""
    return max(group, key=lambda row: (row["display_index"], -row["put_code"]))


def stamp(db: Database) -> dict[str, str]:
    """Creation and modification times of a new item."""
    now = db.now_iso()
    return {"created": now, "last_modified": now}
