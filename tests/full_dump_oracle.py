"""The reward as it was computed before scoring went incremental: every state a full canonical dump. Tests run
an episode through the Env and this oracle side by side and require identical turn and episode scores.

It shares nothing with the incremental path but `reward.score` over full dumps (no change log, no deltas, no
cached replays, no checkpoints), so a row the change log missed or a wrong shortcut shows up as a difference.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from envfactory_gym import ToolUseEnv
from envfactory_gym.reward import RewardBreakdown, checklist_score, score
from envfactory_gym.session import ToolSession, snapshot_bytes
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import Task, replay_calls

_DUMPS: dict[tuple[int, bytes], CanonicalState] = {}


def full_dump(session: ToolSession, snapshot: bytes | None = None) -> CanonicalState:
    """The session's full canonical dump (`snapshot`: its database's bytes, if the caller has them). Byte-identical
    databases share one dump (serializing and hashing cost far less than dumping, and episodes revisit states
    often: the snapshot, a state no call changed)."""
    key = (id(session.spec), hashlib.sha1(session.state.snapshot() if snapshot is None else snapshot).digest())
    if key not in _DUMPS:
        if len(_DUMPS) >= 256:
            _DUMPS.clear()
        _DUMPS[key] = session.dump()
    return _DUMPS[key]


_SCRATCH: dict[int, ToolSession] = {}
_TURN_STATES: dict[tuple, tuple[CanonicalState, CanonicalState]] = {}


def _scratch(spec: EnvironmentSpec) -> ToolSession:
    """The oracle's own spare session of `spec` (restored before each use), kept for the worker's life."""
    if id(spec) not in _SCRATCH:
        _SCRATCH[id(spec)] = ToolSession(spec)
    return _SCRATCH[id(spec)]


@dataclass
class FullReplay:
    """The task's ground truth replayed with a full dump after every turn, and the baseline's full dump."""

    states: list[CanonicalState]
    baseline: CanonicalState

    @classmethod
    def of(cls, spec: EnvironmentSpec, task: Task) -> "FullReplay":
        session = ToolSession(spec)
        try:
            session.restore_bytes(snapshot_bytes(spec, task.snapshot), task.clock)
            states = [full_dump(session)]
            for turn in task.turns:
                replay_calls(session, turn.calls)
                states.append(full_dump(session))
            session.restore_bytes(snapshot_bytes(spec, task.snapshot), task.clock)
            replay_calls(session, [c for turn in task.turns for c in turn.user_calls])
            return cls(states, full_dump(session))
        finally:
            session.close()


@dataclass
class Oracle:
    """Follows one episode of `env` and scores it from full dumps. Call `before_step(action)` before each step and
    `after_step(info)` after it; `turn_scores` and `episode` collect the oracle's results."""

    env: ToolUseEnv
    expected: FullReplay
    turn_scores: list[RewardBreakdown] = field(default_factory=list)
    episode: RewardBreakdown | None = None
    _start: tuple[bytes, datetime] | None = None
    _next_start: tuple[bytes, datetime] | None = None
    _ends_turn: bool = False
    _final: CanonicalState = field(default_factory=dict)

    def __post_init__(self) -> None:
        task = self.env.task
        assert task is not None
        self._start = (snapshot_bytes(self.env.spec_env, task.snapshot), task.clock)

    def before_step(self, action: str) -> None:
        """Remember the live state before an action that ends the turn (the next turn starts from it)."""
        self._ends_turn = isinstance(action, str) and self.env.parser.parse(action).ends_turn
        if self._ends_turn:  # a message changes no state: this is where the turn ends and the next one starts
            live = self.env.session.state.snapshot()
            self._final = full_dump(self.env.session, live)
            self._next_start = (live, self.env.session.clock.now())
            self._turn_calls_from = self.env._turn_start.first_call
            self._turn, self._turn_index = self.env._turn, self.env._turn_index

    def after_step(self, info: dict[str, Any], done: bool) -> None:
        """Score what the step ended, from full dumps."""
        if self._ends_turn:
            self.turn_scores.append(self._turn_score(self._final))
            self._start = self._next_start
        if done:
            self.episode = self._episode_score(self._final if self._ends_turn else full_dump(self.env.session))

    def _turn_score(self, final: CanonicalState) -> RewardBreakdown:
        spec = self.env.spec_env
        initial, expected = self._turn_states()
        calls = self.env._calls[self._turn_calls_from :]
        return score(spec, calls, self._turn.agent_calls, initial, final, expected, 0, self.env.reward_config)

    def _turn_states(self) -> tuple[CanonicalState, CanonicalState]:
        """The turn's initial and expected states from full dumps: its user and ground-truth calls replayed from
        the state the turn started in. Episodes of one task often start a turn in the same state (the ground truth
        and the wandering agent always do), so results are kept by (task, turn, database bytes, clock)."""
        spec, task = self.env.spec_env, self.env.task
        assert task is not None and self._start is not None
        key = (id(spec), task.id, self._turn_index, hashlib.sha1(self._start[0]).digest(), self._start[1])
        if key in _TURN_STATES:
            return _TURN_STATES[key]
        scratch = _scratch(spec)
        scratch.restore_bytes(*self._start)
        replay_calls(scratch, self._turn.user_calls)
        initial = full_dump(scratch)
        if all(o.ok for o in replay_calls(scratch, self._turn.agent_calls)):
            expected = full_dump(scratch)
        else:
            index = min(self._turn_index, len(self.expected.states) - 2)
            initial, expected = self.expected.states[index], self.expected.states[index + 1]
        if len(_TURN_STATES) >= 256:
            _TURN_STATES.clear()
        _TURN_STATES[key] = initial, expected
        return initial, expected

    def _episode_score(self, final: CanonicalState) -> RewardBreakdown:
        env, task = self.env, self.env.task
        assert task is not None
        return score(
            env.spec_env,
            env._calls,
            task.agent_calls,
            self.expected.baseline,
            final,
            self.expected.states[-1],
            env._format_errors,
            env.reward_config,
            checklist_score(env.spec_env, task, env.session.state),
        )
