"""The zoo as a benchmark: run any OpenAI-compatible model (and the baseline agents) over held-out tasks, keep
every episode in a resumable run directory, and report pass^k, pass@k and the reward components."""

from .metrics import Summary, pass_at_k, pass_hat_k, summarize
from .records import EpisodeRecord
from .rundir import RunDirectory
from .runner import BenchConfig, run_bench

__all__ = ["BenchConfig", "EpisodeRecord", "RunDirectory", "Summary", "pass_at_k", "pass_hat_k", "run_bench",
           "summarize"]
