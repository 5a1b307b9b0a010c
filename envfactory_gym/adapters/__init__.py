"""Adapters: environments of other projects (EnvFactory, AWM, EnvScaler, tau2-bench, BFCL multi-turn) converted
at load time into this package's EnvironmentSpec, so they run through the same Env, parser, reward and MCP serving.

Each format is one module with `discover(path, options) -> keys`, `sources(path, key, options) -> files` and
`load(path, key, name, folder, options) -> EnvironmentSpec`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from ..spec import EnvironmentSpec
from .build import ImportOptions, slug

FORMATS: dict[str, str] = {
    "envfactory": "envfactory_gym.adapters.envfactory",
    "awm": "envfactory_gym.adapters.awm",
    "envscaler": "envfactory_gym.adapters.envscaler",
    "tau2": "envfactory_gym.adapters.tau2",
    "bfcl": "envfactory_gym.adapters.bfcl",
}


def adapter(fmt: str) -> ModuleType:
    """The adapter module of a format."""
    if fmt not in FORMATS:
        raise KeyError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return importlib.import_module(FORMATS[fmt])


def env_name(source: str, key: str, keys: list[str]) -> str:
    """`ext-<source>` for a single environment, `ext-<source>-<key>` when the path holds several."""
    return f"ext-{slug(source)}" if len(keys) == 1 else f"ext-{slug(source)}-{slug(key)}"


def load_environment(
    fmt: str,
    path: str | Path,
    key: str,
    name: str,
    folder: Path,
    options: ImportOptions = ImportOptions(),
    isolate: bool = False,
) -> EnvironmentSpec:
    """Convert one external environment; with `isolate`, its code runs in the runtime's sandbox, not in-process."""
    if isolate:
        from .isolation import load_isolated

        return load_isolated(fmt, Path(path), key, name, folder, options)
    return adapter(fmt).load(Path(path).resolve(), key, name, folder, options)


__all__ = ["FORMATS", "ImportOptions", "adapter", "env_name", "load_environment"]
