"""The zoo in verifiers (0.3.x, the `load_environment` API that vf-eval and prime-rl load): a multi-turn tool
environment per zoo environment whose rubric is the composite reward.

verifiers loads an environment by importing the module named like the environment id and calling its
`load_environment(**env_args)`; the module `envfactory_verifiers` (this repository) exposes the function below, so
`vf-eval envfactory-verifiers -a '{"env": "notion"}'` and prime-rl's `env_id = "envfactory-verifiers"` load it.

`load_environment` returns a `MultiTurnEnv`:

- the dataset: the environment's per-turn (or per-conversation) RL prompts of a stored split, one row per sample
  (`prompt`, `info.label`), the environment's tool schemas as `tool_defs` (sent to the model
  as `tools`);
- each rollout builds the task's environment and replays the turns before the label's
  (`envfactory_training.sample`), so the rollouts of a row start from the same state, and its prompt is that
  conversation;
- each model response goes to the environment as one action (its tool calls in the `<tool_call>` form the env
  parses; a call whose arguments are not a JSON object stays malformed and is reported as a format error); each
  tool call is answered by the env's result under the model's call id, and in conversation mode a plain reply is
  followed by the user's next request;
- the rollout stops when the sample is over (turn mode: the model ends the turn; conversation mode: the episode
  ends) or after `max_steps` responses;
- the rubric: `composite_reward` (weight 1) is the sample's composite score; `trajectory`, `state`,
  `length_penalty`, `format_penalty`, `matched_calls`, `expected_calls` and `agent_calls` are metrics (weight 0).
"""

from __future__ import annotations

import json
from typing import Any

import verifiers as vf
from datasets import Dataset
from verifiers.utils.message_utils import normalize_messages

from envfactory_gym.agents import format_call
from envfactory_gym.registry import load_zoo_environment, zoo_keys
from envfactory_training.datasets import Split, prompt_records
from envfactory_training.episode import MODES, EpisodeLabel, Mode
from envfactory_training.renderers import native_messages
from envfactory_training.sample import SampleEnv, SampleSettings

#: Reward components reported as rubric metrics (weight 0).
COMPONENTS = (
    "trajectory",
    "state",
    "length_penalty",
    "format_penalty",
    "matched_calls",
    "expected_calls",
    "agent_calls",
)


def load_environment(
    env: str = "notion",
    mode: Mode = "turn",
    split: Split = "train",
    max_steps: int = 40,
    format_penalty: float | None = None,
    num_examples: int = -1,
    **kwargs: Any,
) -> vf.Environment:
    """The verifiers environment of one zoo environment (`env`: its key, e.g. "notion") on one stored `split`,
    one row per turn (`mode="turn"`) or per task (`"conversation"`); `num_examples` keeps the first rows."""
    if env not in zoo_keys():
        raise ValueError(f"env={env!r} is not a zoo environment; known: {', '.join(zoo_keys())}")
    if mode not in MODES:
        raise ValueError(f"mode={mode!r}: use one of {MODES}")
    rows = [
        {"prompt": _clean(native_messages(r)), "info": {"label": r["label"]}, "answer": ""}
        for r in prompt_records(env, mode, split)
    ]
    if not rows:
        raise ValueError(f"{env} has no {split} tasks whose ground truth replays")
    if num_examples > 0:
        rows = rows[:num_examples]
    settings = SampleSettings.from_env(max_steps=max_steps, format_penalty=format_penalty)
    # one more response than the env's step limit, so the env (not verifiers) ends a sample at its limit
    tools = [
        vf.Tool(
            name=t["function"]["name"],
            description=t["function"].get("description", ""),
            parameters=t["function"]["parameters"],
        )
        for t in load_zoo_environment(env).openai_tools
    ]
    return EnvFactoryEnv(
        settings,
        dataset=Dataset.from_list([_encode(r) for r in rows]),
        eval_dataset=None,
        tool_defs=tools,
        rubric=composite_rubric(),
        max_turns=settings.max_steps + 1,
        **kwargs,
    )


def composite_rubric() -> vf.Rubric:
    """The composite reward (weight 1) and each of its components as a metric (weight 0)."""
    rubric = vf.Rubric(funcs=[composite_reward], weights=[1.0])
    for name in COMPONENTS:
        rubric.add_metric(_component(name))
    return rubric


async def composite_reward(state: vf.State) -> float:
    """The sample's composite score (the env's reward when the sample ended, its score so far if it was cut)."""
    return float(state["envfactory"]["score"])


def _component(name: str):
    async def component(state: vf.State) -> float:
        return float(state["envfactory"]["components"].get(name, 0.0))

    component.__name__ = name
    return component


class EnvFactoryEnv(vf.MultiTurnEnv):
    """A verifiers multi-turn environment whose rollouts play zoo samples (see the module docstring)."""

    def __init__(self, settings: SampleSettings, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.settings = settings

    async def setup_state(self, state: vf.State) -> vf.State:
        """Build the sample's environment at the label's turn; the rollout's prompt is that conversation."""
        label = EpisodeLabel.from_json(_info(state)["label"])
        sample = SampleEnv(label, self.settings)
        state["sample"] = sample
        state["envfactory"] = {"score": 0.0, "components": {}, "done": False}
        state["prompt"] = normalize_messages(_clean(native_messages(sample.record())))
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs: Any) -> vf.Messages:
        """Apply the model's last response to the environment; its tool results (under the model's call ids) or
        the user's next request, or nothing when the sample is over."""
        sample: SampleEnv = state["sample"]
        reply = messages[-1]
        calls = list(reply.get("tool_calls") or [])
        action, good, bad = _action(reply.get("content"), calls)
        outcome = sample.step(action)
        state["envfactory"] = {
            "score": outcome.score,
            "components": dict(sample.components),
            "done": outcome.done,
            "user_error": bool(outcome.info.get("user_error", False)),
        }
        if outcome.done:
            state["final_env_response"] = []
            return []
        results = [m for m in outcome.new_messages if m["role"] == "tool"]
        answered = list(zip(good + bad, results))
        out: list[dict[str, Any]] = [
            {"role": "tool", "tool_call_id": call.id, "content": str(m["content"])} for call, m in answered
        ]
        out += [{"role": "user", "content": str(m["content"])} for m in outcome.new_messages if m["role"] == "user"]
        return normalize_messages(out)

    @vf.stop
    async def sample_over(self, state: vf.State) -> bool:
        """The environment ended the sample (turn ended, episode over, step limit or a format-penalty stop)."""
        return bool(state.get("envfactory", {}).get("done"))

    @vf.cleanup
    async def close_sample(self, state: vf.State) -> None:
        """Release the sample's environment (its database); keeps the state serializable."""
        sample = state.pop("sample", None)
        if sample is not None:
            sample.close()


def _action(content: Any, calls: list[Any]) -> tuple[str, list[Any], list[Any]]:
    """One env action from a response: its text, then each tool call as a `<tool_call>` block. Calls whose
    arguments are a JSON object come first, in order (the env answers them in order), then the others, written as
    the malformed blocks they are (the env reports each as a format error, after the good ones)."""
    good, bad, blocks, broken = [], [], [], []
    for call in calls:
        try:
            arguments = json.loads(call.arguments)
        except (TypeError, ValueError):
            arguments = None
        if isinstance(arguments, dict):
            good.append(call)
            blocks.append(format_call(call.name, arguments))
        else:
            bad.append(call)
            broken.append(f'<tool_call>{{"name": {json.dumps(call.name)}, "arguments": {call.arguments}</tool_call>')
    text = content if isinstance(content, str) else ""
    return "\n".join([p for p in [text] if p] + blocks + broken), good, bad


def _info(state: vf.State) -> dict[str, Any]:
    info = state.get("info") or {}
    return json.loads(info) if isinstance(info, str) else info


def _clean(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages without empty fields (OpenAI-compatible servers reject `null` names and ids)."""
    return [{k: v for k, v in m.items() if v is not None} for m in messages]


def _encode(row: dict[str, Any]) -> dict[str, Any]:
    """A dataset row whose nested values keep one schema across rows: `info` as JSON text (verifiers decodes it),
    tool-call arguments as JSON text (verifiers' message format)."""
    prompt = [
        {
            **m,
            "tool_calls": [
                {
                    "id": c["id"],
                    "type": "function",
                    "function": {"name": c["function"]["name"], "arguments": json.dumps(c["function"]["arguments"])},
                }
                for c in m["tool_calls"]
            ],
        }
        if m.get("tool_calls")
        else m
        for m in row["prompt"]
    ]
    return {**row, "prompt": prompt, "info": json.dumps(row["info"])}
