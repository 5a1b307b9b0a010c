"""QueryGen's data: the LLM stages' answer schemas and the pipeline's intermediate records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym.execution import ToolOutcome
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall, UserPersona


class SynthesisError(RuntimeError):
    """A task could not be synthesized; `stage` names the pipeline step that gave up."""

    def __init__(self, stage: str, reason: str) -> None:
        super().__init__(f"{stage}: {reason}")
        self.stage = stage
        self.reason = reason


# ---------------------------------------------------------------------- LLM answers
class PlannedUser(BaseModel):
    """The invented user."""

    name: str
    profile: str


class PlanAnswer(BaseModel):
    """Planning: who the user is, the scenario, the objects in focus, rows to add to the starting state."""

    user: PlannedUser
    scenario: str
    focus: list[str] = Field(default_factory=list)
    new_rows: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)


class Subgoal(BaseModel):
    """One step of a turn: the user's intent and the call that fulfils it."""

    intent: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    caller: Literal["agent", "user"] = "agent"


class DecomposeAnswer(BaseModel):
    """Subgoal decomposition of one turn."""

    subgoals: list[Subgoal] = Field(min_length=1)


class ArticulateAnswer(BaseModel):
    """Goal articulation: the explicit request."""

    query: str = Field(min_length=1)


class ExtraCall(BaseModel):
    """The secondary objective added by goal expansion, as a call."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    intent: str = ""


class RefineAnswer(BaseModel):
    """Calibrated refinement: the rewritten request and what each refinement changed."""

    query: str = Field(min_length=1)
    applied: dict[str, str] = Field(default_factory=dict)
    extra_call: ExtraCall | None = None


# ---------------------------------------------------------------------- pipeline records
@dataclass
class Plan:
    """Planning's result: persona, focus, the starting state (seed plus new rows) and the turns' tools."""

    persona: UserPersona
    focus: list[str]
    turn_tools: list[list[str]]
    snapshot: dict[str, Any]
    snapshot_bytes: bytes
    new_rows: dict[str, list[dict[str, Any]]]


@dataclass
class TurnDraft:
    """One planned turn: its subgoals, the executed blueprint calls, and the request before/after refinement."""

    tools: list[str]
    subgoals: list[Subgoal]
    calls: list[GroundTruthCall]
    outcomes: list[ToolOutcome]
    articulated: str = ""
    refined: str = ""
    refinements: dict[str, str] = field(default_factory=dict)


@dataclass
class StepCall:
    """One tool call of the agent (or of the user) during the interaction, with its outcome."""

    call_id: str
    name: str
    arguments: Any
    outcome: ToolOutcome


@dataclass
class AgentStep:
    """One assistant message: tool calls, or a text that ends the agent's turn; with the model's reasoning."""

    content: str
    reasoning: str
    calls: list[StepCall] = field(default_factory=list)


@dataclass
class Segment:
    """One user message and everything the agent did until it answered."""

    query: str
    user_calls: list[StepCall] = field(default_factory=list)
    steps: list[AgentStep] = field(default_factory=list)

    @property
    def closing(self) -> str:
        """The agent's text that ended this segment ("" if it never answered)."""
        return next((s.content for s in reversed(self.steps) if not s.calls), "")


@dataclass
class Candidate:
    """One agentic-interaction rollout: the conversation, whether the user ended it, and the final state."""

    index: int
    segments: list[Segment]
    finished: bool
    final_state: CanonicalState
    steps: int

    def agent_calls(self) -> list[StepCall]:
        """Every agent call in order."""
        return [c for s in self.segments for step in s.steps for c in step.calls]
