"""Zendesk's ticket rules, shared by updates, macros, merges and emailed replies: the status state machine,
problem/incident links, tasks' due dates, group-based assignment, tags, CCs, comments, new users, merges, macros
and what an emailed reply or survey answer does."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .access import is_member, me
from .conditions import AGENT_ROLES, UNSOLVED
from .schema import group_memberships, groups, organizations, satisfaction_ratings, ticket_comments, tickets, users

PRIORITY_RANK = {None: 0, "low": 1, "normal": 2, "high": 3, "urgent": 4}
STATUS_RANK = {"new": 0, "open": 1, "pending": 2, "hold": 3, "solved": 4, "closed": 5}
SORT_KEYS = {
    "created_at": lambda t: t["created_at"],
    "updated_at": lambda t: t["updated_at"],
    "priority": lambda t: PRIORITY_RANK[t["priority"]],
    "status": lambda t: STATUS_RANK[t["status"]],
    "ticket_type": lambda t: t["type"] or "",
}


def next_id(db: Database, table: Any) -> int:
    """The next integer id of a table (Zendesk numbers tickets sequentially)."""
    last = db.select(table, order_by='"id" DESC', limit=1)
    return last[0]["id"] + 1 if last else 1


def normalize_tags(tags: list[str]) -> list[str]:
    """Zendesk tags are lower case; spaces split a value into several tags."""
    return [t for value in tags for t in value.lower().split()]


def merge_tags(current: list[str], add: list[str]) -> list[str]:
    """Current tags plus new ones, without duplicates, in order."""
    return current + [t for t in dict.fromkeys(add) if t not in current]


def user_by_email(db: Database, email: str) -> dict[str, Any]:
    """The user with this email address."""
    return db.find_one(users, email=email.strip().lower(), not_found=f"No user with the email {email}")


def organization_for(db: Database, email: str) -> int | None:
    """The organization whose domain names include the email's domain (Zendesk maps new users this way)."""
    domain = email.rsplit("@", 1)[-1].lower()
    for org in db.find(organizations, order_by=[organizations.c.id]):
        if domain in org["domain_names"]:
            return org["id"]
    return None


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


def due_date(value: str) -> str:
    """A task's due date as stored: a UTC time, or noon UTC of a bare date (Zendesk's default for dates)."""
    if "T" in value:
        return iso_timestamp(parse_timestamp(value, "Due date", "2025-06-20T17:00:00Z"))
    return f"{parse_date(value, 'Due date', '2025-06-20').isoformat()}T12:00:00Z"


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
        new["due_at"] = due_date(due_at)
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


def sort_tickets(rows: list[dict[str, Any]], sort_by: str, descending: bool) -> list[dict[str, Any]]:
    """Tickets in a search's or view's order, ties by ticket number."""
    return sorted(sorted(rows, key=lambda t: t["id"]), key=SORT_KEYS[sort_by], reverse=descending)


# ---------------------------------------------------------------- people


def insert_user(
    db: Database,
    name: str,
    email: str,
    role: str,
    organization_id: int | None,
    phone: str | None,
    tags: list[str],
    notes: str = "",
) -> dict[str, Any]:
    """A new user; email addresses are unique across the account."""
    if db.find(users, email=email):
        raise Conflict(f"Email: {email} is already being used by another user")
    if organization_id is not None:
        db.get(organizations, organization_id, "Organization")
    return db.insert(
        users,
        id=next_id(db, users),
        name=name.strip(),
        email=email,
        role=role,
        organization_id=organization_id,
        default_group_id=None,
        phone=phone,
        time_zone="UTC",
        tags=normalize_tags(tags),
        notes=notes,
        suspended=False,
        created_at=db.now_iso(),
    )


def requester_for(db: Database, email: str, name: str | None) -> dict[str, Any]:
    """A ticket's requester by email; an unknown address becomes an end user in the organization owning its
    domain (a name is then needed). Suspended users can't request."""
    found = db.find(users, email=email)
    if found:
        requester = found[0]
    else:
        if name is None:
            raise InvalidRequest(f"Requester: {email} is not a user yet; give requester_name to create them")
        requester = insert_user(db, name, email, "end-user", organization_for(db, email), None, [])
    if requester["suspended"]:
        raise PermissionDenied(f"Requester: {requester['name']} is suspended")
    return requester


def add_membership(db: Database, user_id: int, group_id: int, default: bool) -> dict[str, Any]:
    """Put an agent in a group; a default membership replaces the agent's earlier default."""
    user = db.get(users, user_id, "User")
    group = db.get(groups, group_id, "Group")
    if user["role"] not in AGENT_ROLES:
        raise InvalidRequest(f"User: {user['name']} is an end user; only agents can be group members")
    if is_member(db, user_id, group_id):
        raise Conflict(f"{user['name']} is already a member of {group['name']}")
    if default:
        for membership in db.find(group_memberships, user_id=user_id, default=True):
            db.update(group_memberships, membership["id"], default=False)
        db.update(users, user_id, default_group_id=group_id)
    return db.insert(
        group_memberships,
        id=next_id(db, group_memberships),
        user_id=user_id,
        group_id=group_id,
        default=default,
        created_at=db.now_iso(),
    )


# ---------------------------------------------------------------- new tickets and merges


def open_ticket(
    db: Database, subject: str, body: str, requester: dict[str, Any], public: bool, changes: dict[str, Any]
) -> dict[str, Any]:
    """A new ticket from the signed-in agent with its first comment as the description, then `changes` applied
    with every rule checked; the requester's organization's tags join the ticket's."""
    agent = me(db)
    org_tags = db.get(organizations, requester["organization_id"])["tags"] if requester["organization_id"] else []
    now = db.now_iso()
    ticket_id = next_id(db, tickets)
    row = db.insert(
        tickets,
        id=ticket_id,
        subject=subject.strip(),
        description=body.strip(),
        status="new",
        priority=None,
        type=None,
        requester_id=requester["id"],
        submitter_id=agent["id"],
        assignee_id=None,
        group_id=None,
        organization_id=requester["organization_id"],
        collaborator_ids=[],
        problem_id=None,
        due_at=None,
        tags=[],
        via_channel="api",
        via_followup_source_id=None,
        created_at=now,
        updated_at=now,
        solved_at=None,
    )
    add_comment(db, row, agent, body, public)
    tags = merge_tags(normalize_tags(changes.pop("tags") or []), org_tags)
    return apply_changes(db, ticket_id, tags=tags, **changes)


def _mergeable(db: Database, ticket_id: int) -> dict[str, Any]:
    ticket = db.get(tickets, ticket_id, "Ticket")
    if ticket["status"] == "closed":
        raise Conflict(f"Ticket #{ticket_id} is closed and can't be merged")
    return ticket


def merge(
    db: Database,
    target_id: int,
    source_ids: list[int],
    target_comment: str | None,
    source_comment: str | None,
    target_public: bool | None,
    source_public: bool | None,
) -> tuple[dict[str, Any], list[int]]:
    """Close each source into the target with a note, quote the sources' public comments on the target and CC
    their requesters; notes are public by default only when every requester is the target's."""
    if len(set(source_ids)) != len(source_ids):
        raise InvalidRequest("source_ticket_ids: give 1 to 5 different tickets")
    if target_id in source_ids:
        raise InvalidRequest("A ticket can't be merged into itself")
    target = _mergeable(db, target_id)
    sources = [_mergeable(db, i) for i in source_ids]
    same_requester = all(s["requester_id"] == target["requester_id"] for s in sources)
    agent = me(db)
    names = {u["id"]: u["name"] for u in db.find(users)}
    quoted = []
    ccs = list(target["collaborator_ids"])
    for source in sources:
        note = source_comment or (
            f'This request was closed and merged into request #{target["id"]} "{target["subject"]}".'
        )
        add_comment(db, source, agent, note, same_requester if source_public is None else source_public)
        db.update(
            tickets,
            source["id"],
            status="closed",
            updated_at=db.now_iso(),
            solved_at=source["solved_at"] or db.now_iso(),
        )
        lines = [f'Request #{source["id"]} "{source["subject"]}" was closed and merged into this request.']
        for c in db.find(ticket_comments, ticket_id=source["id"], public=True, order_by=[ticket_comments.c.created_at]):
            if c["body"] != note:
                lines.append(f"{names[c['author_id']]}: {c['body']}")
        quoted.append("\n".join(lines))
        for person in [source["requester_id"], *source["collaborator_ids"]]:
            if person != target["requester_id"] and person not in ccs:
                ccs.append(person)
    body = "\n\n".join(([target_comment] if target_comment else []) + quoted)
    target = db.update(tickets, target["id"], collaborator_ids=ccs, updated_at=db.now_iso())
    add_comment(db, target, agent, body, same_requester if target_public is None else target_public)
    return target, [s["id"] for s in sources]


# ---------------------------------------------------------------- macros


def _render(text: str, ticket: dict[str, Any], requester: dict[str, Any], agent: dict[str, Any]) -> str:
    values = {
        "ticket.id": str(ticket["id"]),
        "ticket.title": ticket["subject"],
        "ticket.requester.name": requester["name"],
        "ticket.requester.first_name": requester["name"].split()[0],
        "current_user.name": agent["name"],
        "current_user.first_name": agent["name"].split()[0],
    }
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def _words(value: Any) -> list[str]:
    return value if isinstance(value, list) else str(value).split()


def macro_changes(db: Database, macro: dict[str, Any], ticket: dict[str, Any], agent: dict[str, Any]) -> dict[str, Any]:
    """What an active macro's actions do to a ticket, as apply_changes arguments (placeholders in its comment
    filled)."""
    requester = db.get(users, ticket["requester_id"], "User")
    changes: dict[str, Any] = {"public": True}
    for action in macro["actions"]:
        field, value = action["field"], action["value"]
        if field == "assignee_id":
            changes["assignee_id"] = agent["id"] if value == "current_user" else value
        elif field in ("status", "priority", "type", "group_id", "subject"):
            changes[field] = value
        elif field == "set_tags":
            changes["tags"] = _words(value)
        elif field == "current_tags":
            changes["additional_tags"] = _words(value)
        elif field == "remove_tags":
            changes["remove_tags"] = _words(value)
        elif field == "comment_value":
            changes["comment"] = _render(str(value), ticket, requester, agent)
        elif field == "comment_mode_is_public":
            changes["public"] = bool(value)
    return changes


# ---------------------------------------------------------------- the end user's email


def email_reply(db: Database, sender: dict[str, Any], ticket: dict[str, Any], body: str) -> tuple[dict, dict]:
    """A reply to a ticket's notification email: it reopens a pending or solved ticket, and a reply to a closed
    ticket starts a follow-up. Returns the ticket it landed on and the comment."""
    if sender["id"] != ticket["requester_id"] and sender["id"] not in ticket["collaborator_ids"]:
        raise PermissionDenied(f"{sender['email']} isn't the requester or a CC of ticket #{ticket['id']}")
    if ticket["status"] == "closed":
        now = db.now_iso()
        follow_up = db.insert(
            tickets,
            **{
                **ticket,
                "id": next_id(db, tickets),
                "subject": f"Re: {ticket['subject']}",
                "description": body.strip(),
                "status": "open" if ticket["assignee_id"] else "new",
                "problem_id": None,
                "via_channel": "email",
                "via_followup_source_id": ticket["id"],
                "created_at": now,
                "updated_at": now,
                "solved_at": None,
            },
        )
        return follow_up, add_comment(db, follow_up, sender, body, True, "email")
    comment = add_comment(db, ticket, sender, body, True, "email")
    status = "open" if ticket["status"] in ("pending", "solved") else ticket["status"]
    row = db.update(
        tickets,
        ticket["id"],
        status=status,
        solved_at=None if status == "open" else ticket["solved_at"],
        updated_at=db.now_iso(),
    )
    return row, comment


def rate(db: Database, sender: dict[str, Any], ticket: dict[str, Any], score: str, comment: str) -> dict[str, Any]:
    """The requester's rating of a solved ticket; rating again replaces the earlier rating."""
    if sender["id"] != ticket["requester_id"]:
        raise PermissionDenied(f"Only the requester can rate ticket #{ticket['id']}")
    if ticket["status"] != "solved":
        raise InvalidRequest(f"Ticket #{ticket['id']} is {ticket['status']}; only solved tickets can be rated")
    now = db.now_iso()
    existing = db.find(satisfaction_ratings, ticket_id=ticket["id"])
    values = dict(
        score=score,
        comment=comment.strip(),
        assignee_id=ticket["assignee_id"],
        group_id=ticket["group_id"],
        updated_at=now,
    )
    if existing:
        return db.update(satisfaction_ratings, existing[0]["id"], **values)
    return db.insert(
        satisfaction_ratings,
        id=next_id(db, satisfaction_ratings),
        ticket_id=ticket["id"],
        requester_id=sender["id"],
        created_at=now,
        **values,
    )
