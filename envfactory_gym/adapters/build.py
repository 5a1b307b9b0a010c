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
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Optional

from sqlalchemy import MetaData

from ..spec import EnvironmentSpec, ToolSpec
from ..tasks import Task

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

    def to_json(self) -> dict[str, Any]:
        """JSON form (for the catalog)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ImportOptions":
        """Inverse of `to_json` (keys it does not know are ignored)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in known})

    def read_only(self, tool: str, default: bool) -> bool:
        """The tool's read-only flag after the user's overrides."""
        if tool in self.writes:
            return False
        return True if tool in self.reads else default


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


def import_path(path: Path, prefix: str = "envfactory_ext") -> ModuleType:
    """Import a Python file, or a folder as a package, under a name derived from its content (so pickled objects of
    its classes load in any process that imports the same code); imported once per process."""
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
            module.__path__ = search  # type: ignore[attr-defined]
            sys.modules[name] = module
            return module
        module_spec = importlib.util.spec_from_file_location(name, entry, submodule_search_locations=search)
        if module_spec is None or module_spec.loader is None:
            raise ImportError(f"cannot import {path}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module


def import_submodule(package: ModuleType, name: str) -> ModuleType:
    """`package.name` (a file of a folder imported with `import_path`)."""
    return importlib.import_module(f"{package.__name__}.{name}")


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
    folder: Path, snapshots: Mapping[str, Any], tasks: list[dict[str, Any]], tools: Mapping[str, ToolSpec]
) -> int:
    """Write the converted snapshots (`snapshots/<name>.json`) and tasks (`tasks.jsonl`, validated) to `folder`.

    Tasks whose ground truth calls a tool the environment lacks (or masks an argument it lacks) are left out;
    returns how many."""
    for name, payload in snapshots.items():
        _write(folder / "snapshots" / f"{name}.json", json.dumps(payload, sort_keys=True, default=str))
    lines, skipped = [], 0
    for data in tasks:
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
) -> EnvironmentSpec:
    """The spec of a converted environment; its tasks and snapshots must already be in `folder`."""
    return EnvironmentSpec(
        name=name, domain=domain, description=description.strip() or f"{product} (imported)", product=product,
        docs_url=docs_url, schema=schema if schema is not None else MetaData(), tools=dict(tools), folder=folder,
        extra={"source": source, **(notes or {})}, backend=backend, checklist=checklist,
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
            for c in calls if c.get("name") != "chat_with_user"
        ]
    return solutions
