"""AWM environments (Snowflake-Labs/agent-world-model): JSONL files keyed by scenario — `gen_db.jsonl`
(`db_schema.tables[].ddl`, `indexes`, `examples`), `gen_sample.jsonl` (`sample_data.tables[].insert_statements`),
`gen_envs.jsonl` (`full_code`: a FastAPI + SQLAlchemy app), `gen_tasks.jsonl` (`tasks`: requests) and optionally the
verifiers, `gen_verifier.pure_code.jsonl` or `gen_verifier.jsonl` (the name AWM's pipeline writes):
`verify_task_completion(initial_db_path, final_db_path, final_answer)`.

SQLite is native here: the snapshot is built from the DDL and inserts, each session runs its own copy of the app on
its own in-memory database (its `create_engine(...)` call is redirected there), and endpoints are called in-process
through `httpx.ASGITransport` — no server, no port. The app's commits are no-ops: each tool call is one SAVEPOINT of
the runtime, rolled back when the endpoint fails (HTTP status >= 400 or an exception). AWM tasks carry no
ground-truth calls; give them with `solutions` (rows `{"task_id": "<scenario>-<index>", "calls": [...]}`), and the
verifier code is the task's checklist (1.0 when it returns `{"result": "complete"}`; SQL-mode verifiers, which hand
their findings to an LLM judge, are left out). The app's randomness is a generator kept in the database itself
(table `_envfactory_entropy`), so it snapshots and rolls back with the rest.
"""

from __future__ import annotations

import ast
import asyncio
import itertools
import os
import pickle
import re
import sqlite3
import sys
import tempfile
import threading
import types
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Coroutine
from urllib.parse import quote

from sqlalchemy import Column, Integer, MetaData, create_engine
from sqlalchemy.pool import StaticPool

from ..spec import EnvironmentSpec
from ..state import SQLiteState
from .build import Checklist, ImportOptions, external_spec, materialize, read_json, read_records, read_solutions, turns
from .determinism import Entropy, make_deterministic, session_entropy
from .network import NetworkPolicy, guarded
from .objects import ObjectHandle, ReadOnlyViolation
from .tools import ExternalError, external_tool, json_type, read_decision, schema_fields

try:  # the HTTP client fastmcp/openai install: `httpx2` in newer stacks, `httpx` in older ones
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx  # type: ignore[no-redef]

FORMAT = "awm"
VERIFIER_FILES = ("gen_verifier.pure_code.jsonl", "gen_verifier.jsonl")  # code verifiers first
FILES = ("gen_scenario.jsonl", "gen_tasks.jsonl", "gen_db.jsonl", "gen_sample.jsonl", "gen_envs.jsonl", *VERIFIER_FILES)
ENTROPY_TABLE = "_envfactory_entropy"
VERIFIER = "verify_task_completion"
VOLATILE_NAMES = ("created_at", "updated_at", "modified_at", "last_updated", "last_modified", "timestamp")
_MODULE_NUMBERS = itertools.count()


def _folder(path: Path) -> Path:
    return path if path.is_dir() else path.parent


def _by_scenario(folder: Path, file: str) -> dict[Any, dict[str, Any]]:
    path = folder / file
    if not path.exists():
        return {}
    return {row.get("scenario", row.get("name")): row for row in read_records(path)}


def discover(path: Path, options: ImportOptions) -> list[str]:
    """Scenarios that have both a database and an app."""
    folder = _folder(path)
    return sorted(set(_by_scenario(folder, "gen_envs.jsonl")) & set(_by_scenario(folder, "gen_db.jsonl")))


def sources(path: Path, key: str, options: ImportOptions) -> list[Path]:
    """The files this adapter reads."""
    folder = _folder(path)
    return [folder / f for f in FILES if (folder / f).exists()] + (
        [Path(options.solutions)] if options.solutions else []
    )


# ---------------------------------------------------------------------------------------------------- database
def build_database(payload: dict[str, Any]) -> bytes:
    """SQLite bytes of a scenario: its DDL, then its inserts (an insert that fails is skipped, as AWM does; an insert
    is SQL text or `{"table", "row"}`), and the app's generator."""
    raw = sqlite3.connect(":memory:", isolation_level=None)
    try:
        raw.execute("PRAGMA foreign_keys=ON")
        for statement in payload["ddl"]:
            raw.executescript(statement)
        for statement in payload["inserts"]:
            try:
                if isinstance(statement, dict):
                    columns = list(statement["row"])
                    names = ", ".join(f"{c!r}".replace(chr(39), chr(34)) for c in columns)
                    raw.execute(
                        f'INSERT INTO "{statement["table"]}" ({names}) VALUES ({", ".join("?" for _ in columns)})',
                        [statement["row"][c] for c in columns],
                    )
                else:
                    raw.execute(statement)
            except sqlite3.Error:
                continue
        raw.execute(f'CREATE TABLE "{ENTROPY_TABLE}" (id INTEGER PRIMARY KEY, state BLOB NOT NULL)')
        raw.execute(f'INSERT INTO "{ENTROPY_TABLE}" VALUES (1, ?)', (pickle.dumps(Entropy().random.getstate()),))
        return raw.serialize()
    finally:
        raw.close()


def example_inserts(table: dict[str, Any]) -> list[Any]:
    """A table's `examples` (gen_db.jsonl) as inserts: SQL strings as they are, rows (`{column: value}`) by table."""
    found: list[Any] = []
    for example in table.get("examples") or []:
        if isinstance(example, str):
            found.append(example)
        elif isinstance(example, dict) and table.get("name"):
            found.append({"table": table["name"], "row": example})
    return found


def _volatile(column: Column) -> bool:
    default = str(getattr(column.server_default, "arg", "")).upper()
    kind = str(column.type).upper()
    return (
        column.name.lower() in VOLATILE_NAMES
        or column.name.lower().endswith("_at")
        or "CURRENT_TIMESTAMP" in default
        or "DATETIME" in kind
        or "TIMESTAMP" in kind
    )


def reflect_schema(ddl: list[str]) -> MetaData:
    """The tables of the DDL as SQLAlchemy metadata: timestamp-like columns are volatile (left out of state
    comparison) and a table without a primary key is keyed by its rowid."""
    raw = sqlite3.connect(":memory:")
    engine = create_engine("sqlite://", creator=lambda: raw, poolclass=StaticPool)
    try:
        for statement in ddl:
            raw.executescript(statement)
        metadata = MetaData()
        metadata.reflect(bind=engine)
    finally:
        engine.dispose()
        raw.close()
    for table in metadata.tables.values():
        for column in table.columns:
            if _volatile(column):
                column.info["volatile"] = True
        if not table.primary_key.columns:
            table.append_column(Column("rowid", Integer, primary_key=True))
    return metadata


# ---------------------------------------------------------------------------------------------------- the app
class _Connection:
    """The session's sqlite3 connection as the app's DBAPI connection. Transactions belong to the runtime (a
    SAVEPOINT per tool call), so the app's commit, rollback, close and isolation settings do nothing."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        object.__setattr__(self, "_raw", raw)

    def commit(self) -> None:
        """No-op."""

    def rollback(self) -> None:
        """No-op."""

    def close(self) -> None:
        """No-op."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)

    def __setattr__(self, name: str, value: Any) -> None:
        """Ignored (the driver's isolation level stays the runtime's)."""


class _Rewrite(ast.NodeTransformer):
    """Redirect every `create_engine(...)` to the session's engine and drop `if __name__ == "__main__":` blocks."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        target = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if target == "create_engine":
            return ast.copy_location(ast.Call(ast.Name("__envfactory_engine__", ast.Load()), [], []), node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST | None:
        test = node.test
        if (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == "__name__"
            and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
        ):
            return None
        return self.generic_visit(node)


def compile_app(code: str, scenario: str) -> types.CodeType:
    """The app's code, rewritten to run on a session's database."""
    tree = ast.fix_missing_locations(_Rewrite().visit(ast.parse(code)))
    return compile(tree, f"<awm:{scenario}>", "exec")


class _Loop:
    """One background event loop per process, through which the synchronous runtime drives ASGI apps."""

    lock = threading.Lock()
    loop: asyncio.AbstractEventLoop | None = None
    pid = 0

    @classmethod
    def run(cls, coroutine: Coroutine[Any, Any, Any]) -> Any:
        """Run a coroutine to completion on the loop (from any thread that is not the loop's)."""
        with cls.lock:
            if cls.loop is None or cls.pid != os.getpid():  # a forked child needs its own loop thread
                cls.loop, cls.pid = asyncio.new_event_loop(), os.getpid()
                threading.Thread(target=cls.loop.run_forever, name="envfactory-asgi", daemon=True).start()
        return asyncio.run_coroutine_threadsafe(coroutine, cls.loop).result()


@dataclass(frozen=True)
class Endpoint:
    """How one tool maps onto an HTTP operation of the app."""

    method: str
    path: str
    path_params: tuple[str, ...]
    query_params: tuple[str, ...]
    body_fields: tuple[str, ...]
    raw_body: bool


def endpoints(openapi: dict[str, Any]) -> tuple[dict[str, Endpoint], dict[str, tuple[str, dict[str, Any]]]]:
    """The app's operations as tools: endpoint mapping and (description, argument fields) by operation id.
    Body properties are flattened into the arguments, as fastapi_mcp presents them."""
    defs = openapi.get("components", {}).get("schemas", {})
    mapping, described = {}, {}
    for path, item in openapi.get("paths", {}).items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            name = operation.get("operationId") or f"{method}_{path.strip('/').replace('/', '_')}"
            fields: dict[str, Any] = {}
            located: dict[str, list[str]] = {"path": [], "query": []}
            for param in operation.get("parameters", []):
                if param.get("in") not in located:
                    continue
                located[param["in"]].append(param["name"])
                schema = param.get("schema", {})
                required = param.get("required", False)
                default = ... if required else schema.get("default")
                description = param.get("description") or schema.get("description")
                fields[param["name"]] = (json_type(schema, defs), default, description)
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            body_fields: tuple[str, ...] = ()
            raw_body = False
            if body is not None:
                resolved = defs.get(body["$ref"].rsplit("/", 1)[-1], {}) if "$ref" in body else body
                if resolved.get("type") == "object" or "properties" in resolved:
                    flat = schema_fields(resolved, defs)
                    fields.update(flat)
                    body_fields = tuple(flat)
                else:
                    raw_body = True
                    fields["body"] = (json_type(body, defs), ..., "Request body.")
            mapping[name] = Endpoint(
                method.upper(), path, tuple(located["path"]), tuple(located["query"]), body_fields, raw_body
            )
            summary = (operation.get("summary"), operation.get("description"))
            described[name] = ("\n\n".join(x for x in summary if x), fields)
    return mapping, described


class AppState(SQLiteState):
    """A session's in-memory database plus its own copy of the app, bound to that database; the app reads the
    session's clock and the generator stored in the database."""

    def __init__(
        self, schema: MetaData, code: types.CodeType, routes: dict[str, Endpoint], network: NetworkPolicy | None = None
    ) -> None:
        super().__init__(schema)
        self.routes = routes
        self.network = network
        self.clock: Any = None
        self.entropy = Entropy()
        engine = create_engine("sqlite://", creator=lambda: _Connection(self.raw), poolclass=StaticPool)
        module = types.ModuleType(f"envfactory_awm_app_{next(_MODULE_NUMBERS)}")
        module.__dict__["__envfactory_engine__"] = lambda *args, **kwargs: engine
        sys.modules[module.__name__] = module  # pydantic resolves the app's annotations through it
        with guarded(network):
            exec(code, module.__dict__)
        make_deterministic(module.__dict__)
        self.module, self.engine = module, engine
        self.app = next(v for v in vars(module).values() if type(v).__name__ == "FastAPI")

    def invoke(self, name: str, arguments: dict[str, Any]) -> Any:
        """Call one endpoint through the ASGI transport; a status >= 400 raises (so the call is rolled back)."""
        route = self.routes[name]
        url = route.path.format(**{p: quote(str(arguments[p]), safe="") for p in route.path_params})
        query = {k: arguments[k] for k in route.query_params if arguments.get(k) is not None}
        body = (
            arguments["body"]
            if route.raw_body
            else (
                {k: arguments[k] for k in route.body_fields if arguments.get(k) is not None}
                if route.body_fields
                else None
            )
        )
        stored = self.raw.execute(f'SELECT state FROM "{ENTROPY_TABLE}" WHERE id = 1').fetchone()
        if stored is not None:
            self.entropy.random.setstate(pickle.loads(stored[0]))
        request = _request(self.app, route.method, url, query, body)
        try:
            response = _Loop.run(_in_session(request, self.entropy, self.clock.now, self.network))
        except Exception as exc:
            if "readonly database" in str(exc):  # a read-only tool's write, refused by SQLite's query_only
                raise ReadOnlyViolation(
                    "this tool is declared read-only but wrote to the database; the write was refused"
                ) from exc
            raise
        if stored is not None and not self.raw.execute("PRAGMA query_only").fetchone()[0]:  # reads leave it as it was
            self.raw.execute(
                f'UPDATE "{ENTROPY_TABLE}" SET state = ? WHERE id = 1', (pickle.dumps(self.entropy.random.getstate()),)
            )
        try:
            content = response.json()
        except ValueError:
            content = response.text
        if response.status_code >= 400:
            detail = content.get("detail", content) if isinstance(content, dict) else content
            raise ExternalError(f"HTTP {response.status_code}", str(detail))
        return content

    def close(self) -> None:
        """Release the app and the database."""
        sys.modules.pop(self.module.__name__, None)
        self.engine.dispose()
        super().close()


async def _in_session(
    work: Coroutine[Any, Any, Any], entropy: Entropy, now: Callable[[], Any], network: NetworkPolicy | None
) -> Any:
    """Run the app's request in the loop with the session's generator, clock and network policy."""
    with guarded(network), session_entropy(entropy, now):
        return await work


async def _request(app: Any, method: str, url: str, query: dict[str, Any], body: Any) -> Any:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://awm.local") as client:
        return await client.request(method, url, params=query, json=body)


@dataclass(frozen=True, eq=False)
class AppBackend:
    """The `StateFactory` of an AWM scenario: SQLite state, an app per session, snapshots from DDL and inserts."""

    schema: MetaData
    code: types.CodeType
    routes: dict[str, Endpoint]
    network: NetworkPolicy | None = None

    def create(self) -> AppState:
        """A session's database and app."""
        return AppState(self.schema, self.code, self.routes, self.network)

    def handle(self, state: AppState, clock: Any) -> ObjectHandle:
        """What the tools receive; the app's clock becomes the session's simulated one."""
        state.clock = clock
        return ObjectHandle(state, clock, state.invoke)

    def snapshot(self, path: Path) -> bytes:
        """Bytes of a snapshot file (`{"ddl": [...], "inserts": [...]}`)."""
        return _database_bytes(str(path), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _database_bytes(path: str, version: int) -> bytes:
    return build_database(read_json(Path(path)))


# ---------------------------------------------------------------------------------------------------- verifier
def read_verifiers(root: Path, key: str) -> tuple[dict[str, str], int]:
    """Code verifiers by task id from the verifier files (pure-code first), and how many SQL-mode ones (which need
    an LLM judge) were left out."""
    verifiers: dict[str, str] = {}
    judged = 0
    for file in VERIFIER_FILES:
        if not (root / file).exists():
            continue
        for row in read_records(root / file):
            code = (row.get("verification") or {}).get("code") or ""
            task_id = f"{key}-{row.get('task_idx')}"
            if row.get("scenario") != key or task_id in verifiers:
                continue
            if re.search(rf"def\s+{VERIFIER}\s*\(", code):
                verifiers[task_id] = code
            else:
                judged += 1
    return verifiers, judged


def verifier_checklist(verifiers: dict[str, str], backend: AppBackend, folder: Path) -> Checklist:
    """The checklist hook: run the task's `verify_task_completion` on the initial and final database files."""

    def check(task: Any, state: Any) -> float | None:
        code = verifiers.get(task.id)
        if code is None:
            return None
        initial = backend.snapshot(folder / "snapshots" / f"{task.snapshot}.json")
        with tempfile.TemporaryDirectory(prefix="envfactory-awm-") as scratch:
            paths = [Path(scratch) / "initial.db", Path(scratch) / "final.db"]
            paths[0].write_bytes(initial)
            paths[1].write_bytes(state.snapshot())
            namespace: dict[str, Any] = {}
            try:
                with guarded(backend.network):
                    exec(code, namespace)
                    result = namespace[VERIFIER](str(paths[0]), str(paths[1]), None)
            except Exception:  # a verifier that fails counts as not complete
                return 0.0
        return 1.0 if isinstance(result, dict) and result.get("result") == "complete" else 0.0

    return check


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert one AWM scenario into a spec."""
    root = _folder(path)
    db = _by_scenario(root, "gen_db.jsonl")[key]["db_schema"]
    sample = _by_scenario(root, "gen_sample.jsonl").get(key, {}).get("sample_data", {"tables": []})
    ddl = [t["ddl"] for t in db["tables"]] + [index for t in db["tables"] for index in t.get("indexes", [])]
    sampled = {t.get("table_name") or t.get("name") for t in sample.get("tables", []) if t.get("insert_statements")}
    inserts: list[Any] = [s for t in sample.get("tables", []) for s in t.get("insert_statements", [])]
    inserts += [i for t in db["tables"] if t.get("name") not in sampled for i in example_inserts(t)]
    schema = reflect_schema(ddl)
    code = compile_app(_by_scenario(root, "gen_envs.jsonl")[key]["full_code"], key)
    network = options.network_policy(f"the AWM app of {key}")
    probe = AppState(schema, code, {}, network)
    try:
        routes, described = endpoints(probe.app.openapi())
    finally:
        probe.close()
    tools, decisions = {}, {}
    for tool, (description, fields) in described.items():
        read_only, decisions[tool] = read_decision(
            tool, options, routes[tool].method == "GET", f"HTTP {routes[tool].method}"
        )
        tools[tool] = external_tool(tool, description, fields, read_only)
    backend = AppBackend(schema, code, routes, network)
    solutions = read_solutions(Path(options.solutions) if options.solutions else None)
    requests = _by_scenario(root, "gen_tasks.jsonl").get(key, {}).get("tasks", [])
    tasks: list[dict[str, Any]] = [
        {
            "id": f"{key}-{i}",
            "turns": turns(text, solutions.get(f"{key}-{i}", [])),
            "provenance": {"format": FORMAT, "task_idx": i},
        }
        for i, text in enumerate(requests)
    ]
    verifiers, judged = read_verifiers(root, key)
    skipped = materialize(folder, {"seed": {"ddl": ddl, "inserts": inserts}}, tasks, tools, options.expected_errors)
    description = _by_scenario(root, "gen_scenario.jsonl").get(key, {}).get("description", "")
    notes = [f"{judged} SQL-mode verifier(s) left out: they hand their findings to an LLM judge"] if judged else []
    return external_spec(
        name,
        description,
        key,
        tools,
        folder,
        backend,
        source=f"{FORMAT}:{root}:{key}",
        schema=schema,
        checklist=verifier_checklist(verifiers, backend, folder) if verifiers else None,
        notes={
            "skipped_tasks": skipped,
            "unsolved_tasks": sum(1 for t in tasks if not t["turns"][0]["calls"]),
            "notes": notes,
        },
        decisions=decisions,
    )
