"""Home Assistant as a signed-in household member uses it through the REST and WebSocket APIs: states, service
calls on lights, switches, thermostats, locks and covers, the floor/area/device/entity registries, automations,
scenes, scripts and the logbook; plus the person's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, Unordered, tool
from envfactory_gym.fields import IsoTimestamp, NonBlankText, bounded, text

from . import registry, services
from .access import current_user, require_admin
from .errors import invalid, unauthorized, unavailable
from .objects import (
    Area,
    AreaRegistry,
    Automation,
    Device,
    DeviceList,
    Floor,
    Logbook,
    LogbookEntry,
    RegistryEntry,
    Scene,
    ServiceResult,
    SignedInUser,
    State,
    StateList,
    TriggerResult,
    automation_object,
)
from .rules import SCENE_ATTRIBUTES
from .schema import areas, automations, devices, entities, floors, logbook, scenes, scripts, sessions, users

EntityId = Annotated[str, Field(pattern=r"^[a-z_]+\.[a-z0-9_]+$", description="e.g. light.kitchen_ceiling")]
LightId = Annotated[str, Field(pattern=r"^light\.[a-z0-9_]+$")]
SwitchId = Annotated[str, Field(pattern=r"^switch\.[a-z0-9_]+$")]
ClimateId = Annotated[str, Field(pattern=r"^climate\.[a-z0-9_]+$")]
LockId = Annotated[str, Field(pattern=r"^lock\.[a-z0-9_]+$")]
CoverId = Annotated[str, Field(pattern=r"^cover\.[a-z0-9_]+$")]
AutomationId = Annotated[str, Field(pattern=r"^automation\.[a-z0-9_]+$")]
SceneId = Annotated[str, Field(pattern=r"^scene\.[a-z0-9_]+$")]
ScriptId = Annotated[str, Field(pattern=r"^script\.[a-z0-9_]+$")]
ObjectId = Annotated[str, Field(pattern=r"^[a-z0-9_]{1,50}$", description="snake_case, e.g. movie_night")]
AreaId = Annotated[str, Field(pattern=r"^[a-z0-9_]+$", description="the area's id, e.g. living_room")]
Domain = Literal[
    "light", "switch", "climate", "lock", "cover", "sensor", "binary_sensor", "automation", "scene", "script"
]
HvacMode = Literal["off", "heat", "cool", "heat_cool", "auto", "dry", "fan_only"]
Temperature = Annotated[float, Field(ge=5, le=35, description="degrees Celsius")]
LockCode = Annotated[str, Field(pattern=r"^\d{4,8}$")]


def _changed(db: Database, entity_id: str) -> ServiceResult:
    row = services.entity(db, entity_id)
    return ServiceResult(changed_states=registry.states(db, [row]))


def _service(db: Database, service: str, entity_id: str, **data: object) -> ServiceResult:
    user = current_user(db)
    services.call(db, service, entity_id, {k: v for k, v in data.items() if v is not None}, user["id"])
    return _changed(db, entity_id)


# ---------------------------------------------------------------- the person


@tool(user_only=True)
def sign_in(db: Database, username: NonBlankText) -> SignedInUser:
    """(User only) The person signs in to Home Assistant; the assistant then acts with their rights.

    Args:
        username: The person's Home Assistant username.
    """
    user = db.find_one(users, username=username.strip().lower(), not_found="Invalid username or password")
    if not user["is_active"]:
        raise unauthorized("This user account is deactivated.")
    db.start_session(sessions, user_id=user["id"])
    return SignedInUser(id=user["id"], username=user["username"], name=user["name"], is_admin=user["is_admin"])


# ---------------------------------------------------------------- states and registries


@tool(read_only=True)
def list_states(
    db: Database, domain: Domain | None = None, area_id: AreaId | None = None, state: str | None = None
) -> StateList:
    """List entity states (GET /api/states), optionally only one domain, one area or one state (e.g. "unavailable",
    "on", "unlocked").

    Args:
        domain: Only entities of this domain.
        area_id: Only entities in this area (their own or their device's).
        state: Only entities currently in this state.
    """
    current_user(db)
    rows = registry.in_area(db, area_id) if area_id is not None else db.find(entities)
    rows = [r for r in rows if (domain is None or r["domain"] == domain) and (state is None or r["state"] == state)]
    return StateList(states=registry.states(db, rows))


@tool(read_only=True)
def get_state(db: Database, entity_id: EntityId) -> State:
    """Get one entity's state and attributes (GET /api/states/<entity_id>).

    Args:
        entity_id: The entity's id.
    """
    current_user(db)
    return registry.states(db, [services.entity(db, entity_id)])[0]


@tool(read_only=True)
def list_areas(db: Database) -> AreaRegistry:
    """List the floors and the areas on them (config/floor_registry/list and config/area_registry/list)."""
    current_user(db)
    return AreaRegistry(
        floors=[Floor(**f) for f in db.find(floors, order_by=[floors.c.level])],
        areas=[Area(**a) for a in db.find(areas, order_by=[areas.c.name])],
    )


@tool(read_only=True)
def list_devices(db: Database, area_id: AreaId | None = None) -> DeviceList:
    """List devices with their entities (config/device_registry/list), optionally of one area.

    Args:
        area_id: Only devices in this area.
    """
    current_user(db)
    if area_id is not None:
        registry.check_area(db, area_id)
    rows = db.find(devices, order_by=[devices.c.name], **({"area_id": area_id} if area_id else {}))
    provided = registry.entities_by_device(db, [d["id"] for d in rows])
    return DeviceList(devices=[Device(**d, entities=provided[d["id"]]) for d in rows])


@tool()
def update_entity_registry(
    db: Database,
    entity_id: EntityId,
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None,
    area_id: AreaId | None = None,
) -> RegistryEntry:
    """Rename an entity or move it to another area (config/entity_registry/update). Administrators only.

    Args:
        entity_id: The entity to change.
        name: Its new friendly name.
        area_id: The area to put it in (overrides its device's area).
    """
    require_admin(db, "change the entity registry")
    row = services.entity(db, entity_id)
    if name is None and area_id is None:
        raise invalid("Give a new name or area_id.")
    if area_id is not None:
        registry.check_area(db, area_id)
    changes = {k: v for k, v in {"name": name, "area_id": area_id}.items() if v is not None}
    row = db.update(entities, row["entity_id"], **changes)
    return RegistryEntry(
        entity_id=row["entity_id"], name=row["name"], area_id=registry.area_of(db, row), device_id=row["device_id"]
    )


# ---------------------------------------------------------------- device services


@tool()
def light_turn_on(
    db: Database,
    entity_id: LightId,
    brightness_pct: Annotated[int, Field(ge=0, le=100)] | None = None,
    color_temp_kelvin: Annotated[int, Field(ge=1500, le=9000)] | None = None,
) -> ServiceResult:
    """Turn a light on (light.turn_on), optionally at a brightness and colour temperature; brightness_pct 0 turns
    it off. Without brightness it comes back at its last brightness.

    Args:
        entity_id: The light.
        brightness_pct: Brightness in percent, 0 to 100.
        color_temp_kelvin: Colour temperature in kelvin, within the light's min_color_temp_kelvin and
            max_color_temp_kelvin.
    """
    return _service(db, "light.turn_on", entity_id, brightness_pct=brightness_pct, color_temp_kelvin=color_temp_kelvin)


@tool()
def light_turn_off(db: Database, entity_id: LightId) -> ServiceResult:
    """Turn a light off (light.turn_off).

    Args:
        entity_id: The light.
    """
    return _service(db, "light.turn_off", entity_id)


@tool()
def switch_turn_on(db: Database, entity_id: SwitchId) -> ServiceResult:
    """Turn a switch or smart plug on (switch.turn_on).

    Args:
        entity_id: The switch.
    """
    return _service(db, "switch.turn_on", entity_id)


@tool()
def switch_turn_off(db: Database, entity_id: SwitchId) -> ServiceResult:
    """Turn a switch or smart plug off (switch.turn_off).

    Args:
        entity_id: The switch.
    """
    return _service(db, "switch.turn_off", entity_id)


@tool()
def climate_set_temperature(
    db: Database, entity_id: ClimateId, temperature: Temperature, hvac_mode: HvacMode | None = None
) -> ServiceResult:
    """Set a thermostat's target temperature (climate.set_temperature), optionally switching its mode too. The
    temperature must lie within the thermostat's min_temp and max_temp, in steps of its target_temp_step.

    Args:
        entity_id: The thermostat.
        temperature: The target temperature in degrees Celsius.
        hvac_mode: A mode among the thermostat's hvac_modes to switch to at the same time.
    """
    return _service(db, "climate.set_temperature", entity_id, temperature=temperature, hvac_mode=hvac_mode)


@tool()
def climate_set_hvac_mode(db: Database, entity_id: ClimateId, hvac_mode: HvacMode) -> ServiceResult:
    """Switch a thermostat's mode (climate.set_hvac_mode); the mode must be one of its hvac_modes.

    Args:
        entity_id: The thermostat.
        hvac_mode: The mode, e.g. heat, cool, off.
    """
    return _service(db, "climate.set_hvac_mode", entity_id, hvac_mode=hvac_mode)


@tool()
def lock_lock(db: Database, entity_id: LockId) -> ServiceResult:
    """Lock a lock (lock.lock).

    Args:
        entity_id: The lock.
    """
    return _service(db, "lock.lock", entity_id)


@tool()
def lock_unlock(db: Database, entity_id: LockId, code: LockCode | None = None) -> ServiceResult:
    """Unlock a lock (lock.unlock). A lock whose attributes show a code_format needs its code, which only the person
    knows.

    Args:
        entity_id: The lock.
        code: The lock's code, 4 to 8 digits, where it has a code_format.
    """
    return _service(db, "lock.unlock", entity_id, code=code)


@tool()
def cover_set_position(
    db: Database, entity_id: CoverId, position: Annotated[int, Field(ge=0, le=100)]
) -> ServiceResult:
    """Move a blind, shade or garage door (cover.set_cover_position): 0 is closed, 100 fully open.

    Args:
        entity_id: The cover.
        position: The position in percent open.
    """
    return _service(db, "cover.set_cover_position", entity_id, position=position)


# ---------------------------------------------------------------- automations, scenes, scripts


def _automation(db: Database, entity_id: str) -> tuple[dict, dict]:
    row = services.entity(db, entity_id)
    return row, db.get(automations, row["entity_id"], "Automation")


@tool(read_only=True)
def get_automation(db: Database, entity_id: AutomationId) -> Automation:
    """Get an automation's config (triggers, conditions, actions), whether it is on, and when it last ran.

    Args:
        entity_id: The automation's entity id.
    """
    current_user(db)
    return automation_object(*_automation(db, entity_id))


@tool()
def set_automation_enabled(db: Database, entity_id: AutomationId, enabled: bool) -> Automation:
    """Turn an automation on or off (automation.turn_on / automation.turn_off). Administrators only.

    Args:
        entity_id: The automation's entity id.
        enabled: True turns it on, False off (it then ignores its triggers).
    """
    user = require_admin(db, "turn automations on or off")
    row, config = _automation(db, entity_id)
    state = "on" if enabled else "off"
    services.record(db, row, state, user["id"], None)
    row = db.update(entities, row["entity_id"], state=state, last_changed=db.now_iso())
    return automation_object(row, config)


@tool()
def trigger_automation(db: Database, entity_id: AutomationId, skip_condition: bool = True) -> TriggerResult:
    """Run an automation's actions now (automation.trigger). An automation that is off can't be triggered.

    Args:
        entity_id: The automation's entity id.
        skip_condition: False checks its conditions first and runs nothing when one fails.
    """
    user = current_user(db)
    row, config = _automation(db, entity_id)
    if row["state"] == "off":
        raise Conflict(f"{row['entity_id']} is off; turn it on before triggering it")
    if not skip_condition:
        failed = [c for c in config["conditions"] if not services.condition_holds(db, c)]
        if failed:
            return TriggerResult(
                entity_id=row["entity_id"], ran=False, reason=f"condition failed: {failed[0]}", changed_states=[]
            )
    touched = services.run_actions(db, config["actions"], user["id"], row["entity_id"])
    db.update(entities, row["entity_id"], last_triggered=db.now_iso())
    return TriggerResult(
        entity_id=row["entity_id"],
        ran=True,
        reason=None,
        changed_states=registry.states(db, [services.entity(db, e) for e in dict.fromkeys(touched)]),
    )


@tool()
def run_script(db: Database, entity_id: ScriptId) -> ServiceResult:
    """Run a script's sequence (script.turn_on).

    Args:
        entity_id: The script's entity id.
    """
    user = current_user(db)
    row = services.entity(db, entity_id)
    sequence = db.get(scripts, row["entity_id"], "Script")["sequence"]
    touched = services.run_actions(db, sequence, user["id"], row["entity_id"])
    db.update(entities, row["entity_id"], last_triggered=db.now_iso())
    return ServiceResult(changed_states=registry.states(db, [services.entity(db, e) for e in dict.fromkeys(touched)]))


@tool(read_only=True)
def get_scene(db: Database, entity_id: SceneId) -> Scene:
    """Get the states a scene sets.

    Args:
        entity_id: The scene's entity id.
    """
    current_user(db)
    row = services.entity(db, entity_id)
    return Scene(
        entity_id=row["entity_id"], name=row["name"], entities=db.get(scenes, row["entity_id"], "Scene")["entities"]
    )


@tool()
def create_scene(
    db: Database,
    scene_id: ObjectId,
    snapshot_entities: Annotated[list[EntityId], Unordered, Field(min_length=1)],
    name: text(60) | None = None,
) -> Scene:
    """Create a scene from the current states of some entities (scene.create with snapshot_entities), to apply
    later. A scene made this way may be replaced under the same id; scenes from the configuration can't.

    Args:
        scene_id: The new scene's object id (it becomes scene.<scene_id>).
        snapshot_entities: The lights, switches, thermostats and covers whose current state it keeps.
        name: Its friendly name.
    """
    user = current_user(db)
    entity_id = f"scene.{scene_id}"
    existing = db.find(scenes, entity_id=entity_id)
    if existing and existing[0]["created_by"] is None:
        raise invalid(f"The scene {entity_id} is not created with action 'scene.create'")
    stored = {}
    for target in snapshot_entities:
        row = services.entity(db, target)
        if row["domain"] not in ("light", "switch", "climate", "cover"):
            raise invalid(f"{row['entity_id']} can't be part of a scene")
        if row["state"] == "unavailable":
            raise unavailable(row["entity_id"])
        keep = {k: row["attributes"].get(k) for k in SCENE_ATTRIBUTES.get(row["domain"], ())}
        stored[row["entity_id"]] = {"state": row["state"], **{k: v for k, v in keep.items() if v is not None}}
    label = name or scene_id.replace("_", " ").title()
    if existing:
        db.update(scenes, entity_id, entities=stored, created_by=user["id"])
        db.update(entities, entity_id, name=label, attributes={"entity_id": sorted(stored)})
    else:
        db.insert(
            entities,
            entity_id=entity_id,
            domain="scene",
            name=label,
            state="unknown",
            attributes={"entity_id": sorted(stored)},
            last_changed=db.now_iso(),
        )
        db.insert(scenes, entity_id=entity_id, entities=stored, created_by=user["id"])
    return Scene(entity_id=entity_id, name=label, entities=stored)


@tool()
def activate_scene(db: Database, entity_id: SceneId) -> ServiceResult:
    """Apply a scene (scene.turn_on): every entity in it goes back to the state the scene stored.

    Args:
        entity_id: The scene's entity id.
    """
    user = current_user(db)
    row = services.entity(db, entity_id)
    stored = db.get(scenes, row["entity_id"], "Scene")["entities"]
    for target, values in stored.items():
        services.restore(db, target, values, user["id"], row["entity_id"])
    db.update(entities, row["entity_id"], last_triggered=db.now_iso())
    return ServiceResult(changed_states=registry.states(db, [services.entity(db, e) for e in stored]))


# ---------------------------------------------------------------- logbook


@tool(read_only=True)
def get_logbook(
    db: Database,
    entity_id: EntityId | None = None,
    start_time: IsoTimestamp | None = None,
    end_time: IsoTimestamp | None = None,
    limit: bounded(1, 100) = 50,
) -> Logbook:
    """Read the logbook of state changes, newest first (GET /api/logbook): who or what changed each entity.

    Args:
        entity_id: Only this entity's changes.
        start_time: Only changes at or after this time (ISO 8601, UTC).
        end_time: Only changes before this time.
        limit: The most entries to return, 1 to 100.
    """
    current_user(db)
    where, params = [], []
    for sql, value in (("entity_id = ?", entity_id), ('"when" >= ?', start_time), ('"when" < ?', end_time)):
        if value is not None:
            where.append(sql)
            params.append(value)
    rows = db.select(logbook, " AND ".join(where), params, order_by='"when" DESC, id DESC', limit=limit)
    names = {u["id"]: u["name"] for u in db.find(users)}
    entity_names = registry.names_of(db, {r["entity_id"] for r in rows})
    return Logbook(
        entries=[
            LogbookEntry(
                when=r["when"],
                entity_id=r["entity_id"],
                name=entity_names[r["entity_id"]],
                state=r["state"],
                context_user_name=names.get(r["context_user_id"]),
                context_source=r["context_source"],
            )
            for r in rows
        ]
    )
