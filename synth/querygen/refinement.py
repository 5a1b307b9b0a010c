"""Calibrated refinement (paper 3.4): implicit reference, action compression, ambiguity introduction and goal
expansion, chosen per turn with calibrated probabilities; the result is checked for recited internal ids."""

from __future__ import annotations

import json
import random

from envfactory_gym.llm import find_internal_ids, load_prompt
from envfactory_gym.llm.state_view import row_label
from envfactory_gym.session import ToolSession
from envfactory_gym.state import CanonicalState
from envfactory_gym.tasks import GroundTruthCall

from .context import PROMPTS, QueryGenConfig, QueryGenContext, call_text, history_text, persona_text
from .models import Plan, RefineAnswer, SynthesisError, TurnDraft

STAGE = "querygen.refine"
KINDS = ("implicit_reference", "action_compression", "ambiguity_introduction", "goal_expansion")


def choose_refinements(rng: random.Random, calls: int, config: QueryGenConfig) -> list[str]:
    """The kinds applied to one turn: implicit reference always; action compression (turns of 2+ calls),
    ambiguity and goal expansion (turns of at most 4 calls, so the turn stays within 5) by their probabilities."""
    kinds = ["implicit_reference"]
    if calls >= 2 and rng.random() < config.p_action_compression:
        kinds.append("action_compression")
    if rng.random() < config.p_ambiguity:
        kinds.append("ambiguity_introduction")
    if calls <= 4 and rng.random() < config.p_goal_expansion:
        kinds.append("goal_expansion")
    return kinds


def instructions(kinds: list[str]) -> str:
    """The selected kinds' instructions, each from its own prompt file."""
    return "\n".join(load_prompt(f"{STAGE}.{kind}", PROMPTS).render()[0]["content"] for kind in kinds)


def references(ids: dict[str, str], states: list[CanonicalState], texts: list[str]) -> str:
    """`- <id>: <table> "<label>"` for every internal id that the texts mention."""
    mentioned = sorted({i for text in texts for i in find_internal_ids(text, ids)})
    lines = []
    for key in mentioned:
        table = ids[key]
        row = next((s[table][key] for s in states if key in s.get(table, {})), {})
        lines.append(f'- {key}: {table} "{row_label(row)}"')
    return "\n".join(lines) or "(none)"


async def refine(
    ctx: QueryGenContext,
    plan: Plan,
    draft: TurnDraft,
    session: ToolSession,
    history: list[tuple[str, list[str]]],
    kinds: list[str],
    ids: dict[str, str],
    states: list[CanonicalState],
) -> None:
    """Rewrite `draft.articulated` into `draft.refined`; with goal expansion, the extra call is executed in
    `session` and joins the turn's calls. Each problem (a recited id, a missing or failing extra call) is shown
    to the model, up to `refine_retries` times; raises SynthesisError if it persists."""
    calls_text = "\n".join(f"- {call_text(c.name, c.arguments, c.caller)}" for c in draft.calls)
    messages = ctx.prompt(STAGE).render(
        product=ctx.spec.product,
        refinements=instructions(kinds),
        persona=persona_text(plan.persona),
        scenario=plan.persona.scenario,
        history=history_text(history),
        draft=draft.articulated,
        calls=calls_text,
        references=references(ids, states, [draft.articulated, calls_text]),
    )
    problems: list[str] = []
    for _ in range(ctx.config.refine_retries + 1):
        answer = RefineAnswer.model_validate(await ctx.model.acomplete_json(STAGE, messages, RefineAnswer))
        problems = []
        leaked = find_internal_ids(answer.query, ids)
        if leaked:
            problems.append(f"the request still contains internal identifiers ({', '.join(leaked)})")
        extra = None
        if "goal_expansion" in kinds:
            extra, problem = _extra_call(ctx, answer, session)
            problems += [problem] if problem else []
        if not problems:
            draft.refined = answer.query.strip()
            draft.refinements = {kind: answer.applied.get(kind, "") for kind in kinds}
            if extra is not None:
                call, outcome = extra
                draft.calls.append(call)
                draft.outcomes.append(outcome)
            return
        messages = messages + [
            {"role": "assistant", "content": json.dumps(answer.model_dump(mode="json"), ensure_ascii=False)},
            {"role": "user", "content": f"This does not work: {'; '.join(problems)}. Answer again, fixing it."},
        ]
    raise SynthesisError(STAGE, "; ".join(problems))


def _extra_call(ctx: QueryGenContext, answer: RefineAnswer, session: ToolSession):
    """Execute goal expansion's extra call; ((call, outcome), "") on success, (None, problem) otherwise (the
    session is left unchanged then)."""
    extra = answer.extra_call
    if extra is None:
        return None, "goal_expansion needs an extra_call"
    tool = ctx.spec.tools.get(extra.tool)
    if tool is None or tool.user_only:
        return None, f"extra_call names '{extra.tool}', which is not a tool the assistant has"
    start, start_time = session.state.snapshot(), session.clock.now()
    outcome = session.call(extra.tool, extra.arguments)
    if not outcome.ok:
        session.restore_bytes(start, start_time)
        return None, f"the extra call {call_text(extra.tool, extra.arguments)} fails: {outcome.error}"
    return (GroundTruthCall(name=extra.tool, arguments=extra.arguments), outcome), ""
