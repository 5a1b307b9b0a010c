"""One training sample: its label (env, task, turn, mode) and how its environment reaches the sample's first turn."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Literal

import gymnasium as gym

from envfactory_gym.agents import ReferenceAgent
from envfactory_gym.env import ToolUseEnv

Mode = Literal["turn", "conversation"]
MODES: tuple[Mode, ...] = ("turn", "conversation")


@dataclass(frozen=True)
class EpisodeLabel:
    """What OpenRLHF passes through untouched as `label`: which env, task and turn a prompt starts at.

    `mode="turn"`: the sample is turn `turn` alone (earlier turns were played by the ground truth); the reward is
    that turn's score. `mode="conversation"`: the sample plays every turn from `turn` on; the reward is the
    episode's composite score.
    """

    env: str
    task_id: str
    turn: int = 0
    mode: Mode = "conversation"

    def to_json(self) -> str:
        """The label as the JSON string stored in the dataset."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "EpisodeLabel":
        """Parse a dataset label; raises ValueError on a malformed one."""
        data = json.loads(text)
        if data.get("mode") not in MODES:
            raise ValueError(f"label mode must be one of {MODES}: {text!r}")
        return cls(env=str(data["env"]), task_id=str(data["task_id"]), turn=int(data["turn"]), mode=data["mode"])


def start_episode(env: ToolUseEnv | gym.Wrapper, label: EpisodeLabel) -> dict[str, Any]:
    """Reset `env` (a `ToolUseEnv`, possibly wrapped) on the label's task and play turns before `label.turn` with
    the ground truth.

    Each ground-truth call is one action, and each turn ends with the reference agent's closing message, so the
    returned info's `messages` are exactly the history the dataset's prompt holds. Returns that info.
    """
    _, info = env.reset(options={"task_id": label.task_id})
    base = env.unwrapped
    if not 0 <= label.turn < len(base.task.turns):  # type: ignore[union-attr]
        raise ValueError(f"task {label.task_id} has no turn {label.turn}")
    agent = ReferenceAgent()
    agent.reset(base, info)
    while info["turn"] < label.turn:
        _, _, terminated, truncated, info = env.step(agent.act("", info))
        if terminated or truncated:
            raise RuntimeError(f"task {label.task_id} ended while replaying turn {info['turn']}")
    return info
