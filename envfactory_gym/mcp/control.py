"""The control surface for trainers over MCP: start an episode on a task, end the agent's turn with a message, and
read the episode's reward so far. Kept off the agent's tool list: the tools are callable by name but never listed,
and named in the `envfactory.` namespace, which no environment tool can take (tool names are Python names)."""

from __future__ import annotations

import json
from typing import Any, Callable

from fastmcp.tools.base import ToolResult
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..execution import format_validation_error
from .sessions import EpisodeError, McpSession

RESET = "envfactory.reset"
RESPOND = "envfactory.respond"


class ResetArguments(BaseModel):
    """Start (or restart) this session's episode: the task's snapshot, clock and first user request."""

    model_config = ConfigDict(extra="forbid")
    task_id: str | None = Field(None, description="the task to play; without it, a task drawn with `seed`")
    seed: int | None = Field(None, description="seeds the draw of a task when no task_id is given")


class RespondArguments(BaseModel):
    """The agent's plain-text message to the user, which ends its turn; the user answers with the next request."""

    model_config = ConfigDict(extra="forbid")
    message: str = Field(description="what the agent says to the user (no tool call)")


ARGUMENTS: dict[str, type[BaseModel]] = {RESET: ResetArguments, RESPOND: RespondArguments}


def describe(episode_uri: str) -> dict[str, Any]:
    """The control surface as data (served as the `control` resource): each tool's name, description and input
    schema, and the resource that reports the episode."""
    return {
        "tools": [
            {"name": name, "description": model.__doc__, "inputSchema": model.model_json_schema()}
            for name, model in ARGUMENTS.items()
        ],
        "episode_resource": episode_uri,
        "note": "control tools are not listed in tools/list: never offer them to the agent",
    }


def run_control(session_of: Callable[[], McpSession], name: str, arguments: Any) -> ToolResult:
    """Run one control tool in the calling session; a bad request is a tool error saying what is wrong."""
    try:
        parsed = ARGUMENTS[name].model_validate(arguments or {})
    except ValidationError as exc:
        return ToolResult(
            content=f"Error: invalid arguments for '{name}': {format_validation_error(exc)}", is_error=True
        )
    try:
        session = session_of()
        if isinstance(parsed, ResetArguments):
            result = session.start_episode(parsed.task_id, parsed.seed)
        else:
            assert isinstance(parsed, RespondArguments)
            result = session.respond(parsed.message)
    except EpisodeError as exc:
        return ToolResult(content=f"Error: {exc}", is_error=True)
    return ToolResult(content=json.dumps(result, ensure_ascii=False), structured_content=result)
