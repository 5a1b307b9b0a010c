"""`envfactory import` end to end: the catalog under ENVFACTORY_HOME, gymnasium ids, `list --external`."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import subprocess
import sys

import gymnasium as gym
import pytest
from fastmcp import Client

from envfactory_gym.adapters.catalog import catalog_path, load_external
from envfactory_gym.agents import ReferenceAgent, run_episode
from envfactory_gym.cli import main
from envfactory_gym.mcp import server
from envfactory_gym.registry import register_zoo, resolve

from .conftest import FIXTURES


def test_import_registers_and_lists_external_envs(envfactory_home, capsys):
    pytest.importorskip("fastapi")
    fixture = FIXTURES / "envfactory"
    assert (
        main(["import", "envfactory", str(fixture), "--name", "ledger", "--tasks", str(fixture / "rl_rows.json")]) == 0
    )
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
    assert (
        main(
            [
                "import",
                "bfcl",
                str(fixture / "BFCL_v4_multi_turn_base.json"),
                "--name",
                "notes",
                "--code",
                str(fixture / "backend"),
                "--only",
                "NotesAPI",
            ]
        )
        == 0
    )
    code = "import envfactory_gym; print([i for i in envfactory_gym.ENV_IDS if 'ext-' in i])"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "ENVFACTORY_HOME": str(envfactory_home)},
    ).stdout
    assert "envfactory/ext-notes-v0" in out


def test_import_reports_what_does_not_convert(envfactory_home, tmp_path):
    broken = tmp_path / "Broken.py"
    broken.write_text("raise RuntimeError('cannot import me')\n")
    assert main(["import", "envfactory", str(broken)]) == 1
    assert not catalog_path().exists()


def test_imported_envs_are_served_over_mcp_with_a_state_per_session(envfactory_home):
    fixture = FIXTURES / "envfactory"
    assert (
        main(["import", "envfactory", str(fixture), "--name", "ledger", "--tasks", str(fixture / "rl_rows.json")]) == 0
    )

    async def talk() -> tuple[str, str]:
        app = server("ext-ledger")
        async with Client(app) as first, Client(app) as second:
            await first.call_tool("transfer", {"source": "acc-1", "target": "acc-2", "amount": 20})
            mine = await first.call_tool("get_balance", {"account_id": "acc-1"})
            theirs = await second.call_tool("get_balance", {"account_id": "acc-1"})
            return mine.content[0].text, theirs.content[0].text

    mine, theirs = asyncio.run(talk())
    assert json.loads(mine)["balance"] == 100.0 and json.loads(theirs)["balance"] == 120.0


REAL = FIXTURES / "envfactory_real" / "envs" / "tools"


def test_import_prints_what_it_decided(envfactory_home, capsys):
    rows = FIXTURES / "envfactory_real" / "rows.json"
    assert main(["import", "envfactory", str(REAL / "Pantry.py"), "--tasks", str(rows)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "pantry_audit (MCP readOnlyHint)" in out and "pantry_check_out_item (its ground-truth replay changed" in out
    assert "seed: checkpoint scenario 2" in out and "fail in the original too" in out
    entry = json.loads(catalog_path().read_text())["environments"]["ext-pantry"]
    assert entry["options"]["cache_fields"] == ["last_fetched"] and entry["nondeterministic_tasks"] == []
    assert entry["options"]["expected_errors"] == {"pantry-rl-0001": {"0.0": "ValueError: Only 4 rice bags left"}}
    assert main(["verify", "ext-pantry"]) == 0  # the checks that apply to an imported environment pass


def test_an_environment_without_tasks_imports_serves_and_plays(envfactory_home, capsys, monkeypatch):
    # without tasks no replay shows that `last_fetched` is a cache: it is declared
    assert (
        main(["import", "envfactory", str(REAL / "Pantry.py"), "--name", "shelf", "--cache-fields", "last_fetched"])
        == 0
    )
    assert "no tasks" in capsys.readouterr().out
    register_zoo()
    with pytest.raises(ValueError, match="has no tasks .* envfactory serve ext-shelf / envfactory play ext-shelf"):
        gym.make("envfactory/ext-shelf-v0")

    async def call() -> str:
        async with Client(server("ext-shelf")) as client:
            return (await client.call_tool("pantry_audit", {})).content[0].text

    assert json.loads(asyncio.run(call())) == {"items": 3, "value": 66.75}
    monkeypatch.setattr("sys.stdin", io.StringIO("pantry_get_item item_id=rice\nsay hello\nquit\n"))
    capsys.readouterr()
    assert main(["play", "ext-shelf"]) == 0
    out = capsys.readouterr().out
    assert "no tasks, so no user and no reward" in out and '"rice bags"' in out and "no user to answer" in out
    assert main(["verify", "ext-shelf"]) == 1  # it has no tasks: only serving and playing apply


def test_a_broken_start_state_is_said_when_serving(envfactory_home, capsys):
    fixture = FIXTURES / "envfactory"
    assert (
        main(["import", "envfactory", str(fixture), "--name", "ledger", "--tasks", str(fixture / "rl_rows.json")]) == 0
    )
    spec = load_external("ext-ledger")
    spec.snapshot_path("seed").write_text(json.dumps({"accounts": {"acc-1": {"balance": "lots"}}}))  # gone stale
    with pytest.raises(ValueError, match=r"the start state of ext-ledger does not load \(ValidationError"):
        server(spec)


def test_an_environment_whose_package_is_missing_is_one_line(envfactory_home, tmp_path):
    domain = tmp_path / "domain"
    (domain / "tau2" / "environment").mkdir(parents=True)
    for name in ("__init__.py", "environment/__init__.py", "environment/db.py", "environment/toolkit.py"):
        (domain / "tau2" / name).write_text((FIXTURES / "tau2" / "stub" / "tau2" / name).read_text())
    for name in ("data_model.py", "tools.py", "db.json", "tasks.json"):
        (domain / name).write_text((FIXTURES / "tau2" / "giftshop" / name).read_text())
    env = {
        **os.environ,
        "ENVFACTORY_HOME": str(envfactory_home),
        "PYTHONPATH": f"{domain}{os.pathsep}" + os.environ.get("PYTHONPATH", ""),
    }
    command = [sys.executable, "-m", "envfactory_gym.cli"]
    subprocess.run(
        command + ["import", "tau2", str(domain), "--name", "gifts"], check=True, env=env, capture_output=True
    )
    shutil.rmtree(domain / "tau2")  # tau2-bench is gone
    result = subprocess.run(command + ["info", "ext-gifts"], env=env, capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "tau2-bench" in result.stderr and "Python >= 3.12" in result.stderr
