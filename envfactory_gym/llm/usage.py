"""Token accounting per pipeline stage (prompt/completion tokens, calls, retries, latency), shown like the paper's
Table 4."""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass

from rich.table import Table


@dataclass
class StageUsage:
    """Totals of one stage."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    failures: int = 0
    latency_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class UsageTracker:
    """Thread-safe per-stage totals; every chat model of the project owns one (`model.usage`)."""

    def __init__(self) -> None:
        self._stages: dict[str, StageUsage] = {}
        self._lock = threading.Lock()

    def _stage(self, stage: str) -> StageUsage:
        return self._stages.setdefault(stage, StageUsage())

    def record(self, stage: str, prompt_tokens: int, completion_tokens: int, latency_s: float) -> None:
        """Count one successful call."""
        with self._lock:
            usage = self._stage(stage)
            usage.calls += 1
            usage.prompt_tokens += prompt_tokens
            usage.completion_tokens += completion_tokens
            usage.latency_s += latency_s

    def record_retry(self, stage: str) -> None:
        """Count one retried attempt (429, 5xx, timeout, invalid JSON)."""
        with self._lock:
            self._stage(stage).retries += 1

    def record_failure(self, stage: str) -> None:
        """Count one call that failed for good."""
        with self._lock:
            self._stage(stage).failures += 1

    def stages(self) -> dict[str, StageUsage]:
        """A copy of the per-stage totals, by stage name."""
        with self._lock:
            return {name: StageUsage(**asdict(u)) for name, u in sorted(self._stages.items())}

    def total(self) -> StageUsage:
        """Totals over every stage."""
        total = StageUsage()
        for usage in self.stages().values():
            for key, value in asdict(usage).items():
                setattr(total, key, getattr(total, key) + value)
        return total

    def as_dict(self) -> dict[str, dict[str, float]]:
        """Per-stage totals plus a `total` row, JSON-ready."""
        rows = {name: asdict(u) for name, u in self.stages().items()}
        rows["total"] = asdict(self.total())
        return rows

    def table(self, model: str = "", per: int = 0, unit: str = "item") -> Table:
        """A rich table: one row per stage and a total; with `per` > 0, token and time columns are per `unit`
        (e.g. per synthesized task, as in the paper's Table 4)."""
        scale = 1 / per if per > 0 else 1.0
        suffix = f" / {unit}" if per > 0 else ""
        table = Table(title=f"LLM usage{f' ({model})' if model else ''}")
        for column in (
            "stage",
            "calls",
            f"prompt tokens{suffix}",
            f"completion tokens{suffix}",
            f"time{suffix}",
            "retries",
            "failures",
        ):
            table.add_column(column, justify="left" if column == "stage" else "right", no_wrap=column == "stage")
        rows = list(self.stages().items()) + [("total", self.total())]
        for name, usage in rows:
            table.add_row(
                name,
                str(usage.calls),
                _tokens(usage.prompt_tokens * scale),
                _tokens(usage.completion_tokens * scale),
                f"{usage.latency_s * scale:.1f} s",
                str(usage.retries),
                str(usage.failures),
            )
        return table


def _tokens(count: float) -> str:
    return f"{count / 1000:.1f}K" if count >= 1000 else f"{count:.0f}"
