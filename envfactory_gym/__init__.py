"""envfactory-gym: executable, stateful tool-use environments as gymnasium environments.

Importing the package registers every environment of the zoo as `envfactory/<Name>-v<N>` (from metadata alone);
the names below load their modules on first use, so `import envfactory_gym` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

from .registry import load_zoo_environment, register_zoo, resolve, zoo_cards, zoo_keys

__version__ = "0.1.0"

#: public name -> module that defines it (loaded when the name is first used)
_LAZY = {
    "HermesParser": "actions",
    "ParsedAction": "actions",
    "ToolCall": "actions",
    "Database": "database",
    "Page": "database",
    "paginate": "database",
    "ToolUseEnv": "env",
    "KeptGeneric": "generics",
    "Conflict": "errors",
    "InvalidRequest": "errors",
    "NotFound": "errors",
    "PermissionDenied": "errors",
    "ToolError": "errors",
    "RewardBreakdown": "reward",
    "RewardConfig": "reward",
    "ToolSession": "session",
    "EnvironmentSpec": "spec",
    "ToolSpec": "spec",
    "Unordered": "spec",
    "tool": "spec",
    "GroundTruthCall": "tasks",
    "Task": "tasks",
    "Turn": "tasks",
    "load_tasks": "tasks",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'envfactory_gym' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


ENV_IDS = register_zoo()

__all__ = [
    "ENV_IDS",
    "load_zoo_environment",
    "register_zoo",
    "resolve",
    "zoo_cards",
    "zoo_keys",
    *sorted(_LAZY),
]
