"""protocols.io's rules: URIs and DOIs, step numbering, what publishing needs, and copying a protocol's steps and
materials into a new version or a fork."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Database

from .errors import bad_request
from .schema import materials, protocols, steps

DOI_PREFIX = "dx.doi.org/10.17504/protocols.io."
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def code(number: int) -> str:
    """A short, deterministic base-36 code for an id (used in URIs and DOIs)."""
    out = ""
    value = number * 7919 + 1_000_003
    while value:
        value, digit = divmod(value, 36)
        out = ALPHABET[digit] + out
    return out


def uri_for(title: str, protocol_id: int) -> str:
    """The protocol's URL name: its title slug and a code."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60].strip("-")
    return f"{slug}-{code(protocol_id)}"


def protocol_steps(db: Database, protocol_id: int) -> list[dict[str, Any]]:
    """A protocol's steps in order."""
    return db.find(steps, protocol_id=protocol_id, order_by=[steps.c.number])


def renumber(db: Database, protocol_id: int) -> None:
    """Number the steps 1..n in their current order."""
    for position, row in enumerate(protocol_steps(db, protocol_id), start=1):
        if row["number"] != position:
            db.update(steps, row["id"], number=position)


def check_publishable(db: Database, row: dict[str, Any], version_notes: str | None) -> None:
    """A protocol is published with an abstract, at least one step and, after the first version, notes on what
    changed."""
    if not (row["description"] or "").strip():
        raise bad_request("Please add an abstract (description) before publishing.")
    if not protocol_steps(db, row["id"]):
        raise bad_request("A protocol must have at least one step to be published.")
    if row["version_number"] > 1 and not (version_notes or row["version_notes"]):
        raise bad_request("Please describe what changed in this version (version_notes) before publishing.")


def latest_version(db: Database, family_id: int) -> dict[str, Any]:
    """The newest version of a protocol family."""
    return db.find(protocols, family_id=family_id, order_by=[protocols.c.version_number.desc()])[0]


def copy_contents(db: Database, source_id: int, target_id: int) -> None:
    """Copy the steps and materials of one protocol into another."""
    for row in protocol_steps(db, source_id):
        db.insert(
            steps,
            protocol_id=target_id,
            number=row["number"],
            section=row["section"],
            text=row["text"],
            duration=row["duration"],
        )
    for row in db.find(materials, protocol_id=source_id):
        db.insert(
            materials,
            protocol_id=target_id,
            name=row["name"],
            vendor=row["vendor"],
            catalog_number=row["catalog_number"],
        )


def next_id(db: Database) -> int:
    """The next protocol id."""
    found = db.select(protocols, order_by="id DESC", limit=1)
    return found[0]["id"] + 1 if found else 1
