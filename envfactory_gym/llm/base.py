"""What every chat model shares: JSON requests with a repair retry, blocking wrappers, token accounting."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Awaitable, Literal, TypeVar

from .jsonmode import JSONAnswerError, extract_json, repair_message, schema_of, validate
from .types import ChatResponse, LLMError, Messages
from .usage import UsageTracker

T = TypeVar("T")
JSONMode = Literal["object", "schema", "none"]


class LoopThread:
    """A private event loop on a daemon thread, so blocking callers (a gymnasium `step`) can await coroutines
    even when their own thread already runs an event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="envfactory-llm", daemon=True)
        self._thread.start()

    def run(self, coro: Awaitable[T]) -> T:
        """Run `coro` on the private loop and wait for its result."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("a blocking LLM call from inside the client's own loop would deadlock")
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()  # type: ignore[arg-type]

    def stop(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        self.loop.close()


class BaseChatModel:
    """JSON completion (JSON mode, parse, validate, one repair round) and blocking wrappers on top of a
    subclass's `acomplete`. `usage` holds the per-stage token accounting."""

    def __init__(self, *, json_mode: JSONMode = "object", repair_retries: int = 1) -> None:
        self.json_mode = json_mode
        self.repair_retries = repair_retries
        self.usage = UsageTracker()
        self._loop_thread: LoopThread | None = None
        self._loop_lock = threading.Lock()

    async def acomplete(self, stage: str, messages: Messages, **opts: Any) -> ChatResponse:
        """One chat completion (implemented by each backend)."""
        raise NotImplementedError

    async def acomplete_json(self, stage: str, messages: Messages, schema: Any = None, **opts: Any) -> dict[str, Any]:
        """Ask for a JSON object; on an unparsable or invalid answer, show the model the error and ask again
        (`repair_retries` times). Returns the validated dict; raises LLMError when no answer was usable."""
        if self.json_mode == "object":
            opts.setdefault("response_format", {"type": "json_object"})
        elif self.json_mode == "schema" and schema is not None:
            opts.setdefault(
                "response_format",
                {
                    "type": "json_schema",
                    "json_schema": {"name": stage.replace(".", "_"), "schema": schema_of(schema)},
                },
            )
        conversation = list(messages)
        for attempt in range(self.repair_retries + 1):
            response = await self.acomplete(stage, conversation, **opts)
            try:
                return validate(extract_json(response.content), schema)
            except JSONAnswerError as exc:
                if attempt == self.repair_retries:
                    self.usage.record_failure(stage)
                    raise LLMError(f"[{stage}] no usable JSON answer: {exc}") from None
                self.usage.record_retry(stage)
                conversation = conversation + [
                    {"role": "assistant", "content": response.content},
                    repair_message(str(exc)),
                ]
        raise AssertionError("unreachable")

    def complete(self, stage: str, messages: Messages, **opts: Any) -> ChatResponse:
        """`acomplete`, blocking (safe to call from a thread that runs its own event loop)."""
        return self._blocking(self.acomplete(stage, messages, **opts))

    def complete_json(self, stage: str, messages: Messages, schema: Any = None, **opts: Any) -> dict[str, Any]:
        """`acomplete_json`, blocking."""
        return self._blocking(self.acomplete_json(stage, messages, schema, **opts))

    def _blocking(self, coro: Awaitable[T]) -> T:
        with self._loop_lock:
            if self._loop_thread is None:
                self._loop_thread = LoopThread()
        return self._loop_thread.run(coro)

    def close(self) -> None:
        """Stop the private loop used by the blocking wrappers (if one was started)."""
        if self._loop_thread is not None:
            self._loop_thread.stop()
            self._loop_thread = None
