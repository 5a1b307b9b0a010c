"""Adapter tests: every test gets its own ENVFACTORY_HOME; fixtures are small files written for these tests in each
project's public format (no file copied from those projects)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def envfactory_home(tmp_path, monkeypatch):
    """The catalog and converted environments of a test live under its tmp_path."""
    home = tmp_path / "envfactory-home"
    monkeypatch.setenv("ENVFACTORY_HOME", str(home))
    return home
