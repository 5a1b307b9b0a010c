"""OpenAlex ids: a letter for the entity kind and digits ("W2741809807"), given bare, lower-case or as the
https://openalex.org/ URL."""

from __future__ import annotations

import re

from envfactory_gym import InvalidRequest

KINDS = {"W": "Work", "A": "Author", "I": "Institution", "S": "Source", "T": "Topic"}


def normalize_id(raw: str, prefix: str) -> str:
    """The bare upper-case id; refuses a value that is not an OpenAlex id of this kind."""
    bare = re.sub(r"^https?://(www\.)?openalex\.org/", "", raw.strip(), flags=re.I).upper()
    if not re.fullmatch(rf"{prefix}\d{{1,12}}", bare):
        raise InvalidRequest(f"'{raw}' is not a valid OpenAlex {KINDS[prefix]} id (like {prefix}2741809807)")
    return bare
