"""BFCL multi-turn (PyPI `bfcl-eval`): backend classes whose public attributes are the state and whose public
methods are the tools (`_load_scenario(config, long_context=False)` loads an entry's `initial_config[Class]`;
classes without it are stateless), function docs (JSONL `{name, description, parameters}` per class), question
entries (`id`, `question`: one message list per turn, `initial_config`, `involved_classes`) and possible answers
(`ground_truth`: one list of Python call strings per turn, parsed here with `ast`, never evaluated).

Entries are grouped by their set of involved classes; each group is one environment (its tools: the documented
public methods of those classes). BFCL's checker compares public attributes of the model's and the ground truth's
instances; R_state compares the same attributes as tables (`<Class>.<attribute>`).

The variants mean what BFCL's inference and checker make them mean: a `missed_function` is hidden until the turn that
adds it (that turn's request is BFCL's "I have updated some more functions ..." and lists them), and a turn whose
ground truth is empty (`miss_func`'s turn before, `miss_param`'s request that lacks a parameter) expects no call.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.util
import inspect
from pathlib import Path
from typing import Any, Callable

from ..spec import EnvironmentSpec
from .build import (
    MAX_CALLS_PER_TURN,
    ExternalEnvironmentError,
    ImportOptions,
    call,
    content_name,
    determinize,
    external_spec,
    import_path,
    import_submodule,
    materialize,
    read_records,
)
from .network import NetworkPolicy
from .objects import ObjectBackend, Roots, object_tables, public_attributes, replace_attributes
from .tools import external_tool, product_prefixes, read_decision, signature_fields

FORMAT = "bfcl"
_CLASS_MAP = "bfcl_eval.constants.executable_backend_config"
#: What BFCL's inference says at the turn that adds held-out functions
#: (its DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC).
ADDED_FUNCTIONS_PROMPT = "I have updated some more functions you can choose from. What about now?"
FOLLOW_UP = "Please go on with the rest of my request."


def _entries(path: Path) -> list[dict[str, Any]]:
    return read_records(path)


def _group(entry: dict[str, Any]) -> str:
    return "+".join(sorted(entry["involved_classes"]))


def discover(path: Path, options: ImportOptions) -> list[str]:
    """One environment per set of involved classes."""
    return sorted({_group(e) for e in _entries(path)})


def _answers_path(path: Path, options: ImportOptions) -> Path:
    return Path(options.tasks) if options.tasks else path.parent / "possible_answer" / path.name


def _docs_dir(path: Path, options: ImportOptions) -> Path | None:
    if options.docs:
        return Path(options.docs)
    sibling = path.parent / "multi_turn_func_doc"
    if sibling.is_dir():
        return sibling
    installed = importlib.util.find_spec("bfcl_eval")
    if installed and installed.submodule_search_locations:
        folder = Path(list(installed.submodule_search_locations)[0]) / "data" / "multi_turn_func_doc"
        return folder if folder.is_dir() else None
    return None


def sources(path: Path, key: str, options: ImportOptions) -> list[Path]:
    """The files this adapter reads."""
    docs = _docs_dir(path, options)
    files = [path, _answers_path(path, options)] + (sorted(docs.glob("*.json")) if docs else [])
    return files + (sorted(Path(options.code).glob("*.py")) if options.code else [])


def backend_classes(names: list[str], options: ImportOptions, network: NetworkPolicy | None = None) -> dict[str, type]:
    """The backend classes by name: from the `code` folder's files, else from the installed bfcl-eval (which must be
    importable where the environment runs: pointing `code` at bfcl-eval's source folder is not the same)."""
    if options.code:
        package = import_path(Path(options.code), network=network)
        found: dict[str, type] = {}
        for file in sorted(Path(options.code).glob("*.py")):
            if file.stem != "__init__":
                module = import_submodule(package, file.stem, network)
                found.update(
                    {k: v for k, v in vars(module).items() if isinstance(v, type) and v.__module__ == module.__name__}
                )
        missing = set(names) - set(found)
        if missing:
            raise ValueError(f"backend classes not found in {options.code}: {sorted(missing)}")
        return {name: found[name] for name in names}
    if importlib.util.find_spec("bfcl_eval") is None:
        raise ExternalEnvironmentError(
            "the BFCL backend classes come from bfcl_eval, which is not installed here: pip install bfcl-eval "
            "(or give your own classes with --code)"
        )
    mapping = importlib.import_module(_CLASS_MAP).CLASS_FILE_PATH_MAPPING
    unknown = [name for name in names if name not in mapping]
    if unknown:
        raise ExternalEnvironmentError(f"bfcl_eval has no backend class {unknown[0]!r} (known: {sorted(mapping)})")
    classes = {}
    for name in names:
        module = importlib.import_module(mapping[name])
        determinize(module)
        classes[name] = getattr(module, name)
    return classes


def _docs(folder: Path | None) -> dict[str, dict[str, Any]]:
    if folder is None:
        return {}
    return {doc["name"]: doc for file in sorted(folder.glob("*.json")) for doc in read_records(file)}


def parse_call(text: str, signatures: dict[str, inspect.Signature]) -> dict[str, Any]:
    """A ground-truth call string (`mv(source='a', destination='b')`, positional arguments allowed) as a call;
    arguments must be literals."""
    node = ast.parse(text.strip(), mode="eval").body
    if not isinstance(node, ast.Call):
        raise ValueError(f"not a call: {text!r}")
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
    if name not in signatures:
        raise ValueError(f"unknown function in {text!r}")
    positional = [_literal(a) for a in node.args]
    keywords = {k.arg: _literal(k.value) for k in node.keywords if k.arg}
    bound = signatures[name].bind_partial(*positional, **keywords)
    return call(name, bound.arguments)


def _literal(node: ast.AST) -> Any:
    value = ast.literal_eval(node)
    return _jsonable(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _load_into(cls: type, config: dict[str, Any], long_context: bool) -> Any:
    instance = cls()
    loader = getattr(instance, "_load_scenario", None)
    if loader is not None:
        accepts = "long_context" in inspect.signature(loader).parameters
        loader(copy.deepcopy(config), long_context=long_context) if accepts else loader(copy.deepcopy(config))
    return instance


def _methods(classes: dict[str, type], docs: dict[str, dict[str, Any]]) -> dict[str, tuple[str, Any]]:
    """Tool name -> (class name, function): the documented public methods, first class first."""
    found: dict[str, tuple[str, Any]] = {}
    for class_name, cls in classes.items():
        for method, func in inspect.getmembers(cls, inspect.isfunction):
            if not method.startswith("_") and method not in found and (not docs or method in docs):
                found[method] = (class_name, func)
    return found


def load(path: Path, key: str, name: str, folder: Path, options: ImportOptions) -> EnvironmentSpec:
    """Convert the entries of one class group into a spec."""
    class_names = key.split("+")
    network = options.network_policy(f"the BFCL backend of {key}")
    classes = backend_classes(class_names, options, network)
    docs = _docs(_docs_dir(path, options))
    methods = _methods(classes, docs)
    owner = {method: class_name for method, (class_name, _) in methods.items()}
    prefixes = product_prefixes(list(methods), *class_names)
    tools, decisions = {}, {}
    for method, (class_name, func) in methods.items():
        doc = docs.get(method, {})
        stateless = True if not hasattr(classes[class_name], "_load_scenario") else None  # BFCL's STATELESS_CLASSES
        read_only, decisions[method] = read_decision(method, options, stateless, "stateless class", prefixes)
        tools[method] = external_tool(
            method,
            doc.get("description") or inspect.getdoc(func) or "",
            signature_fields(func, doc.get("parameters")),
            read_only,
        )
    signatures = {
        m: inspect.Signature(list(inspect.signature(getattr(classes[c], m)).parameters.values())[1:])
        for m, c in owner.items()
    }

    def load_payload(roots: Roots, payload: Any) -> None:
        for class_name, cls in classes.items():
            fresh = _load_into(cls, payload["config"].get(class_name, {}), payload["long_context"])
            replace_attributes(roots[class_name], fresh)

    hidden = frozenset(options.cache_fields)

    def view(roots: Roots) -> Any:
        tables: dict[str, Any] = {}
        for class_name, obj in roots.items():
            tables.update(object_tables(public_attributes(obj), prefix=f"{class_name}."))
        return tables

    def bind(roots: Roots) -> Callable[[str, dict[str, Any]], Any]:
        return lambda tool, arguments: getattr(roots[owner[tool]], tool)(**arguments)

    backend = ObjectBackend(lambda: {n: cls() for n, cls in classes.items()}, load_payload, view, bind, hidden, network)
    answers = {str(a["id"]): a["ground_truth"] for a in read_records(_answers_path(path, options))}
    tasks, snapshots, unparsed = [], {}, 0
    for entry in _entries(path):
        if _group(entry) != key or str(entry["id"]) not in answers:
            continue
        payload = {
            "config": {c: entry.get("initial_config", {}).get(c, {}) for c in class_names},
            "long_context": "long_context" in entry["id"] or "composite" in entry["id"],
        }
        try:
            our_turns = entry_turns(entry, answers[str(entry["id"])], signatures)
        except (ValueError, SyntaxError, TypeError):  # a call we cannot read as literals
            unparsed += 1
            continue
        snapshot = content_name(payload)
        snapshots[snapshot] = payload
        tasks.append(
            {
                "id": str(entry["id"]),
                "snapshot": snapshot,
                "turns": our_turns,
                "provenance": {"format": FORMAT, "missed_function": entry.get("missed_function", {})},
            }
        )
    snapshots["seed"] = next(iter(snapshots.values()), {"config": {}, "long_context": False})
    skipped = materialize(folder, snapshots, tasks, tools, options.expected_errors)
    return external_spec(
        name,
        " ".join(getattr(classes[c](), "_api_description", "") or (classes[c].__doc__ or "") for c in class_names),
        " + ".join(class_names),
        tools,
        folder,
        backend,
        source=f"{FORMAT}:{path}:{key}",
        notes={
            "skipped_tasks": skipped + unparsed,
            "full_state_checker": True,
            # BFCL's checker lets extra calls be: no length penalty
            "reward": {"gamma": 0.0},
        },
        decisions=decisions,
    )


def arrivals(missed_function: dict[str, list[str]], calls: list[list[dict[str, Any]]]) -> dict[int, list[str]]:
    """Turn index -> the held-out functions that become available there: the turn `missed_function` names, or the
    first turn whose ground truth calls it when that comes earlier (BFCL's checker runs such a ground truth, so it is
    valid; the function is offered from there)."""
    first_use: dict[str, int] = {}
    for index, turn in enumerate(calls):
        for item in turn:
            first_use.setdefault(item["name"], index)
    found: dict[int, list[str]] = {}
    for missed_turn, names in missed_function.items():
        for name in names:
            found.setdefault(min(int(missed_turn), first_use.get(name, int(missed_turn))), []).append(name)
    return found


def entry_turns(
    entry: dict[str, Any], truth: list[list[str]], signatures: dict[str, inspect.Signature]
) -> list[dict[str, Any]]:
    """Our turns of one BFCL entry: each BFCL turn's request and ground truth (split into turns of at most five
    calls); the functions `missed_function` holds out arrive with their turn, and an empty ground truth expects no
    call."""
    parsed = [[parse_call(text, signatures) for text in calls_text] for calls_text in truth]
    missed = arrivals(entry.get("missed_function") or {}, parsed)
    ours: list[dict[str, Any]] = []
    for index, (messages, calls) in enumerate(zip(entry["question"], parsed)):
        query = "\n".join(m["content"] for m in messages if m.get("role") == "user")
        if not query and entry.get("missed_function", {}).get(str(index)):
            query = ADDED_FUNCTIONS_PROMPT
        chunks = [calls[i : i + MAX_CALLS_PER_TURN] for i in range(0, len(calls), MAX_CALLS_PER_TURN)] or [[]]
        for number, chunk in enumerate(chunks):
            turn: dict[str, Any] = {"query": query if number == 0 else FOLLOW_UP, "calls": chunk}
            if number == 0 and missed.get(index):
                turn["new_tools"] = missed[index]
            if not calls:
                turn["expect_no_call"] = True
            ours.append(turn)
    return ours
