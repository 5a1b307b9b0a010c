"""Coverage of the environment pool by domain: what exists, and the domains a new environment should fill."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from envfactory_gym import registry
from envfactory_gym.verify import DOMAINS


@dataclass(frozen=True)
class ZooEntry:
    """One existing environment, as its metadata.json describes it."""

    key: str
    name: str
    domain: str
    product: str


@dataclass(frozen=True)
class Coverage:
    """The current pool and its domain counts."""

    entries: tuple[ZooEntry, ...]

    def by_domain(self) -> dict[str, int]:
        """Environments per domain, every domain listed (zero included), sorted by name."""
        counts = Counter(e.domain for e in self.entries)
        return {domain: counts.get(domain, 0) for domain in sorted(DOMAINS)}

    def gaps(self) -> list[str]:
        """Domains with the fewest environments (the coverage gaps), alphabetical."""
        counts = self.by_domain()
        least = min(counts.values())
        return [d for d, n in counts.items() if n == least]

    @property
    def keys(self) -> set[str]:
        """Keys already taken."""
        return {e.key for e in self.entries}

    def render(self) -> str:
        """The pool as text for a prompt: one line per domain with its products."""
        lines = []
        for domain, count in self.by_domain().items():
            products = ", ".join(f"{e.product} ({e.key})" for e in self.entries if e.domain == domain) or "none"
            lines.append(f"- {domain}: {count} -- {products}")
        return "\n".join(lines)


def _entry(key: str, meta: dict) -> ZooEntry:
    return ZooEntry(key, meta.get("name", key), meta.get("domain", ""), meta.get("product", ""))


def zoo_coverage(folder: Path | None = None) -> Coverage:
    """Coverage of the installed zoo (through `envfactory_gym.registry`), or of another zoo folder."""
    if folder is None or Path(folder).resolve() == registry.zoo_root().resolve():
        return Coverage(tuple(_entry(k, registry.zoo_metadata(k)) for k in registry.zoo_keys()))
    entries = [
        _entry(p.name, json.loads((p / "metadata.json").read_text()))
        for p in sorted(Path(folder).iterdir())
        if (p / "metadata.json").is_file()
    ]
    return Coverage(tuple(entries))
