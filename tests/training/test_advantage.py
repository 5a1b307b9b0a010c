"""ERPO advantages and MEU masking."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")

from envfactory_training.advantage import apply_erpo, erpo_advantages, group_norm_advantages  # noqa: E402


def test_one_environment_one_group_is_group_norm():
    rewards = torch.tensor([0.0, 0.5, 1.0, 1.0, 0.25, 0.75, 0.0, 0.5])
    erpo = erpo_advantages(rewards, ["notion"] * 8, eps=1e-9)
    assert torch.allclose(erpo, group_norm_advantages(rewards.reshape(1, -1)).flatten(), atol=1e-6)


def test_statistics_are_per_environment_not_per_prompt():
    # Two prompts of env a (scores 0/1 and all 1) and one of env b (all 0.2 or 0.4): per-prompt GRPO gives the
    # all-1 prompt nothing; ERPO compares it with env a's other prompt, and never mixes a with b.
    rewards = torch.tensor([0.0, 1.0, 1.0, 1.0, 0.2, 0.4])
    envs = ["a", "a", "a", "a", "b", "b"]
    adv = erpo_advantages(rewards, envs)
    a = rewards[:4]
    assert torch.allclose(adv[:4], (a - a.mean()) / (a.std() + 1e-6))
    assert adv[2] > 0 and adv[3] > 0  # the all-correct prompt is above its environment's mean
    assert torch.allclose(adv[4:], torch.tensor([-0.7071, 0.7071]), atol=1e-3)
    assert abs(float(adv.sum())) < 1e-5


def test_flagged_samples_get_zero_and_leave_the_statistics():
    rewards = torch.tensor([0.0, 1.0, 0.5, 0.9])
    flagged = torch.tensor([False, False, False, True])
    adv = erpo_advantages(rewards, ["a"] * 4, flagged)
    assert adv[3] == 0
    kept = rewards[:3]
    assert torch.allclose(adv[:3], (kept - kept.mean()) / (kept.std() + 1e-6))


def test_degenerate_environments_give_zero():
    adv = erpo_advantages(torch.tensor([0.3, 0.7, 0.7]), ["solo", "same", "same"])
    assert torch.equal(adv, torch.zeros(3))
    with pytest.raises(ValueError):
        erpo_advantages(torch.tensor([1.0]), ["a", "b"])


def test_apply_erpo_rewrites_experience_rewards_in_batch_order():
    def experience(rewards, envs, errors):
        return SimpleNamespace(
            rewards=torch.tensor(rewards),
            labels=[json.dumps({"env": e}) for e in envs],
            info={"user_error": torch.tensor(errors)},
        )

    batch = [
        experience([0.0, 1.0], ["a", "b"], [0.0, 0.0]),
        experience([1.0, 0.0, 0.5], ["a", "b", "b"], [0.0, 0.0, 1.0]),
    ]
    apply_erpo(batch)
    flat = torch.cat([e.rewards for e in batch])
    expected = erpo_advantages(
        torch.tensor([0.0, 1.0, 1.0, 0.0, 0.5]), ["a", "b", "a", "b", "b"], torch.tensor([0, 0, 0, 0, 1])
    )
    assert torch.allclose(flat, expected) and flat[4] == 0 and flat[0] < 0 < flat[2]
