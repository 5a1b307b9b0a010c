"""`envfactory bench` end to end against a loopback OpenAI-compatible endpoint (the network is the one faked
boundary): the report's numbers equal what the stored episodes imply, a killed run resumes to the same report,
and pass^k / pass@k on constructed cases."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from envfactory_gym import resolve
from envfactory_gym.actions import HermesParser
from envfactory_gym.bench import EpisodeRecord, RunDirectory, pass_at_k, pass_hat_k, runner, summarize
from envfactory_gym.bench.records import error_counts
from envfactory_gym.cli import main
from envfactory_gym.rollout import GroundTruthPolicy
from envfactory_gym.splits import split_task_ids
from envfactory_gym.users import ScriptedUser

from .fake_openai import FakeEndpoint, completion

ENVS = ["notion", "shopify"]
GT = GroundTruthPolicy(ENVS)
MODEL = "fake-agent-7b"


def fails_on_purpose(messages: list[dict]) -> bool:
    """The fake model gives up on a third of the tasks (decided by the first request's hash), solves the rest."""
    first = next(m["content"] for m in messages if m["role"] == "user")
    return hashlib.sha256(first.encode()).digest()[0] % 3 == 0


def native_answer(body: dict) -> dict:
    """What a model with native tool calling answers: the task's ground truth as `tool_calls`, or an apology."""
    messages = body["messages"]
    text = "Sorry, I can't do that." if fails_on_purpose(messages) else GT.act(messages)
    parsed = HermesParser().parse(text)
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
        for i, c in enumerate(parsed.tool_calls)
    ]
    return completion(
        None if calls else parsed.message,
        calls,
        prompt_tokens=len(json.dumps(messages)) // 4,
        completion_tokens=len(text) // 4,
    )


@pytest.fixture
def endpoint():
    server = FakeEndpoint()
    server.models = [MODEL]
    server.responder = native_answer
    yield server
    server.close()


def printed(capsys) -> str:
    """What the command printed, with line wrapping undone (the console wraps at the terminal's width)."""
    return " ".join(capsys.readouterr().out.split())


def bench_args(endpoint: FakeEndpoint, run_dir: Path, *extra: str) -> list[str]:
    return [
        "bench",
        "--model",
        MODEL,
        "--base-url",
        endpoint.url,
        "--envs",
        *ENVS,
        "--k",
        "2",
        "--tool-format",
        "native",
        "--concurrency",
        "4",
        "--run-dir",
        str(run_dir),
        *extra,
    ]


def test_bench_report_numbers_are_what_the_episodes_imply(endpoint, tmp_path):
    assert main(bench_args(endpoint, tmp_path)) == 0
    records = RunDirectory(tmp_path).records()
    tasks = sum(len(split_task_ids(resolve(e), "test")) for e in ENVS)
    assert len(records) == tasks * 2 * 4  # k samples of every test task, for the model and three baselines
    assert len({r.key for r in records}) == len(records)

    model = [r for r in records if r.agent == MODEL]
    by_task = defaultdict(list)
    for record in model:
        by_task[record.task_id].append(record)
    failing = {t for t, runs in by_task.items() if fails_on_purpose(runs[0].messages)}
    assert 0 < len(failing) < len(by_task)
    for task_id, runs in by_task.items():
        assert all(r.solved == (task_id not in failing) for r in runs)
        assert all(r.requests == r.steps for r in runs)

    metrics = json.loads((tmp_path / "metrics.json").read_text())
    overall = {row["agent"]: row for row in metrics["all"]}
    row = overall[MODEL]
    task_means = [sum(r.reward for r in runs) / len(runs) for runs in by_task.values()]
    assert row["reward"] == pytest.approx(sum(task_means) / len(task_means))
    assert row["reward_low"] <= row["reward"] <= row["reward_high"]
    solved_share = 1 - len(failing) / len(by_task)
    assert row["pass_hat"]["1"] == pytest.approx(solved_share) and row["pass_hat"]["2"] == pytest.approx(solved_share)
    assert row["pass_at"]["2"] == pytest.approx(solved_share)
    served = sum(sum(native_answer(q["body"])["usage"].values()) for q in endpoint.requests if "body" in q)
    assert row["tokens"] * row["episodes"] == pytest.approx(served)
    assert row["calls"] == pytest.approx(sum(r.tool_calls for r in model) / len(model))
    assert overall["reference"]["reward"] == 1.0 and overall["reference"]["pass_hat"]["2"] == 1.0
    assert overall["noop"]["calls"] == 0 and overall["random"]["tool_error_rate"] > 0

    per_env = {(r["agent"], r["group"]) for r in metrics["env"]}
    assert {(MODEL, resolve(e).env_id) for e in ENVS} <= per_env
    assert {r["group"] for r in metrics["domain"]} == {resolve(e).domain for e in ENVS}
    report = (tmp_path / "report.md").read_text()
    assert MODEL in report and "Per domain" in report and "pass_k.png" in report
    assert MODEL in (tmp_path / "report.html").read_text()
    for plot in ("domains.png", "components.png", "pass_k.png"):
        assert (tmp_path / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_report(endpoint, tmp_path):
    endpoint.responder = None
    endpoint.respond = lambda body, n: (200, {}, native_answer(body), 0.02)  # slow enough to be killed mid-run
    killed, fresh = tmp_path / "killed", tmp_path / "fresh"
    command = [sys.executable, "-m", "envfactory_gym.cli", *bench_args(endpoint, killed)]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "120"}
    )
    episodes = killed / "episodes.jsonl"
    baselines = sum(len(split_task_ids(resolve(e), "test")) for e in ENVS) * 2 * 3
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if episodes.exists() and episodes.read_text().count("\n") >= baselines + 3:
            break
        time.sleep(0.05)
    assert process.poll() is None, process.stderr.read().decode()[-2000:]
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = episodes.read_text().count("\n")
    with open(episodes, "a") as out:
        out.write('{"agent": "' + MODEL + '", "env_id": "envfac')  # a line cut short by the crash

    assert main(bench_args(endpoint, killed)) == 0
    assert main(bench_args(endpoint, fresh)) == 0
    resumed = RunDirectory(killed).records()
    assert partial < len(resumed) and len({r.key for r in resumed}) == len(RunDirectory(fresh).records())
    assert without_timings(killed) == without_timings(fresh)


#: What differs between two plays of the same run: how long things took and when.
TIMING_FIELDS = {
    "call_latency_median",
    "call_latency_p95",
    "episode_seconds_median",
    "episode_seconds_p95",
    "wall_seconds",
    "sessions",
    "started_at",
}


def without_timings(run_dir: Path) -> dict:
    """metrics.json of a run with the wall-clock fields left out (everything else is deterministic)."""
    metrics = json.loads((run_dir / "metrics.json").read_text())
    metrics["settings"] = {k: v for k, v in metrics["settings"].items() if k not in TIMING_FIELDS}
    for by in ("all", "domain", "env"):
        metrics[by] = [{k: v for k, v in row.items() if k not in TIMING_FIELDS} for row in metrics[by]]
    return metrics


def test_a_run_directory_refuses_other_settings_and_nothing_to_run_is_refused(endpoint, tmp_path, capsys):
    assert main(bench_args(endpoint, tmp_path, "--baselines", "noop")) == 0
    before = (tmp_path / "episodes.jsonl").read_text()
    assert (
        main(
            [
                "bench",
                "--model",
                MODEL,
                "--base-url",
                endpoint.url,
                "--envs",
                *ENVS,
                "--k",
                "3",
                "--tool-format",
                "native",
                "--baselines",
                "noop",
                "--run-dir",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "other settings (k)" in printed(capsys) and (tmp_path / "episodes.jsonl").read_text() == before
    assert main(["bench", "--envs", "notion", "--baselines", "none", "--run-dir", str(tmp_path / "x")]) == 2
    assert "nothing to run" in printed(capsys)


def test_refused_requests_are_failures_and_transient_errors_are_played_again(endpoint, tmp_path, capsys):
    def digest(body: dict) -> int:
        first = next(m["content"] for m in body["messages"] if m["role"] == "user")
        return hashlib.sha256(first.encode()).digest()[0]

    def answer(body: dict, n: int):
        if digest(body) % 3 == 0:
            return 400, {}, {"error": "This model's maximum context length is 32768 tokens"}, 0.0
        if digest(body) % 3 == 1:
            return 503, {}, {"error": "overloaded"}, 0.0
        return 200, {}, native_answer(body), 0.0

    endpoint.responder = None
    endpoint.respond = answer
    args = bench_args(endpoint, tmp_path, "--baselines", "none") + ["--max-steps", "12", "--request-retries", "0"]
    args[args.index("--k") + 1] = "1"
    assert main(args) == 1  # transient errors left: run again
    out = printed(capsys)
    assert "refused" in out and "run the same command again" in out
    first = RunDirectory(tmp_path).records()
    refused = {r.task_id for r in first if r.error and not r.error_transient}
    transient = {r.task_id for r in first if r.error and r.error_transient}
    assert refused and transient and all("HTTP 400" in r.error for r in first if r.task_id in refused)
    overloaded = [q for q in endpoint.requests if "body" in q and digest(q["body"]) % 3 == 1]
    assert len(overloaded) == len(transient)  # --request-retries 0: each refused once, none retried
    metrics = json.loads((tmp_path / "metrics.json").read_text())["all"][0]
    assert metrics["errors"] == len(refused | transient) and metrics["transient_errors"] == len(transient)

    endpoint.respond = lambda body, n: (200, {}, native_answer(body), 0.0)  # the endpoint recovers
    endpoint.requests.clear()
    assert main(args) == 0
    replayed = {q["body"]["messages"][1]["content"] for q in endpoint.requests if "body" in q}
    by_query = {r.task_id: r.messages[1]["content"] for r in first}
    assert {by_query[t] for t in transient} == replayed  # only the transient ones were played again
    latest = {r.key: r for r in RunDirectory(tmp_path).records()}.values()
    assert {r.task_id for r in latest if r.error} == refused


def test_a_line_cut_inside_a_multibyte_character_does_not_stop_a_resume(tmp_path):
    from envfactory_gym.bench.records import EpisodeRecord as Record

    rundir = RunDirectory(tmp_path)
    rundir.open({"k": 1})
    whole = Record(
        "m",
        "envfactory/Notion-v0",
        "notion",
        "office",
        "notion-0001",
        0,
        messages=[{"role": "user", "content": "café ☕ naïve"}],
    )
    rundir.append([whole])
    line = (
        json.dumps(
            Record(
                "m",
                "envfactory/Notion-v0",
                "notion",
                "office",
                "notion-0002",
                0,
                messages=[{"role": "user", "content": "☕☕☕"}],
            ).as_dict(),
            ensure_ascii=False,
        )
    ).encode()
    with open(tmp_path / "episodes.jsonl", "ab") as out:
        out.write(line[: line.index("☕".encode()) + 1])  # cut inside the first ☕
    with open(tmp_path / "episodes.jsonl", "ab") as out:
        out.write(b"12\n")  # a torn line that is valid JSON but no record
    assert [r.task_id for r in rundir.records()] == ["notion-0001"]
    rundir.append([whole])
    assert [r.task_id for r in rundir.records()] == ["notion-0001", "notion-0001"]


def table_rows(markdown: str, heading: str) -> dict[str, dict[str, str]]:
    """The rows of the Markdown table under `## heading`, by their first cell, each as header -> cell."""
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    return {cells[0]: dict(zip(lines[0], cells)) for cells in lines[1:]}


def task_means(run: Path) -> dict[tuple[str, str], float]:
    """Each task's mean reward of the run's model, from its stored episodes."""
    runs = defaultdict(list)
    for record in RunDirectory(run).records():
        if record.agent == MODEL:
            runs[(record.env_id, record.task_id)].append(record.reward)
    return {key: sum(values) / len(values) for key, values in runs.items()}


def test_compare_tests_the_difference_over_shared_tasks(endpoint, tmp_path, capsys):
    assert main(bench_args(endpoint, tmp_path / "a", "--baselines", "reference")) == 0
    endpoint.responder = lambda body: completion("I give up.")
    assert main(bench_args(endpoint, tmp_path / "b", "--baselines", "none")) == 0
    out = tmp_path / "compare.md"
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(out)]) == 0
    assert "warning" not in printed(capsys)

    text = out.read_text()
    cell = table_rows(text, "Overall")["all"]
    means_a, means_b = task_means(tmp_path / "a"), task_means(tmp_path / "b")
    diffs = [means_b[key] - means_a[key] for key in means_a]
    assert int(cell["tasks"]) == len(diffs)
    assert float(cell["reward a"]) == pytest.approx(sum(means_a.values()) / len(means_a), abs=1e-3)
    assert float(cell["change"]) == pytest.approx(sum(diffs) / len(diffs), abs=1e-3)
    low, high = (float(v) for v in cell["95% CI"].split(" to "))
    assert low <= float(cell["change"]) <= high < 0  # b gives up everywhere a solved: a real difference
    assert cell["verdict"] == "a better" and float(cell["p"]) < 0.01
    assert float(cell["reference"]) == 1.0  # the baseline anchors the table
    per_env = table_rows(text, "Per environment")
    assert resolve("notion").env_id in per_env and "office" in table_rows(text, "Per domain")

    assert main(bench_args(endpoint, tmp_path / "c", "--baselines", "none", "--k", "1")) == 0
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "c")]) == 0
    assert "the runs differ in k (2 vs 1)" in printed(capsys)


def test_compare_refuses_runs_of_other_environments_or_splits_and_missing_runs(endpoint, tmp_path, capsys):
    assert main(bench_args(endpoint, tmp_path / "a", "--baselines", "none")) == 0
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    config_path = tmp_path / "b" / "config.json"
    config = json.loads(config_path.read_text())
    notion = resolve("notion").env_id
    config["environments"][notion]["hash"] = "0" * 64  # as if the environment had changed between the runs
    config_path.write_text(json.dumps(config))
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    out = printed(capsys)
    assert "refusing to compare" in out and f"environment content: {notion}" in out and "| all |" not in out
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--force"]) == 0
    out = printed(capsys)
    assert "warning: the runs differ in environment content" in out and "| all |" in out

    config["environments"] = json.loads((tmp_path / "a" / "config.json").read_text())["environments"]
    config["split"] = "train"
    config_path.write_text(json.dumps(config))
    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert "the runs differ in split (test vs train)" in printed(capsys)

    assert main(["compare", str(tmp_path / "a"), str(tmp_path / "missing")]) == 2
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert lines == [f"{tmp_path / 'missing'} does not exist"]
    assert main(["leaderboard", str(tmp_path / "a"), str(tmp_path)]) == 2
    assert f"{tmp_path} holds no benchmark run (no config.json)" in printed(capsys)


def test_pass_hat_k_and_pass_at_k_on_a_constructed_case():
    assert pass_hat_k(4, 2, 1) == 0.5 and pass_hat_k(4, 2, 2) == pytest.approx(1 / 6) and pass_hat_k(4, 2, 3) == 0
    assert pass_at_k(4, 2, 2) == pytest.approx(5 / 6) and pass_at_k(4, 0, 4) == 0 and pass_at_k(4, 1, 4) == 1
    with pytest.raises(ValueError):
        pass_hat_k(2, 1, 3)

    def record(task: str, sample: int, solved: bool) -> EpisodeRecord:
        value = 1.0 if solved else 0.0
        return EpisodeRecord(
            "m",
            "envfactory/X-v0",
            "x",
            "office",
            task,
            sample,
            reward=value,
            components={"trajectory": value, "state": value, "length_penalty": 0.0, "format_penalty": 0.0},
        )

    records = [record("a", s, s < 2) for s in range(4)] + [record("b", s, True) for s in range(4)]
    (summary,) = summarize(records)
    assert summary.pass_hat[1] == pytest.approx((0.5 + 1) / 2)
    assert summary.pass_hat[2] == pytest.approx((1 / 6 + 1) / 2)
    assert summary.pass_at[2] == pytest.approx((5 / 6 + 1) / 2)
    assert summary.pass_hat[4] == pytest.approx(0.5) and summary.pass_at[4] == 1.0
    assert summary.reward == pytest.approx(0.75) and summary.tasks == 2 and summary.episodes == 8
    varied = [
        EpisodeRecord(
            "m",
            "envfactory/X-v0",
            "x",
            "office",
            f"t{i}",
            0,
            reward=(i * 7 % 11) / 11,
            components=records[0].components,
        )
        for i in range(9)
    ]
    assert summarize(varied) == summarize(list(reversed(varied)))  # the order episodes finished in does not matter


class UserWithABug(ScriptedUser):
    """A scripted user that raises on the second turn of one task: an exception of the environment itself."""

    broken_task = split_task_ids(resolve("notion"), "test")[0]

    def start(self, task):
        self.task_id = task.id
        return super().start(task)

    def next_turn(self, agent_message):
        if self.task_id == self.broken_task:
            raise KeyError("turn index out of sync")
        return super().next_turn(agent_message)


def test_environment_errors_are_recorded_with_tracebacks_and_not_played_again(endpoint, tmp_path, monkeypatch):
    plain_kwargs = runner.env_kwargs
    monkeypatch.setattr(runner, "env_kwargs", lambda config: {**plain_kwargs(config), "user": UserWithABug})
    args = [
        "bench",
        "--model",
        MODEL,
        "--base-url",
        endpoint.url,
        "--envs",
        "notion",
        "--k",
        "2",
        "--tool-format",
        "native",
        "--baselines",
        "reference",
        "--run-dir",
        str(tmp_path),
    ]
    assert main(args) == 0  # nothing left to play again: an environment error is final
    records = RunDirectory(tmp_path).records()
    broken = [r for r in records if r.error]
    assert {(r.agent, r.task_id, r.sample) for r in broken} == {
        (agent, UserWithABug.broken_task, sample) for agent in (MODEL, "reference") for sample in (0, 1)
    }
    assert error_counts(records) == {"environment": 4}
    for record in broken:
        assert record.error_kind == "environment" and not record.error_transient and record.reward == 0.0
        assert record.error.startswith("environment error: KeyError: 'turn index out of sync' (traceback: ")
        path = tmp_path / record.error.rsplit("(traceback: ", 1)[1].rstrip(")")
        assert path.parent.name == "env_errors" and "in next_turn" in path.read_text()
    assert len(list((tmp_path / "env_errors").iterdir())) == 4

    def completions() -> int:
        return sum(r["path"].endswith("/chat/completions") for r in endpoint.requests)

    played = completions()
    assert main(args) == 0  # a re-run plays nothing: the broken episodes are not replayed in a loop
    assert completions() == played and len(RunDirectory(tmp_path).records()) == len(records)
