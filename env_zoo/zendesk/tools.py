"""Zendesk Support API tools: tickets and comments, search and views, users, organizations, groups, macros,
SLA policies, merges and satisfaction ratings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, NonBlankText, PageSize
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import may_use_macro, me, require_admin
from .conditions import conditions_match
from .objects import (
    CommentObject,
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
    by_next_breach,
    comment_objects,
    group_objects,
    ticket_object,
    ticket_objects,
    ticket_page,
)
from .rules import (
    add_membership,
    apply_changes,
    editable,
    email_reply,
    insert_user,
    macro_changes,
    merge,
    open_ticket,
    organization_for,
    rate,
    requester_for,
    sort_tickets,
    user_by_email,
)
from .schema import macros, organizations, satisfaction_ratings, sla_policies, tickets, users, views
from .search import find_tickets

Status = Literal["new", "open", "pending", "hold", "solved"]
Priority = Literal["low", "normal", "high", "urgent"]
TicketType = Literal["problem", "incident", "question", "task"]
BAD_EMAIL = "is not a properly formatted email address"
Email = Annotated[str, Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[A-Za-z]{2,}\s*$"), ErrorText(BAD_EMAIL)]
Query = Annotated[NonBlankText, ErrorText("The query is empty.")]
Subject = Annotated[NonBlankText, ErrorText("can't be blank")]
CommentBody = Annotated[NonBlankText, ErrorText("can't be blank")]
Name = Annotated[NonBlankText, ErrorText("can't be blank")]
DueAt = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$"),
    ErrorText("use a date (2025-06-20) or a UTC time (2025-06-20T17:00:00Z)"),
]
SourceTickets = Annotated[list[int], Field(min_length=1, max_length=5), ErrorText("give 1 to 5 different tickets")]
Since = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2}))?$"),
    ErrorText("use a date (2025-06-01) or a time (2025-06-01T09:00:00Z)"),
]


# ---------------------------------------------------------------- tickets


@tool(read_only=True)
def search_tickets(
    db: Database,
    query: Query,
    sort_by: Literal["created_at", "updated_at", "priority", "status", "ticket_type"] = "updated_at",
    sort_order: Literal["asc", "desc"] = "desc",
    page_size: PageSize = 25,
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
    found = sort_tickets(find_tickets(db, query, me(db)["id"]), sort_by, sort_order == "desc")
    return ticket_page(db, found, page_size, cursor)


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
    return comment_objects(db, ticket_id)


@tool()
def create_ticket(
    db: Database,
    subject: Subject,
    comment_body: CommentBody,
    requester_email: Email,
    requester_name: Name | None = None,
    comment_public: bool = True,
    status: Status | None = None,
    priority: Priority | None = None,
    type: TicketType | None = None,
    group_id: int | None = None,
    assignee_id: int | None = None,
    problem_id: int | None = None,
    due_at: DueAt | None = None,
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
    requester = requester_for(db, requester_email.strip().lower(), requester_name)
    changes = dict(
        status=status,
        priority=priority,
        type=type,
        group_id=group_id,
        assignee_id=assignee_id,
        problem_id=problem_id,
        due_at=due_at,
        tags=tags,
    )
    return ticket_object(db, open_ticket(db, subject, comment_body, requester, comment_public, changes))


@tool()
def update_ticket(
    db: Database,
    ticket_id: int,
    status: Status | None = None,
    priority: Priority | None = None,
    type: TicketType | None = None,
    subject: Subject | None = None,
    group_id: int | None = None,
    assignee_id: int | None = None,
    problem_id: int | None = None,
    due_at: DueAt | None = None,
    tags: list[str] | None = None,
    additional_tags: Annotated[list[str], Unordered] | None = None,
    remove_tags: list[str] | None = None,
    additional_collaborators: Annotated[list[Email], Unordered, ErrorText(BAD_EMAIL)] | None = None,
    comment_body: CommentBody | None = None,
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
    source_ticket_ids: SourceTickets,
    target_comment: CommentBody | None = None,
    source_comment: CommentBody | None = None,
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
    target, closed = merge(
        db,
        target_ticket_id,
        source_ticket_ids,
        target_comment,
        source_comment,
        target_comment_is_public,
        source_comment_is_public,
    )
    return MergeResult(target=ticket_object(db, target), closed_source_ids=closed)


# ---------------------------------------------------------------- macros


@tool(read_only=True)
def list_macros(db: Database, active: bool | None = None) -> list[MacroObject]:
    """List the account's macros with their actions and group restrictions.

    Args:
        active: true for active macros only, false for inactive ones only.
    """
    return [MacroObject(**m) for m in db.find(macros, order_by=[macros.c.position], **given(active=active))]


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
    may_use_macro(db, agent, macro)
    changes = macro_changes(db, macro, editable(db, ticket_id), agent)
    return ticket_object(db, apply_changes(db, ticket_id, author=agent, **changes))


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
    page_size: PageSize = 25,
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
    if organization_id is not None:
        db.get(organizations, organization_id, "Organization")
    needle = (query or "").strip().lower()
    rows = db.find(users, order_by=[users.c.name], **given(role=role, organization_id=organization_id))
    found = [UserObject(**u) for u in rows if needle in u["name"].lower() or needle in u["email"]]
    return paginate(found, page_size, cursor)


@tool()
def create_user(
    db: Database,
    name: Name,
    email: Email,
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
    clean = email.strip().lower()
    org = organization_id if organization_id is not None or role != "end-user" else organization_for(db, clean)
    return UserObject(**insert_user(db, name, clean, role, org, phone, tags or [], notes))


@tool(read_only=True)
def list_organizations(db: Database) -> list[OrganizationObject]:
    """List all customer organizations with their domains, tags and notes."""
    return [OrganizationObject(**o) for o in db.find(organizations, order_by=[organizations.c.name])]


# ---------------------------------------------------------------- groups


@tool(read_only=True)
def list_groups(db: Database) -> list[GroupObject]:
    """List the agent groups and their members."""
    return group_objects(db)


@tool()
def create_group_membership(db: Database, user_id: int, group_id: int, default: bool = False) -> GroupMembershipObject:
    """Add an agent to a group (admins only). With default=true it becomes the agent's default group.

    Args:
        user_id: The agent's user ID.
        group_id: The group's ID.
        default: Make this the agent's default group.
    """
    require_admin(db)
    return GroupMembershipObject(**add_membership(db, user_id, group_id, default))


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
def execute_view(db: Database, view_id: int, page_size: PageSize = 25, cursor: str | None = None) -> Page[TicketObject]:
    """List the tickets in a view, sorted as the view says (sla_next_breach_at puts the most urgent first).

    Args:
        view_id: The view's ID, from list_views.
        page_size: Tickets per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    view = db.get(views, view_id, "View")
    if not view["active"]:
        raise InvalidRequest(f"View '{view['title']}' is inactive")
    agent_id = me(db)["id"]
    rows = [t for t in db.find(tickets) if conditions_match(view["conditions"], t, agent_id)]
    sort_by, order = view["execution"]["sort_by"], view["execution"]["sort_order"]
    if sort_by == "sla_next_breach_at":
        return paginate(by_next_breach(ticket_objects(db, rows)), page_size, cursor)
    return ticket_page(db, sort_tickets(rows, sort_by, order == "desc"), page_size, cursor)


# ---------------------------------------------------------------- satisfaction


@tool(read_only=True)
def list_satisfaction_ratings(
    db: Database, score: Literal["offered", "good", "bad"] | None = None, start_time: Since | None = None
) -> list[SatisfactionRatingObject]:
    """List satisfaction ratings, newest first.

    Args:
        score: Only ratings with this score (offered: survey sent, not answered).
        start_time: Only ratings updated at or after this date or time (2025-06-01).
    """
    since = iso_timestamp(parse_timestamp(start_time, "start_time", dates=True)) if start_time is not None else None
    wanted = given(**{"score = ?": score, "updated_at >= ?": since})
    order = 'updated_at DESC, "id" DESC'
    rows = db.select(satisfaction_ratings, " AND ".join(wanted), list(wanted.values()), order_by=order)
    return [SatisfactionRatingObject(**r) for r in rows]


# ---------------------------------------------------------------- the end user (email)


@tool(user_only=True)
def reply_by_email(db: Database, from_email: str, ticket_id: int, body: CommentBody) -> ReplyResult:
    """(End user only, from their mailbox) Reply to a ticket's notification email. A reply to a pending or solved
    ticket reopens it; a reply to a closed ticket starts a follow-up ticket.

    Args:
        from_email: The sender's address: the ticket's requester or a CC.
        ticket_id: The ticket number in the email's subject.
        body: The reply text.
    """
    sender = user_by_email(db, from_email)
    ticket = db.get(tickets, ticket_id, "Ticket")
    landed, comment = email_reply(db, sender, ticket, body)
    follow_up_of = ticket_id if landed["id"] != ticket_id else None
    return ReplyResult(
        ticket_id=landed["id"], comment_id=comment["id"], status=landed["status"], follow_up_of=follow_up_of
    )


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
    return SatisfactionRatingObject(**rate(db, sender, db.get(tickets, ticket_id, "Ticket"), score, comment))
