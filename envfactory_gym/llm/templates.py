"""Prompt files: one file per stage and version (`<stage>.v<N>.md`), with `=== system ===` / `=== user ===`
sections and `{{name}}` placeholders. Prompts live in files, never as strings in code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

PROMPTS_DIR = Path(__file__).parent / "prompts"
_FILE = re.compile(r"^(?P<stage>.+)\.v(?P<version>\d+)\.md$")
_SECTION = re.compile(r"^=== (system|user) ===\s*$", re.MULTILINE)
_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


@dataclass(frozen=True)
class Prompt:
    """One versioned prompt: its stage name, version and section templates."""

    stage: str
    version: int
    sections: tuple[tuple[str, str], ...]

    @property
    def id(self) -> str:
        """`stage.vN`, recorded in provenance."""
        return f"{self.stage}.v{self.version}"

    @property
    def variables(self) -> set[str]:
        """The placeholder names the prompt needs."""
        return {m.group(1) for _, text in self.sections for m in _PLACEHOLDER.finditer(text)}

    def render(self, **values: Any) -> list[dict[str, str]]:
        """Chat messages with every placeholder filled (non-string values are written with `str`).
        Raises KeyError naming any placeholder without a value."""
        missing = self.variables - set(values)
        if missing:
            raise KeyError(f"prompt {self.id} needs values for {sorted(missing)}")
        fill = lambda m: str(values[m.group(1)])  # noqa: E731
        return [{"role": role, "content": _PLACEHOLDER.sub(fill, text).strip()} for role, text in self.sections]


def parse_prompt(stage: str, version: int, text: str) -> Prompt:
    """Split a prompt file into its sections; text before the first section marker is a comment."""
    parts = _SECTION.split(text)
    sections = tuple((parts[i], parts[i + 1]) for i in range(1, len(parts) - 1, 2))
    if not sections:
        raise ValueError(f"prompt {stage}.v{version} has no '=== system ===' or '=== user ===' section")
    return Prompt(stage, version, sections)


@lru_cache(maxsize=None)
def load_prompt(stage: str, directory: Path = PROMPTS_DIR, version: int | None = None) -> Prompt:
    """The prompt of `stage` from `directory`: the given version, or the highest one there."""
    versions = {
        int(m.group("version")): path
        for path in Path(directory).glob("*.md")
        if (m := _FILE.match(path.name)) and m.group("stage") == stage
    }
    if not versions:
        raise FileNotFoundError(f"no prompt file {stage}.v<N>.md in {directory}")
    chosen = version if version is not None else max(versions)
    if chosen not in versions:
        raise FileNotFoundError(f"prompt {stage}.v{chosen}.md not in {directory} (have {sorted(versions)})")
    return parse_prompt(stage, chosen, versions[chosen].read_text())
