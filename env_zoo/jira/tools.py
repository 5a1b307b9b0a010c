"""Jira Cloud REST API v3 and Agile API tools: projects, issues and JQL search, workflow transitions, assignment,
comments, worklogs, links, watchers, boards and sprints; plus the user's own OAuth consent."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, page_size

from . import rules
from .access import (
    authorize,
    browsable_projects,
    has_permission,
    holders,
    me,
    my_permissions,
    project_of,
    require,
    roles_of,
    user,
    visible_issue,
    visible_project,
)
from .jql import parse
from .objects import (
    BoardObject,
    CommentObject,
    IssueObject,
    IssueSummary,
    LinkResult,
    ProjectObject,
    ProjectSummary,
    Render,
    SearchResults,
    SprintMoveResult,
    SprintObject,
    TransitionObject,
    UserObject,
    WatchersObject,
    WorklogObject,
)
from .rules import IssueTypeName, LinkTypeName, Priority, Resolution, RoleName
from .schema import (
    boards,
    comments,
    issue_link_types,
    issue_links,
    issue_types,
    issues,
    project_roles,
    projects,
    role_actors,
    sprints,
    users,
    watchers,
    worklogs,
)
from .search import SiteIndex

Names = Annotated[list[str], Unordered]
StartAt = Annotated[int, Field(ge=0)]
Summary = Annotated[
    str,
    Field(min_length=1, max_length=rules.MAX_SUMMARY, pattern=r"^[^\r\n]*\S[^\r\n]*$"),
    ErrorText("You must specify a summary of the issue: one line, less than 255 characters."),
]
Labels = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=rules.MAX_LABEL, pattern=r"^\S+$")]],
    Unordered,
    ErrorText("A label can't contain spaces and must be less than 255 characters."),
]
CommentBody = Annotated[
    str,
    Field(min_length=1, max_length=rules.MAX_COMMENT, pattern=r"\S"),
    ErrorText(
        "Comment body can not be empty, and the entered text can't exceed the allowed limit of 32767 characters."
    ),
]
Duration = Annotated[
    str,
    Field(pattern=rules.DURATION_PATTERN),
    ErrorText("Invalid time duration entered: use w, d, h and m, e.g. 3h 30m, 1d or 2w."),
]
DueDate = Annotated[IsoDate, ErrorText("Error parsing date string. The due date must be in the format yyyy-MM-dd.")]
Moment = Annotated[
    str,
    Field(pattern=rules.MOMENT_PATTERN, json_schema_extra={"format": "date-time"}),
    ErrorText("Invalid date: use 2025-06-16 or 2025-06-16T09:00:00Z."),
]
StoryPoints = Annotated[float, Field(ge=0), ErrorText("Story point estimate must be a positive number.")]
PriorityName = Annotated[
    Priority, ErrorText("The priority selected is invalid: use Highest, High, Medium, Low or Lowest.")
]
ResolutionName = Annotated[
    Resolution, ErrorText("The resolution selected is invalid: use Done, Won't Do, Duplicate or Cannot Reproduce.")
]
IssueType = Annotated[IssueTypeName, ErrorText("Specify a valid issue type: Epic, Story, Task, Bug or Subtask.")]
LinkType = Annotated[
    LinkTypeName, ErrorText("No issue link type with that name found: use Blocks, Duplicate, Relates or Cloners.")
]
Role = Annotated[RoleName, ErrorText("Invalid role level specified: use Administrators, Developers or Viewers.")]
SprintName = Annotated[
    str,
    Field(min_length=1, max_length=rules.MAX_SPRINT_NAME, pattern=r"\S"),
    ErrorText("Sprint name must be 1 to 30 characters."),
]
SprintIssues = Annotated[
    list[str],
    Unordered,
    Field(min_length=1, max_length=rules.MAX_SPRINT_ISSUES),
    ErrorText("Give between 1 and 50 issues to move."),
]
MAX_SEARCH_RESULTS = 25  # a page of issue summaries stays well under the agent's 16,000-character view


# ---------------------------------------------------------------- helpers


def _issue_object(db: Database, issue: dict[str, Any]) -> IssueObject:
    mine = me(db)["account_id"]
    return Render(db).issue(issue, mine, roles_of(db, issue["project_id"], mine))


def _touch(db: Database, issue: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Write changes to an issue and bump its updated time."""
    return db.update(issues, issue["id"], updated=db.now_iso(), **changes)


def _watch(db: Database, issue: dict[str, Any], account_id: str) -> None:
    if not db.find(watchers, issue_id=issue["id"], account_id=account_id):
        db.insert(watchers, issue_id=issue["id"], account_id=account_id)


def _writable(db: Database, key: str, permission: str, action: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An issue the current user may change in the given way, in an editable status."""
    issue = visible_issue(db, key)
    project = project_of(db, issue)
    require(db, project, permission, action)
    rules.editable(db, issue)
    return issue, project


def _board(db: Database, board_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    found = db.find(boards, id=board_id)
    project = db.get(projects, found[0]["project_id"]) if found else None
    if not found or not has_permission(db, project, "BROWSE_PROJECTS"):
        raise NotFound(f"Board {board_id} does not exist or you do not have permission to see it.")
    return found[0], project


def _sprint(db: Database, sprint_id: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    found = db.find(sprints, id=sprint_id)
    if not found:
        raise NotFound(f"Sprint with id {sprint_id} does not exist or you do not have permission to see it.")
    board, project = _board(db, found[0]["board_id"])
    return found[0], board, project


def _scrum(board: dict[str, Any]) -> None:
    if board["type"] != "scrum":
        raise InvalidRequest(f"The board '{board['name']}' is a Kanban board and does not support sprints.")


def _sprint_dates(start: str | None, end: str | None) -> None:
    if start and end and end < start:
        raise InvalidRequest("The sprint's end date must be after its start date.")


# ---------------------------------------------------------------- the user and projects


@tool(read_only=True)
def get_myself(db: Database) -> UserObject:
    """Return the Atlassian account the assistant acts as in Jira (GET /rest/api/3/myself)."""
    return Render(db).user(me(db)["account_id"])


@tool(read_only=True)
def search_projects(
    db: Database, query: str | None = None, start_at: StartAt = 0, max_results: page_size(100) = 50
) -> Page[ProjectSummary]:
    """List the projects you can browse, optionally filtered by text in their key or name, ordered by key.

    Args:
        query: Text to find in the project key or name (case-insensitive).
        start_at: Index of the first project to return (pagination offset; next_cursor of the previous page).
        max_results: Projects per page, 1 to 100.
    """
    rows = browsable_projects(db)
    if query:
        needle = query.strip().lower()
        rows = [p for p in rows if needle in p["key"].lower() or needle in p["name"].lower()]
    render = Render(db)
    return paginate([render.project_summary(p) for p in rows], max_results, str(start_at))


@tool(read_only=True)
def get_project(db: Database, project_key: str) -> ProjectObject:
    """Get a project with its issue types, components (and their leads), versions, project roles with their
    members, and the permissions you hold in it.

    Args:
        project_key: The project key (e.g. MOB) or id.
    """
    project = visible_project(db, project_key)
    members: dict[str, list[str]] = {}
    for role in db.find(project_roles, order_by=[project_roles.c.name]):
        actors = db.find(role_actors, project_id=project["id"], role_id=role["id"])
        members[role["name"]] = sorted(
            (a["account_id"] for a in actors), key=lambda a: db.get(users, a)["display_name"]
        )
    return Render(db).project(project, members, my_permissions(db, project))


@tool(read_only=True)
def find_assignable_users(
    db: Database, project_key: str, query: str | None = None, max_results: page_size(100) = 50
) -> list[UserObject]:
    """Find users who can be assigned issues in a project: active accounts with Jira access holding the Assignable
    User permission there (GET /rest/api/3/user/assignable/search).

    Args:
        project_key: The project key (e.g. MOB) or id.
        query: Text to match against display name or email (case-insensitive); all assignable users if omitted.
        max_results: How many users to return at most, 1 to 100.
    """
    project = visible_project(db, project_key)
    needle = (query or "").strip().lower()
    assignable = holders(db, project, "ASSIGNABLE_USER")
    found = [
        u
        for u in db.find(users, order_by=[users.c.display_name])
        if u["account_id"] in assignable
        and (needle in u["display_name"].lower() or needle in u["email_address"].lower())
    ]
    render = Render(db)
    return [render.user(u["account_id"]) for u in found[:max_results]]


# ---------------------------------------------------------------- issues


@tool(read_only=True)
def search_issues(
    db: Database, jql: str = "", max_results: page_size(MAX_SEARCH_RESULTS) = 20, next_page_token: str | None = None
) -> SearchResults:
    """Search the issues you can browse with JQL (GET /rest/api/3/search/jql), e.g.
    `project = MOB AND sprint in openSprints() AND statusCategory != Done ORDER BY priority DESC`,
    `assignee = currentUser() AND resolution = Unresolved`, `text ~ "push token"`, `labels = regression`,
    `fixVersion = "4.13.0"`, `created >= -7d`, `issuetype = Bug AND priority >= High`, `parent = MOB-3`,
    `assignee IS EMPTY`, `watcher = currentUser()`. Without ORDER BY, newest issues come first.

    Args:
        jql: The JQL query; empty matches every issue you can browse.
        max_results: Issues per page, 1 to 25.
        next_page_token: The nextPageToken of the previous page.
    """
    found = SiteIndex(db).search(parse(jql))
    page = paginate(found, max_results, next_page_token, max_page_size=MAX_SEARCH_RESULTS)
    render = Render(db)
    return SearchResults(
        total=len(found),
        issues=[render.summary(i) for i in page.results],
        nextPageToken=page.next_cursor,
        isLast=not page.has_more,
    )


@tool(read_only=True)
def get_issue(db: Database, issue_key: str) -> IssueObject:
    """Get one issue with all its fields: description, reporter, components, fix versions, sprints, time tracking,
    subtasks, issue links, comments (those you may see), worklogs and watchers.

    Args:
        issue_key: The issue key (e.g. MOB-42) or id.
    """
    return _issue_object(db, visible_issue(db, issue_key))


@tool()
def create_issue(
    db: Database,
    project_key: str,
    issue_type: IssueType,
    summary: Summary,
    description: str | None = None,
    priority: PriorityName = "Medium",
    assignee_account_id: str | None = None,
    labels: Labels | None = None,
    components: Names | None = None,
    fix_versions: Names | None = None,
    story_points: StoryPoints | None = None,
    parent_key: str | None = None,
    due_date: DueDate | None = None,
    original_estimate: Duration | None = None,
) -> IssueObject:
    """Create an issue (POST /rest/api/3/issue). It starts in its workflow's first status, reported by you, and
    you start watching it. With no assignee it goes to the lead of its first component whose default assignee is
    the component lead, else to the project's default assignee. A Subtask needs parent_key (a standard issue of the
    same project) and takes its parent's sprint; a Story, Task or Bug may have an Epic as parent. Story points
    can't be set on subtasks.

    Args:
        project_key: The project key (e.g. MOB).
        issue_type: The issue type name: Epic, Story, Task, Bug or Subtask (as the project allows).
        summary: One-line title, at most 255 characters.
        description: The description text.
        priority: Highest, High, Medium, Low or Lowest.
        assignee_account_id: Account id of the assignee; must be assignable in the project.
        labels: Labels (single words, no spaces).
        components: Component names of the project.
        fix_versions: Version names of the project (not archived ones).
        story_points: Story point estimate (customfield_10016).
        parent_key: Key of the parent: an Epic for standard issues, a standard issue for a Subtask.
        due_date: Due date, YYYY-MM-DD (needs the Schedule Issues permission).
        original_estimate: Original estimate in Jira's format, e.g. 2d or 3h 30m.
    """
    project = visible_project(db, project_key)
    require(db, project, "CREATE_ISSUES", "create issues")
    kind = rules.issue_type(db, project, issue_type)
    parent = rules.parent(db, project, kind, visible_issue(db, parent_key) if parent_key else None)
    part_ids = rules.component_ids(db, project, components or [])
    if assignee_account_id is not None:
        require(db, project, "ASSIGN_ISSUES", "assign issues")
        assignee = rules.check_assignee(db, project, assignee_account_id)
    else:
        assignee = rules.default_assignee(db, project, part_ids)
    if due_date is not None:
        require(db, project, "SCHEDULE_ISSUES", "set due dates")
    estimate = rules.seconds(db, original_estimate) if original_estimate else None
    now = db.now_iso()
    row = db.insert(
        issues,
        id=db.new_id(issues, "1"),
        key=rules.next_key(project),
        project_id=project["id"],
        issue_type_id=kind["id"],
        summary=summary.strip(),
        description=description,
        status_id=rules.workflow(db, project, kind["id"])["initial_status_id"],
        resolution_id=None,
        priority_id=rules.priority_id(db, priority),
        assignee_account_id=assignee,
        reporter_account_id=me(db)["account_id"],
        labels=rules.labels(labels or []),
        component_ids=part_ids,
        fix_version_ids=rules.version_ids(db, project, fix_versions or []),
        story_points=rules.story_points(kind, story_points) if story_points is not None else None,
        parent_id=parent["id"] if parent else None,
        sprint_id=parent["sprint_id"] if parent and kind["subtask"] else None,
        closed_sprint_ids=[],
        due_date=rules.day(due_date, "due date") if due_date else None,
        original_estimate=estimate,
        remaining_estimate=estimate,
        time_spent=0,
        created=now,
        updated=now,
        resolution_date=None,
    )
    db.update(projects, project["id"], issue_counter=project["issue_counter"] + 1)
    _watch(db, row, me(db)["account_id"])
    return _issue_object(db, row)


@tool()
def edit_issue(
    db: Database,
    issue_key: str,
    summary: Summary | None = None,
    description: str | None = None,
    priority: PriorityName | None = None,
    add_labels: Labels | None = None,
    remove_labels: Labels | None = None,
    components: Names | None = None,
    fix_versions: Names | None = None,
    story_points: StoryPoints | None = None,
    due_date: DueDate | None = None,
    original_estimate: Duration | None = None,
    parent_key: str | None = None,
) -> IssueSummary:
    """Edit an issue's fields (PUT /rest/api/3/issue/{key}). Needs the Edit Issues permission (due dates also need
    Schedule Issues); issues in a non-editable status (Closed) must be reopened first. Status changes go through
    transition_issue and the assignee through assign_issue.

    Args:
        issue_key: The issue key (e.g. MOB-42).
        summary: New one-line title.
        description: New description text (replaces the old).
        priority: Highest, High, Medium, Low or Lowest.
        add_labels: Labels to add.
        remove_labels: Labels to remove.
        components: The complete new list of component names (replaces the current ones).
        fix_versions: The complete new list of fix version names (replaces the current ones; no archived versions).
        story_points: New story point estimate.
        due_date: New due date, YYYY-MM-DD.
        original_estimate: New original estimate, e.g. 3d; also resets the remaining estimate if no work is logged.
        parent_key: New parent epic (standard issues only).
    """
    issue, project = _writable(db, issue_key, "EDIT_ISSUES", "edit issues")
    kind = db.get(issue_types, issue["issue_type_id"])
    changes: dict[str, Any] = {}
    if summary is not None:
        changes["summary"] = summary.strip()
    if description is not None:
        changes["description"] = description
    if priority is not None:
        changes["priority_id"] = rules.priority_id(db, priority)
    if add_labels or remove_labels:
        dropped = set(rules.labels(remove_labels or []))
        kept = [label for label in issue["labels"] if label not in dropped]
        changes["labels"] = sorted(set(kept) | set(rules.labels(add_labels or [])))
    if components is not None:
        changes["component_ids"] = rules.component_ids(db, project, components)
    if fix_versions is not None:
        changes["fix_version_ids"] = rules.version_ids(db, project, fix_versions)
    if story_points is not None:
        changes["story_points"] = rules.story_points(kind, story_points)
    if due_date is not None:
        require(db, project, "SCHEDULE_ISSUES", "set due dates")
        changes["due_date"] = rules.day(due_date, "due date")
    if original_estimate is not None:
        changes["original_estimate"] = rules.seconds(db, original_estimate)
        if not issue["time_spent"]:
            changes["remaining_estimate"] = changes["original_estimate"]
    if parent_key is not None:
        if kind["subtask"]:
            raise InvalidRequest("A subtask's parent can't be changed by editing it.")
        changes["parent_id"] = rules.parent(db, project, kind, visible_issue(db, parent_key))["id"]
    if not changes:
        raise InvalidRequest("No fields to update were given.")
    return Render(db).summary(_touch(db, issue, **changes))


@tool()
def assign_issue(db: Database, issue_key: str, account_id: str | None) -> IssueSummary:
    """Assign an issue (PUT /rest/api/3/issue/{key}/assignee). The assignee must be assignable in the issue's
    project (an active user with Jira access and the Assignable User permission); null unassigns it and "-1"
    gives it to the default assignee (component lead or project lead). Needs the Assign Issues permission.

    Args:
        issue_key: The issue key (e.g. MOB-42).
        account_id: The assignee's account id, null to unassign, or "-1" for the default assignee.
    """
    issue, project = _writable(db, issue_key, "ASSIGN_ISSUES", "assign issues")
    if account_id is None:
        assignee = None
    elif account_id.strip() == "-1":
        assignee = rules.default_assignee(db, project, issue["component_ids"])
    else:
        assignee = rules.check_assignee(db, project, account_id)
    return Render(db).summary(_touch(db, issue, assignee_account_id=assignee))


# ---------------------------------------------------------------- workflow


@tool(read_only=True)
def get_transitions(db: Database, issue_key: str) -> list[TransitionObject]:
    """List the workflow transitions you can perform on an issue now, with their target status and the fields
    their validators require (e.g. a resolution to resolve or close). Transitions whose conditions you don't meet
    (e.g. only the assignee may start progress, only administrators may close) are not listed.

    Args:
        issue_key: The issue key (e.g. MOB-42).
    """
    issue = visible_issue(db, issue_key)
    render = Render(db)
    return [
        TransitionObject(
            id=t["id"],
            name=t["name"],
            to=render.status(t["to_status_id"]),
            hasScreen=t["has_screen"],
            requiredFields=rules.required_fields(t),
        )
        for t in rules.available(db, project_of(db, issue), issue)
    ]


@tool()
def transition_issue(
    db: Database,
    issue_key: str,
    transition_id: str,
    resolution: ResolutionName | None = None,
    fix_versions: Names | None = None,
    comment: CommentBody | None = None,
) -> IssueSummary:
    """Move an issue through its workflow (POST /rest/api/3/issue/{key}/transitions) with a transition id from
    get_transitions. A transition with a screen accepts a resolution and fix versions; its validators may require
    them. Moving to a Done status sets the resolution (given, kept, or the workflow's default); moving out of Done
    clears it.

    Args:
        issue_key: The issue key (e.g. MOB-42).
        transition_id: The transition's id, as get_transitions lists it.
        resolution: Resolution name for Done statuses: Done, Won't Do, Duplicate or Cannot Reproduce.
        fix_versions: Fix version names to set on the transition screen (replaces the current ones).
        comment: A comment to add with the transition.
    """
    issue = visible_issue(db, issue_key)
    project = project_of(db, issue)
    found = [t for t in rules.available(db, project, issue) if t["id"] == transition_id.strip()]
    if not found:
        raise InvalidRequest(f"Transition id '{transition_id}' is not valid for this issue.")
    changes = rules.transition_changes(db, project, issue, found[0], resolution, fix_versions)
    if comment is not None:
        _comment(db, issue, project, comment, None)
    return Render(db).summary(_touch(db, issue, **changes))


# ---------------------------------------------------------------- comments, work, links, watchers


def _comment(
    db: Database, issue: dict[str, Any], project: dict[str, Any], body: str, role: RoleName | None
) -> dict[str, Any]:
    """Add a comment as the current user (who then watches the issue)."""
    require(db, project, "ADD_COMMENTS", "comment on issues")
    mine = me(db)["account_id"]
    if role is not None and role not in roles_of(db, project["id"], mine):
        raise InvalidRequest("You are currently not a member of the project role specified.")
    now = db.now_iso()
    row = db.insert(
        comments,
        id=db.new_id(comments, "1"),
        issue_id=issue["id"],
        author_account_id=mine,
        body=body.strip(),
        visibility_role=role,
        created=now,
        updated=now,
    )
    _watch(db, issue, mine)
    return row


@tool()
def add_comment(db: Database, issue_key: str, body: CommentBody, visibility_role: Role | None = None) -> CommentObject:
    """Add a comment to an issue (POST /rest/api/3/issue/{key}/comment); you then watch the issue. Comments are
    allowed in every status, including Closed. Needs the Add Comments permission.

    Args:
        issue_key: The issue key (e.g. MOB-42).
        body: The comment text.
        visibility_role: Restrict the comment to members of this project role (e.g. Developers); you must be one.
    """
    issue = visible_issue(db, issue_key)
    row = _comment(db, issue, project_of(db, issue), body, visibility_role)
    _touch(db, issue)
    return Render(db).comment(row)


@tool()
def add_worklog(
    db: Database,
    issue_key: str,
    time_spent: Duration,
    started: Moment | None = None,
    comment: str = "",
    adjust_estimate: Literal["auto", "new", "manual", "leave"] = "auto",
    new_estimate: Duration | None = None,
    reduce_by: Duration | None = None,
) -> WorklogObject:
    """Log work on an issue (POST /rest/api/3/issue/{key}/worklog). The remaining estimate is reduced by the time
    spent (auto), set to new_estimate (new), reduced by reduce_by (manual) or left alone (leave); it never goes
    below zero. Needs the Work On Issues permission and an editable status.

    Args:
        issue_key: The issue key (e.g. MOB-42).
        time_spent: Time worked in Jira's format, e.g. 3h 30m, 1d (a day is 8h, a week 5d).
        started: When the work started: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ; now if omitted.
        comment: What the work was.
        adjust_estimate: auto, new, manual or leave (how the remaining estimate changes).
        new_estimate: The new remaining estimate, with adjust_estimate=new.
        reduce_by: How much to take off the remaining estimate, with adjust_estimate=manual.
    """
    issue, _ = _writable(db, issue_key, "WORK_ON_ISSUES", "log work")
    spent = rules.seconds(db, time_spent)
    if spent < 60:
        raise InvalidRequest("Time spent must be at least one minute.")
    remaining = issue["remaining_estimate"]
    if adjust_estimate == "new":
        if new_estimate is None:
            raise InvalidRequest("newEstimate is required when adjustEstimate is 'new'.")
        remaining = rules.seconds(db, new_estimate)
    elif adjust_estimate == "manual":
        if reduce_by is None:
            raise InvalidRequest("reduceBy is required when adjustEstimate is 'manual'.")
        if remaining is not None:
            remaining = max(remaining - rules.seconds(db, reduce_by), 0)
    elif adjust_estimate == "auto" and remaining is not None:
        remaining = max(remaining - spent, 0)
    start = rules.moment(started, "started date") if started else db.now_iso()
    row = db.insert(
        worklogs,
        id=db.new_id(worklogs, "1"),
        issue_id=issue["id"],
        author_account_id=me(db)["account_id"],
        time_spent_seconds=spent,
        started_date=start[:10],
        started=start,
        comment=comment,
        created=db.now_iso(),
    )
    _touch(db, issue, time_spent=issue["time_spent"] + spent, remaining_estimate=remaining)
    return Render(db).worklog(row)


@tool()
def link_issues(db: Database, link_type: LinkType, outward_issue_key: str, inward_issue_key: str) -> LinkResult:
    """Link two issues (POST /rest/api/3/issueLink). The link reads "<outward issue> <outward description>
    <inward issue>": with Blocks, outward_issue_key blocks inward_issue_key; with Duplicate, it duplicates it;
    with Relates, it relates to it; with Cloners, it clones it. Needs Link Issues in the outward issue's project.

    Args:
        link_type: Blocks, Duplicate, Relates or Cloners.
        outward_issue_key: The issue the sentence starts from (the blocker, the duplicate).
        inward_issue_key: The other issue (the blocked one, the original).
    """
    kind = db.find(issue_link_types, name=link_type)[0]
    source, target = visible_issue(db, outward_issue_key), visible_issue(db, inward_issue_key)
    require(db, project_of(db, source), "LINK_ISSUES", "link issues")
    if source["id"] == target["id"]:
        raise InvalidRequest("You cannot link an issue to itself.")
    if db.find(issue_links, type_id=kind["id"], source_issue_id=source["id"], destination_issue_id=target["id"]):
        raise Conflict(f"{source['key']} already {kind['outward']} {target['key']}.")
    row = db.insert(
        issue_links,
        id=db.new_id(issue_links, "1"),
        type_id=kind["id"],
        source_issue_id=source["id"],
        destination_issue_id=target["id"],
    )
    for issue in (source, target):
        _touch(db, issue)
    return LinkResult(
        id=row["id"],
        type=kind["name"],
        outwardIssue=source["key"],
        inwardIssue=target["key"],
        relation=f"{source['key']} {kind['outward']} {target['key']}",
    )


@tool()
def add_watcher(db: Database, issue_key: str, account_id: str | None = None) -> WatchersObject:
    """Add a watcher to an issue (POST /rest/api/3/issue/{key}/watchers); yourself if account_id is omitted.
    Adding someone else needs the Manage Watchers permission, and the watcher must be able to browse the issue.

    Args:
        issue_key: The issue key (e.g. MOB-42).
        account_id: The account id of the person to add; omit to watch the issue yourself.
    """
    issue = visible_issue(db, issue_key)
    project = project_of(db, issue)
    mine = me(db)["account_id"]
    person = user(db, account_id) if account_id else me(db)
    if person["account_id"] != mine:
        require(db, project, "MANAGE_WATCHERS", "manage the watchers of issues")
    if not person["active"] or not has_permission(db, project, "BROWSE_PROJECTS", person["account_id"]):
        raise InvalidRequest(f'The user "{person["display_name"]}" does not have permission to view this issue.')
    _watch(db, issue, person["account_id"])
    return Render(db).watches(issue, mine)


# ---------------------------------------------------------------- boards and sprints


@tool(read_only=True)
def list_boards(db: Database, project_key: str | None = None) -> list[BoardObject]:
    """List the agile boards you can see (GET /rest/agile/1.0/board), optionally only a project's.

    Args:
        project_key: Only boards of this project (key or id).
    """
    render = Render(db)
    project_id = visible_project(db, project_key)["id"] if project_key else None
    visible = {p["id"] for p in browsable_projects(db)}
    return [
        render.board(b)
        for b in db.find(boards, order_by=[boards.c.id], **given(project_id=project_id))
        if b["project_id"] in visible
    ]


@tool(read_only=True)
def list_sprints(
    db: Database,
    board_id: int,
    state: Annotated[list[Literal["future", "active", "closed"]], Unordered] | None = None,
    start_at: StartAt = 0,
    max_results: page_size(50) = 50,
) -> Page[SprintObject]:
    """List a scrum board's sprints, oldest first (GET /rest/agile/1.0/board/{id}/sprint). Kanban boards have none.

    Args:
        board_id: The board's id (list_boards).
        state: Only sprints in these states: future, active, closed.
        start_at: Index of the first sprint to return (pagination offset; next_cursor of the previous page).
        max_results: Sprints per page, 1 to 50.
    """
    board, _ = _board(db, board_id)
    _scrum(board)
    rows = db.find(sprints, board_id=board_id, order_by=[sprints.c.id])
    if state:
        rows = [s for s in rows if s["state"] in state]
    render = Render(db)
    return paginate([render.sprint(s) for s in rows], max_results, str(start_at), max_page_size=50)


@tool()
def create_sprint(
    db: Database,
    board_id: int,
    name: SprintName,
    start_date: Moment | None = None,
    end_date: Moment | None = None,
    goal: str = "",
) -> SprintObject:
    """Create a future sprint on a scrum board (POST /rest/agile/1.0/sprint). Needs the Manage Sprints
    permission in the board's project.

    Args:
        board_id: The scrum board's id (list_boards).
        name: The sprint's name, at most 30 characters.
        start_date: Planned start, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ.
        end_date: Planned end, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ.
        goal: The sprint goal.
    """
    board, project = _board(db, board_id)
    _scrum(board)
    require(db, project, "MANAGE_SPRINTS_PERMISSION", "manage sprints")
    start = rules.moment(start_date, "start date") if start_date else None
    end = rules.moment(end_date, "end date") if end_date else None
    _sprint_dates(start, end)
    row = db.insert(
        sprints,
        id=int(db.new_id(sprints, "")),
        board_id=board_id,
        name=name.strip(),
        state="future",
        goal=goal.strip(),
        start_date=start,
        end_date=end,
        complete_date=None,
    )
    return Render(db).sprint(row)


@tool()
def update_sprint(
    db: Database,
    sprint_id: int,
    state: Literal["active", "closed"] | None = None,
    name: SprintName | None = None,
    goal: str | None = None,
    start_date: Moment | None = None,
    end_date: Moment | None = None,
) -> SprintObject:
    """Start, complete or edit a sprint (POST /rest/agile/1.0/sprint/{id}). Starting (state=active) needs a future
    sprint with start and end dates and no other active sprint on the board. Completing (state=closed) an active
    sprint sends its unfinished issues (not in a Done status) back to the backlog. Closed sprints can't change.
    Needs the Manage Sprints permission.

    Args:
        sprint_id: The sprint's id (list_sprints).
        state: active to start the sprint, closed to complete it.
        name: New name, at most 30 characters.
        goal: New sprint goal.
        start_date: New start, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ.
        end_date: New end, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ.
    """
    sprint, board, project = _sprint(db, sprint_id)
    require(db, project, "MANAGE_SPRINTS_PERMISSION", "manage sprints")
    if sprint["state"] == "closed":
        raise Conflict(f"Sprint '{sprint['name']}' is closed and can't be changed.")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if goal is not None:
        changes["goal"] = goal.strip()
    if start_date is not None:
        changes["start_date"] = rules.moment(start_date, "start date")
    if end_date is not None:
        changes["end_date"] = rules.moment(end_date, "end date")
    merged = {**sprint, **changes}
    _sprint_dates(merged["start_date"], merged["end_date"])
    if state == "active":
        if sprint["state"] != "future":
            raise Conflict(f"Sprint '{sprint['name']}' is already active.")
        if db.find(sprints, board_id=board["id"], state="active"):
            raise Conflict(
                f"Sprint '{sprint['name']}' can't be started: the board '{board['name']}' already has an "
                "active sprint. Complete it first."
            )
        if not merged["start_date"] or not merged["end_date"]:
            raise InvalidRequest("A sprint needs a start date and an end date to be started.")
        changes["state"] = "active"
    elif state == "closed":
        if sprint["state"] != "active":
            raise Conflict(f"Sprint '{sprint['name']}' hasn't started; only an active sprint can be completed.")
        _complete(db, sprint)
        changes.update(state="closed", complete_date=db.now_iso())
    if not changes:
        raise InvalidRequest("No sprint fields to update were given.")
    return Render(db).sprint(db.update(sprints, sprint_id, **changes))


def _complete(db: Database, sprint: dict[str, Any]) -> None:
    """Every issue of a completed sprint records it among its closed sprints and leaves it (unfinished ones go
    back to the backlog)."""
    for issue in db.find(issues, sprint_id=sprint["id"]):
        db.update(issues, issue["id"], sprint_id=None, closed_sprint_ids=issue["closed_sprint_ids"] + [sprint["id"]])


@tool()
def move_issues_to_sprint(db: Database, sprint_id: int, issue_keys: SprintIssues) -> SprintMoveResult:
    """Move issues into a future or active sprint (POST /rest/agile/1.0/sprint/{id}/issue), at most 50 at a time;
    their subtasks come along. Subtasks can't be moved on their own, and only issues of the board's project fit.
    Needs the Schedule Issues and Edit Issues permissions.

    Args:
        sprint_id: The target sprint's id (list_sprints).
        issue_keys: Keys of the issues to move (e.g. ["MOB-41", "MOB-57"]).
    """
    sprint, board, project = _sprint(db, sprint_id)
    if sprint["state"] == "closed":
        raise Conflict(f"Sprint '{sprint['name']}' is closed; issues can only be moved to a future or active sprint.")
    require(db, project, "SCHEDULE_ISSUES", "schedule issues")
    require(db, project, "EDIT_ISSUES", "edit issues")
    moved: list[str] = []
    for key in issue_keys:
        issue = visible_issue(db, key)
        if issue["project_id"] != board["project_id"]:
            raise InvalidRequest(f"Issue {issue['key']} is not on the board '{board['name']}'.")
        if db.get(issue_types, issue["issue_type_id"])["subtask"]:
            parent = db.get(issues, issue["parent_id"])
            raise InvalidRequest(f"{issue['key']} is a subtask; move its parent {parent['key']} instead.")
        for row in [issue] + rules.subtasks(db, issue):
            if row["key"] not in moved:
                _touch(db, row, sprint_id=sprint_id)
                moved.append(row["key"])
    return SprintMoveResult(sprint=Render(db).sprint(sprint), movedIssues=moved)


# ---------------------------------------------------------------- the user's own action


@tool(user_only=True)
def authorize_app(db: Database, email: str) -> UserObject:
    """(User only, on Atlassian's consent screen) The user signs in with their Atlassian account and two-step
    verification and allows the assistant to act as them in Jira (OAuth 2.0 consent).

    Args:
        email: The Atlassian account's email address.
    """
    found = db.find(users, email_address=email.strip().lower())
    if not found or found[0]["account_type"] != "atlassian":
        raise NotFound("We couldn't find an Atlassian account with that email.")
    person = found[0]
    if not person["active"]:
        raise PermissionDenied("This account has been deactivated by your organization's admin.")
    if not person["jira_access"]:
        raise PermissionDenied(
            f"{person['display_name']} doesn't have access to Jira on this site. Request access from a site admin."
        )
    authorize(db, person)
    return Render(db).user(person["account_id"])
