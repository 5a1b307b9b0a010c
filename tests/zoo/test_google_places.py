"""The GooglePlaces environment's tools: text and nearby search, place details with opening hours and special
days, the route matrix across the Tagus, saved lists with owners, editors and viewers, sharing and following,
labels, visits and reviews. Runs the real tools on the real seed; every error path leaves the state unchanged."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("google_places")
CLOCK = datetime(2025, 6, 12, 16, 0, tzinfo=timezone.utc)  # Thursday 17:00 in Lisbon, eve of Santo António
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def place(name: str) -> str:
    return next(p["id"] for p in SEED["places"] if p["display_name"] == name)


def row(name: str) -> dict:
    return next(p for p in SEED["places"] if p["display_name"] == name)


def user(email: str) -> str:
    return next(u["id"] for u in SEED["users"] if u["email"] == email)


def saved_list(email: str, name: str) -> str:
    owner = user(email)
    return next(r["id"] for r in SEED["saved_lists"] if r["owner_id"] == owner and r["name"] == name)


INES, MARCO, CHLOE = "ines.carvalho@gmail.com", "marco.rossi.lx@gmail.com", "chloe.martin.erasmus@gmail.com"
ANA, TOM, PRIYA = "ana.sousa.eats@gmail.com", "tom.whitaker@gmail.com", "priya.shah.travels@gmail.com"
HELENA = "helena.costa@sapo.pt"
JANTARES = saved_list(INES, "Jantares da malta")
NATA = saved_list(ANA, "Os melhores pastéis de nata")


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


def at(session: ToolSession, clock: str) -> None:
    session.reset("seed", datetime.fromisoformat(clock.replace("Z", "+00:00")))


def details(session: ToolSession, name: str) -> dict:
    return ok(session, "get_place", {"place_id": place(name)})


def lists_of(session: ToolSession) -> dict[str, dict]:
    return {entry["name"]: entry for entry in ok(session, "list_saved_lists")["lists"]}


def items(session: ToolSession, list_id: str) -> dict[str, dict]:
    page = ok(session, "get_saved_list", {"list_id": list_id, "page_size": 50})
    return {entry["display_name"]: entry for entry in page["places"]}


# ---------------------------------------------------------------- interface and sign-in


def test_tools_and_the_user_only_ones(session):
    assert len(SPEC.tools) == 23
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in", "check_in"]
    assert SPEC.tools["list_saved_lists"].input_schema["properties"] == {}
    outcome = session.call("check_in", {"place_id": place("Manteigaria")})
    assert not outcome.ok and outcome.error_kind == "user_only"
    outcome = session.call("sign_in", {"email": INES})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_saved_places_need_a_signed_in_account_but_search_does_not(session):
    fails(session, "list_saved_lists", {}, "PermissionDenied", "Sign in to Google Maps")
    fails(session, "create_list", {"name": "Test"}, "PermissionDenied", "Sign in")
    assert ok(session, "search_text", {"text_query": "Manteigaria"})["results"][0]["display_name"] == "Manteigaria"
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "Couldn't find your Google Account", "user")
    sign_in(session, "  Ines.Carvalho@gmail.com ")
    assert "Jantares da malta" in lists_of(session)


# ---------------------------------------------------------------- text and nearby search


def test_text_search_puts_the_named_place_first_and_filters(session):
    results = ok(session, "search_text", {"text_query": "pastéis de nata in Belém"})["results"]
    assert results[0]["display_name"] == "Pastéis de Belém"
    cheap = ok(
        session,
        "search_text",
        {"text_query": "restaurant", "price_levels": ["PRICE_LEVEL_INEXPENSIVE"], "min_rating": 4.2},
    )["results"]
    assert cheap and all(r["price_level"] == "PRICE_LEVEL_INEXPENSIVE" for r in cheap)
    assert all(r["rating"] >= 4.5 for r in cheap)  # min_rating is rounded up to the nearest 0.5
    open_now = ok(session, "search_text", {"text_query": "restaurant", "open_now": True})["results"]
    assert open_now and all(r["open_now"] is True for r in open_now)
    assert "Os Amigos da Graça" not in {r["display_name"] for r in open_now}  # opens at 19:30


def test_text_search_pages_and_stops_at_sixty(session):
    first = ok(session, "search_text", {"text_query": "restaurant", "page_size": 20})
    assert first["has_more"] and first["next_cursor"] == "20"
    seen = [r["id"] for r in first["results"]]
    cursor = first["next_cursor"]
    while cursor:
        page = ok(session, "search_text", {"text_query": "restaurant", "page_size": 20, "page_token": cursor})
        seen += [r["id"] for r in page["results"]]
        cursor = page["next_cursor"]
    assert len(seen) == 60 == len(set(seen))
    fails(
        session, "search_text", {"text_query": "restaurant", "page_size": 21}, "invalid_arguments", "page_size: must be"
    )


def test_text_search_types_ratings_and_distance_ranking(session):
    steak = ok(
        session, "search_text", {"text_query": "beef", "included_type": "steak_house", "strict_type_filtering": True}
    )["results"]
    assert {r["display_name"] for r in steak} == {"Casa de Carnes Avenida", "Sala de Corte"}
    fails(
        session,
        "search_text",
        {"text_query": "dinner", "included_type": "fado_house"},
        "invalid_arguments",
        "included_type: Unsupported type",
    )
    fails(
        session,
        "search_text",
        {"text_query": "cafe", "min_rating": 5.5},
        "invalid_arguments",
        "min_rating: must be between 0 and 5",
    )
    fails(
        session,
        "search_text",
        {"text_query": "cafe", "rank_preference": "DISTANCE"},
        "InvalidRequest",
        "needs a location_bias",
    )
    hotel = row("Tivoli Avenida Liberdade Lisboa")
    bias = {"latitude": hotel["latitude"], "longitude": hotel["longitude"], "radius": 2000}
    near = ok(
        session,
        "search_text",
        {
            "text_query": "steakhouse",
            "included_type": "steak_house",
            "location_bias": bias,
            "rank_preference": "DISTANCE",
        },
    )["results"]
    assert near[0]["display_name"] == "Casa de Carnes Avenida"


def _meters(a: dict, lat: float, lng: float) -> float:
    p1, p2 = math.radians(lat), math.radians(a["latitude"])
    dp, dl = p2 - p1, math.radians(a["longitude"] - lng)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(h))


def test_nearby_search_stays_inside_the_circle(session):
    hotel = row("Tivoli Avenida Liberdade Lisboa")
    circle = {"latitude": hotel["latitude"], "longitude": hotel["longitude"], "radius": 900}
    found = ok(
        session,
        "search_nearby",
        {"location_restriction": circle, "included_types": ["restaurant"], "rank_preference": "DISTANCE"},
    )
    distances = [_meters(r["location"], hotel["latitude"], hotel["longitude"]) for r in found]
    assert found and all(d <= 900 for d in distances) and distances == sorted(distances)
    assert {"JNcQUOI Avenida", "Casa de Carnes Avenida"} <= {r["display_name"] for r in found}
    assert "Sala de Corte" not in {r["display_name"] for r in found}  # 1.6 km away in Cais do Sodré
    without = ok(
        session,
        "search_nearby",
        {"location_restriction": circle, "included_types": ["restaurant"], "excluded_types": ["steak_house"]},
    )
    assert "Casa de Carnes Avenida" not in {r["display_name"] for r in without}
    fails(
        session,
        "search_nearby",
        {"location_restriction": {**circle, "radius": 60000}},
        "invalid_arguments",
        "location_restriction.radius",
    )
    fails(
        session,
        "search_nearby",
        {"location_restriction": circle, "max_result_count": 21},
        "invalid_arguments",
        "max_result_count: must be between 1 and 20",
    )


# ---------------------------------------------------------------- place details and opening hours


def test_special_hours_of_the_santo_antonio_holiday(session):
    pateo = details(session, "Páteo 13")
    current = pateo["current_opening_hours"]
    assert current["special_days"] == ["2025-06-12", "2025-06-13"]
    assert current["weekday_descriptions"][0] == "Thursday: 12:00 PM – 4:00 AM"
    assert current["next_close_time"] == "2025-06-13T03:00:00Z"
    assert pateo["regular_opening_hours"]["weekday_descriptions"][0] == "Monday: Closed"
    assert (
        pateo["regular_opening_hours"]["weekday_descriptions"][3] == "Thursday: 12:30 PM – 3:00 PM, 7:30 PM – 11:00 PM"
    )
    monastery = details(session, "Mosteiro dos Jerónimos")["current_opening_hours"]
    assert monastery["weekday_descriptions"][1] == "Friday: Closed"
    assert monastery["special_days"] == ["2025-06-13"]


def test_open_now_past_midnight_and_next_open(session):
    at(session, "2025-06-13T00:30:00Z")  # 01:30 on Friday: Thursday's 13:00-02:00 is still running
    assert details(session, "Park Bar")["open_now"] is True
    at(session, "2025-06-13T01:30:00Z")
    bar = details(session, "Park Bar")
    assert bar["open_now"] is False
    assert bar["current_opening_hours"]["next_open_time"] == "2025-06-13T12:00:00Z"


def test_always_open_closed_and_unpublished_hours(session):
    pharmacy = details(session, "Farmácia Estácio")
    assert pharmacy["regular_opening_hours"]["periods"] == [
        {"open": {"day": 0, "hour": 0, "minute": 0, "date": None}, "close": None}
    ]
    assert pharmacy["open_now"] is True and pharmacy["current_opening_hours"]["next_close_time"] is None
    canas = details(session, "Café Canas")
    assert (canas["business_status"], canas["open_now"]) == ("CLOSED_PERMANENTLY", False)
    assert details(session, "Museu de Lisboa - Teatro Romano")["open_now"] is False
    viewpoint = details(session, "Miradouro de Santa Luzia")
    assert viewpoint["open_now"] is None and viewpoint["regular_opening_hours"] is None


def test_details_carry_amenities_and_newest_reviews(session):
    heim = details(session, "Heim Café")
    assert heim["allows_dogs"] is True and heim["outdoor_seating"] is True
    assert heim["accessibility_options"]["wheelchair_accessible_entrance"] is True
    times = [r["publish_time"] for r in heim["reviews"]]
    assert 1 <= len(times) <= 5 and times == sorted(times, reverse=True)
    seed = row("Heim Café")
    assert heim["rating"] == round(seed["rating_total"] / seed["user_rating_count"], 1)
    fails(session, "get_place", {"place_id": "ChIJdoesnotexist"}, "NotFound", "Place 'ChIJdoesnotexist' not found")


# ---------------------------------------------------------------- route matrix


def test_route_matrix_modes_and_the_river(session):
    hostel, castle, cristo = (
        place("Home Lisbon Hostel"),
        place("Castelo de São Jorge"),
        place("Santuário de Cristo Rei"),
    )
    walk = ok(
        session,
        "compute_route_matrix",
        {"origins": [hostel], "destinations": [castle, cristo, hostel], "travel_mode": "WALK"},
    )
    assert [e["condition"] for e in walk] == ["ROUTE_EXISTS", "ROUTE_NOT_FOUND", "ROUTE_EXISTS"]
    assert (walk[2]["distance_meters"], walk[2]["duration"]) == (0, "0s")
    drive = ok(session, "compute_route_matrix", {"origins": [hostel], "destinations": [castle, cristo]})
    transit = ok(
        session, "compute_route_matrix", {"origins": [hostel], "destinations": [cristo], "travel_mode": "TRANSIT"}
    )
    assert drive[1]["condition"] == transit[0]["condition"] == "ROUTE_EXISTS"
    assert drive[1]["distance_meters"] > transit[0]["distance_meters"]  # the bridge detour
    assert int(walk[0]["duration"][:-1]) > int(drive[0]["duration"][:-1]) - 180
    by_point = ok(
        session,
        "compute_route_matrix",
        {"origins": ["38.7096,-9.1371"], "destinations": [castle], "travel_mode": "WALK"},
    )
    assert by_point[0]["condition"] == "ROUTE_EXISTS"


def test_route_matrix_limits(session):
    many = [place("Manteigaria")] * 11
    fails(
        session,
        "compute_route_matrix",
        {"origins": many, "destinations": many, "travel_mode": "TRANSIT"},
        "InvalidRequest",
        "TRANSIT allows at most 100",
    )
    fails(
        session,
        "compute_route_matrix",
        {"origins": [place("Manteigaria")] * 26, "destinations": many[:1] * 26},
        "InvalidRequest",
        "at most 625",
    )
    fails(
        session,
        "compute_route_matrix",
        {"origins": [], "destinations": many[:1]},
        "invalid_arguments",
        "origins: must not be empty",
    )
    fails(
        session,
        "compute_route_matrix",
        {"origins": ["ChIJnope"], "destinations": many[:1]},
        "NotFound",
        "Place 'ChIJnope' not found",
    )


# ---------------------------------------------------------------- saved lists


def test_saved_tab_shows_roles_and_labels(session):
    sign_in(session, MARCO)
    overview = ok(session, "list_saved_lists")
    roles = {entry["name"]: entry["role"] for entry in overview["lists"]}
    assert roles["Favorites"] == "OWNER" and roles["Jantares da malta"] == "EDITOR"
    assert roles["Os melhores pastéis de nata"] == "VIEWER"
    assert [entry["name"] for entry in overview["lists"][:4]] == [
        "Favorites",
        "Want to go",
        "Travel plans",
        "Starred places",
    ]
    assert [(label["label"], label["display_name"]) for label in overview["labeled"]] == [
        ("Home", "R. do Poço dos Negros 30")
    ]


def test_a_list_pages_its_places_and_hides_private_lists(session):
    sign_in(session, ANA)
    first = ok(session, "get_saved_list", {"list_id": NATA, "page_size": 3})
    assert first["saved_list"]["place_count"] == 7 and first["has_more"] and len(first["places"]) == 3
    assert first["places"][0]["note"] == "A minha favorita: estaladiça e quente"
    rest = ok(session, "get_saved_list", {"list_id": NATA, "page_size": 50, "page_token": first["next_page_token"]})
    assert len(rest["places"]) == 4 and not rest["has_more"]
    fails(session, "get_saved_list", {"list_id": saved_list(INES, "Arraiais 2025")}, "NotFound", "not found")


def test_create_list_names_are_checked(session):
    sign_in(session, INES)
    created = ok(session, "create_list", {"name": " Praias ", "description": "Verão", "emoji": "🏖️"})
    assert (created["id"], created["name"], created["visibility"], created["kind"]) == (
        "list_0077",
        "Praias",
        "PRIVATE",
        "CUSTOM",
    )
    fails(session, "create_list", {"name": "praias"}, "Conflict", "You already have a list called 'Praias'")
    fails(session, "create_list", {"name": "Want to go"}, "Conflict", "default list")
    fails(session, "create_list", {"name": "x" * 41}, "invalid_arguments", "name: must be 1 to 40 characters")
    fails(session, "create_list", {"name": "Ok", "emoji": "ok"}, "invalid_arguments", "emoji: must be a single emoji")


def test_default_lists_keep_their_names_and_stay(session):
    sign_in(session, INES)
    favorites = saved_list(INES, "Favorites")
    fails(session, "update_list", {"list_id": favorites, "name": "Best"}, "InvalidRequest", "default list")
    fails(session, "delete_list", {"list_id": favorites}, "InvalidRequest", "can't be deleted")
    fails(session, "update_list", {"list_id": favorites}, "InvalidRequest", "Nothing to update")
    assert (
        ok(session, "update_list", {"list_id": favorites, "description": "Os de sempre"})["description"]
        == "Os de sempre"
    )


def test_only_the_owner_renames_shares_or_deletes(session):
    sign_in(session, MARCO)
    fails(session, "update_list", {"list_id": JANTARES, "name": "Jantares"}, "PermissionDenied", "Only the owner")
    fails(session, "share_list", {"list_id": JANTARES, "visibility": "PUBLIC"}, "PermissionDenied", "Only the owner")
    fails(session, "delete_list", {"list_id": JANTARES}, "PermissionDenied", "Only the owner")


def test_starred_places_and_private_lists_cant_be_shared_for_editing(session):
    sign_in(session, HELENA)
    starred = saved_list(HELENA, "Starred places")
    fails(
        session,
        "share_list",
        {"list_id": starred, "visibility": "SHARED"},
        "InvalidRequest",
        "Starred places can't be shared",
    )
    favorites = saved_list(HELENA, "Favorites")
    fails(
        session,
        "share_list",
        {"list_id": favorites, "visibility": "PRIVATE", "collaborative": True},
        "InvalidRequest",
        "private list can't let others edit",
    )
    fails(session, "share_list", {"list_id": favorites, "visibility": "PRIVATE"}, "Conflict", "already has")
    shared = ok(session, "share_list", {"list_id": favorites, "visibility": "SHARED"})
    assert shared["share_url"].startswith("https://maps.app.goo.gl/") and len(shared["share_url"]) == 41


def test_making_a_list_private_drops_its_followers_and_link(session):
    sign_in(session, INES)
    old_link = lists_of(session)["Jantares da malta"]["share_url"]
    private = ok(session, "share_list", {"list_id": JANTARES, "visibility": "PRIVATE"})
    assert (private["share_url"], private["follower_count"], private["collaborative"]) == (None, 0, False)
    reshared = ok(session, "share_list", {"list_id": JANTARES, "visibility": "SHARED", "collaborative": True})
    assert reshared["share_url"] not in (None, old_link)
    sign_in(session, MARCO)
    assert "Jantares da malta" not in lists_of(session)
    fails(session, "follow_list", {"share_url": old_link}, "NotFound", "This link doesn't work")
    followed = ok(session, "follow_list", {"share_url": reshared["share_url"]})
    assert followed["role"] == "EDITOR"


def test_following_rules(session):
    link = next(r["share_url"] for r in SEED["saved_lists"] if r["id"] == NATA)
    sign_in(session, ANA)
    fails(session, "follow_list", {"share_url": link}, "Conflict", "your own list")
    sign_in(session, MARCO)
    fails(session, "follow_list", {"share_url": link}, "Conflict", "already follow")
    sign_in(session, TOM)
    assert ok(session, "follow_list", {"share_url": link})["role"] == "VIEWER"
    assert lists_of(session)["Os melhores pastéis de nata"]["follower_count"] == 3


def test_viewers_cant_add_places_but_editors_can(session):
    sign_in(session, MARCO)
    fails(
        session,
        "save_place",
        {"list_id": NATA, "place_id": place("Pastelaria Versailles")},
        "PermissionDenied",
        "Ask Ana Sousa to let others edit",
    )
    saved = ok(
        session, "save_place", {"list_id": JANTARES, "place_id": place("Os Amigos da Graça"), "note": "Amêijoas!"}
    )
    assert (saved["added_by"], saved["note"]) == ("Marco Rossi", "Amêijoas!")
    fails(
        session,
        "save_place",
        {"list_id": JANTARES, "place_id": place("Os Amigos da Graça")},
        "Conflict",
        "already saved in 'Jantares da malta'",
    )
    fails(
        session,
        "save_place",
        {"list_id": JANTARES, "place_id": place("Damas"), "note": "x" * 4001},
        "invalid_arguments",
        "note: can be at most 4000",
    )


def test_editors_remove_only_what_they_added(session):
    sign_in(session, CHLOE)
    removed = ok(session, "remove_saved_place", {"list_id": JANTARES, "place_id": place("Páteo 13")})
    assert removed["added_by"] == "Chloé Martin"
    fails(
        session,
        "remove_saved_place",
        {"list_id": JANTARES, "place_id": place("Cervejaria Ramiro")},
        "PermissionDenied",
        "Only the list's owner or the person who added Cervejaria Ramiro",
    )
    fails(
        session,
        "remove_saved_place",
        {"list_id": JANTARES, "place_id": place("Páteo 13")},
        "NotFound",
        "isn't saved in 'Jantares da malta'",
    )
    sign_in(session, INES)
    ok(session, "remove_saved_place", {"list_id": JANTARES, "place_id": place("Cervejaria Ramiro")})
    assert set(items(session, JANTARES)) == {"Taberna Sal Grosso", "O Pitéu da Graça", "Himalaya Arroios"}


def test_notes_are_replaced_and_cleared(session):
    sign_in(session, CHLOE)
    args = {"list_id": JANTARES, "place_id": place("O Pitéu da Graça"), "note": "Quinta: cozido"}
    assert ok(session, "update_saved_place_note", args)["note"] == "Quinta: cozido"
    assert ok(session, "update_saved_place_note", {**args, "note": ""})["note"] == ""
    fails(session, "update_saved_place_note", {**args, "place_id": place("Belcanto")}, "NotFound", "isn't saved")
    sign_in(session, MARCO)
    fails(
        session,
        "update_saved_place_note",
        {**args, "list_id": NATA, "place_id": place("Manteigaria")},
        "PermissionDenied",
        "can view",
    )


def test_deleting_a_list_takes_its_places_and_followers(session):
    sign_in(session, INES)
    gone = ok(session, "delete_list", {"list_id": JANTARES})
    assert (gone["place_count"], gone["follower_count"]) == (5, 2)
    state = session.dump()
    assert JANTARES not in state["saved_lists"]
    assert not [i for i in state["saved_places"].values() if i["list_id"] == JANTARES]
    assert not [f for f in state["list_followers"].values() if f["list_id"] == JANTARES]
    sign_in(session, MARCO)
    assert "Jantares da malta" not in lists_of(session)


# ---------------------------------------------------------------- labels


def test_home_moves_and_other_labels_are_unique(session):
    sign_in(session, TOM)
    new_home = place("Calçada da Estrela 88")
    assert ok(session, "set_label", {"place_id": new_home, "label": "home"})["label"] == "Home"
    labeled = ok(session, "list_saved_lists")["labeled"]
    assert [(entry["label"], entry["display_name"]) for entry in labeled] == [
        ("Gym", "Holmes Place Santos"),
        ("Home", "Calçada da Estrela 88"),
    ]
    fails(
        session,
        "set_label",
        {"place_id": place("Heim Café"), "label": "gym"},
        "Conflict",
        "You already use the label 'Gym' for Holmes Place Santos",
    )
    renamed = ok(session, "set_label", {"place_id": place("Holmes Place Santos"), "label": "Ginásio"})
    assert renamed["label"] == "Ginásio"
    assert len([r for r in session.dump()["labels"].values() if r["place_id"] == place("Holmes Place Santos")]) == 1
    ok(session, "remove_label", {"place_id": place("Holmes Place Santos")})
    fails(session, "remove_label", {"place_id": place("Holmes Place Santos")}, "NotFound", "has no label")
    fails(session, "set_label", {"place_id": new_home, "label": "  "}, "invalid_arguments", "label: must be 1 to 40")


# ---------------------------------------------------------------- visits and reviews


def test_reviews_need_a_visit_and_move_the_rating(session):
    sign_in(session, PRIYA)
    belem = place("Pastéis de Belém")
    args = {"place_id": belem, "rating": 5, "text": "Worth the queue."}
    fails(session, "create_review", args, "PermissionDenied", "You haven't visited Pastéis de Belém")
    visit = ok(session, "check_in", {"place_id": belem}, caller="user")
    assert (visit["source"], visit["reviewed"]) == ("CHECK_IN", False)
    review = ok(session, "create_review", args)
    assert review["id"] == "ChdDSUhNMG9nS0VJQ0FnSU00566" and review["relative_publish_time_description"] == "just now"
    before, after = row("Pastéis de Belém"), session.dump()["places"][belem]
    assert after["user_rating_count"] == before["user_rating_count"] + 1
    assert after["rating_total"] == before["rating_total"] + 5
    fails(session, "create_review", args, "Conflict", "You already reviewed Pastéis de Belém")
    assert ok(session, "list_visited_places", {})["results"][0]["reviewed"] is True


def test_review_rules_for_closed_places_addresses_and_stars(session):
    sign_in(session, ANA)
    canas = place("Café Canas")
    mine = next(r for r in ok(session, "list_my_reviews", {})["results"] if r["place_id"] == canas)
    ok(session, "delete_review", {"review_id": mine["id"]})
    fails(session, "create_review", {"place_id": canas, "rating": 4}, "Conflict", "permanently closed")
    fails(
        session, "create_review", {"place_id": place("Belcanto"), "rating": 6}, "invalid_arguments", "rating: must be"
    )
    fails(
        session,
        "create_review",
        {"place_id": place("Belcanto"), "rating": 5, "text": "x" * 4097},
        "invalid_arguments",
        "text: can be at most 4096",
    )
    sign_in(session, TOM)
    home = place("R. de São Bento 210")
    ok(session, "check_in", {"place_id": home}, caller="user")
    fails(session, "create_review", {"place_id": home, "rating": 5}, "InvalidRequest", "Addresses can't be reviewed")


def test_editing_and_deleting_a_review_move_the_rating(session):
    sign_in(session, ANA)
    nacional = place("Confeitaria Nacional")
    mine = next(r for r in ok(session, "list_my_reviews", {})["results"] if r["place_id"] == nacional)
    before = row("Confeitaria Nacional")
    edited = ok(session, "update_review", {"review_id": mine["name"], "rating": 4, "text": "Melhorou."})
    assert (edited["rating"], edited["text"], edited["id"]) == (4, "Melhorou.", mine["id"])
    assert session.dump()["places"][nacional]["rating_total"] == before["rating_total"] + 1
    assert ok(session, "update_review", {"review_id": mine["id"], "text": ""})["text"] is None
    fails(session, "update_review", {"review_id": mine["id"]}, "InvalidRequest", "Nothing to update")
    ok(session, "delete_review", {"review_id": mine["id"]})
    after = session.dump()["places"][nacional]
    assert (after["rating_total"], after["user_rating_count"]) == (
        before["rating_total"] - 3,
        before["user_rating_count"] - 1,
    )
    fails(session, "delete_review", {"review_id": mine["id"]}, "NotFound", "not found")


def test_only_your_own_reviews(session):
    sign_in(session, MARCO)
    theirs = next(r["id"] for r in SEED["reviews"] if r["author_id"] == user(ANA))
    fails(session, "update_review", {"review_id": theirs, "rating": 1}, "PermissionDenied", "your own reviews")
    fails(session, "delete_review", {"review_id": theirs}, "PermissionDenied", "your own reviews")


def test_check_in_only_where_open_and_once_a_day(session):
    sign_in(session, PRIYA)
    fails(session, "check_in", {"place_id": place("Zé da Mouraria")}, "Conflict", "closed right now", "user")
    fails(
        session,
        "check_in",
        {"place_id": place("Museu de Lisboa - Teatro Romano")},
        "Conflict",
        "temporarily closed",
        "user",
    )
    fails(session, "check_in", {"place_id": place("Café Canas")}, "Conflict", "permanently closed", "user")
    ok(session, "check_in", {"place_id": place("Manteigaria")}, caller="user")
    fails(session, "check_in", {"place_id": place("Manteigaria")}, "Conflict", "already checked in", "user")


def test_my_reviews_and_visits_page_newest_first(session):
    sign_in(session, ANA)
    first = ok(session, "list_my_reviews", {"page_size": 4})
    second = ok(session, "list_my_reviews", {"page_size": 4, "page_token": first["next_cursor"]})
    times = [r["publish_time"] for r in first["results"] + second["results"]]
    assert len(times) == 8 and times == sorted(times, reverse=True) and second["has_more"]
    visits = ok(session, "list_visited_places", {"page_size": 50})["results"]
    own = {r["place_id"] for r in SEED["reviews"] if r["author_id"] == user(ANA)}
    assert all(v["reviewed"] == (v["place_id"] in own) for v in visits)
    assert [v["visited_at"] for v in visits] == sorted((v["visited_at"] for v in visits), reverse=True)
    fails(session, "list_visited_places", {"page_size": 51}, "invalid_arguments", "page_size: must be between 1 and 50")


# ---------------------------------------------------------------- bounds in the argument types (v2)


def _schema(tool: str, argument: str) -> dict:
    """An argument's JSON schema, the optional ones' non-null branch."""
    found = SPEC.tools[tool].input_schema["properties"][argument]
    return next((s for s in found.get("anyOf", []) if s.get("type") != "null"), found)


def test_every_bound_a_tool_enforces_is_in_its_schema():
    assert _schema("search_text", "page_size")["maximum"] == 20
    assert (_schema("search_text", "min_rating")["minimum"], _schema("search_text", "min_rating")["maximum"]) == (0, 5)
    assert "restaurant" in _schema("search_text", "included_type")["enum"]
    assert "fado_house" not in _schema("search_text", "included_type")["enum"]
    assert "museum" in _schema("search_nearby", "included_types")["items"]["enum"]
    assert _schema("search_nearby", "max_result_count")["maximum"] == 20
    circle = SPEC.tools["search_nearby"].input_schema["$defs"]["Circle"]["properties"]["radius"]
    assert (circle["exclusiveMinimum"], circle["maximum"]) == (0, 50000)
    for side in ("origins", "destinations"):
        assert _schema("compute_route_matrix", side)["minItems"] == 1
    for tool in ("get_saved_list", "list_visited_places", "list_my_reviews"):
        assert _schema(tool, "page_size")["maximum"] == 50
    assert (_schema("create_list", "name")["minLength"], _schema("create_list", "name")["maxLength"]) == (1, 40)
    assert _schema("create_list", "description")["maxLength"] == 500
    assert _schema("create_list", "emoji")["maxLength"] == 8
    assert _schema("save_place", "note")["maxLength"] == 4000
    assert _schema("set_label", "label")["maxLength"] == 40
    assert (_schema("create_review", "rating")["minimum"], _schema("create_review", "rating")["maximum"]) == (1, 5)
    assert _schema("update_review", "text")["maxLength"] == 4096


def test_blank_names_and_queries_fail_validation_and_change_nothing(session):
    fails(session, "search_text", {"text_query": "   "}, "invalid_arguments", "text_query: is required")
    sign_in(session, INES)
    fails(session, "create_list", {"name": "   "}, "invalid_arguments", "name: must be 1 to 40 characters")
    fails(
        session,
        "search_nearby",
        {"location_restriction": {"latitude": 38.7, "longitude": -9.1, "radius": 0}},
        "invalid_arguments",
        "radius",
    )
    fails(
        session,
        "search_nearby",
        {
            "location_restriction": {"latitude": 38.7, "longitude": -9.1, "radius": 500},
            "included_types": ["fado_house"],
        },
        "invalid_arguments",
        "included_types.0: Unsupported types",
    )


def test_names_and_notes_are_stored_trimmed(session):
    sign_in(session, INES)
    made = ok(session, "create_list", {"name": "  Fado nights  ", "description": " Quintas ", "emoji": "🎶"})
    assert (made["name"], made["description"], made["emoji"]) == ("Fado nights", "Quintas", "🎶")
    item = ok(
        session, "save_place", {"list_id": made["id"], "place_id": place("Mesa de Frades"), "note": "  Reservar  "}
    )
    assert item["note"] == "Reservar"
