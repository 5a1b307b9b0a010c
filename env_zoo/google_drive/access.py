"""Who is signed in (the Google account that went through the OAuth consent screen, with the scope it granted) and
what Drive lets them see and do: their role on an item is the best of owning it, the permissions on it and on every
folder above it (a folder's owner edits what others add to it), and, in a shared drive, their membership (directly
or through a group). Shared drive restrictions cut outsiders off; other people's trash is invisible; expired
permissions grant nothing. An item the user cannot see does not exist for them (404)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from envfactory_gym import Database

from .errors import drive_not_found, file_not_found, forbidden, insufficient
from .rules import FOLDER
from .schema import drives, files, group_members, permissions, sessions, users

ROLES = ("reader", "commenter", "writer", "fileOrganizer", "organizer", "owner")
RANK = {name: rank for rank, name in enumerate(ROLES, start=1)}
NOT_SIGNED_IN = (
    "Login Required: no Google account has authorized this app to use Google Drive. Ask the user to sign in."
)


@dataclass(frozen=True)
class Viewer:
    """The signed-in user for one tool call."""

    email: str
    display_name: str
    permission_id: str
    domain: str | None  # None: a personal Google account
    groups: frozenset[str]
    is_admin: bool
    root_id: str
    scope: str


def signed_in(db: Database, write: bool = False) -> Viewer:
    """The user the app acts for; a write needs the full `drive` scope."""
    session = db.current_session(sessions, f"401 authError: {NOT_SIGNED_IN}")
    if write and session["scope"] != "drive":
        raise forbidden(
            "insufficientPermissions",
            "Request had insufficient authentication scopes. The user "
            f"granted {session['scope']}; changes need https://www.googleapis.com/auth/drive.",
        )
    user = db.get(users, session["email"])
    groups = frozenset(m["group_email"] for m in db.find(group_members, user_email=user["email"]))
    return Viewer(
        user["email"],
        user["display_name"],
        user["permission_id"],
        user["domain"],
        groups,
        user["is_admin"],
        user["root_id"],
        session["scope"],
    )


def best(*roles: str | None) -> str | None:
    """The highest of some roles (None: no access)."""
    found = [r for r in roles if r]
    return max(found, key=RANK.__getitem__) if found else None


def at_least(role: str | None, minimum: str) -> bool:
    """Whether `role` is `minimum` or higher."""
    return RANK.get(role or "", 0) >= RANK[minimum]


def active(db: Database, row: dict[str, Any]) -> bool:
    """A permission that has not expired."""
    return not row["expiration_time"] or row["expiration_time"] > db.now_iso()


def principal_grants(
    db: Database, email: str, groups: Iterable[str], domain: str | None, rows: Iterable[dict[str, Any]]
) -> tuple[dict[str, str], dict[str, str]]:
    """The roles a person holds, per item id: (through them or their groups, through their domain or 'anyone')."""
    direct: dict[str, str] = {}
    link: dict[str, str] = {}
    groups = set(groups)
    for grant in rows:
        if not active(db, grant):
            continue
        kind = grant["type"]
        mine = grant["email_address"] == email if kind == "user" else grant["email_address"] in groups
        if kind in ("user", "group") and mine:
            target = direct
        elif (kind == "domain" and domain and grant["domain"] == domain) or kind == "anyone":
            target = link
        else:
            continue
        target[grant["file_id"]] = best(target.get(grant["file_id"]), grant["role"])  # type: ignore[assignment]
    return direct, link


class Access:
    """What one person can reach during one tool call: the rows and permissions looked at so far, memoized. A
    listing hands in the rows it read (`complete`: all of them) and, when it read them, every permission; otherwise
    rows and each item's permissions are read when first needed."""

    def __init__(
        self,
        db: Database,
        viewer: Viewer,
        rows: list[dict[str, Any]] | None = None,
        grant_rows: list[dict[str, Any]] | None = None,
        complete: bool = False,
    ) -> None:
        self.db = db
        self.me = viewer
        self._rows: dict[str, dict[str, Any]] = {r["id"]: r for r in rows} if rows is not None else {}
        self._complete = complete
        self._drives: dict[str, dict[str, Any] | None] = {}
        self._grants: dict[str, tuple[str | None, str | None]] = {}
        self._all_grants = grant_rows is not None
        if grant_rows is not None:
            direct, link = principal_grants(db, viewer.email, viewer.groups, viewer.domain, grant_rows)
            for key in set(direct) | set(link):
                self._grants[key] = (direct.get(key), link.get(key))
        self._inherited: dict[str, str | None] = {}
        self._reached: dict[str, bool] = {}

    def grants(self, item_id: str) -> tuple[str | None, str | None]:
        """The user's roles set on one item: (through them or their groups, through their domain or 'anyone')."""
        if item_id not in self._grants:
            if self._all_grants:
                return None, None
            me = self.me
            direct, link = principal_grants(
                self.db, me.email, me.groups, me.domain, self.db.find(permissions, file_id=item_id)
            )
            self._grants[item_id] = (direct.get(item_id), link.get(item_id))
        return self._grants[item_id]

    def direct_role(self, item_id: str) -> str | None:
        """The role set on an item for the user or one of their groups."""
        return self.grants(item_id)[0]

    # ---------------------------------------------------------------- rows

    def row(self, file_id: str) -> dict[str, Any] | None:
        """A file row by id (any, visible or not)."""
        if file_id not in self._rows and not self._complete:
            found = self.db.find(files, id=file_id)
            self._rows[file_id] = found[0] if found else None  # type: ignore[assignment]
        return self._rows.get(file_id)

    def drive(self, drive_id: str | None) -> dict[str, Any] | None:
        """A shared drive row by id."""
        if drive_id is None:
            return None
        if drive_id not in self._drives:
            found = self.db.find(drives, id=drive_id)
            self._drives[drive_id] = found[0] if found else None
        return self._drives[drive_id]

    def resolve_id(self, file_id: str) -> str:
        """Drive's alias `root` names the user's My Drive."""
        return self.me.root_id if file_id.strip() == "root" else file_id.strip()

    # ---------------------------------------------------------------- roles

    def member_role(self, drive_id: str) -> str | None:
        """The user's membership role on a shared drive (directly or through a group)."""
        return self.direct_role(drive_id)

    def _inherited_role(self, row: dict[str, Any]) -> str | None:
        """The best role granted on this item or any folder above it (My Drive: owning a folder edits its
        contents)."""
        key = row["id"]
        if key not in self._inherited:
            own = best(*self.grants(key))
            if not row["drive_id"] and row["owner_email"] == self.me.email:
                own = "owner"
            parent = self.row(row["parent_id"]) if row["parent_id"] else None
            above = self._inherited_role(parent) if parent is not None else None
            if above == "owner":
                above = "writer"
            self._inherited[key] = best(own, above)
        return self._inherited[key]

    def reached(self, row: dict[str, Any]) -> bool:
        """Whether the item is in the user's own corpus (files.list): they own it, or it or a folder above it is
        shared with them or their groups, or sits in a folder they own. Items reachable only by link are not."""
        key = row["id"]
        if key not in self._reached:
            parent = self.row(row["parent_id"]) if row["parent_id"] else None
            self._reached[key] = (
                row["owner_email"] == self.me.email
                or self.direct_role(key) is not None
                or (parent is not None and self.reached(parent))
            )
        return self._reached[key]

    def role(self, row: dict[str, Any]) -> str | None:
        """The user's role on an item, or None when they cannot see it."""
        if row["drive_id"]:
            drive = self.drive(row["drive_id"])
            member = self.member_role(row["drive_id"])
            if drive["domain_users_only"] and self.me.domain != drive["domain"]:  # type: ignore[index]
                return None
            if drive["drive_members_only"] and member is None:  # type: ignore[index]
                return None
            return best(member, self._inherited_role(row))
        if row["owner_email"] == self.me.email:
            return "owner"
        if row["trashed"]:
            return None  # other people's trash is invisible
        return self._inherited_role(row)

    def drive_role(self, drive: dict[str, Any]) -> str | None:
        """The user's role on a shared drive itself (its members only)."""
        if drive["domain_users_only"] and self.me.domain != drive["domain"]:
            return None
        return self.member_role(drive["id"])

    # ---------------------------------------------------------------- lookups that raise

    def file(self, file_id: str) -> tuple[dict[str, Any], str]:
        """A visible item and the user's role on it; 404 otherwise."""
        wanted = self.resolve_id(file_id)
        row = self.row(wanted)
        role = self.role(row) if row is not None else None
        if row is None or role is None:
            raise file_not_found(file_id)
        return row, role

    def shared_drive(self, drive_id: str) -> tuple[dict[str, Any], str]:
        """A shared drive the user is a member of, and their role; 404 otherwise."""
        drive = self.drive(drive_id.strip())
        role = self.drive_role(drive) if drive is not None else None
        if drive is None or role is None:
            raise drive_not_found(drive_id)
        return drive, role

    def require(self, role: str | None, minimum: str, message: str | None = None) -> None:
        """403 insufficientFilePermissions unless `role` is `minimum` or higher."""
        if not at_least(role, minimum):
            raise insufficient(message) if message else insufficient()

    # ---------------------------------------------------------------- capabilities

    def can_share(self, row: dict[str, Any], role: str) -> bool:
        """Whether the user may add, change or remove the item's permissions."""
        if row["drive_id"]:
            drive = self.drive(row["drive_id"])
            if row["mime_type"] == FOLDER and drive["sharing_folders_requires_organizer_permission"]:  # type: ignore[index]
                return at_least(role, "organizer")
            return at_least(role, "writer")
        return role == "owner" or (at_least(role, "writer") and row["writers_can_share"])

    def can_trash(self, row: dict[str, Any], role: str) -> bool:
        """Only an item's owner trashes it; in a shared drive, content managers and managers."""
        return at_least(role, "fileOrganizer") if row["drive_id"] else role == "owner"

    def can_delete(self, row: dict[str, Any], role: str) -> bool:
        """Only an item's owner deletes it for good; in a shared drive, managers."""
        return at_least(role, "organizer") if row["drive_id"] else role == "owner"

    def can_copy(self, row: dict[str, Any], role: str) -> bool:
        """Folders can't be copied; readers and commenters can't copy a file that restricts copying."""
        if row["mime_type"] == FOLDER:
            return False
        restricted = row["copy_requires_writer_permission"] or bool(
            row["drive_id"] and self.drive(row["drive_id"])["copy_requires_writer_permission"]
        )  # type: ignore[index]
        return at_least(role, "writer") or not restricted


def user_row(db: Database, email: str) -> dict[str, Any] | None:
    """A Google account by address (any case)."""
    found = db.find(users, email=email.strip().lower())
    return found[0] if found else None


def person_drive_role(db: Database, email: str, drive_id: str) -> str | None:
    """Someone else's membership role on a shared drive (directly or through a group)."""
    person = user_row(db, email)
    if person is None:
        return None
    groups = {m["group_email"] for m in db.find(group_members, user_email=person["email"])}
    direct, _ = principal_grants(db, person["email"], groups, person["domain"], db.find(permissions, file_id=drive_id))
    return direct.get(drive_id)
