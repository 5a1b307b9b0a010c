"""JSON answers: pull the JSON object out of a model's text, validate it, and build the repair request."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
}


class JSONAnswerError(ValueError):
    """The answer is not a JSON object, or does not match the schema."""


def extract_json(text: str) -> dict[str, Any]:
    """The JSON object in `text`: the whole text, a fenced block, or the outermost `{...}`; reasoning blocks
    are ignored. Raises JSONAnswerError."""
    text = _THINK.sub("", text or "").strip()
    if "</think>" in text:
        text = text.split("</think>", 1)[1].strip()
    candidates = [text] + _FENCE.findall(text)
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    error = "the answer holds no JSON object"
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError as exc:
            error = f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            continue
        if isinstance(value, dict):
            return value
        error = f"expected a JSON object, got {type(value).__name__}"
    raise JSONAnswerError(error)


def schema_of(schema: Any) -> dict[str, Any] | None:
    """The JSON schema of a pydantic model class, a dict schema as is, or None."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_json_schema()
    return schema


def validate(data: dict[str, Any], schema: Any) -> dict[str, Any]:
    """Check `data` against a pydantic model (returns its dump, defaults filled) or a dict schema (required keys
    and top-level types). Raises JSONAnswerError with a short reason."""
    if schema is None:
        return data
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            return schema.model_validate(data).model_dump(mode="json")
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}" for e in exc.errors()[:6]
            )
            raise JSONAnswerError(problems) from None
    missing = [key for key in schema.get("required", []) if key not in data]
    if missing:
        raise JSONAnswerError(f"missing keys: {', '.join(missing)}")
    for key, prop in schema.get("properties", {}).items():
        expected = _JSON_TYPES.get(prop.get("type")) if isinstance(prop.get("type"), str) else None
        if key in data and expected and not isinstance(data[key], expected):
            raise JSONAnswerError(f"{key}: expected {prop['type']}")
    return data


def repair_message(error: str) -> dict[str, str]:
    """The user message that asks the model to fix an unusable JSON answer."""
    return {
        "role": "user",
        "content": f"Your answer could not be used: {error}. Reply again with only the corrected JSON object, "
        "nothing else.",
    }
