"""`envfactory verify` of an imported environment: the checks that apply to another project's environment.

The zoo's content rules (product metadata, a docs link, both reads and writes, a description for every parameter)
are for environments written here; an imported one is checked for what makes it usable: schemas derive, the start
state loads, every task's ground truth replays as it does in the original (failing calls fail the same way), the
task's own checks pass on the ground truth's final state, the ground truth scores exactly 1.0 through the Env with
the reward and step budget it was registered with, and gymnasium's `check_env` passes.
"""

from __future__ import annotations

import warnings

from gymnasium.utils.env_checker import check_env

from ..agents import ReferenceAgent, run_episode
from ..env import ToolUseEnv
from ..reward import checklist_score
from ..session import DEFAULT_SNAPSHOT, ToolSession
from ..spec import EnvironmentSpec
from ..tasks import load_tasks, replay
from ..verify import VerificationReport
from .catalog import env_kwargs


def is_external(spec: EnvironmentSpec) -> bool:
    """Whether an environment was imported from another project."""
    return bool(spec.extra.get("source"))


def verify_external(spec: EnvironmentSpec) -> VerificationReport:
    """Every check that applies to an imported environment (see the module docstring)."""
    report = VerificationReport(spec.name)
    for tool in spec.tools.values():
        try:
            tool.input_schema, tool.output_schema  # noqa: B018 - derived for the exceptions they may raise
        except Exception as exc:  # schema derivation failures are reported, not raised
            report.add("tool code", "interface", f"{tool.name}: schema cannot be derived: {exc}")
    session = ToolSession(spec)
    try:
        session.reset(DEFAULT_SNAPSHOT)
    except Exception as exc:
        report.add("schema", "snapshot", f"the start state does not load: {type(exc).__name__}: {exc}")
        return report
    finally:
        session.close()
    try:
        tasks = load_tasks(spec)
    except Exception as exc:
        report.add("tasks", "tasks", f"tasks do not load: {exc}")
        return report
    if not tasks:
        report.add("tasks", "tasks", "the environment has no tasks: only serve and play apply (gym.make needs tasks)")
        return report
    for task in tasks.values():
        result = replay(spec, task)
        expected = [c for turn in task.turns for c in turn.calls]
        for item, outcome in zip(expected, (o for turn in result.outcomes for o in turn)):
            if outcome.ok and item.expected_error is not None:
                report.add(
                    "tasks",
                    "ground truth",
                    f"{task.id}: {item.name} was recorded failing with {item.expected_error!r} but succeeds now",
                )
            elif not outcome.ok and outcome.error != item.expected_error:
                report.add("tool code", "ground truth", f"{task.id}: {item.name} failed: {outcome.error}")
        final = ToolSession(spec)
        try:
            final.reset(task.snapshot, task.clock)
            for turn in task.turns:
                for item in turn.calls:
                    final.call(item.name, item.arguments, caller=item.caller)
            checks = checklist_score(spec, task, final.state)
        finally:
            final.close()
        if checks is not None and checks < 1.0:
            report.add("tasks", "checks", f"{task.id}: the ground truth passes {checks:.0%} of the task's own checks")
    if report.passed:
        _check_episodes(spec, report)
    return report


def _check_episodes(spec: EnvironmentSpec, report: VerificationReport) -> None:
    env = ToolUseEnv(spec, **env_kwargs(spec.name))
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
