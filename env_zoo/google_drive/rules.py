"""Drive's constants and shared rules: MIME types (Google Docs, Sheets, Slides, Forms, Drawings and folders have no
binary content and no size), the shapes of Drive's ids, drawn from counters kept in the state, and the limits the
API enforces."""

from __future__ import annotations

import base64
import hashlib

from envfactory_gym import Database

FOLDER = "application/vnd.google-apps.folder"
DOCUMENT = "application/vnd.google-apps.document"
SPREADSHEET = "application/vnd.google-apps.spreadsheet"
PRESENTATION = "application/vnd.google-apps.presentation"
FORM = "application/vnd.google-apps.form"
DRAWING = "application/vnd.google-apps.drawing"
#: Files made by the Docs editors: revisions are numbered, never kept forever, and use no storage.
DOCS_EDITORS = frozenset({DOCUMENT, SPREADSHEET, PRESENTATION, FORM, DRAWING})
GOOGLE_TYPES = DOCS_EDITORS | {FOLDER}
#: Most revisions of one file that may be kept forever.
KEEP_FOREVER_LIMIT = 200
#: How far ahead a permission may expire.
MAX_EXPIRATION_DAYS = 365
WEB_VIEW = {
    DOCUMENT: "https://docs.google.com/document/d/{id}/edit",
    SPREADSHEET: "https://docs.google.com/spreadsheets/d/{id}/edit",
    PRESENTATION: "https://docs.google.com/presentation/d/{id}/edit",
    FORM: "https://docs.google.com/forms/d/{id}/edit",
    DRAWING: "https://docs.google.com/drawings/d/{id}/edit",
    FOLDER: "https://drive.google.com/drive/folders/{id}",
}


def _digest(text: str, length: int) -> str:
    raw = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest() * 2).decode().rstrip("=")
    return raw[:length]


def file_id(salt: str, number: int, mime_type: str) -> str:
    """A Drive file id: 44 characters for Docs editors files, 33 for folders and uploaded files."""
    return "1" + _digest(f"file:{salt}:{number}", 43 if mime_type in DOCS_EDITORS else 32)


def drive_id(salt: str, number: int) -> str:
    """A shared drive's (or a My Drive root's) id: 0A...Uk9PVA."""
    return "0A" + _digest(f"drive:{salt}:{number}", 11).replace("-", "x").replace("_", "y") + "Uk9PVA"


def binary_revision_id(salt: str, number: int) -> str:
    """The id of an uploaded file's revision."""
    return "0B" + _digest(f"revision:{salt}:{number}", 42)


def comment_id(salt: str, number: int) -> str:
    """A comment's or reply's id: AAAA followed by 11 characters."""
    return "AAAA" + _digest(f"comment:{salt}:{number}", 11)


def proposal_id(salt: str, number: int) -> str:
    """An access proposal's id."""
    digest = hashlib.sha256(f"proposal:{salt}:{number}".encode()).hexdigest()
    return str(int(digest[:15], 16)).rjust(19, "1")


def new_file_id(db: Database, mime_type: str) -> str:
    """A fresh file id for a file created now."""
    return file_id("live", db.next_number("drive:file"), mime_type)


def new_binary_revision_id(db: Database) -> str:
    """A fresh id for an uploaded file's new revision."""
    return binary_revision_id("live", db.next_number("drive:revision"))


def new_comment_id(db: Database) -> str:
    """A fresh comment or reply id."""
    return comment_id("live", db.next_number("drive:comment"))


def web_view_link(row_id: str, mime_type: str) -> str:
    """Where the item opens in a browser."""
    return WEB_VIEW.get(mime_type, "https://drive.google.com/file/d/{id}/view").format(id=row_id)
