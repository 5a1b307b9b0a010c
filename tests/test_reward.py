"""Unit cases of each part of the reward (the invariants on every zoo task: tests/test_task_invariants.py)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from envfactory_gym import RewardConfig, ToolUseEnv, load_tasks, load_zoo_environment
from envfactory_gym.agents import run_episode
from envfactory_gym.delta import as_delta
from envfactory_gym.reward import CallRecord, match_calls, score, state_reward, trajectory_reward, values_equal
from envfactory_gym.tasks import GroundTruthCall

from .scripted import ScriptAgent, calls_text


def test_strict_mode_is_all_or_nothing():
    assert trajectory_reward(2, 3, "strict") == 0.0 and trajectory_reward(3, 3, "strict") == 1.0
    assert trajectory_reward(2, 4, "graded") == 0.5 and trajectory_reward(0, 0, "graded") == 1.0
    env = ToolUseEnv("notion", reward_config=RewardConfig(trajectory_mode="strict"))
    task = env.tasks["notion-0001"]
    half = [calls_text(task.turns[0].agent_calls), []]
    assert run_episode(env, ScriptAgent(half), task_id=task.id)["components"]["trajectory"] == 0.0


def test_state_reward_cases():
    initial = {"t": {"1": {"v": 1}, "2": {"v": 2}}}
    expected = {"t": {"1": {"v": 10}, "2": {"v": 2}, "3": {"v": 3}}}
    assert state_reward(initial, expected, expected) == 1.0
    assert state_reward(initial, initial, expected) == 0.0
    half = {"t": {"1": {"v": 10}, "2": {"v": 2}}}
    assert state_reward(initial, half, expected) == pytest.approx(0.5)
    collateral = {"t": {"1": {"v": 10}, "2": {"v": 99}, "3": {"v": 3}}}
    assert state_reward(initial, collateral, expected) == pytest.approx(2 / 3)
    assert state_reward(initial, initial, initial) == 1.0


def test_writes_must_keep_their_order_but_reads_need_not():
    spec = load_zoo_environment("notion")
    w1 = GroundTruthCall(name="restore_page", arguments={"page_id": "a"})
    w2 = GroundTruthCall(name="move_page_to_trash", arguments={"page_id": "a"})
    r1 = GroundTruthCall(name="list_users", arguments={})
    rec = lambda c: CallRecord(c.name, dict(c.arguments), True, spec.tools[c.name].read_only)  # noqa: E731
    assert match_calls(spec, [rec(r1), rec(w1), rec(w2)], [w1, w2, r1]) == 3
    assert match_calls(spec, [rec(w2), rec(w1)], [w1, w2]) == 1
    failed = CallRecord("restore_page", {"page_id": "a"}, False, False)
    assert match_calls(spec, [failed], [w1]) == 0


def test_score_is_clipped_to_unit_interval():
    spec = load_zoo_environment("notion")
    calls = [CallRecord("list_users", {}, True, True)] * 40
    result = score(spec, calls, [], {}, {}, {}, format_errors=30)
    assert result.total == 0.0 and result.length_penalty == 0.5 and result.format_penalty == 0.5


def test_unordered_list_arguments_match_in_any_order(tmp_path):
    from typing import Annotated

    from envfactory_gym import Database, Unordered, tool

    from .helpers import make_spec

    @tool()
    def archive_items(
        db: Database,
        item_ids: Annotated[list[int], Unordered],
        order: list[int],
        labels: Annotated[list[str], Unordered] | None = None,
    ) -> int:
        """Archive items.

        Args:
            item_ids: Items to archive, in any order.
            order: The order to show them in.
            labels: Labels to add, in any order (optional).
        """
        return len(item_ids)

    spec = make_spec(tmp_path, [archive_items], [{"id": 1, "name": "a"}])
    assert spec.tools["archive_items"].unordered_inputs == {"item_ids", "labels"}
    labelled = GroundTruthCall(name="archive_items", arguments={"item_ids": [1], "order": [], "labels": ["x", "Y"]})
    relabelled = CallRecord("archive_items", {"item_ids": [1], "order": [], "labels": ["y", "x", "x"]}, True, False)
    assert match_calls(spec, [relabelled], [labelled]) == 1  # a set: order, case and repeats do not matter
    assert spec.tools["archive_items"].input_schema["properties"]["item_ids"]["uniqueItems"] is True
    expected = GroundTruthCall(name="archive_items", arguments={"item_ids": [1, 2, 3], "order": [1, 2]})
    shuffled = CallRecord("archive_items", {"item_ids": [3, 1, 2], "order": [1, 2]}, True, False)
    reordered = CallRecord("archive_items", {"item_ids": [1, 2, 3], "order": [2, 1]}, True, False)
    missing = CallRecord("archive_items", {"item_ids": [3, 1], "order": [1, 2]}, True, False)
    assert match_calls(spec, [shuffled], [expected]) == 1
    assert match_calls(spec, [reordered], [expected]) == 0  # an ordinary list keeps its order
    assert match_calls(spec, [missing], [expected]) == 0


def test_cached_expected_states_hold_only_what_the_ground_truth_changed():
    """Expected replays are cached per process as deltas over their snapshot: they hold the rows the ground truth
    changed and nothing else, and describe exactly the states of an uncached replay's full dumps."""
    from envfactory_gym.session import ToolSession
    from envfactory_gym.tasks import expected_replay, replay, replay_calls

    spec = load_zoo_environment("semantic_scholar")
    first, second = list(load_tasks(spec).values())[:2]
    a, b = expected_replay(spec, first), expected_replay(spec, second)
    assert a.states == replay(spec, first).states and b.final == replay(spec, second).final
    assert a.initial.base is b.initial.base  # one shared row source per snapshot
    session = ToolSession(spec)
    session.reset(first.snapshot, first.clock)
    dumps = [session.dump()]
    for turn in first.turns:
        replay_calls(session, turn.calls)
        dumps.append(session.dump())
    session.close()
    assert [state.full() for state in a.states] == dumps
    changed = {
        (t, k)
        for t in dumps[0].keys() | dumps[-1].keys()
        for k in dumps[0].get(t, {}).keys() | dumps[-1].get(t, {}).keys()
        if dumps[0].get(t, {}).get(k) != dumps[-1].get(t, {}).get(k)
    }
    assert changed and changed <= a.final.rows.keys() and len(a.final.rows) < 50  # touched rows, nothing more


@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["1", "2", "3"]), st.integers(0, 3)),
        max_size=12,
    ),
    st.integers(0, 2**32 - 1),
)
def test_state_reward_over_full_dumps_equals_the_row_by_row_comparison(rows, seed):
    """The table-by-table path for three dumps gives what the row-by-row comparison over deltas gives."""
    rng = random.Random(seed)

    def dump() -> dict:
        state: dict = {}
        for table, key, value in rows:
            if rng.random() < 0.8:  # some rows absent, some values differ between the three states
                state.setdefault(table, {})[key] = {"v": value if rng.random() < 0.7 else value + 1}
        return state

    initial, final, expected = dump(), dump(), dump()
    full = state_reward(initial, final, expected)
    assert full == state_reward(as_delta(initial), as_delta(final), as_delta(expected))


def test_values_equal_never_calls_nan_equal_even_when_it_is_the_same_object():
    nan = float("nan")
    assert not values_equal(nan, nan)
    assert not values_equal([nan], [nan]) and not values_equal({"x": [1, nan]}, {"x": [1, nan]})
    assert values_equal([1, "A  b"], [1.0, "a b"]) and values_equal(True, 1) and not values_equal("1", 1)
