"""Audit a trajectory: re-run its tool calls alone, on a fresh session of its task, to get the state it must
have ended in if nothing but its own calls touched its env (an isolation check)."""

from __future__ import annotations

import json

from ..registry import resolve
from ..session import ToolSession
from ..state import CanonicalState
from ..tasks import load_tasks, replay_calls
from .trajectory import Trajectory


def replay_trajectory(trajectory: Trajectory) -> CanonicalState:
    """The canonical state after replaying, turn by turn, the user's own calls and the trajectory's tool calls
    (as recorded in its assistant messages) from the task's snapshot and clock."""
    spec = resolve(trajectory.env_id)
    task = load_tasks(spec)[trajectory.task_id]
    session = ToolSession(spec)
    try:
        session.reset(task.snapshot, task.clock)
        turn = -1
        for message in trajectory.messages:
            if message["role"] == "user":
                turn += 1
                replay_calls(session, task.turns[turn].user_calls)
            for call in message.get("tool_calls") or []:
                session.call(call["function"]["name"], json.loads(call["function"]["arguments"]))
        return session.dump()
    finally:
        session.close()
