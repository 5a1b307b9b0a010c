"""OpenRLHF's real MultiTurnAgentExecutor.execute over envfactory envs, with a scripted engine and a tiny tokenizer."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("openrlhf.utils.agent")

from envfactory_gym.env import ToolUseEnv  # noqa: E402
from envfactory_gym.registry import load_zoo_environment  # noqa: E402
from envfactory_gym.tasks import load_tasks  # noqa: E402
from envfactory_training.datasets import prompt_rows  # noqa: E402
from envfactory_training.episode import EpisodeLabel, start_episode  # noqa: E402
from envfactory_training.openrlhf_agent import AgentExecutor  # noqa: E402
from envfactory_training.renderers import text_message  # noqa: E402
from envfactory_training.sample import SampleSettings  # noqa: E402

from .fakes import CLOSING, ScriptedEngine, conversation_actions, sampling_params, tiny_tokenizer, turn_actions  # noqa: E402

pytestmark = pytest.mark.openrlhf

BIG = 1_000_000
TASKS = load_tasks(load_zoo_environment("notion"))


def prompt_row(task_id: str, mode: str, turn: int = 0) -> dict:
    """The dataset row of one sample, as `envfactory train-data` writes it."""
    rows = [
        r for r in prompt_rows("notion", mode, split="all") if EpisodeLabel.from_json(r["label"]).task_id == task_id
    ]
    return next(r for r in rows if EpisodeLabel.from_json(r["label"]).turn == turn)


def run(
    row: dict,
    actions: list[str],
    max_length: int = BIG,
    settings: SampleSettings | None = None,
    first_budget: int | None = None,
) -> tuple[dict, ScriptedEngine]:
    """One sample through the real executor; the prompt is the row rendered as OpenRLHF's PromptDataset does."""
    tokenizer = tiny_tokenizer()
    prompt = tokenizer.apply_chat_template(row["messages"], tokenize=False, add_generation_prompt=True)
    engine = ScriptedEngine(actions, tokenizer)
    executor = AgentExecutor(settings or SampleSettings())
    response = asyncio.run(
        executor.execute(prompt, row["label"], sampling_params(first_budget), max_length, tokenizer, engine)
    )
    return response, engine


def reference(label: EpisodeLabel, actions: list[str]) -> tuple[float, list[dict]]:
    """Score and final messages of the same actions played on a plain env through the gymnasium API."""
    env = ToolUseEnv("notion", max_steps=10**9)
    info = start_episode(env, label)
    score = 0.0
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        if label.mode == "turn" and "turn_reward" in info:
            score = info["turn_reward"]["total"]
            break
        score = (
            info["reward_components"]["total"]
            if terminated
            else env.current_score(label.mode if label.mode == "turn" else "episode").total
        )
    env.close()
    return score, info["messages"]


def executed_actions(response: dict) -> list[str]:
    """The action texts the env received, decoded from the action ranges (the eos token dropped)."""
    tokens = response["observation_tokens"]
    return [tiny_tokenizer().decode(tokens[a:b], skip_special_tokens=True) for a, b in response["action_ranges"]]


def test_ground_truth_conversation_pays_exactly_the_episode_score():
    row = prompt_row("notion-0001", "conversation")
    actions = conversation_actions("notion-0001")
    response, engine = run(row, actions)
    assert len(engine.prompts) == len(actions)  # every action was asked for, and the last one ended the sample
    assert response["reward"] == pytest.approx(1.0)
    assert float(response["scores"]) == pytest.approx(1.0)


def test_imperfect_conversation_pays_the_score_the_env_gives():
    task = "notion-0006"
    actions = conversation_actions(task)
    actions = [a for i, a in enumerate(actions) if i != 1]  # one ground-truth call skipped
    actions.insert(0, '<tool_call>{"name": "search_pages", "arguments": {"query": "nothing"}}</tool_call>')
    response, _ = run(prompt_row(task, "conversation"), actions)
    expected, _ = reference(EpisodeLabel("notion", task), actions)
    assert 0.0 < expected < 1.0
    assert response["reward"] == pytest.approx(expected)
    assert float(response["scores"]) == pytest.approx(expected)


def test_action_mask_covers_only_model_tokens_and_feedback_follows_the_template():
    task = "notion-0001"
    row = prompt_row(task, "conversation")
    actions = conversation_actions(task)
    response, engine = run(row, actions)
    tokenizer = tiny_tokenizer()
    tokens = response["observation_tokens"]
    eos = tokenizer.eos_token_id
    model_tokens = [tokenizer(a, add_special_tokens=False)["input_ids"] + [eos] for a in actions]
    assert [tokens[a:b] for a, b in response["action_ranges"]] == model_tokens
    for (a, _), prompt in zip(response["action_ranges"], engine.prompts):
        assert tokens[:a] == prompt  # each generation saw exactly the stream before its range
    _, messages = reference(EpisodeLabel("notion", task), actions)
    rendered = tokenizer.apply_chat_template([text_message(m) for m in messages], tokenize=False)
    assert tokenizer.decode(tokens) + "\n" == rendered  # the stream is the template's rendering of the episode
    in_action = [any(a <= i < b for a, b in response["action_ranges"]) for i in range(len(tokens))]
    outside = tokenizer.decode([t for t, inside in zip(tokens, in_action) if not inside])
    assert all(a not in outside for a in actions) and "<tool_response>" in outside


def test_truncation_mid_episode_pays_the_partial_score():
    task = "notion-0006"
    actions = conversation_actions(task)
    full, _ = run(prompt_row(task, "conversation"), actions)
    cut = full["action_ranges"][3][0] + 3  # the 4th action gets three tokens of budget
    response, engine = run(prompt_row(task, "conversation"), actions, max_length=cut)
    assert len(engine.prompts) == 4 and response["truncated"]
    sent = executed_actions(response)
    assert sent[:3] == actions[:3] and sent[3] != actions[3]
    expected, _ = reference(EpisodeLabel("notion", task), sent)
    assert 0.0 < expected < 1.0
    assert response["reward"] == pytest.approx(expected)


def test_turn_mode_replays_earlier_turns_and_pays_the_turn_score():
    task = "notion-0006"
    row = prompt_row(task, "turn", turn=1)
    assert [m["role"] for m in row["messages"]].count("user") == 2
    response, engine = run(row, turn_actions(task, 1))
    assert response["reward"] == pytest.approx(1.0) and len(engine.prompts) == len(turn_actions(task, 1))
    _, messages = reference(EpisodeLabel("notion", task, 1, "turn"), turn_actions(task, 1))
    tokenizer = tiny_tokenizer()
    messages = messages[: max(i for i, m in enumerate(messages) if m["role"] == "assistant") + 1]  # turn 2 is not shown
    rendered = tokenizer.apply_chat_template([text_message(m) for m in messages], tokenize=False)
    assert tokenizer.decode(response["observation_tokens"]) + "\n" == rendered  # the prompt's history is the env's
    lazy = [CLOSING]
    response, _ = run(row, lazy)
    expected, _ = reference(EpisodeLabel("notion", task, 1, "turn"), lazy)
    assert expected < 1.0
    assert response["reward"] == pytest.approx(expected)


def test_turn_mode_truncated_pays_the_turn_so_far():
    task = "notion-0006"
    row = prompt_row(task, "turn", turn=0)
    actions = turn_actions(task, 0)
    assert len(actions) >= 3
    full, _ = run(row, actions)
    response, _ = run(row, actions, max_length=full["action_ranges"][1][1] + 2)  # stops after the 2nd action
    sent = executed_actions(response)
    expected, _ = reference(EpisodeLabel("notion", task, 0, "turn"), sent)
    assert len(sent) == 2 and 0.0 < expected < 1.0
    assert response["reward"] == pytest.approx(expected)


def test_concurrent_samples_stay_isolated():
    tokenizer = tiny_tokenizer()
    executor = AgentExecutor()
    cases = []
    for task in ("notion-0001", "notion-0002", "notion-0006"):
        good = conversation_actions(task)
        cases += [(task, good), (task, [CLOSING] * len(good)), (task, good[1:])]
    rows = {task: prompt_row(task, "conversation") for task, _ in cases}

    async def all_samples():
        jobs = []
        for task, actions in cases:
            prompt = tokenizer.apply_chat_template(rows[task]["messages"], tokenize=False, add_generation_prompt=True)
            engine = ScriptedEngine(actions, tokenizer)
            jobs.append(executor.execute(prompt, rows[task]["label"], sampling_params(), BIG, tokenizer, engine))
        return await asyncio.gather(*jobs)

    responses = asyncio.run(all_samples())
    for (task, _actions), response in zip(cases, responses):
        expected, _ = reference(EpisodeLabel("notion", task), executed_actions(response))
        assert response["reward"] == pytest.approx(expected), task
    assert {round(r["reward"], 6) for r in responses} != {1.0}  # the cases really differ


def test_step_format_penalty_ends_the_sample_with_the_penalty():
    task = "notion-0001"
    actions = ['<tool_call>{"name": "search_pages", "arguments": {</tool_call>'] + conversation_actions(task)
    response, engine = run(prompt_row(task, "conversation"), actions, settings=SampleSettings(format_penalty=-1.0))
    assert len(engine.prompts) == 1 and response["reward"] == pytest.approx(-1.0)
    assert response["extra_logs"]["format_terminated"] == 1.0
    plain, _ = run(prompt_row(task, "conversation"), actions)  # without the option the episode goes on
    assert plain["reward"] > 0.5


def test_history_truncation_keeps_the_last_turns_in_the_prompt():
    task = next(t for t, spec in TASKS.items() if len(spec.turns) >= 3)
    row = prompt_row(task, "turn", turn=2)
    actions = turn_actions(task, 2)
    response, engine = run(row, actions, settings=SampleSettings(history_turns=1))
    full, _ = run(row, actions)
    prompt = tiny_tokenizer().decode(engine.prompts[0])
    queries = [t.query for t in TASKS[task].turns]
    assert queries[2] in prompt and queries[0] not in prompt and queries[1] not in prompt
    assert prompt.startswith("<|im_start|>system\n" + row["messages"][0]["content"])
    assert len(engine.prompts[0]) < len(
        tiny_tokenizer()(
            tiny_tokenizer().apply_chat_template(row["messages"], tokenize=False, add_generation_prompt=True)
        )["input_ids"]
    )
    assert response["reward"] == pytest.approx(full["reward"]) == pytest.approx(1.0)


def test_generation_limit_applies_to_every_action():
    task = "notion-0006"
    actions = conversation_actions(task)
    response, engine = run(prompt_row(task, "conversation"), actions, first_budget=6)
    assert len(engine.budgets) > 2 and all(b == 6 for b in engine.budgets)
    assert all(b - a <= 6 for a, b in response["action_ranges"])
    response, engine = run(prompt_row(task, "conversation"), actions, settings=SampleSettings(max_new_tokens=4))
    assert all(b == 4 for b in engine.budgets)


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("ENVFACTORY_FORMAT_PENALTY", "-0.5")
    monkeypatch.setenv("ENVFACTORY_HISTORY_TURNS", "2")
    monkeypatch.setenv("ENVFACTORY_USER", "llm")
    assert SampleSettings.from_env() == SampleSettings(format_penalty=-0.5, history_turns=2, user="llm")
    monkeypatch.setenv("ENVFACTORY_HISTORY_TURNS", "two")
    with pytest.raises(ValueError, match="ENVFACTORY_HISTORY_TURNS"):
        SampleSettings.from_env()


def test_llm_user_episodes_are_judged_and_flagged_for_meu(monkeypatch):
    from tests.fake_openai import FakeEndpoint, completion
    from tests.test_llm_user import COMMENT, SHARED, STOP, TASK

    server = FakeEndpoint()
    monkeypatch.setenv("ENVFACTORY_LLM_BASE_URL", server.url)
    monkeypatch.setenv("ENVFACTORY_LLM_MODEL", "user-model")
    try:
        for answer in (SHARED, COMMENT, STOP):
            server.add(body=completion(json.dumps(answer)))
        server.add(body=completion(json.dumps({"errors": [{"turn": 1, "kind": "changed_request"}]})))
        actions = conversation_actions(TASK)
        response, _ = run(prompt_row(TASK, "conversation"), actions, settings=SampleSettings(user="llm"))
        assert response["extra_logs"]["user_error"] == 1.0 and response["reward"] == pytest.approx(1.0)
        judged = server.requests[-1]["body"]["messages"][1]["content"]
        assert "[1] " + SHARED["message"] in judged
    finally:
        server.close()
