"""System labels, user labels of a mailbox and the rules on label names, nesting and colours."""

from __future__ import annotations

import re
from typing import Any, Iterable

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .schema import labels

SYSTEM_LABELS = (
    "INBOX",
    "SPAM",
    "TRASH",
    "UNREAD",
    "STARRED",
    "IMPORTANT",
    "SENT",
    "DRAFT",
    "CATEGORY_PERSONAL",
    "CATEGORY_SOCIAL",
    "CATEGORY_PROMOTIONS",
    "CATEGORY_UPDATES",
    "CATEGORY_FORUMS",
    "CHAT",
)
RESERVED_NAMES = {name.lower() for name in SYSTEM_LABELS} | {"drafts", "chats", "all mail", "scheduled", "snoozed"}
MAX_NAME = 225
PALETTE = frozenset(
    """
#000000 #434343 #666666 #999999 #cccccc #efefef #f3f3f3 #ffffff #fb4c2f #ffad47 #fad165 #16a766 #43d692 #4a86e8
#a479e2 #f691b3 #f6c5be #ffe6c7 #fef1d1 #b9e4d0 #c6f3de #c9daf8 #e4d7f5 #fcdee8 #efa093 #ffd6a2 #fce8b3 #89d3b2
#a0eac9 #a4c2f4 #d0bcf1 #fbc8d9 #e66550 #ffbc6b #fcda83 #44b984 #68dfa9 #6d9eeb #b694e8 #f7a7c0 #cc3a21 #eaa041
#f2c960 #149e60 #3dc789 #3c78d8 #8e63ce #e07798 #ac2b16 #cf8933 #d5ae49 #0b804b #2a9c68 #285bac #653e9b #b65775
#822111 #a46a21 #aa8831 #076239 #1a764d #1c4587 #41236d #83334c #464646 #e7e7e7 #0d3472 #b6cff5 #0d3b44 #98d7e4
#3d188e #e3d7ff #711a36 #fbd3e0 #8a1c0a #f2b2a8 #7a2e0b #ffc8af #7a4706 #ffdeb5 #594c05 #fbe983 #684e07 #fdedc1
#0b4f30 #b3efd3 #04502e #a2dcc1 #c2c2c2 #4986e7 #2da2bb #b99aff #994a64 #f691b2 #ff7537 #ffad46 #662e37 #ebdbde
#cca6ac #094228 #42d692 #16a765
""".split()
)


def search_key(name: str) -> str:
    """How `label:` matches a name: case-insensitive, spaces, slashes and dashes interchangeable."""
    return re.sub(r"[\s/_-]+", "-", name.strip().lower())


def user_labels(db: Database, owner: str) -> list[dict[str, Any]]:
    """The mailbox's user labels, by name."""
    return db.find(labels, owner=owner, order_by=[labels.c.name])


def user_label(db: Database, owner: str, label_id: str) -> dict[str, Any]:
    """One user label of the mailbox."""
    found = db.find(labels, id=label_id, owner=owner)
    if not found:
        if label_id in SYSTEM_LABELS:
            raise InvalidRequest(f"{label_id} is a system label and can't be changed or deleted.")
        raise NotFound(f"Label '{label_id}' not found")
    return found[0]


def check_label_ids(db: Database, owner: str, ids: Iterable[str], allowed_system: Iterable[str], why: str) -> None:
    """Every id is a user label of the mailbox or one of the system labels allowed here."""
    allowed = set(allowed_system)
    mine = {row["id"] for row in user_labels(db, owner)}
    for label_id in ids:
        if label_id in mine or label_id in allowed:
            continue
        if label_id in SYSTEM_LABELS:
            raise InvalidRequest(f"Invalid label {label_id}: {why}")
        raise InvalidRequest(f"Invalid label: {label_id} (use an id from labels_list, e.g. Label_3)")


def sorted_labels(ids: Iterable[str]) -> list[str]:
    """A message's label ids in canonical order (no duplicates)."""
    return sorted(set(ids))


def clean_name(db: Database, owner: str, name: str, renaming: dict[str, Any] | None = None) -> str:
    """A valid, unused label name whose parent exists (for a rename: not under the label itself)."""
    cleaned = "/".join(part.strip() for part in name.strip().split("/"))
    parts = cleaned.split("/")
    if not cleaned or any(not part for part in parts) or len(cleaned) > MAX_NAME:
        raise InvalidRequest(f"Invalid label name: {name!r}")
    if cleaned.lower() in RESERVED_NAMES or parts[0].lower() in RESERVED_NAMES:
        raise InvalidRequest(f"Invalid label name: {name!r} is reserved for a system label.")
    others = [row for row in user_labels(db, owner) if renaming is None or row["id"] != renaming["id"]]
    if any(row["name"].lower() == cleaned.lower() for row in others):
        raise Conflict(f"Label name exists or conflicts: {cleaned}")
    if renaming is not None and cleaned.lower().startswith(renaming["name"].lower() + "/"):
        raise InvalidRequest(f"A label can't be nested under itself: {cleaned}")
    parent = "/".join(parts[:-1])
    if parent and not any(row["name"].lower() == parent.lower() for row in others):
        raise InvalidRequest(f"Parent label '{parent}' doesn't exist; create it first to nest '{parts[-1]}' under it.")
    return cleaned


def children(db: Database, owner: str, row: dict[str, Any]) -> list[dict[str, Any]]:
    """Labels nested (at any depth) under a label."""
    prefix = row["name"].lower() + "/"
    return [other for other in user_labels(db, owner) if other["name"].lower().startswith(prefix)]


def check_color(color: dict[str, str] | None) -> dict[str, str] | None:
    """A colour pair from Gmail's palette, lower-cased."""
    if color is None:
        return None
    checked = {key: value.lower() for key, value in color.items()}
    for value in checked.values():
        if value not in PALETTE:
            raise InvalidRequest(f"Label color {value} is not on the allowed color palette")
    return checked
