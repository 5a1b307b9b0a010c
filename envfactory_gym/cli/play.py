"""`envfactory play`: a person plays the agent of an environment's task in the terminal."""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shlex
import sys
from dataclasses import dataclass
from typing import Any, Callable, Literal

from rich.console import Console
from rich.markup import escape

from ..actions import HermesParser
from ..agents import format_call
from ..env import ToolUseEnv
from ..registry import resolve
from ..session import ToolSession
from ..spec import EnvironmentSpec, ToolSpec
from ..tasks import load_tasks
from .args import positive_int

HELP = """\
Each line is one action of the agent (you):
  TOOL key=value ...        call a tool. Values are read as JSON when they parse (3, true, null, [..], {..}),
                            as text otherwise; quote text with spaces: query="code review".
  {"name": ..., "arguments": {...}}   the same call as a JSON object
  <tool_call>{...}</tool_call>        raw model output, sent to the environment exactly as written
  say TEXT                  a message to the user: it ends your turn and the user answers with the next request
  TEXT                      any other line that does not start with a tool name is a message to the user too
Commands (not actions, they cost no step):
  tools [TOOL]   list the tools, or show one tool's description and argument schema
  help           this text
  quit           stop without a reward (end of input does the same)
The episode ends after the user's last request is answered; then the reward and its components are printed."""

COMMANDS = ("help", "tools", "quit")
_IDENTIFIER = re.compile(r"^[A-Za-z_][\w.-]*$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_JSON_TYPES: dict[type, set[str]] = {
    bool: {"boolean"},
    int: {"integer", "number"},
    float: {"number"},
    list: {"array"},
    dict: {"object"},
    type(None): {"null"},
}


@dataclass(frozen=True)
class Entry:
    """One input line, read: an action for the Env, a local command, or a local error (nothing sent)."""

    kind: Literal["action", "say", "command", "error", "empty"]
    text: str = ""


def _accepted_types(schema: dict[str, Any]) -> set[str]:
    return {s.get("type") for s in schema.get("anyOf", [schema]) if s.get("type")}


def parse_value(text: str, schema: dict[str, Any] | None = None) -> Any:
    """A `key=value` value: JSON when it parses and the argument's schema accepts that type, else the text."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    accepted = _accepted_types(schema or {})
    if "string" in accepted and not (_JSON_TYPES.get(type(value), {"string"}) & accepted):
        return text  # e.g. title=2025 for a string argument stays "2025"
    return value


def parse_call(tool: ToolSpec, tokens: list[str]) -> dict[str, Any]:
    """Arguments from `key=value` tokens, typed by the tool's input schema. Raises ValueError on a bad token."""
    properties = tool.input_schema.get("properties", {})
    arguments: dict[str, Any] = {}
    for token in tokens:
        if not _ASSIGNMENT.match(token):
            raise ValueError(f"expected key=value, got {token!r}")
        key, _, raw = token.partition("=")
        arguments[key] = parse_value(raw, properties.get(key))
    return arguments


def read_line(line: str, spec: EnvironmentSpec) -> Entry:
    """Interpret one input line (see HELP)."""
    text = line.strip()
    if not text:
        return Entry("empty")
    first = text.split(maxsplit=1)[0]
    if first in COMMANDS:
        return Entry("command", text)
    if first == "say":
        message = text[len("say") :].strip()
        return Entry("say", message) if message else Entry("error", "say what? write: say TEXT")
    if text.startswith("<tool_call>"):
        return Entry("action", text)
    if text.startswith(("{", "[")):
        if HermesParser().parse(text).ends_turn:
            return Entry("error", 'not a tool call: write {"name": TOOL, "arguments": {...}} (or: say TEXT)')
        return Entry("action", text)
    if first in spec.tools:
        try:
            return Entry("action", format_call(first, parse_call(spec.tools[first], shlex.split(text)[1:])))
        except ValueError as exc:
            return Entry("error", f"cannot read the call ({exc}); write {first} key=value ...")
    problem = _unknown_tool(text, first, spec)
    return Entry("error", problem) if problem else Entry("say", text)


def _unknown_tool(text: str, first: str, spec: EnvironmentSpec) -> str | None:
    """The error for a line shaped like a call of a tool that does not exist (a typo), else None."""
    try:
        tokens = shlex.split(text)
    except ValueError:
        tokens = text.split()
    shaped = bool(_IDENTIFIER.match(first)) and len(tokens) > 1 and all(_ASSIGNMENT.match(t) for t in tokens[1:])
    close = difflib.get_close_matches(first, [t.name for t in spec.agent_tools], n=1, cutoff=0.75)
    if not shaped and not (close and len(tokens) == 1):
        return None
    hint = f"did you mean {close[0]}?" if close else "write `tools` to list them"
    return f"unknown tool {first!r}: {hint} (to talk to the user: say TEXT)"


class Terminal:
    """Input and output: prompt_toolkit (completion, history) and colour when interactive, plain lines when piped."""

    def __init__(self, words: list[str], interactive: bool) -> None:
        self.interactive = interactive
        self.console = Console(highlight=False, soft_wrap=not interactive)  # piped output: one line per line
        self._prompt: Callable[[str], str] | None = None
        if interactive:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import WordCompleter
            from prompt_toolkit.history import InMemoryHistory

            session: PromptSession[str] = PromptSession(
                history=InMemoryHistory(), completer=WordCompleter(words, sentence=True)
            )
            self._prompt = session.prompt

    def read(self, prompt: str) -> str | None:
        """One line, or None at the end of input."""
        if self._prompt is not None:
            try:
                return self._prompt(prompt)
            except (EOFError, KeyboardInterrupt):
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        self.console.print(f"{prompt}{escape(line.rstrip())}")
        return line

    def say(self, text: str, style: str = "") -> None:
        """Print text (never interpreted as markup)."""
        self.console.print(escape(text), style=style or None)

    def json(self, text: str, error: bool) -> None:
        """Print a tool result: pretty JSON, or the error text in red."""
        if error:
            self.say(text, "red")
            return
        try:
            self.console.print_json(text)
        except (json.JSONDecodeError, TypeError):
            self.say(text)


class Game:
    """One episode of a ToolUseEnv played from the terminal."""

    def __init__(self, env: ToolUseEnv, terminal: Terminal) -> None:
        self.env = env
        self.spec = env.spec_env
        self.out = terminal

    def run(self, task_id: str | None, seed: int | None) -> int:
        """Play until the episode ends (0) or the input ends / `quit` (1)."""
        observation, info = self.env.reset(seed=seed, options={"task_id": task_id} if task_id else None)
        self._seen = len(info["messages"])
        task = self.env.task
        assert task is not None
        self.out.say(
            f"{self.spec.name} ({self.spec.env_id}), task {task.id}: {len(task.turns)} user request(s), "
            f"at most {self.env.max_steps} actions. Type `help` for the syntax.",
            "bold",
        )
        if task.user.scenario:
            self.out.say(f"scenario: {task.user.scenario}", "dim")
        self.show_tools()
        self.show_user(observation)
        while True:
            line = self.out.read("agent> ")
            if line is None:
                self.out.say("input ended: no reward", "yellow")
                return 1
            entry = read_line(line, self.spec)
            if entry.kind == "empty":
                continue
            if entry.kind == "error":
                self.out.say(entry.text, "yellow")
                continue
            if entry.kind == "command":
                if entry.text == "quit":
                    self.out.say("stopped: no reward", "yellow")
                    return 1
                self.command(entry.text)
                continue
            if self.step(entry.text):
                return 0

    def step(self, action: str) -> bool:
        """Send one action to the Env and show what came back; True when the episode is over."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        for message in info["messages"][self._seen :]:
            if message["role"] == "tool":
                failed = message["content"].startswith("Error:")
                self.out.say(f"<- {message['name']}", "red" if failed else "green")
                self.out.json(message["content"], failed)
        self._seen = len(info["messages"])
        if "turn_reward" in info:
            self.out.say(f"(turn score {info['turn_reward']['total']:.3f})", "dim")
        if terminated or truncated:
            self.finish(float(info["reward_components"]["total"]), info["reward_components"], truncated)
            return True
        if "turn_reward" in info:
            self.show_user(observation)
        return False

    def finish(self, reward: float, components: dict[str, Any], truncated: bool) -> None:
        """Print the final reward and each of its components."""
        self.out.say("step budget spent" if truncated else "the user has no more requests", "bold")
        self.out.say(f"final reward: {reward:.3f}", "bold green" if reward >= 0.999 else "bold yellow")
        for name in ("trajectory", "state", "length_penalty", "format_penalty"):
            self.out.say(f"  {name}: {components[name]:.3f}")
        self.out.say(
            f"  matched calls: {components['matched_calls']}/{components['expected_calls']} "
            f"(you made {components['agent_calls']})"
        )

    def command(self, text: str) -> None:
        """Run a local command (help, tools)."""
        parts = text.split()
        if parts[0] == "help":
            self.out.say(HELP)
        elif len(parts) == 1:
            self.show_tools()
        elif parts[1] in self.spec.tools and not self.spec.tools[parts[1]].user_only:
            tool = self.spec.tools[parts[1]]
            self.out.say(f"{tool.name} ({'read' if tool.read_only else 'write'}): {tool.description}", "bold")
            self.out.json(json.dumps(tool.input_schema), error=False)
        else:
            self.out.say(f"no tool {parts[1]!r}", "yellow")

    def show_tools(self) -> None:
        """One line per agent tool: name, required arguments, first line of the description."""
        for tool in self.spec.agent_tools:
            required = " ".join(f"{name}=..." for name in tool.required_inputs)
            summary = re.split(r"(?<=\.)\s", " ".join(tool.description.split()), maxsplit=1)[0]
            self.out.say(f"  {tool.name} {required}".rstrip() + f"  - {summary}", "cyan")

    def show_user(self, query: str) -> None:
        """The user's request."""
        self.out.say(f"user: {query}", "bold magenta")


class FreePlay(Game):
    """Tool calls on an environment's start state when it has no task: no user answers and nothing is scored."""

    def __init__(self, spec: EnvironmentSpec, terminal: Terminal) -> None:
        self.spec = spec
        self.out = terminal
        self.session = ToolSession(spec)

    def run(self, task_id: str | None = None, seed: int | None = None) -> int:
        """Call tools until `quit` or the end of input (0: there is no reward to wait for)."""
        self.session.reset()
        self.out.say(
            f"{self.spec.name}: no tasks, so no user and no reward; your calls run on its start state. "
            "Type `help` for the syntax, `quit` to stop.",
            "bold",
        )
        self.show_tools()
        try:
            while True:
                line = self.out.read("agent> ")
                if line is None:
                    return 0
                entry = read_line(line, self.spec)
                if entry.kind == "error":
                    self.out.say(entry.text, "yellow")
                elif entry.kind == "say":
                    self.out.say("(no task: there is no user to answer)", "dim")
                elif entry.kind == "command":
                    if entry.text == "quit":
                        return 0
                    self.command(entry.text)
                elif entry.kind == "action":
                    self.call(entry.text)
        finally:
            self.session.close()

    def call(self, action: str) -> None:
        """Run the calls of one action and show their results."""
        parsed = HermesParser().parse(action)
        for error in parsed.errors:
            self.out.say(f"cannot read the call: {error}", "yellow")
        for item in parsed.tool_calls:
            outcome = self.session.call(item.name, item.arguments)
            self.out.say(f"<- {outcome.name}", "green" if outcome.ok else "red")
            self.out.json(outcome.text, not outcome.ok)


def cmd_play(args: argparse.Namespace) -> int:
    """Play one episode; exit status 0 when it ended with a reward (or, without tasks, when free play ended)."""
    try:
        spec = resolve(args.name)
        if not load_tasks(spec) and not args.task:
            words = [t.name for t in spec.agent_tools] + list(COMMANDS) + ["say"]
            return FreePlay(spec, Terminal(words, interactive=sys.stdin.isatty() and sys.stdout.isatty())).run()
        env = ToolUseEnv(spec, max_steps=args.max_steps)
    except (KeyError, ValueError) as exc:
        print(f"envfactory play: {exc.args[0]}", file=sys.stderr)
        return 2
    try:
        if args.task and args.task not in env.task_ids:
            print(f"envfactory play: unknown task {args.task!r}; tasks: {', '.join(env.task_ids)}", file=sys.stderr)
            return 2
        words = [t.name for t in env.spec_env.agent_tools] + list(COMMANDS) + ["say"]
        terminal = Terminal(words, interactive=sys.stdin.isatty() and sys.stdout.isatty())
        return Game(env, terminal).run(args.task, args.seed)
    finally:
        env.close()


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `play` sub-command."""
    play = subparsers.add_parser(
        "play",
        help="be the agent: play a task in the terminal",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("name", help="environment key, name or gymnasium id (e.g. notion)")
    play.add_argument("--task", default=None, help="task id (default: drawn with --seed)")
    play.add_argument("--seed", type=int, default=0, help="seed of the task drawn when --task is not given")
    play.add_argument("--max-steps", type=positive_int, default=40, help="action budget of the episode")
    play.set_defaults(func=cmd_play)
