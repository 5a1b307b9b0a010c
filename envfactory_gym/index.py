"""The environment index: one small JSON file per environment root (`index.json`) that lists each environment's
name, domain, version, content hash, counts and task ids, so that registration, `envfactory list` and test
collection read one file and never import or build tools. `envfactory index` writes it; a test keeps it current.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .versioning import environment_content_hash

INDEX_FILE = "index.json"
#: The domains an environment belongs to (metadata.json's `domain`).
DOMAINS = frozenset({"commerce", "finance", "travel", "office", "lifestyle", "research", "utilities"})


@dataclass(frozen=True)
class EnvCard:
    """What the index knows of one environment without importing it."""

    key: str
    name: str
    version: int
    domain: str
    product: str
    content_hash: str
    tools: int
    user_tools: int
    tasks: int
    writing_tasks: int
    sampled_tasks: int
    mean_turns: float
    mean_calls_per_turn: float
    seed_rows: int
    task_ids: tuple[str, ...]

    @property
    def env_id(self) -> str:
        """The gymnasium id, e.g. `envfactory/Notion-v0`."""
        return f"envfactory/{self.name}-v{self.version}"

    @classmethod
    def from_json(cls, key: str, data: dict[str, Any]) -> "EnvCard":
        """A card from its index entry."""
        return cls(key=key, **{**data, "task_ids": tuple(data["task_ids"])})

    def to_json(self) -> dict[str, Any]:
        """The index entry (the key is the entry's name)."""
        data = asdict(self)
        del data["key"]
        data["task_ids"] = list(self.task_ids)
        return data


def build_card(spec: Any) -> EnvCard:
    """The index card of a loaded environment spec (imports its tools and reads its tasks and seed)."""
    from .session import ToolSession
    from .tasks import load_tasks

    tasks = list(load_tasks(spec).values())
    session = ToolSession(spec)
    try:
        session.reset()
        seed_rows = sum(len(rows) for rows in session.dump().values())
    finally:
        session.close()
    turns = [len(t.turns) for t in tasks]
    calls = [len(turn.agent_calls) for t in tasks for turn in t.turns]
    return EnvCard(
        key=spec.key,
        name=spec.name,
        version=spec.version,
        domain=spec.domain,
        product=spec.product,
        content_hash=environment_content_hash(spec.folder),
        tools=len(spec.tools),
        user_tools=sum(t.user_only for t in spec.tools.values()),
        tasks=len(tasks),
        writing_tasks=sum(t.changes_state(spec) for t in tasks),
        sampled_tasks=sum(t.provenance.get("method") == "sampled-chain" for t in tasks),
        mean_turns=round(statistics.fmean(turns), 3) if turns else 0.0,
        mean_calls_per_turn=round(statistics.fmean(calls), 3) if calls else 0.0,
        seed_rows=seed_rows,
        task_ids=tuple(sorted(t.id for t in tasks)),
    )


def read_index(root: Path) -> dict[str, EnvCard]:
    """The cards of every environment under `root` by key; empty when the root has no index yet."""
    path = root / INDEX_FILE
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text())
        return {key: EnvCard.from_json(key, entry) for key, entry in sorted(data["environments"].items())}
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: broken environment index ({exc}); rebuild it with `envfactory index`") from None


def write_index(root: Path, cards: list[EnvCard]) -> Path:
    """Write the index of `root` (sorted, one entry per environment)."""
    path = root / INDEX_FILE
    entries = {card.key: card.to_json() for card in sorted(cards, key=lambda c: c.key)}
    path.write_text(json.dumps({"environments": entries}, indent=1, ensure_ascii=False) + "\n")
    return path
