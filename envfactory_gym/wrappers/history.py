"""History truncation (AWM): the model sees only the last few user turns, the same cut in training and at
inference, so long conversations fit the context the model was trained with."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym

Messages = list[dict[str, Any]]


def truncate_history(messages: Messages, max_turns: int) -> Messages:
    """The system message(s), then everything from the start of the last `max_turns` user turns (each turn: the
    user's message and the assistant and tool messages after it).

    >>> messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u1"},
    ...             {"role": "assistant", "content": "a1"}, {"role": "user", "content": "u2"}]
    >>> [m["content"] for m in truncate_history(messages, max_turns=1)]
    ['s', 'u2']
    """
    if max_turns < 1:
        raise ValueError("max_turns must be at least 1")
    starts = [i for i, message in enumerate(messages) if message["role"] == "user"]
    if len(starts) <= max_turns:
        return list(messages)
    head = [m for m in messages[: starts[0]] if m["role"] == "system"]
    return head + messages[starts[-max_turns] :]


class TruncateHistory(gym.Wrapper):
    """`info["messages"]` (what policies build their prompt from) keeps only the last `max_turns` user turns, with
    the system prompt; `info["full_messages"]` keeps the whole conversation. Observations and rewards are
    unchanged. Apply the same `truncate_history` when building training prompts to keep both aligned.

    >>> from envfactory_gym import ToolUseEnv
    >>> env = TruncateHistory(ToolUseEnv("notion"), max_turns=1)
    >>> _, info = env.reset(seed=0, options={"task_id": "notion-0004"})
    >>> [m["role"] for m in info["messages"]]
    ['system', 'user']
    """

    def __init__(self, env: gym.Env, max_turns: int) -> None:
        super().__init__(env)
        truncate_history([], max_turns)  # validates max_turns
        self.max_turns = max_turns

    def _truncated(self, info: dict[str, Any]) -> dict[str, Any]:
        info["full_messages"] = info["messages"]
        info["messages"] = truncate_history(info["messages"], self.max_turns)
        return info

    def reset(self, **kwargs: Any) -> tuple[str, dict[str, Any]]:
        """`env.reset`, with the truncated history."""
        observation, info = self.env.reset(**kwargs)
        return observation, self._truncated(info)

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """`env.step`, with the truncated history."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        return observation, reward, terminated, truncated, self._truncated(info)
