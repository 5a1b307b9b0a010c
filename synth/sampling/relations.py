"""How a call's inputs relate to each other, read out of the errors of failed calls.

- **Order**: "The departure date must be after the arrival date", "Trip end must be after trip start": the input
  the words before the verb name (`departure`) lies after the one the words after it name (`arrival`). Dates drawn
  apart from each other (a departure soon, an arrival later, as a flight's would be) are then put in that order
  (`in_order`: swapped, or a day apart where they are the same), in every call that takes both.
- **Listed options**: "ADA can't be sent on SOL. Supported networks: cardano", "Valid sort fields for sources:
  display_name, cited_by_count": the input the listing's noun names (`network`, `sort`) takes one of the values
  listed (`listed_options`).
- **Optional inputs in the way**: "Problem: ticket #4302 is not a problem ticket" (a `problem_id` the chain set to
  the ticket itself), "Due date: can only be set on tasks": an optional input the call was given and the error
  names (`named_optional`) is left out of that tool's next calls, unless another lesson of the error says what
  it should be instead.

An input is named by its words other than the generic ones of a date (`departure_date` by `departure`), all found
in the words of the phrase.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Iterable

from envfactory_synth.graph.entities import words

ORDER = re.compile(
    r"(?P<later>[^.;:!?]{1,80}?)\s+(?:must|should|has to|needs to|have to|need to)\s+(?:be\s+|come\s+|fall\s+|lie\s+)?"
    r"(?:strictly\s+)?(?P<relation>after|later than|before|earlier than)\s+(?P<earlier>[^.;:!?]{1,80})",
    re.I,
)
LISTED = re.compile(
    r"\b(?:supported|valid|allowed|accepted|available|permitted|possible)\s+(?P<noun>[a-z_][\w ]{0,40}?)"
    r"(?:\s+(?:for|of|on|in)\s+[\w ]{1,40}?)?\s*(?:are|is|include)?\s*:\s*(?P<options>(?:[^.;\n]|\.(?=\S))+)",
    re.I,
)
ONE_OF_THESE = re.compile(r"\b(?P<noun>[a-z_]\w*) must be one of:?\s+(?P<options>(?:[^.;\n(]|\.(?=\S))+)", re.I)
ASKS = re.compile(
    r"(?:^|[:.;(]\s*)(?:give|provide|pass|include|specify|enter|supply|choose|fill|add)\b"
    r"|\b(?:required|missing|is needed)\b",
    re.I,
)
MARKS = re.compile(r"[^\w\s.\-]")
SEPARATOR = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s*\|\s*|\s+and\s+")
GENERIC = frozenset({"date", "time", "datetime", "at", "day", "on", "timestamp", "utc", "local"})
REFERENCE = frozenset({"id", "uid", "uuid", "key", "number", "code", "ref", "sid"})
MOST_OPTIONS = 20


def _key_words(name: str) -> set[str]:
    """The words that name an input in prose: `departure_date` -> {departure}; a name of generic words only keeps
    them (`date`)."""
    every = set(words(name))
    return (every - GENERIC) or every


def named_in(phrase: str, names: Iterable[str], last: bool) -> str | None:
    """The input a phrase names (all its key words among the phrase's words): the one named nearest the phrase's
    end (`last`: the subject before "must") or start (the object after "after"), the one of more words on a tie."""
    said = words(phrase)
    best: tuple[int, int, str] | None = None
    for name in names:
        mine = _key_words(name)
        places = [i for i, w in enumerate(said) if w in mine]
        if not mine or not mine <= set(said):
            continue
        place = max(places) if last else -min(places)
        rank = (place, len(mine), name)
        if best is None or rank > best:
            best = rank
    return best[2] if best else None


def learn_order(error: str, names: Iterable[str]) -> tuple[str, str] | None:
    """(later, earlier) for an error saying one input must be after (or before) another, both among `names`."""
    names = list(names)
    for found in ORDER.finditer(error):
        first = named_in(found.group("later"), names, last=True)
        second = named_in(found.group("earlier"), [n for n in names if n != first], last=False)
        if first is None or second is None:
            continue
        after = found.group("relation").lower() in ("after", "later than")
        return (first, second) if after else (second, first)
    return None


def _moment(value: Any) -> tuple[Any, str] | None:
    """A comparable moment of a date value (ISO text or Unix seconds) and its kind; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value, "number"
    if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}", value):
        return value.replace("Z", "+00:00"), "text"
    return None


def _day_after(value: Any) -> Any:
    """The same moment a day later, in the value's own layout."""
    if isinstance(value, (int, float)):
        return value + 86400
    day = date.fromisoformat(value[:10]) + timedelta(days=1)
    return day.isoformat() + value[10:]


def in_order(arguments: dict[str, Any], orders: Iterable[tuple[str, str]]) -> None:
    """Put the dates of `arguments` in the orders learned (`learn_order`): a later input that is not after its
    earlier one swaps values with it, or lies a day after it where both are the same."""
    for later, earlier in orders:
        if later not in arguments or earlier not in arguments:
            continue
        first, second = _moment(arguments[later]), _moment(arguments[earlier])
        if first is None or second is None or first[1] != second[1] or len(str(first[0])) != len(str(second[0])):
            continue
        if first[0] < second[0]:
            arguments[later], arguments[earlier] = arguments[earlier], arguments[later]
        elif first[0] == second[0]:
            arguments[later] = _day_after(arguments[later])


def _same_form(options: list[str], refused: Any) -> bool:
    """Whether listed options can stand for the refused value: they hold the marks it holds (a filter
    `institution.id:I44` is no field name such as `author.id`, which a listing of fields shows)."""
    if not isinstance(refused, str):
        return True
    marks = set(MARKS.findall(refused))
    return not marks or any(marks <= set(MARKS.findall(o)) for o in options)


def listed_options(error: str, names: Iterable[str], arguments: dict[str, Any] | None = None) -> dict[str, list[str]]:
    """Input -> the values an error lists as the ones accepted ("Supported networks: cardano"; "ssl must be one of
    off, flexible, full"), for the inputs among `names` the listing's noun names, where the options have the form
    of the value the call gave (`_same_form`)."""
    names, arguments = list(names), arguments or {}
    learned: dict[str, list[str]] = {}
    for pattern in (LISTED, ONE_OF_THESE):
        for found in pattern.finditer(error):
            noun = set(words(found.group("noun")))
            matching = [n for n in names if set(words(n)) and (set(words(n)) <= noun or noun <= set(words(n)))]
            options = [o.strip(" '\"`") for o in SEPARATOR.split(found.group("options").strip())]
            options = [o for o in options if o and len(o) <= 60][:MOST_OPTIONS]
            for name in matching if options else ():
                if _same_form(options, arguments.get(name)):
                    learned.setdefault(name, options)
    return learned


def named_optional(error: str, arguments: dict[str, Any], optional: Iterable[str]) -> set[str]:
    """The optional inputs among `optional` that the call was given and the error names: every word of the
    input's name but those of a reference or a date (`problem_id` by "problem", `due_at` by "due") is a word of
    the error. None where the error asks for inputs ("Give start_place_id or both start_latitude and
    start_longitude", "assignee_id is required to reserve"): what it names is wanted, not in the way."""
    if ASKS.search(error):
        return set()
    said = set(words(error))
    named = set()
    for name in optional:
        mine = set(words(name)) - REFERENCE - GENERIC
        if name in arguments and mine and mine <= said:
            named.add(name)
    return named
