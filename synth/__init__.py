"""Synthesis: EnvGen (new environments), the tool dependency graph, topology-aware sampling and QueryGen (tasks).

`envfactory_synth.graph` builds an environment's tool dependency graph (docs/graph.md); `envfactory_synth.sampling`
samples tool chains from it and executes them into ground-truth calls. Only the public runtime API of envfactory_gym is
used; heavy dependencies (sentence-transformers, matplotlib) are imported inside the functions that need them.
"""
