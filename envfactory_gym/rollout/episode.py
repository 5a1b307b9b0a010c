"""One episode: a policy and an env handle take turns until the task ends, filling a `Trajectory` as they go."""

from __future__ import annotations

import time

from .policies import Policy, PolicyReply
from .pool import EnvHandle
from .trajectory import Trajectory


async def play(
    handle: EnvHandle, policy: Policy, trajectory: Trajectory, seed: int | None = None, digest_state: bool = False
) -> Trajectory:
    """Run `trajectory.task_id` on `handle` with `policy`; the trajectory is updated after every step, so a
    cancelled episode still shows the conversation so far. `digest_state` also records the final state's
    SHA-256 (one more dump of the database). Returns the trajectory."""
    timings = trajectory.timings
    start = time.perf_counter()
    try:
        _, info = await handle.reset(seed=seed, options={"task_id": trajectory.task_id})
        timings["env_s"] += time.perf_counter() - start
        tools = info["tools"]
        trajectory.messages = info["messages"]
        while True:
            tick = time.perf_counter()
            action = await policy(trajectory.messages, tools)
            tock = time.perf_counter()
            trajectory.usage["requests"] += 1
            if isinstance(action, PolicyReply):
                trajectory.usage["prompt_tokens"] += action.prompt_tokens
                trajectory.usage["completion_tokens"] += action.completion_tokens
                action = action.text
            timings["policy_s"] += tock - tick
            _, _, terminated, truncated, info = await handle.step(action)
            timings["env_s"] += time.perf_counter() - tock
            trajectory.messages = info["messages"]
            trajectory.steps = info["step"]
            if "turn_reward" in info:
                trajectory.turn_rewards.append(info["turn_reward"])
            if terminated or truncated:
                break
        if digest_state:
            tick = time.perf_counter()
            trajectory.final_state_digest = await handle.state_digest()
            timings["env_s"] += time.perf_counter() - tick
        trajectory.reward = float(info["reward_components"]["total"])  # the episode's score: what its rewards sum to
        trajectory.reward_components = info["reward_components"]
        trajectory.terminated, trajectory.truncated = bool(terminated), bool(truncated)
        return trajectory
    finally:
        timings["total_s"] = time.perf_counter() - start
