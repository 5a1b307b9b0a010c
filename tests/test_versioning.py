"""`environment_content_hash`: the same content gives the same hash (any process, any line endings, with or
without compiled files), and any change to what defines an environment changes it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from envfactory_gym import resolve
from envfactory_gym.versioning import environment_content_hash


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "notion"
    shutil.copytree(resolve("notion").folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_a_copy_hashes_like_the_original_in_any_process(folder):
    original = environment_content_hash(resolve("notion").folder)
    assert environment_content_hash(folder) == original and len(original) == 64
    code = "import sys; from envfactory_gym.versioning import environment_content_hash as h; print(h(sys.argv[1]))"
    for seed in ("1", "2"):
        other = subprocess.run(
            [sys.executable, "-c", code, str(folder)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert other.stdout.strip() == original


def test_what_does_not_define_the_environment_leaves_the_hash(folder):
    before = environment_content_hash(folder)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "tools.cpython-311.pyc").write_bytes(b"\x00compiled")
    (folder / "notes.txt").write_text("a reviewer's notes")
    tasks = folder / "tasks.jsonl"
    tasks.write_bytes(tasks.read_bytes().replace(b"\n", b"\r\n"))  # a Windows checkout
    tools = folder / "tools.py"
    tools.write_text("# reformatted\n\n" + tools.read_text().replace("\n\n\n", "\n\n\n\n"))  # layout, comments
    seed = folder / "snapshots" / "seed.json"
    seed.write_text(json.dumps(json.loads(seed.read_text()), indent=4))  # the same data, laid out otherwise
    assert environment_content_hash(folder) == before


@pytest.mark.parametrize(
    "change", ["tasks", "tool", "description", "schema", "metadata", "snapshot", "new module", "rename"]
)
def test_every_part_that_defines_the_environment_changes_the_hash(folder, change):
    before = environment_content_hash(folder)
    if change == "tasks":
        lines = (folder / "tasks.jsonl").read_text().splitlines()
        (folder / "tasks.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    elif change == "tool":
        with open(folder / "tools.py", "a") as out:
            out.write("\nMAX_PAGE_SIZE = 50  # a changed business rule\n")
    elif change == "description":
        tools = folder / "tools.py"
        tools.write_text(tools.read_text().replace('    """', '    """Note: ', 1))  # a tool's description
    elif change == "schema":
        (folder / "schema.py").write_text((folder / "schema.py").read_text().replace("nullable=False", "", 1))
    elif change == "metadata":
        meta = json.loads((folder / "metadata.json").read_text())
        (folder / "metadata.json").write_text(json.dumps({**meta, "version": meta["version"] + 1}))
    elif change == "snapshot":
        snapshot = next((folder / "snapshots").glob("*.json"))
        snapshot.write_text(snapshot.read_text().replace("a", "b", 1))
    elif change == "new module":
        (folder / "rules.py").write_text("LIMIT = 3\n")
    else:
        snapshot = next((folder / "snapshots").glob("*.json"))
        snapshot.rename(snapshot.with_name("other.json"))
    assert environment_content_hash(folder) != before


def test_a_folder_without_metadata_is_no_environment(tmp_path):
    with pytest.raises(FileNotFoundError, match="no metadata.json"):
        environment_content_hash(tmp_path)
