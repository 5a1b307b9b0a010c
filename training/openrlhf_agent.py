"""The file given to OpenRLHF (`--train.agent_func_path training/openrlhf_agent.py`): envfactory envs as its agent.

Each sample gets its own `ToolUseEnv`; its `label` (JSON, see `envfactory_training.episode.EpisodeLabel`) names the
env, the task, the turn and the mode. The composite reward is paid as deltas: after every step the sample is paid
`score_so_far - paid_so_far`, so the rewards OpenRLHF sums equal the episode's score wherever the loop stops,
on `done` or on its token budget. Database work runs in worker threads, off the rollout event loop.

Settings: `envfactory_training.sample.SampleSettings` (ENVFACTORY_MAX_STEPS, ENVFACTORY_MAX_NEW_TOKENS,
ENVFACTORY_FORMAT_PENALTY, ENVFACTORY_HISTORY_TURNS, ENVFACTORY_USER, read from the rollout workers' environment),
and ENVFACTORY_END_OF_TURN: the model's end-of-turn text when it is not the tokenizer's eos_token. OpenRLHF's
executor applies `--rollout.max_new_tokens` to the first action only; the agent caps every action at it (or at
ENVFACTORY_MAX_NEW_TOKENS). Samples flagged by the MEU judge log `user_error=1`, which ERPO masks.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
from typing import Any

import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from envfactory_training.chat_template import FeedbackRenderer
from envfactory_training.episode import EpisodeLabel
from envfactory_training.renderers import text_messages
from envfactory_training.sample import SampleEnv, SampleSettings

_RENDERER: contextvars.ContextVar[FeedbackRenderer] = contextvars.ContextVar("envfactory_feedback_renderer")
_SETTINGS: contextvars.ContextVar[SampleSettings] = contextvars.ContextVar("envfactory_agent_settings")


class AgentInstance(AgentInstanceBase):
    """One sample's environment: `reset` brings it to the sample's turn, `step` applies one model output."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.renderer = _RENDERER.get()
        self.settings = _SETTINGS.get()
        self.sample: SampleEnv | None = None
        self.paid = 0.0

    async def reset(self, states: dict, **kwargs: Any) -> dict:
        """Build the env and replay the turns before the label's. The observation is the dataset's prompt as is,
        or, with history truncation, the truncated conversation rendered with the run's chat template."""
        label = EpisodeLabel.from_json(states["label"])
        self.sample = await asyncio.to_thread(SampleEnv, label, self.settings)
        if self.settings.history_turns is None:
            return {"observation": states["observation"]}
        return {"observation": self.renderer.prompt(text_messages(self.sample.record()))}

    async def step(self, states: dict, **kwargs: Any) -> dict:
        """Apply the action; pay the change in score; render the env's new messages with the chat template."""
        assert self.sample is not None
        outcome = await asyncio.to_thread(self.sample.step, states["action_text"])
        if outcome.done:
            await asyncio.to_thread(self.sample.close)
        reward, self.paid = outcome.score - self.paid, outcome.score
        info = outcome.info
        return {
            "rewards": torch.tensor(reward, dtype=torch.float64),
            "scores": torch.tensor(outcome.score, dtype=torch.float64),
            "environment_feedback": "" if outcome.done else self.renderer.feedback(outcome.new_messages),
            "done": outcome.done,
            "extra_logs": {
                "turn": float(info["turn"]),
                "env_steps": float(info["step"]),
                "user_error": float(bool(info.get("user_error", False))),
                "format_terminated": float(bool(info.get("format_terminated", False))),
            },
        }


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

    def __init__(self, settings: SampleSettings | None = None) -> None:
        super().__init__(AgentInstance)
        self.settings = settings or SampleSettings.from_env()

    async def execute(self, prompt, label, sampling_params, max_length: int, hf_tokenizer, llm_engine, images=None):
        """Run one sample (see `MultiTurnAgentExecutor.execute`); the renderer and settings are bound to this
        sample's context."""
        _RENDERER.set(FeedbackRenderer(hf_tokenizer, os.environ.get("ENVFACTORY_END_OF_TURN")))
        _SETTINGS.set(self.settings)
        limit = self.settings.max_new_tokens or getattr(sampling_params, "max_tokens", None)
        engine = PerActionLimit(llm_engine, limit)
        return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer, engine, images)
