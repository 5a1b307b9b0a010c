"""What a rollout returns: one `Trajectory` per episode, and the task references it is asked to play."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Union

from ..registry import resolve
from ..spec import EnvironmentSpec
from ..tasks import load_tasks


@dataclass(frozen=True)
class TaskRef:
    """One task of one environment; `env` is the gymnasium id (`envfactory/Notion-v0`)."""

    env: str
    task_id: str


TaskLike = Union[TaskRef, tuple[str, str], str]


def expand_tasks(tasks: Iterable[TaskLike]) -> list[TaskRef]:
    """Normalize a rollout's task list: an environment name stands for all its tasks (sorted by id); a pair
    `(env, task_id)` or a `TaskRef` for that task. Unknown environments or tasks raise `KeyError`."""
    refs: list[TaskRef] = []
    specs: dict[str, EnvironmentSpec] = {}
    for item in tasks:
        name = item if isinstance(item, str) else item.env if isinstance(item, TaskRef) else item[0]
        if name not in specs:
            specs[name] = resolve(name)
        spec = specs[name]
        if isinstance(item, str):
            refs.extend(TaskRef(spec.env_id, task_id) for task_id in sorted(load_tasks(spec)))
            continue
        task_id = item.task_id if isinstance(item, TaskRef) else item[1]
        if task_id not in load_tasks(spec):
            raise KeyError(f"unknown task {task_id!r} for {spec.env_id}")
        refs.append(TaskRef(spec.env_id, task_id))
    return refs


@dataclass
class Trajectory:
    """One episode: the conversation, the reward and its components, and where the time went.

    `group` is the index of the task in the rollout's task list and `sample` the index within its group
    (`group_size` samples of one task, each from the task's snapshot). `final_state_digest` is the SHA-256 of the
    final canonical database state, when the rollout asked for it (`digest_state=True`). `error` is set (and
    `reward` stays 0) when the episode timed out or the policy or the environment raised; `messages` then hold the
    conversation up to that point; `error_transient` is False when the policy's endpoint refused a request outright
    (e.g. a prompt beyond its context window: playing the episode again gives the same). `usage` counts the policy's
    requests and the tokens it reported.
    """

    env_id: str
    task_id: str
    group: int
    sample: int
    messages: list[dict[str, Any]] = field(default_factory=list)
    reward: float = 0.0
    reward_components: dict[str, float | int] = field(default_factory=dict)
    turn_rewards: list[dict[str, float | int]] = field(default_factory=list)
    steps: int = 0
    terminated: bool = False
    truncated: bool = False
    final_state_digest: str | None = None
    timings: dict[str, float] = field(default_factory=lambda: {"policy_s": 0.0, "env_s": 0.0, "total_s": 0.0})
    usage: dict[str, int] = field(default_factory=lambda: {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0})
    error: str | None = None
    error_transient: bool = True

    @property
    def ok(self) -> bool:
        """Whether the episode ran to its end (terminated or truncated) without error."""
        return self.error is None and (self.terminated or self.truncated)

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-serializable dict."""
        return asdict(self)
