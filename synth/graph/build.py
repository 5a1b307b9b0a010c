"""Building an environment's tool graph: semantic matching, refinement (LLM or rules), pruning, classification."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from envfactory_gym.spec import EnvironmentSpec

from .classify import classify_inputs
from .embeddings import Embedder, make_embedder
from .entities import table_entities
from .llm import LLMClient, refine_with_llm
from .model import ToolGraph
from .rules import prune, refine_with_rules
from .semantic import EDGE_THRESHOLD, MERGE_THRESHOLD, semantic_graph


@dataclass(frozen=True)
class GraphConfig:
    """Thresholds and embedding settings (`model`: see `embeddings.choose_model`; `cache_dir`: embedding cache)."""

    edge_threshold: float = EDGE_THRESHOLD
    merge_threshold: float = MERGE_THRESHOLD
    model: str | None = None
    cache_dir: Path | None = None


def build_graph(
    spec: EnvironmentSpec,
    config: GraphConfig = GraphConfig(),
    *,
    embedder: Embedder | None = None,
    llm: LLMClient | None = None,
) -> ToolGraph:
    """The refined, classified dependency graph of one environment.

    With `llm`, the LLM refines the edges and classifies the inputs; without, the rules of `rules.py` and the
    heuristic of `classify.py` do. Pruning (self-loops, incompatible types) always runs last.
    """
    embedder = embedder or make_embedder(config.model, config.cache_dir)
    graph = semantic_graph(spec, embedder, config.edge_threshold, config.merge_threshold)
    meta = graph.graph.graph
    meta["entities"] = table_entities(spec.schema.tables)
    semantic_edges = sum(1 for _ in graph.dependencies())
    if llm is not None:
        meta["refinement"], report = "llm", refine_with_llm(graph, llm, spec.description)
    else:
        meta["refinement"], report = "rules", refine_with_rules(graph)
    meta["report"] = {"semantic_edges": semantic_edges, **report, **prune(graph)}
    roles, source = classify_inputs(graph, llm, spec.description)
    graph.set_roles(roles, source)
    return graph
