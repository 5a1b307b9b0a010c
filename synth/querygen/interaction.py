"""Agentic interaction (paper 3.4): an agent (native tool calls) and the LLM simulated user play the refined
requests in an isolated ToolSession; k candidates run concurrently, each in its own session."""

from __future__ import annotations

import asyncio
import json

from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import Task, Turn
from envfactory_gym.users.llm import LLMUser

from .context import QueryGenContext
from .models import AgentStep, Candidate, Plan, Segment, StepCall

STAGE = "querygen.agent"
MAX_TOOL_TEXT = 16_000


def agent_system_prompt(ctx: QueryGenContext) -> str:
    """The agent's system message (tools travel separately, as OpenAI tool schemas)."""
    return ctx.prompt(STAGE).render(
        product=ctx.spec.product,
        description=ctx.spec.description,
        now=ctx.clock.strftime("%A %Y-%m-%d %H:%M UTC"),
    )[0]["content"]


async def run_candidate(ctx: QueryGenContext, plan: Plan, task: Task, index: int) -> Candidate:
    """One conversation: the user opens with the first planned request, the agent calls tools until it answers
    in text, the user reacts (next request, an answer, a user action, or the stop token). Stops when the user
    stops or after `max_steps` agent messages. The candidate index seeds the agent's sampling."""
    session = ToolSession(ctx.spec)
    session.restore_bytes(plan.snapshot_bytes, ctx.clock)
    user = LLMUser(ctx.model, state_budget=ctx.config.user_state_budget)
    messages: list[dict] = [{"role": "system", "content": agent_system_prompt(ctx)}]
    user.bind(session, messages)
    segments: list[Segment] = []

    def begin(turn: Turn) -> None:
        segment = Segment(query=turn.query)
        for number, call in enumerate(turn.user_calls):
            outcome = session.call(call.name, call.arguments, caller="user")
            segment.user_calls.append(StepCall(f"user_{len(segments)}_{number}", call.name, call.arguments, outcome))
        messages.append({"role": "user", "content": turn.query})
        segments.append(segment)

    try:
        begin(user.start(task))
        finished, steps = False, 0
        while steps < ctx.config.max_steps:
            steps += 1
            response = await ctx.model.acomplete(
                STAGE,
                messages,
                tools=ctx.spec.openai_tools,
                seed=index,
                temperature=ctx.config.agent_temperature,
            )
            requested = response.calls()
            if not requested:
                text = response.content.strip()
                messages.append({"role": "assistant", "content": text})
                segments[-1].steps.append(AgentStep(text, response.reasoning))
                turn = await user.anext_turn(text)
                if turn is None:
                    finished = True
                    break
                begin(turn)
                continue
            step = AgentStep(response.content.strip(), response.reasoning)
            ids = [f"call_{steps}_{n}" for n in range(len(requested))]
            messages.append(
                {
                    "role": "assistant",
                    "content": response.content or None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {
                                "name": name,
                                "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False),
                            },
                        }
                        for call_id, (_, name, args) in zip(ids, requested)
                    ],
                }
            )
            for call_id, (_, name, args) in zip(ids, requested):
                outcome = session.call(name, args)
                step.calls.append(StepCall(call_id, name, args, outcome))
                messages.append(
                    {"role": "tool", "tool_call_id": call_id, "name": name, "content": outcome.text[:MAX_TOOL_TEXT]}
                )
            segments[-1].steps.append(step)
        return Candidate(index, segments, finished, session.dump(), steps)
    finally:
        session.close()


async def run_candidates(ctx: QueryGenContext, plan: Plan, task: Task) -> list[Candidate]:
    """`k` independent candidates, concurrently."""
    return list(await asyncio.gather(*(run_candidate(ctx, plan, task, i) for i in range(ctx.config.k))))
