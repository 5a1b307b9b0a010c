"""Tasks: the multi-turn task model, loading and validation, and ground-truth replay (the expected states)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .delta import Checkpoint, StateDelta
from .errors import DataFileError
from .execution import ToolOutcome, format_validation_error
from .session import DEFAULT_SNAPSHOT, ToolSession
from .spec import EnvironmentSpec
from .state import SQLiteState, tracks_changes

#: The most ground-truth calls one turn may hold (the user's own calls included).
MAX_CALLS_PER_TURN = 6


class GroundTruthCall(BaseModel):
    """One expected tool call; arguments named in `masked` may take any value. `expected_error`: the call fails in
    the original environment too (recorded at import), with this error text; an agent call matches it by failing
    the same way."""

    model_config = ConfigDict(extra="forbid")
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    masked: list[str] = Field(default_factory=list)
    caller: Literal["agent", "user"] = "agent"
    expected_error: str | None = None


class Turn(BaseModel):
    """One user request and the calls that fulfil it. `new_tools` become available at this turn (hidden from the
    agent before it); `expect_no_call`: the right answer to this request is to make no call (the request cannot be
    served yet, or the agent must ask for something first)."""

    model_config = ConfigDict(extra="forbid")
    query: str
    calls: list[GroundTruthCall] = Field(default_factory=list)
    new_tools: list[str] = Field(default_factory=list)
    expect_no_call: bool = False

    @field_validator("calls")
    @classmethod
    def _at_most_six(cls, calls: list[GroundTruthCall]) -> list[GroundTruthCall]:
        if len(calls) > MAX_CALLS_PER_TURN:
            raise ValueError(f"a turn holds at most {MAX_CALLS_PER_TURN} ground-truth calls")
        callers = [c.caller for c in calls]
        if callers != sorted(callers, key=lambda c: c != "user"):
            raise ValueError("user calls (performed by the user before asking) come first in a turn")
        return calls

    @property
    def agent_calls(self) -> list[GroundTruthCall]:
        """The calls the agent is expected to make."""
        return [c for c in self.calls if c.caller == "agent"]

    @property
    def user_calls(self) -> list[GroundTruthCall]:
        """Calls the user performs before asking (user-only tools such as login)."""
        return [c for c in self.calls if c.caller == "user"]


class UserPersona(BaseModel):
    """Who the simulated user is and what they want."""

    name: str = ""
    profile: str = ""
    scenario: str = ""
    known: dict[str, Any] = Field(default_factory=dict)

    def known_values(self) -> set[str]:
        """Every text value the user knows (`known`, nested lists and dicts included): a reservation number or a
        promo code here is the user's own, so reciting it is no leak of an internal id."""
        found: set[str] = set()
        pending: list[Any] = [self.known]
        while pending:
            value = pending.pop()
            if isinstance(value, dict):
                pending.extend(value.values())
            elif isinstance(value, list):
                pending.extend(value)
            elif isinstance(value, str):
                found.add(value)
        return found


class Task(BaseModel):
    """A multi-turn conversation plan with verified ground truth (method.md section 1)."""

    model_config = ConfigDict(extra="forbid")
    id: str
    snapshot: str = DEFAULT_SNAPSHOT
    clock: datetime = datetime(2025, 1, 15, 9, 0, tzinfo=timezone.utc)
    user: UserPersona = Field(default_factory=UserPersona)
    turns: list[Turn] = Field(min_length=1)
    provenance: dict[str, Any] = Field(default_factory=dict)

    @property
    def calls(self) -> list[GroundTruthCall]:
        """All ground-truth calls in order."""
        return [call for turn in self.turns for call in turn.calls]

    @property
    def agent_calls(self) -> list[GroundTruthCall]:
        """All calls the agent is expected to make, in order."""
        return [call for turn in self.turns for call in turn.agent_calls]

    def changes_state(self, spec: EnvironmentSpec) -> bool:
        """Whether the agent's ground truth holds a write (the user's own calls do not count)."""
        return any(not spec.tools[c.name].read_only for c in self.agent_calls)

    def hidden_tools(self, turn: int) -> frozenset[str]:
        """Tools the agent cannot see or call yet at `turn` (they arrive with a later turn's `new_tools`)."""
        return frozenset(name for later in self.turns[turn + 1 :] for name in later.new_tools)


def vary_masked(spec: EnvironmentSpec, call: GroundTruthCall) -> GroundTruthCall:
    """The call with each masked argument given another valid value: dropped to its default when it has one,
    else (free text without an enum, format or pattern) changed. A correct mask survives this unnoticed."""
    varied = call.model_copy(deep=True)
    tool = spec.tools[call.name]
    properties = tool.input_schema["properties"]
    for name in call.masked:
        if name not in varied.arguments:
            continue
        if not tool.input_model.model_fields[name].is_required():
            del varied.arguments[name]
        elif isinstance(varied.arguments[name], str) and not set(properties[name]) & {"enum", "format", "pattern"}:
            varied.arguments[name] += " x"
    return varied


@lru_cache(maxsize=None)
def load_tasks(spec: EnvironmentSpec) -> dict[str, Task]:
    """All tasks of an environment by id, validated against the model and the environment's tools. Raises
    `DataFileError` naming the file, the line and what is wrong with it."""
    tasks: dict[str, Task] = {}
    path = spec.tasks_path
    if not path.exists():
        return tasks
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: cannot be read ({exc})") from None
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        task = _task_of_line(spec, line, f"{path}:{line_no}")
        if task.id in tasks:
            raise DataFileError(f"{path}:{line_no}: duplicate task id {task.id!r}")
        tasks[task.id] = task
    return tasks


def _task_of_line(spec: EnvironmentSpec, line: str, where: str) -> Task:
    """One line of tasks.jsonl as a checked Task; `where` (file:line) starts every error message."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{where}: not valid JSON ({exc.msg}, column {exc.colno})") from None
    if not isinstance(data, dict):
        raise DataFileError(f"{where}: a task is a JSON object, not {type(data).__name__}")
    named = f"task {data['id']}: " if isinstance(data.get("id"), str) else ""
    try:
        task = Task.model_validate(data)
    except ValidationError as exc:
        raise DataFileError(f"{where}: {named}{format_validation_error(exc, limit=3)}") from None
    for name in (n for turn in task.turns for n in turn.new_tools):
        if name not in spec.tools:
            raise DataFileError(f"{where}: task {task.id} adds unknown tool {name!r}")
    for call in task.calls:
        if call.name not in spec.tools:
            raise DataFileError(f"{where}: task {task.id} calls unknown tool {call.name!r}")
        unknown_masks = set(call.masked) - set(spec.tools[call.name].input_model.model_fields)
        if unknown_masks:
            raise DataFileError(f"{where}: task {task.id}: masked arguments {sorted(unknown_masks)} not in {call.name}")
    if not spec.snapshot_path(task.snapshot).exists():
        raise DataFileError(f"{where}: task {task.id}: snapshot {task.snapshot!r} not found")
    return task


@dataclass(frozen=True)
class Replay:
    """Ground truth executed on the task's snapshot: outcomes per turn and the state before/after each turn, as
    deltas over the snapshot (only the rows the ground truth changed are held).

    On SQLite state it also keeps, per turn, the exact checkpoint where the turn began and the state after the
    turn's user calls: a live episode found at that checkpoint scores the turn from these states, no replay
    needed."""

    outcomes: list[list[ToolOutcome]]
    states: list[StateDelta]  # states[0] initial, states[t + 1] after turn t
    baseline: StateDelta  # the final state if the agent does nothing (only the user's own calls run)
    checkpoints: list[Checkpoint] | None = None  # checkpoints[t]: exactly where turn t began
    after_user_calls: list[StateDelta] | None = None  # after_user_calls[t]: turn t's start once its user calls ran

    @property
    def initial(self) -> StateDelta:
        """State before the first turn."""
        return self.states[0]

    @property
    def final(self) -> StateDelta:
        """Expected final state."""
        return self.states[-1]

    @property
    def failures(self) -> list[ToolOutcome]:
        """Ground-truth calls that failed (a valid task has none)."""
        return [o for turn in self.outcomes for o in turn if not o.ok]


def replay_calls(session: ToolSession, calls: list[GroundTruthCall]) -> list[ToolOutcome]:
    """Execute ground-truth calls in a session, each as its declared caller."""
    return [session.call(c.name, c.arguments, caller=c.caller) for c in calls]


def replay(spec: EnvironmentSpec, task: Task) -> Replay:
    """Replay a task's ground truth on a fresh session (uncached)."""
    session = ToolSession(spec)
    try:
        session.reset(task.snapshot, task.clock)
        tracking = isinstance(session.state, SQLiteState) and tracks_changes(session.state)
        states = [session.delta()]
        outcomes: list[list[ToolOutcome]] = []
        checkpoints: list[Checkpoint] = []
        after_user_calls: list[StateDelta] = []
        for turn in task.turns:
            if tracking:
                checkpoints.append(Checkpoint.capture(session.state, session.clock.now()))  # type: ignore[arg-type]
            outcome = replay_calls(session, turn.user_calls)
            after_user_calls.append(session.delta() if turn.user_calls else states[-1])
            outcomes.append(outcome + replay_calls(session, turn.agent_calls))
            states.append(session.delta())
        session.reset(task.snapshot, task.clock)
        replay_calls(session, [c for turn in task.turns for c in turn.user_calls])
        return Replay(outcomes, states, session.delta(), checkpoints if tracking else None, after_user_calls)
    finally:
        session.close()


_REPLAY_LOCK = threading.Lock()
_REPLAYS: dict[tuple[int, str], Replay] = {}


def expected_replay(spec: EnvironmentSpec, task: Task) -> Replay:
    """The task's replay, computed once per process and cached (the reward's expected states). Its states hold
    only the rows the ground truth changed, over the snapshot's shared row source. A process's first request
    reads the on-disk replay cache (`replay_cache`), which replays only when it holds no valid copy."""
    # imported here: the cache module builds on this one
    from .replay_cache import cached_replay

    key = (id(spec), task.id)
    cached = _REPLAYS.get(key)
    if cached is None:
        fresh = cached_replay(spec, task)
        with _REPLAY_LOCK:
            cached = _REPLAYS.setdefault(key, fresh)
    return cached
