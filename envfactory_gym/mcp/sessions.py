"""One isolated state per MCP session: created on the session's first request, closed when it ends, when it has
been idle too long, or never beyond the server's session cap. A session plays freely on its own state, or, once
its trainer started an episode (`start_episode`), through a `ToolUseEnv` that keeps the reward."""

from __future__ import annotations

import json
import time
import weakref
from dataclasses import dataclass
from typing import Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..actions import HermesParser
from ..env import ToolUseEnv
from ..limits import MAX_ACTION_LENGTH, MAX_TOOL_RESPONSE_LENGTH, truncate, valid_unicode
from ..prompts import FORMAT_ERROR_TOOL
from ..session import ToolSession
from ..spec import EnvironmentSpec
from ..tasks import Task, load_tasks, replay_calls

SESSIONLESS_ERROR = (
    "this server keeps one environment state per MCP session, and a stateless 2026-07-28 HTTP request belongs to "
    "no session; connect with the initialize handshake (MCP 2025-11-25 or older)"
)
#: Default most MCP sessions one server holds at once (an open session holds about half a MiB).
MAX_SESSIONS = 1000
#: Default seconds without a request after which a session's state is closed (the MCP SDK's HTTP default).
IDLE_TIMEOUT = 1800.0


class NoSession(Exception):
    """The request has no usable session: nothing ties it to a client, the server is full, or it expired."""


class EpisodeError(Exception):
    """A control request that does not fit the session's episode (none started, already over, not a message)."""


def session_owner(connection: Any) -> object:
    """The object that lives exactly as long as the MCP session behind `connection` (an `mcp` Connection).

    Handshake-era connections persist for the whole session (stdio, or one `Mcp-Session-Id` over HTTP). A
    2026-07-28 request gets a fresh Connection per request; on a duplex stream (stdio, in-memory) the stream's
    outbound channel is shared by all its requests, so it stands for the session. A stateless HTTP request has
    neither: `NoSession`.
    """
    if connection.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return connection
    if connection.has_standalone_channel:
        return connection.outbound
    raise NoSession(SESSIONLESS_ERROR)


def call_text(name: Any, arguments: Any) -> str:
    """An MCP tool call as the action text a model would write (`<tool_call>{...}</tool_call>`), so it meets the
    Env's parser and limits. `<` is escaped inside the JSON (`\\u003c`): an argument holding `</tool_call>` or
    `<think>` stays an argument."""
    payload = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False, default=str)
    return f"<tool_call>{payload.replace('<', chr(92) + 'u003c')}</tool_call>"


@dataclass(frozen=True)
class CallResult:
    """What an MCP client gets for one call: the Env's text, whether the call succeeded, and the tool's output
    (None when the call failed, or when its text had to be cut to the tool-response limit)."""

    text: str
    ok: bool
    output: Any = None


class McpSession:
    """The state of one MCP session: a free `ToolSession`, or the `ToolUseEnv` of an episode once one started."""

    def __init__(self, store: "SessionStore") -> None:
        self.store = store
        self.free: ToolSession | None = store.start_state()
        self.episode: ToolUseEnv | None = None
        self.over = False  # the episode terminated or was truncated
        self.turn = self.steps = 0
        self.last_used = time.monotonic()

    @property
    def state(self) -> ToolSession:
        """The tool session whose state this MCP session sees."""
        return self.episode.session if self.episode is not None else self.free  # type: ignore[return-value]

    def call(self, name: Any, arguments: Any) -> CallResult:
        """One agent call: parsed and bounded like an action of the Env (length, nesting, numbers, surrogates),
        executed atomically, its result cut to the tool-response limit. In an episode it is one `step`."""
        action = call_text(name, arguments)
        if self.episode is not None:
            return self._step(action)
        parsed = self.store.parser.parse(action)
        if parsed.errors:
            return CallResult(f"Error: {parsed.errors[0]}", False)
        outcome = self.state.call(parsed.tool_calls[0].name, parsed.tool_calls[0].arguments)
        text = truncate(outcome.text, self.store.max_tool_response_length)
        whole = outcome.ok and len(text) == len(outcome.text)
        return CallResult(text, whole, outcome.output if whole else None)

    def _step(self, action: str) -> CallResult:
        assert self.episode is not None
        if self.over:
            return CallResult("Error: the episode is over; start another with envfactory.reset", False)
        _, _, terminated, truncated, info = self.episode.step(action)
        self._advance(terminated or truncated, info)
        result = info["messages"][-1]
        text = result["content"]
        if result.get("name") == FORMAT_ERROR_TOOL or text.startswith("Error:"):
            return CallResult(text, False)
        try:
            return CallResult(text, True, json.loads(text))
        except json.JSONDecodeError:  # cut to the tool-response limit: no longer the tool's output
            return CallResult(text, False)

    def start_episode(self, task_id: str | None = None, seed: int | None = None) -> dict[str, Any]:
        """Reset this session onto a task (or one drawn with `seed`); returns what the trainer's agent starts from:
        the task, the user's first request, the number of turns, the step budget and the system prompt."""
        if task_id is not None and task_id not in self.store.tasks:
            raise EpisodeError(f"unknown task {task_id!r} for {self.store.spec.name}")
        if self.episode is None:
            self.episode = ToolUseEnv(
                self.store.spec,
                max_action_length=self.store.max_action_length,
                max_tool_response_length=self.store.max_tool_response_length,
            )
            if self.free is not None:
                self.free.close()
                self.free = None
        query, info = self.episode.reset(seed=seed, options={"task_id": task_id} if task_id else None)
        self._advance(False, info)
        return {
            "task_id": info["task_id"],
            "query": query,
            "turn": 0,
            "turns": len(self.store.tasks[info["task_id"]].turns),
            "max_steps": self.episode.max_steps,
            "system_prompt": info["system_prompt"],
        }

    def respond(self, message: str) -> dict[str, Any]:
        """The agent's message to the user, which ends its turn: the user's next request, or the end of the
        episode with its reward and components."""
        if self.episode is None:
            raise EpisodeError("no episode in this session: start one with envfactory.reset")
        if self.over:
            raise EpisodeError("the episode is over; start another with envfactory.reset")
        if not self.episode.parser.parse(valid_unicode(message)).ends_turn:
            raise EpisodeError("the message holds a tool call: call the tool itself, and send the user plain text")
        query, _, terminated, truncated, info = self.episode.step(message)
        self._advance(terminated or truncated, info)
        components = info.get("reward_components") if self.over else None
        return {
            "query": None if self.over else query,
            "turn": info["turn"],
            "done": self.over,
            "turn_reward": info.get("turn_reward"),
            "reward": components["total"] if components else None,
            "reward_components": components,
        }

    def _advance(self, over: bool, info: dict[str, Any]) -> None:
        self.over, self.turn, self.steps = over, info["turn"], info["step"]

    def status(self) -> dict[str, Any]:
        """The episode so far: task, turn, step, whether it is over, and the reward with every component it
        would get if it stopped now (the final reward once it is over)."""
        if self.episode is None:
            raise EpisodeError("no episode in this session: start one with envfactory.reset")
        assert self.episode.task is not None
        score = self.episode.current_score()
        return {
            "task_id": self.episode.task.id,
            "turn": self.turn,
            "step": self.steps,
            "done": self.over,
            "reward": score.total,
            "reward_components": score.as_dict(),
        }

    def close(self) -> None:
        """Release the state (and the episode's env); closing twice is harmless."""
        if self.episode is not None:
            self.episode.close()
            self.episode = None
        if self.free is not None:
            self.free.close()
            self.free = None


class SessionStore:
    """The MCP sessions of one served environment, keyed by session owner, each restored to the same start state.

    The start state is the task's snapshot and clock, with the user calls that precede its first query applied
    (what the Env's agent sees after `reset`), or the default snapshot when no task is chosen. At most
    `max_sessions` live at once (None: no cap); a session without a request for `idle_timeout` seconds (None:
    never) is closed, and its client's next request is told so. Calls meet the Env's limits: `max_action_length`
    on the call (its arguments as JSON), `max_tool_response_length` on the result.
    """

    def __init__(
        self,
        spec: EnvironmentSpec,
        task: Task | None = None,
        *,
        max_sessions: int | None = MAX_SESSIONS,
        idle_timeout: float | None = IDLE_TIMEOUT,
        max_action_length: int = MAX_ACTION_LENGTH,
        max_tool_response_length: int = MAX_TOOL_RESPONSE_LENGTH,
    ) -> None:
        if max_sessions is not None and max_sessions < 1:
            raise ValueError("max_sessions must be at least 1 (or None for no cap)")
        if idle_timeout is not None and not idle_timeout > 0:
            raise ValueError("idle_timeout must be a positive number of seconds (or None for none)")
        self.spec = spec
        self.task = task
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.max_action_length = max_action_length
        self.max_tool_response_length = max_tool_response_length
        self.parser = HermesParser(max_length=max_action_length)
        self.tasks = load_tasks(spec)
        self._sessions: weakref.WeakKeyDictionary[object, McpSession] = weakref.WeakKeyDictionary()
        self._expired: weakref.WeakSet[object] = weakref.WeakSet()

    def session_for(self, connection: Any) -> McpSession:
        """The session of `connection`'s MCP session, started on first use. Raises `NoSession` when the request
        has no session (see `session_owner`), when its session expired, or when the server is full."""
        owner: Any = session_owner(connection)  # Any: `owner is connection` must not narrow `connection` to object
        session = self._sessions.get(owner)
        if session is None:
            if owner in self._expired:
                raise NoSession(
                    f"this MCP session was closed after {self.idle_timeout:g} s without a request; open a new session"
                )
            self.close_idle()
            if self.max_sessions is not None and len(self._sessions) >= self.max_sessions:
                raise NoSession(
                    f"the server already holds its limit of {self.max_sessions} MCP sessions; close a "
                    "session (or wait for an idle one to time out) and try again"
                )
            session = McpSession(self)
            self._sessions[owner] = session
            if owner is connection:
                connection.exit_stack.callback(self._release, connection)
            else:  # a duplex 2026 stream has no teardown hook: close with its channel object
                weakref.finalize(owner, session.close)
        session.last_used = time.monotonic()
        return session

    def close_idle(self) -> int:
        """Close every session idle for longer than `idle_timeout`; returns how many were closed."""
        if self.idle_timeout is None:
            return 0
        deadline = time.monotonic() - self.idle_timeout
        stale = [owner for owner, session in list(self._sessions.items()) if session.last_used < deadline]
        for owner in stale:
            self._expired.add(owner)
            self._release(owner)
        return len(stale)

    @property
    def open_sessions(self) -> int:
        """How many sessions are alive."""
        return len(self._sessions)

    def close_all(self) -> None:
        """Close every session (server shutdown)."""
        while self._sessions:
            _, session = self._sessions.popitem()
            session.close()

    def probe(self) -> None:
        """Start one session's state and close it again: raises what setting up the start state raises."""
        self.start_state().close()

    def start_state(self) -> ToolSession:
        """A new tool session in the start state."""
        session = ToolSession(self.spec)
        if self.task is None:
            session.reset()
        else:
            session.reset(self.task.snapshot, self.task.clock)
            replay_calls(session, self.task.turns[0].user_calls)
        return session

    def _release(self, owner: object) -> None:
        session = self._sessions.pop(owner, None)
        if session is not None:
            session.close()
