"""Imported external environments: saving catalog entries and converting them into environments (the catalog file
itself and registration: `envfactory_gym.external`)."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

from ..external import catalog_path, env_folder, gym_id, home, read_catalog, register_external
from ..reward import RewardConfig
from ..spec import EnvironmentSpec
from . import load_environment
from .build import ImportOptions

__all__ = ["catalog_path", "env_folder", "gym_id", "home", "read_catalog", "register_external"]


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


def reward_config(entry: dict[str, Any]) -> RewardConfig | None:
    """The reward configuration recorded for an entry (None: the default one)."""
    return RewardConfig(**entry["reward"]) if entry.get("reward") else None


@lru_cache(maxsize=None)
def load_external(name: str) -> EnvironmentSpec:
    """Convert a cataloged environment (once per process)."""
    entry = read_catalog()[name]
    return load_environment(
        entry["format"], entry["path"], entry["key"], name, env_folder(name),
        ImportOptions.from_json(entry.get("options", {})), entry.get("isolate", False),
    )


def resolve_external(name: str) -> EnvironmentSpec | None:
    """A cataloged environment by name (`ext-foo`) or gymnasium id (`envfactory/ext-foo-v0`), or None."""
    wanted = name.lower()
    for entry_name in read_catalog():
        if wanted in (entry_name.lower(), gym_id(entry_name).lower()):
            return load_external(entry_name)
    return None
