"""`OpenAIChatPolicy`: a policy served by any OpenAI-compatible chat endpoint (`vllm serve`, SGLang, OpenAI)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

try:
    import httpx2 as httpx  # the maintained successor that fastmcp and openai install
except ImportError:  # pragma: no cover - environments with the original package
    import httpx  # type: ignore[no-redef]

from ..prompts import tool_response
from .policies import Messages

ToolMode = Literal["text", "native"]
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class PolicyError(RuntimeError):
    """The endpoint refused the request, or kept failing after every retry."""


def text_messages(messages: Messages) -> Messages:
    """The env's messages as plain text chat: assistant tool calls become `<tool_call>` blocks and each run of
    tool results one user message of `<tool_response>` blocks, exactly the text the env shows the agent."""
    out: Messages = []
    after_tool = False
    for message in messages:
        role = message["role"]
        if role == "tool":
            block = tool_response(message["content"])
            if after_tool:
                out[-1]["content"] += "\n" + block
            else:
                out.append({"role": "user", "content": block})
        elif role == "assistant":
            parts = [message["content"]] if message.get("content") else []
            for call in message.get("tool_calls") or []:
                parts.append(call_text(call["function"]["name"], call["function"]["arguments"]))
            out.append({"role": "assistant", "content": "\n".join(parts)})
        else:
            out.append({"role": role, "content": message["content"]})
        after_tool = role == "tool"
    return out


def call_text(name: str, arguments: Any) -> str:
    """One call as a `<tool_call>` block; JSON-string arguments are decoded, undecodable ones kept as text (the
    env then reports them as a format error)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            pass
    return f"<tool_call>{json.dumps({'name': name, 'arguments': arguments}, ensure_ascii=False)}</tool_call>"


def completion_text(message: dict[str, Any]) -> str:
    """A chat completion message as the text the env parses: reasoning in `<think>`, content, tool calls."""
    parts = []
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if reasoning:
        parts.append(f"<think>{reasoning}</think>")
    if message.get("content"):
        parts.append(message["content"])
    for call in message.get("tool_calls") or []:
        parts.append(call_text(call["function"]["name"], call["function"].get("arguments", "{}")))
    return "\n".join(parts)


class OpenAIChatPolicy:
    """POSTs the conversation to `{base_url}/chat/completions` and returns the reply as env action text.

    - `tool_mode="text"`: the tools stay in the env's system prompt and the history is sent as text
      (`text_messages`); the model writes `<tool_call>` blocks itself (Qwen/Hermes style).
    - `tool_mode="native"`: the messages go as they are, with `tools=` in the request; the returned
      `tool_calls` are turned into `<tool_call>` text (vLLM needs `--enable-auto-tool-choice --tool-call-parser`).

    Transport errors, timeouts and 408/409/425/429/5xx answers are retried `retries` times, waiting
    `backoff * 2**attempt` seconds (or the server's `Retry-After`); other answers raise `PolicyError` at once.
    `timeout` bounds each request in seconds. One HTTP client per event loop, closed by `aclose`.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        temperature: float = 1.0,
        max_tokens: int = 4096,
        timeout: float = 120.0,
        retries: int = 3,
        backoff: float = 1.0,
        tool_mode: ToolMode = "text",
        max_connections: int = 256,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if tool_mode not in ("text", "native"):
            raise ValueError(f"tool_mode must be 'text' or 'native', not {tool_mode!r}")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.api_key = model, api_key
        self.temperature, self.max_tokens = temperature, max_tokens
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.tool_mode: ToolMode = tool_mode
        self.max_connections = max_connections
        self.extra_body = extra_body or {}
        self._clients: dict[asyncio.AbstractEventLoop, httpx.AsyncClient] = {}

    def request_body(self, messages: Messages, tools: list[dict[str, Any]]) -> dict[str, Any]:
        """The JSON body for one completion."""
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            **self.extra_body,
        }
        if self.tool_mode == "native":
            body.update(messages=messages, tools=tools, tool_choice="auto")
        else:
            body["messages"] = text_messages(messages)
        return body

    async def __call__(self, messages: Messages, tools: list[dict[str, Any]]) -> str:
        """The model's next action for this conversation."""
        data = await self._post(self.request_body(messages, tools))
        try:
            return completion_text(data["choices"][0]["message"])
        except (KeyError, IndexError, TypeError) as exc:
            raise PolicyError(f"unexpected completion: {json.dumps(data)[:500]}") from exc

    async def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        client = self._client()
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        attempt = 0
        while True:
            try:
                response = await client.post(self.url, json=body, headers=headers)
            except httpx.TransportError as exc:  # connection errors and timeouts
                if attempt >= self.retries:
                    raise PolicyError(f"{type(exc).__name__} after {attempt + 1} attempts: {exc!r}") from exc
                delay = self.backoff * 2**attempt
            else:
                if response.status_code == 200:
                    try:
                        return response.json()
                    except ValueError as exc:
                        raise PolicyError(f"invalid JSON from {self.url}: {response.text[:500]}") from exc
                if response.status_code not in RETRY_STATUS or attempt >= self.retries:
                    raise PolicyError(f"HTTP {response.status_code} from {self.url}: {response.text[:500]}")
                delay = self._delay(response, attempt)
            await asyncio.sleep(delay)
            attempt += 1

    def _delay(self, response: httpx.Response, attempt: int) -> float:
        retry_after = response.headers.get("retry-after", "")
        return float(retry_after) if retry_after.replace(".", "", 1).isdigit() else self.backoff * 2**attempt

    def _client(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        for stale in [other for other in self._clients if other.is_closed()]:
            del self._clients[stale]
        if loop not in self._clients:
            self._clients[loop] = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout),
                limits=httpx.Limits(
                    max_connections=self.max_connections, max_keepalive_connections=self.max_connections
                ),
            )
        return self._clients[loop]

    async def aclose(self) -> None:
        """Close this event loop's HTTP client."""
        client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()
