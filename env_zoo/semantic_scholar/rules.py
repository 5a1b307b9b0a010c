"""The rules of the user's library (folders, saved papers and their folders, notes), each folder's Research Feed,
and email alerts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.database import given

from .recommend import recommend
from .schema import alerts, authors, feed_ratings, folder_papers, library_entries, library_folders

MAX_FOLDER_NAME = 100
MAX_NOTE = 2000
FEED_WINDOW_DAYS = 730  # a Research Feed recommends papers published in the last two years


def folder(db: Database, folder_id: str) -> dict[str, Any]:
    """A folder of the library; NotFound otherwise."""
    return db.get(library_folders, folder_id, "Folder")


def members(db: Database, folder_id: str) -> list[str]:
    """Paper ids saved in a folder."""
    return [m["paper_id"] for m in db.find(folder_papers, folder_id=folder_id)]


def library_papers(db: Database, folder_id: str | None) -> list[dict[str, Any]]:
    """Library entries, most recently added first: all of them, or (given a folder) those filed in it, most
    recently filed first."""
    if folder_id is None:
        rows = db.find(library_entries)
        return sorted(rows, key=lambda r: (r["added_at"], r["paper_id"]), reverse=True)
    folder(db, folder_id)
    filed = sorted(
        db.find(folder_papers, folder_id=folder_id), key=lambda m: (m["added_at"], m["paper_id"]), reverse=True
    )
    saved = {r["paper_id"]: r for r in db.find(library_entries)}
    return [saved[m["paper_id"]] for m in filed]


def entry(db: Database, paper: dict[str, Any]) -> dict[str, Any]:
    """The library entry of a paper; NotFound when the paper is not saved."""
    return db.find_one(
        library_entries, paper_id=paper["paper_id"], not_found=f"'{paper['title']}' is not in your library"
    )


def folder_name(db: Database, name: str, renaming: str | None = None) -> str:
    """An unused folder name (case-insensitive), trimmed; the argument type bounds its length."""
    clean = name.strip()
    for other in db.find(library_folders):
        if other["folder_id"] != renaming and other["name"].casefold() == clean.casefold():
            raise Conflict(f"You already have a folder named '{other['name']}'.")
    return clean


def folder_changes(
    db: Database,
    row: dict[str, Any],
    name: str | None,
    description: str | None,
    privacy_setting: str | None,
    recommendation_status: str | None,
) -> dict[str, Any]:
    """The column changes an update of a folder asks for: a unique name, and a Research Feed turned on only for a
    folder that holds a paper. Nothing to change is an error."""
    if recommendation_status == "Enabled" and not members(db, row["folder_id"]):
        raise Conflict(f"'{row['name']}' is empty: save at least one paper to it before turning on its Research Feed.")
    changes = given(
        name=folder_name(db, name, renaming=row["folder_id"]) if name is not None else None,
        description=description.strip() if description is not None else None,
        privacy_setting=privacy_setting,
        recommendation_status=recommendation_status,
    )
    if not changes:
        raise InvalidRequest("Nothing to update: give a name, description, privacy_setting or recommendation_status.")
    return changes


def drop_folder(db: Database, folder_id: str) -> None:
    """Delete a folder with its memberships and feed ratings (the papers stay in the library)."""
    db.conn.execute(folder_papers.delete().where(folder_papers.c.folder_id == folder_id))
    db.conn.execute(feed_ratings.delete().where(feed_ratings.c.folder_id == folder_id))
    db.delete(library_folders, folder_id)


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


def take_out(db: Database, paper: dict[str, Any], folder_id: str | None) -> list[str]:
    """Take a saved paper out of one folder, or (no folder) out of the library with all its folders and note;
    the folder ids it left."""
    entry(db, paper)
    if folder_id is not None:
        target = folder(db, folder_id)
        if not db.find(folder_papers, folder_id=folder_id, paper_id=paper["paper_id"]):
            raise Conflict(f"'{paper['title']}' is not in the folder '{target['name']}'.")
        unfile(db, folder_id, paper["paper_id"])
        return [folder_id]
    filed = sorted(m["folder_id"] for m in db.find(folder_papers, paper_id=paper["paper_id"]))
    for fid in filed:
        unfile(db, fid, paper["paper_id"])
    db.delete(library_entries, paper["paper_id"])
    return filed


def write_note(db: Database, paper: dict[str, Any], text: str) -> dict[str, Any]:
    """Replace a saved paper's note ("" deletes it; deleting a missing note is an error)."""
    saved = entry(db, paper)
    if not text.strip() and saved["note"] is None:
        raise Conflict(f"'{paper['title']}' has no note to delete.")
    note = text.strip() or None
    return db.update(library_entries, paper["paper_id"], note=note, note_updated_at=db.now_iso() if note else None)


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
    return row["publication_date"] or (f"{row['year']:04d}-01-01" if row["year"] else "")


def rate(db: Database, folder_row: dict[str, Any], paper: dict[str, Any], rating: str) -> None:
    """Rate a paper the folder's feed recommends now: relevant saves it into the folder, not_relevant records
    the rating (the feed then leaves it out and pushes down papers like it)."""
    if paper["paper_id"] not in {r["paper_id"] for r in feed(db, folder_row)}:
        raise NotFound(f"'{paper['title']}' is not in the Research Feed of '{folder_row['name']}'")
    if rating == "relevant":
        save(db, paper, [folder_row["folder_id"]], source="Feed")
    else:
        db.insert(
            feed_ratings,
            folder_id=folder_row["folder_id"],
            paper_id=paper["paper_id"],
            rating=rating,
            created_at=db.now_iso(),
        )


def alert_target(alert_type: str, paper_id: str | None, author_id: str | None) -> None:
    """A PaperCitation alert watches a paper, the author alerts an author: exactly the matching id is given."""
    if alert_type == "PaperCitation":
        if paper_id is None or author_id is not None:
            raise InvalidRequest("A PaperCitation alert takes a paper_id and no author_id.")
    elif author_id is None or paper_id is not None:
        raise InvalidRequest(f"An {alert_type} alert takes an author_id and no paper_id.")


def add_alert(db: Database, alert_type: str, paper_id: str | None, author_id: str | None) -> dict[str, Any]:
    """Store a new alert (ids already resolved); the same alert twice is a conflict."""
    if author_id is not None:
        author_id = db.get(authors, author_id, "Author")["author_id"]
    if db.find(alerts, alert_type=alert_type, **given(paper_id=paper_id, author_id=author_id)):
        raise Conflict("You already have this alert.")
    return db.insert(
        alerts,
        alert_id=db.new_id(alerts, "5602", width=3),
        alert_type=alert_type,
        created_at=db.now_iso(),
        paper_id=paper_id,
        author_id=author_id,
    )
