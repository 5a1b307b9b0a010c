"""Reward invariants (method.md section 7) on every task of every zoo env, plus unit cases of each part."""

import pytest

from envfactory_gym import RewardConfig, ToolUseEnv, load_tasks, load_zoo_environment, zoo_keys
from envfactory_gym.agents import NoOpAgent, ReferenceAgent, format_call, run_episode
from envfactory_gym.reward import CallRecord, match_calls, score, state_reward, trajectory_reward
from envfactory_gym.tasks import GroundTruthCall, vary_masked

ALL_TASKS = [(key, task_id) for key in zoo_keys() for task_id in load_tasks(load_zoo_environment(key))]


class ScriptAgent:
    """Plays a fixed list of actions per turn, then ends the turn."""

    def __init__(self, turns):
        self.turns = turns

    def reset(self, env, info):
        self.queue, self.turn = [], -1

    def act(self, observation, info):
        if info["turn"] != self.turn:
            self.turn = info["turn"]
            self.queue = list(self.turns[self.turn]) if self.turn < len(self.turns) else []
        return self.queue.pop(0) if self.queue else "Done."


def calls_text(calls):
    return [format_call(c.name, c.arguments) for c in calls]


class LazyEnvs(dict):
    """One env per zoo key, built on first use."""

    def __missing__(self, key):
        self[key] = ToolUseEnv(key)
        return self[key]


@pytest.fixture(scope="module")
def envs():
    made = LazyEnvs()
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize("key,task_id", ALL_TASKS)
def test_ground_truth_scores_one_and_doing_nothing_scores_less(envs, key, task_id):
    env = envs[key]
    for agent in (ReferenceAgent(1), ReferenceAgent(5)):
        assert run_episode(env, agent, task_id=task_id)["reward"] == 1.0
    nothing = run_episode(env, NoOpAgent(), task_id=task_id)
    if env.tasks[task_id].changes_state(env.spec_env):
        assert nothing["reward"] == 0.0
    else:
        assert nothing["reward"] < 1.0 and nothing["components"]["trajectory"] == 0.0


@pytest.mark.parametrize("key,task_id", ALL_TASKS)
def test_reordered_reads_and_changed_masked_args_change_nothing(envs, key, task_id):
    env = envs[key]
    spec = env.spec_env
    turns = []
    for turn in env.tasks[task_id].turns:
        calls = [vary_masked(spec, c) for c in turn.agent_calls]
        # the reads before a turn's first write depend on nothing that turn does: play them in reverse order
        lead = next((i for i, c in enumerate(calls) if not spec.tools[c.name].read_only), len(calls))
        turns.append(calls_text(list(reversed(calls[:lead])) + calls[lead:]))
    result = run_episode(env, ScriptAgent(turns), task_id=task_id)
    assert result["components"]["trajectory"] == 1.0
    assert result["components"]["state"] == 1.0
    assert result["components"]["length_penalty"] == 0.0


@pytest.mark.parametrize("key,task_id", ALL_TASKS)
def test_extra_reads_move_the_clock_but_not_the_state_reward(envs, key, task_id):
    """Ids and stored values must not depend on how many calls came first (generated times are volatile)."""
    env = envs[key]
    spec, task = env.spec_env, env.tasks[task_id]
    reads = [c for c in task.agent_calls if spec.tools[c.name].read_only]
    parameterless = [t for t in spec.agent_tools if t.read_only and not t.required_inputs]
    extra = format_call(reads[0].name, reads[0].arguments) if reads else format_call(parameterless[0].name, {})
    turns = [[extra, extra] + calls_text(t.agent_calls) for t in task.turns]
    result = run_episode(env, ScriptAgent(turns), task_id=task_id)
    assert result["components"]["state"] == 1.0 and result["components"]["trajectory"] == 1.0
    assert result["components"]["length_penalty"] > 0


@pytest.mark.parametrize("key", zoo_keys())
def test_unordered_arguments_are_order_free_in_the_state_too(key):
    """A list argument declared Unordered is matched as a set, so its order must not reach the state either."""
    from envfactory_gym.tasks import replay

    spec = load_zoo_environment(key)
    for task in load_tasks(spec).values():
        varied = task.model_copy(deep=True)
        reordered = False
        for turn in varied.turns:
            for call in turn.calls:
                for name in spec.tools[call.name].unordered_inputs:
                    value = call.arguments.get(name)
                    if isinstance(value, list) and len(value) > 1:
                        call.arguments[name] = list(reversed(value))
                        reordered = True
        if reordered:
            result = replay(spec, varied)
            assert not result.failures and result.final == replay(spec, task).final, task.id


def _mutated_write(env, task):
    """The task's ground truth with one string argument of a write changed; None if no such change applies."""
    spec = env.spec_env
    for t_index, turn in enumerate(task.turns):
        for c_index, call in enumerate(turn.agent_calls):
            if spec.tools[call.name].read_only:
                continue
            for name, value in call.arguments.items():
                if isinstance(value, str) and name not in call.masked and not name.endswith("id"):
                    turns = [calls_text(t.agent_calls) for t in task.turns]
                    changed = call.model_copy(deep=True)
                    changed.arguments[name] = value + " (wrong)"
                    turns[t_index][c_index] = format_call(changed.name, changed.arguments)
                    return turns
    return None


@pytest.mark.parametrize("key", zoo_keys())
def test_a_wrong_write_lowers_both_parts(envs, key):
    env = envs[key]
    checked = 0
    for task in env.tasks.values():
        turns = _mutated_write(env, task)
        if turns is None:
            continue
        result = run_episode(env, ScriptAgent(turns), task_id=task.id)
        if result["components"]["state"] == 1.0:
            continue  # the changed value did not reach the state (e.g. a validated enum rejected it)
        assert result["components"]["trajectory"] < 1.0
        assert result["reward"] < 1.0
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("key", zoo_keys())
def test_extra_calls_are_penalised(envs, key):
    env = envs[key]
    task = next(iter(env.tasks.values()))
    read = next(t for t in env.spec_env.agent_tools if t.read_only and not t.required_inputs)
    turns = [calls_text(t.agent_calls) + [format_call(read.name, {})] * 3 for t in task.turns]
    result = run_episode(env, ScriptAgent(turns), task_id=task.id)
    extra = 3 * len(task.turns)
    assert result["components"]["length_penalty"] == pytest.approx(min(0.5, 0.05 * extra))
    assert result["reward"] == pytest.approx(1.0 - min(0.5, 0.05 * extra))


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
    def archive_items(db: Database, item_ids: Annotated[list[int], Unordered], order: list[int],
                      labels: Annotated[list[str], Unordered] | None = None) -> int:
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


def test_cached_expected_states_share_what_the_ground_truth_leaves_unchanged():
    """Expected replays are cached per process; their states hold one copy of every untouched row of the
    snapshot, so scoring a whole zoo stays small, and they equal an uncached replay exactly."""
    from envfactory_gym.tasks import expected_replay, replay

    spec = load_zoo_environment("semantic_scholar")
    first, second = list(load_tasks(spec).values())[:2]
    a, b = expected_replay(spec, first), expected_replay(spec, second)
    assert a.states == replay(spec, first).states and b.final == replay(spec, second).final
    table = max(a.final, key=lambda name: len(a.final[name]))
    untouched = [key for key, row in a.initial[table].items() if a.final[table].get(key) == row]
    assert len(untouched) > 100
    assert all(a.final[table][key] is b.initial[table][key] for key in untouched)
