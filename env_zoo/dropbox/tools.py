"""Dropbox API v2 tools as a linked account sees them: files and folders by path (metadata, listing, search,
create, upload, move, copy, delete), revisions and restore, shared links and their settings, folder sharing with
members and access levels, and file requests; plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied, Unordered, paginate, tool
from envfactory_gym.fields import ErrorText, IsoTimestamp, NonBlankText

from . import rules, sharing, tree
from .access import me
from .objects import (
    DownloadResult,
    FileRequest,
    FullAccount,
    ListFolderResult,
    ListRevisionsResult,
    MemberInfo,
    Metadata,
    SearchResult,
    SharedFolderMetadata,
    SharedLinkMetadata,
    SharingScope,
    account_object,
    download_object,
    file_request_object,
    link_object,
    member_object,
    metadata_object,
    revision_object,
    shared_folder_object,
)
from .rules import api_error
from .schema import entries, file_requests, folder_members, revisions, sessions, shared_folders, shared_links, users

MALFORMED = ErrorText("path/malformed_path/ paths start with '/' (or are 'id:...'), with no trailing '/'.")
Path = Annotated[str, Field(pattern=r"^(/([^/]+/)*[^/]+|id:.+)$", description="e.g. /Projects/plan.pdf"), MALFORMED]
FolderPath = Annotated[str, Field(pattern=r"^(|/([^/]+/)*[^/]+|id:.+)$", description="'' for the root"), MALFORMED]
Rev = Annotated[str, Field(pattern=r"^[0-9a-f]{9,}$", description="a revision id from list_revisions")]
SharedFolderId = Annotated[str, Field(pattern=r"^[0-9]+$")]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"), ErrorText("bad_member/invalid_email/")]
Visibility = Literal["public", "team_only", "password"]
MemberLevel = Literal["editor", "viewer", "viewer_no_comment"]
GracePeriod = Literal["one_day", "two_days", "seven_days", "thirty_days", "always"]
LinkUrl = Annotated[str, Field(pattern=r"^https://www\.dropbox\.com/"), ErrorText("shared_link_malformed/")]


class AddMember(BaseModel):
    """Someone to add to a shared folder, by email, with the access they get."""

    email: Email
    access_level: MemberLevel = "viewer"


# ---------------------------------------------------------------- the account


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> FullAccount:
    """(User only) The user links their Dropbox account; the assistant may then act in it.

    Args:
        email: The account's email.
        password: Its password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("invalid_access_token/ wrong email or password.")
    db.start_session(sessions, account_id=found[0]["account_id"])
    return account_object(found[0])


# ---------------------------------------------------------------- files and folders


@tool(read_only=True)
def get_metadata(db: Database, path: Path, include_deleted: bool = False) -> Metadata:
    """Metadata of a file or folder: id, rev, size, content_hash, modification times and sharing info.

    Args:
        path: The path (case-insensitive) or 'id:...'.
        include_deleted: Return a deleted entry's metadata (tag 'deleted') instead of not_found.
    """
    account = me(db)
    return metadata_object(db, tree.lookup(db, account["account_id"], path, deleted=include_deleted))


@tool(read_only=True)
def download(db: Database, path: Path, rev: Rev | None = None) -> DownloadResult:
    """Download a file: its metadata and, for text files, its content; `rev` downloads an earlier revision.

    Args:
        path: The file.
        rev: A revision from list_revisions (default: the current one).
    """
    account_id = me(db)["account_id"]
    entry = tree.lookup(db, account_id, path, deleted=rev is not None)
    if entry["tag"] != "file":
        raise api_error("path/not_file/", f"{entry['path_display']} is a folder; only files can be downloaded.")
    found = db.find(revisions, rev=rev or entry["rev"], entry_id=entry["id"])
    if not found:
        raise api_error("path/not_found/", f"{rev} is not a revision of {entry['path_display']}.", NotFound)
    return download_object(entry, found[0])


@tool(read_only=True)
def list_folder(
    db: Database,
    path: FolderPath,
    recursive: bool = False,
    include_deleted: bool = False,
    limit: Annotated[int, Field(ge=1, le=2000)] = 500,
    cursor: str | None = None,
) -> ListFolderResult:
    """List a folder's contents by path; pass the returned cursor to continue while has_more.

    Args:
        path: The folder ('' for the root of the Dropbox).
        recursive: Also list everything below subfolders.
        include_deleted: Also list deleted entries (tag 'deleted').
        limit: Entries per page.
        cursor: The cursor of the previous page.
    """
    account_id = me(db)["account_id"]
    folder = path.lower()
    if path:
        found = tree.lookup(db, account_id, path)
        if found["tag"] != "folder":
            raise api_error("path/not_folder/", f"{found['path_display']} is a file, not a folder.")
        folder = found["path_lower"]
    rows = tree.children(db, account_id, folder, recursive, include_deleted)
    page = paginate(rows, limit, cursor, max_page_size=2000)
    scope = SharingScope(db, account_id)
    listed = [metadata_object(db, r, scope) for r in page.results]
    return ListFolderResult(entries=listed, cursor=page.next_cursor, has_more=page.has_more)


@tool(read_only=True)
def search(
    db: Database,
    query: NonBlankText,
    path: FolderPath = "",
    file_status: Literal["active", "deleted"] = "active",
    file_extensions: Annotated[list[str], Unordered] | None = None,
    max_results: Annotated[int, Field(ge=1, le=1000)] = 100,
) -> SearchResult:
    """Find files and folders whose name contains every word of the query (case-insensitive), newest first.

    Args:
        query: Words to match in names.
        path: Only under this folder ('' for everywhere).
        file_status: Live ('active') or deleted entries.
        file_extensions: Only files with these extensions, e.g. ["pdf", "docx"].
        max_results: How many matches at most.
    """
    account_id = me(db)["account_id"]
    words = [w.lower() for w in query.split()]
    where = "account_id = ? AND is_deleted = ?" + " AND instr(lower(name), ?) > 0" * len(words)
    params: list[object] = [account_id, file_status == "deleted", *words]
    if path:
        where += " AND substr(path_lower, 1, ?) = ?"
        params += [len(path) + 1, path.lower() + "/"]
    rows = db.select(entries, where, params, order_by="server_modified DESC, path_lower")
    if file_extensions:
        wanted = tuple("." + e.lower().lstrip(".") for e in file_extensions)
        rows = [r for r in rows if r["tag"] == "file" and r["name"].lower().endswith(wanted)]
    scope = SharingScope(db, account_id)
    matches = [metadata_object(db, r, scope) for r in rows[:max_results]]
    return SearchResult(matches=matches, has_more=len(rows) > max_results)


@tool()
def create_folder(db: Database, path: Path, autorename: bool = False) -> Metadata:
    """Create a folder (and any missing folders above it).

    Args:
        path: The new folder's path.
        autorename: On a conflict, use a free name such as 'Name (1)' instead of failing.
    """
    account_id = me(db)["account_id"]
    tree.check_writable(db, account_id, path.lower())
    parent = tree.ensure_parents(db, account_id, path, "path")
    target = tree.free_path(db, account_id, f"{parent}/{path.rpartition('/')[2]}", autorename, "path")
    return metadata_object(db, tree.new_folder(db, account_id, target))


@tool()
def upload(
    db: Database,
    path: Path,
    content: Annotated[str, Field(max_length=150_000)],
    mode: Literal["add", "overwrite", "update"] = "add",
    rev: Rev | None = None,
    autorename: bool = False,
) -> Metadata:
    """Upload a text file. 'add' never overwrites; 'overwrite' replaces what is there; 'update' replaces it only
    if its current rev is `rev`. Uploading the same content again creates no new revision.

    Args:
        path: Where to save the file.
        content: The file's text.
        mode: add, overwrite or update.
        rev: The rev the file must still have (mode 'update' only).
        autorename: On a conflict, save as 'Name (1).ext' instead of failing.
    """
    account_id = me(db)["account_id"]
    if (mode == "update") != (rev is not None):
        raise InvalidRequest("mode 'update' needs a rev, and only it takes one.")
    tree.check_writable(db, account_id, path.lower())
    data = content.encode()
    digest = rules.content_hash(data)
    existing = tree.live_at(db, account_id, path.lower())
    if existing is not None and existing["tag"] == "file" and existing["content_hash"] == digest:
        return metadata_object(db, existing)
    replace = existing is not None and existing["tag"] == "file" and (
        mode == "overwrite" or (mode == "update" and existing["rev"] == rev)
    )  # fmt: skip
    if existing is not None and not replace:
        target = tree.free_path(db, account_id, existing["path_display"], autorename, "path")
        existing = None
    else:
        target = f"{tree.ensure_parents(db, account_id, path, 'path')}/{path.rpartition('/')[2]}"
    if mode == "update" and existing is None and target == path and rev is not None:
        raise api_error("path/not_found/", f"There is no file at {path} to update.", NotFound)
    if existing is None:
        lower = target.lower()
        existing = db.insert(
            entries, id=rules.new_entry_id(db), account_id=account_id, tag="file", name=target.rpartition("/")[2],
            path_display=target, path_lower=lower, parent_lower=tree.parent_of(lower), is_deleted=False,
        )  # fmt: skip
    return metadata_object(db, tree.write_revision(db, existing, len(data), digest, content))


@tool()
def move(db: Database, from_path: Path, to_path: Path, autorename: bool = False) -> Metadata:
    """Move or rename a file or folder (with everything in it); its id, revisions and shared links follow it.

    Args:
        from_path: What to move.
        to_path: Its new path, including the name.
        autorename: On a conflict at to_path, use a free name instead of failing.
    """
    account_id = me(db)["account_id"]
    entry = tree.lookup(db, account_id, from_path, "from_lookup")
    to_lower = to_path.lower()
    if entry["tag"] == "folder" and to_lower.startswith(entry["path_lower"] + "/"):
        raise api_error("cant_move_folder_into_itself/", "You cannot move a folder into itself.")
    tree.check_writable(db, account_id, entry["path_lower"], "from_write")
    tree.check_writable(db, account_id, to_lower, "to")
    destination = tree.shared_root(db, account_id, tree.parent_of(to_lower)) if tree.parent_of(to_lower) else None
    if destination is not None and (entry["shared_folder_id"] or sharing.contains_shared(db, entry)):
        raise api_error("cant_nest_shared_folder/", "This move would put a shared folder inside another shared folder.")
    if to_lower == entry["path_lower"] and to_path == entry["path_display"]:
        raise api_error(f"to/conflict/{entry['tag']}/", f"There is already a {entry['tag']} at {to_path}.")
    parent = tree.ensure_parents(db, account_id, to_path, "to")
    target = f"{parent}/{to_path.rpartition('/')[2]}"
    if to_lower != entry["path_lower"]:
        target = tree.free_path(db, account_id, target, autorename, "to")
    return metadata_object(db, tree.relocate(db, entry, target))


@tool()
def copy(db: Database, from_path: Path, to_path: Path, autorename: bool = False) -> Metadata:
    """Copy a file or folder (with everything in it); copies get new ids and start with one revision.

    Args:
        from_path: What to copy.
        to_path: The copy's path, including the name.
        autorename: On a conflict at to_path, use a free name instead of failing.
    """
    account_id = me(db)["account_id"]
    entry = tree.lookup(db, account_id, from_path, "from_lookup")
    if entry["shared_folder_id"]:
        raise api_error("cant_copy_shared_folder/", "Shared folders can't be copied.")
    to_lower = to_path.lower()
    if entry["tag"] == "folder" and (to_lower + "/").startswith(entry["path_lower"] + "/"):
        raise api_error("cant_move_folder_into_itself/", "You cannot copy a folder into itself.")
    tree.check_writable(db, account_id, to_lower, "to")
    parent = tree.ensure_parents(db, account_id, to_path, "to")
    target = tree.free_path(db, account_id, f"{parent}/{to_path.rpartition('/')[2]}", autorename, "to")
    return metadata_object(db, tree.duplicate(db, entry, target))


@tool()
def delete(db: Database, path: Path) -> Metadata:
    """Delete a file or folder (a folder with everything in it). Deleted files keep their revisions and can be
    brought back with restore; their shared links stop working while they are deleted.

    Args:
        path: What to delete.
    """
    account_id = me(db)["account_id"]
    entry = tree.lookup(db, account_id, path, "path_lookup")
    tree.check_writable(db, account_id, entry["path_lower"], "path_write")
    shown = metadata_object(db, entry)
    tree.remove(db, entry)
    return shown


@tool(read_only=True)
def list_revisions(db: Database, path: Path, limit: Annotated[int, Field(ge=1, le=100)] = 10) -> ListRevisionsResult:
    """A file's revisions, newest first (also of a deleted file), each with its rev, size, content_hash and time.

    Args:
        path: The file.
        limit: How many revisions at most.
    """
    account_id = me(db)["account_id"]
    entry = tree.lookup(db, account_id, path, deleted=True)
    if entry["tag"] != "file":
        raise api_error("path/not_file/", f"{entry['path_display']} is a folder; only files have revisions.")
    order = "server_modified DESC, rev DESC"
    revs = db.select(revisions, "entry_id = ?", [entry["id"]], order_by=order, limit=limit)
    return ListRevisionsResult(is_deleted=entry["is_deleted"], entries=[revision_object(entry, r) for r in revs])


@tool()
def restore(db: Database, path: Path, rev: Rev) -> Metadata:
    """Restore a file (also a deleted one) to an earlier revision; this saves that content as a new revision.

    Args:
        path: The file, live or deleted.
        rev: The revision to bring back, from list_revisions.
    """
    account_id = me(db)["account_id"]
    entry = tree.lookup(db, account_id, path, "path_lookup", deleted=True)
    found = db.find(revisions, rev=rev, entry_id=entry["id"])
    if not found:
        raise api_error("invalid_revision/", f"{rev} is not a revision of {entry['path_display']}.")
    tree.check_writable(db, account_id, entry["path_lower"], "path_write")
    if entry["is_deleted"]:
        if tree.live_at(db, account_id, entry["path_lower"]) is not None:
            raise api_error("path_write/conflict/file/", f"Something else now lives at {entry['path_display']}.")
        tree.ensure_parents(db, account_id, entry["path_display"], "path_write")
    old = found[0]
    if not entry["is_deleted"] and old["rev"] == entry["rev"]:
        return metadata_object(db, entry)
    return metadata_object(db, tree.write_revision(db, entry, old["size"], old["content_hash"], old["content"]))


# ---------------------------------------------------------------- shared links


@tool(read_only=True)
def list_shared_links(db: Database, path: Path | None = None, direct_only: bool = False) -> list[SharedLinkMetadata]:
    """The account's shared links: all of them, or those of one file or folder (and, unless direct_only, of the
    folders above it). Links of deleted files are not listed.

    Args:
        path: Only links for this file or folder.
        direct_only: With path, leave out links of the folders above it.
    """
    account_id = me(db)["account_id"]
    links = db.find(shared_links, account_id=account_id, order_by=[shared_links.c.created])
    if path is not None:
        entry = tree.lookup(db, account_id, path)
        wanted = {entry["path_lower"]} | (set() if direct_only else set(tree.ancestors(entry["path_lower"])))
        links = [k for k in links if db.get(entries, k["entry_id"])["path_lower"] in wanted]
    return [link_object(db, k) for k in links if not db.get(entries, k["entry_id"])["is_deleted"]]


@tool()
def create_shared_link_with_settings(
    db: Database,
    path: Path,
    requested_visibility: Visibility = "public",
    link_password: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
    expires: IsoTimestamp | None = None,
    allow_download: bool = True,
) -> SharedLinkMetadata:
    """Create a shared link to a file or folder. Only one link per item: if one exists the call fails with
    shared_link_already_exists (change it with modify_shared_link_settings). Passwords, expiry and disabling
    downloads need Pro or Business; team_only needs Business.

    Args:
        path: The file or folder.
        requested_visibility: public, team_only or password (then link_password is required).
        link_password: The password for a 'password' link.
        expires: When the link stops working, e.g. 2025-07-01T00:00:00Z.
        allow_download: Whether people with the link can download.
    """
    account = me(db)
    entry = tree.lookup(db, account["account_id"], path)
    existing = db.find(shared_links, entry_id=entry["id"], account_id=account["account_id"])
    if existing:
        raise api_error(
            "shared_link_already_exists/", f"{entry['path_display']} already has a link: {existing[0]['url']}"
        )
    settings = {"requested_visibility": requested_visibility, "link_password": link_password, "expires": expires,
                "allow_download": allow_download}  # fmt: skip
    rules.check_link_settings(account, settings, db.now_iso())
    link = db.insert(
        shared_links, url=rules.new_link_url(db, entry), entry_id=entry["id"], account_id=account["account_id"],
        link_password=link_password if requested_visibility == "password" else None, expires=expires,
        requested_visibility=requested_visibility, allow_download=allow_download, created=db.now_iso(),
    )  # fmt: skip
    return link_object(db, link)


@tool()
def modify_shared_link_settings(
    db: Database,
    url: LinkUrl,
    requested_visibility: Visibility | None = None,
    link_password: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
    expires: IsoTimestamp | None = None,
    remove_expiration: bool = False,
    allow_download: bool | None = None,
) -> SharedLinkMetadata:
    """Change a shared link's settings; settings left out keep their value.

    Args:
        url: The link's URL.
        requested_visibility: public, team_only or password.
        link_password: A new password (needed when switching to 'password' on a link without one).
        expires: A new expiry time.
        remove_expiration: Make the link never expire.
        allow_download: Whether people with the link can download.
    """
    account = me(db)
    link = db.find_one(
        shared_links, url=url, account_id=account["account_id"], not_found="shared_link_not_found/ no such link."
    )
    if expires and remove_expiration:
        raise InvalidRequest("settings_error/invalid_settings/ give expires or remove_expiration, not both.")
    visibility = requested_visibility or link["requested_visibility"]
    password = link_password or (link["link_password"] if visibility == "password" else None)
    settings = {"requested_visibility": requested_visibility, "link_password": password, "expires": expires,
                "allow_download": allow_download}  # fmt: skip
    if requested_visibility is None and visibility == "password":
        settings["requested_visibility"] = "password"
    rules.check_link_settings(account, settings, db.now_iso())
    changes = {"requested_visibility": visibility, "link_password": password if visibility == "password" else None}
    if expires or remove_expiration:
        changes["expires"] = expires
    if allow_download is not None:
        changes["allow_download"] = allow_download
    return link_object(db, db.update(shared_links, url, **changes))


@tool()
def revoke_shared_link(db: Database, url: LinkUrl) -> None:
    """Revoke a shared link; it stops working for everyone.

    Args:
        url: The link's URL.
    """
    account_id = me(db)["account_id"]
    db.find_one(shared_links, url=url, account_id=account_id, not_found="shared_link_not_found/ no such link.")
    db.delete(shared_links, url)


# ---------------------------------------------------------------- shared folders


@tool()
def share_folder(
    db: Database,
    path: Path,
    acl_update_policy: Literal["owner", "editors"] = "owner",
    member_policy: Literal["team", "anyone"] = "anyone",
    shared_link_policy: Literal["anyone", "members"] = "anyone",
) -> SharedFolderMetadata:
    """Share a folder the account owns, making it the owner; then add members. A folder inside a shared folder,
    or one containing one, cannot be shared.

    Args:
        path: The folder.
        acl_update_policy: Who may add, remove and change members: the owner only, or editors too.
        member_policy: 'team' allows only members of the account's Business team.
        shared_link_policy: 'members' lets only folder members open shared links to its contents.
    """
    account = me(db)
    entry = tree.lookup(db, account["account_id"], path, "bad_path")
    sharing.check_shareable(db, entry)
    if member_policy == "team" and account["account_type"] != "business":
        raise api_error("team_policy_disallows_member_policy/", "member_policy 'team' needs a Dropbox Business team.")
    folder = db.insert(
        shared_folders, shared_folder_id=rules.new_shared_folder_id(db), entry_id=entry["id"], name=entry["name"],
        owner_email=account["email"], acl_update_policy=acl_update_policy, member_policy=member_policy,
        shared_link_policy=shared_link_policy, time_invited=db.now_iso(),
    )  # fmt: skip
    db.update(entries, entry["id"], shared_folder_id=folder["shared_folder_id"])
    db.insert(
        folder_members, shared_folder_id=folder["shared_folder_id"], email=account["email"],
        display_name=account["name"], account_id=account["account_id"], access_level="owner", status="active",
    )  # fmt: skip
    return shared_folder_object(db, folder, "owner")


@tool(read_only=True)
def list_folder_members(db: Database, shared_folder_id: SharedFolderId) -> list[MemberInfo]:
    """The members and invitees of a shared folder the account belongs to, with their access levels.

    Args:
        shared_folder_id: The folder's shared_folder_id (from its metadata's sharing_info).
    """
    sharing.member_folder(db, me(db)["account_id"], shared_folder_id)
    return [member_object(m) for m in db.find(folder_members, shared_folder_id=shared_folder_id)]


@tool()
def add_folder_member(
    db: Database,
    shared_folder_id: SharedFolderId,
    members: Annotated[list[AddMember], Field(min_length=1, max_length=20)],
    custom_message: Annotated[str, Field(max_length=1000)] | None = None,
) -> list[MemberInfo]:
    """Invite people to a shared folder with an access level. The owner may always; editors only when the
    folder's acl_update_policy is 'editors'; a 'team' member policy refuses emails outside the team. People
    already in the folder keep their access (change it with update_folder_member).

    Args:
        shared_folder_id: The folder.
        members: Emails and access levels.
        custom_message: A note for the invitation email.
    """
    account = me(db)
    folder = sharing.manageable_folder(db, account["account_id"], shared_folder_id)
    for member in members:
        email = member.email.lower()
        if folder["member_policy"] == "team" and email.rpartition("@")[2] != account["team_domain"]:
            raise api_error("cant_share_outside_team/", f"Only members of the team can join this folder ({email}).")
        if db.find(folder_members, shared_folder_id=shared_folder_id, email=email):
            continue
        user = db.find(users, email=email)
        db.insert(
            folder_members, shared_folder_id=shared_folder_id, email=email, access_level=member.access_level,
            display_name=user[0]["name"] if user else None, account_id=user[0]["account_id"] if user else None,
            status="active" if user else "invited",
        )  # fmt: skip
    return [member_object(m) for m in db.find(folder_members, shared_folder_id=shared_folder_id)]


@tool()
def update_folder_member(
    db: Database, shared_folder_id: SharedFolderId, email: Email, access_level: MemberLevel
) -> MemberInfo:
    """Change a member's access level on a shared folder (not the owner's).

    Args:
        shared_folder_id: The folder.
        email: The member's email.
        access_level: editor, viewer or viewer_no_comment.
    """
    sharing.manageable_folder(db, me(db)["account_id"], shared_folder_id)
    member = sharing.folder_member(db, shared_folder_id, email, "no_permission/")
    return member_object(db.update(folder_members, member["id"], access_level=access_level))


@tool()
def remove_folder_member(db: Database, shared_folder_id: SharedFolderId, email: Email) -> None:
    """Remove a member or invitee from a shared folder; the owner cannot be removed.

    Args:
        shared_folder_id: The folder.
        email: The member's email.
    """
    sharing.manageable_folder(db, me(db)["account_id"], shared_folder_id)
    member = sharing.folder_member(db, shared_folder_id, email, "folder_owner/")
    db.delete(folder_members, member["id"])


# ---------------------------------------------------------------- file requests


@tool(read_only=True)
def list_file_requests(db: Database) -> list[FileRequest]:
    """The account's file requests, open and closed, newest first."""
    account_id = me(db)["account_id"]
    rows = db.find(file_requests, account_id=account_id, order_by=[file_requests.c.created.desc()])
    return [file_request_object(db, r) for r in rows]


@tool()
def create_file_request(
    db: Database,
    title: Annotated[NonBlankText, Field(max_length=140)],
    destination: Path,
    deadline: IsoTimestamp | None = None,
    allow_late_uploads: GracePeriod | None = None,
    open: bool = True,
    description: Annotated[str, Field(max_length=1000)] | None = None,
) -> FileRequest:
    """Create a file request: a link people use to upload files into a folder (created if missing). Deadlines
    need a Professional or Business account and must lie ahead.

    Args:
        title: The request's title.
        destination: The folder uploads go to.
        deadline: When uploads close, e.g. 2025-07-01T17:00:00Z.
        allow_late_uploads: Grace period after the deadline (needs a deadline).
        open: Whether it accepts uploads now.
        description: What to upload.
    """
    account = me(db)
    rules.check_deadline(account, deadline, allow_late_uploads, db.now_iso())
    folder = sharing.request_destination(db, account["account_id"], destination)
    row = db.insert(
        file_requests, id=rules.new_file_request_id(db), account_id=account["account_id"], title=title.strip(),
        destination_id=folder["id"], description=description, deadline=deadline,
        allow_late_uploads=allow_late_uploads, is_open=open, file_count=0, created=db.now_iso(),
    )  # fmt: skip
    return file_request_object(db, row)


@tool()
def update_file_request(
    db: Database,
    id: Annotated[str, Field(pattern=r"^[-_0-9a-zA-Z]+$")],
    title: Annotated[NonBlankText, Field(max_length=140)] | None = None,
    destination: Path | None = None,
    deadline: IsoTimestamp | None = None,
    clear_deadline: bool = False,
    allow_late_uploads: GracePeriod | None = None,
    open: bool | None = None,
    description: Annotated[str, Field(max_length=1000)] | None = None,
) -> FileRequest:
    """Change a file request: retitle, move its destination, set or clear the deadline, close or reopen it.

    Args:
        id: The file request's id.
        title: A new title.
        destination: A new destination folder.
        deadline: A new deadline.
        clear_deadline: Remove the deadline.
        allow_late_uploads: A new grace period (needs a deadline).
        open: Close (false) or reopen (true).
        description: A new description.
    """
    account = me(db)
    row = db.find_one(
        file_requests,
        id=id,
        account_id=account["account_id"],
        not_found="not_found/ This file request ID was not found.",
    )
    if deadline and clear_deadline:
        raise InvalidRequest("validation_error/ give deadline or clear_deadline, not both.")
    new_deadline = None if clear_deadline else deadline or row["deadline"]
    late = None if clear_deadline else allow_late_uploads or row["allow_late_uploads"]
    if deadline or allow_late_uploads:
        rules.check_deadline(account, new_deadline, allow_late_uploads, db.now_iso())
    changes: dict[str, object] = {"deadline": new_deadline, "allow_late_uploads": late}
    if destination is not None:
        changes["destination_id"] = sharing.request_destination(db, account["account_id"], destination)["id"]
    if title is not None:
        changes["title"] = title.strip()
    if open is not None:
        changes["is_open"] = open
    if description is not None:
        changes["description"] = description
    return file_request_object(db, db.update(file_requests, id, **changes))


@tool()
def delete_file_request(
    db: Database,
    ids: Annotated[list[Annotated[str, Field(pattern=r"^[-_0-9a-zA-Z]+$")]], Unordered, Field(min_length=1)],
) -> list[FileRequest]:
    """Delete file requests; only closed ones can be deleted (close them first with update_file_request).

    Args:
        ids: The file requests' ids.
    """
    account_id = me(db)["account_id"]
    rows = [
        db.find_one(file_requests, id=i, account_id=account_id, not_found=f"not_found/ {i} was not found.") for i in ids
    ]
    if any(r["is_open"] for r in rows):
        raise api_error("file_request_open/", "One or more file requests are currently open; close them first.")
    gone = [file_request_object(db, r) for r in rows]
    for r in rows:
        db.delete(file_requests, r["id"])
    return gone
