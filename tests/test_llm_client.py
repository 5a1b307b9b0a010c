"""The LLM client against a real HTTP server on 127.0.0.1 (the network is the one faked boundary), the
recorded test double, prompt files and token accounting."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel
from rich.console import Console

from envfactory_gym.llm import (
    ChatModel,
    JSONModel,
    LLMClient,
    LLMError,
    RecordedLLM,
    UnrecordedRequest,
    load_prompt,
    request_key,
)
from envfactory_gym.llm.templates import parse_prompt

from .fake_openai import FakeEndpoint, completion


@pytest.fixture
def endpoint():
    server = FakeEndpoint()
    yield server
    server.close()


def client_for(endpoint: FakeEndpoint, **kwargs) -> LLMClient:
    kwargs.setdefault("backoff", 0.01)
    return LLMClient(endpoint.url, kwargs.pop("model", "test-model"), kwargs.pop("api_key", "sk-test"), **kwargs)


MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]


def test_plain_completion_request_and_token_accounting(endpoint):
    endpoint.add(body=completion("hello there", prompt_tokens=120, completion_tokens=30))
    endpoint.add(body=completion("<think>the user greets</think>again", prompt_tokens=80, completion_tokens=5))
    client = client_for(endpoint)
    first = client.complete("greet", MESSAGES, temperature=0.2, max_tokens=64)
    second = client.complete("greet", MESSAGES)
    assert first.content == "hello there" and first.model == "served-model"
    assert second.content == "again" and second.reasoning == "the user greets"
    request = endpoint.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-test"
    assert request["body"] == {"model": "test-model", "messages": MESSAGES, "temperature": 0.2, "max_tokens": 64}
    usage = client.usage.stages()["greet"]
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.retries) == (2, 200, 35, 0)
    assert usage.latency_s > 0
    client.close()


def test_reasoning_content_field_and_tool_calls(endpoint):
    calls = [
        {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "roadmap"}'}},
        {"id": "c2", "type": "function", "function": {"name": "broken", "arguments": "{not json"}},
    ]
    endpoint.add(body=completion(None, tool_calls=calls, reasoning_content="look it up first"))
    client = client_for(endpoint)
    tools = [{"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}]
    response = client.complete("agent", MESSAGES, tools=tools, tool_choice="auto")
    assert endpoint.requests[0]["body"]["tools"] == tools
    assert response.reasoning == "look it up first" and response.content == ""
    assert response.calls() == [("c1", "search", {"q": "roadmap"}), ("c2", "broken", "{not json")]
    assert response.message() == {"role": "assistant", "content": None, "tool_calls": calls}
    client.close()


def test_retries_on_429_and_5xx_with_backoff_then_succeeds(endpoint):
    endpoint.add(503, {"error": "overloaded"})
    endpoint.add(429, {"error": "slow down"}, headers={"Retry-After": "0"})
    endpoint.add(body=completion("finally"))
    client = client_for(endpoint, max_retries=3)
    assert client.complete("s", MESSAGES).content == "finally"
    assert len(endpoint.requests) == 3
    usage = client.usage.stages()["s"]
    assert (usage.calls, usage.retries, usage.failures) == (1, 2, 0)
    client.close()


def test_gives_up_after_max_retries_and_never_retries_a_client_error(endpoint):
    for _ in range(3):
        endpoint.add(500, {"error": "boom"})
    client = client_for(endpoint, max_retries=2)
    with pytest.raises(LLMError, match="failed 3 times: HTTP 500"):
        client.complete("s", MESSAGES)
    endpoint.add(400, {"error": "bad request: unknown field"})
    with pytest.raises(LLMError, match="HTTP 400"):
        client.complete("s", MESSAGES)
    assert len(endpoint.requests) == 4  # 3 attempts, then the 400 once
    assert client.usage.stages()["s"].failures == 2
    client.close()


def test_timeout_is_retried(endpoint):
    endpoint.add(body=completion("late"), delay=0.6)
    endpoint.add(body=completion("on time"))
    client = client_for(endpoint, timeout=0.2, max_retries=1)
    assert client.complete("slow", MESSAGES).content == "on time"
    endpoint.add(body=completion("late"), delay=0.6)
    endpoint.add(body=completion("late"), delay=0.6)
    with pytest.raises(LLMError, match="timed out"):
        client.complete("slow", MESSAGES)
    assert client.usage.stages()["slow"].retries == 2
    client.close()


class Verdict(BaseModel):
    answer: str
    score: int


def test_json_mode_with_repair_round(endpoint):
    endpoint.add(body=completion('Sure! {"answer": "yes", "score": 3'))  # truncated JSON
    endpoint.add(body=completion('```json\n{"answer": "yes", "score": 3}\n```'))
    client = client_for(endpoint)
    assert client.complete_json("judge", MESSAGES, Verdict) == {"answer": "yes", "score": 3}
    first, second = endpoint.requests[0]["body"], endpoint.requests[1]["body"]
    assert first["response_format"] == {"type": "json_object"}
    assert second["messages"][:2] == MESSAGES and second["messages"][2]["role"] == "assistant"
    assert "could not be used" in second["messages"][3]["content"]
    assert client.usage.stages()["judge"].retries == 1
    client.close()


def test_json_schema_violation_is_repaired_then_fails_loudly(endpoint):
    endpoint.add(body=completion('{"answer": "yes"}'))
    endpoint.add(body=completion('{"answer": "yes", "score": "high"}'))
    client = client_for(endpoint, json_mode="schema")
    with pytest.raises(LLMError, match="score"):
        client.complete_json("judge", MESSAGES, Verdict)
    assert endpoint.requests[0]["body"]["response_format"]["json_schema"]["schema"]["required"] == ["answer", "score"]
    assert "score" in endpoint.requests[1]["body"]["messages"][-1]["content"]
    client.close()


def test_concurrency_limit_holds(endpoint):
    for _ in range(6):
        endpoint.add(body=completion("x"), delay=0.15)
    client = client_for(endpoint, concurrency=2)

    async def burst():
        return await asyncio.gather(*(client.acomplete("burst", MESSAGES) for _ in range(6)))

    results = asyncio.run(burst())
    assert len(results) == 6 and endpoint.max_in_flight == 2


def test_blocking_call_works_inside_a_running_event_loop(endpoint):
    endpoint.add(body=completion("from the private loop"))
    client = client_for(endpoint)

    async def caller():
        return client.complete("s", MESSAGES).content

    assert asyncio.run(caller()) == "from the private loop"
    client.close()


def test_configuration_from_environment_and_model_discovery(endpoint, monkeypatch):
    monkeypatch.delenv("ENVFACTORY_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("ENVFACTORY_LLM_MODEL", raising=False)
    monkeypatch.delenv("ENVFACTORY_LLM_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LLMError, match="no LLM endpoint"):
        LLMClient()
    monkeypatch.setenv("OPENAI_BASE_URL", endpoint.url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    monkeypatch.setenv("ENVFACTORY_LLM_API_KEY", "sk-envfactory")
    client = LLMClient()
    client.complete("s", MESSAGES)
    assert endpoint.requests[0]["path"] == "/v1/models"  # no model configured: ask the server
    assert endpoint.requests[1]["body"]["model"] == "listed-model"
    assert endpoint.requests[1]["headers"]["Authorization"] == "Bearer sk-envfactory"
    client.close()


def test_usage_table_like_table_4(endpoint):
    endpoint.add(body=completion("a", prompt_tokens=3000, completion_tokens=500))
    endpoint.add(body=completion("b", prompt_tokens=1000, completion_tokens=100))
    client = client_for(endpoint)
    client.complete("plan", MESSAGES)
    client.complete("agent", MESSAGES)
    console = Console(record=True, width=140)
    console.print(client.usage.table(model="test-model", per=2, unit="task"))
    text = console.export_text()
    assert "prompt tokens / task" in text and "2.0K" in text and "300" in text  # (3000+1000)/2, (500+100)/2
    assert client.usage.as_dict()["total"]["prompt_tokens"] == 4000
    client.close()


# ---------------------------------------------------------------------- the recorded test double
def test_recording_then_replaying_offline(endpoint, tmp_path):
    endpoint.add(body=completion('{"answer": "no", "score": 1}', prompt_tokens=50, completion_tokens=9))
    endpoint.add(body=completion("plain"))
    real = client_for(endpoint)
    recorder = RecordedLLM(tmp_path, record=real)
    assert recorder.complete_json("judge", MESSAGES, Verdict) == {"answer": "no", "score": 1}
    assert recorder.complete("chat", MESSAGES, seed=1).content == "plain"
    real.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["chat.jsonl", "judge.jsonl"]
    entry = json.loads((tmp_path / "judge.jsonl").read_text())
    assert entry["key"] == request_key("judge", MESSAGES, {"response_format": {"type": "json_object"}})
    endpoint.close()  # nothing can reach the network now
    replay = RecordedLLM(tmp_path)
    assert replay.recorded == 2
    assert replay.complete_json("judge", MESSAGES, Verdict) == {"answer": "no", "score": 1}
    assert replay.complete("chat", MESSAGES, seed=1).content == "plain"
    assert replay.usage.stages()["judge"].prompt_tokens == 50


def test_unrecorded_request_fails_loudly_with_a_diff_hint(tmp_path):
    entry = {
        "key": request_key("chat", MESSAGES, {}),
        "stage": "chat",
        "request": {"messages": MESSAGES, "options": {}},
        "response": {"content": "hi"},
    }
    (tmp_path / "cassette.json").write_text(json.dumps([entry]))
    replay = RecordedLLM(tmp_path)
    changed = [MESSAGES[0], {"role": "user", "content": "hello"}]
    with pytest.raises(UnrecordedRequest) as error:
        replay.complete("chat", changed)
    text = str(error.value)
    assert "'chat'" in text and "re-record" in text
    assert re.search(r'^-\s+"content": "hi",$', text, re.M) and re.search(r'^\+\s+"content": "hello",$', text, re.M)
    with pytest.raises(UnrecordedRequest, match="Nothing is recorded for this stage"):
        replay.complete("plan", MESSAGES)


def test_identical_requests_replay_in_recorded_order(tmp_path):
    key = request_key("agent", MESSAGES, {})
    lines = [
        {"key": key, "stage": "agent", "request": {"messages": MESSAGES, "options": {}}, "response": {"content": text}}
        for text in ("first", "second")
    ]
    (tmp_path / "agent.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    replay = RecordedLLM(tmp_path)
    assert [replay.complete("agent", MESSAGES).content for _ in range(3)] == ["first", "second", "second"]


def test_both_backends_satisfy_the_protocols(endpoint, tmp_path):
    client, replay = client_for(endpoint), RecordedLLM(tmp_path)
    for model in (client, replay):
        assert isinstance(model, ChatModel) and isinstance(model, JSONModel)
    client.close()


# ---------------------------------------------------------------------- prompt files
def test_prompt_files_are_versioned_and_rendered(tmp_path):
    (tmp_path / "greet.v1.md").write_text("old\n=== system ===\nv1 {{name}}\n")
    (tmp_path / "greet.v2.md").write_text('comment\n=== system ===\nHello {{ name }}.\n=== user ===\nJSON: {"a": 1}\n')
    latest = load_prompt("greet", tmp_path)
    assert latest.id == "greet.v2" and latest.variables == {"name"}
    assert latest.render(name="Ada") == [
        {"role": "system", "content": "Hello Ada."},
        {"role": "user", "content": 'JSON: {"a": 1}'},
    ]
    assert load_prompt("greet", tmp_path, version=1).render(name="x")[0]["content"] == "v1 x"
    with pytest.raises(KeyError, match="name"):
        latest.render()
    with pytest.raises(FileNotFoundError):
        load_prompt("missing", tmp_path)
    with pytest.raises(ValueError):
        parse_prompt("bad", 1, "no sections")


def test_shipped_prompts_load():
    for stage in ("user", "meu_judge"):
        prompt = load_prompt(stage)
        assert prompt.version >= 1 and prompt.variables
    assert Path(load_prompt.__module__.replace(".", "/")).name == "templates"


# ---------------------------------------------------------------------- the state as models see it
def test_internal_ids_are_found_and_redacted_from_the_user_view():
    from envfactory_gym import resolve
    from envfactory_gym.llm import find_internal_ids, internal_ids, render_state
    from envfactory_gym.session import ToolSession

    session = ToolSession(resolve("notion"))
    session.reset()
    state = session.dump()
    session.close()
    ids = internal_ids(state)
    q4 = "0cc6d305-4262-5867-b148-bd95a0e0bcd3"
    assert ids[q4] == "pages" and "maya@northwind.io" not in ids
    text = f"Open https://www.notion.so/{q4.replace('-', '')} or {q4.upper()}; ord_0042 is not in this workspace."
    assert find_internal_ids(text, ids) == [q4]
    assert find_internal_ids("see ord_0042. and (cus:77a1), not ord_00421", {"ord_0042", "cus:77a1"}) == [
        "cus:77a1",
        "ord_0042",
    ]
    full = render_state(state, budget=10**7)
    assert q4 in full and "## pages (111 rows)" in full
    user_view = render_state(state, redact=True, focus=["Q4 Roadmap"], budget=8_000)
    assert find_internal_ids(user_view, ids) == [] and len(user_view) <= 8_000
    pages = user_view.split("## pages")[1].splitlines()
    assert '"title": "Q4 Roadmap"' in pages[1] and "<pages: Product>" in pages[1]  # focused row first, ids named
