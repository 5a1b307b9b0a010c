"""Dropbox's API objects as output models (field names as in its JSON; `tag` stands for `.tag`), and how stored
rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import entries, folder_members
from .tree import ancestors, shared_root


class Team(BaseModel):
    """The Business team an account belongs to."""

    name: str
    domain: str


class FullAccount(BaseModel):
    """The linked account: its plan decides which link and file request settings it may use."""

    account_id: str
    name: str
    email: str
    account_type: str  # basic | pro | business
    team: Team | None = None


class SharingInfo(BaseModel):
    """Where an entry sits in shared folders: read_only when the account only views it."""

    read_only: bool
    parent_shared_folder_id: str | None = None
    shared_folder_id: str | None = None


class Metadata(BaseModel):
    """A file, folder or deleted entry (`tag`); files carry rev, size and content_hash."""

    tag: str  # file | folder | deleted
    name: str
    path_lower: str
    path_display: str
    id: str | None = None
    rev: str | None = None
    size: int | None = None
    content_hash: str | None = None
    client_modified: str | None = None
    server_modified: str | None = None
    sharing_info: SharingInfo | None = None


class ListFolderResult(BaseModel):
    """A page of a folder listing; pass `cursor` back to continue while has_more."""

    entries: list[Metadata]
    cursor: str | None
    has_more: bool


class SearchResult(BaseModel):
    """Entries whose name matches every word of the query."""

    matches: list[Metadata]
    has_more: bool


class ListRevisionsResult(BaseModel):
    """A file's revisions, newest first; is_deleted when the file is currently deleted."""

    is_deleted: bool
    entries: list[Metadata]


class DownloadResult(BaseModel):
    """A downloaded file: its metadata (of the revision asked for) and its text; binary files carry no text."""

    metadata: Metadata
    is_text: bool
    content: str | None


class LinkPermissions(BaseModel):
    """What a shared link allows: requested and resolved visibility, downloads, password, whether it can be revoked."""

    requested_visibility: str
    resolved_visibility: str
    require_password: bool
    allow_download: bool
    can_revoke: bool


class SharedLinkMetadata(BaseModel):
    """A shared link to a file (`/scl/fi/`) or folder (`/scl/fo/`)."""

    tag: str  # file | folder
    url: str
    name: str
    id: str
    path_lower: str
    expires: str | None
    link_permissions: LinkPermissions


class MemberInfo(BaseModel):
    """A member of a shared folder (a Dropbox user) or an invitee (an email without an accepted account)."""

    email: str
    display_name: str | None
    access_type: str  # owner | editor | viewer | viewer_no_comment
    is_invitee: bool


class SharedFolderMetadata(BaseModel):
    """A shared folder and its policies."""

    shared_folder_id: str
    name: str
    path_lower: str | None
    access_type: str
    owner_email: str
    acl_update_policy: str
    member_policy: str
    shared_link_policy: str


class FileRequest(BaseModel):
    """A file request: a link others upload files through into `destination`."""

    id: str
    url: str
    title: str
    destination: str | None
    description: str | None
    deadline: str | None
    allow_late_uploads: str | None
    is_open: bool
    file_count: int
    created: str


def account_object(row: dict[str, Any]) -> FullAccount:
    team = Team(name=row["team_name"], domain=row["team_domain"]) if row["team_name"] else None
    return FullAccount(
        account_id=row["account_id"], name=row["name"], email=row["email"], account_type=row["account_type"],
        team=team,
    )  # fmt: skip


class SharingScope:
    """The shared folders mounted in one account's Dropbox (path -> shared folder id) and its access level on
    each, read once so that a listing does not query them per entry."""

    def __init__(self, db: Database, account_id: str) -> None:
        where = "account_id = ? AND is_deleted = 0 AND shared_folder_id IS NOT NULL"
        self.roots = {r["path_lower"]: r["shared_folder_id"] for r in db.select(entries, where, [account_id])}
        self.access = {m["shared_folder_id"]: m["access_level"] for m in db.find(folder_members, account_id=account_id)}

    def info(self, path_lower: str) -> SharingInfo | None:
        """Sharing info of the entry at `path_lower`: the innermost shared folder it is or lies in."""
        paths = [*ancestors(path_lower), path_lower]
        folder_path = next((p for p in reversed(paths) if p in self.roots), None)
        if folder_path is None:
            return None
        folder_id = self.roots[folder_path]
        own = folder_path == path_lower
        return SharingInfo(
            read_only=self.access.get(folder_id) in ("viewer", "viewer_no_comment"),
            parent_shared_folder_id=None if own else folder_id,
            shared_folder_id=folder_id if own else None,
        )  # fmt: skip


def metadata_object(db: Database, row: dict[str, Any], scope: SharingScope | None = None) -> Metadata:
    """An entry as Dropbox's metadata; deleted ones carry only names and paths."""
    if row["is_deleted"]:
        return Metadata(tag="deleted", name=row["name"], path_lower=row["path_lower"], path_display=row["path_display"])
    info = (scope or SharingScope(db, row["account_id"])).info(row["path_lower"])
    return Metadata(
        tag=row["tag"], name=row["name"], path_lower=row["path_lower"], path_display=row["path_display"], id=row["id"],
        rev=row["rev"], size=row["size"], content_hash=row["content_hash"], client_modified=row["client_modified"],
        server_modified=row["server_modified"], sharing_info=info,
    )  # fmt: skip


def revision_object(entry: dict[str, Any], rev: dict[str, Any]) -> Metadata:
    """One revision of a file as file metadata."""
    return Metadata(
        tag="file", name=rev["path_display"].rpartition("/")[2], path_lower=rev["path_display"].lower(),
        path_display=rev["path_display"], id=entry["id"], rev=rev["rev"], size=rev["size"],
        content_hash=rev["content_hash"], client_modified=rev["client_modified"],
        server_modified=rev["server_modified"],
    )  # fmt: skip


def download_object(entry: dict[str, Any], rev: dict[str, Any]) -> DownloadResult:
    """A file revision with its text, where the file is a text file."""
    text = rev["content"]
    return DownloadResult(metadata=revision_object(entry, rev), is_text=text is not None, content=text)


def link_object(db: Database, link: dict[str, Any]) -> SharedLinkMetadata:
    """A stored link with its resolved visibility (a shared folder whose link policy is 'members' narrows it)."""
    entry = db.get(entries, link["entry_id"])
    resolved = link["requested_visibility"]
    folder = shared_root(db, entry["account_id"], entry["path_lower"])
    if folder is not None and folder["shared_link_policy"] == "members":
        resolved = "shared_folder_only"
    return SharedLinkMetadata(
        tag=entry["tag"], url=link["url"], name=entry["name"], id=entry["id"], path_lower=entry["path_lower"],
        expires=link["expires"],
        link_permissions=LinkPermissions(
            requested_visibility=link["requested_visibility"], resolved_visibility=resolved,
            require_password=link["link_password"] is not None, allow_download=link["allow_download"], can_revoke=True,
        ),
    )  # fmt: skip


def member_object(row: dict[str, Any]) -> MemberInfo:
    return MemberInfo(
        email=row["email"], display_name=row["display_name"], access_type=row["access_level"],
        is_invitee=row["status"] == "invited",
    )  # fmt: skip


def shared_folder_object(db: Database, folder: dict[str, Any], access: str) -> SharedFolderMetadata:
    entry = db.get(entries, folder["entry_id"])
    return SharedFolderMetadata(
        shared_folder_id=folder["shared_folder_id"], name=folder["name"],
        path_lower=None if entry["is_deleted"] else entry["path_lower"], access_type=access,
        owner_email=folder["owner_email"], acl_update_policy=folder["acl_update_policy"],
        member_policy=folder["member_policy"], shared_link_policy=folder["shared_link_policy"],
    )  # fmt: skip


def file_request_object(db: Database, row: dict[str, Any]) -> FileRequest:
    destination = None
    if row["destination_id"]:
        folder = db.get(entries, row["destination_id"])
        destination = None if folder["is_deleted"] else folder["path_display"]
    return FileRequest(
        id=row["id"], url=f"https://www.dropbox.com/request/{row['id']}", title=row["title"], destination=destination,
        description=row["description"], deadline=row["deadline"], allow_late_uploads=row["allow_late_uploads"],
        is_open=row["is_open"], file_count=row["file_count"], created=row["created"],
    )  # fmt: skip
