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
from .observe import observe
from .rules import prune, refine_with_rules
from .seeded import link_with_seed, seed_roles
from .semantic import EDGE_THRESHOLD, MERGE_THRESHOLD, semantic_graph


@dataclass(frozen=True)
class GraphConfig:
    """Thresholds and embedding settings (`model`: see `embeddings.choose_model`; `cache_dir`: embedding cache)
    and the offline refinement: `seed` (observe the tools on `snapshot`, see `seeded.py`; names and embeddings
    where the snapshot shows nothing) or `rules` (the name rules of `rules.py` and the name heuristic of
    `classify.py`, kept as the baseline)."""

    edge_threshold: float = EDGE_THRESHOLD
    merge_threshold: float = MERGE_THRESHOLD
    model: str | None = None
    cache_dir: Path | None = None
    refinement: str = "seed"
    snapshot: str = "seed"


def build_graph(
    spec: EnvironmentSpec,
    config: GraphConfig = GraphConfig(),
    *,
    embedder: Embedder | None = None,
    llm: LLMClient | None = None,
) -> ToolGraph:
    """The refined, classified dependency graph of one environment.

    With `llm`, the LLM refines the edges and classifies the inputs. Without, `config.refinement` decides:
    `seed` classifies the inputs and links the tools from what executing them on the snapshot shows (an
    environment without that snapshot, or not on SQLite, gets the name and embedding signals alone); `rules`
    applies the name rules. Pruning (self-loops, incompatible types) always runs last.
    """
    embedder = embedder or make_embedder(config.model, config.cache_dir)
    graph = semantic_graph(spec, embedder, config.edge_threshold, config.merge_threshold)
    meta = graph.graph.graph
    meta["entities"] = table_entities(spec.schema.tables)
    semantic_edges = sum(1 for _ in graph.dependencies())
    if llm is None and config.refinement == "seed":
        observations = None
        if spec.backend is None and spec.snapshot_path(config.snapshot).is_file():
            observations = observe(spec, config.snapshot)
        graph.set_roles(seed_roles(spec, observations), "seed" if observations else "names")
        meta["refinement"], report = "seed", link_with_seed(graph, spec, observations)
        for tool in graph.tools():
            graph.tool(tool)["needs_one_of"] = observations.needs_one_of(tool) if observations else []
            graph.tool(tool)["accepts"] = (
                {
                    slot: sorted(f"{t}.{c}" for t, c in columns)
                    for (owner, slot), columns in sorted(observations.accepts.items())
                    if owner == tool and columns
                }
                if observations
                else {}
            )
        meta["report"] = {"semantic_edges": semantic_edges, **report, **prune(graph)}
        return graph
    if llm is not None:
        meta["refinement"], report = "llm", refine_with_llm(graph, llm, spec.description)
    elif config.refinement == "rules":
        meta["refinement"], report = "rules", refine_with_rules(graph)
    else:
        raise ValueError(f"unknown refinement {config.refinement!r}: expected 'seed' or 'rules'")
    meta["report"] = {"semantic_edges": semantic_edges, **report, **prune(graph)}
    roles, source = classify_inputs(graph, llm, spec.description)
    graph.set_roles(roles, source)
    return graph
