"""Who the app acts as (the account that authorized it, kept as the runtime's session), and what Jira's permission
scheme lets them do: project roles grant permissions; an issue a user can't browse does not exist for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import authorizations, issues, permission_schemes, project_roles, projects, role_actors, site, users

ISSUE_HIDDEN = "Issue does not exist or you do not have permission to see it."
NOT_AUTHORIZED = "Client must be authenticated to access this resource."
PERMISSIONS = (
    "BROWSE_PROJECTS",
    "CREATE_ISSUES",
    "EDIT_ISSUES",
    "TRANSITION_ISSUES",
    "RESOLVE_ISSUES",
    "CLOSE_ISSUES",
    "ASSIGN_ISSUES",
    "ASSIGNABLE_USER",
    "ADD_COMMENTS",
    "WORK_ON_ISSUES",
    "LINK_ISSUES",
    "SCHEDULE_ISSUES",
    "MANAGE_WATCHERS",
    "MANAGE_SPRINTS_PERMISSION",
    "ADMINISTER_PROJECTS",
)


def settings(db: Database) -> dict[str, Any]:
    """The site's one settings row."""
    return db.find(site)[0]


def me(db: Database) -> dict[str, Any]:
    """The account the app acts as (the one that authorized it)."""
    return db.get(users, db.current_session(authorizations, NOT_AUTHORIZED)["account_id"], "User")


def authorize(db: Database, person: dict[str, Any]) -> None:
    """The person's OAuth consent: from now on the app acts as them (an earlier grant is replaced)."""
    db.start_session(authorizations, account_id=person["account_id"])


def _role_names(db: Database) -> dict[int, str]:
    return {r["id"]: r["name"] for r in db.find(project_roles)}


def roles_of(db: Database, project_id: str, account_id: str) -> set[str]:
    """Names of the project roles an account holds in a project."""
    names = _role_names(db)
    return {names[a["role_id"]] for a in db.find(role_actors, project_id=project_id, account_id=account_id)}


def has_permission(db: Database, project: dict[str, Any], permission: str, account_id: str | None = None) -> bool:
    """Whether an active, licensed account holds a role the project's permission scheme grants `permission` to."""
    person = db.get(users, account_id, "User") if account_id else me(db)
    if not person["active"] or not person["jira_access"]:
        return False
    granted = set(db.get(permission_schemes, project["permission_scheme_id"])["grants"].get(permission, []))
    return bool(granted & roles_of(db, project["id"], person["account_id"]))


def browsable_projects(db: Database) -> list[dict[str, Any]]:
    """The projects the current account can browse, by key: one read per table rather than one check per project."""
    person = me(db)
    if not person["active"] or not person["jira_access"]:
        return []
    names = _role_names(db)
    held: dict[str, set[str]] = {}
    for actor in db.find(role_actors, account_id=person["account_id"]):
        held.setdefault(actor["project_id"], set()).add(names[actor["role_id"]])
    browse = {s["id"]: set(s["grants"].get("BROWSE_PROJECTS", [])) for s in db.find(permission_schemes)}
    return [
        p
        for p in db.find(projects, order_by=[projects.c.key])
        if browse[p["permission_scheme_id"]] & held.get(p["id"], set())
    ]


def holders(db: Database, project: dict[str, Any], permission: str) -> set[str]:
    """The accounts (active, with Jira access) holding a permission in a project."""
    granted = set(db.get(permission_schemes, project["permission_scheme_id"])["grants"].get(permission, []))
    names = _role_names(db)
    members = {
        a["account_id"] for a in db.find(role_actors, project_id=project["id"]) if names[a["role_id"]] in granted
    }
    return {u["account_id"] for u in db.find(users) if u["account_id"] in members and u["active"] and u["jira_access"]}


def my_permissions(db: Database, project: dict[str, Any]) -> list[str]:
    """The permission keys the current account holds in a project."""
    person = me(db)
    if not person["active"] or not person["jira_access"]:
        return []
    grants = db.get(permission_schemes, project["permission_scheme_id"])["grants"]
    roles = roles_of(db, project["id"], person["account_id"])
    return [p for p in PERMISSIONS if roles & set(grants.get(p, []))]


def require(db: Database, project: dict[str, Any], permission: str, action: str) -> None:
    """Raise PermissionDenied("You do not have permission to <action> in project KEY.") without `permission`."""
    if not has_permission(db, project, permission):
        raise PermissionDenied(f"You do not have permission to {action} in project {project['key']}.")


def visible_project(db: Database, key_or_id: str) -> dict[str, Any]:
    """A project the current account can browse, by key (any case) or id."""
    wanted = key_or_id.strip()
    found = db.find(projects, key=wanted.upper()) or db.find(projects, id=wanted)
    if not found or not has_permission(db, found[0], "BROWSE_PROJECTS"):
        raise NotFound(f"No project could be found with key '{wanted}'.")
    return found[0]


def visible_issue(db: Database, key_or_id: str) -> dict[str, Any]:
    """An issue the current account can browse, by key (any case) or id."""
    wanted = key_or_id.strip()
    found = db.find(issues, key=wanted.upper()) or db.find(issues, id=wanted)
    if not found or not has_permission(db, project_of(db, found[0]), "BROWSE_PROJECTS"):
        raise NotFound(ISSUE_HIDDEN)
    return found[0]


def project_of(db: Database, issue: dict[str, Any]) -> dict[str, Any]:
    """The project an issue belongs to."""
    return db.get(projects, issue["project_id"], "Project")


def user(db: Database, account_id: str) -> dict[str, Any]:
    """A user by account id, with Jira's message when there is none."""
    return db.find_one(
        users, account_id=account_id.strip(), not_found=f"The user with account ID '{account_id}' does not exist."
    )


def assignable(db: Database, project: dict[str, Any], account_id: str) -> bool:
    """Whether an account can be assigned issues in a project: active, licensed for Jira, holding ASSIGNABLE_USER."""
    return has_permission(db, project, "ASSIGNABLE_USER", account_id)
