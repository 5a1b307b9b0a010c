"""The Ray backend: env workers are Ray actors, each holding many envs; the episodes run on the driver's loop.

The driver (where the policy client lives) keeps the asyncio episodes; every reset/step is a call to the actor
that holds the env. Actors run their calls one at a time, in the order each caller sent them, so an env is
never used by two threads, and a call sent after a cancelled one runs after it.
"""

from __future__ import annotations

import os
from typing import Any, SupportsFloat

import ray

from ..env import ToolUseEnv
from ..registry import resolve
from ..spec import EnvironmentSpec
from ..state import state_hash
from .pool import EnvHandle


class EnvWorker:
    """Many `ToolUseEnv`s in one process, addressed by slot number. Step infos carry only the new messages."""

    def __init__(self, env_kwargs: dict[str, Any]) -> None:
        self.env_kwargs = env_kwargs
        self._specs: dict[str, EnvironmentSpec] = {}
        self._envs: list[ToolUseEnv] = []
        self._sent: list[int] = []  # messages of each slot's episode already sent to the driver

    def open(self, env_id: str) -> int:
        """Create an env of `env_id`; returns its slot."""
        if env_id not in self._specs:
            self._specs[env_id] = resolve(env_id)
        self._envs.append(ToolUseEnv(self._specs[env_id], **self.env_kwargs))
        self._sent.append(0)
        return len(self._envs) - 1

    def reset(self, slot: int, seed: int | None, options: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        """`ToolUseEnv.reset` of one slot (full info)."""
        observation, info = self._envs[slot].reset(seed=seed, options=options)
        self._sent[slot] = len(info["messages"])
        return observation, info

    def step(self, slot: int, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """`ToolUseEnv.step` of one slot; `info["messages"]` holds only the messages added since the last call."""
        observation, reward, terminated, truncated, info = self._envs[slot].step(action)
        messages = info["messages"]
        info["messages"], self._sent[slot] = messages[self._sent[slot] :], len(messages)
        del info["tools"]
        return observation, reward, terminated, truncated, info

    def state_digest(self, slot: int) -> str:
        """SHA-256 of one slot's canonical database state."""
        return state_hash(self._envs[slot].session.dump())

    def size(self) -> int:
        """How many envs this worker holds."""
        return len(self._envs)


class RayEnvHandle:
    """One env inside an `EnvWorker` actor, with the same async API as `AsyncToolEnv`."""

    def __init__(self, actor: Any, slot: int, env_id: str) -> None:
        self.actor, self.slot, self.env_id = actor, slot, env_id
        self._messages: list[dict[str, Any]] = []
        self._tools: list[dict[str, Any]] = []

    async def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Reset the remote env; the info is the env's own."""
        observation, info = await self.actor.reset.remote(self.slot, seed, options)
        self._messages, self._tools = list(info["messages"]), info["tools"]
        return observation, info

    async def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the remote env; the info is rebuilt to match a local env's (full messages, tools)."""
        observation, reward, terminated, truncated, info = await self.actor.step.remote(self.slot, action)
        self._messages.extend(info["messages"])
        info["messages"], info["tools"] = list(self._messages), self._tools
        return observation, reward, terminated, truncated, info

    async def state_digest(self) -> str:
        """SHA-256 of the remote env's canonical database state."""
        return await self.actor.state_digest.remote(self.slot)


class RayEnvPool:
    """`workers` `EnvWorker` actors (spread over the cluster's nodes); new envs go to the least loaded actor.

    Uses the running Ray cluster (call `ray.init(address=...)` first for a cluster; otherwise Ray starts a
    local one). `num_cpus` is what each actor reserves.
    """

    def __init__(self, workers: int | None = None, num_cpus: float = 1, **env_kwargs: Any) -> None:
        if not ray.is_initialized():
            ray.init()
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", os.cpu_count() or 1) // num_cpus))
        actor_class = ray.remote(EnvWorker).options(num_cpus=num_cpus, scheduling_strategy="SPREAD")
        self._actors = [actor_class.remote(env_kwargs) for _ in range(self.workers)]
        self._load = [0] * self.workers
        self._idle: dict[str, list[RayEnvHandle]] = {}

    @property
    def size(self) -> int:
        """How many envs the actors hold."""
        return sum(self._load)

    async def acquire(self, env_id: str) -> RayEnvHandle:
        """An idle env of `env_id`, or a new one on the actor holding the fewest envs."""
        idle = self._idle.setdefault(env_id, [])
        if idle:
            return idle.pop()
        worker = min(range(self.workers), key=self._load.__getitem__)
        self._load[worker] += 1
        slot = await self._actors[worker].open.remote(env_id)
        return RayEnvHandle(self._actors[worker], slot, env_id)

    def release(self, handle: EnvHandle) -> None:
        """Make `handle` available again."""
        assert isinstance(handle, RayEnvHandle)
        self._idle[handle.env_id].append(handle)

    async def aclose(self) -> None:
        """Stop the actors (and with them their envs)."""
        for actor in self._actors:
            ray.kill(actor)
        self._actors.clear()
        self._idle.clear()
