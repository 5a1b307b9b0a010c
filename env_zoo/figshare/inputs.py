"""The input types Figshare's tools share: item types, titles, keywords, categories, authors, embargo dates,
checksums and paging, each with the bounds the API enforces."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Unordered
from envfactory_gym.fields import ErrorText, bounded

ItemType = Literal[
    "figure",
    "media",
    "dataset",
    "poster",
    "journal contribution",
    "presentation",
    "thesis",
    "software",
    "online resource",
    "preprint",
    "book",
    "conference contribution",
    "chapter",
    "peer review",
    "educational resource",
    "report",
    "standard",
    "composition",
    "funding",
    "physical object",
    "data management plan",
    "workflow",
    "monograph",
    "performance",
    "event",
    "service",
    "model",
]
Title = Annotated[str, Field(min_length=3, max_length=1000, pattern=r"\S")]
SearchFor = Annotated[str, Field(min_length=4, max_length=500), ErrorText("search_for needs at least 4 characters")]
Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(max_length=50), Unordered]
CategoryIds = Annotated[list[int], Field(max_length=20), Unordered]
References = Annotated[list[Annotated[str, Field(pattern=r"^https?://")]], Field(max_length=50)]
EmbargoDate = Annotated[str, Field(pattern=r"^([0-9]{4}-[0-9]{2}-[0-9]{2}|0)$"), ErrorText("Invalid expires date")]
Md5 = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$"), ErrorText("md5 must be 32 lower-case hex digits")]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
Page = bounded(1, 100)


class AuthorRef(BaseModel):
    """An author by Figshare author id, or by name for someone without an account."""

    id: int | None = None
    name: Annotated[str, Field(min_length=2, max_length=200)] | None = None


AuthorList = Annotated[list[AuthorRef], Field(min_length=1, max_length=10)]
