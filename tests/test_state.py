"""SQLite state: snapshots, restore, atomic calls, canonical dump, isolation."""

import sqlite3

import pytest
from pydantic import BaseModel
from sqlalchemy import Column, Integer, MetaData, String, Table

from envfactory_gym import ToolSession, resolve
from envfactory_gym.errors import DataFileError
from envfactory_gym.state import SQLiteState, build_snapshot, state_hash

meta = MetaData()
items = Table(
    "items",
    meta,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("touched_at", String, info={"volatile": True}),
)


def make_state(rows):
    state = SQLiteState(meta)
    state.restore(build_snapshot(meta, {"tables": {"items": rows}}))
    return state


def test_restore_replaces_everything():
    state = make_state([{"id": 1, "name": "a"}])
    data = state.snapshot()
    state.raw.execute("INSERT INTO items (id, name) VALUES (2, 'b')")
    assert len(state.dump()["items"]) == 2
    state.restore(data)
    assert state.dump() == {"items": {"1": {"id": 1, "name": "a"}}}


def test_atomic_rolls_back_on_error():
    state = make_state([{"id": 1, "name": "a"}])
    before = state_hash(state.dump())
    with pytest.raises(RuntimeError):
        with state.atomic():
            state.raw.execute("UPDATE items SET name = 'changed'")
            raise RuntimeError("boom")
    assert state_hash(state.dump()) == before


def test_change_count_moves_with_every_write_rollback_and_restore_but_not_with_reads():
    state = make_state([{"id": 1, "name": "a"}])
    data, start = state.snapshot(), state.change_count()
    state.dump()
    assert state.change_count() == start
    with pytest.raises(RuntimeError), state.atomic():  # a write rolled back still moves it: same mark, other rows
        state.raw.execute("UPDATE items SET name = 'b'")
        inside = state.change_count()
        raise RuntimeError("undo")
    undone = state.change_count()
    assert undone not in (start, inside)  # the rows read inside the block are not the rows after it
    with state.trial():
        state.raw.execute("UPDATE items SET name = 'b'")
        tried = state.change_count()
    assert state.change_count() not in (undone, tried)
    undone = state.change_count()
    state.raw.execute("UPDATE items SET name = 'c'")
    assert state.change_count() != undone
    state.restore(data)
    assert state.change_count() not in (start, undone)


def _log_position(state: SQLiteState) -> int:
    return state.raw.execute('SELECT coalesce(max(seq), 0) FROM "_envfactory_changes"').fetchone()[0]


def test_the_change_log_position_is_remembered_only_until_the_next_write_or_restore():
    state = make_state([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])
    data = state.snapshot()
    assert state.mark() == 0 and state.changed_since(0) == {}
    state.raw.execute("UPDATE items SET name = 'x' WHERE id = 1")
    assert set(state.changed_since(0)) == {("items", "1")}
    assert state.mark() == _log_position(state) > 0  # remembered from the read above
    first = state.mark()
    with state.trial():  # written and undone: the log is back where it was, the count moved on
        state.raw.execute("UPDATE items SET name = 'y' WHERE id = 2")
        assert state.mark() == _log_position(state) > first
    assert state.mark() == _log_position(state) == first and state.changed_since(first) == {}
    state.raw.execute("DELETE FROM items WHERE id = 2")
    assert set(state.changed_since(first)) == {("items", "2")} and state.mark() == _log_position(state) > first
    state.restore(data)
    assert state.mark() == 0 and state.changed_since(0) == {}


def test_what_changed_since_the_snapshot_is_kept_only_while_the_rows_stay_as_they_were():
    state = make_state([{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])
    data = state.snapshot()
    state.raw.execute("UPDATE items SET name = 'x' WHERE id = 1")
    kept = state.changed_since(0)
    kept.clear()  # the caller's copy: what is kept is not touched
    assert set(state.changed_since(0)) == {("items", "1")}
    state.raw.execute("UPDATE items SET name = 'y' WHERE id = 2")
    assert set(state.changed_since(0)) == {("items", "1"), ("items", "2")}
    with state.trial():
        state.raw.execute("DELETE FROM items WHERE id = 1")
        assert set(state.changed_since(0)) == {("items", "1"), ("items", "2")}
    state.raw.execute("SAVEPOINT caller")  # read inside a caller's own savepoint, then rolled back unseen
    state.raw.execute("INSERT INTO items (id, name) VALUES (3, 'z')")
    assert ("items", "3") in state.changed_since(0)
    state.raw.execute("ROLLBACK TO caller")
    state.raw.execute("RELEASE caller")
    assert set(state.changed_since(0)) == {("items", "1"), ("items", "2")}
    state.restore(data)
    assert state.changed_since(0) == {}


def test_a_position_read_inside_a_callers_own_savepoint_is_not_kept_past_its_rollback():
    state = make_state([{"id": 1, "name": "a"}])
    state.raw.execute("SAVEPOINT caller")
    state.raw.execute("UPDATE items SET name = 'x' WHERE id = 1")
    assert state.changed_since(0) and state.mark() == _log_position(state) > 0
    state.raw.execute("ROLLBACK TO caller")
    state.raw.execute("RELEASE caller")
    assert state.mark() == _log_position(state) == 0 and state.changed_since(0) == {}


def test_a_volatile_primary_key_still_keys_its_rows_in_the_dump():
    schema = MetaData()
    Table("rates", schema, Column("day", String, primary_key=True, info={"volatile": True}), Column("rate", Integer))
    state = SQLiteState(schema)
    state.restore(build_snapshot(schema, {"tables": {"rates": []}}))
    assert state.dump() == {"rates": {}}
    state.raw.execute("INSERT INTO rates (day, rate) VALUES ('2026-01-02', 7), ('2026-01-01', 5)")
    assert state.dump() == {"rates": {"2026-01-01": {"rate": 5}, "2026-01-02": {"rate": 7}}}


def test_a_session_delta_is_recomputed_after_any_write():
    session = ToolSession(resolve("notion"))
    session.reset()
    first = session.delta()
    assert session.delta() is first  # nothing written: the same delta
    page = next(iter(session.dump()["pages"]))
    outcome = session.call("update_page", {"page_id": page, "title": "Renamed for the delta test"})
    assert outcome.ok, outcome.error
    after = session.delta()
    assert after is not first and after != first


def test_read_only_blocks_writes():
    state = make_state([{"id": 1, "name": "a"}])
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        with state.atomic(read_only=True):
            state.raw.execute("DELETE FROM items")
    assert len(state.dump()["items"]) == 1
    with state.atomic():  # query_only is switched off again afterwards
        state.raw.execute("DELETE FROM items")
    assert state.dump()["items"] == {}


def test_volatile_columns_are_not_compared():
    a = make_state([{"id": 1, "name": "a", "touched_at": "2025-01-01"}])
    b = make_state([{"id": 1, "name": "a", "touched_at": "2030-12-31"}])
    assert a.dump() == b.dump() and state_hash(a.dump()) == state_hash(b.dump())
    assert a.dump_snapshot()["tables"]["items"][0]["touched_at"] == "2025-01-01"


def test_snapshot_validation():
    with pytest.raises(ValueError):
        build_snapshot(meta, {"tables": {"nope": []}})
    with pytest.raises(DataFileError, match=r"tables.items\[0\].*valid integer"):
        build_snapshot(meta, {"tables": {"items": [{"id": "not-an-int", "name": "a"}]}})


def test_dump_snapshot_round_trip():
    state = make_state([{"id": 2, "name": "b", "touched_at": "x"}, {"id": 1, "name": "a"}])
    again = make_state(state.dump_snapshot()["tables"]["items"])
    assert again.dump() == state.dump()


def test_sessions_are_isolated():
    spec = resolve("notion")
    first, second = ToolSession(spec), ToolSession(spec)
    first.reset()
    second.reset()
    users = first.call("list_users", {}).output
    page = first.call("search_pages", {"query": "Q3 Roadmap"}).output["results"][0]["id"]
    assert first.call("update_page", {"page_id": page, "title": "Renamed"}).ok
    assert second.call("retrieve_page", {"page_id": page}).output["title"] == "Q3 Roadmap"
    assert first.call("retrieve_page", {"page_id": page}).output["title"] == "Renamed"
    first.reset()
    assert first.call("retrieve_page", {"page_id": page}).output["title"] == "Q3 Roadmap"
    assert users


def test_ids_are_deterministic_and_roll_back():
    spec = resolve("notion")
    session = ToolSession(spec)
    session.reset()
    parent = session.call("search_pages", {"query": "Engineering Wiki"}).output["results"][0]["id"]
    bad = session.call(
        "create_page", {"title": "A", "parent_page_id": parent, "children": [{"type": "paragraph", "checked": True}]}
    )
    assert not bad.ok
    first = session.call("create_page", {"title": "A", "parent_page_id": parent}).output["id"]
    session.reset()
    again = session.call("create_page", {"title": "A", "parent_page_id": parent}).output["id"]
    assert first == again


def test_json_columns_holding_plain_numbers_and_strings():
    from sqlalchemy import JSON

    from envfactory_gym import Database
    from envfactory_gym.database import SimClock

    schema = MetaData()
    settings = Table("settings", schema, Column("id", String, primary_key=True), Column("value", JSON))
    state = SQLiteState(schema)
    state.restore(
        build_snapshot(
            schema,
            {
                "tables": {
                    "settings": [
                        {"id": "ttl", "value": 300},
                        {"id": "mode", "value": "strict"},
                        {"id": "list", "value": [1, 2]},
                    ]
                }
            },
        )
    )
    assert state.dump()["settings"] == {
        "ttl": {"id": "ttl", "value": 300},
        "mode": {"id": "mode", "value": "strict"},
        "list": {"id": "list", "value": [1, 2]},
    }
    db = Database(state, SimClock())
    assert db.get(settings, "ttl")["value"] == 300 and db.find(settings, id="list")[0]["value"] == [1, 2]


def test_find_by_none_matches_null_on_the_fast_path_as_sqlalchemy_does():
    from envfactory_gym.database import Database, SimClock

    state = make_state([{"id": 1, "name": "a", "touched_at": None}, {"id": 2, "name": "b", "touched_at": "2025-01-01"}])
    db = Database(state, SimClock())
    fast = db.find(items, touched_at=None)
    assert [r["id"] for r in fast] == [1]
    assert fast == db.find(items, items.c.touched_at.is_(None))  # the SQLAlchemy path
    assert [r["id"] for r in db.find(items, touched_at="2025-01-01")] == [2]
    state.close()


def test_find_one_gives_the_first_match_or_the_callers_not_found():
    from envfactory_gym.errors import NotFound

    session = ToolSession(resolve("notion"))
    session.reset()
    db, pages = session.database, resolve("notion").schema.tables["pages"]
    first = db.find(pages)[0]
    assert db.find_one(pages, id=first["id"], not_found="no such page") == first
    assert db.find_one(pages, not_found="unused") == first  # several match: the first `find` gives
    with pytest.raises(NotFound, match="^no such page$"):
        db.find_one(pages, id="missing", not_found="no such page")


def test_a_page_parametrization_survives_garbage_collection():
    """Pydantic caches `Page[X]` weakly; a tool that writes `Page[X](...)` must not rebuild the class each call."""
    import gc
    import weakref

    from envfactory_gym import Page

    class Row(BaseModel):
        n: int

    built = weakref.ref(Page[Row])
    gc.collect()
    assert built() is not None and Page[Row] is built()
