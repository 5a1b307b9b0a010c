"""Training data from zoo tasks in the one trajectory format (`envfactory_gym.rollout.trajectory_record`):
ground-truth chats for SFT and prompts (one per turn or per conversation) for RL; `envfactory_training.renderers`
turns them into each trainer's rows and `envfactory_training.export` writes them as Hugging Face datasets.
"""

from __future__ import annotations

from typing import Iterator, Literal

from envfactory_gym.agents import ReferenceAgent, run_episode
from envfactory_gym.env import ToolUseEnv
from envfactory_gym.registry import load_zoo_environment
from envfactory_gym.rollout import trajectory_record
from envfactory_gym.splits import split_task_ids, warn_if_held_out
from envfactory_gym.tasks import Task, expected_replay, load_tasks

from .episode import EpisodeLabel, Mode, start_episode
from .renderers import Record, openrlhf_prompt, openrlhf_sft

Split = Literal["train", "test", "all"]


def _tasks(env_key: str, split: Split) -> list[Task]:
    """The tasks of one stored split (the held-out one `envfactory bench` evaluates on is `test`, and choosing
    it, or all, for training data warns), or all."""
    warn_if_held_out(split, f"training data of {env_key}")
    spec = load_zoo_environment(env_key)
    ids = sorted(load_tasks(spec)) if split == "all" else split_task_ids(spec, split)
    chosen = [load_tasks(spec)[i] for i in ids]
    return [t for t in chosen if not expected_replay(spec, t).failures]  # a failing ground truth teaches errors


def prompt_records(env_key: str, mode: Mode, split: Split = "train") -> Iterator[Record]:
    """RL prompts: the system prompt and the conversation up to the sample's turn (earlier turns replayed from the
    ground truth), no reward yet, with `turn`, `mode` and `label` (EpisodeLabel JSON: what the trainers'
    environments start the sample from)."""
    tasks = _tasks(env_key, split)
    if not tasks:
        return
    env = ToolUseEnv(load_zoo_environment(env_key), max_steps=10**9)
    try:
        for task in tasks:
            turns = range(len(task.turns)) if mode == "turn" else range(1)
            for turn in turns:
                label = EpisodeLabel(env_key, task.id, turn, mode)
                info = start_episode(env, label)
                yield trajectory_record(
                    env.spec_env, task.id, info["messages"], turn=turn, mode=mode, label=label.to_json()
                )
    finally:
        env.close()


def sft_records(env_key: str, split: Split = "train") -> Iterator[Record]:
    """SFT chats: each task played to its end by the ground truth (one tool call per assistant step, a fixed
    closing reply per turn), with the reward (1.0) and its components."""
    tasks = _tasks(env_key, split)
    if not tasks:
        return
    env = ToolUseEnv(load_zoo_environment(env_key), max_steps=10**9)
    try:
        for task in tasks:
            result = run_episode(env, ReferenceAgent(), task_id=task.id)
            yield trajectory_record(
                env.spec_env, task.id, result["info"]["messages"], result["reward"], result["info"]["reward_components"]
            )
    finally:
        env.close()


def prompt_rows(env_key: str, mode: Mode, split: Split = "train") -> Iterator[dict]:
    """OpenRLHF prompt rows (`envfactory_training.renderers.openrlhf_prompt`) of `prompt_records`."""
    return (openrlhf_prompt(r) for r in prompt_records(env_key, mode, split))


def sft_rows(env_key: str, split: Split = "train") -> Iterator[dict]:
    """OpenRLHF SFT rows (`envfactory_training.renderers.openrlhf_sft`) of `sft_records`."""
    return (openrlhf_sft(r) for r in sft_records(env_key, split))
