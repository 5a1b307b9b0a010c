"""A small grocery environment whose replacement rule is stated only in its errors (for filling tests)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

from pydantic import BaseModel
from sqlalchemy import Column, MetaData, String, Table

from envfactory_gym import Database, InvalidRequest, tool
from envfactory_gym.spec import EnvironmentSpec

from ..helpers import module_spec

schema = MetaData()
items = Table(
    "items",
    schema,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("policy", String, nullable=False),
    Column("replacement_item_id", String),
)
SEED = {
    "items": [
        {"id": "itm_01", "name": "Oat milk", "policy": "shoppers_choice", "replacement_item_id": None},
        {"id": "itm_02", "name": "Rye bread", "policy": "shoppers_choice", "replacement_item_id": None},
    ]
}


class Item(BaseModel):
    """An item of the cart and what the shopper does when it is out of stock."""

    id: str
    name: str
    policy: str
    replacement_item_id: str | None


@tool(read_only=True)
def list_items(db: Database) -> list[Item]:
    """List the items of the cart."""
    return [Item(**row) for row in db.find(items)]


@tool()
def set_replacement(
    db: Database,
    item_id: str,
    policy: Literal["shoppers_choice", "users_choice", "no_replacements"],
    replacement_item_id: str | None = None,
) -> Item:
    """Choose what the shopper does when an item is out of stock.

    Args:
        item_id: The item.
        policy: What the shopper does.
        replacement_item_id: The replacement item.
    """
    if policy == "users_choice" and replacement_item_id is None:
        raise InvalidRequest("replacement_item_id is required with users_choice.")
    if policy != "users_choice" and replacement_item_id is not None:
        raise InvalidRequest("replacement_item_id is only used with users_choice.")
    db.get(items, item_id, "Item")
    return Item(**db.update(items, item_id, policy=policy, replacement_item_id=replacement_item_id))


def grocery_spec(folder: Path) -> EnvironmentSpec:
    """The grocery environment with its seed snapshot written under `folder`."""
    return module_spec(sys.modules[__name__], folder, SEED, "Grocery", "shopping", "Set replacement preferences.")
