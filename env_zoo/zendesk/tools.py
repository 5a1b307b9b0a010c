"""Zendesk Support API tools: tickets and comments, search and views, users, organizations, groups, macros,
SLA policies, merges and satisfaction ratings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, Page, PermissionDenied, Unordered, paginate, tool

from .conditions import AGENT_ROLES, conditions_match
from .objects import (
    CommentObject,
    GroupMember,
    GroupMembershipObject,
    GroupObject,
    MacroObject,
    MergeResult,
    OrganizationObject,
    ReplyResult,
    SatisfactionRatingObject,
    SlaPolicyObject,
    TicketObject,
    UserObject,
    ViewObject,
    next_breach,
    roles_by_id,
    ticket_object,
)
from .schema import (
    group_memberships,
    groups,
    macros,
    organizations,
    satisfaction_ratings,
    sla_policies,
    ticket_comments,
    tickets,
    users,
    views,
)
from .search import Context, matcher, parse
from .tickets import (
    add_comment,
    apply_changes,
    check_email,
    editable,
    is_member,
    me,
    merge_tags,
    next_id,
    normalize_tags,
    organization_for,
    user_by_email,
)

Status = Literal["new", "open", "pending", "hold", "solved"]
Priority = Literal["low", "normal", "high", "urgent"]
TicketType = Literal["problem", "incident", "question", "task"]
PRIORITY_RANK = {None: 0, "low": 1, "normal": 2, "high": 3, "urgent": 4}
STATUS_RANK = {"new": 0, "open": 1, "pending": 2, "hold": 3, "solved": 4, "closed": 5}


def _sorted(rows: list[dict[str, Any]], sort_by: str, descending: bool) -> list[dict[str, Any]]:
    keys = {
        "created_at": lambda t: t["created_at"],
        "updated_at": lambda t: t["updated_at"],
        "priority": lambda t: PRIORITY_RANK[t["priority"]],
        "status": lambda t: STATUS_RANK[t["status"]],
        "ticket_type": lambda t: t["type"] or "",
    }
    return sorted(sorted(rows, key=lambda t: t["id"]), key=keys[sort_by], reverse=descending)


# ---------------------------------------------------------------- tickets


@tool(read_only=True)
def search_tickets(
    db: Database,
    query: str,
    sort_by: Literal["created_at", "updated_at", "priority", "status", "ticket_type"] = "updated_at",
    sort_order: Literal["asc", "desc"] = "desc",
    page_size: int = 25,
    cursor: str | None = None,
) -> Page[TicketObject]:
    """Search tickets with Zendesk's query syntax: `status:open assignee:me tags:vip`, `status<solved`,
    `priority>=high`, `requester:dana@halcyonhealth.com`, `organization:"Halcyon Health"`, `group:Billing`,
    `assignee:none`, `ticket_type:incident`, `created>2025-06-01`, `updated<2days`, `-tags:spam`, and free text
    (each word or "quoted phrase" must appear in the subject, description or a comment). A keyword repeated with
    ':' matches any of its values; different keywords must all match.

    Args:
        query: The search query.
        sort_by: Field to sort by.
        sort_order: asc or desc.
        page_size: Results per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    terms = parse(query)
    rows = db.find(tickets)
    text = {t["id"]: f"{t['subject']}\n{t['description']}".lower() for t in rows}
    if any(term.key == "" for term in terms):
        for comment in db.find(ticket_comments):
            text[comment["ticket_id"]] += "\n" + comment["body"].lower()
    ctx = Context(me(db)["id"], db.find(users), db.find(groups), db.find(organizations), text, db.now())
    found = _sorted([t for t in rows if matcher(terms, ctx)(t)], sort_by, sort_order == "desc")
    page = paginate(found, page_size, cursor)
    roles = roles_by_id(db)
    return Page[TicketObject](
        results=[ticket_object(db, t, roles) for t in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool(read_only=True)
def show_ticket(db: Database, ticket_id: int) -> TicketObject:
    """Show one ticket with its linked incidents, satisfaction rating and SLA targets.

    Args:
        ticket_id: The ticket number (e.g. 4172).
    """
    return ticket_object(db, db.get(tickets, ticket_id, "Ticket"))


@tool(read_only=True)
def list_ticket_comments(db: Database, ticket_id: int) -> list[CommentObject]:
    """List a ticket's conversation, oldest first: public replies and internal notes.

    Args:
        ticket_id: The ticket number.
    """
    db.get(tickets, ticket_id, "Ticket")
    names = {u["id"]: u["name"] for u in db.find(users)}
    rows = db.find(ticket_comments, ticket_id=ticket_id, order_by=[ticket_comments.c.created_at])
    return [CommentObject(**r, author_name=names[r["author_id"]]) for r in rows]


@tool()
def create_ticket(
    db: Database,
    subject: str,
    comment_body: str,
    requester_email: str,
    requester_name: str | None = None,
    comment_public: bool = True,
    status: Status | None = None,
    priority: Priority | None = None,
    type: TicketType | None = None,
    group_id: int | None = None,
    assignee_id: int | None = None,
    problem_id: int | None = None,
    due_at: str | None = None,
    tags: list[str] | None = None,
) -> TicketObject:
    """Create a ticket on behalf of a requester, with the first comment as its description. An unknown email
    creates the requester as an end user (requester_name needed), in the organization that owns the email's
    domain. The organization's tags are added to the ticket. A ticket with an assignee starts open, else new.

    Args:
        subject: The ticket's subject line.
        comment_body: The first comment (becomes the description).
        requester_email: The requester's email address.
        requester_name: The requester's name, required when the email is not yet a user.
        comment_public: false to make the first comment an internal note.
        status: Initial status (new, open, pending, hold or solved).
        priority: low, normal, high or urgent.
        type: problem, incident, question or task.
        group_id: The group to route the ticket to.
        assignee_id: The agent to assign; must be in the ticket's group.
        problem_id: For incidents: the problem ticket to link to.
        due_at: For tasks: the due date (2025-06-20 or 2025-06-20T17:00:00Z).
        tags: Tags to set.
    """
    if not subject.strip():
        raise InvalidRequest("Subject: can't be blank")
    email = check_email(requester_email)
    found = db.find(users, email=email)
    if found:
        requester = found[0]
    else:
        if not requester_name or not requester_name.strip():
            raise InvalidRequest(f"Requester: {email} is not a user yet; give requester_name to create them")
        requester = _insert_user(db, requester_name, email, "end-user", organization_for(db, email), None, [])
    if requester["suspended"]:
        raise PermissionDenied(f"Requester: {requester['name']} is suspended")
    agent = me(db)
    org_tags = db.get(organizations, requester["organization_id"])["tags"] if requester["organization_id"] else []
    now = db.now_iso()
    ticket_id = next_id(db, tickets)
    row = db.insert(
        tickets,
        id=ticket_id,
        subject=subject.strip(),
        description=comment_body.strip(),
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
    add_comment(db, row, agent, comment_body, comment_public)
    row = apply_changes(
        db,
        ticket_id,
        status=status,
        priority=priority,
        type=type,
        group_id=group_id,
        assignee_id=assignee_id,
        problem_id=problem_id,
        due_at=due_at,
        tags=merge_tags(normalize_tags(tags or []), org_tags),
    )
    return ticket_object(db, row)


@tool()
def update_ticket(
    db: Database,
    ticket_id: int,
    status: Status | None = None,
    priority: Priority | None = None,
    type: TicketType | None = None,
    subject: str | None = None,
    group_id: int | None = None,
    assignee_id: int | None = None,
    problem_id: int | None = None,
    due_at: str | None = None,
    tags: list[str] | None = None,
    additional_tags: Annotated[list[str], Unordered] | None = None,
    remove_tags: list[str] | None = None,
    additional_collaborators: Annotated[list[str], Unordered] | None = None,
    comment_body: str | None = None,
    comment_public: bool = True,
    comment_author_id: int | None = None,
) -> TicketObject:
    """Update a ticket and optionally add a comment (a public reply or an internal note). Rules: closed tickets
    can't change; a ticket can't go back to new; solving needs an assignee; the assignee must be an agent in the
    ticket's group (moving the ticket to a group the assignee isn't in unassigns it); only incidents link to a
    problem; only tasks have a due date; solving a problem also solves its open incidents with the same comment.

    Args:
        ticket_id: The ticket number.
        status: New status: new, open, pending, hold or solved.
        priority: low, normal, high or urgent.
        type: problem, incident, question or task.
        subject: New subject line.
        group_id: The group to move the ticket to.
        assignee_id: The agent to assign.
        problem_id: Link this incident to a problem ticket.
        due_at: For tasks: the due date (2025-06-20 or 2025-06-20T17:00:00Z).
        tags: Replace all tags with these.
        additional_tags: Tags to add.
        remove_tags: Tags to remove.
        additional_collaborators: Emails of users to CC.
        comment_body: Text of a comment to add.
        comment_public: false for an internal note (agents only).
        comment_author_id: Who the comment is from (default: you); e.g. the requester when logging their phone call.
    """
    author = db.get(users, comment_author_id, "User") if comment_author_id is not None else None
    row = apply_changes(
        db,
        ticket_id,
        subject=subject,
        status=status,
        priority=priority,
        type=type,
        group_id=group_id,
        assignee_id=assignee_id,
        problem_id=problem_id,
        due_at=due_at,
        tags=tags,
        additional_tags=additional_tags,
        remove_tags=remove_tags,
        collaborator_emails=additional_collaborators,
        comment=comment_body,
        public=comment_public,
        author=author,
    )
    return ticket_object(db, row)


@tool()
def merge_tickets(
    db: Database,
    target_ticket_id: int,
    source_ticket_ids: list[int],
    target_comment: str | None = None,
    source_comment: str | None = None,
    target_comment_is_public: bool | None = None,
    source_comment_is_public: bool | None = None,
) -> MergeResult:
    """Merge up to 5 source tickets into a target: each source is closed with a note pointing to the target; the
    target gets a note quoting the sources' public comments, and the sources' requesters become CCs. Closed
    tickets can't be merged. Comments are public by default only when the requesters are the same.

    Args:
        target_ticket_id: The ticket that stays open.
        source_ticket_ids: The tickets to close into it (1 to 5).
        target_comment: The note added to the target (a default names the sources).
        source_comment: The note added to each source (a default names the target).
        target_comment_is_public: Whether the target's note is public.
        source_comment_is_public: Whether the sources' notes are public.
    """
    if not 1 <= len(source_ticket_ids) <= 5 or len(set(source_ticket_ids)) != len(source_ticket_ids):
        raise InvalidRequest("source_ticket_ids: give 1 to 5 different tickets")
    if target_ticket_id in source_ticket_ids:
        raise InvalidRequest("A ticket can't be merged into itself")
    target = _mergeable(db, target_ticket_id)
    sources = [_mergeable(db, i) for i in source_ticket_ids]
    same_requester = all(s["requester_id"] == target["requester_id"] for s in sources)
    agent = me(db)
    names = {u["id"]: u["name"] for u in db.find(users)}
    quoted = []
    ccs = list(target["collaborator_ids"])
    for source in sources:
        note = source_comment or (
            f'This request was closed and merged into request #{target["id"]} "{target["subject"]}".'
        )
        add_comment(
            db, source, agent, note, same_requester if source_comment_is_public is None else source_comment_is_public
        )
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
    add_comment(
        db, target, agent, body, same_requester if target_comment_is_public is None else target_comment_is_public
    )
    return MergeResult(target=ticket_object(db, target), closed_source_ids=[s["id"] for s in sources])


def _mergeable(db: Database, ticket_id: int) -> dict[str, Any]:
    ticket = db.get(tickets, ticket_id, "Ticket")
    if ticket["status"] == "closed":
        raise Conflict(f"Ticket #{ticket_id} is closed and can't be merged")
    return ticket


# ---------------------------------------------------------------- macros


@tool(read_only=True)
def list_macros(db: Database, active: bool | None = None) -> list[MacroObject]:
    """List the account's macros with their actions and group restrictions.

    Args:
        active: true for active macros only, false for inactive ones only.
    """
    rows = db.find(macros, order_by=[macros.c.position])
    return [MacroObject(**m) for m in rows if active is None or m["active"] == active]


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


@tool()
def apply_macro(db: Database, ticket_id: int, macro_id: int) -> TicketObject:
    """Apply a macro to a ticket and submit the result, as an agent does from the ticket's Apply macro menu.
    Placeholders such as {{ticket.requester.first_name}} in its comment are filled in. Inactive macros can't be
    used, and a macro restricted to groups is only available to agents in those groups.

    Args:
        ticket_id: The ticket number.
        macro_id: The macro's ID, from list_macros.
    """
    macro = db.get(macros, macro_id, "Macro")
    agent = me(db)
    if not macro["active"]:
        raise InvalidRequest(f"Macro '{macro['title']}' is inactive")
    restriction = macro["restriction"]
    if restriction and not any(is_member(db, agent["id"], g) for g in restriction["ids"]):
        raise PermissionDenied(f"Macro '{macro['title']}' is only available to agents in its groups")
    ticket = editable(db, ticket_id)
    requester = db.get(users, ticket["requester_id"], "User")
    changes: dict[str, Any] = {}
    public = True
    for action in macro["actions"]:
        field, value = action["field"], action["value"]
        if field == "assignee_id":
            changes["assignee_id"] = agent["id"] if value == "current_user" else value
        elif field in ("status", "priority", "type", "group_id", "subject"):
            changes[field] = value
        elif field == "set_tags":
            changes["tags"] = value if isinstance(value, list) else str(value).split()
        elif field == "current_tags":
            changes["additional_tags"] = value if isinstance(value, list) else str(value).split()
        elif field == "remove_tags":
            changes["remove_tags"] = value if isinstance(value, list) else str(value).split()
        elif field == "comment_value":
            changes["comment"] = _render(str(value), ticket, requester, agent)
        elif field == "comment_mode_is_public":
            public = bool(value)
    return ticket_object(db, apply_changes(db, ticket_id, public=public, author=agent, **changes))


# ---------------------------------------------------------------- people


@tool(read_only=True)
def show_current_user(db: Database) -> UserObject:
    """Show the agent you are signed in as (users/me)."""
    return UserObject(**me(db))


@tool(read_only=True)
def search_users(
    db: Database,
    query: str | None = None,
    role: Literal["end-user", "agent", "admin"] | None = None,
    organization_id: int | None = None,
    page_size: int = 25,
    cursor: str | None = None,
) -> Page[UserObject]:
    """Find users by part of their name or email, optionally by role or organization.

    Args:
        query: Text to look for in names and emails.
        role: Only users with this role.
        organization_id: Only users of this organization.
        page_size: Results per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    equals: dict[str, Any] = {}
    if role is not None:
        equals["role"] = role
    if organization_id is not None:
        db.get(organizations, organization_id, "Organization")
        equals["organization_id"] = organization_id
    needle = (query or "").strip().lower()
    rows = [
        u
        for u in db.find(users, order_by=[users.c.name], **equals)
        if needle in u["name"].lower() or needle in u["email"]
    ]
    return paginate([UserObject(**u) for u in rows], page_size, cursor)


def _insert_user(
    db: Database,
    name: str,
    email: str,
    role: str,
    organization_id: int | None,
    phone: str | None,
    tags: list[str],
    notes: str = "",
) -> dict[str, Any]:
    if not name.strip():
        raise InvalidRequest("Name: can't be blank")
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


@tool()
def create_user(
    db: Database,
    name: str,
    email: str,
    role: Literal["end-user", "agent"] = "end-user",
    organization_id: int | None = None,
    phone: str | None = None,
    tags: list[str] | None = None,
    notes: str = "",
) -> UserObject:
    """Create a user. Without an organization_id, an end user joins the organization that owns their email's
    domain. Email addresses are unique across the account.

    Args:
        name: Full name.
        email: Email address.
        role: end-user (a customer) or agent.
        organization_id: The organization to add them to.
        phone: Phone number.
        tags: Tags on the user.
        notes: Internal notes about the user.
    """
    clean = check_email(email)
    org = organization_id if organization_id is not None or role != "end-user" else organization_for(db, clean)
    return UserObject(**_insert_user(db, name, clean, role, org, phone, tags or [], notes))


@tool(read_only=True)
def list_organizations(db: Database) -> list[OrganizationObject]:
    """List all customer organizations with their domains, tags and notes."""
    return [OrganizationObject(**o) for o in db.find(organizations, order_by=[organizations.c.name])]


# ---------------------------------------------------------------- groups


@tool(read_only=True)
def list_groups(db: Database) -> list[GroupObject]:
    """List the agent groups and their members."""
    names = {u["id"]: u["name"] for u in db.find(users)}
    result = []
    for group in db.find(groups, order_by=[groups.c.name]):
        members = [
            GroupMember(user_id=m["user_id"], name=names[m["user_id"]], default=m["default"])
            for m in db.find(group_memberships, group_id=group["id"])
        ]
        result.append(
            GroupObject(
                **{k: group[k] for k in ("id", "name", "description", "default")},
                members=sorted(members, key=lambda m: m.name),
            )
        )
    return result


@tool()
def create_group_membership(db: Database, user_id: int, group_id: int, default: bool = False) -> GroupMembershipObject:
    """Add an agent to a group (admins only). With default=true it becomes the agent's default group.

    Args:
        user_id: The agent's user ID.
        group_id: The group's ID.
        default: Make this the agent's default group.
    """
    if me(db)["role"] != "admin":
        raise PermissionDenied("Only admins can change group memberships")
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
    row = db.insert(
        group_memberships,
        id=next_id(db, group_memberships),
        user_id=user_id,
        group_id=group_id,
        default=default,
        created_at=db.now_iso(),
    )
    return GroupMembershipObject(**row)


# ---------------------------------------------------------------- SLA policies and views


@tool(read_only=True)
def list_sla_policies(db: Database) -> list[SlaPolicyObject]:
    """List the SLA policies in order; the first whose filter matches a ticket applies to it."""
    return [SlaPolicyObject(**p) for p in db.find(sla_policies, order_by=[sla_policies.c.position])]


@tool(read_only=True)
def list_views(db: Database) -> list[ViewObject]:
    """List the shared ticket views with their conditions and sort order."""
    return [ViewObject(**v) for v in db.find(views, order_by=[views.c.position])]


@tool(read_only=True)
def execute_view(db: Database, view_id: int, page_size: int = 25, cursor: str | None = None) -> Page[TicketObject]:
    """List the tickets in a view, sorted as the view says (sla_next_breach_at puts the most urgent first).

    Args:
        view_id: The view's ID, from list_views.
        page_size: Tickets per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    view = db.get(views, view_id, "View")
    if not view["active"]:
        raise InvalidRequest(f"View '{view['title']}' is inactive")
    agent = me(db)
    roles = roles_by_id(db)
    rows = [t for t in db.find(tickets) if conditions_match(view["conditions"], t, agent["id"])]
    descending = view["execution"]["sort_order"] == "desc"
    sort_by = view["execution"]["sort_by"]
    if sort_by == "sla_next_breach_at":
        found = [ticket_object(db, t, roles) for t in rows]
        found.sort(key=lambda t: (next_breach(t) is None, next_breach(t) or "", t.id))
        return paginate(found, page_size, cursor)
    page = paginate(_sorted(rows, sort_by, descending), page_size, cursor)
    return Page[TicketObject](
        results=[ticket_object(db, t, roles) for t in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


# ---------------------------------------------------------------- satisfaction


@tool(read_only=True)
def list_satisfaction_ratings(
    db: Database, score: Literal["offered", "good", "bad"] | None = None, start_time: str | None = None
) -> list[SatisfactionRatingObject]:
    """List satisfaction ratings, newest first.

    Args:
        score: Only ratings with this score (offered: survey sent, not answered).
        start_time: Only ratings updated at or after this date or time (2025-06-01).
    """
    equals = {"score": score} if score is not None else {}
    rows = db.find(satisfaction_ratings, order_by=[satisfaction_ratings.c.updated_at], **equals)
    if start_time is not None:
        rows = [r for r in rows if r["updated_at"] >= start_time]
    return [SatisfactionRatingObject(**r) for r in reversed(rows)]


# ---------------------------------------------------------------- the end user (email)


@tool(user_only=True)
def reply_by_email(db: Database, from_email: str, ticket_id: int, body: str) -> ReplyResult:
    """(End user only, from their mailbox) Reply to a ticket's notification email. A reply to a pending or solved
    ticket reopens it; a reply to a closed ticket starts a follow-up ticket.

    Args:
        from_email: The sender's address: the ticket's requester or a CC.
        ticket_id: The ticket number in the email's subject.
        body: The reply text.
    """
    sender = user_by_email(db, from_email)
    ticket = db.get(tickets, ticket_id, "Ticket")
    if sender["id"] != ticket["requester_id"] and sender["id"] not in ticket["collaborator_ids"]:
        raise PermissionDenied(f"{from_email} isn't the requester or a CC of ticket #{ticket_id}")
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
                "via_followup_source_id": ticket_id,
                "created_at": now,
                "updated_at": now,
                "solved_at": None,
            },
        )
        comment = add_comment(db, follow_up, sender, body, True, "email")
        return ReplyResult(
            ticket_id=follow_up["id"], comment_id=comment["id"], status=follow_up["status"], follow_up_of=ticket_id
        )
    comment = add_comment(db, ticket, sender, body, True, "email")
    status = "open" if ticket["status"] in ("pending", "solved") else ticket["status"]
    db.update(
        tickets,
        ticket_id,
        status=status,
        solved_at=None if status == "open" else ticket["solved_at"],
        updated_at=db.now_iso(),
    )
    return ReplyResult(ticket_id=ticket_id, comment_id=comment["id"], status=status, follow_up_of=None)


@tool(user_only=True)
def rate_satisfaction(
    db: Database, from_email: str, ticket_id: int, score: Literal["good", "bad"], comment: str = ""
) -> SatisfactionRatingObject:
    """(End user only, from the survey email) Rate a solved ticket good or bad, optionally with a comment. Only
    the requester can rate, and rating again replaces the earlier rating.

    Args:
        from_email: The requester's email address.
        ticket_id: The ticket number in the survey email.
        score: good or bad.
        comment: Why.
    """
    sender = user_by_email(db, from_email)
    ticket = db.get(tickets, ticket_id, "Ticket")
    if sender["id"] != ticket["requester_id"]:
        raise PermissionDenied(f"Only the requester can rate ticket #{ticket_id}")
    if ticket["status"] != "solved":
        raise InvalidRequest(f"Ticket #{ticket_id} is {ticket['status']}; only solved tickets can be rated")
    now = db.now_iso()
    existing = db.find(satisfaction_ratings, ticket_id=ticket_id)
    values = dict(
        score=score,
        comment=comment.strip(),
        assignee_id=ticket["assignee_id"],
        group_id=ticket["group_id"],
        updated_at=now,
    )
    if existing:
        return SatisfactionRatingObject(**db.update(satisfaction_ratings, existing[0]["id"], **values))
    row = db.insert(
        satisfaction_ratings,
        id=next_id(db, satisfaction_ratings),
        ticket_id=ticket_id,
        requester_id=sender["id"],
        created_at=now,
        **values,
    )
    return SatisfactionRatingObject(**row)
