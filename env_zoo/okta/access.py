"""Who is signed in (an administrator of the org) and what their admin roles let them do. Super administrators do
everything; organization administrators everything but admin roles and super administrators' accounts; group
(USER_ADMIN) and help desk administrators only the users of their target groups who hold no admin role, help desk
administrators only password, unlock and factor resets; group membership administrators only the membership of their
target groups; app administrators apps and their assignments; read-only administrators read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Database

from . import directory
from .errors import forbidden, missing, not_found, validation
from .schema import admin_roles, group_members, groups, sessions, users

NOT_SIGNED_IN = "E0000011: Invalid token provided. Ask the administrator to sign in to the Admin Console first."

#: lifecycle operations a help desk administrator may run
HELP_DESK_OPERATIONS = frozenset({"unlock", "reset_password", "expire_password", "reset_factors"})


@dataclass(frozen=True)
class Admin:
    """The signed-in administrator for one tool call: their user id and roles (type -> target group ids; an empty
    target set means the whole org)."""

    user_id: str
    roles: dict[str, frozenset[str]]

    def has(self, *types: str) -> bool:
        """Whether they hold any of these role types."""
        return any(t in self.roles for t in types)

    def require(self, *types: str) -> None:
        """E0000006 unless they hold one of these role types (super administrators always pass)."""
        if not self.has("SUPER_ADMIN", *types):
            raise forbidden()

    def scope(self, role: str) -> frozenset[str] | None:
        """The groups a scoped role is limited to (empty: all), None when not held."""
        return self.roles.get(role)


def signed_in(db: Database) -> Admin:
    """The administrator the assistant acts for."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return admin_of(db, session["user_id"])


def admin_of(db: Database, user_id: str) -> Admin:
    """A user's admin roles, merged per type."""
    roles: dict[str, set[str]] = {}
    for row in db.find(admin_roles, user_id=user_id):
        roles.setdefault(row["type"], set()).update(row["targets"])
    return Admin(user_id, {k: frozenset(v) for k, v in roles.items()})


def user_by_key(db: Database, key: str) -> dict[str, Any]:
    """A user by id or login (Okta accepts either); E0000007 otherwise."""
    wanted = key.strip()
    found = db.find(users, id=wanted) or db.find(users, login=wanted.lower())
    if not found:
        raise not_found("User", wanted)
    return found[0]


def group_by_id(db: Database, group_id: str) -> dict[str, Any]:
    """A group by id; E0000007 otherwise."""
    return db.find_one(groups, id=group_id.strip(), not_found=missing("Group", group_id.strip()))


def member_groups(db: Database, user_id: str) -> set[str]:
    """The ids of the groups a user belongs to."""
    return {m["group_id"] for m in db.find(group_members, user_id=user_id)}


def _in_scope(db: Database, targets: frozenset[str], user: dict[str, Any]) -> bool:
    return not targets or bool(targets & member_groups(db, user["id"]))


def require_manage_user(db: Database, me: Admin, user: dict[str, Any], operation: str = "manage") -> None:
    """E0000006 unless the administrator may run `operation` (a lifecycle operation, or `manage` for profile
    changes, deletion and factor enrollment) on this user."""
    if me.has("SUPER_ADMIN"):
        return
    target = admin_of(db, user["id"])
    if me.has("ORG_ADMIN"):
        if target.has("SUPER_ADMIN"):
            raise forbidden("Only a super administrator can manage a super administrator's account.")
        return
    scoped = [me.scope("USER_ADMIN")]
    if operation in HELP_DESK_OPERATIONS:
        scoped.append(me.scope("HELP_DESK_ADMIN"))
    usable = [targets for targets in scoped if targets is not None]
    if not usable:
        raise forbidden()
    if target.roles:
        raise forbidden("Group and help desk administrators can't manage users who hold admin roles.")
    if not any(_in_scope(db, targets, user) for targets in usable):
        raise forbidden("The user is not a member of any group you administer.")


def require_manage_membership(me: Admin, group: dict[str, Any]) -> None:
    """E0000006 unless the administrator may change this group's members."""
    if me.has("SUPER_ADMIN", "ORG_ADMIN"):
        return
    for role in ("USER_ADMIN", "GROUP_MEMBERSHIP_ADMIN"):
        targets = me.scope(role)
        if targets is not None and (not targets or group["id"] in targets):
            return
    raise forbidden(f"You don't administer the group {group['name']}.")


def changeable_membership(
    db: Database, group_id: str, user_id: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    """The group, the user and their membership (None: not a member) for a change of that membership by the
    signed-in administrator: E0000006 unless they may make it, and app groups and Everyone are refused."""
    group = group_by_id(db, group_id)
    user = user_by_key(db, user_id)
    require_manage_membership(signed_in(db), group)
    if group["type"] != "OKTA_GROUP":
        raise validation(f"Membership of the {group['type']} group {group['name']} can't be changed.")
    return group, user, directory.membership(db, group["id"], user["id"])
