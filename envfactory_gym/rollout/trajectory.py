"""What a rollout returns: one `Trajectory` per episode, the task references it is asked to play, and the one
trajectory format every export uses (`trajectory_record`).

The format: OpenAI chat `messages` (the system prompt without its text listing of the tools, assistant
`tool_calls` with JSON-string arguments and ids that the `tool` messages answering them carry), `tools` (the
OpenAI function schemas, a list), `env` (zoo key), `env_version`, `env_hash` (the environment's content hash,
`envfactory_gym.versioning`, None for one built in memory), `task_id`, `reward` and `reward_components`
(None before the episode is played). The env's reports of tool calls it could not parse answer no call, so they
are `user` messages named `format_error`. Renderers in `training/` turn a record into each trainer's form.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Literal, Union

from ..errors import UnknownName
from ..prompts import FORMAT_ERROR_TOOL, without_tool_listing
from ..registry import resolve
from ..replay_cache import content_hash
from ..spec import EnvironmentSpec
from ..splits import Split, split_task_ids
from ..suggest import did_you_mean
from ..tasks import load_tasks

Record = dict[str, Any]
RECORD_KEYS = ("messages", "tools", "env", "env_version", "env_hash", "task_id", "reward", "reward_components")
_MESSAGE_KEYS = ("role", "content", "name", "tool_call_id", "tool_calls")


@dataclass(frozen=True)
class TaskRef:
    """One task of one environment; `env` is the gymnasium id (`envfactory/Notion-v0`)."""

    env: str
    task_id: str


TaskLike = Union[TaskRef, tuple[str, str], str]

#: Whose failure cut an episode short: the policy's endpoint (`endpoint`: connection, timeout, 5xx, overload;
#: `timeout`: the episode ran past its limit), both worth playing again; a request the endpoint refused
#: (`refused`: the model's failure, scored 0); or the environment, which raised (`environment`: a bug).
ErrorKind = Literal["endpoint", "timeout", "refused", "environment"]


def expand_tasks(tasks: Iterable[TaskLike], split: Split | Literal["all"] = "all") -> list[TaskRef]:
    """Normalize a rollout's task list: an environment name stands for its tasks of `split` (sorted by id: the
    stored "train" or "test" split, or "all"); a pair `(env, task_id)` or a `TaskRef` for that task (a task
    outside `split` is played, with a warning). Unknown environments or tasks raise `KeyError`."""
    refs: list[TaskRef] = []
    specs: dict[str, EnvironmentSpec] = {}
    outside: list[str] = []
    for item in tasks:
        name = item if isinstance(item, str) else item.env if isinstance(item, TaskRef) else item[0]
        if name not in specs:
            specs[name] = resolve(name)
        spec = specs[name]
        chosen = sorted(load_tasks(spec)) if split == "all" else split_task_ids(spec, split)
        if isinstance(item, str):
            refs.extend(TaskRef(spec.env_id, task_id) for task_id in chosen)
            continue
        task_id = item.task_id if isinstance(item, TaskRef) else item[1]
        if task_id not in load_tasks(spec):
            raise UnknownName(f"{spec.env_id} has no task {task_id!r}{did_you_mean(task_id, load_tasks(spec))}")
        if task_id not in chosen:
            outside.append(task_id)
        refs.append(TaskRef(spec.env_id, task_id))
    if outside:
        warnings.warn(
            f"tasks outside the {split} split: {sorted(outside)[:5]}{' ...' if len(outside) > 5 else ''}", stacklevel=2
        )
    return refs


@dataclass
class Trajectory:
    """One episode: the conversation, the reward and its components, and where the time went.

    `group` is the index of the task in the rollout's task list and `sample` the index within its group
    (`group_size` samples of one task, each from the task's snapshot). `final_state_digest` is the SHA-256 of the
    final canonical database state, when the rollout asked for it (`digest_state=True`). `error` is set (and
    `reward` stays 0) when the episode timed out or the policy or the environment raised; `messages` then hold the
    conversation up to that point. `error_kind` says whose failure it was (`ErrorKind`); `error_transient` is
    False when playing the episode again would give the same: the endpoint refused a request outright (e.g. a
    prompt beyond its context window) or the environment raised (its traceback in `error_traceback`). `usage`
    counts the policy's requests and the tokens it reported.
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
    error_kind: ErrorKind | None = None
    error_traceback: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the episode ran to its end (terminated or truncated) without error."""
        return self.error is None and (self.terminated or self.truncated)

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-serializable dict."""
        return asdict(self)

    def record(self) -> Record:
        """The episode in the one trajectory format (see the module docstring), with its `sample` index."""
        return trajectory_record(
            resolve(self.env_id),
            self.task_id,
            self.messages,
            self.reward,
            self.reward_components or None,
            sample=self.sample,
        )


def chat_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The env's messages in the trajectory format: the system prompt without its tool listing (the schemas
    travel as `tools`), only the OpenAI message fields, and results that answer no tool call (the env's reports
    of unparsable calls) as `user` messages named `format_error`."""
    out: list[dict[str, Any]] = []
    asked: set[str] = set()
    for message in messages:
        role = message["role"]
        if role == "system":
            out.append({"role": "system", "content": without_tool_listing(message["content"])})
        elif role == "tool" and message.get("tool_call_id") not in asked:
            out.append(
                {"role": "user", "name": message.get("name") or FORMAT_ERROR_TOOL, "content": message["content"]}
            )
        else:
            asked.update(call["id"] for call in message.get("tool_calls") or [])
            out.append({k: message.get(k) for k in _MESSAGE_KEYS if message.get(k) is not None or k == "content"})
    return out


def trajectory_record(
    spec: EnvironmentSpec,
    task_id: str,
    messages: list[dict[str, Any]],
    reward: float | None = None,
    reward_components: dict[str, Any] | None = None,
    **extra: Any,
) -> Record:
    """One trajectory (or prompt, with no reward yet) of `spec`'s task in the trajectory format; `messages` are
    the env's (`info["messages"]`). `extra` fields (e.g. `sample`, `turn`) are added as they are."""
    record: Record = {
        "messages": chat_messages(messages),
        "tools": [json.loads(json.dumps(t)) for t in spec.openai_tools],
        "env": spec.key,
        "env_version": spec.version,
        "env_hash": content_hash(spec.folder),
        "task_id": task_id,
        "reward": None if reward is None else float(reward),
        "reward_components": None if reward_components is None else dict(reward_components),
    }
    record.update(extra)
    return record


def validate_record(record: Record) -> None:
    """Raise `ValueError` naming the field and message position where `record` leaves the trajectory format."""
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise ValueError(f"trajectory record lacks {missing}")
    if not isinstance(record["tools"], list) or not all(
        isinstance(t, dict) and t.get("type") == "function" and t.get("function", {}).get("name")
        for t in record["tools"]
    ):
        raise ValueError("tools: must be a list of OpenAI function schemas ({'type': 'function', 'function': {...}})")
    names = {t["function"]["name"] for t in record["tools"]}
    defined: set[str] = set()
    for position, message in enumerate(record["messages"]):
        where = f"messages[{position}]"
        if message.get("role") not in ("system", "user", "assistant", "tool"):
            raise ValueError(f"{where}: unknown role {message.get('role')!r}")
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            if call.get("type") != "function" or not call.get("id") or call["id"] in defined:
                raise ValueError(f"{where}: every tool call needs type 'function' and an id of its own")
            if function.get("name") not in names:
                raise ValueError(f"{where}: call of {function.get('name')!r}, which is not among the tools")
            if not isinstance(function.get("arguments"), str) or not isinstance(
                json.loads(function["arguments"]), dict
            ):
                raise ValueError(f"{where}: tool call arguments must be a JSON object in a string")
            defined.add(call["id"])
        if message["role"] == "tool" and message.get("tool_call_id") not in defined:
            raise ValueError(f"{where}: tool result for {message.get('tool_call_id')!r}, which no earlier call made")
