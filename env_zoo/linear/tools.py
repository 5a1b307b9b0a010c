"""Linear GraphQL API tools (viewer, teams, workflowStates, users, issueLabels, issues, issueCreate/Update/Archive,
issueRelationCreate/Delete, comments, cycles, projects, projectUpdate, projectMilestoneCreate) as the signed-in member
of the workspace sees them, plus the member's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import IsoDate, NonBlankText, bounded, text

from . import rules
from .access import member_team_ids, team, viewer, visible_team_ids
from .errors import conflict, forbidden, invalid, not_found
from .objects import (
    Comment,
    Connection,
    Cycle,
    Deleted,
    Issue,
    IssueLabel,
    IssueRelation,
    IssueSummary,
    PageInfo,
    Project,
    ProjectMilestone,
    ProjectSummary,
    Team,
    User,
    UserRef,
    Viewer,
    WorkflowState,
    comment_object,
    cycle_object,
    issue_object,
    label_object,
    project_object,
    project_summary,
    state_object,
    summaries,
    summary_object,
    user_object,
)
from .schema import (
    comments,
    cycles,
    issue_relations,
    issues,
    labels,
    milestones,
    project_teams,
    projects,
    sessions,
    team_members,
    teams,
    users,
    workflow_states,
)

First = bounded(1, 250)
Uuid = Annotated[str, Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")]
IssueRef = Annotated[
    str,
    Field(
        pattern=r"^([A-Za-z]{2,5}-\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$",
        description="the issue's identifier (ENG-123) or UUID",
    ),
]
Priority = Annotated[int, Field(ge=0, le=4, description="0 no priority, 1 urgent, 2 high, 3 medium, 4 low")]
Estimate = Annotated[int, Field(ge=0, le=16, description="points on the team's estimate scale")]
Title = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S")]
Markdown = text(20000)
StateType = Literal["triage", "backlog", "unstarted", "started", "completed", "canceled"]
ProjectState = Literal["backlog", "planned", "started", "paused", "completed", "canceled"]


def _team_keys(db: Database, project_id: str) -> list[str]:
    return sorted(db.get(teams, p["team_id"])["key"] for p in db.find(project_teams, project_id=project_id))


def _project(db: Database, project_id: str) -> dict:
    """A project with at least one team the viewer sees."""
    found = db.find(projects, id=project_id)
    seen = visible_team_ids(db)
    if not found or not any(p["team_id"] in seen for p in db.find(project_teams, project_id=project_id)):
        raise not_found("Project")
    return found[0]


def _offset(after: str | None) -> int:
    """The position an `after` cursor (a previous page's endCursor) points at."""
    if after is None:
        return 0
    if not after.isdigit():
        raise invalid(f"Invalid cursor '{after}'.")
    return int(after)


def _page(items: list, first: int, after: str | None) -> tuple[list, PageInfo]:
    page = paginate(items, first, after, max_page_size=250)
    return page.results, PageInfo(hasNextPage=page.has_more, endCursor=page.next_cursor)


# ---------------------------------------------------------------- sign-in, people, teams


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Viewer:
    """(User only) The person signs in to the Linear workspace; the assistant then acts as them.

    Args:
        email: Their Linear account email.
    """
    found = db.select(users, "lower(email) = ?", [email.strip().lower()])
    if not found:
        raise not_found("User")
    if not found[0]["active"]:
        raise forbidden("Your account has been deactivated by a workspace admin.")
    db.start_session(sessions, user_id=found[0]["id"])
    return get_viewer(db)


@tool(read_only=True)
def get_viewer(db: Database) -> Viewer:
    """The signed-in user (query `viewer`) and the keys of the teams they are a member of."""
    me = viewer(db)
    keys = sorted(db.get(teams, t)["key"] for t in member_team_ids(db, me["id"]))
    return Viewer(**user_object(me).model_dump(), teams=keys)


@tool(read_only=True)
def list_teams(db: Database) -> list[Team]:
    """Teams the viewer can see (query `teams`): public teams and the private teams they belong to, by name."""
    seen = visible_team_ids(db)
    out = []
    for row in db.find(teams, order_by=[teams.c.name]):
        if row["id"] not in seen:
            continue
        members = [db.get(users, m["user_id"]) for m in db.find(team_members, team_id=row["id"])]
        out.append(
            Team(
                id=row["id"],
                key=row["key"],
                name=row["name"],
                private=row["private"],
                issueEstimationType=row["estimation_type"],
                cyclesEnabled=row["cycles_enabled"],
                members=[UserRef(id=u["id"], name=u["name"]) for u in sorted(members, key=lambda u: u["name"])],
            )  # fmt: skip
        )
    return out


@tool(read_only=True)
def list_users(
    db: Database, query: str | None = None, include_disabled: bool = False, first: First = 50, after: str | None = None
) -> Connection[User]:
    """Workspace members (query `users`), by name.

    Args:
        query: Keeps users whose name, display name or email contains this text.
        include_disabled: Also list deactivated users.
        first: Users per page, 1 to 250.
        after: The endCursor of the previous page.
    """
    viewer(db)
    rows = db.select(users, "" if include_disabled else "active = 1", [], order_by="name")
    if query and query.strip():
        needle = query.strip().lower()
        rows = [r for r in rows if needle in f"{r['name']} {r['display_name']} {r['email']}".lower()]
    nodes, info = _page(rows, first, after)
    return Connection[User](nodes=[user_object(r) for r in nodes], pageInfo=info)


@tool(read_only=True)
def list_workflow_states(db: Database, team_id: Uuid) -> list[WorkflowState]:
    """A team's workflow states (query `workflowStates`), in board order.

    Args:
        team_id: The team's id (from list_teams).
    """
    team(db, team_id)
    rows = db.find(workflow_states, team_id=team_id, order_by=[workflow_states.c.position])
    return [state_object(r) for r in rows]


@tool(read_only=True)
def list_issue_labels(db: Database, team_id: Uuid | None = None) -> list[IssueLabel]:
    """Issue labels (query `issueLabels`): workspace labels, plus a team's own when a team is given; by name.

    Args:
        team_id: Also list this team's labels.
    """
    if team_id is not None:
        team(db, team_id)
        rows = db.select(labels, "team_id IS NULL OR team_id = ?", [team_id], order_by="name")
    else:
        viewer(db)
        rows = db.select(labels, "team_id IS NULL", [], order_by="name")
    return [label_object(db, r) for r in rows]


# ---------------------------------------------------------------- issues


@tool(read_only=True)
def search_issues(
    db: Database,
    query: str | None = None,
    team_id: Uuid | None = None,
    state_type: StateType | None = None,
    state_name: str | None = None,
    assignee_id: Uuid | None = None,
    label: str | None = None,
    project_id: Uuid | None = None,
    cycle_id: Uuid | None = None,
    priority: Priority | None = None,
    include_archived: bool = False,
    first: First = 50,
    after: str | None = None,
) -> Connection[IssueSummary]:
    """Issues matching every filter given (query `issues` with a filter), most recently created first.

    Args:
        query: Keeps issues whose title or description contains this text (case-insensitive).
        team_id: Only this team's issues.
        state_type: Only issues whose state has this type.
        state_name: Only issues whose state has this name, e.g. "In Review".
        assignee_id: Only issues assigned to this user.
        label: Only issues carrying a label of this name.
        project_id: Only issues of this project.
        cycle_id: Only issues in this cycle.
        priority: Only issues of this priority.
        include_archived: Also return archived issues.
        first: Issues per page, 1 to 250.
        after: The endCursor of the previous page.
    """
    seen = sorted(visible_team_ids(db))
    if team_id is not None:
        team(db, team_id)
        seen = [team_id]
    where = [f"team_id IN ({', '.join('?' * len(seen))})"]
    params: list = list(seen)
    if not include_archived:
        where.append("archived = 0")
    for column, value in (("assignee_id", assignee_id), ("project_id", project_id), ("cycle_id", cycle_id),
                          ("priority", priority)):  # fmt: skip
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if query and query.strip():
        where.append("(lower(title) LIKE ? OR lower(coalesce(description, '')) LIKE ?)")
        params += [f"%{query.strip().lower()}%"] * 2
    if state_type is not None or state_name is not None:
        cond, extra = [], []
        if state_type is not None:
            cond.append("type = ?")
            extra.append(state_type)
        if state_name is not None:
            cond.append("lower(name) = ?")
            extra.append(state_name.strip().lower())
        ids = [s["id"] for s in db.select(workflow_states, " AND ".join(cond), extra)] or [""]
        where.append(f"state_id IN ({', '.join('?' * len(ids))})")
        params += ids
    if label is not None:
        named = [r["id"] for r in db.select(labels, "lower(name) = ?", [label.strip().lower()])] or [""]
        where.append("(" + " OR ".join("label_ids LIKE ?" for _ in named) + ")")
        params += [f'%"{label_id}"%' for label_id in named]
    offset = _offset(after)
    rows = db.select(
        issues, " AND ".join(where), params, order_by="created_at DESC, number DESC", limit=offset + first + 1
    )
    nodes = rows[offset : offset + first]
    more = len(rows) > offset + first
    info = PageInfo(hasNextPage=more, endCursor=str(offset + first) if more else None)
    return Connection[IssueSummary](nodes=summaries(db, nodes), pageInfo=info)


@tool(read_only=True)
def get_issue(db: Database, id: IssueRef) -> Issue:
    """One issue in full (query `issue`): description, sub-issues, relations, milestone and lifecycle times.

    Args:
        id: The issue's identifier (ENG-123) or UUID.
    """
    return issue_object(db, rules.issue(db, id))


@tool()
def create_issue(
    db: Database,
    team_id: Uuid,
    title: Title,
    description: Markdown | None = None,
    state_id: Uuid | None = None,
    priority: Priority = 0,
    estimate: Estimate | None = None,
    assignee_id: Uuid | None = None,
    label_ids: Annotated[list[Uuid], Unordered] | None = None,
    parent_id: IssueRef | None = None,
    cycle_id: Uuid | None = None,
    project_id: Uuid | None = None,
    project_milestone_id: Uuid | None = None,
    due_date: IsoDate | None = None,
) -> Issue:
    """Create an issue in a team (mutation `issueCreate`); it gets the next identifier of the team (ENG-124) and the
    team's default state unless one is given. A sub-issue names its parent.

    Args:
        team_id: The team (from list_teams).
        title: The issue title.
        description: Markdown description.
        state_id: A workflow state of this team.
        priority: 0 no priority (default), 1 urgent, 2 high, 3 medium, 4 low.
        estimate: Points on the team's estimate scale.
        assignee_id: An active member of the team.
        label_ids: Labels to apply (workspace or this team's; one per label group).
        parent_id: The parent issue, for a sub-issue.
        cycle_id: A current or upcoming cycle of this team.
        project_id: A project this team takes part in.
        project_milestone_id: A milestone of that project.
        due_date: The due date.
    """
    me = viewer(db)
    owner = team(db, team_id)
    state = rules.state_of_team(db, state_id, team_id) if state_id else rules.default_state(db, team_id)
    rules.check_estimate(owner, estimate)
    rules.check_assignee(db, assignee_id, team_id)
    chosen = rules.check_labels(db, label_ids or [], team_id)
    parent = rules.check_parent(db, parent_id, None) if parent_id else None
    if cycle_id:
        rules.check_cycle(db, cycle_id, team_id)
    if project_id:
        rules.check_project(db, project_id, team_id)
    if project_milestone_id:
        rules.check_milestone(db, project_milestone_id, project_id)
    number = owner["issue_count"] + 1
    db.update(teams, team_id, issue_count=number)
    now = db.now_iso()
    row = db.insert(
        issues, id=db.new_uuid(issues), identifier=f"{owner['key']}-{number}", team_id=team_id, number=number,
        title=title.strip(), description=description, state_id=state["id"], priority=priority, estimate=estimate,
        assignee_id=assignee_id, creator_id=me["id"], parent_id=parent["id"] if parent else None, cycle_id=cycle_id,
        project_id=project_id, milestone_id=project_milestone_id, label_ids=chosen, due_date=due_date,
        created_at=now, updated_at=now, archived_at=None, archived=False,
        **{"started_at": None, **rules.stamps_for(db, state, None)},
    )  # fmt: skip
    return issue_object(db, row)


@tool()
def update_issue(
    db: Database,
    id: IssueRef,
    title: Title | None = None,
    description: Markdown | None = None,
    state_id: Uuid | None = None,
    priority: Priority | None = None,
    estimate: Estimate | None = None,
    assignee_id: Uuid | None = None,
    unassign: bool = False,
    label_ids: Annotated[list[Uuid], Unordered] | None = None,
    added_label_ids: Annotated[list[Uuid], Unordered] | None = None,
    removed_label_ids: Annotated[list[Uuid], Unordered] | None = None,
    parent_id: IssueRef | None = None,
    cycle_id: Uuid | None = None,
    remove_from_cycle: bool = False,
    project_id: Uuid | None = None,
    project_milestone_id: Uuid | None = None,
    due_date: IsoDate | None = None,
) -> Issue:
    """Change an issue (mutation `issueUpdate`); only the fields given change. Archived issues cannot be changed.

    Args:
        id: The issue's identifier (ENG-123) or UUID.
        title: A new title.
        description: A new Markdown description (replaces the old one).
        state_id: A workflow state of the issue's team (moving sets started/completed/canceled times).
        priority: 0 no priority, 1 urgent, 2 high, 3 medium, 4 low.
        estimate: Points on the team's estimate scale.
        assignee_id: A new assignee: an active member of the issue's team.
        unassign: Remove the assignee.
        label_ids: Replace all labels with these.
        added_label_ids: Labels to add to the current ones.
        removed_label_ids: Labels to take off.
        parent_id: Make it a sub-issue of this issue.
        cycle_id: Move it into this current or upcoming cycle of its team.
        remove_from_cycle: Take it out of its cycle.
        project_id: Move it into this project (its team must take part).
        project_milestone_id: Put it under this milestone of its project.
        due_date: A new due date.
    """
    viewer(db)
    row = rules.issue(db, id, archived_ok=False)
    owner = db.get(teams, row["team_id"])
    changes: dict = {}
    if assignee_id is not None and unassign:
        raise invalid("Give either an assignee or unassign, not both.")
    if cycle_id is not None and remove_from_cycle:
        raise invalid("Give either a cycle or remove_from_cycle, not both.")
    if title is not None:
        changes["title"] = title.strip()
    if description is not None:
        changes["description"] = description
    if state_id is not None:
        state = rules.state_of_team(db, state_id, row["team_id"])
        if state["id"] != row["state_id"]:
            changes.update(state_id=state_id, **rules.stamps_for(db, state, row))
    if priority is not None:
        changes["priority"] = priority
    if estimate is not None:
        rules.check_estimate(owner, estimate)
        changes["estimate"] = estimate
    if assignee_id is not None:
        rules.check_assignee(db, assignee_id, row["team_id"])
        changes["assignee_id"] = assignee_id
    if unassign:
        changes["assignee_id"] = None
    if label_ids is not None or added_label_ids or removed_label_ids:
        current = set(row["label_ids"] if label_ids is None else label_ids)
        current = (current | set(added_label_ids or [])) - set(removed_label_ids or [])
        changes["label_ids"] = rules.check_labels(db, sorted(current), row["team_id"])
    if parent_id is not None:
        changes["parent_id"] = rules.check_parent(db, parent_id, row)["id"]
    if cycle_id is not None:
        changes["cycle_id"] = rules.check_cycle(db, cycle_id, row["team_id"])["id"]
    if remove_from_cycle:
        changes["cycle_id"] = None
    project = row["project_id"]
    if project_id is not None:
        project = rules.check_project(db, project_id, row["team_id"])["id"]
        changes["project_id"] = project
        if project != row["project_id"] and project_milestone_id is None:
            changes["milestone_id"] = None
    if project_milestone_id is not None:
        changes["milestone_id"] = rules.check_milestone(db, project_milestone_id, project)["id"]
    if due_date is not None:
        changes["due_date"] = due_date
    if changes:
        row = db.update(issues, row["id"], updated_at=db.now_iso(), **changes)
    return issue_object(db, row)


@tool()
def archive_issue(db: Database, id: IssueRef) -> IssueSummary:
    """Archive an issue (mutation `issueArchive`) with its sub-issues; it leaves lists unless archived ones are asked
    for, and can no longer be changed.

    Args:
        id: The issue's identifier (ENG-123) or UUID.
    """
    viewer(db)
    row = rules.issue(db, id)
    if row["archived"]:
        raise conflict(f"Issue {row['identifier']} is already archived.")
    now = db.now_iso()
    for child in db.find(issues, parent_id=row["id"], archived=False):
        db.update(issues, child["id"], archived=True, archived_at=now)
    return summary_object(db, db.update(issues, row["id"], archived=True, archived_at=now))


@tool()
def create_issue_relation(
    db: Database, issue_id: IssueRef, related_issue_id: IssueRef, type: Literal["blocks", "duplicate", "related"]
) -> IssueRelation:
    """Relate two issues (mutation `issueRelationCreate`): `blocks` (issue blocks the related issue), `duplicate`
    (issue is a duplicate of the related issue; it moves to its team's Duplicate or first canceled state) or
    `related`. One relation per pair of issues.

    Args:
        issue_id: The issue (the blocker, or the duplicate).
        related_issue_id: The other issue (the blocked one, or the original).
        type: blocks, duplicate or related.
    """
    viewer(db)
    first_issue = rules.issue(db, issue_id, archived_ok=False)
    other = rules.issue(db, related_issue_id)
    if first_issue["id"] == other["id"]:
        raise invalid("An issue cannot be related to itself.")
    pair = db.select(
        issue_relations,
        "(issue_id = ? AND related_issue_id = ?) OR (issue_id = ? AND related_issue_id = ?)",
        [first_issue["id"], other["id"], other["id"], first_issue["id"]],
    )
    if pair:
        raise conflict(
            f"{first_issue['identifier']} and {other['identifier']} are already related ({pair[0]['type']})."
        )
    row = db.insert(
        issue_relations, id=db.new_uuid(issue_relations), issue_id=first_issue["id"], related_issue_id=other["id"],
        type=type, created_at=db.now_iso(),
    )  # fmt: skip
    if type == "duplicate":
        states = db.find(workflow_states, team_id=first_issue["team_id"], type="canceled",
                         order_by=[workflow_states.c.position])  # fmt: skip
        target = next((s for s in states if s["name"] == "Duplicate"), states[0])
        if target["id"] != first_issue["state_id"]:
            db.update(issues, first_issue["id"], state_id=target["id"], updated_at=db.now_iso(),
                      **rules.stamps_for(db, target, first_issue))  # fmt: skip
    direction = {"blocks": "blocks", "duplicate": "duplicate of", "related": "related"}[type]
    return IssueRelation(id=row["id"], type=type, direction=direction, issue=other["identifier"], title=other["title"])


@tool()
def delete_issue_relation(db: Database, id: Uuid) -> Deleted:
    """Remove a relation between two issues (mutation `issueRelationDelete`); the issues' states stay as they are.

    Args:
        id: The relation's id (from get_issue's relations).
    """
    viewer(db)
    found = db.find(issue_relations, id=id)
    if not found:
        raise not_found("IssueRelation")
    rules.issue(db, found[0]["issue_id"])
    db.delete(issue_relations, id)
    return Deleted(success=True, entityId=id)


# ---------------------------------------------------------------- comments


@tool(read_only=True)
def list_comments(db: Database, issue_id: IssueRef) -> list[Comment]:
    """An issue's comments, oldest first (threads: replies name their parent comment).

    Args:
        issue_id: The issue's identifier (ENG-123) or UUID.
    """
    row = rules.issue(db, issue_id)
    return [comment_object(db, c) for c in db.find(comments, issue_id=row["id"], order_by=[comments.c.created_at])]


@tool()
def create_comment(db: Database, issue_id: IssueRef, body: Markdown, parent_id: Uuid | None = None) -> Comment:
    """Comment on an issue as the viewer (mutation `commentCreate`), or reply in a thread.

    Args:
        issue_id: The issue's identifier (ENG-123) or UUID.
        body: The comment in Markdown.
        parent_id: The comment this replies to (a comment of the same issue).
    """
    me = viewer(db)
    row = rules.issue(db, issue_id, archived_ok=False)
    if not body.strip():
        raise invalid("Comment body cannot be empty.")
    if parent_id is not None:
        parent = db.find(comments, id=parent_id)
        if not parent or parent[0]["issue_id"] != row["id"]:
            raise not_found("Comment")
        if parent[0]["parent_id"]:
            parent_id = parent[0]["parent_id"]
    created = db.insert(
        comments, id=db.new_uuid(comments), issue_id=row["id"], user_id=me["id"], parent_id=parent_id, body=body,
        created_at=db.now_iso(), edited_at=None,
    )  # fmt: skip
    return comment_object(db, created)


@tool()
def update_comment(db: Database, id: Uuid, body: Markdown) -> Comment:
    """Edit a comment (mutation `commentUpdate`); only its author may.

    Args:
        id: The comment's id (from list_comments).
        body: The new Markdown body.
    """
    me = viewer(db)
    found = db.find(comments, id=id)
    if not found:
        raise not_found("Comment")
    rules.issue(db, found[0]["issue_id"])
    if found[0]["user_id"] != me["id"]:
        raise forbidden("You can only edit your own comments.")
    if not body.strip():
        raise invalid("Comment body cannot be empty.")
    return comment_object(db, db.update(comments, id, body=body, edited_at=db.now_iso()))


# ---------------------------------------------------------------- cycles and projects


@tool(read_only=True)
def list_cycles(db: Database, team_id: Uuid, include_completed: bool = False) -> list[Cycle]:
    """A team's cycles (query `cycles`), by number: the active and upcoming ones, and past ones when asked.

    Args:
        team_id: The team's id.
        include_completed: Also list completed cycles.
    """
    owner = team(db, team_id)
    if not owner["cycles_enabled"]:
        raise invalid(f"Cycles are not enabled for the {owner['name']} team.")
    rows = db.find(cycles, team_id=team_id, order_by=[cycles.c.number])
    now = db.now_iso()
    if not include_completed:
        rows = [r for r in rows if not r["completed_at"] and r["ends_at"] > now]
    return [cycle_object(db, r) for r in rows]


@tool(read_only=True)
def list_projects(
    db: Database, query: str | None = None, state: ProjectState | None = None, team_id: Uuid | None = None
) -> list[ProjectSummary]:
    """Projects with a team the viewer sees (query `projects`), by name.

    Args:
        query: Keeps projects whose name contains this text.
        state: Only projects in this state.
        team_id: Only projects this team takes part in.
    """
    seen = visible_team_ids(db)
    if team_id is not None:
        team(db, team_id)
    out = []
    for row in db.select(projects, "state = ?" if state else "", [state] if state else [], order_by="name"):
        links = {p["team_id"] for p in db.find(project_teams, project_id=row["id"])}
        if not links & seen or (team_id is not None and team_id not in links):
            continue
        if query and query.strip().lower() not in row["name"].lower():
            continue
        out.append(project_summary(db, row, _team_keys(db, row["id"])))
    return out


@tool(read_only=True)
def get_project(db: Database, id: Uuid) -> Project:
    """One project in full (query `project`): milestones with their issue counts and overall progress.

    Args:
        id: The project's id (from list_projects).
    """
    return project_object(db, _project(db, id), _team_keys(db, id))


@tool()
def update_project(
    db: Database,
    id: Uuid,
    state: ProjectState | None = None,
    lead_id: Uuid | None = None,
    start_date: IsoDate | None = None,
    target_date: IsoDate | None = None,
) -> Project:
    """Change a project (mutation `projectUpdate`). Completing needs every issue of the project completed or canceled;
    the target date cannot be before the start date.

    Args:
        id: The project's id.
        state: backlog, planned, started, paused, completed or canceled.
        lead_id: The new project lead (an active user).
        start_date: The start date.
        target_date: The target date.
    """
    viewer(db)
    row = _project(db, id)
    changes: dict = {}
    if lead_id is not None:
        lead = db.find(users, id=lead_id)
        if not lead:
            raise not_found("User")
        if not lead[0]["active"]:
            raise invalid(f"{lead[0]['name']} is deactivated and cannot lead a project.")
        changes["lead_id"] = lead_id
    start = start_date or row["start_date"]
    target = target_date or row["target_date"]
    if start and target and target < start:
        raise invalid("The target date cannot be before the start date.")
    changes.update({k: v for k, v in (("start_date", start_date), ("target_date", target_date)) if v is not None})
    if state is not None and state != row["state"]:
        if state == "completed":
            open_ones = [
                i["identifier"]
                for i in db.find(issues, project_id=id, archived=False)
                if db.get(workflow_states, i["state_id"])["type"] not in ("completed", "canceled")
            ]
            if open_ones:
                raise conflict(f"The project still has open issues: {', '.join(sorted(open_ones))}.")
        now = db.now_iso()
        changes.update(state=state, completed_at=now if state == "completed" else None,
                       canceled_at=now if state == "canceled" else None)  # fmt: skip
    if changes:
        row = db.update(projects, id, **changes)
    return project_object(db, row, _team_keys(db, id))


@tool()
def create_project_milestone(
    db: Database, project_id: Uuid, name: Title, target_date: IsoDate | None = None, description: Markdown | None = None
) -> ProjectMilestone:
    """Add a milestone to a project (mutation `projectMilestoneCreate`); names are unique within a project and a
    target date may not be after the project's.

    Args:
        project_id: The project's id.
        name: The milestone name.
        target_date: When it should be reached.
        description: Markdown description.
    """
    viewer(db)
    row = _project(db, project_id)
    if row["state"] in ("completed", "canceled"):
        raise conflict(f"Project '{row['name']}' is {row['state']}; it cannot take new milestones.")
    existing = db.find(milestones, project_id=project_id)
    if any(m["name"].lower() == name.strip().lower() for m in existing):
        raise conflict(f"A milestone named '{name.strip()}' already exists in this project.")
    if target_date and row["target_date"] and target_date > row["target_date"]:
        raise invalid(f"The milestone's target date is after the project's target date ({row['target_date']}).")
    created = db.insert(
        milestones, id=db.new_uuid(milestones), project_id=project_id, name=name.strip(), description=description,
        target_date=target_date, sort_order=max((m["sort_order"] for m in existing), default=0) + 1,
    )  # fmt: skip
    return ProjectMilestone(id=created["id"], name=created["name"], description=description, targetDate=target_date,
                            issueCount=0, completedIssueCount=0)  # fmt: skip
