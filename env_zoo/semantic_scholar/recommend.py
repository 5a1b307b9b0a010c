"""Paper recommendations, computed deterministically from the citation graph: a candidate is like a paper when one
cites the other, when they share references (bibliographic coupling), when the same papers cite both (co-citation)
and when they share authors. Shared references and citers count Adamic-Adar style, so a reference everyone cites
(Adam, the Transformer) says little. Positive examples add their similarity, negative ones subtract theirs, and only
candidates reaching MIN_SCORE are recommended."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from envfactory_gym import Database

from .schema import citations, paper_authors, papers

DIRECT_LINK = 3.0
SHARED_AUTHOR = 2.0
MIN_SCORE = 1.0


@dataclass(frozen=True)
class CitationGraph:
    """References, citers and authors of every paper."""

    references: dict[str, set[str]]
    citers: dict[str, set[str]]
    authors: dict[str, set[str]]

    @classmethod
    def load(cls, db: Database) -> CitationGraph:
        """Read the whole graph."""
        references: dict[str, set[str]] = defaultdict(set)
        citers: dict[str, set[str]] = defaultdict(set)
        authors: dict[str, set[str]] = defaultdict(set)
        for edge in db.find(citations):
            references[edge["citing_paper_id"]].add(edge["cited_paper_id"])
            citers[edge["cited_paper_id"]].add(edge["citing_paper_id"])
        for row in db.find(paper_authors):
            authors[row["paper_id"]].add(row["author_id"])
        return cls(references, citers, authors)

    def similarity(self, a: str, b: str) -> float:
        """How alike two papers are in the graph."""
        direct = DIRECT_LINK if b in self.references[a] or a in self.references[b] else 0.0
        coupling = sum(1 / math.log(1 + len(self.citers[r])) for r in self.references[a] & self.references[b])
        cocited = sum(1 / math.log(1 + len(self.references[c])) for c in self.citers[a] & self.citers[b])
        shared = SHARED_AUTHOR * len(self.authors[a] & self.authors[b])
        return direct + coupling + cocited + shared


def recommend(
    db: Database, positive: Iterable[str], negative: Iterable[str] = (), exclude: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """Paper rows most like the positive examples and unlike the negative ones, best first (ties: more cited
    first). The examples themselves and `exclude` are left out, as is anything scoring below MIN_SCORE."""
    positive, negative = list(positive), list(negative)
    graph = CitationGraph.load(db)
    skip = set(positive) | set(negative) | set(exclude)
    scored = []
    for row in db.find(papers):
        if row["paper_id"] in skip:
            continue
        score = sum(graph.similarity(row["paper_id"], p) for p in positive)
        score -= sum(graph.similarity(row["paper_id"], n) for n in negative)
        if score >= MIN_SCORE:
            scored.append((-score, -row["citation_count"], row["paper_id"], row))
    return [item[3] for item in sorted(scored, key=lambda item: item[:3])]
