"""The full-dump oracle (tests/full_dump_oracle.py) that test_task_invariants holds every score to: its dumps are
the session's own dumps, its shortcuts keep nothing stale, and it disagrees with a scorer that misses a row."""

from __future__ import annotations

import pytest

from envfactory_gym import ToolUseEnv
from envfactory_gym.agents import NoOpAgent
from envfactory_gym.session import ToolSession
from envfactory_gym.state import SQLiteState
from envfactory_gym.tasks import replay_calls

from .full_dump_oracle import FullReplay, Oracle, full_dump


def _writing_task(env: ToolUseEnv):
    return next(task for task in env.tasks.values() if task.changes_state(env.spec_env))


def test_full_dumps_equal_the_sessions_dump_and_share_only_unchanged_tables():
    env = ToolUseEnv("notion")
    try:
        task = _writing_task(env)
        env.reset(seed=0, options={"task_id": task.id})
        session: ToolSession = env.session
        before = full_dump(session)
        assert before == session.dump()
        tools = env.spec_env.tools
        writes = next(i for i, t in enumerate(task.turns) if any(not tools[c.name].read_only for c in t.agent_calls))
        replay_calls(session, [call for turn in task.turns[: writes + 1] for call in turn.calls])
        after = full_dump(session)
        assert after == session.dump() and after != before
        changed = {name for name in after if after[name] != before[name]}
        assert changed
        for name in after:  # an unchanged table is decoded once; a changed one never reuses the old decoding
            assert (after[name] is before[name]) == (name not in changed)
    finally:
        env.close()


def test_a_turns_states_are_the_ones_its_replay_reaches():
    env = ToolUseEnv("trello")
    try:
        task = next(t for t in env.tasks.values() if len(t.turns) >= 2 and t.changes_state(env.spec_env))
        replay = FullReplay.of(env.spec_env, task)
        session = ToolSession(env.spec_env)
        session.reset(task.snapshot, task.clock)
        expected = [session.dump()]
        for turn in task.turns:
            replay_calls(session, turn.calls)
            expected.append(session.dump())
        session.close()
        assert replay.states == expected and replay.states[0] != replay.states[-1]
    finally:
        env.close()


def test_the_oracle_disagrees_with_a_change_log_that_misses_rows(monkeypatch, tmp_path):
    monkeypatch.setenv("ENVFACTORY_CACHE_DIR", str(tmp_path))  # the expected replay is made under the fault
    monkeypatch.setattr("envfactory_gym.tasks._REPLAYS", {})
    monkeypatch.setattr(SQLiteState, "changed_since", lambda self, mark: {})
    env = ToolUseEnv("notion")
    try:
        task = _writing_task(env)
        observation, info = env.reset(seed=0, options={"task_id": task.id})
        oracle = Oracle(env, FullReplay.of(env.spec_env, task))
        agent = NoOpAgent()
        agent.reset(env, info)
        while True:
            action = agent.act(observation, info)
            oracle.before_step(action)
            observation, _, terminated, truncated, info = env.step(action)
            oracle.after_step(info, terminated or truncated)
            if terminated or truncated:
                break
        assert oracle.episode is not None and oracle.episode.state == 0.0
        assert info["reward_components"]["state"] == pytest.approx(1.0)  # nothing seen changed: the fault
    finally:
        env.close()
