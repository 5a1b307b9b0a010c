"""arXiv identifiers: new-style YYMM.NNNNN (YYMM.NNNN before 2015) and old-style archive/YYMMNNN, with an optional
version suffix vN, given bare, with an 'arXiv:' prefix or as an arxiv.org/abs or /pdf link."""

from __future__ import annotations

import re

from envfactory_gym import InvalidRequest

NEW_STYLE = re.compile(r"^(?P<id>\d{4}\.\d{4,5})(?:v(?P<v>\d+))?$")
OLD_STYLE = re.compile(r"^(?P<id>[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v(?P<v>\d+))?$")


def parse_id(raw: str) -> tuple[str, int | None]:
    """The bare article id and the version asked for (None for the latest); refuses a malformed id with the
    API's wording."""
    text = re.sub(r"^(https?://)?(www\.|export\.)?arxiv\.org/(abs|pdf)/", "", raw.strip(), flags=re.I)
    text = re.sub(r"^arxiv:", "", text, flags=re.I).removesuffix(".pdf")
    found = NEW_STYLE.match(text) or OLD_STYLE.match(text)
    if not found:
        raise InvalidRequest(f"incorrect id format for {raw.strip()}")
    return found.group("id"), int(found.group("v")) if found.group("v") else None
