"""The database state as LLM stages see it: a trimmed text view (optionally with internal ids replaced by
what a person would call the object), and the check that a text recites no internal id."""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from ..state import CanonicalState

_UUID = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_HANDLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-:.]{3,}")
_TOKEN = re.compile(r"[A-Za-z0-9_\-:.]+")
LABEL_FIELDS = ("name", "title", "full_name", "display_name", "username", "subject", "label", "email", "code")


def _canonical_uuid(text: str) -> str:
    hexes = text.replace("-", "").lower()
    return f"{hexes[:8]}-{hexes[8:12]}-{hexes[12:16]}-{hexes[16:20]}-{hexes[20:]}"


def looks_internal(value: str) -> bool:
    """Whether a key looks system-generated: a UUID, or a handle mixing letters and digits (`ord_0042`)."""
    if _UUID.fullmatch(value):
        return True
    return bool(_HANDLE.fullmatch(value)) and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def internal_ids(state: CanonicalState) -> dict[str, str]:
    """Every primary key of the state that looks internal, mapped to its table."""
    return {key: table for table, rows in state.items() for key in rows if looks_internal(key)}


def find_internal_ids(text: str, ids: Iterable[str]) -> list[str]:
    """The internal ids of `ids` that `text` recites (UUIDs also without dashes or in another case)."""
    ids = set(ids)
    found = {_canonical_uuid(m.group(0)) for m in _UUID.finditer(text)}
    hits = {i for i in ids if _UUID.fullmatch(i) and _canonical_uuid(i) in found}
    tokens = set()
    for token in _TOKEN.findall(text):
        tokens.add(token.rstrip(".:-"))
        tokens.update(re.split(r"[.:]", token))
    hits |= {t for t in tokens if t in ids}
    return sorted(hits)


def row_label(row: dict[str, Any]) -> str:
    """What a person calls a row: its name, title, ... or its first short text value."""
    for name in LABEL_FIELDS:
        if isinstance(row.get(name), str) and row[name]:
            return row[name]
    return next((v for v in row.values() if isinstance(v, str) and 0 < len(v) <= 60 and not looks_internal(v)), "?")


def _redact(value: Any, labels: dict[str, str]) -> Any:
    if isinstance(value, str):
        if value in labels:
            return labels[value]
        return _UUID.sub(lambda m: labels.get(_canonical_uuid(m.group(0)), "<id>"), value)
    if isinstance(value, dict):
        return {k: _redact(v, labels) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact(v, labels) for v in value]
    return value


def _short(value: Any, max_text: int) -> Any:
    if isinstance(value, str) and len(value) > max_text:
        return value[:max_text] + "…"
    if isinstance(value, dict):
        return {k: _short(v, max_text) for k, v in value.items()}
    if isinstance(value, list):
        return [_short(v, max_text) for v in value]
    return value


def render_state(
    state: CanonicalState,
    *,
    focus: Iterable[str] = (),
    redact: bool = False,
    budget: int = 16_000,
    max_rows: int = 40,
    max_text: int = 120,
) -> str:
    """The state as text, one JSON line per row under a header per table, within about `budget` characters.

    Rows mentioning a `focus` string come first, then rows that refer to those rows by key. With `redact`,
    internal ids are replaced by `<table: label>` (so a simulated user knows *what* an assignee is, not its id)
    and primary keys are dropped.
    """
    focus = [f for f in focus if f]
    labels = {}
    if redact:
        labels = {key: f"<{table}: {row_label(state[table][key])}>" for key, table in internal_ids(state).items()}
    raw = {
        table: {key: json.dumps(row, ensure_ascii=False) for key, row in rows.items()} for table, rows in state.items()
    }
    focused = {key for rows in raw.values() for key, text in rows.items() if any(f in text or f == key for f in focus)}
    related = {key for rows in raw.values() for key, text in rows.items() if any(k in text for k in focused)}
    lines_by_table: dict[str, list[str]] = {}
    for table, rows in state.items():
        rendered = []
        for key, row in rows.items():
            shown = {k: v for k, v in row.items() if not (redact and v == key and k in ("id", "uuid"))}
            text = json.dumps(_short(_redact(shown, labels) if redact else shown, max_text), ensure_ascii=False)
            rank = 0 if key in focused else 1 if key in related else 2
            rendered.append((rank, text))
        rendered.sort(key=lambda item: item[0])  # stable: focused rows, rows that refer to them, then the rest
        lines_by_table[table] = [text for _, text in rendered]
    cap = max_rows
    while True:
        out = []
        for table, lines in lines_by_table.items():
            out.append(f"## {table} ({len(lines)} rows)")
            out += lines[:cap]
            if len(lines) > cap:
                out.append(f"... {len(lines) - cap} more rows")
        text = "\n".join(out)
        if len(text) <= budget or cap <= 3:
            return text
        cap = max(3, cap // 2)
