"""Simulated users. The scripted user plays a task's turns in order: deterministic and free."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

from ..tasks import Task, Turn

if TYPE_CHECKING:
    from ..session import ToolSession


class SimulatedUser(Protocol):
    """The user side of an episode."""

    def start(self, task: Task) -> Turn:
        """Begin the conversation; returns the first turn."""

    def next_turn(self, agent_message: str) -> Turn | None:
        """React to the agent's message that ended its turn; the next turn, or None to stop."""


@runtime_checkable
class ContextualUser(SimulatedUser, Protocol):
    """A user that sees the episode: the Env calls `bind` at each reset, before `start`."""

    def bind(self, session: "ToolSession", messages: list[dict[str, Any]]) -> None:
        """Attach the episode's live tool session and its message list (OpenAI chat format)."""


def make_user(user: SimulatedUser | Callable[[], SimulatedUser] | str | None) -> SimulatedUser:
    """A user object from the Env's `user` argument: an instance as is, a factory (a callable with no argument,
    such as a class) called once per Env, `"scripted"`/None for the scripted user, `"llm"` for the LLM user on
    the endpoint named by the `ENVFACTORY_LLM_*` environment variables."""
    if isinstance(user, type) or (callable(user) and not hasattr(user, "start")):
        return user()
    if user is None or user == "scripted":
        return ScriptedUser()
    if user == "llm":
        from .llm import LLMUser

        return LLMUser.from_env()
    if isinstance(user, str):
        raise ValueError(f"unknown user {user!r}: use 'scripted', 'llm' or a SimulatedUser instance")
    return user


class ScriptedUser:
    """Plays the task's turns in order, whatever the agent says; stops after the last turn."""

    def __init__(self) -> None:
        self._turns: list[Turn] = []
        self._index = 0

    def start(self, task: Task) -> Turn:
        """Begin with the task's first turn."""
        self._turns = task.turns
        self._index = 0
        return self._turns[0]

    def next_turn(self, agent_message: str) -> Turn | None:
        """The next scripted turn, or None after the last."""
        self._index += 1
        return self._turns[self._index] if self._index < len(self._turns) else None
