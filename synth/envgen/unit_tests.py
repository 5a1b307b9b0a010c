"""Criteria (3) and (4) from the test agent's unit tests: each test runs on a fresh session of the seed snapshot;
its output must contain the expected values and the database must make exactly the expected transition."""

from __future__ import annotations

from typing import Any

from envfactory_gym.execution import ToolOutcome
from envfactory_gym.session import DEFAULT_SNAPSHOT, ToolSession
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.state import CanonicalState

from .models import EnvMetadata, Finding, StateChange, UnitTest

#: Error kinds that mean the call itself was malformed (the test's fault when the code matches `m`).
_REQUEST_ERRORS = {"invalid_arguments", "unknown_tool", "user_only"}


def validate_test(test: UnitTest, m: EnvMetadata, spec: EnvironmentSpec) -> list[Finding]:
    """Problems of the test itself: tools or parameters the blueprint does not have, unknown tables or columns."""
    problems = []
    calls = [(c.name, c.arguments, False) for c in test.setup] + [(test.tool, test.arguments, True)]
    for name, arguments, main in calls:
        sketch = m.tool(name)
        if sketch is None:
            problems.append(f"calls {name!r}, which is not in the metadata")
            continue
        unknown = [a for a in arguments if a not in sketch.properties]
        if unknown:
            problems.append(f"passes {unknown} to {name}, which the metadata does not define")
        missing = [a for a in sketch.required if a not in arguments]
        if missing and not (main and test.expect_error == "invalid_arguments"):
            problems.append(f"omits the required parameters {missing} of {name}")
    change = test.expect_state or StateChange()
    for table, rows in {**change.created, **change.updated}.items():
        if table not in spec.schema.tables:
            problems.append(f"expects changes in table {table!r}, which the schema does not have")
            continue
        columns = set(spec.schema.tables[table].columns.keys())
        row_list = rows if isinstance(rows, list) else list(rows.values())
        for row in row_list:
            unknown = sorted(set(row) - columns)
            if unknown:
                problems.append(f"expects columns {unknown} in {table!r}, which the schema does not have")
    for table in change.deleted:
        if table not in spec.schema.tables:
            problems.append(f"expects deletions in table {table!r}, which the schema does not have")
    return [
        Finding(criterion=3, component="test", check="unit test", message=p, tool=test.tool, test=test.name)
        for p in problems
    ]


def subset_mismatch(expected: Any, actual: Any, path: str = "output") -> str | None:
    """Where `actual` does not contain `expected` (dict keys recursively, lists item by item), or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {_short(actual)}"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            found = subset_mismatch(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {len(expected)} items, got {_short(actual)}"
        for index, (want, have) in enumerate(zip(expected, actual)):
            found = subset_mismatch(want, have, f"{path}[{index}]")
            if found:
                return found
        return None
    if expected != actual and not (
        isinstance(expected, float) and isinstance(actual, (int, float)) and abs(expected - actual) < 1e-9
    ):
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def transition_problems(expected: StateChange, before: CanonicalState, after: CanonicalState) -> list[str]:
    """How the actual transition before -> after differs from the expected one."""
    problems = []
    for table in sorted(set(before) | set(after)):
        old, new = before.get(table, {}), after.get(table, {})
        created = {k: new[k] for k in new if k not in old}
        deleted = sorted(k for k in old if k not in new)
        updated = {k: new[k] for k in new if k in old and new[k] != old[k]}
        for row in expected.created.get(table, []):
            match = next((k for k, r in created.items() if subset_mismatch(row, r) is None), None)
            if match is None and created:  # compare with the first unclaimed new row
                match = next(iter(created))
                problems.append(str(subset_mismatch(row, created[match], f"{table}[{match!r}] (new row)")))
            if match is None:
                problems.append(f"{table}: no new row, expected one with {_short(row)}")
            else:
                del created[match]
        problems += [f"{table}[{k!r}]: created but not expected" for k in created]
        for key, columns in expected.updated.get(table, {}).items():
            if key not in new:
                problems.append(f"{table}[{key!r}]: expected to exist after the call")
                continue
            mismatch = subset_mismatch(columns, new[key], f"{table}[{key!r}]")
            if mismatch:
                problems.append(mismatch)
            updated.pop(key, None)
        for key, row in updated.items():
            changed = sorted(c for c in row if row[c] != old[key].get(c))
            problems.append(f"{table}[{key!r}]: columns {changed} changed but no change was expected")
        expected_deleted = set(expected.deleted.get(table, []))
        problems += [f"{table}[{k!r}]: expected to be deleted" for k in sorted(expected_deleted - set(deleted))]
        problems += [f"{table}[{k!r}]: deleted but not expected" for k in deleted if k not in expected_deleted]
    return problems


def _outcome_finding(test: UnitTest, outcome: ToolOutcome, stage: str) -> Finding:
    kind = outcome.error_kind or ""
    component = "test" if kind in _REQUEST_ERRORS else "tool code"
    criterion = 2 if kind == "internal" else 3
    return Finding(
        criterion=criterion,
        component=component,
        check="unit test",
        tool=outcome.name,
        test=test.name,
        message=f"{stage} {outcome.name}({_short(outcome.arguments)}) failed: Error: {outcome.error}",
    )


def run_unit_test(spec: EnvironmentSpec, test: UnitTest) -> list[Finding]:
    """Run one test on a fresh session of the seed; returns its findings (none when it passes)."""
    session = ToolSession(spec)
    try:
        session.reset(DEFAULT_SNAPSHOT)
        for call in test.setup:
            outcome = session.call(call.name, call.arguments)
            if not outcome.ok:
                return [_outcome_finding(test, outcome, "setup call")]
        before = session.dump()
        outcome = session.call(test.tool, test.arguments)
        after = session.dump()
    finally:
        session.close()
    findings = []

    def add(criterion: int, message: str) -> None:
        findings.append(
            Finding(
                criterion=criterion,
                component="tool code",
                check="unit test",
                message=message,
                tool=test.tool,
                test=test.name,
            )
        )

    if test.expect_error:
        if outcome.ok:
            add(3, f"expected a {test.expect_error} error, but the call succeeded with {_short(outcome.output)}")
        elif outcome.error_kind != test.expect_error:
            if outcome.error_kind in _REQUEST_ERRORS or outcome.error_kind == "internal":
                return [_outcome_finding(test, outcome, "call")]
            add(3, f"expected a {test.expect_error} error, got Error: {outcome.error}")
    elif not outcome.ok:
        return [_outcome_finding(test, outcome, "call")]
    elif test.expect_output is not None:
        mismatch = subset_mismatch(test.expect_output, outcome.output)
        if mismatch:
            add(3, mismatch)
    expected_change = (
        test.expect_state
        if test.expect_state is not None
        else (StateChange() if test.expect_error or spec.tools[test.tool].read_only else None)
    )
    if expected_change is not None:
        for problem in transition_problems(expected_change, before, after):
            add(4, problem)
    return findings
