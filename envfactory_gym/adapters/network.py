"""Network use of imported code: found in the source (imports of HTTP and socket libraries) and caught at run time
(Python's audit events for DNS lookups and connections), refused unless the import allowed it (`--allow-network`).

The guard is active only while external code runs (its import, snapshot building, tool calls, checks); the rest of
the process (an MCP server, an LLM client) is never affected. A refused attempt raises `NetworkRefused` in the
external code and is also recorded, so an attempt the code swallows is still reported.
"""

from __future__ import annotations

import ast
import sys
import threading
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

#: Modules whose import means the code can reach the network.
NETWORK_MODULES = frozenset(
    {
        "requests",
        "urllib.request",
        "urllib3",
        "http.client",
        "httpx",
        "httpx2",
        "aiohttp",
        "socket",
        "websocket",
        "websockets",
        "ftplib",
        "smtplib",
        "grpc",
        "openai",
        "anthropic",
        "boto3",
        "googleapiclient",
    }
)
_EVENTS = frozenset(
    {
        "socket.connect",
        "socket.getaddrinfo",
        "socket.gethostbyname",
        "socket.gethostbyaddr",
        "socket.sendto",
        "socket.sendmsg",
        "urllib.Request",
    }
)
_HOOK_LOCK = threading.Lock()
_hook_installed = False


class NetworkRefused(PermissionError):
    """External code tried to use the network and the import did not allow it."""


@dataclass
class NetworkPolicy:
    """Whether one environment's code may use the network, and the attempts seen so far."""

    source: str
    allowed: bool = False
    attempts: list[str] = field(default_factory=list)

    def refusal(self, what: str) -> NetworkRefused:
        """The error for one refused attempt (recorded too)."""
        if what not in self.attempts:
            self.attempts.append(what)
        return NetworkRefused(
            f"{self.source} tried to use the network ({what}); imported environments run offline unless imported "
            "with --allow-network"
        )


_ACTIVE: ContextVar[NetworkPolicy | None] = ContextVar("envfactory_network", default=None)


def _describe(event: str, args: tuple[Any, ...]) -> str:
    if event == "urllib.Request":
        return f"request to {args[0]}"
    if event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
        address = args[1] if len(args) > 1 else "?"
        return (
            f"connection to {address[0]}:{address[1]}"
            if isinstance(address, tuple) and len(address) >= 2
            else f"connection to {address}"
        )
    return f"lookup of {args[0]}" if args else event


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event not in _EVENTS:
        return
    policy = _ACTIVE.get()
    if policy is None:
        return
    if policy.allowed:
        what = _describe(event, args)
        if what not in policy.attempts:
            policy.attempts.append(what)
        return
    raise policy.refusal(_describe(event, args))


def _install() -> None:
    global _hook_installed
    with _HOOK_LOCK:
        if not _hook_installed:
            sys.addaudithook(_audit)
            _hook_installed = True


class guarded:  # noqa: N801 - used as a context manager, like contextlib's
    """Run external code under `policy` (None: unguarded)."""

    __slots__ = ("policy", "token")

    def __init__(self, policy: NetworkPolicy | None) -> None:
        self.policy = policy
        if policy is not None and not _hook_installed:
            _install()

    def __enter__(self) -> None:
        self.token = _ACTIVE.set(self.policy) if self.policy is not None else None

    def __exit__(self, *exc: Any) -> None:
        if self.token is not None:
            _ACTIVE.reset(self.token)


def network_imports(paths: list[Path]) -> dict[str, list[str]]:
    """The network modules each Python file imports (files that import none are left out)."""
    found: dict[str, list[str]] = {}
    for path in paths:
        if path.suffix != ".py" or not path.is_file():
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        modules = sorted({name for name in _imported(tree) if _is_network(name)})
        if modules:
            found[str(path)] = modules
    return found


def source_network_imports(source: str) -> list[str]:
    """The network modules a piece of source code imports."""
    try:
        return sorted({name for name in _imported(ast.parse(source)) if _is_network(name)})
    except SyntaxError:
        return []


def _imported(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _is_network(name: str) -> bool:
    parts = name.split(".")
    return any(".".join(parts[:i]) in NETWORK_MODULES for i in range(1, len(parts) + 1))
