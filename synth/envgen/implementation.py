"""Code implementation (paper 3.2): tools.py, in the zoo's format, from m and D."""

from __future__ import annotations

from typing import Any

from envfactory_gym.llm import ChatModel

from .llm_io import block, metadata_text, render, seed_text
from .models import EnvMetadata

STAGE = "envgen.implement"
SAMPLE_ROWS = 3


def implement(llm: ChatModel, m: EnvMetadata, schema_py: str, seed: dict[str, Any]) -> str:
    """Ask the code agent for tools.py."""
    messages = render(
        STAGE, metadata=metadata_text(m), schema_py=schema_py, seed_sample=seed_text(seed, rows_per_table=SAMPLE_ROWS)
    )
    return block(STAGE, llm.complete(STAGE, messages).content, "python")
