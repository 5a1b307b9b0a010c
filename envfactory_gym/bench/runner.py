"""Running a benchmark: the baseline agents in-process, the model through the asyncio rollout engine against its
OpenAI-compatible endpoint, every finished episode saved at once; a re-run plays only what is missing."""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Literal

from ..agents import AGENTS, run_episode
from ..env import ToolUseEnv
from ..registry import load_zoo_environment, resolve, zoo_keys
from ..rollout import ChatPolicy, TaskRef, Trajectory, arollout
from ..spec import EnvironmentSpec
from ..splits import split_task_ids
from ..tasks import load_tasks
from .records import EpisodeRecord
from .rundir import RunDirectory

BASELINES = ("reference", "random", "noop")
OnRecord = Callable[[EpisodeRecord], None]


@dataclass
class BenchConfig:
    """What to evaluate and how. `model` is the served model name; with no `model`, only the baselines run.

    `split`: the held-out `test` tasks (default), `train`, or `all`. `k`: samples per task (pass^k and pass@k go
    up to k). `user`: the scripted user or the LLM user (on `user_base_url`/`user_model`, by default the
    evaluated endpoint). `tool_format`: `text` (`<tool_call>` blocks in the prompt) or `native` (the endpoint's
    tool calling). `thinking`: sent as `chat_template_kwargs.enable_thinking` when set (Qwen3-style models).
    """

    model: str | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    envs: list[str] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)
    split: Literal["train", "test", "all"] = "test"
    k: int = 4
    concurrency: int = 64
    user: Literal["scripted", "llm"] = "scripted"
    user_model: str | None = None
    user_base_url: str | None = None
    tool_format: Literal["text", "native"] = "text"
    temperature: float = 0.7
    max_tokens: int = 4096
    thinking: bool | None = None
    max_steps: int = 40
    episode_timeout: float = 1200.0
    request_timeout: float = 300.0
    seed: int = 0
    baselines: tuple[str, ...] = BASELINES

    def identity(self, tasks: list[TaskRef]) -> dict[str, Any]:
        """What defines the run (stored in config.json; a resumed run must match it). Endpoints and keys are
        left out: a run may resume against a restarted server."""
        settings = asdict(self)
        for key in ("base_url", "api_key", "user_base_url", "concurrency", "episode_timeout", "request_timeout"):
            settings.pop(key)
        settings["baselines"] = list(self.baselines)
        settings["tasks"] = [[t.env, t.task_id] for t in tasks]
        return settings

    def request_options(self) -> dict[str, Any]:
        """Fields sent with every completion."""
        options: dict[str, Any] = {"temperature": self.temperature, "max_tokens": self.max_tokens}
        if self.thinking is not None:
            options["chat_template_kwargs"] = {"enable_thinking": self.thinking}
        return options


def plan_tasks(config: BenchConfig) -> list[TaskRef]:
    """The tasks of the run: the chosen envs (default: the zoo) of the chosen domains, the chosen split."""
    specs = [resolve(name) for name in config.envs] or [load_zoo_environment(key) for key in zoo_keys()]
    if config.domains:
        specs = [s for s in specs if s.domain in config.domains]
    refs = []
    for spec in specs:
        ids = sorted(load_tasks(spec)) if config.split == "all" else split_task_ids(spec, config.split)
        refs.extend(TaskRef(spec.env_id, task_id) for task_id in ids)
    if not refs:
        raise ValueError("no tasks to run: check --envs, --domain and --split")
    return refs


def _llm_user_factory(config: BenchConfig) -> Callable[[], Any]:
    from ..llm import LLMClient
    from ..llm_user import LLMUser

    def make() -> LLMUser:
        return LLMUser(LLMClient(config.user_base_url or config.base_url, config.user_model or config.model,
                                 config.api_key, timeout=config.request_timeout))

    return make


def env_kwargs(config: BenchConfig) -> dict[str, Any]:
    """Keyword arguments of every `ToolUseEnv` of the run."""
    kwargs: dict[str, Any] = {"max_steps": config.max_steps}
    if config.user == "llm":
        kwargs["user"] = _llm_user_factory(config)
    return kwargs


def play_baselines(config: BenchConfig, tasks: list[TaskRef], done: set, rundir: RunDirectory,
                   on_record: OnRecord) -> None:
    """Every baseline agent on every task sample not yet in the run, in this process, saved one by one."""
    envs: dict[str, ToolUseEnv] = {}
    try:
        for agent_name in config.baselines:
            for index, ref in enumerate(tasks):
                for sample in range(config.k):
                    if (agent_name, ref.env, ref.task_id, sample) in done:
                        continue
                    env = envs.get(ref.env) or envs.setdefault(ref.env, ToolUseEnv(ref.env, **env_kwargs(config)))
                    seed = config.seed + index * config.k + sample
                    agent = AGENTS[agent_name](seed=seed) if agent_name == "random" else AGENTS[agent_name]()
                    started = time.perf_counter()
                    result = run_episode(env, agent, seed=seed, task_id=ref.task_id)
                    record = EpisodeRecord(
                        agent=agent_name, env_id=ref.env, env=env.spec_env.key, domain=env.spec_env.domain,
                        task_id=ref.task_id, sample=sample, reward=result["reward"],
                        components=result["components"], steps=result["steps"],
                        terminated=bool(result["terminated"]), truncated=not result["terminated"],
                        seconds=time.perf_counter() - started, messages=result["info"]["messages"],
                    ).with_counts()
                    rundir.append([record])
                    on_record(record)
    finally:
        for env in envs.values():
            env.close()


async def play_model(config: BenchConfig, tasks: list[TaskRef], done: set, rundir: RunDirectory,
                     on_record: OnRecord, policy: ChatPolicy | None = None) -> None:
    """The model on every task sample not yet in the run, `concurrency` episodes at once, each saved as soon as
    it ends. `policy` overrides the endpoint policy built from the config."""
    from ..llm import LLMClient

    assert config.model is not None
    if policy is None:
        client = LLMClient(config.base_url, config.model, config.api_key, timeout=config.request_timeout,
                           concurrency=config.concurrency)
        policy = ChatPolicy(client, tool_mode=config.tool_format, **config.request_options())
    specs: dict[str, EnvironmentSpec] = {ref.env: resolve(ref.env) for ref in tasks}

    def save(trajectory: Trajectory) -> None:
        spec = specs[trajectory.env_id]
        record = EpisodeRecord.from_trajectory(config.model or "", spec.key, spec.domain, trajectory)
        rundir.append([record])
        on_record(record)

    skip = {(env_id, task_id, sample) for agent, env_id, task_id, sample in done if agent == config.model}
    try:
        await arollout(policy, tasks, concurrency=config.concurrency, group_size=config.k,
                       episode_timeout=config.episode_timeout, seed=config.seed, env_kwargs=env_kwargs(config),
                       skip=skip, on_episode=save)
    finally:
        await policy.aclose()


def finished(records: list[EpisodeRecord]) -> dict[tuple, EpisodeRecord]:
    """The latest record of each episode key, when it is finished (see `EpisodeRecord.finished`); episodes cut
    short by a transient error are left out, to be played again."""
    latest = {record.key: record for record in records}
    return {key: record for key, record in latest.items() if record.finished}


def run_bench(config: BenchConfig, rundir: RunDirectory, on_record: OnRecord = lambda record: None,
              policy: ChatPolicy | None = None) -> list[EpisodeRecord]:
    """Play what the run directory does not have yet (baselines first, then the model); returns the run's
    records, one per episode (the latest where an episode was played again)."""
    if config.k < 1:
        raise ValueError("k must be at least 1")
    if not config.model and not config.baselines:
        raise ValueError("nothing to run: give a model or keep at least one baseline")
    if config.model in BASELINES:
        raise ValueError(f"the model name {config.model!r} is taken by a baseline agent")
    tasks = plan_tasks(config)
    rundir.open(config.identity(tasks))
    done = set(finished(rundir.records()))
    play_baselines(config, tasks, done, rundir, on_record)
    if config.model:
        asyncio.run(play_model(config, tasks, done, rundir, on_record, policy))
    return list({record.key: record for record in rundir.records()}.values())
