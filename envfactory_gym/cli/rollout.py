"""`envfactory rollout`: a baseline agent over environments, mean rewards per environment."""

from __future__ import annotations

import argparse
import statistics
from typing import Any, Callable

from rich.table import Table

from ..agents import AGENTS
from .args import environment_specs, non_negative_int
from .terminal import console


def cmd_rollout(args: argparse.Namespace) -> int:
    """Run an agent over environments and print the mean reward per environment."""
    from rich.progress import Progress

    from ..adapters.catalog import env_kwargs as external_env_kwargs
    from ..agents import run_episode
    from ..env import ToolUseEnv

    make_agent: Callable = AGENTS[args.agent]
    table = Table(title=f"rollout: {args.agent} agent ({args.split} tasks)")
    for column in ("env id", "episodes", "mean reward", "R_traj", "R_state", "steps"):
        table.add_column(column)
    specs = environment_specs(args.names)
    envs = [
        ToolUseEnv(s, split=args.split, **(external_env_kwargs(s.name) if s.extra.get("source") else {})) for s in specs
    ]
    means = []
    with Progress(console=console, transient=True) as progress:
        job = progress.add_task("episodes", total=sum(min(args.episodes or 10**9, len(e.task_ids)) for e in envs))
        for env in envs:
            task_ids = env.task_ids[: args.episodes] if args.episodes else env.task_ids
            results = []
            for index, task_id in enumerate(task_ids):
                agent = make_agent(seed=args.seed + index) if args.agent == "random" else make_agent()
                results.append(run_episode(env, agent, seed=args.seed + index, task_id=task_id))
                progress.advance(job)
            env.close()
            mean = statistics.fmean(r["reward"] for r in results)
            means.append(mean)
            table.add_row(
                env.spec_env.env_id,
                str(len(results)),
                f"{mean:.3f}",
                f"{statistics.fmean(r['components']['trajectory'] for r in results):.3f}",
                f"{statistics.fmean(r['components']['state'] for r in results):.3f}",
                f"{statistics.fmean(r['steps'] for r in results):.1f}",
            )
    console.print(table)
    console.print(f"overall mean reward: {statistics.fmean(means):.3f}")
    return 0


def register(sub: Any) -> None:
    """Add rollout."""
    rollout = sub.add_parser("rollout", help="run a baseline agent and print mean rewards")
    rollout.add_argument("names", nargs="*", help="environments or environment folders (default: every one)")
    rollout.add_argument("--agent", choices=sorted(AGENTS), default="reference", help="which baseline agent plays")
    rollout.add_argument(
        "--episodes", type=non_negative_int, default=0, help="episodes per environment (default 0: every task)"
    )
    rollout.add_argument(
        "--split",
        choices=["train", "test", "all"],
        default="all",
        help="which stored task split to play (default: all)",
    )
    rollout.add_argument("--seed", type=int, default=0, help="seed of the episodes (and of the random agent)")
    rollout.set_defaults(func=cmd_rollout)
