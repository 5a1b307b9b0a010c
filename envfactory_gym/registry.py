"""Discovery of env_zoo environments and their registration as `envfactory/<Name>-v<N>` gymnasium ids.

Registration reads each environment's `metadata.json` only; counts and task ids come from the zoo's index
(`envfactory_gym.index`). Nothing here imports an environment's tools until one is resolved.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import gymnasium as gym

from .external import register_external
from .index import EnvCard, build_card, read_index

if TYPE_CHECKING:
    from .spec import EnvironmentSpec

ZOO_PACKAGE = "env_zoo"
NAMESPACE = "envfactory"
ENTRY_POINT = "envfactory_gym.env:ToolUseEnv"


def zoo_root() -> Path:
    """Folder of the installed env_zoo package."""
    spec = importlib.util.find_spec(ZOO_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("env_zoo is not installed")
    return Path(list(spec.submodule_search_locations)[0])


def zoo_keys() -> list[str]:
    """Keys (folder names) of every environment in the zoo, sorted."""
    root = zoo_root()
    return sorted(p.name for p in root.iterdir() if (p / "metadata.json").is_file() and (p / "__init__.py").is_file())


def zoo_metadata(key: str) -> dict:
    """The metadata.json of one zoo environment (cheap: imports nothing)."""
    return json.loads((zoo_root() / key / "metadata.json").read_text())


def zoo_cards() -> dict[str, EnvCard]:
    """The index card of every zoo environment by key (one file read). An environment the index does not list yet
    is loaded to make its card (slow; `envfactory index` writes the index)."""
    cards = read_index(zoo_root())
    return {key: cards[key] if key in cards else build_card(load_zoo_environment(key)) for key in zoo_keys()}


@lru_cache(maxsize=None)
def load_zoo_environment(key: str) -> EnvironmentSpec:
    """Import and build the spec of a zoo environment, once per process."""
    from .spec import load_environment_from_package

    return load_environment_from_package(f"{ZOO_PACKAGE}.{key}")


def env_id(key: str) -> str:
    """The gymnasium id of a zoo environment."""
    meta = zoo_metadata(key)
    return f"{NAMESPACE}/{meta['name']}-v{int(meta.get('version', 0))}"


def resolve(name: str) -> EnvironmentSpec:
    """Find a zoo environment by key (`notion`), name (`Notion`) or gymnasium id (`envfactory/Notion-v0`), or an
    imported external one (`ext-foo`, `envfactory/ext-foo-v0`)."""
    for key in zoo_keys():
        if name.lower() in {key, zoo_metadata(key)["name"].lower(), env_id(key).lower()}:
            return load_zoo_environment(key)
    from .adapters.catalog import resolve_external  # imported late: adapters build on the whole runtime

    external = resolve_external(name)
    if external is not None:
        return external
    raise KeyError(f"no environment named {name!r}; known: {', '.join(zoo_keys())}")


def register_zoo() -> list[str]:
    """Register every zoo environment, and every imported external one, with gymnasium (idempotent); returns the
    ids. `gym.make(id)` draws from the environment's stored train split (`split="test"` or `"all"`, or
    `task_ids=[...]`, to choose otherwise)."""
    ids = []
    for key in zoo_keys():
        gym_id = env_id(key)
        if gym_id not in gym.registry:
            kwargs = {"env_name": key}
            if (zoo_root() / key / "splits.json").is_file():
                kwargs["split"] = "train"
            gym.register(id=gym_id, entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(gym_id)
    return ids + register_external()
