"""The zoo in SkyRL (skyrl-gym 0.4): every zoo environment registered as a SkyRL-gym text environment.

SkyRL's generator makes one environment per sample with `skyrl_gym.make(env_class, env_config=..., extras=...)`,
where `env_class` is the dataset row's `env_class` column, `env_config` the trainer's
`environment.skyrl_gym.<env_class>` config and `extras` every other column of the row (plus `max_turns`, the
generator's limit on environment steps). It calls `init(prompt)` once, then `step(model_output)` until `done`, and
sums the per-step rewards over the sample (placed at each action's last token).

`register_zoo()` registers `envfactory_<key>` for every zoo environment (`env_class_id`), bound to
`EnvFactoryTextEnv`. Call it in the process that runs SkyRL's generator (the entry point) before training; rows come
from `envfactory train-data --trainer skyrl` and carry their EpisodeLabel in the `label` column. The row's prompt is
in text form (the system prompt lists the tools; SkyRL renders chats without `tools=`), the observations are the
env's tool results and the user's next request as chat messages, and the reward is paid as deltas of the sample's
score so far (`envfactory_training.sample`), so the rewards SkyRL sums equal the composite score wherever the sample
stops.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput, ConversationType
from skyrl_gym.envs.registration import register, registry

from envfactory_gym.registry import zoo_keys
from envfactory_training.episode import EpisodeLabel
from envfactory_training.renderers import skyrl_env_class, text_message
from envfactory_training.sample import SampleEnv, SampleSettings

_SETTINGS = ("max_steps", "max_new_tokens", "format_penalty", "history_turns", "user")


class EnvFactoryTextEnv(BaseTextEnv):
    """One sample of one zoo environment as a SkyRL-gym `BaseTextEnv`. `env_config` may set the sample settings
    of `envfactory_training.sample` (`max_steps`, `format_penalty`, `user`, ...; unset: the ENVFACTORY_* variables);
    `extras["max_turns"]`, SkyRL's step limit, caps the actions per sample."""

    def __init__(
        self, env_config: Mapping[str, Any] | None = None, extras: Mapping[str, Any] | None = None, env_key: str = ""
    ) -> None:
        super().__init__()
        extras = dict(extras or {})
        if "label" not in extras:
            raise KeyError(
                f"{skyrl_env_class(env_key)}: the row has no 'label' column; write the rows with "
                "`envfactory train-data --trainer skyrl`"
            )
        label = EpisodeLabel.from_json(str(extras["label"]))
        if label.env != env_key:
            raise ValueError(
                f"{skyrl_env_class(env_key)} got a row of environment {label.env!r}: the row's "
                f"env_class must be {skyrl_env_class(label.env)!r}"
            )
        overrides = {k: (env_config or {}).get(k) for k in _SETTINGS}
        if extras.get("max_turns") is not None:
            overrides["max_steps"] = int(extras["max_turns"])
        self.sample = SampleEnv(label, SampleSettings.from_env(**overrides))
        self.max_turns = self.sample.settings.max_steps
        self.paid = 0.0

    def init(self, prompt: ConversationType) -> tuple[ConversationType, dict[str, Any]]:
        """The row's prompt as it is: it shows the turns the environment has replayed."""
        return prompt, {"task_id": self.sample.label.task_id, "turn": self.sample.label.turn}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Apply the model's output; pay the change in the sample's score; the env's new messages."""
        self.turns += 1
        outcome = self.sample.step(action)
        reward, self.paid = outcome.score - self.paid, outcome.score
        observations = [] if outcome.done else [text_message(m) for m in outcome.new_messages]
        return BaseTextEnvStepOutput(
            observations=observations,
            reward=reward,
            done=outcome.done,
            metadata={"score": outcome.score, "turn": outcome.info["turn"]},
        )

    def get_metrics(self) -> dict[str, Any]:
        """The sample's reward components and steps (SkyRL averages them per env_class)."""
        return {
            **self.sample.components,
            "steps": float(self.turns),
            "user_error": float(bool(self.sample.info.get("user_error", False))),
        }

    def close(self) -> None:
        """Release the env's database."""
        self.sample.close()


def register_zoo(keys: list[str] | None = None) -> list[str]:
    """Register `envfactory_<key>` for each zoo environment (default: all) in skyrl_gym's registry; ids already
    registered are left as they are. Returns the ids."""
    ids = []
    for key in keys or zoo_keys():
        env_id = skyrl_env_class(key)
        if env_id not in registry:
            register(id=env_id, entry_point="envfactory_training.skyrl_env:EnvFactoryTextEnv", kwargs={"env_key": key})
        ids.append(env_id)
    return ids
