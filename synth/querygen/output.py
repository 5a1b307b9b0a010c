"""The output folder of a QueryGen run: tasks (zoo format), snapshots, SFT and RL data, failures, usage; it is
append-only, so a run can be resumed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from .pipeline import SynthesisResult

TASKS, SFT, RL, FAILURES, USAGE = "tasks.jsonl", "sft.jsonl", "rl.jsonl", "failures.jsonl", "usage.json"


def task_record(result: SynthesisResult) -> dict[str, Any]:
    """The task as one line of an environment's tasks.jsonl (defaults left out, as in the zoo)."""
    return result.task.model_dump(mode="json", exclude_defaults=True)


class OutputDir:
    """`tasks.jsonl`, `snapshots/<name>.json`, `sft.jsonl`, `rl.jsonl`, `failures.jsonl` and `usage.json`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)

    def _append(self, name: str, rows: list[dict[str, Any]]) -> None:
        with (self.path / name).open("a") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    def read(self, name: str) -> list[dict[str, Any]]:
        """The rows of one of the jsonl files (empty if it does not exist yet)."""
        file = self.path / name
        return [json.loads(line) for line in file.read_text().splitlines() if line.strip()] if file.exists() else []

    def done_ids(self) -> set[str]:
        """Ids of the tasks already written (a resumed run skips them; failed ones are tried again)."""
        return {row["id"] for row in self.read(TASKS)}

    def write(self, result: SynthesisResult) -> None:
        """Append one task with its snapshot (if planning added rows), SFT samples and RL rows. The task line is
        written last, so an interrupted write is redone on resume."""
        if result.snapshot is not None:
            snapshots = self.path / "snapshots"
            snapshots.mkdir(exist_ok=True)
            (snapshots / f"{result.task.snapshot}.json").write_text(json.dumps(result.snapshot, ensure_ascii=False))
        self._append(SFT, result.sft)
        self._append(RL, result.rl)
        self._append(TASKS, [task_record(result)])

    def fail(self, task_id: str, stage: str, reason: str) -> None:
        """Record a task that could not be synthesized."""
        self._append(FAILURES, [{"id": task_id, "stage": stage, "reason": reason[:2000]}])

    def write_usage(self, usage: dict[str, Any]) -> None:
        """The token accounting of the run."""
        (self.path / USAGE).write_text(json.dumps(usage, indent=2))

    def install(self, env_folder: str | Path) -> int:
        """Append the tasks to an environment folder's tasks.jsonl and copy the snapshots (for a copy of a zoo
        environment, then checked with `envfactory verify`); returns the number of tasks added."""
        folder = Path(env_folder)
        rows = self.read(TASKS)
        target = folder / "tasks.jsonl"
        if target.exists() and target.read_text() and not target.read_text().endswith("\n"):
            target.write_text(target.read_text() + "\n")
        with target.open("a") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        for snapshot in (self.path / "snapshots").glob("*.json") if (self.path / "snapshots").exists() else []:
            shutil.copy(snapshot, folder / "snapshots" / snapshot.name)
        return len(rows)
