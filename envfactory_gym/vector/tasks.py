"""Per-sub-env tasks for gymnasium vector envs, whose `reset(options=...)` passes the same options to every
sub-env: each `ToolUseEnv` takes its next task from its own `next_task_id` attribute."""

from __future__ import annotations

from typing import Any, Sequence

from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv


def reset_to_tasks(
    vec: SyncVectorEnv | AsyncVectorEnv, task_ids: Sequence[str], seed: int | list[int | None] | None = None
) -> tuple[Any, dict]:
    """Reset every sub-env of `vec` on its own task (`task_ids[i]` for sub-env `i`); returns `vec.reset(...)`.

    >>> import gymnasium as gym, envfactory_gym
    >>> vec = gym.make_vec(envfactory_gym.resolve("notion").env_id, num_envs=2, vectorization_mode="sync")
    >>> _, infos = reset_to_tasks(vec, ["notion-0001", "notion-0002"])
    >>> list(infos["task_id"])
    ['notion-0001', 'notion-0002']
    >>> vec.close()
    """
    if len(task_ids) != vec.num_envs:
        raise ValueError(f"give one task id per sub-env: {vec.num_envs} sub-envs, {len(task_ids)} task ids")
    vec.set_attr("next_task_id", list(task_ids))
    return vec.reset(seed=seed)
