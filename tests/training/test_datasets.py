"""Prompt datasets, SFT export, splits, the train-data command and ToolUseEnv.current_score."""

from __future__ import annotations

import json

import pytest

from envfactory_gym.agents import ReferenceAgent
from envfactory_gym.cli import main
from envfactory_gym.env import ToolUseEnv
from envfactory_gym.registry import load_zoo_environment, resolve
from envfactory_gym.splits import split_task_ids
from envfactory_gym.tasks import load_tasks
from envfactory_training.datasets import prompt_rows, sft_rows
from envfactory_training.episode import EpisodeLabel

TASKS = load_tasks(load_zoo_environment("notion"))


def test_turn_rows_hold_the_history_up_to_their_turn():
    rows = list(prompt_rows("notion", "turn", split="all"))
    assert len(rows) == sum(len(t.turns) for t in TASKS.values())
    for row in rows:
        label = EpisodeLabel.from_json(row["label"])
        task = TASKS[label.task_id]
        users = [m["content"] for m in row["messages"] if m["role"] == "user"]
        assert users == [t.query for t in task.turns[: label.turn + 1]]
        assert row["messages"][0]["role"] == "system" and row["datasource"] == "notion"
        calls = sum(len(t.agent_calls) for t in task.turns[: label.turn])
        assert sum("<tool_call>" in m["content"] for m in row["messages"] if m["role"] == "assistant") == calls
        assert all(isinstance(v, str) for m in row["messages"] for v in m.values())


def test_conversation_rows_start_at_the_first_query():
    rows = list(prompt_rows("notion", "conversation", split="all"))
    assert len(rows) == len(TASKS)
    for row in rows:
        label = EpisodeLabel.from_json(row["label"])
        assert label.mode == "conversation" and label.turn == 0
        assert [m["role"] for m in row["messages"]] == ["system", "user"]


def test_sft_chats_replay_to_a_perfect_score():
    rows = list(sft_rows("notion", split="all"))
    assert len(rows) == len(TASKS)
    env = ToolUseEnv("notion")
    for row in rows:
        assert "tools" not in row  # OpenRLHF's SFT reads the tools from the system prompt, as the env shows them
        _, info = env.reset(options={"task_id": row["task_id"]})
        assert row["messages"][0]["content"] == info["system_prompt"]
        paid = 0.0
        for message in row["messages"]:
            if message["role"] == "assistant":
                _, reward, terminated, _, info = env.step(message["content"])
                paid += reward
        assert terminated and paid == pytest.approx(1.0) == info["reward_components"]["total"]
        assert info["messages"][-1]["content"] == row["messages"][-1]["content"]
    env.close()


def test_rows_follow_the_stored_split_that_bench_holds_out():
    held_out = set(split_task_ids(resolve("notion"), "test"))
    train = {EpisodeLabel.from_json(r["label"]).task_id for r in prompt_rows("notion", "conversation", "train")}
    with pytest.warns(UserWarning, match="held-out test tasks are for evaluation"):
        test = {EpisodeLabel.from_json(r["label"]).task_id for r in prompt_rows("notion", "conversation", "test")}
    sft = {r["task_id"] for r in sft_rows("notion", "train")}
    assert test == held_out and train == sft and not train & test and len(train | test) == len(TASKS)


def test_label_round_trip_and_rejects_bad_mode():
    label = EpisodeLabel("notion", "notion-0001", 1, "turn")
    assert EpisodeLabel.from_json(label.to_json()) == label
    with pytest.raises(ValueError):
        EpisodeLabel.from_json(json.dumps({"env": "notion", "task_id": "x", "turn": 0, "mode": "step"}))


def test_train_data_command_writes_jsonl(tmp_path, capsys):
    out = tmp_path / "turns.jsonl"
    assert main(["train-data", "notion", "--mode", "turn", "--split", "all", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == sum(len(t.turns) for t in TASKS.values())
    assert f"wrote {len(rows)} turn rows" in capsys.readouterr().out
    assert main(["train-data", "nowhere", "--out", str(out)]) == 2


@pytest.mark.parametrize("task_id", ["notion-0001", "notion-0006"])
def test_current_score_is_what_truncation_would_pay(task_id):
    """After every prefix of the reference play, current_score() equals the return of stopping there (the sum of
    the rewards paid so far, whether the env truncates itself or not), and the turn scope equals the turn reward
    the closing message (which changes nothing) then pays."""
    probe = ToolUseEnv("notion", max_steps=10**6)
    _, info = probe.reset(options={"task_id": task_id})
    agent = ReferenceAgent()
    agent.reset(probe, info)
    actions, scores, turn_rewards, paid = [], [], 0, 0.0
    while True:
        turn_before = probe.current_score("turn").total
        actions.append(agent.act("", info))
        _, reward, terminated, _, info = probe.step(actions[-1])
        paid += reward
        scores.append(probe.current_score().total)
        assert paid == pytest.approx(scores[-1])
        if "turn_reward" in info:
            turn_rewards += 1
            assert info["turn_reward"]["total"] == pytest.approx(turn_before)
        if terminated:
            assert scores[-1] == pytest.approx(1.0)
            break
    assert turn_rewards == len(TASKS[task_id].turns) and len(set(scores)) > 1
    for k in range(1, len(actions)):
        cut = ToolUseEnv("notion", max_steps=k, reward_mode="final")  # pays everything when it truncates itself
        cut.reset(options={"task_id": task_id})
        for action in actions[:k]:
            _, reward, _, truncated, _ = cut.step(action)
        assert truncated and float(reward) == pytest.approx(scores[k - 1])
        cut.close()
    probe.close()
