"""Tool execution: validate arguments, run the tool atomically, turn every failure into a clear error outcome."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError, StatementError

from .errors import ToolError
from .spec import EnvironmentSpec

Caller = Literal["agent", "user", "system"]


@dataclass(frozen=True)
class ToolOutcome:
    """Result of one tool call. `arguments` are the validated arguments (defaults filled) when validation passed."""

    name: str
    arguments: dict[str, Any]
    ok: bool
    output: Any = None
    error: str | None = None
    error_kind: str | None = None
    read_only: bool = False

    @property
    def text(self) -> str:
        """What the caller sees: the JSON output, or `Error: ...`."""
        if self.ok:
            return json.dumps(self.output, ensure_ascii=False)
        return f"Error: {self.error}"


def format_validation_error(error: ValidationError, limit: int = 5, texts: dict[str, str] | None = None) -> str:
    """A short, input-free summary of a pydantic validation error; `texts` (argument -> the product's own error
    text) replace the validator's wording for the arguments that have one."""
    parts = []
    for item in error.errors()[:limit]:
        location = ".".join(str(p) for p in item["loc"]) or "arguments"
        message = item["msg"]
        if item["type"] == "extra_forbidden":
            message = "unexpected argument"
        elif texts and item["loc"] and item["loc"][0] in texts and item["type"] != "missing":
            message = texts[str(item["loc"][0])]
        parts.append(f"{location}: {message}")
    more = len(error.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


class ToolExecutor:
    """Runs tools of one environment against one state handle. Every call is atomic: a failure changes nothing."""

    def __init__(self, spec: EnvironmentSpec, database: Any) -> None:
        self.spec = spec
        self.database = database
        self.hidden: frozenset[str] = frozenset()  # tools the agent cannot call yet (they arrive in a later turn)

    def call(self, name: Any, arguments: Any, caller: Caller = "agent") -> ToolOutcome:
        """Validate and execute one call; never raises for bad input or tool failures."""
        tool = self.spec.tools.get(name) if isinstance(name, str) else None
        if tool is not None and caller == "agent" and tool.name in self.hidden:
            tool = None
        if tool is None:
            shown = name if isinstance(name, str) and len(name) <= 80 else "<invalid name>"
            available = ", ".join(t.name for t in self.spec.agent_tools if t.name not in self.hidden)
            return _failure(
                str(shown), arguments, "unknown_tool", f"unknown tool '{shown}'. Available tools: {available}"
            )
        if tool.user_only and caller == "agent":
            return _failure(
                tool.name,
                arguments,
                "user_only",
                f"'{tool.name}' can only be performed by the user; ask the user to do it",
            )
        if not isinstance(arguments, dict):
            return _failure(tool.name, {}, "invalid_arguments", f"arguments for '{tool.name}' must be a JSON object")
        try:
            validated = tool.input_model.model_validate(arguments)
        except ValidationError as exc:
            return _failure(
                tool.name,
                arguments,
                "invalid_arguments",
                f"invalid arguments for '{tool.name}': {format_validation_error(exc, texts=tool.error_texts)}",
            )
        kwargs = {field: getattr(validated, field) for field in tool.input_model.model_fields}
        normalized = validated.model_dump(mode="json")
        try:
            with self.database.state.atomic(read_only=tool.read_only):
                result = tool.func(self.database, **kwargs)
                output = tool.output_adapter.dump_python(result, mode="json", warnings=False)
        except ToolError as exc:
            outcome = _failure(tool.name, normalized, exc.kind, f"{exc.kind}: {exc}", tool.read_only)
        except (IntegrityError, sqlite3.IntegrityError) as exc:
            detail = str(getattr(exc, "orig", exc)).split("\n")[0]
            outcome = _failure(tool.name, normalized, "Conflict", f"Conflict: {detail}", tool.read_only)
        except (StatementError, sqlite3.Error) as exc:
            detail = str(getattr(exc, "orig", exc)).split("\n")[0]
            outcome = _failure(tool.name, normalized, "internal", f"'{tool.name}' failed: {detail}", tool.read_only)
        except Exception as exc:  # a bug in a tool must not end the episode
            outcome = _failure(
                tool.name, normalized, "internal", f"'{tool.name}' failed: {type(exc).__name__}: {exc}", tool.read_only
            )
        else:
            outcome = ToolOutcome(tool.name, normalized, True, output, read_only=tool.read_only)
        self.database.clock.advance()
        return outcome


def _failure(name: str, arguments: Any, kind: str, message: str, read_only: bool = False) -> ToolOutcome:
    args = arguments if isinstance(arguments, dict) else {}
    return ToolOutcome(name, args, False, error=message, error_kind=kind, read_only=read_only)
