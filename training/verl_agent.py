"""The zoo in verl (0.9): an agent loop that plays each sample in its envfactory environment.

verl's integration point for multi-turn agents is an agent loop: a subclass of
`verl.experimental.agent_loop.AgentLoopBase` whose `run(sampling_params, **row)` talks to the rollout server
(`server_manager.generate`, token ids in and out) and returns an `AgentLoopOutput`. Loops are registered by name
in the YAML file that `actor_rollout_ref.rollout.agent.agent_loop_config_path` points to (a list of
`{name, _target_}`, plus keyword arguments for the loop), and each dataset row picks its loop in its `agent_name`
column (`envfactory train-data --trainer verl` writes `envfactory_agent`; `training/configs/verl_agent.yaml`
registers it).

What `EnvFactoryAgentLoop` does with a row (`extra_info.label`, see `envfactory_training.episode.EpisodeLabel`):

- builds the task's environment and replays the turns before the label's
  (`envfactory_training.sample.SampleEnv`), so the `rollout.n` samples of a row all start from the task's snapshot
  at the same turn;
- renders that conversation with the model's chat template and the environment's tool schemas as `tools` (verl's
  Continuous Token builder), and generates with every action capped at `max_new_tokens` and at what is left of
  `rollout.response_length`;
- hands each action's text to the environment, which parses the tool calls (Hermes `<tool_call>` blocks, as
  Qwen-family models write them), runs them and answers with tool results, format-error reports or the user's
  next request; those messages are appended as context tokens (response mask 0);
- stops when the sample is over (turn mode: the model ends the turn; conversation mode: the episode ends) or the
  response budget is spent, and returns the sample's composite reward as `reward_score` (verl puts it on the last
  response token as `rm_scores`, so no reward function runs), with every reward component in
  `reward_extra_info` (logged per component by verl).
"""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopMetrics, AgentLoopOutput
from verl.utils.profiler import simple_timer

from envfactory_training.episode import EpisodeLabel
from envfactory_training.renderers import VERL_AGENT_NAME, native_messages
from envfactory_training.sample import SampleEnv, SampleSettings

__all__ = ["EnvFactoryAgentLoop", "VERL_AGENT_NAME"]


class EnvFactoryAgentLoop(AgentLoopBase):
    """verl agent loop over a zoo environment. Keyword arguments (from the loop's YAML entry, else the ENVFACTORY_*
    variables, see `envfactory_training.sample`): `max_steps`, `max_new_tokens`, `format_penalty`, `history_turns`,
    `user`."""

    def __init__(self, *args: Any, tools: Any = None, **kwargs: Any) -> None:
        setting_names = ("max_steps", "max_new_tokens", "format_penalty", "history_turns", "user")
        overrides = {name: kwargs.pop(name) for name in setting_names if name in kwargs}
        super().__init__(*args, **kwargs)
        self.settings = SampleSettings.from_env(**overrides)
        self.response_length = int(self.rollout_config.response_length)

    async def run(self, sampling_params: dict[str, Any], **row: Any) -> AgentLoopOutput:
        """Play the row's sample; the token ids, the action mask and the composite reward."""
        label = EpisodeLabel.from_json(_label(row))
        sample = await asyncio.to_thread(SampleEnv, label, self.settings)
        try:
            return await self._play(sample, sampling_params)
        finally:
            await asyncio.to_thread(sample.close)

    async def _play(self, sample: SampleEnv, sampling_params: dict[str, Any]) -> AgentLoopOutput:
        record = sample.record()
        tools, messages = record["tools"], native_messages(record)
        metrics: dict[str, Any] = {}
        prompt_ids = await self.ct_build_initial_tokens(messages, tools=tools)
        prompt_length = len(prompt_ids)
        mask: list[int] = []
        logprobs: list[float] = []
        request_id, actions = uuid4().hex, 0
        while not sample.done and len(mask) < self.response_length:
            budget = self.response_length - len(mask)
            params = {**sampling_params, "max_tokens": min(budget, self.settings.max_new_tokens or budget)}
            with simple_timer("generate_sequences", metrics):
                output = await self.server_manager.generate(
                    request_id=request_id, prompt_ids=prompt_ids, sampling_params=params
                )
            token_ids = list(output.token_ids)[:budget]
            merged, mask, logprobs = await self.ct_merge_assistant_token(
                prompt_ids,
                token_ids,
                mask,
                logprobs if output.log_probs else None,
                assistant_logprobs=list(output.log_probs)[: len(token_ids)] if output.log_probs else None,
            )
            prompt_ids, logprobs, actions = merged.token_ids, logprobs or [], actions + 1
            text = self.tokenizer.decode(token_ids, skip_special_tokens=True)
            with simple_timer("tool_calls", metrics):
                outcome = await asyncio.to_thread(sample.step, text)
            if outcome.done or len(mask) >= self.response_length:
                break
            updated = native_messages(sample.record(sample.info["messages"]))
            previous = updated[: len(updated) - len(outcome.new_messages)]
            merged, mask, context_logprobs = await self.ct_merge_context_msg(
                previous, updated, prompt_ids, mask, logprobs or None, tools=tools
            )
            prompt_ids, logprobs = merged.token_ids, context_logprobs or []
        response = prompt_ids[prompt_length:]
        return AgentLoopOutput(
            prompt_ids=prompt_ids[:prompt_length],
            response_ids=response[: self.response_length],
            response_mask=mask[: self.response_length],
            response_logprobs=logprobs[: self.response_length] if logprobs else None,
            reward_score=sample.score,
            num_turns=actions + 1,
            metrics=AgentLoopMetrics(**metrics),
            extra_fields={"reward_extra_info": _extra_info(sample)},
        )


def _label(row: dict[str, Any]) -> str:
    """The row's EpisodeLabel JSON (`extra_info.label`), with an error that names the row when it is missing."""
    extra = row.get("extra_info") or {}
    if "label" not in extra:
        raise KeyError(
            f"verl row of {row.get('data_source')!r} has no extra_info.label; write the rows with "
            "`envfactory train-data --trainer verl`"
        )
    return str(extra["label"])


def _extra_info(sample: SampleEnv) -> dict[str, float]:
    """Every reward component of the sample's score (the same keys for every sample, so verl can stack them), and
    whether the LLM user's judge flagged the episode (MEU)."""
    components = {
        "trajectory": 0.0,
        "state": 0.0,
        "length_penalty": 0.0,
        "format_penalty": 0.0,
        "matched_calls": 0.0,
        "expected_calls": 0.0,
        "agent_calls": 0.0,
    }
    components.update({k: v for k, v in sample.components.items() if k in components})
    components["user_error"] = float(bool(sample.info.get("user_error", False)))
    return components
