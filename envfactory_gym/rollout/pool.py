"""Env pools: where a rollout gets a ready env for a task, and returns it afterwards. `LocalEnvPool` is threads."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, SupportsFloat

from ..registry import resolve
from ..spec import EnvironmentSpec
from .async_env import AsyncToolEnv


class EnvHandle(Protocol):
    """One environment instance as the rollout engine drives it."""

    async def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start an episode; the observation and info (with `messages` and `tools`)."""

    async def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply one model output."""

    async def state_digest(self) -> str:
        """SHA-256 of the current canonical database state."""


class EnvPool(Protocol):
    """Hands out env handles by gymnasium id; a handle is used by one episode at a time, then released."""

    async def acquire(self, env_id: str) -> EnvHandle:
        """An idle env of `env_id`, created if none is idle."""

    def release(self, handle: EnvHandle) -> None:
        """Give an env back for reuse (the next episode resets it)."""

    async def aclose(self) -> None:
        """Release every env and worker."""


class LocalEnvPool:
    """Envs in this process; their reset/step run on a shared pool of `threads` threads (see `AsyncToolEnv`)."""

    def __init__(self, threads: int | None = None, **env_kwargs: Any) -> None:
        self.threads = threads or min(32, (os.cpu_count() or 1) + 4)
        self.env_kwargs = env_kwargs
        self._executor = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="envfactory-env")
        self._idle: dict[str, list[AsyncToolEnv]] = {}
        self._all: list[AsyncToolEnv] = []
        self._specs: dict[str, EnvironmentSpec] = {}

    @property
    def size(self) -> int:
        """How many envs this pool has created (busy or idle)."""
        return len(self._all)

    async def acquire(self, env_id: str) -> AsyncToolEnv:
        """An idle env of `env_id`, or a new one."""
        idle = self._idle.setdefault(env_id, [])
        if idle:
            return idle.pop()
        if env_id not in self._specs:
            self._specs[env_id] = resolve(env_id)
        handle = await AsyncToolEnv.make(self._specs[env_id], self._executor, **self.env_kwargs)
        self._all.append(handle)
        return handle

    def release(self, handle: EnvHandle) -> None:
        """Make `handle` available again."""
        assert isinstance(handle, AsyncToolEnv)
        self._idle[handle.env.spec_env.env_id].append(handle)

    async def aclose(self) -> None:
        """Close every env (after its running call, if any) and the thread pool."""
        for handle in self._all:
            await handle.aclose()
        self._all.clear()
        self._idle.clear()
        self._executor.shutdown(wait=True)
