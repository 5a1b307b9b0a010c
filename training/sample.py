"""One RL sample in its environment, the part every trainer integration shares (OpenRLHF, verl, SkyRL,
verifiers): the env built from the sample's label with the earlier turns replayed, one model output applied per
step, and the sample's score so far.

The score is what the sample is worth if it stops now: in turn mode the turn's composite score (the env's
`turn_reward` once the model ends the turn with a plain message, which ends the sample), in conversation mode the
episode's composite reward (the final one when the episode ends), and with a step-level format penalty the penalty
when a malformed call ends the sample. Trainers that stop a sample on their own token budget pay this score, so a
budget stop pays the partial score instead of nothing.

Settings (`SampleSettings.from_env` reads them from the ENVFACTORY_* environment variables of rollout workers):

- ENVFACTORY_MAX_STEPS: actions per sample (default 40), counted from the sample's first turn.
- ENVFACTORY_MAX_NEW_TOKENS: tokens per action, for every action (trainers that can cap each generation do).
- ENVFACTORY_FORMAT_PENALTY: AWM's step-level format reward: a malformed tool call ends the sample, paid this
  (e.g. -1), through `envfactory_gym.wrappers.StepFormatPenalty`.
- ENVFACTORY_HISTORY_TURNS: AWM's history truncation: the sample's prompt keeps the system prompt and the last N
  user turns (`envfactory_gym.wrappers.TruncateHistory`).
- ENVFACTORY_USER=llm: the LLM user (`ENVFACTORY_LLM_*` endpoint) plays the user; each episode is judged for user
  errors (`FlagUserErrors`, AutoForge's MEU) and flagged samples report `user_error`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from envfactory_gym.env import ToolUseEnv
from envfactory_gym.rollout import trajectory_record
from envfactory_gym.wrappers import FlagUserErrors, StepFormatPenalty, TruncateHistory
from envfactory_training.episode import EpisodeLabel, start_episode


@dataclass(frozen=True)
class SampleSettings:
    """How samples run; see the module docstring for the environment variables."""

    max_steps: int = 40
    max_new_tokens: int | None = None
    format_penalty: float | None = None
    history_turns: int | None = None
    user: str = "scripted"

    def __post_init__(self) -> None:
        if self.user not in ("scripted", "llm"):
            raise ValueError(f"user={self.user!r}: use 'scripted' or 'llm'")
        for name in ("max_steps", "history_turns", "max_new_tokens"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, got {value}")

    @classmethod
    def from_env(cls, **overrides: Any) -> "SampleSettings":
        """The settings from ENVFACTORY_* variables, then `overrides` (e.g. from a trainer's config); a bad value
        raises ValueError naming the variable."""

        def read(name: str, kind: type, default: Any) -> Any:
            raw = os.environ.get(name)
            if raw in (None, ""):
                return default
            try:
                return kind(raw)
            except ValueError:
                raise ValueError(f"{name}={raw!r} is not a valid {kind.__name__}") from None

        values = {
            "max_steps": read("ENVFACTORY_MAX_STEPS", int, 40),
            "max_new_tokens": read("ENVFACTORY_MAX_NEW_TOKENS", int, None),
            "format_penalty": read("ENVFACTORY_FORMAT_PENALTY", float, None),
            "history_turns": read("ENVFACTORY_HISTORY_TURNS", int, None),
            "user": read("ENVFACTORY_USER", str, "scripted"),
        }
        unknown = set(overrides) - set(values)
        if unknown:
            raise ValueError(f"unknown sample settings {sorted(unknown)}; known: {sorted(values)}")
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except ValueError as exc:
            raise ValueError(f"ENVFACTORY_* settings: {exc}") from None


@dataclass(frozen=True)
class StepOutcome:
    """What one action did: the sample's score so far, whether the sample is over, and the env's new messages
    after the assistant's (tool results, the next user request), in the env's message format."""

    score: float
    done: bool
    new_messages: list[dict[str, Any]]
    info: dict[str, Any]


class SampleEnv:
    """The environment of one sample: `ToolUseEnv` for the label's task (with the settings' wrappers), at the
    label's turn. Not thread-safe; one per sample."""

    def __init__(self, label: EpisodeLabel, settings: SampleSettings | None = None) -> None:
        self.label = label
        self.settings = settings or SampleSettings()
        self.base = ToolUseEnv(label.env, task_ids=[label.task_id], max_steps=10**9, user=self.settings.user)
        env: gym.Env = self.base
        if self.settings.user == "llm":
            env = FlagUserErrors(env, judge=self.base.user.model)  # type: ignore[attr-defined]
        if self.settings.format_penalty is not None:
            env = StepFormatPenalty(env, penalty=self.settings.format_penalty)
        if self.settings.history_turns is not None:
            env = TruncateHistory(env, self.settings.history_turns)
        self.env = env
        self.info = start_episode(env, label)
        self.base.max_steps = self.info["step"] + self.settings.max_steps
        self.score = 0.0
        self.components: dict[str, float] = {}
        self.done = False

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The whole conversation so far (before any history truncation), in the env's message format."""
        return self.info.get("full_messages", self.info["messages"])

    def record(self, messages: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """`messages` (default: what the model sees now, truncated when the settings say so) as a trajectory
        record of this sample's task, with the score so far."""
        return trajectory_record(
            self.base.spec_env, self.label.task_id, self.info["messages"] if messages is None else messages
        )

    def step(self, action: str) -> StepOutcome:
        """Apply one model output; the sample's score so far, whether it is over, and the env's new messages."""
        if self.done:
            raise RuntimeError(f"sample of {self.label.to_json()} is over; no more actions")
        seen = len(self.messages)
        _, _, terminated, truncated, self.info = self.env.step(action)  # the reward is a delta; scores are in info
        scope = "turn" if self.label.mode == "turn" else "episode"
        if self.info.get("format_terminated"):  # `total` is the penalty
            components, done = {**self.info["reward_components"], "format_terminated": 1.0}, True
        elif scope == "turn" and "turn_reward" in self.info:  # the agent ended the label's turn
            components, done = dict(self.info["turn_reward"]), True
        elif scope == "episode" and (terminated or truncated):
            components, done = dict(self.info["reward_components"]), True
        else:
            components, done = self.base.current_score(scope).as_dict(), scope == "turn" and truncated
        self.components = {k: float(v) for k, v in components.items() if v is not None}
        self.score, self.done = self.components["total"], done
        return StepOutcome(self.score, done, self.messages[seen + 1 :], self.info)

    def close(self) -> None:
        """Release the env (its in-memory database)."""
        self.env.close()
