"""Our scores beside BFCL's own multi-turn checker (`bfcl_eval`'s `multi_turn_checker`) on the same trajectories.

For every entry of a BFCL question file: the ground truth and trajectories derived from it (acting one turn early
where a turn expects no call, the last call dropped, an extra read, a wrong argument in the last write) are played
through our Env (scripted, one call per step) and given to BFCL's checker as the model's decoded calls. A
trajectory agrees when our reward is exactly 1.0 exactly when BFCL's checker calls it valid.

BFCL's checker needs `bfcl_eval` installed; backend classes of a `--code` folder (not in bfcl_eval's class map) are
added to that map for the run.
"""

from __future__ import annotations

import importlib
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..agents import format_call, run_episode
from ..env import ToolUseEnv
from ..reward import RewardConfig
from ..spec import EnvironmentSpec
from ..tasks import Task, load_tasks
from .bfcl import _answers_path, _entries, _group, parse_call
from .build import MAX_CALLS_PER_TURN, ImportOptions, read_records

Calls = list[list[dict[str, Any]]]  # BFCL turns of calls {name, arguments}


@dataclass
class Trajectory:
    """Calls per BFCL turn, and the strings BFCL's checker reads for them."""

    kind: str
    calls: Calls
    strings: list[list[str]]


@dataclass
class Verdict:
    """One trajectory of one entry, scored by both."""

    entry: str
    kind: str
    bfcl_valid: bool
    ours: float

    @property
    def agrees(self) -> bool:
        """Our score is 1.0 exactly when BFCL's checker says valid."""
        return self.bfcl_valid == (self.ours == 1.0)


@dataclass
class Agreement:
    """Verdicts of a question file."""

    verdicts: list[Verdict] = field(default_factory=list)

    def by_kind(self) -> dict[str, tuple[int, int, int, int]]:
        """kind -> (trajectories, BFCL valid, ours 1.0, agreeing)."""
        table: dict[str, list[int]] = {}
        for verdict in self.verdicts:
            row = table.setdefault(verdict.kind, [0, 0, 0, 0])
            row[0] += 1
            row[1] += verdict.bfcl_valid
            row[2] += verdict.ours == 1.0
            row[3] += verdict.agrees
        return {kind: (a, b, c, d) for kind, (a, b, c, d) in table.items()}


def call_text(call: dict[str, Any]) -> str:
    """A call as BFCL's executor reads it: `name(key=value, ...)` with Python literals."""
    return f"{call['name']}({', '.join(f'{k}={v!r}' for k, v in call['arguments'].items())})"


def trajectories(truth: Calls, truth_strings: list[list[str]], spec: EnvironmentSpec) -> Iterator[Trajectory]:
    """The ground truth and the trajectories derived from it (those that apply to this entry)."""
    yield Trajectory("ground truth", truth, truth_strings)

    def derived(kind: str, calls: Calls) -> Trajectory:
        return Trajectory(kind, calls, [[call_text(c) for c in turn] for turn in calls])

    for index in range(len(truth) - 1):
        if not truth[index] and truth[index + 1]:
            early = [list(turn) for turn in truth]
            early[index], early[index + 1] = early[index + 1], []
            yield derived("one turn early", early)
            break
    last = max((i for i, turn in enumerate(truth) if turn), default=None)
    if last is None:
        return
    dropped = [list(turn) for turn in truth]
    dropped[last] = dropped[last][:-1]
    yield derived("last call dropped", dropped)
    read = next((c for turn in truth for c in turn if spec.tools[c["name"]].read_only), None)
    if read is not None:
        extra = [list(turn) for turn in truth]
        extra[last] = extra[last] + [read]
        yield derived("extra read", extra)
    writes = [(t, i) for t, turn in enumerate(truth) for i, c in enumerate(turn) if not spec.tools[c["name"]].read_only]
    for t, i in reversed(writes):
        changed = _changed_argument(truth[t][i])
        if changed is not None:
            wrong = [list(turn) for turn in truth]
            wrong[t][i] = changed
            yield derived("wrong argument", wrong)
            break


def _changed_argument(call: dict[str, Any]) -> dict[str, Any] | None:
    for key, value in call["arguments"].items():
        if isinstance(value, str):
            return {"name": call["name"], "arguments": {**call["arguments"], key: value + "x"}}
        if isinstance(value, int) and not isinstance(value, bool):
            return {"name": call["name"], "arguments": {**call["arguments"], key: value + 1}}
    return None


class _Script:
    """Plays given calls per Env turn (one call per step), then ends each turn."""

    def __init__(self, script: dict[int, list[dict[str, Any]]]) -> None:
        self.script = script
        self._turn = -1
        self._pending: list[dict[str, Any]] = []

    def reset(self, env: Any, info: dict[str, Any]) -> None:
        self._turn, self._pending = -1, []

    def act(self, observation: str, info: dict[str, Any]) -> str:
        if info["turn"] != self._turn:
            self._turn = info["turn"]
            self._pending = list(self.script.get(self._turn, []))
        if not self._pending:
            return "Done."
        item = self._pending.pop(0)
        return format_call(item["name"], item["arguments"])


def our_score(env: ToolUseEnv, task: Task, truth: Calls, calls: Calls) -> float:
    """Our reward for a trajectory given per BFCL turn (each BFCL turn's calls go to its first Env turn)."""
    script: dict[int, list[dict[str, Any]]] = {}
    position = 0
    for bfcl_turn, expected in zip(calls, truth):
        script[position] = bfcl_turn
        position += max(1, math.ceil(len(expected) / MAX_CALLS_PER_TURN))
    return float(run_episode(env, _Script(script), task_id=task.id)["reward"])


def bfcl_valid(entry: dict[str, Any], truth_strings: list[list[str]], strings: list[list[str]], run: str) -> bool:
    """BFCL's own checker on one trajectory (one call per step)."""
    checker = importlib.import_module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker")
    decoded = [[[text] for text in turn] for turn in strings]
    category = entry["id"].rsplit("_", 1)[0]
    result = checker.multi_turn_checker(decoded, truth_strings, entry, category, f"envfactory_{run}")
    return bool(result["valid"])


def register_backend(code: Path, classes: list[str]) -> None:
    """Make BFCL's executor find backend classes of a `--code` folder (modules named after their files)."""
    config = importlib.import_module("bfcl_eval.constants.executable_backend_config")
    if str(code) not in sys.path:
        sys.path.insert(0, str(code))
    for file in sorted(code.glob("*.py")):
        module = importlib.import_module(file.stem)
        for name in classes:
            if hasattr(module, name):
                config.CLASS_FILE_PATH_MAPPING.setdefault(name, file.stem)
                if not hasattr(getattr(module, name), "_load_scenario") and name not in config.STATELESS_CLASSES:
                    config.STATELESS_CLASSES.append(name)


def compare(
    questions: Path,
    specs: dict[str, EnvironmentSpec],
    options: ImportOptions = ImportOptions(),
    reward: RewardConfig = RewardConfig(gamma=0.0),
    max_steps: int = 200,
) -> Agreement:
    """Score every entry of a question file both ways; `specs` maps each class group (discover's key) to its
    imported environment."""
    entries = [e for e in _entries(questions) if _group(e) in specs]
    if options.code:
        register_backend(Path(options.code), sorted({c for e in entries for c in e["involved_classes"]}))
    answers = {str(a["id"]): a["ground_truth"] for a in read_records(_answers_path(questions, options))}
    agreement = Agreement()
    envs = {key: ToolUseEnv(spec, reward_config=reward, max_steps=max_steps) for key, spec in specs.items()}
    try:
        for number, entry in enumerate(entries):
            spec = specs[_group(entry)]
            task = load_tasks(spec).get(str(entry["id"]))
            if task is None:
                continue
            signatures = {name: _signature(spec, name) for name in spec.tools}
            strings = answers[str(entry["id"])]
            truth = [[parse_call(text, signatures) for text in turn] for turn in strings]
            for index, trajectory in enumerate(trajectories(truth, strings, spec)):
                valid = bfcl_valid(entry, strings, trajectory.strings, f"{number}_{index}")
                ours = our_score(envs[_group(entry)], task, truth, trajectory.calls)
                agreement.verdicts.append(Verdict(str(entry["id"]), trajectory.kind, valid, ours))
    finally:
        for env in envs.values():
            env.close()
    return agreement


def _signature(spec: EnvironmentSpec, name: str) -> Any:
    import inspect

    fields = spec.tools[name].input_model.model_fields
    return inspect.Signature([inspect.Parameter(f, inspect.Parameter.POSITIONAL_OR_KEYWORD) for f in fields])
