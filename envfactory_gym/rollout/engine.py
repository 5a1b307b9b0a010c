"""`rollout`: many independent episodes at once, each stepping as soon as its own policy output arrives."""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Container, Iterable, Literal

from ..splits import Split, warn_if_held_out
from .episode import play
from .policies import Policy
from .pool import EnvPool, LocalEnvPool
from .trajectory import TaskLike, Trajectory, expand_tasks

Backend = Literal["local", "process", "ray"]


def make_pool(backend: Backend, workers: int | None = None, **env_kwargs: Any) -> EnvPool:
    """A new pool: `local` (threads in this process), `process` (worker processes on this machine, see
    `ProcessEnvPool`) or `ray` (env worker actors, see `RayEnvPool`)."""
    if backend == "local":
        return LocalEnvPool(threads=workers, **env_kwargs)
    if backend == "process":
        from .process_pool import ProcessEnvPool

        return ProcessEnvPool(workers=workers, **env_kwargs)
    if backend == "ray":
        from .ray_pool import RayEnvPool  # ray is an optional dependency

        return RayEnvPool(workers=workers, **env_kwargs)
    raise ValueError(f"unknown backend {backend!r}: use 'local', 'process', 'ray' or an EnvPool")


async def arollout(
    policy: Policy,
    tasks: Iterable[TaskLike],
    *,
    split: Split | Literal["all"] = "train",
    concurrency: int = 64,
    group_size: int = 1,
    backend: Backend | EnvPool = "local",
    workers: int | None = None,
    episode_timeout: float | None = None,
    seed: int = 0,
    digest_state: bool = False,
    env_kwargs: dict[str, Any] | None = None,
    skip: Container[tuple[str, str, int]] = (),
    on_episode: Callable[[Trajectory], None] | None = None,
    evaluation: bool = False,
) -> list[Trajectory]:
    """Play every task `group_size` times with `policy`, at most `concurrency` episodes at once.

    - `tasks`: environment names (their tasks of `split`), `(env, task_id)` pairs or `TaskRef`s.
    - `split`: which stored split an environment name stands for: "train" (default: rollouts are for training),
      "test" (the held-out tasks `envfactory bench` evaluates on; training on them warns) or "all". A pair outside
      the split is played with a warning.
    - `group_size`: samples per task (GRPO groups); each sample runs on its own env from the task's snapshot.
    - `backend`: `"local"` (thread pool of `workers` threads), `"process"` (`workers` processes on this machine:
      environment work uses every core), `"ray"` (`workers` env actors), or an `EnvPool` to reuse across calls
      (it is then left open).
    - `episode_timeout`: seconds per episode; a late episode is cancelled and marked in `Trajectory.error`.
      An episode whose policy or env raises is marked the same way; the others go on.
    - `digest_state`: record each final database state's SHA-256 in `Trajectory.final_state_digest` (costs
      one more dump of the state per episode).
    - `env_kwargs`: passed to every `ToolUseEnv` (e.g. `max_steps`).
    - `skip`: `(env_id, task_id, sample)` keys not to play (e.g. episodes a resumed run already has); every other
      episode keeps the seed it would have had in the full run.
    - `evaluation`: the rollout evaluates (as `envfactory bench` does): the test split warns nothing.
    - `on_episode`: called with each trajectory as soon as its episode ends (in completion order), e.g. to save
      it before the rest of the batch is done.

    Returns the played trajectories in task order, the samples of a group consecutive.
    """
    if concurrency < 1 or group_size < 1:
        raise ValueError("concurrency and group_size must be at least 1")
    if not evaluation:
        warn_if_held_out(split, "this rollout")
    refs = expand_tasks(tasks, split)
    pool = make_pool(backend, workers, **(env_kwargs or {})) if isinstance(backend, str) else backend
    gate = asyncio.Semaphore(concurrency)

    async def episode(index: int, group: int, sample: int) -> Trajectory:
        ref = refs[group]
        trajectory = Trajectory(ref.env, ref.task_id, group, sample)
        async with gate:
            handle = await pool.acquire(ref.env)
            try:
                await asyncio.wait_for(play(handle, policy, trajectory, seed + index, digest_state), episode_timeout)
            except asyncio.TimeoutError:
                trajectory.error = f"timeout: the episode took longer than {episode_timeout} s"
            except Exception as exc:  # one failing episode must not lose the batch: recorded, not raised
                trajectory.error = f"{type(exc).__name__}: {exc}"
                trajectory.error_transient = getattr(exc, "transient", True)
            finally:
                pool.release(handle)
        if on_episode is not None:
            on_episode(trajectory)
        return trajectory

    jobs = [(group, sample) for group in range(len(refs)) for sample in range(group_size)]
    played = [(i, g, s) for i, (g, s) in enumerate(jobs) if (refs[g].env, refs[g].task_id, s) not in skip]
    try:
        return list(await asyncio.gather(*(episode(i, g, s) for i, g, s in played)))
    finally:
        if isinstance(backend, str):
            await pool.aclose()


def rollout(policy: Policy, tasks: Iterable[TaskLike], **options: Any) -> list[Trajectory]:
    """`arollout` from synchronous code (runs its own event loop); same options and result."""
    return asyncio.run(arollout(policy, tasks, **options))
