"""`envfactory new`: a new environment folder in the zoo layout that passes `envfactory verify` as it is, to be
filled in with the product's own tables, tools, seed and tasks (docs/env_format.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .index import DOMAINS

_SCHEMA = '''"""{name}'s objects as tables."""

from sqlalchemy import JSON, Column, Integer, MetaData, String, Table

metadata = MetaData()

items = Table(
    "items",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("status", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("updated_at", String, nullable=False, info={{"volatile": True}}),
)
'''

_OBJECTS = '''"""{name}'s API objects as output models, and how stored rows become them."""

from typing import Any, Literal

from pydantic import BaseModel

Status = Literal["active", "archived"]


class Item(BaseModel):
    """An item as the API returns it."""

    id: str
    title: str
    status: Status
    quantity: int
    tags: list[str]


def item(row: dict[str, Any]) -> Item:
    """A stored row as the API's object."""
    return Item(id=row["id"], title=row["title"], status=row["status"], quantity=row["quantity"], tags=row["tags"])
'''

_RULES = '''"""{name}'s business rules: what the tools share (limits, state machines, who may do what)."""

from envfactory_gym import Conflict, Database

from .schema import items


def ensure_active(db: Database, item_id: str) -> dict:
    """The item, which must not be archived."""
    row = db.get(items, item_id, "Item")
    if row["status"] == "archived":
        raise Conflict(f"Item '{{item_id}}' is archived")
    return row
'''

_TOOLS = '''"""{name} tools: the agent-facing surface, one typed function per API operation."""

from typing import Annotated

from pydantic import Field

from envfactory_gym import Database, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import NonEmptyText, PageSize

from .objects import Item, Status, item
from .rules import ensure_active
from .schema import items


@tool(read_only=True)
def list_items(db: Database, status: Status | None = None, page_size: PageSize = 20,
               cursor: str | None = None) -> Page[Item]:
    """List items, newest id first.

    Args:
        status: Only items with this status.
        page_size: How many items one page holds (1-100).
        cursor: The `next_cursor` of the previous page.
    """
    rows = db.find(items, **given(status=status))
    return paginate([item(r) for r in sorted(rows, key=lambda r: r["id"], reverse=True)], page_size, cursor)


@tool()
def update_item(db: Database, item_id: str, title: NonEmptyText | None = None,
                quantity: Annotated[int, Field(ge=0, le=10_000)] | None = None) -> Item:
    """Change an active item's title or quantity.

    Args:
        item_id: The item's id, as list_items returns it.
        title: The new title.
        quantity: The new quantity (0-10000).
    """
    ensure_active(db, item_id)
    changes = given(title=title, quantity=quantity)
    return item(db.update(items, item_id, **changes, updated_at=db.now_iso()))
'''


def _key(name: str) -> str:
    key = re.sub(r"[^0-9a-z]+", "_", name.strip().lower()).strip("_")
    if not key or not key[0].isalpha():
        raise ValueError(f"{name!r} makes no environment key (it needs a letter first)")
    return key


def scaffold(name: str, domain: str, parent: Path) -> Path:
    """Create `<parent>/<key>/` (key: the name in snake_case) with a working example; returns the folder."""
    if domain not in DOMAINS:
        raise ValueError(f"domain {domain!r} is not one of {sorted(DOMAINS)}")
    key = _key(name)
    title = name.strip()
    folder = parent / key
    if folder.exists():
        raise FileExistsError(f"{folder} exists already")
    (folder / "snapshots").mkdir(parents=True)
    camel = "".join(part.capitalize() for part in key.split("_"))
    files = {
        "__init__.py": f'"""{title}: an envfactory environment (describe what it mirrors here)."""\n',
        "metadata.json": json.dumps(
            {
                "name": camel,
                "version": 0,
                "domain": domain,
                "product": title,
                "docs_url": "https://example.com/api-reference",
                "description": f"Describe {title} as the agent is connected to it: what it can see and do, in two or "
                "three sentences, with the product's key rules.",
            },
            indent=2,
        )
        + "\n",
        "schema.py": _SCHEMA.format(name=title),
        "objects.py": _OBJECTS.format(name=title),
        "rules.py": _RULES.format(name=title),
        "tools.py": _TOOLS.format(name=title),
    }
    rows = [
        {
            "id": f"item_{n:03d}",
            "title": f"Item {n}",
            "status": "archived" if n % 5 == 0 else "active",
            "quantity": n * 3,
            "tags": ["sample"],
            "updated_at": "2025-01-10T09:00:00Z",
        }
        for n in range(1, 13)
    ]
    tasks = [
        {
            "id": f"{key}-{number:04d}",
            "snapshot": "seed",
            "clock": "2025-01-15T09:00:00Z",
            "user": {"name": "Sam", "profile": f"Sam uses {title} every day.", "scenario": "Sam tidies up the items."},
            "turns": [
                {
                    "query": "Which of my items are still active?",
                    "calls": [{"name": "list_items", "arguments": {"status": "active"}, "masked": ["page_size"]}],
                },
                {
                    "query": f"Item {item_number} should read 'Item {item_number} (spare)' and hold {quantity}.",
                    "calls": [
                        {
                            "name": "update_item",
                            "arguments": {
                                "item_id": f"item_{item_number:03d}",
                                "title": f"Item {item_number} (spare)",
                                "quantity": quantity,
                            },
                        }
                    ],
                },
            ],
            "provenance": {"method": "hand-written", "author": "envfactory new (replace with your own tasks)"},
        }
        for number, item_number, quantity in ((1, 12, 40), (2, 3, 0), (3, 7, 15))
    ]
    for path, text in files.items():
        (folder / path).write_text(text)
    (folder / "snapshots" / "seed.json").write_text(json.dumps({"tables": {"items": rows}}, indent=1) + "\n")
    (folder / "tasks.jsonl").write_text("".join(json.dumps(task) + "\n" for task in tasks))
    return folder
