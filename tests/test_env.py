"""The gymnasium Env contract: check_env, determinism, isolation, turns, truncation, errors."""

import json
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import envfactory_gym
from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.agents import RandomAgent, ReferenceAgent, format_call, run_episode
from envfactory_gym.spaces import UnicodeText

from .hostile import check_step, hostile_action


def test_check_env_on_every_zoo_env(zoo_spec):
    env = ToolUseEnv(zoo_spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.close()


def test_registered_and_makeable_without_import():
    assert resolve("notion").env_id in gym.registry
    env = gym.make(f"envfactory_gym:{resolve('notion').env_id}")
    obs, info = env.reset(seed=3)
    assert isinstance(obs, str) and obs and info["task_id"].startswith("notion-")
    gym.register_envs(envfactory_gym)


def test_unicode_text_space():
    space = UnicodeText(max_length=10)
    assert space.contains("héllo 🗺️") and space.contains("")
    assert not space.contains("x" * 11) and not space.contains(b"bytes")
    assert all(space.contains(space.sample()) for _ in range(50))


def test_seed_draws_task_deterministically(notion):
    drawn = {notion.reset(seed=s)[1]["task_id"] for s in range(40)}
    assert len(drawn) > 5
    assert notion.reset(seed=7)[1]["task_id"] == notion.reset(seed=7)[1]["task_id"]


def _trace(env, agent, seed, task_id):
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    agent.reset(env, info)
    trace = [obs]
    while True:
        obs, reward, term, trunc, info = env.step(agent.act(obs, info))
        trace.append((obs, reward, term, trunc))
        if term or trunc:
            return trace, env.session.dump(), info["messages"]


@pytest.mark.parametrize("agent_factory", [ReferenceAgent, lambda: RandomAgent(seed=5)])
def test_same_seed_and_task_give_the_same_episode(agent_factory):
    first, second = ToolUseEnv("notion"), ToolUseEnv("notion")
    for task_id in ["notion-0002", "notion-0008"]:
        a = _trace(first, agent_factory(), 11, task_id)
        b = _trace(second, agent_factory(), 11, task_id)
        assert a == b


def test_reset_restores_the_snapshot_and_instances_are_isolated():
    first, second = ToolUseEnv("notion"), ToolUseEnv("notion")
    first.reset(seed=0, options={"task_id": "notion-0004"})
    second.reset(seed=0, options={"task_id": "notion-0004"})
    pristine = second.session.dump()
    result = run_episode(first, ReferenceAgent(), seed=0, task_id="notion-0004")
    assert result["reward"] == 1.0
    assert first.session.dump() != pristine  # pages were trashed and deleted
    assert second.session.dump() == pristine
    first.reset(seed=0, options={"task_id": "notion-0004"})
    assert first.session.dump() == pristine


def test_turns_observations_and_info(notion):
    obs, info = notion.reset(options={"task_id": "notion-0005"})
    assert obs == notion.task.turns[0].query
    assert [m["role"] for m in info["messages"]] == ["system", "user"]
    assert "<tools>" in info["system_prompt"] and info["tools"][0]["type"] == "function"
    call = notion.task.turns[0].calls[0]
    obs, reward, term, trunc, info = notion.step(format_call(call.name, call.arguments))
    assert obs.startswith("<tool_response>") and info["messages"][-2]["tool_calls"][0]["function"]["name"] == call.name
    obs, reward, term, trunc, info = notion.step("Let me know if there is more.")
    assert obs == notion.task.turns[1].query and info["turn"] == 1 and not term
    assert 0.0 <= info["turn_reward"]["total"] < 1.0  # the restore was not done
    with pytest.raises(RuntimeError):
        for _ in range(100):
            notion.step("ok")


def test_truncation_pays_the_reward(notion):
    env = ToolUseEnv("notion", max_steps=2)
    env.reset(options={"task_id": "notion-0001"})
    env.step(format_call("list_users", {}))
    obs, reward, term, trunc, info = env.step(format_call("list_users", {}))
    assert trunc and not term and "reward_components" in info
    assert reward == info["reward_components"]["total"]


def test_format_errors_are_observed_and_penalised(notion):
    notion.reset(options={"task_id": "notion-0016"})
    paid = 0.0
    for action, shown in (
        ('<tool_call>{"name": "search_pages", "arguments": </tool_call>', "is not valid JSON"),
        ("x" * 70_000, "too long"),
        (
            '<tool_call>{"name": "add_connection", "arguments": {"page_title": "HR Policies"}}</tool_call>',
            "can only be performed by the user",
        ),
    ):
        obs, reward, *_ = notion.step(action)
        assert shown in obs
        paid += reward
    agent = ReferenceAgent()
    agent.reset(notion, {"turn": -1})
    info = {"turn": 0}
    while True:
        obs, reward, term, trunc, info = notion.step(agent.act(obs, info))
        paid += reward
        if term:
            break
    components = info["reward_components"]
    assert components["format_penalty"] == pytest.approx(0.10)
    assert components["trajectory"] == 1.0 and components["total"] == pytest.approx(1.0 - 0.10 - 0.05)
    assert paid == pytest.approx(components["total"])  # the return is the score


def test_long_tool_output_is_truncated():
    env = ToolUseEnv("notion", max_tool_response_length=200)
    env.reset(options={"task_id": "notion-0001"})
    obs, *_ = env.step(format_call("list_users", {}))
    assert "[truncated," in obs and len(obs) < 400


# ---------------------------------------------------------------------------------------- hostile model output
@settings(max_examples=6, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_hostile_action_escapes_step(zoo_spec, data):
    """Nesting, huge numbers, NaN, surrogates, control characters, tool-call floods and wrong types at every depth:
    every step answers, keeps its history consistent and counts malformed calls (a small budget per env; the
    long run is benchmarks/fuzz_actions.py)."""
    with closing(ToolUseEnv(zoo_spec, max_steps=10_000)) as env:
        first_task = {"task_id": env.task_ids[0]}
        _, info = env.reset(options=first_task)
        rng = data.draw(st.randoms(use_true_random=True), label="rng")
        for _ in range(data.draw(st.integers(1, 3), label="steps")):
            over, info = check_step(env, hostile_action(rng, zoo_spec), info["format_errors"])
            if over:
                _, info = env.reset(options=first_task)


def test_a_crashing_action_of_the_issue_is_a_format_error_recorded_in_history(notion):
    """The 2 KB action that raised RecursionError (in a worker thread, as the rollout engine steps envs)."""
    action = "<tool_call>" + "[" * 990 + "]" * 990 + "</tool_call>"
    notion.reset(options={"task_id": "notion-0001"})
    with ThreadPoolExecutor(1) as pool:
        obs, reward, term, trunc, info = pool.submit(notion.step, action).result()
    assert obs.startswith("<tool_response>\nError: tool call #1 is refused: it nests deeper than 32 levels")
    assert info["format_errors"] == 1 and info["step"] == 1 and not term
    assert info["messages"][-2] == {"role": "assistant", "content": action}
    assert info["messages"][-1]["name"] == "format_error"


def test_over_long_and_unreadable_actions_are_recorded(notion):
    notion.reset(options={"task_id": "notion-0001"})
    obs, *_, info = notion.step("y" * 70_000)
    assert info["messages"][-2]["content"] == "y" * 65_536 + "... [truncated, 70000 characters]"
    obs, *_, info = notion.step(b"bytes")  # outside the action space: still one step, one format error
    assert "the action must be text, got bytes" in obs
    assert info["step"] == 2 and sum(m["role"] == "assistant" for m in info["messages"]) == 2
    assert info["format_errors"] == 2


def test_unpaired_surrogates_never_reach_the_history(notion):
    notion.reset(options={"task_id": "notion-0001"})
    obs, *_, info = notion.step("All done \ud800.")
    assert info["messages"][-2]["content"] == "All done \ufffd."
    json.dumps(info["messages"], ensure_ascii=False).encode("utf-8")


class ExplodingParser:
    def parse(self, action):
        raise MemoryError("parser gave up")


def test_a_parser_that_raises_gives_a_format_error():
    env = ToolUseEnv("notion", parser=ExplodingParser())
    env.reset(options={"task_id": "notion-0001"})
    obs, *_, info = env.step("anything")
    assert "the action could not be parsed (MemoryError: parser gave up)" in obs and info["format_errors"] == 1
    env.close()
