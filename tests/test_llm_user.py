"""The LLM simulated user in the Env (`user="llm"`) and the MEU wrapper, against an OpenAI-compatible HTTP
endpoint on 127.0.0.1 that answers from a script (the network is the one faked boundary)."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.agents import ReferenceAgent
from envfactory_gym.llm import LLMClient, find_internal_ids, internal_ids
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import load_tasks
from envfactory_gym.users import ScriptedUser, make_user
from envfactory_gym.users.llm import STOP_TOKEN, LLMUser
from envfactory_gym.wrappers import FlagUserErrors

from .fake_openai import FakeEndpoint, completion

HR_POLICIES = "639078ba-045f-5397-85a6-f0c1a6f275cf"
TASK = "notion-0007"  # turn 2 needs the user to share HR Policies with the integration (a user-only tool)
SHARED = {
    "message": "I've just shared the HR Policies page with you in Notion. Could you check again?",
    "user_calls": [{"name": "add_connection", "arguments": {"page_title": "HR Policies"}}],
    "next_request": True,
}
COMMENT = {
    "message": 'Great. Leave a comment there: "Please clarify whether carry-over days expire in March."',
    "user_calls": [],
    "next_request": True,
}
STOP = {"message": STOP_TOKEN, "user_calls": [], "next_request": False}


@pytest.fixture
def endpoint(monkeypatch):
    server = FakeEndpoint()
    monkeypatch.setenv("ENVFACTORY_LLM_BASE_URL", server.url)
    monkeypatch.setenv("ENVFACTORY_LLM_MODEL", "user-model")
    yield server
    server.close()


def reply(endpoint: FakeEndpoint, answer: dict) -> None:
    endpoint.add(body=completion(json.dumps(answer)))


def play(env: gym.Env, task_id: str = TASK) -> tuple[float, dict]:
    """The reference agent against whatever user the env has; returns the episode's return (its score) and the
    final info."""
    core = env.unwrapped
    observation, info = env.reset(options={"task_id": task_id})
    agent = ReferenceAgent()
    agent.reset(core, info)
    paid = 0.0
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation, info))
        paid += float(reward)
        if terminated or truncated:
            assert paid == pytest.approx(info["reward_components"]["total"])
            return round(paid, 12), info


def user_prompts(endpoint: FakeEndpoint) -> list[list[dict]]:
    return [r["body"]["messages"] for r in endpoint.requests if r.get("body", {}).get("model") == "user-model"]


def test_llm_user_through_gym_make_runs_user_tools_and_stops(endpoint):
    for answer in (SHARED, COMMENT, STOP):
        reply(endpoint, answer)
    env = gym.make(resolve("notion").env_id, user="llm", disable_env_checker=True)
    core = env.unwrapped
    assert isinstance(core.user, LLMUser)
    reward, info = play(env)
    assert reward == 1.0 and info["turn"] == 2
    assert core.session.dump()["pages"][HR_POLICIES]["shared_with_integration"] is True  # run as caller="user"
    assert [r.source for r in core.user.log] == ["planned", "llm", "llm", "llm"]
    prompts = user_prompts(endpoint)
    assert len(prompts) == 3
    system, user = prompts[0][0]["content"], prompts[0][1]["content"]
    task = load_tasks(core.spec_env)[TASK]
    assert task.user.scenario in system and all(t.query in system for t in task.turns)
    assert "add_connection(page_title)" in system and STOP_TOKEN in system
    assert "assistant: Done. Is there anything else?" in user
    session = ToolSession(core.spec_env)
    session.reset()
    ids = internal_ids(session.dump())
    session.close()
    for messages in prompts:  # the user knows names, never internal ids
        assert all(find_internal_ids(m["content"], ids) == [] for m in messages)
    env.close()


def test_a_reply_reciting_an_internal_id_is_retried_with_feedback(endpoint):
    leaky = {**SHARED, "message": f"I shared page {HR_POLICIES} with you, check again."}
    for answer in (leaky, SHARED, COMMENT, STOP):
        reply(endpoint, answer)
    env = ToolUseEnv("notion", user="llm")
    reward, _ = play(env)
    assert reward == 1.0
    prompts = user_prompts(endpoint)
    feedback = prompts[1][-1]["content"]
    assert HR_POLICIES in feedback and "internal identifiers" in feedback
    assert json.loads(prompts[1][-2]["content"])["message"] == leaky["message"]
    record = env.user.log[1]
    assert (record.source, record.attempts, record.message) == ("llm", 1, SHARED["message"])
    env.close()


def test_the_users_own_reservation_number_is_no_leak(endpoint):
    """amtrak-0004's traveller knows his reservation number (`user.known`): saying it again is accepted at once."""
    again = {
        "message": "Thanks. On BCDD9C, did the change cost me anything? Is my Sunday train back running?",
        "user_calls": [],
        "next_request": True,
    }
    for answer in (again, STOP):
        reply(endpoint, answer)
    env = ToolUseEnv("amtrak", user="llm")
    reward, _ = play(env, "amtrak-0004")
    assert reward == 1.0
    assert "BCDD9C" in internal_ids(env.session.dump())  # an internal-looking key all the same
    record = env.user.log[1]
    assert (record.source, record.attempts, record.message) == ("llm", 0, again["message"])
    env.close()


def test_persistent_rule_breaking_falls_back_to_the_scripted_turn(endpoint):
    wrong_tool = {**SHARED, "message": "Please try again.", "user_calls": [{"name": "empty_trash", "arguments": {}}]}
    for answer in (wrong_tool, wrong_tool, wrong_tool, COMMENT, STOP):
        reply(endpoint, answer)
    env = ToolUseEnv("notion", user="llm")
    reward, _ = play(env)
    task = env.tasks[TASK]
    fallback = env.user.log[1]
    assert fallback.source == "fallback" and fallback.message == task.turns[1].query
    assert any("not an action you can perform" in p for p in fallback.problems)
    assert reward == 1.0  # the scripted turn carries the planned user call
    env.close()


def test_the_stop_token_ends_the_episode_early(endpoint):
    reply(endpoint, STOP)
    env = ToolUseEnv("notion", user="llm")
    reward, info = play(env)
    assert info["turn"] == 0 and "reward_components" in info
    assert info["reward_components"]["expected_calls"] == 4 and reward < 1.0
    env.close()


def test_meu_wrapper_flags_user_errors_from_the_judge(endpoint):
    for answer in (SHARED, COMMENT, STOP):
        reply(endpoint, answer)
    verdict = {
        "errors": [
            {"turn": 2, "kind": "changed_request", "explanation": "The comment text differs."},
            {"turn": 9, "kind": "bogus", "explanation": "No such user turn."},
        ]
    }
    endpoint.add(body=completion(json.dumps(verdict)))
    judge = LLMClient(endpoint.url, "judge-model", backoff=0.01)
    env = FlagUserErrors(ToolUseEnv("notion", user="llm"), judge)
    _, info = play(env)
    assert info["user_error"] is True
    assert [(d["turn"], d["kind"], d["source"]) for d in info["user_error_details"]] == [
        (2, "changed_request", "judge")
    ]
    judged = endpoint.requests[-1]["body"]
    assert judged["model"] == "judge-model" and "[2] Great. Leave a comment" in judged["messages"][1]["content"]
    judge.close()
    env.close()


def test_meu_wrapper_with_a_faithful_user_and_with_the_scripted_user(endpoint):
    for answer in (SHARED, COMMENT, STOP):
        reply(endpoint, answer)
    endpoint.add(body=completion(json.dumps({"errors": []})))
    judge = LLMClient(endpoint.url, "judge-model", backoff=0.01)
    env = FlagUserErrors(ToolUseEnv("notion", user="llm"), judge)
    _, info = play(env)
    assert info["user_error"] is False and info["user_error_details"] == []
    scripted = FlagUserErrors(ToolUseEnv("notion"), judge)
    requests = len(endpoint.requests)
    _, info = play(scripted)
    assert info["user_error"] is False and len(endpoint.requests) == requests  # nothing to judge
    judge.close()
    env.close()
    scripted.close()


def test_user_argument_choices():
    assert isinstance(make_user(None), ScriptedUser) and isinstance(make_user("scripted"), ScriptedUser)
    with pytest.raises(ValueError, match="unknown user"):
        make_user("telepathic")
    own = ScriptedUser()
    assert make_user(own) is own
    assert resolve("notion").tools["add_connection"].user_only
