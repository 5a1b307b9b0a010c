"""TRL's real GRPOTrainer with the zoo's environments (environment_factory), a tiny model, on the CPU."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
trl = pytest.importorskip("trl")

from transformers.utils import get_json_schema  # noqa: E402

from envfactory_gym.registry import load_zoo_environment, zoo_keys  # noqa: E402
from envfactory_gym.state import state_hash  # noqa: E402
from envfactory_gym.tasks import load_tasks  # noqa: E402
from envfactory_training.datasets import prompt_records  # noqa: E402
from envfactory_training.episode import EpisodeLabel  # noqa: E402
from envfactory_training.renderers import trl_prompt  # noqa: E402
from envfactory_training.tiny import chatml_tokenizer, tiny_qwen2  # noqa: E402
from envfactory_training.trl_env import environment_class, environment_factories  # noqa: E402

pytestmark = pytest.mark.trl

WRONG = {"name": "no_such_tool", "arguments": {}}


@pytest.mark.parametrize("key", zoo_keys())
def test_every_tool_schema_reaches_trl_with_its_arguments(key):
    spec = load_zoo_environment(key)
    cls = environment_class(key)
    for tool in spec.agent_tools:
        schema = get_json_schema(getattr(cls, tool.name))["function"]  # what TRL renders in the prompt
        ours = tool.input_schema
        assert schema["name"] == tool.name and schema["description"] == tool.description.strip()
        assert set(schema["parameters"]["properties"]) == set(ours["properties"])
        assert set(schema["parameters"].get("required", [])) == set(ours.get("required", []))


def one_call_rows(env: str, count: int) -> list[dict]:
    tasks = load_tasks(load_zoo_environment(env))
    rows = []
    for record in prompt_records(env, "turn", "train"):
        label = EpisodeLabel.from_json(record["label"])
        if len(tasks[label.task_id].turns[label.turn].agent_calls) == 1:
            rows.append(trl_prompt(record))
        if len(rows) == count:
            return rows
    raise AssertionError(f"{env}: too few one-call turns")


def scripted_model(tokenizer, rows: list[dict]):
    """The tiny model with `generate` replaced by a script (a test double of the policy's sampling; its forward
    pass, which TRL's loss uses, stays real): the first sample of each prompt makes the turn's ground-truth call,
    the second a call of an unknown tool; after a tool result, each answers the user."""
    import torch

    model = tiny_qwen2(tokenizer, width=32, layers=1)
    calls = {}
    for row in rows:
        label = EpisodeLabel.from_json(row["label"])
        task = load_tasks(load_zoo_environment(label.env))[label.task_id]
        call = task.turns[label.turn].agent_calls[0]
        calls[task.turns[label.turn].query] = {"name": call.name, "arguments": call.arguments}
    seen: dict[str, int] = {}

    def generate(input_ids, attention_mask=None, **kwargs):
        out = []
        for ids, mask in zip(input_ids, attention_mask):
            text = tokenizer.decode(ids[mask.bool()])
            turn = text.rsplit("<|im_start|>user\n", 1)[1]
            if turn.startswith("\n<tool_response>") or turn.startswith("<tool_response>"):
                reply = "Done."
            else:
                query = turn.split("<|im_end|>")[0]
                seen[query] = seen.get(query, 0) + 1
                call = calls[query] if seen[query] % 2 == 1 else WRONG
                reply = "<tool_call>\n" + json.dumps(call, ensure_ascii=False) + "\n</tool_call>"
            new = tokenizer(reply, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
            out.append(torch.cat([ids, torch.tensor(new)]))
        width = max(len(o) for o in out)
        return torch.stack([torch.cat([o, torch.full((width - len(o),), tokenizer.pad_token_id)]) for o in out])

    model.generate = generate
    return model


@pytest.mark.slow
def test_grpo_trainer_runs_mixed_environments_with_env_owned_rewards(tmp_path, monkeypatch):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer
    from trl.chat_template_utils import qwen2_5_chat_template

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    rows = one_call_rows("notion", 1) + one_call_rows("stripe", 1)
    corpus = [json.dumps(r["prompt"], ensure_ascii=False) for r in rows]
    tokenizer = chatml_tokenizer(corpus, vocab_size=400, chat_template=qwen2_5_chat_template)
    tokenizer.padding_side = "left"
    resets: list[tuple[str, str]] = []
    rewards: list[tuple[str, float]] = []
    factories = {}
    for key, factory in environment_factories(["notion", "stripe"]).items():
        base = type(factory())

        class Recorded(base):  # records what TRL does with the real environment
            def reset(self, label, **row):
                out = super().reset(label, **row)
                resets.append((label, state_hash(self._env.session.dump())))
                return out

            def get_reward(self):
                rewards.append((self._label.to_json(), super().get_reward()))
                return rewards[-1][1]

        Recorded.__name__ = base.__name__
        factories[key] = Recorded
    args = GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=4,
        num_generations=2,
        max_completion_length=200,
        max_steps=1,
        learning_rate=1e-3,
        use_cpu=True,
        report_to=[],
        logging_steps=1,
        save_strategy="no",
        max_tool_calling_iterations=2,
        shuffle_dataset=False,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=scripted_model(tokenizer, rows),
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        environment_factory=factories,
    )
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    trainer.train()
    # every row ran twice (a GRPO group), each sample from the same replayed state as its group's other sample
    assert sorted(label for label, _ in resets) == sorted(r["label"] for r in rows for _ in range(2))
    for label in {label for label, _ in resets}:
        assert len({digest for other, digest in resets if other == label}) == 1
    # the environment owns the reward: the ground-truth call scores 1.0, the unknown tool less
    by_label: dict[str, list[float]] = {}
    for label, value in rewards:
        by_label.setdefault(label, []).append(value)
    assert set(by_label) == {r["label"] for r in rows}
    assert all(sorted(values)[-1] == pytest.approx(1.0) and sorted(values)[0] < 1.0 for values in by_label.values())
    logged = trainer.state.log_history[0]
    assert logged["rewards/NotionEnvironment/mean"] == pytest.approx(
        sum(v for key, v in rewards if '"notion"' in key) / sum(1 for key, _ in rewards if '"notion"' in key)
    )
    assert any(not p.detach().equal(before[n]) for n, p in trainer.model.named_parameters())  # it trained
