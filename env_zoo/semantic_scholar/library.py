"""The user's library: folders, saved papers and their folders, and each folder's Research Feed."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .recommend import recommend
from .schema import feed_ratings, folder_papers, library_entries, library_folders

MAX_FOLDER_NAME = 100
FEED_WINDOW_DAYS = 730  # a Research Feed recommends papers published in the last two years


def folder(db: Database, folder_id: str) -> dict[str, Any]:
    """A folder of the library; NotFound otherwise."""
    return db.get(library_folders, folder_id, "Folder")


def members(db: Database, folder_id: str) -> list[str]:
    """Paper ids saved in a folder."""
    return [m["paper_id"] for m in db.find(folder_papers, folder_id=folder_id)]


def entry(db: Database, paper: dict[str, Any]) -> dict[str, Any]:
    """The library entry of a paper; NotFound when the paper is not saved."""
    return db.find_one(
        library_entries, paper_id=paper["paper_id"], not_found=f"'{paper['title']}' is not in your library"
    )


def folder_name(db: Database, name: str, renaming: str | None = None) -> str:
    """A valid, unused folder name (case-insensitive), trimmed."""
    clean = name.strip()
    if not 1 <= len(clean) <= MAX_FOLDER_NAME:
        raise InvalidRequest(f"A folder name has 1 to {MAX_FOLDER_NAME} characters.")
    for other in db.find(library_folders):
        if other["folder_id"] != renaming and other["name"].casefold() == clean.casefold():
            raise Conflict(f"You already have a folder named '{other['name']}'.")
    return clean


def touch(db: Database, folder_id: str) -> dict[str, Any]:
    """Mark a folder modified now."""
    return db.update(library_folders, folder_id, modified_at=db.now_iso())


def save(db: Database, paper: dict[str, Any], folder_ids: list[str], source: str) -> dict[str, Any]:
    """Save a paper to the library (if it is not there yet) and into the given folders; a folder's 'not relevant'
    rating of the paper is dropped. Conflict when nothing would change."""
    targets = [folder(db, f)["folder_id"] for f in dict.fromkeys(folder_ids)]
    existing = db.find(library_entries, paper_id=paper["paper_id"])
    new_folders = [f for f in targets if not db.find(folder_papers, folder_id=f, paper_id=paper["paper_id"])]
    if existing and not new_folders:
        where = "in your library" if not targets else "in " + ", ".join(f"'{folder(db, f)['name']}'" for f in targets)
        raise Conflict(f"'{paper['title']}' is already {where}.")
    now = db.now_iso()
    row = (
        existing[0]
        if existing
        else db.insert(
            library_entries, paper_id=paper["paper_id"], source=source, note=None, note_updated_at=None, added_at=now
        )
    )
    for folder_id in new_folders:
        db.insert(folder_papers, folder_id=folder_id, paper_id=paper["paper_id"], added_at=now)
        for rating in db.find(feed_ratings, folder_id=folder_id, paper_id=paper["paper_id"]):
            db.conn.execute(
                feed_ratings.delete().where(
                    (feed_ratings.c.folder_id == rating["folder_id"]) & (feed_ratings.c.paper_id == rating["paper_id"])
                )
            )
        touch(db, folder_id)
    return row


def unfile(db: Database, folder_id: str, paper_id: str) -> None:
    """Take a paper out of one folder."""
    db.conn.execute(
        folder_papers.delete().where((folder_papers.c.folder_id == folder_id) & (folder_papers.c.paper_id == paper_id))
    )
    touch(db, folder_id)


def require_feed(db: Database, folder_id: str) -> dict[str, Any]:
    """A folder whose Research Feed is on; Conflict otherwise."""
    row = folder(db, folder_id)
    if row["recommendation_status"] != "Enabled":
        raise Conflict(f"The Research Feed of '{row['name']}' is turned off; enable it on the folder first.")
    return row


def feed(db: Database, folder_row: dict[str, Any]) -> list[dict[str, Any]]:
    """The folder's Research Feed: papers published in the last two years that are like the folder's papers and
    unlike the ones rated not relevant, leaving out everything already in the library."""
    positive = members(db, folder_row["folder_id"])
    if not positive:
        return []
    negative = [r["paper_id"] for r in db.find(feed_ratings, folder_id=folder_row["folder_id"])]
    saved = [e["paper_id"] for e in db.find(library_entries)]
    since = (db.now().date() - timedelta(days=FEED_WINDOW_DAYS)).isoformat()
    return [row for row in recommend(db, positive, negative, saved) if _published(row) >= since]


def _published(row: dict[str, Any]) -> str:
    return row["publication_date"] or (date(row["year"], 1, 1).isoformat() if row["year"] else "")
