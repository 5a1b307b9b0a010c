"""The file given to OpenRLHF (`--train.agent_func_path training/openrlhf_agent.py`): envfactory envs as its agent.

Each sample gets its own `ToolUseEnv`; its `label` (JSON, see `training.episode.EpisodeLabel`) names the env, the
task, the turn and the mode. The composite reward is paid as deltas: after every step the sample is paid
`score_so_far - paid_so_far`, so the rewards OpenRLHF sums equal the episode's score wherever the loop stops,
on `done` or on its token budget. Database work runs in worker threads, off the rollout event loop.

Settings (environment variables of the rollout workers): ENVFACTORY_MAX_STEPS (actions per sample, default 40),
ENVFACTORY_END_OF_TURN (the model's end-of-turn text when it is not the tokenizer's eos_token).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
from typing import Any

import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from envfactory_gym.env import ToolUseEnv
from training.chat_template import FeedbackRenderer
from training.episode import EpisodeLabel, start_episode

_RENDERER: contextvars.ContextVar[FeedbackRenderer] = contextvars.ContextVar("envfactory_feedback_renderer")


def _max_steps() -> int:
    return int(os.environ.get("ENVFACTORY_MAX_STEPS", "40"))


class AgentInstance(AgentInstanceBase):
    """One sample's environment: `reset` brings it to the sample's turn, `step` applies one model output."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.renderer = _RENDERER.get()
        self.env: ToolUseEnv | None = None
        self.paid = 0.0

    async def reset(self, states: dict, **kwargs: Any) -> dict:
        """Build the env and replay the turns before the label's; the observation is the dataset's prompt as is."""
        self.label = EpisodeLabel.from_json(states["label"])
        info = await asyncio.to_thread(self._start)
        self.seen_messages = len(info["messages"])
        return {"observation": states["observation"]}

    def _start(self) -> dict[str, Any]:
        self.env = ToolUseEnv(self.label.env, task_ids=[self.label.task_id], max_steps=10**9)
        info = start_episode(self.env, self.label)
        self.env.max_steps = info["step"] + _max_steps()
        return info

    async def step(self, states: dict, **kwargs: Any) -> dict:
        """Apply the action; pay the change in score; render the env's new messages with the chat template."""
        score, done, info = await asyncio.to_thread(self._step, states["action_text"])
        reward, self.paid = score - self.paid, score
        new_messages = info["messages"][self.seen_messages + 1 :]  # after the assistant message just appended
        self.seen_messages = len(info["messages"])
        return {
            "rewards": torch.tensor(reward, dtype=torch.float64),
            "scores": torch.tensor(score, dtype=torch.float64),
            "environment_feedback": "" if done else self.renderer.feedback(new_messages),
            "done": done,
            "extra_logs": {
                "turn": float(info["turn"]),
                "env_steps": float(info["step"]),
                "user_error": float(bool(info.get("user_error", False))),
            },
        }

    def _step(self, action: str) -> tuple[float, bool, dict[str, Any]]:
        """One env step in a worker thread: (score so far, whether the sample is over, info)."""
        assert self.env is not None
        _, reward, terminated, truncated, info = self.env.step(action)
        if self.label.mode == "turn":
            if "turn_reward" in info:  # the agent ended the label's turn
                score, done = float(info["turn_reward"]["total"]), True
            else:
                score, done = self.env.current_score("turn").total, truncated
        elif terminated or truncated:
            score, done = float(reward), True
        else:
            score, done = self.env.current_score("episode").total, False
        if done:
            self.env.close()
        return score, done, info


class AgentExecutor(MultiTurnAgentExecutor):
    """OpenRLHF's multi-turn executor over `AgentInstance`, with feedback rendered by the run's tokenizer."""

    def __init__(self) -> None:
        super().__init__(AgentInstance)

    async def execute(self, prompt, label, sampling_params, max_length: int, hf_tokenizer, llm_engine, images=None):
        """Run one sample (see `MultiTurnAgentExecutor.execute`); the renderer is bound to this sample's context."""
        _RENDERER.set(FeedbackRenderer(hf_tokenizer, os.environ.get("ENVFACTORY_END_OF_TURN")))
        return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images)
