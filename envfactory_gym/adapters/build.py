"""What every adapter shares: import options, reading external files, importing external Python code, writing the
converted tasks and snapshots, and the EnvironmentSpec of an external environment."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import sys
import threading
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Optional

from sqlalchemy import MetaData

from ..errors import ExternalEnvironmentError
from ..spec import EnvironmentSpec, ToolSpec
from ..tasks import Task
from .determinism import make_deterministic
from .network import NetworkPolicy, guarded

#: A task's checks on a final state: (task, state) -> pass fraction, or None when the task has none.
Checklist = Callable[[Any, Any], Optional[float]]
MAX_CALLS_PER_TURN = 5
FOLLOW_UP = "Please go on with the rest of my request."
_IMPORT_LOCK = threading.RLock()


@dataclass(frozen=True)
class ImportOptions:
    """What the user points at besides the main path (each adapter documents which ones it reads)."""

    tasks: str | None = None  # a tasks / RL-rows / ground-truth file
    solutions: str | None = None  # ground-truth calls for formats whose tasks have none (our JSONL format)
    code: str | None = None  # a code folder (tau2 domain code, BFCL backend classes)
    docs: str | None = None  # a tool-description folder (BFCL function docs)
    writes: tuple[str, ...] = ()  # tools to treat as writing, whatever their name suggests
    reads: tuple[str, ...] = ()  # tools to treat as read-only
    only: tuple[str, ...] = ()  # environment keys to import (default: every one found)
    cache_fields: tuple[str, ...] = ()  # fields left out of the compared state (declared, or found at import)
    allow_network: bool = False  # let the external code use the network
    object_state: str = "auto"  # "auto": copy-on-write records where the format allows; "plain": plain objects
    # Decided by `envfactory import` from replaying the ground truth (kept in the catalog):
    behaviour_writes: tuple[str, ...] = ()  # tools named like reads whose replay changed the compared state
    expected_errors: dict[str, dict[str, str]] = field(default_factory=dict)  # task -> "turn.call" -> error text

    def to_json(self) -> dict[str, Any]:
        """JSON form (for the catalog)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ImportOptions":
        """Inverse of `to_json` (keys it does not know are ignored)."""
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in known}
        return cls(**values)

    def network_policy(self, source: str) -> NetworkPolicy:
        """The network policy of the code of one environment."""
        return NetworkPolicy(source, allowed=self.allow_network)


class MissingDependency(ExternalEnvironmentError):
    """External code imports a package that is not installed."""


#: Import names whose PyPI distribution is named otherwise.
DISTRIBUTIONS = {
    "yaml": "PyYAML",
    "bs4": "beautifulsoup4",
    "PIL": "pillow",
    "sklearn": "scikit-learn",
    "dateutil": "python-dateutil",
    "dotenv": "python-dotenv",
    "cv2": "opencv-python",
    "jwt": "PyJWT",
}


def missing_dependency(error: ModuleNotFoundError, path: Path, hint: str = "") -> MissingDependency:
    """The one-line error for external code at `path` that imports a module that is not installed (or a part of
    an installed package that this version lacks)."""
    name = error.name or str(error)
    top = name.split(".")[0]
    if hint:
        return MissingDependency(f"{path.name} imports {name!r}, which is not installed here: {hint}")
    if top != name and importlib.util.find_spec(top) is not None:
        return MissingDependency(f"{path.name} imports {name!r}, which the installed {top} does not have")
    return MissingDependency(
        f"{path.name} imports {top!r}, which is not installed here: pip install {DISTRIBUTIONS.get(top, top)}"
    )


def read_json(path: Path) -> Any:
    """A JSON file."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def read_records(path: Path) -> list[dict[str, Any]]:
    """Records of a JSON list, a JSONL file, or a (pretty-printed) JSON object holding one list of records."""
    text = Path(path).read_text(encoding="utf-8").strip()
    if not text:
        return []
    if text[0] == "[":
        return json.loads(text)
    try:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError:
        data = json.loads(text)
    lists = [v for v in data.values() if isinstance(v, list) and all(isinstance(r, dict) for r in v)]
    return lists[0] if len(lists) == 1 else [data]


def maybe_json(value: Any) -> Any:
    """Decode a field that some releases store as a JSON string."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        return json.loads(value)
    return value


def slug(text: str) -> str:
    """Lower-case name safe for env ids and folders (`Gorilla File System` -> `gorilla-file-system`)."""
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", text).lower()).strip("-") or "env"


def content_name(payload: Any) -> str:
    """A snapshot name derived from its content (identical payloads share one snapshot)."""
    return "s" + hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _digest(paths: Iterable[Path]) -> str:
    sha = hashlib.sha256()
    for path in sorted(paths):
        sha.update(path.name.encode())
        sha.update(path.read_bytes())
    return sha.hexdigest()[:12]


def import_path(path: Path, prefix: str = "envfactory_ext", network: NetworkPolicy | None = None) -> ModuleType:
    """Import a Python file, or a folder as a package, under a name derived from its content (so pickled objects of
    its classes load in any process that imports the same code); imported once per process, with its network
    guarded and its randomness and clock made deterministic (see `determinize`). A module it imports that is not
    installed raises `MissingDependency` naming it."""
    path = Path(path).resolve()
    files = sorted(path.glob("*.py")) if path.is_dir() else [path]
    name = f"{prefix}_{re.sub(r'[^0-9a-zA-Z_]', '_', path.stem)}_{_digest(files)}"
    with _IMPORT_LOCK:
        if name in sys.modules:
            return sys.modules[name]
        entry = path / "__init__.py" if path.is_dir() else path
        search = [str(path)] if path.is_dir() else None
        if path.is_dir() and not entry.exists():  # a folder of modules without __init__.py
            module_spec = importlib.util.spec_from_loader(name, loader=None, is_package=True)
            module = importlib.util.module_from_spec(module_spec)  # type: ignore[arg-type]
            module.__path__ = [str(path)]
            sys.modules[name] = module
            return module
        module_spec = importlib.util.spec_from_file_location(name, entry, submodule_search_locations=search)
        if module_spec is None or module_spec.loader is None:
            raise ImportError(f"cannot import {path}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            with guarded(network):
                module_spec.loader.exec_module(module)
        except ModuleNotFoundError as exc:
            del sys.modules[name]
            if exc.name is None or exc.name.startswith(name):  # a module of its own, not a dependency
                raise
            raise missing_dependency(exc, entry) from exc
        except BaseException:
            del sys.modules[name]
            raise
        determinize(module)
        return module


def import_submodule(package: ModuleType, name: str, network: NetworkPolicy | None = None) -> ModuleType:
    """`package.name` (a file of a folder imported with `import_path`), made deterministic like the package."""
    try:
        with guarded(network):
            module = importlib.import_module(f"{package.__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.startswith(package.__name__):
            raise
        raise missing_dependency(exc, Path(list(package.__path__)[0]) / f"{name}.py") from exc
    determinize(package)
    return module


def determinize(module: ModuleType) -> None:
    """Make a module, and every submodule of it already imported, read the session's randomness and clock."""
    prefix = module.__name__ + "."
    for name, loaded in list(sys.modules.items()):
        if loaded is not None and (name == module.__name__ or name.startswith(prefix)):
            make_deterministic(vars(loaded))


def call(name: str, arguments: Mapping[str, Any], masked: Iterable[str] = ()) -> dict[str, Any]:
    """A ground-truth call as a task file holds it."""
    return {"name": name, "arguments": dict(arguments), "masked": sorted(masked)}


def turns(query: str, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One request as turns of at most five ground-truth calls (the scripted user asks to go on between them)."""
    chunks = [calls[i : i + MAX_CALLS_PER_TURN] for i in range(0, len(calls), MAX_CALLS_PER_TURN)] or [[]]
    return [{"query": query if i == 0 else FOLLOW_UP, "calls": chunk} for i, chunk in enumerate(chunks)]


def _write(path: Path, text: str) -> None:
    """Write atomically (other processes may load the same environment at the same time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def materialize(
    folder: Path,
    snapshots: Mapping[str, Any],
    tasks: list[dict[str, Any]],
    tools: Mapping[str, ToolSpec],
    expected_errors: Mapping[str, Mapping[str, str]] | None = None,
) -> int:
    """Write the converted snapshots (`snapshots/<name>.json`) and tasks (`tasks.jsonl`, validated) to `folder`;
    ground-truth calls that fail in the original carry their error (`expected_errors`: task -> "turn.call" -> text).

    Tasks whose ground truth calls a tool the environment lacks (or masks an argument it lacks) are left out;
    returns how many."""
    for name, payload in snapshots.items():
        _write(folder / "snapshots" / f"{name}.json", json.dumps(payload, sort_keys=True, default=str))
    lines, skipped = [], 0
    for data in tasks:
        errors = (expected_errors or {}).get(str(data["id"]), {})
        for t_index, turn in enumerate(data["turns"]):
            for c_index, item in enumerate(turn["calls"]):
                if f"{t_index}.{c_index}" in errors:
                    item["expected_error"] = errors[f"{t_index}.{c_index}"]
        task = Task.model_validate(data)
        if all(c.name in tools and set(c.masked) <= set(tools[c.name].input_model.model_fields) for c in task.calls):
            lines.append(task.model_dump_json(exclude_defaults=True))
        else:
            skipped += 1
    _write(folder / "tasks.jsonl", "".join(line + "\n" for line in lines))
    return skipped


def external_spec(
    name: str,
    description: str,
    product: str,
    tools: Mapping[str, ToolSpec],
    folder: Path,
    backend: Any,
    *,
    source: str,
    checklist: Checklist | None = None,
    schema: MetaData | None = None,
    domain: str = "external",
    docs_url: str = "",
    notes: Mapping[str, Any] | None = None,
    decisions: Mapping[str, str] | None = None,
) -> EnvironmentSpec:
    """The spec of a converted environment; its tasks and snapshots must already be in `folder`. `decisions` says
    for each tool why it counts as a read or a write (printed by `envfactory import`)."""
    return EnvironmentSpec(
        name=name,
        domain=domain,
        description=description.strip() or f"{product} (imported)",
        product=product,
        docs_url=docs_url,
        schema=schema if schema is not None else MetaData(),
        tools=dict(tools),
        folder=folder,
        extra={"source": source, "tool_decisions": dict(decisions or {}), **(notes or {})},
        backend=backend,
        checklist=checklist,
    )


def read_solutions(path: Path | None) -> dict[str, list[dict[str, Any]]]:
    """Ground-truth calls by task id from a solutions file: rows `{"task_id", "calls": [{name, arguments, masked?}]}`
    or recorded trajectories `{"task_info": {"task_id"}, "trajectory": [{"action": {name, arguments}}]}`."""
    if path is None:
        return {}
    solutions: dict[str, list[dict[str, Any]]] = {}
    for row in read_records(path):
        if "calls" in row:
            task_id, calls = row["task_id"], row["calls"]
        else:
            task_id = row["task_info"]["task_id"]
            calls = [s["action"] for s in row.get("trajectory", []) if isinstance(s.get("action"), dict)]
        solutions[str(task_id)] = [
            call(c["name"], maybe_json(c.get("arguments", {})), c.get("masked", []))
            for c in calls
            if c.get("name") != "chat_with_user"
        ]
    return solutions
