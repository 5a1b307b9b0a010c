"""The gymnasium Env: text actions in, text observations out, a task's turns played by a simulated user."""

from __future__ import annotations

import pickle
import warnings
from typing import Any, Callable, Literal, SupportsFloat

import gymnasium as gym

from .actions import ActionParser, HermesParser, ParsedAction
from .errors import UnknownName
from .limits import MAX_ACTION_LENGTH, MAX_TOOL_RESPONSE_LENGTH, too_long, truncate, valid_unicode
from .prompts import FORMAT_ERROR_TOOL, assistant_message, new_tools_note, system_prompt, tool_message, tool_response
from .registry import resolve
from .reward import CallRecord, RewardBreakdown, RewardConfig
from .scoring import EpisodeScore, TurnStart, turn_score
from .session import ToolSession
from .spaces import UnicodeText
from .spec import EnvironmentSpec
from .splits import Split, split_task_ids
from .suggest import did_you_mean
from .tasks import Task, Turn, expected_replay, load_tasks, replay_calls
from .users import ContextualUser, SimulatedUser, make_user
from .vector import shared_text  # noqa: F401  (async vector envs carry Unicode observations intact)

MAX_OBSERVATION_LENGTH = 1_000_000
#: How reward is paid: the change of the episode's score every step ("delta"), or all of it at the end ("final").
RewardMode = Literal["delta", "final"]


class ToolUseEnv(gym.Env[str, str]):
    """One tool-use environment of the zoo as a gymnasium Env.

    - `reset(seed, options={"task_id": ...})` restores the task's snapshot; the observation is the first user query
      and `info["messages"]` holds the system prompt (with tool schemas) and that query in OpenAI chat format.
    - `step(text)` parses the model output: tool calls are executed (results come back as `<tool_response>` text);
      a plain message ends the agent's turn and the user's next query is the observation.
    - `task_ids` or `split` ("train"/"test", the environment's stored held-out split) limit the tasks that
      seeded resets draw from.
    - The episode terminates after the last turn and truncates after `max_steps` actions.
    - Reward (`reward_mode="delta"`, the default): every step pays the change of the episode's composite score, so
      the return (the sum of rewards) equals the score of what was done at whatever step the episode stops: its
      end, `max_steps`, `gym.make(..., max_episode_steps=N)`, a `TimeLimit` of your own, a vector env's
      autoreset. Every step's `info["reward_components"]` holds the score so far and its parts (`total` is the
      return so far). `reward_mode="final"` pays the whole score on the step where the env itself ends the
      episode and 0 before (a truncation from outside then pays nothing).
    - Each finished turn's own score is in `info["turn_reward"]`. `info["format_errors"]` counts the episode's
      unparsable tool calls so far.
    - Tasks: `task_ids` (or one `task_id`), else `split` ("train", "test" or "all"; default: every task). A reset
      to a task outside the env's tasks (`options={"task_id": ...}`) warns; a vector env gives each sub-env its
      own task with `vec.set_attr("next_task_id", [...])` before `vec.reset()`.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}
    action_space: UnicodeText

    def __init__(
        self,
        env_name: str | EnvironmentSpec,
        *,
        task_ids: list[str] | None = None,
        task_id: str | None = None,
        split: Split | Literal["all"] | None = None,
        max_steps: int = 40,
        reward_config: RewardConfig | dict[str, Any] = RewardConfig(),
        reward_mode: RewardMode = "delta",
        parser: ActionParser | None = None,
        user: SimulatedUser | Callable[[], SimulatedUser] | str | None = None,
        max_action_length: int = MAX_ACTION_LENGTH,
        max_tool_response_length: int = MAX_TOOL_RESPONSE_LENGTH,
        render_mode: str | None = None,
    ) -> None:
        self.spec_env = env_name if isinstance(env_name, EnvironmentSpec) else resolve(env_name)
        self._settings = dict(
            task_ids=task_ids,
            task_id=task_id,
            split=split,
            max_steps=max_steps,
            reward_config=reward_config,
            reward_mode=reward_mode,
            parser=parser,
            max_action_length=max_action_length,
            max_tool_response_length=max_tool_response_length,
            render_mode=render_mode,
        )
        all_tasks = load_tasks(self.spec_env)
        if not all_tasks:
            raise ValueError(
                f"{self.spec_env.name} has no tasks ({self.spec_env.tasks_path} is empty or missing): an episode plays "
                f"a task's requests and scores them against its ground truth. Give the environment tasks (for an "
                f"imported one: see docs/adapters.md), or use it without a task: envfactory serve "
                f"{self.spec_env.name} / envfactory play {self.spec_env.name}"
            )
        if task_id is not None:
            if task_ids is not None:
                raise ValueError("give task_id or task_ids, not both")
            task_ids = [task_id]
        if reward_mode not in ("delta", "final"):
            raise ValueError(f"reward_mode must be 'delta' or 'final', not {reward_mode!r}")
        self.tasks = all_tasks
        self.split = split
        self.task_ids = self._chosen_tasks(task_ids, split)
        self.max_steps = max_steps
        self.reward_mode = reward_mode
        self.next_task_id: str | None = None
        self.reward_config = reward_config if isinstance(reward_config, RewardConfig) else RewardConfig(**reward_config)
        self.parser = parser or HermesParser(max_length=max_action_length)
        self.user = make_user(user)
        self.max_tool_response_length = max_tool_response_length
        self.render_mode = render_mode
        self.action_space = UnicodeText(max_length=max_action_length)
        self.observation_space = UnicodeText(max_length=MAX_OBSERVATION_LENGTH)
        self.session = ToolSession(self.spec_env)
        self.task: Task | None = None
        self._hidden: frozenset[str] = frozenset()
        self._done = True

    def _chosen_tasks(self, task_ids: list[str] | None, split: str | None) -> list[str]:
        """The tasks seeded resets draw from: `task_ids` (warning about any outside `split`), else the split's."""
        name = self.spec_env.name
        in_split = None if split in (None, "all") else set(split_task_ids(self.spec_env, split))  # type: ignore[arg-type]
        if task_ids is None:
            chosen = sorted(self.tasks if in_split is None else in_split)
        else:
            chosen = sorted(task_ids)
            unknown = sorted(set(chosen) - set(self.tasks))
            if unknown:
                raise ValueError(f"{name} has no task {unknown[0]!r}{did_you_mean(unknown[0], self.tasks)}")
            outside = sorted(set(chosen) - in_split) if in_split is not None else []
            if outside:
                warnings.warn(f"{name}: tasks {outside} are not in the {split} split", stacklevel=3)
        if not chosen:
            raise ValueError(f"{name} has no tasks in the {split} split")
        return chosen

    # ------------------------------------------------------------------ episode control
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode on `options["task_id"]` (or `next_task_id`, set per sub-env of a vector env), or on a
        task drawn with the seed from the env's tasks."""
        super().reset(seed=seed)
        task_id = (options or {}).get("task_id", self.next_task_id)
        self.next_task_id = None
        if isinstance(task_id, (list, tuple)):
            raise ValueError(
                "options['task_id'] is one task id: a vector env passes the same options to every sub-env. Give "
                "each its own with vec.set_attr('next_task_id', [...]) before vec.reset(), or "
                "envfactory_gym.vector.reset_to_tasks(vec, [...])"
            )
        if task_id is None:
            task_id = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        elif task_id not in self.tasks:
            raise UnknownName(f"{self.spec_env.name} has no task {task_id!r}{did_you_mean(task_id, self.tasks)}")
        elif task_id not in self.task_ids:
            warnings.warn(
                f"{self.spec_env.name}: task {task_id} is not among this env's tasks"
                + (f" (the {self.split} split)" if self.split not in (None, "all") else ""),
                stacklevel=2,
            )
        self.task = self.tasks[task_id]
        self._replay = expected_replay(self.spec_env, self.task)
        self.session.reset(self.task.snapshot, self.task.clock)
        self._score = EpisodeScore(self.spec_env, self.task, self._replay, self.session, self.reward_config)
        self._paid = 0.0
        self._steps = 0
        self._format_errors = 0
        self._calls: list[CallRecord] = []
        self._turn_index = 0
        self._done = False
        self._hidden = self.task.hidden_tools(0)
        self._system = system_prompt(self.spec_env, self.task.clock, self._hidden)
        self._messages: list[dict[str, Any]] = [{"role": "system", "content": self._system}]
        if isinstance(self.user, ContextualUser):  # it sees the live state and the dialogue
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
        limit = self.action_space.max_length
        if not isinstance(action, str):
            observation = self._format_error(f"the action must be text, got {type(action).__name__}", "")
        elif len(action) > limit:
            observation = self._format_error(too_long(len(action), limit), truncate(valid_unicode(action), limit))
        else:
            action = valid_unicode(action)  # unpaired surrogates cannot be stored or sent: U+FFFD
            parsed = self._parse(action)
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
        self._done = terminated or truncated
        reward = 0.0
        if self.reward_mode == "delta" or self._done:
            breakdown = self._episode_score()
            reward = breakdown.total - self._paid
            self._paid += reward
            info_extra["reward_components"] = breakdown.as_dict()
        info = self._info()
        info.update(info_extra)
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, truncated, info

    # ------------------------------------------------------------------ pieces of a step
    def _parse(self, action: str) -> ParsedAction:
        """The parse of an action; a parser that raises makes it one format error, never an escaping exception."""
        try:
            return self.parser.parse(action)
        except Exception as exc:
            return ParsedAction(errors=[f"the action could not be parsed ({type(exc).__name__}: {str(exc)[:200]})"])

    def _begin_turn(self, turn: Turn) -> str:
        assert self.task is not None
        start = TurnStart.capture(self.session, self.task, self._replay, self._turn_index, turn, len(self._calls))
        self._turn = turn
        replay_calls(self.session, turn.user_calls)
        self._turn_start = start.after_user_calls(self.session)
        query = turn.query
        if self.task is not None and self._turn_index < len(self.task.turns):
            self._hidden = self.task.hidden_tools(self._turn_index)
            new_tools = set(turn.new_tools)
            added = [t for t in self.spec_env.openai_tools if t["function"]["name"] in new_tools] if new_tools else []
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
            self._calls.append(
                CallRecord(
                    outcome.name,
                    outcome.arguments,
                    outcome.ok,
                    outcome.read_only,
                    outcome.error,
                    self._turn.expect_no_call,
                )
            )
            text = truncate(outcome.text, self.max_tool_response_length)
            self._messages.append(tool_message(call_id, outcome.name, text))
            parts.append(tool_response(text))
        for number, error in enumerate(errors):
            self._format_errors += 1
            text = f'Error: {error}. Write each call as <tool_call>{{"name": ..., "arguments": {{...}}}}</tool_call>'
            self._messages.append(tool_message(f"call_{self._steps}_format_{number}", FORMAT_ERROR_TOOL, text))
            parts.append(tool_response(text))
        return "\n".join(parts)

    def _format_error(self, error: str, content: str) -> str:
        """An action that could not be read at all: recorded as `content`, counted as a format error, shown to
        the agent."""
        return self._run_calls(content, [], [error])

    # ------------------------------------------------------------------ scoring
    def current_score(self, scope: Literal["episode", "turn"] = "episode") -> RewardBreakdown:
        """The reward breakdown the episode (`scope="episode"`) or the agent's current turn (`"turn"`) would get if
        it stopped now, without ending anything: what a trainer that stops on its own budget pays."""
        if self.task is None:
            raise RuntimeError("no episode: call reset() first")
        return self._episode_score() if scope == "episode" else self._turn_score()

    def _episode_score(self) -> RewardBreakdown:
        return self._score(self._calls, self._format_errors)

    def _turn_score(self) -> RewardBreakdown:
        """Score of the turn that just ended against that turn's ground truth, from the state it started in."""
        assert self.task is not None
        return turn_score(
            self.spec_env,
            self.task,
            self._replay,
            self.session,
            self._turn,
            self._turn_index,
            self._turn_start,
            self._calls,
            self.reward_config,
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
            if self._hidden
            else self.spec_env.openai_tools,
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

    # ------------------------------------------------------------------ pickling
    _EPISODE = (
        "task",
        "_steps",
        "_format_errors",
        "_calls",
        "_turn_index",
        "_done",
        "_hidden",
        "_system",
        "_messages",
        "_paid",
        "_turn",
        "_turn_start",
    )

    def __getstate__(self) -> dict[str, Any]:
        """A live env pickles by name: its settings, its simulated user, and the episode so far with the database's
        bytes. An env built from an EnvironmentSpec object that no name resolves to cannot (TypeError says why)."""
        name = self.spec_env.env_id
        try:
            reachable = resolve(name) is self.spec_env
        except KeyError:
            reachable = False
        if not reachable:
            raise TypeError(
                f"cannot pickle {name}: it was built from an EnvironmentSpec object that no registered "
                "name resolves to; only environments reachable by name (the zoo, ENVFACTORY_PATH, "
                "imported ones) pickle"
            )
        try:
            user = pickle.dumps(self.user)
        except Exception as exc:
            raise TypeError(
                f"cannot pickle {name}: its simulated user ({type(self.user).__name__}) does not pickle "
                f"({exc}); pickle an env with the scripted user, or rebuild the user after loading"
            ) from None
        episode = None
        if self.task is not None:
            episode = {field: getattr(self, field) for field in self._EPISODE}
            episode["data"] = self.session.state.snapshot()
            episode["clock"] = (self.session.clock.start, self.session.clock.calls)
        return {
            "name": name,
            "settings": self._settings,
            "user": user,
            "np_random": self._np_random,
            "next_task_id": self.next_task_id,
            "episode": episode,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["name"], **state["settings"])  # type: ignore[misc]
        self.user = pickle.loads(state["user"])
        self._np_random = state["np_random"]
        self.next_task_id = state["next_task_id"]
        episode = state["episode"]
        if episode is None:
            return
        data, (start, calls) = episode.pop("data"), episode.pop("clock")
        for field, value in episode.items():
            setattr(self, field, value)
        assert self.task is not None
        self.session.restore_bytes(data, start, snapshot=self.task.snapshot)
        self.session.clock.calls = calls
        self.session.executor.hidden = self._hidden
        self._replay = expected_replay(self.spec_env, self.task)
        self._score = EpisodeScore(self.spec_env, self.task, self._replay, self.session, self.reward_config)
        if isinstance(self.user, ContextualUser):
            self.user.bind(self.session, self._messages)

    def close(self) -> None:
        """Release the database connection, and what the simulated user holds (an LLM user's client loop)."""
        self.session.close()
        close_user = getattr(self.user, "close", None)
        if close_user is not None:
            close_user()
        super().close()
