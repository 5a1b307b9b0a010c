"""`envfactory play`: a person as the agent, driven here through stdin (and once through a pseudo-terminal)."""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import subprocess
import sys
import time

import pytest

from envfactory_gym import load_tasks, resolve
from envfactory_gym.agents import format_call
from envfactory_gym.cli.play import parse_value, read_line

PLAY = [sys.executable, "-m", "envfactory_gym.cli", "play", "notion"]
TASK = "notion-0004"
GUIDELINES = "1e990d99-d02b-5a2c-b861-5410b1be8f44"


def play(lines: list[str], task: str = TASK) -> subprocess.CompletedProcess:
    """Run `envfactory play notion --task TASK` with `lines` on a piped stdin."""
    return subprocess.run(
        PLAY + ["--task", task], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60
    )


def key_value_line(name: str, arguments: dict) -> str:
    """A ground-truth call in the `tool key=value` syntax."""
    return " ".join([name] + [shlex.quote(f"{k}={json.dumps(v)}") for k, v in arguments.items()])


def ground_truth_lines(task_id: str = TASK) -> list[str]:
    """The task's agent calls turn by turn, each turn closed by a message to the user."""
    task = load_tasks(resolve("notion"))[task_id]
    lines = []
    for turn in task.turns:
        lines += [key_value_line(c.name, c.arguments) for c in turn.agent_calls]
        lines.append("say Done.")
    return lines


def final_reward(output: str) -> float:
    match = re.search(r"^final reward: (\d\.\d{3})$", output, re.MULTILINE)
    assert match, output
    return float(match.group(1))


def test_ground_truth_through_stdin_scores_one():
    result = play(ground_truth_lines())
    assert result.returncode == 0, result.stderr
    assert final_reward(result.stdout) == 1.0
    assert "user: Then empty the trash for good." in result.stdout
    assert re.search(r"^  trajectory: 1\.000$", result.stdout, re.MULTILINE)
    assert re.search(r"^  state: 1\.000$", result.stdout, re.MULTILINE)


def test_json_and_raw_tool_call_lines_are_calls_too():
    lines = ground_truth_lines()
    assert lines[1].startswith("move_page_to_trash") and lines[3] == "empty_trash"
    lines[1] = json.dumps({"name": "move_page_to_trash", "arguments": {"page_id": GUIDELINES}})
    lines[3] = format_call("empty_trash", {})
    result = play(lines)
    assert final_reward(result.stdout) == 1.0, result.stdout


def test_malformed_lines_are_reported_and_the_episode_goes_on():
    malformed = [
        "serch_pages query=x",  # typo of a tool name: a local hint, no step spent
        'search_pages query="code review',  # unbalanced quote: a local error
        '{"just": "json"}',  # JSON that is not a call: a local error
        "retrieve_page",  # a real tool without its required argument: the Env's validation error
        json.dumps({"name": "retrieve_page", "arguments": {"page_id": 5}}),  # wrong type: the Env's error
        "<tool_call>{not json</tool_call>",  # raw model output that is not JSON: the Env's format error
    ]
    result = play(malformed + ground_truth_lines())
    out = result.stdout
    assert result.returncode == 0
    assert "unknown tool 'serch_pages': did you mean search_pages?" in out
    assert "cannot read the call (No closing quotation)" in out
    assert "not a tool call" in out
    assert "Error: invalid arguments for 'retrieve_page': page_id: Field required" in out
    assert "Error: invalid arguments for 'retrieve_page': page_id: Input should be a valid string" in out
    assert "is not valid JSON" in out
    reward = final_reward(out)
    assert 0.5 < reward < 1.0  # right final state, but failed calls and a format error cost something
    assert re.search(r"^  format_penalty: 0\.0[1-9]\d$", out, re.MULTILINE)


def test_end_of_input_stops_without_reward():
    result = play(ground_truth_lines()[:2])
    assert result.returncode == 1
    assert "input ended: no reward" in result.stdout
    assert "final reward" not in result.stdout


def test_read_line():
    spec = resolve("notion")
    line = """create_page title=2025 parent_page_id=abc icon=null children='[{"type": "to_do", "text": "x"}]'"""
    call = read_line(line, spec)
    assert call.kind == "action"
    assert json.loads(call.text.removeprefix("<tool_call>").removesuffix("</tool_call>")) == {
        "name": "create_page",
        "arguments": {
            "title": "2025",
            "parent_page_id": "abc",
            "icon": None,
            "children": [{"type": "to_do", "text": "x"}],
        },
    }
    assert read_line("say All done", spec) == read_line("All done", spec)
    assert read_line("All done", spec).kind == "say"
    assert read_line("update_block block_id=b checked=true", spec).text == format_call(
        "update_block", {"block_id": "b", "checked": True}
    )
    assert read_line("tools retrieve_page", spec).kind == "command"
    assert read_line("   ", spec).kind == "empty"
    assert read_line("list_user", spec).kind == "error"  # a one-word typo of list_users
    assert parse_value("5", {"type": "integer"}) == 5
    assert parse_value("5", {"anyOf": [{"type": "string"}, {"type": "null"}]}) == "5"
    assert parse_value("null", {"anyOf": [{"type": "string"}, {"type": "null"}]}) is None


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_interactive_terminal_plays_an_episode():
    """On a TTY the prompt_toolkit input is used; the same lines still score 1.0."""
    import pty

    primary, secondary = pty.openpty()
    env = dict(os.environ, TERM="xterm", COLUMNS="200", LINES="50")
    process = subprocess.Popen(PLAY + ["--task", TASK], stdin=secondary, stdout=secondary, stderr=secondary, env=env)
    os.close(secondary)
    output = b""
    try:
        output += _read_until(primary, b"agent>")
        for line in ground_truth_lines():
            os.write(primary, line.encode() + b"\r")
            answer = b"turn score" if line.startswith("say ") else b"<- " + line.split()[0].encode()
            output += _read_until(primary, answer)
        if b"matched calls" not in output:  # the episode's summary may arrive in the same read as the last turn score
            output += _read_until(primary, b"matched calls")
    finally:
        process.kill()
        process.wait()
        os.close(primary)
    assert b"\x1b[?2004h" in output  # prompt_toolkit (bracketed paste) read the lines, not plain readline
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r", "", output.decode(errors="replace"))
    assert "final reward: 1.000" in plain, plain[-2000:]


def _read_until(fd: int, marker: bytes, timeout: float = 20.0) -> bytes:
    """Read from a pseudo-terminal until `marker` shows up (answering prompt_toolkit's cursor-position query)."""
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"timed out waiting for {marker!r}: {data[-500:]!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError as error:  # EIO: the program exited and its terminal closed
                raise AssertionError(f"the program exited before {marker!r}: {data[-500:]!r}") from error
            if b"\x1b[6n" in chunk:
                os.write(fd, b"\x1b[1;1R")
            data += chunk
    return data
