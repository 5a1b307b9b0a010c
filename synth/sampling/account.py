"""The scenario's user: which seed account signs in (and with what), and which records of the state are theirs.

Environments whose tools act for a signed-in person have a user-only sign-in tool (`log_in`, `sign_in`,
`authenticate`, `authorize_app`, `grant_access`). Its inputs (an email, a username, a member number) are filled
from the seed's accounts: the rows of a table holding a column the input names (by its name or the words of its
description), tried in order of how many records of the state refer to them, so the user who signs in is one
with records to talk about (of the most kinds, then the most). A user's own records are the rows whose columns
hold their account's key, and the rows holding the key of one of those.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from envfactory_gym.session import ToolSession
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.tasks import load_tasks
from envfactory_synth.graph.entities import words
from envfactory_synth.graph.params import resolve_schema

SIGN_IN = re.compile(r"^(user_)?(log_?in|sign_?in|authenticate|authorize_app|grant_access)$")
TRIES = 8
REFUSED_PER_TABLE = 2
RICHEST_OF = 10
BEYOND = 40  # accounts after the first five a chain that needs a kind none of them owns may be tried for
PICK_AMONG = 5  # scenarios draw their user among the five richest accounts


def sign_in_tool(spec: EnvironmentSpec) -> str | None:
    """The environment's user-only sign-in tool, if it has one."""
    return next((n for n, t in spec.tools.items() if t.user_only and SIGN_IN.search(n)), None)


def known_values(spec: EnvironmentSpec, tool: str) -> dict[str, Any]:
    """For each input of the sign-in tool, the value the environment's own tasks sign in with most often: what
    every user of the scenario knows and the state may not hold (an account alias beside their own user name).
    Used only for an input no column of the account's table holds."""
    said: dict[str, Counter] = {}
    for task in load_tasks(spec).values() if spec.tasks_path.is_file() else ():
        for call in task.calls:
            if call.name == tool:
                for name, value in call.arguments.items():
                    if _scalar(value):
                        said.setdefault(name, Counter())[value] += 1
    return {name: counts.most_common(1)[0][0] for name, counts in said.items()}


def full_grant(spec: EnvironmentSpec, tool: str) -> dict[str, Any]:
    """Arguments that widen a sign-in to everything the app may ask for: each optional list of options
    (OAuth scopes and the like) set to all its options. A user signing in before a task grants what it needs."""
    schema = spec.tools[tool].input_schema
    grant: dict[str, Any] = {}
    for name in sorted(set(schema["properties"]) - set(spec.tools[tool].required_inputs)):
        prop = resolve_schema(schema["properties"][name], schema.get("$defs", {}))
        items = resolve_schema(prop.get("items", {}), schema.get("$defs", {}))
        if prop.get("type") == "array" and "enum" in items:
            grant[name] = list(items["enum"])
    return grant


@dataclass
class Account:
    """Who signed in: the sign-in call (tool, arguments, output), the account's row and its key, and the user's
    own records (`own_records`)."""

    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    table: str | None = None
    row: dict[str, Any] = field(default_factory=dict)
    key: Any = None
    own: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    output: Any = None

    def own_with_account(self) -> dict[str, list[dict[str, Any]]]:
        """The user's own records with their account row among them."""
        if self.table is None:
            return dict(self.own)
        return {**self.own, self.table: [self.row, *self.own.get(self.table, [])]}

    def owns(self, table: str, row: dict[str, Any]) -> bool:
        """Whether a row is one of the user's own records (or their account row)."""
        if not hasattr(self, "_ids"):
            self._ids = {id(r) for rows in self.own.values() for r in rows} | {id(self.row)}
        return id(row) in self._ids or (table == self.table and row == self.row)


def _primary_key(spec: EnvironmentSpec, table: str) -> str | None:
    columns = list(spec.schema.tables[table].primary_key.columns) if table in spec.schema.tables else []
    return columns[0].name if len(columns) == 1 else None


def _candidate_columns(
    spec: EnvironmentSpec, tool: str, name: str, tables: dict[str, list[dict]]
) -> list[tuple[str, str]]:
    """(table, column) pairs an input of the sign-in tool may take: a column of the same name first, then
    columns named by words of the input's name and description (`login`: "member number or email")."""
    description = spec.tools[tool].input_model.model_fields[name].description or ""
    said = set(words(f"{name} {description}"))
    exact, named = [], []
    for table, rows in tables.items():
        if not rows:
            continue
        for column in rows[0]:
            if column == name:
                exact.append((table, column))
            elif column.lower() in said or (len(words(column)) > 1 and set(words(column)) <= said):
                named.append((table, column))
    return exact + named


@dataclass
class _Census:
    """Who holds each scalar value of a state: the tables (`where`), how often (`counts`) and the rows
    (`rows`, table -> row positions), so a key's records are found without scanning the state."""

    where: dict[Any, set[str]]
    counts: Counter
    rows: dict[Any, dict[str, list[int]]]


_CENSUSES: dict[int, tuple[dict, _Census]] = {}


def census(tables: dict[str, list[dict]]) -> _Census:
    """The census of a state, computed once per tables object (the last few are kept)."""
    cached = _CENSUSES.get(id(tables))
    if cached is not None and cached[0] is tables:
        return cached[1]
    made = _Census({}, Counter(), {})
    for table, rows in tables.items():
        for index, row in enumerate(rows):
            for value in row.values():
                for item in value if isinstance(value, list) else [value]:
                    if _scalar(item):
                        made.counts[item] += 1
                        made.where.setdefault(item, set()).add(table)
                        places = made.rows.setdefault(item, {}).setdefault(table, [])
                        if not places or places[-1] != index:
                            places.append(index)
    if len(_CENSUSES) >= 8:
        _CENSUSES.pop(next(iter(_CENSUSES)))
    _CENSUSES[id(tables)] = (tables, made)
    return made


def _references(tables: dict[str, list[dict]]) -> tuple[dict[Any, set[str]], Counter]:
    """For each scalar value of the state: the tables holding it, and how many times it appears (so a key says
    how many kinds of record, and how many records, point at it)."""
    found_in = census(tables)
    return found_in.where, found_in.counts


def own_records(
    spec: EnvironmentSpec, tables: dict[str, list[dict]], table: str, row: dict[str, Any]
) -> dict[str, list[dict]]:
    """The user's records: rows holding one of the account's keys (their orders, their cart), then rows holding
    the key of one of those (the lines of their orders and of their cart). The account's keys are its primary
    key and its other identifying values (`handles`): orders may name their buyer by username, not by id."""
    pk = _primary_key(spec, table)
    key = row.get(pk) if pk else None
    if key is None or not _scalar(key):
        return {}
    found_in = census(tables)
    own: dict[str, list[dict]] = {}
    seen: set[tuple[str, int]] = set()
    keys = {key, *handles(tables, table, row)}
    for _ in range(2):
        found: list[tuple[str, int]] = []
        for value in keys:
            for name, places in found_in.rows.get(value, {}).items():
                found += [(name, i) for i in places if name != table and (name, i) not in seen]
        seen.update(found)
        for name, index in sorted(set(found)):
            own.setdefault(name, []).append(tables[name][index])
        keys = {tables[n][i].get(_primary_key(spec, n)) for n, i in set(found)} - {None}
        keys = {k for k in keys if _scalar(k)}
    return own


def handles(tables: dict[str, list[dict]], table: str, row: dict[str, Any]) -> set[str]:
    """The row's identifying text values: those of columns holding a distinct, space-free text on every row of
    its table (a username, an email), by which other records may name the account."""
    rows = tables.get(table, [])
    found = set()
    for column, value in row.items():
        if not isinstance(value, str) or not value or any(c.isspace() for c in value):
            continue
        values = [r.get(column) for r in rows]
        if all(isinstance(v, str) and v and not any(c.isspace() for c in v) for v in values):
            if len(set(values)) == len(values):
                found.add(value)
    return found


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


PERSON_COLUMNS = ("email", "username", "login")


def candidates(spec: EnvironmentSpec, tables: dict[str, list[dict]]) -> list[tuple[str, dict[str, Any]]]:
    """The seed's accounts as (table, row), the likeliest scenario users first (compute once per state and pass
    to `sign_in`).

    With a sign-in tool: rows of the tables whose columns its first input names (tables holding each value once
    first: accounts, not orders; a column of the input's own name before one its description names). Without:
    rows of people tables (holding each email or username once). Either way those the most kinds of record
    (then the most records) refer to come first, and the first ten of them are reordered by how varied and many
    their own records are (`_richest`)."""
    where, counts = _references(tables)
    ranked: list[tuple] = []
    accounts: set[str] = set()  # tables holding each login once
    tool = sign_in_tool(spec)
    if tool is None:
        for table, rows in tables.items():
            pk = _primary_key(spec, table)
            column = next((c for c in PERSON_COLUMNS if rows and c in rows[0]), None)
            if pk is None or column is None:
                continue
            logins = [r.get(column) for r in rows if _scalar(r.get(column))]
            if len(set(logins)) == len(logins):
                ranked += [
                    ((-len(where.get(r.get(pk), ())), -counts[r.get(pk)]), i, table, r) for i, r in enumerate(rows)
                ]
    elif spec.tools[tool].required_inputs:
        required = spec.tools[tool].required_inputs
        held = [n for n in required if any(c == n for _, c in _candidate_columns(spec, tool, n, tables))]
        first = held[0] if held else required[0]  # an input a column of its own name holds names the accounts
        for rank, (table, column) in enumerate(_candidate_columns(spec, tool, first, tables)):
            pk = _primary_key(spec, table)
            logins = [r.get(column) for r in tables[table] if _scalar(r.get(column))]
            unique = len(set(logins)) == len(logins)  # an account table holds each login once (orders repeat emails)
            accounts |= {table} if unique else set()
            for index, row in enumerate(tables[table]):
                if _scalar(row.get(column)):
                    key = row.get(pk) if pk else None
                    order = (-len(where.get(key, ())), -counts[key]) if pk else (0, 0)
                    ranked.append(((not unique, rank, *order), index, table, row))
    ranked.sort(key=lambda c: c[:2])
    seen: set[tuple[str, int]] = set()  # a row several columns match is one account: listed once, where it ranks best
    once = [(t, r) for _, _, t, r in ranked if (t, id(r)) not in seen and not seen.add((t, id(r)))]
    found = _richest(spec, tables, once)
    return tasks_users_first(spec, tool, found, accounts) if tool is not None else found


def tasks_users_first(
    spec: EnvironmentSpec, tool: str, found: list[tuple[str, dict]], accounts: set[str] | None = None
) -> list[tuple[str, dict]]:
    """The accounts the environment's own tasks sign in with first (those of the most tasks first), the others
    after in their order: a scenario's user is someone its tasks are about (an event's organizer, not one of
    the many attendees whose orders make them the richest accounts). Only rows of the `accounts` tables (those
    holding each login once; every table when none is given) are brought forward: Delta's eCredits name their
    owner's SkyMiles number too, and are no accounts to sign in with."""
    said: Counter = Counter()
    for task in load_tasks(spec).values() if spec.tasks_path.is_file() else ():
        for call in task.calls:
            if call.name == tool and call.caller == "user":
                said.update({v for v in call.arguments.values() if _scalar(v) and isinstance(v, str)})
    if not said:
        return found
    score = [
        max((said[v] for v in row.values() if _scalar(v) and v in said), default=0)
        if accounts is None or table in accounts
        else 0
        for table, row in found
    ]
    order = sorted(range(len(found)), key=lambda i: -score[i])  # stable: ties keep their places
    return [found[i] for i in order]


MISSING = re.compile(r"required input '(?:[\w.]*\.)?(?P<name>\w+)'")


ID_WORDS = {"id", "key", "number", "code", "uuid", "ref", "reference"}


def next_pick(
    ranked: list[tuple[str, dict]],
    tried: list[int],
    error: str,
    among: int = PICK_AMONG,
    owned: list[dict[str, list[dict]]] | None = None,
) -> int | None:
    """Which of the first `among` accounts (their position in `ranked`, a `pick` for `sign_in`) a chain that
    failed with `error` for the accounts at `tried` is tried for next: the one whose own row fills the most
    columns the failure names (every word of the input no earlier output provided: `preferred_sipp_code` for
    `sipp_code`; else a word of the error: `partner_member_number` for "only to the partner on your profile"),
    or, given each account's own records (`owned`), has records of the most kinds the failure names (listings
    when no earlier output gave a `listing_id`); ties to the one ranked first (the richest not tried yet: the
    first try is the draw's, a retry the likeliest to work). Before all that, where the error names a record in
    a state ("order 58 ... (status picked_up)"), an account owning a record of its kind in another state
    (`other_states`). None when every one was tried."""
    order = [i for i in range(min(among, len(ranked))) if i not in tried]
    if not order:
        return None
    elsewhere = other_states(error, owned, tried) if owned else {}
    missing = MISSING.search(error)
    wanted = [set(words(missing.group("name")))] if missing else [{w} for w in set(words(error))]

    kinds = [w - ID_WORDS for w in wanted if w - ID_WORDS]

    def filled(i: int) -> int:
        named = [set(words(c)) for c, v in ranked[i][1].items() if v not in (None, "", [], {})]
        held = [set(words(t)) for t, rows in (owned[i] if owned else {}).items() if rows]
        return sum(1 for columns in named if any(w <= columns for w in wanted)) + sum(
            1 for table in held if any(k <= table for k in kinds)
        )

    return max(order, key=lambda i: (elsewhere.get(i, 0) > 0, filled(i), -i))


def owner_beyond(
    spec: EnvironmentSpec,
    tables: dict[str, list[dict]],
    ranked: list[tuple[str, dict]],
    owned: list[dict[str, list[dict]]],
    error: str,
    listed: list[str] | tuple[str, ...] = (),
    among: int = PICK_AMONG,
    most: int = BEYOND,
) -> int | None:
    """The position in `ranked` of the first account after the first `among` (whose own records are `owned`)
    that owns records of a kind a "no earlier output provides" failure names (the input's words but its id
    words: `hold` for `hold_id`; the words of the chain's tools that were to give it, `listed`) where none of
    those `among` owns any: the buyer with a held cart, when the five richest have none. Looks at `most`
    accounts at most; None when the error is another, names no kind, or nobody else owns one."""
    missing = MISSING.search(error)
    if not missing or not error.startswith("no earlier output provides"):
        return None
    kinds = [k for k in [set(words(missing.group("name"))) - ID_WORDS] + [{w} for t in listed for w in words(t)] if k]

    def holds(records: dict[str, list[dict]]) -> bool:
        return any(rows and any(k <= set(words(t)) for k in kinds) for t, rows in records.items())

    if not kinds or any(holds(records) for records in owned):
        return None
    for position in range(among, min(len(ranked), among + most)):
        if holds(own_records(spec, tables, *ranked[position])):
            return position
    return None


def other_states(error: str, owned: list[dict[str, list[dict]]], tried: list[int] = ()) -> dict[int, int]:
    """Per account (its position in `owned`), how many of its records are of the kind of a record the error
    names by a value of its own (an order's number) and are in a state (the value of a field the error states
    for that record: "status picked_up", "was canceled") that neither that record nor any record of that kind of
    the accounts `tried` is in: the placed order of another user, where those tried hold only delivered,
    canceled and picked-up ones. Empty when the error names no owned record."""
    said = " " + " ".join(re.findall(r"\w+", error.lower())) + " "
    stated: dict[str, set[str]] = {}  # table -> the fields whose values the error states
    for records in owned:
        for table, rows in records.items():
            for row in rows:
                ids = {k for k, v in row.items() if isinstance(v, (str, int)) and len(str(v)) >= 4 and _said(v, said)}
                ids = {k for k in ids if not isinstance(row[k], str) or any(c.isdigit() for c in row[k])}
                if ids:
                    fields = {k for k, v in row.items() if k not in ids and isinstance(v, str) and _said(v, said)}
                    stated.setdefault(table, set()).update(fields)
    counts: dict[int, int] = {}
    for table, fields in stated.items():
        for name in fields:
            seen = {str(row.get(name, "")).lower() for i in tried for row in owned[i].get(table, [])}
            seen |= {w for w in said.split() if w}  # the state the error names
            for index, records in enumerate(owned):
                fresh = sum(
                    1 for row in records.get(table, []) if str(row.get(name, "")).lower().replace(" ", "_") not in seen
                )
                counts[index] = counts.get(index, 0) + fresh
    return counts


def _said(value: Any, said: str) -> bool:
    """Whether a short value (a number, a state such as `picked_up`) is said in an error's words (`said`: the
    error's lower-case words between spaces)."""
    text = str(value).lower()
    spoken = " ".join(re.findall(r"[^\W_]+", text))
    return bool(spoken) and len(text) <= 30 and (f" {spoken} " in said or f" {text} " in said)


def _rotate(ranked: list, pick: int, among: int = PICK_AMONG) -> list:
    """`ranked` with its `pick`-th (modulo `among`) candidate first: each scenario may have its own user."""
    if not ranked or pick == 0:
        return ranked
    first = pick % min(among, len(ranked))
    return [ranked[first]] + ranked[:first] + ranked[first + 1 :]


def _richest(
    spec: EnvironmentSpec, tables: dict[str, list[dict]], found: list[tuple[str, dict]], top: int = RICHEST_OF
) -> list[tuple[str, dict]]:
    """The first `top` candidates reordered by how varied their records are (the states their records are in:
    distinct values of the state's few-valued text columns, such as a status), then how many they have, the
    rest after: the most referred-to account may hold only old, finished business."""
    states = _state_columns(tables)
    head = []
    for position, (table, row) in enumerate(found[:top]):
        own = own_records(spec, tables, table, row)
        varied = {(t, c, r.get(c)) for t, rows in own.items() for r in rows for c in states.get(t, ())}
        head.append(((-len(varied), -sum(map(len, own.values())), position), table, row))
    head.sort(key=lambda c: c[0])
    return [(t, r) for _, t, r in head] + found[top:]


def _state_columns(tables: dict[str, list[dict]], most: int = 12) -> dict[str, list[str]]:
    """Text columns of each table holding a few distinct values (2 to `most`): statuses, kinds, types."""
    found: dict[str, list[str]] = {}
    for table, rows in tables.items():
        for column in rows[0] if rows else {}:
            values = {r.get(column) for r in rows if isinstance(r.get(column), str)}
            if 2 <= len(values) <= most and len(rows) > len(values):
                found.setdefault(table, []).append(column)
    return found


def sign_in(
    session: ToolSession,
    spec: EnvironmentSpec,
    tables: dict[str, list[dict]],
    pick: int = 0,
    ranked: list[tuple[str, dict]] | None = None,
) -> Account:
    """Sign the scenario's user in on `session` (a user-only call that stays in the state) and return who it is.

    The accounts of `candidates` (`ranked`, computed when not given) are tried in order, the `pick`-th of the
    first five first (each scenario may have its own user), and the first whose values sign in wins (eight
    refused tries in all; after two refusals a table is passed over: its rows are no accounts, as sellers of a
    marketplace whose buyers sign in). Without a sign-in tool the first of them is the user and no call is made;
    when nothing signs in, returns an Account without a table."""
    ranked = candidates(spec, tables) if ranked is None else ranked
    tool = sign_in_tool(spec)
    if tool is None:
        if not ranked:
            return Account()
        table, row = _rotate(ranked, pick)[0]
        return Account(None, {}, table, row, row.get(_primary_key(spec, table)), own_records(spec, tables, table, row))
    required = list(spec.tools[tool].required_inputs)
    columns = {name: _candidate_columns(spec, tool, name, tables) for name in required}
    known = known_values(spec, tool)
    grant = full_grant(spec, tool)
    refused: Counter = Counter()  # a table whose rows keep failing to sign in holds no accounts (sellers, not buyers)
    order = _rotate(ranked, pick)
    failed: list[tuple[str, dict[str, Any]]] = []
    position = 0
    while position < len(order):
        table, row = order[position]
        position += 1
        if sum(refused.values()) >= TRIES:
            break
        if refused[table] >= REFUSED_PER_TABLE:
            continue
        arguments = {}
        for name in required:
            column = next((c for t, c in columns[name] if t == table and row.get(c) is not None), None)
            if column is None and name in known:
                arguments[name] = known[name]
                continue
            if column is None:
                break
            arguments[name] = row[column]
        else:
            before = session.clock.now()
            outcome = session.call(tool, {**arguments, **grant}, "user")
            if outcome.ok:
                pk = _primary_key(spec, table)
                return Account(
                    tool,
                    {**arguments, **grant},
                    table,
                    row,
                    row.get(pk) if pk else None,
                    own_records(spec, tables, table, row),
                    outcome.output,
                )
            session.clock.reset(before)
            refused[table] += 1
            failed.append((table, row))
            order[position:] = wanted_first(spec, tables, order[position:], failed, outcome.error or "")
    return Account(tool=tool)


def traits(spec: EnvironmentSpec, tables: dict[str, list[dict]], table: str, row: dict[str, Any]) -> set[str]:
    """What an account is, in words: the names of the kinds of record that refer to it (`admin_roles`: admin,
    role) and the words of its few-valued text columns (a `status` ACTIVE: active)."""
    pk = _primary_key(spec, table)
    key = row.get(pk) if pk else None
    found = {w for other in census(tables).where.get(key, ()) if other != table for w in words(other)} if key else set()
    for column in _state_columns({table: tables.get(table, [])}).get(table, ()):
        if isinstance(row.get(column), str):
            found.update(words(row[column]))
    return found


def wanted_first(
    spec: EnvironmentSpec,
    tables: dict[str, list[dict]],
    rest: list[tuple[str, dict[str, Any]]],
    failed: list[tuple[str, dict[str, Any]]],
    error: str,
) -> list[tuple[str, dict[str, Any]]]:
    """The accounts still to try, those having what the refusal asks for first: traits the error names that the
    refused accounts do not all have ("Only active users with an admin role can sign in": an ACTIVE user whom an
    admin role refers to), among the accounts of the refused one's table (others keep their places), in their order
    otherwise."""
    had = set.intersection(*(traits(spec, tables, t, r) for t, r in failed)) if failed else set()
    wanted = set(words(error)) - had
    if not wanted:
        return rest
    table = failed[-1][0]
    slots = [i for i, (t, _) in enumerate(rest) if t == table]  # other tables' accounts keep their places
    scores = {i: len(wanted & traits(spec, tables, table, rest[i][1])) for i in slots}
    reordered = list(rest)
    for slot, i in zip(slots, sorted(slots, key=lambda i: -scores[i])):
        reordered[slot] = rest[i]
    return reordered
