"""Dropbox's business rules shared by the tools: its error shape (an `error_summary` such as
`to/conflict/file/`), content hashes, revision and id formats, autorename, and which account types may use which
settings (passwords, expiry and download control on links and deadlines on file requests need Pro or Business;
team-only links and team member policies need Business)."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.errors import ToolError

from .schema import entries, revisions

BLOCK = 4 * 1024 * 1024  # content_hash works on 4 MiB blocks
PAID = ("pro", "business")
READ_ONLY_LEVELS = ("viewer", "viewer_no_comment")


def api_error(summary: str, detail: str, kind: type[ToolError] = Conflict) -> ToolError:
    """An endpoint error as Dropbox reports it (HTTP 409): its error_summary path, then what it means."""
    return kind(f"{summary} {detail}")


def content_hash(data: bytes) -> str:
    """Dropbox's content_hash: SHA-256 of the concatenated SHA-256 digests of each 4 MiB block."""
    digests = b"".join(hashlib.sha256(data[i : i + BLOCK]).digest() for i in range(0, max(len(data), 1), BLOCK))
    return hashlib.sha256(digests if data else b"").hexdigest()


def new_rev(db: Database) -> str:
    """A fresh revision id: hexadecimal, at least nine characters, as Dropbox gives them."""
    return f"{0x5F1A00000 + db.next_number('rev', revisions):x}0c4e21d7"


def token(seed: str, length: int) -> str:
    """A deterministic url-safe token derived from `seed` (ids, link keys)."""
    raw = base64.urlsafe_b64encode(hashlib.sha256(seed.encode()).digest()).decode()
    return raw.replace("-", "A").replace("_", "z")[:length]


def new_entry_id(db: Database) -> str:
    """A fresh `id:...` entry id."""
    while True:
        candidate = "id:" + token(f"entry:{db.next_number('entry', entries)}", 22)
        if not db.find(entries, id=candidate):
            return candidate


def split_name(name: str) -> tuple[str, str]:
    """('Report', '.pdf') for 'Report.pdf'; folders and dotfiles have no extension."""
    stem, dot, ext = name.rpartition(".")
    return (stem, dot + ext) if stem and dot else (name, "")


def renamed(name: str, n: int) -> str:
    """Autorename: 'Report (1).pdf' for the first free number."""
    stem, ext = split_name(name)
    return f"{stem} ({n}){ext}"


def check_link_settings(account: dict[str, Any], settings: dict[str, Any], now: str) -> None:
    """Refuse link settings the account's plan or the values do not allow."""
    visibility = settings.get("requested_visibility")
    paid_only = (
        visibility in ("password", "team_only") or settings.get("expires") or (settings.get("allow_download") is False)
    )
    if paid_only and account["account_type"] not in PAID:
        raise api_error(
            "settings_error/not_authorized/",
            "Passwords, expiry dates and disabling downloads on shared links need a Dropbox Pro or Business account.",
            PermissionDenied,
        )
    if visibility == "team_only" and account["account_type"] != "business":
        raise api_error("settings_error/not_authorized/", "team_only links need a Dropbox Business team.")
    if visibility == "password" and not settings.get("link_password"):
        raise api_error("settings_error/invalid_settings/", "requested_visibility 'password' needs a link_password.")
    if settings.get("expires") and settings["expires"] <= now:
        raise api_error("settings_error/invalid_settings/", "expires must be in the future.")


def check_deadline(account: dict[str, Any], deadline: str | None, late: str | None, now: str) -> None:
    """File request deadlines need a Professional or Business account, must lie ahead, and carry late uploads."""
    if late and not deadline:
        raise api_error("validation_error/", "allow_late_uploads needs a deadline.", InvalidRequest)
    if deadline is None:
        return
    if account["account_type"] not in PAID:
        raise api_error(
            "validation_error/", "Deadlines can only be set by Professional and Business accounts.", PermissionDenied
        )
    if deadline <= now:
        raise api_error("validation_error/", "The deadline must be in the future.", InvalidRequest)


def new_link_url(db: Database, entry: dict[str, Any]) -> str:
    """A fresh shared link URL: /scl/fi/ for files, /scl/fo/ for folders, with its rlkey."""
    n = db.next_number("shared_link")
    kind = "fi" if entry["tag"] == "file" else "fo"
    name = entry["name"].replace(" ", "%20")
    key, rlkey = token(f"link:{n}", 21).lower(), token(f"rlkey:{n}", 25).lower()
    return f"https://www.dropbox.com/scl/{kind}/{key}/{name}?rlkey={rlkey}&dl=0"


def new_shared_folder_id(db: Database) -> str:
    """A fresh shared folder id (digits)."""
    return str(8_452_819_000 + db.next_number("shared_folder") * 7919)


def new_file_request_id(db: Database) -> str:
    """A fresh file request id (letters and digits)."""
    return token(f"file_request:{db.next_number('file_request')}", 20).replace("A", "q").replace("z", "K")
