"""`isolate=True`: external code runs in the runtime's sandbox (`envfactory_gym.sandbox`), never in this process.

One sandboxed worker per imported environment stays alive for the whole session: it gets a copy of the source
files, rebuilds the environment once, and answers every operation — converting the environment, building a
snapshot, a tool call, the canonical dump, a checklist — over its pipe, in JSON. This process keeps only the state
as opaque bytes (sent with each call, so sessions share nothing in the worker), the converted tasks and snapshots,
and tool schemas (from JSON). A worker that breaks a limit is replaced by a fresh one at the next call. AWM is not
supported (its apps need an asyncio event loop, whose socketpair the sandbox's guard refuses).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from ..sandbox import Limits, Worker
from ..sandbox.runner import DEFAULT_PRELOAD
from ..spec import EnvironmentSpec, ToolSpec
from ..state import CanonicalState
from . import FORMATS, adapter
from .build import Checklist, ImportOptions, external_spec
from .objects import ObjectHandle
from .tools import ExternalError, external_tool, schema_fields

ENTRY = "envfactory_gym.adapters.isolation:serve"
PATH_OPTIONS = ("tasks", "solutions", "code", "docs")


class SandboxedEnvironment:
    """Runs the operations of one external environment in its own persistent sandboxed worker."""

    def __init__(self, fmt: str, path: Path, key: str, name: str, options: ImportOptions,
                 limits: Limits = Limits()) -> None:
        files = adapter(fmt).sources(path, key, options)
        root = Path(os.path.commonpath([str(p.resolve().parent) for p in [path, *files]]))
        self.files = {f"src/{p.resolve().relative_to(root)}": p.read_bytes() for p in files if p.is_file()}
        relocated = {k: f"src/{Path(v).resolve().relative_to(root)}" if v else None for k, v in
                     ((k, getattr(options, k)) for k in PATH_OPTIONS)}
        self.request = {
            "format": fmt, "path": f"src/{path.resolve().relative_to(root)}", "key": key, "name": name,
            "options": {**options.to_json(), **relocated},
        }
        self.worker = Worker(limits, files=self.files, preload=_preload(fmt))

    def run(self, operation: str, **arguments: Any) -> Any:
        """One sandboxed operation; its JSON answer, or RuntimeError with the sandbox's reason."""
        result = self.worker.call(ENTRY, {**self.request, "op": operation, **arguments})
        if not result.ok:
            raise RuntimeError(f"sandboxed {operation} failed ({result.status}): {result.reason}\n{result.stderr[-1500:]}")
        return result.value

    def close(self) -> None:
        """Stop the worker."""
        self.worker.close()


def _preload(fmt: str) -> tuple[str, ...]:
    return (*DEFAULT_PRELOAD, "envfactory_gym.adapters.isolation", FORMATS[fmt])


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

    def invoke(self, name: str, arguments: dict[str, Any]) -> Any:
        """One tool call in the sandbox; success replaces the bytes, failure raises and changes nothing."""
        answer = self.environment.run("call", state=_encode(self.data), tool=name, arguments=arguments)
        if not answer["ok"]:
            kind = answer["kind"] or "ToolError"
            message = answer["error"][len(kind) + 2:] if answer["error"].startswith(f"{kind}: ") else answer["error"]
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
        """Tools call into the sandbox."""
        return ObjectHandle(state, clock, state.invoke)

    def snapshot(self, path: Path) -> bytes:
        """A named snapshot's bytes, built in the sandbox."""
        return _snapshot(self.environment, Path(path).stem)


@lru_cache(maxsize=256)
def _snapshot(environment: SandboxedEnvironment, name: str) -> bytes:
    return base64.b64decode(environment.run("snapshot", snapshot=name))


def load_isolated(fmt: str, path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert an environment in the sandbox and return a spec whose every call runs there too."""
    if fmt == "awm":
        raise NotImplementedError("AWM apps need an asyncio event loop, which the sandbox's guard forbids; "
                                  "import AWM without isolation")
    environment = SandboxedEnvironment(fmt, path.resolve(), key, name, options)
    described = environment.run("describe")
    for relative, text in described["files"].items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    tools = {
        t["name"]: external_tool(t["name"], t["description"], schema_fields(t["parameters"], t["parameters"].get("$defs")),
                                 t["read_only"])
        for t in described["tools"]
    }
    checklist = _checklist(environment) if described["checklist"] else None
    return external_spec(name, described["description"], described["product"], tools, folder, IsolatedBackend(environment),
                         source=f"{fmt}:{path.resolve()}:{key} (sandboxed)", checklist=checklist, notes=described["notes"])


def _checklist(environment: SandboxedEnvironment) -> Checklist:
    def check(task: Any, state: IsolatedState) -> float | None:
        return environment.run("checklist", task=task.id, state=_encode(state.snapshot()))

    return check


# ---------------------------------------------------------------------------------------------------- child side
def _tool_json(tool: ToolSpec) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "parameters": tool.input_schema,
            "read_only": tool.read_only}


@lru_cache(maxsize=1)
def _child_spec(request_json: str) -> EnvironmentSpec:
    request = json.loads(request_json)
    folder = Path.cwd() / "env"
    options = ImportOptions.from_json(request["options"])
    path = Path(request["path"]).resolve()
    return adapter(request["format"]).load(path, request["key"], request["name"], folder, options)


def serve(request: dict[str, Any]) -> Any:
    """Sandbox entry: rebuild the environment from the copied sources and run one operation on it."""
    from ..session import ToolSession
    from ..tasks import load_tasks

    spec = _child_spec(json.dumps({k: request[k] for k in ("format", "path", "key", "name", "options")}, sort_keys=True))
    operation = request["op"]
    if operation == "describe":
        files = {str(p.relative_to(spec.folder)): p.read_text(encoding="utf-8")
                 for p in [spec.tasks_path, *sorted((spec.folder / "snapshots").glob("*.json"))]}
        return {"description": spec.description, "product": spec.product, "files": files,
                "tools": [_tool_json(t) for t in spec.tools.values()], "checklist": spec.checklist is not None,
                "notes": {k: v for k, v in spec.extra.items() if k != "source"}}
    if operation == "snapshot":
        return _encode(spec.backend.snapshot(spec.snapshot_path(request["snapshot"])))
    session = ToolSession(spec)
    session.state.restore(base64.b64decode(request["state"]))
    if operation == "dump":
        return session.dump()
    if operation == "checklist":
        return spec.checklist(load_tasks(spec)[request["task"]], session.state) if spec.checklist else None
    outcome = session.call(request["tool"], request["arguments"])
    return {"ok": outcome.ok, "output": outcome.output, "error": outcome.error, "kind": outcome.error_kind,
            "state": _encode(session.state.snapshot())}
