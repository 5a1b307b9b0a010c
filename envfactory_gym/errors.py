"""Errors that tools raise; the runtime turns them into clear observations."""

from __future__ import annotations


class ToolError(Exception):
    """Base of every expected tool failure; its message is shown to the agent verbatim."""

    kind = "ToolError"


class NotFound(ToolError):
    """A referenced entity does not exist."""

    kind = "NotFound"


class PermissionDenied(ToolError):
    """The caller may not do this (role, ownership, locked resource)."""

    kind = "PermissionDenied"


class Conflict(ToolError):
    """The request clashes with the current state (duplicate, wrong status, already done)."""

    kind = "Conflict"


class InvalidRequest(ToolError):
    """The arguments are well-typed but violate a business rule."""

    kind = "InvalidRequest"


class ExternalEnvironmentError(RuntimeError):
    """An imported environment cannot be loaded here; the message is one line that says why and what to do."""


class UnknownName(KeyError):
    """A name (environment, task) that nothing known answers to; the message says what is close."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
