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
from envfactory_synth.sampling.filling import EMPTY_MATCHES_ALL, ChainFiller, blamed_by

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


# ---------------------------------------------------------------- values the schema allows


def _pool(tables, own=None):
    from envfactory_synth.sampling.values import ValuePool

    return ValuePool({"tables": tables}, [], CLOCK, own)


STATE = {
    "airports": [
        {"iata_code": "BER", "city_name": "BERLIN", "currency": "EUR"},
        {"iata_code": "LHR", "city_name": "LONDON", "currency": "GBP"},
    ],
    "people": [
        {"id": "u1", "display": "Dana", "email": "dana@harbor.org", "time_zone": "Europe/Berlin", "page_size": 500},
        {"id": "u2", "display": "Eli", "email": "eli@harbor.org", "time_zone": "America/Denver", "page_size": 300},
    ],
    "tracks": [{"id": "0FmASpUiaKb9lNVg7f88Jn", "name": "Song"}, {"id": "3n3Ppam7vgaVa1iaRUc9Lp", "name": "Tune"}],
}


def test_a_pattern_is_met_by_the_state_s_values_of_the_columns_the_input_names():
    from envfactory_synth.sampling.values import external_value

    schema = {"type": "string", "pattern": r"^\s*[A-Za-z]{3}\s*$", "description": "IATA code of the airport."}
    for seed in range(10):
        value = external_value("origin_location_code", schema, {}, _pool(STATE), np.random.default_rng(seed))
        assert value in {"BER", "LHR"}  # not EUR/GBP: the column named by 'code' and 'iata' comes first


def test_a_pattern_the_state_cannot_meet_takes_a_quoted_example_then_a_drawn_text():
    from envfactory_synth.sampling.values import external_value

    amount = {"type": "string", "pattern": r"^\d{1,7}\.\d{2}$", "description": 'What the customer pays, e.g. "436.20".'}
    assert external_value("amount", amount, {}, _pool(STATE), np.random.default_rng(0)) == "436.20"
    repo = {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", "description": "owner/name"}
    for seed in range(5):
        drawn = external_value("repository", repo, {}, _pool(STATE), np.random.default_rng(seed))
        assert re.fullmatch(repo["pattern"], drawn), drawn


def test_mail_addresses_come_from_the_state_where_name_or_description_asks_for_one():
    from envfactory_synth.sampling.values import constraint, external_value

    rng = np.random.default_rng(0)
    cc = {"type": "array", "items": {"type": "string"}, "description": "Cc addresses."}
    assert external_value("cc", cc, {}, _pool(STATE), rng)[0] in {"dana@harbor.org", "eli@harbor.org"}
    assert external_value("emailAddress", {"type": "string"}, {}, _pool(STATE), rng).endswith("@harbor.org")
    assert constraint({"type": "string"}, "The shipping address.", "address") is None  # a postal address


def test_a_template_the_description_spells_out_is_filled_with_the_entity_s_ids():
    from envfactory_synth.sampling.values import external_value

    uri = {"type": "string", "description": "The track's URI (spotify:track:<id>)."}
    value = external_value("uri", uri, {}, _pool(STATE), np.random.default_rng(0))
    assert value in {f"spotify:track:{t['id']}" for t in STATE["tracks"]}


def test_numbers_stay_in_the_schema_s_range_and_camel_case_names_find_snake_case_columns():
    from envfactory_synth.sampling.values import external_value

    pool = _pool(STATE)
    assert external_value("pageSize", {"type": "integer", "maximum": 100}, {}, pool, np.random.default_rng(0)) <= 100
    assert external_value("timeZone", {"type": "string"}, {}, pool, np.random.default_rng(0)) in {
        "Europe/Berlin",
        "America/Denver",
    }


def test_a_date_an_error_placed_wrongly_moves_to_the_other_side_of_the_clock():
    for seed in range(5):
        rng = np.random.default_rng(seed)
        assert date_string("start_date_local", {"format": "date"}, [], CLOCK, rng, side=-1) < "2025-01-15"
        assert date_string("since", {"format": "date"}, [], CLOCK, rng, side=1) > "2025-01-15"
    assert unix_time("post_at", [1737122400], CLOCK, np.random.default_rng(0), side=-1) < CLOCK.timestamp()


# ---------------------------------------------------------------- what errors teach the filler


def _filler(hotel, graph, tables):
    from envfactory_synth.sampling.filling import ChainFiller

    return ChainFiller(hotel, graph, _pool(tables), np.random.default_rng(0), False, set(), tables, {})


def test_records_an_error_refused_by_their_traits_are_offered_last(hotel, hotel_graph):
    tables = {"bookings": [{"id": "b1", "status": "completed"}, {"id": "b2", "status": "confirmed"}]}
    filler = _filler(hotel, hotel_graph, tables)
    filler.done.append(("list_bookings", {}, tables["bookings"]))
    assert filler.acceptable("booking_id", ["b1", "b2"]) == ["b1", "b2"]
    filler.refuse("cancel_booking", {"booking_id": "b1"}, "Conflict: Booking b1 is completed and can't be changed.")
    assert filler.refused["booking_id"] == {("status", "completed")}
    assert filler.acceptable("booking_id", ["b1", "b2"]) == ["b2"]
    assert filler.acceptable("booking_id", ["b1"]) == ["b1"]  # nothing else left: still a candidate


def test_an_error_about_a_taken_value_asks_for_a_new_one_and_one_about_the_future_for_the_past(hotel, hotel_graph):
    filler = _filler(hotel, hotel_graph, {})
    assert hotel_graph.role("book_hotel", "guest_name") == "external"
    filler.refuse("book_hotel", {"guest_name": "Ana Silva"}, "Conflict: A booking for Ana Silva already exists")
    assert filler.fresh == {"guest_name"}
    filler.refuse("book_hotel", {"check_in": "2025-01-20"}, "check_in can't be in the future.")
    assert filler.sides == {"check_in": -1}
    filler.refuse("book_hotel", {"check_in": "2025-01-10"}, "check_in is in the past.")
    assert filler.sides["check_in"] == 1


def test_a_table_that_refuses_sign_ins_is_passed_over_and_records_follow_the_username():
    spec = load_zoo_environment("ebay")  # sellers hold usernames too, but only buyers sign in
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    ranked = candidates(spec, tables)
    assert ranked[0][0] == "users"  # a buyer the tasks sign in leads; sellers are among the richest after them
    sellers_first = sorted(ranked, key=lambda c: c[0] != "sellers")
    user = sign_in(session, spec, tables, ranked=sellers_first)
    assert user.table == "users" and user.tool == "sign_in"
    orders = user.own["purchase_orders"]  # orders name their buyer by username, not by user_id
    assert orders and all(o["buyer"] == user.row["username"] for o in orders)
    session.close()


def test_the_scenario_clock_is_the_one_most_of_the_environment_s_tasks_use(hotel):
    from collections import Counter

    from envfactory_gym.database import DEFAULT_CLOCK
    from envfactory_gym.tasks import load_tasks
    from envfactory_synth.sampling.clock import scenario_clock

    spec = load_zoo_environment("amadeus")
    counts = Counter(t.clock for t in load_tasks(spec).values() if t.snapshot == "seed")
    clock = scenario_clock(spec)
    assert counts[clock] == max(counts.values()) and clock != DEFAULT_CLOCK
    assert scenario_clock(hotel, "nowhere") == DEFAULT_CLOCK  # no task starts there


def test_an_error_that_allows_only_one_of_some_inputs_or_bounds_a_number_is_obeyed(hotel, hotel_graph):
    filler = _filler(hotel, hotel_graph, {"bookings": [{"id": "bkg_01", "hotel_id": "htl_03"}]})
    filler.refuse(
        "book_hotel",
        {"hotel_id": "h", "guest_name": "A", "qty": 2, "percentage": 50},
        "only one of qty or percentage can be specified",
    )
    assert filler.exclusive == {"book_hotel": [{"qty", "percentage"}]}
    filler.refuse("book_hotel", {"offer": "400.00"}, "Your offer must be below the Buy It Now price of $335.99.")
    assert filler.bounds == {"offer": (-1, 335.99)}
    below = filler._within_bound("offer", {"type": "string"}, "400.00")
    assert isinstance(below, str) and 0 < float(below) < 335.99
    filler.refuse("book_hotel", {"nights": 0}, "nights must be at least 2")
    assert filler._within_bound("nights", {"type": "integer"}, 0) >= 2
    filler.internal_from_state = True  # the hotel's id from the state (`htl_03`): no listing ran before
    filler.exclusive["book_hotel"] = [{"guest_name", "check_in"}]
    arguments, _ = filler.arguments("book_hotel", 0)
    assert "hotel_id" in arguments and len({"guest_name", "check_in"} & set(arguments)) == 1


def test_a_refused_sign_in_tries_next_the_accounts_having_what_the_error_asks_for():
    from envfactory_synth.sampling.account import wanted_first

    spec = load_zoo_environment("okta")  # "Only active users with an admin role can sign in to the Admin Console."
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    admins = {r["user_id"] for r in tables["admin_roles"]}
    ranked = candidates(spec, tables)
    plain = [(t, r) for t, r in ranked if r["id"] not in admins]
    assert len(plain) >= 3  # most users hold no admin role: taken in order, two refusals would end the sign-in
    refusal = "Only active users with an admin role can sign in."
    rest = wanted_first(spec, tables, plain[1:] + ranked, plain[:1], refusal)
    assert rest[0][1]["id"] in admins and rest[0][1]["status"] == "ACTIVE"
    assert wanted_first(spec, tables, plain[1:], plain[:1], "Service unavailable.") == plain[1:]  # names no trait
    for pick in range(5):  # every scenario's user signs in, each an active admin
        session.reset("seed")
        user = sign_in(session, spec, tables, pick=pick, ranked=ranked)
        assert user.table == "users" and user.row["id"] in admins, pick
    session.close()


def test_a_conditional_rule_an_error_states_ties_an_input_to_the_option_it_goes_with(tmp_path, embedder):
    from envfactory_synth.graph.build import build_graph
    from envfactory_synth.sampling.execute import execute_chain
    from envfactory_synth.sampling.filling import ChainFiller

    from .grocery_env import grocery_spec

    spec = grocery_spec(tmp_path)
    graph = build_graph(spec, embedder=embedder)
    filler = ChainFiller(spec, graph, _pool({}), np.random.default_rng(0), True, set(), {}, {})
    tried = {"item_id": "itm_01", "policy": "shoppers_choice", "replacement_item_id": "itm_02"}
    filler.refuse("set_replacement", tried, "InvalidRequest: replacement_item_id is only used with users_choice.")
    assert filler.together == {"set_replacement": [("replacement_item_id", "policy", "users_choice")]}
    for attempt in range(4):  # a replacement brings users_choice; users_choice brings a replacement
        arguments, _ = filler.arguments("set_replacement", attempt, tried, {"replacement_item_id"})
        assert ("replacement_item_id" in arguments) == (arguments["policy"] == "users_choice"), arguments
    chain = Chain(tools=["list_items", "set_replacement"], start="list_items", method="topology", graph=graph)
    runs = [execute_chain(spec, chain, seed=seed, attempts=4, backtracks=0) for seed in range(6)]
    assert all(run.ok for run in runs), [run.error for run in runs if not run.ok]


def test_a_date_takes_the_layout_the_input_s_pattern_accepts_and_an_optional_one_its_side_of_the_clock():
    from envfactory_synth.sampling.values import external_value

    zoned = r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2}))?$"  # the state's times carry no zone
    rng = np.random.default_rng(0)
    assert re.match(zoned, date_string("start_time", {"pattern": zoned}, ["2025-01-02T10:00:00"], CLOCK, rng))
    day = date_string("since", {"pattern": r"^\d{4}-\d{2}-\d{2}$"}, ["2025-01-02T10:00:00"], CLOCK, rng)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", day)
    optional = {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}
    for seed in range(5):
        before = external_value("due_on", optional, {}, _pool({}), np.random.default_rng(seed), side=-1)
        assert before < "2025-01-15", before


def test_a_bound_an_error_sets_far_from_its_words_or_on_a_money_object_s_number_is_obeyed(hotel, hotel_graph):
    filler = _filler(hotel, hotel_graph, {})
    refund = {"capture_id": "c1", "amount": {"currency_code": "USD", "value": "500.00"}}
    filler.refuse(
        "book_hotel",
        refund,
        "UNPROCESSABLE_ENTITY: [REFUND_AMOUNT_EXCEEDED] The refund amount must be less than or equal to the capture "
        "amount that has not yet been refunded (132.68). (field: amount.value)",
    )
    assert filler.bounds == {"amount.value": (-1, 132.68)}
    money = {"type": "object", "properties": {"currency_code": {"type": "string"}, "value": {"type": "string"}}}
    bounded = filler._bounded("amount", refund["amount"], money, {})
    assert bounded["currency_code"] == "USD" and 0 < float(bounded["value"]) < 132.68
    filler.refuse("book_hotel", {"payment": 300}, "The payment exceeds the amount due (252.00).")
    assert filler.bounds["payment"] == (-1, 252.0)
    filler.refuse("book_hotel", {"total": 900}, "A total can be at most 115% of the original amount.")
    assert "total" not in filler.bounds  # a share of another amount is no bound on this number


def test_a_value_said_earlier_is_said_again_only_where_the_schema_allows_it(hotel, hotel_graph):
    from envfactory_synth.sampling.filling import _fits

    one_option = {"const": "CANCELED", "type": "string"}  # Literal["CANCELED"]: an order's `state` OPEN won't do
    assert _fits("CANCELED", one_option) and not _fits("OPEN", one_option)
    assert _fits("b", {"enum": ["a", "b"]}) and not _fits("c", {"enum": ["a", "b"]})
    assert _fits("x", {"type": "string"}) and not _fits(3, {"type": "string"}) and not _fits(None, {"type": "string"})
    filler = _filler(hotel, hotel_graph, {})
    filler.done.append(("list_bookings", {}, [{"id": "bkg_01", "state": "OPEN"}]))
    optional = {"anyOf": [{"const": "CANCELED", "type": "string"}, {"type": "null"}]}
    assert filler.external("book_hotel", "state", optional, {}) == ["CANCELED"]


def test_the_values_a_validation_error_says_an_input_should_be_are_taken(hotel, hotel_graph):
    filler = _filler(hotel, hotel_graph, {})
    tried = {"hotel_id": "htl_01", "guest_name": "Ana", "check_in": "OPEN"}
    filler.refuse(
        "book_hotel", tried, "invalid arguments for 'book_hotel': check_in: Input should be 'early' or 'late'"
    )
    assert filler.options == {"check_in": ["early", "late"]}
    item = next(i for i in hotel_graph.inputs("book_hotel") if i["name"] == "check_in")
    assert {filler.value("book_hotel", item, "OPEN")[1] for _ in range(10)} <= {"early", "late"}


def test_numbers_keep_to_the_schema_s_step():
    from envfactory_synth.sampling.filling import _fits
    from envfactory_synth.sampling.values import external_value, on_step

    points = {"type": "integer", "minimum": 100, "multipleOf": 100}  # Hertz: points transfer in hundreds
    pool = _pool({"members": [{"id": "m1", "points": 1234}, {"id": "m2", "points": 77}]})
    drawn = {external_value("points", points, {}, pool, np.random.default_rng(s)) for s in range(10)}
    assert drawn and all(v % 100 == 0 and v >= 100 for v in drawn), drawn
    assert on_step(1234, points) == 1200 and on_step(40, points) == 100 and on_step(7, {}) == 7
    assert on_step(950, {"multipleOf": 100, "maximum": 900}) == 900
    assert _fits(1200, points) and not _fits(1234, points)


# ---------------------------------------------------------------- choosing what later calls of the chain need


def test_a_call_whose_output_starves_a_later_tool_is_tried_with_other_arguments(hotel, hotel_graph):
    """A search that finds no hotel gives `book_hotel` nothing to book: the look-ahead undoes it and searches
    another city (the user knows five; one has hotels in this state), and only calls that ran stay."""
    from envfactory_synth.sampling.execute import ChainExecution, _run_steps

    cities = ["Porto", "Faro", "Braga", "Evora", "Lisbon"]
    tables = {"hotels": [{"id": f"h{i}", "name": "Inn", "city": c} for i, c in enumerate(cities)]}
    links = {("search_hotels", "book_hotel")}
    ran = {}
    for lookahead in (0, 3):
        ran[lookahead] = []
        for seed in range(10):
            session = ToolSession(hotel)
            session.reset("seed", CLOCK)
            filler = ChainFiller(hotel, hotel_graph, _pool(tables), np.random.default_rng(seed), False, links, tables)
            result = ChainExecution()
            _run_steps(session, filler, hotel, ["search_hotels", "book_hotel"], 10, 0, result, lookahead)
            ran[lookahead].append(result.ok)
            if result.ok:
                assert [c.name for c in result.calls] == ["search_hotels", "book_hotel"]
                assert result.calls[0].arguments == {"city": "Lisbon"}  # the trials that found nothing are gone
                replay = ToolSession(hotel)
                replay.reset("seed", CLOCK)
                assert all(replay.call(c.name, c.arguments).ok for c in result.calls)
                assert replay.dump() == session.dump()
    assert sum(ran[0]) < 10 and all(ran[3])
    filler = ChainFiller(hotel, hotel_graph, _pool(tables), np.random.default_rng(0), False, links, tables)
    filler.record("search_hotels", {"city": "Porto"}, [])
    assert filler.starved("search_hotels", ["book_hotel", "cancel_booking"]) == [("book_hotel", "hotel_id")]
    filler.record("search_hotels", {"city": "Lisbon"}, [{"id": "htl_01", "name": "Harbour Inn", "city": "Lisbon"}])
    assert filler.starved("search_hotels", ["book_hotel"]) == []


def test_candidates_whose_records_have_what_later_tools_need_come_first(hotel, hotel_graph):
    """Of the hotels a search showed, the one that bookings refer to is chosen first when a later tool of the
    chain is to take a booking from this call; the others stay candidates, and without such a tool the order
    is kept."""
    tables = {
        "hotels": [{"id": h, "name": "Inn", "city": "Lisbon"} for h in ("htl_01", "htl_02", "htl_03")],
        "bookings": [{"id": "bkg_01", "hotel_id": "htl_03", "guest_name": "Ana Silva", "check_in": "2025-02-01"}],
    }
    filler = ChainFiller(hotel, hotel_graph, _pool(tables), np.random.default_rng(0), False, set(), tables)
    filler.record("search_hotels", {"city": "Lisbon"}, tables["hotels"])
    item = next(i for i in hotel_graph.inputs("book_hotel") if i["name"] == "hotel_id")
    assert hotel_graph.provides("book_hotel", "cancel_booking", "booking_id")
    assert filler.value("book_hotel", item) == (True, "htl_01")  # nothing later needs a booking: in order
    filler.later = ["cancel_booking"]
    assert filler.serving("book_hotel", ["htl_01", "htl_02", "htl_03"]) == ["htl_03"]
    assert filler.value("book_hotel", item) == (True, "htl_03")
    assert filler.value("book_hotel", item, previous="htl_03")[1] in {"htl_01", "htl_02"}  # then the others


def test_a_sign_in_value_no_column_holds_is_the_one_the_environment_s_tasks_sign_in_with():
    """AWS's sign-in takes the account alias beside the IAM user name; the seed holds the users, not the alias
    (every user of the scenario knows it): it comes from the environment's own tasks, the user from the seed."""
    from envfactory_synth.sampling.account import known_values

    spec = load_zoo_environment("aws_s3")
    assert known_values(spec, "sign_in")["account"] == "harbor-lane"
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    account = sign_in(session, spec, tables)
    assert account.table == "iam_users" and account.arguments["account"] == "harbor-lane"
    assert account.arguments["user_name"] == account.row["user_name"]
    assert "sign in" not in (session.call("list_buckets", {}).error or "")  # signed in (the token is valid)


def test_an_example_an_error_shows_is_taken_by_the_input_it_names(hotel, hotel_graph):
    """ "the URL pattern must be on harborcoffee.com (e.g. harborcoffee.com/blog/*)": the input named last before
    the example takes it; an id the chain gives never does, and an error without an example teaches nothing."""
    filler = _filler(hotel, hotel_graph, {})
    arguments = {"zone_id": "f6", "url": "Url 80", "target": "home"}
    filler.refuse("book_hotel", arguments, "Page Rule validation failed: the URL pattern must be on x.com.")
    assert filler.options == {}
    filler.refuse(
        "book_hotel",
        arguments,
        "Page Rule validation failed for target: the URL pattern must be on x.com (e.g. x.com/blog/*). (code 1004)",
    )
    assert filler.options == {"url": ["x.com/blog/*"]}
    filler.refuse("book_hotel", {"hotel_id": "htl_01"}, "hotel_id must look like htl_NN, e.g. htl_07.")
    assert "hotel_id" not in filler.options


def test_a_value_deeper_than_the_last_list_of_an_output_path_is_found():
    """Amazon SP's `payload[].marketplace.id` feeds `MarketplaceId`: the field under each item is followed down,
    and items that say they are the entity still come first."""
    from envfactory_synth.sampling.values import values_about

    output = {
        "payload": [
            {"marketplace": {"id": "ATVPDKIKX0DER", "name": "Amazon.com"}, "storeName": "Trailhead"},
            {"marketplace": {"id": "A2EUQ1WTGCTBG2", "name": "Amazon.ca"}, "storeName": "Trailhead CA"},
        ]
    }
    assert values_about(output, "payload[].marketplace.id", "marketplace") == ["ATVPDKIKX0DER", "A2EUQ1WTGCTBG2"]
    pages = {"results": [{"object": "database", "id": "d1"}, {"object": "page", "id": "p1"}]}
    assert values_about(pages, "results[].id", "page") == ["p1"]


def test_the_accounts_the_environment_s_tasks_sign_in_with_come_first():
    """Eventbrite's richest accounts are attendees with many orders; its tasks sign in organizers. The users of
    the most tasks lead, so chains of organizer tools run for an organizer."""
    spec = load_zoo_environment("eventbrite")
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    ranked = candidates(spec, tables)
    assert ranked[0][1]["email"] == "priya@techmornings.org"  # signs in for 8 of its tasks, the most
    assert ranked[1][1]["email"] == "dana@harborlightsproductions.com"  # 6 tasks
    account = sign_in(session, spec, tables, ranked=ranked)
    assert account.arguments["email"] == "priya@techmornings.org" and account.output["role"] != "attendee"


def test_an_error_pointing_at_another_field_of_an_earlier_output_has_the_input_take_it(hertz_spec, hertz_graph):
    """ "Points can only be transferred to the ... partner on your profile": where the graph feeds
    `recipient_member_number` the member's own `member_number`, the next attempt takes the profile's
    `partner_member_number` (an error naming no such word points nowhere)."""
    filler = ChainFiller(hertz_spec, hertz_graph, _pool({}), np.random.default_rng(0), False, set(), {}, {})
    filler.record("get_member_profile", {}, {"member_number": "111", "partner_member_number": "222", "points": 9})
    first, _ = filler.arguments("transfer_points", 0)
    assert first["recipient_member_number"] == "111"
    filler.refuse("transfer_points", first, "Points must be a multiple of 100.")
    assert filler.pointed_to("transfer_points", "recipient_member_number") == []
    error = "PermissionDenied: Points can only be transferred to the spouse or domestic partner on your profile."
    filler.refuse("transfer_points", first, error)
    assert filler.pointed_to("transfer_points", "recipient_member_number") == ["222"]
    filler.record("get_reservation", {}, {"company_id": "c1", "payroll_id": "p1"})
    filler.refuse("transfer_points", first, "NotFound: Payroll p1 not found.")
    assert filler.pointed_to("transfer_points", "company_id") == []  # a payroll's id is no company's
    again, _ = filler.arguments("transfer_points", 1, first, blamed_by(error, first))
    assert again["recipient_member_number"] == "222"


def test_an_account_several_columns_match_is_one_candidate(hertz_spec):
    """Hertz signs in with a "member number or email": both columns of `members` match, yet each member is one
    candidate, so the three users a chain is tried for are three people."""
    session = ToolSession(hertz_spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    ranked = [(table, row["member_number"]) for table, row in candidates(hertz_spec, tables) if table == "members"]
    assert len(ranked) == len(set(ranked)) == len(tables["members"])


def test_a_chain_failed_for_one_user_is_tried_next_for_one_who_has_what_it_missed():
    """The next user of a failed chain is, among the first five accounts, one whose own row fills a column the
    failure names: the input no earlier output gave (`preferred_sipp_code` for `sipp_code`), else a word of the
    error (`partner_member_number`), or who has records of the kind it names (listings for a `listing_id`);
    without such, the first untried; none once all five were tried."""
    from envfactory_synth.sampling.account import next_pick

    rows = [{"member_number": str(i), "partner_member_number": None, "preferred_sipp_code": None} for i in range(6)]
    rows[4]["preferred_sipp_code"], rows[3]["partner_member_number"] = "ICAR", "9"
    rows[5]["preferred_sipp_code"] = "FCAR"  # sixth: outside the five a chain's users are drawn from
    ranked = [("members", r) for r in rows]
    missing = "no earlier output provides required input 'sipp_code' of create_reservation"
    assert next_pick(ranked, [1], missing) == 4
    assert next_pick(ranked, [1], "Points can only be transferred to the partner on your profile.") == 3
    assert next_pick(ranked, [1], "Reservation K1 is completed.") == 0  # nothing named: the richest untried
    assert next_pick(ranked, [0, 2], "Reservation K1 is completed.") == 1
    assert next_pick(ranked, [0, 1, 2, 3, 4], missing) is None
    owned = [{"orders": [{}]}, {}, {"orders": [{}], "listings": []}, {"listings": [{}]}, {}]  # own records
    no_listing = "no earlier output provides required input 'listing_id' of cancel_resale_listing"
    assert next_pick(ranked, [0], no_listing, owned=owned) == 3  # the one who has listings
    assert next_pick(ranked, [0], no_listing) == 1


def test_records_that_name_an_account_the_tasks_sign_in_with_are_not_brought_forward_as_accounts():
    """Delta's tasks sign in SkyMiles members; its eCredits and miles activity hold the member's SkyMiles number
    too (many rows each), yet only members are accounts: the five a chain's users are drawn from are members."""
    spec = load_zoo_environment("delta")
    session = ToolSession(spec)
    session.reset("seed")
    ranked = candidates(spec, session.state.dump_snapshot()["tables"])
    assert [table for table, _ in ranked[:5]] == ["customers"] * 5


def test_an_input_an_error_blames_that_has_no_other_value_is_kept_and_the_inputs_that_go_with_it_change(
    tmp_path, embedder
):
    """ "Offer 'ofr_05' not found for this event" names only the offer, and the chain has seen no other offer:
    redrawing the offer would try the same call again. The next attempt keeps the offer and changes the event,
    to the one an earlier output showed the offer under (not any event the latest search listed)."""
    from envfactory_synth.graph.build import build_graph
    from envfactory_synth.sampling.execute import ChainExecution, _run_tool

    from .concert_env import SEED, concert_spec

    spec = concert_spec(tmp_path)
    graph = build_graph(spec, embedder=embedder)
    assert {graph.role("reserve_tickets", n) for n in ("event_id", "offer_id")} == {"internal"}
    searched = [{k: e[k] for k in ("id", "name", "city")} for e in SEED["events"]]
    shown = {"event_id": "evt_05", "name": "Concert 5", "offers": [{"offer_id": "ofr_05", "price": 45}]}
    session = ToolSession(spec)
    session.reset("seed", CLOCK)
    filler = ChainFiller(spec, graph, _pool(SEED), np.random.default_rng(0), False, set(), SEED, {})
    filler.record("get_event_offers", {"event_id": "evt_05"}, shown)
    filler.record("search_events", {"city": "Lisbon"}, searched)
    assert filler.internal("reserve_tickets", "event_id")[0] == "evt_01"  # the latest search's first event
    result = ChainExecution()
    error, used = _run_tool(session, filler, spec, "reserve_tickets", 3, result, set())
    assert error is None and used == {"event_id": "evt_05", "offer_id": "ofr_05"}, error
    assert result.tries == 2
    filler.chosen = {"offer_id": "ofr_05"}
    assert filler.going_with("event_id", ["evt_01", "evt_02", "evt_05"]) == ["evt_05"]
    filler.chosen = {}
    assert filler.going_with("event_id", ["evt_01", "evt_02", "evt_05"]) == []
    session.close()


def test_a_record_an_error_finds_in_the_wrong_state_sends_the_chain_to_a_user_with_one_in_another_state():
    """ "Your shopper has already started order 58 (status picked_up)": the next user is one owning an order in a
    state no user tried so far has (placed), before richer accounts whose orders are all delivered or canceled;
    an error naming no owned record leaves the order as it was."""
    from envfactory_synth.sampling.account import next_pick, other_states

    def order(number: str, status: str) -> dict:
        return {"id": number, "status": status, "store_name": "Castro"}

    rows = [{"user_id": str(i), "email": f"u{i}@example.org", "plan": "plus"} for i in range(5)]
    ranked = [("users", r) for r in rows]
    owned = [
        {"orders": [order("5801", "delivered"), order("5802", "picked_up"), order("5803", "canceled")]},
        {"orders": [order("5811", "delivered"), order("5812", "canceled")]},
        {"orders": [order("5821", "delivered"), order("5822", "picked_up")]},
        {"orders": [order("5831", "delivered"), order("5832", "placed")]},
        {"orders": [order("5841", "picked_up")]},
    ]
    error = "Conflict: Your shopper has already started order 5802 (status picked_up), so you can no longer edit it."
    assert other_states(error, owned, [0]) == {0: 0, 1: 0, 2: 0, 3: 1, 4: 0}
    assert next_pick(ranked, [0], error, owned=owned) == 3
    assert next_pick(ranked, [0], "Conflict: Order 5803 was canceled.", owned=owned) == 3
    assert other_states("Conflict: Order 9999 was canceled.", owned, [0]) == {}
    assert next_pick(ranked, [0], "Conflict: Order 9999 was canceled.", owned=owned) == 1  # the richest untried


def _home_graph(spec):
    """The home environment's graph as the sampler would link it: `list_devices` gives `lock_lock` its entity
    through the devices' entity lists, `search_devices` gives it too, and the room a later tool takes."""
    from envfactory_synth.graph.model import ToolGraph

    graph = ToolGraph()
    graph.graph.graph["entities"] = ["room", "device", "entity"]
    for name, tool_spec in spec.tools.items():
        properties = tool_spec.input_schema.get("properties", {})
        required = set(tool_spec.input_schema.get("required", []))
        inputs = [{"name": n, "required": n in required, "description": ""} for n in properties]
        graph.add_tool(name, inputs=inputs, outputs=[], user_only=False, needs_one_of=[], accepts={})
    graph.set_roles(
        {"lock_lock.entity_id": "internal", "get_room.room_id": "internal", "search_devices.query": "external"},
        "test",
    )
    for producer in ("list_devices", "search_devices"):
        graph.add_dependency(producer, "lock_lock", "test", [("[].entities", "entity_id", 1.0)])
        graph.add_dependency(producer, "get_room", "test", [("[].room", "room_id", 1.0)])
    return graph


def test_an_output_s_list_of_ids_feeds_an_input_with_only_the_ids_of_its_form(tmp_path):
    """A device lists its entities by id, a battery sensor beside the lock: the whole list is the output's value
    for `lock_lock.entity_id` (not nothing: a list is no id), and only the lock fits the input's pattern, so a
    listing of devices without a lock starves `lock_lock` and the look-ahead tries another."""
    from envfactory_synth.sampling.values import values_about

    from .home_env import SEED, home_spec

    spec = home_spec(tmp_path)
    graph = _home_graph(spec)
    back_door = {"id": "d1", "name": "Back Door", "room": "kitchen", "entities": ["sensor.back_door_battery"]}
    back_door["entities"].append("lock.back_door")
    light = {"id": "d2", "name": "Ceiling Light", "room": "kitchen", "entities": ["light.ceiling"]}
    assert values_about([back_door], "[].entities", "entity") == ["sensor.back_door_battery", "lock.back_door"]
    filler = ChainFiller(spec, graph, _pool(SEED), np.random.default_rng(0), False, set(), SEED, {})
    filler.record("list_devices", {}, [light])
    assert filler.from_chain("lock_lock", "entity_id") == []
    assert filler.starved("list_devices", ["lock_lock"]) == [("lock_lock", "entity_id")]
    filler.record("list_devices", {}, [back_door])
    assert filler.from_chain("lock_lock", "entity_id") == ["lock.back_door"]
    assert filler.starved("list_devices", ["lock_lock"]) == []
    arguments, _ = filler.arguments("lock_lock", 0)
    session = ToolSession(spec)
    session.reset("seed", CLOCK)
    assert session.call("lock_lock", arguments).ok
    session.close()


def test_a_search_says_the_name_of_a_record_a_later_tool_needs(tmp_path):
    """`search_devices` feeds `lock_lock` (an entity of a device) and `get_room` (a device's room): its words are
    the name of a record of that kind, the user's own first (the Front Door, theirs), so that the search finds
    something; for a room, whose names no device holds, next come the names of records naming a room (its
    devices). Without a later tool needing anything from it, the search says what it said before."""
    from envfactory_synth.sampling.searching import search_words

    from .home_env import SEED, home_spec

    spec = home_spec(tmp_path)
    graph = _home_graph(spec)
    own = {"devices": [SEED["devices"][2]]}
    filler = ChainFiller(spec, graph, _pool(SEED, own), np.random.default_rng(0), False, set(), SEED, own)
    schema = spec.tools["search_devices"].input_schema
    filler.later = ["lock_lock"]
    assert filler.wanted_later("search_devices") == {"entity"}
    said = filler.external("search_devices", "query", schema["properties"]["query"], {})
    assert said[0] == "Front Door"  # entities have no names: the devices naming them, the user's first
    filler.later = ["get_room"]
    said = filler.external("search_devices", "query", schema["properties"]["query"], {})
    assert said[:2] in (["Kitchen", "Hall"], ["Hall", "Kitchen"]) and "Front Door" in said
    session = ToolSession(spec)
    session.reset("seed", CLOCK)
    found = session.call("search_devices", {"query": said[2]})
    assert found.ok and found.output, said
    session.close()
    rng = np.random.default_rng(0)
    assert search_words(SEED, own, {"device"}, rng)[0] == "Front Door"
    filler.later = []
    assert "Front Door" not in filler.external("search_devices", "query", schema["properties"]["query"], {})


def test_a_chain_that_needs_a_kind_of_record_none_of_the_five_richest_owns_is_tried_for_an_owner():
    """Ticketmaster's holds belong to accounts after the five richest, so `get_cart` -> `release_hold` found an
    empty cart for every user it was tried for. The failure names the kind (`hold_id`: holds), and the next user
    is the first account after the five that owns one; a failure naming a kind one of the five owns, or another
    error, leaves the turn to `next_pick`."""
    from envfactory_synth.graph.model import ToolGraph
    from envfactory_synth.sampling.account import PICK_AMONG, owner_beyond
    from envfactory_synth.sampling.execute import execute_chain

    spec = load_zoo_environment("ticketmaster")
    session = ToolSession(spec)
    session.reset("seed")
    tables = session.state.dump_snapshot()["tables"]
    session.close()
    ranked = candidates(spec, tables)
    owned = [own_records(spec, tables, t, r) for t, r in ranked[:PICK_AMONG]]
    assert not any(records.get("holds") for records in owned)
    error = "no earlier output provides required input 'hold_id' of release_hold"
    found = owner_beyond(spec, tables, ranked, owned, error)
    assert found is not None and found >= PICK_AMONG and own_records(spec, tables, *ranked[found]).get("holds")
    assert (
        owner_beyond(spec, tables, ranked, owned, "no earlier output provides required input 'order_id' of x") is None
    )
    assert owner_beyond(spec, tables, ranked, owned, "Hold 'H1' not found") is None

    graph = ToolGraph()
    graph.graph.graph["entities"] = ["hold", "order", "event"]
    for name in ("get_cart", "release_hold"):
        inputs = [{"name": n, "required": True, "description": ""} for n in spec.tools[name].required_inputs]
        graph.add_tool(name, inputs=inputs, outputs=[], user_only=False, needs_one_of=[], accepts={})
    graph.set_roles({"release_hold.hold_id": "internal"}, "test")
    graph.add_dependency("get_cart", "release_hold", "test", [("[].hold_id", "hold_id", 1.0)])
    chain = Chain(["get_cart", "release_hold"], "get_cart", "topology", graph, [("get_cart", "release_hold")])
    run = execute_chain(spec, chain, "seed", seed=0, internal_from_state=False, sign_in=True)
    assert run.ok, run.error
    assert run.account.row == ranked[found][1] and [c.name for c in run.calls][-1] == "release_hold"
