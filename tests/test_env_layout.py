"""Every zoo environment follows the documented layout (docs/env_format.md): the files, tables-only schema.py, a
thin tools.py, and no clock, randomness or date parsing of its own (the runtime's `db.now()` and
`envfactory_gym.values` are the one way)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from envfactory_gym.registry import zoo_root

ZOO = zoo_root()
ENVIRONMENTS = sorted(p.name for p in ZOO.iterdir() if (p / "metadata.json").is_file())
REQUIRED = ("__init__.py", "metadata.json", "schema.py", "objects.py", "tools.py", "tasks.jsonl", "splits.json")
#: Calls that make an episode depend on the wall clock or global randomness, or parse dates by hand.
FORBIDDEN = {
    "datetime.now(": "the wall clock: use db.now()",
    "date.today(": "the wall clock: use db.now()",
    "time.time(": "the wall clock: use db.now()",
    "uuid4(": "global randomness: use db.new_id / db.new_uuid",
    "import random": "global randomness: derive values from the state",
}
#: A generic output model that pydantic would rebuild whenever garbage collection drops its parametrization.
WEAK_GENERIC = re.compile(r"class \w+\(BaseModel, Generic\[")
#: ISO 8601 dates and timestamps parsed by hand (a product's own syntax, e.g. RFC 5545's 20250310T150000Z, may be).
ISO_STRPTIME = re.compile(r"strptime\([^\n]*%Y-%m-%d")
ISO_PARSING = "strptime(ISO)"
#: At most this share of tools.py's code outside the tool functions (helpers belong in rules.py, objects.py, ...).
HELPER_SHARE = 0.15
#: Environments not yet brought to the layout (issue 18), and what each still lacks. An entry must go when its
#: environment is fixed: the test fails on an entry whose problems are gone.
PENDING: dict[str, set[str]] = {}


def _is_tool(node: ast.AST) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")) == "tool":
            return True
    return False


def _helper_share(tools: ast.Module) -> float:
    tool_lines = helper_lines = 0
    for node in tools.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            if _is_tool(node):
                tool_lines += size
            else:
                helper_lines += size
    return helper_lines / max(1, tool_lines + helper_lines)


def _schema_extras(schema: ast.Module) -> list[str]:
    """Top-level statements of schema.py other than imports, the docstring and `x = MetaData()/Table(...)`."""
    extras = []
    for node in schema.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in ("MetaData", "Table"):
                continue
        extras.append(ast.unparse(node).splitlines()[0][:60])
    return extras


def layout_problems(folder: Path) -> dict[str, str]:
    """What keeps an environment folder from the documented layout: problem kind -> detail."""
    problems = {f"no {name}": "missing" for name in REQUIRED if not (folder / name).is_file()}
    if not (folder / "snapshots" / "seed.json").is_file():
        problems["no seed"] = "snapshots/seed.json missing"
    if (folder / "tools.py").is_file():
        share = _helper_share(ast.parse((folder / "tools.py").read_text(encoding="utf-8")))
        if share > HELPER_SHARE:
            problems["tools.py helpers"] = f"{share:.0%} of tools.py is helpers (at most {HELPER_SHARE:.0%})"
    if (folder / "schema.py").is_file():
        extras = _schema_extras(ast.parse((folder / "schema.py").read_text(encoding="utf-8")))
        if extras:
            problems["schema.py"] = f"more than tables: {extras[:3]}"
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py")))
    for needle, why in FORBIDDEN.items():
        if needle in source:
            problems[needle] = why
    if WEAK_GENERIC.search(source):
        problems["weak generic"] = "a generic output model on BaseModel: base it on envfactory_gym.KeptGeneric"
    if ISO_STRPTIME.search(source):
        problems[ISO_PARSING] = "ISO dates parsed by hand: use envfactory_gym.values.parse_date / parse_timestamp"
    return problems


@pytest.mark.parametrize("key", ENVIRONMENTS)
def test_every_environment_follows_the_documented_layout(key):
    problems = layout_problems(ZOO / key)
    pending = PENDING.get(key, set())
    assert set(problems) <= pending, {k: v for k, v in problems.items() if k not in pending}
    assert pending <= set(problems), f"{key} now has {sorted(pending - set(problems))} fixed: drop it from PENDING"


def test_the_checks_catch_what_they_name(tmp_path):
    folder = tmp_path / "bad"
    (folder / "snapshots").mkdir(parents=True)
    schema = "from sqlalchemy import MetaData\nmetadata = MetaData()\ndef helper():\n    pass\n"
    (folder / "schema.py").write_text(schema)
    helper = "def _helper():\n" + "    x = 1\n" * 10
    parse = 'def _day(text):\n    return datetime.strptime(text, "%Y-%m-%d")\n'
    generic = "class Listing(BaseModel, Generic[T]):\n    items: list[T]\n"
    (folder / "tools.py").write_text(f"import random\n@tool\ndef read(db):\n    return 1\n{helper}{parse}{generic}")
    problems = layout_problems(folder)
    assert {
        "no objects.py",
        "no seed",
        "tools.py helpers",
        "schema.py",
        "import random",
        ISO_PARSING,
        "weak generic",
    } <= (set(problems))
    assert not layout_problems(ZOO / "stripe")
