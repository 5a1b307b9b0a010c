"""Home Assistant's API objects as output models: state objects (GET /api/states), registry entries, automation
configs, scenes and logbook entries, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .rules import brightness_pct

#: internal attributes never shown
HIDDEN = ("last_brightness",)


class State(BaseModel):
    entity_id: str
    state: str
    attributes: dict[str, Any]
    area_id: str | None
    last_changed: str


class StateList(BaseModel):
    states: list[State]


class ServiceResult(BaseModel):
    """POST /api/services/<domain>/<service>: the states that changed."""

    changed_states: list[State]


class Floor(BaseModel):
    floor_id: str
    name: str
    level: int


class Area(BaseModel):
    area_id: str
    name: str
    floor_id: str | None
    aliases: list[str]


class AreaRegistry(BaseModel):
    floors: list[Floor]
    areas: list[Area]


class Device(BaseModel):
    id: str
    name: str
    manufacturer: str
    model: str
    area_id: str | None
    entities: list[str]


class DeviceList(BaseModel):
    devices: list[Device]


class RegistryEntry(BaseModel):
    entity_id: str
    name: str
    area_id: str | None
    device_id: str | None


class Automation(BaseModel):
    entity_id: str
    id: str
    alias: str
    state: str
    description: str
    mode: str
    triggers: list[dict[str, Any]]
    conditions: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    last_triggered: str | None


class TriggerResult(BaseModel):
    entity_id: str
    ran: bool
    reason: str | None
    changed_states: list[State]


class Scene(BaseModel):
    entity_id: str
    name: str
    entities: dict[str, dict[str, Any]]


class LogbookEntry(BaseModel):
    when: str
    entity_id: str
    name: str
    state: str
    context_user_name: str | None
    context_source: str | None


class Logbook(BaseModel):
    entries: list[LogbookEntry]


class SignedInUser(BaseModel):
    id: str
    username: str
    name: str
    is_admin: bool


def state_object(row: dict[str, Any], area_id: str | None) -> State:
    """An entity row as its state object: lights also show brightness_pct, automations and scripts last_triggered,
    and a scene's state is when it was last applied, as in Home Assistant."""
    attrs = {k: v for k, v in row["attributes"].items() if k not in HIDDEN}
    attrs["friendly_name"] = row["name"]
    if row["domain"] == "light":
        attrs["brightness_pct"] = brightness_pct(attrs.get("brightness"))
    if row["domain"] in ("automation", "script"):
        attrs["last_triggered"] = row["last_triggered"]
    scene_applied = row["domain"] == "scene" and row["last_triggered"] is not None
    return State(
        entity_id=row["entity_id"],
        state=row["last_triggered"] if scene_applied else row["state"],
        attributes=attrs,
        area_id=area_id,
        last_changed=row["last_changed"],
    )


def automation_object(entity: dict[str, Any], config: dict[str, Any]) -> Automation:
    """An automation's state and its automations.yaml config."""
    return Automation(
        entity_id=entity["entity_id"],
        id=config["id"],
        alias=entity["name"],
        state=entity["state"],
        description=config["description"],
        mode=config["mode"],
        triggers=config["triggers"],
        conditions=config["conditions"],
        actions=config["actions"],
        last_triggered=entity["last_triggered"],
    )
