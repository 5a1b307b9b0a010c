"""Authentic sources a proposal is grounded in: a local folder of API docs and OpenAPI specs (offline), or any
web-search provider plugged in through `SearchProvider`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

_URL_LINE = re.compile(r"^\s*(?:docs|url|source)\s*:\s*(https?://\S+)", re.IGNORECASE | re.MULTILINE)
_WORD = re.compile(r"[a-z0-9]+")
_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class SourceDoc:
    """One source document: where it is from and its text."""

    id: str
    title: str
    url: str
    text: str
    kind: str = "doc"  # doc | openapi | web


class DocSource(Protocol):
    """Anything that finds source documents for a topic."""

    def documents(self, topic: str) -> list[SourceDoc]:
        """Documents relevant to `topic`, most relevant first."""


class SearchProvider(Protocol):
    """A web search backend (none ships with the package): returns pages for a query."""

    def search(self, query: str, limit: int) -> list[SourceDoc]:
        """Up to `limit` results for `query`, with their text."""


@dataclass
class WebSearch:
    """A `DocSource` over a `SearchProvider`: searches for the topic's API reference."""

    provider: SearchProvider
    limit: int = 5

    def documents(self, topic: str) -> list[SourceDoc]:
        """The provider's results for '<topic> API reference'."""
        return self.provider.search(f"{topic} API reference", self.limit)


def summarize_openapi(spec: dict[str, Any]) -> str:
    """A compact text of an OpenAPI document: info, then one line per operation with its parameters and body."""
    info = spec.get("info", {})
    lines = [
        f"{info.get('title', 'API')} (OpenAPI {spec.get('openapi') or spec.get('swagger', '?')})",
        info.get("description", "").strip(),
    ]
    for path, operations in spec.get("paths", {}).items():
        for method in _METHODS:
            operation = operations.get(method)
            if not operation:
                continue
            params = [
                f"{p.get('name')} ({p.get('in')}{', required' if p.get('required') else ''}): "
                f"{p.get('description', '')}".strip()
                for p in operation.get("parameters", [])
            ]
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            lines.append(f"{method.upper()} {path}: {operation.get('summary', '')}")
            if operation.get("description"):
                lines.append(f"  {operation['description'].strip()}")
            lines += [f"  param {p}" for p in params]
            if body:
                lines.append(f"  body {json.dumps(body, sort_keys=True)}")
    schemas = spec.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        lines.append(f"schema {name}: {json.dumps(schema, sort_keys=True)}")
    return "\n".join(line for line in lines if line)


def _openapi(data: Any) -> bool:
    return isinstance(data, dict) and ("openapi" in data or "swagger" in data) and "paths" in data


def read_document(path: Path) -> SourceDoc | None:
    """Read one file: Markdown/text as is, OpenAPI JSON or YAML (PyYAML, from the synth extra) summarized."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".json", ".yaml", ".yml"):
        if path.suffix == ".json":
            data = json.loads(text)
        else:
            try:
                import yaml
            except ImportError:
                return None
            data = yaml.safe_load(text)
        if not _openapi(data):
            return None
        info = data.get("info", {})
        url = (data.get("externalDocs") or {}).get("url") or info.get("x-docs-url", "")
        return SourceDoc(path.name, info.get("title", path.stem), url, summarize_openapi(data), "openapi")
    title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.strip()), path.stem)
    match = _URL_LINE.search(text)
    return SourceDoc(path.name, title, match.group(1) if match else "", text, "doc")


def relevance(doc: SourceDoc, topic: str) -> float:
    """Share of the topic's words that the document's title and text mention (title words count double)."""
    words = set(_WORD.findall(topic.lower()))
    if not words:
        return 0.0
    title, text = set(_WORD.findall(doc.title.lower())), set(_WORD.findall(doc.text.lower()))
    return sum((w in text) + (w in title) for w in words) / (2 * len(words))


@dataclass
class LocalDocs:
    """A folder of API documentation (`.md`, `.txt`) and OpenAPI specs (`.json`, `.yaml`), ranked by topic."""

    folder: Path

    def documents(self, topic: str) -> list[SourceDoc]:
        """Every readable document of the folder, most relevant to `topic` first (ties by file name)."""
        docs = []
        for path in sorted(Path(self.folder).iterdir()):
            if path.is_file() and path.suffix in (".md", ".txt", ".json", ".yaml", ".yml"):
                doc = read_document(path)
                if doc is not None:
                    docs.append(doc)
        return sorted(docs, key=lambda d: -relevance(d, topic))


def gather(sources: list[DocSource], topic: str, limit: int) -> list[SourceDoc]:
    """The `limit` documents most relevant to `topic` over all sources."""
    found = [doc for source in sources for doc in source.documents(topic)]
    return sorted(found, key=lambda d: -relevance(d, topic))[:limit]
