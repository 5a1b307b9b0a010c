"""Test helpers: build a small throw-away environment spec from functions and rows."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from sqlalchemy import Column, Integer, MetaData, String, Table

from envfactory_gym.spec import EnvironmentSpec, ToolSpec, collect_tools

SMALL_SCHEMA = MetaData()
ITEMS = Table("items", SMALL_SCHEMA, Column("id", Integer, primary_key=True), Column("name", String, nullable=False))


def make_spec(
    folder: Path, functions: list[Callable], rows: list[dict], tasks: list[dict] | None = None
) -> EnvironmentSpec:
    """An EnvironmentSpec over the `items` table with the given tools, seed rows and tasks."""
    write_seed(folder, {"items": rows})
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


def write_seed(folder: Path, tables: dict[str, list[dict[str, Any]]]) -> None:
    """Write `tables` as the seed snapshot of an environment folder."""
    (folder / "snapshots").mkdir(parents=True, exist_ok=True)
    (folder / "snapshots" / "seed.json").write_text(json.dumps({"tables": tables}))


def module_spec(
    module: ModuleType, folder: Path, tables: dict[str, list[dict[str, Any]]], name: str, domain: str, description: str
) -> EnvironmentSpec:
    """An EnvironmentSpec over a test module's `schema` and tools, with its seed `tables` written under `folder`."""
    write_seed(folder, tables)
    return EnvironmentSpec(
        name=name,
        domain=domain,
        description=description,
        product="Test",
        docs_url="https://example.org",
        schema=module.schema,
        tools=collect_tools(module),
        folder=folder,
    )
