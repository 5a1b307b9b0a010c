"""Fakes at the model boundary for the OpenRLHF tests: a tiny tokenizer trained in-process and a scripted engine."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from functools import lru_cache
from types import SimpleNamespace

from envfactory_gym.agents import format_call
from envfactory_gym.registry import load_zoo_environment
from envfactory_gym.tasks import load_tasks
from envfactory_training.tiny import chatml_tokenizer

CLOSING = "Done. Is there anything else?"


@lru_cache(maxsize=1)
def tiny_tokenizer():
    """The in-process ChatML tokenizer, trained on the Notion tasks."""
    spec = load_zoo_environment("notion")
    return chatml_tokenizer([t.model_dump_json() for t in load_tasks(spec).values()], vocab_size=600)


def turn_actions(task_id: str, turn: int) -> list[str]:
    """The ground-truth actions of one turn: each agent call on its own, then the closing message."""
    task = load_tasks(load_zoo_environment("notion"))[task_id]
    return [format_call(c.name, c.arguments) for c in task.turns[turn].agent_calls] + [CLOSING]


def conversation_actions(task_id: str) -> list[str]:
    """The ground-truth actions of every turn of a task."""
    task = load_tasks(load_zoo_environment("notion"))[task_id]
    return [a for turn in range(len(task.turns)) for a in turn_actions(task_id, turn)]


@dataclass
class ScriptedEngine:
    """Stands in for a vLLM engine: returns the next scripted action as token ids ending with the eos token.

    Honors `sampling_params.max_tokens` as vLLM does (finish_reason "length", text of the kept tokens); the eos
    token is in `token_ids` but not in `text`, as vLLM reports a stop on eos. Yields to the loop on every call.
    """

    actions: list[str]
    tokenizer: object
    prompts: list[list[int]] = field(default_factory=list)
    budgets: list[int] = field(default_factory=list)

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        """The next action of the script for this prompt."""
        await asyncio.sleep(0)
        self.prompts.append(list(prompt_token_ids))
        self.budgets.append(sampling_params.max_tokens)
        action = self.actions[len(self.prompts) - 1]
        ids = self.tokenizer(action, add_special_tokens=False)["input_ids"] + [self.tokenizer.eos_token_id]
        text, reason = action, "stop"
        if len(ids) > sampling_params.max_tokens:
            ids = ids[: sampling_params.max_tokens]
            text, reason = self.tokenizer.decode(ids, skip_special_tokens=True), "length"
        output = SimpleNamespace(token_ids=ids, text=text, finish_reason=reason, logprobs=None)
        return SimpleNamespace(outputs=[output])


def sampling_params(max_tokens: int | None = None) -> SimpleNamespace:
    """The attributes of vLLM's SamplingParams that the executor reads (None: OpenRLHF's dynamic budget)."""
    return SimpleNamespace(max_tokens=max_tokens, logprobs=None)
