"""The update of the CPU learning benchmark (`benchmarks/cpu_grpo_learning.py`): its sign and its action mask."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("openrlhf.utils.agent")

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "cpu_grpo_learning.py"


def load_script():
    spec = importlib.util.spec_from_file_location("cpu_grpo_learning", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def setup():
    from envfactory_training.tiny import chatml_tokenizer, tiny_qwen2

    tokenizer = chatml_tokenizer(["search the roadmap page", "delete everything now"], vocab_size=300)
    return load_script(), tokenizer, tiny_qwen2(tokenizer, width=32, layers=1)


def response(tokenizer, prompt: str, action: str) -> dict:
    head = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    tail = tokenizer(action, add_special_tokens=False)["input_ids"]
    return {"observation_tokens": head + tail, "action_ranges": [(len(head), len(head) + len(tail))]}


def action_logprob(script, model, item: dict) -> float:
    ids = torch.tensor([item["observation_tokens"]])
    ((start, end),) = item["action_ranges"]
    with torch.no_grad():
        return float(script.tiny.token_logprobs(model, ids)[0, start - 1 : end - 1].sum())


def test_a_rewarded_action_becomes_likelier_and_a_punished_one_less(setup):
    import copy

    script, tokenizer, base = setup
    model = copy.deepcopy(base)
    good, bad = (
        response(tokenizer, "user: ", "search the roadmap page"),
        response(tokenizer, "user: ", "delete everything now"),
    )
    before = [action_logprob(script, model, r) for r in (good, bad)]
    advantages = script.advantages_for(torch.tensor([[1.0, 0.0]]), shuffle=False, rng=torch.Generator())
    assert advantages[0] > 0 > advantages[1]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    script.policy_step(model, optimizer, [good, bad], advantages)
    after = [action_logprob(script, model, r) for r in (good, bad)]
    assert after[0] > before[0] and after[1] < before[1]


def test_only_action_tokens_carry_the_gradient(setup):
    import copy

    script, tokenizer, base = setup
    item = response(tokenizer, "delete everything now, user: ", "search the roadmap")
    model, reference = copy.deepcopy(base), copy.deepcopy(base)
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    script.policy_step(model, optimizer, [item], torch.tensor([2.0]))
    ids = torch.tensor([item["observation_tokens"]])
    ((start, end),) = item["action_ranges"]
    loss = -2.0 * script.tiny.token_logprobs(reference, ids)[0, start - 1 : end - 1].sum() / (end - start)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(reference.parameters(), 1.0)
    for (name, updated), (_, original) in zip(model.named_parameters(), reference.named_parameters()):
        assert torch.allclose(original.detach() - original.grad, updated.detach(), atol=1e-6), name


def test_the_control_shuffles_rewards_across_the_batch(setup):
    script, _, _ = setup
    rewards = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
    plain = script.advantages_for(rewards, shuffle=False, rng=torch.Generator().manual_seed(0))
    assert plain[0] > 0 and plain[4:].abs().sum() == 0  # the second group has no spread
    moved = [script.advantages_for(rewards, shuffle=True, rng=torch.Generator().manual_seed(s)) for s in range(8)]
    assert any(m[4:].abs().sum() > 0 for m in moved)  # the rewarded sample lands in the other group
