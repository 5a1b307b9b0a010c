"""`envfactory serve`: run an environment's MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import argparse
import sys


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until the client disconnects (stdio) or the process is stopped (http)."""
    from ..mcp import server  # fastmcp is imported only by the commands that need it

    try:
        app = server(args.name, task_id=args.task)
    except (KeyError, ValueError) as exc:
        print(f"envfactory serve: {exc.args[0]}", file=sys.stderr)
        return 2
    if args.transport == "stdio":
        app.run("stdio", show_banner=False)
    else:
        app.run("http", show_banner=False, host=args.host, port=args.port, path=args.path)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `serve` sub-command."""
    serve = subparsers.add_parser(
        "serve", help="serve an environment over MCP (one isolated state per MCP session)",
        description="Serve an environment's agent tools over MCP. Every MCP session gets its own copy of the "
        "state, restored from the task's snapshot (--task) or the default snapshot.",
    )
    serve.add_argument("name", help="environment key, name or gymnasium id (e.g. notion)")
    serve.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                       help="stdio (a client starts the server) or streamable http (default stdio)")
    serve.add_argument("--host", default="127.0.0.1", help="http: address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="http: port (default 8000)")
    serve.add_argument("--path", default="/mcp", help="http: endpoint path (default /mcp)")
    serve.add_argument("--task", default=None, help="start every session from this task's snapshot and clock")
    serve.set_defaults(func=cmd_serve)
