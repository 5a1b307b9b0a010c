"""Zoo environments made by skyrl-gym's own registry and driven through its `BaseTextEnv` contract, from rows that
`envfactory train-data --trainer skyrl` writes, loaded the way SkyRL's PromptDataset splits them (prompt,
env_class, the other columns as extras). SkyRL's generator itself (`skyrl-train`) needs Python >= 3.12 and is
not run here; the loop below makes the calls it makes (`make`, `init`, `step` until done, summed rewards)."""

from __future__ import annotations

import pytest

skyrl_gym = pytest.importorskip("skyrl_gym")

from omegaconf import DictConfig  # noqa: E402

from envfactory_gym.agents import format_call  # noqa: E402
from envfactory_gym.cli import main  # noqa: E402
from envfactory_gym.registry import load_zoo_environment, zoo_keys  # noqa: E402
from envfactory_gym.state import state_hash  # noqa: E402
from envfactory_gym.tasks import load_tasks  # noqa: E402
from envfactory_training.episode import EpisodeLabel  # noqa: E402
from envfactory_training.skyrl_env import EnvFactoryTextEnv, register_zoo  # noqa: E402

CLOSING = "Done. Anything else?"


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    """Notion's SkyRL turn rows, written by the CLI and loaded back with `datasets`, split as SkyRL does."""
    from datasets import load_dataset

    out = tmp_path_factory.mktemp("skyrl") / "rows"
    assert main(["train-data", "notion", "--mode", "turn", "--trainer", "skyrl", "--out", str(out)]) == 0
    register_zoo()
    split = []
    for row in load_dataset(str(out), split="train"):
        row = dict(row)
        split.append((row.pop("prompt"), row.pop("env_class"), row))
    return split


def ground_truth(label: EpisodeLabel) -> list[str]:
    turn = load_tasks(load_zoo_environment(label.env))[label.task_id].turns[label.turn]
    return [format_call(c.name, c.arguments) for c in turn.agent_calls] + [CLOSING]


def play(env_class: str, extras: dict, prompt: list, actions: list[str], config: dict | None = None):
    """SkyRL's generator loop: make, init, step until done; the summed reward, the observations, the env."""
    env = skyrl_gym.make(env_class, env_config=DictConfig(config or {}), extras={**extras, "max_turns": 40})
    history, _ = env.init(prompt)
    assert history == prompt  # the row's prompt already shows the replayed turns
    total, observations = 0.0, []
    for action in actions:
        out = env.step(action)
        total += out["reward"]
        observations.append(out["observations"])
        if out["done"]:
            break
    return total, observations, env


def test_every_zoo_environment_is_registered_as_a_text_env():
    ids = register_zoo()
    assert ids == [f"envfactory_{key}" for key in zoo_keys()]
    for env_id in ids:
        assert skyrl_gym.envs.registration.spec(env_id).entry_point == "envfactory_training.skyrl_env:EnvFactoryTextEnv"


def test_ground_truth_turns_earn_the_full_reward_and_observations_are_chat_messages(rows):
    for prompt, env_class, extras in rows[:6]:
        label = EpisodeLabel.from_json(extras["label"])
        assert env_class == "envfactory_notion" and prompt[-1]["role"] == "user"
        total, observations, env = play(env_class, extras, prompt, ground_truth(label))
        assert isinstance(env, EnvFactoryTextEnv)
        assert total == pytest.approx(1.0)
        calls = len(ground_truth(label)) - 1
        assert len(observations) == calls + 1 and observations[-1] == []  # the closing reply ends the sample
        for messages in observations[:-1]:  # each call's result, as a tool message the chat template renders
            assert [m["role"] for m in messages] == ["tool"] and messages[0]["content"]
        metrics = env.get_metrics()
        assert metrics["total"] == pytest.approx(1.0) and metrics["steps"] == calls + 1
        env.close()


def test_wrong_calls_score_less_and_rewards_sum_to_the_score_at_a_budget_stop(rows):
    prompt, env_class, extras = next(r for r in rows if len(ground_truth(EpisodeLabel.from_json(r[2]["label"]))) == 2)
    label = EpisodeLabel.from_json(extras["label"])
    wrong = format_call("no_such_tool", {})
    total, observations, env = play(env_class, extras, prompt, [wrong, CLOSING])
    assert total < 1.0 and "Error" in observations[0][0]["content"]
    # stopped after the call (SkyRL's length limit): what was paid is the turn's score so far
    total, _, env = play(env_class, extras, prompt, ground_truth(label)[:1])
    assert total == pytest.approx(env.sample.base.current_score("turn").total)
    # max_turns caps the actions: the second action truncates the sample and pays the partial score
    env = skyrl_gym.make(env_class, env_config=DictConfig({}), extras={**extras, "max_turns": 1})
    env.init(prompt)
    out = env.step(wrong)
    assert out["done"] and out["reward"] == pytest.approx(env.sample.score)


def test_samples_of_a_row_start_from_the_same_state_and_settings_come_from_the_config(rows):
    prompt, env_class, extras = rows[-1]
    first = skyrl_gym.make(env_class, env_config=DictConfig({}), extras=extras)
    second = skyrl_gym.make(env_class, env_config=DictConfig({}), extras=extras)
    assert state_hash(first.sample.base.session.dump()) == state_hash(second.sample.base.session.dump())
    assert first.sample.info["messages"][-1]["content"] == prompt[-1]["content"]
    penalised = skyrl_gym.make(env_class, env_config=DictConfig({"format_penalty": -1.0}), extras=extras)
    penalised.init(prompt)
    out = penalised.step('<tool_call>{"name": broken</tool_call>')
    assert out["done"] and out["reward"] == -1.0


def test_a_row_of_another_environment_is_refused(rows):
    _, _, extras = rows[0]
    with pytest.raises(ValueError, match="envfactory_notion"):
        skyrl_gym.make("envfactory_stripe", env_config=DictConfig({}), extras=extras)
    with pytest.raises(KeyError, match="label"):
        skyrl_gym.make("envfactory_notion", env_config=DictConfig({}), extras={"data_source": "notion"})
