"""MCP serving: the official `mcp` client over stdio and streamable HTTP, and fastmcp's in-memory client.

Every MCP session must get its own state: two clients of one server never see each other's writes.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator

import pytest
from fastmcp import Client
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from envfactory_gym import load_tasks, resolve
from envfactory_gym.mcp import server
from envfactory_gym.tasks import replay

WIKI = "52fe7420-3eb6-5426-86de-5bf2470a0249"  # "Engineering Wiki", shared with the integration
GUIDELINES = "1e990d99-d02b-5a2c-b861-5410b1be8f44"  # "Code review guidelines", a child of the wiki
SERVE = [sys.executable, "-m", "envfactory_gym.cli", "serve", "notion"]


def text(result) -> str:
    """The text of a tool result's single content block."""
    assert len(result.content) == 1
    return result.content[0].text


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def http_url():
    """`envfactory serve notion --transport http` on a free loopback port, killed after the module."""
    port = free_port()
    process = subprocess.Popen(
        SERVE + ["--transport", "http", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError as exc:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the HTTP server did not start") from exc
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    """An initialized official-SDK session over streamable HTTP."""
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session() -> AsyncIterator[ClientSession]:
    """An initialized official-SDK session with `envfactory serve notion` as a stdio subprocess."""
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def create_and_search(session: ClientSession, title: str) -> list[str]:
    """Create a page titled `title` in the wiki, then return the titles the session finds under 'Scratch'."""
    created = await session.call_tool("create_page", {"title": title, "parent_page_id": WIKI})
    assert not created.is_error, text(created)
    await asyncio.sleep(0.01)  # let the other session interleave
    found = await session.call_tool("search_pages", {"query": "scratch"})
    return sorted(r["title"] for r in json.loads(text(found))["results"])


async def check_tools_and_errors(session: ClientSession) -> None:
    """Tool list, a write read back by a tool and by the state resource, and malformed calls that change nothing."""
    spec = resolve("notion")
    listed = {t.name: t for t in (await session.list_tools()).tools}
    assert set(listed) == {t.name for t in spec.agent_tools}
    assert "add_connection" not in listed
    assert listed["retrieve_page"].input_schema == spec.tools["retrieve_page"].input_schema
    assert listed["retrieve_page"].description == spec.tools["retrieve_page"].description

    trashed = await session.call_tool("move_page_to_trash", {"page_id": GUIDELINES})
    assert not trashed.is_error and json.loads(text(trashed))["in_trash"] is True
    page = await session.call_tool("retrieve_page", {"page_id": GUIDELINES})
    assert json.loads(text(page))["in_trash"] is True
    state = json.loads((await session.read_resource("envfactory://notion/state")).contents[0].text)
    assert state["pages"][GUIDELINES]["in_trash"] is True

    unknown = await session.call_tool("delete_everything", {})
    assert unknown.is_error and text(unknown).startswith("Error: unknown tool 'delete_everything'")
    wrong_type = await session.call_tool("restore_page", {"page_id": 5})
    assert wrong_type.is_error
    assert text(wrong_type) == "Error: invalid arguments for 'restore_page': page_id: Input should be a valid string"
    user_only = await session.call_tool("add_connection", {"page_title": "HR Policies"})
    assert user_only.is_error and "can only be performed by the user" in text(user_only)

    page = await session.call_tool("retrieve_page", {"page_id": GUIDELINES})  # the session goes on, unchanged
    assert not page.is_error and json.loads(text(page))["in_trash"] is True


def test_stdio_tools_state_and_errors():
    asyncio.run(_stdio_tools_state_and_errors())


async def _stdio_tools_state_and_errors() -> None:
    async with stdio_session() as session:
        await check_tools_and_errors(session)
        description = (await session.read_resource("envfactory://notion/description")).contents[0].text
        assert "Notion" in description and "own copy" in description


def test_http_tools_state_and_errors(http_url):
    asyncio.run(_http_tools_state_and_errors(http_url))


async def _http_tools_state_and_errors(url: str) -> None:
    async with http_session(url) as session:
        await check_tools_and_errors(session)
    async with http_session(url) as fresh:  # a new session starts from the snapshot again
        page = await fresh.call_tool("retrieve_page", {"page_id": GUIDELINES})
        assert json.loads(text(page))["in_trash"] is False


def test_http_concurrent_sessions_are_isolated(http_url):
    asyncio.run(_http_concurrent_sessions_are_isolated(http_url))


async def _http_concurrent_sessions_are_isolated(url: str) -> None:
    async with http_session(url) as a, http_session(url) as b:
        seen_a, seen_b = await asyncio.gather(create_and_search(a, "Scratch A"), create_and_search(b, "Scratch B"))
        assert seen_a == ["Scratch A"]
        assert seen_b == ["Scratch B"]
        state_b = (await b.read_resource("envfactory://notion/state")).contents[0].text
        assert "Scratch B" in state_b and "Scratch A" not in state_b


def test_http_fastmcp_client_negotiates_a_session(http_url):
    asyncio.run(_http_fastmcp_client_negotiates_a_session(http_url))


async def _http_fastmcp_client_negotiates_a_session(url: str) -> None:
    async with Client(url) as client:  # mode="auto" probes the 2026 era; the server steers it to a session
        assert client.protocol_version == "2025-11-25"
        await client.call_tool("move_page_to_trash", {"page_id": GUIDELINES})
        page = await client.call_tool("retrieve_page", {"page_id": GUIDELINES})
        assert json.loads(text(page))["in_trash"] is True
    async with Client(url, mode="2026-07-28") as stateless:  # pinned stateless requests have no session
        refused = await stateless.call_tool("list_users", {}, raise_on_error=False)
        assert refused.is_error and "initialize handshake" in text(refused)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_in_memory_sessions_are_isolated_and_closed(mode):
    asyncio.run(_in_memory_sessions(mode))


async def _in_memory_sessions(mode: str) -> None:
    app = server("notion")
    async with Client(app, mode=mode) as a, Client(app, mode=mode) as b:
        trashed = await a.call_tool("move_page_to_trash", {"page_id": GUIDELINES})
        assert json.loads(text(trashed))["in_trash"] is True
        seen_by_b = await b.call_tool("retrieve_page", {"page_id": GUIDELINES})
        assert json.loads(text(seen_by_b))["in_trash"] is False
        seen_by_a = await a.call_tool("retrieve_page", {"page_id": GUIDELINES})
        assert json.loads(text(seen_by_a))["in_trash"] is True
        assert app.sessions.open_sessions == 2
    assert app.sessions.open_sessions == 0  # each session's SQLite connection is closed when its client leaves


def test_task_start_state():
    asyncio.run(_task_start_state())


async def _task_start_state() -> None:
    spec = resolve("notion")
    task = load_tasks(spec)["notion-0004"]
    async with Client(server("notion", task_id=task.id)) as client:
        state = json.loads((await client.read_resource("envfactory://notion/state"))[0].text)
        description = (await client.read_resource("envfactory://notion/description"))[0].text
    assert state == json.loads(json.dumps(replay(spec, task).initial.full(), default=str))
    assert "task notion-0004" in description
    with pytest.raises(KeyError):
        server("notion", task_id="notion-9999")


def test_http_sessions_close_on_delete_and_on_shutdown():
    asyncio.run(_http_sessions_close())


async def _http_sessions_close() -> None:
    import uvicorn

    app = server("notion")
    port = free_port()
    web = uvicorn.Server(uvicorn.Config(app.http_app(), host="127.0.0.1", port=port, log_level="warning"))
    serving = asyncio.create_task(web.serve())
    try:
        while not web.started:
            await asyncio.sleep(0.02)
        url = f"http://127.0.0.1:{port}/mcp"
        async with http_session(url) as session:
            await session.call_tool("list_users", {})
            assert app.sessions.open_sessions == 1
        for _ in range(100):  # the client's DELETE ends the session on the server
            if app.sessions.open_sessions == 0:
                break
            await asyncio.sleep(0.02)
        assert app.sessions.open_sessions == 0
        async with streamable_http_client(url, terminate_on_close=False) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.call_tool("list_users", {})
        assert app.sessions.open_sessions == 1  # abandoned without DELETE: kept until idle timeout or shutdown
    finally:
        web.should_exit = True
        await serving
    assert app.sessions.open_sessions == 0
