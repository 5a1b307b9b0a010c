"""The runtime stands alone: no module of envfactory_gym imports synth or training (the sandbox lives in the
runtime)."""

from __future__ import annotations

import ast
from pathlib import Path

import envfactory_gym

FORBIDDEN = {"envfactory_synth", "envfactory_training", "synth", "training"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_runtime_module_imports_synth_or_training():
    runtime = Path(envfactory_gym.__file__).parent
    offenders = {str(p.relative_to(runtime)): sorted(imported_roots(p) & FORBIDDEN) for p in runtime.rglob("*.py")}
    assert not {k: v for k, v in offenders.items() if v}
    assert (runtime / "sandbox" / "worker.py").is_file()  # the walk saw the sandbox
