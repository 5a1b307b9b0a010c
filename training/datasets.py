"""Training data from zoo tasks: OpenRLHF prompt datasets (one row per turn or per conversation) and SFT chats.

Rows are JSON lines whose nested values have one shape across environments (strings, lists of string-valued
messages), so `datasets` loads files that mix environments. Assistant tool calls appear as the text the model
emits (`<tool_call>{...}</tool_call>`), the same form the model's own actions take during rollouts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Literal

from envfactory_gym.agents import ReferenceAgent, format_call, run_episode
from envfactory_gym.env import ToolUseEnv
from envfactory_gym.registry import load_zoo_environment
from envfactory_gym.splits import split_task_ids
from envfactory_gym.tasks import Task, expected_replay, load_tasks

from .episode import EpisodeLabel, Mode, start_episode

Split = Literal["train", "test", "all"]


def text_message(message: dict[str, Any]) -> dict[str, str]:
    """A chat message with string fields only; assistant tool calls become their `<tool_call>` text."""
    if message["role"] == "assistant":
        calls = [
            format_call(c["function"]["name"], c["function"]["arguments"])
            for c in message.get("tool_calls") or []
        ]
        content = "\n".join(([message["content"]] if message.get("content") else []) + calls)
        return {"role": "assistant", "content": content}
    keep = ("role", "content", "name", "tool_call_id")
    return {k: str(message[k]) for k in keep if message.get(k) is not None}


def _tasks(env_key: str, split: Split) -> list[Task]:
    """The tasks of one stored split (the held-out one `envfactory bench` evaluates on is `test`), or all."""
    spec = load_zoo_environment(env_key)
    ids = sorted(load_tasks(spec)) if split == "all" else split_task_ids(spec, split)
    chosen = [load_tasks(spec)[i] for i in ids]
    return [t for t in chosen if not expected_replay(spec, t).failures]  # a failing ground truth teaches errors


def prompt_rows(env_key: str, mode: Mode, split: Split = "train") -> Iterator[dict]:
    """OpenRLHF prompt rows: `messages` (system prompt and the conversation up to the sample's turn, earlier turns
    replayed from the ground truth), `label` (EpisodeLabel JSON) and `datasource` (the env, for per-env metrics)."""
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
                yield {
                    "messages": [text_message(m) for m in info["messages"]],
                    "label": label.to_json(),
                    "datasource": env_key,
                }
    finally:
        env.close()


def sft_rows(env_key: str, split: Split = "train") -> Iterator[dict]:
    """SFT chats from ground-truth replays: `messages` (every turn, one tool call per assistant step) and `tools`
    (the OpenAI tool list as JSON text; the system message already lists the tools for templates that take none)."""
    tasks = _tasks(env_key, split)
    if not tasks:
        return
    spec = load_zoo_environment(env_key)
    env = ToolUseEnv(spec, max_steps=10**9)
    tools = json.dumps(spec.openai_tools, ensure_ascii=False)
    try:
        for task in tasks:
            result = run_episode(env, ReferenceAgent(), task_id=task.id)
            yield {
                "messages": [text_message(m) for m in result["info"]["messages"]],
                "tools": tools,
                "datasource": env_key,
                "task_id": task.id,
            }
    finally:
        env.close()


def write_jsonl(rows: Iterable[dict], path: Path) -> int:
    """Write rows as JSON lines; returns how many."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count
