"""EnvScaler environments (RUC-NLPIR/EnvScaler): env items keyed by env id (`env_class_code`: the Python source of
the environment class, `tools`: function schemas, `environment_introduction`) and task items (`task_id`, `env_id`,
`env_class_name`, `init_config`, `task`, `checklist_with_func`: `def check_func(final_state): ...` checks).

The state is the instance's attributes (dunders excluded), exactly what EnvScaler hands its check functions as
`final_state` (with `initial_state` as a global). The pass fraction of a task's checks is its checklist reward
component. EnvScaler tasks carry no ground-truth calls; give them with `solutions` to score trajectories too.
"""

from __future__ import annotations

import copy
import types
from pathlib import Path
from typing import Any, Callable

from ..spec import EnvironmentSpec
from .build import (
    Checklist,
    ImportOptions,
    external_spec,
    import_path,
    materialize,
    maybe_json,
    read_json,
    read_records,
    read_solutions,
    slug,
    turns,
)
from .network import NetworkPolicy, guarded
from .objects import ObjectBackend, ObjectState, Roots, object_tables, replace_attributes
from .tools import external_tool, product_prefixes, read_decision, signature_fields

FORMAT = "envscaler"


def discover(path: Path, options: ImportOptions) -> list[str]:
    """Env ids of the env items file (only those with tasks, when a task file is given)."""
    envs = read_json(path)
    if options.tasks:
        wanted = {str(t["env_id"]) for t in read_records(Path(options.tasks))}
        return sorted(k for k in envs if k in wanted)
    return sorted(envs)


def sources(path: Path, key: str, options: ImportOptions) -> list[Path]:
    """The files this adapter reads."""
    return [path] + [Path(p) for p in (options.tasks, options.solutions) if p]


def _class_source(item: dict[str, Any], key: str, folder: Path) -> Path:
    """The environment class source as a file of its own, so it imports as a module (named after its content)."""
    target = folder / "source" / f"{slug(key).replace('-', '_')}.py"
    if not target.exists() or target.read_text(encoding="utf-8") != item["env_class_code"]:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(item["env_class_code"], encoding="utf-8")
    return target


def new_instance(cls: type, config: dict[str, Any]) -> Any:
    """An instance initialized the way EnvScaler does: `cls(config)` (else `cls()`), then each key set as an
    attribute."""
    config = copy.deepcopy(config)
    try:
        instance = cls(config)
    except TypeError:
        instance = cls()
    for name, value in config.items():
        setattr(instance, name, value)
    return instance


def state_of(instance: Any) -> dict[str, Any]:
    """EnvScaler's view of an instance: its attributes without dunders (a deep copy)."""
    return copy.deepcopy({k: v for k, v in vars(instance).items() if not (k.startswith("__") and k.endswith("__"))})


def run_check(code: str, initial: dict[str, Any], final: dict[str, Any], network: NetworkPolicy | None = None) -> bool:
    """One `check_func(final_state)` with `initial_state` as a global; an error or a non-boolean is a failure."""
    namespace: dict[str, Any] = {"initial_state": copy.deepcopy(initial)}
    try:
        with guarded(network):
            exec(code, namespace)
            result = namespace["check_func"](copy.deepcopy(final))
    except Exception:
        return False
    return result is True


def checklist_hook(checks: dict[str, list[str]], backend: ObjectBackend, folder: Path) -> Checklist:
    """The checklist hook: the pass fraction of the task's check functions on the final state."""

    def check(task: Any, state: ObjectState) -> float | None:
        codes = checks.get(task.id)
        if not codes:
            return None
        initial = backend.create()
        initial.restore(backend.snapshot(folder / "snapshots" / f"{task.snapshot}.json"))
        before, after = state_of(initial.roots["env"]), state_of(state.roots["env"])
        return sum(run_check(code, before, after, backend.network) for code in codes) / len(codes)

    return check


def _schemas(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Tool schemas by name (OpenAI `{"type": "function", "function": {...}}` or bare `{name, parameters}`)."""
    tools = maybe_json(item.get("tools", []))
    described = [t.get("function", t) for t in tools]
    return {t["name"]: t for t in described}


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert one EnvScaler environment (and its tasks from `options.tasks`) into a spec."""
    item = read_json(path)[key]
    items = [t for t in read_records(Path(options.tasks)) if str(t["env_id"]) == key] if options.tasks else []
    class_name = item.get("env_class_name") or (items[0]["env_class_name"] if items else None)
    network = options.network_policy(f"the EnvScaler class of {key}")
    module = import_path(_class_source(item, key, folder), network=network)
    cls = (
        getattr(module, class_name)
        if class_name
        else next(v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__)
    )
    schemas = _schemas(item)
    prefixes = product_prefixes(list(schemas), key, class_name or "")
    tools, decisions = {}, {}
    for tool, schema in schemas.items():
        method = getattr(cls, tool, None)
        if not isinstance(method, types.FunctionType):
            continue
        read_only, decisions[tool] = read_decision(tool, options, prefixes=prefixes)
        fields = signature_fields(method, schema.get("parameters"))
        tools[tool] = external_tool(tool, schema.get("description", ""), fields, read_only)

    def load_config(roots: Roots, config: Any) -> None:
        replace_attributes(roots["env"], new_instance(cls, config))

    def bind(roots: Roots) -> Callable[[str, dict[str, Any]], Any]:
        return lambda tool, arguments: getattr(roots["env"], tool)(**arguments)

    def view(roots: Roots) -> Any:  # what R_state compares: the public attributes (checks get them all)
        return object_tables({k: v for k, v in state_of(roots["env"]).items() if not k.startswith("_")})

    backend = ObjectBackend(
        lambda: {"env": new_instance(cls, {})}, load_config, view, bind, frozenset(options.cache_fields), network
    )
    solutions = read_solutions(Path(options.solutions) if options.solutions else None)
    tasks: list[dict[str, Any]] = []
    snapshots, checks = {}, {}
    for index, raw in enumerate(items):
        task_id = str(raw["task_id"])
        snapshots[f"t{index:04d}"] = maybe_json(raw.get("init_config") or {})
        checks[task_id] = [c["check_func"] for c in raw.get("checklist_with_func", []) if c.get("check_func")]
        tasks.append(
            {
                "id": task_id,
                "snapshot": f"t{index:04d}",
                "turns": turns(raw["task"], solutions.get(task_id, [])),
                "provenance": {
                    "format": FORMAT,
                    "checklist": [c.get("check_item", "") for c in raw.get("checklist_with_func", [])],
                },
            }
        )
    snapshots["seed"] = next(iter(snapshots.values()), {})
    skipped = materialize(folder, snapshots, tasks, tools, options.expected_errors)
    rules = "".join(f"\n- {rule}" for rule in item.get("constraints_rules", []))
    return external_spec(
        name,
        item.get("environment_introduction", "") + (f"\n\nRules:{rules}" if rules else ""),
        class_name or key,
        tools,
        folder,
        backend,
        source=f"{FORMAT}:{path}:{key}",
        checklist=checklist_hook(checks, backend, folder),
        notes={"skipped_tasks": skipped, "unsolved_tasks": sum(1 for t in tasks if not t["turns"][0]["calls"])},
        decisions=decisions,
    )
