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

from sqlalchemy import or_, select

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
    def around(cls, db: Database, examples: set[str]) -> CitationGraph:
        """The part of the graph that similarities to the examples need: their references and citers, everything
        citing one of their references or cited by one of their citers (for shared references and citers and
        their weights), and every paper sharing one of their authors."""
        references: dict[str, set[str]] = defaultdict(set)
        citers: dict[str, set[str]] = defaultdict(set)
        authors: dict[str, set[str]] = defaultdict(set)
        link = select(citations.c.citing_paper_id, citations.c.cited_paper_id)
        near = list(
            db.conn.execute(
                link.where(or_(citations.c.citing_paper_id.in_(examples), citations.c.cited_paper_id.in_(examples)))
            )
        )
        cited = {b for a, b in near if a in examples}
        citing = {a for a, b in near if b in examples}
        far = db.conn.execute(
            link.where(or_(citations.c.cited_paper_id.in_(cited), citations.c.citing_paper_id.in_(citing)))
        )
        for a, b in [*near, *far]:
            references[a].add(b)
            citers[b].add(a)
        byline = select(paper_authors.c.paper_id, paper_authors.c.author_id)
        people = {a for _, a in db.conn.execute(byline.where(paper_authors.c.paper_id.in_(examples)))}
        for paper, author in db.conn.execute(byline.where(paper_authors.c.author_id.in_(people))):
            authors[paper].add(author)
        return cls(references, citers, authors)

    def neighbours(self) -> set[str]:
        """Every paper the graph mentions."""
        return {*self.references, *self.citers, *self.authors, *(p for s in self.references.values() for p in s)}

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
    graph = CitationGraph.around(db, {*positive, *negative})
    skip = set(positive) | set(negative) | set(exclude)
    scores = {}
    for paper in graph.neighbours() - skip:
        score = sum(graph.similarity(paper, p) for p in positive) - sum(graph.similarity(paper, n) for n in negative)
        if score >= MIN_SCORE:
            scores[paper] = score
    ids = list(scores)
    rows = db.select(papers, f"paper_id IN ({', '.join('?' * len(ids))})", ids) if ids else []
    return sorted(rows, key=lambda row: (-scores[row["paper_id"]], -row["citation_count"], row["paper_id"]))
