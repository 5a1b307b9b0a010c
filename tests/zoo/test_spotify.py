"""The Spotify environment's tools: search, the library, playlist permissions, the 10,000-item cap and snapshot ids,
and the player's Premium, device and queue rules, with every error path leaving the state unchanged. Runs the real
tools on the real seed."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve
from envfactory_gym.state import build_snapshot
from envfactory_zoo.spotify.uris import next_snapshot_id, snapshot_id

from .toolkit import fails, ok, session_fixture

SPEC = resolve("spotify")
CLOCK = datetime(2025, 9, 12, 18, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ME = SEED["accounts"][0]["user_id"]

session = session_fixture(SPEC, CLOCK)


def playlist(name: str) -> str:
    return next(p["id"] for p in SEED["playlists"] if p["name"] == name)


def album(name: str) -> str:
    return next(a["id"] for a in SEED["albums"] if a["name"] == name)


def artist(name: str) -> str:
    return next(a["id"] for a in SEED["artists"] if a["name"] == name)


def track(name: str, album_name: str | None = None) -> str:
    album_id = album(album_name) if album_name else None
    return next(t["id"] for t in SEED["tracks"] if t["name"] == name and album_id in (None, t["album_id"]))


def device(name: str) -> str:
    return next(d["id"] for d in SEED["devices"] if d["name"] == name)


def turi(name: str, album_name: str | None = None) -> str:
    return f"spotify:track:{track(name, album_name)}"


def names(session: ToolSession, playlist_id: str) -> list[str]:
    """Track names of a playlist in order (all pages)."""
    out, offset = [], 0
    while True:
        page = ok(session, "get_playlist", {"playlist_id": playlist_id, "limit": 50, "offset": offset})["items"]
        out += [i["track"]["name"] for i in page["results"]]
        if not page["has_more"]:
            return out
        offset = int(page["next_cursor"])


def snapshot(session: ToolSession, playlist_id: str) -> str:
    return ok(session, "get_playlist", {"playlist_id": playlist_id, "limit": 1})["snapshot_id"]


def variant(session: ToolSession, table: str, key: str, value: Any, **changes: Any) -> None:
    """Restore the seed with the rows of `table` whose `key` equals `value` changed."""
    data = {"tables": copy.deepcopy(SEED)}
    for row in data["tables"][table]:
        if value is None or row[key] == value:
            row.update(changes)
    session.restore_bytes(build_snapshot(SPEC.schema, data), CLOCK)


# ---------------------------------------------------------------- interface, profile, catalog


def test_tools_and_the_device_action_is_user_only(session):
    assert len(SPEC.tools) == 23
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["open_spotify_on_device"]
    assert SPEC.tools["get_available_devices"].input_schema["properties"] == {}
    outcome = session.call("open_spotify_on_device", {"device_name": "Office Echo Dot"})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert session.dump()["devices"][device("Office Echo Dot")]["online"] is False


def test_profile_is_the_signed_in_premium_account(session):
    profile = ok(session, "get_current_user_profile")
    assert (profile["id"], profile["product"], profile["country"]) == (ME, "premium", "GB")
    assert profile["uri"] == f"spotify:user:{ME}"


def test_every_call_needs_the_users_access_token(session):
    data = {"tables": {**copy.deepcopy(SEED), "authorizations": []}}
    session.restore_bytes(build_snapshot(SPEC.schema, data), CLOCK)
    fails(session, "get_current_user_profile", {}, "PermissionDenied", "No token provided")
    fails(session, "create_playlist", {"name": "Mine"}, "PermissionDenied", "No token provided")
    fails(session, "pause_playback", {}, "PermissionDenied", "No token provided")
    fails(session, "get_playlist", {"playlist_id": playlist("Sunday Cooking")}, "PermissionDenied", "No token provided")


def test_the_token_decides_whose_account_it_is(session):
    sam = "31kq7xbz3fnyh2mcw4ewlrdpzvte"
    tables = copy.deepcopy(SEED)
    tables["accounts"].append({"user_id": sam, "email": "sam.okoro@example.com", "country": "GB", "product": "free"})
    tables["authorizations"][0]["user_id"] = sam
    session.restore_bytes(build_snapshot(SPEC.schema, {"tables": tables}), CLOCK)
    profile = ok(session, "get_current_user_profile")
    assert (profile["id"], profile["display_name"], profile["product"]) == (sam, "Sam Okoro", "free")
    fails(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Morning Run"), "name": "Sam's run"},
        "PermissionDenied",
        "don't own",
    )
    disco = playlist("Flat 4 Kitchen Disco")
    ok(session, "add_items_to_playlist", {"playlist_id": disco, "uris": [turi("Dreams")]})
    assert any(r["added_by"] == sam and r["playlist_id"] == disco for r in session.dump()["playlist_items"].values())
    fails(session, "pause_playback", {}, "PermissionDenied", "Premium required")


def test_search_words_filters_and_ranking(session):
    found = ok(session, "search", {"q": 'dreams artist:"fleetwood mac"', "type": ["track"]})["tracks"]["results"]
    assert [(t["name"], t["album"]["name"]) for t in found] == [("Dreams", "Rumours")]
    accents = ok(session, "search", {"q": "como te quiero", "type": ["track"]})["tracks"]["results"]
    assert accents[0]["name"] == "Cómo Te Quiero"
    eighties = ok(session, "search", {"q": "year:1980-1989", "type": ["album"], "limit": 50})["albums"]["results"]
    assert {a["name"] for a in eighties} == {
        "Thriller",
        "Hounds Of Love",
        "Songs From The Big Chair",
        "Toto IV",
        "Hunting High and Low",
        "Legend - The Best Of Bob Marley And The Wailers",
    }
    jazz = ok(session, "search", {"q": "genre:jazz", "type": ["artist"]})["artists"]["results"]
    assert "Miles Davis" in [a["name"] for a in jazz] and "Queen" not in [a["name"] for a in jazz]
    exact = ok(session, "search", {"q": "starburster", "type": ["track"]})["tracks"]["results"]
    assert [(t["name"], t["album"]["name"]) for t in exact] == [
        ("Starburster", "Starburster"),
        ("Starburster", "Romance"),
    ]
    fails(session, "search", {"q": "  ", "type": ["track"]}, "invalid_arguments", "q: No search query")
    fails(session, "search", {"q": "!!", "type": ["track"]}, "InvalidRequest", "No search query")
    fails(session, "search", {"q": "year:80s", "type": ["album"]}, "InvalidRequest", "year:")
    fails(session, "search", {"q": "x", "type": []}, "invalid_arguments", "type must name")
    fails(session, "search", {"q": "x", "type": ["show"]}, "invalid_arguments", "type")


def test_search_pages_and_only_finds_public_playlists(session):
    first = ok(session, "search", {"q": "love", "type": ["track"], "limit": 5})["tracks"]
    assert len(first["results"]) == 5 and first["has_more"] and first["next_cursor"] == "5"
    second = ok(session, "search", {"q": "love", "type": ["track"], "limit": 5, "offset": 5})["tracks"]
    assert not {t["id"] for t in first["results"]} & {t["id"] for t in second["results"]}
    fails(session, "search", {"q": "love", "type": ["track"], "limit": 51}, "invalid_arguments", "limit")
    hits = ok(session, "search", {"q": "road trip", "type": ["playlist"]})["playlists"]["results"]
    assert hits == []  # Jonah's road trip playlist is private (collaborative)
    santa = ok(session, "search", {"q": "secret santa", "type": ["playlist"]})["playlists"]["results"]
    assert santa == []
    top = ok(session, "search", {"q": "top hits", "type": ["playlist"]})["playlists"]["results"]
    assert top[0]["owner"]["id"] == "spotify" and top[0]["name"] == "Today's Top Hits"


def test_album_and_artist_details(session):
    rumours = ok(session, "get_album", {"album_id": album("Rumours")})
    assert rumours["total_tracks"] == 11 == len(rumours["tracks"])
    assert [t["track_number"] for t in rumours["tracks"]] == list(range(1, 12))
    assert rumours["tracks"][1]["name"] == "Dreams" and rumours["label"] == "Rhino/Warner Records"
    folklore = ok(session, "get_album", {"album_id": album("folklore")})
    exile = next(t for t in folklore["tracks"] if t["name"] == "exile")
    assert [a["name"] for a in exile["artists"]] == ["Taylor Swift", "Bon Iver"]
    assert ok(session, "get_artist", {"artist_id": artist("Miles Davis")})["genres"][0] == "jazz"
    fails(session, "get_album", {"album_id": "nope"}, "invalid_arguments", "album_id: Invalid base62 id")
    fails(session, "get_album", {"album_id": "0" * 22}, "NotFound", "Album")


# ---------------------------------------------------------------- library


def test_library_lists_newest_first_in_pages(session):
    seen, offset = [], 0
    while True:
        page = ok(session, "get_library", {"type": "tracks", "limit": 50, "offset": offset})
        seen += page["results"]
        if not page["has_more"]:
            break
        offset = int(page["next_cursor"])
    assert len(seen) == len(SEED["saved_tracks"]) and offset == 100
    added = [i["added_at"] for i in seen]
    assert added == sorted(added, reverse=True) and all(i["track"] for i in seen)
    lists = ok(session, "get_library", {"type": "playlists", "limit": 50})["results"]
    assert len(lists) == 15 and lists[0]["playlist"]["name"] == "Ellie's Hen Do"


def test_save_to_library_is_idempotent_per_item(session):
    new, liked = turi("Manchild"), turi("Dreams")
    result = ok(session, "save_to_library", {"uris": [new, liked, new, f"spotify:artist:{artist('Queen')}"]})
    assert result["saved"] == [new, f"spotify:artist:{artist('Queen')}"] and result["already_in_library"] == [liked]
    state = session.dump()
    assert track("Manchild") in state["saved_tracks"] and artist("Queen") in state["followed_artists"]
    newest = ok(session, "get_library", {"type": "tracks", "limit": 1})["results"][0]["track"]
    assert newest["name"] == "Manchild"
    assert ok(session, "save_to_library", {"uris": [new]})["already_in_library"] == [new]


def test_library_uri_rules(session):
    fails(session, "save_to_library", {"uris": [turi("Dreams")] * 41}, "invalid_arguments", "uris: Give 1 to 40")
    fails(session, "save_to_library", {"uris": []}, "invalid_arguments", "uris: Give 1 to 40")
    fails(
        session,
        "save_to_library",
        {"uris": ["spotify:episode:512ojhOuo1ktJprKbVcKyQ"]},
        "invalid_arguments",
        "spotify:<track|album|artist|playlist>",
    )
    fails(
        session, "save_to_library", {"uris": ["https://open.spotify.com/track/x"]}, "invalid_arguments", "uris.0: Give"
    )
    fails(session, "save_to_library", {"uris": ["spotify:track:0000000000000000000000"]}, "NotFound", "Track")
    fails(
        session,
        "save_to_library",
        {"uris": [f"spotify:playlist:{playlist('Secret Santa ideas')}"]},
        "NotFound",
        "Playlist",
    )


def test_remove_from_library_and_deleting_an_own_playlist(session):
    gym = f"spotify:playlist:{playlist('Old Gym Mix')}"
    result = ok(session, "remove_from_library", {"uris": [gym, turi("Manchild"), f"spotify:artist:{artist('Oasis')}"]})
    assert result["removed"] == [gym]
    assert result["not_in_library"] == [turi("Manchild"), f"spotify:artist:{artist('Oasis')}"]
    state = session.dump()
    assert playlist("Old Gym Mix") not in state["followed_playlists"] and playlist("Old Gym Mix") in state["playlists"]
    ok(session, "remove_from_library", {"uris": [f"spotify:artist:{artist('Radiohead')}"]})
    assert artist("Radiohead") not in session.dump()["followed_artists"]


# ---------------------------------------------------------------- playlists


def test_playlist_visibility_and_pages(session):
    fails(session, "get_playlist", {"playlist_id": playlist("Secret Santa ideas")}, "NotFound", "Playlist")
    road = ok(session, "get_playlist", {"playlist_id": playlist("Road Trip to Cornwall")})
    assert road["collaborative"] and not road["public"] and road["owner"]["id"] == "jonah.brooks"
    first = ok(session, "get_playlist", {"playlist_id": playlist("2024 Faves"), "limit": 50})
    assert first["tracks_total"] == 120 and first["items"]["next_cursor"] == "50"
    assert [i["position"] for i in first["items"]["results"]] == list(range(50))
    last = ok(session, "get_playlist", {"playlist_id": playlist("2024 Faves"), "limit": 50, "offset": 100})
    assert len(last["items"]["results"]) == 20 and not last["items"]["has_more"]


def test_create_playlist_rules(session):
    made = ok(session, "create_playlist", {"name": " Hen Do Car Singalong ", "public": False})
    assert len(made["id"]) == 22 and made["id"].isalnum() and made["name"] == "Hen Do Car Singalong"
    assert (made["owner"]["id"], made["tracks_total"], made["public"]) == (ME, 0, False)
    assert made["id"] in session.dump()["followed_playlists"]
    other = ok(session, "create_playlist", {"name": "Hen Do Car Singalong"})  # names need not be unique
    assert other["id"] != made["id"]
    fails(session, "create_playlist", {"name": "Flat", "collaborative": True}, "InvalidRequest", "can't be public")
    fails(session, "create_playlist", {"name": "   "}, "invalid_arguments", "name: A playlist name must be 1 to 100")
    fails(session, "create_playlist", {"name": "x" * 101}, "invalid_arguments", "1 to 100")
    fails(
        session,
        "create_playlist",
        {"name": "x", "description": "y" * 301},
        "invalid_arguments",
        "description: A playlist description can be at most 300",
    )


def test_only_the_owner_changes_details(session):
    fails(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Today's Top Hits"), "name": "Mine"},
        "PermissionDenied",
        "don't own",
    )
    fails(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Road Trip to Cornwall"), "name": "Mine"},
        "PermissionDenied",
        "don't own",
    )  # a collaborator edits items, not details
    before = snapshot(session, playlist("Dad's 60th"))
    changed = ok(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Dad's 60th"), "name": "Dad's 60th!!", "public": False},
    )
    assert (changed["name"], changed["public"]) == ("Dad's 60th!!", False) and changed["snapshot_id"] != before
    fails(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Dad's 60th")},
        "InvalidRequest",
        "Nothing to change",
    )


def test_collaborative_playlists_are_never_public(session):
    disco = playlist("Flat 4 Kitchen Disco")
    fails(
        session, "change_playlist_details", {"playlist_id": disco, "public": True}, "InvalidRequest", "can't be public"
    )
    fails(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Chill Evenings"), "collaborative": True},
        "InvalidRequest",
        "can't be public",
    )
    opened = ok(session, "change_playlist_details", {"playlist_id": disco, "public": True, "collaborative": False})
    assert (opened["public"], opened["collaborative"]) == (True, False)
    made = ok(
        session,
        "change_playlist_details",
        {"playlist_id": playlist("Chill Evenings"), "public": False, "collaborative": True},
    )
    assert (made["public"], made["collaborative"]) == (False, True)


def test_who_may_add_items(session):
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": playlist("Ellie's Wedding Dance Floor"), "uris": [turi("Dreams")]},
        "PermissionDenied",
        "owner and collaborators",
    )
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": playlist("Today's Top Hits"), "uris": [turi("Dreams")]},
        "PermissionDenied",
        "can't edit",
    )
    road = playlist("Road Trip to Cornwall")
    ok(session, "add_items_to_playlist", {"playlist_id": road, "uris": [turi("Cosmic Love")]})
    items = ok(session, "get_playlist", {"playlist_id": road, "limit": 50})["items"]["results"]
    assert (items[-1]["track"]["name"], items[-1]["added_by"], items[-1]["position"]) == ("Cosmic Love", ME, 24)


def test_add_items_at_a_position_changes_the_snapshot(session):
    run = playlist("Morning Run")
    first = snapshot(session, run)
    result = ok(
        session,
        "add_items_to_playlist",
        {"playlist_id": run, "uris": [turi("Manchild"), turi("Dreams")], "position": 1},
    )
    assert result["snapshot_id"] != first and snapshot(session, run) == result["snapshot_id"]
    order = names(session, run)
    assert order[:4] == ["Blinding Lights", "Manchild", "Dreams", "Levitating"] and len(order) == 28
    again = ok(session, "add_items_to_playlist", {"playlist_id": run, "uris": [turi("Manchild")]})
    assert again["snapshot_id"] != result["snapshot_id"] and names(session, run).count("Manchild") == 2
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": run, "uris": [turi("Dreams")], "position": 30},
        "InvalidRequest",
        "Index out of bounds",
    )


def test_add_items_validation(session):
    run = playlist("Morning Run")
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": run, "uris": [turi("Dreams")] * 101},
        "invalid_arguments",
        "1 to 100",
    )
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": run, "uris": [f"spotify:album:{album('Rumours')}"]},
        "invalid_arguments",
        "uris.0: Give 1 to 100 track URIs",
    )
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": run, "uris": ["spotify:track:0000000000000000000000"]},
        "NotFound",
        "Track",
    )


def test_a_playlist_holds_at_most_10000_items(session):
    made = ok(session, "create_playlist", {"name": "Everything"})["id"]
    pool = [f"spotify:track:{t['id']}" for t in SEED["tracks"][:100]]
    for _ in range(100):
        ok(session, "add_items_to_playlist", {"playlist_id": made, "uris": pool})
    assert ok(session, "get_playlist", {"playlist_id": made, "limit": 1})["tracks_total"] == 10_000
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": made, "uris": pool[:1]},
        "Conflict",
        "Playlist size limit reached",
    )


def test_remove_takes_every_occurrence_and_renumbers(session):
    disco = playlist("Flat 4 Kitchen Disco")
    assert names(session, disco).count("Espresso") == 2
    ok(session, "remove_playlist_items", {"playlist_id": disco, "uris": [turi("Espresso")]})
    order = names(session, disco)
    assert "Espresso" not in order and len(order) == 28
    positions = sorted(i["position"] for i in session.dump()["playlist_items"].values() if i["playlist_id"] == disco)
    assert positions == list(range(28))
    fails(
        session,
        "remove_playlist_items",
        {"playlist_id": disco, "uris": [turi("Espresso")]},
        "InvalidRequest",
        "not in 'Flat 4 Kitchen Disco'",
    )
    fails(
        session,
        "remove_playlist_items",
        {"playlist_id": playlist("All Out 80s"), "uris": [turi("Africa")]},
        "PermissionDenied",
        "can't edit",
    )
    # one missing track refuses the whole request: Gosh stays
    fails(
        session,
        "remove_playlist_items",
        {"playlist_id": disco, "uris": [turi("Gosh"), turi("Dreams", "Rumours"), turi("Bohemian Rhapsody")]},
        "InvalidRequest",
        "Could not remove tracks",
    )
    assert "Gosh" in names(session, disco)


def test_snapshot_ids_count_versions(session):
    run = playlist("Morning Run")
    before = snapshot(session, run)
    after = ok(session, "add_items_to_playlist", {"playlist_id": run, "uris": [turi("Dreams")]})["snapshot_id"]
    assert after == next_snapshot_id(run, before) != before
    assert next_snapshot_id(run, snapshot_id(run, 41)) == snapshot_id(run, 42)
    made = ok(session, "create_playlist", {"name": "Fresh"})
    assert made["snapshot_id"] == snapshot_id(made["id"], 1)


def test_a_stale_snapshot_is_refused(session):
    chill = playlist("Chill Evenings")
    old = snapshot(session, chill)
    ok(session, "remove_playlist_items", {"playlist_id": chill, "uris": [turi("Nude")], "snapshot_id": old})
    fails(
        session,
        "remove_playlist_items",
        {"playlist_id": chill, "uris": [turi("Reckoner")], "snapshot_id": old},
        "Conflict",
        "has changed since",
    )
    fails(
        session,
        "reorder_playlist_items",
        {"playlist_id": chill, "range_start": 0, "insert_before": 3, "snapshot_id": old},
        "Conflict",
        "has changed since",
    )


def test_reorder_moves_a_range(session):
    chill = playlist("Chill Evenings")
    before = names(session, chill)
    result = ok(
        session,
        "reorder_playlist_items",
        {"playlist_id": chill, "range_start": 5, "range_length": 2, "insert_before": 0},
    )
    assert names(session, chill) == before[5:7] + before[:5] + before[7:]
    ok(session, "reorder_playlist_items", {"playlist_id": chill, "range_start": 0, "insert_before": 18})
    assert names(session, chill)[-1] == before[5]
    same = ok(session, "reorder_playlist_items", {"playlist_id": chill, "range_start": 3, "insert_before": 4})
    assert same["snapshot_id"] == snapshot(session, chill) != result["snapshot_id"]
    fails(
        session,
        "reorder_playlist_items",
        {"playlist_id": chill, "range_start": 17, "range_length": 2, "insert_before": 0},
        "InvalidRequest",
        "Index out of bounds",
    )


def test_positions_and_lengths_are_bounded_in_their_types(session):
    chill = playlist("Chill Evenings")
    for args, name in [
        ({"range_start": -1, "insert_before": 0}, "range_start"),
        ({"range_start": 0, "insert_before": -1}, "insert_before"),
        ({"range_start": 0, "insert_before": 3, "range_length": 0}, "range_length"),
    ]:
        fails(session, "reorder_playlist_items", {"playlist_id": chill, **args}, "invalid_arguments", f"{name}:")
    fails(
        session,
        "add_items_to_playlist",
        {"playlist_id": chill, "uris": [turi("Dreams")], "position": -1},
        "invalid_arguments",
        "position:",
    )
    fails(session, "get_playlist", {"playlist_id": chill, "offset": 1001}, "invalid_arguments", "offset:")
    fails(session, "get_playlist", {"playlist_id": chill, "limit": 0}, "invalid_arguments", "limit:")
    schema = SPEC.tools["reorder_playlist_items"].input_schema["properties"]
    assert schema["range_length"]["minimum"] == 1 and schema["range_start"]["minimum"] == 0
    assert SPEC.tools["get_playlist"].input_schema["properties"]["limit"]["maximum"] == 50


def test_renaming_trims_and_changes_only_what_is_given(session):
    cooking = playlist("Sunday Cooking")
    changed = ok(session, "change_playlist_details", {"playlist_id": cooking, "name": "  Sunday Lunch  "})
    row = session.dump()["playlists"][cooking]
    assert changed["name"] == row["name"] == "Sunday Lunch"
    assert (row["description"], row["public"], row["collaborative"]) == ("", False, False)
    fails(
        session,
        "change_playlist_details",
        {"playlist_id": cooking, "description": "z" * 301},
        "invalid_arguments",
        "description: A playlist description can be at most 300",
    )


# ---------------------------------------------------------------- history and top items


def test_recently_played_pages_by_time(session):
    first = ok(session, "get_recently_played", {"limit": 10})
    assert len(first["items"]) == 10 and first["has_more"]
    older = ok(session, "get_recently_played", {"limit": 50, "before": first["before"]})
    assert len(older["items"]) == len(SEED["recently_played"]) - 10 and older["before"] is None
    assert older["items"][0]["played_at"] < first["items"][-1]["played_at"]
    assert first["items"][0]["context"]["type"] == "playlist"
    fails(
        session,
        "get_recently_played",
        {"before": "yesterday"},
        "invalid_arguments",
        "before: before must be a UTC timestamp",
    )
    fails(session, "get_recently_played", {"before": "2025-09-12T08:00:00"}, "InvalidRequest", "time zone")
    zoned = ok(session, "get_recently_played", {"limit": 50, "before": "2025-09-12T07:00:00+02:00"})
    assert zoned == ok(session, "get_recently_played", {"limit": 50, "before": "2025-09-12T05:00:00Z"})
    assert zoned["items"][0]["played_at"] < "2025-09-12T05:00:00Z" <= first["items"][0]["played_at"]
    fails(session, "get_recently_played", {"limit": 0}, "invalid_arguments", "limit")


def test_top_items_by_time_range(session):
    short = ok(session, "get_top_items", {"type": "tracks", "time_range": "short_term", "limit": 3})
    assert [i["track"]["name"] for i in short["results"]] == ["Manchild", "The Subway", "Starburster"]
    assert short["next_cursor"] == "3"
    long = ok(session, "get_top_items", {"type": "artists", "time_range": "long_term"})["results"]
    assert (long[0]["rank"], long[0]["artist"]["name"]) == (1, "Fleetwood Mac")


# ---------------------------------------------------------------- player


def test_devices_show_up_only_when_spotify_is_open(session):
    listed = [d["name"] for d in ok(session, "get_available_devices")]
    assert "Office Echo Dot" not in listed and len(listed) == 4
    echo = device("Office Echo Dot")
    fails(session, "start_resume_playback", {"device_id": echo}, "NotFound", "not available")
    ok(session, "open_spotify_on_device", {"device_name": "office echo dot"}, caller="user")
    state = ok(session, "start_resume_playback", {"device_id": echo})
    assert state["device"]["name"] == "Office Echo Dot" and state["is_playing"]
    assert state["item"]["name"] == "Feeling Good" and state["progress_ms"] == 81_234
    fails(session, "open_spotify_on_device", {"device_name": "Car"}, "NotFound", "No device", caller="user")


def test_restricted_devices_refuse_commands(session):
    fails(
        session,
        "start_resume_playback",
        {"device_id": device("Living Room TV")},
        "PermissionDenied",
        "Restriction violated",
    )


def test_player_needs_premium(session):
    variant(session, "accounts", "user_id", ME, product="free")
    for name, args in (
        ("start_resume_playback", {}),
        ("pause_playback", {}),
        ("skip_to_next", {}),
        ("add_item_to_queue", {"uri": turi("Dreams")}),
    ):
        fails(session, name, args, "PermissionDenied", "Premium required")
    assert ok(session, "get_playback_state")["item"]["name"] == "Feeling Good"  # reading is fine


def test_commands_need_an_active_device(session):
    variant(session, "devices", "id", None, is_active=False)
    assert ok(session, "get_playback_state")["device"] is None
    fails(session, "start_resume_playback", {}, "NotFound", "No active device found")
    fails(session, "add_item_to_queue", {"uri": turi("Dreams")}, "NotFound", "No active device found")
    assert ok(session, "start_resume_playback", {"device_id": device("Kitchen")})["device"]["is_active"]


def test_resume_and_pause_transitions(session):
    playing = ok(session, "start_resume_playback", {})
    assert playing["is_playing"] and playing["device"]["name"] == "Maya's iPhone"
    fails(session, "start_resume_playback", {}, "Conflict", "already playing")
    assert ok(session, "pause_playback")["is_playing"] is False
    fails(session, "pause_playback", {}, "Conflict", "already paused")
    fails(session, "pause_playback", {"device_id": device("Kitchen")}, "Conflict", "nothing is loaded on Kitchen")


def test_moving_playback_to_another_device(session):
    moved = ok(session, "start_resume_playback", {"device_id": device("Kitchen")})
    assert (moved["device"]["name"], moved["item"]["name"], moved["progress_ms"]) == ("Kitchen", "Feeling Good", 81_234)
    active = [d["name"] for d in ok(session, "get_available_devices") if d["is_active"]]
    assert active == ["Kitchen"]


def test_playing_a_context_from_an_offset(session):
    rumours = f"spotify:album:{album('Rumours')}"
    state = ok(session, "start_resume_playback", {"context_uri": rumours, "offset": turi("The Chain")})
    assert (state["item"]["name"], state["context"]["uri"], state["progress_ms"]) == ("The Chain", rumours, 0)
    queue = ok(session, "get_queue")["queue"]
    assert [t["name"] for t in queue][:3] == ["Come Away With Me", "Maria También", "You Make Loving Fun"]
    artist_ctx = ok(session, "start_resume_playback", {"context_uri": f"spotify:artist:{artist('Queen')}"})
    assert artist_ctx["context"]["type"] == "artist" and artist_ctx["item"]["artists"][0]["name"] == "Queen"
    queen = sorted(
        (t for t in SEED["tracks"] if t["artist_ids"][0] == artist("Queen")), key=lambda t: (-t["popularity"], t["id"])
    )
    assert session.dump()["playback"]["player"]["track_ids"] == [t["id"] for t in queen[:10]]
    fails(session, "start_resume_playback", {"context_uri": rumours, "offset": 11}, "InvalidRequest", "out of range")
    fails(
        session,
        "start_resume_playback",
        {"context_uri": turi("Dreams")},
        "invalid_arguments",
        "context_uri: Invalid URI",
    )
    fails(
        session,
        "start_resume_playback",
        {"context_uri": rumours, "uris": [turi("Dreams")]},
        "InvalidRequest",
        "not both",
    )
    fails(
        session,
        "start_resume_playback",
        {"uris": [turi("So What")], "position_ms": 600_000},
        "InvalidRequest",
        "position_ms",
    )


def test_skip_plays_the_queue_first_then_the_context(session):
    assert ok(session, "skip_to_next")["item"]["name"] == "Come Away With Me"
    assert len(session.dump()["queue_items"]) == 1
    assert ok(session, "skip_to_next")["item"]["name"] == "Maria También"
    after = ok(session, "skip_to_next")
    assert after["item"]["name"] == names(session, playlist("Sunday Cooking"))[6] and after["is_playing"]
    ok(session, "start_resume_playback", {"uris": [turi("Dreams"), turi("The Chain")], "offset": 1})
    assert ok(session, "get_playback_state")["context"] is None and ok(session, "get_queue")["queue"] == []
    fails(session, "skip_to_next", {}, "Conflict", "no next track")
    ok(session, "start_resume_playback", {"uris": [turi("Dreams"), turi("The Chain")]})
    assert ok(session, "skip_to_next")["item"]["name"] == "The Chain"


def test_device_ids_are_checked_in_their_type(session):
    fails(session, "pause_playback", {"device_id": "Kitchen"}, "invalid_arguments", "device_id: Device not found")
    fails(session, "start_resume_playback", {"offset": -1}, "invalid_arguments", "offset")
    fails(session, "start_resume_playback", {"position_ms": -1}, "invalid_arguments", "position_ms")
    fails(session, "start_resume_playback", {"uris": []}, "invalid_arguments", "uris: Give 1 to 100")


def test_add_to_queue_appends(session):
    queue = ok(session, "add_item_to_queue", {"uri": turi("Dreams")})["queue"]
    assert [t["name"] for t in queue][:3] == ["Come Away With Me", "Maria También", "Dreams"]
    fails(
        session,
        "add_item_to_queue",
        {"uri": f"spotify:album:{album('Rumours')}"},
        "invalid_arguments",
        "uri: Invalid URI: expected a track URI",
    )
    fails(
        session,
        "add_item_to_queue",
        {"uri": turi("Dreams"), "device_id": device("Living Room TV")},
        "PermissionDenied",
        "Restriction violated",
    )
