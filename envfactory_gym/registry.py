"""Discovery of environments and their registration as `envfactory/<Name>-v<N>` gymnasium ids.

Environments live in folders of the zoo layout under one of several roots: the installed zoo (`envfactory_zoo`,
the repository's `env_zoo/` folder), every folder named in `ENVFACTORY_PATH` (separated like PATH), and every
package an installed distribution declares in the `envfactory.environments` entry-point group. Registration reads
each environment's `metadata.json` only; counts and task ids come from a root's index (`envfactory_gym.index`).
Nothing here imports an environment's tools until one is resolved.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import warnings
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING

import gymnasium as gym

from .errors import UnknownName
from .external import register_external
from .index import EnvCard, build_card, read_index
from .suggest import did_you_mean

if TYPE_CHECKING:
    from .spec import EnvironmentSpec

ZOO_PACKAGE = "envfactory_zoo"
NAMESPACE = "envfactory"
ENTRY_POINT = "envfactory_gym.env:ToolUseEnv"
PATH_VARIABLE = "ENVFACTORY_PATH"
ENVIRONMENTS_GROUP = "envfactory.environments"


@dataclass(frozen=True)
class EnvRoot:
    """A folder holding environment folders, and the package name its environments import under (None: each
    environment imports under a name of its own, `envfactory_local_<key>`)."""

    folder: Path
    package: str | None


def zoo_root() -> Path:
    """Folder of the installed zoo package (`envfactory_zoo`)."""
    spec = importlib.util.find_spec(ZOO_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"{ZOO_PACKAGE} is not installed")
    return Path(list(spec.submodule_search_locations)[0])


def env_roots() -> list[EnvRoot]:
    """Every root, in the order names are looked up: the zoo, `ENVFACTORY_PATH`, then entry points."""
    roots = [EnvRoot(zoo_root(), ZOO_PACKAGE)]
    for folder in filter(None, os.environ.get(PATH_VARIABLE, "").split(os.pathsep)):
        if not Path(folder).is_dir():
            warnings.warn(f"{PATH_VARIABLE} names {folder!r}, which is no folder", stacklevel=2)
            continue
        roots.append(EnvRoot(Path(folder).resolve(), None))
    return roots + _entry_point_roots(tuple(sys.path))


@lru_cache(maxsize=4)
def _entry_point_roots(search_path: tuple[str, ...]) -> list[EnvRoot]:
    """Roots of the `envfactory.environments` entry points, read once per import path (`search_path`, the
    `sys.path` they were read under): reading every installed distribution's metadata costs tens of ms, and was
    paid once per environment at import."""
    roots = []
    for entry in sorted(entry_points(group=ENVIRONMENTS_GROUP), key=lambda e: e.name):
        found = importlib.util.find_spec(entry.value)
        if found is None or not found.submodule_search_locations:
            warnings.warn(f"entry point {entry.name} names {entry.value!r}, which is no package", stacklevel=2)
            continue
        roots.append(EnvRoot(Path(list(found.submodule_search_locations)[0]), entry.value))
    return roots


def is_environment(folder: Path) -> bool:
    """Whether a folder holds an environment (a `metadata.json` and an `__init__.py`)."""
    return (folder / "metadata.json").is_file() and (folder / "__init__.py").is_file()


_LOCATED: dict[tuple, dict[str, tuple[EnvRoot, Path]]] = {}


def _located() -> dict[str, tuple[EnvRoot, Path]]:
    """Key -> (root, folder) of every environment; rescanned when a root's folder changes (its mtime)."""
    roots = env_roots()
    stamp = tuple((r.folder, r.package, r.folder.stat().st_mtime_ns) for r in roots)
    if stamp not in _LOCATED:
        _LOCATED.clear()
        _LOCATED[stamp] = _scan(roots)
    return _LOCATED[stamp]


def _scan(roots: list[EnvRoot]) -> dict[str, tuple[EnvRoot, Path]]:
    found: dict[str, tuple[EnvRoot, Path]] = {}
    for root in roots:
        for folder in sorted(root.folder.iterdir()):
            if not is_environment(folder):
                continue
            if folder.name in found:
                warnings.warn(
                    f"environment {folder.name!r} of {root.folder} is shadowed by the one of "
                    f"{found[folder.name][0].folder}",
                    stacklevel=2,
                )
                continue
            found[folder.name] = (root, folder)
    return found


def zoo_keys() -> list[str]:
    """Keys (folder names) of every environment of every root, sorted."""
    return sorted(_located())


def env_folder(key: str) -> Path:
    """The folder of the environment with this key."""
    located = _located()
    if key not in located:
        raise UnknownName(f"no environment {key!r}{did_you_mean(key, located)}")
    return located[key][1]


def zoo_metadata(key: str) -> dict:
    """The metadata.json of one environment (cheap: imports nothing)."""
    return json.loads((env_folder(key) / "metadata.json").read_text())


def zoo_cards() -> dict[str, EnvCard]:
    """The index card of every environment by key (one file read per root). An environment its root's index does
    not list yet is loaded to make its card (slow; `envfactory index` writes the zoo's index)."""
    cards: dict[str, EnvCard] = {}
    indexes: dict[Path, dict[str, EnvCard]] = {}
    for key, (root, _) in _located().items():
        stored = indexes.setdefault(root.folder, read_index(root.folder))
        cards[key] = stored[key] if key in stored else build_card(load_zoo_environment(key))
    return dict(sorted(cards.items()))


@lru_cache(maxsize=None)
def load_zoo_environment(key: str) -> EnvironmentSpec:
    """Import and build the spec of an environment (of any root) by key, once per process."""
    from .spec import load_environment_from_folder, load_environment_from_package

    root, folder = _located().get(key, (None, None))
    if root is None or folder is None:
        raise UnknownName(f"no environment {key!r}{did_you_mean(key, _located())}")
    if root.package is not None:
        return load_environment_from_package(f"{root.package}.{key}")
    return load_environment_from_folder(folder, package=f"envfactory_local_{key}")


def env_id(key: str) -> str:
    """The gymnasium id of an environment."""
    meta = zoo_metadata(key)
    return f"{NAMESPACE}/{meta['name']}-v{int(meta.get('version', 0))}"


def resolve(name: str) -> EnvironmentSpec:
    """Find an environment by key (`notion`), name (`Notion`) or gymnasium id (`envfactory/Notion-v2`), or an
    imported external one (`ext-foo`, `envfactory/ext-foo-v0`); `UnknownName` (a KeyError) says what is close."""
    known = zoo_keys()
    if name in known:
        return load_zoo_environment(name)
    for key in known:
        if name.lower() in {key, zoo_metadata(key)["name"].lower(), env_id(key).lower()}:
            return load_zoo_environment(key)
    from .adapters.catalog import resolve_external  # imported late: adapters build on the whole runtime

    external = resolve_external(name)
    if external is not None:
        return external
    raise UnknownName(f"no environment named {name!r}{did_you_mean(name.lower(), known)}")


def register_zoo() -> list[str]:
    """Register every environment of every root, and every imported external one, with gymnasium (idempotent);
    returns the ids. `gym.make(id)` draws from the environment's stored train split when it has one
    (`split="test"` or `"all"`, or `task_ids=[...]`, to choose otherwise)."""
    ids = []
    for key, (_, folder) in _located().items():
        gym_id = env_id(key)
        if gym_id not in gym.registry:
            kwargs = {"env_name": key}
            if (folder / "splits.json").is_file():
                kwargs["split"] = "train"
            gym.register(id=gym_id, entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(gym_id)
    return ids + register_external()
