"""Renderers: a record in the one trajectory format (`envfactory_gym.rollout.trajectory_record`) in the form each
trainer reads. Each renderer shows the tool schemas to the model exactly once:

- text form (OpenRLHF, SkyRL): the tools are listed in the system prompt, as the env's own prompt lists them, and
  assistant tool calls are the `<tool_call>` text the model emits; no `tools` column.
- native form (TRL, verl): the system prompt without the listing, structured `tool_calls` with arguments as
  objects (what chat templates read), and the schemas as `tools`, which the chat template renders.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from envfactory_gym.agents import format_call
from envfactory_gym.prompts import FORMAT_ERROR_TOOL, NATIVE_TOOLS_NOTE, SYSTEM_TEMPLATE, without_tool_listing
from envfactory_gym.registry import load_zoo_environment, resolve
from envfactory_gym.wrappers import template_messages

Record = dict[str, Any]
Row = dict[str, Any]

#: The agent loop name `envfactory_training.verl_agent` registers (the `agent_name` column of verl rows).
VERL_AGENT_NAME = "envfactory_agent"


def skyrl_env_class(env_key: str) -> str:
    """The SkyRL-gym environment id `envfactory_training.skyrl_env.register_zoo` registers for a zoo environment (the
    `env_class` column of SkyRL rows)."""
    return f"envfactory_{env_key}"


def tool_listing(tools: list[dict[str, Any]], product: str) -> str:
    """The `# Tools` section of the env's system prompt for `tools`: what `without_tool_listing` takes out."""
    lines = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    full = SYSTEM_TEMPLATE.format(product=product, description="", now="", tools=lines)
    head, _, tail = without_tool_listing(full).partition(NATIVE_TOOLS_NOTE)
    return full[len(head) : len(full) - len(tail)]


def text_system(content: str, tools: list[dict[str, Any]], product: str) -> str:
    """A system prompt with the tool listing: in place of the native note (so the env's own prompt comes back
    exactly), or appended to a prompt that has none (e.g. `synth tasks` chats)."""
    listing = tool_listing(tools, product)
    if NATIVE_TOOLS_NOTE in content:
        return content.replace(NATIVE_TOOLS_NOTE, listing, 1)
    return content.rstrip("\n") + "\n\n" + listing


def _product(record: Record) -> str:
    if record.get("product"):
        return str(record["product"])
    try:  # records name their environment by key: the per-process spec cache, not a scan of every root
        return load_zoo_environment(record["env"]).product
    except KeyError:
        pass
    try:
        return resolve(record["env"]).product
    except KeyError as exc:
        raise KeyError(
            f"record of task {record.get('task_id')!r}: env {record.get('env')!r} is not in the zoo; "
            "give the record a 'product' to list its tools"
        ) from exc


def text_message(message: dict[str, Any]) -> dict[str, str]:
    """One message as the text the model reads and writes: assistant tool calls become `<tool_call>` blocks after
    the content, the env's format-error reports are tool results again (as the env shows them), all fields text."""
    if message["role"] == "assistant":
        calls = [
            format_call(c["function"]["name"], c["function"]["arguments"]) for c in message.get("tool_calls") or []
        ]
        content = "\n".join(([message["content"]] if message.get("content") else []) + calls)
        return {"role": "assistant", "content": content}
    if message["role"] == "user" and message.get("name") == FORMAT_ERROR_TOOL:
        return {"role": "tool", "content": str(message["content"]), "name": FORMAT_ERROR_TOOL}
    keep = ("role", "content", "name", "tool_call_id")
    return {k: str(message[k]) for k in keep if message.get(k) is not None}


def text_messages(record: Record) -> list[dict[str, str]]:
    """The record's messages in text form, the system prompt listing its tools."""
    product = _product(record)
    out = []
    for message in record["messages"]:
        if message["role"] == "system":
            out.append({"role": "system", "content": text_system(message["content"], record["tools"], product)})
        else:
            out.append(text_message(message))
    return out


def native_messages(record: Record) -> list[dict[str, Any]]:
    """The record's messages for a chat template that takes `tools=`: no listing in the system prompt, tool-call
    arguments as objects, the OpenAI fields only."""
    messages = [
        {**m, "content": without_tool_listing(m["content"])} if m["role"] == "system" else m for m in record["messages"]
    ]
    return [{k: v for k, v in m.items() if v is not None or k == "content"} for m in template_messages(messages)]


def openrlhf_sft(record: Record) -> Row:
    """OpenRLHF SFT row (`--data.input_key messages --data.apply_chat_template --data.multiturn`)."""
    return {"messages": text_messages(record), "datasource": record["env"], "task_id": record["task_id"]}


def openrlhf_prompt(record: Record) -> Row:
    """OpenRLHF prompt row (`--data.input_key messages --data.label_key label`); needs the record's `label`."""
    return {"messages": text_messages(record), "label": record["label"], "datasource": record["env"]}


def trl_sft(record: Record) -> Row:
    """TRL SFTTrainer row: conversational `messages` and `tools`, which TRL hands to the chat template."""
    return {"messages": native_messages(record), "tools": record["tools"]}


def trl_prompt(record: Record) -> Row:
    """TRL GRPOTrainer row for `envfactory_training.trl_env`: the `prompt`, the `environment` that routes it (multi-env
    mixing) and the `label` its environment's `reset` starts the task from. Tools come from the environment."""
    return {"prompt": native_messages(record), "environment": record["env"], "label": record["label"]}


def verl_prompt(record: Record) -> Row:
    """verl RLHFDataset row run by the `envfactory_agent` agent loop (`envfactory_training.verl_agent`)."""
    return {
        "data_source": record["env"],
        "agent_name": VERL_AGENT_NAME,
        "prompt": native_messages(record),
        "reward_model": {"style": "env", "ground_truth": ""},
        "extra_info": {
            "label": record["label"],
            "task_id": record["task_id"],
            "env_version": record["env_version"],
            "env_hash": record.get("env_hash"),
        },
    }


def skyrl_prompt(record: Record) -> Row:
    """SkyRL dataset row: `prompt` in text form (SkyRL's generator renders the chat without `tools=`), the
    `env_class` that `envfactory_training.skyrl_env` registers for the record's environment, and the label its env
    starts the task from."""
    return {
        "prompt": text_messages(record),
        "env_class": skyrl_env_class(record["env"]),
        "data_source": record["env"],
        "label": record["label"],
    }


def canonical(record: Record) -> Row:
    """The record as it is."""
    return record


#: (trainer, kind) -> renderer; kind is "sft" or "prompt".
RENDERERS: dict[tuple[str, str], Callable[[Record], Row]] = {
    ("canonical", "sft"): canonical,
    ("canonical", "prompt"): canonical,
    ("openrlhf", "sft"): openrlhf_sft,
    ("openrlhf", "prompt"): openrlhf_prompt,
    ("trl", "sft"): trl_sft,
    ("trl", "prompt"): trl_prompt,
    ("verl", "prompt"): verl_prompt,
    ("skyrl", "prompt"): skyrl_prompt,
}
TRAINERS = ("canonical", "openrlhf", "trl", "verl", "skyrl")


def renderer(trainer: str, kind: str) -> Callable[[Record], Row]:
    """The renderer of `trainer` for `kind` rows; a clear error for pairs that do not exist."""
    try:
        return RENDERERS[(trainer, kind)]
    except KeyError:
        known = sorted(f"{t}/{k}" for t, k in RENDERERS)
        raise ValueError(f"no {kind} rows for trainer {trainer!r}; known: {', '.join(known)}") from None
