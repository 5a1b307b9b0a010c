"""Adapter tests: every test gets its own ENVFACTORY_HOME; fixtures are small files written for these tests in each
project's public format (no file copied from those projects)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def envfactory_home(tmp_path, monkeypatch):
    """The catalog and converted environments of a test live under its tmp_path."""
    home = tmp_path / "envfactory-home"
    monkeypatch.setenv("ENVFACTORY_HOME", str(home))
    return home


TAU2_STUB = FIXTURES / "tau2" / "stub"  # stands for an installed tau2-bench: the names domain code imports
OUTFITTERS = FIXTURES / "tau2" / "outfitters"


@pytest.fixture(scope="session")
def outfitters_data(tmp_path_factory):
    """The outfitters domain's db.json and tasks.json at test size, with the tau2 test double importable."""
    sys.path.insert(0, str(TAU2_STUB))
    sys.path.insert(0, str(OUTFITTERS.parent))
    try:
        from outfitters.generate import write

        yield write(tmp_path_factory.mktemp("outfitters-data"), "small")
    finally:
        sys.path.remove(str(TAU2_STUB))
        sys.path.remove(str(OUTFITTERS.parent))
