"""The tool dependency graph (paper 3.3.1): parameters, embeddings, semantic edges, refinement, classification.

Modules: `params` (parameters of a tool), `embeddings` (cached sentence embeddings), `semantic` (step 1),
`rules` and `llm` (step 2), `classify` (internal/external inputs), `model` (the graph, JSON save/load),
`build` (all of it for one environment), `draw` (a picture), `cli` (`envfactory graph`). Nothing is imported
here, so the `envfactory` command stays light.
"""
