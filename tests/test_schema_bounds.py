"""Constraints live in types: every bound a tool enforces appears in its JSON schema, so the model sees it.

For each tool the ground truth calls, in the state where that call succeeds, the test tries values its schema
accepts but that are out of range for any sane product: -1 and 0 for numbers, "" for text, a million for page
sizes. A tool that refuses one of them with its own words for a bound ("between", "at least", "positive",
"empty"...) naming the argument checks that bound by hand, where the schema does not show it. (Refusals by schema
validation are the point; lookups that find nothing and rules of the state, such as an amount above a balance or a
time in the past, are not bounds.)
"""

from __future__ import annotations

import re

import pytest

from envfactory_gym import ToolSession, load_tasks, load_zoo_environment, zoo_keys
from envfactory_gym.spec import ToolSpec
from envfactory_gym.tasks import replay_calls

#: How a hand-written bound check words its refusal (a lookup that finds nothing or a rule of the state does not).
BOUND_WORDS = re.compile(
    r"between|at least|at most|positive|non-negative|greater than|less than|maximum|minimum|"
    r"exceed|too (many|long|short)|empty|blank|must specify",
    re.I,
)
PAGE_SIZES = re.compile(r"^(page_size|per_page|limit|max_results|maxresults|count|first|size|top)$", re.I)


def _accepts(schema: dict, value) -> bool:
    """Whether a (possibly optional) JSON schema's number/string branch admits `value` as far as bounds go."""
    for branch in schema.get("anyOf", [schema]):
        kind = branch.get("type")
        if isinstance(value, str) and kind == "string":
            return len(value) >= branch.get("minLength", 0) and not branch.get("pattern") and "enum" not in branch
        if not isinstance(value, str) and kind in ("integer", "number"):
            return (
                value >= branch.get("minimum", float("-inf"))
                and value > branch.get("exclusiveMinimum", float("-inf"))
                and value <= branch.get("maximum", float("inf"))
                and value < branch.get("exclusiveMaximum", float("inf"))
                and "enum" not in branch
            )
    return False


def _probes(tool: ToolSpec) -> list[tuple[str, object]]:
    probes = []
    for name, schema in tool.input_schema["properties"].items():
        kinds = {b.get("type") for b in schema.get("anyOf", [schema])}
        candidates: list[object] = []
        if kinds & {"integer", "number"}:
            candidates += [-1, 0] + ([1_000_000] if PAGE_SIZES.match(name) else [])
        if "string" in kinds:
            candidates.append("")
        probes += [(name, value) for value in candidates if _accepts(schema, value)]
    return probes


def _hand_written_bounds(key: str) -> list[str]:
    spec = load_zoo_environment(key)
    found, probed = [], set()
    session = ToolSession(spec)
    for task in load_tasks(spec).values():
        session.reset(task.snapshot, task.clock)
        for turn in task.turns:
            replay_calls(session, turn.user_calls)
            for call in turn.agent_calls:
                tool = spec.tools[call.name]
                if call.name not in probed:
                    probed.add(call.name)
                    for name, value in _probes(tool):
                        with session.state.trial():
                            outcome = session.call(call.name, {**call.arguments, name: value})
                        error = outcome.error or ""
                        if (
                            not outcome.ok
                            and "invalid arguments" not in error
                            and BOUND_WORDS.search(error)
                            and (re.search(rf"\b{name}\b", error) or value == "")
                        ):
                            found.append(f"{call.name}({name}={value!r}): {error}")
                session.call(call.name, call.arguments)
    session.close()
    return found


@pytest.mark.parametrize("key", zoo_keys())
def test_every_bound_a_tool_enforces_is_in_its_schema(key):
    assert not _hand_written_bounds(key)
