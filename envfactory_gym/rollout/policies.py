"""Policies for rollouts: the `Policy` signature, and a zero-latency policy that replays the ground truth."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterable, Protocol

from ..agents import format_call
from ..prompts import system_prompt, without_tool_listing
from ..registry import resolve
from ..tasks import GroundTruthCall, Task, load_tasks

Messages = list[dict[str, Any]]


@dataclass(frozen=True)
class PolicyReply:
    """A policy's action with the tokens it cost (what model-backed policies return; a plain `str` costs none)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Policy(Protocol):
    """Any async callable from the conversation so far (OpenAI chat format) and the tool schemas to the next
    model output text (tool calls in `<tool_call>` blocks, or a message to the user), as a `str` or a
    `PolicyReply`."""

    async def __call__(self, messages: Messages, tools: list[dict[str, Any]]) -> str | PolicyReply: ...


class GroundTruthPolicy:
    """Plays the ground truth of whichever task the conversation belongs to: one agent call per action, then
    `final_message` to end the turn. Zero latency; used to measure pure environment overhead and in tests.

    The task is recognised from the system prompt (with or without its tool listing, as native tool-calling
    requests send it) and the user queries so far; raises `LookupError` for a
    conversation of no known task, or one whose candidate tasks expect different calls.
    """

    def __init__(self, envs: Iterable[str], final_message: str = "Done.") -> None:
        self.final_message = final_message
        self._envs = tuple(envs)

    @cached_property
    def _tasks(self) -> dict[tuple[str, str], list[Task]]:
        """Tasks by (system prompt without its tool listing, first query), read on the first `act`: building the
        policy over the whole zoo costs nothing until it plays."""
        tasks: dict[tuple[str, str], list[Task]] = {}
        for name in self._envs:
            spec = resolve(name)
            for task in load_tasks(spec).values():
                key = (without_tool_listing(system_prompt(spec, task.clock)), task.turns[0].query)
                tasks.setdefault(key, []).append(task)
        return tasks

    def act(self, messages: Messages) -> str:
        """The next action for this conversation."""
        queries = [m["content"] for m in messages if m["role"] == "user"]
        if not messages or not queries:
            raise LookupError("the conversation has no system prompt or no user query")
        turn = len(queries) - 1
        candidates = [
            task
            for task in self._tasks.get((without_tool_listing(messages[0]["content"]), queries[0]), [])
            if [t.query for t in task.turns[: turn + 1]] == queries
        ]
        plans = {_plan(task.turns[turn].agent_calls) for task in candidates}
        if len(plans) != 1:
            raise LookupError(f"{'no' if not plans else 'more than one'} task matches this conversation")
        calls = candidates[0].turns[turn].agent_calls
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        done = sum(1 for m in messages[last_user + 1 :] if m["role"] == "assistant")
        if done < len(calls):
            return format_call(calls[done].name, calls[done].arguments)
        return self.final_message

    async def __call__(self, messages: Messages, tools: list[dict[str, Any]]) -> str:
        """`act`, as a `Policy`."""
        return self.act(messages)


def _plan(calls: list[GroundTruthCall]) -> str:
    return json.dumps([[c.name, c.arguments] for c in calls], sort_keys=True)
