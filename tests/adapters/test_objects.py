"""The object-state backend and the tool builders shared by the adapters."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Literal, Optional

import pytest
from pydantic import BaseModel, ValidationError

from envfactory_gym.adapters.build import turns
from envfactory_gym.adapters.determinism import Entropy, make_deterministic, session_entropy
from envfactory_gym.adapters.network import NetworkPolicy, NetworkRefused, guarded, source_network_imports
from envfactory_gym.adapters.objects import ObjectState, ReadOnlyViolation, object_tables, plain
from envfactory_gym.adapters.tools import guess_read_only, input_model, json_type, signature_fields
from envfactory_gym.reward import RewardConfig, score
from envfactory_gym.spec import EnvironmentSpec


class Color(enum.Enum):
    RED = "red"


class Item(BaseModel):
    name: str
    color: Color = Color.RED


@dataclass
class Point:
    x: int
    y: int


class Node:
    def __init__(self, name: str, parent: "Node | None" = None) -> None:
        self.name, self.parent, self.children, self._cache = name, parent, [], {"hidden": True}


class Shop:
    def __init__(self) -> None:
        self.items: dict[str, Item] = {"a": Item(name="cup")}
        self.log: list[dict[str, Any]] = []
        self.tags = {"b", "a"}
        self._secret = 1


def test_plain_turns_objects_into_json_like_values():
    root = Node("root")
    root.children.append(Node("child", root))
    assert plain(root) == {
        "name": "root",
        "parent": None,
        "children": [{"name": "child", "parent": "<cycle>", "children": []}],
    }
    assert plain({"p": Point(1, 2), "i": Item(name="cup"), "s": {3, 1}, "t": (1, 2)}) == {
        "p": {"x": 1, "y": 2},
        "i": {"name": "cup", "color": "red"},
        "s": [1, 3],
        "t": [1, 2],
    }


def test_object_tables_make_collections_tables_and_the_rest_attributes():
    tables = object_tables({"items": {"a": Item(name="cup")}, "log": [{"n": 1}], "count": 3, "empty": []})
    assert tables == {
        "items": {"a": {"name": "cup", "color": "red"}},
        "log": {"0": {"n": 1}},
        "empty": {},
        "attributes": {"count": {"value": 3}},
    }


def make_state() -> ObjectState:
    return ObjectState(
        {"shop": Shop()},
        lambda roots: object_tables({k: v for k, v in vars(roots["shop"]).items() if not k.startswith("_")}),
    )


def test_snapshot_restore_keeps_the_root_objects():
    state = make_state()
    shop = state.roots["shop"]
    saved = state.snapshot()
    shop.items["b"] = Item(name="pan")
    shop._secret = 2
    state.restore(saved)
    assert state.roots["shop"] is shop and sorted(shop.items) == ["a"] and shop._secret == 1


def test_atomic_undoes_a_failed_block_and_guards_read_only_blocks():
    state = make_state()
    before = state.dump()
    with pytest.raises(KeyError):
        with state.atomic():
            state.roots["shop"].log.append({"n": 1})
            raise KeyError("boom")
    assert state.dump() == before
    with pytest.raises(ReadOnlyViolation):
        with state.atomic(read_only=True):
            state.roots["shop"].tags.add("c")
    assert state.dump() == before
    with state.atomic(read_only=True):
        assert state.roots["shop"].items["a"].name == "cup"
    with state.atomic():
        state.roots["shop"].log.append({"n": 2})
    assert state.dump()["log"] == {"0": {"n": 2}}


def test_read_only_guess_and_json_types():
    assert [guess_read_only(n) for n in ("get_user", "listItems", "search", "cancel_order", "getaway")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert json_type({"type": "string", "enum": ["a", "b"]}) == Literal["a", "b"]
    assert json_type({"anyOf": [{"type": "integer"}, {"type": "null"}]}) == Optional[int]
    defs = {"X": {"type": "array", "items": {"type": "float"}}}
    assert json_type({"$ref": "#/components/schemas/X"}, defs) == list[float]
    assert json_type({"type": "dict"}) == dict[str, Any]


def test_signature_fields_keep_real_defaults():
    def search(query: str, limit: int = 10, tag=None) -> list:
        """Search.

        Args:
            query: Words to look for.
        """

    model = input_model("search", signature_fields(search, {"properties": {"tag": {"type": "string"}}}))
    assert model(query="x").model_dump() == {"query": "x", "limit": 10, "tag": None}
    assert model.model_json_schema()["properties"]["query"]["description"] == "Words to look for."
    with pytest.raises(ValidationError):
        model(query="x", unknown=1)


def test_long_requests_become_turns_of_five_calls():
    calls = [{"name": f"c{i}", "arguments": {}, "masked": []} for i in range(7)]
    split = turns("do it all", calls)
    assert [len(t["calls"]) for t in split] == [5, 2] and split[0]["query"] == "do it all"


def test_checklist_component_is_weighted_and_reported(tmp_path):
    spec = EnvironmentSpec(
        name="x", domain="d", description="", product="", docs_url="", schema=None, tools={}, folder=tmp_path
    )
    plain_score = score(spec, [], [], {}, {}, {})
    assert plain_score.total == 1.0 and plain_score.checklist is None
    reported = score(spec, [], [], {}, {}, {}, checklist=0.25)
    assert reported.total == 1.0 and reported.checklist == 0.25  # weight 0 by default: reported only
    weighted = score(spec, [], [], {}, {}, {}, config=RewardConfig(checklist=1.0), checklist=0.25)
    assert weighted.total == 0.25
    half = score(spec, [], [], {}, {}, {}, config=RewardConfig(checklist=0.5), checklist=0.0)
    assert half.total == 0.5


def test_a_read_that_changes_only_private_attributes_keeps_the_change():
    state = make_state()
    with state.atomic(read_only=True):
        state.roots["shop"]._secret = 5  # a cache the original keeps, as BFCL's get_flight_cost does
    assert state.roots["shop"]._secret == 5
    with pytest.raises(ReadOnlyViolation, match=r"changed attributes\[tags\]"):
        with state.atomic(read_only=True):
            state.roots["shop"].tags.add("c")


def test_imported_code_draws_from_the_session_and_reads_its_clock():
    import datetime as dt
    import random
    import time
    import uuid

    namespace = {"random": random, "uuid": uuid, "time": time, "datetime": dt.datetime, "randint": random.randint}
    assert sorted(make_deterministic(namespace)) == ["datetime", "randint", "random", "time", "uuid"]
    clock = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.timezone.utc)

    def draw(entropy: Entropy) -> tuple:
        with session_entropy(entropy, lambda: clock):
            return (
                namespace["random"].random(),
                namespace["randint"](1, 10**9),
                namespace["uuid"].uuid4(),
                namespace["time"].time(),
                namespace["datetime"].now().isoformat(),
            )

    first, second = draw(Entropy()), draw(Entropy())
    assert first == second and first[3] == clock.timestamp() and first[4] == "2025-03-01T12:00:00"
    assert isinstance(dt.datetime(2020, 1, 1), namespace["datetime"])  # real datetimes still pass isinstance


def test_network_use_is_refused_and_recorded():
    import socket

    policy = NetworkPolicy("demo.py")
    with guarded(policy):
        with pytest.raises(NetworkRefused, match="demo.py tried to use the network"):
            socket.getaddrinfo("example.org", 443)
        try:
            socket.create_connection(("127.0.0.1", 9), timeout=1)
        except OSError:  # swallowed by the code, still recorded
            pass
    assert policy.attempts == ["lookup of example.org", "lookup of 127.0.0.1"]
    assert source_network_imports("import requests\nfrom http.client import HTTPConnection\nimport json") == [
        "http.client",
        "http.client.HTTPConnection",
        "requests",
    ]


def test_a_failed_ground_truth_call_is_matched_only_by_the_same_failure():
    from envfactory_gym.reward import CallRecord, outcome_matches
    from envfactory_gym.tasks import GroundTruthCall

    failing = GroundTruthCall(
        name="find_user", arguments={"email": "old@x.org"}, expected_error="ValueError: User not found"
    )
    fine = GroundTruthCall(name="find_user", arguments={"email": "new@x.org"})
    same = CallRecord("find_user", {"email": "old@x.org"}, False, True, "ValueError: User not found")
    other = CallRecord("find_user", {"email": "old@x.org"}, False, True, "ValueError: Rate limited")
    success = CallRecord("find_user", {"email": "old@x.org"}, True, True)
    assert outcome_matches(same, failing) and not outcome_matches(other, failing)
    assert not outcome_matches(success, failing) and outcome_matches(success, fine)
    assert not outcome_matches(same, fine)
    early = CallRecord("find_user", {"email": "new@x.org"}, True, True, unexpected=True)  # made in a no-call turn
    assert not outcome_matches(early, fine)
