"""Tool specs for external tools: input models from Python signatures or JSON schemas, failures as ToolErrors."""

from __future__ import annotations

import inspect
import re
from typing import Any, Callable, Literal, Mapping, Optional, Union, get_type_hints

from pydantic import ConfigDict, Field, TypeAdapter, create_model

from ..errors import ToolError
from ..spec import ToolSpec, parse_docstring
from .objects import plain

#: Name words that mark a tool as read-only when the format has no flag for it.
READ_WORDS = frozenset(
    {
        "get",
        "list",
        "search",
        "find",
        "query",
        "fetch",
        "lookup",
        "read",
        "view",
        "show",
        "describe",
        "count",
        "retrieve",
        "browse",
        "display",
        "check",
        "is",
        "has",
    }
)
_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "float": float,
    "boolean": bool,
    "bool": bool,
    "object": dict[str, Any],
    "dict": dict[str, Any],
    "any": Any,
    "null": type(None),
}
_ANY_OUTPUT = TypeAdapter(Any)
#: Argument fields: name -> (annotation, default or ..., description).
Fields = dict[str, tuple[Any, Any, Optional[str]]]


class ExternalError(ToolError):
    """An exception raised by external tool code; its class name is the error kind shown to the agent."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _words(name: str) -> list[str]:
    return [w.lower() for w in re.split(r"[_\W]+|(?<=[a-z0-9])(?=[A-Z])", name) if w]


def guess_read_only(name: str, prefixes: frozenset[str] = frozenset()) -> bool:
    """Whether a tool name starts with a reading verb (`get_user`, `listItems`, `search`), after any product
    prefix (`notion_search`, `ticktick_get_tasks` with prefixes {"notion", "ticktick"})."""
    words = _words(name)
    while len(words) > 1 and words[0] in prefixes:
        words = words[1:]
    return bool(words) and words[0] in READ_WORDS


def product_prefixes(names: list[str], *known: str) -> frozenset[str]:
    """Product prefixes of a tool set: words of `known` names (the environment's key, its product), and a first
    word that is no verb and starts at least half of the tool names (`notion_` in `notion_search`,
    `notion_create_page`, ...)."""
    prefixes = {w for name in known for w in _words(name)}
    firsts = [_words(n)[0] for n in names if len(_words(n)) > 1]
    for word in set(firsts):
        if firsts.count(word) >= 2 and firsts.count(word) * 2 >= len(names) and word not in READ_WORDS:
            prefixes.add(word)
    return frozenset(prefixes - READ_WORDS)


def read_decision(
    tool: str, options: Any, flag: bool | None = None, flag_reason: str = "", prefixes: frozenset[str] = frozenset()
) -> tuple[bool, str]:
    """Whether a tool reads only, and why: the user's `--reads`/`--writes`, then a replay that changed the state,
    then the format's own flag, then the name (with any product prefix left out)."""
    if tool in options.writes:
        return False, "write: --writes"
    if tool in options.reads:
        return True, "read: --reads"
    if tool in options.behaviour_writes:
        return False, "write: its ground-truth replay changed the state"
    if flag is not None:
        return flag, f"{'read' if flag else 'write'}: {flag_reason}"
    words = _words(tool)
    stripped = [w for w in words[: len(words) - 1] if w in prefixes]
    read_only = guess_read_only(tool, prefixes)
    verb = words[len(stripped)] if len(words) > len(stripped) else tool
    note = f" after the prefix {'_'.join(stripped)!r}" if stripped else ""
    return read_only, f"{'read' if read_only else 'write'}: name starts with {verb!r}{note}"


def json_type(schema: Any, defs: Mapping[str, Any] | None = None) -> Any:
    """A Python type for a JSON schema (OpenAPI and BFCL spellings accepted); unknown shapes become Any."""
    if not isinstance(schema, dict):
        return Any
    if "$ref" in schema:
        target = (defs or {}).get(schema["$ref"].rsplit("/", 1)[-1])
        return json_type(target, defs)
    enum = schema.get("enum")
    if enum and all(isinstance(v, (str, int, float, bool)) or v is None for v in enum):
        return Literal[tuple(enum)]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _union([json_type(s, defs) for s in schema[key]])
    if len(schema.get("allOf", [])) == 1:
        return json_type(schema["allOf"][0], defs)
    kind = schema.get("type")
    if isinstance(kind, list):
        return _union([json_type({**schema, "type": k}, defs) for k in kind])
    if kind in ("array", "tuple", "list"):
        return list[json_type(schema.get("items"), defs)]  # type: ignore[misc]
    return _JSON_TYPES.get(kind, Any) if isinstance(kind, str) else Any


def _union(members: list[Any]) -> Any:
    unique = list(dict.fromkeys(members))
    if Any in unique:
        return Any
    return unique[0] if len(unique) == 1 else Union[tuple(unique)]


def _usable(annotation: Any) -> bool:
    try:
        TypeAdapter(annotation).json_schema()
        return True
    except Exception:  # a type pydantic cannot describe
        return False


def input_model(tool: str, fields: Fields) -> Any:
    """A strict (extra="forbid") arguments model from `{name: (annotation, default or ..., description)}`."""
    built: dict[str, Any] = {
        name: (annotation if _usable(annotation) else Any, Field(default, description=description))
        for name, (annotation, default, description) in fields.items()
    }
    return create_model(f"{tool}_arguments", __config__=ConfigDict(extra="forbid"), **built)


def signature_fields(func: Callable[..., Any], schema: Mapping[str, Any] | None = None) -> Fields:
    """Fields from a callable's signature (real defaults kept); types from its hints, else (and for enums) from
    `schema`'s properties; descriptions from `schema`, else from the docstring's Args."""
    properties = (schema or {}).get("properties", {})
    _, documented = parse_docstring(func.__doc__)
    try:
        hints = get_type_hints(func)
    except Exception:  # unresolvable forward references: fall back to the schema
        hints = {}
    fields: Fields = {}
    for param in inspect.signature(func).parameters.values():
        if param.name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        prop = properties.get(param.name, {})
        annotation = json_type(prop) if "enum" in prop else hints.get(param.name, json_type(prop) if prop else Any)
        default = ... if param.default is inspect.Parameter.empty else param.default
        if default is None and annotation is not Any:
            annotation = Optional[annotation]
        fields[param.name] = (annotation, default, prop.get("description") or documented.get(param.name))
    return fields


def schema_fields(schema: Mapping[str, Any], defs: Mapping[str, Any] | None = None) -> Fields:
    """Fields from a JSON object schema: required ones without default, the others defaulting to None."""
    required = set(schema.get("required", []))
    fields: Fields = {}
    for name, prop in schema.get("properties", {}).items():
        annotation = json_type(prop, defs)
        if name in required:
            fields[name] = (annotation, ..., prop.get("description"))
        else:
            default = prop.get("default")
            fields[name] = (Optional[annotation] if default is None else annotation, default, prop.get("description"))
    return fields


def external_tool(name: str, description: str, fields: Fields, read_only: bool) -> ToolSpec:
    """A ToolSpec whose function calls `handle.invoke(name, arguments)`; any exception of external code becomes an
    ExternalError (so the call fails cleanly and the state is rolled back), the result a JSON-like value."""

    def run(handle: Any, **arguments: Any) -> Any:
        try:
            result = handle.invoke(name, arguments)
        except ToolError:
            raise
        except Exception as exc:  # external code failing is an observation for the agent
            raise ExternalError(type(exc).__name__, str(exc) or type(exc).__name__) from exc
        return plain(result)

    run.__name__ = name
    return ToolSpec(
        name=name,
        func=run,
        description=description.strip(),
        read_only=read_only,
        user_only=False,
        input_model=input_model(name, fields),
        output_adapter=_ANY_OUTPUT,
    )
