"""Action parser: Hermes/Qwen blocks, OpenAI JSON, reasoning, malformed input."""

import json
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envfactory_gym import resolve
from envfactory_gym.actions import ActionLimitError, HermesParser, decode_json, json_depth, split_reasoning
from envfactory_gym.limits import MAX_JSON_DEPTH, MAX_TOOL_CALLS

from .hostile import PATHOLOGICAL, hostile_action

parse = HermesParser().parse
notion_spec = cache(lambda: resolve("notion"))  # resolving looks through every environment root: once


def test_single_hermes_call():
    p = parse('<tool_call>{"name": "search_pages", "arguments": {"query": "Q3"}}</tool_call>')
    assert [(c.name, c.arguments) for c in p.tool_calls] == [("search_pages", {"query": "Q3"})]
    assert not p.errors and not p.ends_turn


def test_several_calls_and_surrounding_text():
    p = parse(
        'Let me look.\n<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
        '<tool_call>\n{"name": "b", "arguments": {"x": 1}}\n</tool_call>'
    )
    assert [c.name for c in p.tool_calls] == ["a", "b"]
    assert p.message == "Let me look."


def test_arguments_as_json_string_and_openai_function_wrapper():
    text = json.dumps(
        {
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": json.dumps({"k": "v"})}}
            ]
        }
    )
    p = parse(text)
    assert [(c.name, c.arguments) for c in p.tool_calls] == [("f", {"k": "v"})]


def test_fenced_json_call():
    p = parse('```json\n{"name": "f", "arguments": {"a": 2}}\n```')
    assert p.tool_calls[0].arguments == {"a": 2}


def test_think_is_stripped_and_kept_as_reasoning():
    p = parse("<think>the user wants X</think>Here you go.")
    assert p.reasoning == "the user wants X" and p.message == "Here you go." and p.ends_turn


def test_leading_think_without_opening_tag():
    reasoning, rest = split_reasoning('planning...</think><tool_call>{"name": "f", "arguments": {}}</tool_call>')
    assert reasoning == "planning..." and rest.startswith("<tool_call>")


def test_tool_call_inside_think_is_ignored():
    p = parse('<think><tool_call>{"name": "x", "arguments": {}}</tool_call></think>Sure.')
    assert p.tool_calls == [] and p.message == "Sure."


def test_malformed_json_is_a_format_error_not_a_message():
    p = parse('<tool_call>{"name": "f", "arguments": {</tool_call>')
    assert p.tool_calls == [] and len(p.errors) == 1 and "not valid JSON" in p.errors[0]
    assert not p.ends_turn


def test_missing_name_and_bad_arguments_string():
    p = parse('<tool_call>{"arguments": {}}</tool_call><tool_call>{"name": "f", "arguments": "{oops"}</tool_call>')
    assert len(p.errors) == 2 and "name" in p.errors[0] and "arguments" in p.errors[1]


def test_unclosed_tool_call_at_end_is_parsed():
    p = parse('<tool_call>{"name": "f", "arguments": {"a": 1}}')
    assert p.tool_calls[0].arguments == {"a": 1}


def test_plain_text_and_json_that_is_not_a_call_are_messages():
    assert parse("All done, the page is renamed.").ends_turn
    assert parse('{"answer": 42}').ends_turn


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parser_never_raises(text):
    p = parse(text)
    assert isinstance(p.message, str)
    assert all(isinstance(e, str) for e in p.errors)


# ------------------------------------------------------------------------------------------- explicit bounds
@pytest.mark.parametrize("depth", [30, 31, 32, 990, 20_000])
def test_nesting_is_bounded_in_every_path(depth):
    """Each JSON document of an action (a call, or arguments sent as a JSON string) nests at most MAX_JSON_DEPTH."""
    deep = "[" * depth + "]" * depth
    arguments = '{"a": ' + deep + "}"
    documents = [
        (f'<tool_call>{{"name": "f", "arguments": {arguments}}}</tool_call>', depth + 2),  # Hermes block
        (f'{{"name": "f", "arguments": {arguments}}}', depth + 2),  # OpenAI-style JSON
        (json.dumps({"name": "f", "arguments": arguments}), depth + 1),
    ]  # arguments as a JSON string
    for text, levels in documents:
        p = parse(text)
        assert not p.ends_turn
        if levels <= MAX_JSON_DEPTH:
            assert not p.errors and p.tool_calls[0].name == "f"
        else:
            assert p.tool_calls == [] and len(p.errors) == 1 and f"deeper than {MAX_JSON_DEPTH}" in p.errors[0]


def test_json_depth_ignores_brackets_in_strings():
    assert json_depth('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert json_depth('"unterminated [[[[') == 0
    assert json_depth("[" * 40) == 40


@pytest.mark.parametrize(
    "value, refused",
    [
        ("NaN", "NaN is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("1e999", "is out of range"),
        ("1" * 5000, "too many digits"),
        ('"\\ud800"', "unpaired UTF-16 surrogate"),
        ('"a\\udc00"', "unpaired UTF-16 surrogate"),
        ('"\ud800"', "unpaired UTF-16 surrogate"),
    ],
)
def test_values_a_strict_decoder_refuses_are_format_errors(value, refused):
    with pytest.raises(ActionLimitError, match=refused):
        decode_json(f'{{"a": {value}}}')
    hermes = parse(f'<tool_call>{{"name": "f", "arguments": {{"a": {value}}}}}</tool_call>')
    assert hermes.tool_calls == [] and refused in hermes.errors[0]
    openai = parse(f'{{"name": "f", "arguments": {{"a": {value}}}}}')  # refused, not taken for a message
    assert openai.tool_calls == [] and refused in openai.errors[0] and not openai.ends_turn


def test_valid_values_near_the_bounds_pass():
    p = parse(
        '<tool_call>{"name": "f", "arguments": {"a": "\\ud83d\\ude00", "b": 1e308, "c": '
        + "9" * 4000
        + "}}</tool_call>"
    )
    assert p.tool_calls[0].arguments["a"] == "\U0001f600" and p.tool_calls[0].arguments["b"] == 1e308


def test_a_tool_call_flood_is_one_format_error_and_runs_nothing():
    block = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    assert len(parse(block * MAX_TOOL_CALLS).tool_calls) == MAX_TOOL_CALLS
    flood = parse(block * 1000)
    assert flood.tool_calls == [] and flood.errors == [
        f"the action holds 1000 tool calls; at most {MAX_TOOL_CALLS} are allowed in one action, none ran"
    ]
    listed = parse(json.dumps({"tool_calls": [{"function": {"name": "f", "arguments": "{}"}}] * 40}))
    assert listed.tool_calls == [] and "40 tool calls" in listed.errors[0]


def test_over_long_action_is_refused_by_the_parser():
    p = HermesParser(max_length=100).parse("x" * 101)
    assert p.errors == ["the action is too long (101 characters; the limit is 100)"] and not p.ends_turn


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=True))
def test_parser_never_raises_on_hostile_actions(rng):
    p = parse(hostile_action(rng, notion_spec()))
    assert all(isinstance(e, str) for e in p.errors)


@pytest.mark.parametrize("index", range(len(PATHOLOGICAL)))
def test_actions_that_make_naive_parsers_backtrack_or_recurse_parse_at_once(index):
    """A regular expression for code fences backtracked for minutes on a fence before 60,000 spaces; each of these
    must parse in about linear time (a regression hangs this test)."""
    p = parse(PATHOLOGICAL[index])
    assert isinstance(p.message, str) and all(isinstance(e, str) for e in p.errors)
