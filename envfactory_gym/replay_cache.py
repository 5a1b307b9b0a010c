"""Expected replays cached on disk, so the first reset of a task in a new process reads a file instead of replaying.

A cache file holds one task's `Replay` with its deltas' rows (the base, the snapshot's row source, is reattached
on load). Files live in a per-user folder: `$ENVFACTORY_CACHE_DIR`, else `$XDG_CACHE_HOME/envfactory-gym`, else
`~/.cache/envfactory-gym` (never inside the installed package). A file's name is derived from everything a replay
depends on: the environment's key, version and content hash, the task id, the runtime's package version, a
fingerprint of the runtime's own modules and `FORMAT_VERSION`; change any of them and the old file is simply never
read again. Files are written atomically (a temporary file, then `os.replace`), so parallel processes (pytest-xdist
workers, rollout worker processes) share them safely; a file that cannot be read or does not hold what its name
says is ignored and rewritten. `ENVFACTORY_REPLAY_CACHE=0` turns the cache off. Environments' content hashes are
kept there too, under their folder's file fingerprint, since computing one parses every module and snapshot.

The format is pickle: a replay is an object graph of dicts, tuples, datetimes and tool outputs whose types must
come back exactly (tuples stay tuples: checkpoints compare stored rows as tuples), and pickle loads it in well
under a millisecond. Pickle runs code named in the file, so it is only read from the user's own cache folder,
which holds nothing but what this runtime wrote there (the same trust Python gives its `__pycache__`).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import __version__
from .delta import SnapshotRows, StateDelta
from .session import snapshot_rows
from .spec import EnvironmentSpec
from .tasks import Replay, Task, replay
from .versioning import environment_content_hash

#: Bump when what a cache file holds, or how a replay is computed, changes in a way the runtime fingerprint misses.
FORMAT_VERSION = 1


def cache_dir() -> Path:
    """The folder replays are cached in (see the module docstring for how it is chosen)."""
    explicit = os.environ.get("ENVFACTORY_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "envfactory-gym"


def enabled() -> bool:
    """Whether the on-disk cache is used (`ENVFACTORY_REPLAY_CACHE=0` turns it off)."""
    return os.environ.get("ENVFACTORY_REPLAY_CACHE", "1") != "0"


@lru_cache(maxsize=None)
def runtime_fingerprint() -> str:
    """A hash of the runtime's own modules (path, size, modification time): a changed runtime, even one whose
    package version did not move (an editable install), never reads replays an older one wrote."""
    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        info = path.stat()
        digest.update(f"{path.relative_to(root).as_posix()}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _write_atomically(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old file or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _folder_fingerprint(folder: Path) -> str:
    """A hash of every file under an environment folder by path, size and modification time (no reading)."""
    digest = hashlib.sha256(str(folder.resolve()).encode())
    for path in sorted(p for p in folder.rglob("*") if "__pycache__" not in p.parts):
        info = path.stat()
        digest.update(f"{path.relative_to(folder).as_posix()}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


@lru_cache(maxsize=None)
def content_hash(folder: Path) -> str | None:
    """The environment's content hash, computed once per folder per process (None for an environment built in
    memory, whose folder holds no metadata.json). Parsing every module and snapshot costs up to half a second on a
    large environment, so the result is also kept on disk under the folder's file fingerprint (paths, sizes,
    modification times): a later process whose files did not change reads it back."""
    if not (folder / "metadata.json").is_file():
        return None
    memo = cache_dir() / "content-hashes" / f"{_folder_fingerprint(folder)}.txt"
    if enabled():
        try:
            known = memo.read_text()
            if len(known) == 64 and all(c in "0123456789abcdef" for c in known):
                return known
        except OSError:
            pass
    found = environment_content_hash(folder)
    if enabled():
        try:
            _write_atomically(memo, found.encode())
        except OSError:
            pass
    return found


def cache_key(spec: EnvironmentSpec, task_id: str) -> str:
    """Everything a cached replay of this task depends on, as one string (also stored in the file)."""
    parts = (
        spec.key,
        str(spec.version),
        str(content_hash(spec.folder)),
        task_id,
        __version__,
        runtime_fingerprint(),
        str(FORMAT_VERSION),
    )
    return "\0".join(parts)


def cache_path(spec: EnvironmentSpec, task_id: str) -> Path:
    """Where this task's replay is cached: one folder per environment, one file per task and key."""
    digest = hashlib.sha256(cache_key(spec, task_id).encode()).hexdigest()[:32]
    return cache_dir() / "replays" / spec.key / f"{digest}.pickle"


def _record(spec: EnvironmentSpec, task: Task, found: Replay) -> dict[str, Any]:
    """What a cache file holds: the replay's parts without their base, and the base's rows for every key a delta
    names (so a fresh process never has to dump the snapshot to compare them)."""
    deltas = [*found.states, found.baseline, *(found.after_user_calls or [])]
    base = snapshot_rows(spec, task.snapshot)
    base_rows = {}
    if isinstance(base, SnapshotRows):
        base_rows = {key: base.row(key) for delta in deltas for key in delta.rows}
    return {
        "key": cache_key(spec, task.id),
        "outcomes": found.outcomes,
        "states": [dict(s.rows) for s in found.states],
        "baseline": dict(found.baseline.rows),
        "checkpoints": found.checkpoints,
        "after_user_calls": None if found.after_user_calls is None else [dict(s.rows) for s in found.after_user_calls],
        "base_rows": base_rows,
    }


def _rebuild(spec: EnvironmentSpec, task: Task, record: dict[str, Any]) -> Replay:
    """The replay a record holds, its deltas over this process's row source of the task's snapshot."""
    base = snapshot_rows(spec, task.snapshot)
    if isinstance(base, SnapshotRows):
        base.prime(record["base_rows"])
    after = record["after_user_calls"]
    return Replay(
        outcomes=record["outcomes"],
        states=[StateDelta(base, rows) for rows in record["states"]],
        baseline=StateDelta(base, record["baseline"]),
        checkpoints=record["checkpoints"],
        after_user_calls=None if after is None else [StateDelta(base, rows) for rows in after],
    )


def load(spec: EnvironmentSpec, task: Task) -> Replay | None:
    """The cached replay of a task, or None when there is none usable (missing, unreadable, corrupt, stale)."""
    try:
        record = pickle.loads(cache_path(spec, task.id).read_bytes())
        if not isinstance(record, dict) or record.get("key") != cache_key(spec, task.id):
            return None
        return _rebuild(spec, task, record)
    except Exception:  # a missing, truncated or foreign file is a cache miss, never the user's error
        return None


def store(spec: EnvironmentSpec, task: Task, found: Replay) -> None:
    """Write a task's replay to the cache atomically; a cache that cannot be written is skipped silently."""
    path = cache_path(spec, task.id)
    try:
        _write_atomically(path, pickle.dumps(_record(spec, task, found), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # a full disk, a read-only home or an unpicklable output: run uncached, never fail
        return


def cached_replay(spec: EnvironmentSpec, task: Task) -> Replay:
    """The task's replay from the disk cache, else replayed (and then cached)."""
    if not enabled() or content_hash(spec.folder) is None:  # built in memory: nothing to key it by
        return replay(spec, task)
    found = load(spec, task)
    if found is None:
        found = replay(spec, task)
        store(spec, task, found)
    return found


def clear() -> int:
    """Delete every cached replay and content hash (of any version); the number of files removed."""
    removed = 0
    for folder in ("replays", "content-hashes"):
        for path in (cache_dir() / folder).rglob("*"):
            if path.is_file():
                path.unlink(missing_ok=True)
                removed += 1
    return removed
