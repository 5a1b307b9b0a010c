"""The benchmark report at leaderboard grade, against a loopback OpenAI-compatible endpoint (the one faked
boundary) serving a model that fails in known ways: settings, cost and speed, the per-task files, failure
analysis, the leaderboard, the pre-flight check, the progress bar, and the HTML pages in a real headless Chromium."""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shutil
import statistics
from pathlib import Path

import numpy as np
import pytest

from envfactory_gym import load_tasks, resolve
from envfactory_gym.bench import RunDirectory
from envfactory_gym.bench.failures import error_class
from envfactory_gym.bench.metrics import Summary
from envfactory_gym.bench.paired import paired_difference
from envfactory_gym.bench.plots import pass_k_figure
from envfactory_gym.bench.preflight import EndpointCheckError, check_endpoint
from envfactory_gym.bench.prices import load_price_table, price_for
from envfactory_gym.cli import main
from envfactory_gym.rollout import GroundTruthPolicy
from envfactory_gym.splits import split_task_ids
from envfactory_gym.versioning import environment_content_hash

from .fake_openai import FakeEndpoint, completion

pytestmark = pytest.mark.xdist_group("bench_report")  # one worker builds the shared run once

ENVS = ["notion", "shopify"]
GT = GroundTruthPolicy(ENVS)
MODEL, QUITTER = "fake-agent-7b", "quitter-1b"
PRICE_IN, PRICE_OUT = 1.5, 6.0
ARTIFACTS = Path(__file__).resolve().parent.parent / "runs" / "artifacts"
#: Steps the reference agent takes on the longest test task (one per call, one reply per turn), plus two.
MAX_STEPS = 2 + max(
    len(task.agent_calls) + len(task.turns)
    for spec in map(resolve, ENVS)
    for task_id, task in load_tasks(spec).items()
    if task_id in split_task_ids(spec, "test")
)


def kind(messages: list[dict]) -> str:
    """How the fake model plays a task (decided by the first request's hash): solves it, gives up, writes a
    malformed call and gives up, or calls tools wrongly until the step limit."""
    first = next(m["content"] for m in messages if m["role"] == "user")
    return ("solves", "gives up", "malformed", "misuses tools")[hashlib.sha256(first.encode()).digest()[0] % 4]


def tokens(body: dict, text: str) -> dict:
    return {"prompt_tokens": len(json.dumps(body["messages"])) // 4, "completion_tokens": len(text) // 4 + 1}


def mixed_answer(body: dict) -> dict:
    """The fake model's answer in native tool-calling format."""
    messages = body["messages"]
    how = kind(messages)
    if how == "solves":
        text = GT.act(messages)
        call = (
            json.loads(text.removeprefix("<tool_call>").removesuffix("</tool_call>")) if "<tool_call>" in text else None
        )
        calls = (
            [
                {
                    "id": "c0",
                    "type": "function",
                    "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])},
                }
            ]
            if call
            else None
        )
        return completion(None if call else text, calls, **tokens(body, text))
    if how == "malformed" and not any(m["role"] == "assistant" for m in messages):
        text = '<tool_call>{"name": oops</tool_call>'
        return completion(text, **tokens(body, text))
    if how == "misuses tools":
        needs = next(t["function"]["name"] for t in body["tools"] if t["function"]["parameters"].get("required"))
        calls = [
            {"id": "c0", "type": "function", "function": {"name": "no_such_tool", "arguments": "{}"}},
            {"id": "c1", "type": "function", "function": {"name": needs, "arguments": "{}"}},
        ]
        return completion(None, calls, **tokens(body, "xx"))
    return completion("Sorry, I can't do that.", **tokens(body, "Sorry, I can't do that."))


def bench_args(endpoint: FakeEndpoint, run_dir: Path, *extra: str, model: str = MODEL) -> list[str]:
    return [
        "bench",
        "--model",
        model,
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
        "--baselines",
        "reference,noop",
        "--max-steps",
        str(MAX_STEPS),
        *extra,
    ]


@pytest.fixture(scope="module")
def endpoint():
    server = FakeEndpoint()
    server.models = [MODEL, QUITTER]
    server.responder = mixed_answer
    yield server
    server.close()


@pytest.fixture(scope="module")
def run(endpoint, tmp_path_factory) -> Path:
    """One finished run of the mixed model (and the reference and no-op baselines), priced."""
    folder = tmp_path_factory.mktemp("bench") / "mixed"
    assert main(bench_args(endpoint, folder, "--price-in", str(PRICE_IN), "--price-out", str(PRICE_OUT))) == 0
    return folder


def model_records(run_dir: Path):
    return [r for r in RunDirectory(run_dir).records() if r.agent == MODEL]


def metrics_of(run_dir: Path) -> dict:
    return json.loads((run_dir / "metrics.json").read_text())


def test_the_fake_model_fails_in_every_known_way(run):
    kinds = {kind(r.messages) for r in model_records(run)}
    assert kinds == {"solves", "gives up", "malformed", "misuses tools"}


def test_settings_head_the_reports_and_metrics(run, endpoint):
    settings = metrics_of(run)["settings"]
    assert settings["model"] == MODEL and settings["tool_format"] == "native" and settings["k"] == 2
    assert settings["temperature"] == 0.7 and settings["thinking"] is None and settings["user"] == "scripted"
    assert settings["split"] == "test" and settings["package_version"]
    assert settings["endpoint"] == {"url": endpoint.url, "kind": "fake-server", "max_model_len": 32768, "listed": True}
    specs = [resolve(e) for e in ENVS]
    assert settings["environments"] == {
        s.env_id: {"version": s.version, "hash": environment_content_hash(s.folder)} for s in specs
    }
    assert settings["sessions"] == 1 and settings["wall_seconds"] > 0
    assert settings["price"] == {"input": PRICE_IN, "output": PRICE_OUT}

    report = (run / "report.md").read_text()
    assert report.index("## Settings") < report.index("## Overall")
    top = report[: report.index("## Overall")]
    for expected in (
        f"| model | {MODEL} |",
        "| tool format | native |",
        "| temperature | 0.7 |",
        "| thinking | server default |",
        "| k (samples per task) | 2 |",
        "| user | scripted |",
        "fake-server at " + endpoint.url,
        f"{PRICE_IN:g} / {PRICE_OUT:g}",
        *(f"{s.env_id} {environment_content_hash(s.folder)[:12]}" for s in specs),
    ):
        assert expected in top, expected
    page = (run / "report.html").read_text()
    assert page.index('id="settings"') < page.index('id="all"') and "fake-server" in page


def test_cost_and_speed_are_what_the_episodes_imply(run):
    records = model_records(run)
    row = next(r for r in metrics_of(run)["all"] if r["agent"] == MODEL)
    prompt, completion_ = sum(r.prompt_tokens for r in records), sum(r.completion_tokens for r in records)
    assert row["prompt_tokens"] == pytest.approx(prompt / len(records))
    assert row["completion_tokens"] == pytest.approx(completion_ / len(records))
    assert row["cost"] == pytest.approx((prompt * PRICE_IN + completion_ * PRICE_OUT) / 1e6)
    assert all(len(r.call_seconds) == r.requests > 0 for r in records)  # every model call timed
    calls = [s for r in records for s in r.call_seconds]
    assert row["call_latency_median"] == pytest.approx(np.median(calls))
    assert row["call_latency_p95"] == pytest.approx(np.percentile(calls, 95))
    assert row["episode_seconds_median"] == pytest.approx(np.median([r.seconds for r in records]))
    reference = next(r for r in metrics_of(run)["all"] if r["agent"] == "reference")
    assert reference["cost"] is None and reference["call_latency_median"] is None
    speed = (run / "report.md").read_text().split("## Cost and speed", 1)[1].split("\n## ", 1)[0]
    model_line = next(line for line in speed.splitlines() if line.startswith(f"| {MODEL} |"))
    cost = row["cost"]
    assert (f"${cost:,.4f}" if cost < 1 else f"${cost:,.2f}") in model_line
    assert f"{np.median(calls):.2f} s" in model_line


def test_per_task_files_hold_every_episode(run):
    records = RunDirectory(run).records()
    with open(run / "per_task.csv", newline="") as data:
        rows = list(csv.DictReader(data))
    assert len(rows) == len(records) == len({(r["agent"], r["task_id"], r["sample"]) for r in rows})
    by_key = {(r.agent, r.task_id, r.sample): r for r in records}
    for row in rows:
        record = by_key[(row["agent"], row["task_id"], int(row["sample"]))]
        assert float(row["reward"]) == pytest.approx(record.reward)
        assert float(row["state"]) == pytest.approx(record.components["state"])
        assert row["solved"] == str(record.solved) and int(row["tool_calls"]) == record.tool_calls
        assert int(row["prompt_tokens"]) == record.prompt_tokens and int(row["task_turns"]) > 0
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(run / "per_task.parquet").to_pylist()
    assert [(r["agent"], r["task_id"], r["sample"], r["reward"]) for r in table] == [
        (r["agent"], r["task_id"], int(r["sample"]), float(r["reward"])) for r in rows
    ]
    page = (run / "report.html").read_text()
    for spec in (resolve(e) for e in ENVS):  # grouped by environment, every task in it
        section = page.split(f"<summary>{spec.env_id} (", 1)[1].split("</details>", 1)[0]
        assert all(f"<td class=text>{r.task_id}</td>" in section for r in records if r.env_id == spec.env_id)


def test_failure_analysis_explains_what_went_wrong(run):
    records = model_records(run)
    failures = metrics_of(run)["failures"]
    unknown = sum(
        1 for r in records for m in r.messages if m["role"] == "tool" and m["content"].startswith("Error: unknown tool")
    )
    missing = sum(
        1
        for r in records
        for m in r.messages
        if m["role"] == "tool"
        and m["content"].startswith("Error: invalid arguments")
        and "Field required" in m["content"]
    )
    assert unknown > 0 and missing > 0
    classes = {(e["env_id"], e["class"]): e for entries in failures["tool_errors"].values() for e in entries}
    assert sum(e["counts"].get(MODEL, 0) for (_, name), e in classes.items() if name == "unknown tool") == unknown
    assert sum(e["counts"].get(MODEL, 0) for (_, name), e in classes.items() if name == "missing argument") == missing
    assert all("no_such_tool" in e["tools"] for (_, name), e in classes.items() if name == "unknown tool")

    examples = [e for e in failures["format_error_examples"] if e["agent"] == MODEL]
    malformed = [r for r in records if kind(r.messages) == "malformed"]
    assert examples and all("oops" in e["text"] for e in examples)
    assert len(examples) == min(5, len(malformed))

    stops = {s["agent"]: s for s in failures["stops"]["all"]}
    misusing = [r for r in records if kind(r.messages) == "misuses tools"]
    assert stops[MODEL]["reasons"]["step limit"] == len(misusing)
    assert sum(stops[MODEL]["stopped_in"].values()) == len(misusing)
    assert all(key.startswith("1/") for key in stops[MODEL]["stopped_in"])  # stuck in the first turn
    quitting = [r for r in records if kind(r.messages) in ("gives up", "malformed")]
    assert stops[MODEL]["first_missed"] == {"turn 1": len(quitting)}
    assert stops["reference"]["reasons"] == {"completed": stops["reference"]["episodes"]}
    report = (run / "report.md").read_text()
    assert "### Tool errors per environment" in report and "unknown tool" in report and "oops" in report


def test_error_classes():
    assert error_class("Error: unknown tool 'x'. Available tools: a, b") == "unknown tool"
    assert (
        error_class("Error: 'add_connection' can only be performed by the user; ask the user to do it")
        == "user-only tool"
    )
    assert error_class("Error: invalid arguments for 'f': page_id: Field required") == "missing argument"
    assert error_class("Error: invalid arguments for 'f': extra: unexpected argument") == "unexpected argument"
    assert (
        error_class("Error: invalid arguments for 'f': limit: Input should be a valid integer")
        == "invalid argument value"
    )
    assert error_class("Error: NotFound: no page 'p1'") == "NotFound"
    assert error_class("Error: 'f' failed: KeyError: 'x'") == "tool crashed"
    assert error_class("Error: something odd") == "other"


def test_a_resume_with_nothing_left_and_a_refused_start_show_the_runs_mean(run, endpoint, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    mean = statistics.fmean(r.reward for r in model_records(run))
    episodes = len(model_records(run))
    capsys.readouterr()
    posts = len([q for q in endpoint.requests if "body" in q])
    assert main(bench_args(endpoint, copy)) == 0
    out = capsys.readouterr().out
    assert len([q for q in endpoint.requests if "body" in q]) == posts  # nothing played again
    assert re.search(rf"{MODEL}\s.*{episodes}/{episodes} mean reward {mean:.3f}", out), out
    assert re.search(r"reference\s.*mean reward 1\.000", out)
    assert main(bench_args(endpoint, copy, "--k", "3")) == 2
    out = capsys.readouterr().out
    assert "other settings (k)" in out and re.search(rf"{MODEL}\s.*mean reward {mean:.3f}", out)


def test_the_endpoint_is_checked_before_anything_is_played(tmp_path, capsys):
    server = FakeEndpoint()
    try:
        server.models = ["some-other-model"]
        assert main(bench_args(server, tmp_path / "a")) == 2
        lines = [line for line in capsys.readouterr().out.splitlines() if "does not serve" in line]
        assert lines == [f"{server.url} does not serve '{MODEL}' (it serves: some-other-model)"]
        assert not (tmp_path / "a").exists()  # no baseline played, no run directory made
        assert [q["path"] for q in server.requests] == ["/v1/models"]

        server.models_status = 401
        assert main(bench_args(server, tmp_path / "a")) == 2
        assert "rejected the API key (HTTP 401)" in capsys.readouterr().out
        server.models_status = 404  # an endpoint without the route is not refused
        assert check_endpoint(server.url, MODEL).listed is False
    finally:
        server.close()
    with pytest.raises(EndpointCheckError, match="cannot reach"):
        check_endpoint(server.url, MODEL, timeout=2)  # the server is gone
    assert main(bench_args(server, tmp_path / "b")) == 2
    assert "cannot reach" in capsys.readouterr().out and not (tmp_path / "b").exists()


def test_leaderboard_ranks_models_with_intervals_and_baselines(run, endpoint, tmp_path, capsys):
    quitter = tmp_path / "quitter"
    answer = endpoint.responder
    endpoint.responder = lambda body: completion("I give up.")
    try:
        assert main(bench_args(endpoint, quitter, "--baselines", "none", model=QUITTER)) == 0
    finally:
        endpoint.responder = answer
    out = tmp_path / "board"
    assert main(["leaderboard", str(quitter), str(run), "--out", str(out)]) == 0
    text = (out / "leaderboard.md").read_text()
    lines = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines() if line.startswith("| ")]
    header, rows = lines[0], {row[1]: dict(zip(lines[0], row)) for row in lines[1:]}
    assert [row[0] for row in lines[1:]] == ["1", "2", "baseline", "baseline"]
    assert [row[1] for row in lines[1:]] == [MODEL, QUITTER, "reference", "noop"]
    for name, folder in ((MODEL, run), (QUITTER, quitter)):
        summary = next(r for r in metrics_of(folder)["all"] if r["agent"] == name)
        assert rows[name]["reward"] == f"{summary['reward']:.3f}"
        assert rows[name]["95% CI"] == f"{summary['reward_low']:.3f}-{summary['reward_high']:.3f}"
        assert rows[name]["pass^1 95% CI"] == f"{summary['pass1_low']:.3f}-{summary['pass1_high']:.3f}"
    assert rows[MODEL]["cost/episode"] != "-" and rows[QUITTER]["cost/episode"] == "-"  # only one run is priced
    assert {"commerce", "office"} <= set(header) and rows["reference"]["reward"] == "1.000"
    assert (out / "leaderboard.html").read_text().count("<tr") == len(lines)


def test_paired_difference_on_constructed_cases():
    same = paired_difference("g", {i: 0.5 for i in range(8)}, {i: 0.5 for i in range(8)})
    assert same is not None and same.difference == 0 and same.p_value == 1 and not same.real
    three = paired_difference("g", {i: 0.0 for i in range(3)}, {i: 1.0 for i in range(3)})
    assert three is not None and three.p_value == pytest.approx(2 / 8)  # exact: 2 of 8 sign patterns as extreme
    assert three.low == three.high == 1.0 and not three.real  # the interval alone would say so; p does not
    many = paired_difference(
        "g", {i: 0.2 for i in range(30)}, {i: 0.2 + (0.3 if i % 3 else -0.1) for i in range(30)}, seed=1
    )
    assert many is not None and many.real and many.verdict == "B better" and many.p_value < 0.01
    assert many.difference == pytest.approx((20 * 0.3 - 10 * 0.1) / 30) and many.low < many.difference < many.high
    assert paired_difference("g", {"a": 1.0}, {"b": 1.0}) is None
    one = paired_difference("g", {"a": 0.0, "x": 1.0}, {"a": 1.0})
    assert one is not None and one.tasks == 1 and not one.real


def test_pass_k_plot_uses_integer_ticks():
    summary = Summary(
        "m",
        "all",
        10,
        5,
        0.5,
        0.4,
        0.6,
        {},
        0.5,
        pass_hat={k: 1 / k for k in range(1, 6)},
        pass_at={k: 1 - 1 / (k + 1) for k in range(1, 6)},
    )
    figure = pass_k_figure([summary])
    figure.canvas.draw()
    axis = figure.axes[0]
    low, high = axis.get_xlim()
    ticks = [t for t in axis.get_xticks() if low <= t <= high]
    assert ticks and all(float(t).is_integer() for t in ticks) and {1, 5} <= set(ticks)


def test_prices_from_the_table_a_user_file_or_the_command_line(tmp_path):
    table = load_price_table()
    assert price_for("gpt-4o-2024-08-06", table).input == 2.5
    assert price_for("gpt-4o-mini-2024-07-18", table).output == 0.6  # the longest match wins
    assert price_for("openai/gpt-4.1", table).input == 2.0 and price_for("Qwen/Qwen3-8B", table) is None
    extra = tmp_path / "prices.json"
    extra.write_text(json.dumps({"Qwen/Qwen3-8B": [0.05, 0.2], "gpt-4o": {"input": 1, "output": 2}}))
    table = load_price_table(extra)
    assert price_for("Qwen/Qwen3-8B", table).cost(1_000_000, 500_000) == pytest.approx(0.15)
    assert price_for("gpt-4o", table).input == 1
    extra.write_text(json.dumps({"m": [1]}))
    with pytest.raises(ValueError, match="'m' needs \\[input, output\\]"):
        load_price_table(extra)


def test_the_html_pages_render_in_a_headless_chromium(run, tmp_path):
    """The report (and a leaderboard) open in a real Chromium without network: they render, plots and tables are
    visible, sorting works, nothing is logged to the console; screenshots are kept in runs/artifacts/."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (the bench-test extra)")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)")
    assert main(["leaderboard", str(run), "--out", str(tmp_path / "board")]) == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-dev-shm-usage",
            ],
        )
        try:
            context = browser.new_context(viewport={"width": 1366, "height": 768}, offline=True)
            for name, html_file in (
                ("report", run / "report.html"),
                ("leaderboard", tmp_path / "board" / "leaderboard.html"),
            ):
                page = context.new_page()
                problems: list[str] = []
                page.on(
                    "console",
                    lambda m, problems=problems: (
                        problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None
                    ),
                )
                page.on("pageerror", lambda e, problems=problems: problems.append(f"page error: {e}"))
                page.on(
                    "request",
                    lambda r, problems=problems: (
                        problems.append(f"request: {r.url}") if not r.url.startswith(("file:", "data:")) else None
                    ),
                )
                page.goto(html_file.resolve().as_uri())
                page.wait_for_load_state("load")
                tables = page.locator("table")
                assert tables.count() > 0 and tables.first.is_visible()
                assert page.locator("h1").inner_text().startswith("envfactory")
                if name == "report":
                    images = page.locator("figure img")
                    assert images.count() == 3
                    for index in range(3):
                        image = images.nth(index)
                        image.scroll_into_view_if_needed()
                        assert image.is_visible()
                        assert image.evaluate("img => img.complete && img.naturalWidth > 300")
                        assert image.evaluate("img => img.getBoundingClientRect().width <= window.innerWidth")
                    first = page.locator("#all table")
                    column = "reward"
                    header = first.locator("th", has_text=re.compile(rf"^{column}$"))

                    def cells(first=first) -> list[float]:
                        return first.evaluate(
                            "t => Array.from(t.tBodies[0].rows, r => parseFloat(r.cells[4].textContent))"
                        )

                    header.click()
                    assert cells() == sorted(cells())
                    header.click()
                    assert cells() == sorted(cells(), reverse=True)
                    details = page.locator("#tasks details").first
                    details.locator("summary").click()
                    assert details.locator("table").is_visible()
                    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
                    page.evaluate("window.scrollTo(0, 0)")
                shot = ARTIFACTS / f"bench_{name}.png"
                page.screenshot(path=str(shot), full_page=(name == "leaderboard"))
                print(f"screenshot of {html_file.name}: {shot}")
                assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
                assert problems == []
                page.close()
        finally:
            browser.close()
