"""Serve an environment over MCP: one FastMCP server, one isolated state per MCP session, and a control surface
for trainers (episodes and rewards)."""

from .server import EnvironmentServer, EnvironmentTool, server
from .sessions import McpSession, SessionStore

__all__ = ["EnvironmentServer", "EnvironmentTool", "McpSession", "SessionStore", "server"]
