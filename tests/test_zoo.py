"""The zoo's content rules, checked on every environment: size and spread of tools and tasks, tasks that mostly
write, queries that recite no internal id but the user's own (`user.known`: a reservation number, a promo code), and
honest provenance for tasks realized from sampled chains."""

from __future__ import annotations

import statistics
from collections import Counter

from envfactory_gym import ToolSession, load_tasks, load_zoo_environment, zoo_keys
from envfactory_gym.llm.state_view import find_internal_ids, internal_ids
from envfactory_gym.verify import DOMAINS

REFERENCE = {"notion", "shopify", "amadeus"}  # the core runtime's three: 10-15 tools, >= 15 tasks, most writing


def test_every_domain_has_four_environments_and_tools_average_fourteen():
    specs = [load_zoo_environment(key) for key in zoo_keys()]
    per_domain = Counter(spec.domain for spec in specs)
    assert set(per_domain) == DOMAINS and min(per_domain.values()) >= 4, per_domain
    assert statistics.fmean(len(spec.tools) for spec in specs) >= 14


def test_tools_read_and_write_and_link_to_public_docs(zoo_spec):
    low, high = (10, 15) if zoo_spec.key in REFERENCE else (10, 25)
    assert low <= len(zoo_spec.tools) <= high
    agent_tools = [t for t in zoo_spec.tools.values() if not t.user_only]
    assert any(t.read_only for t in agent_tools) and any(not t.read_only for t in agent_tools)
    assert zoo_spec.docs_url.startswith("https://")


def test_tasks_are_multi_turn_and_mostly_change_the_state(zoo_spec):
    tasks = load_tasks(zoo_spec).values()
    assert len(tasks) >= (15 if zoo_spec.key in REFERENCE else 20)
    for task in tasks:
        assert 2 <= len(task.turns) <= 5, task.id
        assert all(1 <= len(turn.calls) <= 5 and turn.agent_calls for turn in task.turns), task.id
    writing = sum(task.changes_state(zoo_spec) for task in tasks) / len(tasks)
    assert writing > 0.5 if zoo_spec.key in REFERENCE else writing >= 0.7


def test_queries_never_recite_internal_ids(zoo_spec):
    session = ToolSession(zoo_spec)
    try:
        session.reset("seed")
        ids = internal_ids(session.dump())
    finally:
        session.close()
    leaks = {task.id: hits for task in load_tasks(zoo_spec).values() for turn in task.turns
             if (hits := set(find_internal_ids(turn.query, ids)) - task.user.known_values())}
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
