"""The command line as a user meets it: one-line errors with suggestions, counts checked, help on every option,
readable summaries, and the whole loop of an environment of one's own."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from envfactory_gym import registry
from envfactory_gym.cli import build_parser, checks, main


@pytest.mark.parametrize(
    "argv",
    [["info", "notin"], ["verify", "notoin"], ["rollout", "notio", "--episodes", "1"], ["split", "shopfy", "--check"]],
)
def test_an_unknown_name_is_one_line_with_a_suggestion(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "did you mean" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["rollout", "notion", "--episodes", "-3"], ["split", "--test-fraction", "1.5"]])
def test_bad_counts_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2 and "must be" in capsys.readouterr().err


def _options(parser: argparse.ArgumentParser, path: str = "envfactory"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _options(child, f"{path} {name}")
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield path, action


def test_every_option_of_every_command_has_help():
    missing = [f"{path} {action.dest}" for path, action in _options(build_parser()) if not action.help]
    assert not missing


def test_version_and_summaries(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert "envfactory-gym" in capsys.readouterr().out
    assert main(["info", "notion"]) == 0
    out = capsys.readouterr().out
    assert "search_pages" in out and "read" in out and len(out.splitlines()) < 150  # was 655 lines of JSON
    assert main(["info", "notion", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["key"] == "notion" and data["tools"][0]["input_schema"]["type"] == "object"
    assert main(["list", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "notion" in out and "mean turns" in out


def test_your_own_environment_from_scaffold_to_gym_make(tmp_path, monkeypatch, capsys):
    assert main(["new", "Library Loans", "--domain", "lifestyle", "--path", str(tmp_path)]) == 0
    folder = tmp_path / "library_loans"
    assert main(["verify", str(folder)]) == 0 and "PASS" in capsys.readouterr().out
    assert main(["new", "Library Loans", "--domain", "lifestyle", "--path", str(tmp_path)]) == 2  # exists
    monkeypatch.setenv("ENVFACTORY_PATH", str(tmp_path))
    assert "library_loans" in registry.zoo_keys()
    assert main(["split", "library_loans"]) == 0 and (folder / "splits.json").is_file()
    code = (
        "import gymnasium as gym, envfactory_gym\n"
        "env = gym.make('envfactory/LibraryLoans-v0')\n"
        "print(env.reset(seed=0)[1]['task_id'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**__import__("os").environ, "ENVFACTORY_PATH": str(tmp_path)},
    )
    assert out.stdout.strip().startswith("library_loans-")
    assert main(["rollout", "library_loans", "--agent", "reference"]) == 0
    assert "overall mean reward: 1.000" in capsys.readouterr().out


def test_verify_and_rollout_spread_environments_over_worker_processes(tmp_path, capsys):
    for name in ("Reading Room", "Book Club"):
        assert main(["new", name, "--domain", "lifestyle", "--path", str(tmp_path)]) == 0
    good, broken = tmp_path / "reading_room", tmp_path / "book_club"
    tasks = broken / "tasks.jsonl"
    tasks.write_text(tasks.read_text().replace('"item_012"', '"item_999"', 1))  # a ground truth that cannot run
    capsys.readouterr()
    assert main(["verify", str(good), str(broken), "--workers", "2"]) == 1
    out = capsys.readouterr().out
    assert "PASS envfactory/ReadingRoom-v0" in out and "FAIL envfactory/BookClub-v0" in out and "item_999" in out
    tables = []
    for workers in ("1", "2"):
        assert main(["rollout", str(good), "notion", "--agent", "random", "--episodes", "3", "--workers", workers]) == 0
        tables.append(capsys.readouterr().out)
    assert tables[0] == tables[1] and "ReadingRoom-v0" in tables[0] and "Notion-v2" in tables[0]


def test_split_never_writes_into_an_installed_package(monkeypatch, capsys):
    monkeypatch.setattr(checks, "installed", lambda folder: True)
    assert main(["split", "notion"]) == 1
    assert "part of an installed package" in capsys.readouterr().out
