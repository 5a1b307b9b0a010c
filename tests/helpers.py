"""Test helpers: build a small throw-away environment spec from functions and rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from sqlalchemy import Column, Integer, MetaData, String, Table

from envfactory_gym.spec import EnvironmentSpec, ToolSpec

SMALL_SCHEMA = MetaData()
ITEMS = Table("items", SMALL_SCHEMA, Column("id", Integer, primary_key=True), Column("name", String, nullable=False))


def make_spec(
    folder: Path, functions: list[Callable], rows: list[dict], tasks: list[dict] | None = None
) -> EnvironmentSpec:
    """An EnvironmentSpec over the `items` table with the given tools, seed rows and tasks."""
    (folder / "snapshots").mkdir(parents=True, exist_ok=True)
    (folder / "snapshots" / "seed.json").write_text(json.dumps({"tables": {"items": rows}}))
    (folder / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks or []))
    return EnvironmentSpec(
        name="Small",
        domain="utilities",
        description="A small test environment.",
        product="Test",
        docs_url="https://example.org/docs",
        schema=SMALL_SCHEMA,
        tools={f.__name__: ToolSpec.from_function(f) for f in functions},
        folder=folder,
    )
