"""What identifies an environment's content: one deterministic hash over the files that define it."""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The files of an environment folder that define it (relative glob patterns).
CONTENT_PATTERNS = ("metadata.json", "tasks.jsonl", "**/*.py", "snapshots/**/*.json")


def environment_content_hash(folder: str | Path) -> str:
    """The SHA-256 (hex) of an environment folder's content: `metadata.json`, the schema and tool modules (every
    `.py` file, `__pycache__` left out), the snapshots (`snapshots/**/*.json`) and `tasks.jsonl`.

    Files are taken in the order of their relative POSIX paths and each enters the hash with its path, so renaming,
    adding or removing a file changes it; Windows line endings count as `\\n`, so a checkout's line-ending setting
    does not. The same content gives the same hash on any machine, in any process. Raises `FileNotFoundError` when
    `folder` has no `metadata.json` (it is no environment).
    """
    root = Path(folder)
    if not (root / "metadata.json").is_file():
        raise FileNotFoundError(f"{root} is no environment folder: it has no metadata.json")
    files = {path for pattern in CONTENT_PATTERNS for path in root.glob(pattern)
             if path.is_file() and "__pycache__" not in path.relative_to(root).parts}
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        content = path.read_bytes().replace(b"\r\n", b"\n")
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(len(content).to_bytes(8, "big") + content)
    return digest.hexdigest()
