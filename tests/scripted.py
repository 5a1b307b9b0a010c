"""Scripted agents for reward tests: fixed actions per turn."""

from __future__ import annotations

from envfactory_gym.agents import format_call


class ScriptAgent:
    """Plays a fixed list of actions per turn, then ends the turn."""

    def __init__(self, turns: list[list[str]]) -> None:
        self.turns = turns

    def reset(self, env, info) -> None:
        self.queue: list[str] = []
        self.turn = -1

    def act(self, observation, info) -> str:
        if info["turn"] != self.turn:
            self.turn = info["turn"]
            self.queue = list(self.turns[self.turn]) if self.turn < len(self.turns) else []
        return self.queue.pop(0) if self.queue else "Done."


def calls_text(calls) -> list[str]:
    """Ground-truth calls as action texts."""
    return [format_call(c.name, c.arguments) for c in calls]
