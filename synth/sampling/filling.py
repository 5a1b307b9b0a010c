"""Argument values for the calls of a chain, from the state of the conversation so far.

- **Internal inputs** come from what the chain has already seen: the outputs of earlier calls along the graph's
  `via` pairs (the latest producer first; list items that say they are the wanted entity, such as
  `"object": "database"`, preferred), then any earlier output or argument field of the same name (the
  reservation number `get_reservation` echoed). A list of ids an output gives (a device's `entities`) is its
  ids, and only texts of the form the input's pattern requires count (`lock_lock` takes `lock.*`, not the
  lock's battery sensor: `shaped_for`), so a listing without one starves the tool. Only with
  `internal_from_state` may they fall back on ids of the state, the user's own records first.
- **External inputs** are what the scenario's user can say: values from one row of the state for inputs said
  together (an origin and a destination of one route; their own rows first), a value an earlier call was given
  or returned under that name (the trip's dates, said once and repeated; a city the assistant listed; never a
  date an output holds, which belongs to a past booking), an empty search where the input says empty matches
  everything, the name of a record a later tool needs from a search (its words find that record: `searching`),
  their own records (their last name, their licence number), else a plausible value of the state
  (an option, an existing title, a date near the clock; `values.external_value`).
- An input that takes objects (cart lines, a trip's segments) gets one object: each field an earlier output
  feeds (the graph's `via` slot `segments[].origin`) from that output, its other required fields as external
  values.

Attempts differ: a failed call's error names the arguments it blames (their names or values appear in it), and
the next attempt draws those again and keeps the rest; an error that blames none redraws all. Where the blamed
inputs have no other value (the only offer the chain has seen), the next attempt keeps them and redraws the
others (`execute._stuck`), each preferring a value an earlier output showed with the kept ones (`going_with`:
the event that offer belongs to, for "Offer X not found for this event"). The blamed
value's record teaches what to avoid (`refuse`): the fields whose values the error names ("is completed":
`status` completed), and later candidates with such a record come last; a date an error calls in the future (in
the past) is drawn before (after) the clock from then on; a conditional rule ("replacement_item_id is only used
with users_choice") ties the input to the option it goes with (`learn_together`); an example an error shows
("e.g. harborcoffee.com/blog/*") is taken by the input it names (`learn_example`); an error naming a word of
another field of an earlier output that ends as an internal input does ("to the partner on your profile":
`partner_member_number` for `recipient_member_number`) has the input take that field's value (`pointed_to`).
A redrawn text may also become a new one (`Summer trip 7`: the name was taken), and a
value an error calls taken ("already exists") is followed by one of its form no record holds (`fresh`:
`giftset10-7`, `ana.silva7@example.org`); an error putting two dates in order ("The departure date must be after
the arrival date") or listing the values an input takes ("Supported networks: cardano") is obeyed from then on, and
an optional input it names is left out of that tool's next calls (`relations`). Attempt `a` also sets `a`
optional inputs (those the chain links to an earlier producer always), and one input of a group the tool needs
one of (`needs_one_of`, from the seed: a fed one, else one the user says) is always set.

Later tools of the chain steer the choice (`later`): candidates for an internal input whose records the state's
records of what a later tool needs from this call refer to come first (`serving`), and a call whose output gives
a later tool nothing it needs is reported (`starved`) so that `execute` tries it with other arguments.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from envfactory_gym.spec import EnvironmentSpec
from envfactory_synth.graph.entities import id_entity, is_id_like, singular, words
from envfactory_synth.graph.model import ToolGraph
from envfactory_synth.graph.observe import flatten, values_at
from envfactory_synth.graph.params import resolve_schema

from .account import census
from .dates import is_date_name
from .fresh import new_value
from .relations import in_order, learn_order, listed_options, named_optional
from .searching import QUERY, holders, search_words
from .values import ValuePool, external_value, fits_constraint, on_step, snake, values_about

FUTURE = re.compile(r"\b(is|are|be|lies?|in) (in )?the future\b|\bcan't be in the future\b")
PAST = re.compile(r"\b(is|are|be|lies?|in) (in )?the past\b|\bmust be in the future\b")
WORD = re.compile(r"\w+")
ONE_OF = re.compile(r"\b(only|exactly) one of\b|\bone of [\w, ]+ but not both\b")
BELOW = ("below", "under", "less than", "at most", "no more than", "lower than", "up to", "exceeds", "exceed")
BOUND = re.compile(
    r"\b(below|under|less than|at most|no more than|lower than|up to|exceeds?|above|over|more than|at least|"
    r"greater than|higher than)\b[^0-9]{0,80}?(-?\d[\d,]*(?:\.\d+)?)(?![\d.]*\s*%)"
)
TAKEN = re.compile(r"\balready (exists?|taken|in use|registered|being used)\b|\bduplicate\b|\bis taken\b")
LABEL = re.compile(r"(^|_)(name|title|label|subject|display_name|nickname)$")
EMPTY_MATCHES_ALL = re.compile(r"\b(empty|blank)\b[^.]*\b(every|all|everything|any)\b", re.I)
SHOULD_BE = re.compile(r"(?P<name>\w+)(?:\.[\w.]+)?: input should be (?P<options>(?:'[^']*'(?:,? or |, )?)+)", re.I)
EXAMPLE = re.compile(r"\b(?:e\.g\.|for example|such as)[,:]?\s+['\"`]?(?P<value>[^\s'\"`,;()]+)", re.I)
GOES_WITH = re.compile(
    r"\b(?:is|are)\s+(?:only\s+)?(?:used|allowed|valid|accepted|required|needed|supported|given)\s+"
    r"(?:only\s+)?(?:with|for|when|if)\b(?P<rest>[^.;]*)"
)


class ChainFiller:
    """Chooses the arguments of each call of one chain execution (module docstring)."""

    def __init__(
        self,
        spec: EnvironmentSpec,
        graph: ToolGraph,
        pool: ValuePool,
        rng: np.random.Generator,
        internal_from_state: bool = True,
        links: set[tuple[str, str]] | None = None,
        tables: dict[str, list[dict[str, Any]]] | None = None,
        own: dict[str, list[dict]] | None = None,
    ) -> None:
        self.spec = spec
        self.graph = graph
        self.links = links or set()
        self.tables = tables or {}
        self.own = own or {}
        self.context: dict[str, Any] = {}
        self.pool = pool
        self.rng = rng
        self.internal_from_state = internal_from_state
        self.done: list[tuple[str, dict[str, Any], Any]] = []  # (tool, arguments, output) of the agent's calls
        self.refused: dict[str, set[tuple[str, str]]] = {}  # input -> traits of records an error refused
        self.exclusive: dict[str, list[set[str]]] = {}  # tool -> inputs an error said go one at a time
        self.bounds: dict[str, tuple[int, float]] = {}  # number input -> (-1 below / 1 above, the bound an error set)
        self.fresh: set[str] = set()  # inputs an error said must name something new ("already exists")
        self.taken: dict[str, set[Any]] = {}  # fresh input -> the values errors said are taken
        self.orders: list[tuple[str, str]] = []  # (later, earlier) date inputs an error put in order
        self.listed: dict[str, list[str]] = {}  # internal input -> the values an error listed as accepted
        self.dropped: dict[str, set[str]] = {}  # tool -> optional inputs an error named, left out from then on
        self.sides: dict[str, int] = {}  # date input -> -1 (an error wants it in the past) or 1 (in the future)
        self.together: dict[str, list[tuple[str, str, Any]]] = {}  # tool -> (input, other input, its value or None)
        self.options: dict[str, list[str]] = {}  # input -> the values a validation error said it should be
        self.later: list[str] = []  # the tools of the chain after the one being filled
        self.hints: dict[str, set[str]] = {}  # tool -> the words of the errors it gave
        self.chosen: dict[str, Any] = {}  # internal input -> its value kept from the last attempt of this call

    def record(self, tool: str, arguments: dict[str, Any], output: Any) -> None:
        """Remember a successful call (the agent never sees what a user-only call returns)."""
        if not self.spec.tools[tool].user_only:
            self.done.append((tool, arguments, output))

    # ------------------------------------------------------------------ sources

    def fed(self, tool: str, name: str) -> list[Any]:
        """Values of input `name` of `tool` in the outputs of earlier calls that feed it, latest first."""
        entity = id_entity(name, self.graph.graph.graph.get("entities", []))
        found: list[Any] = []
        for producer, _, output in reversed(self.done):
            for path in self.graph.feeding_paths(producer, tool, name):
                found += [v for v in values_about(output, path, entity) if not isinstance(v, (dict, list))]
        return _unique(found)

    def linked(self, tool: str, name: str) -> bool:
        """Whether an earlier call of a tool the chain links to `tool` produces input `name` (the sampler chose
        it for that input): such an optional input is set; others narrow a listing only on later attempts."""
        return any(
            (producer, tool) in self.links and self.graph.provides(producer, tool, name) for producer, _, _ in self.done
        )

    def said(self, name: str, outputs: bool = True) -> list[Any]:
        """Values of fields called `name` in earlier arguments (and `outputs`) of the chain, latest first."""
        found: list[Any] = []
        for _, arguments, output in reversed(self.done):
            for source in (output, arguments) if outputs else (arguments,):
                found += _fields(source, name)
        return _unique(found)

    def internal(self, tool: str, name: str) -> list[Any]:
        """Candidates for an internal input (module docstring), the latest call's first: a reservation
        `get_reservation` was just asked about comes before the others a listing showed."""
        return self.from_chain(tool, name) or self._from_state(name.rpartition(".")[2])

    def from_chain(self, tool: str, name: str) -> list[Any]:
        """The values of an internal input that earlier calls of the chain gave (outputs along the graph's `via`
        pairs, then fields of that name in earlier outputs and arguments), the latest call's first."""
        entity = id_entity(name, self.graph.graph.graph.get("entities", []))
        field = name.rpartition(".")[2]
        found: list[Any] = []
        for producer, arguments, output in reversed(self.done):
            for path in self.graph.feeding_paths(producer, tool, name):
                found += [v for v in values_about(output, path, entity) if not isinstance(v, (dict, list))]
            found += _fields(arguments, field) + _fields(output, field)
        return [v for v in _unique(found) if self.shaped_for(tool, name, v)]

    def shaped_for(self, tool: str, name: str, value: Any) -> bool:
        """Whether a text an earlier output gave has the form input `name` of `tool` requires (its schema's
        pattern, or that of its items): a device's entities list its battery sensor beside its lock, and
        `lock_lock` takes only `lock.*`. Other values, and inputs without a pattern, always fit."""
        if not isinstance(value, str):
            return True
        schema = self.spec.tools[tool].input_schema
        defs = schema.get("$defs", {})
        head, _, sub = name.partition(".")
        prop = resolve_schema(schema.get("properties", {}).get(head.removesuffix("[]"), {}), defs)
        for part in [p for p in sub.split(".") if p] if sub else []:
            prop = resolve_schema(prop.get("items", prop), defs) if prop.get("type") == "array" else prop
            prop = resolve_schema(prop.get("properties", {}).get(part.removesuffix("[]"), {}), defs)
        options = [resolve_schema(o, defs) for o in prop.get("anyOf") or prop.get("oneOf") or [prop]]
        patterns = [
            (o.get("items", {}) if o.get("type") == "array" else o).get("pattern")
            for o in options
            if o.get("type") != "null"
        ]
        if not patterns or None in patterns:
            return True
        return any(re.search(p, value) for p in patterns)

    def pointed_to(self, tool: str, name: str) -> list[Any]:
        """Values of fields of earlier outputs named as internal input `name` is but for a word an error of `tool`
        used, latest call first: "points can only be transferred to the partner on your profile" points
        `recipient_member_number` at the profile's `partner_member_number` where the graph fed it the member's own
        `member_number`. Fields end with the input's words after its first (`member_number`; an input of fewer
        than three words, such as `company_id`, is pointed nowhere: `payroll_id` is no company); none before an
        error."""
        hint = self.hints.get(tool)
        mine = words(name.rpartition(".")[2])
        if not hint or len(mine) < 3:
            return []
        tail, said = mine[1:], hint - set(mine)
        found: list[Any] = []
        for _, _, output in reversed(self.done):
            for record in _records(output):
                for key, value in record.items():
                    theirs = words(key)
                    if (
                        theirs[-len(tail) :] == tail
                        and said & set(theirs[: -len(tail)])
                        and value is not None
                        and not isinstance(value, (dict, list))
                    ):
                        found.append(value)
        return _unique(found)

    def starved(self, tool: str, later: list[str]) -> list[tuple[str, str]]:
        """What `tool`, just called, was to give later tools of the chain and did not: (later tool, input) for
        each required internal input (or needed group) of a later tool that `tool` feeds and for which no call so
        far gave a value (a page listing whose pages hold no blocks, for `delete_block`)."""
        if self.spec.tools[tool].user_only:
            return []
        missing = []
        for consumer in dict.fromkeys(later):
            group = set(self.graph.tool(consumer).get("needs_one_of", []))
            wanted = [
                i["name"]
                for i in self.graph.inputs(consumer)
                if (i["required"] or i["name"] in group)
                and self.graph.role(consumer, i["name"]) == "internal"
                and self.graph.provides(tool, consumer, i["name"])
            ]
            needed = [n for n in wanted if n not in group]
            grouped = [n for n in wanted if n in group]
            missing += [(consumer, n) for n in needed if not self.from_chain(consumer, n)]
            if grouped and not any(self.from_chain(consumer, n) for n in grouped):
                missing.append((consumer, "|".join(grouped)))
        return missing

    def _from_state(self, name: str) -> list[Any]:
        """Ids of the state for an input, the user's own first; only with `internal_from_state`."""
        if not self.internal_from_state:
            return []
        own = [v for v in self.pool.existing(name, own=True) if not isinstance(v, (dict, list))]
        return own if own and is_id_like(name) else self.pool.entity_ids(name)

    def external(
        self, tool: str, name: str, schema: dict[str, Any], defs: dict[str, Any], slot: str | None = None
    ) -> list[Any]:
        """Candidates for an external input (or object field `slot`): what the user already said in the chain
        (earlier arguments; an output's date of a past booking is no date to book), values of the columns the
        seed showed it accepts (the user's own rows first), then one drawn value (own records first)."""
        resolved = resolve_schema(schema, defs)
        description = next((i.get("description", "") for i in self.graph.inputs(tool) if i["name"] == name), "")
        if name in self.fresh:  # something new: another record's value, combined anew with the other inputs
            others = [v for v in self.pool.existing(name) if _fits(v, resolved)]
            picks = [others[int(i)] for i in self.rng.permutation(len(others))[:10]]
            drawn = external_value(name, schema, defs, self.pool, self.rng, description, self.sides.get(name, 0))
            return _unique(picks) + [drawn]
        said = [self.context[name]] if name in self.context else []
        if not slot and resolved.get("type") == "string" and "enum" not in resolved and QUERY.search(snake(name)):
            wanted = self.wanted_later(tool)  # a search: the name of a record a later tool needs (`searching`)
            said = (search_words(self.tables, self.own, wanted, self.rng) if wanted else []) + said
        if resolved.get("type") == "string" and EMPTY_MATCHES_ALL.search(description):
            said.append("")  # "empty matches every issue": the widest search
        said += self.said(name, outputs=False)
        if not is_date_name(name):
            said += self.said(name)
        said += self.accepted_values(tool, slot or name)
        if slot:
            description = schema.get("description", "")
        said = _unique([v for v in said if _fits(v, resolved) and fits_constraint(v, resolved, description, name)])
        drawn = external_value(name, schema, defs, self.pool, self.rng, description, self.sides.get(name, 0))
        return said + [drawn]

    def accepted_values(self, tool: str, slot: str, most: int = 5) -> list[Any]:
        """A few values of the key columns the seed showed a slot accepts (`name` of `list_traveler_profiles`:
        travellers' first names; a loyalty program's owner: airline codes), the user's own rows first."""
        found: list[Any] = []
        for column in self.graph.tool(tool).get("accepts", {}).get(slot, []):
            table, _, field = column.partition(".")
            own = self.own.get(table, [])
            others = [r for r in self.tables.get(table, []) if r not in own]
            for rows in (own, others):
                picks = [rows[int(i)] for i in self.rng.permutation(len(rows))[:most]] if len(rows) > most else rows
                found += [r[field] for r in picks if r.get(field) is not None]
        return found

    def refuse(self, tool: str, arguments: dict[str, Any], error: str) -> None:
        """Learn from a failed call which records not to offer again: for each argument the error blames, the
        fields of its record (in earlier outputs and the state) whose values the error names.
        "Reservation K5 is completed" makes any record whose `status` is `completed` a poor choice for that
        input, so the next attempt (or, after going back, the next listing) offers an open one. An error saying
        a value is taken ("already exists") has the user say something new for the external inputs it blames;
        one saying a date is in the future (in the past) moves that date before (after) the clock; one saying
        only one of some inputs may be given keeps one of them from then on ("only one of qty or percentage");
        a validation error listing the values an input should be ("state: Input should be 'CANCELED'") has it take
        one of them; one setting a bound on a number ("must be below the Buy It Now price of $335.99", "exceeds the
        amount due (252.00)"; on the number field of a money object too: `amount.value`) keeps inside it."""
        text = error.lower()
        self.hints.setdefault(tool, set()).update(words(error))
        side = -1 if FUTURE.search(text) else 1 if PAST.search(text) else 0
        said = _phrase(error)
        blamed = blamed_by(error, arguments)
        if ONE_OF.search(text):
            named = _named(text, arguments, values=False)
            if len(named) > 1:
                self.exclusive.setdefault(tool, []).append(named)
        self.learn_together(tool, text, arguments)
        for found in SHOULD_BE.finditer(error):  # "state: Input should be 'CANCELED'" (a validation error)
            if found.group("name") in arguments:
                self.options[found.group("name")] = re.findall(r"'([^']*)'", found.group("options"))
        self.learn_example(error, arguments)
        self.learn_relations(tool, error, arguments)
        bound = BOUND.search(text)
        for name in _named(text, arguments) if bound else ():
            limit = (-1 if bound.group(1) in BELOW else 1, float(bound.group(2).replace(",", "")))
            value = arguments.get(name)
            if _number_like(value):
                self.bounds[name] = limit
            elif isinstance(value, dict):  # a money object: the number field the error names, or its only one
                numbers = [k for k, v in value.items() if _number_like(v)]
                fields = [k for k in numbers if f"{name}.{k}" in text] or (numbers if len(numbers) == 1 else [])
                for field in fields:
                    self.bounds[f"{name}.{field}"] = limit
        taken = bool(TAKEN.search(text))
        self.drop_named(tool, error, arguments, taken or bool(side))
        for name in blamed:
            if side and is_date_name(name):
                self.sides[name] = side
            if taken and self.graph.role(tool, name) == "external":
                self.fresh.add(name)
                if isinstance(arguments.get(name), (str, int)):
                    self.taken.setdefault(name, set()).add(arguments[name])
            value = arguments.get(name)
            if isinstance(value, (dict, list)) or value is None:
                continue
            for record in self.records_of(value):
                traits = {
                    (k, v.lower())
                    for k, v in record.items()
                    if isinstance(v, str) and v != value and _phrase(v) in said
                }
                if traits:
                    self.refused.setdefault(name, set()).update(traits)

    def learn_relations(self, tool: str, error: str, arguments: dict[str, Any]) -> None:
        """What an error says about how inputs relate (`relations`): two dates in an order ("The departure date
        must be after the arrival date"), kept for every call that takes both; the values an input may take
        ("Supported networks: cardano"): an external input takes one of them, an internal one those of them earlier
        outputs gave first."""
        names = [i["name"] for i in self.graph.inputs(tool)]
        order = learn_order(error, names)
        if order is not None and order not in self.orders:
            self.orders.append(order)
        for name, options in listed_options(error, names, arguments).items():
            if self.graph.role(tool, name) == "external":
                self.options[name] = options
            else:
                self.listed[name] = options

    def drop_named(self, tool: str, error: str, arguments: dict[str, Any], revalued: bool) -> None:
        """Leave out of `tool`'s next calls the optional inputs it was given that the error names
        (`relations.named_optional`), unless the error taught what else they should be (`revalued`: a new value, a
        date on the other side of the clock; options, a bound, a rule tying it to another input)."""
        required = set(self.spec.tools[tool].required_inputs)
        taught = set(self.options) | set(self.listed) | set(self.bounds) | {n.partition(".")[0] for n in self.bounds}
        taught |= {n for rule in self.together.get(tool, []) for n in rule[:2] if isinstance(n, str)}
        taught |= {n for group in self.exclusive.get(tool, []) for n in group}
        optional = [n for n in arguments if n not in required and n not in taught]
        named = named_optional(error, arguments, optional)
        if named and not revalued:
            self.dropped.setdefault(tool, set()).update(named)

    def new_value(self, tool: str, name: str, prop: dict[str, Any], previous: Any) -> str | None:
        """A value no record holds for an input an error said is taken (`fresh.new_value`), of the form of the one
        refused (or of one drawn)."""
        schema = self.spec.tools[tool].input_schema
        defs = schema.get("$defs", {})
        base = previous
        if not isinstance(base, str):
            base = external_value(name, prop, defs, self.pool, self.rng, "", self.sides.get(name, 0))
        taken = [*self.pool.existing(name), *self.said(name), *self.taken.get(name, ())]
        return new_value(base, taken, self.rng, resolve_schema(prop, defs), name)

    def learn_example(self, error: str, arguments: dict[str, Any]) -> None:
        """An error that shows an example of what it wants ("the URL pattern must be on harborcoffee.com (e.g.
        harborcoffee.com/blog/*)") has the input it names last before the example take that example (a text
        input the user fills; never an id the chain gives)."""
        found = EXAMPLE.search(error)
        if not found:
            return
        example = found.group("value").rstrip(".:")
        before = error[: found.start()].lower()
        named = [
            (max(before.rfind(n.lower()), before.rfind(n.replace("_", " ").lower())), n)
            for n, v in arguments.items()
            if isinstance(v, str) and not is_id_like(n)
        ]
        named = [(at, n) for at, n in named if at >= 0]
        if example and named:
            self.options[max(named)[1]] = [example]

    def learn_together(self, tool: str, text: str, arguments: dict[str, Any]) -> None:
        """Read a conditional rule out of a (lower-case) error: "replacement_item_id is only used with
        users_choice" ties the input named before the phrase to the other input's option named after it (or to
        another input named there: "end_date is only allowed with start_date"), so both go together from then on
        (`_together`)."""
        found = GOES_WITH.search(text)
        if not found:
            return
        before, after = _phrase(text[: found.start()]), _phrase(found.group("rest"))
        schema = self.spec.tools[tool].input_schema
        names = [i["name"] for i in self.graph.inputs(tool)]
        subjects = [n for n in names if _phrase(n) in before or _phrase(n.replace("_", " ")) in before]
        for subject in subjects:
            for other in names:
                if other == subject:
                    continue
                options = resolve_schema(schema["properties"].get(other, {}), schema.get("$defs", {})).get("enum", [])
                option = next((o for o in options if isinstance(o, str) and _phrase(o) in after), None)
                named = _phrase(other) in after or _phrase(other.replace("_", " ")) in after
                if option is not None or named:
                    rule = (subject, other, option)
                    if rule not in self.together.setdefault(tool, []):
                        self.together[tool].append(rule)

    def _together(self, tool: str, arguments: dict[str, Any]) -> None:
        """Apply the conditional rules errors taught (`learn_together`): an input that is set brings the option
        (or the input) it goes with; an input set to that option brings the input that goes with it, when there
        is a value for it."""
        for subject, other, option in self.together.get(tool, []):
            item = next(i for i in self.graph.inputs(tool) if i["name"] == (other if subject in arguments else subject))
            if subject in arguments and option is not None:
                arguments[other] = option
            elif subject in arguments and other not in arguments:
                found, value = self.value(tool, item)
                if found:
                    arguments[other] = value
            elif option is not None and arguments.get(other) == option:
                found, value = self.value(tool, item)
                if found:
                    arguments[subject] = value

    def records_of(self, value: Any) -> list[dict[str, Any]]:
        """Records holding `value` in a field: items of earlier outputs, and rows of the state (as the seed has
        them: a ticket's status where a listing of ratings only gave its number)."""
        found = [r for _, _, output in self.done for r in _records(output) if value in r.values()]
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            places = census(self.tables).rows.get(value, {})
            found += [self.tables[table][i] for table, rows in places.items() for i in rows]
        return found

    def acceptable(self, name: str, found: list[Any]) -> list[Any]:
        """Candidates whose records show none of the traits an error refused for input `name` (all of them when
        none is left)."""
        traits = self.refused.get(name)
        if not traits:
            return found
        kept = [
            v
            for v in found
            if not any(
                (k, str(x).lower()) in traits for r in self.records_of(v) for k, x in r.items() if isinstance(x, str)
            )
        ]
        return kept or found

    # ------------------------------------------------------------------ arguments

    def value(self, tool: str, item: dict[str, Any], previous: Any = None) -> tuple[bool, Any]:
        """(found, value) for one input; a candidate other than `previous` when there is one."""
        name = item["name"]
        schema = self.spec.tools[tool].input_schema
        defs = schema.get("$defs", {})
        prop = schema["properties"].get(name, {})
        shape = _object_shape(prop, defs)
        if shape is not None and self.graph.role(tool, name) == "internal":
            return self._objects(tool, name, shape, defs, previous)
        if self.graph.role(tool, name) == "internal":
            pointed = self.pointed_to(tool, name)
            found = _unique(pointed + self.internal(tool, name))
            listed = self.listed.get(name)
            if listed and not isinstance(previous, (dict, list)):  # an error listed what it takes
                found = [v for v in found if v in listed] or listed
            if not found:
                return False, None
            found = self.acceptable(name, found)
            preferred = [v for v in pointed if v in found] or self.going_with(name, found) or self.serving(tool, found)
            value = self._pick(found, previous, preferred)
            return True, [value] if _is_list(prop, defs) and not isinstance(value, list) else value
        if name in self.options and not isinstance(previous, (dict, list)):
            return True, self._pick(self.options[name], previous)
        if name in self.bounds:
            return True, self._within_bound(name, resolve_schema(prop, defs), previous)
        if name in self.fresh and not isinstance(previous, (dict, list)):
            new = self.new_value(tool, name, prop, previous)
            if new is not None:
                return True, new
        found = self.external(tool, name, prop, defs)
        resolved = resolve_schema(prop, defs)
        free_text = resolved.get("type") == "string" and not {"enum", "pattern", "format"} & set(resolved)
        if isinstance(previous, str) and free_text and LABEL.search(name):
            found.append(f"{previous} {int(self.rng.integers(2, 100))}")  # a new name when the old one is taken
        return True, self._bounded(name, self._pick(self.acceptable(name, found), previous), resolved, defs)

    def _bounded(self, name: str, value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> Any:
        """An object with each number field an error bounded (`amount.value`) drawn inside its bound."""
        if not isinstance(value, dict):
            return value
        fields = schema.get("properties", {})
        return {
            k: self._within_bound(f"{name}.{k}", resolve_schema(fields.get(k, {}), defs), v)
            if f"{name}.{k}" in self.bounds
            else v
            for k, v in value.items()
        }

    def _within_bound(self, name: str, schema: dict[str, Any], previous: Any) -> Any:
        """A number on the right side of the bound an error set: a tenth to a half of the way from it toward
        zero (below) or beyond it (above), kept as text where the input took text."""
        side, bound = self.bounds[name]
        share = float(self.rng.uniform(0.1, 0.5))
        number = bound * (1 - share) if side < 0 else bound * (1 + share) + 1
        number = on_step(min(max(number, schema.get("minimum", number)), schema.get("maximum", number)), schema)
        if schema.get("type") == "integer" or (isinstance(previous, int) and not isinstance(previous, bool)):
            return int(number)
        number = round(number, 2)
        return f"{number:.2f}" if isinstance(previous, str) else number

    def _pick(self, found: list[Any], previous: Any, preferred: list[Any] | None = None) -> Any:
        """The first candidate on a first try; later, a random one other than the previous value. Candidates in
        `preferred` (`serving`) come first while one is left."""
        if preferred:
            found = preferred + [v for v in found if v not in preferred]
        if previous is None:
            return found[0]
        others = [v for v in (preferred or []) if v != previous] or [v for v in found if v != previous] or found
        return others[int(self.rng.integers(len(others)))]

    def going_with(self, name: str, found: list[Any]) -> list[Any]:
        """The candidates for internal input `name` that an earlier call showed together with an internal value
        already chosen for this call (`chosen`), in their order: a record holding the candidate as a field of its
        own and the chosen value anywhere inside (an event whose offers list the offer chosen), or an earlier
        call's arguments holding both. The chosen values are those a retry keeps from the attempt before (an error
        blamed other inputs): "Offer X not found for this event", when X is the only offer the chain has seen, is
        mended by the event of that offer, not by any event a search showed."""
        others = {
            repr(v)
            for n, v in self.chosen.items()
            if n != name and isinstance(v, (str, int)) and not isinstance(v, bool) and len(str(v)) >= 3
        }
        if not others:
            return []
        wanted = {repr(v): v for v in found if isinstance(v, (str, int)) and not isinstance(v, bool)}
        hits: list[Any] = []
        for _, arguments, output in reversed(self.done):
            for record in [arguments, *_records(output)]:
                if not others & {repr(v) for v in flatten(record)}:
                    continue
                fields = [v for f in record.values() for v in (f if isinstance(f, list) else [f])]
                hits += [wanted[repr(v)] for v in fields if repr(v) in wanted and repr(v) not in others]
        return _unique(hits)

    def serving(self, tool: str, found: list[Any]) -> list[Any]:
        """The candidates for an internal input of `tool` whose records the state's records of what later tools
        of the chain need from `tool` refer to, in their order (a page some blocks belong to, when `delete_block`
        is to take a block of the page `retrieve_block_children` lists); none when no later tool needs anything
        from `tool`, or no candidate has it."""
        wanted = self.wanted_later(tool)
        if not wanted:
            return []
        where = census(self.tables).where
        tables = set(holders(self.tables, wanted))
        return [
            v for v in found if isinstance(v, (str, int)) and not isinstance(v, bool) and tables & where.get(v, set())
        ]

    def wanted_later(self, tool: str) -> set[str]:
        """The entities of the required internal inputs that later tools of the chain take from `tool`."""
        entities = self.graph.graph.graph.get("entities", [])
        return {
            entity
            for consumer in self.later
            for i in self.graph.inputs(consumer)
            if i["required"]
            and self.graph.role(consumer, i["name"]) == "internal"
            and self.graph.provides(tool, consumer, i["name"])
            and (entity := id_entity(i["name"], entities))
        }

    def _objects(
        self, tool: str, name: str, shape: tuple[bool, dict], defs: dict[str, Any], previous: Any
    ) -> tuple[bool, Any]:
        """The object(s) an internal input takes: each field an earlier output feeds (`segments[].origin`) from
        that output, the other required fields as the user would say them; not found when no field is fed."""
        many, inner = shape
        old = previous[0] if isinstance(previous, list) and previous else previous if isinstance(previous, dict) else {}
        item, fed = {}, False
        for sub, prop in inner.get("properties", {}).items():
            slot = f"{name}{'[]' if many else ''}.{sub}"
            linked = any(self.graph.feeding_paths(u, tool, slot) for u in self.graph.predecessors(tool))
            found = self.internal(tool, slot) if linked else []
            if found:
                item[sub] = self._pick(found, old.get(sub) if old else None)
                fed = True
            elif sub in inner.get("required", []):
                item[sub] = self._pick(self.external(tool, sub, prop, defs, slot), old.get(sub) if old else None)
        if not fed:
            return False, None
        return True, [item] if many else item

    def arguments(
        self, tool: str, attempt: int, previous: dict[str, Any] | None = None, blamed: set[str] | None = None
    ) -> tuple[dict[str, Any] | None, str]:
        """The arguments of one attempt (module docstring), or (None, reason) when a required internal input
        has no value."""
        if previous is None or blamed is None or blamed & set(self.context):
            self.context = self.row_context(tool)
        previous = previous or {}
        arguments: dict[str, Any] = {}
        optional = []
        internal = {i["name"] for i in self.graph.inputs(tool) if self.graph.role(tool, i["name"]) == "internal"}
        self.chosen = {n: v for n, v in previous.items() if n in internal and blamed is not None and n not in blamed}
        dropped = self.dropped.get(tool, set())
        for item in self.graph.inputs(tool):
            name = item["name"]
            if name in dropped and not item["required"]:
                continue
            if item["required"] or (self.graph.role(tool, name) == "internal" and self.linked(tool, name)):
                pointed = self.pointed_to(tool, name) if self.graph.role(tool, name) == "internal" else []
                kept = name in previous and blamed is not None and name not in blamed
                if kept and (not pointed or previous[name] in pointed):  # an error pointing elsewhere redraws it
                    arguments[name] = previous[name]
                    continue
                found, value = self.value(tool, item, previous.get(name))
                if not found:
                    if item["required"]:
                        return None, f"no earlier output provides required input {name!r} of {tool}"
                    continue
                arguments[name] = value
            elif self.graph.role(tool, name) == "external":
                optional.append(item)
        group = [i for i in self.graph.inputs(tool) if i["name"] in self.graph.tool(tool).get("needs_one_of", [])]
        chosen = [i["name"] for i in group if i["name"] in arguments]
        if len(chosen) > 1:  # one of them: the seat map of an order or of an offer
            keep = chosen[int(self.rng.integers(len(chosen)))]
            for name in chosen:
                if name != keep:
                    arguments.pop(name)
        if group and not any(i["name"] in arguments for i in group):
            fed = [
                i for i in group if self.graph.role(tool, i["name"]) == "internal" and self.internal(tool, i["name"])
            ]
            said = [i for i in group if self.graph.role(tool, i["name"]) == "external"]
            choices = fed or said
            if choices:
                item = choices[int(self.rng.integers(len(choices)))]
                arguments[item["name"]] = self.value(tool, item, previous.get(item["name"]))[1]
                optional = [i for i in optional if i is not item]
        if any(i["name"] in arguments for i in group):  # one of the group: never a second as an extra input
            optional = [i for i in optional if i not in group]
        kept = [i for i in optional if i["name"] in previous and (blamed is not None and i["name"] not in blamed)]
        for item in kept:
            arguments[item["name"]] = previous[item["name"]]
        fresh = [i for i in optional if i not in kept]
        extra = max(0, min(attempt, len(optional)) - len(kept))
        for index in sorted(self.rng.choice(len(fresh), size=min(extra, len(fresh)), replace=False)) if fresh else []:
            item = fresh[int(index)]
            arguments[item["name"]] = self.value(tool, item)[1]
        for together in self.exclusive.get(tool, []):  # an error said: only one of these
            given = [i["name"] for i in self.graph.inputs(tool) if i["name"] in together and i["name"] in arguments]
            required = [n for n in given if n in self.spec.tools[tool].required_inputs]
            keep = required[0] if required else given[int(self.rng.integers(len(given)))] if given else None
            for name in given:
                if name != keep:
                    arguments.pop(name)
        self._together(tool, arguments)
        in_order(arguments, self.orders)
        return arguments, ""

    def row_context(self, tool: str) -> dict[str, Any]:
        """Values for several external inputs from one row of the state (an origin and a destination of one
        route, a city and its country), the user's own rows first: inputs said together should fit together.
        Dates are left out (a row's date is a past one)."""
        names = [
            i["name"]
            for i in self.graph.inputs(tool)
            if self.graph.role(tool, i["name"]) == "external" and not is_date_name(i["name"])
        ]
        best, table = 1, None
        for candidate, rows in self.tables.items():
            matched = sum(name in rows[0] for name in names) if rows else 0
            if matched > best:
                best, table = matched, candidate
        if table is None:
            return {}
        rows = self.own.get(table) or self.tables[table]
        row = rows[int(self.rng.integers(len(rows)))]
        return {
            name: row[name] for name in names if row.get(name) is not None and not isinstance(row[name], (dict, list))
        }


def blamed_by(error: str, arguments: dict[str, Any]) -> set[str]:
    """The arguments an error message names, by name or by value (`BOSC08 is closed on Sundays` blames the
    location); all of them when it names none."""
    text = error.lower()
    named = set()
    for name, value in arguments.items():
        values = [str(v).lower() for v in flatten(value) if len(str(v)) >= 2]
        if name.lower() in text or name.replace("_", " ").lower() in text or any(v in text for v in values):
            named.add(name)
    return named or set(arguments)


def _named(text: str, arguments: dict[str, Any], values: bool = True) -> set[str]:
    """The arguments a (lower-case) error text names by name, or (with `values`) by a value of two or more
    characters; unlike `blamed_by`, none when it names none."""
    found = set()
    for name, value in arguments.items():
        shown = [str(v).lower() for v in flatten(value) if len(str(v)) >= 2] if values else []
        if name.lower() in text or name.replace("_", " ").lower() in text or any(v in text for v in shown):
            found.add(name)
    return found


def _number_like(value: Any) -> bool:
    """A number, or a text holding one ("12.50")."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and re.fullmatch(r"-?\d+(\.\d+)?", value.strip()) is not None


def _phrase(text: str) -> str:
    """A text as its lower-case words between spaces, so that `_phrase(a) in _phrase(b)` finds whole words."""
    return " " + " ".join(WORD.findall(text.lower())) + " "


def _records(data: Any) -> list[dict[str, Any]]:
    """Every object inside a JSON value."""
    if isinstance(data, dict):
        return [data] + [r for v in data.values() if isinstance(v, (dict, list)) for r in _records(v)]
    if isinstance(data, list):
        return [r for item in data for r in _records(item)]
    return []


def _object_shape(prop: dict[str, Any], defs: dict[str, Any]) -> tuple[bool, dict] | None:
    """For an input taking objects: (a list of them?, their schema); None for any other input."""
    resolved = resolve_schema(prop, defs)
    many = resolved.get("type") == "array"
    inner = resolve_schema(resolved.get("items", {}), defs) if many else resolved
    if inner.get("type") != "object" or not inner.get("properties"):
        return None
    return many, inner


def _is_list(prop: dict[str, Any], defs: dict[str, Any]) -> bool:
    return "array" in {resolve_schema(o, defs).get("type") for o in (prop.get("anyOf") or [prop])}


def _fits(value: Any, schema: dict[str, Any]) -> bool:
    """Whether a value said earlier can be said again for this input (an enum option, the right scalar type)."""
    if isinstance(value, (dict, list)) or value is None:
        return False
    if "enum" in schema:
        return value in schema["enum"]
    if "const" in schema:  # a one-option Literal (`Literal["CANCELED"]`)
        return value == schema["const"]
    kind = schema.get("type")
    if kind == "string":
        return isinstance(value, str)
    if kind in ("integer", "number"):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        step = schema.get("multipleOf")
        return number and (not step or on_step(value, {"multipleOf": step}) == value)
    return False


def _fields(data: Any, name: str, parent: str = "") -> list[Any]:
    """Values of every field called `name` anywhere inside a JSON value, or named by its object and itself
    (`seat_number` for the `number` of the items of `seats`)."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == name or (parent and f"{singular(parent)}_{key}" == name):
                found += values_at(value, "") if isinstance(value, list) else [value]
            elif isinstance(value, (dict, list)):
                found += _fields(value, name, key)
    elif isinstance(data, list):
        for item in data:
            found += _fields(item, name, parent)
    return [v for v in found if v is not None]


def _unique(values: list[Any]) -> list[Any]:
    seen: set = set()
    out = []
    for value in values:
        key = repr(value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out
