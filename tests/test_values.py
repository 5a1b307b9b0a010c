"""The shared value helpers and argument types every environment uses."""

from __future__ import annotations

from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Annotated

import pytest
from hypothesis import given as hypothesis_given
from hypothesis import strategies as st
from pydantic import Field

from envfactory_gym import Database, InvalidRequest, ToolSession, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, PageSize, bounded, page_size, text
from envfactory_gym.values import format_money, iso_timestamp, minor_units, parse_date, parse_timestamp

from .helpers import make_spec


def test_dates_name_the_argument_and_show_an_example():
    assert parse_date(" 2025-02-28 ", "checkin") == date(2025, 2, 28)
    with pytest.raises(InvalidRequest, match="checkin must be a date like 2025-07-14"):
        parse_date("28/02/2025", "checkin", example="2025-07-14")
    with pytest.raises(InvalidRequest, match="is not a valid date"):
        parse_date("2025-02-30", "checkin")


def test_timestamps_are_utc_and_need_a_zone():
    assert parse_timestamp("2025-06-18T10:00:00-04:00", "since") == datetime(2025, 6, 18, 14, tzinfo=timezone.utc)
    assert parse_timestamp("2025-06-18T14:00:00Z", "since") == datetime(2025, 6, 18, 14, tzinfo=timezone.utc)
    with pytest.raises(InvalidRequest, match="since needs a time zone offset"):
        parse_timestamp("2025-06-18T14:00:00", "since")
    assert parse_timestamp("2025-06-18T14:00:00", "since", naive_as_utc=True).hour == 14
    with pytest.raises(InvalidRequest, match="ISO 8601"):
        parse_timestamp("2025-06-18", "since")
    assert parse_timestamp("2025-06-18", "since", dates=True) == datetime(2025, 6, 18, tzinfo=timezone.utc)
    with pytest.raises(InvalidRequest, match="ISO 8601"):
        parse_timestamp("yesterday", "since")


@hypothesis_given(
    st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2200, 1, 1), timezones=st.just(timezone.utc))
)
def test_timestamps_round_trip(moment):
    moment = moment.replace(microsecond=0)
    assert parse_timestamp(iso_timestamp(moment), "t") == moment


def test_money_in_minor_units():
    assert minor_units("12.5", "usd") == 1250 and minor_units(1250, "JPY") == 1250
    assert minor_units(Decimal("0.10"), "EUR") == 10
    with pytest.raises(InvalidRequest, match="more than 2 decimal places for USD"):
        minor_units("1.005", "USD")
    with pytest.raises(InvalidRequest, match="more than 0 decimal places for JPY"):
        minor_units("10.5", "JPY")
    with pytest.raises(InvalidRequest, match="must be a number"):
        minor_units("ten", "USD")
    with pytest.raises(InvalidRequest, match="finite"):
        minor_units("nan", "USD")
    assert format_money(123456, "usd", {"USD": "$"}) == "$1,234.56"
    assert format_money(-1250, "eur") == "-EUR 12.50"
    assert format_money(1250, "JPY", {"JPY": "¥"}) == "¥1,250"


def test_given_keeps_only_the_filters_that_were_set():
    assert given(status="open", owner=None, limit=0) == {"status": "open", "limit": 0}


def test_constraints_reach_the_schema_and_validation(tmp_path):
    @tool(read_only=True)
    def list_items(
        db: Database,
        on: IsoDate | None = None,
        party: bounded(1, 20) = 2,
        note: text(10) | None = None,
        page_size: PageSize = 20,
        top: page_size(50) = 5,
    ) -> int:
        """List items.

        Args:
            on: Day.
            party: Party size.
            note: A note.
            page_size: Results per page.
            top: How many top items.
        """
        return party

    spec = make_spec(tmp_path, [list_items], [{"id": 1, "name": "a"}])
    properties = spec.tools["list_items"].input_schema["properties"]
    assert properties["page_size"]["minimum"] == 1 and properties["page_size"]["maximum"] == 100
    assert properties["top"]["maximum"] == 50 and properties["party"]["maximum"] == 20
    assert properties["page_size"]["description"] == "Results per page."  # the docstring still describes it
    assert "pattern" in properties["on"]["anyOf"][0] and properties["note"]["anyOf"][0]["maxLength"] == 10
    session = ToolSession(spec)
    session.reset()
    assert session.call("list_items", {"party": 20}).ok
    for bad, where in (
        ({"party": 21}, "party"),
        ({"page_size": 0}, "page_size"),
        ({"on": "June 3"}, "on"),
        ({"note": "x" * 11}, "note"),
        ({"top": 51}, "top"),
    ):
        outcome = session.call("list_items", bad)
        assert not outcome.ok and where in (outcome.error or ""), outcome.error


def test_a_product_error_text_replaces_the_validators_words(tmp_path):
    @tool()
    def post_message(
        db: Database,
        text: Annotated[str, Field(min_length=1, max_length=5), ErrorText("msg_too_long")],
        channel: Annotated[str, Field(pattern="^C"), ErrorText("channel_not_found")] | None = None,
    ) -> int:
        """Post a message.

        Args:
            text: The text.
            channel: Where.
        """
        return len(text)

    spec = make_spec(tmp_path, [post_message], [{"id": 1, "name": "a"}])
    assert spec.tools["post_message"].input_schema["properties"]["text"]["maxLength"] == 5
    session = ToolSession(spec)
    session.reset()
    assert session.call("post_message", {"text": "hi", "channel": "C1"}).ok
    assert "text: msg_too_long" in (session.call("post_message", {"text": "too long"}).error or "")
    assert "channel: channel_not_found" in (session.call("post_message", {"text": "x", "channel": "D9"}).error or "")
    assert "text: Field required" in (session.call("post_message", {}).error or "")  # a missing one says so


def test_plain_amounts_durations_and_raw_selects():
    from datetime import timedelta

    from envfactory_gym import ToolSession, load_zoo_environment
    from envfactory_gym.values import format_amount, iso_duration

    assert format_amount(551900, "eur") == "5519.00" and format_amount(1250, "JPY") == "1250"
    assert iso_duration(timedelta(hours=2, minutes=30)) == "PT2H30M"
    assert iso_duration(timedelta(days=1, hours=4)) == "P1DT4H" and iso_duration(timedelta(0)) == "PT0S"
    spec = load_zoo_environment("notion")
    session = ToolSession(spec)
    session.reset()
    pages = spec.schema.tables["pages"]
    everything = session.database.find(pages)
    chosen = session.database.select(pages, "in_trash = ? AND title LIKE ?", (0, "%Roadmap%"), limit=5)
    expected = [r for r in everything if not r["in_trash"] and "roadmap" in r["title"].lower()][:5]
    assert chosen == expected and chosen
