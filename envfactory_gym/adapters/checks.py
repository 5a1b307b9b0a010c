"""What `envfactory import` learns by replaying an environment's ground truth, and records in its options.

- Reads that touch state: a tool taken for a read whose replay changes the compared state is tried as a write;
  when everything it changed is a cache-like field (`last_fetched`, `cached_price`, ...), those fields leave the
  compared state and the tool stays a read; otherwise it becomes a write. Formats whose own checker compares the
  whole state (BFCL's public attributes, tau2's DB hash) keep every field: such a tool becomes a write.
- Failing ground-truth calls: a call that fails in the replay fails in the original too (same code, same data);
  its error is recorded, and an agent call matches it by failing the same way. Failures the runtime adds (a refused
  network call, a read-only violation, an internal error) are reported as failing tasks instead.
- Determinism: every ground truth is replayed twice in fresh sessions; tasks whose replays differ are reported.
- A copy-on-write state is replayed against its plain-object reference; any difference switches the environment
  to the plain objects.
- Network use seen while replaying is reported (refused unless `--allow-network`).
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..execution import format_validation_error
from ..session import ToolSession
from ..spec import EnvironmentSpec
from ..state import CanonicalState
from ..tasks import Task, replay
from .build import ImportOptions

#: How many tasks the copy-on-write state is replayed against its plain-object reference (all when there are fewer;
#: else every distinct start state first, then tasks spread over the rest): each costs a full copy of the data.
REFERENCE_TASKS = 30
#: Error kinds the runtime adds (not the original's own failures).
RUNTIME_ERRORS = frozenset({"ReadOnlyViolation", "NetworkRefused", "unknown_tool", "user_only", "internal"})
CACHE_LIKE = re.compile(
    r"cache|cached|last_|_last|fetched|accessed|viewed|visited|seen|lookup|timestamp|_at$|hits|etag", re.I
)
Progress = Callable[[], None]


@dataclass
class ImportFindings:
    """What the replays showed about one environment."""

    behaviour: dict[str, str] = field(default_factory=dict)  # tool -> what its replay changed and what was decided
    behaviour_writes: set[str] = field(default_factory=set)
    cache_fields: set[str] = field(default_factory=set)
    expected_errors: dict[str, dict[str, str]] = field(default_factory=dict)
    failing: dict[str, str] = field(default_factory=dict)  # task -> first unexpected failure
    nondeterministic: dict[str, str] = field(default_factory=dict)  # task -> first difference between two replays
    reference_differences: dict[str, str] = field(default_factory=dict)  # task -> copy-on-write vs plain objects
    reference_checked: int = 0  # tasks replayed against the reference state
    network: list[str] = field(default_factory=list)

    def options(self, options: ImportOptions) -> ImportOptions:
        """`options` with what was decided."""
        return dataclasses.replace(
            options,
            behaviour_writes=tuple(sorted(set(options.behaviour_writes) | self.behaviour_writes)),
            cache_fields=tuple(sorted(set(options.cache_fields) | self.cache_fields)),
            expected_errors=self.expected_errors,
        )


def _outcomes(result: Any) -> list[tuple[Any, ...]]:
    return [
        (o.name, o.ok, o.error, json.dumps(o.output, sort_keys=True, default=str))
        for turn in result.outcomes
        for o in turn
    ]


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON-like values first differ (`table[key].field`)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(
                    a.get(key), b.get(key), f"{path}[{key}]" if not path or "[" not in path else f"{path}.{key}"
                )
        return path or "nothing"
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{index}]")
    return path or "the value"


def changed_fields(before: CanonicalState, after: CanonicalState) -> set[str]:
    """Names of the fields that differ between two dumps ("<row>" for a row that appeared or went away)."""
    names: set[str] = set()
    for table in set(before) | set(after):
        rows_before, rows_after = before.get(table, {}), after.get(table, {})
        for key in set(rows_before) | set(rows_after):
            if key not in rows_before or key not in rows_after:
                names.add("<row>")
            elif rows_before[key] != rows_after[key]:
                names |= _leaf_changes(rows_before[key], rows_after[key])
    return names


def _leaf_changes(a: Any, b: Any) -> set[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        found: set[str] = set()
        for key in set(a) | set(b):
            if a.get(key) != b.get(key):
                inner = _leaf_changes(a.get(key), b.get(key)) if isinstance(a.get(key), (dict, list)) else set()
                found |= inner or {str(key)}
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return set().union(*(_leaf_changes(x, y) for x, y in zip(a, b) if x != y))
    return set()


def _as_write(spec: EnvironmentSpec, tools: set[str]) -> EnvironmentSpec:
    replaced = {
        name: dataclasses.replace(tool, read_only=False) if name in tools else tool for name, tool in spec.tools.items()
    }
    return dataclasses.replace(spec, tools=replaced)


def read_behaviour(
    spec: EnvironmentSpec, tasks: dict[str, Task], first: dict[str, Any], findings: ImportFindings
) -> None:
    """Decide the reads whose replay changed the compared state (see the module docstring)."""
    suspects: dict[str, list[str]] = {}
    for task_id, result in first.items():
        for outcome in (o for turn in result.outcomes for o in turn):
            if outcome.error_kind == "ReadOnlyViolation":
                suspects.setdefault(outcome.name, []).append(task_id)
    if not suspects:
        return
    variant = _as_write(spec, set(suspects))
    for tool, task_ids in sorted(suspects.items()):
        changed: set[str] = set()
        for task_id in task_ids[:5]:
            changed |= _fields_changed_by(variant, tasks[task_id], tool)
        whole_state = spec.extra.get("full_state_checker", False)
        if changed and not whole_state and all(CACHE_LIKE.search(name) for name in changed):
            findings.cache_fields |= changed
            findings.behaviour[tool] = (
                f"read: its replay changes only cache-like fields {sorted(changed)}, left out of the compared state"
            )
        else:
            findings.behaviour_writes.add(tool)
            findings.behaviour[tool] = f"write: its replay changed {sorted(changed) or 'the state'}"


def _fields_changed_by(spec: EnvironmentSpec, task: Task, tool: str) -> set[str]:
    session = ToolSession(spec)
    try:
        session.reset(task.snapshot, task.clock)
        changed: set[str] = set()
        for turn in task.turns:
            for item in turn.calls:
                before = session.dump() if item.name == tool else None
                session.call(item.name, item.arguments, caller=item.caller)
                if before is not None:
                    changed |= changed_fields(before, session.dump())
        return changed
    finally:
        session.close()


def analyze(
    spec: EnvironmentSpec,
    tasks: dict[str, Task],
    advance: Progress = lambda: None,
    reload: Callable[[ImportOptions], EnvironmentSpec] | None = None,
    options: ImportOptions | None = None,
) -> tuple[EnvironmentSpec, ImportFindings]:
    """Replay every task (twice, in fresh sessions), decide reads by behaviour, record failing ground-truth calls and
    check the state against its reference; returns the spec to use and the findings. `advance` is called once per
    replay of a task."""
    findings = ImportFindings()
    first = {}
    for task_id, task in tasks.items():
        advance()
        first[task_id] = replay(spec, task)
    read_behaviour(spec, tasks, first, findings)
    if (findings.behaviour_writes or findings.cache_fields) and reload is not None and options is not None:
        spec = reload(findings.options(options))
        tasks = {task_id: task for task_id, task in _tasks_of(spec).items() if task_id in tasks}
        first = {task_id: replay(spec, task) for task_id, task in tasks.items()}
    for task_id, task in tasks.items():
        advance()
        second = replay(spec, task)
        result = first[task_id]
        if _outcomes(result) != _outcomes(second) or result.states != second.states:
            a, b = _outcomes(result), _outcomes(second)
            where = next((f"call {i} ({x[0]})" for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
            findings.nondeterministic[task_id] = where or (
                f"state {first_difference([s.full() for s in result.states], [s.full() for s in second.states])}"
            )
        _record_failures(task, result, findings)
    reference = getattr(spec.backend, "reference", None)
    if reference is not None:
        for task_id in reference_sample(tasks):
            advance()
            findings.reference_checked += 1
            difference = compare_with_reference(spec, reference, tasks[task_id], first[task_id])
            if difference:
                findings.reference_differences[task_id] = difference
    network = getattr(spec.backend, "network", None)
    findings.network = list(getattr(network, "attempts", []))
    return spec, findings


def reference_sample(tasks: dict[str, Task], size: int = REFERENCE_TASKS) -> list[str]:
    """The tasks replayed against the reference state: all of them, or `size` of them (one per distinct start state
    first, then spread evenly over the others)."""
    ids = list(tasks)
    if len(ids) <= size:
        return ids
    chosen = list(
        dict.fromkeys(
            next(i for i in ids if tasks[i].snapshot == s) for s in dict.fromkeys(t.snapshot for t in tasks.values())
        )
    )[:size]
    rest = [i for i in ids if i not in chosen]
    step = len(rest) / max(1, size - len(chosen))
    chosen += [rest[int(k * step)] for k in range(size - len(chosen))]
    return [i for i in ids if i in set(chosen)]


def _tasks_of(spec: EnvironmentSpec) -> dict[str, Task]:
    from ..tasks import load_tasks

    return load_tasks(spec)


def _record_failures(task: Task, result: Any, findings: ImportFindings) -> None:
    errors: dict[str, str] = {}
    for t_index, (turn, outcomes) in enumerate(zip(task.turns, result.outcomes)):
        for c_index, (item, outcome) in enumerate(zip(turn.calls, outcomes)):
            if outcome.ok:
                continue
            if outcome.error_kind in RUNTIME_ERRORS:
                findings.failing.setdefault(task.id, f"{item.name}: {outcome.error}")
            else:
                errors[f"{t_index}.{c_index}"] = outcome.error or ""
    if errors:
        findings.expected_errors[task.id] = errors


def compare_with_reference(spec: EnvironmentSpec, reference: Any, task: Task, ours: Any) -> str:
    """Replay a task on the plain-object reference state; where it differs from our replay (or "")."""
    from ..database import SimClock

    state = reference.create()
    clock = SimClock()
    try:
        state.restore(_reference_snapshot(reference, spec, task.snapshot))
        clock.reset(task.clock)
        handle = reference.handle(state, clock)
        index = 0
        ours_flat = [o for turn in ours.outcomes for o in turn]
        for item in (c for turn in task.turns for c in turn.calls):
            tool = spec.tools[item.name]
            mine = ours_flat[index]
            index += 1
            try:
                kwargs = tool.input_model.model_validate(item.arguments)
            except Exception as exc:  # both sides refuse the same arguments the same way
                if mine.ok:
                    return f"call {index - 1} ({item.name}): {format_validation_error(exc)}"  # type: ignore[arg-type]
                continue
            arguments = {name: getattr(kwargs, name) for name in tool.input_model.model_fields}
            try:
                output = tool.func(handle, **arguments)
                text, ok = json.dumps(output, sort_keys=True, default=str), True
            except Exception as exc:  # noqa: BLE001 - external code's own failure
                text, ok = f"{getattr(exc, 'kind', type(exc).__name__)}: {exc}", False
            clock.advance()
            if (
                ok != mine.ok
                or (ok and text != json.dumps(mine.output, sort_keys=True, default=str))
                or (not ok and text != mine.error)
            ):
                return f"call {index - 1} ({item.name}) answered differently"
        final, expected = state.dump(), ours.final.full()
        if final != expected:
            return f"final state differs at {first_difference(expected, final)}"
        return ""
    finally:
        state.close()


_REFERENCE_SNAPSHOTS: dict[tuple[int, str], bytes] = {}


def _reference_snapshot(reference: Any, spec: EnvironmentSpec, name: str) -> bytes:
    key = (id(reference), name)
    if key not in _REFERENCE_SNAPSHOTS:
        _REFERENCE_SNAPSHOTS[key] = reference.snapshot(spec.snapshot_path(name))
    return _REFERENCE_SNAPSHOTS[key]
