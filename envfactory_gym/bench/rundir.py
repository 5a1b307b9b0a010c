"""A benchmark run directory: its configuration and every finished episode, written as it finishes so a crash
loses nothing and a re-run resumes where the last one stopped."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from .records import EpisodeRecord

CONFIG = "config.json"
EPISODES = "episodes.jsonl"
SESSIONS = "sessions.jsonl"


class RunDirectory:
    """`config.json` (what defines the run), `episodes.jsonl` (one `EpisodeRecord` per line, appended and synced
    episode by episode) and `sessions.jsonl` (one line per finished invocation: when, how long, against which
    endpoint). Reports and plots are written beside them."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def open(self, identity: dict[str, Any]) -> None:
        """Create the directory for a run defined by `identity`, or check that an existing run is that run."""
        self.path.mkdir(parents=True, exist_ok=True)
        config = self.path / CONFIG
        if config.exists():
            stored = json.loads(config.read_text())
            changed = sorted(k for k in set(stored) | set(identity) if stored.get(k) != identity.get(k))
            if changed:
                raise ValueError(
                    f"{self.path} holds a run with other settings ({', '.join(changed)}); "
                    "resume it with the same settings or use another run directory"
                )
        else:
            config.write_text(json.dumps(identity, indent=2, sort_keys=True) + "\n")

    def config(self) -> dict[str, Any]:
        """The stored configuration; `ValueError` with a one-line reason when `path` holds no run."""
        try:
            return json.loads((self.path / CONFIG).read_text())
        except FileNotFoundError:
            reason = "does not exist" if not self.path.exists() else f"holds no benchmark run (no {CONFIG})"
            raise ValueError(f"{self.path} {reason}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{self.path / CONFIG} is not valid JSON: {exc}") from None

    def log_session(self, entry: dict[str, Any]) -> None:
        """Append one invocation's account (start, seconds, episodes played, endpoint, package version), synced."""
        with open(self.path / SESSIONS, "a", encoding="utf-8") as out:
            if out.tell():
                out.write(self._line_break_if_torn(SESSIONS))
            out.write(json.dumps(entry, sort_keys=True) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def sessions(self) -> list[dict[str, Any]]:
        """Every logged invocation, oldest first (a torn last line is ignored)."""
        path = self.path / SESSIONS
        if not path.exists():
            return []
        sessions = []
        for raw in path.read_bytes().splitlines():
            try:
                data = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if isinstance(data, dict):
                sessions.append(data)
        return sessions

    def records(self) -> list[EpisodeRecord]:
        """Every stored episode; a line cut short by a crash is ignored (its episode is played again)."""
        path = self.path / EPISODES
        if not path.exists():
            return []
        records = []
        for raw in path.read_bytes().splitlines():  # a crash may cut a line inside a multi-byte character
            try:
                data = json.loads(raw.decode("utf-8"))
                if isinstance(data, dict):
                    records.append(EpisodeRecord.from_dict(data))
            except (UnicodeDecodeError, json.JSONDecodeError, TypeError):
                continue
        return records

    def append(self, records: Iterable[EpisodeRecord]) -> None:
        """Add finished episodes, flushed and synced to disk before returning."""
        with open(self.path / EPISODES, "a", encoding="utf-8") as out:
            if out.tell():
                out.write(self._line_break_if_torn())
            for record in records:
                out.write(json.dumps(record.as_dict(), ensure_ascii=False) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def _line_break_if_torn(self, name: str = EPISODES) -> str:
        """A newline when the file's last line was cut short (a crash mid-write), so new lines stay whole."""
        with open(self.path / name, "rb") as data:
            data.seek(-1, os.SEEK_END)
            return "" if data.read(1) == b"\n" else "\n"
