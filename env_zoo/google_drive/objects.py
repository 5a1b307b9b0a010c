"""Drive API v3 resources as output models (File, Permission, Revision, Drive, Comment, AccessProposal, About and
their lists), and how stored rows become them for the signed-in user (ownedByMe, capabilities, inherited
permissions)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class UserRef(BaseModel):
    """A person as Drive shows them."""

    kind: str = "drive#user"
    displayName: str
    emailAddress: str
    permissionId: str | None = None
    me: bool = False


class Capabilities(BaseModel):
    """What the signed-in user may do with the item."""

    canEdit: bool
    canComment: bool
    canShare: bool = Field(description="add, change or remove its permissions")
    canCopy: bool
    canTrash: bool
    canUntrash: bool
    canDelete: bool = Field(description="delete it for good")
    canReadRevisions: bool
    canAddChildren: bool
    canMoveItemWithinDrive: bool
    canMoveItemOutOfDrive: bool
    canChangeCopyRequiresWriterPermission: bool


class FileSummary(BaseModel):
    """A file or folder as files.list returns it."""

    kind: str = "drive#file"
    id: str
    name: str
    mimeType: str
    parents: list[str] = Field(description="its one parent: a folder's id, or a shared drive's id at its top level")
    driveId: str | None = Field(description="the shared drive holding it; absent in My Drive")
    owners: list[str] = Field(description="owner's email address (empty in shared drives, which own their items)")
    modifiedTime: str
    trashed: bool
    starred: bool
    shared: bool
    size: str | None = Field(description="bytes; absent for folders and Google Docs, Sheets and Slides")


class FileObject(FileSummary):
    """A file or folder in full (files.get)."""

    description: str
    explicitlyTrashed: bool
    trashedTime: str | None
    trashingUser: UserRef | None
    createdTime: str
    ownedByMe: bool
    ownerDetails: list[UserRef]
    lastModifyingUser: UserRef | None
    headRevisionId: str | None
    version: str
    webViewLink: str
    copyRequiresWriterPermission: bool = Field(description="readers and commenters can't copy, print or download it")
    writersCanShare: bool = Field(description="editors may share it (My Drive only)")
    capabilities: Capabilities


class FileList(BaseModel):
    """One page of files."""

    kind: str = "drive#fileList"
    files: list[FileSummary]
    nextPageToken: str | None = None
    incompleteSearch: bool = False


class PermissionDetail(BaseModel):
    """Where a permission on an item comes from."""

    permissionType: str = Field(description="file, or member (shared drive membership)")
    role: str
    inherited: bool
    inheritedFrom: str | None = Field(description="the folder or shared drive it is inherited from")


class PermissionObject(BaseModel):
    """Who can reach an item, and how."""

    kind: str = "drive#permission"
    id: str = Field(description="the permission id (a user's or group's account id, anyoneWithLink, anyone, ...)")
    type: str = Field(description="user, group, domain or anyone")
    role: str = Field(description="owner, organizer, fileOrganizer, writer, commenter or reader")
    emailAddress: str | None = None
    domain: str | None = None
    displayName: str | None = None
    allowFileDiscovery: bool | None = None
    expirationTime: str | None = None
    pendingOwner: bool = False
    inherited: bool = Field(False, description="comes from a folder above or from shared drive membership")
    permissionDetails: list[PermissionDetail] = Field(default_factory=list)


class PermissionList(BaseModel):
    """One page of an item's permissions."""

    kind: str = "drive#permissionList"
    permissions: list[PermissionObject]
    nextPageToken: str | None = None


class RevisionObject(BaseModel):
    """One version of a file's content."""

    kind: str = "drive#revision"
    id: str
    mimeType: str
    modifiedTime: str
    keepForever: bool | None = Field(description="binary files only: never purged automatically")
    lastModifyingUser: UserRef
    originalFilename: str | None
    md5Checksum: str | None
    size: str | None
    restoredFrom: str | None = Field(None, description="the older revision whose content this one restored")


class RevisionList(BaseModel):
    """One page of a file's revisions, oldest first."""

    kind: str = "drive#revisionList"
    revisions: list[RevisionObject]
    nextPageToken: str | None = None


class DriveRestrictions(BaseModel):
    """A shared drive's restrictions."""

    adminManagedRestrictions: bool = Field(description="only a Workspace administrator may change the others")
    copyRequiresWriterPermission: bool
    domainUsersOnly: bool = Field(description="only people of the drive's organization may reach its items")
    driveMembersOnly: bool = Field(description="only the drive's members may reach its items")
    sharingFoldersRequiresOrganizerPermission: bool


class DriveCapabilities(BaseModel):
    """What the signed-in member may do with a shared drive."""

    canManageMembers: bool
    canAddChildren: bool
    canRename: bool
    canChangeDriveMembersOnlyRestriction: bool
    canChangeDomainUsersOnlyRestriction: bool
    canChangeCopyRequiresWriterPermissionRestriction: bool
    canDeleteChildren: bool


class DriveObject(BaseModel):
    """A shared drive."""

    kind: str = "drive#drive"
    id: str
    name: str
    createdTime: str
    hidden: bool
    orgDomain: str
    restrictions: DriveRestrictions
    capabilities: DriveCapabilities
    myRole: str = Field(description="the signed-in user's membership role")


class DriveList(BaseModel):
    """One page of shared drives."""

    kind: str = "drive#driveList"
    drives: list[DriveObject]
    nextPageToken: str | None = None


class QuotedFileContent(BaseModel):
    """The text a comment refers to."""

    mimeType: str = "text/plain"
    value: str


class ReplyObject(BaseModel):
    """A reply in a comment thread."""

    kind: str = "drive#reply"
    id: str
    author: UserRef
    content: str
    action: str | None = Field(description="resolve or reopen, when the reply changed the thread's state")
    createdTime: str


class CommentObject(BaseModel):
    """A comment thread on a file."""

    kind: str = "drive#comment"
    id: str
    author: UserRef
    content: str
    quotedFileContent: QuotedFileContent | None
    createdTime: str
    modifiedTime: str
    resolved: bool
    deleted: bool
    replies: list[ReplyObject]


class CommentList(BaseModel):
    """One page of a file's comments."""

    kind: str = "drive#commentList"
    comments: list[CommentObject]
    nextPageToken: str | None = None


class RoleAndView(BaseModel):
    """A role asked for."""

    role: str
    view: str | None = None


class AccessProposalObject(BaseModel):
    """A pending request for access to a file."""

    fileId: str
    proposalId: str
    requesterEmailAddress: str
    recipientEmailAddress: str
    rolesAndViews: list[RoleAndView]
    requestMessage: str
    createTime: str


class AccessProposalList(BaseModel):
    """One page of pending access proposals."""

    accessProposals: list[AccessProposalObject]
    nextPageToken: str | None = None


class StorageQuota(BaseModel):
    """Storage used by the signed-in user's own files (bytes, as strings)."""

    limit: str
    usage: str
    usageInDrive: str
    usageInDriveTrash: str


class AboutObject(BaseModel):
    """The signed-in user, their storage and their organization's sharing policy."""

    kind: str = "drive#about"
    user: UserRef
    storageQuota: StorageQuota
    domain: str | None = Field(description="their Workspace domain; absent for a personal Google account")
    domainSharingPolicy: str = Field(description="allowed, allowedWithWarning, incomingOnly or disallowed")
    trustedDomains: list[str] = Field(description="domains they may share with even when sharing out is off")
    canCreateDrives: bool
    scope: str = Field(description="what the user let the app do: drive or drive.readonly")


def summary_fields(row: dict[str, Any], starred: bool, shared: bool) -> dict[str, Any]:
    """The fields files.list shows for a row."""
    return {
        "id": row["id"],
        "name": row["name"],
        "mimeType": row["mime_type"],
        "parents": [row["parent_id"]] if row["parent_id"] else [],
        "driveId": row["drive_id"],
        "owners": [row["owner_email"]] if row["owner_email"] else [],
        "modifiedTime": row["modified_time"],
        "trashed": bool(row["trashed"]),
        "starred": starred,
        "shared": shared,
        "size": str(row["size"]) if row["size"] is not None else None,
    }
