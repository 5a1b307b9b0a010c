"""A draft as files in the zoo's environment format (docs/env_format.md), and writing it into a zoo folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envfactory_gym.splits import FILE_NAME, assign

from .models import Component, Draft

#: Generated files and the component each belongs to.
FILE_COMPONENTS: dict[str, Component] = {"__init__.py": "tool code", "schema.py": "schema", "tools.py": "tool code"}


def env_files(draft: Draft, provenance: dict[str, Any]) -> dict[str, str]:
    """Relative path -> content of every file of the environment folder."""
    m = draft.metadata
    return {
        "__init__.py": f'"""{m.name}: a synthesized environment mirroring {m.product} (EnvGen)."""\n',
        "metadata.json": json.dumps(m.zoo_metadata(provenance), indent=2, ensure_ascii=False) + "\n",
        "schema.py": draft.schema_py.rstrip() + "\n",
        "tools.py": draft.tools_py.rstrip() + "\n",
        **{name: text.rstrip() + "\n" for name, text in draft.modules.items()},
        "snapshots/seed.json": json.dumps(draft.seed, indent=1, ensure_ascii=False) + "\n",
        "tasks.jsonl": "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in draft.tasks),
        FILE_NAME: json.dumps(assign(m.name, [t["id"] for t in draft.tasks]), indent=1) + "\n",
    }


def write_env(draft: Draft, zoo_dir: Path, provenance: dict[str, Any]) -> Path:
    """Write the environment into `zoo_dir/<key>/` (which must not exist yet); returns the folder."""
    folder = Path(zoo_dir) / draft.metadata.key
    if folder.exists():
        raise FileExistsError(f"{folder} exists already; EnvGen never overwrites an environment")
    for relative, content in env_files(draft, provenance).items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    return folder
