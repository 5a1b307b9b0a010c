"""Running a benchmark: the baseline agents in-process, the model through the asyncio rollout engine against its
OpenAI-compatible endpoint, every finished episode saved at once; a re-run plays only what is missing."""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Callable, Literal

from ..agents import AGENTS, run_episode
from ..env import ToolUseEnv
from ..registry import load_zoo_environment, resolve, zoo_keys
from ..rollout import ChatPolicy, TaskRef, Trajectory, arollout
from ..session import snapshot_bytes
from ..spec import EnvironmentSpec
from ..splits import split_task_ids
from ..tasks import load_tasks
from ..versioning import environment_content_hash
from .preflight import EndpointInfo, check_endpoint
from .records import EpisodeRecord
from .rundir import RunDirectory
from .timing import CallTimer

BASELINES = ("reference", "random", "noop")
#: Folder of the run directory holding the traceback of each episode the environment cut short.
ENV_ERRORS = "env_errors"
OnRecord = Callable[[EpisodeRecord], None]


@dataclass
class BenchConfig:
    """What to evaluate and how. `model` is the served model name; with no `model`, only the baselines run.

    `split`: the held-out `test` tasks (default), `train`, or `all`. `k`: samples per task (pass^k and pass@k go
    up to k). `user`: the scripted user or the LLM user (on `user_base_url`/`user_model`, by default the
    evaluated endpoint). `tool_format`: `text` (`<tool_call>` blocks in the prompt) or `native` (the endpoint's
    tool calling). `thinking`: sent as `chat_template_kwargs.enable_thinking` when set (Qwen3-style models).
    `price_in`/`price_out`: dollars per million prompt/completion tokens of the model, when given (kept with the
    run's sessions for its reports; not part of what defines the run).
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
    request_retries: int = 4
    seed: int = 0
    baselines: tuple[str, ...] = BASELINES
    price_in: float | None = None
    price_out: float | None = None

    def identity(self, tasks: list[TaskRef], environments: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """What defines the run (stored in config.json; a resumed run must match it): the settings, the tasks and,
        when given, each environment's version and content hash (`environment_fingerprints`). Endpoints, keys,
        timeouts, retries and prices are left out: a run may resume against a restarted server."""
        settings = asdict(self)
        for key in (
            "base_url",
            "api_key",
            "user_base_url",
            "concurrency",
            "episode_timeout",
            "request_timeout",
            "request_retries",
            "price_in",
            "price_out",
        ):
            settings.pop(key)
        settings["baselines"] = list(self.baselines)
        settings["tasks"] = [[t.env, t.task_id] for t in tasks]
        if environments is not None:
            settings["environments"] = environments
        return settings

    def request_options(self) -> dict[str, Any]:
        """Fields sent with every completion."""
        options: dict[str, Any] = {"temperature": self.temperature, "max_tokens": self.max_tokens}
        if self.thinking is not None:
            options["chat_template_kwargs"] = {"enable_thinking": self.thinking}
        return options


def plan_tasks(config: BenchConfig) -> list[TaskRef]:
    """The tasks of the run: the chosen envs (default: the zoo) of the chosen domains, the chosen split. Loads their
    snapshots, so a malformed data file raises `DataFileError` before anything is played."""
    specs = [resolve(name) for name in config.envs] or [load_zoo_environment(key) for key in zoo_keys()]
    if config.domains:
        specs = [s for s in specs if s.domain in config.domains]
    refs: list[TaskRef] = []
    for spec in specs:
        tasks = load_tasks(spec)
        ids = sorted(tasks) if config.split == "all" else split_task_ids(spec, config.split)
        for snapshot in sorted({tasks[task_id].snapshot for task_id in ids}):
            snapshot_bytes(spec, snapshot)  # a malformed snapshot stops the run here, named, not every episode
        refs.extend(TaskRef(spec.env_id, task_id) for task_id in ids)
    if not refs:
        raise ValueError("no tasks to run: check --envs, --domain and --split")
    return refs


def environment_fingerprints(tasks: list[TaskRef]) -> dict[str, dict[str, Any]]:
    """Each environment of the tasks: its version and content hash (`environment_content_hash`), by env id."""
    specs = {ref.env: resolve(ref.env) for ref in tasks}
    return {
        env_id: {"version": spec.version, "hash": environment_content_hash(spec.folder)}
        for env_id, spec in sorted(specs.items())
    }


def package_version() -> str:
    """The installed envfactory-gym version (`unknown` when run from a source tree that is not installed)."""
    try:
        return version("envfactory-gym")
    except PackageNotFoundError:
        return "unknown"


def check_endpoints(config: BenchConfig) -> EndpointInfo:
    """The pre-flight check of the model's endpoint (and of the LLM user's, when it has its own); raises
    `EndpointCheckError` before anything is played."""
    assert config.model is not None
    if not config.base_url:
        raise ValueError(f"the model {config.model!r} needs an endpoint: set base_url (--base-url)")
    info = check_endpoint(config.base_url, config.model, config.api_key, timeout=min(config.request_timeout, 30.0))
    if config.user == "llm" and (config.user_base_url or config.user_model):
        check_endpoint(
            config.user_base_url or config.base_url,
            config.user_model or config.model,
            config.api_key,
            timeout=min(config.request_timeout, 30.0),
        )
    return info


def _llm_user_factory(config: BenchConfig) -> Callable[[], Any]:
    from ..llm import LLMClient
    from ..users.llm import LLMUser

    def make() -> LLMUser:
        return LLMUser(
            LLMClient(
                config.user_base_url or config.base_url,
                config.user_model or config.model,
                config.api_key,
                timeout=config.request_timeout,
                max_retries=config.request_retries,
            )
        )

    return make


def env_kwargs(config: BenchConfig) -> dict[str, Any]:
    """Keyword arguments of every `ToolUseEnv` of the run."""
    kwargs: dict[str, Any] = {"max_steps": config.max_steps}
    if config.user == "llm":
        kwargs["user"] = _llm_user_factory(config)
    return kwargs


def play_baselines(
    config: BenchConfig, tasks: list[TaskRef], done: set, rundir: RunDirectory, on_record: OnRecord
) -> None:
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
                    try:
                        result = run_episode(env, agent, seed=seed, task_id=ref.task_id)
                    except Exception as exc:  # a bug of the env: recorded with its traceback, the run goes on
                        envs.pop(ref.env).close()
                        record = EpisodeRecord(
                            agent=agent_name,
                            env_id=ref.env,
                            env=env.spec_env.key,
                            domain=env.spec_env.domain,
                            task_id=ref.task_id,
                            sample=sample,
                            error=f"environment error: {type(exc).__name__}: {exc}",
                            error_transient=False,
                            error_kind="environment",
                            seconds=time.perf_counter() - started,
                            task_turns=len(load_tasks(env.spec_env)[ref.task_id].turns),
                        ).with_counts()
                        save_traceback(
                            rundir, record, "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                        )
                    else:
                        assert env.task is not None
                        record = EpisodeRecord(
                            agent=agent_name,
                            env_id=ref.env,
                            env=env.spec_env.key,
                            domain=env.spec_env.domain,
                            task_id=ref.task_id,
                            sample=sample,
                            reward=result["reward"],
                            components=result["components"],
                            turn_rewards=result["turn_rewards"],
                            steps=result["steps"],
                            terminated=bool(result["terminated"]),
                            truncated=not result["terminated"],
                            seconds=time.perf_counter() - started,
                            messages=result["info"]["messages"],
                            task_turns=len(env.task.turns),
                        ).with_counts()
                    rundir.append([record])
                    on_record(record)
    finally:
        for env in envs.values():
            env.close()


async def play_model(
    config: BenchConfig,
    tasks: list[TaskRef],
    done: set,
    rundir: RunDirectory,
    on_record: OnRecord,
    policy: ChatPolicy | None = None,
) -> None:
    """The model on every task sample not yet in the run, `concurrency` episodes at once, each saved as soon as
    it ends, with the latency of each model call. `policy` overrides the endpoint policy built from the config."""
    from ..llm import LLMClient

    assert config.model is not None
    if policy is None:
        client = LLMClient(
            config.base_url,
            config.model,
            config.api_key,
            timeout=config.request_timeout,
            max_retries=config.request_retries,
            concurrency=config.concurrency,
        )
        policy = ChatPolicy(client, tool_mode=config.tool_format, **config.request_options())
    timer = CallTimer(policy)
    specs: dict[str, EnvironmentSpec] = {ref.env: resolve(ref.env) for ref in tasks}

    def save(trajectory: Trajectory) -> None:
        spec = specs[trajectory.env_id]
        record = EpisodeRecord.from_trajectory(
            config.model or "",
            spec.key,
            spec.domain,
            trajectory,
            call_seconds=timer.take(trajectory.messages),
            task_turns=len(load_tasks(spec)[trajectory.task_id].turns),
        )
        if trajectory.error_traceback is not None:
            save_traceback(rundir, record, trajectory.error_traceback)
        rundir.append([record])
        on_record(record)

    skip = {(env_id, task_id, sample) for agent, env_id, task_id, sample in done if agent == config.model}
    try:
        await arollout(
            timer,
            tasks,
            split=config.split,
            evaluation=True,
            concurrency=config.concurrency,
            group_size=config.k,
            episode_timeout=config.episode_timeout,
            seed=config.seed,
            env_kwargs=env_kwargs(config),
            skip=skip,
            on_episode=save,
        )
    finally:
        await timer.aclose()


def save_traceback(rundir: RunDirectory, record: EpisodeRecord, text: str) -> Path:
    """Write the traceback of an episode's environment error to `env_errors/<agent>--<env>--<task>--<sample>.txt`
    in the run directory and name that file in `record.error`; returns the path."""
    name = "--".join(
        re.sub(r"[^A-Za-z0-9._-]+", "_", str(part))
        for part in (record.agent, record.env, record.task_id, record.sample)
    )
    path = rundir.path / ENV_ERRORS / f"{name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{record.error}\n\n{text}", encoding="utf-8")
    record.error = f"{record.error} (traceback: {ENV_ERRORS}/{path.name})"
    return path


def finished(records: list[EpisodeRecord]) -> dict[tuple, EpisodeRecord]:
    """The latest record of each episode key, when it is finished (see `EpisodeRecord.finished`); episodes cut
    short by the endpoint or a timeout are left out, to be played again; those the environment cut short are
    finished (their error and traceback are recorded, and playing them again would raise again)."""
    latest = {record.key: record for record in records}
    return {key: record for key, record in latest.items() if record.finished}


def run_bench(
    config: BenchConfig,
    rundir: RunDirectory,
    on_record: OnRecord = lambda record: None,
    policy: ChatPolicy | None = None,
) -> list[EpisodeRecord]:
    """Play what the run directory does not have yet (baselines first, then the model); returns the run's
    records, one per episode (the latest where an episode was played again).

    Before anything is played, the model's endpoint is checked (`GET /models` serves the model; skipped when a
    `policy` is given) and the run directory must hold this run or none (same settings, same environment
    content). The invocation is logged in the run's `sessions.jsonl` (wall time, episodes played, endpoint)."""
    if config.k < 1:
        raise ValueError("k must be at least 1")
    if not config.model and not config.baselines:
        raise ValueError("nothing to run: give a model or keep at least one baseline")
    if config.model in BASELINES:
        raise ValueError(f"the model name {config.model!r} is taken by a baseline agent")
    tasks = plan_tasks(config)
    endpoint = check_endpoints(config) if config.model and policy is None else None
    rundir.open(config.identity(tasks, environment_fingerprints(tasks)))
    started_at, started, played = datetime.now(timezone.utc), time.perf_counter(), [0]

    def count(record: EpisodeRecord) -> None:
        played[0] += 1
        on_record(record)

    done = set(finished(rundir.records()))
    play_baselines(config, tasks, done, rundir, count)
    if config.model:
        asyncio.run(play_model(config, tasks, done, rundir, count, policy))
    price = (
        {"input": config.price_in, "output": config.price_out}
        if config.price_in is not None and config.price_out is not None
        else None
    )
    rundir.log_session(
        {
            "started_at": started_at.isoformat(timespec="seconds"),
            "seconds": round(time.perf_counter() - started, 3),
            "played": played[0],
            "endpoint": endpoint.as_dict() if endpoint else None,
            "package_version": package_version(),
            "price": price,
        }
    )
    return list({record.key: record for record in rundir.records()}.values())
