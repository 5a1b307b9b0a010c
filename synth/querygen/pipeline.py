"""QueryGen end to end for one chain: plan, generate and refine each turn, interact k times, evaluate, mask,
and emit the task with its SFT and RL data."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from envfactory_gym.llm import internal_ids, load_prompt
from envfactory_gym.session import DEFAULT_SNAPSHOT, ToolSession
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall, Task, Turn
from envfactory_gym.users.llm import STAGE as USER_STAGE

from .context import QueryGenContext, call_text
from .evaluation import CandidateScore, drop_needless_turns, filter_candidate, rank, score_candidate
from .export import rl_rows, sft_samples
from .generation import articulate, decompose
from .interaction import agent_system_prompt, run_candidates
from .masking import mask_arguments
from .models import Candidate, Plan, SynthesisError, TurnDraft
from .planning import plan as make_plan
from .refinement import choose_refinements, refine
from .replaying import rerun

STAGES = ("querygen.plan", "querygen.decompose", "querygen.articulate", "querygen.refine", "querygen.agent", USER_STAGE)


@dataclass
class SynthesisResult:
    """One synthesized task and everything that led to it."""

    task: Task
    snapshot: dict[str, Any] | None  # the starting state to save when planning added rows
    plan: Plan
    drafts: list[TurnDraft]
    candidates: list[Candidate]
    scores: list[CandidateScore]
    chosen: int
    sft: list[dict[str, Any]] = field(default_factory=list)
    rl: list[dict[str, Any]] = field(default_factory=list)


def _changed_keys(before: CanonicalState, after: CanonicalState) -> list[str]:
    return [key for table in after for key, row in after[table].items() if before.get(table, {}).get(key) != row]


async def generate_turns(
    ctx: QueryGenContext, plan: Plan, rng: random.Random
) -> tuple[list[TurnDraft], CanonicalState, CanonicalState]:
    """Decompose, execute, articulate and refine every planned turn in one session; returns the drafts and the
    initial and planned final states."""
    session = ToolSession(ctx.spec)
    try:
        session.restore_bytes(plan.snapshot_bytes, ctx.clock)
        initial = session.dump()
        drafts: list[TurnDraft] = []
        history: list[tuple[str, list[str]]] = []
        for tools in plan.turn_tools:
            before = session.dump()
            focus = plan.focus + _changed_keys(initial, before)
            subgoals, calls, outcomes = await decompose(ctx, plan, tools, session, history, focus)
            draft = TurnDraft(tools, subgoals, calls, outcomes)
            draft.articulated = await articulate(ctx, plan, subgoals, calls, history)
            after = session.dump()
            kinds = choose_refinements(rng, len(calls), ctx.config)
            ids = {**internal_ids(before), **internal_ids(after)}
            await refine(ctx, plan, draft, session, history, kinds, ids, [before, after])
            history.append((draft.refined, [call_text(c.name, c.arguments, c.caller) for c in draft.calls]))
            drafts.append(draft)
        return drafts, initial, session.dump()
    finally:
        session.close()


def evaluate(
    ctx: QueryGenContext,
    plan: Plan,
    planned: Task,
    candidates: list[Candidate],
    initial: CanonicalState,
    expected: CanonicalState,
) -> tuple[list[CandidateScore], Candidate, list[tuple[str, list[GroundTruthCall], int]]]:
    """Score and rank the candidates; the best one that reaches the planned state (within `min_state_score`)
    and whose filtered calls replay and fit the task format wins. Returns the scores, the winner and its
    turns (query, masked calls, segment). Raises SynthesisError when none qualifies."""
    scores = [score_candidate(ctx, c, initial, expected, planned.calls) for c in candidates]
    reasons = []
    for score in rank(scores):
        candidate = candidates[score.index]
        if not score.finished or score.state < ctx.config.min_state_score:
            reasons.append(f"candidate {score.index}: finished={score.finished}, state={score.state:.2f}")
            continue
        try:
            turns = drop_needless_turns(candidate, filter_candidate(ctx, plan, candidate))
            masked = mask_arguments(ctx, plan, [calls for _, calls, _ in turns])
        except ValueError as exc:
            reasons.append(f"candidate {score.index}: {exc}")
            continue
        if any(len(calls) > 5 for calls in masked):
            reasons.append(f"candidate {score.index}: a turn needs more than 5 calls")
            continue
        return scores, candidate, [(q, calls, s) for (q, _, s), calls in zip(turns, masked)]
    raise SynthesisError("evaluation", "; ".join(reasons) or "no candidates")


async def synthesize(ctx: QueryGenContext, chain: list[str], task_id: str, seed: int) -> SynthesisResult:
    """The whole pipeline for one chain (tool names, in order). Raises SynthesisError naming the stage that
    gave up."""
    unknown = [name for name in chain if name not in ctx.spec.tools]
    if unknown or not chain:
        raise SynthesisError("chain", f"unknown tools {unknown}" if unknown else "empty chain")
    rng = random.Random(seed)
    plan = await make_plan(ctx, chain, rng)
    drafts, initial, expected = await generate_turns(ctx, plan, rng)
    snapshot_name = f"qg-{task_id}" if plan.new_rows else DEFAULT_SNAPSHOT
    planned = Task(
        id=task_id,
        snapshot=snapshot_name,
        clock=ctx.clock,
        user=plan.persona,
        turns=[Turn(query=d.refined, calls=d.calls) for d in drafts],
    )
    candidates = await run_candidates(ctx, plan, planned)
    scores, chosen, turns = evaluate(ctx, plan, planned, candidates, initial, expected)
    task = Task(
        id=task_id,
        snapshot=snapshot_name,
        clock=ctx.clock,
        user=plan.persona,
        turns=[Turn(query=query, calls=calls) for query, calls, _ in turns],
        provenance=_provenance(ctx, chain, seed, plan, drafts, scores, chosen),
    )
    snapshot = plan.snapshot if plan.new_rows else None
    closings = [chosen.segments[segment].closing for _, _, segment in turns]
    result = SynthesisResult(task, snapshot, plan, drafts, candidates, scores, chosen.index)
    result.sft = sft_samples(task_id, chosen, agent_system_prompt(ctx), ctx.spec.openai_tools)
    outcomes = rerun(ctx, plan, [turn.calls for turn in task.turns]).outcomes
    result.rl = rl_rows(ctx.spec, task, outcomes, closings)
    return result


def _provenance(
    ctx: QueryGenContext,
    chain: list[str],
    seed: int,
    plan: Plan,
    drafts: list[TurnDraft],
    scores: list[CandidateScore],
    chosen: Candidate,
) -> dict[str, Any]:
    """Where the task came from: model, prompt versions, chain, seed, the planned turns and the candidates."""
    return {
        "method": "querygen",
        "model": str(getattr(ctx.model, "model", None) or type(ctx.model).__name__),
        "prompts": {stage: (load_prompt(stage) if stage == USER_STAGE else ctx.prompt(stage)).id for stage in STAGES},
        "chain": chain,
        "seed": seed,
        "turn_tools": plan.turn_tools,
        "new_rows": {table: len(rows) for table, rows in plan.new_rows.items()},
        "turns": [
            {
                "blueprint": [c.model_dump(exclude_defaults=True) for c in d.calls],
                "articulated": d.articulated,
                "refined": d.refined,
                "refinements": d.refinements,
            }
            for d in drafts
        ],
        "candidates": [s.__dict__ for s in scores],
        "chosen": chosen.index,
    }
