"""The subset of Zendesk's search query syntax that ticket search understands.

`status:open assignee:me tags:vip`, comparisons (`status<solved`, `priority>=high`, `created>2025-06-01`,
`updated<2days`), negation (`-tags:spam`), quoted values (`organization:"Halcyon Health"`) and free text
(every word or quoted phrase must appear in the subject, description or a comment). Repeating a keyword with `:`
matches any of its values (`status:new status:open`); different keywords must all match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from envfactory_gym import Database, InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_date

from .conditions import PRIORITY_ORDER, STATUS_ORDER
from .schema import groups, organizations, ticket_comments, tickets, users

TOKEN = re.compile(r'(-?)(\w+)(<=|>=|:|<|>)("[^"]*"|\S+)|(-?)"([^"]*)"|(\S+)')
RELATIVE = re.compile(r"^(\d+)(minutes?|hours?|days?|weeks?)$")
KEYWORDS = (
    "type",
    "status",
    "priority",
    "ticket_type",
    "assignee",
    "requester",
    "submitter",
    "group",
    "organization",
    "tags",
    "tag",
    "created",
    "updated",
    "solved",
    "due_date",
    "subject",
    "description",
    "via",
)
UNITS = {"minute": "minutes", "hour": "hours", "day": "days", "week": "weeks"}


@dataclass(frozen=True)
class Term:
    """One `key<op>value` term of a query (key is empty for free text)."""

    key: str
    op: str
    value: str
    negated: bool


@dataclass(frozen=True)
class Context:
    """What terms are resolved against: people, groups, organizations, comment text, the clock."""

    me: int
    users: list[dict[str, Any]]
    groups: list[dict[str, Any]]
    organizations: list[dict[str, Any]]
    text: dict[int, str]
    now: datetime


def parse(query: str) -> list[Term]:
    """Split a (non-blank) query into terms; unknown keywords are rejected."""
    terms = []
    for match in TOKEN.finditer(query):
        neg, key, op, value, phrase_neg, phrase, word = match.groups()
        if key is not None:
            key = key.lower()
            if key not in KEYWORDS:
                raise InvalidRequest(f"Unsupported search keyword '{key}'. Use one of: {', '.join(KEYWORDS)}")
            terms.append(Term(key, op, value.strip('"'), neg == "-"))
        elif phrase is not None:
            terms.append(Term("", ":", phrase, phrase_neg == "-"))
        else:
            negated = word.startswith("-") and len(word) > 1
            terms.append(Term("", ":", word[1:] if negated else word, negated))
    return terms


def _people(ctx: Context, value: str, roles: tuple[str, ...] | None = None) -> set[int | None]:
    lowered = value.lower()
    if lowered == "me":
        return {ctx.me}
    if lowered == "none":
        return {None}
    found = {
        u["id"]
        for u in ctx.users
        if (roles is None or u["role"] in roles)
        and (str(u["id"]) == value or u["email"].lower() == lowered or lowered in u["name"].lower())
    }
    return found or {-1}


def _named(rows: list[dict[str, Any]], value: str) -> set[int | None]:
    lowered = value.lower()
    if lowered == "none":
        return {None}
    found = {r["id"] for r in rows if str(r["id"]) == value or r["name"].lower() == lowered}
    return found or {-1}


def _moment(term: Term, now: datetime) -> tuple[str, str]:
    """The [start, end) ISO window a date or relative value covers."""
    relative = RELATIVE.match(term.value)
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2).rstrip("s")
        point = iso_timestamp(now - timedelta(**{UNITS[unit]: amount}))
        return point, point
    day = parse_date(term.value, f"'{term.key}{term.op}{term.value}': {term.key}", "2025-06-01 (or a span like 2days)")
    return f"{day.isoformat()}T00:00:00Z", f"{(day + timedelta(days=1)).isoformat()}T00:00:00Z"


def _compare_time(term: Term, actual: str | None, now: datetime) -> bool:
    if actual is None:
        return False
    start, end = _moment(term, now)
    if RELATIVE.match(term.value):
        # created>2days: within the last two days; created<2days: longer ago than that
        return actual > start if term.op in (">", ">=", ":") else actual < start
    return {
        ":": start <= actual < end,
        ">": actual >= end,
        ">=": actual >= start,
        "<": actual < start,
        "<=": actual < end,
    }[term.op]


def _ordered(order: list[str], term: Term, actual: str | None) -> bool:
    value = term.value.lower()
    if value not in order:
        raise InvalidRequest(f"'{term.value}' is not a valid {term.key}. Use one of: {', '.join(order)}")
    if term.op == ":":
        return actual == value
    if actual is None:
        return False
    left, right = order.index(actual), order.index(value)
    return {">": left > right, ">=": left >= right, "<": left < right, "<=": left <= right}[term.op]


def _term_matcher(term: Term, ctx: Context) -> Callable[[dict[str, Any]], bool]:
    key, value = term.key, term.value
    if key == "":
        needle = value.lower()
        return lambda t: needle in ctx.text[t["id"]]
    if key == "type":
        if value.lower() != "ticket":
            raise InvalidRequest("search_tickets only finds tickets (type:ticket); use search_users for people")
        return lambda t: True
    if key == "status":
        return lambda t: _ordered(STATUS_ORDER, term, t["status"])
    if key == "priority":
        return lambda t: _ordered(PRIORITY_ORDER, term, t["priority"])
    if term.op != ":" and key not in ("created", "updated", "solved", "due_date"):
        raise InvalidRequest(f"'{key}' only supports ':' (e.g. {key}:value)")
    if key == "ticket_type":
        return lambda t: (t["type"] or "none") == value.lower()
    if key in ("assignee", "requester", "submitter"):
        ids = _people(ctx, value, ("agent", "admin") if key == "assignee" else None)
        return lambda t: t[f"{key}_id"] in ids
    if key == "group":
        ids = _named(ctx.groups, value)
        return lambda t: t["group_id"] in ids
    if key == "organization":
        ids = _named(ctx.organizations, value)
        return lambda t: t["organization_id"] in ids
    if key in ("tags", "tag"):
        if value.lower() == "none":
            return lambda t: not t["tags"]
        return lambda t: value.lower() in t["tags"]
    if key in ("created", "updated", "solved", "due_date"):
        column = {"created": "created_at", "updated": "updated_at", "solved": "solved_at", "due_date": "due_at"}[key]
        return lambda t: _compare_time(term, t[column], ctx.now)
    if key == "via":
        return lambda t: t["via_channel"] == value.lower()
    column = key  # subject | description
    return lambda t: value.lower() in t[column].lower()


def matcher(terms: list[Term], ctx: Context) -> Callable[[dict[str, Any]], bool]:
    """A predicate for ticket rows: ':' terms of the same keyword are ORed, everything else ANDed."""
    groups: dict[str, list[Callable]] = {}
    rest: list[tuple[Callable, bool]] = []
    for term in terms:
        check = _term_matcher(term, ctx)
        if term.op == ":" and term.key and not term.negated:
            groups.setdefault("tags" if term.key == "tag" else term.key, []).append(check)
        else:
            rest.append((check, term.negated))

    def predicate(ticket: dict[str, Any]) -> bool:
        if not all(any(check(ticket) for check in checks) for checks in groups.values()):
            return False
        return all(check(ticket) != negated for check, negated in rest)

    return predicate


def find_tickets(db: Database, query: str, me_id: int) -> list[dict[str, Any]]:
    """The ticket rows a query matches (comments, people, groups and organizations are read only when the query
    needs them)."""
    terms = parse(query)
    rows = db.find(tickets)
    text = {t["id"]: f"{t['subject']}\n{t['description']}".lower() for t in rows}
    if any(term.key == "" for term in terms):
        for comment in db.find(ticket_comments):
            text[comment["ticket_id"]] += "\n" + comment["body"].lower()
    keys = {term.key for term in terms}
    ctx = Context(
        me_id,
        db.find(users) if keys & {"assignee", "requester", "submitter"} else [],
        db.find(groups) if "group" in keys else [],
        db.find(organizations) if "organization" in keys else [],
        text,
        db.now(),
    )
    match = matcher(terms, ctx)
    return [t for t in rows if match(t)]
