"""The LLM simulated user (paper Appendix F): plays a task's planned requests in character, answers the agent,
performs user-only actions, never recites internal ids (checked, with retries), and ends with a stop token."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..llm import ChatModel, LLMClient, LLMError, find_internal_ids, internal_ids, load_prompt, render_state
from ..llm.base import LoopThread
from ..llm.state_view import row_label
from ..session import ToolSession
from ..tasks import GroundTruthCall, Task, Turn

STOP_TOKEN = "###STOP###"
STAGE = "user"


class UserCall(BaseModel):
    """A user-only action the simulated user performs itself."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class UserReply(BaseModel):
    """The simulated user's answer, as the prompt asks for it."""

    message: str
    user_calls: list[UserCall] = Field(default_factory=list)
    next_request: bool = False


@dataclass
class UserTurnRecord:
    """How one user message came about: planned wording, the LLM, or the scripted fallback after failed tries."""

    message: str
    source: Literal["planned", "llm", "fallback"]
    goal: int
    attempts: int = 0
    problems: list[str] = field(default_factory=list)


def dialogue_text(messages: list[dict[str, Any]]) -> str:
    """The conversation as a person sees it: user and assistant texts, tool traffic left out."""
    lines = []
    for message in messages:
        if message["role"] in ("user", "assistant") and message.get("content"):
            lines.append(f"{message['role']}: {message['content']}")
    return "\n".join(lines) or "(nothing yet)"


class LLMUser:
    """A `SimulatedUser` backed by a chat model.

    The Env calls `bind(session, messages)` at reset so the user sees the live database and the dialogue. Each
    reply is checked: it must not recite an internal id present in the state, and its user calls must name
    user-only tools. A failed check is shown to the model and retried `max_retries` times; after that the
    scripted turn (the next planned request, verbatim) is used instead and the record says so (`log`).
    Returned turns carry the user's own calls (`caller="user"`, executed by the Env at turn start) followed by
    the agent calls the task plans for the request the message starts.
    """

    def __init__(
        self,
        model: ChatModel,
        *,
        max_retries: int = 2,
        state_budget: int = 8_000,
        stop_token: str = STOP_TOKEN,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.max_retries = max_retries
        self.state_budget = state_budget
        self.stop_token = stop_token
        self.options = dict(options or {})
        self.prompt = load_prompt(STAGE)
        self.session: ToolSession | None = None
        self.messages: list[dict[str, Any]] = []
        self.log: list[UserTurnRecord] = []
        self.task: Task | None = None
        self.goal = 0
        self._loop: LoopThread | None = None

    @classmethod
    def from_env(cls, **kwargs: Any) -> "LLMUser":
        """A user on the endpoint named by `ENVFACTORY_LLM_BASE_URL` / `ENVFACTORY_LLM_MODEL`."""
        return cls(LLMClient(), **kwargs)

    def bind(self, session: ToolSession, messages: list[dict[str, Any]]) -> None:
        """Attach the episode's live session and message list (called by the Env at each reset)."""
        self.session = session
        self.messages = messages

    # ------------------------------------------------------------------ SimulatedUser
    def start(self, task: Task) -> Turn:
        """Open with the first planned request, verbatim."""
        self.task, self.goal, self.log = task, 0, []
        first = task.turns[0]
        self.log.append(UserTurnRecord(first.query, "planned", 0))
        return first

    def next_turn(self, agent_message: str) -> Turn | None:
        """`anext_turn`, blocking."""
        if self._loop is None:
            self._loop = LoopThread()
        return self._loop.run(self.anext_turn(agent_message))

    async def anext_turn(self, agent_message: str) -> Turn | None:
        """The user's reaction to the agent's closing message: a Turn, or None when the user ends the dialogue."""
        assert self.task is not None, "call start() first"
        conversation = self._request(agent_message)
        problems: list[str] = []
        for attempt in range(self.max_retries + 1):
            try:
                data = await self.model.acomplete_json(STAGE, conversation, UserReply, **self.options)
            except LLMError as exc:
                problems.append(str(exc))
                break
            reply = UserReply.model_validate(data)
            found = self._problems(reply)
            if not found:
                return self._accept(reply, attempt)
            problems += found
            conversation = conversation + [
                {"role": "assistant", "content": json.dumps(data, ensure_ascii=False)},
                {
                    "role": "user",
                    "content": "That reply breaks the rules: "
                    + " ".join(found)
                    + " Write the reply again, as the user, following every rule.",
                },
            ]
        return self._fallback(problems)

    # ------------------------------------------------------------------ pieces
    def _request(self, agent_message: str) -> list[dict[str, str]]:
        assert self.task is not None
        dialogue = list(self.messages)
        if not dialogue or dialogue[-1].get("content") != agent_message:  # an unbound user still sees the reply
            dialogue.append({"role": "assistant", "content": agent_message})
        spec = self.session.spec if self.session else None
        user_tools = [t for t in spec.tools.values() if t.user_only] if spec else []
        tools_text = (
            "\n".join(f"  - {t.name}({', '.join(t.input_model.model_fields)}): {t.description}" for t in user_tools)
            or "  (none in this product)"
        )
        goals = "\n".join(f"{i + 1}. {turn.query}" for i, turn in enumerate(self.task.turns))
        current = self.task.turns[min(self.goal, len(self.task.turns) - 1)].query
        state = ""
        if self.session is not None:
            current_state = self.session.dump()
            named = goals.casefold()
            focus = [
                key
                for rows in current_state.values()
                for key, row in rows.items()
                if len(label := row_label(row)) >= 4 and label.casefold() in named
            ]
            state = render_state(current_state, focus=focus, redact=True, budget=self.state_budget)
        persona = self.task.user
        return self.prompt.render(
            product=spec.product if spec else "the product",
            persona=f"{persona.name}. {persona.profile}".strip(". "),
            scenario=persona.scenario or "(none given)",
            goals=goals,
            user_tools=tools_text,
            stop=self.stop_token,
            state=state or "(not visible)",
            dialogue=dialogue_text(dialogue),
            current=f"{self.goal + 1}. {current}",
        )

    def _problems(self, reply: UserReply) -> list[str]:
        """Rule violations of a reply (empty when it is acceptable)."""
        found = []
        if not reply.message.strip():
            found.append("The message is empty.")
        if self.session is not None:
            own = self.task.user.known_values() if self.task is not None else set()
            leaked = [i for i in find_internal_ids(reply.message, internal_ids(self.session.dump())) if i not in own]
            if leaked:
                found.append(
                    f"It recites internal identifiers ({', '.join(leaked)}) that a person would not know;"
                    " refer to things by name."
                )
            for call in reply.user_calls:
                tool = self.session.spec.tools.get(call.name)
                if tool is None or not tool.user_only:
                    found.append(f"'{call.name}' is not an action you can perform yourself.")
        return found

    def _accept(self, reply: UserReply, retries: int) -> Turn | None:
        assert self.task is not None
        if self.stop_token in reply.message:
            self.log.append(UserTurnRecord(self.stop_token, "llm", self.goal, retries))
            return None
        calls = [GroundTruthCall(name=c.name, arguments=c.arguments, caller="user") for c in reply.user_calls]
        if reply.next_request:
            self.goal += 1
            if self.goal >= len(self.task.turns):  # moving past the plan means the user is done
                self.log.append(UserTurnRecord(self.stop_token, "llm", self.goal, retries))
                return None
            calls += self.task.turns[self.goal].agent_calls
        self.log.append(UserTurnRecord(reply.message, "llm", self.goal, retries))
        return Turn.model_construct(query=reply.message, calls=calls)

    def _fallback(self, problems: list[str]) -> Turn | None:
        """The scripted turn: the next planned request verbatim, or the end of the conversation."""
        assert self.task is not None
        self.goal += 1
        if self.goal >= len(self.task.turns):
            self.log.append(UserTurnRecord(self.stop_token, "fallback", self.goal, self.max_retries + 1, problems))
            return None
        turn = self.task.turns[self.goal]
        self.log.append(UserTurnRecord(turn.query, "fallback", self.goal, self.max_retries + 1, problems))
        return turn

    def close(self) -> None:
        """Stop the private loop of the blocking `next_turn` (if it was used)."""
        if self._loop is not None:
            self._loop.stop()
            self._loop = None
