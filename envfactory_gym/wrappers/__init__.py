"""Gymnasium wrappers around `ToolUseEnv`: one behaviour per wrapper."""

from .chat_template import ChatTemplateObservation, template_messages
from .format_penalty import StepFormatPenalty
from .history import TruncateHistory, truncate_history
from .user_errors import FlagUserErrors

__all__ = [
    "ChatTemplateObservation",
    "FlagUserErrors",
    "StepFormatPenalty",
    "TruncateHistory",
    "template_messages",
    "truncate_history",
]
