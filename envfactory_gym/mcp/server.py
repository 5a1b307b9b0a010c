"""Build a FastMCP server from an EnvironmentSpec: its agent tools, a description resource and a state resource."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastmcp import FastMCP
from fastmcp.exceptions import ResourceError
from fastmcp.server.context import Context
from fastmcp.server.dependencies import get_context
from fastmcp.server.middleware import Middleware
from fastmcp.tools.base import Tool, ToolResult
from mcp_types import DiscoverResult, ToolAnnotations
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import PrivateAttr

from ..registry import resolve
from ..spec import EnvironmentSpec, ToolSpec
from ..tasks import load_tasks
from .sessions import NoSession, SessionStore


def connection_of(ctx: Context) -> Any:
    """The SDK's per-connection object behind a request (fastmcp's own stateful proxy keys on it the same way)."""
    return ctx.session._connection


def run_call(store: SessionStore, name: Any, arguments: Any) -> ToolResult:
    """Execute one call in the calling session; a failed call is an MCP tool error carrying the Env's text. A start
    state that cannot be set up is said as such (not passed on as the protocol's invalid-parameters error)."""
    try:
        outcome = store.call(connection_of(get_context()), name, arguments)
    except NoSession as exc:
        return ToolResult(content=f"Error: {exc}", is_error=True)
    except Exception as exc:  # the session could not start: the environment, not the call, is broken
        return ToolResult(content=f"Error: {start_state_error(store.spec, exc)}", is_error=True)
    return ToolResult(content=outcome.text, is_error=not outcome.ok)


def start_state_error(spec: EnvironmentSpec, error: Exception) -> str:
    """One line saying that an environment's start state does not load, and why."""
    reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"the start state of {spec.name} does not load ({type(error).__name__}{': ' + reason if reason else ''})"


class EnvironmentTool(Tool):
    """One agent-facing tool of the environment, with its derived schema; it runs in the caller's own state."""

    _store: SessionStore = PrivateAttr()

    @classmethod
    def from_spec(cls, tool: ToolSpec, store: SessionStore) -> "EnvironmentTool":
        """The MCP tool for `tool`, backed by the sessions of `store`."""
        built = cls(
            name=tool.name,
            description=tool.description,
            parameters=tool.input_schema,
            annotations=ToolAnnotations(read_only_hint=tool.read_only),
        )
        built._store = store
        return built

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        """Validate and execute the call atomically (the same ToolSession.call as the Env).

        Calls take microseconds, so they run on the event loop: one session's calls never overlap.
        """
        return run_call(self._store, self.name, arguments)


class SessionfulMiddleware(Middleware):
    """Keeps the Env's answers for calls the tool list lacks, and steers HTTP clients to sessionful MCP.

    - A call to an unknown or user-only tool gets the Env's own error text instead of a generic not-found.
    - A stateless 2026-07-28 HTTP request has no session to hold a state, so `server/discover` over HTTP
      advertises only handshake-era versions; auto-negotiating clients then use `initialize` and get a session
      (duplex streams keep the 2026 era: a stream is one client).
    """

    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self.names = {tool.name for tool in store.spec.agent_tools}

    async def on_call_tool(self, context, call_next):
        """Answer calls to names that are not agent tools through the Env's execution path."""
        if context.message.name not in self.names:
            return run_call(self.store, context.message.name, context.message.arguments)
        return await call_next(context)

    async def on_discover(self, context, call_next):
        """Advertise handshake versions to stateless HTTP requests."""
        result = await call_next(context)
        if not isinstance(result, DiscoverResult) or connection_of(context.fastmcp_context).has_standalone_channel:
            return result
        return result.model_copy(update={"supported_versions": list(HANDSHAKE_PROTOCOL_VERSIONS)})


class EnvironmentServer(FastMCP):
    """The FastMCP server of one environment; `sessions` holds the live per-session states."""

    def __init__(self, sessions: SessionStore, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sessions = sessions


def _description(spec: EnvironmentSpec, store: SessionStore) -> str:
    lines = [
        f"# {spec.name} ({spec.env_id})",
        f"Mirrors {spec.product}: {spec.docs_url}. Domain: {spec.domain}.",
        "",
        spec.description,
        "",
        "Each MCP session works on its own copy of the state; another client's writes are never visible.",
    ]
    if store.task is not None:
        lines.append(f"Start state: task {store.task.id} (snapshot '{store.task.snapshot}', clock {store.task.clock}).")
    return "\n".join(lines)


def server(name: str | EnvironmentSpec, task_id: str | None = None) -> EnvironmentServer:
    """A FastMCP server for a zoo environment; every MCP session starts from the task's state (or the default one).

    The server object is for embedding (`Client(server("notion"))`, `.http_app()`) or running (`.run()`).
    """
    spec = name if isinstance(name, EnvironmentSpec) else resolve(name)
    task = None
    if task_id is not None:
        tasks = load_tasks(spec)
        if task_id not in tasks:
            raise KeyError(f"unknown task {task_id!r} for {spec.name}")
        task = tasks[task_id]
    store = SessionStore(spec, task)
    try:  # a broken start state is said when the server starts, not with every call
        store.probe()
    except Exception as exc:
        raise ValueError(start_state_error(spec, exc)) from exc

    @asynccontextmanager
    async def lifespan(_: FastMCP) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:
            store.close_all()

    app = EnvironmentServer(
        store,
        name=f"envfactory-{spec.key}",
        instructions=f"{spec.description}\nEach MCP session has its own copy of this {spec.product} data.",
        version=str(spec.version),
        lifespan=lifespan,
        middleware=[SessionfulMiddleware(store)],
    )
    for tool in spec.agent_tools:
        app.add_tool(EnvironmentTool.from_spec(tool, store))

    @app.resource(f"envfactory://{spec.key}/description", name="description", mime_type="text/markdown")
    async def description() -> str:
        """What the environment mirrors and how its sessions work."""
        return _description(spec, store)

    @app.resource(f"envfactory://{spec.key}/state", name="state", mime_type="application/json")
    async def state() -> str:
        """Canonical dump of this session's current state (table -> primary key -> row).

        Async on purpose: like the tool calls it runs on the event loop, never beside a call in a worker thread.
        """
        try:
            session = store.session_for(connection_of(get_context()))
        except NoSession as exc:
            raise ResourceError(str(exc)) from None
        return json.dumps(session.dump(), ensure_ascii=False, sort_keys=True, default=str)

    return app
