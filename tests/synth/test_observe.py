"""Observing the tools on the seed: probing what inputs accept, what outputs carry, echoes, creations, pairs."""

from __future__ import annotations

import pytest

from envfactory_synth.graph.observe import StateIndex, mask, near_miss, observe, slots, values_at


@pytest.fixture(scope="module")
def notion_obs(notion_spec):
    return observe(notion_spec)


def test_values_at_follows_paths_into_lists_and_objects():
    data = {"results": [{"id": "a", "tags": ["x", "y"]}, {"id": "b", "tags": []}], "order": {"line_items": [{"id": 3}]}}
    assert values_at(data, "results[].id") == ["a", "b"]
    assert values_at(data, "results[].tags") == ["x", "y"]  # a list at the end is flattened
    assert values_at(data, "order.line_items[].id") == [3]
    assert values_at(["p", "q", None], "") == ["p", "q"] and values_at({"id": True}, "id") == []


def test_near_misses_keep_the_shape_and_leave_the_state():
    taken = frozenset({"pg_0012", "pg_0013"})
    miss = near_miss("pg_0012", taken)
    assert miss not in taken and len(miss) == 7 and miss.startswith("pg_001")
    assert near_miss("pg_0012", taken, skip=1) not in taken | {miss}
    assert near_miss(41, frozenset()) != 41 and near_miss("Zürich", frozenset()) != "Zürich"


def test_masking_hides_a_value_in_any_case_as_a_whole_token():
    assert mask("Vehicle class 'ICAR' not found", ["icar"]) == "Vehicle class '<v>' not found"
    assert mask("Extra 'E' not found", ["E"]) == "Extra '<v>' not found"  # not the E of Extra


def test_the_state_index_knows_keys_and_what_refers_to_them():
    tables = {
        "users": [{"id": "u1", "email": "a@x.io"}, {"id": "u2", "email": "b@x.io"}],
        "posts": [{"id": "p1", "author": "u1", "tags": ["u2"]}, {"id": "p2", "author": "u1", "tags": []}],
    }
    index = StateIndex.build(tables, {"users": "id", "posts": "id"})
    assert {("users", "id"), ("posts", "id"), ("users", "email")} <= set(index.keys)
    assert ("posts", "author") not in index.keys  # repeats: no key
    assert index.refers[("posts", "author")] == ("users", "id") and index.refers[("posts", "tags[]")] == ("users", "id")
    assert index.holders["u1"] == {("users", "id")} and index.mentions["u1"] == 2


def test_probing_finds_what_each_input_looks_up(notion_obs, notion_spec):
    assert notion_obs.accepted("retrieve_page", "page_id") == {("pages", "id")}
    assert notion_obs.accepted("update_block", "block_id") == {("blocks", "id")}
    assert notion_obs.accepted("query_database", "database_id") == {("databases", "id")}
    assert notion_obs.accepted("create_page", "title") == set()  # any title will do
    assert ("update_page", "title") in notion_obs.unchecked
    assert "query" not in {s.name for s in slots(notion_spec, "search_pages")}  # said, not probed


def test_outputs_show_their_kind_echoes_and_creations(notion_obs):
    assert notion_obs.output_columns("search_pages", "results[].id") == {("pages", "id"), ("databases", "id")}
    assert notion_obs.echoes("retrieve_page", "id") is True  # the page it was asked about
    assert notion_obs.echoes("retrieve_page", "parent_id") is False
    assert notion_obs.creates("create_page", "id") is True  # a new page, found in the state it left
    assert notion_obs.creates("update_page", "parent_id") is False
    assert notion_obs.output_columns("create_page", "id") == {("pages", "id")}
    assert notion_obs.echoes("empty_trash", "id") is None  # never seen


def test_a_tool_that_needs_one_of_two_optional_inputs_is_noticed(notion_obs):
    assert notion_obs.needs_one_of("create_page") == ["database_id", "parent_page_id"]
    assert {"title", "icon"} <= set(notion_obs.needs_one_of("update_page"))  # something to change
    assert notion_obs.needs_one_of("search_pages") == [] and notion_obs.needs_one_of("retrieve_page") == []


def test_pair_checks_pass_values_from_one_tool_to_another(notion_obs):
    assert notion_obs.works[("search_pages", "results[].id", "retrieve_page", "page_id")]
    assert notion_obs.works[("retrieve_block_children", "results[].id", "update_block", "block_id")]
    assert ("list_users", "[].id", "retrieve_page", "page_id") not in notion_obs.works  # a user id is no page id


def test_the_user_signs_in_with_a_seed_account_that_has_records(hertz_spec):
    obs = observe(hertz_spec, tools=["get_member_profile", "list_reservations"])
    account = obs.account
    assert account.tool == "sign_in" and account.table == "members"
    assert account.arguments["login"] in {account.row["member_number"], account.row["email"]}
    assert account.own["reservations"] and all(r["member_number"] == account.key for r in account.own["reservations"])
    assert obs.observed("list_reservations") and obs.output_columns(
        "list_reservations", "results[].confirmation_number"
    ) == {("reservations", "confirmation_number")}
