"""Gymnasium wrappers around `ToolUseEnv`: one behaviour per wrapper."""

from .user_errors import FlagUserErrors

__all__ = ["FlagUserErrors"]
