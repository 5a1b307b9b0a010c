"""Baseline agents for rollouts and benchmarks: reference (replays ground truth), random, and no-op."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from .env import ToolUseEnv
    from .tasks import GroundTruthCall

_WORDS = ["roadmap", "report", "alpha", "order", "meeting", "q3", "budget", "flight", "refund", "draft", "team"]


def format_call(name: str, arguments: dict[str, Any] | str) -> str:
    """A tool call in the Hermes/Qwen text format the default parser reads. Arguments given as a JSON string (as
    OpenAI tool calls carry them) are decoded; an undecodable string is kept as text (the env then reports it as
    a format error)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            pass
    return f"<tool_call>{json.dumps({'name': name, 'arguments': arguments}, ensure_ascii=False)}</tool_call>"


class Agent(Protocol):
    """A policy over text: sees the observation and info, returns the next action text."""

    def reset(self, env: ToolUseEnv, info: dict[str, Any]) -> None:
        """Prepare for a new episode of `env`."""

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """The next action."""


class ReferenceAgent:
    """Replays the task's ground truth: each turn's agent calls (one per step, or all in one action), then a reply."""

    def __init__(self, calls_per_action: int = 1) -> None:
        self.calls_per_action = calls_per_action
        self._pending: list[GroundTruthCall] = []
        self._turn = -1

    def reset(self, env: ToolUseEnv, info: dict[str, Any]) -> None:
        """Remember the episode's task."""
        if env.task is None:
            raise RuntimeError("the env has no task yet: call env.reset() before agent.reset()")
        self._task = env.task
        self._turn = -1

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """Next ground-truth call(s) of the current turn, or the closing message of the turn."""
        if info["turn"] != self._turn:
            self._turn = info["turn"]
            self._pending = list(self._task.turns[self._turn].agent_calls)
        if not self._pending:
            return "Done. Is there anything else?"
        batch, self._pending = self._pending[: self.calls_per_action], self._pending[self.calls_per_action :]
        return "\n".join(format_call(c.name, c.arguments) for c in batch)


class NoOpAgent:
    """Never calls a tool: answers every turn with a message."""

    def reset(self, env: ToolUseEnv, info: dict[str, Any]) -> None:
        """Nothing to prepare."""

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """A message that ends the turn."""
        return "Sorry, I can't help with that."


class RandomAgent:
    """Emits random, schema-shaped tool calls (random tools, random values) and sometimes ends the turn."""

    def __init__(self, seed: int = 0, end_turn_probability: float = 0.25) -> None:
        self.rng = np.random.default_rng(seed)
        self.end_turn_probability = end_turn_probability

    def reset(self, env: ToolUseEnv, info: dict[str, Any]) -> None:
        """Remember the tool schemas."""
        self._tools = info["tools"]

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """A random call, or a message."""
        if self.rng.random() < self.end_turn_probability:
            return "Okay."
        tool = self._tools[int(self.rng.integers(len(self._tools)))]["function"]
        params = tool["parameters"]
        required = set(params.get("required", []))
        arguments = {
            name: self._value(schema)
            for name, schema in params.get("properties", {}).items()
            if name in required or self.rng.random() < 0.3
        }
        return format_call(tool["name"], arguments)

    def _value(self, schema: dict[str, Any]) -> Any:
        kinds = [s.get("type") for s in schema.get("anyOf", [schema])]
        if "enum" in schema:
            return schema["enum"][int(self.rng.integers(len(schema["enum"])))]
        kind = next((k for k in kinds if k and k != "null"), "string")
        if kind == "integer":
            return int(self.rng.integers(1, 20))
        if kind == "number":
            return float(self.rng.integers(1, 500))
        if kind == "boolean":
            return bool(self.rng.random() < 0.5)
        if kind in ("array", "object"):
            return [] if kind == "array" else {}
        return str(self.rng.choice(_WORDS))


AGENTS = {"reference": ReferenceAgent, "random": RandomAgent, "noop": NoOpAgent}


def run_episode(
    env: ToolUseEnv, agent: Agent, *, seed: int | None = None, task_id: str | None = None
) -> dict[str, Any]:
    """Play one episode; returns its score (`reward`, what the rewards summed to), its components, each finished
    turn's own score (`turn_rewards`), the step count and the final info."""
    options = {"task_id": task_id} if task_id else None
    observation, info = env.reset(seed=seed, options=options)
    agent.reset(env, info)
    turn_rewards: list[float] = []
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation, info))
        if "turn_reward" in info:
            turn_rewards.append(float(info["turn_reward"]["total"]))
        if terminated or truncated:
            return {
                "task_id": info["task_id"],
                "reward": float(info["reward_components"]["total"]),
                "components": info["reward_components"],
                "turn_rewards": turn_rewards,
                "steps": info["step"],
                "terminated": terminated,
                "info": info,
            }
