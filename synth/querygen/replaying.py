"""Re-execution of a conversation's calls from the task's starting state: the ground truth of evaluation and
masking is always checked by running it again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from envfactory_gym.execution import ToolOutcome
from envfactory_gym.session import ToolSession
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall

from .context import QueryGenContext
from .models import Plan


@dataclass
class Rerun:
    """Outcomes per turn and the state after each turn."""

    outcomes: list[list[ToolOutcome]]
    states: list[CanonicalState]

    @property
    def ok(self) -> bool:
        """Every call succeeded."""
        return all(o.ok for turn in self.outcomes for o in turn)

    @property
    def final(self) -> CanonicalState:
        """State after the last turn."""
        return self.states[-1]


def rerun(ctx: QueryGenContext, plan: Plan, turns: list[list[GroundTruthCall]]) -> Rerun:
    """Execute the turns' calls (each as its caller) on a fresh session restored to the planned state."""
    session = ToolSession(ctx.spec)
    try:
        session.restore_bytes(plan.snapshot_bytes, ctx.clock)
        outcomes, states = [], []
        for calls in turns:
            outcomes.append([session.call(c.name, c.arguments, caller=c.caller) for c in calls])
            states.append(session.dump())
        return Rerun(outcomes, states)
    finally:
        session.close()


def leaves(value: Any) -> Iterator[Any]:
    """Scalar values inside a JSON value (dict values and list items, recursively)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    elif value is not None and not isinstance(value, bool):
        yield value


def informative(value: Any) -> bool:
    """Whether a scalar is specific enough to say where it came from (not `0`, `1`, `""` or `"a"`)."""
    if isinstance(value, str):
        return len(value.strip()) >= 4
    return isinstance(value, (int, float)) and abs(value) >= 10
