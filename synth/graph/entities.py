"""Entity names of an environment (its tables, singular) and the entities a tool or parameter is about."""

from __future__ import annotations

import re
from typing import Iterable

_WORD = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
ID_SUFFIX = re.compile(r"(?:^|_)(ids?|keys?)$")
BARE_IDS = frozenset({"id", "ids", "key", "keys"})
STOPWORDS = frozenset("a an the to from by of for in on with and or all every its it is be as at".split())


def singular(word: str) -> str:
    """`pages` -> `page`, `categories` -> `category`, `addresses` -> `address` (English plural rules of thumb)."""
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    """Lower-case singular words of a text or identifier (snake_case and CamelCase split)."""
    return [singular(w) for w in _WORD.findall(_CAMEL.sub(" ", text.replace("_", " ")))]


def table_entities(table_names: Iterable[str]) -> list[str]:
    """Entity names from table names: `pages` -> `page`, `order_items` -> `order_item`."""
    return sorted({"_".join(words(name)) for name in table_names})


def mentioned(text: str, entities: Iterable[str]) -> set[str]:
    """Entities named in a text (multi-word entities as consecutive words)."""
    tokens = words(text)
    joined = {"_".join(tokens[i:j]) for i in range(len(tokens)) for j in range(i + 1, min(i + 3, len(tokens)) + 1)}
    return {e for e in entities if e in joined}


def snake_case(name: str) -> str:
    """`pageId` -> `page_id`."""
    return _CAMEL.sub("_", name).lower()


def id_entity(name: str, entities: Iterable[str]) -> str | None:
    """The entity an id-like name points at (the longest known entity its words end with): `page_id`,
    `parent_page_id`, `pageId`, `page_key` -> `page`; `id` -> None."""
    snake = snake_case(name)
    match = ID_SUFFIX.search(snake)
    tokens = words(snake[: match.start()]) if match else []
    known = set(entities)
    for start in range(len(tokens)):
        candidate = "_".join(tokens[start:])
        if candidate in known:
            return candidate
    return None


def is_id_like(name: str) -> bool:
    """Whether a parameter name is an identifier (`id`, `ids`, `*_id`, `*_ids`, `*Id`; `key`, `*_key(s)`)."""
    return bool(ID_SUFFIX.search(snake_case(name)))


def object_entities(title: str) -> set[str]:
    """Entity names a model title gives its `id`: every tail of its words, `object` dropped
    (`PricedFlightOffer` -> `priced_flight_offer`, `flight_offer`, `offer`)."""
    tokens = [w for w in words(title) if w != "object"]
    return {"_".join(tokens[start:]) for start in range(len(tokens))}


def tool_entities(name: str, description: str, entities: Iterable[str]) -> set[str]:
    """Entities a tool works on: those in its name, else those its description mentions."""
    return mentioned(name, entities) or mentioned(description, entities)


def keywords(tool_name: str) -> set[str]:
    """A tool's topic words: its name minus the leading verb and stop words (`empty_trash` -> {`trash`})."""
    tokens = words(tool_name)
    return {t for t in tokens[1:] if t not in STOPWORDS} or set(tokens)
