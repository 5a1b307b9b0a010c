"""The zoo's content rules, checked on every environment: size and spread of tools and tasks, tasks that mostly
write, queries that recite no internal id but the user's own (`user.known`: a reservation number, a promo code), and
honest provenance for tasks realized from sampled chains."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from envfactory_gym import ToolSession, load_tasks, load_zoo_environment, zoo_keys
from envfactory_gym.llm.state_view import find_internal_ids, internal_ids
from envfactory_gym.verify import DOMAINS

REFERENCE = {"notion", "shopify", "amadeus"}  # the core runtime's three: 10-15 tools
#: The zoo's first 33 environments, all upgraded (version 2 or later): >= 30 tasks and a mean of >= 4.0 turns, 10-25
#: tools. Every other environment follows the full rules below.
FIRST_WAVE = {
    "alpaca",
    "amadeus",
    "amtrak",
    "benchling",
    "bitwarden",
    "booking",
    "clinicaltrials",
    "cloudflare_dns",
    "coinbase",
    "cvs_pharmacy",
    "doordash",
    "ebay",
    "expensify",
    "gmail",
    "google_calendar",
    "google_places",
    "hertz",
    "instacart",
    "jira",
    "mealie",
    "monzo",
    "notion",
    "opentable",
    "pagerduty",
    "semantic_scholar",
    "shopify",
    "slack",
    "spotify",
    "strava",
    "stripe",
    "ticketmaster",
    "zendesk",
    "zotero",
}


def test_the_zoo_holds_100_environments_thirteen_per_domain_and_passes_the_papers_size():
    specs = [load_zoo_environment(key) for key in zoo_keys()]
    assert len(specs) >= 100
    per_domain = Counter(spec.domain for spec in specs)
    assert set(per_domain) == DOMAINS and min(per_domain.values()) >= 13, per_domain
    assert statistics.fmean(len(spec.tools) for spec in specs) >= 20
    tasks = [task for spec in specs for task in load_tasks(spec).values()]
    assert sum(len(spec.tools) for spec in specs) >= 2000 and len(tasks) >= 3000
    assert statistics.fmean(len(task.turns) for task in tasks) >= 4.5


def test_tools_read_and_write_and_link_to_public_docs(zoo_spec):
    low, high = (10, 15) if zoo_spec.key in REFERENCE else (10, 25) if zoo_spec.key in FIRST_WAVE else (15, 25)
    assert low <= len(zoo_spec.tools) <= high
    agent_tools = [t for t in zoo_spec.tools.values() if not t.user_only]
    assert any(t.read_only for t in agent_tools) and any(not t.read_only for t in agent_tools)
    assert zoo_spec.docs_url.startswith("https://")


def test_tasks_are_multi_turn_and_mostly_change_the_state(zoo_spec):
    tasks = load_tasks(zoo_spec).values()
    assert len(tasks) >= 30
    for task in tasks:
        assert 2 <= len(task.turns) <= 8, task.id
        assert all(1 <= len(turn.calls) <= 6 and turn.agent_calls for turn in task.turns), task.id
    writing = sum(task.changes_state(zoo_spec) for task in tasks) / len(tasks)
    assert writing >= 0.7
    turns = statistics.fmean(len(task.turns) for task in tasks)
    assert turns >= (4.0 if zoo_spec.key in FIRST_WAVE else 4.8), turns


def test_new_environments_have_long_busy_conversations_and_a_real_seed(zoo_spec):
    """Environments after the first wave: a mean of >= 2.5 of the agent's calls a turn (the user's own calls, such
    as signing in or confirming a payment, do not count), >= 30% of tasks from sampled chains, a seed of >= 500
    rows."""
    if zoo_spec.key in FIRST_WAVE:
        pytest.skip("a first-wave environment")
    tasks = list(load_tasks(zoo_spec).values())
    calls_per_turn = statistics.fmean(len(turn.agent_calls) for task in tasks for turn in task.turns)
    assert calls_per_turn >= 2.5, calls_per_turn
    assert sum(task.provenance.get("method") == "sampled-chain" for task in tasks) >= 0.3 * len(tasks)
    session = ToolSession(zoo_spec)
    try:
        session.reset("seed")
        assert sum(len(rows) for rows in session.dump().values()) >= 500
    finally:
        session.close()


def test_queries_never_recite_internal_ids(zoo_spec):
    session = ToolSession(zoo_spec)
    try:
        session.reset("seed")
        ids = internal_ids(session.dump())
    finally:
        session.close()
    leaks = {
        task.id: hits
        for task in load_tasks(zoo_spec).values()
        for turn in task.turns
        if (hits := set(find_internal_ids(turn.query, ids)) - task.user.known_values())
    }
    assert not leaks


def test_sampled_chain_tasks_name_every_chain_tool_they_leave_out(zoo_spec):
    sampled = [task for task in load_tasks(zoo_spec).values() if task.provenance.get("method") == "sampled-chain"]
    assert len(sampled) >= 5
    for task in sampled:
        used = {call.name for turn in task.turns for call in turn.calls}
        chain = task.provenance["chain"]
        assert set(chain) <= set(zoo_spec.tools), task.id
        left_out = [name for name in chain if name not in used]
        assert len(left_out) < len(set(chain)), task.id
        assert all(name in task.provenance["realized"] for name in left_out), (task.id, left_out)
