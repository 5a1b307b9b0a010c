"""Why agents fail: the classes of tool errors per environment, examples of unparsable calls, and where episodes
stopped (the turn reached, the first turn that went wrong)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..prompts import FORMAT_ERROR_TOOL
from .records import EpisodeRecord

_ERROR_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^unknown tool\b"), "unknown tool"),
    (re.compile(r"can only be performed by the user"), "user-only tool"),
    (re.compile(r"^arguments for .* must be a JSON object"), "arguments not an object"),
    (re.compile(r"^invalid arguments for '[^']*': [^;]*: Field required"), "missing argument"),
    (re.compile(r"^invalid arguments for '[^']*': [^;]*: unexpected argument"), "unexpected argument"),
    (re.compile(r"^invalid arguments for "), "invalid argument value"),
    (re.compile(r"^'[^']*' failed: "), "tool crashed"),
)
_KIND = re.compile(r"^([A-Z][A-Za-z]+): ")


def error_class(text: str) -> str:
    """The class of a failed call's result text (`Error: ...`): `unknown tool`, `user-only tool`, `missing
    argument`, `unexpected argument`, `invalid argument value`, `arguments not an object`, `tool crashed`, the
    tool's error kind (`NotFound`, `Conflict`, `PermissionDenied`, `InvalidRequest`, ...), else `other`."""
    message = text.removeprefix("Error:").strip()
    for pattern, name in _ERROR_PATTERNS:
        if pattern.search(message):
            return name
    kind = _KIND.match(message)
    return kind.group(1) if kind else "other"


def _shorten(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class ErrorClass:
    """One class of tool errors in one environment: failed calls per agent, the tools that failed most, and an
    example message (from the first agent that had one)."""

    env_id: str
    name: str
    counts: dict[str, int] = field(default_factory=dict)
    tools: Counter = field(default_factory=Counter)
    example: str = ""

    @property
    def total(self) -> int:
        """Failed calls of this class, all agents."""
        return sum(self.counts.values())

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "env_id": self.env_id,
            "class": self.name,
            "counts": self.counts,
            "tools": dict(self.tools.most_common(3)),
            "example": self.example,
        }


def tool_error_classes(records: Iterable[EpisodeRecord], agents: list[str]) -> dict[str, list[ErrorClass]]:
    """Per environment, its tool error classes, most frequent first (counted over `agents`, first one first)."""
    classes: dict[tuple[str, str], ErrorClass] = {}
    rank = {agent: index for index, agent in enumerate(agents)}
    for record in sorted(records, key=lambda r: (rank.get(r.agent, len(rank)), r.env_id, r.task_id, r.sample)):
        for message in record.messages:
            if message.get("role") != "tool" or message.get("name") == FORMAT_ERROR_TOOL:
                continue
            content = str(message.get("content", ""))
            if not content.startswith("Error:"):
                continue
            name = error_class(content)
            entry = classes.setdefault((record.env_id, name), ErrorClass(record.env_id, name))
            entry.counts[record.agent] = entry.counts.get(record.agent, 0) + 1
            entry.tools[str(message.get("name", "?"))] += 1
            entry.example = entry.example or _shorten(content, 200)
    by_env: dict[str, list[ErrorClass]] = defaultdict(list)
    for entry in classes.values():
        by_env[entry.env_id].append(entry)
    first = agents[0] if agents else ""
    return {
        env: sorted(entries, key=lambda e: (-e.counts.get(first, 0), -e.total, e.name))
        for env, entries in sorted(by_env.items())
    }


def format_error_examples(records: Iterable[EpisodeRecord], per_agent: int = 5) -> list[dict[str, Any]]:
    """Up to `per_agent` unparsable calls per agent: the model's text (shortened) and what the env answered,
    spread over environments and tasks (one per environment first, then one per task)."""
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in sorted(records, key=lambda r: (r.agent, r.env_id, r.task_id, r.sample)):
        said = ""
        for message in record.messages:
            if message.get("role") == "assistant":
                said = str(message.get("content") or "")
            elif message.get("role") == "tool" and message.get("name") == FORMAT_ERROR_TOOL:
                found[record.agent].append(
                    {
                        "agent": record.agent,
                        "env_id": record.env_id,
                        "task_id": record.task_id,
                        "sample": record.sample,
                        "text": _shorten(said, 400),
                        "error": _shorten(str(message.get("content", "")), 240),
                    }
                )
                break  # one example per episode
    examples = []
    for items in found.values():
        envs: set[str] = set()
        tasks: set[tuple[str, str]] = set()
        ranked = []  # each environment's first example, then each other task's first, then the rest
        for index, item in enumerate(items):
            task = (item["env_id"], item["task_id"])
            rank = 0 if item["env_id"] not in envs else 1 if task not in tasks else 2
            envs.add(item["env_id"])
            tasks.add(task)
            ranked.append((rank, index, item))
        examples += [item for _, _, item in sorted(ranked, key=lambda entry: entry[:2])[:per_agent]]
    return examples


def stop_reason(record: EpisodeRecord) -> str:
    """How the episode ended: `completed` (every turn played), `step limit`, `refused` (the endpoint refused a
    request) or `cut short` (endpoint down or timeout; played again on resume)."""
    if record.error is not None:
        return "cut short" if record.error_transient else "refused"
    return "completed" if record.terminated else "step limit"


@dataclass
class StopPoints:
    """Where one agent's episodes of one group stopped. `reasons`: episodes per `stop_reason`; `stopped_in`:
    episodes that did not complete, by the turn they stopped in (`t/T`, T the task's turns when known);
    `first_missed`: completed but unsolved episodes, by the first turn whose own score was below 1."""

    agent: str
    group: str
    episodes: int
    reasons: Counter = field(default_factory=Counter)
    stopped_in: Counter = field(default_factory=Counter)
    first_missed: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "agent": self.agent,
            "group": self.group,
            "episodes": self.episodes,
            "reasons": dict(self.reasons),
            "stopped_in": dict(self.stopped_in),
            "first_missed": dict(self.first_missed),
        }


def stop_points(records: Iterable[EpisodeRecord], by: str = "all") -> list[StopPoints]:
    """One `StopPoints` per (agent, group) (`by`: `all`, `domain` or `env`), agents in order of appearance."""
    table: dict[tuple[str, str], StopPoints] = {}
    for record in records:
        group = "all" if by == "all" else record.domain if by == "domain" else record.env_id
        entry = table.setdefault((record.agent, group), StopPoints(record.agent, group, 0))
        entry.episodes += 1
        reason = stop_reason(record)
        entry.reasons[reason] += 1
        if reason != "completed":
            entry.stopped_in[f"{record.turns}/{record.task_turns or '?'}"] += 1
        elif not record.solved:
            missed = next((i + 1 for i, score in enumerate(record.turn_rewards) if score < 1.0), None)
            entry.first_missed[f"turn {missed}" if missed else "no turn below 1"] += 1
    order = {agent: i for i, agent in enumerate(dict.fromkeys(r.agent for r in table.values()))}
    return [table[key] for key in sorted(table, key=lambda k: (order[k[0]], k[1]))]
