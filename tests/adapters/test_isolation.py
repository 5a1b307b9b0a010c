"""isolate=True: the external code runs in the runtime's sandbox, one persistent worker per environment."""

from __future__ import annotations

import pytest

from envfactory_gym.adapters import ImportOptions, load_environment
from envfactory_gym.sandbox import SandboxUnavailable, kernel
from envfactory_gym.session import ToolSession

from .conftest import FIXTURES
from .contract import convert

FIXTURE = FIXTURES / "envfactory"
OPTIONS = ImportOptions(tasks=str(FIXTURE / "rl_rows.json"))


def test_sandboxed_environment_behaves_like_the_in_process_one(tmp_path):
    sandboxed = load_environment(
        "envfactory", FIXTURE, "Ledger", "ext-sandboxed", tmp_path / "s", OPTIONS, isolate=True
    )
    local = convert("envfactory", FIXTURE, tmp_path / "l", OPTIONS)
    assert {n: t.input_schema for n, t in sandboxed.tools.items()} == {
        n: t.input_schema for n, t in local.tools.items()
    }
    assert (tmp_path / "s" / "tasks.jsonl").read_text() == (tmp_path / "l" / "tasks.jsonl").read_text()
    sessions = [ToolSession(sandboxed), ToolSession(local)]
    for session in sessions:
        session.reset("seed")
        assert session.call("transfer", {"source": "acc-1", "target": "acc-2", "amount": 7.5}).ok
        failed = session.call("open_account", {"account_id": "acc-2", "owner": "X"})
        assert failed.text == "Error: ValueError: Account acc-2 already exists"
    assert sessions[0].dump() == sessions[1].dump()


def test_missing_sandbox_or_unsupported_format_says_so(tmp_path, monkeypatch):
    with pytest.raises(NotImplementedError, match="asyncio"):
        load_environment("awm", FIXTURES / "awm", "library_1", "ext-x", tmp_path, isolate=True)

    def no_bubblewrap() -> str:  # a machine without the sandbox's tools
        raise SandboxUnavailable("bubblewrap is not installed")

    monkeypatch.setattr(kernel, "check_available", no_bubblewrap)
    monkeypatch.delenv("ENVFACTORY_UNSANDBOXED", raising=False)
    with pytest.raises(SandboxUnavailable, match="bubblewrap is not installed"):
        load_environment("envfactory", FIXTURE, "Ledger", "ext-x", tmp_path, OPTIONS, isolate=True)
