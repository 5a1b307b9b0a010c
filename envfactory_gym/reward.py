"""The composite reward R = a*R_traj + (1-a)*R_state - g*P_length (method.md section 7), each part a named function.

An optional checklist component (per-task checks on the final state, EnvScaler-style) joins with weight
`RewardConfig.checklist` (0 by default): R = (1-w)*(a*R_traj + (1-a)*R_state) + w*R_checklist - penalties."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from typing import Any, Iterable, Literal, Sequence

from pydantic import BaseModel, ValidationError

from .delta import StateDelta, as_delta
from .spec import EnvironmentSpec
from .state import CanonicalState
from .tasks import GroundTruthCall

TrajectoryMode = Literal["graded", "strict"]


@dataclass(frozen=True)
class RewardConfig:
    """Weights of the composite reward. Defaults follow the paper (a = 0.5) and the core issue."""

    alpha: float = 0.5
    gamma: float = 0.05
    length_cap: float = 0.5
    format_penalty: float = 0.05
    format_cap: float = 0.5
    trajectory_mode: TrajectoryMode = "graded"
    checklist: float = 0.0


@dataclass(frozen=True)
class CallRecord:
    """An agent call as the reward sees it: validated arguments, whether it succeeded, whether it reads only; a
    failed call's `error` text; `unexpected`: made in a turn whose ground truth is to make no call."""

    name: str
    arguments: dict[str, Any]
    ok: bool
    read_only: bool
    error: str | None = None
    unexpected: bool = False


@dataclass(frozen=True)
class RewardBreakdown:
    """Every component of one score, reported on its own."""

    total: float
    trajectory: float
    state: float
    length_penalty: float
    format_penalty: float
    matched_calls: int
    expected_calls: int
    agent_calls: int
    checklist: float | None = None  # pass fraction of the task's checks; None when the task has none

    def as_dict(self) -> dict[str, float | int]:
        """Plain dict (for `info`)."""
        return {f.name: getattr(self, f.name) for f in _BREAKDOWN_FIELDS}


_BREAKDOWN_FIELDS = fields(RewardBreakdown)


def _normalize(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    if isinstance(value, dict):
        return {k: _normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalize(v) for v in value]
    return value


_PLAIN = frozenset({str, int, bool, type(None)})


def values_equal(a: Any, b: Any) -> bool:
    """Argument equality: case- and whitespace-insensitive strings, float tolerance, recursive containers."""
    if type(a) in _PLAIN and type(b) in _PLAIN and a == b:  # the common case in one comparison (not containers:
        return True  # a list holding the very same NaN object equals itself, where isclose says NaN != NaN)
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    return _normalize(a) == _normalize(b)


#: id(call) -> (call, input model, validated arguments): ground truth is compared at every turn end, its
#: validation is done once (the call is kept so that its id cannot be reused while the entry lives).
_VALIDATED: dict[int, tuple[GroundTruthCall, type[BaseModel], dict[str, Any]]] = {}
_VALIDATED_LIMIT = 200_000


def normalize_ground_truth(spec: EnvironmentSpec, call: GroundTruthCall) -> dict[str, Any]:
    """Ground-truth arguments validated like agent arguments (defaults filled, types coerced); as given when they
    do not validate."""
    model = spec.tools[call.name].input_model
    cached = _VALIDATED.get(id(call))
    if cached is not None and cached[0] is call and cached[1] is model:
        return cached[2]
    try:
        arguments = model.model_validate(call.arguments).model_dump(mode="json")
    except ValidationError:
        arguments = dict(call.arguments)
    if len(_VALIDATED) >= _VALIDATED_LIMIT:
        _VALIDATED.clear()
    _VALIDATED[id(call)] = (call, model, arguments)
    return arguments


def _as_set(value: Any) -> Any:
    """A list as a set: its distinct items (after normalization) in a canonical order."""
    if not isinstance(value, list):
        return value
    distinct = {json.dumps(_normalize(item), sort_keys=True, default=str): item for item in value}
    return [distinct[key] for key in sorted(distinct)]


def outcome_matches(record: CallRecord, expected: GroundTruthCall) -> bool:
    """Whether an agent call ended the way the ground-truth call did: both succeeded, or both failed with the same
    error (a ground-truth call that fails in the original carries its `expected_error`). A call made where the
    task expects no call matches nothing."""
    if record.unexpected:
        return False
    if expected.expected_error is None:
        return record.ok
    return not record.ok and record.error == expected.expected_error


def call_matches(
    record: CallRecord,
    expected: GroundTruthCall,
    expected_args: dict[str, Any],
    unordered: frozenset[str] = frozenset(),
) -> bool:
    """Same tool, same outcome (`outcome_matches`) and equal arguments, masked arguments ignored, `unordered` list
    arguments compared as sets."""
    if record.name != expected.name or not outcome_matches(record, expected):
        return False
    masked = set(expected.masked)
    keys = (set(expected_args) | set(record.arguments)) - masked
    return all(
        values_equal(_as_set(record.arguments.get(k)), _as_set(expected_args.get(k)))
        if k in unordered
        else values_equal(record.arguments.get(k), expected_args.get(k))
        for k in keys
    )


def match_calls(spec: EnvironmentSpec, agent: Sequence[CallRecord], expected: Sequence[GroundTruthCall]) -> int:
    """How many ground-truth calls are matched by distinct agent calls.

    Writes must be matched in their ground-truth order (longest common subsequence); read-only calls are
    independent and may be matched anywhere, in any order.
    """
    expected_args = [normalize_ground_truth(spec, c) for c in expected]
    is_read = [spec.tools[c.name].read_only for c in expected]
    unordered = {c.name: spec.tools[c.name].unordered_inputs for c in expected}
    writes = [(c, a) for c, a, r in zip(expected, expected_args, is_read) if not r]
    agent_writes = [r for r in agent if not r.read_only]
    lcs = [[0] * (len(agent_writes) + 1) for _ in range(len(writes) + 1)]
    for i, (call, args) in enumerate(writes, start=1):
        for j, record in enumerate(agent_writes, start=1):
            if call_matches(record, call, args, unordered[call.name]):
                lcs[i][j] = lcs[i - 1][j - 1] + 1
            else:
                lcs[i][j] = max(lcs[i - 1][j], lcs[i][j - 1])
    matched = lcs[len(writes)][len(agent_writes)]
    available = [r for r in agent if r.read_only]
    for call, args, read in zip(expected, expected_args, is_read):
        if not read:
            continue
        for index, record in enumerate(available):
            if call_matches(record, call, args, unordered[call.name]):
                matched += 1
                del available[index]
                break
    return matched


def trajectory_reward(matched: int, expected: int, mode: TrajectoryMode) -> float:
    """R_traj: fraction of ground-truth calls matched (`graded`) or all-or-nothing (`strict`)."""
    if expected == 0:
        return 1.0
    if mode == "strict":
        return 1.0 if matched == expected else 0.0
    return matched / expected


def state_reward(
    initial: CanonicalState | StateDelta, final: CanonicalState | StateDelta, expected: CanonicalState | StateDelta
) -> float:
    """R_state: over the rows that the ground truth or the agent changed, the fraction now equal to the expected.

    1.0 exactly when the final state equals the expected one; 0.0 when the agent changed none of the rows it
    had to change. States are full canonical dumps or deltas over one shared base; with deltas only the rows
    that some state changed are read, and the result is the same as over full dumps.
    """
    if not any(isinstance(state, StateDelta) for state in (initial, final, expected)):
        return _full_state_reward(initial, final, expected)  # type: ignore[arg-type]  # all three are dumps
    views = [as_delta(initial), as_delta(final), as_delta(expected)]
    before, after, want = views
    changed = 0
    good = 0
    for key in set().union(*(v.rows.keys() for v in views)):
        row_before, row_want, row_after = before.get(key), want.get(key), after.get(key)
        if row_before != row_want or row_before != row_after:
            changed += 1
            good += row_after == row_want
    return 1.0 if not changed else good / changed


def _full_state_reward(initial: CanonicalState, final: CanonicalState, expected: CanonicalState) -> float:
    """`state_reward` over three full dumps, table by table: a table equal in all three (one comparison of its
    rows, done in C, or none when the dumps share the table's rows) holds no changed row, so only the tables
    something changed are walked row by row."""
    changed = 0
    good = 0
    for table in initial.keys() | final.keys() | expected.keys():
        before, after, want = initial.get(table, {}), final.get(table, {}), expected.get(table, {})
        if (before is after or before == after) and (after is want or after == want):
            continue
        for key in before.keys() | after.keys() | want.keys():
            row_before, row_want, row_after = before.get(key), want.get(key), after.get(key)
            if row_before != row_want or row_before != row_after:
                changed += 1
                good += row_after == row_want
    return 1.0 if not changed else good / changed


def length_penalty(agent_calls: int, expected_calls: int, config: RewardConfig) -> float:
    """P_length times gamma: `gamma` per call beyond the ground truth, capped."""
    return min(config.length_cap, config.gamma * max(0, agent_calls - expected_calls))


def format_penalty(format_errors: int, config: RewardConfig) -> float:
    """Penalty for unparsable tool calls, capped."""
    return min(config.format_cap, config.format_penalty * format_errors)


def score(
    spec: EnvironmentSpec,
    agent_calls: Sequence[CallRecord],
    expected_calls: Iterable[GroundTruthCall],
    initial: CanonicalState | StateDelta,
    final: CanonicalState | StateDelta,
    expected_state: CanonicalState | StateDelta,
    format_errors: int = 0,
    config: RewardConfig = RewardConfig(),
    checklist: float | None = None,
) -> RewardBreakdown:
    """Combine the parts into the composite reward, clipped to [0, 1]; `checklist` (a pass fraction) counts with
    weight `config.checklist` when given."""
    return compose(
        spec,
        agent_calls,
        expected_calls,
        state_reward(initial, final, expected_state),
        format_errors,
        config,
        checklist,
    )


def compose(
    spec: EnvironmentSpec,
    agent_calls: Sequence[CallRecord],
    expected_calls: Iterable[GroundTruthCall],
    r_state: float,
    format_errors: int = 0,
    config: RewardConfig = RewardConfig(),
    checklist: float | None = None,
) -> RewardBreakdown:
    """`score` with the state part already computed (`r_state`), e.g. reused while the state has not changed."""
    expected = list(expected_calls)
    matched = match_calls(spec, agent_calls, expected)
    r_traj = trajectory_reward(matched, len(expected), config.trajectory_mode)
    p_len = length_penalty(len(agent_calls), len(expected), config)
    p_fmt = format_penalty(format_errors, config)
    weight = config.checklist if checklist is not None else 0.0
    composite = config.alpha * r_traj + (1 - config.alpha) * r_state
    total = (1 - weight) * composite + weight * (checklist or 0.0) - p_len - p_fmt
    return RewardBreakdown(
        total=min(1.0, max(0.0, total)),
        trajectory=r_traj,
        state=r_state,
        length_penalty=p_len,
        format_penalty=p_fmt,
        matched_calls=matched,
        expected_calls=len(expected),
        agent_calls=len(agent_calls),
        checklist=checklist,
    )


def checklist_score(spec: EnvironmentSpec, task: Any, state: Any) -> float | None:
    """The pass fraction of a task's checks on a final state (`spec.checklist`), or None without checks."""
    return spec.checklist(task, state) if spec.checklist is not None else None
