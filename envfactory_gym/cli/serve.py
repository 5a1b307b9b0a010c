"""`envfactory serve`: run an environment's MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import argparse
import sys


def _seconds(text: str) -> float | None:
    """A positive number of seconds, or `none`."""
    if text.lower() == "none":
        return None
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds, or 'none'")
    return value


def _sessions(text: str) -> int | None:
    """A session cap of at least 1, or `none`."""
    if text.lower() == "none":
        return None
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, or 'none'")
    return value


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until the client disconnects (stdio) or the process is stopped (http, or Ctrl-C: a clean exit, 0)."""
    from ..mcp import server  # fastmcp is imported only by the commands that need it

    try:
        app = server(
            args.name,
            task_id=args.task,
            max_sessions=args.max_sessions,
            idle_timeout=args.idle_timeout,
            control=args.control,
        )
    except (KeyError, ValueError) as exc:
        print(f"envfactory serve: {exc.args[0]}", file=sys.stderr)
        return 2
    try:
        if args.transport == "stdio":
            app.run("stdio", show_banner=False)
        else:
            import uvicorn

            asgi = app.http_app(path=args.path, session_idle_timeout=args.idle_timeout)
            print(
                f"envfactory serve: {args.name} on http://{args.host}:{args.port}{args.path} (Ctrl-C stops)",
                file=sys.stderr,
            )
            uvicorn.run(asgi, host=args.host, port=args.port, log_level="warning")
    except KeyboardInterrupt:  # Ctrl-C: the sessions were closed on the way out
        print("envfactory serve: stopped", file=sys.stderr)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `serve` sub-command."""
    serve = subparsers.add_parser(
        "serve",
        help="serve an environment over MCP (one isolated state per MCP session)",
        description="Serve an environment's agent tools over MCP. Every MCP session gets its own copy of the "
        "state, restored from the task's snapshot (--task) or the default snapshot.",
    )
    serve.add_argument("name", help="environment key, name or gymnasium id (e.g. notion)")
    serve.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (a client starts the server) or streamable http (default stdio)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="http: address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="http: port (default 8000)")
    serve.add_argument("--path", default="/mcp", help="http: endpoint path (default /mcp)")
    serve.add_argument("--task", default=None, help="start every session from this task's snapshot and clock")
    serve.add_argument(
        "--max-sessions",
        type=_sessions,
        default=1000,
        help="most MCP sessions held at once; more are refused with an error (default 1000, or none)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=1800.0,
        help="seconds without a request after which a session's state is closed (default 1800)",
    )
    serve.add_argument(
        "--no-control",
        dest="control",
        action="store_false",
        help="leave out the trainers' control tools (envfactory.reset, envfactory.respond)",
    )
    serve.set_defaults(func=cmd_serve)
