"""MCP serving cost: the same read tool via Env.step, FastMCP in-memory, stdio and streamable HTTP, plus session starts
and the server's memory per session.

Run: `.venv/bin/python benchmarks/bench_mcp.py [--calls 500] [--stdio-starts 5] [--http-starts 50] [--sessions 100]`.
Every call is `retrieve_page` on the same Notion page. Prints medians, p99s and ratios vs Env.step from one run,
then the HTTP server's resident memory (Linux /proc) with `--sessions` sessions open, after they end, and over
rounds of sessions abandoned without ending (freed by a 2-second idle timeout).
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
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
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
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=dict(os.environ))  # this checkout's code
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


def start_http_server(*options: str) -> tuple[subprocess.Popen, str]:
    """`envfactory serve ENV --transport http [options]` on a free loopback port, once it accepts connections."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        SERVE + ["--transport", "http", "--port", str(port), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
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


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc status")


async def open_sessions(url: str, count: int, stack: AsyncExitStack, end: bool = True) -> None:
    """Open `count` official-SDK sessions on `stack`, each with one call answered (its state is built).
    `end=False`: leaving the stack drops the connection without ending the session (no DELETE), as a client that
    crashed or vanished does."""
    for _ in range(count):
        streams = await stack.enter_async_context(streamable_http_client(url, terminate_on_close=end))
        session = await stack.enter_async_context(ClientSession(*streams))
        await session.initialize()
        await session.call_tool(TOOL, ARGUMENTS)


async def memory_per_session(count: int, idle: float | None, rounds: int = 3) -> list[tuple[str, int]]:
    """Server RSS (KiB) at each stage: warm; without an idle timeout also `count` sessions open and after they
    end; then after each round of `count` abandoned sessions (once the idle timeout of `idle` s has passed)."""
    process, url = start_http_server("--idle-timeout", str(idle) if idle else "none")
    try:
        async with AsyncExitStack() as stack:  # warm-up: imports, the snapshot, compiled statements
            await open_sessions(url, 2, stack)
        await asyncio.sleep(0.5)
        stages = [("warm (2 sessions opened and ended)", rss_kib(process.pid))]
        if idle is None:  # with a timeout, the first sessions could expire while the last ones open
            async with AsyncExitStack() as stack:
                await open_sessions(url, count, stack)
                stages.append((f"{count} sessions open", rss_kib(process.pid)))
            await asyncio.sleep(0.5)
            stages.append((f"{count} sessions ended (DELETE)", rss_kib(process.pid)))
        for round_ in range(1, rounds + 1):
            async with AsyncExitStack() as stack:
                await open_sessions(url, count, stack, end=False)
            await asyncio.sleep(idle * 2.5 if idle else 0.5)
            stages.append((f"round {round_}: {count} more abandoned", rss_kib(process.pid)))
        return stages
    finally:
        process.terminate()
        process.wait(timeout=10)


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

    count = args.sessions
    print(f"\nHTTP server resident memory (KiB), {count} sessions per stage")
    for idle in (None, 2.0):
        stages = await memory_per_session(count, idle)
        print(f"with --idle-timeout {idle or 'none'}:")
        for name, kib in stages:
            print(f"  {name:40} {kib:9,d}   {kib - stages[0][1]:+9,d} vs warm")
        if idle is None:
            print(f"  an open session: {(stages[1][1] - stages[0][1]) / count:.0f} KiB")
        growth = (stages[-1][1] - stages[-3][1]) / (2 * count)
        print(f"  rounds 2-3 of abandoned sessions add {growth:+.1f} KiB per session")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--stdio-starts", type=int, default=5)
    parser.add_argument("--http-starts", type=int, default=50)
    parser.add_argument("--sessions", type=int, default=100, help="sessions per memory stage")
    asyncio.run(main(parser.parse_args()))
