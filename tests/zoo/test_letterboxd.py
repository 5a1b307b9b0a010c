"""Letterboxd's business rules, each with a test that can fail: sign-in, half-star ratings, watched dates, unreleased
films, rewatch detection, spoiler flags, logging's effect on the watchlist and the film, un-watching, four
favourites, list visibility, ranks and duplicates, follows and blocks, comment policies, and failures that change
nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("letterboxd")
CLOCK = datetime(2026, 3, 14, 18, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def film(name: str, year: int | None = None) -> str:
    found = [f["id"] for f in SEED["films"] if f["name"] == name and (year is None or f["release_year"] == year)]
    assert len(found) == 1, found
    return found[0]


def sign_in(session: ToolSession, username: str = "mayachen") -> dict[str, Any]:
    return ok(session, "sign_in", {"username": username}, caller="user")


# ---------------------------------------------------------------- sign-in


def test_sign_in_by_username_or_email_and_nothing_without_it(session):
    fails(session, "get_member", {}, "PermissionDenied", "signed in")
    fails(session, "sign_in", {"username": "nobody_here"}, "NotFound", "credentials", caller="user")
    assert ok(session, "sign_in", {"username": "Maya.Chen@fastmail.com"}, caller="user")["username"] == "mayachen"
    assert ok(session, "get_member", {})["username"] == "mayachen"


def test_search_finds_every_film_of_a_title_with_year_and_director(session):
    sign_in(session)
    dunes = ok(session, "search_films", {"query": "dune"})["results"]
    assert {(f["name"], f["release_year"]) for f in dunes} >= {("Dune", 1984), ("Dune", 2021)}
    lynch = ok(session, "search_films", {"query": "dune", "director": "lynch"})["results"]
    assert [f["release_year"] for f in lynch] == [1984]
    assert ok(session, "search_films", {"query": "Barton Fink"})["results"] == []


# ---------------------------------------------------------------- logging


def test_ratings_come_in_half_stars_only(session):
    sign_in(session)
    args = {"film_id": film("Heat"), "diary_date": "2026-03-13"}
    fails(session, "log_film", {**args, "rating": 3.3}, "invalid_arguments", "half-star")
    fails(session, "log_film", {**args, "rating": 5.5}, "invalid_arguments", "half-star")
    assert ok(session, "log_film", {**args, "rating": 3.5})["rating"] == 3.5


def test_no_watched_date_in_the_future(session):
    sign_in(session)
    args = {"film_id": film("Heat"), "diary_date": "2026-03-15", "rating": 4.0}
    fails(session, "log_film", args, "InvalidRequest", "future")


def test_unreleased_films_are_watchlisted_but_never_logged_rated_watched_or_favourited(session):
    sign_in(session)
    upcoming = film("Paper Moons")
    fails(session, "log_film", {"film_id": upcoming, "diary_date": "2026-03-12"}, "Conflict", "hasn't been released")
    fails(session, "update_film_relationship", {"film_id": upcoming, "rating": 4.0}, "Conflict", "hasn't been released")
    fails(session, "update_film_relationship", {"film_id": upcoming, "watched": True}, "Conflict", "released")
    fails(session, "update_film_relationship", {"film_id": upcoming, "liked": True}, "Conflict", "liked")
    fails(session, "set_favorite_films", {"film_ids": [upcoming]}, "Conflict", "released")
    out = ok(session, "update_film_relationship", {"film_id": upcoming, "in_watchlist": True})
    assert out["released"] is False and out["relationship"]["in_watchlist"] is True


def test_a_diary_entry_for_a_film_already_watched_is_a_rewatch_unless_said_otherwise(session):
    sign_in(session)
    seen = ok(session, "log_film", {"film_id": film("Dune", 1984), "diary_date": "2026-03-13", "rating": 3.0})
    assert seen["rewatch"] is True
    first = ok(session, "log_film", {"film_id": film("Aliens"), "diary_date": "2026-03-13"})
    assert first["rewatch"] is False
    told = ok(session, "log_film", {"film_id": film("Heat"), "diary_date": "2026-03-12", "rewatch": False})
    assert told["rewatch"] is False


def test_rewatch_needs_a_diary_date_and_spoilers_need_review_text(session):
    sign_in(session)
    fails(session, "log_film", {"film_id": film("Heat")}, "InvalidRequest", "watched date")
    review_only = {"film_id": film("Heat"), "review": "Great.", "rewatch": True}
    fails(session, "log_film", review_only, "InvalidRequest", "rewatch")
    spoilers = {"film_id": film("Heat"), "diary_date": "2026-03-13", "contains_spoilers": True}
    fails(session, "log_film", spoilers, "InvalidRequest", "spoilers")
    fails(
        session, "update_log_entry", {"entry_id": "e00337", "contains_spoilers": True}, "PermissionDenied", "your own"
    )


def test_spoiler_flag_on_an_entry_without_review_is_refused_until_text_is_added(session):
    sign_in(session, "ines_ferreira")
    fails(session, "update_log_entry", {"entry_id": "e00337", "contains_spoilers": True}, "InvalidRequest", "spoilers")
    out = ok(session, "update_log_entry", {"entry_id": "e00337", "review": "Mushrooms.", "contains_spoilers": True})
    assert out["contains_spoilers"] is True and out["review"] == "Mushrooms."


def test_logging_marks_watched_leaves_the_watchlist_and_carries_rating_and_like(session):
    sign_in(session)
    northman = film("The Northman")
    before = ok(session, "get_film", {"film_id": northman})["relationship"]
    assert before["in_watchlist"] is True and before["watched"] is False
    entry = ok(session, "log_film", {"film_id": northman, "diary_date": "2026-03-13", "rating": 4.5, "like": True})
    after = ok(session, "get_film", {"film_id": northman})["relationship"]
    assert after == {**after, "watched": True, "in_watchlist": False, "rating": 4.5, "liked": True}
    assert after["diary_entries"] == [entry["entry_id"]]
    assert northman not in [w["film"]["film_id"] for w in ok(session, "get_watchlist", {})["results"]]


def test_only_the_owner_edits_or_deletes_an_entry(session):
    sign_in(session)
    fails(session, "update_log_entry", {"entry_id": "e00320", "rating": 1.0}, "PermissionDenied", "your own")
    fails(session, "delete_log_entry", {"entry_id": "e00320"}, "PermissionDenied", "your own")


def test_a_film_with_entries_stays_watched_until_they_are_deleted(session):
    sign_in(session)
    killers = film("Killers of the Flower Moon")
    fails(session, "update_film_relationship", {"film_id": killers, "watched": False}, "Conflict", "delete them")
    ok(session, "delete_log_entry", {"entry_id": "e00271"})
    assert ok(session, "get_film", {"film_id": killers})["relationship"]["watched"] is True
    out = ok(session, "update_film_relationship", {"film_id": killers, "watched": False, "remove_rating": True})
    assert out["relationship"]["watched"] is False and out["relationship"]["rating"] is None


def test_deleting_an_entry_deletes_its_comments(session):
    sign_in(session, "ada_watches")
    assert ok(session, "get_log_entry", {"entry_id": "e00261"})["comments"]
    ok(session, "delete_log_entry", {"entry_id": "e00261"})
    assert not [c for c in session.dump()["comments"].values() if c["entry_id"] == "e00261"]


# ---------------------------------------------------------------- favourites


def test_four_favourites_at_most_each_once(session):
    sign_in(session)
    five = [film(n) for n in ("Heat", "Alien", "Stalker", "Aftersun", "Jaws")]
    fails(session, "set_favorite_films", {"film_ids": five}, "invalid_arguments", "four")
    twice = [film("Heat"), film("Heat")]
    fails(session, "set_favorite_films", {"film_ids": twice}, "InvalidRequest", "once")
    out = ok(session, "set_favorite_films", {"film_ids": five[:4]})
    assert [f["name"] for f in out["favorite_films"]] == ["Heat", "Alien", "Stalker", "Aftersun"]


# ---------------------------------------------------------------- lists


def test_unpublished_lists_are_seen_only_by_their_owner(session):
    sign_in(session)
    fails(session, "get_list", {"list_id": "l0007"}, "NotFound", "l0007")
    names = [item["name"] for item in ok(session, "get_lists", {"username": "theobrandt"})["results"]]
    assert "Carpenter season" not in names and "Folk horror essentials" in names
    assert "October 2026 horror marathon" in [i["name"] for i in ok(session, "get_lists", {})["results"]]
    fails(session, "update_list", {"list_id": "l0005", "name": "Mine now"}, "PermissionDenied", "your own")


def test_ranks_only_on_ranked_lists_and_an_insert_pushes_later_entries_down(session):
    sign_in(session)
    heat = {"film_id": film("Heat"), "rank": 1}
    fails(session, "update_list", {"list_id": "l0002", "add_entries": [heat]}, "InvalidRequest", "ranked")
    out = ok(session, "update_list", {"list_id": "l0003", "add_entries": [heat]})
    assert [(e["rank"], e["film"]["name"]) for e in out["entries"][:3]] == [
        (1, "Heat"),
        (2, "Arrival"),
        (3, "Blade Runner 2049"),
    ]
    assert [e["position"] for e in out["entries"]] == list(range(1, 8))


def test_a_film_is_in_a_list_once_and_two_additions_cannot_share_a_rank(session):
    sign_in(session)
    arrival = {"film_id": film("Arrival")}
    fails(session, "update_list", {"list_id": "l0003", "add_entries": [arrival]}, "Conflict", "already in this list")
    same = [{"film_id": film("Heat"), "rank": 2}, {"film_id": film("Jaws"), "rank": 2}]
    fails(session, "update_list", {"list_id": "l0003", "add_entries": same}, "InvalidRequest", "same rank")
    far = [{"film_id": film("Heat"), "rank": 9}]
    fails(session, "update_list", {"list_id": "l0003", "add_entries": far}, "InvalidRequest", "past the end")


def test_removals_close_gaps_and_happen_before_additions(session):
    sign_in(session)
    moved = {"film_id": film("Sicario"), "rank": 1}
    out = ok(session, "update_list", {"list_id": "l0003", "remove_film_ids": [film("Sicario")], "add_entries": [moved]})
    assert [e["film"]["name"] for e in out["entries"]][:2] == ["Sicario", "Arrival"]
    out = ok(session, "update_list", {"list_id": "l0003", "remove_film_ids": [film("Arrival")]})
    assert [e["rank"] for e in out["entries"]] == [1, 2, 3, 4, 5]
    fails(
        session, "update_list", {"list_id": "l0003", "remove_film_ids": [film("Jaws")]}, "NotFound", "not in this list"
    )


def test_publishing_stamps_the_list_and_deleting_removes_its_entries(session):
    sign_in(session)
    assert ok(session, "get_list", {"list_id": "l0004"})["when_published"] is None
    assert ok(session, "update_list", {"list_id": "l0004", "published": True})["when_published"] is not None
    ok(session, "delete_list", {"list_id": "l0004"})
    assert not [e for e in session.dump()["list_entries"].values() if e["list_id"] == "l0004"]
    fails(session, "get_list", {"list_id": "l0004"}, "NotFound", "l0004")


def test_create_list_refuses_a_film_twice_and_keeps_order(session):
    sign_in(session)
    twice = [{"film_id": film("Heat")}, {"film_id": film("Heat")}]
    fails(session, "create_list", {"name": "Dupes", "entries": twice}, "Conflict", "already in this list")
    out = ok(
        session,
        "create_list",
        {"name": "Mann", "entries": [{"film_id": film("Heat")}, {"film_id": film("Collateral")}]},
    )
    assert out["ranked"] is False and [e["rank"] for e in out["entries"]] == [None, None]
    assert [e["film"]["name"] for e in out["entries"]] == ["Heat", "Collateral"]


# ---------------------------------------------------------------- people


def test_follows_are_idempotent_and_not_of_oneself(session):
    sign_in(session)
    fails(
        session, "update_member_relationship", {"username": "mayachen", "following": True}, "InvalidRequest", "yourself"
    )
    ok(session, "update_member_relationship", {"username": "owen_walsh", "following": True})
    again = ok(session, "update_member_relationship", {"username": "owen_walsh", "following": True})
    assert again["you_follow"] is True and again["follows_you"] is True


def test_blocks_hide_the_blocker_stop_follows_and_end_them_both_ways(session):
    sign_in(session, "theobrandt")
    fails(session, "get_member", {"username": "owen_walsh"}, "NotFound", "owen_walsh")
    heat_reviews = ok(session, "get_film_reviews", {"film_id": film("Heat")})["results"]
    assert "owen_walsh" not in [r["owner"]["username"] for r in heat_reviews]
    fails(
        session,
        "update_member_relationship",
        {"username": "owen_walsh", "following": True},
        "PermissionDenied",
        "blocks",
    )
    sign_in(session, "priyasingh")
    assert ok(session, "get_member", {"username": "mayachen"})["follows_you"] is True
    ok(session, "update_member_relationship", {"username": "mayachen", "blocking": True})
    out = ok(session, "get_member", {"username": "mayachen"})
    assert out["you_follow"] is False and out["follows_you"] is False


def test_comments_follow_the_reviewers_policy_and_go_on_reviews_only(session):
    sign_in(session)
    fails(session, "post_comment", {"entry_id": "e00284", "comment": "Yes!"}, "PermissionDenied", "members they follow")
    fails(session, "post_comment", {"entry_id": "e00347", "comment": "Yes!"}, "PermissionDenied", "themselves")
    fails(session, "post_comment", {"entry_id": "e00345", "comment": "Yes!"}, "InvalidRequest", "no review text")
    out = ok(session, "post_comment", {"entry_id": "e00324", "comment": "Agreed."})
    assert out["comments"][-1]["text"] == "Agreed." and out["comments"][-1]["member"]["username"] == "mayachen"


def test_friends_policy_lets_in_members_the_reviewer_follows(session):
    sign_in(session, "lucia_m")
    out = ok(session, "post_comment", {"entry_id": "e00284", "comment": "Still disagree."})
    assert out["comment_count"] == len(out["comments"]) >= 2


# ---------------------------------------------------------------- reads


def test_diary_filters_and_activity_of_followed_members(session):
    sign_in(session)
    march = ok(session, "get_diary", {"year": 2026, "month": 3})["results"]
    assert march and all(e["diary_date"].startswith("2026-03") for e in march)
    assert [e["diary_date"] for e in march] == sorted((e["diary_date"] for e in march), reverse=True)
    rewatches = ok(session, "get_diary", {"rewatch": True, "per_page": 100})["results"]
    assert rewatches and all(e["rewatch"] for e in rewatches)
    feed = ok(session, "get_activity", {"per_page": 50})["results"]
    followed = {"theobrandt", "priyasingh", "hannah_lee", "jonah_k", "lucia_m", "ada_watches"}
    assert feed and {item["member"]["username"] for item in feed} <= followed
    page = ok(session, "get_diary", {"per_page": 5})
    assert (
        page["has_more"]
        and len(ok(session, "get_diary", {"per_page": 5, "cursor": page["next_cursor"]})["results"]) == 5
    )
