"""LLM access shared by every LLM stage: the OpenAI-compatible client, the recorded test double, prompt files,
token accounting and the state view given to models."""

from .base import BaseChatModel
from .client import LLMClient
from .recorded import RecordedLLM, UnrecordedRequest, request_key
from .state_view import find_internal_ids, internal_ids, render_state
from .templates import Prompt, load_prompt
from .types import ChatModel, ChatResponse, JSONModel, LLMError, Messages
from .usage import StageUsage, UsageTracker

__all__ = [
    "BaseChatModel",
    "ChatModel",
    "ChatResponse",
    "JSONModel",
    "LLMClient",
    "LLMError",
    "Messages",
    "Prompt",
    "RecordedLLM",
    "StageUsage",
    "UnrecordedRequest",
    "UsageTracker",
    "find_internal_ids",
    "internal_ids",
    "load_prompt",
    "render_state",
    "request_key",
]
