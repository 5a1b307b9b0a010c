"""Search words for a chain's search call: the name of a record a later tool of the chain needs.

A search tool (`search(query=...)`) feeds later tools only with what its words find. A word drawn from any
column of the state (an id, a date, an action type) finds nothing, and the later tool (`add_comment(card_id)`)
has no value. The words to say are the name (or title, subject...) of a record of the kind the later tool needs
from the search: a card's name for `add_comment`, the user's own records first, then records that share a value
with theirs (a card on one of their boards), then any other.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from envfactory_synth.graph.entities import singular, words

QUERY = re.compile(r"(^|_)(query|q|search|keyword|keywords|term|terms)$")
LABELS = ("name", "title", "subject", "summary", "display_name", "full_name", "headline")


def holders(tables: dict[str, list[dict[str, Any]]], entities: set[str]) -> list[str]:
    """The tables holding records of `entities` (`cards` for `card`, `board_cards` too)."""
    return [t for t in tables if singular(t) in entities or any(singular(t).endswith(f"_{e}") for e in entities)]


def referrers(tables: dict[str, list[dict[str, Any]]], entities: set[str]) -> list[str]:
    """The tables whose rows name a record of `entities` in a column of its own (`cards.list`, `idList`)."""
    return [
        t
        for t, rows in tables.items()
        if rows
        and t not in holders(tables, entities)
        and any(set(words(c)) & entities and set(words(c)) <= entities | {"id"} for c in rows[0])
    ]


def search_words(
    tables: dict[str, list[dict[str, Any]]],
    own: dict[str, list[dict[str, Any]]],
    entities: set[str],
    rng: np.random.Generator,
    most: int = 10,
) -> list[str]:
    """Labels to search for: of records of `entities`, then of records naming one of them (the cards of a list,
    for a search whose cards give the list), at most `most` of each; where neither has any, of records they name
    (the device of an entity). In each, the user's own records first, then records sharing a value (an id-like
    text) with one of theirs, then the others; shuffled with `rng` within each."""
    found: list[str] = []
    for names in (holders(tables, entities), referrers(tables, entities)):
        found += _labels(tables, own, names, rng)[:most]
    if not found:  # records without names (an entity of a device): the names of those they belong to
        found = _labels(tables, own, referred(tables, entities), rng)[:most]
    return list(dict.fromkeys(found))


def referred(tables: dict[str, list[dict[str, Any]]], entities: set[str]) -> list[str]:
    """The tables whose records those of `entities` name in a column (`entities.device`: the devices)."""
    named = {
        "_".join(w for w in words(c) if w != "id")
        for t in holders(tables, entities)
        for c in (tables[t][0] if tables[t] else {})
    }
    return [t for t in tables if singular(t) in named and t not in holders(tables, entities)]


def _labels(
    tables: dict[str, list[dict[str, Any]]],
    own: dict[str, list[dict[str, Any]]],
    names: list[str],
    rng: np.random.Generator,
) -> list[str]:
    mine = {id(r) for rows in own.values() for r in rows}
    theirs = {v for rows in own.values() for r in rows for v in r.values() if isinstance(v, str) and len(v) >= 6}
    tiers: tuple[list[str], list[str], list[str]] = ([], [], [])
    for table in names:
        for row in tables[table]:
            label = next((row[c] for c in LABELS if isinstance(row.get(c), str) and row[c].strip()), None)
            if label is None:
                continue
            near = theirs & {v for v in row.values() if isinstance(v, str)}
            tiers[0 if id(row) in mine else 1 if near else 2].append(label)
    found: list[str] = []
    for tier in tiers:
        found += [tier[int(i)] for i in rng.permutation(len(tier))] if tier else []
    return list(dict.fromkeys(found))
