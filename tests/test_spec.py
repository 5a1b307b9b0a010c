"""Tool specs are derived from signatures and docstrings."""

import warnings
from typing import Literal

import pytest
from pydantic import BaseModel

from envfactory_gym import Database, resolve, tool
from envfactory_gym.spec import ToolSpec, parse_docstring


class Out(BaseModel):
    id: str


@tool(read_only=True)
def find_things(db: Database, query: str, kind: Literal["a", "b"] = "a", limit: int = 10) -> list[Out]:
    """Find things by name.

    Longer explanation.

    Args:
        query: Text to search,
            continued on a second line.
        kind: Which kind.
        limit: Max results.

    Returns:
        The things.
    """
    return []


def test_schema_from_signature_and_docstring():
    spec = ToolSpec.from_function(find_things)
    assert spec.read_only and not spec.user_only
    assert spec.description == "Find things by name.\n\nLonger explanation."
    schema = spec.input_schema
    assert schema["required"] == ["query"]
    assert schema["properties"]["query"]["description"] == "Text to search, continued on a second line."
    assert schema["properties"]["kind"]["enum"] == ["a", "b"]
    assert schema["properties"]["limit"]["default"] == 10
    assert spec.output_schema["type"] == "array"
    assert spec.openai_schema()["function"]["name"] == "find_things"


def test_unannotated_parameter_is_rejected():
    @tool()
    def bad(db, x):
        """Bad."""

    with pytest.raises(TypeError):
        ToolSpec.from_function(bad)


def test_docstring_without_args():
    assert parse_docstring("Only a line.") == ("Only a line.", {})


def test_user_only_tools_are_hidden_from_the_agent():
    spec = resolve("notion")
    assert "add_connection" in spec.tools
    assert "add_connection" not in {t["function"]["name"] for t in spec.openai_tools}
    assert spec.env_id == f"envfactory/Notion-v{spec.version}"


@tool(read_only=True)
def add_order(db: Database, pair: str, validate: bool = False) -> dict:
    """Place an order, or only check it.

    Args:
        pair: The asset pair.
        validate: Check the order without placing it.
    """
    return {"pair": pair, "validated": validate}


def test_a_parameter_named_like_a_basemodel_method_builds_quietly_and_validates():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = ToolSpec.from_function(add_order)
    assert spec.input_model.model_validate({"pair": "XBTUSD", "validate": True}).validate is True
    assert "validate" in spec.input_model.model_json_schema()["properties"]
