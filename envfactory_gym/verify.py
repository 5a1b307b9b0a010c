"""The environment verifier: the gate every zoo environment, hand-written or synthesized, must pass.

It checks EnvGen's four criteria where they can be checked without an LLM: (1) the interface matches the
metadata (descriptions, documented parameters, derivable schemas); (2) the snapshot loads and every tool call of
the ground truth imports and executes; (3) outputs conform to their declared schemas; (4) the database moves to
the expected state (ground truth replays to reward 1.0 through the Env, writes change the state). Each failure
names the faulty component: metadata, schema, tool code or tasks.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Literal

from gymnasium.utils.env_checker import check_env

from .agents import ReferenceAgent, run_episode
from .delta import StateDelta
from .env import ToolUseEnv
from .index import DOMAINS
from .session import DEFAULT_SNAPSHOT, ToolSession
from .spec import EnvironmentSpec
from .state import CanonicalState
from .tasks import Task, load_tasks, replay, vary_masked

Component = Literal["metadata", "schema", "tool code", "tasks"]
REQUIRED_METADATA = ("name", "domain", "description", "product", "docs_url")


@dataclass(frozen=True)
class Finding:
    """One failed check and the component to blame."""

    component: Component
    check: str
    message: str


@dataclass
class VerificationReport:
    """All findings for one environment; it passes when there are none."""

    env: str
    findings: list[Finding] = field(default_factory=list)
    tasks_checked: int = 0

    @property
    def passed(self) -> bool:
        """No finding."""
        return not self.findings

    def add(self, component: Component, check: str, message: str) -> None:
        """Record a failed check."""
        self.findings.append(Finding(component, check, message))


def check_interface(spec: EnvironmentSpec, report: VerificationReport) -> None:
    """Criterion (1): metadata complete, every tool and parameter described, schemas derivable."""
    for key in REQUIRED_METADATA:
        if not getattr(spec, key):
            report.add("metadata", "metadata", f"metadata field {key!r} is empty")
    if spec.domain not in DOMAINS:
        report.add("metadata", "metadata", f"domain {spec.domain!r} is not one of {sorted(DOMAINS)}")
    if not spec.docs_url.startswith("http"):
        report.add("metadata", "metadata", "docs_url must link the product's public API docs")
    if not any(t.read_only for t in spec.agent_tools) or all(t.read_only for t in spec.agent_tools):
        report.add("tool code", "interface", "an environment needs both read and write agent tools")
    for tool in spec.tools.values():
        if not tool.description:
            report.add("tool code", "interface", f"{tool.name}: no description (docstring)")
        for name, info in tool.input_model.model_fields.items():
            if not info.description:
                report.add("tool code", "interface", f"{tool.name}: parameter {name!r} is not documented")
        try:
            tool.input_schema, tool.output_schema  # noqa: B018 - derived for the exceptions they may raise
        except Exception as exc:  # schema derivation failures are reported, not raised
            report.add("tool code", "interface", f"{tool.name}: schema cannot be derived: {exc}")
    for table in spec.schema.sorted_tables:
        if not table.primary_key.columns:
            report.add("schema", "schema", f"table {table.name} has no primary key")


def check_execution(spec: EnvironmentSpec, report: VerificationReport) -> None:
    """Criteria (2) and (3): the snapshot loads; ground truth executes; outputs match their schemas."""
    session = ToolSession(spec)
    try:
        session.reset(DEFAULT_SNAPSHOT)
    except Exception as exc:
        report.add("schema", "snapshot", f"the seed snapshot does not load: {exc}")
        return
    finally:
        session.close()
    try:
        tasks = load_tasks(spec)
    except Exception as exc:
        report.add("tasks", "tasks", f"tasks do not load: {exc}")
        return
    if not tasks:
        report.add("tasks", "tasks", "the environment has no tasks")
    for task in tasks.values():
        result = replay(spec, task)
        for outcome in result.failures:
            report.add("tool code", "ground truth", f"{task.id}: {outcome.name} failed: {outcome.error}")
        for turn in result.outcomes:
            for outcome in turn:
                if outcome.ok:
                    try:
                        spec.tools[outcome.name].output_adapter.validate_python(outcome.output)
                    except Exception as exc:
                        report.add("tool code", "output schema", f"{task.id}: {outcome.name} output: {exc}")
        if task.changes_state(spec) and result.initial == result.final:
            report.add("tasks", "state change", f"{task.id}: has write calls but the final state equals the initial")
        elif not result.failures:
            check_masks(spec, task, result.final, report)


def check_masks(
    spec: EnvironmentSpec, task: Task, expected: CanonicalState | StateDelta, report: VerificationReport
) -> None:
    """A masked argument of a write must not matter: other valid values keep every call working and the final state."""
    for t_index, turn in enumerate(task.turns):
        for c_index, call in enumerate(turn.calls):
            if spec.tools[call.name].read_only or not call.masked:
                continue
            varied = task.model_copy(deep=True)
            varied.turns[t_index].calls[c_index] = vary_masked(spec, call)
            result = replay(spec, varied)
            if result.failures or result.final != expected:
                report.add("tasks", "masks", f"{task.id}: masked {call.masked} of {call.name} change the outcome")


def check_episodes(spec: EnvironmentSpec, report: VerificationReport) -> None:
    """Criterion (4) through the Env: ground truth scores exactly 1.0; gymnasium's check_env passes."""
    env = ToolUseEnv(spec)
    try:
        for task_id in env.task_ids:
            result = run_episode(env, ReferenceAgent(), seed=0, task_id=task_id)
            report.tasks_checked += 1
            if result["reward"] != 1.0:
                report.add(
                    "tasks",
                    "reward",
                    f"{task_id}: ground truth scores {result['reward']:.3f}, not 1.0 ({result['components']})",
                )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(env, skip_render_check=True)
    except Exception as exc:
        report.add("tool code", "check_env", f"{type(exc).__name__}: {exc}")
    finally:
        env.close()


def verify_environment(spec: EnvironmentSpec) -> VerificationReport:
    """Run every check on one environment (an imported one gets the checks that apply to it:
    adapters/verify.py)."""
    if spec.extra.get("source"):
        from .adapters.verify import verify_external  # imported late: adapters build on the whole runtime

        return verify_external(spec)
    report = VerificationReport(spec.name)
    check_interface(spec, report)
    check_execution(spec, report)
    if report.passed:
        check_episodes(spec, report)
    return report
