"""Latency of each model call of an episode: a policy wrapper that times every answered request."""

from __future__ import annotations

import time
from typing import Any

from ..rollout import Policy, PolicyReply

Messages = list[dict[str, Any]]


class CallTimer:
    """Wraps a rollout policy and keeps the seconds of each call it answered, per episode.

    An episode is known by its system message: the env creates that dict at reset and every later step's message
    list holds the same object (the local env pool passes the lists through unchanged), so the timings of episodes
    running at once stay apart. `take(messages)` hands an ended episode's timings over and forgets them. Calls that
    raise (refused, cut short) are not timed.
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._episodes: dict[int, tuple[dict[str, Any], list[float]]] = {}

    async def __call__(self, messages: Messages, tools: list[dict[str, Any]]) -> str | PolicyReply:
        """The wrapped policy's answer; its duration is kept for the episode."""
        started = time.perf_counter()
        reply = await self.policy(messages, tools)
        seconds = time.perf_counter() - started
        if messages:
            first = messages[0]  # held here, so its id cannot be reused by another episode's message meanwhile
            self._episodes.setdefault(id(first), (first, []))[1].append(seconds)
        return reply

    def take(self, messages: Messages) -> list[float]:
        """The seconds of each answered call of the episode these messages belong to (empty when none)."""
        if not messages:
            return []
        first, seconds = self._episodes.pop(id(messages[0]), (None, []))
        return seconds if first is messages[0] else []

    async def aclose(self) -> None:
        """Close the wrapped policy's connections, if it holds any."""
        close = getattr(self.policy, "aclose", None)
        if close is not None:
            await close()
