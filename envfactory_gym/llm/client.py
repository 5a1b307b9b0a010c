"""`LLMClient`: OpenAI-compatible chat completions (vLLM, SGLang, hosted APIs) over async HTTP, with retries,
backoff, a timeout, a concurrency limit and per-stage token accounting."""

from __future__ import annotations

import asyncio
import os
import random
import time
import weakref
from dataclasses import dataclass
from typing import Any

try:  # the HTTP client that fastmcp/openai install: `httpx2` in newer stacks, `httpx` in older ones
    import httpx2 as httpx
except ImportError:  # pragma: no cover - depends on the installed stack
    import httpx  # type: ignore[no-redef]

from ..actions import split_reasoning
from .base import BaseChatModel, JSONMode
from .types import ChatResponse, LLMError, Messages

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
ENV_BASE_URL = ("ENVFACTORY_LLM_BASE_URL", "OPENAI_BASE_URL")
ENV_MODEL = ("ENVFACTORY_LLM_MODEL",)
ENV_API_KEY = ("ENVFACTORY_LLM_API_KEY", "OPENAI_API_KEY")


def env_value(names: tuple[str, ...]) -> str | None:
    """The first of these environment variables that is set and not empty."""
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


@dataclass
class _LoopResources:
    http: Any
    semaphore: asyncio.Semaphore


class LLMClient(BaseChatModel):
    """A client for one OpenAI-compatible endpoint and model.

    `base_url` (e.g. `http://localhost:8000/v1`), `model` and `api_key` come from the arguments or from
    `ENVFACTORY_LLM_BASE_URL` / `ENVFACTORY_LLM_MODEL` / `ENVFACTORY_LLM_API_KEY` (then `OPENAI_BASE_URL` /
    `OPENAI_API_KEY`). Without a model name, the first model the server lists is used (what `vllm serve` serves).
    Requests that fail with 408/409/425/429/5xx, time out or lose the connection are retried `max_retries` times
    with exponential backoff (a 429's `Retry-After` is honoured); at most `concurrency` requests run at once per
    event loop. `default_options` (temperature, max_tokens, ...) go into every request unless overridden.
    """

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 300.0,
        max_retries: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        concurrency: int = 16,
        json_mode: JSONMode = "object",
        repair_retries: int = 1,
        default_options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(json_mode=json_mode, repair_retries=repair_retries)
        base_url = base_url or env_value(ENV_BASE_URL)
        if not base_url:
            raise LLMError("no LLM endpoint: pass base_url (--llm) or set ENVFACTORY_LLM_BASE_URL")
        self.base_url = base_url.rstrip("/")
        self.model = model or env_value(ENV_MODEL)
        self.api_key = api_key or env_value(ENV_API_KEY)
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.concurrency = concurrency
        self.default_options = dict(default_options or {})
        self._jitter = random.Random(0)
        self._resources: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopResources] = (
            weakref.WeakKeyDictionary()
        )

    # ------------------------------------------------------------------ HTTP plumbing
    def _loop_resources(self) -> _LoopResources:
        """The HTTP client and semaphore of the running event loop (connections cannot cross loops)."""
        loop = asyncio.get_running_loop()
        resources = self._resources.get(loop)
        if resources is None:
            headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
            http = httpx.AsyncClient(
                base_url=self.base_url,
                headers=headers,
                timeout=httpx.Timeout(self.timeout),
                limits=httpx.Limits(max_connections=max(self.concurrency, 1) * 2),
            )
            resources = _LoopResources(http, asyncio.Semaphore(self.concurrency))
            self._resources[loop] = resources
        return resources

    async def _model_name(self, http: Any) -> str:
        if self.model is None:
            response = await http.get("/models")
            response.raise_for_status()
            listed = response.json().get("data") or []
            if not listed:
                raise LLMError(f"{self.base_url} lists no models; pass model (--model)")
            self.model = listed[0]["id"]
        return self.model

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(self.max_backoff, float(retry_after))
            except ValueError:
                pass
        base = min(self.max_backoff, self.backoff * 2**attempt)
        return base * (0.5 + 0.5 * self._jitter.random())

    # ------------------------------------------------------------------ the request
    async def acomplete(self, stage: str, messages: Messages, **opts: Any) -> ChatResponse:
        """POST `/chat/completions`; returns the first choice. Raises LLMError after the last retry, or at once
        for a non-retryable status (400, 401, 404, ...)."""
        resources = self._loop_resources()
        async with resources.semaphore:
            body = {
                "model": await self._model_name(resources.http),
                "messages": messages,
                **self.default_options,
                **opts,
            }
            problem = ""
            for attempt in range(self.max_retries + 1):
                started = time.perf_counter()
                retry_after = None
                try:
                    response = await resources.http.post("/chat/completions", json=body)
                except httpx.TimeoutException:
                    problem = f"timed out after {self.timeout:g} s"
                except httpx.TransportError as exc:
                    problem = f"connection error: {type(exc).__name__}: {exc}"
                else:
                    if response.status_code < 400:
                        result = _parse(response.json())
                        self.usage.record(
                            stage, result.prompt_tokens, result.completion_tokens, time.perf_counter() - started
                        )
                        return result
                    problem = f"HTTP {response.status_code}: {response.text[:500]}"
                    if response.status_code not in RETRY_STATUSES:
                        self.usage.record_failure(stage)
                        raise LLMError(f"[{stage}] {self.base_url}/chat/completions: {problem}", transient=False)
                    retry_after = response.headers.get("retry-after")
                if attempt < self.max_retries:
                    self.usage.record_retry(stage)
                    await asyncio.sleep(self._delay(attempt, retry_after))
            self.usage.record_failure(stage)
            raise LLMError(f"[{stage}] {self.base_url}/chat/completions failed {self.max_retries + 1} times: {problem}")

    async def aclose(self) -> None:
        """Close the HTTP connections of the running event loop."""
        resources = self._resources.pop(asyncio.get_running_loop(), None)
        if resources is not None:
            await resources.http.aclose()

    def close(self) -> None:
        """Close the blocking wrappers' connections and loop."""
        if self._loop_thread is not None:
            self._loop_thread.run(self.aclose())
        super().close()


def _parse(data: dict[str, Any]) -> ChatResponse:
    """The first choice of an OpenAI chat-completion body; `<think>` blocks and `reasoning_content` become
    `reasoning`."""
    try:
        choice = data["choices"][0]
        message = choice["message"]
    except (KeyError, IndexError, TypeError):
        raise LLMError(f"unexpected response body: {str(data)[:300]}") from None
    reasoning, content = split_reasoning(message.get("content") or "")
    reasoning = message.get("reasoning_content") or message.get("reasoning") or reasoning
    usage = data.get("usage") or {}
    return ChatResponse(
        content=content,
        tool_calls=list(message.get("tool_calls") or []),
        reasoning=reasoning or "",
        finish_reason=choice.get("finish_reason") or "stop",
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
        model=data.get("model", ""),
    )
