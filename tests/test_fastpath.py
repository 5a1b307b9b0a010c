"""Raw-SQL writes store exactly what SQLAlchemy stores, on every simple table of the zoo."""

from __future__ import annotations

import pytest

from envfactory_gym import load_zoo_environment, zoo_keys
from envfactory_gym.fastpath import reader
from envfactory_gym.session import ToolSession


@pytest.mark.parametrize("key", zoo_keys())
def test_fast_inserts_and_updates_store_what_sqlalchemy_stores(key):
    spec = load_zoo_environment(key)
    fast_side, reference = ToolSession(spec), ToolSession(spec)
    checked = 0
    for session in (fast_side, reference):
        session.reset()
        session.state.raw.execute("PRAGMA foreign_keys=OFF")  # rows are taken out and put back
    for table in spec.schema.sorted_tables:
        fast = reader(table)
        if fast is None or len(table.primary_key.columns) > 1:
            continue
        for row in fast_side.database.find(table)[:2]:
            pk = fast.pk
            where = (table.name, str(row[pk])), (row[pk],)
            for session in (fast_side, reference):
                session.state.raw.execute(f'DELETE FROM "{table.name}" WHERE "{pk}" = ?', (row[pk],))
            fast_side.database.insert(table, **row)
            reference.database.conn.execute(table.insert().values(**row))
            stored = [s.state.raw_rows(dict([where]))[where[0]] for s in (fast_side, reference)]
            assert stored[0] == stored[1], table.name
            changes = {k: v for k, v in row.items() if k != pk}
            if changes:
                fast_side.database.update(table, row[pk], **changes)
                reference.database.conn.execute(table.update().where(table.c[pk] == row[pk]).values(**changes))
                stored = [s.state.raw_rows(dict([where]))[where[0]] for s in (fast_side, reference)]
                assert stored[0] == stored[1], table.name
            checked += 1
    assert checked > 0
    fast_side.close()
    reference.close()
