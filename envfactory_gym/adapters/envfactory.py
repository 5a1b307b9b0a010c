"""EnvFactory environments (LARK-AI-Lab/EnvFactory): one `envs/tools/<Name>.py` per environment (Pydantic scenario
models, a `<Name>API` class holding the state with `load_scenario(dict)` / `save_scenario() -> dict`, FastMCP tool
wrappers over a module-level instance), `envs/metadata/<Name>_metadata.json`, checkpoint scenarios in
`envs/intermediate/<Name>_checkpoint.json`, and RL rows whose ground truth is `{name, arguments, masked_arguments}`.

Each session gets its own API object; the module's wrappers are rebound to it (the stdio servers of EnvFactory share
one instance across sessions, ours do not). Files written against `mcp<2` (`from mcp.server.fastmcp import FastMCP,
Context`, `...fastmcp.exceptions import ToolError`) import whatever `mcp` is installed: while a file is imported, the
FastMCP modules are stand-ins that record its tools. A tool's `readOnlyHint` annotation decides whether it reads.
The seed is the first checkpoint scenario that loads with the current code (the import says which, and why the
earlier ones did not); a task whose initial scenario does not load is left out.
"""

from __future__ import annotations

import copy
import importlib.abc
import importlib.machinery
import inspect
import sys
import threading
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from ..spec import EnvironmentSpec, parse_docstring
from .build import (
    ExternalEnvironmentError,
    ImportOptions,
    call,
    external_spec,
    import_path,
    materialize,
    maybe_json,
    read_json,
    read_records,
    slug,
    turns,
)
from .objects import ObjectBackend, Roots, object_tables, replace_attributes
from .tools import external_tool, product_prefixes, read_decision, signature_fields

FORMAT = "envfactory"
HIDDEN = frozenset({"load_scenario", "save_scenario"})  # exposed by EnvFactory's servers but not to agents
#: The server modules a tool file may import (mcp<2's FastMCP, the standalone fastmcp package), with submodules.
SERVER_MODULES = ("mcp.server.fastmcp", "fastmcp")
_STUB_LOCK = threading.Lock()


class _ToolRecorder:
    """Stands in for FastMCP while an environment file is imported: records the decorated tool functions and the
    annotations they were declared with."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.tools: list[Callable[..., Any]] = []
        self.annotations: dict[str, Any] = {}

    def tool(self, *args: Any, **kwargs: Any) -> Any:
        """`@mcp.tool()`, `@mcp.tool` and `@mcp.tool(annotations=...)`: record and return the function unchanged."""

        def record(func: Callable[..., Any]) -> Callable[..., Any]:
            self.tools.append(func)
            if kwargs.get("annotations") is not None:
                self.annotations[kwargs.get("name") or func.__name__] = kwargs["annotations"]
            return func

        return record(args[0]) if args and callable(args[0]) and not kwargs else record

    def run(self, *args: Any, **kwargs: Any) -> None:
        """Never serves: the runtime serves the environment itself."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: lambda func: func  # resource/prompt decorators: keep the function


class ServerStandIn:
    """Any other name a tool file imports from the server modules (Context, Image, ...): a placeholder class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs


class _StandInModule(types.ModuleType):
    """A FastMCP module while a tool file is imported: `FastMCP` records, `*Error`/`*Exception` names are exception
    classes, anything else a placeholder class."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name == "FastMCP":
            value: Any = _ToolRecorder
        elif name.endswith(("Error", "Exception")):
            value = type(name, (Exception,), {"__module__": self.__name__})
        else:
            value = type(name, (ServerStandIn,), {"__module__": self.__name__})
        setattr(self, name, value)
        return value


class _StandInFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the stand-in modules for the server packages and their submodules."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if any(fullname == name or fullname.startswith(name + ".") for name in SERVER_MODULES):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        module = _StandInModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run."""


@contextmanager
def _recording_fastmcp() -> Iterator[None]:
    """While a tool file is imported, `mcp.server.fastmcp` and `fastmcp` (and their submodules) are stand-ins: the
    file imports with mcp 2.x installed (which has no FastMCP) and its tools are recorded, never served."""
    finder = _StandInFinder()
    with _STUB_LOCK:
        saved = {
            name: module
            for name, module in sys.modules.items()
            if any(name == s or name.startswith(s + ".") for s in SERVER_MODULES)
        }
        for name in saved:
            del sys.modules[name]
        sys.meta_path.insert(0, finder)
        try:
            yield
        finally:
            sys.meta_path.remove(finder)
            for name in [n for n in sys.modules if any(n == s or n.startswith(s + ".") for s in SERVER_MODULES)]:
                del sys.modules[name]
            sys.modules.update(saved)


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
        name
        for name, value in vars(module).items()
        if not isinstance(value, (type, types.ModuleType))
        and callable(getattr(type(value), "load_scenario", None))
        and callable(getattr(type(value), "save_scenario", None))
    ]
    if not names:
        raise ValueError(f"{module.__file__}: no module-level object with load_scenario/save_scenario")
    return type(getattr(module, names[0])), names


def _recorder(module: types.ModuleType) -> _ToolRecorder:
    recorders = [v for v in vars(module).values() if isinstance(v, _ToolRecorder)]
    if not recorders:
        raise ValueError(f"{module.__file__}: no FastMCP server with @mcp.tool() functions")
    return recorders[0]


def _without_server_parameters(func: Callable[..., Any]) -> Callable[..., Any]:
    """The tool function with parameters the server injects (a `Context`) left out of its signature; they are
    passed as None."""
    signature = inspect.signature(func)
    injected = [
        p
        for p in signature.parameters.values()
        if isinstance(p.annotation, type)
        and issubclass(p.annotation, ServerStandIn)
        or (isinstance(p.annotation, str) and p.annotation.split(".")[-1] in ("Context", "ctx"))
    ]
    if not injected:
        return func
    names = {p.name for p in injected}

    def without(**kwargs: Any) -> Any:
        return func(**kwargs, **{name: None for name in names})

    without.__name__, without.__doc__ = func.__name__, func.__doc__
    without.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[p for p in signature.parameters.values() if p.name not in names]
    )
    without.__annotations__ = {k: v for k, v in getattr(func, "__annotations__", {}).items() if k not in names}
    return without


def read_only_hint(annotations: Any) -> bool | None:
    """The `readOnlyHint` of MCP tool annotations (a dict or a ToolAnnotations-like object), or None."""
    if annotations is None:
        return None
    for name in ("readOnlyHint", "read_only_hint"):
        value = annotations.get(name) if isinstance(annotations, dict) else getattr(annotations, name, None)
        if value is None and not isinstance(annotations, dict):
            value = (getattr(annotations, "kwargs", None) or {}).get(name)
        if value is not None:
            return bool(value)
    return None


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
        bound[func.__name__] = _without_server_parameters(copy_)
    return bound


def _scenario_error(api_class: type, scenario: Any) -> str | None:
    """Why a scenario does not load with the current code (None: it loads)."""
    try:
        api_class().load_scenario(copy.deepcopy(scenario))
    except Exception as exc:  # any failure of the external code means the scenario is stale
        return f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": ")
    return None


def choose_seed(api_class: type, scenarios: list[dict[str, Any]]) -> tuple[Any, list[str]]:
    """The first passing checkpoint scenario that loads, and notes on those passed over."""
    notes: list[str] = []
    candidates = [(i, s) for i, s in enumerate(scenarios) if s.get("expected_behavior", "pass") == "pass"]
    for index, scenario in candidates:
        error = _scenario_error(api_class, scenario.get("scenario_data", {}))
        if error is None:
            if notes:
                notes.append(f"seed: checkpoint scenario {index} (the earlier ones do not load with the current code)")
            return scenario.get("scenario_data", {}), notes
        notes.append(f"checkpoint scenario {index} does not load: {error}")
    if candidates:
        raise ExternalEnvironmentError(f"no checkpoint scenario loads with the current code ({notes[0]})")
    return None, notes


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
        tasks.append(
            {
                "id": str(row.get("id", f"{slug(key)}-rl-{index:04d}")),
                "snapshot": snapshot,
                "turns": turns(
                    query, [call(c["name"], c.get("arguments", {}), c.get("masked_arguments", [])) for c in truth]
                ),
                "provenance": {"format": FORMAT, "row": index, "history_messages": len(messages) - 1},
            }
        )
    return tasks, snapshots


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert one EnvFactory environment into a spec (tasks from the RL rows of `options.tasks`)."""
    tool_file = _tool_file(path, key)
    envs = tool_file.parent.parent
    network = options.network_policy(tool_file.name)
    with _recording_fastmcp():
        module = import_path(tool_file, network=network)
    api_class, api_names = _api_of(module)
    recorder = _recorder(module)
    wrappers = [f for f in recorder.tools if f.__name__ not in HIDDEN]
    metadata_path = envs / "metadata" / f"{key}_metadata.json"
    metadata = read_json(metadata_path) if metadata_path.exists() else {}
    described = {t["name"]: t for t in metadata.get("tools", [])}
    prefixes = product_prefixes([f.__name__ for f in wrappers], key, metadata.get("class_name", ""))
    tools, decisions = {}, {}
    for func in wrappers:
        info = described.get(func.__name__, {})
        description = info.get("description") or parse_docstring(func.__doc__)[0]
        hint = read_only_hint(recorder.annotations.get(func.__name__, info.get("annotations")))
        read_only, decisions[func.__name__] = read_decision(func.__name__, options, hint, "MCP readOnlyHint", prefixes)
        tools[func.__name__] = external_tool(
            func.__name__,
            description,
            signature_fields(_without_server_parameters(func), info.get("input_schema")),
            read_only,
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

    def view(roots: Roots) -> Any:
        scenario = roots["api"].save_scenario()
        return object_tables(
            {k: v for k, v in scenario.items() if not str(k).startswith("_")}
            if isinstance(scenario, dict)
            else {"scenario": scenario}
        )

    backend = ObjectBackend(make_roots, load_scenario, view, bind, frozenset(options.cache_fields), network)
    tasks, snapshots = _rl_tasks(Path(options.tasks), key) if options.tasks else ([], {})
    stale = [task["id"] for task in tasks if _scenario_error(api_class, snapshots[task["snapshot"]]) is not None]
    tasks = [task for task in tasks if task["id"] not in stale]
    checkpoint = envs / "intermediate" / f"{key}_checkpoint.json"
    scenarios = read_json(checkpoint).get("scenarios", []) if checkpoint.exists() else []
    seed, notes = choose_seed(api_class, scenarios)
    if stale:
        notes.append(f"{len(stale)} task(s) left out: their initial scenario does not load ({', '.join(stale[:3])})")
    snapshots["seed"] = seed if seed is not None else next(iter(snapshots.values()), {})
    skipped = materialize(folder, snapshots, tasks, tools, options.expected_errors)
    return external_spec(
        name,
        metadata.get("description", module.__doc__ or ""),
        metadata.get("class_name", key),
        tools,
        folder,
        backend,
        source=f"{FORMAT}:{tool_file}",
        notes={"skipped_tasks": skipped + len(stale), "notes": notes},
        decisions=decisions,
    )
