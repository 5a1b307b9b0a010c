"""Runs inside the sandbox: import a candidate environment and check it against the four criteria — the interface
against `m`, the test agent's unit tests, and the shared verifier (`envfactory_gym.verify.verify_environment`)."""

from __future__ import annotations

import os
import re
import traceback
from pathlib import Path
from typing import Any

from envfactory_gym import verify
from envfactory_gym.spec import EnvironmentSpec, load_environment_from_folder
from envfactory_gym.sandbox import SandboxViolation, mark

from .interface import compare_interface
from .layout import FILE_COMPONENTS
from .models import Component, EnvMetadata, Finding, UnitTest
from .unit_tests import run_unit_test, validate_test

#: The verifier's checks, by criterion.
VERIFIER_CRITERIA = {"metadata": 1, "interface": 1, "snapshot": 2, "tasks": 2, "ground truth": 2, "check_env": 2,
                     "output schema": 3, "state change": 4, "reward": 4}
#: The verifier's components in EnvGen's words (the test agent writes the tasks).
VERIFIER_COMPONENTS: dict[str, Component] = {"metadata": "metadata", "schema": "schema", "tool code": "tool code",
                                             "tasks": "test"}


def mentioned_tool(message: str, spec: EnvironmentSpec) -> str | None:
    """The first tool of the environment that a message names."""
    hits = [(m.start(), name) for name in spec.tools if (m := re.search(rf"\b{re.escape(name)}\b", message))]
    return min(hits)[1] if hits else None


def from_verifier(finding: verify.Finding, spec: EnvironmentSpec) -> Finding:
    """A verifier finding as an EnvGen finding (criterion, component, tool)."""
    component = VERIFIER_COMPONENTS[finding.component]
    if finding.check == "ground truth" and re.search(r"invalid arguments for|unknown tool|can only be performed",
                                                     finding.message):
        component = "test"  # the task calls the interface wrongly; the code matches m (criterion 1 checks that)
    return Finding(criterion=VERIFIER_CRITERIA.get(finding.check, 2), component=component,
                   check=f"verifier {finding.check}", message=finding.message,
                   tool=mentioned_tool(finding.message, spec))


def import_failure(exc: BaseException, folder: Path) -> Finding:
    """An import error, blamed on the generated file where it happened (with the line)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).parent == folder]
    filename, line, code = (Path(frames[-1].filename).name, frames[-1].lineno, frames[-1].line) if frames else \
        (None, None, None)
    if isinstance(exc, SyntaxError) and exc.filename:
        filename, line, code = Path(exc.filename).name, exc.lineno, (exc.text or "").strip()
    where = f" ({filename} line {line}: {code})" if filename else ""
    return Finding(criterion=2, component=FILE_COMPONENTS.get(filename or "", "tool code"), check="import",
                   message=f"{type(exc).__name__}: {exc}{where}")


def check_candidate(payload: dict[str, Any]) -> dict[str, Any]:
    """The sandbox entry: `payload` has `folder` (relative to the scratch folder), `package`, `metadata` (m) and
    `unit_tests`. Returns the findings and counts as JSON-ready data."""
    folder = Path(payload["folder"]).resolve()
    m = EnvMetadata.model_validate(payload["metadata"])
    tests = [UnitTest.model_validate(t) for t in payload["unit_tests"]]
    stats: dict[str, Any] = {"unit_tests": len(tests), "unit_tests_run": 0, "unit_tests_failed": 0}
    mark("import environment")
    try:
        spec = load_environment_from_folder(folder, payload["package"])
    except SandboxViolation:
        raise  # the sandbox reports it, with the file and line
    except Exception as exc:  # the generated code does not import: report it, do not crash the check
        return {"findings": [_relative(import_failure(exc, folder)).model_dump()], "stats": stats}
    stats["tools"] = len(spec.tools)
    mark("interface")
    findings = compare_interface(m, spec)
    for test in tests:
        problems = validate_test(test, m, spec)
        if problems or any(name not in spec.tools for name in [test.tool, *(c.name for c in test.setup)]):
            findings += problems  # an unimplemented tool is already an interface finding
            continue
        mark(f"unit test {test.name} ({test.tool})")
        failed = run_unit_test(spec, test)
        stats["unit_tests_run"] += 1
        stats["unit_tests_failed"] += bool(failed)
        findings += failed
    mark("verifier")
    report = verify.verify_environment(spec)
    stats["tasks_checked"] = report.tasks_checked
    findings += [from_verifier(f, spec) for f in report.findings]
    return {"findings": [_relative(f).model_dump() for f in findings], "stats": stats}


def _relative(finding: Finding) -> Finding:
    """The finding with scratch-folder paths made relative (reports, and the prompts made of them, stay stable)."""
    return finding.model_copy(update={"message": finding.message.replace(f"{Path.cwd()}{os.sep}", "")})
