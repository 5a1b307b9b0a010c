"""tau2-bench domains (sierra-research/tau2-bench): a domain's code (`data_model.py` with a Pydantic `DB`,
`tools.py` with a toolkit class whose methods are marked `@is_tool(ToolType.READ|WRITE|...)`), its `db.json`, and
`tasks.json` (`user_scenario.instructions`, `initial_state.initialization_data.agent_data` /
`initialization_actions`, `evaluation_criteria.actions` with `compare_args`, `env_assertions`).

The state is the toolkit's DB. tau2 scores the DB hash after replaying the gold actions; here the same replay gives
the expected state of R_state (1.0 exactly when the final DB equals the gold one), gold actions the trajectory
reward (arguments outside `compare_args` masked), and `env_assertions` the checklist component. The domain code
imports `tau2` as usual: tau2-bench must be installed (or on the path). User-side tools, user-requested actions and
tasks that start from a message history are not supported: those tasks are left out.
"""

from __future__ import annotations

import copy
import enum
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel

from ..spec import EnvironmentSpec, parse_docstring
from .build import (Checklist, ImportOptions, call, content_name, external_spec, import_path, import_submodule,
                    materialize, read_json, read_records, turns)
from .objects import ObjectBackend, ObjectState, Roots, object_tables, plain, replace_attributes
from .tools import external_tool, signature_fields

FORMAT = "tau2"


def _code_dir(path: Path, options: ImportOptions) -> Path:
    return Path(options.code) if options.code else path


def discover(path: Path, options: ImportOptions) -> list[str]:
    """One domain per folder: its name."""
    return [_code_dir(path, options).name]


def sources(path: Path, key: str, options: ImportOptions) -> list[Path]:
    """The files this adapter reads."""
    code = _code_dir(path, options)
    files = sorted(code.glob("*.py")) + [path / "db.json", Path(options.tasks) if options.tasks else path / "tasks.json"]
    return [f for f in dict.fromkeys(files) if f.exists()]


def deep_update(data: Any, update: Any) -> Any:
    """`data` with `update` merged in: mappings recursively, anything else replaced."""
    if isinstance(data, dict) and isinstance(update, dict):
        merged = dict(data)
        for key, value in update.items():
            merged[key] = deep_update(data.get(key), value) if key in data else value
        return merged
    return update


def _marks(cls: type) -> dict[str, tuple[Callable[..., Any], bool]]:
    """The marked tool methods of a toolkit class: name -> (function, read_only). Discoverable tools are hidden."""
    found = {}
    for name in dir(cls):
        member = getattr(cls, name, None)
        func = member.fget if isinstance(member, property) else member
        if not callable(func) or not getattr(func, "__tool__", False) or getattr(func, "__discoverable__", False):
            continue
        mutates = getattr(func, "__mutates_state__", None)
        kind = getattr(func, "__tool_type__", "write")
        kind = str(kind.value if isinstance(kind, enum.Enum) else kind).lower()
        found[name] = (func, (not mutates) if mutates is not None else kind != "write")
    return found


def _toolkit_class(module: Any) -> type:
    classes = [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__ and _marks(v)]
    if not classes:
        raise ValueError(f"{module.__file__}: no toolkit class with @is_tool methods")
    return max(classes, key=lambda c: len(_marks(c)))


def _db_class(toolkit: type, package: Any) -> type:
    hint = get_type_hints(toolkit).get("db")
    if get_origin(hint) is Union:
        hint = next((a for a in get_args(hint) if isinstance(a, type) and issubclass(a, BaseModel)), None)
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return hint
    models = import_submodule(package, "data_model")
    found = [v for v in vars(models).values()
             if isinstance(v, type) and issubclass(v, BaseModel) and v.__name__.endswith("DB")]
    if not found:
        raise ValueError("cannot tell the domain's DB model (annotate the toolkit's `db` attribute)")
    return found[-1]


@lru_cache(maxsize=8)
def _db_data(path: str, version: int) -> Any:
    return read_json(Path(path))


def _query(scenario: dict[str, Any]) -> str:
    instructions = scenario.get("instructions", "")
    if isinstance(instructions, str):
        return instructions
    return "\n".join(x for x in (instructions.get("reason_for_call"), instructions.get("known_info")) if x)


def _unsupported(task: dict[str, Any]) -> bool:
    actions = (task.get("evaluation_criteria") or {}).get("actions") or []
    initial = task.get("initial_state") or {}
    setup = initial.get("initialization_actions") or []
    return (any(a.get("requestor", "assistant") != "assistant" for a in actions) or bool(initial.get("message_history"))
            or any(a.get("env_type") != "assistant" for a in setup))


def _task(task: dict[str, Any]) -> tuple[dict[str, Any], str, Any]:
    """Our task, its snapshot name and payload (the agent-side update of `db.json` and the setup calls)."""
    initial = task.get("initial_state") or {}
    update = (initial.get("initialization_data") or {}).get("agent_data") or {}
    setup = [{"func_name": a["func_name"], "arguments": a.get("arguments", {})}
             for a in initial.get("initialization_actions") or []]
    payload = {"update": update, "actions": setup}
    snapshot = "seed" if not update and not setup else content_name(payload)
    calls = []
    for action in (task.get("evaluation_criteria") or {}).get("actions") or []:
        arguments = action.get("arguments", {})
        compared = action.get("compare_args")
        calls.append(call(action["name"], arguments, set(arguments) - set(compared) if compared is not None else ()))
    scenario = task.get("user_scenario") or {}
    instructions = scenario.get("instructions", "")
    if isinstance(instructions, dict):
        instructions = "\n".join(f"{k}: {v}" for k, v in instructions.items() if v)
    user = {"profile": scenario.get("persona") or "", "scenario": instructions}
    basis = (task.get("evaluation_criteria") or {}).get("reward_basis", ["DB"])
    ours = {"id": str(task["id"]), "snapshot": snapshot, "user": user,
            "turns": turns(task.get("ticket") or _query(scenario), calls),
            "provenance": {"format": FORMAT, "reward_basis": basis}}
    return ours, snapshot, payload


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert one tau2 domain into a spec."""
    package = import_path(_code_dir(path, options))
    toolkit_class = _toolkit_class(import_submodule(package, "tools"))
    db_class = _db_class(toolkit_class, package)
    marks = _marks(toolkit_class)
    tools = {
        tool: external_tool(tool, parse_docstring(func.__doc__)[0], signature_fields(func),
                            options.read_only(tool, read_only))
        for tool, (func, read_only) in marks.items()
    }
    db_path = (path / "db.json").resolve()

    def build(payload: Any) -> Any:
        data = deep_update(copy.deepcopy(_db_data(str(db_path), db_path.stat().st_mtime_ns)), payload["update"])
        toolkit = toolkit_class(db_class.model_validate(data))
        for action in payload["actions"]:
            getattr(toolkit, action["func_name"])(**action["arguments"])
        return toolkit

    def make_roots() -> Roots:
        return {"toolkit": build({"update": {}, "actions": []})}

    def bind(roots: Roots) -> Callable[[str, dict[str, Any]], Any]:
        return lambda tool, arguments: getattr(roots["toolkit"], tool)(**arguments)

    backend = ObjectBackend(
        make_roots, lambda roots, payload: replace_attributes(roots["toolkit"], build(payload)),
        lambda roots: object_tables(plain(roots["toolkit"].db)), bind,
    )
    raw_tasks = read_records(Path(options.tasks) if options.tasks else path / "tasks.json")
    tasks, snapshots, assertions = [], {"seed": {"update": {}, "actions": []}}, {}
    unsupported = 0
    for raw in raw_tasks:
        if _unsupported(raw):
            unsupported += 1
            continue
        task, snapshot, payload = _task(raw)
        snapshots[snapshot] = payload
        tasks.append(task)
        checks = (raw.get("evaluation_criteria") or {}).get("env_assertions") or []
        if checks:
            assertions[task["id"]] = checks
    skipped = materialize(folder, snapshots, tasks, tools)
    return external_spec(
        name, (toolkit_class.__doc__ or "").strip() or f"The {key} domain of tau2-bench.", key, tools, folder, backend,
        source=f"{FORMAT}:{path}", checklist=assertion_checklist(assertions, backend) if assertions else None,
        notes={"skipped_tasks": skipped + unsupported},
    )


def assertion_checklist(assertions: dict[str, list[dict[str, Any]]], backend: ObjectBackend) -> Checklist:
    """The checklist hook: the fraction of the task's env assertions that hold on (a copy of) the final state."""

    def check(task: Any, state: ObjectState) -> float | None:
        checks = assertions.get(task.id)
        if not checks:
            return None
        scratch = backend.create()
        scratch.restore(state.snapshot())
        toolkit = scratch.roots["toolkit"]
        passed = 0
        for check_ in checks:
            if check_.get("env_type", "assistant") != "assistant":
                continue
            try:
                value = getattr(toolkit, check_["func_name"])(**check_.get("arguments", {}))
                passed += value == check_.get("assert_value", True)
            except Exception:  # an assertion that cannot run does not hold
                continue
        return passed / len(checks)

    return check
