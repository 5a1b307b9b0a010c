"""Who may see and change what: the signed-in user, their organization memberships and roles, collection
permissions of shared items, policies that apply to them, and master-password re-prompt."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import parse_timestamp

from .schema import collections, items, members, organizations, policies, profile, reprompts

OWNER, ADMIN, USER, MANAGER = 0, 1, 2, 3
REVOKED, INVITED, ACCEPTED, CONFIRMED = -1, 0, 1, 2
REPROMPT_WINDOW = timedelta(minutes=10)


@dataclass(frozen=True)
class Access:
    """What the signed-in user may do with one item (the cipher's `edit` and `viewPassword`)."""

    edit: bool
    view_password: bool


FULL = Access(edit=True, view_password=True)


def me(db: Database) -> dict[str, Any]:
    """The signed-in account."""
    return db.find(profile)[0]


def membership(db: Database, organization_id: str) -> dict[str, Any] | None:
    """The signed-in user's membership of an organization, whatever its status."""
    rows = db.find(members, organization_id=organization_id, user_id=me(db)["id"])
    return rows[0] if rows else None


def organization(db: Database, organization_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An organization the signed-in user is a confirmed member of, with that membership."""
    org = db.get(organizations, organization_id, "Organization")
    mine = membership(db, organization_id)
    if mine is None or mine["status"] == REVOKED:
        raise NotFound(f"Organization '{organization_id}' not found")
    if mine["status"] != CONFIRMED:
        raise PermissionDenied(f"Your membership of {org['name']} has not been confirmed by an administrator yet.")
    return org, mine


def administered(db: Database, organization_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An organization the signed-in user is an owner or admin of (member management)."""
    org, mine = organization(db, organization_id)
    if mine["type"] not in (OWNER, ADMIN):
        raise PermissionDenied(f"Only owners and admins can manage the members of {org['name']}.")
    return org, mine


def administered_member(db: Database, member_id: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A member of an organization the user administers, the organization and the user's own membership."""
    member = db.get(members, member_id, "Member")
    org, mine = administered(db, member["organization_id"])
    return member, org, mine


def is_admin(mine: dict[str, Any]) -> bool:
    """Owners and admins reach every collection of their organization."""
    return mine["type"] in (OWNER, ADMIN)


def item_access(db: Database, item: dict[str, Any]) -> Access | None:
    """The user's access to an item; None when they can't see it at all."""
    if item["organization_id"] is None:
        return FULL
    mine = membership(db, item["organization_id"])
    if mine is None or mine["status"] != CONFIRMED:
        return None
    if is_admin(mine):
        return FULL
    grants = [g for g in mine["collections"] if g["id"] in item["collection_ids"]]
    if not grants:
        return None
    return Access(
        edit=any(not g["readOnly"] for g in grants), view_password=any(not g["hidePasswords"] for g in grants)
    )


def visible_item(db: Database, item_id: str) -> tuple[dict[str, Any], Access]:
    """An item the user can see, with their access to it."""
    item = db.get(items, item_id, "Item")
    access = item_access(db, item)
    if access is None:
        raise NotFound(f"Item '{item_id}' not found")
    return item, access


def require_edit(item: dict[str, Any], access: Access, action: str = "edit") -> None:
    """Refuse a change to an item shared through read-only collections."""
    if not access.edit:
        raise PermissionDenied(f"You do not have permission to {action} '{item['name']}'; its collection is read-only.")


def require_view_password(item: dict[str, Any], access: Access) -> None:
    """Refuse to show or change the password or TOTP of an item whose collection hides passwords."""
    if not access.view_password:
        raise PermissionDenied(f"Passwords are hidden for you in the collection of '{item['name']}'.")


def require_active(item: dict[str, Any]) -> None:
    """Refuse to change an item in the trash."""
    if item["deleted"]:
        raise Conflict(f"'{item['name']}' is in the trash. Restore it before editing it.")


def reprompt_passed(db: Database, item: dict[str, Any]) -> bool:
    """Whether the user confirmed their master password for this item within the re-prompt window."""
    now = db.now()
    return any(
        now - parse_timestamp(r["verified_at"], "verified_at") <= REPROMPT_WINDOW
        for r in db.find(reprompts, item_id=item["id"])
    )


def require_reprompt(db: Database, item: dict[str, Any]) -> None:
    """Items with master password re-prompt open only after the user confirmed their master password."""
    if item["reprompt"] and not reprompt_passed(db, item):
        raise PermissionDenied(
            f"'{item['name']}' is protected by master password re-prompt. Ask the user to confirm their master "
            "password for it first."
        )


def writable_collections(db: Database, organization_id: str, collection_ids: list[str]) -> list[str]:
    """Collections of the organization that the user may put items into (at least one, none read-only)."""
    org, mine = organization(db, organization_id)
    if not collection_ids:
        raise InvalidRequest("You must select at least one collection.")
    grants = {g["id"]: g for g in mine["collections"]}
    for collection_id in collection_ids:
        found = db.find(collections, id=collection_id, organization_id=organization_id)
        if not found:
            raise NotFound(f"Collection '{collection_id}' not found in {org['name']}")
        if not is_admin(mine) and (collection_id not in grants or grants[collection_id]["readOnly"]):
            raise PermissionDenied(f"You can't add items to the collection '{found[0]['name']}'.")
    return sorted(set(collection_ids))


def binds_me(db: Database, policy: dict[str, Any]) -> bool:
    """Whether a policy binds the user: enabled, in an organization they joined, and they are not an owner or
    admin (who are exempt)."""
    mine = membership(db, policy["organization_id"])
    return (
        bool(policy["enabled"]) and mine is not None and mine["status"] in (ACCEPTED, CONFIRMED) and not is_admin(mine)
    )


def applying_policies(db: Database, policy_type: int) -> list[dict[str, Any]]:
    """The policies of a type that bind the user."""
    return [p for p in db.find(policies, type=policy_type, enabled=True) if binds_me(db, p)]
