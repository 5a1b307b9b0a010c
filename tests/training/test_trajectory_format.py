"""The one trajectory format: rollout output, bench episodes, SFT and RL exports; renderers; HF datasets export."""

from __future__ import annotations

import json

import pytest

from envfactory_gym.bench.records import EpisodeRecord
from envfactory_gym.cli import main
from envfactory_gym.prompts import FORMAT_ERROR_TOOL, system_prompt, without_tool_listing
from envfactory_gym.registry import load_zoo_environment, zoo_keys
from envfactory_gym.rollout import GroundTruthPolicy, rollout, validate_record
from envfactory_gym.tasks import load_tasks
from envfactory_gym.versioning import environment_content_hash
from envfactory_training.datasets import prompt_records, sft_records
from envfactory_training.renderers import openrlhf_sft, renderer, text_messages, text_system, trl_sft

datasets = pytest.importorskip("datasets")

MALFORMED = '<tool_call>{"name": "search_pages", "arguments": {"query": </tool_call>'


class ScriptedPolicy:
    """A rollout policy that first sends one malformed call, then plays the ground truth (a test double of a model)."""

    def __init__(self) -> None:
        self.truth = GroundTruthPolicy(["notion"])
        self.sent = False

    async def __call__(self, messages, tools):
        if not self.sent:
            self.sent = True
            return MALFORMED
        return self.truth.act(messages)


def test_rollout_output_is_in_the_format_with_ids_that_match():
    trajectory = rollout(ScriptedPolicy(), [("notion", "notion-0001")], concurrency=1)[0]
    record = trajectory.record()
    validate_record(record)
    spec = load_zoo_environment("notion")
    assert record["tools"] == spec.openai_tools and record["env"] == "notion" and record["env_version"] == spec.version
    assert record["env_hash"] == environment_content_hash(spec.folder)
    assert record["reward"] == trajectory.reward and record["reward_components"] == trajectory.reward_components
    assert record["messages"][0]["content"] == without_tool_listing(trajectory.messages[0]["content"])
    calls = [c["id"] for m in record["messages"] for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in record["messages"] if m["role"] == "tool"]
    assert calls == answered and len(calls) >= 2
    errors = [m for m in record["messages"] if m.get("name") == FORMAT_ERROR_TOOL]
    assert len(errors) == 1 and errors[0]["role"] == "user"  # answers no call, so not a tool message
    # the text form gives the model exactly what the env showed it: the report is a tool result again
    text = text_messages(record)
    assert text[0]["content"] == trajectory.messages[0]["content"]
    assert [m["role"] for m in text] == [m["role"] for m in trajectory.messages]


def test_validate_record_names_what_is_wrong():
    record = next(sft_records("notion", "train"))
    validate_record(record)
    dangling = json.loads(json.dumps(record))
    dangling["messages"][3]["tool_call_id"] = "nowhere"
    with pytest.raises(ValueError, match=r"messages\[3\].*'nowhere'"):
        validate_record(dangling)
    unknown = json.loads(json.dumps(record))
    unknown["messages"][2]["tool_calls"][0]["function"]["name"] = "drop_database"
    with pytest.raises(ValueError, match="drop_database"):
        validate_record(unknown)
    with pytest.raises(ValueError, match="reward"):
        validate_record({k: v for k, v in record.items() if k != "reward"})


def test_bench_episodes_give_the_same_record_as_the_rollout():
    trajectory = rollout(GroundTruthPolicy(["notion"]), [("notion", "notion-0002")], concurrency=1)[0]
    episode = EpisodeRecord.from_trajectory("model", "notion", "office", trajectory)
    stored = EpisodeRecord.from_dict(json.loads(json.dumps(episode.as_dict())))
    record = stored.trajectory_record()
    validate_record(record)
    assert {k: v for k, v in record.items() if k != "agent"} == trajectory.record()
    assert record["agent"] == "model" and record["reward"] == pytest.approx(1.0)


@pytest.mark.parametrize("key", zoo_keys())
def test_text_form_restores_every_env_system_prompt(key):
    spec = load_zoo_environment(key)
    task = next(iter(load_tasks(spec).values()))
    prompt = system_prompt(spec, task.clock)
    assert text_system(without_tool_listing(prompt), spec.openai_tools, spec.product) == prompt


def _descriptions_seen(rendered: str, tools: list[dict]) -> set[int]:
    return {rendered.count(json.dumps(t["function"]["description"], ensure_ascii=False)[1:-1]) for t in tools}


def test_each_trainer_sft_path_sees_the_tool_schemas_once():
    from envfactory_training.tiny import chatml_tokenizer

    trl_templates = pytest.importorskip("trl.chat_template_utils")
    record = next(sft_records("notion", "train"))
    corpus = [json.dumps(record["messages"])]
    tools = record["tools"]
    # OpenRLHF: its SFT applies the template without tools, so the system prompt lists them
    plain = chatml_tokenizer(corpus, vocab_size=300)
    text = plain.apply_chat_template(openrlhf_sft(record)["messages"], tokenize=False)
    assert _descriptions_seen(text, tools) == {1}
    # TRL: its SFT hands the `tools` column to the template; the system prompt lists none
    qwen = chatml_tokenizer(corpus, vocab_size=300, chat_template=trl_templates.qwen2_5_chat_template)
    row = trl_sft(record)
    text = qwen.apply_chat_template(row["messages"], tools=row["tools"], tokenize=False)
    assert _descriptions_seen(text, tools) == {1}
    # a `synth tasks` chat (its own system prompt, tools beside it) gets them listed once for OpenRLHF
    synth = {**record, "messages": [{"role": "system", "content": "You help a Notion user."}, *record["messages"][1:]]}
    text = plain.apply_chat_template(openrlhf_sft(synth)["messages"], tokenize=False)
    assert _descriptions_seen(text, tools) == {1}


def test_exports_mix_environments_and_load_with_load_dataset(tmp_path):
    records = list(sft_records("notion", "train"))[:3] + list(sft_records("stripe", "train"))[:3]
    for out in (tmp_path / "folder", tmp_path / "rows.jsonl"):
        assert main(["train-data", "notion", "stripe", "--mode", "sft", "--out", str(out)]) == 0
    folder = datasets.load_dataset(str(tmp_path / "folder"), split="train")
    lines = datasets.load_dataset("json", data_files=str(tmp_path / "rows.jsonl"), split="train")
    for loaded in (folder, lines):
        by_task = {row["task_id"]: row for row in loaded}
        for record in records:
            row = by_task[record["task_id"]]
            assert row["tools"] == record["tools"] and row["reward_components"] == record["reward_components"]
            assert [m["content"] for m in row["messages"]] == [m["content"] for m in record["messages"]]
            assert [m.get("tool_calls") for m in row["messages"]] == [m.get("tool_calls") for m in record["messages"]]


def test_trainer_rows_load_back_as_written(tmp_path):
    record = next(prompt_records("notion", "conversation", "test"))
    for trainer in ("openrlhf", "trl", "verl", "skyrl"):
        out = tmp_path / trainer
        assert (
            main(
                [
                    "train-data",
                    "notion",
                    "--mode",
                    "conversation",
                    "--split",
                    "test",
                    "--trainer",
                    trainer,
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        first = datasets.load_dataset(str(out), split="test")[0]
        assert first == json.loads(json.dumps(renderer(trainer, "prompt")(record)))
    assert main(["train-data", "notion", "--mode", "sft", "--trainer", "verl", "--out", str(tmp_path / "x")]) == 2


def test_push_to_hub_sends_the_saved_rows(tmp_path, monkeypatch):
    pushed = []
    # the Hub is the network boundary: record the call instead of sending
    monkeypatch.setattr(datasets.Dataset, "push_to_hub", lambda self, repo, **kw: pushed.append((self, repo, kw)))
    out = tmp_path / "sft"
    assert (
        main(
            [
                "train-data",
                "notion",
                "--mode",
                "sft",
                "--split",
                "test",
                "--out",
                str(out),
                "--push-to-hub",
                "someone/envfactory-sft",
            ]
        )
        == 0
    )
    ((dataset, repo, options),) = pushed
    assert repo == "someone/envfactory-sft" and options == {"split": "test", "private": True}
    assert dataset.to_list() == datasets.load_dataset(str(out), split="test").to_list()
