"""arXiv's rules: ids and versions resolve (a version past the latest does not exist), searches page within the
API's 30,000-result window, mailings happen on weekdays (a submission before the 14:00 US Eastern cut-off, 19:00
UTC, is announced on the next weekday's mailing), withdrawals add a version and keep the earlier ones, and the
library's rules (unique folder names, a folder cap, no article twice in a folder, a withdrawn article saved only
at an earlier version, one alert per category, no duplicate follows)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import me
from .ids import parse_id
from .query import compile_query, relevance
from .schema import alerts, categories, folders, papers, saved_papers, versions

MAX_WINDOW = 30000
MAX_FOLDERS = 20
CUTOFF_HOUR_UTC = 19


def paper(db: Database, raw: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The article and the version the id names (its latest without a vN suffix)."""
    key, number = parse_id(raw)
    found = db.select(papers, "id = ?", (key,))
    if not found:
        raise NotFound(f"Article {key} not found")
    row = found[0]
    wanted = number or row["latest_version"]
    if wanted > row["latest_version"]:
        raise NotFound(f"Article {key} has no version v{wanted}: its latest version is v{row['latest_version']}")
    return row, db.find_one(versions, key=f"{key}v{wanted}", not_found=f"Article {key}v{wanted} not found")


def search(
    db: Database, search_query: str, start: int, max_results: int, sort_by: str, sort_order: str
) -> tuple[int, list[dict[str, Any]]]:
    """Count and one slice of the articles a search_query matches, in the order asked for."""
    if start + max_results > MAX_WINDOW:
        raise InvalidRequest(
            f"start + max_results must not pass {MAX_WINDOW:,}: the API returns at most {MAX_WINDOW:,} results "
            "of a query; refine the query instead."
        )
    clause = compile_query(search_query)
    column = {"submittedDate": "published", "lastUpdatedDate": "updated"}.get(sort_by, "published")
    direction = "ASC" if sort_order == "ascending" else "DESC"
    rows = db.select(papers, clause.sql, clause.params, order_by=f"{column} {direction}")
    if sort_by == "relevance":
        sign = 1 if sort_order == "ascending" else -1
        rows = sorted(rows, key=lambda r: sign * relevance(search_query, r))
    return len(rows), rows[start : start + max_results]


def category(db: Database, category_id: str) -> dict[str, Any]:
    found = db.select(categories, "lower(id) = ?", (category_id.strip().lower(),))
    if not found:
        raise NotFound(f"Unknown category '{category_id}' (see list_categories for the taxonomy)")
    return found[0]


def is_mailing_day(day: date) -> bool:
    return day.weekday() < 5


def last_mailing(now: datetime) -> date:
    """The most recent mailing day on or before today."""
    day = now.date()
    while not is_mailing_day(day):
        day -= timedelta(days=1)
    return day


def announcement_for(submitted: datetime) -> str:
    """The mailing day that announces a version submitted at this time."""
    day = submitted.date()
    if not is_mailing_day(day) or submitted.hour >= CUTOFF_HOUR_UTC:
        day += timedelta(days=1)
        while not is_mailing_day(day):
            day += timedelta(days=1)
    day += timedelta(days=1)
    while not is_mailing_day(day):
        day += timedelta(days=1)
    return day.isoformat()


# ---------------------------------------------------------------- library


def clean_name(name: str) -> str:
    return " ".join(name.split())


def check_folder_name(db: Database, name: str, keep: str | None = None) -> str:
    clean = clean_name(name)
    for other in db.select(folders, "owner_id = ? AND lower(name) = ?", (me(db)["user_id"], clean.lower())):
        if other["folder_id"] != keep:
            raise Conflict(f"You already have a folder named '{other['name']}' ({other['folder_id']}).")
    return clean


def check_folder_quota(db: Database) -> None:
    if len(db.select(folders, "owner_id = ?", (me(db)["user_id"],))) >= MAX_FOLDERS:
        raise Conflict(f"You have {MAX_FOLDERS} folders, the most a library keeps; delete one first.")


def saved_in(db: Database, folder: dict[str, Any], paper_id: str) -> dict[str, Any]:
    return db.find_one(
        saved_papers,
        key=f"{folder['folder_id']}/{paper_id}",
        not_found=f"Article {paper_id} is not saved in folder '{folder['name']}'",
    )


def check_not_saved(db: Database, folder: dict[str, Any], paper_id: str) -> None:
    if db.select(saved_papers, "key = ?", (f"{folder['folder_id']}/{paper_id}",)):
        raise Conflict(f"Article {paper_id} is already saved in folder '{folder['name']}'.")


def pinned_version(row: dict[str, Any], version: dict[str, Any], explicit: bool) -> int | None:
    """The version a saved article keeps: the one named, or None to follow the latest. A withdrawn article must
    be saved at an earlier, readable version; the withdrawal notice itself cannot be pinned."""
    if version["withdrawn"]:
        if explicit:
            raise InvalidRequest(
                f"{row['id']}v{version['version']} is the withdrawal notice; pin an earlier version instead."
            )
        raise InvalidRequest(
            f"Article {row['id']} was withdrawn in v{row['latest_version']}; save a specific earlier version "
            f"(e.g. {row['id']}v{row['latest_version'] - 1}) instead."
        )
    return version["version"] if explicit else None


def tag_text(tags: list[str]) -> str:
    unique = sorted(set(tags))  # an unordered set: stored in one canonical order
    return "|" + "|".join(unique) + "|" if unique else ""


def check_alert_free(db: Database, category_id: str, keep: str | None = None) -> None:
    for other in db.select(alerts, "owner_id = ? AND category = ?", (me(db)["user_id"], category_id)):
        if other["alert_id"] != keep:
            raise Conflict(
                f"You already have an alert for {category_id} ({other['alert_id']}); change that one instead."
            )
