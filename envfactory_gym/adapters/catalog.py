"""Imported external environments: saving catalog entries and converting them into environments (the catalog file
itself and registration: `envfactory_gym.external`)."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from ..external import catalog_path, env_folder, gym_id, home, read_catalog, register_external
from ..external import env_kwargs as registered_kwargs
from ..spec import EnvironmentSpec
from . import load_environment
from .build import ExternalEnvironmentError, ImportOptions

__all__ = [
    "ExternalEnvironmentError",
    "catalog_path",
    "env_folder",
    "gym_id",
    "home",
    "read_catalog",
    "register_external",
]


def save_entries(entries: list[dict[str, Any]]) -> None:
    """Add or replace entries (by name) and write the catalog atomically."""
    catalog = read_catalog()
    catalog.update({entry["name"]: entry for entry in entries})
    path = catalog_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"environments": catalog}, indent=2, sort_keys=True))
    os.replace(temporary, path)
    load_external.cache_clear()


def env_kwargs(name: str) -> dict[str, Any]:
    """The ToolUseEnv arguments an imported environment is registered with (its reward, its step budget); {} for
    anything else."""
    return registered_kwargs(read_catalog().get(name, {}))


@lru_cache(maxsize=None)
def load_external(name: str) -> EnvironmentSpec:
    """Convert a cataloged environment (once per process). Raises `ExternalEnvironmentError` with a one-line reason
    when it cannot be loaded here (a package its code imports is missing, its files moved, ...)."""
    entry = read_catalog()[name]
    try:
        return load_environment(
            entry["format"],
            entry["path"],
            entry["key"],
            name,
            env_folder(name),
            ImportOptions.from_json(entry.get("options", {})),
            entry.get("isolate", False),
        )
    except ExternalEnvironmentError as exc:
        raise ExternalEnvironmentError(f"{name} cannot be loaded: {exc}") from exc
    except Exception as exc:  # any failure of the external code or files: one line, the cause chained
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise ExternalEnvironmentError(
            f"{name} ({entry['format']} from {entry['path']}) cannot be loaded: {type(exc).__name__}"
            + (f": {reason}" if reason else "")
        ) from exc


def resolve_external(name: str) -> EnvironmentSpec | None:
    """A cataloged environment by name (`ext-foo`) or gymnasium id (`envfactory/ext-foo-v0`), or None."""
    wanted = name.lower()
    for entry_name in read_catalog():
        if wanted in (entry_name.lower(), gym_id(entry_name).lower()):
            return load_external(entry_name)
    return None
