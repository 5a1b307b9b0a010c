"""The Ray backend: env workers are Ray actors, each holding many envs; the episodes run on the driver's loop.

The driver (where the policy client lives) keeps the asyncio episodes; every reset/step is a call to the actor
that holds the env. Actors run their calls one at a time, in the order each caller sent them, so an env is
never used by two threads, and a call sent after a cancelled one runs after it.
"""

from __future__ import annotations

import os
from typing import Any

import ray

from .pool import EnvHandle
from .worker import EnvWorker, RemoteEnvHandle


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
        # Any: Ray's stubs do not see EnvWorker's methods through an actor handle (`actor.open.remote`)
        self._actors: list[Any] = [actor_class.remote(env_kwargs) for _ in range(self.workers)]
        self._load = [0] * self.workers
        self._idle: dict[str, list[RemoteEnvHandle]] = {}

    @property
    def size(self) -> int:
        """How many envs the actors hold."""
        return sum(self._load)

    async def acquire(self, env_id: str) -> RemoteEnvHandle:
        """An idle env of `env_id`, or a new one on the actor holding the fewest envs."""
        idle = self._idle.setdefault(env_id, [])
        if idle:
            return idle.pop()
        worker = min(range(self.workers), key=self._load.__getitem__)
        self._load[worker] += 1
        actor = self._actors[worker]
        slot = await actor.open.remote(env_id)
        return RemoteEnvHandle(lambda method, *args: getattr(actor, method).remote(*args), slot, env_id)

    def release(self, handle: EnvHandle) -> None:
        """Make `handle` available again."""
        assert isinstance(handle, RemoteEnvHandle)
        self._idle[handle.env_id].append(handle)

    async def aclose(self) -> None:
        """Stop the actors (and with them their envs)."""
        for actor in self._actors:
            ray.kill(actor)
        self._actors.clear()
        self._idle.clear()
