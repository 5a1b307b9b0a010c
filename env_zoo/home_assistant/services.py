"""Service calls on entities, shared by the direct tools and by what automations, scripts and scenes run: each call
checks the entity exists, belongs to the service's domain and is available, applies the rule, and writes the state
change to the logbook with the user and (for automations and scripts) the entity that caused it."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from . import rules
from .errors import entity_missing, invalid, unavailable, wrong_domain
from .schema import entities, logbook

#: services the action language and the tools run, by "<domain>.<service>"
SERVICES = (
    "light.turn_on",
    "light.turn_off",
    "switch.turn_on",
    "switch.turn_off",
    "climate.set_temperature",
    "climate.set_hvac_mode",
    "lock.lock",
    "lock.unlock",
    "cover.set_cover_position",
    "cover.open_cover",
    "cover.close_cover",
)


def entity(db: Database, entity_id: str) -> dict[str, Any]:
    """An entity by its entity_id."""
    return db.find_one(entities, entity_id=entity_id.strip(), not_found=entity_missing(entity_id))


def record(db: Database, row: dict[str, Any], state: str, user_id: str | None, source: str | None) -> None:
    """Write a state change to the logbook (only when the state itself changed, as Home Assistant's logbook does)."""
    if state != row["state"]:
        db.insert(
            logbook,
            when=db.now_iso(),
            entity_id=row["entity_id"],
            state=state,
            context_user_id=user_id,
            context_source=source,
        )


def _effect(row: dict[str, Any], service: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    attrs = dict(row["attributes"])
    if service == "light.turn_on":
        return rules.light_on(row, data.get("brightness_pct"), data.get("color_temp_kelvin"))
    if service == "light.turn_off":
        return rules.light_off(row)
    if service in ("switch.turn_on", "switch.turn_off"):
        return service.removeprefix("switch.turn_"), attrs
    if service == "climate.set_temperature":
        state = rules.hvac_mode(row, data["hvac_mode"]) if data.get("hvac_mode") else row["state"]
        attrs["temperature"] = rules.setpoint(row, data["temperature"])
        return state, attrs
    if service == "climate.set_hvac_mode":
        return rules.hvac_mode(row, data["hvac_mode"]), attrs
    if service == "lock.lock":
        return "locked", attrs
    if service == "lock.unlock":
        rules.check_code(row, data.get("code"))
        return "unlocked", attrs
    position = {"cover.open_cover": 100, "cover.close_cover": 0}.get(service, data.get("position"))
    if position is None:
        raise invalid("cover.set_cover_position needs a position")
    state, changed = rules.cover_position(position)
    return state, {**attrs, **changed}


def call(
    db: Database, service: str, entity_id: str, data: dict[str, Any], user_id: str | None, source: str | None = None
) -> dict[str, Any]:
    """Run `service` on one entity and return the entity as it is afterwards."""
    row = entity(db, entity_id)
    if service.split(".")[0] != row["domain"] or service not in SERVICES:
        raise wrong_domain(row["entity_id"], service)
    if row["state"] == "unavailable":
        raise unavailable(row["entity_id"])
    state, attrs = _effect(row, service, data)
    record(db, row, state, user_id, source)
    changed = state != row["state"] or attrs != row["attributes"]
    if not changed:
        return row
    return db.update(entities, row["entity_id"], state=state, attributes=attrs, last_changed=db.now_iso())


def restore(db: Database, entity_id: str, stored: dict[str, Any], user_id: str | None, source: str) -> None:
    """Bring an entity back to a scene's stored state and attributes."""
    row = entity(db, entity_id)
    if row["state"] == "unavailable":
        raise unavailable(row["entity_id"])
    attrs = {**row["attributes"], **{k: v for k, v in stored.items() if k != "state"}}
    if row["domain"] == "light" and stored["state"] == "off":
        attrs = rules.light_off({**row, "attributes": attrs})[1]
    record(db, row, stored["state"], user_id, source)
    if stored["state"] != row["state"] or attrs != row["attributes"]:
        db.update(entities, row["entity_id"], state=stored["state"], attributes=attrs, last_changed=db.now_iso())


def run_actions(db: Database, actions: list[dict[str, Any]], user_id: str | None, source: str) -> list[str]:
    """Run an automation's or script's action list (service calls on target entities); the entity_ids touched."""
    touched: list[str] = []
    for action in actions:
        targets = action["target"]["entity_id"]
        for target in [targets] if isinstance(targets, str) else targets:
            call(db, action["action"], target, action.get("data", {}), user_id, source)
            touched.append(target)
    return touched


def condition_holds(db: Database, condition: dict[str, Any]) -> bool:
    """A state condition ({"condition": "state", "entity_id": ..., "state": ...}) or numeric_state condition."""
    row = entity(db, condition["entity_id"])
    if condition["condition"] == "state":
        wanted = condition["state"]
        return row["state"] in (wanted if isinstance(wanted, list) else [wanted])
    value = float(row["state"]) if row["state"] not in ("unavailable", "unknown") else None
    if value is None:
        return False
    return (condition.get("above") is None or value > condition["above"]) and (
        condition.get("below") is None or value < condition["below"]
    )
