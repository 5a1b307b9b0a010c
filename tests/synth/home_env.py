"""A small smart-home environment (for filling tests): devices list their entities by id (a lock beside its
battery sensor), `lock_lock` takes only a lock's entity (a pattern), and `search_devices` finds devices by the
words of their name, in the rooms of the home."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, Field
from sqlalchemy import Column, ForeignKey, MetaData, String, Table

from envfactory_gym import Database, NotFound, tool
from envfactory_gym.spec import EnvironmentSpec

from ..helpers import module_spec

schema = MetaData()
rooms = Table("rooms", schema, Column("id", String, primary_key=True), Column("name", String, nullable=False))
devices = Table(
    "devices",
    schema,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("room", String, ForeignKey("rooms.id"), nullable=False),
)
entities = Table(
    "entities",
    schema,
    Column("id", String, primary_key=True),
    Column("device", String, ForeignKey("devices.id"), nullable=False),
    Column("state", String, nullable=False),
)
SEED = {
    "rooms": [{"id": "kitchen", "name": "Kitchen"}, {"id": "hall", "name": "Hall"}],
    "devices": [
        {"id": "d1", "name": "Back Door", "room": "kitchen"},
        {"id": "d2", "name": "Ceiling Light", "room": "kitchen"},
        {"id": "d3", "name": "Front Door", "room": "hall"},
    ],
    "entities": [
        {"id": "sensor.back_door_battery", "device": "d1", "state": "87"},
        {"id": "lock.back_door", "device": "d1", "state": "unlocked"},
        {"id": "light.ceiling", "device": "d2", "state": "off"},
        {"id": "sensor.front_door_battery", "device": "d3", "state": "64"},
        {"id": "lock.front_door", "device": "d3", "state": "locked"},
    ],
}
LockId = Annotated[str, Field(pattern=r"^lock\.[a-z0-9_]+$")]


class Device(BaseModel):
    """A device with the ids of its entities."""

    id: str
    name: str
    room: str
    entities: list[str]


class Lock(BaseModel):
    """A lock's entity and its state."""

    entity_id: str
    state: str


def _device(db: Database, row: dict) -> Device:
    return Device(**row, entities=[e["id"] for e in db.find(entities, device=row["id"])])


@tool(read_only=True)
def list_devices(db: Database) -> list[Device]:
    """Every device of the home with its entities."""
    return [_device(db, row) for row in db.find(devices)]


@tool(read_only=True)
def search_devices(db: Database, query: str) -> list[Device]:
    """Devices whose name holds every word of the query (case-insensitive).

    Args:
        query: The words to look for.
    """
    said = query.lower().split()
    return [_device(db, r) for r in db.find(devices) if said and all(w in r["name"].lower() for w in said)]


@tool()
def lock_lock(db: Database, entity_id: LockId) -> Lock:
    """Lock a lock.

    Args:
        entity_id: The lock.
    """
    if not db.find(entities, id=entity_id):
        raise NotFound(f"Entity '{entity_id}' not found")
    db.update(entities, entity_id, state="locked")
    return Lock(entity_id=entity_id, state="locked")


class Room(BaseModel):
    """A room of the home."""

    id: str
    name: str


@tool(read_only=True)
def get_room(db: Database, room_id: str) -> Room:
    """A room.

    Args:
        room_id: The room.
    """
    return Room(**db.get(rooms, room_id, "Room"))


def home_spec(folder: Path) -> EnvironmentSpec:
    """The smart-home environment with its seed snapshot written under `folder`."""
    return module_spec(sys.modules[__name__], folder, SEED, "Home", "smart_home", "Run a home's devices.")
