"""Every task of every zoo environment, five episodes each: the reward invariants of method.md section 7 hold,
and every turn and episode score equals the one computed from full dumps (tests/full_dump_oracle.py).

- the ground truth (several calls per action) scores exactly 1.0, and so does each of its turns;
- off the path: an extra read before each turn (the clock moves), reads played in reverse, masked arguments
  changed, Unordered lists reversed: trajectory and state stay 1.0, the length penalty counts the extra reads;
- doing nothing scores 0 on writing tasks and less than the ground truth on read-only ones;
- a seeded random agent scores inside [0, 1];
- the ground truth with one write argument changed loses trajectory reward (and state reward when the value
  reaches the state).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from envfactory_gym import ToolUseEnv, load_tasks, load_zoo_environment, zoo_cards
from envfactory_gym.agents import NoOpAgent, RandomAgent, ReferenceAgent, format_call
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.tasks import GroundTruthCall, Task, vary_masked

from .full_dump_oracle import FullReplay, Oracle
from .scripted import ScriptAgent, calls_text

ALL_TASKS = [(key, task_id) for key, card in zoo_cards().items() for task_id in card.task_ids]

pytestmark = pytest.mark.slow


class LazyEnvs(dict):
    """One env per zoo key, built on first use and kept for the worker's whole session."""

    def __missing__(self, key: str) -> ToolUseEnv:
        self[key] = ToolUseEnv(key)
        return self[key]


@pytest.fixture(scope="session")
def envs():
    made = LazyEnvs()
    yield made
    for env in made.values():
        env.close()


@lru_cache(maxsize=2)
def _full_replay(key: str, task_id: str) -> FullReplay:
    spec = load_zoo_environment(key)
    return FullReplay.of(spec, load_tasks(spec)[task_id])


def play(env: ToolUseEnv, agent, task_id: str) -> dict:
    """One episode, scored by the env and by the full-dump oracle; they must agree exactly."""
    observation, info = env.reset(seed=0, options={"task_id": task_id})
    agent.reset(env, info)
    oracle = Oracle(env, _full_replay(env.spec_env.key, task_id))
    turn_rewards = []
    paid = 0.0
    while True:
        action = agent.act(observation, info)
        oracle.before_step(action)
        observation, reward, terminated, truncated, info = env.step(action)
        paid += reward
        oracle.after_step(info, terminated or truncated)
        if "turn_reward" in info:
            turn_rewards.append(info["turn_reward"])
        if terminated or truncated:
            break
    assert turn_rewards == [s.as_dict() for s in oracle.turn_scores]
    assert oracle.episode is not None and info["reward_components"] == oracle.episode.as_dict()
    score = oracle.episode.total
    assert paid == pytest.approx(score, abs=1e-12) and 0.0 <= score <= 1.0  # the return is the score
    return {"reward": score, "components": info["reward_components"], "turn_rewards": turn_rewards}


def _reverse_unordered(spec: EnvironmentSpec, call: GroundTruthCall) -> GroundTruthCall:
    changed = call.model_copy(deep=True)
    for name in spec.tools[call.name].unordered_inputs:
        if isinstance(changed.arguments.get(name), list):
            changed.arguments[name] = list(reversed(changed.arguments[name]))
    return changed


def off_path_turns(spec: EnvironmentSpec, task: Task) -> tuple[list[list[str]], int]:
    """Each turn: an extra read, the reads before its first write in reverse, the rest with masked arguments
    varied and Unordered lists reversed. Returns the turns and the number of extra calls."""
    reads = [c for c in task.agent_calls if spec.tools[c.name].read_only]
    parameterless = [t for t in spec.agent_tools if t.read_only and not t.required_inputs]
    extra = format_call(reads[0].name, reads[0].arguments) if reads else format_call(parameterless[0].name, {})
    turns = []
    for turn in task.turns:
        calls = [_reverse_unordered(spec, vary_masked(spec, c)) for c in turn.agent_calls]
        lead = next((i for i, c in enumerate(calls) if not spec.tools[c.name].read_only), len(calls))
        turns.append([extra] + calls_text(list(reversed(calls[:lead])) + calls[lead:]))
    return turns, len(task.turns)


def corrupted_turns(spec: EnvironmentSpec, task: Task) -> list[list[str]] | None:
    """The ground truth with one unmasked string argument of a write changed; None if the task has none."""
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


@pytest.mark.parametrize("key,task_id", ALL_TASKS)
def test_task_scores(envs, key, task_id):
    env = envs[key]
    spec, task = env.spec_env, env.tasks[task_id]

    truth = play(env, ReferenceAgent(3), task_id)
    assert truth["reward"] == 1.0
    assert [t["total"] for t in truth["turn_rewards"]] == [1.0] * len(task.turns)

    turns, extra = off_path_turns(spec, task)
    wandering = play(env, ScriptAgent(turns), task_id)["components"]
    assert wandering["trajectory"] == 1.0 and wandering["state"] == 1.0
    assert wandering["length_penalty"] == pytest.approx(
        min(env.reward_config.length_cap, env.reward_config.gamma * extra)
    )

    nothing = play(env, NoOpAgent(), task_id)
    if task.changes_state(spec):
        assert nothing["reward"] == 0.0
    else:
        assert nothing["reward"] < 1.0 and nothing["components"]["trajectory"] == 0.0

    play(env, RandomAgent(seed=sum(map(ord, task_id))), task_id)

    corrupted = corrupted_turns(spec, task)
    if corrupted is not None:
        wrong = play(env, ScriptAgent(corrupted), task_id)
        assert wrong["components"]["trajectory"] < 1.0 and wrong["reward"] < 1.0
