"""One benchmark episode as stored in a run directory: who played which task, the reward, what it cost."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from ..prompts import FORMAT_ERROR_TOOL
from ..registry import resolve
from ..rollout import Trajectory, trajectory_record


def call_counts(messages: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    """(user turns, tool calls, failed tool calls, unparsable tool calls) of a conversation in the Env's
    message format: a tool result starting with `Error:` is a failed call; `format_error` results are calls the
    parser could not read."""
    turns = calls = errors = format_errors = 0
    for message in messages:
        if message["role"] == "user":
            turns += 1
        elif message["role"] == "tool":
            if message.get("name") == FORMAT_ERROR_TOOL:
                format_errors += 1
            else:
                calls += 1
                errors += str(message.get("content", "")).startswith("Error:")
    return turns, calls, errors, format_errors


@dataclass
class EpisodeRecord:
    """One episode of one agent (`model` or a baseline) on one task sample.

    `seconds` is the episode's wall time, `call_seconds` the latency of each answered model call (empty for the
    baselines and for records written before it was kept), `task_turns` the number of turns the task has (0 when
    unknown), to tell how far an episode got. `error_kind` says whose failure an `error` was
    (`envfactory_gym.rollout.trajectory.ErrorKind`); `error_counts` tallies them for a report.
    """

    agent: str
    env_id: str
    env: str
    domain: str
    task_id: str
    sample: int
    reward: float = 0.0
    components: dict[str, Any] = field(default_factory=dict)
    turn_rewards: list[float] = field(default_factory=list)
    steps: int = 0
    turns: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    format_errors: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    terminated: bool = False
    truncated: bool = False
    error: str | None = None
    error_transient: bool = True
    error_kind: str | None = None
    seconds: float = 0.0
    messages: list[dict[str, Any]] = field(default_factory=list)
    call_seconds: list[float] = field(default_factory=list)
    task_turns: int = 0

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What identifies the episode in a run: (agent, env id, task id, sample)."""
        return self.agent, self.env_id, self.task_id, self.sample

    @property
    def finished(self) -> bool:
        """Whether the episode is done for good: it ran to its end, the endpoint refused one of its requests (a
        failure of the model's, scored 0), or the environment raised (recorded, not played again in a loop).
        Episodes stopped by the endpoint or a timeout are played again on resume."""
        return self.error is None or not self.error_transient

    @property
    def solved(self) -> bool:
        """The task is done: every ground-truth call matched and the final state as expected (extra calls are
        allowed here; the reward's length penalty charges them)."""
        return self.error is None and self.components.get("trajectory") == 1.0 and self.components.get("state") == 1.0

    def with_counts(self) -> "EpisodeRecord":
        """Fill turns and call counts from the messages; returns self."""
        self.turns, self.tool_calls, self.tool_errors, self.format_errors = call_counts(self.messages)
        return self

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (one line of `episodes.jsonl`)."""
        return asdict(self)

    def trajectory_record(self) -> dict[str, Any]:
        """The episode in the one trajectory format (`envfactory_gym.rollout.trajectory_record`), with its agent
        and sample index: what SFT and RL exports of benchmark runs are built from."""
        return trajectory_record(
            resolve(self.env_id),
            self.task_id,
            self.messages,
            self.reward,
            self.components or None,
            agent=self.agent,
            sample=self.sample,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "EpisodeRecord":
        """Inverse of `as_dict`; unknown keys are ignored."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @classmethod
    def from_trajectory(
        cls,
        agent: str,
        env: str,
        domain: str,
        trajectory: Trajectory,
        call_seconds: list[float] | None = None,
        task_turns: int = 0,
    ) -> "EpisodeRecord":
        """The record of a rollout trajectory (with the latency of each model call, when timed)."""
        return cls(
            agent=agent,
            env_id=trajectory.env_id,
            env=env,
            domain=domain,
            task_id=trajectory.task_id,
            sample=trajectory.sample,
            reward=trajectory.reward,
            components=dict(trajectory.reward_components),
            turn_rewards=[float(t["total"]) for t in trajectory.turn_rewards],
            steps=trajectory.steps,
            requests=trajectory.usage["requests"],
            prompt_tokens=trajectory.usage["prompt_tokens"],
            completion_tokens=trajectory.usage["completion_tokens"],
            terminated=trajectory.terminated,
            truncated=trajectory.truncated,
            error=trajectory.error,
            error_transient=trajectory.error_transient,
            error_kind=trajectory.error_kind,
            seconds=trajectory.timings["total_s"],
            messages=trajectory.messages,
            call_seconds=list(call_seconds or []),
            task_turns=task_turns,
        ).with_counts()


def error_counts(records: Iterable[EpisodeRecord]) -> dict[str, int]:
    """How many episodes ended in each kind of error (`endpoint`, `timeout`, `refused`, `environment`); records
    stored before kinds were recorded count as `endpoint` when transient, else `refused`."""
    counts: Counter[str] = Counter()
    for record in records:
        if record.error is not None:
            counts[record.error_kind or ("endpoint" if record.error_transient else "refused")] += 1
    return dict(counts)
