"""Graph quality against a hand-labelled gold standard (`synth/graph/gold/<env>.json`, see its README.md).

A gold file labels every input of every tool `internal` or `external` and lists, per entity, the outputs that
produce its values and the inputs that consume them; the true edges are every producer -> consumer pair of an
entity (two different tools). `score` compares a built graph with it: precision, recall and F1 of its tool ->
tool edges, and the accuracy of its input classes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from envfactory_gym.spec import EnvironmentSpec

from .model import ToolGraph
from .params import input_parameters, output_parameters

GOLD_DIR = Path(__file__).resolve().parent / "gold"


class GoldError(ValueError):
    """A gold file that does not fit its environment (a tool, input or output it names does not exist)."""


@dataclass(frozen=True)
class GoldStandard:
    """The labels of one environment: input classes and true dependencies `(producer, consumer, input)`."""

    env: str
    env_version: int
    split: str
    roles: dict[str, str]
    dependencies: frozenset[tuple[str, str, str]]
    notes: tuple[str, ...] = field(default=())

    @property
    def edges(self) -> frozenset[tuple[str, str]]:
        """The true tool -> tool edges."""
        return frozenset((u, v) for u, v, _ in self.dependencies)


def gold_keys(split: str | None = None) -> list[str]:
    """Environments with a gold file (`split`: only `dev` or only `holdout` ones)."""
    keys = sorted(p.stem for p in GOLD_DIR.glob("*.json"))
    return [k for k in keys if split is None or json.loads((GOLD_DIR / f"{k}.json").read_text())["split"] == split]


def _split_ref(ref: str, where: str) -> tuple[str, str]:
    tool, _, name = ref.partition(" ")
    if not tool or not name:
        raise GoldError(f"{where}: {ref!r} is not 'tool path'")
    return tool, name


def load_gold(key: str, spec: EnvironmentSpec | None = None, folder: Path = GOLD_DIR) -> GoldStandard:
    """Read `<folder>/<key>.json`; with `spec`, check that it labels exactly that environment's tools and inputs
    and names only outputs that exist (GoldError names the first mismatch)."""
    path = Path(folder) / f"{key}.json"
    data = json.loads(path.read_text())
    roles = {f"{tool}.{name}": role for tool, inputs in data["inputs"].items() for name, role in inputs.items()}
    bad = {k: r for k, r in roles.items() if r not in ("internal", "external")}
    if bad:
        raise GoldError(f"{path}: classes must be internal or external, not {bad}")
    dependencies = set()
    for entity, lists in data["entities"].items():
        producers = [_split_ref(r, f"{path} {entity}") for r in lists["producers"]]
        consumers = [_split_ref(r, f"{path} {entity}") for r in lists["consumers"]]
        for tool, name in consumers:
            if roles.get(f"{tool}.{name}") != "internal":
                raise GoldError(f"{path} {entity}: consumer {tool}.{name} is not an internal input")
        dependencies |= {(u, v, name) for u, _ in producers for v, name in consumers if u != v}
    gold = GoldStandard(
        env=data["env"],
        env_version=data["env_version"],
        split=data["split"],
        roles=roles,
        dependencies=frozenset(dependencies),
        notes=tuple(data.get("notes", ())),
    )
    if spec is not None:
        check_gold(gold, data, spec, path)
    return gold


def check_gold(gold: GoldStandard, data: dict, spec: EnvironmentSpec, path: Path) -> None:
    """Raise GoldError unless the gold file fits `spec` (version, tools, inputs, output paths, user-only tools)."""
    if gold.env_version != spec.version:
        raise GoldError(f"{path}: labelled version {gold.env_version} of {spec.key}, which is now at {spec.version}")
    if set(data["inputs"]) != set(spec.tools):
        raise GoldError(f"{path}: tools differ from {spec.key}'s: {sorted(set(data['inputs']) ^ set(spec.tools))}")
    for name, tool in spec.tools.items():
        expected = {p.name for p in input_parameters(tool)}
        if set(data["inputs"][name]) != expected:
            raise GoldError(f"{path}: inputs of {name} differ: {sorted(set(data['inputs'][name]) ^ expected)}")
    for entity, lists in data["entities"].items():
        for ref in lists["producers"]:
            tool, output = _split_ref(ref, f"{path} {entity}")
            if tool not in spec.tools or output not in {p.path for p in output_parameters(spec.tools[tool])}:
                raise GoldError(f"{path} {entity}: {tool} has no output {output!r}")
        for ref in lists["producers"] + lists["consumers"]:
            tool = ref.partition(" ")[0]
            if spec.tools[tool].user_only:
                raise GoldError(f"{path} {entity}: {tool} is user-only; the agent neither sees nor makes its calls")


@dataclass(frozen=True)
class GraphScore:
    """Edge precision/recall/F1 and input-class accuracy of one graph against its gold standard."""

    env: str
    split: str
    edges: int
    gold_edges: int
    true_positives: int
    roles_correct: int
    roles_total: int

    @property
    def precision(self) -> float:
        """Share of the graph's edges that are true."""
        return self.true_positives / self.edges if self.edges else 1.0

    @property
    def recall(self) -> float:
        """Share of the true edges the graph has."""
        return self.true_positives / self.gold_edges if self.gold_edges else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def role_accuracy(self) -> float:
        """Share of inputs whose class matches the gold class."""
        return self.roles_correct / self.roles_total if self.roles_total else 1.0


def score(graph: ToolGraph, gold: GoldStandard) -> GraphScore:
    """Compare every tool -> tool edge of `graph` (data-carrying or order-only) and every input class with gold."""
    edges = {(u, v) for u, v, _ in graph.dependencies()}
    roles = {f"{t}.{i['name']}": graph.role(t, i["name"]) for t in graph.tools() for i in graph.inputs(t)}
    return GraphScore(
        env=gold.env,
        split=gold.split,
        edges=len(edges),
        gold_edges=len(gold.edges),
        true_positives=len(edges & gold.edges),
        roles_correct=sum(roles.get(k) == r for k, r in gold.roles.items()),
        roles_total=len(gold.roles),
    )


def pooled(scores: list[GraphScore]) -> GraphScore:
    """Micro-average of several environments' scores (edges and inputs summed)."""
    return GraphScore(
        env="all",
        split="+".join(sorted({s.split for s in scores})),
        edges=sum(s.edges for s in scores),
        gold_edges=sum(s.gold_edges for s in scores),
        true_positives=sum(s.true_positives for s in scores),
        roles_correct=sum(s.roles_correct for s in scores),
        roles_total=sum(s.roles_total for s in scores),
    )
