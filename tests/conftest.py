"""Shared fixtures: the zoo's specs and fresh environments."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

import envfactory_gym
from envfactory_gym import ToolUseEnv, load_zoo_environment, zoo_keys

ZOO = zoo_keys()


def pytest_addoption(parser):
    """`--envs a,b` (or ENVFACTORY_TEST_ENVS): run the per-environment tests of these environments only."""
    parser.addoption(
        "--envs",
        default=os.environ.get("ENVFACTORY_TEST_ENVS", ""),
        help="comma-separated zoo keys: per-environment tests run for these only (default: every environment)",
    )


def environment_of(item: pytest.Item) -> str | None:
    """The zoo environment a test is about: its file's (tests/zoo/test_<key>.py) or a parameter's, else None."""
    if item.path.parent.name == "zoo" and item.path.stem.removeprefix("test_") in ZOO:
        return item.path.stem.removeprefix("test_")
    params = getattr(item, "callspec", None)
    for value in params.params.values() if params else ():
        if isinstance(value, str) and value in ZOO:
            return value
    return None


def runs_long(item: pytest.Item) -> bool:
    """A single (not parametrized) test marked `slow`: tens of seconds on one worker. pytest-xdist hands tests out
    in order, so one of these met last would keep its worker busy while the other has nothing left to run."""
    return item.get_closest_marker("slow") is not None and not hasattr(item, "callspec")


def pytest_collection_modifyitems(config, items):
    """Run the long single tests first; deselect the per-environment tests of environments `--envs` leaves out."""
    items.sort(key=lambda item: not runs_long(item))  # stable: the rest keep their order
    chosen = {key.strip() for key in config.getoption("--envs").split(",") if key.strip()}
    if not chosen:
        return
    if chosen - set(ZOO):
        raise pytest.UsageError(f"--envs: no environment {sorted(chosen - set(ZOO))} (known: {', '.join(ZOO)})")
    left_out = [item for item in items if environment_of(item) not in chosen | {None}]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if environment_of(item) in chosen | {None}]


def pytest_configure(config):
    """Cache expected replays in one temporary folder per test session, never in the user's home: the controller
    makes it before xdist starts its workers, which inherit the variable and so share each task's replay.
    `ENVFACTORY_TEST_CACHE_DIR` names a folder to use instead, kept afterwards (to run the tests on a warm cache)."""
    if hasattr(config, "workerinput"):
        return
    kept = os.environ.get("ENVFACTORY_TEST_CACHE_DIR")
    if kept:
        os.environ["ENVFACTORY_CACHE_DIR"] = kept
    else:
        config.replay_cache_dir = tempfile.mkdtemp(prefix="envfactory-test-cache-")
        os.environ["ENVFACTORY_CACHE_DIR"] = config.replay_cache_dir


def pytest_unconfigure(config):
    """Remove the session's replay cache."""
    if hasattr(config, "replay_cache_dir"):
        shutil.rmtree(config.replay_cache_dir, ignore_errors=True)


@pytest.fixture(params=ZOO)
def zoo_spec(request):
    """Every zoo environment's spec, one test each."""
    return load_zoo_environment(request.param)


@pytest.fixture
def notion():
    """A fresh Notion env."""
    env = ToolUseEnv("notion")
    yield env
    env.close()


assert envfactory_gym.ENV_IDS
