"""QueryGen offline on the Notion env: the LLM answers come from recorded cassettes (tests/cassettes/querygen,
written as a strong model would answer these exact prompts); everything else runs for real: the planned rows
are validated by the schema, chains execute in ToolSessions, candidates are compared by state, redundant calls
are removed and masks derived by re-execution, and the produced task passes the environment verifier."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import shutil
from pathlib import Path

import pytest

from envfactory_gym import resolve
from envfactory_gym.cli import main as envfactory_main
from envfactory_gym.execution import ToolOutcome
from envfactory_gym.llm import LLMClient, RecordedLLM, UnrecordedRequest, find_internal_ids, internal_ids
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import GroundTruthCall, Task, load_tasks, replay
from envfactory_gym.verify import verify_environment
from envfactory_synth.querygen import QueryGenConfig, QueryGenContext, synthesize
from envfactory_synth.querygen.evaluation import drop_needless_turns
from envfactory_synth.querygen.export import validate_rl_row, validate_sft_sample
from envfactory_synth.querygen.masking import variants
from envfactory_synth.querygen.models import AgentStep, Candidate, Segment, StepCall
from envfactory_synth.querygen.output import OutputDir
from envfactory_synth.querygen.planning import seed_snapshot, split_chain, validate_rows

CASSETTES = Path(__file__).parent.parent / "cassettes" / "querygen"
CHAIN = ["search_pages", "query_database", "list_users", "update_page", "create_comment"]
SEED = 427  # splits the chain 2 + 3; turn 1 gets implicit reference + goal expansion, turn 2 + action compression
TASK_ID = "notion-qg-s427-0000"
NORDLICHT = "7b1e2f64-3c5a-5d8e-9f10-2a4b6c8d0e12"


def run_pipeline(config: QueryGenConfig = QueryGenConfig(k=2)):
    ctx = QueryGenContext(resolve("notion"), RecordedLLM(CASSETTES), config)
    return ctx, asyncio.run(synthesize(ctx, CHAIN, TASK_ID, SEED))


@pytest.fixture(scope="module")
def synthesized():
    return run_pipeline()


def test_plan_adds_schema_valid_rows_and_splits_the_chain(synthesized):
    ctx, result = synthesized
    assert result.plan.turn_tools == [CHAIN[:2], CHAIN[2:]]
    assert [row["title"] for row in result.plan.new_rows["pages"]] == ["Customer story: Nordlicht Logistics"]
    assert result.task.snapshot == f"qg-{TASK_ID}" and result.snapshot is not None
    session = ToolSession(ctx.spec)
    session.restore_bytes(result.plan.snapshot_bytes, ctx.clock)
    assert session.dump()["pages"][NORDLICHT]["properties"]["Status"] == "In review"
    session.close()


def test_blueprint_chains_are_executed_in_the_env(synthesized):
    _, result = synthesized
    first, second = result.drafts
    assert [c.name for c in first.calls] == CHAIN[:2] + ["retrieve_block_children"]  # + goal expansion's call
    assert [c.name for c in second.calls] == CHAIN[2:]
    for draft in result.drafts:
        assert len(draft.outcomes) == len(draft.calls) and all(o.ok for o in draft.outcomes)
    assert second.outcomes[1].output["properties"]["Publish date"] == "2025-01-21"


def test_refined_queries_no_longer_recite_internal_ids(synthesized):
    ctx, result = synthesized
    session = ToolSession(ctx.spec)
    session.restore_bytes(result.plan.snapshot_bytes, ctx.clock)
    ids = internal_ids(session.dump())
    session.close()
    for draft in result.drafts:
        before = find_internal_ids(draft.articulated, ids)
        assert before, "the articulated (unrefined) request names objects by id"
        assert not set(before) & set(find_internal_ids(draft.refined, ids))
        assert find_internal_ids(draft.refined, ids) == []
    assert set(result.drafts[0].refinements) == {"implicit_reference", "goal_expansion"}
    assert set(result.drafts[1].refinements) == {"implicit_reference", "action_compression"}


def test_candidates_are_compared_by_state(synthesized):
    _, result = synthesized
    by_index = {s.index: s for s in result.scores}
    assert by_index[0].finished and by_index[1].finished
    assert by_index[0].state < 1.0 == by_index[1].state
    assert result.chosen == 1
    wrong = result.candidates[0].final_state["pages"][NORDLICHT]["properties"]["Publish date"]
    right = result.candidates[1].final_state["pages"][NORDLICHT]["properties"]["Publish date"]
    assert (wrong, right) == ("2025-01-22", "2025-01-21")


def test_failed_and_redundant_calls_are_removed(synthesized):
    _, result = synthesized
    chosen = result.candidates[result.chosen]
    raw = [(c.name, c.outcome.ok) for c in chosen.agent_calls()]
    assert ("query_database", False) in raw and raw.count(("query_database", True)) == 2
    assert len(raw) == 9
    kept = [c.name for c in result.task.agent_calls]
    assert kept == [
        "search_pages",
        "query_database",
        "retrieve_block_children",
        "list_users",
        "update_page",
        "create_comment",
    ]
    assert all(c.arguments.get("query") != "Emma Rossi" for c in result.task.agent_calls)  # the empty search
    assert result.task.turns[1].query.startswith("Thanks, that's helpful!")


def test_masks_come_from_re_execution(synthesized, tmp_path):
    ctx, result = synthesized
    masks = {c.name: set(c.masked) for c in result.task.agent_calls}
    assert {"query", "page_size"} <= masks["search_pages"] and "object_type" not in masks["search_pages"]
    assert masks["query_database"] == {"page_size"}
    assert masks["update_page"] == set() and masks["create_comment"] == set()
    spec = _temp_env(ctx, result, tmp_path)
    expected = replay(spec, result.task)
    assert not expected.failures
    for turn_index, turn in enumerate(result.task.turns):  # a masked value really does not matter...
        for call_index, call in enumerate(turn.calls):
            for name in call.masked:
                schema = spec.tools[call.name].input_schema["properties"][name]
                default = spec.tools[call.name].input_model.model_fields[name].default
                for value in variants(schema, call.arguments.get(name, default)):
                    changed = _vary(result.task, turn_index, call_index, name, value)
                    assert replay(spec, changed).states == expected.states
    changed = _vary(result.task, 1, 2, "text", "Approved.")  # ...and an unmasked one does
    assert replay(spec, changed).final != expected.final


def _vary(task: Task, turn: int, index: int, name: str, value) -> Task:
    data = task.model_dump()
    data["turns"][turn]["calls"][index]["arguments"][name] = value
    return Task.model_validate(data)


def _temp_env(ctx, result, root: Path):
    """A copy of the Notion env whose only task is the synthesized one (written and installed as a user would)."""
    copy = root / "notion"
    shutil.copytree(ctx.spec.folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
    out = OutputDir(root / "out")
    out.write(result)
    (copy / "tasks.jsonl").write_text("")
    assert out.install(copy) == 1
    return dataclasses.replace(ctx.spec, folder=copy)


def test_produced_task_passes_the_verifier(synthesized, tmp_path):
    ctx, result = synthesized
    spec = _temp_env(ctx, result, tmp_path)
    assert list(load_tasks(spec)) == [TASK_ID]
    report = verify_environment(spec)
    assert report.passed, report.findings
    assert report.tasks_checked == 1


def test_sft_and_rl_exports_are_valid(synthesized):
    ctx, result = synthesized
    assert len(result.sft) == 9  # 10 agent steps, one whose only call failed
    kinds = [s["kind"] for s in result.sft]
    assert kinds.count("user_interaction") == 2 and kinds.count("tool_call") == 7
    for sample in result.sft:
        assert validate_sft_sample(sample) == []
        assert sample["messages"][-1].get("reasoning_content")
        assert not any(m["role"] == "tool" and m["content"].startswith("Error:") for m in sample["messages"])
    assert len(result.rl) == len(result.task.turns) == 2
    for row, turn in zip(result.rl, result.task.turns):
        assert validate_rl_row(row, ctx.spec) == []
        assert row["prompt"][-1] == {"role": "user", "content": turn.query}
        assert row["ground_truth"] == [c.model_dump() for c in turn.agent_calls]
    second = result.rl[1]["prompt"]
    assert [m["role"] for m in second].count("tool") == 3 and second[-2]["content"].startswith("Here's what")
    broken = json.loads(json.dumps(result.sft[1]))
    broken["messages"].insert(2, {"role": "tool", "tool_call_id": "nope", "name": "x", "content": "Error: boom"})
    assert len(validate_sft_sample(broken)) >= 2


def test_the_pipeline_runs_over_http_with_the_real_client():
    """The live path: LLMClient over HTTP to an endpoint on 127.0.0.1 that serves the recorded answers."""
    from tests.test_llm_client import FakeEndpoint, completion

    answers: dict[str, list[dict]] = {}
    for cassette in CASSETTES.glob("*.jsonl"):
        for line in cassette.read_text().splitlines():
            entry = json.loads(line)
            key = json.dumps([entry["request"]["messages"], entry["request"]["options"]], sort_keys=True)
            answers.setdefault(key, []).append(entry["response"])

    def respond(body: dict) -> dict:
        options = {k: v for k, v in body.items() if k not in ("model", "messages")}
        queue = answers[json.dumps([body["messages"], options], sort_keys=True)]
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        return completion(answer["content"], tool_calls=answer["tool_calls"], reasoning_content=answer["reasoning"])

    endpoint = FakeEndpoint()
    endpoint.responder = respond
    client = LLMClient(endpoint.url, "served-model", concurrency=4)
    try:
        ctx = QueryGenContext(resolve("notion"), client, QueryGenConfig(k=2))
        result = asyncio.run(synthesize(ctx, CHAIN, TASK_ID, SEED))
    finally:
        endpoint.close()
    assert result.chosen == 1 and len(result.task.agent_calls) == 6 and len(result.sft) == 9
    assert client.usage.total().calls == len(endpoint.requests) == 28
    assert result.task.provenance["model"] == "served-model"


def test_an_unrecorded_request_fails_loudly():
    with pytest.raises(UnrecordedRequest, match="'querygen.agent'"):
        run_pipeline(QueryGenConfig(k=3))  # the third candidate's requests were never recorded


def test_cli_is_resumable(tmp_path, capsys):
    chains = tmp_path / "chains.jsonl"
    chains.write_text(json.dumps(CHAIN) + "\n")
    out = tmp_path / "out"
    argv = [
        "synth",
        "tasks",
        "notion",
        "--n",
        "1",
        "--k",
        "2",
        "--seed",
        str(SEED),
        "--chains",
        str(chains),
        "--cassettes",
        str(CASSETTES),
        "--out",
        str(out),
    ]
    assert envfactory_main(argv) == 0
    written = OutputDir(out)
    assert [row["id"] for row in written.read("tasks.jsonl")] == [TASK_ID]
    assert len(written.read("sft.jsonl")) == 9 and len(written.read("rl.jsonl")) == 2
    assert (out / "snapshots" / f"qg-{TASK_ID}.json").exists()
    usage = json.loads((out / "usage.json").read_text())
    assert usage["ok"] == 1 and usage["stages"]["querygen.agent"]["calls"] == 17
    assert "success rate 100.0%" in capsys.readouterr().out
    assert envfactory_main(argv) == 0  # resumed: nothing left to do, no LLM request made
    assert "1 already done, 0 to go" in capsys.readouterr().out
    assert len(written.read("tasks.jsonl")) == 1
    assert json.loads((out / "usage.json").read_text())["stages"]["total"]["calls"] == 0


# ---------------------------------------------------------------------- stage logic without an LLM
def test_split_chain_groups_of_one_to_five():
    chain = [f"t{i}" for i in range(12)]
    for seed in range(30):
        turns = split_chain(chain, random.Random(seed))
        assert [t for group in turns for t in group] == chain
        assert all(1 <= len(group) <= 5 for group in turns)
    with_user = ["a", "b", "login", "c"]
    for seed in range(30):
        for group in split_chain(with_user, random.Random(seed), user_only=frozenset({"login"})):
            assert "login" not in group[1:] or group[0] == "login"


def test_planned_rows_are_validated_by_the_schema():
    ctx = QueryGenContext(resolve("notion"), RecordedLLM(CASSETTES))
    seed = seed_snapshot(ctx)
    dangling = {
        "comments": [
            {
                "id": "c-new-0001",
                "page_id": NORDLICHT.replace("7b1e", "0afa"),
                "author_id": "x",
                "text": "hi",
                "created_time": "2025-01-15T09:00:00Z",
            }
        ]
    }
    with pytest.raises(ValueError, match="FOREIGN KEY|IntegrityError"):
        validate_rows(ctx, seed, dangling)
    with pytest.raises(ValueError, match="title.*Field required"):
        validate_rows(ctx, seed, {"pages": [{"id": "p-1", "parent_type": "workspace", "created_by": "x"}]})
    with pytest.raises(ValueError, match="unknown tables"):
        validate_rows(ctx, seed, {"widgets": [{}]})
    maya = seed["tables"]["users"][0]["id"]
    data, blob = validate_rows(
        ctx,
        seed,
        {
            "comments": [
                {
                    "id": "c-new-0001",
                    "page_id": seed["tables"]["pages"][0]["id"],
                    "author_id": maya,
                    "text": "hi",
                    "created_time": "2025-01-15T09:00:00Z",
                }
            ]
        },
    )
    assert len(data["tables"]["comments"]) == len(seed["tables"]["comments"]) + 1 and blob


def _call(name: str, ok: bool = True) -> StepCall:
    return StepCall("c", name, {}, ToolOutcome(name, {}, ok, output={}))


def test_needless_user_turns_are_dropped_or_merged():
    segments = [
        Segment("Archive the old page", steps=[AgentStep("Which one: Q3 or Q4 roadmap?", "")]),
        Segment("The Q3 one", steps=[AgentStep("", "", [_call("move_page_to_trash")]), AgentStep("Done.", "")]),
        Segment("ok cool", steps=[AgentStep("Glad that helped.", "")]),
        Segment("Also add a comment", steps=[AgentStep("", "", [_call("create_comment")]), AgentStep("Done.", "")]),
        Segment("Thanks!", steps=[AgentStep("You're welcome.", "")]),
    ]
    candidate = Candidate(0, segments, True, {}, 6)
    turns = [[], [GroundTruthCall(name="move_page_to_trash")], [], [GroundTruthCall(name="create_comment")], []]
    kept = drop_needless_turns(candidate, turns)
    assert [(query, [c.name for c in calls], index) for query, calls, index in kept] == [
        ("Archive the old page", [], 0),  # a clarification question: kept, the next turn answers it
        ("The Q3 one", ["move_page_to_trash"], 1),
        ("ok cool Also add a comment", ["create_comment"], 3),  # merged into the next turn
    ]  # the trailing "Thanks!" is gone


def test_mask_variants():
    page_size = {"default": 10, "type": "integer"}
    assert variants(page_size, 10) == [11, 20]
    assert variants({"type": "string"}, "Q4 roadmap") == ["Q4", "roadmap"]
    assert variants({"anyOf": [{"enum": ["page", "database"], "type": "string"}, {"type": "null"}]}, None) == [
        "page",
        "database",
    ]
    assert variants({"type": "boolean"}, False) == [True]
    assert variants({"anyOf": [{"type": "string"}, {"type": "null"}]}, None) == []
    assert variants({"type": "array"}, [1]) == []


def test_chains_come_from_the_topology_sampler(tmp_path):
    from envfactory_synth.querygen.chains import read_chains, sample_chains

    spec = resolve("notion")
    chains = sample_chains(spec, 4, seed=3)
    assert len(chains) == 4 and chains == sample_chains(spec, 4, seed=3)
    assert all(len(chain) >= 2 and set(chain) <= set(spec.tools) for chain in chains)
    listed = tmp_path / "chains.jsonl"
    listed.write_text(json.dumps(chains[0]) + "\n\n" + json.dumps({"tools": chains[1]}) + "\n")
    assert read_chains(listed) == chains[:2]
