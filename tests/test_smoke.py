"""The public entry points work: gym.make by id (with and without import), reset, step."""

import gymnasium as gym

import envfactory_gym


def test_make_reset_step_notion():
    gym.register_envs(envfactory_gym)
    env = gym.make("envfactory/Notion-v0")
    obs, info = env.reset(seed=0, options={"task_id": "notion-0003"})
    assert "postmortem" in obs
    obs, reward, terminated, truncated, info = env.step(
        '<tool_call>{"name": "search_pages", "arguments": {"query": "Q3 roadmap"}}</tool_call>'
    )
    assert "<tool_response>" in obs and "Q3 Roadmap" in obs
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["messages"][-1]["role"] == "tool"
