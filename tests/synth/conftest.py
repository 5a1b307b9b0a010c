"""Fixtures of the synth tests: the real offline embedder (cached in a temporary folder) and built graphs."""

from __future__ import annotations

import pytest

from envfactory_gym import load_zoo_environment

from .hotel_env import hotel_spec


@pytest.fixture(scope="session")
def embedder(tmp_path_factory):
    """The packaged MiniLM model behind an on-disk cache (skips when sentence-transformers is missing)."""
    pytest.importorskip("sentence_transformers")
    from envfactory_synth.graph.embeddings import CachedEmbedder, SentenceEmbedder

    return CachedEmbedder(SentenceEmbedder(), tmp_path_factory.mktemp("embeddings"))


@pytest.fixture(scope="session")
def hotel(tmp_path_factory):
    """The small hotel environment."""
    return hotel_spec(tmp_path_factory.mktemp("hotel"))


@pytest.fixture(scope="session")
def hotel_graph(hotel, embedder):
    """The hotel environment's graph from its seed."""
    from envfactory_synth.graph.build import build_graph

    return build_graph(hotel, embedder=embedder)


@pytest.fixture(scope="session")
def notion_spec():
    """The Notion reference environment."""
    return load_zoo_environment("notion")


@pytest.fixture(scope="session")
def notion_graph(notion_spec, embedder):
    """Notion's graph, refined by the rules (the earlier offline path, kept as a baseline)."""
    from envfactory_synth.graph.build import GraphConfig, build_graph

    return build_graph(notion_spec, GraphConfig(refinement="rules"), embedder=embedder)


@pytest.fixture(scope="session")
def notion_seed_graph(notion_spec, embedder):
    """Notion's graph from the seed (the default offline path)."""
    from envfactory_synth.graph.build import build_graph

    return build_graph(notion_spec, embedder=embedder)


@pytest.fixture(scope="session")
def hertz_spec():
    """The Hertz environment (a member signs in before anything else)."""
    return load_zoo_environment("hertz")


@pytest.fixture(scope="session")
def hertz_graph(hertz_spec, embedder):
    """Hertz's graph from the seed."""
    from envfactory_synth.graph.build import build_graph

    return build_graph(hertz_spec, embedder=embedder)
