"""Build a FastMCP server from an EnvironmentSpec: its agent tools (with input and output schemas), resources for
the description, the state and the episode, and the trainers' control surface."""

from __future__ import annotations

import asyncio
import contextlib
import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastmcp import FastMCP
from fastmcp.exceptions import ResourceError
from fastmcp.server.context import Context
from fastmcp.server.dependencies import get_context
from fastmcp.server.middleware import Middleware
from fastmcp.tools.base import Tool, ToolResult
from fastmcp.utilities.json_schema import is_object_schema
from mcp_types import DiscoverResult, ToolAnnotations
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import PrivateAttr

from ..limits import MAX_ACTION_LENGTH, MAX_TOOL_RESPONSE_LENGTH
from ..registry import resolve
from ..spec import EnvironmentSpec, ToolSpec
from ..tasks import load_tasks
from .control import ARGUMENTS as CONTROL_TOOLS
from .control import describe, run_control
from .sessions import IDLE_TIMEOUT, MAX_SESSIONS, EpisodeError, McpSession, NoSession, SessionStore

#: Marks an output schema whose value travels as `{"result": value}` (fastmcp's convention, which its client
#: unwraps): MCP structured content must be an object.
WRAP = "x-fastmcp-wrap-result"


def connection_of(ctx: Context) -> Any:
    """The SDK's per-connection object behind a request (fastmcp's own stateful proxy keys on it the same way)."""
    return ctx.session._connection


def calling_session(store: SessionStore) -> McpSession:
    """The MCP session of the request being served. Raises `NoSession`."""
    return store.session_for(connection_of(get_context()))


def output_schema(tool: ToolSpec) -> dict[str, Any]:
    """The MCP output schema of a tool: its return type's JSON schema (serialization mode), wrapped as
    `{"result": ...}` when it is not an object."""
    schema = tool.output_adapter.json_schema(mode="serialization")
    if is_object_schema(schema):
        return schema
    definitions = schema.pop("$defs", None)
    wrapped = {"type": "object", "properties": {"result": schema}, "required": ["result"], WRAP: True}
    return {**wrapped, "$defs": definitions} if definitions else wrapped


def run_call(store: SessionStore, name: Any, arguments: Any, wrap: bool = False) -> ToolResult:
    """Execute one call in the calling session. A failed call is an MCP tool error carrying the Env's text; a
    result carries the tool's output as structured content (`{"result": ...}` when `wrap`), except one cut to the
    tool-response limit, which is sent as a tool error with the Env's cut text (it no longer fits the schema). A
    start state that cannot be set up is said as such (not passed on as the protocol's invalid-parameters error)."""
    try:
        session = calling_session(store)
    except NoSession as exc:
        return ToolResult(content=f"Error: {exc}", is_error=True)
    except Exception as exc:  # the session could not start: the environment, not the call, is broken
        return ToolResult(content=f"Error: {start_state_error(store.spec, exc)}", is_error=True)
    result = session.call(name, arguments)
    if not result.ok:
        return ToolResult(content=result.text, is_error=True)
    if wrap:
        return ToolResult(
            content=result.text, structured_content={"result": result.output}, meta={"fastmcp": {"wrap_result": True}}
        )
    return ToolResult(content=result.text, structured_content=result.output)


def start_state_error(spec: EnvironmentSpec, error: Exception) -> str:
    """One line saying that an environment's start state does not load, and why."""
    reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"the start state of {spec.name} does not load ({type(error).__name__}{': ' + reason if reason else ''})"


class EnvironmentTool(Tool):
    """One agent-facing tool of the environment, with its derived schemas; it runs in the caller's own state."""

    _store: SessionStore = PrivateAttr()

    @classmethod
    def from_spec(cls, tool: ToolSpec, store: SessionStore) -> "EnvironmentTool":
        """The MCP tool for `tool`, backed by the sessions of `store`."""
        built = cls(
            name=tool.name,
            description=tool.description,
            parameters=tool.input_schema,
            output_schema=output_schema(tool),
            annotations=ToolAnnotations(read_only_hint=tool.read_only),
        )
        built._store = store
        return built

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        """Validate and execute the call atomically (the same path and limits as the Env).

        Calls take microseconds, so they run on the event loop: one session's calls never overlap.
        """
        wrap = bool(self.output_schema and self.output_schema.get(WRAP))
        return run_call(self._store, self.name, arguments, wrap)


class SessionfulMiddleware(Middleware):
    """Keeps the Env's answers for calls the tool list lacks, serves the control tools, and steers HTTP clients to
    sessionful MCP.

    - A call to an unknown or user-only tool gets the Env's own error text instead of a generic not-found.
    - With `control`, the unlisted `envfactory.reset` and `envfactory.respond` run in the caller's session.
    - A stateless 2026-07-28 HTTP request has no session to hold a state, so `server/discover` over HTTP
      advertises only handshake-era versions; auto-negotiating clients then use `initialize` and get a session
      (duplex streams keep the 2026 era: a stream is one client).
    """

    def __init__(self, store: SessionStore, control: bool) -> None:
        self.store = store
        self.control = control
        self.names = {tool.name for tool in store.spec.agent_tools}

    async def on_call_tool(self, context, call_next):
        """Answer calls to names that are not agent tools: control tools, or the Env's error."""
        name = context.message.name
        if name in self.names:
            return await call_next(context)
        if self.control and name in CONTROL_TOOLS:
            return run_control(lambda: calling_session(self.store), name, context.message.arguments)
        return run_call(self.store, name, context.message.arguments)

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


async def close_idle_sessions(store: SessionStore) -> None:
    """Close idle sessions every quarter of the idle timeout (at most every 30 s), until cancelled."""
    assert store.idle_timeout is not None
    while True:
        await asyncio.sleep(min(max(store.idle_timeout / 4, 0.05), 30.0))
        store.close_idle()


def server(
    name: str | EnvironmentSpec,
    task_id: str | None = None,
    *,
    max_sessions: int | None = MAX_SESSIONS,
    idle_timeout: float | None = IDLE_TIMEOUT,
    max_action_length: int = MAX_ACTION_LENGTH,
    max_tool_response_length: int = MAX_TOOL_RESPONSE_LENGTH,
    control: bool = True,
) -> EnvironmentServer:
    """A FastMCP server for a zoo environment; every MCP session starts from the task's state (or the default one).

    `max_sessions`, `idle_timeout` (seconds), and the Env's limits on calls and results are `SessionStore`'s.
    `control` adds the trainers' control surface (unlisted tools `envfactory.reset` / `envfactory.respond`, the
    `episode` and `control` resources). The tasks and the start state are loaded here: a malformed tasks file
    raises `DataFileError`, a start state that does not load `ValueError`, before anything is served. The server
    object is for embedding (`Client(server("notion"))`, `.http_app()`) or running (`.run()`).
    """
    spec = name if isinstance(name, EnvironmentSpec) else resolve(name)
    tasks = load_tasks(spec)
    task = None
    if task_id is not None:
        if task_id not in tasks:
            raise KeyError(f"unknown task {task_id!r} for {spec.name}")
        task = tasks[task_id]
    store = SessionStore(
        spec,
        task,
        max_sessions=max_sessions,
        idle_timeout=idle_timeout,
        max_action_length=max_action_length,
        max_tool_response_length=max_tool_response_length,
    )
    try:  # a broken start state is said when the server starts, not with every call
        store.probe()
    except Exception as exc:
        raise ValueError(start_state_error(spec, exc)) from exc

    @asynccontextmanager
    async def lifespan(_: FastMCP) -> AsyncIterator[dict[str, Any]]:
        sweeper = asyncio.create_task(close_idle_sessions(store)) if store.idle_timeout is not None else None
        try:
            yield {}
        finally:
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper
            store.close_all()

    app = EnvironmentServer(
        store,
        name=f"envfactory-{spec.key}",
        instructions=f"{spec.description}\nEach MCP session has its own copy of this {spec.product} data.",
        version=str(spec.version),
        lifespan=lifespan,
        middleware=[SessionfulMiddleware(store, control)],
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
            session = calling_session(store)
        except NoSession as exc:
            raise ResourceError(str(exc)) from None
        return json.dumps(session.state.dump(), ensure_ascii=False, sort_keys=True, default=str)

    if control:
        episode_uri = f"envfactory://{spec.key}/episode"

        @app.resource(episode_uri, name="episode", mime_type="application/json")
        async def episode() -> str:
            """This session's episode (after `envfactory.reset`): task, turn, step, whether it is over, and the
            reward with every component it would get if it stopped now (the final reward once it is over)."""
            try:
                return json.dumps(calling_session(store).status(), ensure_ascii=False)
            except (NoSession, EpisodeError) as exc:
                raise ResourceError(str(exc)) from None

        @app.resource(f"envfactory://{spec.key}/control", name="control", mime_type="application/json")
        async def control_surface() -> str:
            """The trainers' control tools (not listed in tools/list) with their input schemas."""
            return json.dumps(describe(episode_uri), ensure_ascii=False)

    return app
