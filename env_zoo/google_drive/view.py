"""How stored rows look to the signed-in user: files with ownedByMe, starred, shared and capabilities; permissions
with where they come from (the item, a folder above it, shared drive membership); revisions, shared drives,
comments and access proposals."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import Access, active, at_least, best
from .objects import (
    AccessProposalObject,
    Capabilities,
    CommentObject,
    DriveCapabilities,
    DriveObject,
    DriveRestrictions,
    FileObject,
    FileSummary,
    PermissionDetail,
    PermissionObject,
    QuotedFileContent,
    ReplyObject,
    RevisionObject,
    RoleAndView,
    UserRef,
    summary_fields,
)
from .rules import DOCS_EDITORS, FOLDER, web_view_link
from .schema import domains, groups, permissions, replies, stars, users


class Render:
    """Rows as the Drive API returns them to one user, during one tool call."""

    def __init__(self, db: Database, access: Access) -> None:
        self.db = db
        self.access = access
        self._people: dict[str, dict[str, Any] | None] = {}

    def person(self, email: str | None) -> dict[str, Any] | None:
        """A Google account by address (memoized)."""
        if not email:
            return None
        if email not in self._people:
            found = self.db.find(users, email=email)
            self._people[email] = found[0] if found else None
        return self._people[email]

    def user(self, email: str | None) -> UserRef | None:
        """A person as Drive shows them (None when unknown)."""
        if not email:
            return None
        person = self.person(email)
        name = person["display_name"] if person else email
        return UserRef(
            displayName=name,
            emailAddress=email,
            permissionId=person["permission_id"] if person else None,
            me=email == self.access.me.email,
        )

    # ---------------------------------------------------------------- files

    def starred(self, file_id: str) -> bool:
        return bool(self.db.find(stars, key=f"{self.access.me.email}|{file_id}"))

    def shared(self, row: dict[str, Any]) -> bool:
        if row["drive_id"]:
            return False
        return any(p["role"] != "owner" and active(self.db, p) for p in self.db.find(permissions, file_id=row["id"]))

    def summary(self, row: dict[str, Any], starred: bool, shared: bool) -> FileSummary:
        """A row as files.list shows it."""
        return FileSummary(**summary_fields(row, starred, shared))

    def file(self, row: dict[str, Any], role: str) -> FileObject:
        """A row in full, with what the user may do with it."""
        access = self.access
        folder = row["mime_type"] == FOLDER
        drive = access.drive(row["drive_id"])
        return FileObject(
            **summary_fields(row, self.starred(row["id"]), self.shared(row)),
            description=row["description"],
            explicitlyTrashed=bool(row["explicitly_trashed"]),
            trashedTime=row["trashed_time"],
            trashingUser=self.user(row["trashing_user"]),
            createdTime=row["created_time"],
            ownedByMe=row["owner_email"] == access.me.email,
            ownerDetails=[u for u in [self.user(row["owner_email"])] if u],
            lastModifyingUser=self.user(row["last_modifying_user"]),
            headRevisionId=row["head_revision_id"],
            version=str(row["version"]),
            webViewLink=web_view_link(row["id"], row["mime_type"]),
            copyRequiresWriterPermission=bool(row["copy_requires_writer_permission"]),
            writersCanShare=bool(row["writers_can_share"]) if not row["drive_id"] else False,
            capabilities=Capabilities(
                canEdit=at_least(role, "writer") and not row["trashed"],
                canComment=at_least(role, "commenter") and not folder,
                canShare=access.can_share(row, role),
                canCopy=access.can_copy(row, role),
                canTrash=access.can_trash(row, role) and not row["trashed"] and not row["is_root"],
                canUntrash=access.can_trash(row, role) and bool(row["trashed"]),
                canDelete=access.can_delete(row, role) and not row["is_root"],
                canReadRevisions=at_least(role, "writer") and not folder,
                canAddChildren=folder and at_least(role, "writer") and not row["trashed"],
                canMoveItemWithinDrive=at_least(role, "fileOrganizer" if drive else "writer") and not row["is_root"],
                canMoveItemOutOfDrive=bool(drive) and at_least(role, "organizer"),
                canChangeCopyRequiresWriterPermission=access.can_share(row, role) and not folder,
            ),
        )

    # ---------------------------------------------------------------- permissions

    def _grant(self, row: dict[str, Any]) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "id": row["permission_id"],
            "type": row["type"],
            "role": row["role"],
            "emailAddress": row["email_address"],
            "domain": row["domain"],
        }
        if row["type"] == "user":
            person = self.person(row["email_address"])
            fields["displayName"] = person["display_name"] if person else None
            fields["domain"] = person["domain"] if person else None
        elif row["type"] == "group":
            group = self.db.find(groups, email=row["email_address"])
            fields["displayName"] = group[0]["name"] if group else None
            fields["domain"] = group[0]["domain"] if group else None
        elif row["type"] == "domain":
            found = self.db.find(domains, name=row["domain"])
            fields["displayName"] = found[0]["organization"] if found else row["domain"]
            fields["allowFileDiscovery"] = row["allow_file_discovery"]
        else:
            fields["allowFileDiscovery"] = row["allow_file_discovery"]
        fields["expirationTime"] = row["expiration_time"]
        fields["pendingOwner"] = bool(row["pending_owner"])
        return fields

    def permissions(self, target_id: str, row: dict[str, Any] | None) -> list[PermissionObject]:
        """An item's permissions, its own first, then those it inherits (merged per grantee); a shared drive's
        members when `row` is None."""
        merged: dict[str, dict[str, Any]] = {}
        order: list[str] = []

        def add(grant: dict[str, Any], detail: PermissionDetail) -> None:
            if not active(self.db, grant):
                return
            key = grant["permission_id"]
            if key not in merged:
                merged[key] = {**self._grant(grant), "inherited": detail.inherited, "permissionDetails": []}
                order.append(key)
            entry = merged[key]
            entry["permissionDetails"].append(detail)
            if not detail.inherited:
                entry["inherited"] = False
                entry.update({k: v for k, v in self._grant(grant).items() if k in ("expirationTime", "pendingOwner")})
            entry["role"] = best(entry["role"], grant["role"])

        for grant in self.db.find(permissions, file_id=target_id):
            add(
                grant,
                PermissionDetail(
                    permissionType="member" if row is None else "file",
                    role=grant["role"],
                    inherited=False,
                    inheritedFrom=None,
                ),
            )
        if row is not None:
            current = row["parent_id"]
            while current:
                for grant in self.db.find(permissions, file_id=current):
                    if grant["role"] == "owner":
                        if grant["permission_id"] in merged:
                            continue
                        grant = {**grant, "role": "writer"}
                    member = self.access.drive(current) is not None
                    add(
                        grant,
                        PermissionDetail(
                            permissionType="member" if member else "file",
                            role=grant["role"],
                            inherited=True,
                            inheritedFrom=current,
                        ),
                    )
                parent = self.access.row(current)
                current = parent["parent_id"] if parent is not None else None
        rank = {"owner": 0, "organizer": 1, "fileOrganizer": 2, "writer": 3, "commenter": 4, "reader": 5}
        ordered = sorted(
            order,
            key=lambda k: (
                merged[k]["inherited"],
                rank[merged[k]["role"]],
                merged[k]["emailAddress"] or merged[k]["domain"] or "",
            ),
        )
        return [PermissionObject(**merged[key]) for key in ordered]

    def permission(self, grant: dict[str, Any]) -> PermissionObject:
        """One stored permission."""
        return PermissionObject(
            **self._grant(grant),
            permissionDetails=[
                PermissionDetail(permissionType="file", role=grant["role"], inherited=False, inheritedFrom=None)
            ],
        )

    # ---------------------------------------------------------------- revisions, drives, comments, proposals

    def revision(self, row: dict[str, Any], file_row: dict[str, Any]) -> RevisionObject:
        """A stored revision."""
        binary = file_row["mime_type"] not in DOCS_EDITORS
        return RevisionObject(
            id=row["revision_id"],
            mimeType=row["mime_type"],
            modifiedTime=row["modified_time"],
            keepForever=bool(row["keep_forever"]) if binary else None,
            lastModifyingUser=self.user(row["last_modifying_user"]),  # type: ignore[arg-type]
            originalFilename=row["original_filename"],
            md5Checksum=row["md5_checksum"],
            size=str(row["size"]) if row["size"] is not None else None,
            restoredFrom=row["restored_from"],
        )

    def drive(self, row: dict[str, Any], role: str) -> DriveObject:
        """A shared drive for one of its members."""
        organizer = at_least(role, "organizer")
        free = organizer and (not row["admin_managed_restrictions"] or self.access.me.is_admin)
        return DriveObject(
            id=row["id"],
            name=row["name"],
            createdTime=row["created_time"],
            hidden=bool(row["hidden"]),
            orgDomain=row["domain"],
            myRole=role,
            restrictions=DriveRestrictions(
                adminManagedRestrictions=bool(row["admin_managed_restrictions"]),
                copyRequiresWriterPermission=bool(row["copy_requires_writer_permission"]),
                domainUsersOnly=bool(row["domain_users_only"]),
                driveMembersOnly=bool(row["drive_members_only"]),
                sharingFoldersRequiresOrganizerPermission=bool(row["sharing_folders_requires_organizer_permission"]),
            ),
            capabilities=DriveCapabilities(
                canManageMembers=organizer,
                canAddChildren=at_least(role, "writer"),
                canRename=organizer,
                canChangeDriveMembersOnlyRestriction=free,
                canChangeDomainUsersOnlyRestriction=free,
                canChangeCopyRequiresWriterPermissionRestriction=free,
                canDeleteChildren=organizer,
            ),
        )

    def comment(self, row: dict[str, Any]) -> CommentObject:
        """A comment thread with its replies, oldest first."""
        thread = sorted(self.db.find(replies, comment_id=row["id"]), key=lambda r: (r["created_time"], r["id"]))
        return CommentObject(
            id=row["id"],
            author=self.user(row["author_email"]),
            content=row["content"],  # type: ignore[arg-type]
            quotedFileContent=QuotedFileContent(value=row["quoted_text"]) if row["quoted_text"] else None,
            createdTime=row["created_time"],
            modifiedTime=row["modified_time"],
            resolved=bool(row["resolved"]),
            deleted=bool(row["deleted"]),
            replies=[
                ReplyObject(
                    id=r["id"],
                    author=self.user(r["author_email"]),
                    content=r["content"],  # type: ignore[arg-type]
                    action=r["action"],
                    createdTime=r["created_time"],
                )
                for r in thread
            ],
        )

    def proposal(self, row: dict[str, Any]) -> AccessProposalObject:
        """A pending access proposal."""
        return AccessProposalObject(
            fileId=row["file_id"],
            proposalId=row["id"],
            requesterEmailAddress=row["requester_email"],
            recipientEmailAddress=row["recipient_email"],
            rolesAndViews=[RoleAndView(role=row["role"])],
            requestMessage=row["message"],
            createTime=row["create_time"],
        )
