"""Step-level format reward (AWM): an action holding a tool call the parser cannot read is paid `penalty` at once
and ends the episode, instead of only counting against the final reward."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsFloat, cast

import gymnasium as gym

if TYPE_CHECKING:
    from ..env import ToolUseEnv


class StepFormatPenalty(gym.Wrapper):
    """On a step whose action had an unparsable tool call: the episode ends (`terminated=True`,
    `truncated=False`, `info["format_terminated"] = True`) and its return becomes `penalty` (default -1.0): this
    step pays the penalty less what earlier steps paid (all of it with `reward_mode="final"`);
    `info["reward_components"]` holds the episode's score so far with `total` set to the penalty. Other steps pass
    through unchanged; call `reset` to go on.

    >>> from envfactory_gym import ToolUseEnv
    >>> env = StepFormatPenalty(ToolUseEnv("notion"), penalty=-1.0)
    >>> _ = env.reset(seed=0, options={"task_id": "notion-0004"})
    >>> _, reward, terminated, truncated, info = env.step('<tool_call>{"name": oops</tool_call>')
    >>> reward, terminated, truncated, info["format_terminated"]
    (-1.0, True, False, True)
    """

    def __init__(self, env: gym.Env, penalty: float = -1.0) -> None:
        super().__init__(env)
        self.penalty = penalty
        self._format_errors = 0
        self._paid = 0.0

    def reset(self, **kwargs: Any) -> tuple[str, dict[str, Any]]:
        """`env.reset`."""
        observation, info = self.env.reset(**kwargs)
        self._format_errors = info["format_errors"]
        self._paid = 0.0
        return observation, info

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """`env.step`, ended with the penalty when this action was malformed."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        malformed = info["format_errors"] > self._format_errors
        self._format_errors = info["format_errors"]
        if malformed:
            info["format_terminated"] = True
            env = cast("ToolUseEnv", self.env.unwrapped)  # the wrapper is made for ToolUseEnv
            info["reward_components"] = {**env.current_score().as_dict(), "total": self.penalty}
            return observation, self.penalty - self._paid, True, False, info
        self._paid += float(reward)
        return observation, reward, terminated, truncated, info
