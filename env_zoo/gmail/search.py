"""The subset of Gmail's search syntax that `q` (and filter criteria) understand.

Operators: `from:` `to:` (To, Cc and Bcc) `cc:` `bcc:` `subject:` `label:` `is:unread|read|starred|important`
`in:inbox|sent|drafts|trash|spam|starred|important|anywhere` `has:attachment|userlabels|nouserlabels`
`filename:` `category:primary|social|promotions|updates|forums` `after:` `before:` (2025/06/01)
`newer_than:` `older_than:` (3d, 2m, 1y); free words and "quoted phrases" (subject, body, people, file names);
`-` negates a term and `OR` joins two terms. Terms are otherwise ANDed. `from:me` and `to:me` mean the mailbox.
Unknown operators are read as plain words, as Gmail does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from envfactory_gym import InvalidRequest

from .labels import search_key

TOKEN = re.compile(r'(-?)([a-z_]+):("[^"]*"|\S+)|(-?)"([^"]*)"|(\S+)', re.IGNORECASE)
DATE = re.compile(r"^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$")
SPAN = re.compile(r"^(\d+)([dmy])$")
IN = {
    "inbox": "INBOX",
    "sent": "SENT",
    "drafts": "DRAFT",
    "draft": "DRAFT",
    "trash": "TRASH",
    "spam": "SPAM",
    "starred": "STARRED",
    "important": "IMPORTANT",
    "anywhere": None,
}
IS = {"unread", "read", "starred", "important"}
HAS = {"attachment", "userlabels", "nouserlabels"}
CATEGORY = {
    "primary": "CATEGORY_PERSONAL",
    "social": "CATEGORY_SOCIAL",
    "promotions": "CATEGORY_PROMOTIONS",
    "updates": "CATEGORY_UPDATES",
    "forums": "CATEGORY_FORUMS",
}
OPERATORS = {
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "label",
    "is",
    "in",
    "has",
    "filename",
    "category",
    "after",
    "before",
    "newer_than",
    "older_than",
}
DAYS = {"d": 1, "m": 30, "y": 365}

Predicate = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class Term:
    """One search term: `key:value` (key empty for free text), possibly negated."""

    key: str
    value: str
    negated: bool = False


@dataclass(frozen=True)
class Context:
    """What terms are resolved against: the mailbox's addresses, its labels' names, the clock."""

    addresses: frozenset[str]
    label_names: dict[str, str]  # user label id -> name
    now: datetime


def parse(query: str) -> list[list[Term]]:
    """A query as a conjunction of OR-groups of terms."""
    groups: list[list[Term]] = []
    join = False
    for match in TOKEN.finditer(query):
        neg, key, value, phrase_neg, phrase, word = match.groups()
        if word == "OR":
            join = bool(groups)
            continue
        if key is not None and key.lower() in OPERATORS:
            term = Term(key.lower(), value.strip('"').lower(), neg == "-")
        elif key is not None:
            term = Term("", f"{key}:{value}".strip('"').lower(), neg == "-")
        elif phrase is not None:
            term = Term("", phrase.lower(), phrase_neg == "-")
        else:
            negated = word.startswith("-") and len(word) > 1
            term = Term("", (word[1:] if negated else word).lower(), negated)
        if join:
            groups[-1].append(term)
        else:
            groups.append([term])
        join = False
    return groups


def names_spam_or_trash(groups: list[list[Term]]) -> bool:
    """Whether the query itself asks for Spam or Trash (else they are left out, as in Gmail)."""
    return any(
        t.key in ("in", "label") and t.value in ("trash", "spam", "anywhere") and not t.negated
        for group in groups
        for t in group
    )


def _people(people: list[dict[str, str]], value: str, ctx: Context) -> bool:
    if value == "me":
        return any(p["email"] in ctx.addresses for p in people)
    return any(value in p["email"].lower() or value in p["name"].lower() for p in people)


def _moment(term: Term, now: datetime) -> str:
    if term.key in ("after", "before"):
        match = DATE.match(term.value)
        if not match:
            raise InvalidRequest(f"{term.key}: takes a date like 2025/06/01, not {term.value!r}")
        year, month, day = (int(g) for g in match.groups())
        return f"{year:04d}-{month:02d}-{day:02d}T00:00:00Z"
    match = SPAN.match(term.value)
    if not match:
        raise InvalidRequest(f"{term.key}: takes a span like 3d, 2m or 1y, not {term.value!r}")
    return (now - timedelta(days=int(match.group(1)) * DAYS[match.group(2)])).strftime("%Y-%m-%dT%H:%M:%SZ")


def _choice(term: Term, options: set[str] | dict[str, Any]) -> None:
    if term.value not in options:
        raise InvalidRequest(f"{term.key}:{term.value} is not supported; use one of: {', '.join(sorted(options))}")


def _text(message: dict[str, Any]) -> str:
    people = [message["sender"], *message["to"], *message["cc"], *message["bcc"]]
    return "\n".join(
        [
            message["subject"],
            message["body"],
            *(f"{p['name']} {p['email']}" for p in people),
            *(a["filename"] for a in message["attachments"]),
        ]
    ).lower()


def _label_term(value: str, ctx: Context) -> Predicate:
    key = search_key(value)
    ids = {label_id for label_id, name in ctx.label_names.items() if search_key(name) == key}
    system = {**IN, "unread": "UNREAD"}.get(key)
    if system:
        ids.add(system)
    return lambda m: bool(ids & set(m["label_ids"]))


def term_predicate(term: Term, ctx: Context) -> Predicate:
    """A predicate over message rows for one (non-negated) term."""
    key, value = term.key, term.value
    if key == "":
        return lambda m: value in _text(m)
    if key == "from":
        return lambda m: _people([m["sender"]], value, ctx)
    if key == "to":
        return lambda m: _people(m["to"] + m["cc"] + m["bcc"], value, ctx)
    if key in ("cc", "bcc"):
        return lambda m: _people(m[key], value, ctx)
    if key == "subject":
        return lambda m: value in m["subject"].lower()
    if key == "label":
        return _label_term(value, ctx)
    if key == "is":
        _choice(term, IS)
        wanted = {"unread": "UNREAD", "read": "UNREAD", "starred": "STARRED", "important": "IMPORTANT"}[value]
        return lambda m: (wanted in m["label_ids"]) != (value == "read")
    if key == "in":
        _choice(term, IN)
        label = IN[value]
        return (lambda m: True) if label is None else (lambda m: label in m["label_ids"])
    if key == "has":
        _choice(term, HAS)
        if value == "attachment":
            return lambda m: bool(m["attachments"])
        user = set(ctx.label_names)
        return lambda m: bool(user & set(m["label_ids"])) == (value == "userlabels")
    if key == "filename":
        return lambda m: any(value in a["filename"].lower() for a in m["attachments"])
    if key == "category":
        _choice(term, CATEGORY)
        return lambda m: CATEGORY[value] in m["label_ids"]
    moment = _moment(term, ctx.now)
    if key in ("after", "newer_than"):
        return lambda m: m["internal_date"] >= moment
    return lambda m: m["internal_date"] < moment


def matcher(groups: list[list[Term]], ctx: Context) -> Predicate:
    """A predicate that holds when every OR-group has a term that holds (negated terms inverted)."""
    compiled = [[(term_predicate(t, ctx), t.negated) for t in group] for group in groups]
    return lambda m: all(any(check(m) != negated for check, negated in group) for group in compiled)


def criteria_matcher(criteria: dict[str, Any], ctx: Context) -> Predicate:
    """A filter's criteria as a predicate: from, to, subject, query and hasAttachment must all match and the
    negatedQuery must not."""
    groups: list[list[Term]] = []
    for key in ("from", "to", "subject"):
        if criteria.get(key):
            groups.append([Term(key, " ".join(criteria[key].split()).lower())])
    if criteria.get("query"):
        groups.extend(parse(criteria["query"]))
    if criteria.get("hasAttachment"):
        groups.append([Term("has", "attachment")])
    positive = matcher(groups, ctx)
    if not criteria.get("negatedQuery"):
        return positive
    negative = matcher(parse(criteria["negatedQuery"]), ctx)
    return lambda m: positive(m) and not negative(m)
