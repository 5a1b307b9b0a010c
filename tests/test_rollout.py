"""The asyncio rollout engine: correctness against replayed ground truth, isolation at 1,000 concurrent episodes,
determinism under concurrency, cancellation and timeouts, and the OpenAI-compatible policy client (against a
loopback HTTP server: the network boundary is the one thing faked here)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Callable

import pytest

from envfactory_gym import resolve, zoo_keys
from envfactory_gym.actions import HermesParser
from envfactory_gym.agents import format_call
from envfactory_gym.errors import UnknownName
from envfactory_gym.llm import LLMError
from envfactory_gym.rollout import (
    AsyncToolEnv,
    GroundTruthPolicy,
    LocalEnvPool,
    OpenAIChatPolicy,
    PolicyError,
    TaskRef,
    Trajectory,
    arollout,
    expand_tasks,
    replay_trajectory,
    rollout,
)
from envfactory_gym.rollout.episode import play
from envfactory_gym.state import state_hash
from envfactory_gym.tasks import expected_replay, load_tasks
from envfactory_gym.users import ScriptedUser

from .fake_openai import FakeEndpoint

GT = GroundTruthPolicy(zoo_keys())

NOTION = resolve("notion").env_id


def task_of(trajectory: Trajectory):
    spec = resolve(trajectory.env_id)
    return spec, load_tasks(spec)[trajectory.task_id]


def expected_digest(trajectory: Trajectory, *, final: bool = True) -> str:
    return _expected_digest(trajectory.env_id, trajectory.task_id, final)


@lru_cache(maxsize=None)
def _expected_digest(env_id: str, task_id: str, final: bool) -> str:
    spec = resolve(env_id)
    replay = expected_replay(spec, load_tasks(spec)[task_id])
    return state_hash((replay.final if final else replay.initial).full())


_REPLAYED: dict[tuple[str, str, str], str] = {}


def replayed_digest(trajectory: Trajectory) -> str:
    """Digest of the state reached by re-running this trajectory's calls alone on a fresh session (cached by
    the calls: the idle episodes of a task all replay the same)."""
    calls = [m.get("tool_calls") for m in trajectory.messages if m["role"] in ("user", "assistant")]
    key = (trajectory.env_id, trajectory.task_id, json.dumps(calls))
    if key not in _REPLAYED:
        _REPLAYED[key] = state_hash(replay_trajectory(trajectory))
    return _REPLAYED[key]


def some_tasks(per_env: int) -> list[TaskRef]:
    """The first `per_env` tasks of every zoo environment (full episodes of some environments cost seconds)."""
    refs = expand_tasks(zoo_keys())
    return [r for i, r in enumerate(refs) if sum(1 for o in refs[:i] if o.env == r.env) < per_env]


def digest(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


class Jitter:
    """Random latency before each action, so episodes interleave differently from run to run."""

    def __init__(self, policy: Callable[[list[dict[str, Any]]], str], seed: int, max_delay: float = 0.002) -> None:
        self.policy, self.rng, self.max_delay = policy, random.Random(seed), max_delay

    async def __call__(self, messages, tools) -> str:
        await asyncio.sleep(self.rng.random() * self.max_delay)
        return self.policy(messages)


def stops_early_by_hash(messages) -> str:
    """Ground truth, but ends a turn early when the conversation's hash says so (a deterministic policy)."""
    return "Done." if digest(json.dumps(messages, sort_keys=True)) % 4 == 0 else GT.act(messages)


# ---------------------------------------------------------------------------------------------------- correctness
def test_ground_truth_trajectories_score_one_and_come_back_in_task_order():
    refs = expand_tasks(["notion"])
    trajectories = rollout(GT, refs, concurrency=8, group_size=2, workers=2, digest_state=True)
    assert [(t.env_id, t.task_id, t.group, t.sample) for t in trajectories] == [
        (r.env, r.task_id, g, s) for g, r in enumerate(refs) for s in range(2)
    ]
    for trajectory in trajectories:
        _, task = task_of(trajectory)
        assert trajectory.ok and trajectory.terminated and trajectory.reward == 1.0
        assert trajectory.reward_components["state"] == 1.0 and trajectory.reward_components["trajectory"] == 1.0
        assert trajectory.final_state_digest == expected_digest(trajectory)
        assert trajectory.steps == len(task.agent_calls) + len(task.turns)
        assert len(trajectory.turn_rewards) == len(task.turns)
        assert trajectory.messages[-1] == {"role": "assistant", "content": "Done."}
        timings = trajectory.timings
        assert timings["total_s"] >= timings["env_s"] > 0 and timings["policy_s"] >= 0
    json.dumps([t.as_dict() for t in trajectories])


def check_isolation(tasks: list[TaskRef]) -> None:
    """Ground-truth and do-nothing episodes of `tasks` all at once on one pool of envs; each final state must be
    its own expectation: the ground truth's replayed final state, or the task's initial state plus the user's
    own calls."""
    pool = LocalEnvPool(threads=1)  # the episodes interleave step by step either way; one thread avoids GIL churn

    async def refuse(messages, tools) -> str:
        return "I can't do that."

    async def run() -> tuple[list[Trajectory], list[Trajectory], int]:
        try:
            acting, idle = await asyncio.gather(
                *(
                    arollout(policy, tasks, concurrency=len(tasks), backend=pool, digest_state=True)
                    for policy in (Jitter(GT.act, seed=1), refuse)
                )
            )
            return acting, idle, pool.size
        finally:
            await pool.aclose()

    acting, idle, size = asyncio.run(run())
    assert size == 2 * len(tasks)  # every episode got its own env: all of them were live at once
    for trajectory in acting:
        assert trajectory.ok and trajectory.reward == 1.0, trajectory.error
        assert trajectory.final_state_digest == expected_digest(trajectory)
    for trajectory in idle:
        assert trajectory.ok and not any(m.get("tool_calls") for m in trajectory.messages)
        assert trajectory.final_state_digest == replayed_digest(trajectory)
    changed = [t for t in acting if expected_digest(t) != expected_digest(t, final=False)]
    assert len(changed) > len(tasks) // 3  # many episodes wrote; none of their writes reached another episode


def test_isolation_with_1000_concurrent_episodes():
    """1,000 episodes live at once (500 writing the ground truth, 500 doing nothing) on the cheapest env."""
    refs = expand_tasks(["notion"])
    check_isolation([refs[i % len(refs)] for i in range(500)])


def test_isolation_across_every_zoo_env():
    """A task of every zoo environment under both policies, all at once, the environments mixed."""
    check_isolation(some_tasks(per_env=1))


def test_group_samples_share_the_snapshot_and_stay_isolated():
    rng = random.Random(7)

    async def sometimes_stops(messages, tools) -> str:
        await asyncio.sleep(rng.random() * 0.002)
        return "Done." if rng.random() < 0.3 else GT.act(messages)

    tasks = [("notion", "notion-0006"), ("notion", "notion-0017"), ("notion", "notion-0001")]
    trajectories = rollout(sometimes_stops, tasks, concurrency=24, group_size=8, workers=3, digest_state=True)
    assert len(trajectories) == 24
    for group in range(3):
        samples = [t for t in trajectories if t.group == group]
        assert [t.sample for t in samples] == list(range(8))
        assert len({json.dumps(t.messages[:2]) for t in samples}) == 1  # same system prompt and first query
        assert len({t.final_state_digest for t in samples}) > 1  # the samples really did different things
        for trajectory in samples:
            assert trajectory.ok and trajectory.final_state_digest == replayed_digest(trajectory)
            if trajectory.reward == 1.0:
                assert trajectory.final_state_digest == expected_digest(trajectory)


def test_results_do_not_depend_on_concurrency_or_threads():
    tasks = expand_tasks(["notion"])

    def run(concurrency: int, threads: int, seed: int) -> list[dict[str, Any]]:
        trajectories = rollout(
            Jitter(stops_early_by_hash, seed),
            tasks,
            concurrency=concurrency,
            group_size=3,
            workers=threads,
            digest_state=True,
        )
        for t in trajectories:
            t.timings = {}
        return [t.as_dict() for t in trajectories]

    serial = run(1, 1, seed=0)
    assert run(len(tasks) * 3, 4, seed=1) == serial
    assert {t["reward"] for t in serial} != {1.0}  # the early stops did cost reward


# ------------------------------------------------------------------------------------- cancellation and timeouts
def test_cancelled_step_then_reset_gives_a_clean_episode():
    cancelled: list[float] = []

    async def run() -> list[Trajectory]:
        env = await AsyncToolEnv.make("notion")
        try:
            trash = format_call("move_page_to_trash", {"page_id": "1e990d99-d02b-5a2c-b861-5410b1be8f44"})
            for delay in (0, 0.0005, 0.001, 0.002, 0.005):  # cancelled before, during or after the step's work
                await env.reset(options={"task_id": "notion-0004"})
                task = asyncio.ensure_future(env.step(trash))
                await asyncio.sleep(delay)
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    cancelled.append(delay)
            trajectory = Trajectory(NOTION, "notion-0004", 0, 0)
            return [await play(env, GT, trajectory, digest_state=True)]
        finally:
            await env.aclose()

    (trajectory,) = asyncio.run(run())
    assert 0 in cancelled
    assert trajectory.reward == 1.0 and trajectory.final_state_digest == expected_digest(trajectory)


def test_a_call_waits_for_a_cancelled_call_still_running_in_its_thread():
    async def run() -> list[str]:
        release = threading.Event()
        order: list[str] = []
        env = await AsyncToolEnv.make("notion", ThreadPoolExecutor(4))

        def slow() -> None:
            release.wait(5)
            order.append("slow finished")

        blocked = asyncio.ensure_future(env.call_sync(slow))
        await asyncio.sleep(0.05)
        blocked.cancel()
        reset = asyncio.ensure_future(env.reset(options={"task_id": "notion-0001"}))
        await asyncio.sleep(0.1)
        order.append(f"reset done before release: {reset.done()}")
        release.set()
        observation, _ = await reset
        order.append(observation)
        await env.aclose()
        return order

    assert asyncio.run(run()) == [
        "reset done before release: False",
        "slow finished",
        "What's still open on the Q4 roadmap?",
    ]


def test_one_slow_env_does_not_stall_the_others_and_one_env_has_one_caller():
    async def run() -> None:
        executor = ThreadPoolExecutor(2)
        slow_env, fast_env = [await AsyncToolEnv.make("notion", executor) for _ in range(2)]
        release = threading.Event()
        blocked = asyncio.ensure_future(slow_env.call_sync(lambda: release.wait(5)))
        await asyncio.sleep(0.01)
        with pytest.raises(RuntimeError, match="one coroutine"):
            await slow_env.step("hello")
        trajectory = Trajectory(NOTION, "notion-0001", 0, 0)
        await asyncio.wait_for(play(fast_env, GT, trajectory), 10)
        assert trajectory.reward == 1.0 and not blocked.done()
        release.set()
        await blocked
        for env in (slow_env, fast_env):
            await env.aclose()
        executor.shutdown()

    asyncio.run(run())


def test_timeouts_and_errors_are_recorded_and_the_envs_come_back_clean():
    async def hangs_or_fails_in_second_turn(messages, tools) -> str:
        if len([m for m in messages if m["role"] == "user"]) == 2:  # after the first turn's writes
            if messages[1]["content"].startswith("Add a task"):
                await asyncio.sleep(30)
            if messages[1]["content"].startswith("In the Live ETA"):
                raise ValueError("model server exploded")
        return GT.act(messages)

    tasks = [("notion", "notion-0006"), ("notion", "notion-0017"), ("notion", "notion-0004")]
    pool = LocalEnvPool(threads=2)

    async def run() -> tuple[list[Trajectory], list[Trajectory], int, int]:
        try:
            first = await arollout(
                hangs_or_fails_in_second_turn, tasks, group_size=4, backend=pool, episode_timeout=3.0
            )
            size = pool.size
            second = await arollout(GT, tasks, group_size=4, backend=pool, digest_state=True)
            return first, second, size, pool.size
        finally:
            await pool.aclose()

    first, second, size_before, size_after = asyncio.run(run())
    by_task = {t.task_id: t for t in first}
    assert by_task["notion-0006"].error.startswith("timeout") and by_task["notion-0006"].reward == 0.0
    assert by_task["notion-0006"].timings["total_s"] < 10  # cut at the timeout, not after the 30 s hang
    assert by_task["notion-0017"].error == "ValueError: model server exploded"
    assert by_task["notion-0006"].error_kind == "timeout" and by_task["notion-0017"].error_kind == "endpoint"
    assert len(by_task["notion-0006"].messages) > 2  # the partial conversation is kept
    assert all(t.ok and t.reward == 1.0 for t in first if t.task_id == "notion-0004")
    assert size_after == size_before == 12  # the second rollout reused the same envs
    for trajectory in second:
        assert trajectory.reward == 1.0 and trajectory.final_state_digest == expected_digest(trajectory)


def test_expand_tasks_accepts_names_pairs_and_refs():
    refs = expand_tasks(["notion", ("Notion", "notion-0002"), TaskRef(NOTION, "notion-0003")])
    assert refs[-2:] == [TaskRef(NOTION, "notion-0002"), TaskRef(NOTION, "notion-0003")]
    assert len(refs) == len(load_tasks(resolve("notion"))) + 2
    with pytest.raises(KeyError):
        expand_tasks([("notion", "notion-9999")])
    with pytest.raises(LookupError):
        GT.act([{"role": "system", "content": "unknown"}, {"role": "user", "content": "hi"}])


def test_the_ground_truth_policy_reads_its_environments_on_first_use():
    policy = GroundTruthPolicy(["notion", "no-such-environment"])  # nothing is loaded yet: costs nothing
    with pytest.raises(UnknownName, match="no-such-environment"):
        policy.act([{"role": "system", "content": "unknown"}, {"role": "user", "content": "hi"}])


# ---------------------------------------------------------------------------------------- OpenAI-compatible client
@pytest.fixture
def server():
    fake = FakeEndpoint()
    yield fake
    fake.close()


def completion(message: dict[str, Any]) -> dict[str, Any]:
    tokens = {"prompt_tokens": 100 + len(json.dumps(message)), "completion_tokens": len(json.dumps(message))}
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
        "usage": tokens,
    }


def native_ground_truth(body: dict[str, Any], attempt: int) -> tuple[int, dict[str, str], Any, float]:
    """What a model with native tool calling would answer: the ground truth as `tool_calls`."""
    parsed = HermesParser().parse(GT.act(body["messages"]))
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
        for i, c in enumerate(parsed.tool_calls)
    ]
    return 200, {}, completion({"content": None if calls else parsed.message, "tool_calls": calls}), 0.0


def conversation() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The messages and tools of notion-0003 after one tool call."""
    from envfactory_gym import ToolUseEnv

    env = ToolUseEnv("notion")
    _, info = env.reset(options={"task_id": "notion-0003"})
    _, _, _, _, info = env.step(format_call("search_pages", {"query": "engineering wiki"}) * 2)
    env.close()
    return info["messages"], info["tools"]


def test_text_mode_sends_plain_text_history_and_retries_server_errors(server):
    server.respond = lambda body, n: (
        (503, {"Retry-After": "0"}, {"error": "loading"}, 0.0)
        if n == 1
        else (200, {}, completion({"content": "Hi!"}), 0.0)
    )
    messages, tools = conversation()
    policy = OpenAIChatPolicy(server.url, "qwen", api_key="secret", temperature=0.6, max_tokens=77, backoff=0.01)
    reply = asyncio.run(policy(messages, tools))
    assert (reply.text, reply.completion_tokens) == ("Hi!", len(json.dumps({"content": "Hi!"})))
    assert len(server.requests) == 2
    request = server.requests[-1]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer secret"
    body = request["body"]
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("qwen", 0.6, 77) and "tools" not in body
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    assert body["messages"][0]["content"] == messages[0]["content"]
    assistant, results = body["messages"][2]["content"], body["messages"][3]["content"]
    assert [c.name for c in HermesParser().parse(assistant).tool_calls] == ["search_pages", "search_pages"]
    assert results.count("<tool_response>") == 2 and results.startswith("<tool_response>\n{")
    assert set(body["messages"][3]) == {"role", "content"}


def test_native_mode_turns_tool_calls_into_text_the_env_parses(server):
    server.respond = lambda body, n: (
        200,
        {},
        completion(
            {
                "content": "Let me look.",
                "reasoning_content": "find the wiki first",
                "tool_calls": [
                    {
                        "id": "a",
                        "type": "function",
                        "function": {"name": "search_pages", "arguments": '{"query": "wiki ☕"}'},
                    },
                    {"id": "b", "type": "function", "function": {"name": "list_users", "arguments": "{broken"}},
                ],
            }
        ),
        0.0,
    )
    messages, tools = conversation()
    text = asyncio.run(OpenAIChatPolicy(server.url, "qwen", tool_mode="native")(messages, tools)).text
    body = server.requests[-1]["body"]
    assert body["tools"] == tools and body["messages"][1:] == messages[1:] and body["tool_choice"] == "auto"
    system = body["messages"][0]["content"]  # the schemas travel as tools=, not twice
    assert "<tools>" not in system and "<tool_call>" not in system and messages[0]["content"].startswith(system[:80])
    parsed = HermesParser().parse(text)
    assert parsed.reasoning == "find the wiki first" and parsed.message == "Let me look."
    assert [(c.name, c.arguments) for c in parsed.tool_calls] == [("search_pages", {"query": "wiki ☕"})]
    assert len(parsed.errors) == 1 and "not valid JSON" in parsed.errors[0]


def test_native_requests_turn_format_error_reports_into_user_messages():
    from envfactory_gym import ToolUseEnv
    from envfactory_gym.rollout.openai_policy import native_messages

    env = ToolUseEnv("notion")
    env.reset(options={"task_id": "notion-0003"})
    env.step('<tool_call>{"name": "search_pages", "arguments": {</tool_call><tool_call>{bad}</tool_call>')
    _, _, _, _, info = env.step(format_call("search_pages", {"query": "wiki"}))
    sent = native_messages(info["messages"])
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user", "user", "assistant", "tool"]
    assert sent[3]["content"].startswith("Error:") and "tool_call_id" not in sent[3]
    assert sent[-1]["tool_call_id"] == sent[-2]["tool_calls"][0]["id"]  # a real result still answers its call
    ids = [m["tool_call_id"] for m in info["messages"] if m["role"] == "tool"]
    assert len(ids) == len(set(ids))  # two format errors in one action get distinct ids


def test_timeouts_are_retried_and_client_errors_are_not(server):
    server.respond = lambda body, n: (200, {}, completion({"content": f"answer {n}"}), 1.0 if n == 1 else 0.0)
    policy = OpenAIChatPolicy(server.url, "m", timeout=0.2, retries=2, backoff=0.01)
    assert asyncio.run(policy([{"role": "user", "content": "x"}], [])).text == "answer 2"

    server.requests.clear()
    server.respond = lambda body, n: (400, {}, {"error": "context too long"}, 0.0)
    with pytest.raises(PolicyError, match="HTTP 400.*context too long"):
        asyncio.run(policy([{"role": "user", "content": "x"}], []))
    assert len(server.requests) == 1

    server.requests.clear()
    server.respond = lambda body, n: (500, {}, {"error": "down"}, 0.0)
    with pytest.raises(PolicyError, match="HTTP 500"):
        asyncio.run(policy([{"role": "user", "content": "x"}], []))
    assert len(server.requests) == 3  # one try and two retries


def test_rollout_through_an_openai_compatible_server(server):
    server.respond = native_ground_truth
    policy = OpenAIChatPolicy(server.url, "qwen", tool_mode="native", retries=0)
    trajectories = rollout(policy, ["notion"], concurrency=6, workers=2)
    assert all(t.ok and t.reward == 1.0 for t in trajectories), [t.error for t in trajectories]
    assert len(server.requests) == sum(t.steps for t in trajectories)
    assert all(t.usage["requests"] == t.steps and t.usage["prompt_tokens"] > 100 * t.steps for t in trajectories)
    assert sum(t.usage["completion_tokens"] for t in trajectories) == policy.model.usage.total().completion_tokens
    assert all(t.timings["policy_s"] > 0 for t in trajectories)


class BuggyUser(ScriptedUser):
    """A scripted user with a bug in one task (it raises on the second turn: an exception of the environment),
    and, in another, an LLM user's endpoint that is down when the second turn is due."""

    def start(self, task):
        self.task_id = task.id
        return super().start(task)

    def next_turn(self, agent_message):
        if self.task_id == "notion-0017":
            raise KeyError("turn index out of sync")
        if self.task_id == "notion-0006":
            raise LLMError("user model: 503 overloaded after 3 tries", transient=True)
        return super().next_turn(agent_message)


def test_errors_are_told_apart_endpoint_refused_and_environment():
    async def policy(messages, tools) -> str:
        first = messages[1]["content"]
        if first == load_tasks(resolve("notion"))["notion-0004"].turns[0].query:
            raise PolicyError("HTTP 400: maximum context length is 32768 tokens", transient=False)
        if first == load_tasks(resolve("notion"))["notion-0001"].turns[0].query:
            raise ConnectionError("connection refused")
        return GT.act(messages)

    tasks = [("notion", t) for t in ("notion-0001", "notion-0004", "notion-0006", "notion-0017", "notion-0002")]
    trajectories = rollout(policy, tasks, env_kwargs={"user": BuggyUser})
    by_task = {t.task_id: t for t in trajectories}
    kinds = {task: (t.error_kind, t.error_transient) for task, t in by_task.items()}
    assert kinds == {
        "notion-0001": ("endpoint", True),
        "notion-0004": ("refused", False),
        "notion-0006": ("endpoint", True),
        "notion-0017": ("environment", False),
        "notion-0002": (None, True),
    }
    env_error = by_task["notion-0017"]
    assert env_error.error == "environment error: KeyError: 'turn index out of sync'" and env_error.reward == 0.0
    assert "in next_turn" in env_error.error_traceback and "KeyError" in env_error.error_traceback
    assert len(env_error.messages) > 2  # the conversation up to the failing step is kept
    assert all(t.error_traceback is None for t in trajectories if t.task_id != "notion-0017")
    assert by_task["notion-0002"].ok and by_task["notion-0002"].reward == 1.0
