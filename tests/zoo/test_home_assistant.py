"""The Home Assistant environment's tools on the real seed: sign-in and who may do what (administrators alone change
the registries and turn automations on and off), light.turn_on's brightness_pct and colour temperature range,
climate setpoints within min_temp/max_temp and hvac_modes, lock codes, covers, unavailable entities, automations
(off ones can't be triggered, conditions checked on request, a failing action undoes the whole run), scenes
(stored ones can't be replaced, snapshot and apply), scripts and the logbook. Every error path is checked to leave
the state unchanged."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("home_assistant")
CLOCK = datetime(2026, 3, 14, 18, 30, tzinfo=timezone.utc)

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, username: str = "dana") -> dict:
    return ok(session, "sign_in", {"username": username}, caller="user")


def state(session: ToolSession, entity_id: str) -> dict:
    return ok(session, "get_state", {"entity_id": entity_id})


def test_every_tool_needs_a_signed_in_user(session):
    fails(session, "get_state", {"entity_id": "light.hallway"}, "PermissionDenied", "401: Unauthorized")
    fails(session, "sign_in", {"username": "nobody"}, "NotFound", "Invalid username", caller="user")
    fails(session, "sign_in", {"username": "sam.housesitter"}, "PermissionDenied", "deactivated", caller="user")
    assert sign_in(session, "maya")["is_admin"] is False


def test_sign_in_is_for_the_person_only(session):
    outcome = session.call("sign_in", {"username": "dana"}, caller="agent")
    assert not outcome.ok


def test_light_brightness_percent_and_colour_temperature(session):
    sign_in(session)
    out = ok(
        session,
        "light_turn_on",
        {"entity_id": "light.kitchen_island", "brightness_pct": 40, "color_temp_kelvin": 3000},
    )
    light = out["changed_states"][0]
    assert light["state"] == "on"
    assert light["attributes"]["brightness"] == 102 and light["attributes"]["brightness_pct"] == 40
    assert light["attributes"]["color_temp_kelvin"] == 3000
    fails(
        session,
        "light_turn_on",
        {"entity_id": "light.kitchen_island", "color_temp_kelvin": 9000},
        "InvalidRequest",
        "outside the range of light.kitchen_island (2200 to 6500 K)",
    )
    fails(
        session,
        "light_turn_on",
        {"entity_id": "light.kitchen_cabinet", "color_temp_kelvin": 3000},
        "InvalidRequest",
        "does not support color temperature",
    )
    fails(
        session,
        "light_turn_on",
        {"entity_id": "light.hallway", "brightness_pct": 101},
        "invalid_arguments",
        "less than or equal to 100",
    )


def test_brightness_zero_turns_off_and_turn_on_restores_the_last_brightness(session):
    sign_in(session)
    ok(session, "light_turn_on", {"entity_id": "light.hallway", "brightness_pct": 0})
    assert state(session, "light.hallway")["state"] == "off"
    ok(session, "light_turn_on", {"entity_id": "light.hallway"})
    assert state(session, "light.hallway")["attributes"]["brightness_pct"] == 30
    ok(session, "light_turn_on", {"entity_id": "light.kitchen_ceiling"})
    assert state(session, "light.kitchen_ceiling")["attributes"]["brightness_pct"] == 80


def test_thermostat_range_step_and_modes(session):
    sign_in(session, "ruth")
    fails(
        session,
        "climate_set_temperature",
        {"entity_id": "climate.upstairs_thermostat", "temperature": 31},
        "InvalidRequest",
        "Provided temperature 31.0 is not valid. Accepted range is 9 to 30.",
    )
    fails(
        session,
        "climate_set_temperature",
        {"entity_id": "climate.basement_mini_split", "temperature": 20.5},
        "InvalidRequest",
        "multiple of 1.0",
    )
    fails(
        session,
        "climate_set_hvac_mode",
        {"entity_id": "climate.upstairs_thermostat", "hvac_mode": "heat_cool"},
        "InvalidRequest",
        "Valid HVAC modes are: off, heat, cool",
    )
    fails(
        session,
        "climate_set_temperature",
        {"entity_id": "climate.upstairs_thermostat", "temperature": 21, "hvac_mode": "dry"},
        "InvalidRequest",
        "HVAC mode dry is not valid",
    )
    ok(
        session,
        "climate_set_temperature",
        {"entity_id": "climate.basement_mini_split", "temperature": 22, "hvac_mode": "heat"},
    )
    split = state(session, "climate.basement_mini_split")
    assert split["state"] == "heat" and split["attributes"]["temperature"] == 22.0


def test_locks_with_a_code_need_the_right_code(session):
    sign_in(session, "ruth")
    fails(session, "lock_unlock", {"entity_id": "lock.front_door"}, "InvalidRequest", "Code is required")
    fails(session, "lock_unlock", {"entity_id": "lock.front_door", "code": "1111"}, "InvalidRequest", "Invalid code")
    ok(session, "lock_unlock", {"entity_id": "lock.front_door", "code": "4821"})
    assert state(session, "lock.front_door")["state"] == "unlocked"
    ok(session, "lock_unlock", {"entity_id": "lock.back_door"})
    assert state(session, "lock.back_door")["state"] == "unlocked"
    assert "lock_code" not in state(session, "lock.front_door")["attributes"]


def test_unavailable_entities_refuse_service_calls(session):
    sign_in(session)
    fails(session, "light_turn_on", {"entity_id": "light.guest_room_ceiling"}, "Conflict", "is unavailable")
    fails(session, "switch_turn_on", {"entity_id": "switch.garage_freezer"}, "Conflict", "is unavailable")
    fails(session, "lock_lock", {"entity_id": "lock.shed"}, "Conflict", "is unavailable")
    listed = ok(session, "list_states", {"state": "unavailable"})["states"]
    assert {s["entity_id"] for s in listed} >= {"light.guest_room_ceiling", "switch.garage_freezer", "lock.shed"}


def test_unknown_entities_and_wrong_domains(session):
    sign_in(session)
    fails(session, "get_state", {"entity_id": "light.attic"}, "NotFound", "Entity not found: light.attic")
    fails(session, "get_automation", {"entity_id": "automation.nope"}, "NotFound", "Entity not found")
    fails(session, "list_states", {"area_id": "attic"}, "NotFound", "Area not found: attic")


def test_covers_take_a_position(session):
    sign_in(session)
    ok(session, "cover_set_position", {"entity_id": "cover.garage_door", "position": 100})
    assert state(session, "cover.garage_door")["state"] == "open"
    ok(session, "cover_set_position", {"entity_id": "cover.office_shades", "position": 0})
    shades = state(session, "cover.office_shades")
    assert shades["state"] == "closed" and shades["attributes"]["current_position"] == 0


def test_only_administrators_change_the_registry_and_automations(session):
    sign_in(session, "maya")
    fails(
        session,
        "update_entity_registry",
        {"entity_id": "light.maya_desk_lamp", "name": "Lamp"},
        "PermissionDenied",
        "Unauthorized",
    )
    fails(
        session,
        "set_automation_enabled",
        {"entity_id": "automation.maya_bedtime", "enabled": False},
        "PermissionDenied",
        "only administrators",
    )
    ok(session, "light_turn_on", {"entity_id": "light.maya_desk_lamp", "brightness_pct": 100})
    sign_in(session, "chris")
    entry = ok(
        session,
        "update_entity_registry",
        {"entity_id": "light.living_room_reading_lamp", "name": "Office Reading Lamp", "area_id": "office"},
    )
    assert entry["area_id"] == "office"
    office = ok(session, "list_states", {"area_id": "office", "domain": "light"})["states"]
    assert "light.living_room_reading_lamp" in {s["entity_id"] for s in office}
    fails(
        session,
        "update_entity_registry",
        {"entity_id": "light.hallway", "area_id": "attic"},
        "NotFound",
        "Area not found",
    )
    fails(session, "update_entity_registry", {"entity_id": "light.hallway"}, "InvalidRequest", "Give a new name")


def test_entities_inherit_their_device_area(session):
    sign_in(session)
    garage = ok(session, "list_states", {"area_id": "garage"})["states"]
    assert {"lock.garage_side_door", "cover.garage_door", "switch.garage_freezer"} <= {s["entity_id"] for s in garage}
    devices = ok(session, "list_devices", {"area_id": "garage"})["devices"]
    assert all(d["area_id"] == "garage" for d in devices) and devices


def test_off_automations_cannot_be_triggered_until_turned_on(session):
    sign_in(session, "dana")
    fails(session, "trigger_automation", {"entity_id": "automation.vacation_lights"}, "Conflict", "is off")
    ok(session, "set_automation_enabled", {"entity_id": "automation.vacation_lights", "enabled": True})
    result = ok(session, "trigger_automation", {"entity_id": "automation.vacation_lights"})
    assert result["ran"] is True
    assert state(session, "light.living_room_floor_lamp")["attributes"]["brightness_pct"] == 60
    assert state(session, "cover.living_room_blinds")["state"] == "closed"
    assert state(session, "automation.vacation_lights")["attributes"]["last_triggered"] is not None


def test_trigger_checks_conditions_only_when_asked(session):
    sign_in(session)
    held = ok(session, "trigger_automation", {"entity_id": "automation.office_heater_safety", "skip_condition": False})
    assert held["ran"] is False and "condition failed" in held["reason"]
    assert state(session, "switch.office_space_heater")["state"] == "on"
    forced = ok(session, "trigger_automation", {"entity_id": "automation.office_heater_safety"})
    assert forced["ran"] is True
    assert state(session, "switch.office_space_heater")["state"] == "off"


def test_a_failing_action_undoes_the_whole_script(session):
    sign_in(session)
    fails(session, "run_script", {"entity_id": "script.prepare_guest_room"}, "Conflict", "guest_room_ceiling")
    fails(session, "trigger_automation", {"entity_id": "automation.freezer_power_guard"}, "Conflict", "unavailable")
    ok(session, "run_script", {"entity_id": "script.leaving_home"})
    assert state(session, "lock.garage_side_door")["state"] == "locked"
    assert state(session, "climate.downstairs_thermostat")["attributes"]["temperature"] == 17.0


def test_scenes_snapshot_and_apply(session):
    sign_in(session, "maya")
    scene = ok(
        session,
        "create_scene",
        {"scene_id": "homework", "snapshot_entities": ["light.maya_desk_lamp", "cover.maya_bedroom_blinds"]},
    )
    assert scene["entities"]["light.maya_desk_lamp"] == {"state": "on", "brightness": 191, "color_temp_kelvin": 4000}
    ok(session, "light_turn_off", {"entity_id": "light.maya_desk_lamp"})
    ok(session, "cover_set_position", {"entity_id": "cover.maya_bedroom_blinds", "position": 0})
    ok(session, "activate_scene", {"entity_id": "scene.homework"})
    assert state(session, "light.maya_desk_lamp")["attributes"]["brightness_pct"] == 75
    assert state(session, "cover.maya_bedroom_blinds")["state"] == "open"
    assert state(session, "scene.homework")["state"] != "unknown"
    fails(
        session,
        "create_scene",
        {"scene_id": "movie_night", "snapshot_entities": ["light.hallway"]},
        "InvalidRequest",
        "not created with action 'scene.create'",
    )
    fails(
        session,
        "create_scene",
        {"scene_id": "doors", "snapshot_entities": ["lock.front_door"]},
        "InvalidRequest",
        "can't be part of a scene",
    )
    fails(
        session,
        "create_scene",
        {"scene_id": "guest", "snapshot_entities": ["light.guest_room_ceiling"]},
        "Conflict",
        "unavailable",
    )


def test_applying_a_scene_with_an_offline_light_changes_nothing(session):
    sign_in(session)
    fails(session, "activate_scene", {"entity_id": "scene.guest_welcome"}, "Conflict", "unavailable")


def test_the_logbook_records_who_changed_what(session):
    sign_in(session, "chris")
    before = ok(session, "get_logbook", {"entity_id": "lock.garage_side_door", "limit": 1})["entries"][0]
    assert before["context_user_name"] == "Maya Whitfield" and before["state"] == "unlocked"
    ok(session, "lock_lock", {"entity_id": "lock.garage_side_door"})
    ok(session, "run_script", {"entity_id": "script.water_garden"})
    latest = ok(session, "get_logbook", {"limit": 2})["entries"]
    assert [(e["entity_id"], e["context_user_name"], e["context_source"]) for e in latest] == [
        ("switch.garden_irrigation", "Chris Whitfield", "script.water_garden"),
        ("lock.garage_side_door", "Chris Whitfield", None),
    ]
    ok(session, "lock_lock", {"entity_id": "lock.garage_side_door"})  # no change: no new entry
    assert ok(session, "get_logbook", {"limit": 1})["entries"][0]["entity_id"] == "switch.garden_irrigation"
    window = ok(
        session,
        "get_logbook",
        {"start_time": "2026-03-14T15:00:00Z", "end_time": "2026-03-14T16:00:00Z", "limit": 100},
    )["entries"]
    assert window and all("2026-03-14T15" <= e["when"] < "2026-03-14T16" for e in window)


def test_turning_an_automation_off_is_logged_and_stops_triggers(session):
    sign_in(session, "chris")
    result = ok(session, "set_automation_enabled", {"entity_id": "automation.morning_coffee", "enabled": False})
    assert result["state"] == "off" and result["actions"][0]["action"] == "switch.turn_on"
    entry = ok(session, "get_logbook", {"entity_id": "automation.morning_coffee", "limit": 1})["entries"][0]
    assert (entry["state"], entry["context_user_name"]) == ("off", "Chris Whitfield")
    fails(session, "trigger_automation", {"entity_id": "automation.morning_coffee"}, "Conflict", "is off")
    assert state(session, "switch.coffee_maker")["state"] == "off"


def test_setpoints_follow_the_thermostat_step(session):
    sign_in(session, "maya")
    ok(session, "climate_set_temperature", {"entity_id": "climate.upstairs_thermostat", "temperature": 21.5})
    assert state(session, "climate.upstairs_thermostat")["attributes"]["temperature"] == 21.5
    fails(
        session,
        "climate_set_temperature",
        {"entity_id": "climate.upstairs_thermostat", "temperature": 21.3},
        "InvalidRequest",
        "multiple of 0.5",
    )


def test_registries_list_floors_in_level_order_and_devices_with_their_entities(session):
    sign_in(session, "ruth")
    registry = ok(session, "list_areas")
    assert [f["floor_id"] for f in registry["floors"]] == ["basement", "ground_floor", "upstairs"]
    assert {a["area_id"]: a["floor_id"] for a in registry["areas"]}["guest_room"] == "upstairs"
    devices = ok(session, "list_devices", {"area_id": "office"})["devices"]
    heater = next(d for d in devices if d["name"] == "Office Space Heater")
    assert set(heater["entities"]) == {"switch.office_space_heater", "sensor.office_space_heater_power"}
    fails(session, "list_devices", {"area_id": "attic"}, "NotFound", "Area not found: attic")
