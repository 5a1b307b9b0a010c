"""Step 1 (paper 3.3.1): semantic parameter matching — merge near-identical parameters, link outputs to inputs."""

from __future__ import annotations

import numpy as np

from envfactory_gym.spec import EnvironmentSpec

from .embeddings import Embedder
from .model import PARAM_PREFIX, ToolGraph
from .params import Param, input_parameters, output_parameters, types_compatible

EDGE_THRESHOLD = 0.85
MERGE_THRESHOLD = 0.92


def merge_parameters(params: list[Param], vectors: np.ndarray, threshold: float) -> list[int]:
    """Greedy clustering: each parameter joins the most similar earlier group (cosine to the group's first
    member >= `threshold`, types compatible both ways), else starts a group. Returns a group index per parameter."""
    groups: list[int] = []
    heads: list[int] = []
    for index, param in enumerate(params):
        best, best_score = -1, threshold
        for group, head in enumerate(heads):
            score = float(vectors[index] @ vectors[head])
            compatible = types_compatible(param.type, params[head].type) and types_compatible(
                params[head].type, param.type
            )
            if compatible and score >= best_score:
                best, best_score = group, score
        if best < 0:
            heads.append(index)
            best = len(heads) - 1
        groups.append(best)
    return groups


def _node_names(params: list[Param], groups: list[int]) -> dict[int, str]:
    names: dict[int, str] = {}
    used: set[str] = set()
    for param, group in zip(params, groups):
        if group in names:
            continue
        base = f"{PARAM_PREFIX}{param.name}"
        name, counter = base, 1
        while name in used:
            counter += 1
            name = f"{base}#{counter}"
        used.add(name)
        names[group] = name
    return names


def semantic_graph(
    spec: EnvironmentSpec, embedder: Embedder, edge: float = EDGE_THRESHOLD, merge: float = MERGE_THRESHOLD
) -> ToolGraph:
    """Tools and (merged) parameters as nodes; `u -> v` when an output of `u` and an input of `v` are similar
    (cosine >= `edge`) or were merged into one parameter node (cosine to its first member >= `merge`)."""
    per_tool = {name: (input_parameters(t), output_parameters(t)) for name, t in spec.tools.items()}
    params = [p for ins, outs in per_tool.values() for p in ins + outs]
    vectors = embedder.encode([p.text() for p in params]) if params else np.zeros((0, 1))
    groups = merge_parameters(params, vectors, merge)
    names = _node_names(params, groups)
    node_of = {p.key: names[g] for p, g in zip(params, groups)}
    row = {p.key: i for i, p in enumerate(params)}

    graph = ToolGraph()
    graph.graph.graph.update(
        env=spec.key,
        env_name=spec.name,
        model=embedder.model_name,
        edge_threshold=edge,
        merge_threshold=merge,
    )
    for param, group in zip(params, groups):
        node = names[group]
        if node not in graph.graph:
            graph.add_param(node, name=param.name, type=param.type, members=[])
        graph.graph.nodes[node]["members"].append(param.key)
    for name, tool in spec.tools.items():
        ins, outs = per_tool[name]
        graph.add_tool(
            name,
            description=tool.description,
            read_only=tool.read_only,
            user_only=tool.user_only,
            inputs=[{**_public(p), "param": node_of[p.key], "role": "external"} for p in ins],
            outputs=[{**_public(p), "param": node_of[p.key]} for p in outs],
        )
        for p in ins:
            graph.link_param(name, node_of[p.key], "input", p.name)
        for p in outs:
            graph.link_param(name, node_of[p.key], "output", p.path)

    outputs = [p for p in params if p.direction == "output"]
    inputs = [p for p in params if p.direction == "input"]
    if outputs and inputs:
        scores = vectors[[row[p.key] for p in outputs]] @ vectors[[row[p.key] for p in inputs]].T
        for i, out in enumerate(outputs):
            for j, inp in enumerate(inputs):
                score = float(scores[i, j])
                if score >= edge or node_of[out.key] == node_of[inp.key]:
                    graph.add_dependency(out.tool, inp.tool, "semantic", [(out.path, inp.name, score)])
    return graph


def _public(param: Param) -> dict:
    keep = (
        ("name", "path", "type", "description", "owner", "owner_description")
        if param.direction == "output"
        else ("name", "type", "description", "required")
    )
    return {k: getattr(param, k) for k in keep}
