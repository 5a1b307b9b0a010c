"""Shared fixtures: the zoo's specs and fresh environments."""

from __future__ import annotations

import pytest

import envfactory_gym
from envfactory_gym import ToolUseEnv, load_zoo_environment, zoo_keys

ZOO = zoo_keys()


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
