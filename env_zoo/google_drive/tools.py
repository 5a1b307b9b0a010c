"""Google Drive API v3 tools as a signed-in user sees them: files and folders (search with Drive's query language,
create, rename, move, star, trash, delete, copy), permissions (sharing, ownership, expiration), revisions, shared
drives and their restrictions, comments and replies, and access requests; plus the user's own sign-in (the OAuth
consent screen)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, paginate, tool
from envfactory_gym.fields import ErrorText, NonEmptyText, page_size, text

from . import sharing, tree
from .access import Access, at_least, signed_in, user_row
from .errors import bad_request, conflict, forbidden, insufficient, not_found
from .objects import (
    AboutObject,
    AccessProposalList,
    CommentList,
    CommentObject,
    DriveList,
    DriveObject,
    FileList,
    FileObject,
    PermissionList,
    PermissionObject,
    RevisionList,
    RevisionObject,
    StorageQuota,
    UserRef,
)
from .query import compile_query
from .rules import DOCS_EDITORS, FOLDER, KEEP_FOREVER_LIMIT, new_binary_revision_id, new_comment_id, new_file_id
from .schema import access_proposals, comments, domains, drives, files, replies, revisions, sessions, stars, users
from .search import search
from .view import Render

GoogleType = Literal[
    "application/vnd.google-apps.folder",
    "application/vnd.google-apps.document",
    "application/vnd.google-apps.spreadsheet",
    "application/vnd.google-apps.presentation",
    "application/vnd.google-apps.form",
    "application/vnd.google-apps.drawing",
]
Role = Literal["owner", "organizer", "fileOrganizer", "writer", "commenter", "reader"]
GranteeType = Literal["user", "group", "domain", "anyone"]
Corpora = Literal["user", "drive", "allDrives", "domain"]
OneParent = Annotated[
    list[str],
    Field(min_length=1, max_length=1),
    ErrorText("403 cannotAddParent: Increasing the number of parents is not allowed: an item has exactly one parent."),
]
OrderBy = Annotated[
    str,
    Field(
        pattern=r"^\s*[A-Za-z_]+( (asc|desc))?(\s*,\s*[A-Za-z_]+( (asc|desc))?)*\s*$",
        description="comma-separated keys, each optionally followed by desc",
    ),
]
FileId = Annotated[str, Field(min_length=1)]


class SignedIn(BaseModel):
    """Who granted the app access, and the scope they granted."""

    user: UserRef
    scope: str


class Deleted(BaseModel):
    """What files.delete removed for good."""

    id: str
    name: str
    itemsDeleted: int = Field(description="the item and everything deleted with it")


class TrashEmptied(BaseModel):
    """What emptying the trash removed for good."""

    itemsDeleted: int
    bytesFreed: str


class PermissionDeleted(BaseModel):
    """A permission that was removed."""

    fileId: str
    permissionId: str
    deleted: bool = True


class ProposalResolved(BaseModel):
    """How an access proposal was resolved."""

    fileId: str
    proposalId: str
    action: str
    permission: PermissionObject | None = Field(description="the access granted, when accepted")


# ---------------------------------------------------------------- helpers


def _me(db: Database, write: bool = False) -> Access:
    return Access(db, signed_in(db, write))


def _file(db: Database, access: Access, file_id: str) -> FileObject:
    row, role = access.file(file_id)
    return Render(db, access).file(row, role)


def _target(access: Access, file_id: str) -> sharing.Target:
    """A file or folder, or a shared drive (whose permissions are its members)."""
    drive = access.drive(file_id.strip())
    if drive is not None:
        found, role = access.shared_drive(file_id)
        return sharing.Target(found, role, True)
    row, role = access.file(file_id)
    return sharing.Target(row, role, False)


def _revisable(access: Access, file_id: str) -> tuple[dict, str]:
    row, role = access.file(file_id)
    if row["mime_type"] == FOLDER:
        raise forbidden("revisionsNotSupported", "The file does not support revisions.")
    access.require(role, "writer")
    return row, role


def _revision(db: Database, row: dict, revision_id: str) -> dict:
    found = db.find(revisions, file_id=row["id"], revision_id=revision_id.strip())
    if not found:
        raise not_found(f"Revision not found: {revision_id}.")
    return found[0]


def _commentable(access: Access, file_id: str) -> tuple[dict, str]:
    row, role = access.file(file_id)
    if row["mime_type"] == FOLDER:
        raise bad_request("Folders don't have comments.")
    return row, role


# ---------------------------------------------------------------- the user (OAuth consent screen)


@tool(user_only=True)
def sign_in(db: Database, email: NonEmptyText, scope: Literal["drive", "drive.readonly"] = "drive") -> SignedIn:
    """(User only, on Google's consent screen) The user signs in with their Google account and lets the app use
    their Google Drive: drive (see, edit, create and delete their files) or drive.readonly (see and download only).

    Args:
        email: The user's Google account address.
        scope: drive or drive.readonly.
    """
    person = user_row(db, email)
    if person is None:
        raise not_found("Couldn't find your Google Account.")
    db.start_session(sessions, email=person["email"], scope=scope)
    return SignedIn(
        user=UserRef(
            displayName=person["display_name"],
            emailAddress=person["email"],
            permissionId=person["permission_id"],
            me=True,
        ),
        scope=scope,
    )


@tool(read_only=True)
def about_get(db: Database) -> AboutObject:
    """Get the signed-in user (name, email, permissionId), their storage use (files in the trash count until it is
    emptied), their organization's sharing policy and the scope they granted the app."""
    me = signed_in(db)
    owned = db.find(files, owner_email=me.email)
    in_drive = sum(r["size"] or 0 for r in owned)
    in_trash = sum(r["size"] or 0 for r in owned if r["trashed"])
    person = db.get(users, me.email)
    policy = db.find(domains, name=me.domain) if me.domain else []
    return AboutObject(
        user=UserRef(displayName=me.display_name, emailAddress=me.email, permissionId=me.permission_id, me=True),
        storageQuota=StorageQuota(
            limit=str(person["storage_limit"]),
            usage=str(in_drive),
            usageInDrive=str(in_drive),
            usageInDriveTrash=str(in_trash),
        ),
        domain=me.domain,
        domainSharingPolicy=policy[0]["sharing_policy"] if policy else "allowed",
        trustedDomains=policy[0]["trusted_domains"] if policy else [],
        canCreateDrives=me.domain is not None,
        scope=me.scope,
    )


# ---------------------------------------------------------------- files


@tool(read_only=True)
def files_list(
    db: Database,
    q: str | None = None,
    corpora: Corpora = "user",
    driveId: str | None = None,
    includeItemsFromAllDrives: bool = False,
    orderBy: OrderBy | None = None,
    pageSize: page_size(1000) = 100,
    pageToken: str | None = None,
) -> FileList:
    """Search or list the files and folders the user can reach. Trashed items are included unless the query says
    trashed = false. Corpora: user (My Drive and what is shared with the user; shared drives too with
    includeItemsFromAllDrives), drive (one shared drive, with driveId), allDrives, domain (also what the
    organization can find). Query terms: name contains/= 'x' (contains matches the start of a word), fullText
    contains 'x', mimeType = 'application/vnd.google-apps.folder', 'FOLDER_ID' in parents ('root' is My Drive),
    'email' in owners/writers/readers ('me' is the user), trashed = false, starred = true, sharedWithMe,
    modifiedTime > '2025-06-01T00:00:00', createdTime, visibility = 'anyoneWithLink'; join with and, or, not and
    parentheses.

    Args:
        q: A Drive search query, e.g. "name contains 'budget' and trashed = false".
        corpora: user, drive, allDrives or domain.
        driveId: The shared drive to search (only with corpora drive).
        includeItemsFromAllDrives: Include items of shared drives (needed for corpora drive and allDrives).
        orderBy: Sort keys: createdTime, folder, modifiedTime, name, name_natural, quotaBytesUsed, recency, starred,
            each optionally followed by desc, e.g. "folder,modifiedTime desc" (default: folders first, by name).
        pageSize: Items per page, 1 to 1000.
        pageToken: The nextPageToken of the previous page.
    """
    me = signed_in(db)
    if (driveId is not None) != (corpora == "drive"):
        raise bad_request("The driveId parameter must be specified if and only if corpora is set to drive.")
    if corpora in ("drive", "allDrives") and not includeItemsFromAllDrives:
        raise bad_request(
            "The includeItemsFromAllDrives parameter must be set to true when corpora is drive or allDrives."
        )
    if driveId is not None:
        Access(db, me).shared_drive(driveId)
    query = compile_query(q or "", {"root": me.root_id, "me": me.email})
    rows, facts, access = search(
        db, me, query, corpora, driveId.strip() if driveId else None, includeItemsFromAllDrives, orderBy
    )
    page = paginate(rows, pageSize, pageToken, max_page_size=1000)
    render = Render(db, access)
    return FileList(
        files=[render.summary(r, r["id"] in facts.starred_ids, facts.shared(r)) for r in page.results],
        nextPageToken=page.next_cursor,
    )


@tool(read_only=True)
def files_get(db: Database, fileId: FileId) -> FileObject:
    """Get a file or folder in full: owner, parent, where it sits (driveId for a shared drive), trash state,
    description, head revision, sharing settings and what the user may do with it (capabilities).

    Args:
        fileId: The file's or folder's id ('root' for My Drive).
    """
    access = _me(db)
    return _file(db, access, fileId)


@tool()
def files_create(
    db: Database,
    name: Annotated[str, Field(min_length=1, max_length=32767)],
    mimeType: GoogleType = "application/vnd.google-apps.folder",
    parents: OneParent | None = None,
    description: str | None = None,
) -> FileObject:
    """Create a folder or an empty Google Doc, Sheet, Slides deck, Form or Drawing. It lands in My Drive unless
    parents names a folder (or a shared drive's id, for its top level) the user can add to; items created in a shared
    drive belong to the drive. Names need not be unique.

    Args:
        name: The new item's name.
        mimeType: application/vnd.google-apps.folder (default), .document, .spreadsheet, .presentation, .form or
            .drawing.
        parents: The one folder (or shared drive id) to create it in; default My Drive.
        description: A short description.
    """
    access = _me(db, write=True)
    if parents:
        parent_id, drive_id, role = tree.destination(access, parents[0])
        if not at_least(role, "writer"):
            raise insufficient(f"The user does not have sufficient permissions to add items to {parents[0]}.")
    else:
        parent_id, drive_id = access.me.root_id, None
    now, me = db.now_iso(), access.me.email
    new_id = new_file_id(db, mimeType)
    editors = mimeType in DOCS_EDITORS
    db.insert(
        files,
        id=new_id,
        name=name,
        mime_type=mimeType,
        description=description or "",
        parent_id=parent_id,
        drive_id=drive_id,
        owner_email=None if drive_id else me,
        is_root=False,
        trashed=False,
        explicitly_trashed=False,
        trashing_user=None,
        trashed_time=None,
        created_time=now,
        modified_time=now,
        last_modifying_user=me,
        size=None,
        head_revision_id="1" if editors else None,
        version=1,
        copy_requires_writer_permission=False,
        writers_can_share=True,
        text="",
    )
    if editors:
        db.insert(
            revisions,
            key=f"{new_id}|1",
            file_id=new_id,
            revision_id="1",
            number=1,
            mime_type=mimeType,
            modified_time=now,
            last_modifying_user=me,
            keep_forever=False,
            original_filename=None,
            md5_checksum=None,
            size=None,
            restored_from=None,
        )
    if not drive_id:
        tree.owner_permission(db, new_id, me)
    return _file(db, access, new_id)


@tool()
def files_update(
    db: Database,
    fileId: FileId,
    name: Annotated[str, Field(min_length=1, max_length=32767)] | None = None,
    description: str | None = None,
    starred: bool | None = None,
    trashed: bool | None = None,
    addParents: str | None = None,
    removeParents: str | None = None,
    copyRequiresWriterPermission: bool | None = None,
    writersCanShare: bool | None = None,
) -> FileObject:
    """Change a file or folder: rename it, describe it, star it (stars are the user's own), move it to the trash or
    bring it back (only the owner can; in a shared drive, content managers and managers; a folder takes its
    contents along), move it (addParents and removeParents together: an item has exactly one parent), or change its
    sharing settings. Moving within a shared drive needs content manager, out of one needs manager; files (not
    folders) move into a shared drive, by their owner or by a writer whose owner is a member.

    Args:
        fileId: The file's or folder's id.
        name: The new name.
        description: The new description ("" clears it).
        starred: Star (true) or unstar (false) it for the user.
        trashed: true moves it to the trash, false restores it.
        addParents: The folder (or shared drive id) to move it into; give removeParents too.
        removeParents: The folder it leaves (its current parent).
        copyRequiresWriterPermission: true: readers and commenters can't copy, print or download it.
        writersCanShare: false: only the owner can share it (My Drive items only; owner only).
    """
    access = _me(db, write=True)
    row, role = access.file(fileId)
    changes = {
        k: v
        for k, v in {
            "name": name,
            "description": description,
            "copy_requires_writer_permission": copyRequiresWriterPermission,
            "writers_can_share": writersCanShare,
        }.items()
        if v is not None
    }
    if not changes and starred is None and trashed is None and addParents is None and removeParents is None:
        raise bad_request("Nothing to change: give at least one field.")
    if name is not None or description is not None:
        access.require(role, "writer")
    if copyRequiresWriterPermission is not None:
        if row["mime_type"] == FOLDER:
            raise bad_request("copyRequiresWriterPermission can't be set on folders.")
        if not access.can_share(row, role):
            raise insufficient()
    if writersCanShare is not None:
        if row["drive_id"]:
            raise bad_request("writersCanShare is not supported for items in shared drives.")
        if role != "owner":
            raise insufficient("Only the owner can change whether editors may share this item.")
    if addParents is not None or removeParents is not None:
        tree.move(db, access, row, role, addParents, removeParents)
    if trashed is not None:
        tree.set_trashed(db, access, access.row(row["id"]) or row, role, trashed)
    if starred is not None:
        key = f"{access.me.email}|{row['id']}"
        if starred and not db.find(stars, key=key):
            db.insert(stars, key=key, email=access.me.email, file_id=row["id"])
        elif not starred and db.find(stars, key=key):
            db.delete(stars, key)
    if changes:
        current = db.get(files, row["id"])
        db.update(
            files,
            row["id"],
            **changes,
            modified_time=db.now_iso(),
            last_modifying_user=access.me.email,
            version=current["version"] + 1,
        )
    fresh = Access(db, access.me)
    return _file(db, fresh, row["id"])


@tool()
def files_copy(
    db: Database,
    fileId: FileId,
    name: Annotated[str, Field(min_length=1, max_length=32767)] | None = None,
    parents: OneParent | None = None,
    description: str | None = None,
) -> FileObject:
    """Copy a file (not a folder). The copy is the user's (or the shared drive's it lands in), named "Copy of ..."
    unless a name is given, and shares nothing; it goes next to the original when the user can add there, else to
    My Drive. Readers and commenters can't copy a file that restricts copying (or any file of a shared drive that
    does).

    Args:
        fileId: The file to copy.
        name: The copy's name.
        parents: The one folder (or shared drive id) to put the copy in.
        description: The copy's description (default: the original's).
    """
    access = _me(db, write=True)
    row, role = access.file(fileId)
    copied = tree.copy_file(db, access, row, role, name, parents[0] if parents else None, description)
    return _file(db, Access(db, access.me), copied["id"])


@tool()
def files_delete(db: Database, fileId: FileId) -> Deleted:
    """Delete a file or folder permanently, without the trash: it can't be recovered. Only its owner can (in a
    shared drive, a manager); a folder's contents owned by the user go with it, other people's files in it go back to
    their owners' My Drive.

    Args:
        fileId: The file's or folder's id.
    """
    access = _me(db, write=True)
    row, role = access.file(fileId)
    gone = tree.delete_forever(db, access, row, role)
    return Deleted(id=row["id"], name=row["name"], itemsDeleted=len(gone))


@tool()
def files_empty_trash(db: Database, driveId: str | None = None) -> TrashEmptied:
    """Permanently delete everything in the user's trash (the items they own), or in a shared drive's trash (its
    managers only). This can't be undone.

    Args:
        driveId: Empty this shared drive's trash instead of the user's.
    """
    access = _me(db, write=True)
    if driveId is not None:
        drive, role = access.shared_drive(driveId)
        access.require(role, "organizer", "Only managers of a shared drive can empty its trash.")
        trashed = db.find(files, drive_id=drive["id"], explicitly_trashed=True)
    else:
        trashed = db.find(files, owner_email=access.me.email, explicitly_trashed=True, drive_id=None)
    deleted: list[dict] = []
    for row in trashed:
        if db.find(files, id=row["id"]):
            deleted += tree.delete_forever(db, access, row, access.role(row) or "reader")
    return TrashEmptied(itemsDeleted=len(deleted), bytesFreed=str(sum(r["size"] or 0 for r in deleted)))


# ---------------------------------------------------------------- permissions


@tool(read_only=True)
def permissions_list(
    db: Database, fileId: FileId, pageSize: page_size(100) = 100, pageToken: str | None = None
) -> PermissionList:
    """List who can reach an item and how: its own permissions first, then those inherited from the folders above
    it and from shared drive membership (inherited=true, with inheritedFrom). For a shared drive's id: its members.
    Needs edit access to the item (any member may list a shared drive's members).

    Args:
        fileId: The file's, folder's or shared drive's id.
        pageSize: Permissions per page, 1 to 100.
        pageToken: The nextPageToken of the previous page.
    """
    access = _me(db)
    target = _target(access, fileId)
    if not target.is_drive and not (at_least(target.role, "writer") or access.can_share(target.row, target.role)):
        raise insufficient()
    found = Render(db, access).permissions(target.id, None if target.is_drive else target.row)
    page = paginate(found, pageSize, pageToken)
    return PermissionList(permissions=page.results, nextPageToken=page.next_cursor)


@tool()
def permissions_create(
    db: Database,
    fileId: FileId,
    role: Role,
    type: GranteeType,
    emailAddress: str | None = None,
    domain: str | None = None,
    allowFileDiscovery: bool | None = None,
    expirationTime: str | None = None,
    transferOwnership: bool = False,
    moveToNewOwnersRoot: bool = False,
    pendingOwner: bool = False,
    sendNotificationEmail: bool = True,
    emailMessage: str | None = None,
) -> PermissionObject:
    """Share an item (or add a member to a shared drive, giving the drive's id): with a person or a group
    (emailAddress), a whole domain (domain) or anyone with the link. Giving someone who already has access a new
    role replaces theirs. role owner (with transferOwnership) hands a My Drive item to another person of the same
    Workspace organization; the previous owner becomes a writer. Between personal Google accounts, make the person
    a writer with pendingOwner and they accept. Expiration dates: people and groups with reader or commenter only,
    within a year. The organization's policy and a shared drive's restrictions may forbid sharing outside.

    Args:
        fileId: The file's, folder's or shared drive's id.
        role: owner, organizer, fileOrganizer, writer, commenter or reader.
        type: user, group, domain or anyone.
        emailAddress: The person's or group's address (user, group).
        domain: The domain (domain).
        allowFileDiscovery: domain and anyone: whether it can be found by searching (default: a domain can, anyone
            only with the link).
        expirationTime: When access ends, RFC 3339 (e.g. 2025-07-31T23:59:59Z).
        transferOwnership: Required with role owner: acknowledges that ownership moves.
        moveToNewOwnersRoot: With an ownership transfer: put the item in the new owner's My Drive.
        pendingOwner: Propose the person (a writer) as the next owner (personal accounts).
        sendNotificationEmail: Email the person or group (can't be off for ownership transfers).
        emailMessage: A message for the notification email.
    """
    access = _me(db, write=True)
    target = _target(access, fileId)
    who = sharing.grantee(db, type, emailAddress, domain, bool(allowFileDiscovery))
    stored = sharing.grant(
        db,
        access,
        target,
        who,
        role,
        allowFileDiscovery,
        expirationTime,
        transferOwnership,
        moveToNewOwnersRoot,
        pendingOwner,
        sendNotificationEmail,
    )
    return Render(db, access).permission(stored)


@tool()
def permissions_update(
    db: Database,
    fileId: FileId,
    permissionId: Annotated[str, Field(min_length=1)],
    role: Role | None = None,
    expirationTime: str | None = None,
    removeExpiration: bool = False,
    transferOwnership: bool = False,
    pendingOwner: bool | None = None,
) -> PermissionObject:
    """Change a permission set on the item itself (inherited ones are changed where they come from): its role, its
    expiration, or whether its person is proposed as the next owner. role owner with transferOwnership makes that
    person the owner (a pending owner accepts this way, on their own permission).

    Args:
        fileId: The file's, folder's or shared drive's id.
        permissionId: The permission's id, from permissions_list.
        role: The new role.
        expirationTime: A new expiration time, RFC 3339.
        removeExpiration: Remove the expiration date.
        transferOwnership: Required with role owner.
        pendingOwner: Propose (true) or stop proposing (false) this writer as the next owner (personal accounts).
    """
    access = _me(db, write=True)
    target = _target(access, fileId)
    stored = sharing.update(
        db,
        access,
        target,
        permissionId.strip(),
        role,
        expirationTime,
        removeExpiration,
        transferOwnership,
        pendingOwner,
    )
    return Render(db, access).permission(stored)


@tool()
def permissions_delete(
    db: Database, fileId: FileId, permissionId: Annotated[str, Field(min_length=1)]
) -> PermissionDeleted:
    """Remove a permission set on the item (or a member of a shared drive). People may always remove their own
    access; the owner's permission can't be removed.

    Args:
        fileId: The file's, folder's or shared drive's id.
        permissionId: The permission's id, from permissions_list.
    """
    access = _me(db, write=True)
    target = _target(access, fileId)
    sharing.remove(db, access, target, permissionId.strip())
    return PermissionDeleted(fileId=target.id, permissionId=permissionId.strip())


# ---------------------------------------------------------------- revisions


@tool(read_only=True)
def revisions_list(
    db: Database, fileId: FileId, pageSize: page_size(1000) = 200, pageToken: str | None = None
) -> RevisionList:
    """List a file's revisions, oldest first (the last is the current content). Needs edit access. Revisions of
    uploaded files not kept forever are purged 30 days after newer content arrives.

    Args:
        fileId: The file's id.
        pageSize: Revisions per page, 1 to 1000.
        pageToken: The nextPageToken of the previous page.
    """
    access = _me(db)
    row, _ = _revisable(access, fileId)
    render = Render(db, access)
    found = [render.revision(r, row) for r in db.find(revisions, file_id=row["id"], order_by=[revisions.c.number])]
    page = paginate(found, pageSize, pageToken, max_page_size=1000)
    return RevisionList(revisions=page.results, nextPageToken=page.next_cursor)


@tool()
def revisions_update(
    db: Database, fileId: FileId, revisionId: Annotated[str, Field(min_length=1)], keepForever: bool
) -> RevisionObject:
    """Keep a revision of an uploaded file forever (never purged), at most 200 per file. Only files with binary
    content have this; once kept forever a revision can't be set back to false (only deleted).

    Args:
        fileId: The file's id.
        revisionId: The revision's id, from revisions_list.
        keepForever: true to keep it forever.
    """
    access = _me(db, write=True)
    row, _ = _revisable(access, fileId)
    revision = _revision(db, row, revisionId)
    if row["mime_type"] in DOCS_EDITORS:
        raise bad_request("keepForever is only available for revisions of files with binary content in Drive.")
    if revision["keep_forever"] and not keepForever:
        raise bad_request(
            "Bad Request. Cannot update a revision to false that is marked as keepForever.",
            "illegalKeepForeverModification",
        )
    if keepForever and not revision["keep_forever"]:
        kept = len(db.find(revisions, file_id=row["id"], keep_forever=True))
        if kept >= KEEP_FOREVER_LIMIT:
            raise forbidden(
                "keepForeverLimitExceeded", f"At most {KEEP_FOREVER_LIMIT} revisions of a file can be kept forever."
            )
        revision = db.update(revisions, revision["key"], keep_forever=True)
    return Render(db, access).revision(revision, row)


@tool()
def revisions_restore(db: Database, fileId: FileId, revisionId: Annotated[str, Field(min_length=1)]) -> RevisionObject:
    """Bring back an older version: its content is copied into a new current revision (Drive's "Restore this
    version"; the revisions in between stay). Needs edit access; not on a trashed file or the current revision.

    Args:
        fileId: The file's id.
        revisionId: The revision to restore, from revisions_list.
    """
    access = _me(db, write=True)
    row, _ = _revisable(access, fileId)
    old = _revision(db, row, revisionId)
    if row["trashed"]:
        raise bad_request("The file is in the trash; restore it from the trash first.")
    if old["revision_id"] == row["head_revision_id"]:
        raise conflict("alreadyCurrentRevision", "That revision is already the file's current version.")
    every = db.find(revisions, file_id=row["id"])
    number = max(r["number"] for r in every) + 1
    if row["mime_type"] in DOCS_EDITORS:
        new_id = str(max(int(r["revision_id"]) for r in every) + 1)
    else:
        new_id = new_binary_revision_id(db)
    now, me = db.now_iso(), access.me.email
    created = db.insert(
        revisions,
        key=f"{row['id']}|{new_id}",
        file_id=row["id"],
        revision_id=new_id,
        number=number,
        mime_type=old["mime_type"],
        modified_time=now,
        last_modifying_user=me,
        keep_forever=False,
        original_filename=old["original_filename"],
        md5_checksum=old["md5_checksum"],
        size=old["size"],
        restored_from=old["revision_id"],
    )
    db.update(
        files,
        row["id"],
        head_revision_id=new_id,
        size=old["size"],
        modified_time=now,
        last_modifying_user=me,
        version=row["version"] + 1,
    )
    return Render(db, access).revision(created, row)


# ---------------------------------------------------------------- shared drives


@tool(read_only=True)
def drives_list(
    db: Database, q: str | None = None, pageSize: page_size(100) = 10, pageToken: str | None = None
) -> DriveList:
    """List the shared drives the user is a member of, A-Z, with their restrictions and the user's role.

    Args:
        q: A query on name (name contains 'Projects'), hidden or createdTime.
        pageSize: Shared drives per page, 1 to 100.
        pageToken: The nextPageToken of the previous page.
    """
    access = _me(db)
    predicate = compile_query(q or "", {"root": access.me.root_id, "me": access.me.email}).predicate
    render, found = Render(db, access), []
    for drive in db.find(drives, order_by=[drives.c.name]):
        role = access.drive_role(drive)
        if role is None:
            continue
        row = {
            "name": drive["name"],
            "mime_type": "",
            "trashed": False,
            "created_time": drive["created_time"],
            "modified_time": drive["created_time"],
            "hidden": drive["hidden"],
        }
        if predicate(row, _DriveFacts()):
            found.append(render.drive(drive, role))
    page = paginate(found, pageSize, pageToken)
    return DriveList(drives=page.results, nextPageToken=page.next_cursor)


class _DriveFacts:
    """What a drives.list query can ask: only `hidden` besides name and createdTime."""

    def text(self, row: dict) -> str:
        return row["name"]

    def listed(self, field: str, row: dict) -> set[str]:
        raise bad_request(f"Shared drive queries can't use {field}.", "invalid")

    def flag(self, field: str, row: dict) -> bool:
        if field != "hidden":
            raise bad_request(f"Shared drive queries can't use {field}.", "invalid")
        return bool(row["hidden"])

    def visibility(self, row: dict) -> str:
        raise bad_request("Shared drive queries can't use visibility.", "invalid")


@tool()
def drives_update(
    db: Database,
    driveId: Annotated[str, Field(min_length=1)],
    name: Annotated[str, Field(min_length=1, max_length=255)] | None = None,
    copyRequiresWriterPermission: bool | None = None,
    domainUsersOnly: bool | None = None,
    driveMembersOnly: bool | None = None,
    sharingFoldersRequiresOrganizerPermission: bool | None = None,
    adminManagedRestrictions: bool | None = None,
) -> DriveObject:
    """Rename a shared drive or change its restrictions (managers only). When adminManagedRestrictions is on, only
    a Workspace administrator may change the restrictions. domainUsersOnly: only people of the organization reach its
    items; driveMembersOnly: only its members; copyRequiresWriterPermission: readers and commenters can't copy,
    print or download its files; sharingFoldersRequiresOrganizerPermission: only managers share folders.

    Args:
        driveId: The shared drive's id.
        name: The new name.
        copyRequiresWriterPermission: Restrict copying to writers and up.
        domainUsersOnly: Restrict access to the organization's people.
        driveMembersOnly: Restrict access to the drive's members.
        sharingFoldersRequiresOrganizerPermission: Only managers may share folders.
        adminManagedRestrictions: Only administrators may change the restrictions (administrators only).
    """
    access = _me(db, write=True)
    drive, role = access.shared_drive(driveId)
    access.require(role, "organizer", "Only managers (organizers) of a shared drive can change its settings.")
    restrictions = {
        k: v
        for k, v in {
            "copy_requires_writer_permission": copyRequiresWriterPermission,
            "domain_users_only": domainUsersOnly,
            "drive_members_only": driveMembersOnly,
            "sharing_folders_requires_organizer_permission": sharingFoldersRequiresOrganizerPermission,
            "admin_managed_restrictions": adminManagedRestrictions,
        }.items()
        if v is not None
    }
    if name is None and not restrictions:
        raise bad_request("Nothing to change: give a name or a restriction.")
    if restrictions and (drive["admin_managed_restrictions"] or "admin_managed_restrictions" in restrictions):
        if not (access.me.is_admin and access.me.domain == drive["domain"]):
            raise forbidden(
                "insufficientAdministratorPrivileges",
                "Only a Workspace administrator of "
                f"{drive['domain']} can change this shared drive's restrictions "
                "(adminManagedRestrictions).",
            )
    updated = db.update(drives, drive["id"], **restrictions, **({"name": name} if name is not None else {}))
    return Render(db, access).drive(updated, role)


# ---------------------------------------------------------------- comments


@tool(read_only=True)
def comments_list(
    db: Database,
    fileId: FileId,
    includeDeleted: bool = False,
    pageSize: page_size(100) = 20,
    pageToken: str | None = None,
) -> CommentList:
    """List a file's comment threads, oldest first, with their replies and whether they are resolved.

    Args:
        fileId: The file's id.
        includeDeleted: Include deleted comments.
        pageSize: Comments per page, 1 to 100.
        pageToken: The nextPageToken of the previous page.
    """
    access = _me(db)
    row, _ = _commentable(access, fileId)
    found = db.find(comments, file_id=row["id"], **({} if includeDeleted else {"deleted": False}))
    found.sort(key=lambda c: (c["created_time"], c["id"]))
    render = Render(db, access)
    page = paginate([render.comment(c) for c in found], pageSize, pageToken)
    return CommentList(comments=page.results, nextPageToken=page.next_cursor)


@tool()
def comments_create(
    db: Database, fileId: FileId, content: text(4096), quotedText: Annotated[str, Field(max_length=4096)] | None = None
) -> CommentObject:
    """Comment on a file (commenters and up).

    Args:
        fileId: The file's id.
        content: The comment, plain text.
        quotedText: The passage of the file the comment is about.
    """
    access = _me(db, write=True)
    row, role = _commentable(access, fileId)
    access.require(role, "commenter")
    now = db.now_iso()
    created = db.insert(
        comments,
        id=new_comment_id(db),
        file_id=row["id"],
        author_email=access.me.email,
        content=content,
        quoted_text=quotedText,
        resolved=False,
        deleted=False,
        created_time=now,
        modified_time=now,
    )
    return Render(db, access).comment(created)


@tool()
def replies_create(
    db: Database,
    fileId: FileId,
    commentId: Annotated[str, Field(min_length=1)],
    content: Annotated[str, Field(max_length=4096)] | None = None,
    action: Literal["resolve", "reopen"] | None = None,
) -> CommentObject:
    """Reply to a comment thread, and resolve or reopen it (commenters and up). Returns the whole thread.

    Args:
        fileId: The file's id.
        commentId: The comment's id, from comments_list.
        content: The reply, plain text (needed unless action is given).
        action: resolve or reopen the thread.
    """
    access = _me(db, write=True)
    row, role = _commentable(access, fileId)
    access.require(role, "commenter")
    found = db.find(comments, id=commentId.strip(), file_id=row["id"], deleted=False)
    if not found:
        raise not_found(f"Comment not found: {commentId}.")
    thread = found[0]
    if not (content or "").strip() and action is None:
        raise bad_request("A reply needs content unless it resolves or reopens the comment.")
    if action == "resolve" and thread["resolved"]:
        raise conflict("alreadyResolved", "The comment is already resolved.")
    if action == "reopen" and not thread["resolved"]:
        raise conflict("notResolved", "The comment is open; only a resolved comment can be reopened.")
    now = db.now_iso()
    db.insert(
        replies,
        id=new_comment_id(db),
        comment_id=thread["id"],
        author_email=access.me.email,
        content=(content or "").strip(),
        action=action,
        created_time=now,
    )
    changes = {"resolved": action == "resolve"} if action else {}
    updated = db.update(comments, thread["id"], modified_time=now, **changes)
    return Render(db, access).comment(updated)


# ---------------------------------------------------------------- access requests


@tool(read_only=True)
def accessproposals_list(
    db: Database, fileId: FileId, pageSize: page_size(100) = 20, pageToken: str | None = None
) -> AccessProposalList:
    """List the pending requests for access to a file or folder (only people who can share it may).

    Args:
        fileId: The file's or folder's id.
        pageSize: Proposals per page, 1 to 100.
        pageToken: The nextPageToken of the previous page.
    """
    access = _me(db)
    row, role = access.file(fileId)
    if not access.can_share(row, role):
        raise insufficient("The user is not an approver of access requests for this file.")
    found = db.find(access_proposals, file_id=row["id"], status="pending")
    found.sort(key=lambda p: (p["create_time"], p["id"]))
    render = Render(db, access)
    page = paginate([render.proposal(p) for p in found], pageSize, pageToken)
    return AccessProposalList(accessProposals=page.results, nextPageToken=page.next_cursor)


@tool()
def accessproposals_resolve(
    db: Database,
    fileId: FileId,
    proposalId: Annotated[str, Field(min_length=1)],
    action: Literal["ACCEPT", "DENY"],
    role: list[Literal["reader", "commenter", "writer"]] | None = None,
    sendNotification: bool = True,
) -> ProposalResolved:
    """Accept or deny a request for access. Accepting shares the item with the recipient in the role given (every
    sharing rule applies); role is required to accept.

    Args:
        fileId: The file's or folder's id.
        proposalId: The proposal's id, from accessproposals_list.
        action: ACCEPT or DENY.
        role: The role to grant when accepting (reader, commenter or writer); the highest given is used.
        sendNotification: Email the requester about the decision.
    """
    access = _me(db, write=True)
    row, my_role = access.file(fileId)
    if not access.can_share(row, my_role):
        raise insufficient("The user is not an approver of access requests for this file.")
    found = db.find(access_proposals, id=proposalId.strip(), file_id=row["id"], status="pending")
    if not found:
        raise not_found(f"Access proposal not found: {proposalId}.")
    proposal = found[0]
    granted = None
    if action == "ACCEPT":
        if not role:
            raise bad_request("role must contain at least one value when action is ACCEPT.")
        chosen = max(role, key=["reader", "commenter", "writer"].index)
        target = sharing.Target(row, my_role, False)
        who = sharing.grantee(db, "user", proposal["recipient_email"], None, False)
        granted = Render(db, access).permission(
            sharing.grant(db, access, target, who, chosen, None, None, False, False, False, sendNotification)
        )
    db.update(access_proposals, proposal["id"], status="accepted" if action == "ACCEPT" else "denied")
    return ProposalResolved(fileId=row["id"], proposalId=proposal["id"], action=action, permission=granted)
