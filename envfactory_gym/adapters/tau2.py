"""tau2-bench domains (sierra-research/tau2-bench): a domain's code (`data_model.py` with a Pydantic `DB`,
`tools.py` with a toolkit class whose methods are marked `@is_tool(ToolType.READ|WRITE|...)`), its `db.json`, and
`tasks.json` (`user_scenario.instructions`, `initial_state.initialization_data.agent_data` /
`initialization_actions`, `evaluation_criteria.actions` with `compare_args`, `env_assertions`).

The state is the toolkit's DB, held copy-on-write (adapters/cow.py): sessions share the snapshot's frozen records and
own the ones they change, so a reset costs microseconds whatever the size of the DB. tau2 scores the DB hash after
replaying the gold actions; here the same replay gives the expected state of R_state (1.0 exactly when the final DB
equals the gold one), gold actions the trajectory reward (arguments outside `compare_args` masked; a gold action
that fails in tau2 too is matched by the same failure), and assistant-side `env_assertions` the checklist component.
The domain code imports `tau2`: tau2-bench must be installed (it needs Python >= 3.12). User-side tools,
user-requested actions and tasks that start from a message history are not supported: those tasks are left out.
"""

from __future__ import annotations

import enum
import functools
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel

from ..spec import EnvironmentSpec, parse_docstring
from .build import (
    Checklist,
    ExternalEnvironmentError,
    ImportOptions,
    MissingDependency,
    call,
    content_name,
    external_spec,
    import_path,
    import_submodule,
    materialize,
    read_json,
    read_records,
    turns,
)
from .cow import ATTRIBUTES, CowState, CowStore, record_tables
from .objects import ObjectBackend, Roots, plain, replace_attributes
from .tools import external_tool, read_decision, signature_fields

FORMAT = "tau2"
INSTALL_HINT = (
    "install tau2-bench from its repository (pip install git+https://github.com/sierra-research/tau2-bench; "
    "it needs Python >= 3.12)"
)


def _code_dir(path: Path, options: ImportOptions) -> Path:
    return Path(options.code) if options.code else path


def discover(path: Path, options: ImportOptions) -> list[str]:
    """One domain per folder: its name."""
    return [_code_dir(path, options).name]


def sources(path: Path, key: str, options: ImportOptions) -> list[Path]:
    """The files this adapter reads."""
    code = _code_dir(path, options)
    files = sorted(code.glob("*.py")) + [
        path / "db.json",
        Path(options.tasks) if options.tasks else path / "tasks.json",
    ]
    return [f for f in dict.fromkeys(files) if f.exists()]


def deep_update(data: Any, update: Any) -> Any:
    """`data` with `update` merged in: mappings recursively, anything else replaced."""
    if isinstance(data, dict) and isinstance(update, dict):
        merged = dict(data)
        for key, value in update.items():
            merged[key] = deep_update(data.get(key), value) if key in data else value
        return merged
    return update


def _marks(cls: type) -> dict[str, tuple[Callable[..., Any], bool, str]]:
    """The marked tool methods of a toolkit class: name -> (function, read_only, why). Discoverable tools are
    hidden."""
    found = {}
    for name in dir(cls):
        member = getattr(cls, name, None)
        func = member.fget if isinstance(member, property) else member
        if not callable(func) or not getattr(func, "__tool__", False) or getattr(func, "__discoverable__", False):
            continue
        mutates = getattr(func, "__mutates_state__", None)
        kind = getattr(func, "__tool_type__", "write")
        kind = str(kind.value if isinstance(kind, enum.Enum) else kind).lower()
        if mutates is not None:
            found[name] = (func, not mutates, f"tau2 mutates_state={bool(mutates)}")
        else:
            found[name] = (func, kind != "write", f"tau2 ToolType.{kind.upper()}")
    return found


def _toolkit_class(module: Any) -> type:
    classes = [
        v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__ and _marks(v)
    ]
    if not classes:
        raise ValueError(f"{module.__file__}: no toolkit class with @is_tool methods")
    return max(classes, key=lambda c: len(_marks(c)))


def _db_class(toolkit: type, package: Any, options: ImportOptions) -> type[BaseModel]:
    hint = get_type_hints(toolkit).get("db")
    if get_origin(hint) is Union:
        hint = next((a for a in get_args(hint) if isinstance(a, type) and issubclass(a, BaseModel)), None)
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return hint
    models = _import(package, "data_model", options)
    found = [
        v
        for v in vars(models).values()
        if isinstance(v, type) and issubclass(v, BaseModel) and v.__name__.endswith("DB")
    ]
    if not found:
        raise ValueError("cannot tell the domain's DB model (annotate the toolkit's `db` attribute)")
    return found[-1]


def _import(package: Any, name: str, options: ImportOptions) -> Any:
    try:
        return import_submodule(package, name, options.network_policy(f"{package.__name__}.{name}"))
    except MissingDependency as exc:
        if "'tau2'" in str(exc):
            raise MissingDependency(
                f"the domain code imports tau2 (tau2-bench), which is not installed here: {INSTALL_HINT}"
            ) from exc
        raise


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
    return (
        any(a.get("requestor", "assistant") != "assistant" for a in actions)
        or bool(initial.get("message_history"))
        or any(a.get("env_type") != "assistant" for a in setup)
    )


def _task(task: dict[str, Any]) -> tuple[dict[str, Any], str, Any]:
    """Our task, its snapshot name and payload (the agent-side update of `db.json` and the setup calls)."""
    initial = task.get("initial_state") or {}
    update = (initial.get("initialization_data") or {}).get("agent_data") or {}
    setup = [
        {"func_name": a["func_name"], "arguments": a.get("arguments", {})}
        for a in initial.get("initialization_actions") or []
    ]
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
    ours = {
        "id": str(task["id"]),
        "snapshot": snapshot,
        "user": user,
        "turns": turns(task.get("ticket") or _query(scenario), calls),
        "provenance": {"format": FORMAT, "reward_basis": basis},
    }
    return ours, snapshot, payload


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert one tau2 domain into a spec (copy-on-write state; the plain-object state as its reference)."""
    code = _code_dir(path, options)
    network = options.network_policy(f"the tau2 domain code in {code}")
    package = import_path(code, network=network)
    toolkit_class = _toolkit_class(_import(package, "tools", options))
    db_class = _db_class(toolkit_class, package, options)
    marks = _marks(toolkit_class)
    tools, decisions = {}, {}
    for tool, (func, flag, why) in marks.items():
        read_only, decisions[tool] = read_decision(tool, options, flag, why)
        tools[tool] = external_tool(tool, parse_docstring(func.__doc__)[0], signature_fields(func), read_only)
    db_path = (path / "db.json").resolve()
    if not db_path.exists():
        raise ExternalEnvironmentError(f"no db.json in {path}")
    hidden = frozenset(options.cache_fields)

    def seed_data() -> Any:
        return _db_data(str(db_path), db_path.stat().st_mtime_ns)

    store = CowStore(lambda: db_class.model_validate(seed_data()), toolkit_class, _applier(), hidden, network)
    store.reference = _reference_backend(toolkit_class, db_class, seed_data, store, network)
    raw_tasks = read_records(Path(options.tasks) if options.tasks else path / "tasks.json")
    snapshots: dict[str, Any] = {"seed": {"update": {}, "actions": []}}
    tasks, assertions = [], {}
    unsupported = 0
    for raw in raw_tasks:
        if _unsupported(raw):
            unsupported += 1
            continue
        task, snapshot, payload = _task(raw)
        snapshots[snapshot] = payload
        tasks.append(task)
        checks = [
            c
            for c in (raw.get("evaluation_criteria") or {}).get("env_assertions") or []
            if c.get("env_type", "assistant") == "assistant"
        ]
        if checks:
            assertions[task["id"]] = checks
    skipped = materialize(folder, snapshots, tasks, tools, options.expected_errors)
    plain_objects = options.object_state == "plain"
    return external_spec(
        name,
        (toolkit_class.__doc__ or "").strip() or f"The {key} domain of tau2-bench.",
        key,
        tools,
        folder,
        store.reference if plain_objects else store,
        source=f"{FORMAT}:{path}",
        checklist=assertion_checklist(assertions) if assertions else None,
        notes={
            "skipped_tasks": skipped + unsupported,
            "full_state_checker": True,
            "state": "plain objects" if plain_objects else "copy-on-write records (adapters/cow.py)",
        },
        decisions=decisions,
    )


def _applier() -> Callable[[CowState, Any], None]:
    """How a snapshot payload turns the seed into a task's start: the agent data merged record by record (as tau2's
    `update_db` merges it into the whole DB), then the setup calls."""

    def apply(state: CowState, payload: Any) -> None:
        layout = state.store.layout
        with state.atomic():
            for attribute, update in (payload.get("update") or {}).items():
                if attribute in layout.collections and isinstance(update, dict):
                    table = state.db.__dict__[attribute]
                    for key, part in update.items():
                        old = dict.get(table, key)
                        merged = (
                            deep_update(old.model_dump() if isinstance(old, BaseModel) else plain(old), part)
                            if old is not None
                            else part
                        )
                        table[key] = layout.adapters[attribute].validate_python({key: merged})[key]
                else:
                    old = state.db.__dict__.get(attribute)
                    merged = deep_update(plain(old), update) if old is not None else update
                    setattr(state.db, attribute, layout.adapters[attribute].validate_python(merged))
        for action in payload.get("actions") or []:
            with state.atomic():
                method = getattr(state.toolkit, action["func_name"])
                state.run(None, functools.partial(method, **action.get("arguments", {})))

    return apply


def _reference_backend(
    toolkit_class: type, db_class: type[BaseModel], seed_data: Callable[[], Any], store: CowStore, network: Any
) -> ObjectBackend:
    """The same domain on plain objects (pickled snapshots, each session its own objects): what the copy-on-write
    state must agree with; the import compares them and falls back to this one when they differ."""

    def build(payload: Any) -> Any:
        data = deep_update(seed_data(), payload["update"])  # copies the dicts on the update's path only
        toolkit = toolkit_class(db_class.model_validate(data))
        for action in payload["actions"]:
            getattr(toolkit, action["func_name"])(**action["arguments"])
        return toolkit

    def bind(roots: Roots) -> Callable[[str, dict[str, Any]], Any]:
        return lambda tool, arguments: getattr(roots["toolkit"], tool)(**arguments)

    return ObjectBackend(
        lambda: {"toolkit": object.__new__(toolkit_class)},  # an empty shell: every session starts with a restore
        lambda roots, payload: replace_attributes(roots["toolkit"], build(payload)),
        lambda roots: record_tables(roots["toolkit"].db, store),
        bind,
        frozenset(),
        network,
    )


def assertion_checklist(assertions: dict[str, list[dict[str, Any]]]) -> Checklist:
    """The checklist hook: the fraction of the task's assistant-side env assertions that hold on the final state
    (user-side ones are left out of the count; they need tau2's user tools)."""

    def check(task: Any, state: Any) -> float | None:
        checks = assertions.get(task.id)
        if not checks:
            return None
        passed = 0
        for check_ in checks:
            try:
                value = _run_assertion(state, check_)
                passed += value == check_.get("assert_value", True)
            except Exception:  # an assertion that cannot run does not hold
                continue
        return passed / len(checks)

    return check


def _run_assertion(state: Any, check: dict[str, Any]) -> Any:
    """One assertion function on a session's toolkit, in a call that is undone afterwards (it must not change it)."""
    if isinstance(state, CowState):
        method = getattr(state.toolkit, check["func_name"])
        result: Any = None

        class _Undo(Exception):
            pass

        try:
            with state.atomic():
                result = state.run(None, lambda: method(**check.get("arguments", {})))
                raise _Undo
        except _Undo:
            return result
    toolkit = state.roots["toolkit"]
    before = state.snapshot()
    try:
        return getattr(toolkit, check["func_name"])(**check.get("arguments", {}))
    finally:
        state.restore(before)


__all__ = ["ATTRIBUTES", "FORMAT", "assertion_checklist", "deep_update", "discover", "load", "sources"]
