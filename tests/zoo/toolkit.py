"""What every zoo environment's tool tests share: a fresh session per test, and calls that must succeed or fail."""

from __future__ import annotations

import copy
import json
from datetime import datetime
from functools import lru_cache
from typing import Any, Callable, Iterator

import pytest

from envfactory_gym import ToolSession
from envfactory_gym.execution import ToolOutcome
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.state import build_snapshot


def session_fixture(
    spec: EnvironmentSpec, clock: datetime, snapshot: str = "seed"
) -> Callable[[], Iterator[ToolSession]]:
    """A pytest fixture named `session`: a session of `spec` restored to `snapshot` at `clock`, closed after the
    test. Assign it at module level: `session = session_fixture(SPEC, CLOCK)`."""

    @pytest.fixture(name="session")
    def fixture() -> Iterator[ToolSession]:
        opened = ToolSession(spec)
        opened.reset(snapshot, clock)
        yield opened
        opened.close()

    return fixture


def ok(session: ToolSession, name: str, args: dict[str, Any] | None = None, caller: str = "agent") -> Any:
    """Call a tool that must succeed; returns its output."""
    outcome = session.call(name, args or {}, caller=caller)  # type: ignore[arg-type]
    assert outcome.ok, outcome.error
    return outcome.output


def fails(
    session: ToolSession, name: str, args: dict[str, Any], kind: str, text: str, caller: str = "agent"
) -> ToolOutcome:
    """Call a tool that must fail with error `kind` and a message containing `text`, and change nothing."""
    before = session.dump()
    outcome = session.call(name, args, caller=caller)  # type: ignore[arg-type]
    assert not outcome.ok
    assert outcome.error_kind == kind, outcome.error
    assert text in (outcome.error or ""), outcome.error
    assert session.dump() == before
    return outcome


@lru_cache(maxsize=None)
def _seed_tables(spec: EnvironmentSpec) -> str:
    return spec.snapshot_path("seed").read_text()


def restore_seed_with(
    session: ToolSession, edit: Callable[[dict[str, list[dict[str, Any]]]], None], clock: datetime
) -> None:
    """Restore `session` to a copy of its environment's seed changed by `edit(tables)` (rows per table, edited in
    place), for states the seed lacks (an account without a subscription, an empty inventory, ...)."""
    data = copy.deepcopy(json.loads(_seed_tables(session.spec)))
    edit(data["tables"])
    session.restore_bytes(build_snapshot(session.spec.schema, data), clock)
