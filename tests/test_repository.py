"""The repository itself: no file under version control keeps a merge's conflict markers (ruff catches them in
Python; this covers the Markdown, JSON and JSONL files that merges touch most: CHANGELOG, docs, tasks)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(rb"^(<{7}|>{7})( |$)", re.MULTILINE)


def _tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_no_tracked_file_keeps_conflict_markers():
    found = []
    for path in _tracked_files():
        if not path.is_file():
            continue
        data = path.read_bytes()
        match = MARKER.search(data)
        if match:
            line = data.count(b"\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, f"conflict markers left by a merge: {found}"
