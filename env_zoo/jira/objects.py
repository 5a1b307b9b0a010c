"""Jira's REST objects as output models (field names as in the API's JSON), and how stored rows become them."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .access import settings
from .schema import (
    comments,
    components,
    issue_link_types,
    issue_links,
    issue_types,
    issues,
    priorities,
    projects,
    resolutions,
    sprints,
    statuses,
    users,
    versions,
    watchers,
    worklogs,
)

CATEGORY_NAMES = {"new": "To Do", "indeterminate": "In Progress", "done": "Done"}


class UserRef(BaseModel):
    """A person as issues show them."""

    accountId: str
    displayName: str
    active: bool


class UserObject(UserRef):
    """A user account (GET /rest/api/3/myself, user searches)."""

    emailAddress: str
    accountType: str = Field(description="atlassian (a person) or app (an integration)")
    timeZone: str


class StatusObject(BaseModel):
    """A workflow status and its category."""

    id: str
    name: str
    statusCategory: str = Field(description="To Do, In Progress or Done")


class NamedRef(BaseModel):
    """An id and a name (issue type, priority, resolution, component)."""

    id: str
    name: str


class ProjectRef(BaseModel):
    """The project an issue belongs to."""

    id: str
    key: str
    name: str


class VersionRef(BaseModel):
    """A fix version as issues show it."""

    id: str
    name: str
    released: bool
    archived: bool
    releaseDate: str | None


class SprintObject(BaseModel):
    """A sprint of a scrum board (Agile API)."""

    id: int
    name: str
    state: str = Field(description="future, active or closed")
    goal: str
    startDate: str | None
    endDate: str | None
    completeDate: str | None
    originBoardId: int


class IssueRef(BaseModel):
    """Another issue as a link, subtask or parent shows it."""

    id: str
    key: str
    summary: str
    status: str
    issuetype: str


class IssueSummary(BaseModel):
    """An issue with its main fields (search results)."""

    id: str
    key: str
    summary: str
    issuetype: str
    status: StatusObject
    priority: str
    resolution: str | None
    assignee: UserRef | None
    labels: list[str]
    components: list[str]
    fixVersions: list[str]
    storyPoints: float | None = Field(description="Story point estimate (customfield_10016)")
    sprint: str | None = Field(description="the open (active or future) sprint the issue is in; null: backlog")
    parent: str | None = Field(description="key of the epic or parent issue")
    duedate: str | None
    created: str
    updated: str


class TimeTracking(BaseModel):
    """Estimates and logged time, in Jira's duration format (1w 2d 3h 30m) and seconds."""

    originalEstimate: str | None
    remainingEstimate: str | None
    timeSpent: str | None
    originalEstimateSeconds: int | None
    remainingEstimateSeconds: int | None
    timeSpentSeconds: int


class CommentObject(BaseModel):
    """A comment on an issue."""

    id: str
    author: UserRef
    body: str
    visibility: dict[str, str] | None = Field(description='{"type": "role", "value": "<project role>"} if restricted')
    created: str
    updated: str


class WorklogObject(BaseModel):
    """Time logged on an issue."""

    id: str
    issueId: str
    author: UserRef
    timeSpent: str
    timeSpentSeconds: int
    started: str
    comment: str


class IssueLinkObject(BaseModel):
    """A link from this issue to another, read from this issue's side."""

    id: str
    type: str
    relation: str = Field(description="how this issue relates to the other one, e.g. 'blocks', 'is blocked by'")
    issue: IssueRef


class WatchersObject(BaseModel):
    """Who watches an issue."""

    isWatching: bool
    watchCount: int
    watchers: list[UserRef]


class IssueObject(IssueSummary):
    """One issue with every field, its comments, worklogs, links, subtasks and watchers."""

    project: ProjectRef
    description: str | None
    reporter: UserRef
    componentDetails: list[NamedRef]
    fixVersionDetails: list[VersionRef]
    closedSprints: list[str]
    resolutiondate: str | None
    timetracking: TimeTracking
    subtasks: list[IssueRef]
    issuelinks: list[IssueLinkObject]
    comments: list[CommentObject]
    worklogs: list[WorklogObject]
    watches: WatchersObject


class TransitionObject(BaseModel):
    """A workflow transition available on an issue now."""

    id: str
    name: str
    to: StatusObject
    hasScreen: bool = Field(description="true when the transition shows a screen (resolution, comment, fix versions)")
    requiredFields: list[str] = Field(description="fields the transition's validators require, e.g. resolution")


class ProjectSummary(BaseModel):
    """A project as project search lists it."""

    id: str
    key: str
    name: str
    projectTypeKey: str
    lead: UserRef
    issueTypes: list[str]


class ComponentObject(BaseModel):
    """A project component."""

    id: str
    name: str
    description: str
    lead: UserRef | None
    assigneeType: str = Field(description="COMPONENT_LEAD: new issues with this component go to its lead")


class VersionObject(VersionRef):
    """A project version (release)."""

    description: str
    startDate: str | None


class ProjectObject(ProjectSummary):
    """A project with its components, versions, roles and the caller's permissions."""

    description: str
    assigneeType: str = Field(description="default assignee of new issues: PROJECT_LEAD or UNASSIGNED")
    components: list[ComponentObject]
    versions: list[VersionObject]
    roles: dict[str, list[UserRef]] = Field(description="project role name -> its members")
    myPermissions: list[str] = Field(description="permission keys the current user holds in this project")


class BoardObject(BaseModel):
    """An agile board."""

    id: int
    name: str
    type: str = Field(description="scrum (has sprints) or kanban")
    projectKey: str
    projectName: str


class LinkResult(BaseModel):
    """A created issue link."""

    id: str
    type: str
    outwardIssue: str = Field(description="the key of the issue on the link's outward side")
    relation: str = Field(description="the link read as a sentence")
    inwardIssue: str = Field(description="the key of the issue on the link's inward side")


class SprintMoveResult(BaseModel):
    """Issues moved into a sprint (subtasks follow their parents)."""

    sprint: SprintObject
    movedIssues: list[str]


class SearchResults(BaseModel):
    """One page of a JQL search."""

    total: int
    issues: list[IssueSummary]
    nextPageToken: str | None
    isLast: bool


# ---------------------------------------------------------------- durations


def duration(seconds: int | None, hours_per_day: int, days_per_week: int) -> str | None:
    """Seconds in Jira's format: 1w 2d 3h 30m (with the site's working day and week)."""
    if seconds is None:
        return None
    minutes = seconds // 60
    parts = []
    for unit, size in (("w", 60 * hours_per_day * days_per_week), ("d", 60 * hours_per_day), ("h", 60), ("m", 1)):
        count, minutes = divmod(minutes, size)
        if count:
            parts.append(f"{count}{unit}")
    return " ".join(parts) or "0m"


# ---------------------------------------------------------------- rows to objects


class Render:
    """Turns rows into API objects, reading each reference table once."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @cached_property
    def users(self) -> dict[str, dict[str, Any]]:
        return {u["account_id"]: u for u in self.db.find(users)}

    @cached_property
    def names(self) -> dict[str, dict[str, str]]:
        tables = {"type": issue_types, "priority": priorities, "resolution": resolutions, "component": components}
        return {kind: {r["id"]: r["name"] for r in self.db.find(t)} for kind, t in tables.items()}

    @cached_property
    def statuses(self) -> dict[str, dict[str, Any]]:
        return {s["id"]: s for s in self.db.find(statuses)}

    @cached_property
    def versions(self) -> dict[str, dict[str, Any]]:
        return {v["id"]: v for v in self.db.find(versions)}

    @cached_property
    def sprints(self) -> dict[int, dict[str, Any]]:
        return {s["id"]: s for s in self.db.find(sprints)}

    @cached_property
    def clock(self) -> tuple[int, int]:
        row = settings(self.db)
        return row["hours_per_day"], row["days_per_week"]

    def user_ref(self, account_id: str | None) -> UserRef | None:
        if account_id is None:
            return None
        u = self.users[account_id]
        return UserRef(accountId=u["account_id"], displayName=u["display_name"], active=u["active"])

    def status(self, status_id: str) -> StatusObject:
        s = self.statuses[status_id]
        return StatusObject(id=s["id"], name=s["name"], statusCategory=CATEGORY_NAMES[s["category"]])

    def version_ref(self, version_id: str) -> VersionRef:
        v = self.versions[version_id]
        return VersionRef(
            id=v["id"], name=v["name"], released=v["released"], archived=v["archived"], releaseDate=v["release_date"]
        )

    def duration(self, seconds: int | None) -> str | None:
        return duration(seconds, *self.clock)

    def issue_ref(self, issue: dict[str, Any]) -> IssueRef:
        return IssueRef(
            id=issue["id"],
            key=issue["key"],
            summary=issue["summary"],
            status=self.statuses[issue["status_id"]]["name"],
            issuetype=self.names["type"][issue["issue_type_id"]],
        )

    def project_ref(self, project_id: str) -> ProjectRef:
        row = self.db.get(projects, project_id, "Project")
        return ProjectRef(id=row["id"], key=row["key"], name=row["name"])

    def summary(self, issue: dict[str, Any]) -> IssueSummary:
        return IssueSummary(**self._summary_fields(issue))

    def _summary_fields(self, issue: dict[str, Any]) -> dict[str, Any]:
        parent = self.db.get(issues, issue["parent_id"]) if issue["parent_id"] else None
        sprint = self.sprints[issue["sprint_id"]]["name"] if issue["sprint_id"] is not None else None
        return {
            "id": issue["id"],
            "key": issue["key"],
            "summary": issue["summary"],
            "issuetype": self.names["type"][issue["issue_type_id"]],
            "status": self.status(issue["status_id"]),
            "priority": self.names["priority"][issue["priority_id"]],
            "resolution": self.names["resolution"][issue["resolution_id"]] if issue["resolution_id"] else None,
            "assignee": self.user_ref(issue["assignee_account_id"]),
            "labels": issue["labels"],
            "components": [self.names["component"][c] for c in issue["component_ids"]],
            "fixVersions": [self.versions[v]["name"] for v in issue["fix_version_ids"]],
            "storyPoints": issue["story_points"],
            "sprint": sprint,
            "parent": parent["key"] if parent else None,
            "duedate": issue["due_date"],
            "created": issue["created"],
            "updated": issue["updated"],
        }

    def comment(self, row: dict[str, Any]) -> CommentObject:
        role = row["visibility_role"]
        return CommentObject(
            id=row["id"],
            author=self.user_ref(row["author_account_id"]),
            body=row["body"],
            visibility={"type": "role", "value": role} if role else None,
            created=row["created"],
            updated=row["updated"],
        )

    def worklog(self, row: dict[str, Any]) -> WorklogObject:
        return WorklogObject(
            id=row["id"],
            issueId=row["issue_id"],
            author=self.user_ref(row["author_account_id"]),
            timeSpent=self.duration(row["time_spent_seconds"]),
            timeSpentSeconds=row["time_spent_seconds"],
            started=row["started"],
            comment=row["comment"],
        )

    def links(self, issue: dict[str, Any]) -> list[IssueLinkObject]:
        types = {t["id"]: t for t in self.db.find(issue_link_types)}
        mine = {
            link["id"]: link
            for column in ("source_issue_id", "destination_issue_id")
            for link in self.db.find(issue_links, **{column: issue["id"]})
        }
        out = []
        for link in sorted(mine.values(), key=lambda link: link["id"]):  # in id order, as ORDER BY id
            kind = types[link["type_id"]]
            outward = link["source_issue_id"] == issue["id"]
            other = self.db.get(issues, link["destination_issue_id"] if outward else link["source_issue_id"])
            out.append(
                IssueLinkObject(
                    id=link["id"],
                    type=kind["name"],
                    relation=kind["outward"] if outward else kind["inward"],
                    issue=self.issue_ref(other),
                )
            )
        return out

    def watches(self, issue: dict[str, Any], me: str) -> WatchersObject:
        ids = [w["account_id"] for w in self.db.find(watchers, issue_id=issue["id"])]
        people = sorted((self.user_ref(a) for a in ids), key=lambda u: u.displayName)
        return WatchersObject(isWatching=me in ids, watchCount=len(ids), watchers=people)

    def issue(self, issue: dict[str, Any], me: str, visible_roles: set[str]) -> IssueObject:
        """The full issue; comments restricted to a role the caller lacks are left out, as Jira does."""
        subtasks = self.db.find(issues, parent_id=issue["id"], order_by=[issues.c.id])
        notes = [
            c
            for c in self.db.find(comments, issue_id=issue["id"], order_by=[comments.c.created])
            if c["visibility_role"] is None or c["visibility_role"] in visible_roles
        ]
        logs = self.db.find(worklogs, issue_id=issue["id"], order_by=[worklogs.c.started])
        return IssueObject(
            **self._summary_fields(issue),
            project=self.project_ref(issue["project_id"]),
            description=issue["description"],
            reporter=self.user_ref(issue["reporter_account_id"]),
            componentDetails=[NamedRef(id=c, name=self.names["component"][c]) for c in issue["component_ids"]],
            fixVersionDetails=[self.version_ref(v) for v in issue["fix_version_ids"]],
            closedSprints=[self.sprints[s]["name"] for s in issue["closed_sprint_ids"]],
            resolutiondate=issue["resolution_date"],
            timetracking=TimeTracking(
                originalEstimate=self.duration(issue["original_estimate"]),
                remainingEstimate=self.duration(issue["remaining_estimate"]),
                timeSpent=self.duration(issue["time_spent"]) if issue["time_spent"] else None,
                originalEstimateSeconds=issue["original_estimate"],
                remainingEstimateSeconds=issue["remaining_estimate"],
                timeSpentSeconds=issue["time_spent"],
            ),
            subtasks=[self.issue_ref(s) for s in subtasks],
            issuelinks=self.links(issue),
            comments=[self.comment(c) for c in notes],
            worklogs=[self.worklog(w) for w in logs],
            watches=self.watches(issue, me),
        )

    def sprint(self, row: dict[str, Any]) -> SprintObject:
        return SprintObject(
            id=row["id"],
            name=row["name"],
            state=row["state"],
            goal=row["goal"],
            startDate=row["start_date"],
            endDate=row["end_date"],
            completeDate=row["complete_date"],
            originBoardId=row["board_id"],
        )

    def board(self, row: dict[str, Any]) -> BoardObject:
        project = self.db.get(projects, row["project_id"], "Project")
        return BoardObject(
            id=row["id"], name=row["name"], type=row["type"], projectKey=project["key"], projectName=project["name"]
        )

    def project_summary(self, row: dict[str, Any]) -> ProjectSummary:
        return ProjectSummary(**self._project_fields(row))

    def _project_fields(self, row: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": row["id"],
            "key": row["key"],
            "name": row["name"],
            "projectTypeKey": row["project_type_key"],
            "lead": self.user_ref(row["lead_account_id"]),
            "issueTypes": [self.names["type"][t] for t in row["issue_type_ids"]],
        }

    def project(self, row: dict[str, Any], roles: dict[str, list[str]], permissions: list[str]) -> ProjectObject:
        parts = self.db.find(components, project_id=row["id"], order_by=[components.c.name])
        releases = self.db.find(versions, project_id=row["id"], order_by=[versions.c.release_date])
        return ProjectObject(
            **self._project_fields(row),
            description=row["description"],
            assigneeType=row["default_assignee"],
            components=[
                ComponentObject(
                    id=c["id"],
                    name=c["name"],
                    description=c["description"],
                    lead=self.user_ref(c["lead_account_id"]),
                    assigneeType=c["assignee_type"],
                )
                for c in parts
            ],
            versions=[
                VersionObject(
                    **self.version_ref(v["id"]).model_dump(), description=v["description"], startDate=v["start_date"]
                )
                for v in releases
            ],
            roles={name: [self.user_ref(a) for a in members] for name, members in roles.items()},
            myPermissions=permissions,
        )

    def user(self, account_id: str) -> UserObject:
        u = self.users[account_id]
        return UserObject(
            accountId=u["account_id"],
            displayName=u["display_name"],
            active=u["active"],
            emailAddress=u["email_address"],
            accountType=u["account_type"],
            timeZone=u["time_zone"],
        )
