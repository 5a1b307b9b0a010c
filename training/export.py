"""Rows as Hugging Face `datasets`: a folder of parquet (`data/<split>-00000-of-00001.parquet`) or one JSONL file,
both loadable with `datasets.load_dataset`, and optionally pushed to the Hub.

Columns whose values have a different shape in every environment (tool schemas, reward components, tool-call
arguments as objects) are stored with the `Json` feature, so files that mix environments load without schema
conflicts; trajectory-format `messages` have one fixed schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

MESSAGE_FIELDS = ("role", "content", "name", "tool_call_id", "tool_calls")
_INTEGERS = ("env_version", "turn", "sample")
_JSON = ("reward_components", "extra_info", "reward_model")


def features_for(rows: list[dict[str, Any]], trajectory_format: bool = True):
    """The `datasets.Features` of `rows`: tool schemas, reward components and other per-environment objects as
    `Json`; `messages` of the trajectory format with a fixed message schema; chat columns in other forms
    (`prompt`, a trainer's `messages`) as lists of `Json` messages, each as written; numbers as numbers; anything
    else text."""
    from datasets import Features, Json, List, Value

    call = {
        "id": Value("string"),
        "type": Value("string"),
        "function": {"name": Value("string"), "arguments": Value("string")},
    }
    message = {
        "role": Value("string"),
        "content": Value("string"),
        "name": Value("string"),
        "tool_call_id": Value("string"),
        "tool_calls": List(call),
    }
    features: dict[str, Any] = {}
    for column in sorted({key for row in rows for key in row}):
        if column == "tools":
            features[column] = List(Json())
        elif column in _JSON:
            features[column] = Json()
        elif column == "reward":
            features[column] = Value("float64")
        elif column in _INTEGERS:
            features[column] = Value("int64")
        elif column in ("messages", "prompt"):
            structured = trajectory_format and column == "messages"
            if structured and not all(_trajectory_messages(r.get(column) or []) for r in rows):
                raise ValueError("messages: not in the trajectory format (tool-call arguments must be JSON text)")
            features[column] = List(message) if structured else List(Json())
        else:
            features[column] = Value("string")
    return Features(features)


def _trajectory_messages(messages: list[dict[str, Any]]) -> bool:
    """Whether every tool call carries its arguments as a JSON string (the trajectory format)."""
    return all(
        set(m) <= set(MESSAGE_FIELDS)
        and all(isinstance(c["function"]["arguments"], str) for c in m.get("tool_calls") or [])
        for m in messages
    )


def to_dataset(rows: Iterable[dict[str, Any]], trajectory_format: bool = True):
    """A `Dataset` of the rows (`Dataset.from_list` with `features_for`). Raises ValueError when there are none."""
    from datasets import Dataset

    rows = list(rows)
    if not rows:
        raise ValueError("no rows to write: the chosen environments and split have no tasks")
    return Dataset.from_list(rows, features=features_for(rows, trajectory_format))


def write_dataset(
    rows: Iterable[dict[str, Any]],
    out: Path,
    split: str = "train",
    push_to_hub: str | None = None,
    private: bool = True,
    trajectory_format: bool = True,
) -> int:
    """Write the rows to `out`: one JSON line per row when it ends with `.jsonl`, else a dataset folder with the
    rows as split `split` in parquet. With `push_to_hub` (a repo id), also push them there as that split
    (private by default). `trajectory_format`: the rows are trajectory records (else a trainer's rows, whose
    messages are stored as written). Returns how many rows."""
    rows = list(rows)
    dataset = to_dataset(rows, trajectory_format)
    if out.suffix == ".jsonl":
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        target = out / "data" / f"{split}-00000-of-00001.parquet"
        target.parent.mkdir(parents=True, exist_ok=True)
        dataset.to_parquet(str(target))
    if push_to_hub:
        dataset.push_to_hub(push_to_hub, split=split, private=private)
    return len(rows)
