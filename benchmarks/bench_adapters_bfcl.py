"""BFCL multi-turn through BFCL's own checker and ours: BFCL's real data (`pip install --no-deps bfcl-eval==2026.3.23`),
all four variants, imported with `envfactory import` (timed), each entry's ground truth and its variations (acting one
turn early, the last call dropped, an extra read, a wrong argument) scored by `bfcl_eval`'s `multi_turn_checker` and
by our Env. A trajectory agrees when our reward is exactly 1.0 exactly when BFCL calls it valid.

Run: `.venv/bin/python benchmarks/bench_adapters_bfcl.py [--variants base miss_func ...] [--json out.json]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

VARIANTS = ("base", "miss_func", "miss_param", "long_context")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--json", help="write the numbers here")
    args = parser.parse_args()
    if importlib.util.find_spec("bfcl_eval") is None:
        print("bfcl_eval is not installed: pip install --no-deps bfcl-eval==2026.3.23")
        return 1
    os.environ["ENVFACTORY_HOME"] = tempfile.mkdtemp(prefix="envfactory-bench-bfcl-")
    import bfcl_eval

    from envfactory_gym.adapters.bfcl_checker import compare
    from envfactory_gym.adapters.build import ImportOptions
    from envfactory_gym.adapters.catalog import load_external
    from envfactory_gym.adapters.cli import import_environments

    data = Path(bfcl_eval.__file__).parent / "data"
    results = {}
    for variant in args.variants:
        questions = data / f"BFCL_v4_multi_turn_{variant}.json"
        start = time.perf_counter()
        entries, errors, _ = import_environments("bfcl", questions, variant, ImportOptions(), show_progress=True)
        imported = time.perf_counter() - start
        specs = {entry["key"]: load_external(entry["name"]) for entry in entries}
        start = time.perf_counter()
        agreement = compare(questions, specs)
        scored = time.perf_counter() - start
        kinds = agreement.by_kind()
        results[variant] = {
            "environments": len(entries),
            "errors": errors,
            "tasks": sum(e["tasks"] for e in entries),
            "failing_tasks": sum(len(e["failing_tasks"]) for e in entries),
            "nondeterministic_tasks": sum(len(e["nondeterministic_tasks"]) for e in entries),
            "expected_failing_calls": sum(e["expected_failing_calls"] for e in entries),
            "import_s": round(imported, 1),
            "both_checkers_s": round(scored, 1),
            "by_kind": {
                kind: {"trajectories": n, "bfcl_valid": valid, "ours_1.0": ours, "agree": agree}
                for kind, (n, valid, ours, agree) in kinds.items()
            },
            "disagreements": [
                f"{v.entry} {v.kind}: BFCL {'valid' if v.bfcl_valid else 'invalid'}, ours {v.ours:.3f}"
                for v in agreement.verdicts
                if not v.agrees
            ][:20],
        }
        print(
            f"\n{variant}: {results[variant]['tasks']} tasks imported in {imported:.1f} s; both checkers {scored:.1f} s"
        )
        print(f"  {'trajectory':<18} {'n':>5} {'BFCL valid':>11} {'ours 1.0':>9} {'agree':>7}")
        for kind, row in results[variant]["by_kind"].items():
            print(
                f"  {kind:<18} {row['trajectories']:>5} {row['bfcl_valid']:>11} {row['ours_1.0']:>9} {row['agree']:>7}"
            )
        for line in results[variant]["disagreements"]:
            print(f"  disagreement: {line}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
