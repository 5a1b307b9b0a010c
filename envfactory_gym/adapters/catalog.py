"""The catalog of imported external environments: a small JSON file in the user's config folder (`ENVFACTORY_HOME`,
default `~/.config/envfactory`), registered with gymnasium as `envfactory/ext-<name>-v0` when the package loads."""

from __future__ import annotations

import json
import os
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

import gymnasium as gym

from ..reward import RewardConfig
from ..spec import EnvironmentSpec
from . import load_environment
from .build import ExternalEnvironmentError, ImportOptions

HOME_VARIABLE = "ENVFACTORY_HOME"
NAMESPACE = "envfactory"
ENTRY_POINT = "envfactory_gym.env:ToolUseEnv"


def home() -> Path:
    """The user's envfactory folder."""
    return Path(os.environ.get(HOME_VARIABLE) or Path.home() / ".config" / "envfactory")


def catalog_path() -> Path:
    """The catalog file."""
    return home() / "external.json"


def env_folder(name: str) -> Path:
    """Where an external environment's converted tasks and snapshots are written."""
    return home() / "external" / name


def gym_id(name: str) -> str:
    """The gymnasium id of an external environment."""
    return f"{NAMESPACE}/{name}-v0"


def read_catalog() -> dict[str, dict[str, Any]]:
    """Catalog entries by environment name (empty when there is no catalog)."""
    path = catalog_path()
    if not path.exists():
        return {}
    return json.loads(path.read_text()).get("environments", {})


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


def env_kwargs(name: str) -> dict[str, Any]:
    """The ToolUseEnv arguments an imported environment is registered with (its reward, its step budget); {} for
    anything else."""
    entry = read_catalog().get(name, {})
    kwargs: dict[str, Any] = {}
    config = reward_config(entry) if entry else None
    if config is not None:
        kwargs["reward_config"] = config
    if entry.get("max_steps"):
        kwargs["max_steps"] = int(entry["max_steps"])
    return kwargs


def register_external() -> list[str]:
    """Register every catalog entry with gymnasium (idempotent); returns the ids. A broken catalog only warns."""
    try:
        catalog = read_catalog()
    except (OSError, ValueError) as exc:
        warnings.warn(f"ignoring the external environment catalog {catalog_path()}: {exc}", stacklevel=2)
        return []
    ids = []
    for name in sorted(catalog):
        kwargs: dict[str, Any] = {"env_name": name, **env_kwargs(name)}
        if gym_id(name) not in gym.registry:
            gym.register(id=gym_id(name), entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(gym_id(name))
    return ids


@lru_cache(maxsize=None)
def load_external(name: str) -> EnvironmentSpec:
    """Convert a cataloged environment (once per process). Raises `ExternalEnvironmentError` with a one-line reason
    when it cannot be loaded here (a package its code imports is missing, its files moved, ...)."""
    entry = read_catalog()[name]
    try:
        return load_environment(
            entry["format"], entry["path"], entry["key"], name, env_folder(name),
            ImportOptions.from_json(entry.get("options", {})), entry.get("isolate", False),
        )
    except ExternalEnvironmentError as exc:
        raise ExternalEnvironmentError(f"{name} cannot be loaded: {exc}") from exc
    except Exception as exc:  # any failure of the external code or files: one line, the cause chained
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise ExternalEnvironmentError(
            f"{name} ({entry['format']} from {entry['path']}) cannot be loaded: {type(exc).__name__}"
            + (f": {reason}" if reason else "")) from exc


def resolve_external(name: str) -> EnvironmentSpec | None:
    """A cataloged environment by name (`ext-foo`) or gymnasium id (`envfactory/ext-foo-v0`), or None."""
    wanted = name.lower()
    for entry_name in read_catalog():
        if wanted in (entry_name.lower(), gym_id(entry_name).lower()):
            return load_external(entry_name)
    return None
