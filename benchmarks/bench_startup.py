"""Start-up costs: `import envfactory_gym`, `envfactory list`, and `gym.make` of every zoo environment.

    python benchmarks/bench_startup.py [--repeats 5] [--out runs/bench_startup.json]

`import` and `list` run in fresh processes (wall time, median of `--repeats`). `gym.make` is timed for every
registered zoo id in one process that has made one environment already (the runtime's own imports are paid
once per process, and a garbage collection before each make keeps earlier ones' garbage out of its time), and,
for one environment (`--first`, the largest by default), as the first make of a fresh process (imports included).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import track
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
FIRST_MAKE = (
    "import time, gymnasium as gym, envfactory_gym; start = time.perf_counter(); gym.make({id!r}).close(); "
    "print(time.perf_counter() - start)"
)


def _wall(command: list[str], repeats: int) -> float:
    """Median wall seconds of a command run in a fresh process."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _makes() -> dict[str, float]:
    """Seconds of `gym.make` for every zoo id, in this process after a first make."""
    import gymnasium as gym

    import envfactory_gym  # noqa: F401  (registers the zoo)

    ids = sorted(i for i in gym.registry if i.startswith("envfactory/"))
    gym.make(ids[0]).close()
    out = {}
    for env_id in track(ids, description="gym.make"):
        gc.collect()  # the heap grows with every environment made: no earlier one's garbage is timed here
        start = time.perf_counter()
        env = gym.make(env_id)
        out[env_id] = time.perf_counter() - start
        env.close()
    return out


def main(argv: list[str] | None = None) -> int:
    """Measure, print, write JSON when asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per command (median)")
    parser.add_argument("--first", default="envfactory/Strava-v2", help="id whose first make in a process is timed")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    python = sys.executable
    results = {
        "import_s": _wall([python, "-c", "import envfactory_gym"], args.repeats),
        "list_s": _wall([python, "-m", "envfactory_gym.cli", "list"], args.repeats),
    }
    firsts = [
        float(
            subprocess.run(
                [python, "-c", FIRST_MAKE.format(id=args.first)], check=True, capture_output=True, text=True, cwd=ROOT
            ).stdout.split()[-1]
        )
        for _ in range(args.repeats)
    ]
    makes = _makes()
    worst = max(makes, key=makes.__getitem__)
    results.update(
        first_make_s=statistics.median(firsts),
        first_make_id=args.first,
        make_median_s=statistics.median(makes.values()),
        make_max_s=makes[worst],
        make_max_id=worst,
        makes=makes,
    )
    table = Table(title="start-up (seconds)")
    table.add_column("measure")
    table.add_column("seconds", justify="right")
    table.add_row("python -c 'import envfactory_gym' (fresh process, median)", f"{results['import_s']:.3f}")
    table.add_row("envfactory list (fresh process, median)", f"{results['list_s']:.3f}")
    table.add_row(f"first gym.make in a process: {args.first} (imports included)", f"{results['first_make_s']:.3f}")
    table.add_row(f"gym.make, median over {len(makes)} environments", f"{results['make_median_s']:.3f}")
    table.add_row(f"gym.make, slowest: {worst}", f"{results['make_max_s']:.3f}")
    Console().print(table)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
