"""The criteria runner: checks a draft against the four criteria and writes the structured error report.

The candidate's code runs only in a sandboxed worker (`envfactory_gym.sandbox`); every check runs here. The worker
describes the candidate (parsed against `Description`) and executes the tool calls the checks make, through an
isolated spec (`envfactory_gym.adapters.isolation`): the interface comparison, the unit tests (whose expectations
never leave this process) and the shared verifier with its replays, rewards and `check_env` all compute their
verdicts here from data. A call the sandbox stopped or refused becomes a criterion-2 finding blamed on the phase
that made it, and ends the check."""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict

from envfactory_gym import verify
from envfactory_gym.adapters.isolation import SandboxedEnvironment, isolated_spec
from envfactory_gym.sandbox import Limits, Sandbox, SandboxResult
from envfactory_gym.sandbox.runner import DEFAULT_PRELOAD
from envfactory_gym.spec import EnvironmentSpec

from .interface import check_metadata, compare_interface
from .layout import FILE_COMPONENTS, env_files
from .models import Component, Draft, ErrorReport, Finding
from .unit_tests import run_unit_test, validate_test

DESCRIBE = "envfactory_synth.envgen.harness:describe_candidate"
CANDIDATE = "candidate/env"
PACKAGE = "envgen_candidate"
_TEST_MARK = re.compile(r"^unit test (?P<test>\S+) \((?P<tool>\w+)\)$")
#: The verifier's checks, by criterion.
VERIFIER_CRITERIA = {
    "metadata": 1,
    "interface": 1,
    "snapshot": 2,
    "tasks": 2,
    "ground truth": 2,
    "check_env": 2,
    "output schema": 3,
    "state change": 4,
    "reward": 4,
}
#: The verifier's components in EnvGen's words (the test agent writes the tasks).
VERIFIER_COMPONENTS: dict[str, Component] = {
    "metadata": "metadata",
    "schema": "schema",
    "tool code": "tool code",
    "tasks": "test",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolDescription(_Strict):
    """One tool as the worker describes it."""

    name: str
    description: str
    parameters: dict[str, Any]
    read_only: bool
    user_only: bool
    output_schema: Optional[dict[str, Any]]


class TableDescription(_Strict):
    """One table: its columns and primary key."""

    columns: list[str]
    primary_key: list[str]


class EnvironmentDescription(_Strict):
    """What the worker reports of the imported candidate."""

    description: str
    product: str
    files: dict[str, str]
    tables: dict[str, TableDescription]
    tools: list[ToolDescription]
    checklist: Literal[False]
    notes: dict[str, Any]


class Description(_Strict):
    """The worker's answer: the candidate, or why it does not import."""

    environment: Optional[EnvironmentDescription] = None
    import_error: Optional[Finding] = None


def envgen_sandbox(limits: Limits = Limits()) -> Sandbox:
    """The sandbox EnvGen checks drafts in: the runtime and `synth` readable, the describing harness preloaded."""
    return Sandbox(
        limits,
        packages=("envfactory_synth",),
        preload=(*DEFAULT_PRELOAD, "envfactory_gym.adapters.isolation", "envfactory_synth.envgen.harness"),
    )


def _blame(where: str, during: str) -> tuple[Component, str | None, str | None]:
    """Component, tool and test to blame for a sandbox event, from the generated file and the phase."""
    filename = Path(where.rsplit(":", 1)[0]).name if where else ""
    test = _TEST_MARK.match(during or "")
    component: Component = FILE_COMPONENTS.get(filename, "tool code")
    return component, test.group("tool") if test else None, test.group("test") if test else None


def sandbox_findings(result: SandboxResult, during: str) -> list[Finding]:
    """Findings for a call the sandbox stopped or refused (criterion 2: the code must execute, harmlessly)."""
    findings = []
    for violation in result.violations:
        component, tool, test = _blame(violation.get("where", ""), during)
        where = f" at {violation['where']}" if violation.get("where") else ""
        findings.append(
            Finding(
                criterion=2,
                component=component,
                check="sandbox",
                tool=tool,
                test=test,
                message=f"blocked: {violation['message']}{where} (during {during})",
            )
        )
    if result.status not in ("ok", "violation"):
        component, tool, test = _blame("", during)
        detail = result.stderr.strip().splitlines()[-3:] if result.status in ("error", "crashed") else []
        findings.append(
            Finding(
                criterion=2,
                component=component,
                check="sandbox",
                tool=tool,
                test=test,
                message=" | ".join([f"{result.status}: {result.reason}", *detail]),
            )
        )
    return findings


def mentioned_tool(message: str, spec: EnvironmentSpec) -> str | None:
    """The first tool of the environment that a message names."""
    hits = [(m.start(), name) for name in spec.tools if (m := re.search(rf"\b{re.escape(name)}\b", message))]
    return min(hits)[1] if hits else None


def from_verifier(finding: verify.Finding, spec: EnvironmentSpec) -> Finding:
    """A verifier finding as an EnvGen finding (criterion, component, tool)."""
    component = VERIFIER_COMPONENTS[finding.component]
    if finding.check == "ground truth" and re.search(
        r"invalid arguments for|unknown tool|can only be performed", finding.message
    ):
        component = "test"  # the task calls the interface wrongly; the code matches m (criterion 1 checks that)
    return Finding(
        criterion=VERIFIER_CRITERIA.get(finding.check, 2),
        component=component,
        check=f"verifier {finding.check}",
        message=finding.message,
        tool=mentioned_tool(finding.message, spec),
    )


class _Run:
    """One check of a draft: the phases, what the sandbox stopped, and the counts."""

    def __init__(self, draft: Draft, environment: SandboxedEnvironment) -> None:
        self.draft, self.environment = draft, environment
        self.findings: list[Finding] = []
        self.stopped: SandboxResult | None = None
        self.stats: dict[str, Any] = {"unit_tests": len(draft.unit_tests), "unit_tests_run": 0, "unit_tests_failed": 0}

    def phase(self, during: str, findings: list[Finding]) -> bool:
        """Keep a phase's findings, unless the sandbox stopped one of its calls: then that is the finding (the rest
        are its consequences) and the check ends. True when the check goes on."""
        if self.environment.stops:
            self.stopped = self.environment.stops[0]
            self.findings += sandbox_findings(self.stopped, during)
            return False
        self.findings += findings
        return True

    def check(self, spec: EnvironmentSpec) -> None:
        m = self.draft.metadata
        self.stats["tools"] = len(spec.tools)
        if not self.phase("interface", compare_interface(m, spec)):
            return
        for test in self.draft.unit_tests:
            problems = validate_test(test, m, spec)
            if problems or any(name not in spec.tools for name in [test.tool, *(c.name for c in test.setup)]):
                self.findings += problems  # an unimplemented tool is already an interface finding
                continue
            failed = run_unit_test(spec, test)
            if not self.phase(f"unit test {test.name} ({test.tool})", failed):
                return
            self.stats["unit_tests_run"] += 1
            self.stats["unit_tests_failed"] += bool(failed)
        report = verify.verify_environment(spec)
        if self.phase("verifier", [from_verifier(f, spec) for f in report.findings]):
            self.stats["tasks_checked"] = report.tasks_checked


def check_draft(draft: Draft, iteration: int, sandbox: Sandbox, taken_keys: set[str]) -> ErrorReport:
    """Run every check on a draft: the blueprint here; the candidate imported and its tools executed in one
    sandboxed worker; every verdict here."""
    started = time.monotonic()
    m = draft.metadata
    findings = check_metadata(m, taken_keys)
    files = {f"{CANDIDATE}/{path}": text for path, text in env_files(draft, {"method": "envgen"}).items()}
    with sandbox.worker(files) as worker, tempfile.TemporaryDirectory(prefix="envgen-check-") as folder:
        environment = SandboxedEnvironment(worker, {"folder": CANDIDATE, "package": PACKAGE})
        run = _Run(draft, environment)
        described = worker.call(DESCRIBE, {"folder": CANDIDATE, "package": PACKAGE}, schema=Description)
        if not described.ok:
            environment.stops.append(described)
            run.phase("import environment", [])
        elif described.value.import_error is not None:
            run.findings.append(described.value.import_error)
        elif described.value.environment is None:
            environment.stops.append(SandboxResult(status="invalid", reason="the worker described nothing"))
            run.phase("import environment", [])
        else:
            description = described.value.environment.model_dump()
            description.update(description=m.description, product=m.product)
            spec = isolated_spec(
                environment,
                description,
                Path(folder),
                m.name,
                "envgen candidate (sandboxed)",
                domain=m.domain,
                docs_url=m.docs_url,
            )
            run.check(spec)
        last = run.stopped or described
        sandbox_info = {
            "status": run.stopped.status if run.stopped else described.status,
            "reason": last.reason,
            "wall_s": round(time.monotonic() - started, 3),
            "isolation": described.isolation,
            "sandboxed": described.sandboxed,
        }
    if not described.sandboxed:
        findings.append(
            Finding(
                criterion=2,
                component="tool code",
                check="sandbox",
                message="checked without kernel isolation (explicit opt-out): not a passing check",
            )
        )
    return ErrorReport(iteration=iteration, findings=findings + run.findings, stats=run.stats, sandbox=sandbox_info)
