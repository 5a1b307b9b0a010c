"""The test agent (paper 3.2): unit tests of every tool and rule, and tasks with ground truth for the verifier."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from envfactory_gym.llm import ChatModel
from envfactory_gym.tasks import Task

from .llm_io import metadata_text, render, seed_text
from .models import EnvGenError, EnvMetadata, UnitTest

STAGE = "envgen.tests"


def parse_tests(stage: str, answer: dict[str, Any]) -> tuple[list[UnitTest], list[dict[str, Any]]]:
    """Unit tests and task dicts out of the test agent's JSON answer (tasks are checked against the task model)."""
    try:
        tests = [UnitTest.model_validate(t) for t in answer.get("unit_tests", [])]
        tasks = list(answer.get("tasks", []))
        for task in tasks:
            Task.model_validate(task)
    except (ValidationError, TypeError) as exc:
        raise EnvGenError(stage, f"the tests do not validate: {exc}") from None
    if not tests or not tasks:
        raise EnvGenError(stage, "the answer needs both unit tests and tasks")
    return tests, tasks


def tests_text(tests: list[UnitTest], tasks: list[dict[str, Any]]) -> str:
    """The current tests as the JSON object the test agent answers with."""
    return json.dumps(
        {"unit_tests": [t.model_dump(exclude_defaults=True) for t in tests], "tasks": tasks},
        indent=1,
        ensure_ascii=False,
    )


def write_tests(
    llm: ChatModel, m: EnvMetadata, schema_py: str, seed: dict[str, Any]
) -> tuple[list[UnitTest], list[dict[str, Any]]]:
    """Ask the test agent for unit tests and tasks."""
    messages = render(STAGE, metadata=metadata_text(m), schema_py=schema_py, seed=seed_text(seed))
    return parse_tests(STAGE, llm.complete_json(STAGE, messages))
