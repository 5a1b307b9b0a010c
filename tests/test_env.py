"""The gymnasium Env contract: check_env, determinism, isolation, turns, truncation, errors."""

import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import envfactory_gym
from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.agents import RandomAgent, ReferenceAgent, format_call, run_episode
from envfactory_gym.spaces import UnicodeText


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
    for action, shown in (('<tool_call>{"name": "search_pages", "arguments": </tool_call>', "is not valid JSON"),
                          ("x" * 70_000, "too long"),
                          ('<tool_call>{"name": "add_connection", "arguments": {"page_title": "HR Policies"}}'
                           "</tool_call>", "can only be performed by the user")):
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
