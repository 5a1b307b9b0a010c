"""The behaviour wrappers: step-level format penalty, history truncation and chat-template observations, on the
real Notion environment."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.agents import ReferenceAgent, format_call, run_episode
from envfactory_gym.wrappers import (
    ChatTemplateObservation,
    StepFormatPenalty,
    TruncateHistory,
    template_messages,
    truncate_history,
)

TASK = "notion-0001"  # two turns


def test_a_malformed_call_is_penalised_at_once_and_ends_the_episode():
    env = StepFormatPenalty(ToolUseEnv("notion"))
    env.reset(options={"task_id": TASK})
    _, first, terminated, truncated, info = env.step(format_call("search_pages", {"query": "Q4 roadmap"}))
    assert first > 0.0 and not terminated and not truncated and "format_terminated" not in info
    _, reward, terminated, truncated, info = env.step('<tool_call>{"name": "search_pages", "arguments": {</tool_call>')
    assert (terminated, truncated) == (True, False) and info["format_terminated"]
    assert first + reward == -1.0  # the episode's return is the penalty
    assert info["format_errors"] == 1
    components = info["reward_components"]
    assert components["total"] == -1.0 and components["format_penalty"] == 0.05 and components["agent_calls"] == 1
    env.reset(options={"task_id": TASK})  # the next episode starts clean
    _, reward, terminated, _, info = env.step("Nothing to do.")
    assert reward == info["reward_components"]["total"] and not terminated and info["format_errors"] == 0


def test_without_malformed_calls_the_format_penalty_changes_nothing():
    plain = run_episode(ToolUseEnv("notion"), ReferenceAgent(), task_id=TASK)
    wrapped = StepFormatPenalty(ToolUseEnv("notion"), penalty=-0.5)
    observation, info = wrapped.reset(options={"task_id": TASK})
    agent = ReferenceAgent()
    agent.reset(wrapped.unwrapped, info)
    paid = 0.0
    while True:
        observation, reward, terminated, truncated, info = wrapped.step(agent.act(observation, info))
        paid += reward
        if terminated or truncated:
            break
    assert paid == pytest.approx(plain["reward"]) and plain["reward"] == 1.0
    assert info["messages"] == plain["info"]["messages"]


def test_truncated_history_keeps_the_system_prompt_and_the_last_turns():
    env = TruncateHistory(ToolUseEnv("notion"), max_turns=1)
    _, info = env.reset(options={"task_id": TASK})
    assert info["messages"] == info["full_messages"]  # one turn so far
    env.step(format_call("search_pages", {"query": "Q4 roadmap"}))
    _, _, _, _, info = env.step("Here is what is open.")
    full, seen = info["full_messages"], info["messages"]
    assert [m["role"] for m in seen] == ["system", "user"] and seen[1]["content"] == full[-1]["content"]
    assert seen[0] == full[0]
    assert [m["role"] for m in full] == ["system", "user", "assistant", "tool", "assistant", "user"]
    with pytest.raises(ValueError):
        TruncateHistory(ToolUseEnv("notion"), max_turns=0)


def test_truncate_history_cuts_at_user_turns():
    messages = [{"role": "system", "content": "s"}]
    for turn in range(3):
        messages += [{"role": "user", "content": f"q{turn}"}, {"role": "assistant", "content": f"a{turn}"}]
    assert truncate_history(messages, 3) == messages
    assert [m["content"] for m in truncate_history(messages, 2)] == ["s", "q1", "a1", "q2", "a2"]


# ChatML with tools and tool calls rendered the way Qwen-style templates do (arguments as objects, via tojson).
TOOL_TEMPLATE = (
    "{% if tools %}<|im_start|>system\n<tools>{% for t in tools %}{{ t.function.name }};{% endfor %}"
    "</tools><|im_end|>\n{% endif %}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content or '' }}"
    "{% for c in m.tool_calls or [] %}<tool_call>{{ c.function.name }} {{ c.function.arguments | tojson }}</tool_call>"
    "{% endfor %}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def test_chat_template_observation_is_the_prompt_for_the_next_action():
    pytest.importorskip("transformers")
    from .training.fakes import tiny_tokenizer

    tokenizer = tiny_tokenizer()
    env = ChatTemplateObservation(gym.make(resolve("notion").env_id), tokenizer, chat_template=TOOL_TEMPLATE)
    observation, info = env.reset(options={"task_id": TASK})
    assert observation.startswith("<|im_start|>system\n<tools>search_pages;") and "empty_trash;</tools>" in observation
    assert "add_connection;" not in observation  # the user-only tool is not offered
    assert info["messages"][1]["content"] in observation and observation.endswith("<|im_start|>assistant\n")
    observation, *_ = env.step(format_call("search_pages", {"query": "Q4 roadmap"}))
    assert '<tool_call>search_pages {"query": "Q4 roadmap"}</tool_call>' in observation
    assert "Q4 Roadmap" in observation.split("<tool_call>")[-1] and observation.endswith("<|im_start|>assistant\n")
    assert env.observation_space.contains(observation)


def test_template_messages_give_tool_call_arguments_as_objects():
    env = ToolUseEnv("notion")
    env.reset(options={"task_id": TASK})
    _, _, _, _, info = env.step(format_call("search_pages", {"query": "Q4 roadmap"}))
    (call,) = template_messages(info["messages"])[2]["tool_calls"]
    assert call["function"]["arguments"] == {"query": "Q4 roadmap"}
    assert json.loads(info["messages"][2]["tool_calls"][0]["function"]["arguments"]) == {"query": "Q4 roadmap"}
