"""The criteria runner (parent side): checks a draft against the four criteria without ever importing its code here
— the candidate runs in the sandbox (`envfactory_gym.sandbox`) — and writes the structured error report. The
worker's answer is data parsed against `HarnessAnswer`; whether the run counts is decided here from what the
parent saw (violations it logged, how the worker ended), never from a status the worker sent."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from envfactory_gym.sandbox import Limits, Sandbox, SandboxResult
from envfactory_gym.sandbox.runner import DEFAULT_PRELOAD

from .interface import check_metadata
from .layout import FILE_COMPONENTS, env_files
from .models import Component, Draft, ErrorReport, Finding

ENTRY = "synth.envgen.harness:check_candidate"


class HarnessAnswer(BaseModel):
    """The harness's findings and counts, as the parent accepts them (anything else fails the run as `invalid`)."""

    model_config = ConfigDict(extra="forbid")
    findings: list[Finding]
    stats: dict[str, int]


def envgen_sandbox(limits: Limits = Limits()) -> Sandbox:
    """The sandbox EnvGen checks drafts in: the runtime and `synth` readable, the harness preloaded."""
    return Sandbox(limits, packages=("synth",), preload=(*DEFAULT_PRELOAD, "synth.envgen.harness"))
CANDIDATE = "candidate/env"
PACKAGE = "envgen_candidate"
_TEST_MARK = re.compile(r"^unit test (?P<test>\S+) \((?P<tool>\w+)\)$")


def _blame(where: str, during: str) -> tuple[Component, str | None, str | None]:
    """Component, tool and test to blame for a sandbox event, from the generated file and the progress mark."""
    filename = Path(where.rsplit(":", 1)[0]).name if where else ""
    test = _TEST_MARK.match(during or "")
    component: Component = FILE_COMPONENTS.get(filename, "tool code")
    return component, test.group("tool") if test else None, test.group("test") if test else None


def sandbox_findings(result: SandboxResult) -> list[Finding]:
    """Findings for a run the sandbox stopped or refused (criterion 2: the code must execute, harmlessly)."""
    findings = []
    for violation in result.violations:
        component, tool, test = _blame(violation.get("where", ""), violation.get("during", ""))
        where = f" at {violation['where']}" if violation.get("where") else ""
        findings.append(Finding(criterion=2, component=component, check="sandbox", tool=tool, test=test,
                                message=f"blocked: {violation['message']}{where} (during {violation['during']})"))
    if result.status not in ("ok", "violation") or not result.sandboxed:
        component, tool, test = _blame("", result.last_mark)
        detail = result.stderr.strip().splitlines()[-3:] if result.status in ("error", "crashed") else []
        findings.append(Finding(criterion=2, component=component, check="sandbox", tool=tool, test=test,
                                message=" | ".join([f"{result.status}: {result.reason}", *detail])))
    return findings


def candidate_payload(draft: Draft) -> dict[str, Any]:
    """What the sandboxed harness receives."""
    return {"folder": CANDIDATE, "package": PACKAGE, "metadata": draft.metadata.model_dump(),
            "unit_tests": [t.model_dump() for t in draft.unit_tests]}


def check_draft(draft: Draft, iteration: int, sandbox: Sandbox, taken_keys: set[str]) -> ErrorReport:
    """Run every check on a draft: the blueprint here, everything that executes generated code in the sandbox."""
    findings = check_metadata(draft.metadata, taken_keys)
    files = {f"{CANDIDATE}/{path}": text for path, text in env_files(draft, {"method": "envgen"}).items()}
    result = sandbox.run(ENTRY, candidate_payload(draft), files, schema=HarnessAnswer)
    stats: dict[str, Any] = {}
    if result.ok:
        findings += result.value.findings
        stats = result.value.stats
    findings += sandbox_findings(result)
    sandbox_info = {"status": result.status, "reason": result.reason, "wall_s": result.wall_s, "cpu_s": result.cpu_s,
                    "isolation": result.isolation, "sandboxed": result.sandboxed}
    return ErrorReport(iteration=iteration, findings=findings, stats=stats, sandbox=sandbox_info)
