"""One isolated ToolSession per MCP session: created on the session's first request, closed when it ends."""

from __future__ import annotations

import weakref
from typing import Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..execution import ToolOutcome
from ..session import ToolSession
from ..spec import EnvironmentSpec
from ..tasks import Task, replay_calls

SESSIONLESS_ERROR = (
    "this server keeps one environment state per MCP session, and a stateless 2026-07-28 HTTP request belongs to "
    "no session; connect with the initialize handshake (MCP 2025-11-25 or older)"
)


class NoSession(Exception):
    """The request carries nothing that identifies its client across requests."""


def session_owner(connection: Any) -> object:
    """The object that lives exactly as long as the MCP session behind `connection` (an `mcp` Connection).

    Handshake-era connections persist for the whole session (stdio, or one `Mcp-Session-Id` over HTTP). A
    2026-07-28 request gets a fresh Connection per request; on a duplex stream (stdio, in-memory) the stream's
    outbound channel is shared by all its requests, so it stands for the session. A stateless HTTP request has
    neither: `NoSession`.
    """
    if connection.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return connection
    if connection.has_standalone_channel:
        return connection.outbound
    raise NoSession(SESSIONLESS_ERROR)


class SessionStore:
    """The ToolSessions of one served environment, keyed by session owner, each restored to the same start state.

    The start state is the task's snapshot and clock, with the user calls that precede its first query applied
    (what the Env's agent sees after `reset`), or the default snapshot when no task is chosen.
    """

    def __init__(self, spec: EnvironmentSpec, task: Task | None = None) -> None:
        self.spec = spec
        self.task = task
        self._sessions: weakref.WeakKeyDictionary[object, ToolSession] = weakref.WeakKeyDictionary()

    def session_for(self, connection: Any) -> ToolSession:
        """The session of `connection`'s MCP session, started on first use. Raises `NoSession` (see above)."""
        owner: Any = session_owner(connection)  # Any: `owner is connection` must not narrow `connection` to object
        session = self._sessions.get(owner)
        if session is None:
            session = self._start()
            self._sessions[owner] = session
            if owner is connection:
                connection.exit_stack.callback(self._release, connection)
            else:  # a duplex 2026 stream has no teardown hook: close with its channel object
                weakref.finalize(owner, session.close)
        return session

    def call(self, connection: Any, name: Any, arguments: Any) -> ToolOutcome:
        """Run one agent call in `connection`'s session: the Env's execution path, validation and error text."""
        return self.session_for(connection).call(name, arguments)

    @property
    def open_sessions(self) -> int:
        """How many sessions are alive."""
        return len(self._sessions)

    def close_all(self) -> None:
        """Close every session (server shutdown)."""
        while self._sessions:
            _, session = self._sessions.popitem()
            session.close()

    def probe(self) -> None:
        """Start one session and close it again: raises what setting up the start state raises."""
        self._start().close()

    def _start(self) -> ToolSession:
        session = ToolSession(self.spec)
        if self.task is None:
            session.reset()
        else:
            session.reset(self.task.snapshot, self.task.clock)
            replay_calls(session, self.task.turns[0].user_calls)
        return session

    def _release(self, owner: object) -> None:
        session = self._sessions.pop(owner, None)
        if session is not None:
            session.close()
