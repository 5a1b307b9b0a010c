"""Benchmark plots (matplotlib, written as PNG): mean reward per domain and agent, the reward components per
agent, and pass^k / pass@k against k."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .metrics import COMPONENTS, Summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _agents(summaries: list[Summary]) -> list[str]:
    return list(dict.fromkeys(s.agent for s in summaries))


def plot_domains(path: Path, summaries: list[Summary]) -> None:
    """Grouped bars: mean reward (with its 95% interval) per domain, one bar per agent."""
    plt = _pyplot()
    agents, domains = _agents(summaries), sorted({s.group for s in summaries})
    cell = {(s.agent, s.group): s for s in summaries}
    width = 0.8 / len(agents)
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(domains) + 2), 4))
    for index, agent in enumerate(agents):
        rows = [cell.get((agent, d)) for d in domains]
        means = [r.reward if r else 0.0 for r in rows]
        errors = np.array([[r.reward - r.reward_low, r.reward_high - r.reward] if r else [0, 0] for r in rows]).T
        ax.bar(np.arange(len(domains)) + index * width, means, width, yerr=errors, capsize=2, label=agent)
    ax.set_xticks(np.arange(len(domains)) + width * (len(agents) - 1) / 2, domains)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("mean reward")
    ax.set_title("Mean reward per domain")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_components(path: Path, summaries: list[Summary]) -> None:
    """Grouped bars per agent: R_traj, R_state, the length and format penalties, and the composite reward."""
    plt = _pyplot()
    names = ["reward", *COMPONENTS]
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(summaries) + 2), 4))
    for index, name in enumerate(names):
        values = [s.reward if name == "reward" else s.components[name] for s in summaries]
        ax.bar(np.arange(len(summaries)) + index * width, values, width, label=name)
    ax.set_xticks(np.arange(len(summaries)) + width * (len(names) - 1) / 2, [s.agent for s in summaries])
    ax.set_ylim(0, 1.05)
    ax.set_title("Reward components (all tasks)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def pass_k_figure(summaries: list[Summary]) -> Figure:
    """The figure of pass^k (solid) and pass@k (dashed) against k, one colour per agent; k on integer ticks."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(8, 4))
    for index, summary in enumerate(summaries):
        ks = sorted(summary.pass_hat)
        colour = f"C{index}"
        ax.plot(ks, [summary.pass_hat[k] for k in ks], "o-", color=colour, label=f"{summary.agent} pass^k")
        ax.plot(ks, [summary.pass_at[k] for k in ks], "s--", color=colour, label=f"{summary.agent} pass@k")
    ax.set_xlabel("k")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("pass^k and pass@k")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def plot_pass_k(path: Path, summaries: list[Summary]) -> None:
    """`pass_k_figure`, saved as PNG."""
    plt = _pyplot()
    fig = pass_k_figure(summaries)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_plots(folder: Path, tables: dict[str, list[Summary]]) -> dict[str, Path]:
    """The three plots from the per-domain and overall summaries; none without summaries, or (with a note on
    stderr) without matplotlib (`pip install envfactory-gym[bench]`)."""
    if not tables["all"]:
        return {}
    try:
        _pyplot()
    except ImportError:
        import sys

        print(
            "matplotlib is not installed: the report has no plots (pip install 'envfactory-gym[bench]')",
            file=sys.stderr,
        )
        return {}
    paths = {
        "per-domain reward": folder / "domains.png",
        "reward components": folder / "components.png",
        "pass^k": folder / "pass_k.png",
    }
    plot_domains(paths["per-domain reward"], tables["domain"])
    plot_components(paths["reward components"], tables["all"])
    plot_pass_k(paths["pass^k"], tables["all"])
    return paths
