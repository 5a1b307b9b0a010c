"""Parallel rollouts for LLM agents: an asyncio engine over thread-pooled envs (or Ray actors), policies, and
trajectories. `rollout(policy, tasks, concurrency=..., group_size=..., backend="local"|"ray")` is the entry point.
"""

from .async_env import AsyncToolEnv
from .audit import replay_trajectory
from .engine import arollout, make_pool, rollout
from .openai_policy import ChatPolicy, OpenAIChatPolicy, PolicyError
from .policies import GroundTruthPolicy, Policy, PolicyReply
from .pool import EnvHandle, EnvPool, LocalEnvPool
from .trajectory import TaskRef, Trajectory, chat_messages, expand_tasks, trajectory_record, validate_record

__all__ = [
    "AsyncToolEnv",
    "ChatPolicy",
    "EnvHandle",
    "EnvPool",
    "GroundTruthPolicy",
    "LocalEnvPool",
    "OpenAIChatPolicy",
    "Policy",
    "PolicyError",
    "PolicyReply",
    "TaskRef",
    "Trajectory",
    "arollout",
    "expand_tasks",
    "make_pool",
    "replay_trajectory",
    "rollout",
    "chat_messages",
    "trajectory_record",
    "validate_record",
]
