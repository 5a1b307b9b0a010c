"""What every chat model of the project returns and promises: `ChatResponse`, `ChatModel`, `JSONModel`."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

Messages = list[dict[str, Any]]


class LLMError(RuntimeError):
    """An LLM request failed for good (after retries), or its answer could not be used.

    `transient`: whether trying again later may succeed (the endpoint was down, overloaded or too slow); False when
    the endpoint refused the request itself (HTTP 400 such as a prompt beyond the context window, 401, 404, ...).
    """

    def __init__(self, message: str, *, transient: bool = True) -> None:
        super().__init__(message)
        self.transient = transient


@dataclass(frozen=True)
class ChatResponse:
    """One assistant answer: text, OpenAI-format tool calls, reasoning (if the server returns it) and token usage."""

    content: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    reasoning: str = ""
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str = ""

    def message(self) -> dict[str, Any]:
        """The answer as an assistant message for the next request."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return message

    def calls(self) -> list[tuple[str, str, Any]]:
        """(id, name, arguments) of each tool call; arguments are the decoded JSON, or the raw string if invalid."""
        out = []
        for index, call in enumerate(self.tool_calls):
            function = call.get("function", {})
            raw = function.get("arguments", "{}")
            try:
                arguments = json.loads(raw) if isinstance(raw, str) else raw
            except json.JSONDecodeError:
                arguments = raw
            out.append((call.get("id") or f"call_{index}", function.get("name", ""), arguments))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what cassettes store)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ChatResponse":
        """Inverse of `to_dict`; unknown keys are ignored."""
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


@runtime_checkable
class JSONModel(Protocol):
    """The smallest LLM interface: a chat answered as a JSON object (what the graph refinement needs)."""

    def complete_json(self, stage: str, messages: Messages) -> dict[str, Any]:
        """The answer to `messages` parsed as a JSON object; `stage` names the pipeline step (for accounting)."""


@runtime_checkable
class ChatModel(Protocol):
    """A chat model: plain, tool-calling and JSON requests, sync and async, with per-stage token accounting."""

    async def acomplete(self, stage: str, messages: Messages, **opts: Any) -> ChatResponse:
        """One chat completion; `opts` are request fields (tools, tool_choice, temperature, seed, ...)."""

    async def acomplete_json(self, stage: str, messages: Messages, schema: Any = None, **opts: Any) -> dict[str, Any]:
        """A JSON-mode completion parsed (and validated against `schema`, if given) into a dict."""

    def complete(self, stage: str, messages: Messages, **opts: Any) -> ChatResponse:
        """`acomplete`, blocking."""

    def complete_json(self, stage: str, messages: Messages, schema: Any = None, **opts: Any) -> dict[str, Any]:
        """`acomplete_json`, blocking."""
