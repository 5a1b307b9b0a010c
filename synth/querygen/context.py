"""What every QueryGen stage shares: the configuration, the model and environment, and prompt-text helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envfactory_gym.database import DEFAULT_CLOCK
from envfactory_gym.llm import ChatModel, Prompt, load_prompt
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.tasks import UserPersona

PROMPTS = Path(__file__).parent / "prompts"


@dataclass(frozen=True)
class QueryGenConfig:
    """Knobs of the pipeline. Refinement probabilities calibrate how often each kind is applied per turn
    (implicit reference always applies: queries never keep raw ids)."""

    k: int = 3
    max_steps: int = 24
    max_tools_per_turn: int = 5
    agent_temperature: float = 0.7
    state_budget: int = 14_000
    user_state_budget: int = 10_000
    p_action_compression: float = 0.6
    p_ambiguity: float = 0.3
    p_goal_expansion: float = 0.25
    refine_retries: int = 2
    min_state_score: float = 1.0


@dataclass
class QueryGenContext:
    """The environment, the chat model and the configuration of one synthesis run."""

    spec: EnvironmentSpec
    model: ChatModel
    config: QueryGenConfig = field(default_factory=QueryGenConfig)
    clock: Any = DEFAULT_CLOCK

    def prompt(self, stage: str) -> Prompt:
        """A QueryGen prompt file by stage name."""
        return load_prompt(stage, PROMPTS)

    def tool_text(self, names: list[str]) -> str:
        """The listed tools with flags, description and argument schema, one block each."""
        blocks = []
        for index, name in enumerate(names, start=1):
            tool = self.spec.tools[name]
            flags = ("read" if tool.read_only else "write") + (", user-only" if tool.user_only else "")
            schema = json.dumps(tool.input_schema, ensure_ascii=False)
            blocks.append(f"{index}. {name} [{flags}]: {tool.description}\n   arguments: {schema}")
        return "\n".join(blocks)

    def schema_text(self) -> str:
        """Each table's columns with type, nullability and keys."""
        lines = []
        for table in self.spec.schema.sorted_tables:
            columns = []
            for column in table.columns:
                notes = [str(column.type).lower()]
                notes += ["primary key"] if column.primary_key else []
                notes += [f"-> {fk.target_fullname}" for fk in column.foreign_keys]
                required = not column.nullable and not column.primary_key and column.default is None
                notes += ["required"] if required else []
                columns.append(f"{column.name} ({', '.join(notes)})")
            lines.append(f"- {table.name}: {'; '.join(columns)}")
        return "\n".join(lines)


def persona_text(persona: UserPersona) -> str:
    """`Name, profile`."""
    return f"{persona.name}: {persona.profile}" if persona.profile else persona.name


def history_text(turns: list[tuple[str, list[str]]]) -> str:
    """Earlier turns as `user: request` lines followed by what was done."""
    if not turns:
        return "(this is the first turn)"
    lines = []
    for query, done in turns:
        lines.append(f"user: {query}")
        lines += [f"  done: {d}" for d in done]
    return "\n".join(lines)


def call_text(name: str, arguments: Any, caller: str = "agent") -> str:
    """`name({...})`, with `[user]` for user-performed calls."""
    return f"{'[user] ' if caller == 'user' else ''}{name}({json.dumps(arguments, ensure_ascii=False)})"
