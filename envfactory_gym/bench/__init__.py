"""The zoo as a benchmark: run any OpenAI-compatible model (and the baseline agents) over held-out tasks, keep
every episode in a resumable run directory, report pass^k, pass@k, the reward components, cost, speed and why
episodes failed; compare two runs with a paired test, rank several on a leaderboard."""

from .metrics import Summary, pass_at_k, pass_hat_k, summarize
from .records import EpisodeRecord
from .rundir import RunDirectory
from .runner import BenchConfig, run_bench

__all__ = [
    "BenchConfig",
    "EpisodeRecord",
    "RunDirectory",
    "Summary",
    "pass_at_k",
    "pass_hat_k",
    "run_bench",
    "summarize",
]
