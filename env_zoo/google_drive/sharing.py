"""Sharing: who may add, change or remove permissions, and what Drive refuses. Roles fit the place (organizer and
fileOrganizer only in shared drives; a shared drive has members, never an owner); the organization's sharing policy
and a shared drive's restrictions stop sharing outside; expiration dates only on people and groups reading or
commenting, within a year; ownership moves only inside one Workspace organization, or between personal accounts once
the new owner accepts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from envfactory_gym import Database, NotFound
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import Access, active, at_least
from .errors import bad_request, drive_error, forbidden, insufficient, invalid_sharing
from .rules import FOLDER, MAX_EXPIRATION_DAYS
from .schema import domains, files, groups, permissions, users
from .tree import owner_permission

SHARED_DRIVE_ROLES = ("organizer", "fileOrganizer", "writer", "commenter", "reader")
LINK_ROLES = ("writer", "commenter", "reader")


@dataclass(frozen=True)
class Target:
    """What is being shared: a file or folder row, or a shared drive row (its members)."""

    row: dict[str, Any]
    role: str  # the signed-in user's role on it
    is_drive: bool

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def drive_id(self) -> str | None:
        return self.row["id"] if self.is_drive else self.row["drive_id"]


@dataclass(frozen=True)
class Grantee:
    """Who a permission is for."""

    type: str
    permission_id: str
    email: str | None
    domain: str | None  # their organization's domain (None: a personal account or anyone)
    display_name: str | None


def permission_not_found(permission_id: str) -> Exception:
    """Drive's 404 for a permission id the item does not carry."""
    return drive_error(NotFound, 404, "notFound", f"Permission not found: {permission_id}.")


def grantee(db: Database, type_: str, email: str | None, domain: str | None, discoverable: bool) -> Grantee:
    """Resolve who a new permission is for; people and groups need a Google account or group."""
    if type_ in ("user", "group"):
        if not email or not email.strip():
            raise bad_request(f"emailAddress is required for {type_} permissions.")
        if domain:
            raise bad_request(f"domain can't be set on {type_} permissions.")
        address = email.strip().lower()
        table = users if type_ == "user" else groups
        found = db.find(table, email=address)
        if not found:
            other = db.find(groups if type_ == "user" else users, email=address)
            if other:
                raise invalid_sharing(
                    f"{address} is a {'group' if type_ == 'user' else 'person'}; share with it as "
                    f"type {'group' if type_ == 'user' else 'user'}."
                )
            raise invalid_sharing(f"{address}: No Google account associated with this email address.")
        name = found[0]["display_name" if type_ == "user" else "name"]
        return Grantee(type_, found[0]["permission_id"], address, found[0]["domain"], name)
    if email:
        raise bad_request(f"emailAddress can't be set on {type_} permissions.")
    if type_ == "domain":
        if not domain or not domain.strip():
            raise bad_request("domain is required for domain permissions.")
        found = db.find(domains, name=domain.strip().lower())
        if not found:
            raise invalid_sharing(f"{domain} is not a Google Workspace domain.")
        return Grantee("domain", found[0]["permission_id"], None, found[0]["name"], found[0]["organization"])
    if domain:
        raise bad_request("domain can't be set on anyone permissions.")
    return Grantee("anyone", "anyone" if discoverable else "anyoneWithLink", None, None, None)


def organization(db: Database, access: Access, target: Target) -> str | None:
    """The domain whose sharing policy governs the item: the shared drive's, or its owner's."""
    if target.drive_id:
        return access.drive(target.drive_id)["domain"]  # type: ignore[index]
    owner = db.get(users, target.row["owner_email"])
    return owner["domain"]


def check_outside(db: Database, access: Access, target: Target, who: Grantee) -> None:
    """Shared drive restrictions and the organization's policy on sharing outside it."""
    home = organization(db, access, target)
    drive = access.drive(target.drive_id)
    if drive is not None:
        if drive["domain_users_only"] and who.domain != drive["domain"]:
            raise forbidden(
                "teamDriveDomainUsersOnlyRestriction",
                f"The shared drive's settings only allow sharing with people and groups in {drive['domain']}.",
            )
        if drive["drive_members_only"] and not target.is_drive:
            member = who.type in ("user", "group") and _is_member(db, who, drive["id"])
            if not member:
                raise forbidden(
                    "teamDriveTeamMembersOnlyRestriction",
                    "The shared drive's settings only allow sharing its items with its members.",
                )
    if home is None or who.domain == home:
        return
    policy = db.get(domains, home)
    if who.type == "anyone":
        if not policy["allow_anyone_links"]:
            raise forbidden(
                "publishOutNotPermitted",
                f'Bad Request. User message: "Your administrator at {home} '
                'does not allow sharing with anyone who has the link."',
            )
        return
    if policy["sharing_policy"] in ("incomingOnly", "disallowed") and who.domain not in policy["trusted_domains"]:
        raise forbidden(
            "shareOutNotPermitted",
            f'Bad Request. User message: "Sharing outside {home} is turned off '
            f'by your administrator{_trusted(policy)}."',
        )


def _trusted(policy: dict[str, Any]) -> str:
    names = policy["trusted_domains"]
    return f" (except with {', '.join(names)})" if names else ""


def _is_member(db: Database, who: Grantee, drive_id: str) -> bool:
    from .access import person_drive_role

    if who.type == "user":
        return person_drive_role(db, who.email, drive_id) is not None  # type: ignore[arg-type]
    return bool(db.find(permissions, file_id=drive_id, email_address=who.email))


def check_role(target: Target, role: str, who: Grantee) -> None:
    """Roles that exist for the item and the kind of grantee."""
    if target.is_drive:
        if who.type in ("domain", "anyone"):
            raise forbidden(
                "cannotShareTeamDriveTopFolderWithAnyoneOrDomains",
                "A shared drive can't be shared with a domain or with anyone; only people and groups can be members.",
            )
        if role not in SHARED_DRIVE_ROLES:
            raise invalid_sharing(
                "A shared drive has members (organizer, fileOrganizer, writer, commenter, reader), never an owner."
            )
        return
    if role in ("organizer", "fileOrganizer"):
        if not target.row["drive_id"]:
            raise invalid_sharing(f"The {role} role only exists in shared drives.")
        if target.row["mime_type"] != FOLDER:
            raise invalid_sharing(f"The {role} role can only be given on a shared drive or a folder in it.")
    if role == "owner" and target.row["drive_id"]:
        raise invalid_sharing(
            "Items in a shared drive belong to the shared drive; their ownership can't be transferred."
        )
    if who.type in ("domain", "anyone") and role not in LINK_ROLES:
        raise invalid_sharing(f"{who.type} permissions can only be reader, commenter or writer.")


def expiration(db: Database, target: Target, who_type: str, role: str, value: str | None) -> str | None:
    """A valid expiration time (UTC), or None."""
    if value is None:
        return None
    if target.is_drive:
        raise forbidden(
            "expirationDateNotAllowedForSharedDriveMembers", "Expiration dates can't be set on shared drive members."
        )
    if who_type not in ("user", "group"):
        raise forbidden(
            "cannotSetExpirationOnAnyoneOrDomain", "Expiration dates can only be set on user and group permissions."
        )
    if role not in ("reader", "commenter"):
        raise forbidden("cannotSetExpiration", "Expiration dates can only be set on reader and commenter permissions.")
    moment = parse_timestamp(value, "expirationTime", example="2025-07-31T17:00:00Z")
    if moment <= db.now():
        raise forbidden("expirationDatesMustBeInTheFuture", "Expiration dates must be in the future.")
    if moment > db.now() + timedelta(days=MAX_EXPIRATION_DAYS):
        raise forbidden("cannotSetExpiration", "Expiration dates can't be more than a year in the future.")
    return iso_timestamp(moment)


def direct(db: Database, target: Target, permission_id: str) -> dict[str, Any] | None:
    """The permission with this id set on the item itself (expired ones are gone)."""
    found = db.find(permissions, key=f"{target.id}|{permission_id}")
    return found[0] if found and active(db, found[0]) else None


def existing_for(db: Database, target: Target, who: Grantee) -> dict[str, Any] | None:
    """The item's own permission for the same grantee (one per person, group, domain; one 'anyone' link)."""
    rows = [r for r in db.find(permissions, file_id=target.id) if active(db, r)]
    for row in rows:
        if who.type == "anyone" and row["type"] == "anyone":
            return row
        if row["type"] == who.type and row["permission_id"] == who.permission_id:
            return row
    return None


def can_share(access: Access, target: Target) -> bool:
    """Whether the user may change who has access (shared drive membership: managers only)."""
    return at_least(target.role, "organizer") if target.is_drive else access.can_share(target.row, target.role)


def require_share(access: Access, target: Target) -> None:
    """403 unless the user may change who has access."""
    if not can_share(access, target):
        if target.is_drive:
            raise insufficient("Only managers (organizers) of a shared drive can change its members.")
        raise insufficient()


def store(
    db: Database,
    target: Target,
    who: Grantee,
    role: str,
    discoverable: bool | None,
    expires: str | None,
    pending_owner: bool,
    replacing: dict[str, Any] | None,
) -> dict[str, Any]:
    """Write the permission (replacing the grantee's earlier one)."""
    key = f"{target.id}|{who.permission_id}"
    for stale in [replacing] if replacing is not None else []:
        db.delete(permissions, stale["key"])
    if db.find(permissions, key=key):  # an expired permission of the same grantee: gone for good
        db.delete(permissions, key)
    return db.insert(
        permissions,
        key=key,
        file_id=target.id,
        permission_id=who.permission_id,
        type=who.type,
        role=role,
        email_address=who.email,
        domain=who.domain if who.type == "domain" else None,
        allow_file_discovery=discoverable if who.type in ("domain", "anyone") else None,
        expiration_time=expires,
        pending_owner=pending_owner,
    )


def transfer(db: Database, access: Access, target: Target, new_owner: dict[str, Any], move_to_root: bool) -> None:
    """Make `new_owner` the owner of a My Drive item; the previous owner becomes a writer."""
    previous = target.row["owner_email"]
    owner_permission(db, target.id, new_owner["email"])
    former = db.get(users, previous)
    db.update(permissions, f"{target.id}|{former['permission_id']}", role="writer")
    changes: dict[str, Any] = {"owner_email": new_owner["email"]}
    if move_to_root:
        changes["parent_id"] = new_owner["root_id"]
    db.update(files, target.id, **changes)


def check_transfer(db: Database, access: Access, target: Target, who: Grantee, notify: bool) -> dict[str, Any]:
    """Whether the signed-in user may make `who` the owner now; returns the new owner's account."""
    if who.type != "user":
        raise invalid_sharing("Only a person can own an item.")
    if not notify:
        raise bad_request("sendNotificationEmail can't be turned off for ownership transfers.")
    new_owner = db.get(users, who.email)
    current = db.get(users, target.row["owner_email"])
    if new_owner["email"] == current["email"]:
        raise invalid_sharing(f"{who.email} already owns this item.")
    if target.role != "owner":
        pending = direct(db, target, who.permission_id)
        accepting = who.email == access.me.email and pending is not None and pending["pending_owner"]
        if not accepting:
            raise insufficient()
        return new_owner
    if current["domain"] is None:
        raise forbidden(
            "consentRequiredForOwnershipTransfer",
            "Consent is required to transfer ownership of a file "
            "to another user. Make them a writer with pendingOwner set; they accept by taking the owner "
            "role themselves.",
        )
    if new_owner["domain"] != current["domain"]:
        raise bad_request(
            "Ownership can only be transferred to another user in the same organization as the current owner.",
            "ownershipChangeAcrossDomainNotPermitted",
        )
    return new_owner


def check_pending_owner(db: Database, target: Target, who: Grantee, role: str) -> None:
    """A pending owner is a person with the writer role on a personal account's My Drive item."""
    if target.is_drive or target.row["drive_id"]:
        raise invalid_sharing("Items in a shared drive have no owner to propose.")
    if who.type != "user":
        raise invalid_sharing("Only a person can become an item's owner.")
    if role != "writer":
        raise forbidden(
            "pendingOwnerWriterRequired",
            "The target user cannot be a pending owner because the "
            "target user does not have a writer role for the file.",
        )
    if db.get(users, target.row["owner_email"])["domain"] is not None:
        raise bad_request(
            "pendingOwner is for transfers between personal Google accounts; in a Workspace "
            "organization transfer ownership directly (role owner with transferOwnership)."
        )
    if target.role != "owner":
        raise insufficient()


def grant(
    db: Database,
    access: Access,
    target: Target,
    who: Grantee,
    role: str,
    discoverable: bool | None,
    expires_at: str | None,
    transfer_ownership: bool,
    move_to_root: bool,
    pending_owner: bool,
    notify: bool,
) -> dict[str, Any]:
    """Create (or change) a permission with every sharing rule applied; returns the stored row."""
    check_role(target, role, who)
    if role == "owner" and not transfer_ownership:
        raise forbidden(
            "forbidden", "The transferOwnership parameter must be enabled when the permission role is 'owner'."
        )
    if transfer_ownership and role != "owner":
        raise bad_request("transferOwnership can only be set when the role is owner.")
    replacing = existing_for(db, target, who)
    if replacing is not None and replacing["role"] == "owner":
        raise invalid_sharing(f"{who.email} already owns this item.")
    if role == "owner":
        new_owner = check_transfer(db, access, target, who, notify)
        transfer(db, access, target, new_owner, move_to_root)
        return db.get(permissions, f"{target.id}|{who.permission_id}")
    require_share(access, target)
    if pending_owner:
        check_pending_owner(db, target, who, role)
    check_outside(db, access, target, who)
    expires = expiration(db, target, who.type, role, expires_at)
    if who.type == "anyone" and discoverable is None:
        discoverable = False
    if who.type == "domain" and discoverable is None:
        discoverable = True
    return store(db, target, who, role, discoverable, expires, pending_owner, replacing)


def grantee_of(db: Database, row: dict[str, Any]) -> Grantee:
    """The grantee a stored permission names."""
    domain = row["domain"]
    name = None
    if row["type"] == "user":
        person = db.get(users, row["email_address"])
        domain, name = person["domain"], person["display_name"]
    elif row["type"] == "group":
        group = db.get(groups, row["email_address"])
        domain, name = group["domain"], group["name"]
    return Grantee(row["type"], row["permission_id"], row["email_address"], domain, name)


def inherited_source(db: Database, access: Access, target: Target, permission_id: str) -> str | None:
    """The folder or shared drive an item inherits this permission from, if any."""
    current = target.row["parent_id"] if not target.is_drive else None
    while current:
        found = db.find(permissions, key=f"{current}|{permission_id}")
        if found and active(db, found[0]):
            return current
        parent = access.row(current)
        current = parent["parent_id"] if parent is not None else None
    return None


def locate(db: Database, access: Access, target: Target, permission_id: str) -> dict[str, Any]:
    """The item's own permission with this id; an inherited one can't be changed here."""
    row = direct(db, target, permission_id)
    if row is not None:
        return row
    source = inherited_source(db, access, target, permission_id)
    if source is not None:
        if target.row.get("drive_id"):
            raise forbidden(
                "cannotModifyInheritedTeamDrivePermission",
                "Cannot update or delete an inherited permission on a shared drive item.",
            )
        raise forbidden(
            "cannotModifyInheritedPermission", f"This permission is inherited from folder {source}; change it there."
        )
    raise permission_not_found(permission_id)


def update(
    db: Database,
    access: Access,
    target: Target,
    permission_id: str,
    role: str | None,
    expires_at: str | None,
    remove_expiration: bool,
    transfer_ownership: bool,
    pending_owner: bool | None,
) -> dict[str, Any]:
    """Change a permission's role or expiration (or make its person the owner)."""
    row = locate(db, access, target, permission_id)
    who = grantee_of(db, row)
    new_role = role or row["role"]
    if row["role"] == "owner" and new_role != "owner":
        raise invalid_sharing("The owner's role can't be changed; transfer ownership to someone else first.")
    if new_role == "owner" and row["role"] != "owner":
        check_role(target, "owner", who)
        if not transfer_ownership:
            raise forbidden(
                "forbidden", "The transferOwnership parameter must be enabled when the permission role is 'owner'."
            )
        new_owner = check_transfer(db, access, target, who, True)
        transfer(db, access, target, new_owner, False)
        return db.get(permissions, row["key"])
    if transfer_ownership:
        raise bad_request("transferOwnership can only be set when the role is owner.")
    require_share(access, target)
    check_role(target, new_role, who)
    if remove_expiration and expires_at is not None:
        raise bad_request("Give expirationTime or removeExpiration, not both.")
    expires = None if remove_expiration else row["expiration_time"]
    if expires_at is not None:
        expires = expiration(db, target, who.type, new_role, expires_at)
    elif expires is not None and new_role not in ("reader", "commenter"):
        raise forbidden(
            "cannotSetExpiration",
            "Expiration dates can only be set on reader and commenter "
            "permissions; remove the expiration (removeExpiration) to give this role.",
        )
    pending = bool(row["pending_owner"]) and new_role == "writer"
    if pending_owner:
        check_pending_owner(db, target, who, new_role)
        pending = True
    elif pending_owner is False:
        pending = False
    return db.update(permissions, row["key"], role=new_role, expiration_time=expires, pending_owner=pending)


def remove(db: Database, access: Access, target: Target, permission_id: str) -> dict[str, Any]:
    """Delete a permission; anyone may remove their own, the owner's stays."""
    row = locate(db, access, target, permission_id)
    if row["role"] == "owner":
        raise forbidden("cannotRemoveOwner", "The owner of a file cannot be removed; transfer ownership first.")
    own = row["type"] == "user" and row["email_address"] == access.me.email
    if not own:
        require_share(access, target)
    return db.delete(permissions, row["key"])
