"""ERPO advantages (AutoForge): rewards normalized per environment, with simulated-user failures masked (MEU).

Plain GRPO (`group_norm`) normalizes each reward by the mean and std of its prompt's group of samples. ERPO uses
the statistics of every sample of the same environment in the rollout batch instead, so environments of very
different difficulty weigh alike and a group whose samples all score the same still learns from its
environment's other prompts. Samples flagged as spoiled by the simulated user (MEU) get advantage 0 and are left
out of the statistics. In a batch, the advantages of each environment sum to zero, so their overall mean is zero.

In OpenRLHF (0.11) this runs through `install_openrlhf_hook`, a Ray worker setup hook (see docs/training.md):
with ENVFACTORY_ADVANTAGE=erpo it replaces each sample's reward by its ERPO advantage before OpenRLHF's
`flash_reinforce` estimator, which subtracts the batch mean (zero here) and does no further whitening.
"""

from __future__ import annotations

import json
import os
from typing import Any, Sequence

import torch

ERPO_ESTIMATOR = "flash_reinforce"


def erpo_advantages(
    rewards: torch.Tensor, environments: Sequence[str], flagged: torch.Tensor | None = None, eps: float = 1e-6
) -> torch.Tensor:
    """Per-sample advantages `(r - mean_env) / (std_env + eps)`; 0 for flagged samples and for environments with
    fewer than two unflagged samples (no spread to learn from). `std` is the unbiased one, as OpenRLHF's group_norm."""
    rewards = rewards.float().flatten()
    if len(environments) != rewards.numel():
        raise ValueError(f"{rewards.numel()} rewards but {len(environments)} environment names")
    keep = torch.ones_like(rewards, dtype=torch.bool) if flagged is None else ~flagged.flatten().bool()
    advantages = torch.zeros_like(rewards)
    for name in sorted(set(environments)):
        members = torch.tensor([e == name for e in environments]) & keep
        if int(members.sum()) < 2:
            continue
        values = rewards[members]
        advantages[members] = (values - values.mean()) / (values.std() + eps)
    return advantages


def group_norm_advantages(rewards: torch.Tensor, eps: float = 1e-9) -> torch.Tensor:
    """GRPO's per-prompt normalization of a `[prompts, samples]` reward matrix, as OpenRLHF's group_norm does."""
    return (rewards - rewards.mean(-1, keepdim=True)) / (rewards.std(-1, keepdim=True) + eps)


def apply_erpo(experiences: Sequence[Any]) -> None:
    """Replace each experience's rewards by ERPO advantages, in place. Experiences are OpenRLHF `Experience`s:
    `rewards` (one per sample), `labels` (the EpisodeLabel JSON, whose `env` names the environment) and `info`
    (`user_error`, reported by the agent's extra_logs, flags MEU samples)."""
    rewards = torch.cat([e.rewards.float().flatten() for e in experiences])
    environments = [json.loads(label)["env"] for e in experiences for label in e.labels]
    flagged = torch.cat([e.info.get("user_error", torch.zeros_like(e.rewards)).flatten() for e in experiences])
    advantages = erpo_advantages(rewards, environments, flagged)
    start = 0
    for experience in experiences:
        size = experience.rewards.numel()
        experience.rewards = advantages[start : start + size].reshape(experience.rewards.shape)
        start += size


def install_openrlhf_hook() -> None:
    """Ray worker setup hook (`envfactory_training.advantage.install_openrlhf_hook`): with ENVFACTORY_ADVANTAGE=erpo,
    OpenRLHF's experience maker applies ERPO before its advantage computation. Does nothing otherwise or without
    OpenRLHF."""
    if os.environ.get("ENVFACTORY_ADVANTAGE") != "erpo":
        return
    try:
        from openrlhf.trainer.ppo_utils.experience_maker import RemoteExperienceMaker
    except ImportError:  # a worker without the trainer's dependencies never computes advantages
        return
    original = RemoteExperienceMaker.compute_advantages_and_returns
    if getattr(original, "erpo", False):
        return

    def compute_advantages_and_returns(self, experiences):
        estimator = self.strategy.args.algo.advantage.estimator
        if estimator != ERPO_ESTIMATOR:
            raise ValueError(f"ERPO needs --algo.advantage.estimator {ERPO_ESTIMATOR}, got {estimator}")
        apply_erpo(experiences)
        return original(self, experiences)

    compute_advantages_and_returns.erpo = True  # type: ignore[attr-defined]
    RemoteExperienceMaker.compute_advantages_and_returns = compute_advantages_and_returns
