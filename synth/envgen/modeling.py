"""Database modeling (paper 3.2): from m, the SQLAlchemy schema D and a seed snapshot consistent with it."""

from __future__ import annotations

from typing import Any

from envfactory_gym.llm import ChatModel

from .llm_io import block, json_block, metadata_text, render
from .models import EnvMetadata

STAGE = "envgen.model"


def parse_model(stage: str, text: str) -> tuple[str, dict[str, Any]]:
    """schema.py and the seed out of an answer with a ```python and a ```json block."""
    return block(stage, text, "python"), json_block(stage, text)


def model_database(llm: ChatModel, m: EnvMetadata) -> tuple[str, dict[str, Any]]:
    """Ask the code agent for schema.py and the seed snapshot."""
    answer = llm.complete(STAGE, render(STAGE, metadata=metadata_text(m)))
    return parse_model(STAGE, answer.content)
