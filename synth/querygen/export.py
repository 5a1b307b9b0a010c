"""Training data from synthesized tasks: SFT samples (each tool-call or user-interaction step with its
reasoning, HF chat format, failed calls filtered) and RL rows (one per turn), with validators."""

from __future__ import annotations

import json
from typing import Any

from envfactory_gym.execution import ToolOutcome
from envfactory_gym.prompts import system_prompt
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.tasks import Task

from .models import Candidate

ROLES = {"system", "user", "assistant", "tool"}


def _assistant(content: str, reasoning: str, calls: list[tuple[str, str, Any]]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            for call_id, name, arguments in calls
        ]
    return message


def sft_samples(task_id: str, candidate: Candidate, system: str, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One sample per assistant step of the chosen conversation: the messages up to and including that step,
    the step's reasoning as `reasoning_content`, tool-call arguments as objects (the HF chat convention). Failed
    calls and their results are left out everywhere; a step whose calls all failed is no sample."""
    history: list[dict[str, Any]] = [{"role": "system", "content": system}]
    samples = []
    for segment in candidate.segments:
        history.append({"role": "user", "content": segment.query})
        for step in segment.steps:
            if step.calls:
                good = [c for c in step.calls if c.outcome.ok]
                if not good:
                    continue
                message = _assistant(step.content, step.reasoning, [(c.call_id, c.name, c.arguments) for c in good])
                kind = "tool_call"
            else:
                message, kind = _assistant(step.content, step.reasoning, []), "user_interaction"
            samples.append(
                {
                    "id": f"{task_id}-step{len(samples):02d}",
                    "task_id": task_id,
                    "kind": kind,
                    "messages": history + [message],
                    "tools": tools,
                }
            )
            history = history + [
                _assistant(step.content, "", [(c.call_id, c.name, c.arguments) for c in step.calls if c.outcome.ok])
            ]
            for call in step.calls:
                if call.outcome.ok:
                    history.append(
                        {"role": "tool", "tool_call_id": call.call_id, "name": call.name, "content": call.outcome.text}
                    )
    return samples


def rl_rows(
    spec: EnvironmentSpec, task: Task, outcomes: list[list[ToolOutcome]], closings: list[str]
) -> list[dict[str, Any]]:
    """One row per turn: the prompt (the Env's system prompt, earlier turns played by the ground truth with
    their real tool results and the agent's closing answers, then this turn's request), this turn's agent
    calls with masked arguments, and where the task and its snapshot live. `outcomes` are the ground truth's
    outcomes per turn (aligned with `turn.calls`)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt(spec, task.clock)}]
    rows = []
    for index, turn in enumerate(task.turns):
        messages.append({"role": "user", "content": turn.query})
        rows.append(
            {
                "id": f"{task.id}-turn{index}",
                "env": spec.env_id,
                "task_id": task.id,
                "turn": index,
                "snapshot": task.snapshot,
                "prompt": list(messages),
                "ground_truth": [c.model_dump() for c in turn.agent_calls],
                "user_calls": [c.model_dump() for c in turn.user_calls],
            }
        )
        agent_outcomes = [o for o, c in zip(outcomes[index], turn.calls) if c.caller == "agent"]
        for number, (call, outcome) in enumerate(zip(turn.agent_calls, agent_outcomes)):
            call_id = f"gt_{index}_{number}"
            messages.append(_assistant("", "", [(call_id, call.name, json.dumps(call.arguments, ensure_ascii=False))]))
            messages.append({"role": "tool", "tool_call_id": call_id, "name": call.name, "content": outcome.text})
        messages.append({"role": "assistant", "content": closings[index] if index < len(closings) else ""})
    return rows


def validate_sft_sample(sample: dict[str, Any]) -> list[str]:
    """Problems of one SFT sample (empty when valid): roles, order, tool-call/result pairing, no failed
    results, known tools, ends with the assistant."""
    problems = []
    tools = {t.get("function", {}).get("name") for t in sample.get("tools", []) if t.get("type") == "function"}
    messages = sample.get("messages", [])
    if not messages or messages[0].get("role") != "system":
        problems.append("the first message must be the system prompt")
    if not messages or messages[-1].get("role") != "assistant":
        problems.append("the last message must be the assistant's")
    pending: set[str] = set()
    for position, message in enumerate(messages):
        role = message.get("role")
        if role not in ROLES:
            problems.append(f"message {position}: unknown role {role!r}")
        if role == "tool":
            if message.get("tool_call_id") not in pending:
                problems.append(f"message {position}: tool result without a matching call")
            pending.discard(message.get("tool_call_id"))
            if str(message.get("content", "")).startswith("Error:"):
                problems.append(f"message {position}: a failed call's result")
        elif pending:
            problems.append(f"message {position}: tool calls {sorted(pending)} got no result")
            pending = set()
        for call in message.get("tool_calls", []) if role == "assistant" else []:
            function = call.get("function", {})
            if function.get("name") not in tools:
                problems.append(f"message {position}: call of unknown tool {function.get('name')!r}")
            if not isinstance(function.get("arguments"), dict):
                problems.append(f"message {position}: arguments must be an object")
            pending.add(call.get("id"))
    return problems


def validate_rl_row(row: dict[str, Any], spec: EnvironmentSpec) -> list[str]:
    """Problems of one RL row (empty when valid)."""
    problems = []
    prompt = row.get("prompt", [])
    if not prompt or prompt[0].get("role") != "system" or prompt[-1].get("role") != "user":
        problems.append("the prompt must start with the system prompt and end with the user's request")
    for call in row.get("ground_truth", []):
        tool = spec.tools.get(call.get("name"))
        if tool is None or tool.user_only:
            problems.append(f"ground truth calls {call.get('name')!r}, not an agent tool")
            continue
        unknown = set(call.get("masked", [])) - set(tool.input_model.model_fields)
        if unknown:
            problems.append(f"{call['name']}: masked arguments {sorted(unknown)} are not its arguments")
    for key in ("env", "task_id", "snapshot", "turn"):
        if key not in row:
            problems.append(f"missing {key!r}")
    return problems
