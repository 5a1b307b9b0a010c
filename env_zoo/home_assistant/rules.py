"""What Home Assistant's services do to an entity's state and attributes, and the values they accept: light
brightness in percent mapped to 0-255, colour temperature within the light's range, thermostat setpoints within
min_temp and max_temp in the thermostat's step, hvac_mode among its hvac_modes, lock codes, cover positions."""

from __future__ import annotations

from typing import Any

from .errors import invalid

#: the entity domains a person controls directly, and the services each offers
CONTROLLABLE = ("light", "switch", "climate", "lock", "cover")

#: attributes a scene stores per domain (besides the state)
SCENE_ATTRIBUTES = {
    "light": ("brightness", "color_temp_kelvin"),
    "climate": ("temperature",),
    "cover": ("current_position",),
}


def brightness(pct: int) -> int:
    """brightness_pct (0-100) as Home Assistant's 0-255 brightness."""
    return round(pct * 255 / 100)


def brightness_pct(value: int | None) -> int | None:
    """0-255 brightness as the percent a person reads."""
    return None if value is None else round(value * 100 / 255)


def light_on(entity: dict[str, Any], pct: int | None, kelvin: int | None) -> tuple[str, dict[str, Any]]:
    """The state and attributes light.turn_on leaves; brightness_pct 0 turns the light off."""
    attrs = dict(entity["attributes"])
    if kelvin is not None:
        low, high = attrs.get("min_color_temp_kelvin"), attrs.get("max_color_temp_kelvin")
        if low is None:
            raise invalid(f"{entity['entity_id']} does not support color temperature")
        if not low <= kelvin <= high:
            raise invalid(
                f"color_temp_kelvin {kelvin} is outside the range of {entity['entity_id']} ({low} to {high} K)"
            )
    if pct == 0:
        return light_off(entity)
    attrs["brightness"] = (
        brightness(pct) if pct is not None else attrs.get("brightness") or attrs.get("last_brightness") or 255
    )
    if kelvin is not None:
        attrs["color_temp_kelvin"] = kelvin
    attrs.pop("last_brightness", None)
    return "on", attrs


def light_off(entity: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The state and attributes light.turn_off leaves (the brightness is remembered for the next turn_on)."""
    attrs = dict(entity["attributes"])
    if attrs.get("brightness") is not None:
        attrs["last_brightness"] = attrs["brightness"]
    attrs["brightness"] = None
    return "off", attrs


def setpoint(entity: dict[str, Any], temperature: float) -> float:
    """A thermostat setpoint checked against min_temp, max_temp and target_temp_step."""
    attrs = entity["attributes"]
    low, high, step = attrs["min_temp"], attrs["max_temp"], attrs.get("target_temp_step", 0.5)
    if not low <= temperature <= high:
        raise invalid(f"Provided temperature {temperature} is not valid. Accepted range is {low} to {high}.")
    if abs(round(temperature / step) * step - temperature) > 1e-9:
        raise invalid(f"Provided temperature {temperature} is not valid. It must be a multiple of {step}.")
    return float(temperature)


def hvac_mode(entity: dict[str, Any], mode: str) -> str:
    """An hvac_mode the thermostat supports."""
    modes = entity["attributes"]["hvac_modes"]
    if mode not in modes:
        raise invalid(f"HVAC mode {mode} is not valid. Valid HVAC modes are: {', '.join(modes)}")
    return mode


def check_code(entity: dict[str, Any], code: str | None) -> None:
    """Unlocking a lock that has a code_format needs its code."""
    if entity["lock_code"] is None:
        return
    if code is None:
        raise invalid(f"Code is required for {entity['entity_id']}. Ask the person for the lock code.")
    if code != entity["lock_code"]:
        raise invalid(f"Invalid code for {entity['entity_id']}")


def cover_position(position: int) -> tuple[str, dict[str, Any]]:
    """The state a cover shows at a position (0 closed, 100 fully open)."""
    return ("closed" if position == 0 else "open"), {"current_position": position}
