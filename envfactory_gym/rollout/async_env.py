"""`AsyncToolEnv`: a `ToolUseEnv` driven from asyncio, its SQLite work run in a thread pool."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, Callable, SupportsFloat, TypeVar

from ..env import ToolUseEnv
from ..spec import EnvironmentSpec
from ..state import state_hash

T = TypeVar("T")


class AsyncToolEnv:
    """`await reset(...)` / `await step(action)` on one `ToolUseEnv`, run in `executor`, off the event loop.

    Each call runs in a worker thread, so a slow step of one episode never stalls the others. The env is used by
    one thread at a time: a call starts only after the previous one has finished, even when the coroutine that
    awaited the previous one was cancelled (its work either completes in its thread or, if it had not started,
    never runs). Cancelling a step therefore never corrupts the env; `reset` gives a clean episode.
    """

    def __init__(self, env: ToolUseEnv, executor: Executor | None = None) -> None:
        self.env = env
        self._own_executor = executor is None
        self._executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="envfactory-env")
        self._inflight: Future[Any] | None = None
        self._busy = False

    @classmethod
    async def make(
        cls, env_name: str | EnvironmentSpec, executor: Executor | None = None, **env_kwargs: Any
    ) -> AsyncToolEnv:
        """Build a `ToolUseEnv` in the executor (creating its database is SQLite work) and wrap it."""
        loop = asyncio.get_running_loop()
        env = await loop.run_in_executor(executor, lambda: ToolUseEnv(env_name, **env_kwargs))
        return cls(env, executor)

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The agent tools' schemas in OpenAI format."""
        return self.env.spec_env.openai_tools

    async def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """`ToolUseEnv.reset`, in a worker thread."""
        return await self.call_sync(lambda: self.env.reset(seed=seed, options=options))

    async def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """`ToolUseEnv.step`, in a worker thread."""
        return await self.call_sync(lambda: self.env.step(action))

    async def state_digest(self) -> str:
        """SHA-256 of the env's current canonical database state."""
        return await self.call_sync(lambda: state_hash(self.env.session.dump()))

    async def call_sync(self, fn: Callable[[], T]) -> T:
        """Run `fn()` in the executor once the env's previous call has finished; returns its result.

        Raises `RuntimeError` if another coroutine is already inside a call on this env.
        """
        if self._busy:
            raise RuntimeError("this AsyncToolEnv is already running a call: drive each env from one coroutine")
        self._busy = True
        try:
            previous = self._inflight
            if previous is not None and not previous.done():
                await asyncio.wait([asyncio.wrap_future(previous)])
            future = self._executor.submit(fn)
            self._inflight = future
            return await asyncio.wrap_future(future)
        finally:
            self._busy = False

    async def aclose(self) -> None:
        """Wait for any call still running, then release the database (and the executor if this env owns it)."""
        if self._inflight is not None and not self._inflight.done():
            await asyncio.wait([asyncio.wrap_future(self._inflight)])
        self.env.close()
        if self._own_executor:
            self._executor.shutdown(wait=True)
