"""Size limits on what a model sends and what it is shown, with their error texts: shared by the Env's parser and
step, and by MCP serving, so both refuse and cut the same things with the same words."""

from __future__ import annotations

import re

#: Longest action (model output) the Env accepts: `ToolUseEnv(max_action_length=...)`.
MAX_ACTION_LENGTH = 65_536
#: Longest tool result shown whole: `ToolUseEnv(max_tool_response_length=...)`.
MAX_TOOL_RESPONSE_LENGTH = 16_000
#: Deepest nesting of `[` and `{` an action's JSON may have (the zoo's arguments nest at most 4 levels, the
#: OpenAI envelope adds 4). Deeper JSON is a format error, never a recursion in the decoder.
MAX_JSON_DEPTH = 32
#: Most tool calls one action may hold; an action with more is one format error and runs none of them.
MAX_TOOL_CALLS = 32

_SURROGATE = re.compile("[\ud800-\udfff]")


def too_long(length: int, limit: int) -> str:
    """The error text of an action (or, over MCP, a call's arguments) longer than `limit` characters."""
    return f"the action is too long ({length} characters; the limit is {limit})"


def truncate(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters, else its first `limit` and a note of its full length."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [truncated, {len(text)} characters]"


def holds_surrogate(text: str) -> bool:
    """Whether `text` holds an unpaired UTF-16 surrogate (a `str` that cannot be encoded as UTF-8)."""
    return _SURROGATE.search(text) is not None


def valid_unicode(text: str) -> str:
    """`text` with every unpaired surrogate replaced by U+FFFD, so it can be stored and sent as UTF-8."""
    return _SURROGATE.sub("\ufffd", text) if holds_surrogate(text) else text
