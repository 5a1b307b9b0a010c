"""EnvFactory environments (LARK-AI-Lab/EnvFactory): one `envs/tools/<Name>.py` per environment (Pydantic scenario
models, a `<Name>API` class holding the state with `load_scenario(dict)` / `save_scenario() -> dict`, FastMCP tool
wrappers over a module-level instance), `envs/metadata/<Name>_metadata.json`, checkpoint scenarios in
`envs/intermediate/<Name>_checkpoint.json`, and RL rows whose ground truth is `{name, arguments, masked_arguments}`.

Each session gets its own API object; the module's wrappers are rebound to it (the stdio servers of EnvFactory share
one instance across sessions, ours do not).
"""

from __future__ import annotations

import copy
import sys
import threading
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from ..spec import EnvironmentSpec, parse_docstring
from .build import (ImportOptions, call, external_spec, import_path, materialize, maybe_json, read_json, read_records,
                    slug, turns)
from .objects import ObjectBackend, Roots, object_tables, replace_attributes
from .tools import external_tool, guess_read_only, signature_fields

FORMAT = "envfactory"
HIDDEN = frozenset({"load_scenario", "save_scenario"})  # exposed by EnvFactory's servers but not to agents
_STUB_LOCK = threading.Lock()


class _ToolRecorder:
    """Stands in for FastMCP while an environment file is imported: records the decorated tool functions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.tools: list[Callable[..., Any]] = []

    def tool(self, *args: Any, **kwargs: Any) -> Any:
        """`@mcp.tool()` and `@mcp.tool`: record and return the function unchanged."""

        def record(func: Callable[..., Any]) -> Callable[..., Any]:
            self.tools.append(func)
            return func

        return record(args[0]) if args and callable(args[0]) and not kwargs else record

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Never serves: the runtime serves the environment itself."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: (lambda func: func)  # resource/prompt decorators: keep the function


@contextmanager
def _recording_fastmcp() -> Iterator[None]:
    """Make `from mcp.server.fastmcp import FastMCP` (and `from fastmcp import FastMCP`) give the recorder."""
    stub = types.ModuleType("fastmcp_recorder")
    stub.FastMCP = _ToolRecorder  # type: ignore[attr-defined]
    names = ("mcp.server.fastmcp", "fastmcp")
    with _STUB_LOCK:
        saved = {name: sys.modules.get(name) for name in names}
        sys.modules.update({name: stub for name in names})
        try:
            yield
        finally:
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module


def _tools_dir(path: Path) -> Path:
    for candidate in (path / "envs" / "tools", path / "tools", path):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no EnvFactory tools folder under {path}")


def _tool_file(path: Path, key: str) -> Path:
    return path if path.is_file() else _tools_dir(path) / f"{key}.py"


def discover(path: Path, options: ImportOptions) -> list[str]:
    """Environment names: the file's stem, or every `*.py` of the tools folder."""
    if path.is_file():
        return [path.stem]
    return sorted(p.stem for p in _tools_dir(path).glob("*.py") if not p.name.startswith("_"))


def sources(path: Path, key: str, options: ImportOptions) -> list[Path]:
    """The files this adapter reads for one environment."""
    tool_file = _tool_file(path, key)
    envs = tool_file.parent.parent
    found = [tool_file, envs / "metadata" / f"{key}_metadata.json", envs / "intermediate" / f"{key}_checkpoint.json"]
    return [p for p in found if p.exists()] + ([Path(options.tasks)] if options.tasks else [])


def _api_of(module: types.ModuleType) -> tuple[type, list[str]]:
    """The API class and the module-level names bound to its instance."""
    names = [
        name for name, value in vars(module).items()
        if not isinstance(value, (type, types.ModuleType)) and callable(getattr(type(value), "load_scenario", None))
        and callable(getattr(type(value), "save_scenario", None))
    ]
    if not names:
        raise ValueError(f"{module.__file__}: no module-level object with load_scenario/save_scenario")
    return type(getattr(module, names[0])), names


def _wrappers(module: types.ModuleType) -> list[Callable[..., Any]]:
    recorders = [v for v in vars(module).values() if isinstance(v, _ToolRecorder)]
    if not recorders:
        raise ValueError(f"{module.__file__}: no FastMCP server with @mcp.tool() functions")
    return [f for f in recorders[0].tools if f.__name__ not in HIDDEN]


def _rebind(
    functions: list[Callable[..., Any]], module: types.ModuleType, names: list[str], api: Any
) -> dict[str, Callable[..., Any]]:
    """The wrapper functions with their globals' API instance replaced by `api` (a per-session module namespace)."""
    namespace = dict(vars(module))
    namespace.update({name: api for name in names})
    bound = {}
    for func in functions:
        copy_ = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__)
        copy_.__kwdefaults__ = func.__kwdefaults__
        bound[func.__name__] = copy_
    return bound


def _rl_tasks(path: Path, key: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Tasks (one per RL row served by this environment alone) and their initial scenarios by snapshot name."""
    tasks, snapshots = [], {}
    for index, row in enumerate(read_records(path)):
        kwargs = row.get("extra_info", {}).get("mcp_factory_kwargs", {})
        if maybe_json(kwargs.get("mcp_servers", "[]")) != [key]:
            continue
        messages = maybe_json(row["prompt"])
        query = next(m["content"] for m in reversed(messages) if m["role"] == "user")
        truth = maybe_json(row["reward_model"]["ground_truth"])
        snapshot = f"rl-{index:04d}"
        snapshots[snapshot] = maybe_json(kwargs.get("initial_config", "{}")).get(key, {})
        tasks.append({
            "id": str(row.get("id", f"{slug(key)}-rl-{index:04d}")),
            "snapshot": snapshot,
            "turns": turns(query, [call(c["name"], c.get("arguments", {}), c.get("masked_arguments", [])) for c in truth]),
            "provenance": {"format": FORMAT, "row": index, "history_messages": len(messages) - 1},
        })
    return tasks, snapshots


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert one EnvFactory environment into a spec (tasks from the RL rows of `options.tasks`)."""
    tool_file = _tool_file(path, key)
    envs = tool_file.parent.parent
    with _recording_fastmcp():
        module = import_path(tool_file)
    api_class, api_names = _api_of(module)
    wrappers = _wrappers(module)
    metadata_path = envs / "metadata" / f"{key}_metadata.json"
    metadata = read_json(metadata_path) if metadata_path.exists() else {}
    described = {t["name"]: t for t in metadata.get("tools", [])}
    tools = {}
    for func in wrappers:
        info = described.get(func.__name__, {})
        description = info.get("description") or parse_docstring(func.__doc__)[0]
        read_only = options.read_only(func.__name__, guess_read_only(func.__name__))
        tools[func.__name__] = external_tool(
            func.__name__, description, signature_fields(func, info.get("input_schema")), read_only
        )

    def make_roots() -> Roots:
        return {"api": api_class()}

    def load_scenario(roots: Roots, scenario: Any) -> None:
        fresh = api_class()
        fresh.load_scenario(copy.deepcopy(scenario))
        replace_attributes(roots["api"], fresh)

    def bind(roots: Roots) -> Callable[[str, dict[str, Any]], Any]:
        functions = _rebind(wrappers, module, api_names, roots["api"])
        return lambda tool, arguments: functions[tool](**arguments)

    backend = ObjectBackend(make_roots, load_scenario, lambda roots: object_tables(roots["api"].save_scenario()), bind)
    tasks, snapshots = _rl_tasks(Path(options.tasks), key) if options.tasks else ([], {})
    checkpoint = envs / "intermediate" / f"{key}_checkpoint.json"
    scenarios = read_json(checkpoint).get("scenarios", []) if checkpoint.exists() else []
    passing = [s["scenario_data"] for s in scenarios if s.get("expected_behavior", "pass") == "pass"]
    snapshots["seed"] = passing[0] if passing else next(iter(snapshots.values()), {})
    skipped = materialize(folder, snapshots, tasks, tools)
    return external_spec(
        name, metadata.get("description", module.__doc__ or ""), metadata.get("class_name", key), tools, folder,
        backend, source=f"{FORMAT}:{tool_file}", notes={"skipped_tasks": skipped},
    )
