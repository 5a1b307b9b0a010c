"""Emoji names the workspace knows: Slack's standard set (the part this workspace uses), its aliases, and the
workspace's custom emoji and their aliases."""

from __future__ import annotations

from envfactory_gym import Database, InvalidRequest

from .schema import custom_emoji

#: Standard aliases Slack stores under their canonical name.
ALIASES = {"thumbsup": "+1", "thumbsdown": "-1", "simple_smile": "slightly_smiling_face", "party_popper": "tada"}
STANDARD = frozenset(
    """
+1 -1 100 airplane alarm_clock arrow_down arrow_up art baby ballot_box_with_check beers bell bike birthday books
boom bug bulb bus cake calendar car cat champagne chart_with_upwards_trend clap cloud coffee computer construction
dog dollar exclamation eyes face_with_thermometer fire gear gift hammer_and_wrench handshake headphones heart
heavy_check_mark heavy_multiplication_x heavy_plus_sign herb hourglass hourglass_flowing_sand house
house_with_garden joy key large_blue_circle large_green_circle large_yellow_circle laughing link lock mag mag_right
medal mega memo microscope moneybag muscle no_entry no_entry_sign ok_hand package paintbrush palm_tree pencil
pencil2 pill pizza point_right point_up pray pushpin question raised_hands red_circle rocket rotating_light
round_pushpin runner running seedling sleeping slightly_smiling_face smile snowflake sob sparkles speech_balloon
spiral_calendar_pad star stethoscope sunny sweat_smile tada test_tube thermometer thinking_face thought_balloon
train trophy umbrella warning wave white_check_mark white_circle wrench writing_hand x zap zzz
""".split()
)


def emoji_name(db: Database, name: str) -> str:
    """The canonical name (no colons) of a standard or custom emoji or one of their aliases; invalid_name else."""
    clean = ALIASES.get(name.strip(":"), name.strip(":"))
    if clean in STANDARD:
        return clean
    found = db.find(custom_emoji, name=clean)
    if not found:
        raise InvalidRequest(f"invalid_name: :{clean}: is not an emoji in this workspace.")
    return found[0]["alias_for"] or clean
