"""Environment and tool specifications, derived from typed Python functions and their docstrings."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import sys
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Literal, Protocol, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from sqlalchemy import MetaData

from .fields import error_text
from .state import StateFactory

TOOL_MARKER = "__envfactory_tool__"
#: Marks a list parameter whose order does not matter (`ids: Annotated[list[str], Unordered]`): its schema says
#: `uniqueItems`, and the trajectory reward compares it as a set.
Unordered = Field(json_schema_extra={"uniqueItems": True})
_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters)\s*:\s*$")
_SECTION_HEADER = re.compile(r"^\s*(Returns|Raises|Yields|Examples?|Notes?)\s*:\s*$")
_ARG_LINE = re.compile(r"^\s*(\*{0,2}\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def tool(*, read_only: bool = False, user_only: bool = False) -> Callable[[Callable], Callable]:
    """Mark a function as an environment tool; returns the function unchanged apart from the marker.

    `read_only` tools never change the state; `user_only` tools may be called by the simulated user only.
    """

    def mark(func: Callable) -> Callable:
        setattr(func, TOOL_MARKER, {"read_only": read_only, "user_only": user_only})
        return func

    return mark


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into (description, {argument name: argument description})."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    description: list[str] = []
    arguments: dict[str, str] = {}
    section = "description"
    current: str | None = None
    for line in lines:
        if _ARGS_HEADER.match(line):
            section, current = "args", None
            continue
        if _SECTION_HEADER.match(line):
            section, current = "other", None
            continue
        if section == "description":
            description.append(line)
        elif section == "args":
            match = _ARG_LINE.match(line)
            indent = len(line) - len(line.lstrip())
            if match and (current is None or indent <= _arg_indent(lines, current)):
                current = match.group(1).lstrip("*")
                arguments[current] = match.group(3).strip()
            elif current and line.strip():
                arguments[current] = f"{arguments[current]} {line.strip()}".strip()
    return "\n".join(description).strip(), arguments


def _arg_indent(lines: list[str], name: str) -> int:
    for line in lines:
        match = _ARG_LINE.match(line)
        if match and match.group(1).lstrip("*") == name:
            return len(line) - len(line.lstrip())
    return 0


class OutputAdapter(Protocol):
    """What a tool's output check needs: pydantic's `TypeAdapter`, or a sandboxed tool's JSON-schema check."""

    def validate_python(self, value: Any, /) -> Any: ...

    def dump_python(self, value: Any, /, *, mode: Literal["json", "python"] = ..., warnings: bool = ...) -> Any: ...

    def json_schema(self, *, mode: Literal["validation", "serialization"] = ...) -> dict[str, Any]: ...


@dataclass(frozen=True, eq=False)
class ToolSpec:
    """One tool: its function, flags, and the input/output schemas derived from the function's signature."""

    name: str
    func: Callable[..., Any]
    description: str
    read_only: bool
    user_only: bool
    input_model: type[BaseModel]
    output_adapter: OutputAdapter
    #: argument -> the product's own error text for a value its type refuses (`fields.ErrorText`)
    error_texts: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_function(cls, func: Callable[..., Any]) -> "ToolSpec":
        """Build the spec of a function marked with `@tool`; its first parameter is the state context."""
        flags = getattr(func, TOOL_MARKER)
        description, arg_docs = parse_docstring(func.__doc__)
        hints = get_type_hints(func, include_extras=True)
        parameters = list(inspect.signature(func).parameters.values())[1:]
        fields: dict[str, Any] = {}
        for param in parameters:
            if param.name not in hints:
                raise TypeError(f"tool {func.__name__}: parameter {param.name!r} has no type annotation")
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (hints[param.name], Field(default, description=arg_docs.get(param.name)))
        with warnings.catch_warnings():  # a product's own parameter name (Kraken's `validate`) may shadow one of
            # BaseModel's deprecated v1 methods; the field wins and nothing of the runtime calls those methods
            warnings.filterwarnings("ignore", message=r'Field name ".*" shadows an attribute in parent "BaseModel"')
            input_model = create_model(f"{func.__name__}_arguments", __config__=ConfigDict(extra="forbid"), **fields)
        if "return" not in hints:
            raise TypeError(f"tool {func.__name__}: missing return annotation")
        return cls(
            name=func.__name__,
            func=func,
            description=description,
            read_only=flags["read_only"],
            user_only=flags["user_only"],
            input_model=input_model,
            output_adapter=TypeAdapter(hints["return"]),
            error_texts={p.name: text for p in parameters if (text := error_text(hints[p.name]))},
        )

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        """JSON schema of the arguments (an object schema)."""
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        schema.setdefault("properties", {})
        return schema

    @cached_property
    def output_schema(self) -> dict[str, Any]:
        """JSON schema of the return value."""
        return self.output_adapter.json_schema()

    @cached_property
    def unordered_inputs(self) -> frozenset[str]:
        """Names of the list arguments declared `Unordered` (compared as sets by the reward)."""

        def unordered(prop: dict[str, Any]) -> bool:  # `T | None` puts the list inside anyOf
            return bool(prop.get("uniqueItems")) or any(unordered(o) for o in prop.get("anyOf", ()))

        return frozenset(name for name, prop in self.input_schema["properties"].items() if unordered(prop))

    @cached_property
    def required_inputs(self) -> tuple[str, ...]:
        """Names of the arguments without a default."""
        return tuple(name for name, f in self.input_model.model_fields.items() if f.is_required())

    def openai_schema(self) -> dict[str, Any]:
        """The tool in OpenAI function-calling format."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.input_schema},
        }


@dataclass(frozen=True, eq=False)
class EnvironmentSpec:
    """An environment e = (m, D, pi, V): metadata, database schema, tool implementations and interface."""

    name: str
    domain: str
    description: str
    product: str
    docs_url: str
    schema: MetaData
    tools: dict[str, ToolSpec]
    folder: Path
    version: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    #: How states are built when they are not SQLite over `schema` (e.g. Python objects); None: SQLite.
    backend: StateFactory | None = None
    #: Optional per-task checks on the final state: (task, state) -> pass fraction in [0, 1], or None.
    checklist: Callable[[Any, Any], float | None] | None = None

    @property
    def env_id(self) -> str:
        """The gymnasium id, e.g. `envfactory/Notion-v0`."""
        return f"envfactory/{self.name}-v{self.version}"

    @property
    def key(self) -> str:
        """Folder name of the environment, used as its short key (e.g. `notion`)."""
        return self.folder.name

    @cached_property
    def agent_tools(self) -> tuple[ToolSpec, ...]:
        """Tools the agent may call (user-only tools excluded), in definition order."""
        return tuple(t for t in self.tools.values() if not t.user_only)

    @cached_property
    def openai_tools(self) -> list[dict[str, Any]]:
        """Agent tool schemas in OpenAI function-calling format."""
        return [t.openai_schema() for t in self.agent_tools]

    def snapshot_path(self, name: str) -> Path:
        """Path of a named JSON snapshot of this environment."""
        return self.folder / "snapshots" / f"{name}.json"

    @property
    def tasks_path(self) -> Path:
        """Path of the environment's tasks file."""
        return self.folder / "tasks.jsonl"


def collect_tools(module: Any) -> dict[str, ToolSpec]:
    """All `@tool` functions of a module, in source order."""
    functions = [
        value
        for value in vars(module).values()
        if callable(value) and hasattr(value, TOOL_MARKER) and getattr(value, "__module__", None) == module.__name__
    ]
    functions.sort(key=lambda f: inspect.getsourcelines(f)[1])
    return {f.__name__: ToolSpec.from_function(f) for f in functions}


def load_environment_from_package(package: str) -> EnvironmentSpec:
    """Load an environment from a package holding `schema.py` (a `metadata: MetaData`), `tools.py` and
    `metadata.json`."""
    pkg = importlib.import_module(package)
    if pkg.__file__ is None:
        raise ValueError(f"{package} is a namespace package: an environment package needs an __init__.py")
    folder = Path(pkg.__file__).parent
    meta = json.loads((folder / "metadata.json").read_text())
    schema_module = importlib.import_module(f"{package}.schema")
    tools_module = importlib.import_module(f"{package}.tools")
    known = {"name", "domain", "description", "product", "docs_url", "version"}
    return EnvironmentSpec(
        name=meta["name"],
        domain=meta["domain"],
        description=meta["description"],
        product=meta["product"],
        docs_url=meta["docs_url"],
        version=int(meta.get("version", 0)),
        schema=schema_module.metadata,
        tools=collect_tools(tools_module),
        folder=folder,
        extra={k: v for k, v in meta.items() if k not in known},
    )


def load_environment_from_folder(folder: str | Path, package: str | None = None) -> EnvironmentSpec:
    """Load an environment from any folder in the zoo layout (e.g. a synthesized candidate outside env_zoo),
    imported as the package `package` (default: the folder name)."""
    folder = Path(folder).resolve()
    name = package or folder.name
    loaded = sys.modules.get(name)
    if loaded is None:
        module_spec = importlib.util.spec_from_file_location(
            name, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        if module_spec is None or module_spec.loader is None:
            raise ImportError(f"no package at {folder}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    elif Path(loaded.__file__ or "").resolve().parent != folder:
        raise ImportError(f"package {name!r} is already imported from {loaded.__file__}")
    return load_environment_from_package(name)
