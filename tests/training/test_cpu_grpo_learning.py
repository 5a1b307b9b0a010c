"""The update of the CPU learning benchmark (`benchmarks/cpu_grpo_learning.py`): its sign and its action mask, on
made-up responses and end to end on rollouts of OpenRLHF's executor in a real environment."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("openrlhf.utils.agent")

pytestmark = pytest.mark.openrlhf

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


def test_rollouts_pay_each_sample_its_own_reward_and_the_update_follows_it(setup):
    """Two prompts x two samples through the benchmark's rollouts (OpenRLHF's executor, the notion env, the
    lockstep engine): in the first round, even samples make the turn's ground-truth call and odd ones end the turn
    at once; the rewards land on their own samples in prompt-major order, and one update makes every rewarded
    sample's actions likelier and every punished one's less."""
    import copy

    from envfactory_gym.agents import format_call
    from envfactory_gym.registry import load_zoo_environment
    from envfactory_gym.tasks import load_tasks
    from envfactory_training.datasets import sft_rows
    from envfactory_training.episode import EpisodeLabel
    from envfactory_training.sample import SampleSettings
    from envfactory_training.tiny import chatml_tokenizer, tiny_qwen2

    script = setup[0]
    rows = script.training_prompts("notion", 2)
    tasks = load_tasks(load_zoo_environment("notion"))
    labels = [EpisodeLabel.from_json(row["label"]) for row in rows]
    calls = [tasks[label.task_id].turns[label.turn].agent_calls[0] for label in labels]
    chats = [m["content"] for chat in sft_rows("notion", "train") for m in chat["messages"]]
    tokenizer = chatml_tokenizer(
        chats, vocab_size=1024, split_words=False
    )  # prompts of ~1k tokens, as in the benchmark
    end = tokenizer.eos_token_id

    class ScriptedPolicy(script.LockstepEngine):
        """Test double of the model's generation (the LLM boundary): scripted actions per round and sample."""

        rounds = 0

        def _generate(self, prompts, budget):
            self.rounds += 1
            if self.rounds > 1:  # only the calling samples are still live: they end the turn
                return [tokenizer("Done.")["input_ids"] + [end] for _ in prompts]
            assert len(prompts) == 4, "the first round holds every sample"
            texts = [
                format_call(calls[i // 2].name, calls[i // 2].arguments) if i % 2 == 0 else "Done." for i in range(4)
            ]
            return [tokenizer(text)["input_ids"] + [end] for text in texts]

    model = tiny_qwen2(tokenizer, width=32, layers=1)
    engine = ScriptedPolicy(model, tokenizer, max_new_tokens=64, temperature=1.0)
    responses = script.rollouts(engine, tokenizer, rows, 2, SampleSettings(max_steps=3), max_length=4096)
    rewards = torch.tensor([float(r["reward"]) for r in responses]).view(2, 2)
    assert rewards.tolist() == [[1.0, 0.0], [1.0, 0.0]]
    assert [len(r["action_ranges"]) for r in responses] == [2, 1, 2, 1]
    assert engine.rounds == 2

    def action_logprobs(policy) -> list[float]:
        values = []
        for response in responses:
            ids = torch.tensor([response["observation_tokens"]])
            with torch.no_grad():
                logprobs = script.tiny.token_logprobs(policy, ids)[0]
            values.append(float(sum(logprobs[a - 1 : b - 1].sum() for a, b in response["action_ranges"])))
        return values

    updated = copy.deepcopy(model)
    advantages = script.advantages_for(rewards, shuffle=False, rng=torch.Generator())
    script.policy_step(updated, torch.optim.SGD(updated.parameters(), lr=0.5), responses, advantages)
    before, after = action_logprobs(model), action_logprobs(updated)
    assert [a > b for a, b in zip(after, before)] == [True, False, True, False]
