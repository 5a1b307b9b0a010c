"""Parameter extraction: the typed input and output parameters of a tool, read from its derived JSON schemas."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from envfactory_gym.spec import ToolSpec

Direction = Literal["input", "output"]
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True)
class Param:
    """One input or output parameter of a tool.

    `path` locates an output value inside the tool's JSON result: `id` (a top-level field), `results[].id`
    (a field of every item of a list field), `[].id` (a field of every item of a list result) or `` (the
    result itself). `owner` is the title of the model the field belongs to (empty for inputs).
    """

    tool: str
    name: str
    direction: Direction
    type: str
    description: str = ""
    required: bool = False
    path: str = ""
    owner: str = ""
    owner_description: str = ""

    @property
    def key(self) -> str:
        """Unique key within an environment, e.g. `create_page.in.title` or `search_pages.out.results[].id`."""
        return f"{self.tool}.{'in' if self.direction == 'input' else 'out'}.{self.path or self.name}"

    def text(self) -> str:
        """What is embedded: the name (outputs prefixed by their object, e.g. `page id`), type and description.

        The owning tool's name is left out on purpose: with it, a tool's own inputs and outputs score highest
        against each other (measured on Notion with MiniLM), drowning the cross-tool matches the graph needs.
        """
        words = self.name.replace("_", " ")
        if self.direction == "output" and self.owner:
            words = f"{owner_words(self.owner)} {words}"
        return f"{words} ({self.type})" + (f": {self.description}" if self.description else "")


def owner_words(title: str) -> str:
    """`PageObject` -> `page`, `SearchResult` -> `search result` (lower-case words, `object` dropped)."""
    words = _CAMEL.sub(" ", title).lower().split()
    return " ".join(w for w in words if w != "object") or title.lower()


def resolve_schema(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Follow `$ref`s into `$defs` and drop `null` from `anyOf` (optional values)."""
    while "$ref" in schema:
        schema = {**defs[schema["$ref"].split("/")[-1]], **{k: v for k, v in schema.items() if k != "$ref"}}
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        non_null = [o for o in options if o.get("type") != "null"]
        if len(non_null) == 1:
            merged = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            return resolve_schema({**non_null[0], **merged}, defs)
    return schema


def type_name(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short type: `string`, `integer`, `array<object>`, `string|number` or `any`."""
    schema = resolve_schema(schema, defs)
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        names = sorted({type_name(o, defs) for o in options if o.get("type") != "null"})
        return "|".join(names) or "any"
    kind = schema.get("type")
    if kind is None and "enum" in schema:
        kind = {type(v).__name__ for v in schema["enum"]} == {"str"} and "string" or "any"
    if kind == "array":
        return f"array<{type_name(schema.get('items', {}), defs)}>"
    if isinstance(kind, list):
        return "|".join(sorted(k for k in kind if k != "null")) or "any"
    return kind or "any"


def _is_object_with_fields(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "object" and bool(schema.get("properties"))


def input_parameters(tool: ToolSpec) -> list[Param]:
    """The tool's arguments (fields of its input model), in signature order."""
    schema = tool.input_schema
    defs = schema.get("$defs", {})
    params = []
    for name, field in tool.input_model.model_fields.items():
        prop = schema["properties"].get(name, {})
        params.append(
            Param(
                tool=tool.name,
                name=name,
                direction="input",
                type=type_name(prop, defs),
                description=field.description or "",
                required=field.is_required(),
                path=name,
            )
        )
    return params


def output_parameters(tool: ToolSpec) -> list[Param]:
    """The fields of the tool's output model; list fields of objects contribute their items' fields."""
    schema = tool.output_schema
    defs = schema.get("$defs", {})
    root = resolve_schema(schema, defs)
    if root.get("type") == "array":
        item = resolve_schema(root.get("items", {}), defs)
        if _is_object_with_fields(item):
            return _object_fields(tool.name, item, defs, "[].")
        return [
            Param(tool.name, "result", "output", type_name(root, defs), owner_description=root.get("description", ""))
        ]
    if _is_object_with_fields(root):
        return _object_fields(tool.name, root, defs, "")
    return [Param(tool.name, "result", "output", type_name(root, defs))]


def _object_fields(tool: str, model: dict[str, Any], defs: dict[str, Any], prefix: str) -> list[Param]:
    params = []
    for name, prop in model["properties"].items():
        resolved = resolve_schema(prop, defs)
        item = resolve_schema(resolved.get("items", {}), defs) if resolved.get("type") == "array" else {}
        if _is_object_with_fields(item):
            params += _object_fields(tool, item, defs, f"{prefix}{name}[].")
            continue
        if _is_object_with_fields(resolved):
            params += _object_fields(tool, resolved, defs, f"{prefix}{name}.")
            continue
        params.append(
            Param(
                tool=tool,
                name=name,
                direction="output",
                type=type_name(prop, defs),
                description=resolved.get("description", ""),
                path=f"{prefix}{name}",
                owner=model.get("title", ""),
                owner_description=model.get("description", ""),
            )
        )
    return params


def parameters(tool: ToolSpec) -> list[Param]:
    """Inputs then outputs of one tool."""
    return input_parameters(tool) + output_parameters(tool)


def _alternatives(type_: str) -> list[str]:
    """Split a union type at its top-level `|` (not inside `array<...>`)."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(type_):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "|" and depth == 0:
            parts.append(type_[start:index])
            start = index + 1
    return parts + [type_[start:]]


def types_compatible(output_type: str, input_type: str) -> bool:
    """Whether a value of `output_type` can be passed where `input_type` is expected (`any` matches all;
    integers are numbers)."""
    for out in _alternatives(output_type):
        for inp in _alternatives(input_type):
            if "any" in (out, inp) or {out, inp} <= {"integer", "number"} or out == inp:
                return True
            if out.startswith("array<") and inp.startswith("array<") and types_compatible(out[6:-1], inp[6:-1]):
                return True
    return False


def feeds(output_type: str, input_type: str) -> bool:
    """Whether an output can fill an input: compatible types, one value for a list input (a list of one), or
    one item of a list output for a single input (`prefs_channels` -> `channel`)."""
    if types_compatible(output_type, input_type):
        return True
    return any(
        (inp.startswith("array<") and not out.startswith("array<") and types_compatible(out, inp[6:-1]))
        or (out.startswith("array<") and not inp.startswith("array<") and types_compatible(out[6:-1], inp))
        for out in _alternatives(output_type)
        for inp in _alternatives(input_type)
    )


def fills(output_type: str, input_type: str) -> bool:
    """Whether an output can fill an input or a field of the object(s) it takes (a variant id for one of the
    cart lines `lines` holds): `feeds`, or a scalar for an object input."""
    if feeds(output_type, input_type):
        return True
    objects = {"object", "array<object>"}
    return bool(objects & set(_alternatives(input_type))) and not any(o in objects for o in _alternatives(output_type))
