"""Catalog search: Spotify's query syntax (free words plus artist:, album:, track:, year: and genre: filters)
matched against tracks, albums, artists and public playlists."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from envfactory_gym import InvalidRequest

from .objects import Catalog

FILTERS = ("artist", "album", "track", "year", "genre")
TOKEN = re.compile(r'(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)"|(\S+)')
YEAR = re.compile(r"^(\d{4})(?:-(\d{4}))?$")


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Lower-case, accent-free words: "Cómo Te Quiero" -> "como te quiero", "Don't" -> "dont" (memoized: a search
    folds the text of every catalog row it looks at)."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    plain = re.sub(r"['’]", "", plain)
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain).split())


@dataclass
class Query:
    """A parsed query: words every result must contain, and field filters."""

    words: list[str] = field(default_factory=list)
    filters: dict[str, str] = field(default_factory=dict)


def parse(q: str) -> Query:
    """Split `q` into words and field filters."""
    query = Query()
    for match in TOKEN.finditer(q):
        key, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        if key and key.casefold() in FILTERS:
            query.filters[key.casefold()] = value
            continue
        text = match.group(5) if match.group(5) is not None else match.group(0)
        query.words.extend(fold(text).split())
    if not query.words and not query.filters:
        raise InvalidRequest("No search query: q is empty.")
    if "year" in query.filters and not YEAR.match(query.filters["year"]):
        raise InvalidRequest("year: takes a year (1985) or a range (1980-1989).")
    return query


def _contains(haystack: str, needle: str) -> bool:
    """Every word of `needle` starts a word of `haystack`."""
    words = haystack.split()
    return all(any(w.startswith(n) for w in words) for n in fold(needle).split())


def _year_ok(release_date: str, value: str) -> bool:
    start, end = YEAR.match(value).groups()  # type: ignore[union-attr]
    return int(start) <= int(release_date[:4]) <= int(end or start)


Check = Callable[[str], bool]


class Matcher:
    """Matches a parsed query against catalog rows of each type: the free words first, then (only for rows they
    match) each field filter the query gives."""

    def __init__(self, query: Query, catalog: Catalog) -> None:
        self.query = query
        self.catalog = catalog
        self.words = [re.compile(rf"(?:^| ){re.escape(w)}") for w in fold(" ".join(query.words)).split()]

    def _ok(self, text: str, checks: dict[str, Check]) -> bool:
        folded = fold(text)
        if not all(w.search(folded) for w in self.words):
            return False
        return all(checks[name](value) for name, value in self.query.filters.items() if name in checks)

    def _names(self, artist_ids: list[str]) -> str:
        return " ".join(self.catalog.artists[a]["name"] for a in artist_ids)

    def _genres(self, artist_ids: list[str]) -> str:
        return " ".join(g for a in artist_ids for g in self.catalog.artists[a]["genres"])

    def track(self, row: dict[str, Any]) -> bool:
        album = self.catalog.albums[row["album_id"]]
        names = self._names(row["artist_ids"])
        return self._ok(
            f"{row['name']} {names} {album['name']}",
            {
                "artist": lambda v: _contains(fold(names), v),
                "album": lambda v: _contains(fold(album["name"]), v),
                "track": lambda v: _contains(fold(row["name"]), v),
                "year": lambda v: _year_ok(album["release_date"], v),
                "genre": lambda v: _contains(fold(self._genres(row["artist_ids"])), v),
            },
        )

    def album(self, row: dict[str, Any]) -> bool:
        names = self._names(row["artist_ids"])
        return self._ok(
            f"{row['name']} {names}",
            {
                "artist": lambda v: _contains(fold(names), v),
                "album": lambda v: _contains(fold(row["name"]), v),
                "year": lambda v: _year_ok(row["release_date"], v),
                "genre": lambda v: _contains(fold(self._genres(row["artist_ids"])), v),
            },
        )

    def artist(self, row: dict[str, Any]) -> bool:
        return self._ok(
            row["name"],
            {
                "artist": lambda v: _contains(fold(row["name"]), v),
                "genre": lambda v: _contains(fold(" ".join(row["genres"])), v),
            },
        )

    def playlist(self, row: dict[str, Any]) -> bool:
        owner = self.catalog.users[row["owner_id"]]["display_name"]
        return row["public"] and self._ok(f"{row['name']} {row['description']} {owner}", {})

    def rank(self, rows: list[dict[str, Any]], weight: str) -> list[dict[str, Any]]:
        """Exact name matches first, then by popularity (followers for playlists)."""
        wanted = " ".join(self.query.words)
        return sorted(rows, key=lambda r: (fold(r["name"]) != wanted, -r[weight], r["name"]))
