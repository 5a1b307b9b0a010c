"""Planning (paper 3.4): user profile and scenario, a starting state consistent with the schema (the seed
snapshot plus LLM-proposed rows, validated), and the chain split into turns of 1-5 tools."""

from __future__ import annotations

import json
import random
from typing import Any

from envfactory_gym.llm import render_state
from envfactory_gym.session import DEFAULT_SNAPSHOT, ToolSession
from envfactory_gym.state import build_snapshot
from envfactory_gym.tasks import UserPersona

from .context import QueryGenContext
from .models import Plan, PlanAnswer, SynthesisError

STAGE = "querygen.plan"


def split_chain(
    chain: list[str], rng: random.Random, max_per_turn: int = 5, user_only: frozenset[str] = frozenset()
) -> list[list[str]]:
    """Consecutive groups of 1..max_per_turn tools (sizes drawn uniformly), covering the chain in order. A
    user-only tool never follows an agent tool inside a group (the user acts before asking), so the group is
    cut before it."""
    turns, index = [], 0
    while index < len(chain):
        size = rng.randint(1, min(max_per_turn, len(chain) - index))
        group = chain[index : index + size]
        cut = next((i for i in range(1, len(group)) if group[i] in user_only and group[i - 1] not in user_only), None)
        group = group[:cut] if cut else group
        turns.append(group)
        index += len(group)
    return turns


def seed_snapshot(ctx: QueryGenContext) -> dict[str, Any]:
    """The environment's seed snapshot as JSON data."""
    return json.loads(ctx.spec.snapshot_path(DEFAULT_SNAPSHOT).read_text())


def with_rows(snapshot: dict[str, Any], new_rows: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A copy of `snapshot` with rows appended to their tables."""
    tables = {name: list(rows) for name, rows in snapshot.get("tables", {}).items()}
    for table, rows in new_rows.items():
        tables.setdefault(table, []).extend(rows)
    return {**snapshot, "tables": tables}


def validate_rows(ctx: QueryGenContext, snapshot: dict[str, Any], new_rows: dict[str, Any]) -> tuple[dict, bytes]:
    """The snapshot with `new_rows` and its SQLite bytes; raises ValueError when a row breaks the schema (row
    models, primary keys, foreign keys, NOT NULL)."""
    unknown = set(new_rows) - set(ctx.spec.schema.tables)
    if unknown:
        raise ValueError(f"unknown tables {sorted(unknown)}")
    data = with_rows(snapshot, new_rows)
    try:
        return data, build_snapshot(ctx.spec.schema, data)
    except Exception as exc:  # pydantic, sqlite and SQLAlchemy errors all mean "rows do not fit"
        detail = " | ".join(line.strip() for line in str(exc).splitlines()[:8])
        raise ValueError(f"{type(exc).__name__}: {detail[:800]}") from None


async def plan(ctx: QueryGenContext, chain: list[str], rng: random.Random) -> Plan:
    """Ask for persona, scenario, focus and new rows; rows that do not fit the schema get one repair round,
    then are dropped (the seed snapshot is used as is)."""
    user_only = frozenset(name for name, tool in ctx.spec.tools.items() if tool.user_only)
    turn_tools = split_chain(chain, rng, ctx.config.max_tools_per_turn, user_only)
    seed = seed_snapshot(ctx)
    seed_bytes = build_snapshot(ctx.spec.schema, seed)
    session = ToolSession(ctx.spec)
    try:
        session.restore_bytes(seed_bytes, ctx.clock)
        state = render_state(session.dump(), budget=ctx.config.state_budget)
    finally:
        session.close()
    turns = "; ".join(f"turn {i + 1}: {', '.join(tools)}" for i, tools in enumerate(turn_tools))
    messages = ctx.prompt(STAGE).render(
        product=ctx.spec.product,
        description=ctx.spec.description,
        tools=ctx.tool_text(chain),
        turns=turns,
        schemas=ctx.schema_text(),
        state=state,
    )
    answer = PlanAnswer.model_validate(await ctx.model.acomplete_json(STAGE, messages, PlanAnswer))
    snapshot, data = seed, seed_bytes
    if answer.new_rows:
        try:
            snapshot, data = validate_rows(ctx, seed, answer.new_rows)
        except ValueError as error:
            retry = messages + [
                {"role": "assistant", "content": answer.model_dump_json()},
                {
                    "role": "user",
                    "content": f"The new rows do not fit the schema: {error}. Answer again with "
                    "corrected new_rows (or none).",
                },
            ]
            answer = PlanAnswer.model_validate(await ctx.model.acomplete_json(STAGE, retry, PlanAnswer))
            try:
                snapshot, data = validate_rows(ctx, seed, answer.new_rows)
            except ValueError:
                answer.new_rows = {}
    if not answer.scenario.strip():
        raise SynthesisError(STAGE, "the plan has no scenario")
    persona = UserPersona(name=answer.user.name, profile=answer.user.profile, scenario=answer.scenario)
    return Plan(persona, answer.focus, turn_tools, snapshot, data, answer.new_rows)
