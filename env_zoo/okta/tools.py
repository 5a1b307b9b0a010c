"""Okta Management API tools as a signed-in administrator sees them: users and their lifecycle, groups and their
members, group rules, app assignments, MFA factors and admin roles; plus the administrator's own sign-in."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import NonBlankText, bounded, text

from . import directory
from .access import (
    changeable_membership,
    group_by_id,
    member_groups,
    require_manage_user,
    signed_in,
    user_by_key,
)
from .errors import already_active, duplicate_role, forbidden, missing, not_found, validation, wrong_status
from .objects import (
    AppAssignments,
    AppGroup,
    AppList,
    AppUser,
    Deleted,
    Factor,
    FactorList,
    GroupList,
    GroupMember,
    GroupMemberList,
    GroupRule,
    GroupRuleList,
    LifecycleResult,
    Role,
    RoleList,
    SignedInAdmin,
    User,
    UserList,
    app_object,
    factor_object,
    group_object,
    role_object,
    rule_object,
    user_object,
)
from .rules import CAN_ENROLL, FACTOR_PREFIX, LIFECYCLE, SCOPED_ROLES
from .schema import (
    admin_roles,
    app_groups,
    app_users,
    apps,
    factors,
    group_members,
    group_rules,
    groups,
    sessions,
    users,
)
from .search import GROUP_FIELDS, USER_FIELDS, starts_with, where

ORG_URL = "https://brightwell.okta.com"
Limit = bounded(1, 200)
UserKey = Annotated[str, Field(min_length=1, description="the user's id (00u...) or login")]
UserId = Annotated[str, Field(pattern=r"^00u[A-Za-z0-9]{17}$", description="the user's id (00u...)")]
GroupId = Annotated[str, Field(pattern=r"^00g[A-Za-z0-9]{17}$", description="the group's id (00g...)")]
AppId = Annotated[str, Field(pattern=r"^0oa[A-Za-z0-9]{17}$", description="the app's id (0oa...)")]
RuleId = Annotated[str, Field(pattern=r"^0pr[A-Za-z0-9]{17}$", description="the group rule's id (0pr...)")]
Login = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$", max_length=100)]
Phone = Annotated[str, Field(pattern=r"^\+[1-9]\d{7,14}$", description="E.164, e.g. +14155550123")]
Name = text(50)
Expression = Annotated[
    str,
    Field(
        pattern=r'^user\.(department|title)=="[^"]+"$',
        description='user.department=="<value>" or user.title=="<value>"',
    ),
]
Ids = Annotated[list[str], Unordered]
Operation = Literal[
    "activate", "deactivate", "suspend", "unsuspend", "unlock", "reset_password", "expire_password", "reset_factors"
]
RoleType = Literal[
    "SUPER_ADMIN",
    "ORG_ADMIN",
    "USER_ADMIN",
    "HELP_DESK_ADMIN",
    "GROUP_MEMBERSHIP_ADMIN",
    "APP_ADMIN",
    "READ_ONLY_ADMIN",
]


def _sorted_users(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r["last_name"].lower(), r["first_name"].lower(), r["id"]))


def _users_in(db: Database, ids: set[str]) -> list[dict[str, Any]]:
    if not ids:
        return []
    return db.select(users, f"id IN ({', '.join('?' * len(ids))})", sorted(ids))


def _token(db: Database, user_id: str, purpose: str) -> str:
    return hashlib.sha256(f"{purpose}:{user_id}:{db.now_iso()}".encode()).hexdigest()[:20]


def _assignments(db: Database, app: dict[str, Any]) -> AppAssignments:
    assigned_groups = db.find(app_groups, app_id=app["id"], order_by=[app_groups.c.priority])
    via_group = {m["user_id"] for g in assigned_groups for m in db.find(group_members, group_id=g["group_id"])}
    direct = {a["user_id"] for a in db.find(app_users, app_id=app["id"])}
    rows = [u for u in _users_in(db, direct | via_group) if u["id"] in direct or u["status"] != "DEPROVISIONED"]
    return AppAssignments(
        app=app_object(app),
        users=[
            AppUser(id=u["id"], login=u["login"], status=u["status"], scope="USER" if u["id"] in direct else "GROUP")
            for u in _sorted_users(rows)
        ],
        groups=[
            AppGroup(id=g["group_id"], name=db.get(groups, g["group_id"])["name"], priority=g["priority"])
            for g in assigned_groups
        ],
    )


def _app(db: Database, app_id: str) -> dict[str, Any]:
    return db.find_one(apps, id=app_id.strip(), not_found=missing("AppInstance", app_id.strip()))


def _one_principal(user_id: str | None, group_id: str | None) -> None:
    if (user_id is None) == (group_id is None):
        raise validation("Name exactly one of user_id or group_id.")


# ---------------------------------------------------------------- the administrator


@tool(user_only=True)
def sign_in(db: Database, login: NonBlankText) -> SignedInAdmin:
    """(User only) The administrator signs in to the Admin Console; the assistant then acts with their admin roles.

    Args:
        login: The administrator's Okta login (their work email).
    """
    user = user_by_key(db, login)
    roles = db.find(admin_roles, user_id=user["id"])
    if user["status"] != "ACTIVE" or not roles:
        raise forbidden("Only active users with an admin role can sign in to the Admin Console.")
    db.start_session(sessions, user_id=user["id"])
    return SignedInAdmin(user=user_object(user), roles=[role_object(r) for r in roles])


# ---------------------------------------------------------------- users


@tool(read_only=True)
def list_users(
    db: Database,
    q: str | None = None,
    search: str | None = None,
    limit: Limit = 50,
    after: str | None = None,
) -> UserList:
    """List users (GET /api/v1/users). Without `search`, deprovisioned users are left out.

    Args:
        q: Finds users whose first name, last name or email starts with this text (not deprovisioned users).
        search: An expression over status and profile attributes, e.g. status eq "LOCKED_OUT" or
            profile.department eq "Sales" and status eq "ACTIVE" (ops eq, sw, gt, ge, lt, le, pr; joined by and/or).
        limit: Users per page, 1 to 200.
        after: The cursor from the previous page.
    """
    signed_in(db)
    conditions, params = [], []
    for sql, values in (
        where(search, USER_FIELDS) if search is not None else ("status != ?", ["DEPROVISIONED"]),
        ("status != ?", ["DEPROVISIONED"]) if q else ("", []),
        starts_with(["first_name", "last_name", "email"], q) if q else ("", []),
    ):
        if sql:
            conditions.append(sql)
            params += values
    rows = db.select(users, " AND ".join(conditions), params, order_by="lower(last_name), lower(first_name)")
    page = paginate(rows, limit, after, max_page_size=200)
    return UserList(users=[user_object(r) for r in page.results], after=page.next_cursor)


@tool(read_only=True)
def get_user(db: Database, user: UserKey) -> User:
    """Get one user with their status and profile (GET /api/v1/users/{id}).

    Args:
        user: The user's id or login.
    """
    signed_in(db)
    return user_object(user_by_key(db, user))


@tool()
def create_user(
    db: Database,
    first_name: NonBlankText,
    last_name: NonBlankText,
    email: Login,
    login: Login | None = None,
    department: str | None = None,
    title: str | None = None,
    mobile_phone: Phone | None = None,
    group_ids: Ids | None = None,
    activate: bool = True,
) -> User:
    """Create a user without a password (POST /api/v1/users). Activated now, they are PROVISIONED until they follow
    the activation email; otherwise STAGED. They join Everyone, the groups named, and the groups of active group rules
    their profile matches.

    Args:
        first_name: First name.
        last_name: Last name.
        email: Work email.
        login: Okta login; defaults to the email.
        department: Department.
        title: Job title.
        mobile_phone: Mobile phone number.
        group_ids: Okta groups to add them to (a group administrator must name one of their groups).
        activate: Activate now (send the activation email) or leave STAGED.
    """
    me = signed_in(db)
    wanted = (login or email).strip().lower()
    if db.find(users, login=wanted):
        raise validation("login: An object with this field already exists in the current organization")
    targets = [group_by_id(db, g) for g in group_ids or []]
    for group in targets:
        if group["type"] != "OKTA_GROUP":
            raise validation(f"groupIds: {group['name']} is not an Okta group.")
    if not me.has("SUPER_ADMIN", "ORG_ADMIN"):
        scope = me.scope("USER_ADMIN")
        if scope is None or (scope and not scope & {g["id"] for g in targets}):
            raise forbidden("A group administrator must create users in one of their groups.")
    now = db.now_iso()
    row = db.insert(
        users,
        id=directory.okta_id(db, users, "00u"),
        login=wanted,
        email=email.strip().lower(),
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        department=department,
        title=title,
        mobile_phone=mobile_phone,
        status="PROVISIONED" if activate else "STAGED",
        has_password=False,
        created=now,
        activated=now if activate else None,
        status_changed=now if activate else None,
        last_login=None,
        last_updated=now,
        password_changed=None,
    )
    everyone = db.find(groups, type="BUILT_IN")
    for group in everyone + targets:
        db.insert(group_members, group_id=group["id"], user_id=row["id"], rule_id=None)
    directory.reevaluate(db, row)
    return user_object(row)


@tool()
def update_user(
    db: Database,
    user_id: UserId,
    first_name: NonBlankText | None = None,
    last_name: NonBlankText | None = None,
    email: Login | None = None,
    login: Login | None = None,
    department: str | None = None,
    title: str | None = None,
    mobile_phone: Phone | None = None,
) -> User:
    """Change some of a user's profile attributes, leaving the others (POST /api/v1/users/{id}). A changed
    department or title re-runs the active group rules: matching rules add the user to their groups, and rule-made
    memberships whose condition no longer holds are removed.

    Args:
        user_id: The user's id (00u...).
        first_name: New first name.
        last_name: New last name.
        email: New email.
        login: New login (must be unique in the org).
        department: New department.
        title: New job title.
        mobile_phone: New mobile phone number.
    """
    me = signed_in(db)
    row = user_by_key(db, user_id)
    require_manage_user(db, me, row)
    if login is not None and login.lower() != row["login"] and db.find(users, login=login.strip().lower()):
        raise validation("login: An object with this field already exists in the current organization")
    changes = {
        "first_name": first_name.strip() if first_name else None,
        "last_name": last_name.strip() if last_name else None,
        "email": email.strip().lower() if email else None,
        "login": login.strip().lower() if login else None,
        "department": department,
        "title": title,
        "mobile_phone": mobile_phone,
    }
    row = db.update(users, row["id"], last_updated=db.now_iso(), **{k: v for k, v in changes.items() if v is not None})
    directory.reevaluate(db, row)
    return user_object(row)


@tool()
def run_user_lifecycle(db: Database, user_id: UserId, operation: Operation, send_email: bool = True) -> LifecycleResult:
    """Run a lifecycle operation on a user (POST /api/v1/users/{id}/lifecycle/{operation}). Each works only from
    some statuses: activate from STAGED or DEPROVISIONED (ACTIVE with a password, else PROVISIONED until they
    follow the email); deactivate from any status but DEPROVISIONED (it also removes their direct app assignments);
    suspend from ACTIVE; unsuspend from SUSPENDED; unlock from LOCKED_OUT; reset_password (to RECOVERY) from ACTIVE,
    RECOVERY, PASSWORD_EXPIRED or LOCKED_OUT; expire_password from ACTIVE, RECOVERY or PASSWORD_EXPIRED;
    reset_factors removes every MFA factor of a user who is not STAGED or DEPROVISIONED.

    Args:
        user_id: The user's id (00u...).
        operation: activate, deactivate, suspend, unsuspend, unlock, reset_password, expire_password or reset_factors.
        send_email: Email the user (activation or reset link); false returns the link to hand over instead.
    """
    me = signed_in(db)
    row = user_by_key(db, user_id)
    require_manage_user(db, me, row, operation)
    if operation == "deactivate" and row["id"] == me.user_id:
        raise forbidden("You can't deactivate your own account.")
    sources, target = LIFECYCLE[operation]
    if row["status"] not in sources:
        if operation == "activate" and row["status"] == "ACTIVE":
            raise already_active()
        raise wrong_status(f"{operation} is not allowed for a user in status {row['status']}.")
    now = db.now_iso()
    result: dict[str, Any] = {}
    if operation == "reset_factors":
        db.conn.execute(factors.delete().where(factors.c.user_id == row["id"]))
        target = row["status"]
    elif operation == "activate":
        target = "ACTIVE" if row["has_password"] else "PROVISIONED"
        if not send_email:
            result["activationUrl"] = f"{ORG_URL}/welcome/{_token(db, row['id'], 'activate')}"
    elif operation == "reset_password" and not send_email:
        result["resetPasswordUrl"] = f"{ORG_URL}/reset_password/{_token(db, row['id'], 'reset')}"
    elif operation == "deactivate":
        directory.unassign_direct_apps(db, row["id"])
    changes: dict[str, Any] = {"status": target, "last_updated": now}
    if target != row["status"]:
        changes["status_changed"] = now
    if operation == "activate":
        changes["activated"] = now
    row = db.update(users, row["id"], **changes)
    if operation == "activate":
        directory.reevaluate(db, row)
    return LifecycleResult(user=user_object(row), **result)


@tool()
def delete_user(db: Database, user_id: UserId) -> Deleted:
    """Delete a user for good, with their memberships, app assignments, factors and roles (DELETE
    /api/v1/users/{id}). Only DEPROVISIONED users can be deleted: deactivate them first. This can't be undone.

    Args:
        user_id: The user's id (00u...).
    """
    me = signed_in(db)
    row = user_by_key(db, user_id)
    require_manage_user(db, me, row)
    if row["status"] != "DEPROVISIONED":
        raise wrong_status(f"Only DEPROVISIONED users can be deleted; this user is {row['status']}.")
    directory.purge_user(db, row["id"])
    return Deleted(id=row["id"])


@tool(read_only=True)
def list_user_groups(db: Database, user_id: UserId) -> GroupList:
    """List the groups a user belongs to (GET /api/v1/users/{id}/groups).

    Args:
        user_id: The user's id (00u...).
    """
    signed_in(db)
    row = user_by_key(db, user_id)
    ids = member_groups(db, row["id"])
    rows = sorted((g for g in db.find(groups) if g["id"] in ids), key=lambda g: (g["name"].lower(), g["id"]))
    return GroupList(groups=[group_object(g) for g in rows], after=None)


# ---------------------------------------------------------------- groups


@tool(read_only=True)
def list_groups(
    db: Database, q: str | None = None, search: str | None = None, limit: Limit = 50, after: str | None = None
) -> GroupList:
    """List groups (GET /api/v1/groups).

    Args:
        q: Finds groups whose name starts with this text.
        search: An expression such as type eq "APP_GROUP" or profile.name sw "Sales" (ops eq, sw, gt, ge, lt, le, pr;
            joined by and/or).
        limit: Groups per page, 1 to 200.
        after: The cursor from the previous page.
    """
    signed_in(db)
    conditions, params = [], []
    for sql, values in (
        where(search, GROUP_FIELDS) if search is not None else ("", []),
        starts_with(["name"], q) if q else ("", []),
    ):
        if sql:
            conditions.append(sql)
            params += values
    rows = db.select(groups, " AND ".join(conditions), params, order_by="lower(name)")
    page = paginate(rows, limit, after, max_page_size=200)
    return GroupList(groups=[group_object(r) for r in page.results], after=page.next_cursor)


@tool(read_only=True)
def list_group_members(db: Database, group_id: GroupId, limit: Limit = 50, after: str | None = None) -> GroupMemberList:
    """List a group's members, with the group rule that manages each membership (GET /api/v1/groups/{id}/users).

    Args:
        group_id: The group's id (00g...).
        limit: Members per page, 1 to 200.
        after: The cursor from the previous page.
    """
    signed_in(db)
    group = group_by_id(db, group_id)
    managed = {m["user_id"]: m["rule_id"] for m in db.find(group_members, group_id=group["id"])}
    rows = _sorted_users(_users_in(db, set(managed)))
    page = paginate(rows, limit, after, max_page_size=200)
    return GroupMemberList(
        members=[GroupMember(user=user_object(u), managedByRuleId=managed[u["id"]]) for u in page.results],
        after=page.next_cursor,
    )


@tool()
def add_user_to_group(db: Database, group_id: GroupId, user_id: UserId) -> GroupMember:
    """Add a user to an Okta group (PUT /api/v1/groups/{groupId}/users/{userId}); adding a member again changes
    nothing. App groups take their members from the app, and Everyone holds every user: neither can be changed here.

    Args:
        group_id: The group's id (00g...).
        user_id: The user's id (00u...).
    """
    group, row, current = changeable_membership(db, group_id, user_id)
    if current is None:
        current = db.insert(group_members, group_id=group["id"], user_id=row["id"], rule_id=None)
    return GroupMember(user=user_object(row), managedByRuleId=current["rule_id"])


@tool()
def remove_user_from_group(db: Database, group_id: GroupId, user_id: UserId) -> Deleted:
    """Remove a user from an Okta group (DELETE /api/v1/groups/{groupId}/users/{userId}). Memberships a group rule
    made can't be removed by hand, nor can app group or Everyone memberships.

    Args:
        group_id: The group's id (00g...).
        user_id: The user's id (00u...).
    """
    group, row, current = changeable_membership(db, group_id, user_id)
    if current is None:
        raise not_found("GroupMembership", f"{row['login']} in {group['name']}")
    if current["rule_id"]:
        rule = db.get(group_rules, current["rule_id"])
        raise validation(
            f"The membership is managed by the group rule '{rule['name']}'; change the rule or the user's profile."
        )
    directory.remove_membership(db, group["id"], row["id"])
    return Deleted(id=row["id"])


# ---------------------------------------------------------------- group rules


@tool(read_only=True)
def list_group_rules(db: Database, search: str | None = None) -> GroupRuleList:
    """List the org's group rules (GET /api/v1/groups/rules).

    Args:
        search: Only rules whose name contains this text (case-insensitive).
    """
    signed_in(db)
    rows = db.find(group_rules)
    if search:
        rows = [r for r in rows if search.strip().lower() in r["name"].lower()]
    rows.sort(key=lambda r: (r["name"].lower(), r["id"]))
    return GroupRuleList(rules=[rule_object(r) for r in rows])


@tool()
def create_group_rule(db: Database, name: Name, expression: Expression, group_ids: Ids) -> GroupRule:
    """Create a group rule, INACTIVE until activated (POST /api/v1/groups/rules): while active, users whose profile
    matches the expression are assigned to the Okta groups.

    Args:
        name: The rule's name, unique in the org (up to 50 characters).
        expression: The condition, user.department=="<value>" or user.title=="<value>".
        group_ids: The Okta groups to assign matching users to.
    """
    me = signed_in(db)
    me.require("ORG_ADMIN")
    if not group_ids:
        raise validation("actions.assignUserToGroups.groupIds: name at least one group.")
    if any(r["name"].lower() == name.strip().lower() for r in db.find(group_rules)):
        raise validation("name: A group rule with this name already exists.")
    for group_id in group_ids:
        if group_by_id(db, group_id)["type"] != "OKTA_GROUP":
            raise validation(f"actions.assignUserToGroups.groupIds: {group_id} is not an Okta group.")
    now = db.now_iso()
    row = db.insert(
        group_rules,
        id=directory.okta_id(db, group_rules, "0pr"),
        name=name.strip(),
        status="INACTIVE",
        expression=expression.strip(),
        group_ids=sorted({g.strip() for g in group_ids}),
        created=now,
        last_updated=now,
    )
    return rule_object(row)


@tool()
def set_group_rule_status(db: Database, rule_id: RuleId, action: Literal["activate", "deactivate"]) -> GroupRule:
    """Activate a group rule (it assigns every matching user now and on later profile changes) or deactivate it
    (memberships it made stay) (POST /api/v1/groups/rules/{id}/lifecycle/{action}).

    Args:
        rule_id: The rule's id (0pr...).
        action: activate or deactivate.
    """
    me = signed_in(db)
    me.require("ORG_ADMIN")
    row = db.find_one(group_rules, id=rule_id.strip(), not_found=missing("GroupRule", rule_id.strip()))
    status = "ACTIVE" if action == "activate" else "INACTIVE"
    if row["status"] != status:
        row = db.update(group_rules, row["id"], status=status, last_updated=db.now_iso())
        if status == "ACTIVE":
            directory.apply_rule(db, row)
    return rule_object(row)


# ---------------------------------------------------------------- apps


@tool(read_only=True)
def list_apps(
    db: Database,
    q: str | None = None,
    status: Literal["ACTIVE", "INACTIVE"] | None = None,
    limit: Limit = 50,
    after: str | None = None,
) -> AppList:
    """List app integrations (GET /api/v1/apps).

    Args:
        q: Finds apps whose label or name starts with this text.
        status: Only ACTIVE or INACTIVE apps.
        limit: Apps per page, 1 to 200.
        after: The cursor from the previous page.
    """
    signed_in(db)
    rows = db.find(apps, **({"status": status} if status else {}))
    if q:
        needle = q.strip().lower()
        rows = [r for r in rows if r["label"].lower().startswith(needle) or r["name"].lower().startswith(needle)]
    rows.sort(key=lambda r: (r["label"].lower(), r["id"]))
    page = paginate(rows, limit, after, max_page_size=200)
    return AppList(apps=[app_object(r) for r in page.results], after=page.next_cursor)


@tool(read_only=True)
def list_app_assignments(db: Database, app_id: AppId) -> AppAssignments:
    """List who is assigned to an app: users directly (scope USER) or through an assigned group (scope GROUP), and
    the assigned groups (GET /api/v1/apps/{id}/users and /groups).

    Args:
        app_id: The app's id (0oa...).
    """
    signed_in(db)
    return _assignments(db, _app(db, app_id))


@tool()
def assign_app(
    db: Database,
    app_id: AppId,
    user_id: UserId | None = None,
    group_id: GroupId | None = None,
    priority: Annotated[int, Field(ge=0, le=100)] | None = None,
) -> AppAssignments:
    """Assign a user or a group (name exactly one) to an active app (PUT /api/v1/apps/{id}/users or /groups);
    assigning again changes nothing. Deprovisioned users can't be assigned.

    Args:
        app_id: The app's id (0oa...).
        user_id: The user's id (00u...).
        group_id: The group's id (00g...).
        priority: A group assignment's priority, 0 first (default: after the others).
    """
    me = signed_in(db)
    me.require("ORG_ADMIN", "APP_ADMIN")
    _one_principal(user_id, group_id)
    app = _app(db, app_id)
    if app["status"] != "ACTIVE":
        raise validation(f"The app {app['label']} is INACTIVE; activate it before assigning users or groups.")
    if user_id is not None:
        row = user_by_key(db, user_id)
        if row["status"] == "DEPROVISIONED":
            raise wrong_status("Deprovisioned users can't be assigned to apps.")
        if not db.find(app_users, app_id=app["id"], user_id=row["id"]):
            db.insert(app_users, app_id=app["id"], user_id=row["id"], created=db.now_iso())
    else:
        group = group_by_id(db, group_id or "")
        taken = db.find(app_groups, app_id=app["id"])
        if not any(g["group_id"] == group["id"] for g in taken):
            rank = priority if priority is not None else max((g["priority"] for g in taken), default=-1) + 1
            db.insert(app_groups, app_id=app["id"], group_id=group["id"], priority=rank)
    return _assignments(db, app)


@tool()
def unassign_app(
    db: Database, app_id: AppId, user_id: UserId | None = None, group_id: GroupId | None = None
) -> AppAssignments:
    """Remove a user's or a group's (name exactly one) assignment to an app (DELETE /api/v1/apps/{id}/users/{userId}
    or /groups/{groupId}). A user who has the app only through a group can't be unassigned directly: unassign the
    group or remove them from it.

    Args:
        app_id: The app's id (0oa...).
        user_id: The user's id (00u...).
        group_id: The group's id (00g...).
    """
    me = signed_in(db)
    me.require("ORG_ADMIN", "APP_ADMIN")
    _one_principal(user_id, group_id)
    app = _app(db, app_id)
    if user_id is not None:
        row = user_by_key(db, user_id)
        scope = directory.app_scope(db, app["id"], row["id"], member_groups(db, row["id"]))
        if scope == "GROUP":
            raise validation(
                f"{row['login']} has {app['label']} through a group; unassign the group or remove them from it."
            )
        if scope is None:
            raise not_found("AppUser", row["id"])
        c = app_users.c
        db.conn.execute(app_users.delete().where(c.app_id == app["id"], c.user_id == row["id"]))
    else:
        group = group_by_id(db, group_id or "")
        if not db.find(app_groups, app_id=app["id"], group_id=group["id"]):
            raise not_found("ApplicationGroupAssignment", group["id"])
        c = app_groups.c
        db.conn.execute(app_groups.delete().where(c.app_id == app["id"], c.group_id == group["id"]))
    return _assignments(db, app)


# ---------------------------------------------------------------- factors


@tool(read_only=True)
def list_factors(db: Database, user_id: UserId) -> FactorList:
    """List a user's enrolled MFA factors (GET /api/v1/users/{id}/factors).

    Args:
        user_id: The user's id (00u...).
    """
    signed_in(db)
    row = user_by_key(db, user_id)
    return FactorList(factors=[factor_object(f) for f in db.find(factors, user_id=row["id"], order_by=[factors.c.id])])


@tool()
def enroll_factor(
    db: Database,
    user_id: UserId,
    factor_type: Literal["sms", "push", "token:software:totp"],
    phone_number: Phone | None = None,
) -> Factor:
    """Enroll an MFA factor for a user (POST /api/v1/users/{id}/factors). An SMS factor needs the phone number and
    is active at once; Okta Verify push and TOTP stay PENDING_ACTIVATION until the user scans the QR code. One
    factor of each type per user; the user must be able to sign in (not STAGED, SUSPENDED, LOCKED_OUT or
    DEPROVISIONED).

    Args:
        user_id: The user's id (00u...).
        factor_type: sms, push (Okta Verify) or token:software:totp (Okta Verify code).
        phone_number: The phone for an SMS factor.
    """
    me = signed_in(db)
    row = user_by_key(db, user_id)
    require_manage_user(db, me, row)
    if row["status"] not in CAN_ENROLL:
        raise wrong_status(f"A user in status {row['status']} can't enroll factors.")
    if db.find(factors, user_id=row["id"], factor_type=factor_type):
        raise validation("factorEnrollRequest: A factor of this type is already set up.")
    if factor_type == "sms" and phone_number is None:
        raise validation("profile.phoneNumber: An SMS factor needs a phone number.")
    if factor_type != "sms" and phone_number is not None:
        raise validation(f"profile.phoneNumber: A {factor_type} factor has no phone number.")
    factor = db.insert(
        factors,
        id=directory.okta_id(db, factors, FACTOR_PREFIX[factor_type]),
        user_id=row["id"],
        factor_type=factor_type,
        provider="OKTA",
        status="ACTIVE" if factor_type == "sms" else "PENDING_ACTIVATION",
        phone_number=phone_number,
        device_name=None,
        created=db.now_iso(),
    )
    return factor_object(factor)


@tool()
def unenroll_factor(db: Database, user_id: UserId, factor_id: NonBlankText) -> Deleted:
    """Remove one of a user's MFA factors (DELETE /api/v1/users/{id}/factors/{factorId}), e.g. for a lost phone.

    Args:
        user_id: The user's id (00u...).
        factor_id: The factor's id, from list_factors.
    """
    me = signed_in(db)
    row = user_by_key(db, user_id)
    require_manage_user(db, me, row, "reset_factors")
    factor = db.find_one(
        factors, id=factor_id.strip(), user_id=row["id"], not_found=missing("UserFactor", factor_id.strip())
    )
    db.delete(factors, factor["id"])
    return Deleted(id=factor["id"])


# ---------------------------------------------------------------- admin roles


@tool(read_only=True)
def list_admin_roles(db: Database, user_id: UserId | None = None) -> RoleList:
    """List admin role assignments: one user's (GET /api/v1/users/{id}/roles) or, without a user, every
    administrator's in the org.

    Args:
        user_id: The user's id (00u...).
    """
    signed_in(db)
    rows = db.find(admin_roles, user_id=user_by_key(db, user_id)["id"]) if user_id else db.find(admin_roles)
    return RoleList(roles=[role_object(r) for r in rows])


@tool()
def assign_admin_role(db: Database, user_id: UserId, type: RoleType, target_group_ids: Ids | None = None) -> Role:
    """Give a user an admin role (POST /api/v1/users/{id}/roles); super administrators only. USER_ADMIN,
    HELP_DESK_ADMIN and GROUP_MEMBERSHIP_ADMIN may be limited to Okta groups; other roles cover the whole org.

    Args:
        user_id: The user's id (00u...).
        type: The role.
        target_group_ids: The Okta groups a scoped role is limited to (none: the whole org).
    """
    me = signed_in(db)
    me.require()
    row = user_by_key(db, user_id)
    if row["status"] == "DEPROVISIONED":
        raise wrong_status("Deprovisioned users can't be given admin roles.")
    targets = sorted({t.strip() for t in target_group_ids or []})
    if targets and type not in SCOPED_ROLES:
        raise validation(f"targets: A {type} role can't be limited to groups.")
    for group_id in targets:
        if group_by_id(db, group_id)["type"] != "OKTA_GROUP":
            raise validation(f"targets: {group_id} is not an Okta group.")
    if db.find(admin_roles, user_id=row["id"], type=type):
        raise duplicate_role()
    role = db.insert(
        admin_roles,
        id=directory.okta_id(db, admin_roles, "ra1"),
        user_id=row["id"],
        type=type,
        targets=targets,
        created=db.now_iso(),
    )
    return role_object(role)


@tool()
def unassign_admin_role(db: Database, user_id: UserId, role_id: NonBlankText) -> Deleted:
    """Take an admin role away from a user (DELETE /api/v1/users/{id}/roles/{roleId}); super administrators only,
    and never their own super administrator role.

    Args:
        user_id: The user's id (00u...).
        role_id: The role assignment's id, from list_admin_roles.
    """
    me = signed_in(db)
    me.require()
    row = user_by_key(db, user_id)
    role = db.find_one(admin_roles, id=role_id.strip(), user_id=row["id"], not_found=missing("Role", role_id.strip()))
    if role["type"] == "SUPER_ADMIN" and row["id"] == me.user_id:
        raise forbidden("You can't remove your own super administrator role.")
    db.delete(admin_roles, role["id"])
    return Deleted(id=role["id"])
