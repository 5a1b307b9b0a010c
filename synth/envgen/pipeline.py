"""EnvGen end to end for one topic: propose, model, implement, test, then check and revise until every criterion
holds or the budget is spent; only a passing environment is written into the zoo."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from envfactory_gym.llm import ChatModel
from envfactory_gym.sandbox import Limits

from .coverage import Coverage, zoo_coverage
from .criteria import check_draft, envgen_sandbox
from .implementation import implement
from .layout import env_files, write_env
from .modeling import model_database
from .models import Draft, EnvGenError, EnvGenRecord
from .proposal import propose
from .revision import revise
from .sources import DocSource, gather
from .testing import write_tests

#: progress(stage, message): what the CLI shows while a run goes on.
Progress = Callable[[str, str], None]


@dataclass
class EnvGenConfig:
    """Knobs of one run."""

    budget: int = 3  # revision rounds after the first check
    documents: int = 3  # source documents shown to the search agent
    source_chars: int = 12_000  # characters of source text in the proposal prompt
    limits: Limits = field(default_factory=Limits)


def _usage_delta(before: dict, after: dict) -> dict[str, dict[str, int | float]]:
    """What this run added to the model's per-stage usage (the model may have served other runs), with a total."""
    delta = {}
    for stage, usage in after.items():
        old = asdict(before[stage]) if stage in before else {}
        row = {k: v - old.get(k, 0) for k, v in asdict(usage).items()}
        if row["calls"]:
            delta[stage] = row
    delta["total"] = {
        k: sum(r[k] for r in delta.values())
        for k in ("calls", "prompt_tokens", "completion_tokens", "retries", "failures", "latency_s")
    }
    return delta


class EnvGen:
    """One EnvGen run: the LLM, the sources, the zoo it adds to, and the folder where its record goes."""

    def __init__(
        self,
        llm: ChatModel,
        sources: list[DocSource],
        zoo_dir: Path,
        run_dir: Path,
        config: EnvGenConfig | None = None,
        coverage: Coverage | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.llm = llm
        self.sources = sources
        self.zoo_dir = Path(zoo_dir)
        self.run_dir = Path(run_dir)
        self.config = config or EnvGenConfig()
        self.coverage = coverage or zoo_coverage(self.zoo_dir)
        self.progress = progress or (lambda stage, message: None)
        self.sandbox = envgen_sandbox(self.config.limits)

    def draft(self, topic: str) -> Draft:
        """The first full draft: m, D, pi and the test agent's tests (four LLM stages)."""
        self.progress("propose", f"reading sources for {topic!r}")
        docs = gather(self.sources, topic, self.config.documents)
        m = propose(self.llm, topic, self.coverage, docs, self.config.source_chars)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "m.json").write_text(json.dumps(m.model_dump(), indent=1, ensure_ascii=False) + "\n")
        self.progress("propose", f"{m.name} ({m.domain}, {len(m.tools)} tools) from {m.source or 'no source'}")
        self.progress("model", "schema.py and seed snapshot")
        schema_py, seed = model_database(self.llm, m)
        rows = sum(len(r) for r in seed.get("tables", {}).values())
        self.progress("model", f"{len(seed.get('tables', {}))} tables, {rows} seed rows")
        self.progress("implement", "tools.py")
        tools_py = implement(self.llm, m, schema_py, seed)
        self.progress("implement", f"{tools_py.count('@tool(')} tools written")
        self.progress("test", "unit tests and tasks")
        tests, tasks = write_tests(self.llm, m, schema_py, seed)
        self.progress("test", f"{len(tests)} unit tests, {len(tasks)} tasks")
        return Draft(metadata=m, schema_py=schema_py, seed=seed, tools_py=tools_py, unit_tests=tests, tasks=tasks)

    def refine(self, draft: Draft, record: EnvGenRecord) -> Draft | None:
        """The revision loop: check, report, revise the blamed components; the passing draft, or None."""
        taken = self.coverage.keys
        for iteration in range(self.config.budget + 1):
            self.progress(f"check {iteration}", "four criteria in the sandbox")
            report = check_draft(draft, iteration, self.sandbox, taken)
            record.reports.append(report)
            record.iterations = iteration + 1
            if report.passed:
                self.progress(f"check {iteration}", "all criteria pass")
                return draft
            self.progress(
                f"check {iteration}", f"{len(report.findings)} findings blame {', '.join(report.components())}"
            )
            if iteration == self.config.budget:
                break
            revised = []
            for component in report.components():
                self.progress(f"revise {iteration}", ", ".join([*revised, component]))
                try:
                    draft = revise(self.llm, draft, report, component, taken)
                    revised.append(component)
                except EnvGenError as exc:
                    self.progress(f"revise {iteration}", f"{component}: unusable answer ({exc.reason})")
            record.revised.append(revised)
            record.revisions += 1
        return None

    def run(self, topic: str) -> EnvGenRecord:
        """Synthesize one environment for `topic`; writes it to the zoo only if it passes. Returns the record
        (also saved as `record.json` in the run folder, with the last draft under `draft/`)."""
        started = time.perf_counter()
        usage_before = self.llm.usage.stages()  # type: ignore[attr-defined]
        record = EnvGenRecord(topic=topic, budget=self.config.budget)
        draft = None
        try:
            draft = self.draft(topic)
            record.key, record.name = draft.metadata.key, draft.metadata.name
            passed = self.refine(draft, record)
            if passed is None:
                record.status, record.reason = "budget_exhausted", "findings remain after the last revision"
            else:
                draft = passed
                provenance = {
                    "method": "envgen",
                    "topic": topic,
                    "source": draft.metadata.source,
                    "iterations": record.iterations,
                }
                record.output = str(write_env(draft, self.zoo_dir, provenance))
                record.key, record.name, record.status = draft.metadata.key, draft.metadata.name, "passed"
                self.progress("emit", record.output)
        except EnvGenError as exc:
            record.status, record.reason = "failed", str(exc)
        record.seconds = round(time.perf_counter() - started, 2)
        record.usage = _usage_delta(usage_before, self.llm.usage.stages())  # type: ignore[attr-defined]
        self._save(record, draft)
        return record

    def _save(self, record: EnvGenRecord, draft: Draft | None) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "record.json").write_text(record.model_dump_json(indent=1) + "\n")
        if draft is not None:
            for relative, text in env_files(draft, {"method": "envgen", "status": record.status}).items():
                target = self.run_dir / "draft" / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
            tests = [t.model_dump(exclude_defaults=True) for t in draft.unit_tests]
            (self.run_dir / "draft" / "unit_tests.json").write_text(json.dumps(tests, indent=1) + "\n")
