"""The revision step of the loop: the agent that owns a component rewrites it from the findings that blame it."""

from __future__ import annotations

import json

from pydantic import ValidationError

from envfactory_gym.llm import ChatModel
from envfactory_gym.verify import DOMAINS

from .llm_io import block, metadata_text, render, seed_text
from .modeling import parse_model
from .models import Component, Draft, EnvGenError, EnvMetadata, ErrorReport
from .testing import parse_tests, tests_text

STAGES: dict[Component, str] = {
    "metadata": "envgen.revise.metadata",
    "schema": "envgen.revise.schema",
    "tool code": "envgen.revise.tool_code",
    "test": "envgen.revise.test",
}


def revise(llm: ChatModel, draft: Draft, report: ErrorReport, component: Component, taken_keys: set[str]) -> Draft:
    """The draft with `component` rewritten by its agent from the report's findings on it.

    Raises EnvGenError when the answer is unusable (the loop then keeps the component as it was)."""
    stage = STAGES[component]
    findings = report.render(component)
    m = metadata_text(draft.metadata)
    if component == "tool code":
        messages = render(stage, findings=findings, metadata=m, schema_py=draft.schema_py, current=draft.tools_py)
        return draft.model_copy(update={"tools_py": block(stage, llm.complete(stage, messages).content, "python")})
    if component == "schema":
        messages = render(
            stage,
            findings=findings,
            metadata=m,
            schema_py=draft.schema_py,
            seed=json.dumps(draft.seed, indent=1, ensure_ascii=False),
        )
        schema_py, seed = parse_model(stage, llm.complete(stage, messages).content)
        return draft.model_copy(update={"schema_py": schema_py, "seed": seed})
    if component == "test":
        messages = render(
            stage,
            findings=findings,
            metadata=m,
            schema_py=draft.schema_py,
            seed=seed_text(draft.seed),
            current=tests_text(draft.unit_tests, draft.tasks),
        )
        tests, tasks = parse_tests(stage, llm.complete_json(stage, messages))
        return draft.model_copy(update={"unit_tests": tests, "tasks": tasks})
    messages = render(
        stage,
        findings=findings,
        current=m,
        domains=", ".join(sorted(DOMAINS)),
        taken_keys=", ".join(sorted(taken_keys)) or "none",
    )
    try:
        metadata = EnvMetadata.model_validate(llm.complete_json(stage, messages))
    except ValidationError as exc:
        raise EnvGenError(stage, f"the metadata does not validate: {exc}") from None
    return draft.model_copy(update={"metadata": metadata})
