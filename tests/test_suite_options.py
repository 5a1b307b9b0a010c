"""The suite's own options and order: `--envs` keeps the per-environment tests of the named environments and every
test that is about no single environment; long single tests come first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _collected(*args: str) -> list[str]:
    """What pytest collects with `args`, in order; the suite's own ENVFACTORY_TEST_ENVS is not passed on."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "ENVFACTORY_TEST_ENVS"},
    )
    return [line for line in run.stdout.splitlines() if "::" in line] or [run.stdout + run.stderr]


def test_envs_keeps_only_the_named_environments_tests():
    files = ["tests/test_zoo.py", "tests/zoo/test_slack.py", "tests/zoo/test_notion.py"]
    every = _collected(*files)
    only = _collected("--envs", "notion", *files)
    assert any("test_slack.py" in t for t in every) and any("[slack" in t for t in every)
    assert not any("test_slack.py" in t or "slack" in t.split("::")[-1] for t in only), only
    assert any("test_notion.py" in t for t in only) and any("[notion" in t for t in only)
    unparametrized = [t for t in every if "[" not in t and "tests/zoo/" not in t]
    assert unparametrized and set(unparametrized) <= set(only)


def test_envs_refuses_an_unknown_environment():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:xdist",
            "--envs",
            "notoin",
            "tests/test_zoo.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0 and "no environment ['notoin']" in run.stdout + run.stderr


def test_long_single_tests_are_handed_out_first():
    files = ["tests/test_reward.py", "tests/test_determinism.py", "tests/test_rollout.py"]
    order = _collected(*files)
    long_ones = [
        "tests/test_determinism.py::test_episodes_do_not_depend_on_the_process_hash_seed",
        "tests/test_rollout.py::test_isolation_with_1000_concurrent_episodes",
        "tests/test_rollout.py::test_isolation_across_every_zoo_env",
    ]
    assert order[: len(long_ones)] == long_ones, order[:5]
    rest = order[len(long_ones) :]
    assert rest[0].startswith("tests/test_reward.py::") and rest == [t for t in order if t not in long_ones]
