"""Argument values for chains: what errors blame, dates near the clock, the scenario's user and their records."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import numpy as np
import pytest

from envfactory_gym import ToolSession, load_zoo_environment
from envfactory_synth.sampling.account import candidates, full_grant, own_records, sign_in
from envfactory_synth.sampling.chain import Chain
from envfactory_synth.sampling.dates import date_string, is_date_name, unix_time
from envfactory_synth.sampling.filling import EMPTY_MATCHES_ALL, blamed_by

CLOCK = datetime(2025, 1, 15, 9, 0, tzinfo=timezone.utc)


def test_an_error_blames_the_arguments_it_names():
    arguments = {"pickup_location_id": "BOSC08", "pickup_datetime": "2025-01-19T14:00", "sipp_code": "ICAR"}
    assert blamed_by("BOSC08 is closed on Sundays.", arguments) == {"pickup_location_id"}
    assert blamed_by("pickup_datetime is in the past.", arguments) == {"pickup_datetime"}
    assert blamed_by("Something went wrong.", arguments) == set(arguments)  # nothing named: redraw all


@pytest.mark.parametrize(
    "name, schema, existing, expected",
    [
        (
            "pickup_datetime",
            {"pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"},
            ["2024-12-25T14:00"],
            r"^2025-01-(1[6-9])T14:00$",
        ),
        ("return_datetime", {}, ["2024-12-30T14:00"], r"^2025-01-(2[0-4])T14:00$"),
        ("checkout", {"format": "date"}, [], r"^2025-01-(2[0-4])$"),
        ("since", {"format": "date-time"}, [], r"^2024-12-16T10:00:00Z$"),
        ("date_of_birth", {}, ["1990-04-02"], r"^1990-04-02$"),
    ],
)
def test_dates_keep_the_state_s_layout_and_land_near_the_clock(name, schema, existing, expected):
    value = date_string(name, schema, existing, CLOCK, np.random.default_rng(0))
    assert value is not None and re.match(expected, value), value


def test_what_is_no_date_stays_no_date():
    rng = np.random.default_rng(0)
    assert date_string("to", {}, ["ana@x.io"], CLOCK, rng) is None  # Gmail's recipients
    assert date_string("from_email", {}, [], CLOCK, rng) is None and not is_date_name("from_email")
    assert unix_time("post_at", [1737122400], CLOCK, rng) > CLOCK.timestamp()
    assert unix_time("start", [], CLOCK, rng) is None  # an offset, not a time


def test_an_input_that_says_empty_matches_all_is_searched_empty():
    assert EMPTY_MATCHES_ALL.search("The JQL query; empty matches every issue you can browse.")
    assert not EMPTY_MATCHES_ALL.search("The issue key (e.g. MOB-42).")


def test_the_scenario_user_is_a_seed_account_with_varied_records():
    spec = load_zoo_environment("hertz")
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    ranked = candidates(spec, tables)
    assert ranked[0][0] == "members" and all(t == "members" for t, _ in ranked[:10])
    first = sign_in(session, spec, tables, ranked=ranked)
    statuses = {r["status"] for r in first.own["reservations"]}
    assert len(statuses) >= 3  # confirmed, completed, cancelled...: something to talk about
    assert first.key == first.row["member_number"] and first.output["member_number"] == first.key
    other = sign_in(session, spec, tables, pick=1, ranked=ranked)
    assert other.key != first.key  # another scenario, another member
    session.close()


def test_own_records_reach_two_steps_out():
    spec = load_zoo_environment("shopify")
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    customer = next(r for r in tables["customers"] if any(c["customer_id"] == r["id"] for c in tables["carts"]))
    own = own_records(spec, tables, "customers", customer)
    carts = {c["id"] for c in own["carts"]}
    assert own["cart_lines"] and all(line["cart_id"] in carts for line in own["cart_lines"])  # through the cart
    assert all(o["customer_id"] == customer["id"] for o in own["orders"])
    session.close()


def test_without_a_sign_in_tool_the_user_is_a_person_of_the_seed():
    spec = load_zoo_environment("amtrak")
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    user = sign_in(session, spec, tables)
    assert user.tool is None and user.table == "members" and user.own["reservations"]
    assert session.dump() == _seed_dump(spec)  # no call was made
    assert full_grant(spec, "find_member") == {}
    session.close()


def _seed_dump(spec):
    session = ToolSession(spec)
    session.reset("seed")
    try:
        return session.dump()
    finally:
        session.close()


def test_a_chain_fills_object_fields_from_earlier_outputs():
    from envfactory_synth.graph.build import build_graph
    from envfactory_synth.sampling.execute import execute_chain

    spec = load_zoo_environment("shopify")
    graph = build_graph(spec)
    tools = ["search_products", "cart_lines_add", "get_cart", "cart_lines_update"]
    chain = Chain(tools, tools[0], "test", graph, links=list(zip(tools, tools[1:])))
    result = execute_chain(spec, chain, "seed", seed=2, internal_from_state=False, sign_in=True)
    assert result.ok, result.error
    add, update = result.calls[2], result.calls[4]
    variants = {v["id"] for p in result.outputs[1]["results"] for v in p["variants"]}
    assert add.arguments["lines"][0]["merchandise_id"] in variants  # `lines[].merchandise_id`, a slot of its own
    assert update.arguments["lines"][0]["id"] in {line["id"] for line in result.outputs[3]["lines"]}
