"""Hostile model output for the property tests and `benchmarks/fuzz_actions.py`: action text an adversarial or
broken model could send, built from a `random.Random` (hypothesis' `st.randoms()` in tests, so failures replay
and shrink; a seeded `Random` in the benchmark, for speed), and the invariants every `ToolUseEnv.step` keeps."""

from __future__ import annotations

import json
import math
from random import Random
from typing import Any

from envfactory_gym import ToolUseEnv
from envfactory_gym.limits import valid_unicode
from envfactory_gym.spec import EnvironmentSpec

#: Raw JSON-ish tokens that a strict decoder refuses or that strain one: non-finite and over-long numbers,
#: unpaired surrogates (escaped and raw), control characters, truncated literals and strings, stray brackets.
BAD_TOKENS = (
    "NaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "1" * 5000,
    "-" + "9" * 4400,
    "1" * 4300,
    "0." + "1" * 5000,
    "1e-999",
    "9223372036854775808",
    "-9223372036854775809",
    "1.7976931348623157e309",
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"x\\udc00"',
    '"\ud800"',
    '"\x00\x01\x1f"',
    '"a\\u0000b"',
    '"\\x"',
    "tru",
    "nul",
    '"unterminated',
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "'single'",
    "01",
    "+1",
    ".5",
    "-",
)
FENCE = "`" * 3
CONTROL = "".join(chr(c) for c in range(32)) + "\x7f\u2028\u2029\ufeff\ufffe"
SPECIAL = '\ud800\udfff\udbff\udc00"\\{}[]<>:,'
TAGS = ("<tool_call>", "</tool_call>", "<think>", "</think>", FENCE, FENCE + "json\n", "{", "[")
#: Long actions that make naive regular expressions backtrack (a fence before 60,000 spaces took minutes) or
#: recursive scanners overflow: parsing each must stay about linear.
PATHOLOGICAL = (
    FENCE + " " * 60000 + "x",
    FENCE + "json" + " \n" * 30000 + FENCE,
    "<think>" * 9000,
    "<tool_call>" * 5900,
    "<tool_call></tool_call>" * 2800,
    "[" * 40 + '"\\"' * 16000 + "\\",
    "[" * 40 + '"' + "\\" * 60000,
    '["' + "[" * 60000 + '"]',
    '[{"a":' * 6000,
    "[" + "1," * 30000 + "1]",
    "x" * 30000 + "</think>" + "<think>" * 4000,
    "<tool_call>" + '{"name": "' + "\\u" * 20000 + '"}',
)
DEEP_LEVELS = (31, 32, 33, 200, 990)  # inside a value
VERY_DEEP_LEVELS = (3000, 20000)  # a whole action
FLOODS = (31, 32, 33, 100, 1000)
#: Kinds of action and how often each is drawn: mostly calls, malformed or not; plain text (which ends the turn,
#: so its cost is the turn's scoring, not parsing) less often.
KINDS = {
    "hermes": 3,
    "openai": 2,
    "fenced": 1,
    "deep": 2,
    "flood": 1,
    "text": 0.5,
    "tags": 0.5,
    "mixed": 1,
    "pathological": 0.2,
}


def text(rng: Random, max_size: int = 24) -> str:
    """A short string mixing ASCII, any non-surrogate code point, control characters and unpaired surrogates."""
    chars = []
    for _ in range(rng.randint(0, max_size)):
        pick = rng.random()
        if pick < 0.5:
            chars.append(chr(rng.randint(32, 126)))
        elif pick < 0.7:
            code = rng.randint(0x80, 0x10FFFF)
            chars.append(chr(code) if not 0xD800 <= code <= 0xDFFF else "\u00e9")
        elif pick < 0.85:
            chars.append(rng.choice(CONTROL))
        else:
            chars.append(rng.choice(SPECIAL))
    return "".join(chars)


def plain_value(rng: Random) -> Any:
    """A JSON-able Python value: null, a bool, an int (up to 2**80), a float (NaN and infinities too), text."""
    return rng.choice(
        [
            lambda: None,
            lambda: rng.random() < 0.5,
            lambda: rng.randint(-(2**80), 2**80),
            lambda: rng.randint(-9, 9),
            lambda: rng.choice([float("nan"), float("inf"), -float("inf"), 1e308, -0.0, rng.uniform(-1e9, 1e9)]),
            lambda: text(rng),
        ]
    )()


def leaf(rng: Random) -> str:
    """JSON text of one scalar: valid (surrogates escaped or raw), or a token a strict decoder refuses."""
    pick = rng.random()
    if pick < 0.5:
        return json.dumps(plain_value(rng), ensure_ascii=rng.random() < 0.5, allow_nan=True)
    if pick < 0.8:
        return rng.choice(BAD_TOKENS)
    return '"' + text(rng) + '"'  # raw, unescaped: control characters and quotes break it


def nested(levels: int, inner: str, opener: str = "[", closer: str = "]") -> str:
    """`levels` brackets around `inner` (deep enough to blow a recursive decoder's stack)."""
    return opener * levels + inner + closer * levels


def deep(rng: Random, levels: tuple[int, ...] = DEEP_LEVELS) -> str:
    """Deeply nested arrays or objects around a leaf."""
    if rng.random() < 0.7:
        return nested(rng.choice(levels), leaf(rng))
    return nested(rng.choice(levels), leaf(rng), '{"a":', "}")


def key(rng: Random) -> str:
    """An object key: text, a name the parser looks for, or something that is not a JSON string at all."""
    return rng.choice([json.dumps(text(rng)), '"name"', '"arguments"', '"function"', "1", "null", '"\\ud800"', "{}"])


def json_text(rng: Random, budget: int = 3) -> str:
    """JSON-ish text: scalars, deep nesting, arrays and objects of those, `budget` levels of structure."""
    pick = rng.random()
    if budget <= 0 or pick < 0.4:
        return leaf(rng)
    if pick < 0.5:
        return deep(rng)
    items = [json_text(rng, budget - 1) for _ in range(rng.randint(0, 3))]
    if pick < 0.75:
        return "[" + ",".join(items) + "]"
    return "{" + ",".join(f"{key(rng)}:{item}" for item in items) + "}"


def call_object(rng: Random, spec: EnvironmentSpec) -> str:
    """One tool call's JSON text: a real tool (agent or user-only) or a hostile name, with arguments that use the
    tool's real parameter names but hostile values, or arguments of the wrong type at any depth, in the Hermes,
    OpenAI (`function`), `parameters` or a shapeless form."""
    tool = spec.tools[rng.choice(sorted(spec.tools))]
    name = rng.choice([json.dumps(tool.name), json_text(rng, 1), '"' + "x" * 5000 + '"'])
    fields = list(tool.input_model.model_fields) or ["x"]
    pairs = [
        f"{json.dumps(rng.choice(fields)) if rng.random() < 0.8 else key(rng)}:{json_text(rng, 2)}"
        for _ in range(rng.randint(0, 4))
    ]
    arguments = rng.choice(
        [
            "{" + ",".join(pairs) + "}",
            json_text(rng),
            json.dumps("{" + ",".join(pairs) + "}"),  # arguments as a JSON string (OpenAI style)
            json.dumps(json_text(rng)),
        ]
    )
    shape = rng.choice(["hermes", "hermes", "openai", "parameters", "shapeless"])
    if shape == "openai":
        return f'{{"function": {{"name": {name}, "arguments": {arguments}}}}}'
    if shape == "parameters":
        return f'{{"name": {name}, "parameters": {arguments}}}'
    if shape == "shapeless":
        return json_text(rng)
    return f'{{"name": {name}, "arguments": {arguments}}}'


def hostile_action(rng: Random, spec: EnvironmentSpec) -> str:
    """One action: tool-call blocks (a few, or a flood), OpenAI-style JSON (bare or fenced), deep nesting, raw
    text with control characters and surrogates, half-open tags, or a mix of them."""
    kind = rng.choices(list(KINDS), list(KINDS.values()))[0]
    if kind == "hermes":
        closing = "</tool_call>" if rng.random() < 0.8 else ""
        return "".join(f"<tool_call>{call_object(rng, spec)}{closing}" for _ in range(rng.randint(1, 3)))
    if kind == "openai":
        return '{"tool_calls": [' + ",".join(call_object(rng, spec) for _ in range(rng.randint(0, 3))) + "]}"
    if kind == "fenced":
        return FENCE + "json\n" + call_object(rng, spec) + "\n" + FENCE
    if kind == "deep":
        inner = deep(rng, DEEP_LEVELS + VERY_DEEP_LEVELS)
        return rng.choice(
            [
                inner,
                f"<tool_call>{inner}</tool_call>",
                '{"name": "x", "arguments": ' + inner + "}",
                '{"tool_calls": ' + inner + "}",
            ]
        )
    if kind == "flood":
        block = f'<tool_call>{{"name": "{rng.choice(sorted(spec.tools))}", "arguments": {{}}}}</tool_call>'
        return block * rng.choice(FLOODS)
    if kind == "text":
        return text(rng, 200)
    if kind == "pathological":
        return rng.choice(PATHOLOGICAL)
    if kind == "tags":
        return "".join(rng.choice(TAGS) if rng.random() < 0.5 else text(rng) for _ in range(rng.randint(0, 8)))
    parts = [
        rng.choice([text(rng), f"<tool_call>{call_object(rng, spec)}</tool_call>", "<think>plan</think>"])
        for _ in range(rng.randint(0, 5))
    ]
    return "".join(parts)


def check_step(env: ToolUseEnv, action: Any, format_errors_before: int) -> tuple[bool, dict[str, Any]]:
    """Step `env` with `action` and assert `assert_step_invariants`; returns (episode over, info)."""
    result = env.step(action)
    assert_step_invariants(env, action, format_errors_before, result)
    return result[2] or result[3], result[4]


def assert_step_invariants(env: ToolUseEnv, action: Any, format_errors_before: int, result: tuple) -> None:
    """What a step keeps on any input (`result` is what `env.step(action)` returned):

    - the observation is inside the observation space and the reward is a finite number;
    - every step records exactly one assistant message, malformed or not;
    - the format-error count never goes down, and rises (with an `Error:` observation) when the action was
      unreadable or the parser found a malformed call in it;
    - the history stays storable: JSON with no unpaired surrogate (UTF-8 encodable);
    - the score so far (`info["reward_components"]["total"]`, what the step rewards sum to) stays in [0, 1].
    """
    observation, reward, _, _, info = result
    assert env.observation_space.contains(observation) and math.isfinite(float(reward))
    messages = info["messages"]
    assert sum(m["role"] == "assistant" for m in messages) == info["step"]
    assert info["format_errors"] >= format_errors_before
    readable = isinstance(action, str) and env.action_space.contains(action)
    if not readable or env.parser.parse(valid_unicode(action)).errors:
        assert info["format_errors"] > format_errors_before and "Error:" in observation
    json.dumps(messages, ensure_ascii=False).encode("utf-8")
    if "reward_components" in info:  # every step in delta mode, the last one in final mode
        assert 0.0 <= float(info["reward_components"]["total"]) <= 1.0
