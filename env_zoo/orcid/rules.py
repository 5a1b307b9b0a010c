"""ORCID's rules shared by the tools: the iD's check digit (ISO 7064 MOD 11-2), visibility levels and their order,
fuzzy dates, put-codes, and which external identifiers make two works the same work."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

PORTAL = "APP-TWU4R7Q2M8K1N5PX"  # the member client the agent works as: Tidewater University Research Portal
VISIBILITY_RANK = {"public": 0, "limited": 1, "private": 2}
FIRST_NEW_PUT_CODE = 9_000_001  # put-codes of items the portal adds count up from here (the seed's are below)
READ_LIMITED = "/read-limited"
ACTIVITIES_UPDATE = "/activities/update"
PERSON_UPDATE = "/person/update"
ORCID_BASE = "https://orcid.org/"


def check_digit(base_digits: str) -> str:
    """The last character of an ORCID iD for its first 15 digits (ISO 7064 MOD 11-2)."""
    total = 0
    for digit in base_digits:
        total = (total + int(digit)) * 2
    result = (12 - total % 11) % 11
    return "X" if result == 10 else str(result)


def valid_orcid(orcid: str) -> bool:
    """Whether an iD's check digit matches its other 15 digits."""
    digits = orcid.replace("-", "")
    return check_digit(digits[:15]) == digits[15]


def more_open(visibility: str, than: str) -> bool:
    """Whether a visibility shows an item to more people than another (public > limited > private)."""
    return VISIBILITY_RANK[visibility] < VISIBILITY_RANK[than]


def new_put_code(db: Database) -> int:
    """A fresh put-code for an item the portal adds (deterministic, above every seed put-code)."""
    return FIRST_NEW_PUT_CODE + db.next_number("orcid:put-code") - 1


def date_key(fuzzy: str) -> str:
    """A fuzzy date (YYYY, YYYY-MM, YYYY-MM-DD) padded so that dates compare as strings."""
    return (fuzzy + "-01-01")[:10] if len(fuzzy) == 4 else (fuzzy + "-01")[:10]


def normalized_id(external_id: dict[str, Any]) -> tuple[str, str]:
    """How an external identifier is compared: its type and its value without a resolver prefix, lower case."""
    value = str(external_id["value"]).strip().lower()
    for prefix in ("https://doi.org/", "http://doi.org/", "http://dx.doi.org/", "doi:"):
        if value.startswith(prefix):
            value = value[len(prefix) :]
    return str(external_id["type"]), value


def self_ids(external_ids: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """The identifiers that name the work itself (relationship self), which group works and detect duplicates."""
    return {normalized_id(item) for item in external_ids if item.get("relationship", "self") == "self"}
