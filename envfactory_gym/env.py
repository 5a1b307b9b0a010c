"""The gymnasium Env: text actions in, text observations out, a task's turns played by a simulated user."""

from __future__ import annotations

from typing import Any, Callable, Literal, SupportsFloat

import gymnasium as gym

from .actions import ActionParser, HermesParser
from .prompts import FORMAT_ERROR_TOOL, assistant_message, new_tools_note, system_prompt, tool_message, tool_response
from .registry import resolve
from .reward import CallRecord, RewardBreakdown, RewardConfig
from .scoring import TurnStart, episode_score, turn_score
from .session import ToolSession
from .spaces import UnicodeText
from .splits import Split, split_task_ids
from .spec import EnvironmentSpec
from .tasks import Task, Turn, expected_replay, load_tasks, replay_calls
from .users import SimulatedUser, make_user
from .vector import shared_text  # noqa: F401  (async vector envs carry Unicode observations intact)

MAX_OBSERVATION_LENGTH = 1_000_000


class ToolUseEnv(gym.Env[str, str]):
    """One tool-use environment of the zoo as a gymnasium Env.

    - `reset(seed, options={"task_id": ...})` restores the task's snapshot; the observation is the first user query
      and `info["messages"]` holds the system prompt (with tool schemas) and that query in OpenAI chat format.
    - `step(text)` parses the model output: tool calls are executed (results come back as `<tool_response>` text);
      a plain message ends the agent's turn and the user's next query is the observation.
    - `task_ids` or `split` ("train"/"test", the environment's stored held-out split) limit the tasks that
      seeded resets draw from.
    - The episode terminates after the last turn and truncates after `max_steps` actions; the composite reward is
      paid then, with its components in `info["reward_components"]`. Each finished turn's own score is in
      `info["turn_reward"]`. `info["format_errors"]` counts the episode's unparsable tool calls so far.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        env_name: str | EnvironmentSpec,
        *,
        task_ids: list[str] | None = None,
        split: Split | None = None,
        max_steps: int = 40,
        reward_config: RewardConfig | dict[str, Any] = RewardConfig(),
        parser: ActionParser | None = None,
        user: SimulatedUser | Callable[[], SimulatedUser] | str | None = None,
        max_action_length: int = 65_536,
        max_tool_response_length: int = 16_000,
        render_mode: str | None = None,
    ) -> None:
        self.spec_env = env_name if isinstance(env_name, EnvironmentSpec) else resolve(env_name)
        all_tasks = load_tasks(self.spec_env)
        if not all_tasks:
            raise ValueError(
                f"{self.spec_env.name} has no tasks ({self.spec_env.tasks_path} is empty or missing): an episode plays "
                f"a task's requests and scores them against its ground truth. Give the environment tasks (for an "
                f"imported one: see docs/adapters.md), or use it without a task: envfactory serve "
                f"{self.spec_env.name} / envfactory play {self.spec_env.name}")
        if split is not None:
            if task_ids is not None:
                raise ValueError("give task_ids or split, not both")
            task_ids = split_task_ids(self.spec_env, split)
        self.task_ids = sorted(task_ids if task_ids is not None else all_tasks)
        unknown = set(self.task_ids) - set(all_tasks)
        if unknown or not self.task_ids:
            raise ValueError(f"unknown or no task ids for {self.spec_env.name}: {sorted(unknown)}")
        self.tasks = all_tasks
        self.max_steps = max_steps
        self.reward_config = reward_config if isinstance(reward_config, RewardConfig) else RewardConfig(**reward_config)
        self.parser = parser or HermesParser()
        self.user = make_user(user)
        self.max_tool_response_length = max_tool_response_length
        self.render_mode = render_mode
        self.action_space = UnicodeText(max_length=max_action_length)
        self.observation_space = UnicodeText(max_length=MAX_OBSERVATION_LENGTH)
        self.session = ToolSession(self.spec_env)
        self.task: Task | None = None
        self._hidden: frozenset[str] = frozenset()
        self._done = True

    # ------------------------------------------------------------------ episode control
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode on `options["task_id"]`, or on a task drawn with the seed."""
        super().reset(seed=seed)
        task_id = (options or {}).get("task_id")
        if task_id is None:
            task_id = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        if task_id not in self.tasks:
            raise KeyError(f"unknown task {task_id!r} for {self.spec_env.name}")
        self.task = self.tasks[task_id]
        self._replay = expected_replay(self.spec_env, self.task)
        self.session.reset(self.task.snapshot, self.task.clock)
        self._steps = 0
        self._format_errors = 0
        self._calls: list[CallRecord] = []
        self._turn_index = 0
        self._done = False
        self._hidden = self.task.hidden_tools(0)
        self._system = system_prompt(self.spec_env, self.task.clock, self._hidden)
        self._messages: list[dict[str, Any]] = [{"role": "system", "content": self._system}]
        if hasattr(self.user, "bind"):  # a ContextualUser sees the live state and the dialogue
            self.user.bind(self.session, self._messages)
        observation = self._begin_turn(self.user.start(self.task))
        info = self._info()
        info["system_prompt"] = self._system
        return observation, info

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply one model output; see the class docstring for what comes back."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() first")
        self._steps += 1
        info_extra: dict[str, Any] = {}
        terminated = False
        if not isinstance(action, str):
            observation = self._format_error(f"the action must be text, got {type(action).__name__}")
        elif len(action) > self.action_space.max_length:
            observation = self._format_error(
                f"the action is too long ({len(action)} characters; the limit is {self.action_space.max_length})"
            )
        else:
            parsed = self.parser.parse(action)
            if parsed.ends_turn:
                self._messages.append(assistant_message(parsed.message, []))
                info_extra["turn_reward"] = self._turn_score().as_dict()
                next_turn = self.user.next_turn(parsed.message)
                if next_turn is None:
                    terminated, observation = True, ""
                else:
                    self._turn_index += 1
                    observation = self._begin_turn(next_turn)
            else:
                content = action if parsed.errors else parsed.message  # keep a malformed call visible in history
                observation = self._run_calls(content, parsed.tool_calls, parsed.errors)
        truncated = not terminated and self._steps >= self.max_steps
        reward = 0.0
        if terminated or truncated:
            self._done = True
            breakdown = self._episode_score()
            reward = breakdown.total
            info_extra["reward_components"] = breakdown.as_dict()
        info = self._info()
        info.update(info_extra)
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, truncated, info

    # ------------------------------------------------------------------ pieces of a step
    def _begin_turn(self, turn: Turn) -> str:
        assert self.task is not None
        start = TurnStart.capture(self.session, self.task, self._replay, self._turn_index, turn, len(self._calls))
        self._turn = turn
        replay_calls(self.session, turn.user_calls)
        self._turn_start = start.after_user_calls(self.session)
        query = turn.query
        if self.task is not None and self._turn_index < len(self.task.turns):
            self._hidden = self.task.hidden_tools(self._turn_index)
            added = [t for t in self.spec_env.openai_tools if t["function"]["name"] in set(turn.new_tools)]
            if added and self._turn_index:
                query = f"{query}\n\n{new_tools_note(added)}"
        self.session.executor.hidden = self._hidden
        self._messages.append({"role": "user", "content": query})
        return query

    def _run_calls(self, message: str, calls: list, errors: list[str]) -> str:
        ids = [f"call_{self._steps}_{i}" for i in range(len(calls))]
        self._messages.append(assistant_message(message, [(i, c.name, c.arguments) for i, c in zip(ids, calls)]))
        parts = []
        for call_id, call in zip(ids, calls):
            outcome = self.session.call(call.name, call.arguments)
            self._calls.append(CallRecord(outcome.name, outcome.arguments, outcome.ok, outcome.read_only, outcome.error,
                                          self._turn.expect_no_call))
            text = outcome.text
            if len(text) > self.max_tool_response_length:
                text = text[: self.max_tool_response_length] + f"... [truncated, {len(outcome.text)} characters]"
            self._messages.append(tool_message(call_id, outcome.name, text))
            parts.append(tool_response(text))
        for number, error in enumerate(errors):
            self._format_errors += 1
            text = f"Error: {error}. Write each call as <tool_call>{{\"name\": ..., \"arguments\": {{...}}}}</tool_call>"
            self._messages.append(tool_message(f"call_{self._steps}_format_{number}", FORMAT_ERROR_TOOL, text))
            parts.append(tool_response(text))
        return "\n".join(parts)

    def _format_error(self, error: str) -> str:
        """An action that could not be read at all: counted as a format error, shown to the agent."""
        return self._run_calls("", [], [error])

    # ------------------------------------------------------------------ scoring
    def current_score(self, scope: Literal["episode", "turn"] = "episode") -> RewardBreakdown:
        """The reward breakdown the episode (`scope="episode"`) or the agent's current turn (`"turn"`) would get if
        it stopped now, without ending anything: what a trainer that stops on its own budget pays."""
        if self.task is None:
            raise RuntimeError("no episode: call reset() first")
        return self._episode_score() if scope == "episode" else self._turn_score()

    def _episode_score(self) -> RewardBreakdown:
        assert self.task is not None
        return episode_score(
            self.spec_env, self.task, self._replay, self.session, self._calls, self._format_errors,
            self.reward_config,
        )

    def _turn_score(self) -> RewardBreakdown:
        """Score of the turn that just ended against that turn's ground truth, from the state it started in."""
        assert self.task is not None
        return turn_score(
            self.spec_env, self.task, self._replay, self.session, self._turn, self._turn_index, self._turn_start,
            self._calls, self.reward_config,
        )

    # ------------------------------------------------------------------ info and rendering
    def _info(self) -> dict[str, Any]:
        return {
            "task_id": self.task.id if self.task else None,
            "turn": self._turn_index,
            "step": self._steps,
            "format_errors": self._format_errors,
            "messages": list(self._messages),
            "tools": [t for t in self.spec_env.openai_tools if t["function"]["name"] not in self._hidden]
            if self._hidden else self.spec_env.openai_tools,
        }

    def render(self) -> str | None:
        """The conversation so far as text (`ansi` returns it, `human` prints it)."""
        if self.render_mode is None:
            return None
        lines = []
        for message in self._messages[1:]:
            if message.get("tool_calls"):
                for call in message["tool_calls"]:
                    lines.append(f"[assistant -> {call['function']['name']}] {call['function']['arguments']}")
            if message.get("content"):
                lines.append(f"[{message['role']}] {message['content']}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Release the database connection, and what the simulated user holds (an LLM user's client loop)."""
        self.session.close()
        close_user = getattr(self.user, "close", None)
        if close_user is not None:
            close_user()
        super().close()
