"""Zoo environments for TRL's `GRPOTrainer(environment_factory=...)` (TRL 1.x).

TRL's contract (`trl/trainer/grpo_trainer.py`): the factory builds an environment object once and TRL resets it
for every rollout with the dataset row's columns as keyword arguments; every public method other than `reset` and
`get_reward` is a tool, its schema read from its signature and Google-style docstring
(`transformers.utils.get_json_schema`), called with the arguments the model wrote; `get_reward()` after the
rollout is the environment-owned reward. A dict factory mixes environments: each row's `environment` column picks
one, and only its tools are rendered in that row's prompt.

A TRL rollout is one assistant turn (it ends when the model answers without a tool call), so samples are
per-turn (`envfactory train-data --mode turn --trainer trl`): `reset` restores the task's snapshot and replays
the earlier turns with the ground truth, exactly as the row's prompt shows them, so the samples of a group start
from the same state; `get_reward` is the turn's composite score.

    from envfactory_training.trl_env import environment_factories
    trainer = GRPOTrainer(model, args=GRPOConfig(...), train_dataset=rows,
                          environment_factory=environment_factories(["notion", "stripe"]))
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Literal, Optional, Union

from envfactory_gym.agents import format_call
from envfactory_gym.env import ToolUseEnv
from envfactory_gym.registry import load_zoo_environment
from envfactory_gym.spec import EnvironmentSpec, ToolSpec
from envfactory_training.episode import EpisodeLabel, start_episode

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool, "null": type(None)}


class EnvFactoryEnvironment:
    """The behaviour every generated environment class shares (its tools are added per environment)."""

    spec: EnvironmentSpec

    def __init__(self, max_steps: int = 40) -> None:
        self._env = ToolUseEnv(self.spec, max_steps=10**9)
        self._max_steps = max_steps
        self._label: EpisodeLabel | None = None

    def reset(self, label: str, **row: Any) -> None:
        """Start the row's sample: the task's snapshot, earlier turns replayed (the prompt already shows them)."""
        self._label = EpisodeLabel.from_json(label)
        if self._label.env != self.spec.key or self._label.mode != "turn":
            raise ValueError(f"{type(self).__name__} runs turn samples of {self.spec.key}; got the label {label}")
        info = start_episode(self._env, self._label)
        self._env.max_steps = info["step"] + self._max_steps
        self._done = False
        return None

    def get_reward(self) -> float:
        """The composite score of the sample's turn as it stands (TRL calls this once the rollout is over)."""
        if self._label is None:
            raise RuntimeError("get_reward before reset")
        return float(self._env.current_score("turn").total)

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        """One tool call as an env action; the tool's result text (errors included) is what the model reads."""
        if self._label is None:
            raise RuntimeError("a tool was called before reset")
        if self._done:
            return f"Error: the step limit ({self._max_steps} calls) is reached; answer the user."
        _, _, terminated, truncated, info = self._env.step(format_call(name, arguments))
        self._done = terminated or truncated
        return str(info["messages"][-1]["content"])


def _python_type(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The Python type hint that `get_json_schema` turns back into (the type skeleton of) `schema`."""
    if "$ref" in schema:
        return _python_type(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    if "const" in schema:
        return Literal[schema["const"]]
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        types = [_python_type(o, defs) for o in options]
        return (
            Optional[Union[tuple(t for t in types if t is not type(None))]]
            if type(None) in types
            else Union[tuple(types)]
        )
    kind = schema.get("type")
    if isinstance(kind, list):
        return Union[tuple(_python_type({**schema, "type": k}, defs) for k in kind)]
    if kind == "array":
        return list[_python_type(schema["items"], defs)] if "items" in schema else list
    if kind == "object" or kind is None:
        return dict if kind == "object" else Any
    return _SCALARS[kind]


def _tool_method(tool: ToolSpec) -> Callable[..., str]:
    """A method named after the tool whose signature and docstring give TRL (through `get_json_schema`) the tool's
    name, description, arguments, their descriptions and types, and which are required. It takes any keyword
    arguments, so the env itself reports unknown or missing ones, as it does for text actions."""
    schema = tool.input_schema
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))

    def method(self: EnvFactoryEnvironment, **arguments: Any) -> str:
        return self._call(tool.name, arguments)

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    lines = []
    for name, prop in schema["properties"].items():
        annotations[name] = _python_type(prop, defs)
        default = inspect.Parameter.empty if name in required else None
        parameters.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotations[name])
        )
        description = " ".join((prop.get("description") or name.replace("_", " ")).split())
        lines.append(f"    {name}: {description}")
    annotations["return"] = str
    method.__name__ = method.__qualname__ = tool.name
    method.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    method.__doc__ = tool.description + ("\n\nArgs:\n" + "\n".join(lines) if lines else "")
    return method


def environment_class(env_key: str) -> type[EnvFactoryEnvironment]:
    """The TRL environment class of one zoo environment: `reset`, `get_reward` and one method per agent tool."""
    spec = load_zoo_environment(env_key)
    clashes = {t.name for t in spec.agent_tools} & {"reset", "get_reward"}
    if clashes:
        raise ValueError(f"{env_key}: tools {sorted(clashes)} clash with TRL's environment methods")
    namespace: dict[str, Any] = {"spec": spec, "__doc__": f"{spec.name} ({spec.env_id}) for TRL's GRPOTrainer."}
    namespace.update({tool.name: _tool_method(tool) for tool in spec.agent_tools})
    return type(f"{spec.name}Environment", (EnvFactoryEnvironment,), namespace)


def environment_factories(env_keys: list[str], max_steps: int = 40) -> dict[str, Callable[[], EnvFactoryEnvironment]]:
    """`environment_factory` for TRL: one factory per environment, keyed like the rows' `environment` column."""
    classes = {key: environment_class(key) for key in env_keys}
    return {key: (lambda cls=cls: cls(max_steps=max_steps)) for key, cls in classes.items()}
