"""The Customer Directory's machinery: fuzzy and exact search, creation and versioned updates."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Database

from .errors import bad_request, conflict
from .rules import fetch, square_id
from .schema import customers

IDENTIFYING = ("given_name", "family_name", "company_name", "email_address", "phone_number")
SEARCHED = IDENTIFYING  # the fields `text` matches


def digits(phone: str) -> str:
    """A phone number's digits without a leading US country code, for comparing numbers however written."""
    only = re.sub(r"\D", "", phone)
    return only[1:] if len(only) == 11 and only.startswith("1") else only


def find_customers(
    db: Database, text: str, email: str | None, phone: str | None, reference_id: str | None
) -> list[dict[str, Any]]:
    """Profiles matching every given filter, newest first."""
    where, params = [], []
    if email is not None:
        where.append("lower(email_address) = ?")
        params.append(email.strip().casefold())
    if reference_id is not None:
        where.append("reference_id = ?")
        params.append(reference_id)
    for word in text.casefold().split():
        if word.isascii():  # SQLite's LIKE folds ASCII case only; the exact test below decides
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            where.append("(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in SEARCHED) + ")")
            params.extend([pattern] * len(SEARCHED))
    rows = db.select(customers, " AND ".join(where), params, order_by="created_at DESC")
    if phone is not None:
        rows = [r for r in rows if r["phone_number"] and digits(r["phone_number"]) == digits(phone)]
    words = text.casefold().split()
    if words:
        rows = [r for r in rows if all(w in " ".join(r[f] or "" for f in SEARCHED).casefold() for w in words)]
    return rows


def create_customer(db: Database, **fields: Any) -> dict[str, Any]:
    """A new profile; Square needs at least one identifying field."""
    if not any(fields.get(name) for name in IDENTIFYING):
        raise bad_request(
            "MISSING_REQUIRED_PARAMETER",
            "At least one of the following fields must be set: given_name, family_name, company_name, "
            "email_address, phone_number.",
        )
    now = db.now_iso()
    return db.insert(
        customers,
        id=square_id(db, customers, 26),
        **fields,
        creation_source="THIRD_PARTY",
        version=1,
        created_at=now,
        updated_at=now,
    )


def update_customer(db: Database, customer_id: str, changes: dict[str, Any], version: int | None) -> dict[str, Any]:
    """The profile with `changes`, if `version` (when given) is still its latest."""
    current = fetch(db, customers, customer_id, "customer")
    if version is not None and version != current["version"]:
        raise conflict("VERSION_MISMATCH", "The customer version does not match the latest version.", "version")
    if not changes:
        raise bad_request("BAD_REQUEST", "The update changes no field.")
    return db.update(customers, customer_id, **changes, version=current["version"] + 1, updated_at=db.now_iso())
