"""Runs inside the sandbox: import a candidate environment and describe it (tools with their schemas, tables,
tasks and snapshots) for the parent, or report why it does not import. Nothing here judges the candidate: the four
criteria are computed by the parent (`criteria.py`) from this description and from tool calls it makes through the
sandbox, and the unit tests' expectations never reach the sandbox."""

from __future__ import annotations

import os
import traceback
from pathlib import Path
from typing import Any

from envfactory_gym.adapters.isolation import serve
from envfactory_gym.sandbox import SandboxViolation, mark

from .layout import FILE_COMPONENTS
from .models import Finding


def import_failure(exc: BaseException, folder: Path) -> Finding:
    """An import error, blamed on the generated file where it happened (with the line)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).parent == folder]
    filename, line, code = (
        (Path(frames[-1].filename).name, frames[-1].lineno, frames[-1].line) if frames else (None, None, None)
    )
    if isinstance(exc, SyntaxError) and exc.filename:
        filename, line, code = Path(exc.filename).name, exc.lineno, (exc.text or "").strip()
    where = f" ({filename} line {line}: {code})" if filename else ""
    message = f"{type(exc).__name__}: {exc}{where}".replace(f"{Path.cwd()}{os.sep}", "")
    return Finding(
        criterion=2, component=FILE_COMPONENTS.get(filename or "", "tool code"), check="import", message=message
    )


def describe_candidate(payload: dict[str, Any]) -> dict[str, Any]:
    """The sandbox entry: `payload` has `folder` (relative to the scratch folder) and `package`. Returns
    `{"environment": description}` or `{"import_error": finding}`."""
    mark("import environment")
    try:
        return {"environment": serve({"folder": payload["folder"], "package": payload["package"], "op": "describe"})}
    except SandboxViolation:
        raise  # the parent reports it, with the file and line
    except Exception as exc:  # the generated code does not import: report it, do not crash the check
        return {"import_error": import_failure(exc, Path(payload["folder"]).resolve()).model_dump()}
