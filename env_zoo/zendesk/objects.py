"""Zendesk API objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database, Page, paginate

from .conditions import AGENT_ROLES, applicable_policy, sla_metrics
from .schema import group_memberships, groups, satisfaction_ratings, sla_policies, ticket_comments, tickets, users


class UserObject(BaseModel):
    """A person in the account: an end user (customer), an agent or an admin."""

    id: int
    name: str
    email: str
    role: str = Field(description="end-user, agent or admin")
    organization_id: int | None
    default_group_id: int | None
    phone: str | None
    time_zone: str
    tags: list[str]
    notes: str
    suspended: bool
    created_at: str


class OrganizationObject(BaseModel):
    """A customer company; its tags are added to the tickets its users request."""

    id: int
    name: str
    domain_names: list[str]
    details: str
    notes: str
    group_id: int | None
    shared_tickets: bool
    tags: list[str]
    created_at: str


class GroupMember(BaseModel):
    """An agent in a group."""

    user_id: int
    name: str
    default: bool = Field(description="whether this is the agent's default group")


class GroupObject(BaseModel):
    """A group of agents tickets can be assigned to."""

    id: int
    name: str
    description: str
    default: bool
    members: list[GroupMember]


class GroupMembershipObject(BaseModel):
    """An agent's membership of a group."""

    id: int
    user_id: int
    group_id: int
    default: bool
    created_at: str


class SatisfactionSummary(BaseModel):
    """The requester's rating as shown on the ticket."""

    score: str = Field(description="offered (survey sent, no answer), good or bad")
    comment: str


class SlaPolicyRef(BaseModel):
    """The SLA policy that applies to a ticket."""

    id: int
    title: str


class SlaMetric(BaseModel):
    """One SLA target of a ticket."""

    metric: str = Field(description="first_reply_time or next_reply_time")
    target_minutes: int
    breach_at: str
    stage: str = Field(description="active (running), achieved or breached")


class TicketObject(BaseModel):
    """A support ticket with its SLA targets and satisfaction rating."""

    id: int
    subject: str
    description: str
    status: str = Field(description="new, open, pending, hold, solved or closed")
    priority: str | None = Field(description="low, normal, high or urgent")
    type: str | None = Field(description="problem, incident, question or task")
    requester_id: int
    submitter_id: int
    assignee_id: int | None
    group_id: int | None
    organization_id: int | None
    collaborator_ids: list[int]
    problem_id: int | None = Field(description="for incidents: the problem ticket they are linked to")
    incident_ids: list[int] = Field(description="for problems: the linked incident tickets")
    due_at: str | None = Field(description="for tasks: the due date")
    tags: list[str]
    via_channel: str
    via_followup_source_id: int | None = Field(description="the closed ticket this one follows up")
    created_at: str
    updated_at: str
    solved_at: str | None
    satisfaction_rating: SatisfactionSummary | None
    sla_policy: SlaPolicyRef | None
    sla_metrics: list[SlaMetric]


class CommentObject(BaseModel):
    """A ticket comment: public (emailed to the requester and CCs) or an internal note."""

    id: int
    ticket_id: int
    author_id: int
    author_name: str
    body: str
    public: bool
    via_channel: str
    created_at: str


class MacroAction(BaseModel):
    """One change a macro makes."""

    field: str
    value: str | int | bool | list[str] | None


class Restriction(BaseModel):
    """Who may use a macro."""

    type: str
    ids: list[int]


class MacroObject(BaseModel):
    """A macro: a saved bundle of ticket changes and a comment."""

    id: int
    title: str
    description: str
    active: bool
    position: int
    actions: list[MacroAction]
    restriction: Restriction | None = Field(description="when set, only agents in these groups may use it")


class Condition(BaseModel):
    """A rule condition on a ticket field."""

    field: str
    operator: str
    value: str | int | None


class Conditions(BaseModel):
    """Conditions that must all hold, and of which at least one must hold (when any are given)."""

    all: list[Condition]
    any: list[Condition]


class ViewExecution(BaseModel):
    """How a view sorts its tickets."""

    sort_by: str
    sort_order: str


class ViewObject(BaseModel):
    """A saved ticket list."""

    id: int
    title: str
    active: bool
    position: int
    conditions: Conditions
    execution: ViewExecution


class PolicyMetric(BaseModel):
    """One target of an SLA policy."""

    priority: str
    metric: str
    target: int = Field(description="minutes")
    business_hours: bool


class SlaPolicyObject(BaseModel):
    """A service level agreement policy."""

    id: int
    title: str
    description: str
    position: int
    filter: Conditions
    policy_metrics: list[PolicyMetric]


class SatisfactionRatingObject(BaseModel):
    """A requester's satisfaction rating of a solved ticket."""

    id: int
    ticket_id: int
    requester_id: int
    assignee_id: int | None
    group_id: int | None
    score: str
    comment: str
    created_at: str
    updated_at: str


class MergeResult(BaseModel):
    """The outcome of a ticket merge."""

    target: TicketObject
    closed_source_ids: list[int]


class ReplyResult(BaseModel):
    """What an emailed reply did."""

    ticket_id: int = Field(description="the ticket the reply landed on (a new follow-up when the ticket was closed)")
    comment_id: int
    status: str
    follow_up_of: int | None


def _grouped(rows: list[dict[str, Any]], key: str) -> dict[Any, list[dict[str, Any]]]:
    found: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row[key], []).append(row)
    return found


def ticket_objects(db: Database, rows: list[dict[str, Any]]) -> list[TicketObject]:
    """Ticket rows with their incidents, ratings and SLA targets (as of the simulated clock), read for all of them
    at once: comments, ratings and incidents in one query each."""
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    among = f"IN ({', '.join('?' * len(ids))})"
    comments = _grouped(db.select(ticket_comments, f"ticket_id {among}", ids, order_by="created_at"), "ticket_id")
    ratings = _grouped(db.select(satisfaction_ratings, f"ticket_id {among}", ids), "ticket_id")
    incidents = _grouped(db.select(tickets, f"problem_id {among}", ids), "problem_id")
    roles = {u["id"]: u["role"] for u in db.select(users, "role IN (?, ?)", AGENT_ROLES)}
    policies = db.find(sla_policies)
    now = db.now()
    result = []
    for row in rows:
        policy = applicable_policy(policies, row)
        rating = ratings.get(row["id"])
        metrics = sla_metrics(row, comments.get(row["id"], []), roles, policy, now)
        result.append(
            TicketObject(
                **{k: row[k] for k in TicketObject.model_fields if k in row},
                incident_ids=[t["id"] for t in incidents.get(row["id"], [])],
                satisfaction_rating=SatisfactionSummary(score=rating[0]["score"], comment=rating[0]["comment"])
                if rating
                else None,
                sla_policy=SlaPolicyRef(id=policy["id"], title=policy["title"]) if policy else None,
                sla_metrics=[SlaMetric(**m) for m in metrics],
            )
        )
    return result


def ticket_object(db: Database, row: dict[str, Any]) -> TicketObject:
    """One ticket row as the API shows it."""
    return ticket_objects(db, [row])[0]


def next_breach(ticket: TicketObject) -> str | None:
    """The earliest breach time among the ticket's running SLA targets."""
    running = [m.breach_at for m in ticket.sla_metrics if m.stage == "active"]
    return min(running) if running else None


def by_next_breach(found: list[TicketObject]) -> list[TicketObject]:
    """Tickets most urgent first: the earliest running SLA breach, then those with none, ties by number."""
    return sorted(found, key=lambda t: (next_breach(t) is None, next_breach(t) or "", t.id))


def ticket_page(db: Database, rows: list[dict[str, Any]], page_size: int, cursor: str | None) -> Page[TicketObject]:
    """One page of ticket rows as objects: only the page's tickets are built."""
    page = paginate(rows, page_size, cursor)
    return Page[TicketObject](
        results=ticket_objects(db, page.results),
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


def comment_objects(db: Database, ticket_id: int) -> list[CommentObject]:
    """A ticket's comments, oldest first, with their authors' names."""
    names = {u["id"]: u["name"] for u in db.find(users)}
    rows = db.find(ticket_comments, ticket_id=ticket_id, order_by=[ticket_comments.c.created_at])
    return [CommentObject(**r, author_name=names[r["author_id"]]) for r in rows]


def group_objects(db: Database) -> list[GroupObject]:
    """Every group with its members, by name."""
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
