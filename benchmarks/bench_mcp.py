"""MCP serving cost: the same read tool via Env.step, FastMCP in-memory, stdio and streamable HTTP, plus session starts.

Run: `.venv/bin/python benchmarks/bench_mcp.py [--calls 500] [--stdio-starts 5] [--http-starts 50]`.
Every call is `retrieve_page` on the same Notion page. Prints medians, p99s and ratios vs Env.step from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator, Awaitable, Callable

from fastmcp import Client
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from envfactory_gym import ToolUseEnv
from envfactory_gym.agents import format_call
from envfactory_gym.mcp import server

ENV = "notion"
TOOL, ARGUMENTS = "retrieve_page", {"page_id": "1e990d99-d02b-5a2c-b861-5410b1be8f44"}
SERVE = [sys.executable, "-m", "envfactory_gym.cli", "serve", ENV]
WARMUP = 20


def summary(samples: list[float]) -> tuple[float, float]:
    """(median, p99) in microseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1e6


def env_step_samples(n: int) -> list[float]:
    """(a) In-process `ToolUseEnv.step` with the call as Hermes text (a fresh episode every 50 steps, untimed)."""
    env = ToolUseEnv(ENV, max_steps=10**9)
    action = format_call(TOOL, ARGUMENTS)
    samples: list[float] = []
    for index in range(n + WARMUP):
        if index % 50 == 0:
            env.reset(seed=0)
        start = time.perf_counter()
        observation, *_ = env.step(action)
        elapsed = time.perf_counter() - start
        assert "Error" not in observation
        if index >= WARMUP:
            samples.append(elapsed)
    env.close()
    return samples


async def call_samples(call: Callable[[], Awaitable[object]], n: int) -> list[float]:
    """Seconds per awaited call, after a warm-up."""
    for _ in range(WARMUP):
        await call()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return samples


async def in_memory_samples(n: int) -> list[float]:
    """(b) FastMCP's in-memory client against `server(ENV)` in this process."""
    async with Client(server(ENV)) as client:
        return await call_samples(lambda: client.call_tool(TOOL, ARGUMENTS), n)


@asynccontextmanager
async def stdio_session() -> AsyncIterator[ClientSession]:
    """An initialized official-SDK session to `envfactory serve` as a stdio subprocess."""
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:])
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


@asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    """An initialized official-SDK session over streamable HTTP."""
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def session_samples(
    open_session: Callable[[], "AsyncIterator[ClientSession]"], n: int, starts: int
) -> tuple[list[float], list[float]]:
    """Per-call seconds in one session, and seconds from opening a session to its first call's answer."""
    async with open_session() as session:
        calls = await call_samples(lambda: session.call_tool(TOOL, ARGUMENTS), n)
    start_times = []
    for _ in range(starts):
        start = time.perf_counter()
        async with open_session() as session:
            await session.call_tool(TOOL, ARGUMENTS)
            start_times.append(time.perf_counter() - start)
    return calls, start_times


def start_http_server() -> tuple[subprocess.Popen, str]:
    """`envfactory serve ENV --transport http` on a free loopback port, once it accepts connections."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        SERVE + ["--transport", "http", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the HTTP server did not start") from None
            time.sleep(0.05)


async def main(args: argparse.Namespace) -> None:
    rows: list[tuple[str, list[float]]] = [("(a) Env.step in-process", env_step_samples(args.calls))]
    rows.append(("(b) FastMCP in-memory client", await in_memory_samples(args.calls)))
    stdio_calls, stdio_starts = await session_samples(stdio_session, args.calls, args.stdio_starts)
    rows.append(("(c) MCP stdio (official client)", stdio_calls))
    process, url = start_http_server()
    try:
        http_calls, http_starts = await session_samples(lambda: http_session(url), args.calls, args.http_starts)
    finally:
        process.terminate()
        process.wait(timeout=10)
    rows.append(("(d) MCP streamable HTTP, loopback", http_calls))

    base = summary(rows[0][1])[0]
    print(f"per-call latency of {TOOL} on {ENV}, {args.calls} calls each")
    print(f"{'path':36} {'median us':>10} {'p99 us':>10} {'x (a)':>8}")
    for name, samples in rows:
        median, p99 = summary(samples)
        print(f"{name:36} {median:10.0f} {p99:10.0f} {median / base:8.1f}")
    print("\nsession start: open + initialize + first call answered")
    for name, samples in (("(c) stdio: new server process", stdio_starts), ("(d) HTTP: new session", http_starts)):
        median, p99 = summary(samples)
        print(f"{name:36} median {median / 1000:8.1f} ms   p99 {p99 / 1000:8.1f} ms   ({len(samples)} starts)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--stdio-starts", type=int, default=5)
    parser.add_argument("--http-starts", type=int, default=50)
    asyncio.run(main(parser.parse_args()))
