"""The catalog of imported external environments: a small JSON file in the user's config folder (`ENVFACTORY_HOME`,
default `~/.config/envfactory`), registered with gymnasium as `envfactory/ext-<name>-v0` when the package loads.

Registration reads the catalog only; converting an entry into an environment is the adapters' job
(`envfactory_gym.adapters.catalog`), done when the environment is made.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym

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


def env_kwargs(entry: dict[str, Any]) -> dict[str, Any]:
    """The ToolUseEnv arguments a catalog entry registers with: its reward weights and its step budget."""
    kwargs: dict[str, Any] = {}
    if entry.get("reward"):
        kwargs["reward_config"] = dict(entry["reward"])
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
    for name, entry in sorted(catalog.items()):
        kwargs = {"env_name": name, **env_kwargs(entry)}
        if gym_id(name) not in gym.registry:
            gym.register(id=gym_id(name), entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(gym_id(name))
    return ids
