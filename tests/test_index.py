"""The zoo index: current for every environment, versions bumped whenever content changes, and read without
importing any tool."""

from __future__ import annotations

import subprocess
import sys

import pytest

from envfactory_gym.index import build_card, read_index
from envfactory_gym.registry import load_zoo_environment, zoo_keys, zoo_root

STORED = read_index(zoo_root())


@pytest.mark.parametrize("key", zoo_keys())
def test_the_index_is_current_and_content_changes_bump_the_version(key):
    assert key in STORED, "run `envfactory index`"
    fresh, stored = build_card(load_zoo_environment(key)), STORED[key]
    if fresh.content_hash != stored.content_hash:
        assert fresh.version != stored.version, (
            f"{key} changed (tools, schema, seed, tasks or rules) but kept version {stored.version}: bump "
            "`version` in its metadata.json, add a CHANGELOG.md line, then run `envfactory index`"
        )
    assert fresh == stored, "the index is stale: run `envfactory index`"


def test_listing_and_importing_build_no_tools():
    code = (
        "import sys, envfactory_gym\n"
        "from envfactory_gym.cli import main\n"
        "main(['list'])\n"
        "loaded = [m for m in sys.modules if m.startswith('envfactory_zoo.') or m in ('sqlalchemy', 'pydantic')]\n"
        "print('LOADED', loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert f"{sum(card.tasks for card in STORED.values())} tasks" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "LOADED []"
