"""Shared fixtures: the zoo's specs and fresh environments."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

import envfactory_gym
from envfactory_gym import ToolUseEnv, load_zoo_environment, zoo_keys

ZOO = zoo_keys()


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
