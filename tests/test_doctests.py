"""The examples in the public wrappers' docstrings run as written (doctest)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["envfactory_gym.wrappers.format_penalty", "envfactory_gym.wrappers.history"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
