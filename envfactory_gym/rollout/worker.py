"""`EnvWorker`: many envs in one process, addressed by slot number (what a Ray actor or a worker process holds),
and `RemoteEnvHandle`, one of those envs as the rollout engine drives it from another process."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, SupportsFloat

from ..env import ToolUseEnv
from ..registry import resolve
from ..spec import EnvironmentSpec
from ..state import state_hash


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


#: Sends one `EnvWorker` method call to the process that holds the env: `call(method, *args)` -> its result.
RemoteCall = Callable[..., Awaitable[Any]]


class RemoteEnvHandle:
    """One env inside an `EnvWorker` in another process, with the same async API as `AsyncToolEnv`."""

    def __init__(self, call: RemoteCall, slot: int, env_id: str) -> None:
        self.call, self.slot, self.env_id = call, slot, env_id
        self._messages: list[dict[str, Any]] = []
        self._tools: list[dict[str, Any]] = []

    async def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Reset the remote env; the info is the env's own."""
        observation, info = await self.call("reset", self.slot, seed, options)
        self._messages, self._tools = list(info["messages"]), info["tools"]
        return observation, info

    async def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the remote env; the info is rebuilt to match a local env's (full messages, tools)."""
        observation, reward, terminated, truncated, info = await self.call("step", self.slot, action)
        self._messages.extend(info["messages"])
        info["messages"], info["tools"] = list(self._messages), self._tools
        return observation, reward, terminated, truncated, info

    async def state_digest(self) -> str:
        """SHA-256 of the remote env's canonical database state."""
        return await self.call("state_digest", self.slot)
