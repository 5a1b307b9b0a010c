"""What identifies an environment's content: one deterministic hash over what defines it."""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

#: Files of an environment folder that its content hash covers besides every `*.py` module and
#: `snapshots/**/*.json`.
HASHED_DATA = ("metadata.json", "tasks.jsonl", "splits.json")


def _canonical_json(text: str) -> str:
    return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _defines_the_environment(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts
    return (
        path.is_file()
        and "__pycache__" not in parts
        and (path.suffix == ".py" or path.name in HASHED_DATA or (parts[0] == "snapshots" and path.suffix == ".json"))
    )


def environment_content_hash(folder: str | Path) -> str:
    """The SHA-256 (hex) of what an environment is: its modules' syntax trees (code and docstrings, which are the
    agent-facing descriptions; not comments or layout), its metadata, tasks, split and snapshots as parsed JSON.

    Each file enters with its relative path, so renaming, adding or removing one changes the hash; reformatting
    code or JSON, comments and line endings do not. The same content gives the same hash on any machine, in any
    process. Any change to tools, schema, seed data, tasks or rules changes it, and then the environment's
    version must change too (`tests/test_index.py`). Raises `FileNotFoundError` when `folder` has no
    `metadata.json` (it is no environment).
    """
    root = Path(folder)
    if not (root / "metadata.json").is_file():
        raise FileNotFoundError(f"{root} is no environment folder: it has no metadata.json")
    digest = hashlib.sha256()
    for path in sorted(
        (p for p in root.rglob("*") if _defines_the_environment(p, root)), key=lambda p: p.relative_to(root).as_posix()
    ):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            body = ast.dump(ast.parse(text, filename=str(path)))
        elif path.suffix == ".jsonl":
            body = "\n".join(_canonical_json(line) for line in text.splitlines() if line.strip())
        else:
            body = _canonical_json(text)
        encoded = body.encode()
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(len(encoded).to_bytes(8, "big") + encoded)
    return digest.hexdigest()
