"""Serve an environment over MCP: one FastMCP server, one isolated ToolSession per MCP session."""

from .server import EnvironmentServer, EnvironmentTool, server
from .sessions import SessionStore

__all__ = ["EnvironmentServer", "EnvironmentTool", "SessionStore", "server"]
