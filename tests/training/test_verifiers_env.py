"""verifiers' own `vf-eval` loads `envfactory-verifiers` and evaluates it against a scripted OpenAI-compatible
endpoint (the one test double: the model behind HTTP on 127.0.0.1).

verifiers 0.3.1 pins mcp < 2, which this project's environment cannot hold, so it lives in its own
virtual environment (`.venv-verifiers`, made by `make install-test`; or name a Python with
ENVFACTORY_VERIFIERS_PYTHON) and `vf-eval` runs there as a subprocess."""

from __future__ import annotations

import glob
import json
import os
import subprocess
from pathlib import Path

import pytest

from envfactory_gym.prompts import NATIVE_TOOLS_NOTE
from envfactory_gym.registry import load_zoo_environment
from envfactory_gym.tasks import load_tasks
from tests.fake_openai import FakeEndpoint, completion

REPO = Path(__file__).parents[2]
PYTHON = Path(os.environ.get("ENVFACTORY_VERIFIERS_PYTHON", REPO / ".venv-verifiers" / "bin" / "python"))
VF_EVAL = PYTHON.parent / "vf-eval"

pytestmark = [
    pytest.mark.verifiers,
    pytest.mark.skipif(not VF_EVAL.exists(), reason=f"no verifiers venv at {PYTHON.parent.parent} (make install-test)"),
]


class ScriptedModel:
    """Answers chat completions the way a policy would over the OpenAI API: for each user request, the first
    rollout makes the turn's ground-truth calls one by one and then replies, the second calls an unknown tool and
    then replies."""

    def __init__(self, env: str) -> None:
        tasks = load_tasks(load_zoo_environment(env))
        self.turns = {turn.query: turn for task in tasks.values() for turn in task.turns}
        self.first_calls: dict[str, int] = {}

    def __call__(self, body: dict) -> dict:
        messages = body["messages"]
        start = max(i for i, m in enumerate(messages) if m["role"] == "user")
        query, after = messages[start]["content"], messages[start + 1 :]
        made = [c for m in after if m["role"] == "assistant" for c in m.get("tool_calls") or []]
        if made:
            good = made[0]["function"]["name"] != "no_such_tool"
        else:
            self.first_calls[query] = self.first_calls.get(query, 0) + 1
            good = self.first_calls[query] % 2 == 1
        calls = self.turns[query].agent_calls
        if good and len(made) < len(calls):
            call = {"name": calls[len(made)].name, "arguments": json.dumps(calls[len(made)].arguments)}
        elif not good and not made:
            call = {"name": "no_such_tool", "arguments": "{}"}
        else:
            return _full(completion("Done."))
        return _full(completion(None, [{"id": f"call-{len(made)}", "type": "function", "function": call}]))


def _full(body: dict) -> dict:
    """The fields of a chat completion that the openai client validates."""
    body.update(object="chat.completion", created=0)
    body["usage"]["total_tokens"] = body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]
    return body


def test_vf_eval_runs_the_zoo_environment_with_the_composite_rubric(tmp_path):
    endpoint = FakeEndpoint()
    endpoint.responder = ScriptedModel("notion")
    try:
        run = subprocess.run(
            [
                str(VF_EVAL),
                "envfactory-verifiers",
                "-a",
                json.dumps({"env": "notion", "num_examples": 2}),
                "-n",
                "2",
                "-r",
                "2",
                "-m",
                "scripted",
                "-b",
                endpoint.url,
                "-k",
                "ENVFACTORY_TEST_KEY",
                "-s",
                "-o",
                str(tmp_path),
                "-d",
                "--disable-env-server",
            ],
            env={**os.environ, "ENVFACTORY_TEST_KEY": "sk-test", "PYTHONPATH": str(REPO)},
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        endpoint.close()
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    results = [
        json.loads(line)
        for path in glob.glob(str(tmp_path / "evals" / "*" / "*" / "results.jsonl"))
        for line in open(path)
    ]
    assert len(results) == 4 and {r["example_id"] for r in results} == {0, 1}
    for example in (0, 1):
        good, bad = sorted((r for r in results if r["example_id"] == example), key=lambda r: -r["reward"])
        assert good["reward"] == pytest.approx(1.0) and bad["reward"] < 1.0
        # the rubric: the composite reward is the reward, its components are metrics
        assert good["metrics"]["composite_reward"] == good["reward"] and good["metrics"]["trajectory"] == 1.0
        assert good["metrics"]["matched_calls"] == good["metrics"]["expected_calls"] >= 1
        assert bad["metrics"]["trajectory"] == 0.0 and bad["metrics"]["agent_calls"] == 1.0
        assert any("unknown tool" in str(m.get("content")) for m in bad["completion"] if m["role"] == "tool")
        assert good["prompt"] == bad["prompt"]  # both rollouts start from the same replayed conversation
    requests = [r["body"] for r in endpoint.requests if "body" in r]
    tool_names = {t["function"]["name"] for t in requests[0]["tools"]}
    assert tool_names == {t.name for t in load_zoo_environment("notion").agent_tools}
    system = requests[0]["messages"][0]
    assert system["role"] == "system" and NATIVE_TOOLS_NOTE in system["content"]  # schemas travel once, as tools
    # each tool call the model made is answered under its own id
    last_user = [max(i for i, m in enumerate(b["messages"]) if m["role"] == "user") for b in requests]
    answered = [m for b, i in zip(requests, last_user) for m in b["messages"][i:] if m["role"] == "tool"]
    assert answered and all(m["tool_call_id"].startswith("call-") for m in answered)
