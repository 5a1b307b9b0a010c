"""Scores of a live episode: the whole episode against the task's expected replay, and each finished turn
against that turn's own ground truth played from the state the turn started in.

On SQLite state both read only the rows that the agent or the ground truth changed (the change log), so their
cost follows what changed, not the size of the database. A turn that began exactly where the expected replay
began it (same rows, counters and clock) takes its expected states from the replay; any other turn replays its
ground truth on a spare session. States that cannot track changes are dumped whole.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Sequence, cast

from .delta import EMPTY, SnapshotRows, StateDelta
from .reward import CallRecord, RewardBreakdown, RewardConfig, checklist_score, compose, score, state_reward
from .session import ToolSession, snapshot_bytes, snapshot_rows
from .spec import EnvironmentSpec
from .state import CanonicalState, ChangeTracking, SQLiteState, tracks_changes
from .tasks import Replay, Task, Turn, replay_calls

_scratch = threading.local()


def scratch_session(spec: EnvironmentSpec) -> ToolSession:
    """A per-thread spare session of `spec`, used to replay one turn's ground truth for turn-level scores."""
    sessions: dict[int, ToolSession] = _scratch.__dict__.setdefault("sessions", {})
    if id(spec) not in sessions:
        sessions[id(spec)] = ToolSession(spec)
    return sessions[id(spec)]


def on_expected_path(session: ToolSession, task: Task, expected: Replay, turn_index: int, turn: Turn) -> bool:
    """Whether `session`, about to begin turn `turn_index` with `turn`, is exactly where the expected replay began
    that turn of `task` (so the replay's states for the turn are the ones its ground truth would reach)."""
    if expected.checkpoints is None or turn_index >= len(task.turns) or session.snapshot != task.snapshot:
        return False
    base = snapshot_rows(session.spec, task.snapshot)
    return (
        isinstance(session.state, SQLiteState)
        and tracks_changes(session.state)
        and isinstance(base, SnapshotRows)
        and turn.calls == task.turns[turn_index].calls
        and expected.checkpoints[turn_index].matches(session.state, session.clock.now(), base)
    )


@dataclass(frozen=True)
class TurnStart:
    """Where a turn began: the state before its user calls (None: the task's snapshot, or not needed because the
    turn began on the expected path), the clock then, the live change-log position after the user calls (None
    without change tracking), the index of the turn's first call and whether it began on the expected path."""

    data: bytes | None
    clock: datetime
    mark: int | None
    first_call: int
    on_path: bool

    @classmethod
    def capture(
        cls, session: ToolSession, task: Task, expected: Replay, turn_index: int, turn: Turn, first_call: int
    ) -> "TurnStart":
        """Record the start of a turn before its user calls run."""
        on_path = on_expected_path(session, task, expected, turn_index, turn)
        data = None if on_path or turn_index == 0 else session.state.snapshot()
        return cls(data, session.clock.now(), None, first_call, on_path)

    def after_user_calls(self, session: ToolSession) -> "TurnStart":
        """The same start with the live change-log position once the turn's user calls have run."""
        mark = cast(ChangeTracking, session.state).mark() if tracks_changes(session.state) else None
        return TurnStart(self.data, self.clock, mark, self.first_call, self.on_path)


class EpisodeScore:
    """The composite reward of one episode so far: its calls against all of the task's ground truth, its state
    against the expected final state (from the baseline where the agent does nothing). Cheap to ask after every
    step: the state part (and a checklist) is recomputed only when the change log says the state moved."""

    def __init__(
        self, spec: EnvironmentSpec, task: Task, expected: Replay, session: ToolSession, config: RewardConfig
    ) -> None:
        self.spec, self.task, self.expected, self.session, self.config = spec, task, expected, session, config
        self._state_key: object = None
        self._state_parts: tuple[float, float | None] = (0.0, None)
        self._last: tuple[tuple[object, ...], RewardBreakdown] | None = None

    def __call__(self, calls: Sequence[CallRecord], format_errors: int) -> RewardBreakdown:
        """The breakdown if the episode stopped now."""
        state = self.session.state
        key: object = None
        if isinstance(state, SQLiteState):
            key = state.change_count()
        elif tracks_changes(state):
            key = cast(ChangeTracking, state).mark()  # cast: checked just above
        if key is None or key != self._state_key:
            r_state = state_reward(self.expected.baseline, self.session.delta(), self.expected.final)
            self._state_parts = (r_state, checklist_score(self.spec, self.task, state))
            self._state_key = key
        # A step that made no call and left the state alone (a turn-ending message) gets the last breakdown again.
        at = (key, len(calls), id(calls[-1]) if calls else None, format_errors)
        if key is not None and self._last is not None and self._last[0] == at:
            return self._last[1]
        r_state, checklist = self._state_parts
        breakdown = compose(self.spec, calls, self.task.agent_calls, r_state, format_errors, self.config, checklist)
        self._last = (at, breakdown)
        return breakdown


States = tuple[CanonicalState | StateDelta, CanonicalState | StateDelta, CanonicalState | StateDelta]


def turn_score(
    spec: EnvironmentSpec,
    task: Task,
    expected: Replay,
    session: ToolSession,
    turn: Turn,
    turn_index: int,
    start: TurnStart,
    calls: Sequence[CallRecord],
    config: RewardConfig,
) -> RewardBreakdown:
    """Score of one turn: its calls against that turn's ground truth, its state against where that ground truth
    leads from the turn's start. If the ground truth does not apply there (the agent's earlier turns went
    elsewhere), the ideal path's states before and after the turn are used instead."""
    states: States | None
    if start.on_path and expected.after_user_calls is not None:
        states = (expected.after_user_calls[turn_index], session.delta(), expected.states[turn_index + 1])
    else:
        states = _replayed_turn(spec, task, session, turn, start)
    if states is None:
        index = min(turn_index, len(expected.states) - 2)  # an LLM user may add turns
        states = (expected.states[index], session.delta(), expected.states[index + 1])
    initial, final, wanted = states
    return score(spec, calls[start.first_call :], turn.agent_calls, initial, final, wanted, 0, config)


def _replayed_turn(
    spec: EnvironmentSpec, task: Task, session: ToolSession, turn: Turn, start: TurnStart
) -> States | None:
    """(initial, final, expected) with the turn's ground truth replayed on a spare session restored to the turn's
    start, or None when it fails there. With change tracking, only the rows that the agent's turn or the ground
    truth changed are read: the ground truth runs in a trial that is undone, so the spare session is back at the
    turn's start to read the initial rows."""
    scratch = scratch_session(spec)
    scratch.restore_bytes(start.data or snapshot_bytes(spec, task.snapshot), start.clock)
    replay_calls(scratch, turn.user_calls)
    live, spare = session.state, scratch.state
    if (
        start.mark is None
        or not (isinstance(live, SQLiteState) and isinstance(spare, SQLiteState))
        or not tracks_changes(spare)
    ):
        initial = scratch.dump()
        applied = all(o.ok for o in replay_calls(scratch, turn.agent_calls))
        return (initial, session.dump(), scratch.dump()) if applied else None
    live_changed = live.changed_since(start.mark)
    spare_mark = spare.mark()
    with spare.trial():
        if not all(o.ok for o in replay_calls(scratch, turn.agent_calls)):
            return None
        keys = {**live_changed, **spare.changed_since(spare_mark)}
        wanted = spare.rows(keys)
    return StateDelta(EMPTY, spare.rows(keys)), StateDelta(EMPTY, live.rows(keys)), StateDelta(EMPTY, wanted)
