"""Action parsing: raw model output -> tool calls and/or a message to the user. Parsers are pluggable."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from .limits import MAX_ACTION_LENGTH, MAX_JSON_DEPTH, MAX_TOOL_CALLS, holds_surrogate, too_long

_THINK_BLOCK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
# A JSON string; an unterminated one, or one ending in a lone backslash, runs to the end. Every start matches on the
# first try (no backtracking), so stripping strings stays linear on any text.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.?)*(?:"|$)', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class ActionLimitError(ValueError):
    """JSON that decodes but that the parser refuses: nested too deep, a non-finite or over-long number, an
    unpaired surrogate."""


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


def json_depth(text: str) -> int:
    """How deeply `[` and `{` nest in `text`, brackets inside JSON strings not counted (an estimate for text that
    is not valid JSON; exact for valid JSON)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _reject_constant(name: str) -> Any:
    raise ActionLimitError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ActionLimitError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is out of range")
    return value


def _holds_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value (nesting already bounded) holds an unpaired UTF-16 surrogate in a string."""
    if isinstance(value, str):
        return holds_surrogate(value)
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v) for v in value)
    return False


def decode_json(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads` with explicit bounds: raises `json.JSONDecodeError` for text that is not JSON and
    `ActionLimitError` for JSON nested deeper than `max_depth`, NaN/Infinity, numbers out of range or longer than
    Python converts, and strings with unpaired surrogates (not Unicode text)."""
    if text.count("[") + text.count("{") > max_depth and json_depth(text) > max_depth:
        raise ActionLimitError(f"it nests deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except (json.JSONDecodeError, ActionLimitError):
        raise
    except RecursionError:  # the depth bound prevents it unless the caller's own stack is nearly full
        raise ActionLimitError(f"it nests deeper than {max_depth} levels") from None
    except ValueError:  # int() of more digits than Python converts (sys.get_int_max_str_digits)
        raise ActionLimitError("a number has too many digits") from None
    if (_SURROGATE_ESCAPE.search(text) or holds_surrogate(text)) and _holds_surrogate(value):
        raise ActionLimitError("a string holds an unpaired UTF-16 surrogate, which is not Unicode text")
    return value


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
            arguments = decode_json(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            raise ValueError(f"'arguments' is not valid JSON ({exc.msg})") from None
        except ActionLimitError as exc:
            raise ValueError(f"'arguments' is refused: {exc}") from None
    return ToolCall(obj["name"], arguments)


def _unfenced(text: str) -> str:
    """The text inside a Markdown code fence (```json ... ``` or ``` ... ```), else the text; stripped. Plain string
    operations: a regular expression for this backtracks for minutes on a fence followed by 60,000 spaces."""
    text = text.strip()
    if len(text) < 6 or not (text.startswith("```") and text.endswith("```")):
        return text
    inner = text[3:-3]
    return (inner[4:] if inner.startswith("json") else inner).strip()


def _json_tool_calls(text: str) -> list[Any] | None:
    """Tool calls when the whole text is OpenAI-style JSON (optionally fenced); None when it is not such JSON.
    Raises `ActionLimitError` for JSON the parser refuses (see `decode_json`)."""
    candidate = _unfenced(text)
    if not candidate.startswith(("{", "[")):
        return None
    try:
        data = decode_json(candidate)
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
    """Qwen/Hermes `<tool_call>{...}</tool_call>` blocks (several allowed), or OpenAI-style JSON tool calls.

    Bounded: an action longer than `max_length`, holding more than `max_calls` tool calls, or whose JSON nests
    deeper than `max_depth` is a format error (no call of it runs); `parse` never raises for any string.
    """

    def __init__(
        self, *, max_length: int = MAX_ACTION_LENGTH, max_calls: int = MAX_TOOL_CALLS, max_depth: int = MAX_JSON_DEPTH
    ) -> None:
        self.max_length = max_length
        self.max_calls = max_calls
        self.max_depth = max_depth

    def parse(self, action: str) -> ParsedAction:
        """Parse one action; text outside tool-call blocks is the message to the user."""
        if len(action) > self.max_length:
            return ParsedAction(errors=[too_long(len(action), self.max_length)])
        reasoning, text = split_reasoning(action)
        parsed = ParsedAction(reasoning=reasoning)
        blocks = _TOOL_CALL.findall(text)
        if blocks:
            if len(blocks) > self.max_calls:
                parsed.errors.append(self._too_many(len(blocks)))
                return parsed
            for index, block in enumerate(blocks, start=1):
                try:
                    parsed.tool_calls.append(_call_from_object(decode_json(block, self.max_depth)))
                except json.JSONDecodeError as exc:
                    parsed.errors.append(f"tool call #{index} is not valid JSON ({exc.msg} at char {exc.pos})")
                except ActionLimitError as exc:
                    parsed.errors.append(f"tool call #{index} is refused: {exc}")
                except ValueError as exc:
                    parsed.errors.append(f"tool call #{index}: {exc}")
            parsed.message = _TOOL_CALL.sub("", text).strip()
            return parsed
        try:
            objects = _json_tool_calls(text)
        except ActionLimitError as exc:
            parsed.errors.append(f"the action's JSON is refused: {exc}")
            return parsed
        if objects is None:
            parsed.message = text
            return parsed
        if len(objects) > self.max_calls:
            parsed.errors.append(self._too_many(len(objects)))
            return parsed
        for index, obj in enumerate(objects, start=1):
            try:
                parsed.tool_calls.append(_call_from_object(obj))
            except ValueError as exc:
                parsed.errors.append(f"tool call #{index}: {exc}")
        return parsed

    def _too_many(self, count: int) -> str:
        return f"the action holds {count} tool calls; at most {self.max_calls} are allowed in one action, none ran"
