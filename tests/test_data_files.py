"""Malformed data files: a bad line of tasks.jsonl or a bad snapshot row is reported by file, line (or table and
row) and problem, by the loaders and by every command, without a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envfactory_gym import tool
from envfactory_gym.errors import DataFileError
from envfactory_gym.registry import zoo_root
from envfactory_gym.state import load_snapshot
from envfactory_gym.tasks import load_tasks

from .helpers import SMALL_SCHEMA, make_spec

TASK = {"id": "t1", "turns": [{"query": "Rename item 1", "calls": [{"name": "rename", "arguments": {"item_id": 1}}]}]}
ROWS = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}]


@tool()
def rename(db, item_id: int) -> dict:
    """Rename an item.

    Args:
        item_id: The item.
    """
    return {"id": item_id}


def spec_with_tasks(folder: Path, lines: list[str]):
    spec = make_spec(folder, [rename], ROWS)
    spec.tasks_path.write_text("\n".join(lines) + "\n")
    return spec


@pytest.mark.parametrize(
    "bad_line, problem",
    [
        ('{"id": "t2", "turns": [', "not valid JSON (Expecting value, column 24)"),
        ('["t2"]', "a task is a JSON object, not list"),
        ('{"id": "t2"}', "task t2: turns: Field required"),
        ('{"id": "t2", "turns": [{"query": 5}]}', "task t2: turns.0.query: Input should be a valid string"),
        (
            '{"id": "t2", "turns": [{"query": "q", "calls": [{"name": "drop_all"}]}]}',
            "task t2 calls unknown tool 'drop_all'",
        ),
        ('{"id": "t2", "snapshot": "gone", "turns": [{"query": "q"}]}', "task t2: snapshot 'gone' not found"),
        (json.dumps(TASK), "duplicate task id 't1'"),
    ],
)
def test_a_bad_tasks_line_is_named_by_file_and_line(tmp_path, bad_line, problem):
    spec = spec_with_tasks(tmp_path, [json.dumps(TASK), "", bad_line])
    with pytest.raises(DataFileError) as error:
        load_tasks(spec)
    assert str(error.value) == f"{spec.tasks_path}:3: {problem}"


def write_snapshot(folder: Path, tables: dict | str) -> Path:
    path = folder / "seed.json"
    path.write_text(tables if isinstance(tables, str) else json.dumps({"tables": tables}, indent=1))
    return path


@pytest.mark.parametrize(
    "tables, problem",
    [
        (
            {"items": [ROWS[0], {"id": 2, "name": ["b"]}]},
            "tables.items[1] (id=2): name: Input should be a valid string",
        ),
        ({"items": [ROWS[0], {"id": 2}]}, "tables.items[1] (id=2): name: Field required"),
        (
            {"items": [ROWS[0], ROWS[1], {"id": 1, "name": "again"}]},
            "tables.items[2]: UNIQUE constraint failed: items.id",
        ),
        ({"items": {"id": 1}}, "tables.items: rows must be a JSON list, got dict"),
        ({"itemz": []}, "snapshot has tables not in the schema: ['itemz']"),
        ('{"tables": {"items": [\n  {"id": 1,}\n]}}', "not valid JSON"),
    ],
)
def test_a_bad_snapshot_row_is_named_by_file_table_and_row(tmp_path, tables, problem):
    path = write_snapshot(tmp_path, tables)
    with pytest.raises(DataFileError) as error:
        load_snapshot(SMALL_SCHEMA, path)
    message = str(error.value)
    assert message.startswith(f"{path}") and problem in message
    if isinstance(tables, str):
        assert message == f"{path}:2: not valid JSON (Expecting property name enclosed in double quotes, column 12)"


# ------------------------------------------------------------------------------------------------ every command
def broken_zoo(root: Path, damage) -> Path:
    """A zoo of one environment (a copy of notion) with `damage(folder)` applied; returns the folder to put first
    on PYTHONPATH."""
    zoo = root / "envfactory_zoo"  # shadows the installed zoo package
    shutil.copytree(zoo_root() / "notion", zoo / "notion", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(zoo_root() / "__init__.py", zoo / "__init__.py")
    damage(zoo / "notion")
    return root


def break_task_line(folder: Path) -> None:
    lines = (folder / "tasks.jsonl").read_text().splitlines()
    lines[4] = lines[4][:-40]  # line 5 cut short
    (folder / "tasks.jsonl").write_text("\n".join(lines) + "\n")


def break_snapshot_row(folder: Path) -> None:
    data = json.loads((folder / "snapshots" / "seed.json").read_text())
    data["tables"]["pages"][7]["title"] = {"text": "not a string"}
    (folder / "snapshots" / "seed.json").write_text(json.dumps(data, indent=1))


COMMANDS = {
    "list": ["list"],
    "verify": ["verify", "notion"],
    "rollout": ["rollout", "notion", "--episodes", "1"],
    "play": ["play", "notion"],
    "serve": ["serve", "notion"],
    "split": ["split", "notion", "--check"],
    "bench": ["bench", "--envs", "notion", "--baselines", "noop", "--k", "1", "--run-dir", "RUN"],
}


@pytest.mark.parametrize(
    "damage, expected, commands",
    [
        (break_task_line, "tasks.jsonl:5: not valid JSON (", list(COMMANDS)),
        (break_snapshot_row, "seed.json: tables.pages[7] (id=", ["rollout", "play", "serve", "bench"]),
    ],
)
def test_every_command_reports_a_broken_data_file_without_a_traceback(tmp_path, damage, expected, commands):
    root = broken_zoo(tmp_path, damage)
    repository = Path(__file__).resolve().parents[1]
    path = ":".join(filter(None, [str(root), str(repository), os.environ.get("PYTHONPATH")]))  # the broken zoo first
    env = {"PYTHONPATH": path, "PATH": "/usr/bin:/bin", "COLUMNS": "200", "HOME": str(tmp_path)}
    running = {
        name: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "envfactory_gym.cli",
                *[str(tmp_path / "run") if arg == "RUN" else arg for arg in COMMANDS[name]],
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=tmp_path,
            text=True,
        )
        for name in commands
    }
    for name, process in running.items():
        out, err = process.communicate(timeout=300)
        said = " ".join((out + err).split())
        assert "Traceback" not in said, (name, said[-3000:])
        assert process.returncode in (1, 2), (name, process.returncode, said[-2000:])  # verify: 1, the others: 2
        assert expected in said and "notion" in said, (name, said[-2000:])
