"""Action parsing: raw model output -> tool calls and/or a message to the user. Parsers are pluggable."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

_THINK_BLOCK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


@dataclass(frozen=True)
class ToolCall:
    """One requested tool call. `arguments` is whatever the model sent (validated later by the executor)."""

    name: Any
    arguments: Any


@dataclass
class ParsedAction:
    """The parse of one action: tool calls, free text, the model's reasoning, and format errors."""

    tool_calls: list[ToolCall] = field(default_factory=list)
    message: str = ""
    reasoning: str = ""
    errors: list[str] = field(default_factory=list)

    @property
    def ends_turn(self) -> bool:
        """A pure message (no calls, no malformed call) is addressed to the user and ends the agent's turn."""
        return not self.tool_calls and not self.errors


class ActionParser(Protocol):
    """Anything that turns an action string into a ParsedAction."""

    def parse(self, action: str) -> ParsedAction:
        """Parse one action."""


def split_reasoning(text: str) -> tuple[str, str]:
    """Remove `<think>...</think>` blocks (also a leading block whose opening tag the template already emitted)."""
    reasoning: list[str] = []
    if "</think>" in text and "<think>" not in text.split("</think>", 1)[0]:
        head, text = text.split("</think>", 1)
        reasoning.append(head.strip())

    def keep(match: re.Match[str]) -> str:
        reasoning.append(match.group(0).removeprefix("<think>").removesuffix("</think>").strip())
        return ""

    text = _THINK_BLOCK.sub(keep, text)
    return "\n".join(r for r in reasoning if r), text.strip()


def _call_from_object(obj: Any) -> ToolCall:
    """Accept {"name", "arguments"} or OpenAI's {"function": {"name", "arguments"}}; arguments may be a JSON string."""
    if not isinstance(obj, dict):
        raise ValueError("a tool call must be a JSON object")
    if isinstance(obj.get("function"), dict):
        obj = obj["function"]
    if "name" not in obj:
        raise ValueError("a tool call needs a 'name'")
    arguments = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            raise ValueError(f"'arguments' is not valid JSON ({exc.msg})") from None
    return ToolCall(obj["name"], arguments)


def _json_tool_calls(text: str) -> list[Any] | None:
    """Tool calls when the whole text is OpenAI-style JSON (optionally fenced); None when it is not such JSON."""
    candidate = _FENCE.sub(r"\1", text.strip())
    if not candidate.startswith(("{", "[")):
        return None
    try:
        data = json.loads(candidate)
    except json.JSONDecodeError:
        return None
    if isinstance(data, dict) and isinstance(data.get("tool_calls"), list):
        return data["tool_calls"]
    if isinstance(data, dict) and "name" in data and ("arguments" in data or "parameters" in data):
        return [data]
    if isinstance(data, list) and data and all(isinstance(d, dict) and ("name" in d or "function" in d) for d in data):
        return data
    return None


class HermesParser:
    """Qwen/Hermes `<tool_call>{...}</tool_call>` blocks (several allowed), or OpenAI-style JSON tool calls."""

    def parse(self, action: str) -> ParsedAction:
        """Parse one action; text outside tool-call blocks is the message to the user."""
        reasoning, text = split_reasoning(action)
        parsed = ParsedAction(reasoning=reasoning)
        blocks = _TOOL_CALL.findall(text)
        if blocks:
            for index, block in enumerate(blocks, start=1):
                try:
                    parsed.tool_calls.append(_call_from_object(json.loads(block)))
                except json.JSONDecodeError as exc:
                    parsed.errors.append(f"tool call #{index} is not valid JSON ({exc.msg} at char {exc.pos})")
                except ValueError as exc:
                    parsed.errors.append(f"tool call #{index}: {exc}")
            parsed.message = _TOOL_CALL.sub("", text).strip()
            return parsed
        objects = _json_tool_calls(text)
        if objects is None:
            parsed.message = text
            return parsed
        for index, obj in enumerate(objects, start=1):
            try:
                parsed.tool_calls.append(_call_from_object(obj))
            except ValueError as exc:
                parsed.errors.append(f"tool call #{index}: {exc}")
        return parsed
