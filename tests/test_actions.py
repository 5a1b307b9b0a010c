"""Action parser: Hermes/Qwen blocks, OpenAI JSON, reasoning, malformed input."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from envfactory_gym.actions import HermesParser, split_reasoning

parse = HermesParser().parse


def test_single_hermes_call():
    p = parse('<tool_call>{"name": "search_pages", "arguments": {"query": "Q3"}}</tool_call>')
    assert [(c.name, c.arguments) for c in p.tool_calls] == [("search_pages", {"query": "Q3"})]
    assert not p.errors and not p.ends_turn


def test_several_calls_and_surrounding_text():
    p = parse('Let me look.\n<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
              '<tool_call>\n{"name": "b", "arguments": {"x": 1}}\n</tool_call>')
    assert [c.name for c in p.tool_calls] == ["a", "b"]
    assert p.message == "Let me look."


def test_arguments_as_json_string_and_openai_function_wrapper():
    text = json.dumps({"tool_calls": [{"id": "c1", "type": "function",
                                       "function": {"name": "f", "arguments": json.dumps({"k": "v"})}}]})
    p = parse(text)
    assert [(c.name, c.arguments) for c in p.tool_calls] == [("f", {"k": "v"})]


def test_fenced_json_call():
    p = parse('```json\n{"name": "f", "arguments": {"a": 2}}\n```')
    assert p.tool_calls[0].arguments == {"a": 2}


def test_think_is_stripped_and_kept_as_reasoning():
    p = parse('<think>the user wants X</think>Here you go.')
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
