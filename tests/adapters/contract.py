"""The contract every adapter is held to: load, gymnasium check_env, ground truth scores 1.0, a wrong write scores
lower, and two instances never share state."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Callable

from gymnasium.utils.env_checker import check_env

from envfactory_gym import ToolUseEnv
from envfactory_gym.adapters import ImportOptions, adapter, env_name, load_environment
from envfactory_gym.adapters.checks import ImportFindings, analyze
from envfactory_gym.agents import format_call, run_episode
from envfactory_gym.session import ToolSession
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.tasks import Task, load_tasks

Script = list[list[tuple[str, dict[str, Any]]]]


def convert(
    fmt: str, path: Path, folder: Path, options: ImportOptions = ImportOptions(), key: str | None = None
) -> EnvironmentSpec:
    """Convert one environment of `path` (the first key found unless `key` is given) into `folder`."""
    keys = adapter(fmt).discover(path, options)
    key = key or keys[0]
    return load_environment(fmt, path, key, env_name("fixture", key, keys), folder, options)


def convert_checked(
    fmt: str, path: Path, folder: Path, options: ImportOptions = ImportOptions(), key: str | None = None
) -> tuple[EnvironmentSpec, ImportFindings]:
    """Convert as `envfactory import` does: replay the ground truth, then convert again with what was decided
    (failing ground-truth calls, reads that touch state)."""
    spec = convert(fmt, path, folder, options, key)
    spec, findings = analyze(
        spec, load_tasks(spec), reload=lambda chosen: convert(fmt, path, folder, chosen, key), options=options
    )
    return convert(fmt, path, folder, findings.options(options), key), findings


class ScriptedAgent:
    """Plays given calls turn by turn (one call per step), then ends each turn with a message."""

    def __init__(self, script: Script) -> None:
        self.script = script

    def reset(self, env: ToolUseEnv, info: dict[str, Any]) -> None:
        self._turn, self._pending = -1, []

    def act(self, observation: str, info: dict[str, Any]) -> str:
        if info["turn"] != self._turn:
            self._turn = info["turn"]
            self._pending = list(self.script[self._turn]) if self._turn < len(self.script) else []
        if not self._pending:
            return "Done."
        name, arguments = self._pending.pop(0)
        return format_call(name, arguments)


def ground_truth(task: Task) -> Script:
    """The task's agent calls, turn by turn."""
    return [[(c.name, dict(c.arguments)) for c in turn.agent_calls] for turn in task.turns]


def corrupt(script: Script, tool: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Script:
    """The script with the first call of `tool` given wrong arguments."""
    done = False
    out: Script = []
    for turn in script:
        calls = []
        for name, arguments in turn:
            if name == tool and not done:
                arguments, done = change(dict(arguments)), True
            calls.append((name, arguments))
        out.append(calls)
    assert done, f"no {tool} call to corrupt"
    return out


def play(spec: EnvironmentSpec, task_id: str, script: Script | None = None, **env_kwargs: Any) -> dict[str, Any]:
    """Run one episode; the ground truth unless a script is given."""
    env = ToolUseEnv(spec, **env_kwargs)
    try:
        return run_episode(env, ScriptedAgent(script or ground_truth(env.tasks[task_id])), task_id=task_id)
    finally:
        env.close()


def assert_check_env(spec: EnvironmentSpec) -> None:
    """gymnasium's own environment checker passes."""
    env = ToolUseEnv(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.close()


def assert_ground_truth_scores_one(spec: EnvironmentSpec) -> None:
    """Every task's ground truth earns the full reward, trajectory and state alike."""
    env = ToolUseEnv(spec)
    task_ids = env.task_ids
    env.close()
    assert task_ids
    for task_id in task_ids:
        result = play(spec, task_id)
        assert result["reward"] == 1.0, (task_id, result["components"])
        assert result["components"]["state"] == 1.0


def assert_wrong_write_scores_lower(
    spec: EnvironmentSpec, task_id: str, tool: str, change: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    """A trajectory whose write goes wrong scores below the ground truth, in trajectory and in state."""
    env = ToolUseEnv(spec)
    script = ground_truth(env.tasks[task_id])
    env.close()
    good, bad = play(spec, task_id, script), play(spec, task_id, corrupt(script, tool, change))
    assert bad["reward"] < good["reward"] == 1.0
    assert bad["components"]["state"] < 1.0 and bad["components"]["trajectory"] < 1.0
    return bad


def assert_isolated(spec: EnvironmentSpec, snapshot: str, tool: str, arguments: dict[str, Any]) -> None:
    """A write in one session changes neither another session nor the snapshot it was reset from."""
    first, second = ToolSession(spec), ToolSession(spec)
    try:
        first.reset(snapshot)
        second.reset(snapshot)
        before = second.dump()
        outcome = first.call(tool, arguments)
        assert outcome.ok, outcome.error
        assert first.dump() != before
        assert second.dump() == before
        first.reset(snapshot)
        assert first.dump() == before
    finally:
        first.close()
        second.close()
