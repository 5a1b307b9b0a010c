"""The file given to OpenRLHF (`--train.agent_func_path training/openrlhf_agent.py`): envfactory envs as its agent.

Each sample gets its own `ToolUseEnv`; its `label` (JSON, see `training.episode.EpisodeLabel`) names the env, the
task, the turn and the mode. The composite reward is paid as deltas: after every step the sample is paid
`score_so_far - paid_so_far`, so the rewards OpenRLHF sums equal the episode's score wherever the loop stops,
on `done` or on its token budget. Database work runs in worker threads, off the rollout event loop.

Settings (environment variables of the rollout workers, read by `AgentSettings.from_env`):

- ENVFACTORY_MAX_STEPS: actions per sample (default 40).
- ENVFACTORY_MAX_NEW_TOKENS: tokens per action, for every action (default: the run's `--rollout.max_new_tokens`,
  which OpenRLHF's executor otherwise applies to the first action only).
- ENVFACTORY_FORMAT_PENALTY: AWM's step-level format reward: a malformed tool call ends the sample, paid this
  (e.g. -1), through `envfactory_gym.wrappers.StepFormatPenalty`.
- ENVFACTORY_HISTORY_TURNS: AWM's history truncation: the sample's prompt keeps the system prompt and the last N
  user turns (`envfactory_gym.wrappers.TruncateHistory`), rendered here with the run's chat template.
- ENVFACTORY_USER=llm: the LLM user (`ENVFACTORY_LLM_*` endpoint) plays the user; each episode is judged for user
  errors (`FlagUserErrors`, AutoForge's MEU) and flagged samples log `user_error=1`, which ERPO masks.
- ENVFACTORY_END_OF_TURN: the model's end-of-turn text when it is not the tokenizer's eos_token.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from envfactory_gym.env import ToolUseEnv
from envfactory_gym.rollout import trajectory_record
from envfactory_gym.wrappers import FlagUserErrors, StepFormatPenalty, TruncateHistory
from training.chat_template import FeedbackRenderer
from training.episode import EpisodeLabel, start_episode
from training.renderers import text_messages


@dataclass(frozen=True)
class AgentSettings:
    """How samples run; see the module docstring for the environment variables."""

    max_steps: int = 40
    max_new_tokens: int | None = None
    format_penalty: float | None = None
    history_turns: int | None = None
    user: str = "scripted"

    @classmethod
    def from_env(cls) -> "AgentSettings":
        """The settings from ENVFACTORY_* variables; a bad value raises ValueError naming the variable."""

        def read(name: str, kind: type, default: Any) -> Any:
            raw = os.environ.get(name)
            if raw in (None, ""):
                return default
            try:
                return kind(raw)
            except ValueError:
                raise ValueError(f"{name}={raw!r} is not a valid {kind.__name__}") from None

        settings = cls(
            max_steps=read("ENVFACTORY_MAX_STEPS", int, 40),
            max_new_tokens=read("ENVFACTORY_MAX_NEW_TOKENS", int, None),
            format_penalty=read("ENVFACTORY_FORMAT_PENALTY", float, None),
            history_turns=read("ENVFACTORY_HISTORY_TURNS", int, None),
            user=read("ENVFACTORY_USER", str, "scripted"),
        )
        if settings.user not in ("scripted", "llm"):
            raise ValueError(f"ENVFACTORY_USER={settings.user!r}: use 'scripted' or 'llm'")
        for name, value in (("ENVFACTORY_MAX_STEPS", settings.max_steps), ("ENVFACTORY_HISTORY_TURNS",
                            settings.history_turns), ("ENVFACTORY_MAX_NEW_TOKENS", settings.max_new_tokens)):
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, got {value}")
        return settings


_RENDERER: contextvars.ContextVar[FeedbackRenderer] = contextvars.ContextVar("envfactory_feedback_renderer")
_SETTINGS: contextvars.ContextVar[AgentSettings] = contextvars.ContextVar("envfactory_agent_settings")


class AgentInstance(AgentInstanceBase):
    """One sample's environment: `reset` brings it to the sample's turn, `step` applies one model output."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.renderer = _RENDERER.get()
        self.settings = _SETTINGS.get()
        self.env: gym.Env | None = None
        self.base: ToolUseEnv | None = None
        self.paid = 0.0

    async def reset(self, states: dict, **kwargs: Any) -> dict:
        """Build the env and replay the turns before the label's. The observation is the dataset's prompt as is,
        or, with history truncation, the truncated conversation rendered with the run's chat template."""
        self.label = EpisodeLabel.from_json(states["label"])
        info = await asyncio.to_thread(self._start)
        self.seen_messages = len(info.get("full_messages", info["messages"]))
        if self.settings.history_turns is None:
            return {"observation": states["observation"]}
        assert self.base is not None
        record = trajectory_record(self.base.spec_env, self.label.task_id, info["messages"])
        return {"observation": self.renderer.prompt(text_messages(record))}

    def _start(self) -> dict[str, Any]:
        settings = self.settings
        self.base = ToolUseEnv(self.label.env, task_ids=[self.label.task_id], max_steps=10**9, user=settings.user)
        env: gym.Env = self.base
        if settings.user == "llm":
            env = FlagUserErrors(env, judge=self.base.user.model)  # type: ignore[attr-defined]
        if settings.format_penalty is not None:
            env = StepFormatPenalty(env, penalty=settings.format_penalty)
        if settings.history_turns is not None:
            env = TruncateHistory(env, settings.history_turns)
        self.env = env
        info = start_episode(env, self.label)
        self.base.max_steps = info["step"] + settings.max_steps
        return info

    async def step(self, states: dict, **kwargs: Any) -> dict:
        """Apply the action; pay the change in score; render the env's new messages with the chat template."""
        score, done, info = await asyncio.to_thread(self._step, states["action_text"])
        reward, self.paid = score - self.paid, score
        messages = info.get("full_messages", info["messages"])
        new_messages = messages[self.seen_messages + 1 :]  # after the assistant message just appended
        self.seen_messages = len(messages)
        return {
            "rewards": torch.tensor(reward, dtype=torch.float64),
            "scores": torch.tensor(score, dtype=torch.float64),
            "environment_feedback": "" if done else self.renderer.feedback(new_messages),
            "done": done,
            "extra_logs": {
                "turn": float(info["turn"]),
                "env_steps": float(info["step"]),
                "user_error": float(bool(info.get("user_error", False))),
                "format_terminated": float(bool(info.get("format_terminated", False))),
            },
        }

    def _step(self, action: str) -> tuple[float, bool, dict[str, Any]]:
        """One env step in a worker thread: (score so far, whether the sample is over, info)."""
        assert self.env is not None and self.base is not None
        _, _, terminated, truncated, info = self.env.step(action)
        if info.get("format_terminated"):
            score, done = float(info["reward_components"]["total"]), True
        elif self.label.mode == "turn":
            if "turn_reward" in info:  # the agent ended the label's turn
                score, done = float(info["turn_reward"]["total"]), True
            else:
                score, done = self.base.current_score("turn").total, truncated
        elif terminated or truncated:
            score, done = float(info["reward_components"]["total"]), True
        else:
            score, done = self.base.current_score("episode").total, False
        if done:
            self.env.close()
        return score, done, info


class PerActionLimit:
    """The engine the executor calls, with every generation capped at `limit` tokens (OpenRLHF's executor sets
    each later action's budget to whatever is left of `max_length`)."""

    def __init__(self, engine: Any, limit: int | None) -> None:
        self.engine, self.limit = engine, limit

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        """The engine's `generate`, within the per-action limit."""
        if self.limit is not None and (sampling_params.max_tokens is None or sampling_params.max_tokens > self.limit):
            sampling_params.max_tokens = self.limit  # the executor passes a copy of its params
        return await self.engine.generate(prompt_token_ids, sampling_params, multi_modal_data=multi_modal_data)


class AgentExecutor(MultiTurnAgentExecutor):
    """OpenRLHF's multi-turn executor over `AgentInstance`, with feedback rendered by the run's tokenizer and the
    generation limit applied to every action."""

    def __init__(self, settings: AgentSettings | None = None) -> None:
        super().__init__(AgentInstance)
        self.settings = settings or AgentSettings.from_env()

    async def execute(self, prompt, label, sampling_params, max_length: int, hf_tokenizer, llm_engine, images=None):
        """Run one sample (see `MultiTurnAgentExecutor.execute`); the renderer and settings are bound to this
        sample's context."""
        _RENDERER.set(FeedbackRenderer(hf_tokenizer, os.environ.get("ENVFACTORY_END_OF_TURN")))
        _SETTINGS.set(self.settings)
        limit = self.settings.max_new_tokens or getattr(sampling_params, "max_tokens", None)
        engine = PerActionLimit(llm_engine, limit)
        return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer, engine, images)
