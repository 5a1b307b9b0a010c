"""From a sampled chain and a snapshot to ground-truth calls: execute the chain in a real ToolSession."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from envfactory_gym.database import DEFAULT_CLOCK
from envfactory_gym.session import ToolSession
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall
from synth.graph.entities import id_entity
from synth.graph.params import resolve_schema

from .chain import Chain
from .values import ValuePool, external_value, values_about

ATTEMPTS = 4
_SIGN_IN = re.compile(r"^(user_)?(log_?in|sign_?in|authenticate|authorize_app|grant_access)$")


@dataclass
class ChainExecution:
    """What executing a chain gave: the successful calls (ground truth) with their outputs, the final state
    (canonical dump and serialized bytes), and where and why it stopped if a tool failed."""

    calls: list[GroundTruthCall] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)
    final_state: CanonicalState = field(default_factory=dict)
    final_snapshot: bytes = b""
    ok: bool = True
    failed_tool: str | None = None
    error: str | None = None
    tries: int = 0


class _Filler:
    """Chooses arguments for one call: internal inputs from earlier outputs (or the state), external inputs
    from plausible values; attempt `a` also sets `a` optional inputs (those fed by earlier tools first)."""

    def __init__(self, chain: Chain, pool: ValuePool, internal_from_state: bool, rng: np.random.Generator) -> None:
        self.chain = chain
        self.graph = chain.graph
        self.pool = pool
        self.internal_from_state = internal_from_state
        self.rng = rng
        self.done: list[tuple[str, Any]] = []  # (tool, output) of the successful calls so far

    def fed_values(self, tool: str, name: str, latest_only: bool) -> list[Any]:
        """Values of input `name` of `tool` found in the outputs of earlier calls that feed it."""
        found: list[Any] = []
        entity = id_entity(name, self.graph.graph.graph.get("entities", []))
        for producer, output in reversed(self.done):
            values = [
                v for path in self.graph.feeding_paths(producer, tool, name) for v in values_about(output, path, entity)
                if not isinstance(v, (dict, list))
            ]
            if values and latest_only:
                return values
            found += values
        return found

    def value(self, spec: EnvironmentSpec, tool: str, item: dict[str, Any], attempt: int) -> tuple[bool, Any]:
        """(found, value) for one input."""
        name = item["name"]
        if self.graph.role(tool, name) == "internal":
            values = self.fed_values(tool, name, latest_only=attempt == 0)
            if not values and self.internal_from_state:
                values = self.pool.entity_ids(name)
            if not values:
                return False, None
            value = values[int(self.rng.integers(len(values)))]
            return True, [value] if item["type"].startswith("array<") else value
        schema = spec.tools[tool].input_schema
        prop = schema["properties"].get(name, {})
        return True, external_value(name, prop, schema.get("$defs", {}), self.pool, self.rng)

    def arguments(self, spec: EnvironmentSpec, tool: str, attempt: int) -> tuple[dict[str, Any] | None, str]:
        """The arguments of one attempt, or (None, reason) when a required internal input has no value."""
        arguments: dict[str, Any] = {}
        optional = []
        for item in self.graph.inputs(tool):
            if item["required"]:
                found, value = self.value(spec, tool, item, attempt)
                if not found:
                    return None, f"no earlier output provides required input {item['name']!r} of {tool}"
                arguments[item["name"]] = value
            else:
                fed = bool(self.fed_values(tool, item["name"], latest_only=False))
                if fed or self.graph.role(tool, item["name"]) == "external":
                    optional.append((item, 3.0 if fed else 1.0))
        if attempt and optional:
            weights = np.array([w for _, w in optional])
            picks = self.rng.choice(
                len(optional), size=min(attempt, len(optional)), replace=False, p=weights / weights.sum()
            )
            for index in sorted(picks):
                item = optional[index][0]
                found, value = self.value(spec, tool, item, attempt)
                if found:
                    arguments[item["name"]] = value
        return arguments, ""


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


def _run_tool(
    session: ToolSession, filler: _Filler, spec: EnvironmentSpec, tool: str, attempts: int, result: ChainExecution,
    extra: dict[str, Any] | None = None,
) -> str | None:
    """Try one tool up to `attempts` times (with `extra` arguments on top of the filled ones); record the first
    success in `result`. Returns None on success, else the last error."""
    caller = "user" if spec.tools[tool].user_only else "agent"
    error = f"{tool} was not tried"
    for attempt in range(attempts):
        arguments, reason = filler.arguments(spec, tool, attempt)
        if arguments is None:
            return reason
        arguments.update(extra or {})
        before = session.clock.now()
        outcome = session.call(tool, arguments, caller)
        result.tries += 1
        if outcome.ok:
            result.calls.append(GroundTruthCall(name=tool, arguments=arguments, caller=caller))
            result.outputs.append(outcome.output)
            filler.done.append((tool, outcome.output))
            return None
        session.clock.reset(before)
        error = outcome.error or "tool error"
    return error


def execute_chain(
    spec: EnvironmentSpec,
    chain: Chain,
    snapshot: str | bytes = "seed",
    seed: int = 0,
    *,
    clock: datetime = DEFAULT_CLOCK,
    attempts: int = ATTEMPTS,
    internal_from_state: bool = True,
    sign_in: bool = False,
) -> ChainExecution:
    """Execute `chain` from `snapshot` (a snapshot name or serialized state) and return the ground truth.

    Each tool gets up to `attempts` argument choices; a failed attempt changes nothing (calls are atomic and
    the clock is set back), so the returned calls replay exactly. Internal inputs come from earlier outputs
    (the graph's `via` pairs), else, with `internal_from_state`, from existing ids of the state; external
    inputs are plausible values from the state. Stops at the first tool that fails every attempt.
    With `sign_in`, the user first performs the environment's sign-in tool (a user-only `log_in`, `sign_in`,
    `authenticate`, `authorize_app` or `grant_access`), granting every optional scope (`full_grant`), as a task's
    user would before asking; that call leads the returned calls.
    """
    rng = np.random.default_rng(seed)
    session = ToolSession(spec)
    try:
        if isinstance(snapshot, bytes):
            session.restore_bytes(snapshot, clock)
        else:
            session.reset(snapshot, clock)
        pool = ValuePool(session.state.dump_snapshot(), chain.graph.graph.graph.get("entities", []), clock)
        filler = _Filler(chain, pool, internal_from_state, rng)
        result = ChainExecution()
        prelude = [t for t, spec_ in spec.tools.items() if sign_in and spec_.user_only and _SIGN_IN.search(t)]
        steps = [(t, full_grant(spec, t)) for t in prelude[:1]] + [(t, None) for t in chain.tools]
        for tool, extra in steps:
            error = _run_tool(session, filler, spec, tool, attempts, result, extra)
            if error is not None:
                result.ok, result.failed_tool, result.error = False, tool, error
                break
        result.final_state = session.dump()
        result.final_snapshot = session.state.snapshot()
        return result
    finally:
        session.close()
