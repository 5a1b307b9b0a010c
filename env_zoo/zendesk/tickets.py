"""Zendesk's ticket rules, shared by updates, macros, merges and emailed replies: the status state machine,
problem/incident links, tasks' due dates, group-based assignment, tags, CCs and comments."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .conditions import AGENT_ROLES, UNSOLVED
from .schema import account, group_memberships, groups, organizations, ticket_comments, tickets, users

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)
DUE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$")


def next_id(db: Database, table: Any) -> int:
    """The next integer id of a table (Zendesk numbers tickets sequentially)."""
    return (db.conn.execute(select(func.max(table.c.id))).scalar() or 0) + 1


def me(db: Database) -> dict[str, Any]:
    """The agent the API token belongs to."""
    return db.get(users, db.find(account)[0]["current_user_id"], "User")


def is_member(db: Database, user_id: int, group_id: int) -> bool:
    """Whether an agent belongs to a group."""
    return bool(db.find(group_memberships, user_id=user_id, group_id=group_id))


def normalize_tags(tags: list[str]) -> list[str]:
    """Zendesk tags are lower case; spaces split a value into several tags."""
    return [t for value in tags for t in value.lower().split()]


def merge_tags(current: list[str], add: list[str]) -> list[str]:
    """Current tags plus new ones, without duplicates, in order."""
    return current + [t for t in dict.fromkeys(add) if t not in current]


def user_by_email(db: Database, email: str) -> dict[str, Any]:
    """The user with this email address."""
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound(f"No user with the email {email}")
    return found[0]


def organization_for(db: Database, email: str) -> int | None:
    """The organization whose domain names include the email's domain (Zendesk maps new users this way)."""
    domain = email.rsplit("@", 1)[-1].lower()
    for org in db.find(organizations, order_by=[organizations.c.id]):
        if domain in org["domain_names"]:
            return org["id"]
    return None


def check_email(email: str) -> str:
    """A valid, lower-cased email address."""
    clean = email.strip().lower()
    if not EMAIL.match(clean):
        raise InvalidRequest(f"Email: {email} is not properly formatted")
    return clean


def editable(db: Database, ticket_id: int) -> dict[str, Any]:
    """A ticket that may still change: closed tickets are final."""
    ticket = db.get(tickets, ticket_id, "Ticket")
    if ticket["status"] == "closed":
        raise Conflict(f"Status: closed prevents ticket update (ticket #{ticket_id}). Create a follow-up instead.")
    return ticket


def add_comment(
    db: Database, ticket: dict[str, Any], author: dict[str, Any], body: str, public: bool, channel: str = "api"
) -> dict[str, Any]:
    """Append a comment; only agents write internal notes, and end users only on tickets they are part of."""
    if not body.strip():
        raise InvalidRequest("Comment: body can't be blank")
    if author["suspended"]:
        raise PermissionDenied(f"{author['name']} is suspended and can't comment")
    if author["role"] not in AGENT_ROLES:
        if not public:
            raise PermissionDenied("Only agents can add internal notes; end users' comments are always public")
        if author["id"] != ticket["requester_id"] and author["id"] not in ticket["collaborator_ids"]:
            raise PermissionDenied(f"{author['name']} isn't the requester or a CC of ticket #{ticket['id']}")
    return db.insert(
        ticket_comments,
        id=next_id(db, ticket_comments),
        ticket_id=ticket["id"],
        author_id=author["id"],
        body=body.strip(),
        public=public,
        via_channel=channel,
        created_at=db.now_iso(),
    )


def _check_type(
    db: Database, ticket: dict[str, Any], new: dict[str, Any], problem_id: int | None, due_at: str | None
) -> None:
    """Problem/incident links and tasks' due dates."""
    if problem_id is not None:
        problem = db.get(tickets, problem_id, "Ticket")
        if problem["type"] != "problem":
            raise InvalidRequest(f"Problem: ticket #{problem_id} is not a problem ticket")
        if problem_id == ticket["id"]:
            raise InvalidRequest("Problem: a ticket can't be linked to itself")
        if problem["status"] == "closed":
            raise InvalidRequest(f"Problem: ticket #{problem_id} is closed")
        new["problem_id"] = problem_id
    if new["type"] != "incident":
        if problem_id is not None:
            raise InvalidRequest("Problem: only incidents can be linked to a problem (set type to incident)")
        new["problem_id"] = None
    if ticket["type"] == "problem" and new["type"] != "problem":
        linked = db.find(tickets, problem_id=ticket["id"])
        if linked:
            raise Conflict(f"Ticket #{ticket['id']} has {len(linked)} linked incidents; it must stay a problem")
    if due_at is not None:
        if new["type"] != "task":
            raise InvalidRequest("Due date: can only be set on tasks (set type to task)")
        if not DUE.match(due_at):
            raise InvalidRequest("Due date: use a date (2025-06-20) or a UTC time (2025-06-20T17:00:00Z)")
        new["due_at"] = due_at if "T" in due_at else f"{due_at}T12:00:00Z"
    if new["type"] != "task":
        new["due_at"] = None


def _check_assignment(
    db: Database, ticket: dict[str, Any], new: dict[str, Any], group_id: int | None, assignee_id: int | None
) -> None:
    """An assignee is an agent who belongs to the ticket's group."""
    if group_id is not None:
        db.get(groups, group_id, "Group")
        new["group_id"] = group_id
    if assignee_id is None:
        if (
            new["assignee_id"] is not None
            and new["group_id"] is not None
            and not is_member(db, new["assignee_id"], new["group_id"])
        ):
            new["assignee_id"] = None  # moving to a group the assignee isn't in unassigns the ticket
        return
    agent = db.get(users, assignee_id, "User")
    if agent["role"] not in AGENT_ROLES:
        raise InvalidRequest(f"Assignee: {agent['name']} is an end user; only agents can be assigned tickets")
    if agent["suspended"]:
        raise InvalidRequest(f"Assignee: {agent['name']} is suspended")
    if new["group_id"] is None:
        new["group_id"] = agent["default_group_id"]
    if new["group_id"] is None or not is_member(db, assignee_id, new["group_id"]):
        name = db.get(groups, new["group_id"], "Group")["name"] if new["group_id"] else "none"
        raise InvalidRequest(f"Assignee: {agent['name']} is not a member of the group '{name}'")
    new["assignee_id"] = assignee_id


def _check_status(ticket: dict[str, Any], new: dict[str, Any], status: str | None) -> None:
    if status == "new" and ticket["status"] != "new":
        raise InvalidRequest(f"Status: ticket #{ticket['id']} has been opened and can't go back to new")
    if status is None and ticket["status"] == "new" and new["assignee_id"] is not None:
        status = "open"  # assigning a new ticket opens it
    if status is not None:
        new["status"] = status
    if new["status"] == "solved" and new["assignee_id"] is None:
        raise InvalidRequest("Assignee: is required when solving a ticket")


def apply_changes(
    db: Database,
    ticket_id: int,
    *,
    subject: str | None = None,
    status: str | None = None,
    priority: str | None = None,
    type: str | None = None,
    group_id: int | None = None,
    assignee_id: int | None = None,
    problem_id: int | None = None,
    due_at: str | None = None,
    tags: list[str] | None = None,
    additional_tags: list[str] | None = None,
    remove_tags: list[str] | None = None,
    collaborator_emails: list[str] | None = None,
    comment: str | None = None,
    public: bool = True,
    author: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Update a ticket the way PUT /api/v2/tickets/{id} does, with every rule checked; returns the stored row."""
    ticket = editable(db, ticket_id)
    new = dict(ticket)
    if subject is not None:
        if not subject.strip():
            raise InvalidRequest("Subject: can't be blank")
        new["subject"] = subject.strip()
    if priority is not None:
        new["priority"] = priority
    if type is not None:
        new["type"] = type
    _check_type(db, ticket, new, problem_id, due_at)
    _check_assignment(db, ticket, new, group_id, assignee_id)
    _check_status(ticket, new, status)
    if tags is not None:
        new["tags"] = list(dict.fromkeys(normalize_tags(tags)))
    if additional_tags:
        new["tags"] = merge_tags(new["tags"], normalize_tags(additional_tags))
    if remove_tags:
        dropped = set(normalize_tags(remove_tags))
        new["tags"] = [t for t in new["tags"] if t not in dropped]
    for email in collaborator_emails or []:
        person = user_by_email(db, email)
        if person["id"] != new["requester_id"] and person["id"] not in new["collaborator_ids"]:
            new["collaborator_ids"] = new["collaborator_ids"] + [person["id"]]
    author = author or me(db)
    if comment is not None:
        add_comment(db, new, author, comment, public)
        if author["id"] == ticket["requester_id"] and status is None and new["status"] in ("pending", "solved"):
            new["status"] = "open"  # the requester answered
    if new["status"] == "solved" and ticket["status"] != "solved":
        new["solved_at"] = db.now_iso()
    elif new["status"] in UNSOLVED:
        new["solved_at"] = None
    new["updated_at"] = db.now_iso()
    row = db.update(tickets, ticket_id, **{k: v for k, v in new.items() if k != "id"})
    if row["type"] == "problem" and row["status"] == "solved" and ticket["status"] != "solved":
        _solve_incidents(db, row, comment, public, author)
    return row


def _solve_incidents(
    db: Database, problem: dict[str, Any], comment: str | None, public: bool, author: dict[str, Any]
) -> None:
    """Solving a problem solves its unsolved incidents, with the problem's comment and, where they have none,
    its group and assignee."""
    for incident in db.find(tickets, problem_id=problem["id"], order_by=[tickets.c.id]):
        if incident["status"] not in UNSOLVED:
            continue
        if comment is not None:
            add_comment(db, incident, author, comment, public)
        assignee = incident["assignee_id"] or problem["assignee_id"]
        group = incident["group_id"] if incident["assignee_id"] else problem["group_id"]
        db.update(
            tickets,
            incident["id"],
            status="solved",
            assignee_id=assignee,
            group_id=group,
            solved_at=db.now_iso(),
            updated_at=db.now_iso(),
        )
