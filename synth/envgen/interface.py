"""Criterion (1): the blueprint `m` is well formed, and the implemented tool interface matches it (names, flags,
parameters, required parameters, parameter types)."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.verify import DOMAINS

from .models import EnvMetadata, Finding

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CAMEL = re.compile(r"^[A-Z][A-Za-z0-9]*$")
_NUMERIC = {"integer", "number"}


def _metadata(message: str, tool: str | None = None) -> Finding:
    return Finding(criterion=1, component="metadata", check="metadata", message=message, tool=tool)


def check_metadata(m: EnvMetadata, taken_keys: set[str]) -> list[Finding]:
    """Problems of the blueprint itself (blamed on the metadata)."""
    findings = []
    if not m.valid_key:
        findings.append(_metadata(f"key {m.key!r} must be snake_case (it becomes the folder name)"))
    if m.key in taken_keys:
        findings.append(_metadata(f"key {m.key!r} is already used in the zoo"))
    if not _CAMEL.match(m.name):
        findings.append(_metadata(f"name {m.name!r} must be CamelCase without spaces (it is in the gym id)"))
    if m.domain not in DOMAINS:
        findings.append(_metadata(f"domain {m.domain!r} is not one of {sorted(DOMAINS)}"))
    if not m.docs_url.startswith("http"):
        findings.append(_metadata("docs_url must link the product's public API docs"))
    names = [t.name for t in m.tools]
    for name in sorted({n for n in names if names.count(n) > 1}):
        findings.append(_metadata(f"tool {name!r} is defined more than once", name))
    agent_tools = [t for t in m.tools if not t.user_only]
    if not any(t.read_only for t in agent_tools) or all(t.read_only for t in agent_tools):
        findings.append(_metadata("the tools need both read and write agent tools"))
    for sketch in m.tools:
        if not _IDENTIFIER.match(sketch.name):
            findings.append(_metadata(f"tool name {sketch.name!r} is not a Python identifier", sketch.name))
        if sketch.parameters.get("type", "object") != "object":
            findings.append(_metadata("parameters must be a JSON-schema object", sketch.name))
        for name in sketch.required:
            if name not in sketch.properties:
                findings.append(_metadata(f"required parameter {name!r} is not among the properties", sketch.name))
        for name, schema in sketch.properties.items():
            if not schema.get("description"):
                findings.append(_metadata(f"parameter {name!r} has no description", sketch.name))
    return findings


def schema_types(schema: dict[str, Any], definitions: dict[str, Any]) -> set[str]:
    """The JSON types a (derived) property schema accepts; `null` left out."""
    if "$ref" in schema:
        target = definitions.get(schema["$ref"].rsplit("/", 1)[-1], {})
        return schema_types(target, definitions) if target else {"object"}
    types: set[str] = set()
    kind = schema.get("type")
    if isinstance(kind, list):
        types.update(kind)
    elif kind:
        types.add(kind)
    elif "enum" in schema or "const" in schema:
        values = schema.get("enum", [schema.get("const")])
        types.update(
            {
                "string"
                if isinstance(v, str)
                else "boolean"
                if isinstance(v, bool)
                else "integer"
                if isinstance(v, int)
                else "number"
                for v in values
                if v is not None
            }
        )
    for option in schema.get("anyOf", []) + schema.get("oneOf", []):
        types |= schema_types(option, definitions)
    return types - {"null"}


def _compatible(expected: set[str], actual: set[str]) -> bool:
    if not expected or not actual:
        return True
    widen = lambda types: types | (_NUMERIC if types & _NUMERIC else set())  # noqa: E731
    return bool(widen(expected) & widen(actual))


def compare_interface(m: EnvMetadata, spec: EnvironmentSpec) -> list[Finding]:
    """Differences between the implemented tools and the blueprint (blamed on the tool code)."""
    findings = []

    def add(tool: str, message: str) -> None:
        findings.append(Finding(criterion=1, component="tool code", check="interface", message=message, tool=tool))

    for sketch in m.tools:
        tool = spec.tools.get(sketch.name)
        if tool is None:
            add(sketch.name, "in the metadata but not implemented (no @tool function of that name)")
            continue
        if tool.read_only != sketch.read_only:
            add(sketch.name, f"read_only is {tool.read_only}, the metadata says {sketch.read_only}")
        if tool.user_only != sketch.user_only:
            add(sketch.name, f"user_only is {tool.user_only}, the metadata says {sketch.user_only}")
        derived = tool.input_schema
        properties = derived.get("properties", {})
        missing = [p for p in sketch.properties if p not in properties]
        extra = [p for p in properties if p not in sketch.properties]
        if missing:
            add(sketch.name, f"parameters {missing} of the metadata are missing")
        if extra:
            add(sketch.name, f"parameters {extra} are not in the metadata")
        if set(tool.required_inputs) != set(sketch.required):
            add(
                sketch.name,
                f"required parameters are {sorted(tool.required_inputs)}, the metadata says {sorted(sketch.required)}",
            )
        definitions = derived.get("$defs", {})
        for name, expected in sketch.properties.items():
            if name in properties:
                want = schema_types(expected, {})
                have = schema_types(properties[name], definitions)
                if not _compatible(want, have):
                    add(sketch.name, f"parameter {name!r} has type {sorted(have)}, the metadata says {sorted(want)}")
    for name in spec.tools:
        if m.tool(name) is None:
            add(name, "implemented but not in the metadata")
    return findings


def metadata_from_spec(spec: EnvironmentSpec) -> EnvMetadata:
    """The blueprint an existing (e.g. hand-written) environment implements: its interface as `m`."""
    tools = []
    for tool in spec.tools.values():
        schema = tool.input_schema
        tools.append(
            {
                "name": tool.name,
                "description": tool.description,
                "read_only": tool.read_only,
                "user_only": tool.user_only,
                "parameters": {
                    "type": "object",
                    "properties": schema.get("properties", {}),
                    "required": schema.get("required", []),
                },
            }
        )
    return EnvMetadata(
        key=spec.key,
        name=spec.name,
        version=spec.version,
        domain=spec.domain,
        product=spec.product,
        docs_url=spec.docs_url,
        description=spec.description,
        tools=tools,
    )
