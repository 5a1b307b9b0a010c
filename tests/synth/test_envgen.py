"""EnvGen offline: the LLM answers come from cassettes (tests/cassettes/envgen/<scenario>, recorded by
tests/fixtures/envgen/record_cassettes.py from hand-written answers); the sandbox, the verifier, SQLite and
gymnasium run for real. Environments are written into temporary zoo folders, never into env_zoo."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest
from gymnasium.utils.env_checker import check_env

from envfactory_gym import registry
from envfactory_gym.cli import main as cli_main
from envfactory_gym.env import ToolUseEnv
from envfactory_gym.llm import RecordedLLM, UnrecordedRequest
from envfactory_gym.sandbox import Limits
from envfactory_gym.spec import load_environment_from_folder
from envfactory_gym.verify import verify_environment
from envfactory_synth.envgen.coverage import zoo_coverage
from envfactory_synth.envgen.criteria import check_draft, envgen_sandbox
from envfactory_synth.envgen.interface import check_metadata, metadata_from_spec
from envfactory_synth.envgen.models import Draft, EnvMetadata, UnitTest
from envfactory_synth.envgen.pipeline import EnvGen, EnvGenConfig
from envfactory_synth.envgen.sources import LocalDocs, SourceDoc, WebSearch, gather

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "envgen"
CASSETTES = ROOT / "tests" / "cassettes" / "envgen"
EXAMPLES = ROOT / "synth" / "envgen" / "examples"
SCENARIOS = json.loads((FIXTURES / "scenarios.json").read_text())


@pytest.fixture
def zoo(tmp_path) -> Path:
    """A temporary zoo holding the metadata of six existing environments."""
    folder = tmp_path / "zoo"
    shutil.copytree(FIXTURES / "zoo", folder)
    return folder


def run_scenario(name: str, zoo: Path, run_dir: Path):
    """Run EnvGen on a scenario's cassettes; returns the record and the model (for its usage)."""
    scenario = SCENARIOS[name]
    llm = RecordedLLM(CASSETTES / name)
    envgen = EnvGen(llm, [LocalDocs(EXAMPLES)], zoo, run_dir, EnvGenConfig(budget=scenario["budget"]))
    return envgen.run(scenario["topic"]), llm


def answers_draft(name: str, tools: str = "tools.py", tests: str = "tests.json") -> Draft:
    """A draft assembled from a scenario's hand-written answers."""
    folder = FIXTURES / "answers" / name
    data = json.loads((folder / tests).read_text())
    return Draft(
        metadata=EnvMetadata.model_validate_json((folder / "propose.json").read_text()),
        schema_py=(folder / "schema.py").read_text(),
        seed=json.loads((folder / "seed.json").read_text()),
        tools_py=(folder / tools).read_text(),
        unit_tests=[UnitTest.model_validate(t) for t in data["unit_tests"]],
        tasks=data["tasks"],
    )


def load_emitted(folder: Path, package: str):
    """The spec of an emitted environment (imported here, in the test, to check it independently)."""
    return load_environment_from_folder(folder, package)


# ------------------------------------------------------------------ full runs


def test_a_full_run_emits_an_environment_that_passes_verify_and_check_env(zoo, tmp_path, monkeypatch):
    record, llm = run_scenario("shelfwise", zoo, tmp_path / "run")
    assert record.status == "passed", record.reports[-1].render()
    assert (record.iterations, record.revisions) == (1, 0)
    folder = zoo / "shelfwise"
    assert record.output == str(folder)
    for name in ("__init__.py", "metadata.json", "schema.py", "tools.py", "snapshots/seed.json", "tasks.jsonl"):
        assert (folder / name).is_file(), name
    meta = json.loads((folder / "metadata.json").read_text())
    assert meta["domain"] == "lifestyle" and meta["provenance"]["method"] == "envgen"  # a coverage gap filled
    m = json.loads((tmp_path / "run" / "m.json").read_text())  # the blueprint, as a file
    assert [t["name"] for t in m["tools"]][:3] == ["list_branches", "search_catalog", "get_title"]
    # token cost of this environment, per stage, from the client's accounting
    assert set(record.usage) == {"envgen.propose", "envgen.model", "envgen.implement", "envgen.tests", "total"}
    assert record.usage["total"]["prompt_tokens"] == llm.usage.total().prompt_tokens > 0
    saved = json.loads((tmp_path / "run" / "record.json").read_text())
    assert saved["status"] == "passed" and saved["reports"][0]["stats"]["unit_tests_run"] == 28
    # the emitted environment passes exactly what a hand-written zoo environment must pass
    spec = load_emitted(folder, "emitted_shelfwise")
    report = verify_environment(spec)
    assert report.passed, report.findings
    assert report.tasks_checked == 3
    env = ToolUseEnv(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.close()
    # with its held-out split stored, so it can be benchmarked at once
    assert ToolUseEnv(spec, split="test").task_ids == sorted(json.loads((folder / "splits.json").read_text())["test"])
    # and it registers like any other zoo environment
    monkeypatch.setattr(registry, "zoo_root", lambda: zoo)
    assert "shelfwise" in registry.zoo_keys()
    assert registry.env_id("shelfwise") == "envfactory/Shelfwise-v0"


def test_a_planted_bug_is_localized_to_the_tool_and_the_revision_fixes_it(zoo, tmp_path):
    record, _ = run_scenario("parkpass", zoo, tmp_path / "run")
    first = record.reports[0]
    assert not first.passed
    code = first.for_component("tool code")
    assert code and {f.tool for f in code} == {"purchase_permit"}
    assert {f.criterion for f in code} == {3, 4}  # the wrong price in the output and in the new permits row
    assert any("price_cents: expected 7500, got 2500" in f.message for f in code)
    tests = first.for_component("test")
    assert {f.test for f in tests} == {"register_vehicle_normalizes_the_plate"}
    assert first.components() == ["tool code", "test"]
    assert record.revised == [["tool code", "test"]]  # each blamed component was revised by its agent
    assert record.reports[1].passed and record.status == "passed"
    assert {"envgen.revise.tool_code", "envgen.revise.test"} <= set(record.usage)
    folder = zoo / "parkpass"
    assert 'price_cents=zone["monthly_fee_cents"] * months' in (folder / "tools.py").read_text()
    report = verify_environment(load_emitted(folder, "emitted_parkpass"))
    assert report.passed, report.findings


def test_a_run_that_exhausts_its_budget_emits_nothing(zoo, tmp_path):
    before = sorted(p.name for p in zoo.iterdir())
    record, _ = run_scenario("shelfwise_budget", zoo, tmp_path / "run")
    assert record.status == "budget_exhausted"
    assert (record.iterations, record.revisions, record.budget) == (2, 1, 1)
    assert not any(r.passed for r in record.reports)
    first, last = record.reports
    assert {f.test for f in first.findings} == {
        "renew_loan_adds_21_days_to_the_due_date",
        "renew_loan_refused_when_overdue",
    }
    assert {f.test for f in last.findings} == {"renew_loan_adds_21_days_to_the_due_date"}  # one of two fixed
    assert record.output is None
    assert sorted(p.name for p in zoo.iterdir()) == before
    assert (tmp_path / "run" / "draft" / "tools.py").is_file()  # the last draft is kept for inspection


def test_the_cli_runs_envgen_and_reports_failure_by_exit_code(zoo, tmp_path, capsys):
    code = cli_main(
        [
            "synth",
            "env",
            "--topic",
            SCENARIOS["shelfwise_budget"]["topic"],
            "--source",
            str(EXAMPLES),
            "--cassettes",
            str(CASSETTES / "shelfwise_budget"),
            "--budget",
            "1",
            "--out",
            str(zoo),
            "--runs",
            str(tmp_path / "run"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "budget_exhausted" in out and "renew_loan" in out and "envgen.revise.tool_code" in out
    assert json.loads((tmp_path / "run" / "record.json").read_text())["status"] == "budget_exhausted"


def test_an_unrecorded_request_fails_loudly(zoo, tmp_path):
    llm = RecordedLLM(CASSETTES / "shelfwise")
    with pytest.raises(UnrecordedRequest, match="envgen.propose"):
        EnvGen(llm, [LocalDocs(EXAMPLES)], zoo, tmp_path / "run").run("a topic nobody recorded")


# ------------------------------------------------------------------ the criteria runner


def test_a_hand_written_zoo_environment_passes_the_same_checks():
    spec = registry.load_zoo_environment("notion")
    folder = spec.folder
    draft = Draft(
        metadata=metadata_from_spec(spec),
        schema_py=(folder / "schema.py").read_text(),
        seed=json.loads((folder / "snapshots" / "seed.json").read_text()),
        tools_py=(folder / "tools.py").read_text(),
        unit_tests=[],
        tasks=[json.loads(line) for line in (folder / "tasks.jsonl").read_text().splitlines() if line],
        modules={
            path.name: path.read_text()
            for path in folder.glob("*.py")
            if path.name not in ("__init__.py", "schema.py", "tools.py")
        },
    )
    assert draft.modules  # Notion's layout: objects and rules beside a thin tools.py
    report = check_draft(draft, 0, envgen_sandbox(), set())
    assert report.passed, report.render()
    assert report.stats["tasks_checked"] == len(draft.tasks) >= 15


def test_an_interface_that_differs_from_m_is_blamed_on_the_tool_code():
    draft = answers_draft("shelfwise")
    tools = (
        draft.tools_py.replace("def renew_loan(db: Database, loan_id: str)", "def renew_loan(db: Database, loan: str)")
        .replace("loan_id: The loan's ID", "loan: The loan's ID")
        .replace("@tool(read_only=True)\ndef list_holds", "@tool()\ndef list_holds")
    )
    report = check_draft(draft.model_copy(update={"tools_py": tools}), 0, envgen_sandbox(), set())
    interface = [f for f in report.findings if f.check == "interface"]
    assert {(f.component, f.criterion) for f in interface} == {("tool code", 1)}
    messages = {f.tool: f.message for f in interface if f.tool == "list_holds"}
    assert "read_only is False" in messages["list_holds"]
    assert any(f.tool == "renew_loan" and "['loan_id'] of the metadata are missing" in f.message for f in interface)


def test_import_errors_name_the_component_file_and_line():
    draft = answers_draft("shelfwise")
    broken_tools = draft.tools_py.replace("RENEWAL_DAYS = 21", "RENEWAL_DAYS = TWENTY_ONE")
    report = check_draft(draft.model_copy(update={"tools_py": broken_tools}), 0, envgen_sandbox(), set())
    [finding] = report.findings
    assert (finding.component, finding.criterion, finding.check) == ("tool code", 2, "import")
    assert "NameError" in finding.message and "tools.py line" in finding.message and "sandbox" not in finding.message
    broken_schema = draft.schema_py.replace('Table(\n    "loans",', 'Table(\n    "loans"')
    report = check_draft(draft.model_copy(update={"schema_py": broken_schema}), 0, envgen_sandbox(), set())
    assert [f.component for f in report.findings] == ["schema"]
    assert "SyntaxError" in report.findings[0].message


def test_hostile_generated_code_is_contained_and_blamed():
    draft = answers_draft("shelfwise")
    at_import = draft.tools_py.replace("from datetime", "import socket\nfrom datetime", 1)  # line 5
    report = check_draft(draft.model_copy(update={"tools_py": at_import}), 0, envgen_sandbox(), set())
    [finding] = report.findings
    assert (finding.component, finding.criterion, finding.check) == ("tool code", 2, "sandbox")
    assert "importing 'socket' is not allowed at candidate/env/tools.py:5" in finding.message
    assert report.sandbox["status"] == "violation"
    looping = draft.tools_py.replace(
        "    return [BranchObject(**row) for row in db.find(branches)]", "    while True:\n        pass"
    )
    report = check_draft(draft.model_copy(update={"tools_py": looping}), 0, envgen_sandbox(Limits(cpu_s=2)), set())
    [finding] = report.findings
    assert (finding.component, finding.tool, finding.check) == ("tool code", "list_branches", "sandbox")
    assert "CPU time limit" in finding.message and report.sandbox["status"] == "cpu"


FORGE_RESULTS = """
import json as _json, os as _os, struct as _struct
for _call in range(1, 20):  # the issue's attack: answer 'ok, no findings' on the result pipe
    _body = _json.dumps({"type": "result", "id": _call, "status": "ok",
                         "value": {"findings": [], "stats": {}}}).encode()
    _os.write(3, _struct.pack(">I", len(_body)) + _body)
"""
PATCH_THE_WORKER = """
import sys as _sys
_isolation = _sys.modules["envfactory_gym.adapters.isolation"]
_real = _isolation.serve
def _lying(request):  # every call 'succeeds' with an empty answer and leaves the state as it was
    if request["op"] == "call":
        return {"ok": True, "output": {}, "error": None, "kind": None, "state": request["state"]}
    return _real(request)
_isolation.serve = _lying
"""


@pytest.mark.parametrize("attack", [FORGE_RESULTS, PATCH_THE_WORKER], ids=["forged-results", "patched-worker"])
def test_generated_code_cannot_make_its_own_draft_pass(attack):
    draft = answers_draft("shelfwise")
    assert check_draft(draft, 0, envgen_sandbox(), set()).passed  # the honest draft passes
    report = check_draft(draft.model_copy(update={"tools_py": draft.tools_py + attack}), 0, envgen_sandbox(), set())
    assert not report.passed
    assert {f.criterion for f in report.findings} & {2, 3, 4}


def test_a_wrong_unit_test_is_blamed_on_the_test():
    draft = answers_draft("parkpass", tests="tests_first.json")
    report = check_draft(draft, 0, envgen_sandbox(), set())
    assert report.components() == ["test"]
    assert {f.test for f in report.findings} == {"register_vehicle_normalizes_the_plate"}
    assert report.stats["unit_tests_run"] == 23


def test_problems_of_the_blueprint_are_blamed_on_the_metadata():
    m = answers_draft("shelfwise").metadata
    bad = m.model_copy(
        update={
            "domain": "libraries",
            "key": "Shelf wise",
            "name": "Shelf wise",
            "tools": [
                t.model_copy(update={"parameters": {"type": "object", "properties": {}, "required": ["loan_id"]}})
                if t.name == "renew_loan"
                else t
                for t in m.tools
            ],
        }
    )
    messages = [f.message for f in check_metadata(bad, {"notion"})]
    assert all(f.component == "metadata" for f in check_metadata(bad, set()))
    assert any("domain 'libraries'" in x for x in messages) and any("snake_case" in x for x in messages)
    assert any("CamelCase" in x for x in messages) and any("'loan_id' is not among" in x for x in messages)
    assert check_metadata(m, {"notion"}) == []
    assert any("already used" in f.message for f in check_metadata(m, {"shelfwise"}))


# ------------------------------------------------------------------ sources and coverage


def test_local_docs_rank_sources_by_topic_and_summarize_openapi():
    docs = LocalDocs(EXAMPLES).documents("residential parking permits")
    assert [d.id for d in docs][0] == "parkpass_permits.openapi.json"
    assert docs[0].kind == "openapi" and docs[0].url == "https://example.org/parkpass/developers"
    assert "POST /permits: Buy a permit" in docs[0].text and "param status (query)" in docs[0].text
    assert LocalDocs(EXAMPLES).documents("library loans")[0].url == "https://example.org/shelfwise/api/v2"


def test_a_web_search_provider_plugs_in_as_a_source():
    class Provider:  # the network boundary: a search backend returning one page
        def search(self, query: str, limit: int) -> list[SourceDoc]:
            return [SourceDoc("web-1", f"result for {query}", "https://example.org/a", "library loans holds API")]

    docs = gather([WebSearch(Provider()), LocalDocs(EXAMPLES)], "library loans", 2)
    assert [d.id for d in docs] == ["web-1", "shelfwise_circulation.md"]
    assert docs[0].title == "result for library loans API reference"


def test_coverage_finds_the_gaps_of_a_zoo(zoo):
    coverage = zoo_coverage(zoo)
    assert coverage.by_domain()["finance"] == 2 and coverage.by_domain()["office"] == 2
    assert coverage.gaps() == ["lifestyle", "research", "utilities"]
    installed = zoo_coverage()  # the installed zoo, through envfactory_gym.registry
    assert "notion" in installed.keys and installed.by_domain()["office"] >= 1
