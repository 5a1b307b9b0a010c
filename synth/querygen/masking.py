"""Masking (paper 3.4): an argument is masked when its value does not matter, shown by re-executing the task
with varied values: every call still succeeds, every turn ends in the same state, and the later calls still
find the values they took from this call's output."""

from __future__ import annotations

from typing import Any

from envfactory_gym.tasks import GroundTruthCall

from .context import QueryGenContext
from .models import Plan
from .replaying import informative, leaves, rerun

_MISSING = object()


def _options(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in schema.get("anyOf", [schema]) if o.get("type") != "null"]


def variants(schema: dict[str, Any], value: Any) -> list[Any]:
    """Other plausible values for an argument (`value` is the one sent, or the schema default when absent);
    empty when no safe variation exists (objects, lists, an absent free-text argument)."""
    for option in _options(schema):
        if "enum" in option:
            return [v for v in option["enum"] if v != value][:3]
        kind = option.get("type")
        if kind == "boolean" and isinstance(value, bool):
            return [not value]
        if kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return [value + 1, value * 2 if value else 5]
        if kind == "number" and isinstance(value, (int, float)):
            return [value + 1.5]
        if kind == "string" and isinstance(value, str) and value.strip():
            words = value.split()
            shorter = [words[0], words[-1]] if len(words) > 1 else [value[: max(1, len(value) // 2)]]
            return [v for v in dict.fromkeys(shorter) if v.casefold() != value.casefold()]
    return []


def _value(call: GroundTruthCall, name: str, field: Any) -> Any:
    if name in call.arguments:
        return call.arguments[name]
    return _MISSING if field.is_required() else field.default


def mask_arguments(ctx: QueryGenContext, plan: Plan, turns: list[list[GroundTruthCall]]) -> list[list[GroundTruthCall]]:
    """The turns with each agent call's `masked` filled by re-execution (user calls are never masked)."""
    base = rerun(ctx, plan, turns)
    if not base.ok:
        raise ValueError("the ground truth does not replay")
    flat = [(t, i) for t, calls in enumerate(turns) for i in range(len(calls))]
    masked_turns = [[c.model_copy(deep=True) for c in calls] for calls in turns]
    for position, (t, i) in enumerate(flat):
        call = turns[t][i]
        if call.caller == "user":
            continue
        tool = ctx.spec.tools[call.name]
        later_values = {v for (lt, li) in flat[position + 1 :] for v in leaves(turns[lt][li].arguments)}
        needed = {v for v in leaves(base.outcomes[t][i].output) if informative(v)} & later_values
        properties = tool.input_schema.get("properties", {})
        masked = []
        for name, field in tool.input_model.model_fields.items():
            value = _value(call, name, field)
            tried = variants(properties.get(name, {}), value) if value is not _MISSING else []
            if tried and all(_still_holds(ctx, plan, turns, base, t, i, name, v, needed) for v in tried):
                masked.append(name)
        masked_turns[t][i].masked = masked
    return masked_turns


def _still_holds(ctx, plan, turns, base, t: int, i: int, name: str, value: Any, needed: set) -> bool:
    """Re-execute with one argument changed: all calls succeed, states per turn equal, later inputs found."""
    varied = [list(calls) for calls in turns]
    call = turns[t][i]
    varied[t][i] = GroundTruthCall(name=call.name, arguments={**call.arguments, name: value}, caller=call.caller)
    result = rerun(ctx, plan, varied)
    if not result.ok or result.states != base.states:
        return False
    return needed <= set(leaves(result.outcomes[t][i].output))
