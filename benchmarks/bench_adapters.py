"""Object-backed state at speed: a tau2-shaped domain of realistic size (~2.7 MB of JSON: 500 customers, 1,250
orders, 50 products, 100 tasks; tests/adapters/fixtures/tau2/outfitters), imported and run here, beside the original's
own numbers measured in the same run.

The original, as tau2 runs a domain: a reset is `DB.load(db.json)` + the toolkit (tau2's `get_environment()`); a
call is the toolkit method plus its JSON answer (`model_dump` + `json.dumps`, as tau2's `to_json_str`). Ours:
`envfactory import` (timed, with its progress bar), `ToolSession.reset` of the seed, `ToolSession.call` + the
answer's text for every gold call of every task (the same calls, in the same states, as the original's), the step
that ends a turn (turn score), and the first reset of a task (its expected replay).

Run: `.venv/bin/python benchmarks/bench_adapters.py [--size full|small] [--json out.json] [--plot steps.png]`.
Targets (issue 24): reset >= 100x faster than the original's, a step <= the original's call + 50 us, a turn end
<= 10 ms, the import of a 100-task domain <= 30 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "adapters" / "fixtures" / "tau2"
sys.path[:0] = [str(FIXTURES / "stub"), str(FIXTURES)]  # the tau2 test double and the domain package

from outfitters.data_model import OutfittersDB  # noqa: E402
from outfitters.generate import write  # noqa: E402
from outfitters.tools import OutfitterTools  # noqa: E402


def median_us(samples: list[float]) -> float:
    """Median in microseconds."""
    return statistics.median(samples) * 1e6


def p90_us(samples: list[float]) -> float:
    """90th percentile in microseconds."""
    return sorted(samples)[int(0.9 * (len(samples) - 1))] * 1e6


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds one call takes, and its result."""
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def original_answer(result: Any) -> str:
    """tau2's to_json_str: models dumped, the rest as it is, as JSON."""

    def process(value: Any) -> Any:
        if hasattr(value, "model_dump"):
            return value.model_dump()
        if isinstance(value, (list, tuple)):
            return [process(v) for v in value]
        if isinstance(value, dict):
            return {k: process(v) for k, v in value.items()}
        return value

    return result if isinstance(result, str) else json.dumps(process(result), default=str)


def original_call(toolkit: Any, name: str, arguments: dict[str, Any]) -> str:
    """One call the way tau2 makes it: the method, then its answer's text (a failure is an answer too)."""
    try:
        return original_answer(getattr(toolkit, name)(**arguments))
    except Exception as exc:  # tau2 turns an error into the tool message's text
        return f"Error: {exc}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=["full", "small"], default="full")
    parser.add_argument("--resets", type=int, default=200)
    parser.add_argument("--json", help="write the numbers here")
    parser.add_argument("--plot", help="write a plot of per-call step times here (matplotlib)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="envfactory-bench-adapters-"))
    os.environ["ENVFACTORY_HOME"] = str(work / "home")
    data = write(work / "outfitters", args.size)
    size_mb = (data / "db.json").stat().st_size / 1e6

    from envfactory_gym.adapters.build import ImportOptions
    from envfactory_gym.adapters.catalog import load_external
    from envfactory_gym.adapters.cli import import_environments
    from envfactory_gym.env import ToolUseEnv
    from envfactory_gym.session import ToolSession
    from envfactory_gym.tasks import load_tasks

    # ---- import (progress bar on) -------------------------------------------------------------------------
    options = ImportOptions(code=str(FIXTURES / "outfitters"))
    import_s, (entries, errors, _) = timed(
        lambda: import_environments("tau2", data, "outfitters", options, show_progress=True)
    )
    if errors:
        print("\n".join(errors))
        return 1
    entry = entries[0]
    spec = load_external(entry["name"])
    tasks = load_tasks(spec)

    # ---- reset: the original's get_environment() against ours -------------------------------------------
    original_resets = [timed(lambda: OutfitterTools(OutfittersDB.load(str(data / "db.json"))))[0] for _ in range(10)]
    session = ToolSession(spec)
    session.reset()
    our_resets = [timed(session.reset)[0] for _ in range(args.resets)]

    # ---- steps: every gold call, same states, both sides ---------------------------------------------------
    pristine = OutfittersDB.load(str(data / "db.json"))
    seed_tasks = [t for t in tasks.values() if t.snapshot == "seed"]  # the original's start state is the seed's
    cold, warm, names = [], [], []
    passes: list[list[float]] = [[], []]
    for task in seed_tasks:
        calls = [c for turn in task.turns for c in turn.agent_calls]
        for samples in passes:  # the original twice, each time on a fresh copy: the second pass is steady state
            toolkit = OutfitterTools(pristine.model_copy(deep=True))
            for item in calls:
                samples.append(
                    timed(lambda toolkit=toolkit, item=item: original_call(toolkit, item.name, dict(item.arguments)))[0]
                )
        names.extend(item.name for item in calls)
        for run in (cold, warm):  # ours twice: the first run copies records for the first time
            session.reset(task.snapshot, task.clock)
            for item in calls:
                run.append(timed(lambda item=item: session.call(item.name, dict(item.arguments)).text)[0])
    originals = passes[1]
    differences = [w - o for w, o in zip(warm, originals)]

    # ---- turn end and first reset through the Env ----------------------------------------------------------
    turn_ends, first_resets = [], []
    env = ToolUseEnv(load_external.__wrapped__(entry["name"]), max_steps=entry["max_steps"])  # a fresh spec: no cache
    for task in tasks.values():
        seconds, _ = timed(lambda task=task: env.reset(options={"task_id": task.id}))
        first_resets.append(seconds)
        from envfactory_gym.agents import format_call

        for turn in task.turns:
            for item in turn.agent_calls:
                env.step(format_call(item.name, item.arguments))
            seconds, result = timed(lambda: env.step("Done."))
            turn_ends.append(seconds)
            if result[2]:
                break
    env.close()
    session.close()

    results = {
        "db_json_mb": round(size_mb, 2),
        "tasks": len(tasks),
        "import_s": round(import_s, 2),
        "reset_original_us": round(median_us(original_resets), 1),
        "reset_ours_us": round(median_us(our_resets), 2),
        "reset_speedup": round(statistics.median(original_resets) / statistics.median(our_resets), 1),
        "step_original_us": round(median_us(originals), 1),
        "step_ours_us": round(median_us(warm), 1),
        "step_ours_first_copy_us": round(median_us(cold), 1),
        "step_overhead_median_us": round(median_us(differences), 1),
        "step_overhead_p90_us": round(p90_us(differences), 1),
        "turn_end_median_ms": round(statistics.median(turn_ends) * 1e3, 2),
        "turn_end_p90_ms": round(p90_us(turn_ends) / 1e3, 2),
        "first_reset_median_ms": round(statistics.median(first_resets) * 1e3, 2),
        "per_tool_overhead_us": {
            name: round(median_us([d for d, n in zip(differences, names) if n == name]), 1)
            for name in sorted(set(names))
        },
    }
    print(json.dumps(results, indent=2))
    verdicts = {
        "reset >= 100x the original's": results["reset_speedup"] >= 100,
        "step <= original call + 50 us (median)": results["step_overhead_median_us"] <= 50,
        "turn end <= 10 ms (median)": results["turn_end_median_ms"] <= 10,
        "import of a 100-task domain <= 30 s": results["import_s"] <= 30,
    }
    for target, met in verdicts.items():
        print(f"{'met' if met else 'NOT met'}: {target}")
    if args.json:
        Path(args.json).write_text(json.dumps({**results, "targets": verdicts}, indent=2))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        tools = sorted(set(names))
        figure, axis = plt.subplots(figsize=(9, 4))
        for offset, (label, samples) in enumerate((("original", originals), ("ours", warm))):
            values = [median_us([s for s, n in zip(samples, names) if n == t]) for t in tools]
            axis.bar([i + 0.4 * offset for i in range(len(tools))], values, width=0.4, label=label)
        axis.set_xticks([i + 0.2 for i in range(len(tools))], tools, rotation=45, ha="right")
        axis.set_ylabel("median per call (us)")
        axis.set_title(f"tau2-shaped domain, {size_mb:.1f} MB DB: a call, original vs ours")
        axis.legend()
        figure.tight_layout()
        figure.savefig(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
