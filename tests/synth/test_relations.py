"""Inputs that must relate to each other: dates in an order, new values where old ones are taken, values an error
lists (`synth/sampling/relations.py`, `synth/sampling/fresh.py`), on the small travel-wallet environment."""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pytest

from envfactory_synth.sampling.chain import Chain
from envfactory_synth.sampling.execute import execute_chain
from envfactory_synth.sampling.filling import ChainFiller
from envfactory_synth.sampling.fresh import new_value
from envfactory_synth.sampling.relations import in_order, learn_order, listed_options, named_optional
from envfactory_synth.sampling.values import ValuePool

from .stay_env import SEED, stay_spec

CLOCK = datetime(2025, 1, 15, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def stays(tmp_path_factory):
    return stay_spec(tmp_path_factory.mktemp("stays"))


@pytest.fixture(scope="module")
def stay_graph(stays, embedder):
    from envfactory_synth.graph.build import build_graph

    return build_graph(stays, embedder=embedder)


def _run(spec, graph, tools):
    chain = Chain(tools, tools[0], "test", graph, links=list(zip(tools, tools[1:])))
    return execute_chain(spec, chain, "seed", seed=0, clock=CLOCK, internal_from_state=False)


def test_an_error_putting_two_dates_in_order_is_read_and_obeyed():
    names = ["hotel_id", "arrival", "departure"]
    assert learn_order("The departure date must be after the arrival date.", names) == ("departure", "arrival")
    assert learn_order("Trip end must be after trip start.", ["start_time", "end_time"]) == ("end_time", "start_time")
    assert learn_order("start_date must be before end_date", ["start_date", "end_date"]) == ("end_date", "start_date")
    assert learn_order("The departure date must be after the arrival date.", ["hotel_id", "guests"]) is None
    arguments = {"arrival": "2025-01-20", "departure": "2025-01-17T10:00"}  # two layouts: left alone
    in_order(arguments, [("departure", "arrival")])
    assert arguments == {"arrival": "2025-01-20", "departure": "2025-01-17T10:00"}
    arguments = {"arrival": "2025-01-20", "departure": "2025-01-17"}
    in_order(arguments, [("departure", "arrival")])
    assert arguments == {"arrival": "2025-01-17", "departure": "2025-01-20"}
    arguments = {"arrival": "2025-01-20T14:00", "departure": "2025-01-20T14:00"}
    in_order(arguments, [("departure", "arrival")])
    assert arguments["departure"] == "2025-01-21T14:00"


def test_a_stay_whose_dates_an_error_said_are_in_the_wrong_order_is_booked_on_the_next_try(stays, stay_graph):
    """A departure is drawn a few days ahead and an arrival further (as a flight's would be): every try failed
    until the error's order is kept."""
    run = _run(stays, stay_graph, ["search_hotels", "book_stay"])
    assert run.ok, run.error
    booked = run.calls[-1].arguments
    assert booked["departure"] > booked["arrival"]
    assert run.tries == 3  # the search, the refused stay, the stay


def test_a_value_an_error_said_is_taken_becomes_one_no_record_holds(stays, stay_graph):
    """Every code the state holds is taken: the next code is one of their form that none holds."""
    rng = np.random.default_rng(0)
    assert new_value("ana.silva@example.org", ["ana.silva@example.org"], rng, {}).endswith("@example.org")
    assert new_value("Summer trip", [], rng, {}).startswith("Summer trip ")
    assert new_value("welcome10", [], rng, {"maxLength": 9}) is None  # no room for a number
    assert new_value(42, [], rng, {}) is None
    assert new_value("ANNA", [], rng, {}, "first_name") is None  # a person's name: another person's instead
    assert new_value("anna.weber", [], rng, {}, "user_name").startswith("anna.weber")
    run = _run(stays, stay_graph, ["create_promo"])
    assert run.ok, run.error
    code = run.calls[-1].arguments["code"]
    assert code not in {p["code"] for p in SEED["promos"]}
    assert run.tries == 2


def test_the_values_an_error_lists_as_supported_are_taken(stays, stay_graph):
    """ "ADA can't be sent or received on ethereum. Supported networks: cardano": no record holds cardano, so no
    other draw could find it."""
    error = "ADA can't be sent or received on SOL. Supported networks: cardano, base or solana."
    assert listed_options(error, ["wallet_id", "network"]) == {"network": ["cardano", "base", "solana"]}
    valid = "Invalid sort field: public. Valid sort fields for sources: display_name, cited_by_count"
    assert listed_options(valid, ["sort", "filter"]) == {"sort": ["display_name", "cited_by_count"]}
    assert listed_options("ssl must be one of off, flexible, full (code 1004)", ["ssl"]) == {
        "ssl": ["off", "flexible", "full"]
    }
    assert listed_options(error, ["wallet_id", "name"]) == {}
    fields = "Invalid filter: Unknown filter field: type. Valid works filters: abstract.search, author.id"
    assert listed_options(fields, ["filter"]) == {"filter": ["abstract.search", "author.id"]}
    assert listed_options(fields, ["filter"], {"filter": "type:article"}) == {}  # fields, not filters
    filler = ChainFiller(stays, stay_graph, ValuePool({"tables": SEED}, [], CLOCK), np.random.default_rng(0), False)
    filler.record("list_wallets", {}, SEED["wallets"])
    item = next(i for i in stay_graph.inputs("create_address") if i["name"] == "network")
    internal = stay_graph.role("create_address", "network") == "internal"
    if internal:  # nothing the chain saw gives a network (the graph took the column for an entity's)
        assert filler.value("create_address", item) == (False, None)
    tried = {"wallet_id": "wal_01", "network": "ethereum"}
    filler.refuse("create_address", tried, "ADA can't be sent or received on ethereum. Supported networks: cardano")
    assert filler.value("create_address", item, "ethereum") == (True, "cardano")


def test_an_optional_input_an_error_names_is_left_out_unless_the_error_says_what_it_should_be(stays, stay_graph):
    """ "Memo: cardano addresses take no memo" names the optional memo the call was given: the next calls of the
    tool go without it. An error that lists what an optional input takes keeps it."""
    tried = {"wallet_id": "wal_01", "network": "cardano", "memo": "rent"}
    assert named_optional("Memo: cardano addresses take no memo", tried, ["memo"]) == {"memo"}
    assert named_optional("Problem: ticket #7 is not a problem ticket", {"problem_id": 7}, ["problem_id"]) == {
        "problem_id"
    }
    assert named_optional("Memo: cardano addresses take no memo", {"network": "cardano"}, ["memo"]) == set()
    asked = "Give start_place_id or both start_latitude and start_longitude."
    assert named_optional(asked, {"start_latitude": 37.8}, ["start_latitude", "start_longitude"]) == set()
    filler = ChainFiller(stays, stay_graph, ValuePool({"tables": SEED}, [], CLOCK), np.random.default_rng(0), False)
    filler.record("list_wallets", {}, SEED["wallets"])
    filler.refuse("create_address", tried, "Memo: cardano addresses take no memo")
    assert filler.dropped == {"create_address": {"memo"}}
    for attempt in range(1, 6):  # later attempts set more optional inputs: never the memo
        arguments, _ = filler.arguments("create_address", attempt, tried, {"memo"})
        assert arguments is not None and "memo" not in arguments
    listing = ChainFiller(stays, stay_graph, ValuePool({"tables": SEED}, [], CLOCK), np.random.default_rng(0), False)
    listing.refuse("create_address", tried, "Invalid memo. Valid memos: rent, salary")
    assert listing.dropped == {} and listing.options == {"memo": ["rent", "salary"]}
