"""The public entry points work: gym.make by id (with and without import), reset, step."""

import gymnasium as gym

import envfactory_gym


def test_make_reset_step_notion():
    gym.register_envs(envfactory_gym)
    env = gym.make(envfactory_gym.resolve("notion").env_id)
    obs, info = env.reset(seed=0, options={"task_id": "notion-0003"})
    assert "postmortem" in obs
    obs, reward, terminated, truncated, info = env.step(
        '<tool_call>{"name": "search_pages", "arguments": {"query": "Q3 roadmap"}}</tool_call>'
    )
    assert "<tool_response>" in obs and "Q3 Roadmap" in obs
    assert not terminated and not truncated
    assert 0.0 < reward == info["reward_components"]["total"] < 1.0  # the score so far: one of the calls matched
    assert info["messages"][-1]["role"] == "tool"
