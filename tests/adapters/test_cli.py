"""`envfactory import` end to end: the catalog under ENVFACTORY_HOME, gymnasium ids, `list --external`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import gymnasium as gym
import pytest
from fastmcp import Client

from envfactory_gym.adapters.catalog import catalog_path
from envfactory_gym.agents import ReferenceAgent, run_episode
from envfactory_gym.cli import main
from envfactory_gym.mcp import server
from envfactory_gym.registry import register_zoo, resolve

from .conftest import FIXTURES


def test_import_registers_and_lists_external_envs(envfactory_home, capsys):
    pytest.importorskip("fastapi")
    fixture = FIXTURES / "envfactory"
    assert main(["import", "envfactory", str(fixture), "--name", "ledger", "--tasks", str(fixture / "rl_rows.json")]) == 0
    assert main(["import", "awm", str(FIXTURES / "awm"), "--name", "library"]) == 0
    catalog = json.loads(catalog_path().read_text())["environments"]
    assert catalog_path().parent == envfactory_home
    assert sorted(catalog) == ["ext-ledger", "ext-library"]
    assert catalog["ext-ledger"]["tasks"] == 2 and catalog["ext-ledger"]["failing_tasks"] == []
    assert catalog["ext-library"]["reward"] == {"checklist": 1.0, "gamma": 0.0}  # no solutions: verifier-scored

    assert "envfactory/ext-ledger-v0" in register_zoo()
    assert resolve("ext-ledger").name == "ext-ledger" and resolve("envfactory/ext-library-v0").name == "ext-library"
    env = gym.make("envfactory/ext-ledger-v0")
    result = run_episode(env.unwrapped, ReferenceAgent(), task_id="ledger-rl-0001")
    assert result["reward"] == 1.0
    env.close()
    library = gym.make("envfactory/ext-library-v0")
    assert library.unwrapped.reward_config.checklist == 1.0
    library.close()

    capsys.readouterr()
    assert main(["list", "--external"]) == 0
    listed = capsys.readouterr().out
    assert "envfactory/ext-ledger-v0" in listed and "envfactory/ext-library-v0" in listed


def test_a_new_process_registers_the_catalog(envfactory_home):
    fixture = FIXTURES / "bfcl"
    assert main(["import", "bfcl", str(fixture / "BFCL_v4_multi_turn_base.json"), "--name", "notes",
                 "--code", str(fixture / "backend"), "--only", "NotesAPI"]) == 0
    code = "import envfactory_gym; print([i for i in envfactory_gym.ENV_IDS if 'ext-' in i])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "ENVFACTORY_HOME": str(envfactory_home)}).stdout
    assert "envfactory/ext-notes-v0" in out


def test_import_reports_what_does_not_convert(envfactory_home, tmp_path):
    broken = tmp_path / "Broken.py"
    broken.write_text("raise RuntimeError('cannot import me')\n")
    assert main(["import", "envfactory", str(broken)]) == 1
    assert not catalog_path().exists()


def test_imported_envs_are_served_over_mcp_with_a_state_per_session(envfactory_home):
    fixture = FIXTURES / "envfactory"
    assert main(["import", "envfactory", str(fixture), "--name", "ledger", "--tasks", str(fixture / "rl_rows.json")]) == 0

    async def talk() -> tuple[str, str]:
        app = server("ext-ledger")
        async with Client(app) as first, Client(app) as second:
            await first.call_tool("transfer", {"source": "acc-1", "target": "acc-2", "amount": 20})
            mine = await first.call_tool("get_balance", {"account_id": "acc-1"})
            theirs = await second.call_tool("get_balance", {"account_id": "acc-1"})
            return mine.content[0].text, theirs.content[0].text

    mine, theirs = asyncio.run(talk())
    assert json.loads(mine)["balance"] == 100.0 and json.loads(theirs)["balance"] == 120.0
