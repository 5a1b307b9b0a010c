"""tau2-bench domains: the toolkit's READ/WRITE marks, the Pydantic DB, gold actions and env assertions."""

from __future__ import annotations

import sys

import pytest

from envfactory_gym.adapters import ImportOptions, adapter
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import load_tasks

from .conftest import FIXTURES, OUTFITTERS
from .contract import (
    assert_check_env,
    assert_ground_truth_scores_one,
    assert_isolated,
    assert_wrong_write_scores_lower,
    convert,
    convert_checked,
    play,
)

DOMAIN = FIXTURES / "tau2" / "giftshop"
STUB = str(FIXTURES / "tau2" / "stub")  # stands for an installed tau2-bench: the names domain code imports


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    sys.path.insert(0, STUB)
    try:
        yield convert("tau2", DOMAIN, tmp_path_factory.mktemp("giftshop"))
    finally:
        sys.path.remove(STUB)


def test_load_reads_marks_and_tasks(spec):
    assert adapter("tau2").discover(DOMAIN, ImportOptions()) == ["giftshop"]
    assert {n: t.read_only for n, t in spec.tools.items()} == {
        "calculate": True,
        "cancel_order": False,
        "get_customer": True,
        "list_products": True,
        "place_order": False,
    }
    assert "assert_order_status" not in spec.tools  # not marked as a tool
    tasks = load_tasks(spec)
    assert sorted(tasks) == ["0", "1"] and spec.extra["skipped_tasks"] == 1  # task 2 needs a user-side tool
    cancel = tasks["1"].agent_calls[0]
    assert cancel.masked == ["reason"]  # only compare_args count
    assert tasks["0"].turns[0].query.endswith("Your customer id is cus_2.")


def test_initial_state_applies_agent_data_and_setup(spec):
    session = ToolSession(spec)
    session.reset(load_tasks(spec)["1"].snapshot)
    state = session.dump()
    assert state["orders"]["ord_9"]["status"] == "pending" and state["products"]["p_mug"]["stock"] == 2
    assert state["products"]["p_candle"]["stock"] == 10  # untouched by the update
    session.close()


def test_check_env(spec):
    assert_check_env(spec)


def test_ground_truth_scores_one(spec):
    assert_ground_truth_scores_one(spec)
    assert play(spec, "1")["components"]["checklist"] == 1.0  # the env assertion holds


def test_wrong_order_scores_lower(spec):
    assert_wrong_write_scores_lower(
        spec, "0", "place_order", lambda a: {**a, "items": [{"product_id": "p_candle", "quantity": 3}]}
    )


def test_env_assertions_fail_when_nothing_is_done(spec):
    assert play(spec, "1", [[]])["components"]["checklist"] == 0.0


def test_errors_roll_back(spec):
    session = ToolSession(spec)
    session.reset("seed")
    before = session.dump()
    outcome = session.call(
        "place_order",
        {
            "customer_id": "cus_1",
            "items": [{"product_id": "p_candle", "quantity": 1}, {"product_id": "p_mug", "quantity": 9}],
        },
    )
    assert outcome.text == "Error: ValueError: Not enough Stoneware mug in stock"
    assert session.dump() == before  # the candle taken before the failure is back
    session.close()


def test_sessions_are_isolated(spec):
    order = {"customer_id": "cus_1", "items": [{"product_id": "p_card", "quantity": 1}]}
    assert_isolated(spec, "seed", "place_order", order)


@pytest.fixture(scope="module")
def outfitters(outfitters_data, tmp_path_factory):
    """A realistic tau2-shaped domain, converted as `envfactory import` converts it."""
    return convert_checked(
        "tau2", outfitters_data, tmp_path_factory.mktemp("outfitters"), ImportOptions(code=str(OUTFITTERS))
    )


def test_a_gold_action_that_fails_in_tau2_is_matched_by_the_same_failure(outfitters):
    spec, findings = outfitters
    task = load_tasks(spec)["7"]
    failing = task.turns[0].calls[0]
    assert failing.name == "find_customer_by_email" and failing.expected_error == "ValueError: Customer not found"
    assert findings.expected_errors["7"] == {"0.0": "ValueError: Customer not found"} and not findings.failing
    assert play(spec, "7")["reward"] == 1.0  # the identical call fails the same way: matched
    script = [[(c.name, dict(c.arguments)) for c in turn.agent_calls] for turn in task.turns]
    skipped = play(spec, "7", [script[0][1:]] + script[1:])
    other = play(
        spec, "7", [[("find_customer_by_email", {"email": "nobody@example.com"})] + script[0][1:]] + script[1:]
    )
    assert skipped["components"]["trajectory"] < 1.0 and skipped["components"]["state"] == 1.0
    assert other["components"]["trajectory"] < 1.0  # another failing lookup is not the same call


def test_user_side_assertions_stay_out_of_the_checklist_count(outfitters):
    spec, _ = outfitters
    task = load_tasks(spec)["user-side-assertion"]
    assert play(spec, task.id)["components"]["checklist"] == 1.0  # 1 of 1 assistant-side assertion holds
    assert play(spec, task.id, [[]])["components"]["checklist"] == 0.0


def test_tasks_tau2_cannot_run_here_are_left_out(outfitters):
    spec, _ = outfitters
    assert spec.extra["skipped_tasks"] == 2 and not {"user-action", "with-history"} & set(load_tasks(spec))
