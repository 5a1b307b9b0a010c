"""The agent's system prompt and OpenAI chat-format message builders."""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import lru_cache
from typing import Any

from .spec import EnvironmentSpec

SYSTEM_TEMPLATE = """You are the assistant of a user of {product}. {description}
The current date and time is {now}.

# Tools

You can call functions to read and change the user's {product} data. Their signatures, inside <tools></tools>:
<tools>
{tools}
</tools>

To call a function, write a JSON object with its name and arguments inside <tool_call></tool_call> tags:
<tool_call>
{{"name": "<function name>", "arguments": {{<arguments as a JSON object>}}}}
</tool_call>
You may make several calls in one reply. Function results come back inside <tool_response></tool_response>.
Act only on what the user asked. When the request is handled, or you need something from the user, answer in
plain text without any tool call: that ends your turn."""


#: The tool name of the result that reports an unparsable tool call.
FORMAT_ERROR_TOOL = "format_error"
_TOOL_LISTING = re.compile(r"# Tools\n.*?</tool_response>\.\n", re.S)
NATIVE_TOOLS_NOTE = (
    "# Tools\n\nYou can call the functions you are given to read and change the user's data, several "
    "in one reply if needed.\n"
)


@lru_cache(maxsize=1024)
def without_tool_listing(system: str) -> str:
    """The system prompt for native tool calling: its text listing of the tools and the `<tool_call>` format
    replaced by a short note (the schemas travel as the request's `tools`). Other text is returned unchanged.
    Kept per prompt: a policy asks at every step of every episode, and the prompts are few."""
    return _TOOL_LISTING.sub(lambda match: NATIVE_TOOLS_NOTE, system, count=1)


@lru_cache(maxsize=4096)
def system_prompt(spec: EnvironmentSpec, now: datetime, hidden: frozenset[str] = frozenset()) -> str:
    """The system prompt with the agent tools' schemas (those `hidden` until a later turn left out), for the moment
    `now` of the task's clock."""
    tools = "\n".join(
        json.dumps(t, ensure_ascii=False) for t in spec.openai_tools if t["function"]["name"] not in hidden
    )
    return SYSTEM_TEMPLATE.format(
        product=spec.product, description=spec.description, now=now.strftime("%A %Y-%m-%d %H:%M UTC"), tools=tools
    )


def assistant_message(content: str, calls: list[tuple[str, Any, Any]]) -> dict[str, Any]:
    """An assistant message; `calls` holds (id, name, arguments) in OpenAI tool-call form."""
    message: dict[str, Any] = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": str(name), "arguments": json.dumps(arguments, ensure_ascii=False, default=str)},
            }
            for call_id, name, arguments in calls
        ]
    return message


def tool_message(call_id: str, name: str, content: str) -> dict[str, Any]:
    """A tool result message."""
    return {"role": "tool", "tool_call_id": call_id, "name": name, "content": content}


def new_tools_note(tools: list[dict[str, Any]]) -> str:
    """What the agent reads when tools become available in the middle of a task."""
    listing = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return f"New functions are available from now on:\n<tools>\n{listing}\n</tools>"


def tool_response(content: str) -> str:
    """A tool result as the agent reads it in a text observation."""
    return f"<tool_response>\n{content}\n</tool_response>"
