"""Who may see and change what: the signed-in user, their role on each project (READ < WRITE < ADMIN), entry
authorship and review locks, and who holds a container."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .rules import STORAGE_TABLES, contains, entity, storage
from .schema import collaborations, containers, entries, folders, projects, requests, sessions, users

ROLES = ("READ", "WRITE", "ADMIN")
LOCKED = {"NEEDS_REVIEW": "is waiting for review", "ACCEPTED": "has been accepted"}


def me(db: Database) -> dict[str, Any]:
    """The user whose API key the assistant holds."""
    session = db.current_session(
        sessions, "401 Unauthorized: no one is signed in. Ask the user to sign in to Benchling first."
    )
    return db.get(users, session["user_id"], "User")


def role(db: Database, user_id: str, project_id: str) -> str | None:
    """The user's role on a project (READ, WRITE or ADMIN), or None without access."""
    found = db.find(collaborations, project_id=project_id, user_id=user_id)
    return max((c["role"] for c in found), key=ROLES.index) if found else None


def visible_project(db: Database, user: dict[str, Any], project_id: str) -> dict[str, Any]:
    """A project the user collaborates on; others do not exist for them."""
    project = db.find(projects, id=project_id)
    if not project or role(db, user["id"], project_id) is None:
        raise NotFound(f"Project '{project_id}' not found")
    return project[0]


def require(db: Database, user: dict[str, Any], project_id: str, needed: str) -> dict[str, Any]:
    """The project, if the user holds at least `needed` on it and it is not archived."""
    project = visible_project(db, user, project_id)
    held = role(db, user["id"], project_id)
    if ROLES.index(held) < ROLES.index(needed):  # type: ignore[arg-type]
        raise PermissionDenied(f"You need {needed} access to project '{project['name']}' for this; you have {held}.")
    if project["archive_reason"]:
        raise Conflict(f"Project '{project['name']}' is archived and read-only.")
    return project


def visible_folder(db: Database, user: dict[str, Any], folder_id: str) -> dict[str, Any]:
    """A folder in a project the user can see."""
    folder = db.find(folders, id=folder_id)
    if not folder or role(db, user["id"], folder[0]["project_id"]) is None:
        raise NotFound(f"Folder '{folder_id}' not found")
    return folder[0]


def writable_folder(db: Database, user: dict[str, Any], folder_id: str) -> dict[str, Any]:
    """A live folder the user may add items to (WRITE on its project)."""
    folder = visible_folder(db, user, folder_id)
    require(db, user, folder["project_id"], "WRITE")
    if folder["archive_reason"]:
        raise Conflict(f"Folder '{folder['name']}' is archived.")
    return folder


def active_user(db: Database, user_id: str) -> dict[str, Any]:
    """A user who can be given work (not suspended)."""
    user = db.get(users, user_id, "User")
    if user["is_suspended"]:
        raise InvalidRequest(f"{user['name']} is suspended in this tenant.")
    return user


def entry_project(db: Database, row: dict[str, Any]) -> str:
    """The project of anything kept in a folder (entries, sequences, custom entities)."""
    return db.get(folders, row["folder_id"])["project_id"]


def visible_projects(db: Database, user: dict[str, Any]) -> set[str]:
    """Ids of the projects the user collaborates on."""
    return {p["id"] for p in db.find(projects) if role(db, user["id"], p["id"]) is not None}


def visible_entry(db: Database, user: dict[str, Any], entry_id: str) -> dict[str, Any]:
    """An entry in a project the user can see."""
    found = db.find(entries, id=entry_id)
    if not found or role(db, user["id"], entry_project(db, found[0])) is None:
        raise NotFound(f"Entry '{entry_id}' not found")
    return found[0]


def editable_entry(db: Database, user: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """An entry the user may change: live, not locked by review, and theirs (or they administer its project)."""
    project_id = entry_project(db, entry)
    require(db, user, project_id, "WRITE")
    if entry["archive_reason"]:
        raise Conflict(f"Entry {entry['display_id']} is archived.")
    if entry["review_status"] in LOCKED:
        raise Conflict(f"Entry {entry['display_id']} {LOCKED[entry['review_status']]} and is locked for editing.")
    if user["id"] not in entry["author_ids"] and role(db, user["id"], project_id) != "ADMIN":
        raise PermissionDenied(f"Only the authors of {entry['display_id']} or a project ADMIN can change it.")
    return entry


def check_authors(db: Database, project_id: str, author_ids: list[str]) -> list[str]:
    """Entry authors, each active with WRITE on the project, without repeats, in id order."""
    if not author_ids:
        raise InvalidRequest("An entry needs at least one author.")
    for author_id in author_ids:
        author = active_user(db, author_id)
        held = role(db, author_id, project_id)
        if held is None or held == "READ":
            raise InvalidRequest(f"{author['name']} needs WRITE access to the project to be an author.")
    return sorted(set(author_ids))


def visible_container(db: Database, user: dict[str, Any], container_id: str) -> dict[str, Any]:
    """A container outside projects, or in a project the user can see."""
    found = db.find(containers, id=container_id)
    if not found or (found[0]["project_id"] and role(db, user["id"], found[0]["project_id"]) is None):
        raise NotFound(f"Container '{container_id}' not found")
    return found[0]


def entity_visible(db: Database, user: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether a DNA sequence or custom entity sits in a project the user can see."""
    return role(db, user["id"], entry_project(db, row)) is not None


def holding(db: Database, container: dict[str, Any]) -> str:
    """Who holds a container, as people say it: "checked out to Priya Shah"."""
    verb = "checked out to" if container["checkout_status"] == "CHECKED_OUT" else "reserved for"
    return f"{verb} {db.get(users, container['checkout_assignee_id'], 'User')['name']}"


def live(db: Database, user: dict[str, Any], container: dict[str, Any]) -> None:
    """A container that is not archived, in a project the user can write (if it belongs to one)."""
    if container["archive_reason"]:
        raise Conflict(f"Container '{container['name']}' is archived ({container['archive_reason']}).")
    if container["project_id"]:
        require(db, user, container["project_id"], "WRITE")


def usable(db: Database, user: dict[str, Any], container: dict[str, Any]) -> None:
    """A container the user may change: live and not checked out to or reserved for someone else."""
    live(db, user, container)
    if container["checkout_status"] != "AVAILABLE" and container["checkout_assignee_id"] != user["id"]:
        raise Conflict(f"Container '{container['name']}' is {holding(db, container)}.")


def check_reviewers(db: Database, entry: dict[str, Any], project: dict[str, Any], reviewer_ids: list[str]) -> list[str]:
    """Reviewers of an entry, in id order: active collaborators on its project who are not its authors."""
    if not reviewer_ids:
        raise InvalidRequest("Choose at least one reviewer.")
    for reviewer_id in reviewer_ids:
        reviewer = active_user(db, reviewer_id)
        if reviewer_id in entry["author_ids"]:
            raise InvalidRequest(f"{reviewer['name']} is an author of this entry and can't review it.")
        if role(db, reviewer_id, project["id"]) is None:
            raise InvalidRequest(f"{reviewer['name']} has no access to project '{project['name']}'.")
    return sorted(set(reviewer_ids))


def visible_entities(
    db: Database,
    user: dict[str, Any],
    table: Any,
    name_includes: str | None,
    is_registered: bool | None,
    include_archived: bool,
    **equals: Any,
) -> list[dict[str, Any]]:
    """DNA sequences or custom entities the user can see, by name, filtered by the columns in `equals`."""
    if "folder_id" in equals:
        visible_folder(db, user, equals["folder_id"])
    return [
        r
        for r in db.find(table, order_by=[table.c.name], **equals)
        if entity_visible(db, user, r)
        and contains(r["name"], name_includes)
        and (include_archived or not r["archive_reason"])
        and (is_registered is None or (r["entity_registry_id"] is not None) == is_registered)
    ]


def visible_request(db: Database, user: dict[str, Any], request_id: str) -> dict[str, Any]:
    """A request of a project the user can see."""
    found = db.find(requests, id=request_id)
    if not found or role(db, user["id"], found[0]["project_id"]) is None:
        raise NotFound(f"Request '{request_id}' not found")
    return found[0]


def audited_project(db: Database, object_id: str) -> str | None:
    """The project an audited object belongs to (None for inventory outside projects)."""
    if object_id.startswith("etr_"):
        return db.get(folders, db.get(entries, object_id, "Entry")["folder_id"])["project_id"]
    if object_id.startswith(("seq_", "bfi_")):
        return db.get(folders, entity(db, object_id)[1]["folder_id"])["project_id"]
    if object_id.startswith("con_"):
        return db.get(containers, object_id, "Container")["project_id"]
    if object_id.startswith("req_"):
        return db.get(requests, object_id, "Request")["project_id"]
    if object_id.startswith(tuple(STORAGE_TABLES)):
        return storage(db, object_id)[1].get("project_id")
    raise NotFound(f"Object '{object_id}' not found")


def check_checkout(
    db: Database, user: dict[str, Any], container: dict[str, Any], status: str, assignee_id: str | None
) -> None:
    """Whether the user may give a container this check-out status: only its holder (or a project ADMIN) checks it
    in; one held by someone else can't be taken; giving the same status to the same person again is refused."""
    live(db, user, container)
    held, holder = container["checkout_status"], container["checkout_assignee_id"]
    if status == "AVAILABLE":
        if held == "AVAILABLE":
            raise Conflict(f"Container '{container['name']}' is not checked out or reserved.")
        project_id = container["project_id"]
        if holder != user["id"] and not (project_id and role(db, user["id"], project_id) == "ADMIN"):
            raise PermissionDenied(
                f"Container '{container['name']}' is {holding(db, container)}; only they or a "
                "project ADMIN can check it in."
            )
    elif held != "AVAILABLE" and holder not in (user["id"], assignee_id):
        raise Conflict(f"Container '{container['name']}' is {holding(db, container)}.")
    elif (held, holder) == (status, assignee_id):
        raise Conflict(f"Container '{container['name']}' is already {holding(db, container)}.")


def check_assignees(db: Database, project_id: str, assignee_ids: list[str]) -> list[str]:
    """Request assignees, in id order: active users with access to the request's project."""
    for assignee_id in assignee_ids:
        if role(db, active_user(db, assignee_id)["id"], project_id) is None:
            raise InvalidRequest(f"{db.get(users, assignee_id)['name']} has no access to this project.")
    return sorted(set(assignee_ids))
