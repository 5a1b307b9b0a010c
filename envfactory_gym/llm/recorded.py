"""`RecordedLLM`, the test double: replays recorded request -> response pairs (cassettes) and fails loudly on any
request it has not seen; in recording mode it forwards misses to a real client and writes them down."""

from __future__ import annotations

import difflib
import hashlib
import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from .base import BaseChatModel, JSONMode
from .types import ChatModel, ChatResponse, LLMError, Messages


class UnrecordedRequest(LLMError):
    """A request with no recorded answer."""


def request_key(stage: str, messages: Messages, options: dict[str, Any]) -> str:
    """Stable hash of what determines an answer: the stage, the messages and the request options."""
    blob = json.dumps(
        {"stage": stage, "messages": messages, "options": options}, sort_keys=True, ensure_ascii=False, default=str
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def _request_text(request: dict[str, Any]) -> list[str]:
    return json.dumps(request, indent=1, sort_keys=True, ensure_ascii=False, default=str).splitlines()


class RecordedLLM(BaseChatModel):
    """Replays cassettes: `*.json` (a list of entries) and `*.jsonl` files under `directory`, each entry
    `{"key", "stage", "request": {"messages", "options"}, "response": {...}}`.

    Identical requests recorded several times are answered in recorded order (the last answer repeats). An
    unrecorded request raises `UnrecordedRequest` naming the stage and showing a diff against the closest
    recorded request of that stage. With `record=` a real `ChatModel`, misses are sent to it and appended to
    `<directory>/<stage>.jsonl`.
    """

    def __init__(
        self,
        directory: str | Path,
        *,
        record: ChatModel | None = None,
        json_mode: JSONMode = "object",
        repair_retries: int = 1,
    ) -> None:
        super().__init__(json_mode=json_mode, repair_retries=repair_retries)
        self.directory = Path(directory)
        self.recorder = record
        self._entries: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._served: dict[str, int] = defaultdict(int)
        self._by_stage: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._lock = threading.Lock()
        for path in sorted(self.directory.rglob("*.json*")) if self.directory.exists() else []:
            for entry in _read_entries(path):
                self._add(entry)

    def _add(self, entry: dict[str, Any]) -> None:
        self._entries[entry["key"]].append(entry)
        self._by_stage[entry["stage"]].append(entry)

    @property
    def recorded(self) -> int:
        """Number of recorded entries."""
        return sum(len(v) for v in self._entries.values())

    async def acomplete(self, stage: str, messages: Messages, **opts: Any) -> ChatResponse:
        """The recorded answer to this exact request (or, recording, the real model's answer)."""
        key = request_key(stage, messages, opts)
        with self._lock:
            entries = self._entries.get(key)
            if entries:
                index = min(self._served[key], len(entries) - 1)
                self._served[key] += 1
                response = ChatResponse.from_dict(entries[index]["response"])
        if entries:
            self.usage.record(stage, response.prompt_tokens, response.completion_tokens, 0.0)
            return response
        if self.recorder is None:
            raise UnrecordedRequest(self._miss_report(stage, key, {"messages": messages, "options": opts}))
        response = await self.recorder.acomplete(stage, messages, **opts)
        entry = {
            "key": key,
            "stage": stage,
            "request": {"messages": messages, "options": opts},
            "response": response.to_dict(),
        }
        with self._lock:
            self.directory.mkdir(parents=True, exist_ok=True)
            with (self.directory / f"{stage}.jsonl").open("a") as handle:
                handle.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")
            self._add(entry)
            self._served[key] += 1
        self.usage.record(stage, response.prompt_tokens, response.completion_tokens, 0.0)
        return response

    def _miss_report(self, stage: str, key: str, request: dict[str, Any]) -> str:
        same_stage = self._by_stage.get(stage, [])
        lines = [f"RecordedLLM: no recorded answer for stage {stage!r} (key {key}) in {self.directory}."]
        if not same_stage:
            known = ", ".join(sorted(self._by_stage)) or "none"
            lines.append(f"Nothing is recorded for this stage (recorded stages: {known}).")
        else:
            wanted = _request_text(request)
            closest = max(
                same_stage,
                key=lambda e: difflib.SequenceMatcher(
                    None, _request_text(e["request"]), wanted, autojunk=False
                ).ratio(),
            )
            diff = list(
                difflib.unified_diff(
                    _request_text(closest["request"]),
                    wanted,
                    f"recorded {closest['key']}",
                    "requested",
                    n=1,
                    lineterm="",
                )
            )
            lines.append(f"{len(same_stage)} answers are recorded for this stage; the closest differs by:")
            lines += [line[:200] for line in diff[:40]]
            if len(diff) > 40:
                lines.append(f"... {len(diff) - 40} more diff lines")
        lines.append("A prompt, option or input changed: re-record with RecordedLLM(dir, record=LLMClient(...)).")
        return "\n".join(lines)


def _read_entries(path: Path) -> list[dict[str, Any]]:
    text = path.read_text()
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    data = json.loads(text)
    return data if isinstance(data, list) else [data]
