"""Proposal and sketch (paper 3.2): pick a coverage gap, ground it in a source document, write the metadata m."""

from __future__ import annotations

from pydantic import ValidationError

from envfactory_gym.llm import ChatModel
from envfactory_gym.verify import DOMAINS

from .coverage import Coverage
from .llm_io import render
from .models import EnvGenError, EnvMetadata
from .sources import SourceDoc

STAGE = "envgen.propose"


def sources_text(docs: list[SourceDoc], budget: int) -> str:
    """The source documents for the prompt, each cut to an equal share of `budget` characters."""
    if not docs:
        return "(none: design from what is widely known about the topic's leading product)"
    share = max(1, budget // len(docs))
    parts = []
    for doc in docs:
        text = doc.text if len(doc.text) <= share else doc.text[:share] + "\n... (cut)"
        parts.append(f"### [{doc.id}] {doc.title} ({doc.kind}; {doc.url or 'no URL'})\n{text}")
    return "\n\n".join(parts)


def propose(llm: ChatModel, topic: str, coverage: Coverage, docs: list[SourceDoc], budget: int) -> EnvMetadata:
    """Ask the search agent for the metadata m of one new environment."""
    messages = render(
        STAGE,
        topic=topic,
        domains=", ".join(sorted(DOMAINS)),
        coverage=coverage.render(),
        gaps=", ".join(coverage.gaps()),
        taken_keys=", ".join(sorted(coverage.keys)) or "none",
        sources=sources_text(docs, budget),
    )
    answer = llm.complete_json(STAGE, messages)
    try:
        return EnvMetadata.model_validate(answer)
    except ValidationError as exc:
        raise EnvGenError(STAGE, f"the metadata does not validate: {exc}") from None
