"""What EnvGen's LLM stages share: rendering the prompt files (with their fragments), reading fenced code blocks
out of answers, and showing seeds and blueprints to a model."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from envfactory_gym.llm import Messages, Prompt, load_prompt

from .models import EnvGenError, EnvMetadata

PROMPTS_DIR = Path(__file__).parent / "prompts"
FRAGMENT_PREFIX = "fragment_"
_FENCE = re.compile(r"```([\w.+-]*)[^\n]*\n(.*?)```", re.DOTALL)


def prompt(stage: str) -> Prompt:
    """The highest version of an EnvGen prompt file."""
    return load_prompt(stage, PROMPTS_DIR)


def fragment(name: str) -> str:
    """A shared block of prompt text (`prompts/fragments/<name>.v<N>.md`, highest version)."""
    versions = sorted(PROMPTS_DIR.glob(f"fragments/{name}.v*.md"), key=lambda p: int(p.stem.rsplit(".v", 1)[1]))
    if not versions:
        raise FileNotFoundError(f"no prompt fragment {name}.v<N>.md in {PROMPTS_DIR / 'fragments'}")
    return versions[-1].read_text().strip()


def render(stage: str, **values: Any) -> Messages:
    """The messages of a stage: placeholders from `values`, `fragment_<name>` placeholders from the fragments."""
    template = prompt(stage)
    fragments = {v: fragment(v[len(FRAGMENT_PREFIX) :]) for v in template.variables if v.startswith(FRAGMENT_PREFIX)}
    return template.render(**fragments, **values)


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block of an answer, in order."""
    return [(lang.lower(), body.strip()) for lang, body in _FENCE.findall(text)]


def block(stage: str, text: str, language: str) -> str:
    """The first fenced block in `language`; EnvGenError when the answer has none."""
    for lang, body in code_blocks(text):
        if lang == language or (language == "python" and lang == "py"):
            return body
    raise EnvGenError(stage, f"the answer has no ```{language} block")


def json_block(stage: str, text: str) -> dict[str, Any]:
    """The first ```json block, parsed as an object."""
    try:
        data = json.loads(block(stage, text, "json"))
    except json.JSONDecodeError as exc:
        raise EnvGenError(stage, f"the ```json block does not parse: {exc}") from None
    if not isinstance(data, dict):
        raise EnvGenError(stage, "the ```json block is not an object")
    return data


def metadata_text(m: EnvMetadata) -> str:
    """The blueprint as a model reads it: JSON with one line per field and one line per tool."""
    data = m.model_dump()
    tools = data.pop("tools")
    fields = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()]
    rows = [f"  {json.dumps(t, ensure_ascii=False)}" for t in tools]
    return "{\n" + ",\n".join(fields + [' "tools": [\n' + ",\n".join(rows) + "\n ]"]) + "\n}"


def seed_text(seed: dict[str, Any], rows_per_table: int | None = None, budget: int = 40_000) -> str:
    """A seed snapshot with one JSON row per line under a `## table` header; at most `rows_per_table` rows each,
    and at most `budget` characters in all."""
    lines = []
    for table, rows in seed.get("tables", {}).items():
        shown = rows if rows_per_table is None else rows[:rows_per_table]
        more = f" (first {len(shown)} of {len(rows)})" if len(shown) < len(rows) else f" ({len(rows)} rows)"
        lines.append(f"## {table}{more}")
        lines += [json.dumps(row, ensure_ascii=False) for row in shown]
    text = "\n".join(lines)
    return text if len(text) <= budget else text[:budget] + "\n... (cut)"
