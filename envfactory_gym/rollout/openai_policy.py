"""Chat-model policies: any `ChatModel` of the project (the OpenAI-compatible `LLMClient` for `vllm serve`, SGLang
or a hosted API; the recorded test double) as a rollout policy."""

from __future__ import annotations

from typing import Any, Literal

from ..agents import format_call
from ..llm import ChatModel, ChatResponse, LLMClient, LLMError
from ..prompts import tool_response, without_tool_listing
from .policies import Messages, PolicyReply

ToolMode = Literal["text", "native"]


class PolicyError(LLMError):
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
                parts.append(format_call(call["function"]["name"], call["function"]["arguments"]))
            out.append({"role": "assistant", "content": "\n".join(parts)})
        else:
            out.append({"role": role, "content": message["content"]})
        after_tool = role == "tool"
    return out


def native_messages(messages: Messages) -> Messages:
    """The env's messages for a native tool-calling request: the system prompt without its text listing of the
    tools (they go as `tools=`), and results that answer no tool call of the conversation (the env's reports of
    unparsable calls) as user messages, since a `tool` message must answer an assistant's `tool_calls`."""
    out: Messages = []
    asked: set[str] = set()
    for message in messages:
        role = message["role"]
        if role == "system":
            out.append({**message, "content": without_tool_listing(message["content"])})
        elif role == "tool" and message.get("tool_call_id") not in asked:
            out.append({"role": "user", "content": message["content"]})
        else:
            asked.update(call["id"] for call in message.get("tool_calls") or [])
            out.append(message)
    return out


def completion_text(response: ChatResponse) -> str:
    """A chat answer as the text the env parses: reasoning in `<think>`, content, tool calls."""
    parts = [f"<think>{response.reasoning}</think>"] if response.reasoning else []
    if response.content:
        parts.append(response.content)
    for call in response.tool_calls:
        parts.append(format_call(call["function"]["name"], call["function"].get("arguments", "{}")))
    return "\n".join(parts)


class ChatPolicy:
    """Asks a `ChatModel` for the agent's next action and returns it as env action text with its token counts.

    - `tool_mode="text"`: the tools stay in the env's system prompt and the history is sent as text
      (`text_messages`); the model writes `<tool_call>` blocks itself (Qwen/Hermes style).
    - `tool_mode="native"`: the messages go in OpenAI format (`native_messages`), with `tools=` in the request;
      the returned `tool_calls` are turned into `<tool_call>` text (vLLM needs `--enable-auto-tool-choice
      --tool-call-parser`).

    `options` are request fields sent with every completion (temperature, max_tokens, chat_template_kwargs, ...).
    Requests are accounted under `stage` in the model's `usage`. A failed request raises `PolicyError`.
    """

    def __init__(self, model: ChatModel, *, tool_mode: ToolMode = "text", stage: str = "agent", **options: Any) -> None:
        if tool_mode not in ("text", "native"):
            raise ValueError(f"tool_mode must be 'text' or 'native', not {tool_mode!r}")
        self.model = model
        self.tool_mode: ToolMode = tool_mode
        self.stage = stage
        self.options = options

    def request(self, messages: Messages, tools: list[dict[str, Any]]) -> tuple[Messages, dict[str, Any]]:
        """The messages and request fields of one completion."""
        if self.tool_mode == "native":
            return native_messages(messages), {**self.options, "tools": tools, "tool_choice": "auto"}
        return text_messages(messages), dict(self.options)

    async def __call__(self, messages: Messages, tools: list[dict[str, Any]]) -> PolicyReply:
        """The model's next action for this conversation."""
        sent, options = self.request(messages, tools)
        try:
            response = await self.model.acomplete(self.stage, sent, **options)
        except LLMError as exc:
            raise PolicyError(str(exc), transient=exc.transient) from exc
        return PolicyReply(completion_text(response), response.prompt_tokens, response.completion_tokens)

    async def aclose(self) -> None:
        """Close the model's connections of the running event loop (if it holds any)."""
        close = getattr(self.model, "aclose", None)
        if close is not None:
            await close()


class OpenAIChatPolicy(ChatPolicy):
    """A `ChatPolicy` over an OpenAI-compatible endpoint (`{base_url}/chat/completions`) through `LLMClient`.

    Transport errors, timeouts and 408/409/425/429/5xx answers are retried `retries` times with exponential
    backoff from `backoff` seconds (or the server's `Retry-After`); other answers raise `PolicyError` at once.
    `timeout` bounds each request in seconds; at most `max_connections` requests are in flight per event loop.
    Without `model`, the first model the server lists is used.
    """

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
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
        client = LLMClient(
            base_url, model, api_key, timeout=timeout, max_retries=retries, backoff=backoff, concurrency=max_connections
        )
        super().__init__(
            client, tool_mode=tool_mode, temperature=temperature, max_tokens=max_tokens, **(extra_body or {})
        )
