"""`envfactory rollout`: a baseline agent over environments, mean rewards per environment."""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from typing import Any, Callable, Literal

from rich.table import Table

from ..agents import AGENTS
from .args import environment_names, environment_specs, non_negative_int, workers_option
from .parallel import map_environments
from .terminal import console, print_whole


@dataclass(frozen=True)
class RolloutJob:
    """What one worker plays: an environment and the command's options."""

    agent: str
    split: Literal["train", "test", "all"]
    episodes: int
    seed: int

    def __call__(self, name: str) -> dict[str, Any]:
        """Play the environment's tasks with the agent; its row of the table and its mean reward."""
        from ..adapters.catalog import env_kwargs as external_env_kwargs
        from ..agents import run_episode
        from ..env import ToolUseEnv

        spec = environment_specs([name])[0]
        env = ToolUseEnv(spec, split=self.split, **(external_env_kwargs(spec.name) if spec.extra.get("source") else {}))
        make_agent: Callable = AGENTS[self.agent]
        task_ids = env.task_ids[: self.episodes] if self.episodes else env.task_ids
        results = []
        try:
            for index, task_id in enumerate(task_ids):
                agent = make_agent(seed=self.seed + index) if self.agent == "random" else make_agent()
                results.append(run_episode(env, agent, seed=self.seed + index, task_id=task_id))
        finally:
            env.close()
        mean = statistics.fmean(r["reward"] for r in results)
        return {
            "mean": mean,
            "row": (
                spec.env_id,
                str(len(results)),
                f"{mean:.3f}",
                f"{statistics.fmean(r['components']['trajectory'] for r in results):.3f}",
                f"{statistics.fmean(r['components']['state'] for r in results):.3f}",
                f"{statistics.fmean(r['steps'] for r in results):.1f}",
            ),
        }


def cmd_rollout(args: argparse.Namespace) -> int:
    """Run an agent over environments (one worker process per core) and print the mean reward per environment."""
    from rich.progress import Progress

    table = Table(title=f"rollout: {args.agent} agent ({args.split} tasks)")
    for column in ("env id", "episodes", "mean reward", "R_traj", "R_state", "steps"):
        table.add_column(column)
    names = environment_names(args.names)
    job = RolloutJob(args.agent, args.split, args.episodes, args.seed)
    means = []
    with Progress(console=console, transient=True) as progress:
        bar = progress.add_task(f"playing {len(names)} environments", total=len(names))
        for result in map_environments(job, names, args.workers):
            means.append(result["mean"])
            table.add_row(*result["row"])
            progress.advance(bar)
    print_whole(table)
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
    workers_option(rollout)
    rollout.set_defaults(func=cmd_rollout)
