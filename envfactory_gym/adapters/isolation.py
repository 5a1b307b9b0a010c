"""`isolate=True`: external code runs in the runtime's sandbox (`envfactory_gym.sandbox`), never in this process.

One sandboxed worker per environment stays alive for the whole session: it gets a copy of the source files,
rebuilds the environment once, and answers every operation — describing the environment, building a snapshot, a
tool call, the canonical dump, a checklist — over its pipe, in JSON. This process keeps only the state as opaque
bytes (sent with each call together with the simulated clock, so sessions share nothing in the worker), the
converted tasks and snapshots, and tool schemas (from JSON): the checks and the reward run here, on data. A worker
that breaks a limit is replaced by a fresh one at the next call; the stopped call fails and is remembered in
`SandboxedEnvironment.stops`. The same machinery serves a folder in the zoo layout (EnvGen's drafts). AWM is not
supported (its apps need an asyncio event loop, whose socketpair the sandbox's guard refuses).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import os
from contextlib import contextmanager
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

import jsonschema
from sqlalchemy import JSON, Column, MetaData, Table

from ..sandbox import Limits, SandboxResult, Worker
from ..sandbox.runner import DEFAULT_PRELOAD
from ..spec import EnvironmentSpec, ToolSpec
from ..state import CanonicalState
from . import FORMATS, adapter
from .build import Checklist, ImportOptions, external_spec
from .objects import ObjectHandle
from .tools import ExternalError, external_tool, schema_fields

ENTRY = "envfactory_gym.adapters.isolation:serve"
PATH_OPTIONS = ("tasks", "solutions", "code", "docs")


#: Packages a format's files import that are trusted runtime dependencies, imported before the guard goes up:
#: EnvFactory tool files import `mcp.server.fastmcp`, whose package pulls in starlette (and with it http.client,
#: which the guard refuses to external code; the kernel already cuts the network).
FORMAT_PRELOAD: dict[str, tuple[str, ...]] = {"envfactory": ("mcp.server",)}


class SandboxedEnvironment:
    """Runs the operations of one environment in its own persistent sandboxed worker. `request` says how the worker
    loads it: `{"format", "path", "key", "name", "options"}` (an adapter) or `{"folder", "package"}` (zoo layout)."""

    def __init__(self, worker: Worker, request: Mapping[str, Any]) -> None:
        self.worker = worker
        self.request = dict(request)
        self.stops: list[SandboxResult] = []  # calls the sandbox stopped or refused, in order

    @classmethod
    def from_format(
        cls, fmt: str, path: Path, key: str, name: str, options: ImportOptions, limits: Limits = Limits()
    ) -> "SandboxedEnvironment":
        """An adapter's environment, from a copy of its source files."""
        files = adapter(fmt).sources(path, key, options)
        root = Path(os.path.commonpath([str(p.resolve().parent) for p in [path, *files]]))
        copied = {f"src/{p.resolve().relative_to(root)}": p.read_bytes() for p in files if p.is_file()}
        relocated = {
            k: f"src/{Path(v).resolve().relative_to(root)}" if v else None
            for k, v in ((k, getattr(options, k)) for k in PATH_OPTIONS)
        }
        request = {
            "format": fmt,
            "path": f"src/{path.resolve().relative_to(root)}",
            "key": key,
            "name": name,
            "options": {**options.to_json(), **relocated},
        }
        preload = (*DEFAULT_PRELOAD, "envfactory_gym.adapters.isolation", FORMATS[fmt], *FORMAT_PRELOAD.get(fmt, ()))
        return cls(Worker(limits, files=copied, preload=preload), request)

    def run(self, operation: str, **arguments: Any) -> Any:
        """One sandboxed operation; its JSON answer, or RuntimeError with the sandbox's reason."""
        result = self.worker.call(ENTRY, {**self.request, "op": operation, **arguments})
        if not result.ok:
            self.stops.append(result)
            raise RuntimeError(
                f"sandboxed {operation} failed ({result.status}): {result.reason}\n{result.stderr[-1500:]}"
            )
        return result.value

    def close(self) -> None:
        """Stop the worker."""
        self.worker.close()


def _encode(data: bytes) -> str:
    return base64.b64encode(data).decode()


class IsolatedState:
    """A session's state held as opaque bytes; dumps are computed in the sandbox (and cached by content)."""

    def __init__(self, environment: SandboxedEnvironment) -> None:
        self.environment = environment
        self.data = b""

    def snapshot(self) -> bytes:
        """The current bytes."""
        return self.data

    def restore(self, data: bytes) -> None:
        """Replace the bytes."""
        self.data = data

    @contextmanager
    def atomic(self, read_only: bool = False) -> Iterator[None]:
        """Calls are atomic in the sandbox already: the bytes only change when a call succeeds."""
        yield

    def dump(self) -> CanonicalState:
        """The canonical dump, computed in the sandbox."""
        return _dump(self.environment, self.data)

    def invoke(self, name: str, arguments: dict[str, Any], clock: Any = None) -> Any:
        """One tool call in the sandbox at the session's simulated time; success replaces the bytes, failure raises
        and changes nothing."""
        now = clock.now().isoformat() if clock is not None else None
        answer = self.environment.run("call", state=_encode(self.data), tool=name, arguments=arguments, clock=now)
        if not answer["ok"]:
            kind = answer["kind"] or "ToolError"
            message = answer["error"][len(kind) + 2 :] if answer["error"].startswith(f"{kind}: ") else answer["error"]
            raise ExternalError(kind, message)
        self.data = base64.b64decode(answer["state"])
        return answer["output"]

    def close(self) -> None:
        """Nothing to release."""


_DUMPS: dict[tuple[int, str], CanonicalState] = {}


def _dump(environment: SandboxedEnvironment, data: bytes) -> CanonicalState:
    key = (id(environment), hashlib.sha256(data).hexdigest())
    if key not in _DUMPS:
        _DUMPS[key] = environment.run("dump", state=_encode(data))
    return _DUMPS[key]


class IsolatedBackend:
    """The `StateFactory` of a sandboxed environment."""

    def __init__(self, environment: SandboxedEnvironment) -> None:
        self.environment = environment

    def create(self) -> IsolatedState:
        """Empty bytes (every session starts with a reset)."""
        return IsolatedState(self.environment)

    def handle(self, state: IsolatedState, clock: Any) -> ObjectHandle:
        """Tools call into the sandbox, at the session's clock."""
        return ObjectHandle(state, clock, lambda name, arguments: state.invoke(name, arguments, clock))

    def snapshot(self, path: Path) -> bytes:
        """A named snapshot's bytes, built in the sandbox."""
        return _snapshot(self.environment, Path(path).stem)


@lru_cache(maxsize=256)
def _snapshot(environment: SandboxedEnvironment, name: str) -> bytes:
    return base64.b64decode(environment.run("snapshot", snapshot=name))


class JSONSchemaOutput:
    """The output adapter of a sandboxed tool: its declared JSON schema (from the worker), checked with jsonschema
    on the JSON output here (outputs arrive as JSON already)."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = dict(schema)
        self.validator = jsonschema.Draft202012Validator(self.schema)

    def validate_python(self, value: Any) -> Any:
        """Raise jsonschema.ValidationError when `value` does not match."""
        self.validator.validate(value)
        return value

    def dump_python(self, value: Any, **_: Any) -> Any:
        """The value as is (already JSON)."""
        return value

    def json_schema(self, *, mode: str = "validation") -> dict[str, Any]:
        """The declared schema (the same in either mode: the value is JSON already)."""
        return self.schema


def _tool(described: Mapping[str, Any]) -> ToolSpec:
    parameters = described["parameters"]
    tool = external_tool(
        described["name"],
        described["description"],
        schema_fields(parameters, parameters.get("$defs")),
        described["read_only"],
    )
    output = described.get("output_schema")
    tool = dataclasses.replace(tool, user_only=bool(described.get("user_only", False)))
    return tool if output is None else dataclasses.replace(tool, output_adapter=JSONSchemaOutput(output))


def _schema(tables: Mapping[str, Mapping[str, list[str]]]) -> MetaData:
    """Table and column names with primary keys (what the checks look at; types stay in the worker)."""
    metadata = MetaData()
    for name, table in tables.items():
        key = set(table["primary_key"])
        Table(name, metadata, *(Column(c, JSON, primary_key=c in key) for c in table["columns"]))
    return metadata


def isolated_spec(
    environment: SandboxedEnvironment, described: Mapping[str, Any], folder: Path, name: str, source: str, **fields: Any
) -> EnvironmentSpec:
    """The spec of a sandboxed environment from its description: its tasks and snapshots written to `folder`,
    tools that call into the worker, and the table layout it reported."""
    for relative, text in described["files"].items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    tools = {t["name"]: _tool(t) for t in described["tools"]}
    checklist = _checklist(environment) if described["checklist"] else None
    return external_spec(
        name,
        described["description"],
        described["product"],
        tools,
        folder,
        IsolatedBackend(environment),
        source=source,
        checklist=checklist,
        notes=described["notes"],
        schema=_schema(described.get("tables", {})),
        **fields,
    )


def load_isolated(fmt: str, path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert an environment in the sandbox and return a spec whose every call runs there too."""
    if fmt == "awm":
        raise NotImplementedError(
            "AWM apps need an asyncio event loop, which the sandbox's guard forbids; import AWM without isolation"
        )
    environment = SandboxedEnvironment.from_format(fmt, path.resolve(), key, name, options)
    described = environment.run("describe")
    return isolated_spec(environment, described, folder, name, f"{fmt}:{path.resolve()}:{key} (sandboxed)")


def _checklist(environment: SandboxedEnvironment) -> Checklist:
    def check(task: Any, state: IsolatedState) -> float | None:
        return environment.run("checklist", task=task.id, state=_encode(state.snapshot()))

    return check


# ---------------------------------------------------------------------------------------------------- worker side
def _tool_json(tool: ToolSpec) -> dict[str, Any]:
    try:
        output: Any = tool.output_schema
    except Exception:  # a type pydantic cannot describe: outputs go unchecked, as in-process
        output = None
    return {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.input_schema,
        "read_only": tool.read_only,
        "user_only": tool.user_only,
        "output_schema": output,
    }


@lru_cache(maxsize=1)
def _child_spec(request_json: str) -> EnvironmentSpec:
    from ..spec import load_environment_from_folder

    request = json.loads(request_json)
    if "folder" in request:
        return load_environment_from_folder(Path(request["folder"]).resolve(), request["package"])
    folder = Path.cwd() / "env"
    options = ImportOptions.from_json(request["options"])
    path = Path(request["path"]).resolve()
    return adapter(request["format"]).load(path, request["key"], request["name"], folder, options)


def describe(spec: EnvironmentSpec) -> dict[str, Any]:
    """What the parent needs to rebuild the spec: texts of its tasks and snapshots, tools, tables, metadata."""
    files = {
        str(p.relative_to(spec.folder)): p.read_text(encoding="utf-8")
        for p in [spec.tasks_path, *sorted((spec.folder / "snapshots").glob("*.json"))]
        if p.is_file()
    }
    tables = {
        t.name: {"columns": list(t.columns.keys()), "primary_key": [c.name for c in t.primary_key.columns]}
        for t in spec.schema.sorted_tables
    }
    return {
        "description": spec.description,
        "product": spec.product,
        "files": files,
        "tables": tables,
        "tools": [_tool_json(t) for t in spec.tools.values()],
        "checklist": spec.checklist is not None,
        "notes": {k: v for k, v in spec.extra.items() if k != "source"},
    }


def serve(request: dict[str, Any]) -> Any:
    """Sandbox entry: rebuild the environment from the copied sources (once per worker) and run one operation."""
    from ..session import ToolSession, snapshot_bytes
    from ..tasks import load_tasks

    keys = ("folder", "package") if "folder" in request else ("format", "path", "key", "name", "options")
    spec = _child_spec(json.dumps({k: request[k] for k in keys}, sort_keys=True))
    operation = request["op"]
    if operation == "describe":
        return describe(spec)
    if operation == "snapshot":
        return _encode(snapshot_bytes(spec, request["snapshot"]))
    session = ToolSession(spec)
    try:
        if request.get("clock"):
            session.restore_bytes(base64.b64decode(request["state"]), datetime.fromisoformat(request["clock"]))
        else:
            session.state.restore(base64.b64decode(request["state"]))
        if operation == "dump":
            return session.dump()
        if operation == "checklist":
            return spec.checklist(load_tasks(spec)[request["task"]], session.state) if spec.checklist else None
        # the parent's executor already applied the caller rules (user-only tools): here the call just runs
        outcome = session.call(request["tool"], request["arguments"], caller="user")
        return {
            "ok": outcome.ok,
            "output": outcome.output,
            "error": outcome.error,
            "kind": outcome.error_kind,
            "state": _encode(session.state.snapshot()),
        }
    finally:
        session.close()
