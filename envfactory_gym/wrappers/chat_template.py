"""Observations rendered with a model's chat template: the whole conversation as the exact prompt text the model
reads next, for training loops that feed observations straight to a tokenizer."""

from __future__ import annotations

import json
from typing import Any, Protocol, SupportsFloat

import gymnasium as gym


class ChatTemplateTokenizer(Protocol):
    """What the wrapper needs of a Hugging Face tokenizer."""

    def apply_chat_template(self, conversation: list[dict[str, Any]], **kwargs: Any) -> Any:
        """Render messages (with `tokenize=False`, as text)."""


def template_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Env's messages as chat templates expect them: tool-call arguments as objects, not JSON strings."""
    out = []
    for message in messages:
        calls = message.get("tool_calls")
        if calls:
            message = {
                **message,
                "tool_calls": [
                    {**call, "function": {**call["function"], "arguments": _decoded(call["function"]["arguments"])}}
                    for call in calls
                ],
            }
        out.append(message)
    return out


def _decoded(arguments: Any) -> Any:
    if not isinstance(arguments, str):
        return arguments
    try:
        return json.loads(arguments)
    except json.JSONDecodeError:
        return arguments


class ChatTemplateObservation(gym.Wrapper):
    """Each observation is the conversation so far (`info["messages"]`, with the tool schemas as `tools=`)
    rendered by `tokenizer.apply_chat_template(..., add_generation_prompt=True)`: the prompt for the model's next
    action. `template_kwargs` go to every render (e.g. `enable_thinking=False`)."""

    def __init__(self, env: gym.Env, tokenizer: ChatTemplateTokenizer, **template_kwargs: Any) -> None:
        super().__init__(env)
        self.tokenizer = tokenizer
        self.template_kwargs = template_kwargs

    def reset(self, **kwargs: Any) -> tuple[str, dict[str, Any]]:
        """`env.reset`; the observation is the rendered prompt."""
        _, info = self.env.reset(**kwargs)
        return self.prompt(info), info

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """`env.step`; the observation is the rendered prompt for the next action."""
        _, reward, terminated, truncated, info = self.env.step(action)
        return self.prompt(info), reward, terminated, truncated, info

    def prompt(self, info: dict[str, Any]) -> str:
        """The conversation of a reset's or step's info, rendered with the generation prompt."""
        text = self.tokenizer.apply_chat_template(
            template_messages(info["messages"]),
            tools=info["tools"],
            tokenize=False,
            add_generation_prompt=True,
            **self.template_kwargs,
        )
        if not isinstance(text, str):
            raise TypeError("apply_chat_template must return text (tokenize=False)")
        return text
