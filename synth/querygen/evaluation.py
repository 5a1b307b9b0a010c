"""Evaluation (paper 3.4): rank the k candidates by how their state change matches the planned one, then drop
failed and redundant calls and needless user turns, re-executing to prove nothing changed."""

from __future__ import annotations

from dataclasses import dataclass

from envfactory_gym.reward import CallRecord, match_calls, state_reward
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall

from .context import QueryGenContext
from .models import Candidate, Plan, Segment, StepCall
from .replaying import informative, leaves, rerun


@dataclass(frozen=True)
class CandidateScore:
    """How well one candidate solved the planned task: user finished, state match, call match, failures."""

    index: int
    finished: bool
    state: float
    trajectory: float
    failed_calls: int
    calls: int

    @property
    def key(self) -> tuple:
        """Sort key: higher is better."""
        return (self.finished, self.state, self.trajectory, -self.failed_calls, -self.calls)


def score_candidate(
    ctx: QueryGenContext,
    candidate: Candidate,
    initial: CanonicalState,
    expected: CanonicalState,
    planned: list[GroundTruthCall],
) -> CandidateScore:
    """Compare by state (R_state against the planned final state) and by calls (R_traj against the plan)."""
    calls = candidate.agent_calls()
    records = [CallRecord(c.outcome.name, c.outcome.arguments, c.outcome.ok, c.outcome.read_only) for c in calls]
    agent_plan = [c for c in planned if c.caller == "agent"]
    matched = match_calls(ctx.spec, records, agent_plan)
    return CandidateScore(
        index=candidate.index,
        finished=candidate.finished,
        state=state_reward(initial, candidate.final_state, expected),
        trajectory=matched / len(agent_plan) if agent_plan else 1.0,
        failed_calls=sum(not c.outcome.ok for c in calls),
        calls=len(calls),
    )


def rank(scores: list[CandidateScore]) -> list[CandidateScore]:
    """Best first (ties keep candidate order)."""
    return sorted(scores, key=lambda s: s.key, reverse=True)


# ---------------------------------------------------------------------- filtering
@dataclass
class KeptCall:
    """A call that survives filtering, with where it happened."""

    segment: int
    call: StepCall
    caller: str

    def ground_truth(self) -> GroundTruthCall:
        """As a task call (the arguments exactly as sent)."""
        return GroundTruthCall(name=self.call.name, arguments=self.call.arguments, caller=self.caller)


def successful_calls(candidate: Candidate) -> list[KeptCall]:
    """User and agent calls that succeeded, in order (failed calls changed nothing)."""
    kept = []
    for index, segment in enumerate(candidate.segments):
        kept += [KeptCall(index, c, "user") for c in segment.user_calls if c.outcome.ok]
        kept += [KeptCall(index, c, "agent") for step in segment.steps for c in step.calls if c.outcome.ok]
    return kept


def _said(segments: list[Segment], upto: int) -> str:
    return " ".join(s.query for s in segments[: upto + 1]).casefold()


def drop_redundant_reads(candidate: Candidate, kept: list[KeptCall]) -> list[KeptCall]:
    """Keep a read only if a later kept call uses a value from its output that the user never said, or if the
    agent's answer in that segment quotes its output; an identical read with no write since keeps the first.
    Runs backwards, so a read that only fed a dropped read is dropped too."""
    result: list[KeptCall] = []
    for position in range(len(kept) - 1, -1, -1):
        item = kept[position]
        outcome = item.call.outcome
        if not outcome.read_only or item.caller == "user":
            result.append(item)
            continue
        said = _said(candidate.segments, item.segment)
        produced = {v for v in leaves(outcome.output) if informative(v) and str(v).casefold() not in said}
        used = {v for later in result for v in leaves(later.call.outcome.arguments)}
        closing = candidate.segments[item.segment].closing.casefold()
        quoted = any(isinstance(v, str) and v.casefold() in closing for v in produced)
        if produced & used or quoted:
            result.append(item)
    result.reverse()
    deduped, seen = [], set()
    for item in result:
        outcome = item.call.outcome
        signature = (outcome.name, repr(sorted(outcome.arguments.items())))
        if outcome.read_only and item.caller == "agent":
            if signature in seen:
                continue
            seen.add(signature)
        else:
            seen.clear()  # the state may have changed: reading again is not redundant
        deduped.append(item)
    return deduped


def group(kept: list[KeptCall], segments: int) -> list[list[GroundTruthCall]]:
    """Calls per segment, user calls first."""
    turns: list[list[GroundTruthCall]] = [[] for _ in range(segments)]
    for item in sorted(kept, key=lambda k: (k.segment, k.caller != "user")):
        turns[item.segment].append(item.ground_truth())
    return turns


def drop_redundant_writes(
    ctx: QueryGenContext, plan: Plan, kept: list[KeptCall], segments: int, final: CanonicalState
) -> list[KeptCall]:
    """Drop each agent write whose removal still re-executes cleanly to the same final state (a no-op, or a
    change undone later), last first."""
    for position in range(len(kept) - 1, -1, -1):
        item = kept[position]
        if item.caller == "user" or item.call.outcome.read_only:
            continue
        trial = kept[:position] + kept[position + 1 :]
        result = rerun(ctx, plan, group(trial, segments))
        if result.ok and result.final == final:
            kept = trial
    return kept


def filter_candidate(ctx: QueryGenContext, plan: Plan, candidate: Candidate) -> list[list[GroundTruthCall]]:
    """The candidate's calls per segment without failed, redundant and repeated calls, proven by
    re-execution to reach the candidate's final state; the failed-calls-only version if the trimmed one does
    not; raises ValueError if even that does not replay."""
    segments = len(candidate.segments)
    base = successful_calls(candidate)
    trimmed = drop_redundant_writes(ctx, plan, drop_redundant_reads(candidate, base), segments, candidate.final_state)
    for kept in (trimmed, base):
        turns = group(kept, segments)
        result = rerun(ctx, plan, turns)
        if result.ok and result.final == candidate.final_state:
            return turns
    raise ValueError("the candidate's successful calls do not replay to its final state")


def drop_needless_turns(candidate: Candidate, turns: list[list[GroundTruthCall]]) -> list[tuple[str, list, int]]:
    """(query, calls, segment index) per kept user turn. A turn without calls is needless unless the agent
    answered it with a question (a clarification the next turn answers); a needless turn before the last call
    merges its text into the next turn, trailing ones are dropped."""
    out: list[tuple[str, list, int]] = []
    carry = ""
    last_with_calls = max((i for i, calls in enumerate(turns) if calls), default=-1)
    for index, (segment, calls) in enumerate(zip(candidate.segments, turns)):
        query = f"{carry} {segment.query}".strip()
        asked = segment.closing.rstrip().endswith("?")
        if calls or (asked and index < last_with_calls):
            out.append((query, calls, index))
            carry = ""
        elif index < last_with_calls:
            carry = query
    return out
