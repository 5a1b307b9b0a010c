"""Generation (paper 3.4): per turn, (i) subgoal decomposition into intents and concrete calls, executed in
the environment as the turn's blueprint, and (ii) goal articulation into one explicit request."""

from __future__ import annotations

from envfactory_gym.execution import ToolOutcome
from envfactory_gym.llm import render_state
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import GroundTruthCall

from .context import QueryGenContext, call_text, history_text, persona_text
from .models import ArticulateAnswer, DecomposeAnswer, Plan, Subgoal, SynthesisError

DECOMPOSE = "querygen.decompose"
ARTICULATE = "querygen.articulate"


def execute(session: ToolSession, calls: list[GroundTruthCall]) -> list[ToolOutcome]:
    """Run calls in order as their callers; stops after the first failure (its outcome is the last)."""
    outcomes = []
    for call in calls:
        outcomes.append(session.call(call.name, call.arguments, caller=call.caller))
        if not outcomes[-1].ok:
            break
    return outcomes


def _problem(subgoals: list[Subgoal], tools: list[str]) -> str:
    named = [s.tool for s in subgoals]
    if named != tools:
        return f"the subgoals use the tools {named}, but this turn must use exactly {tools}, in that order"
    return ""


async def decompose(
    ctx: QueryGenContext,
    plan: Plan,
    tools: list[str],
    session: ToolSession,
    history: list[tuple[str, list[str]]],
    focus: list[str],
) -> tuple[list[Subgoal], list[GroundTruthCall], list[ToolOutcome]]:
    """The turn's subgoals and their calls, executed in `session` (left after the turn on success). A wrong tool
    list or a failing call is shown to the model once; raises SynthesisError if the repair fails too."""
    start, start_time = session.state.snapshot(), session.clock.now()
    messages = ctx.prompt(DECOMPOSE).render(
        product=ctx.spec.product,
        persona=persona_text(plan.persona),
        scenario=plan.persona.scenario,
        history=history_text(history),
        tools=ctx.tool_text(tools),
        state=render_state(session.dump(), focus=focus, budget=ctx.config.state_budget),
    )
    problem = ""
    for _ in range(2):
        answer = DecomposeAnswer.model_validate(await ctx.model.acomplete_json(DECOMPOSE, messages, DecomposeAnswer))
        problem = _problem(answer.subgoals, tools)
        if not problem:
            calls = [
                GroundTruthCall(
                    name=s.tool, arguments=s.arguments, caller="user" if ctx.spec.tools[s.tool].user_only else "agent"
                )
                for s in answer.subgoals
            ]
            outcomes = execute(session, calls)
            if all(o.ok for o in outcomes):
                return answer.subgoals, calls, outcomes
            failed = outcomes[-1]
            problem = f"the call {call_text(failed.name, failed.arguments)} fails: {failed.error}"
            session.restore_bytes(start, start_time)
        messages = messages + [
            {"role": "assistant", "content": answer.model_dump_json()},
            {"role": "user", "content": f"This plan does not work: {problem}. Answer again with a corrected plan."},
        ]
    raise SynthesisError(DECOMPOSE, problem)


async def articulate(
    ctx: QueryGenContext,
    plan: Plan,
    subgoals: list[Subgoal],
    calls: list[GroundTruthCall],
    history: list[tuple[str, list[str]]],
) -> str:
    """The explicit request that asks for every subgoal."""
    listed = "\n".join(f"- {s.intent} -> {call_text(c.name, c.arguments, c.caller)}" for s, c in zip(subgoals, calls))
    messages = ctx.prompt(ARTICULATE).render(
        product=ctx.spec.product,
        persona=persona_text(plan.persona),
        scenario=plan.persona.scenario,
        history=history_text(history),
        subgoals=listed,
    )
    answer = await ctx.model.acomplete_json(ARTICULATE, messages, ArticulateAnswer)
    return ArticulateAnswer.model_validate(answer).query.strip()
