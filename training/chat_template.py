"""Environment feedback rendered with a model's own chat template, ready to append after the model's tokens."""

from __future__ import annotations

from typing import Any, Protocol

_SENTINEL = "\u2063ENVFACTORY-ASSISTANT-END\u2063"


class ChatTokenizer(Protocol):
    """What the renderer needs of a Hugging Face tokenizer."""

    eos_token: str | None

    def apply_chat_template(self, conversation: list[dict[str, Any]], **kwargs: Any) -> Any:
        """Render messages as text (with `tokenize=False`)."""


class FeedbackRenderer:
    """Renders what follows an assistant message: tool results and/or the next user turn, then the generation prompt.

    The text is cut from a full render of the template (an assistant message followed by the feedback messages),
    from just after the assistant's content; the template's end-of-turn marker is dropped from its head when the
    model emits it itself (it ends its generation with it, and the trainer keeps that token among the action's).
    So the token stream (prompt, action, feedback, action, ...) is the one the template would render at inference.
    """

    def __init__(self, tokenizer: ChatTokenizer, end_of_turn: str | None = None) -> None:
        self.tokenizer = tokenizer
        self.end_of_turn = end_of_turn if end_of_turn is not None else (tokenizer.eos_token or "")

    def feedback(self, messages: list[dict[str, Any]]) -> str:
        """Text to append after the model's action for the new `messages` (role `tool` and/or `user`)."""
        if not messages:
            return ""
        conversation = [
            {"role": "user", "content": "."},
            {"role": "assistant", "content": _SENTINEL},
            *[_plain(m) for m in messages],
        ]
        text = self.tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)
        if not isinstance(text, str) or _SENTINEL not in text:
            raise ValueError("the chat template did not render the assistant message's content verbatim")
        tail = text.split(_SENTINEL, 1)[1]
        if self.end_of_turn and tail.startswith(self.end_of_turn):
            tail = tail[len(self.end_of_turn) :]
        return tail

    def prompt(self, messages: list[dict[str, Any]]) -> str:
        """A whole conversation (text-form messages) rendered as the prompt of the model's next action."""
        text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        if not isinstance(text, str):
            raise TypeError("apply_chat_template must return text (tokenize=False)")
        return text


def _plain(message: dict[str, Any]) -> dict[str, Any]:
    """A feedback message with only the fields chat templates read."""
    keep = ("role", "content", "name", "tool_call_id")
    return {k: message[k] for k in keep if message.get(k) is not None}
