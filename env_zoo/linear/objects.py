"""Linear's GraphQL objects as output models (camelCase fields as the API names them), and how stored rows become
them. Connections page like Linear's: `nodes` plus `pageInfo` with `hasNextPage` and `endCursor`."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, KeptGeneric

from .rules import PRIORITY_LABELS
from .schema import cycles, issue_relations, issues, labels, milestones, projects, teams, users, workflow_states

T = TypeVar("T")


class PageInfo(BaseModel):
    hasNextPage: bool
    endCursor: str | None


class Connection(KeptGeneric, Generic[T]):
    """One page of a list: pass `pageInfo.endCursor` as `after` for the next."""

    nodes: list[T]
    pageInfo: PageInfo


class UserRef(BaseModel):
    id: str
    name: str


class User(BaseModel):
    """A workspace member; inactive users are deactivated."""

    id: str
    name: str
    displayName: str
    email: str
    admin: bool
    active: bool


class Team(BaseModel):
    """A team: its key prefixes issue identifiers; issueEstimationType says which estimates are allowed."""

    id: str
    key: str
    name: str
    private: bool
    issueEstimationType: str
    cyclesEnabled: bool
    members: list[UserRef]


class Viewer(User):
    """The signed-in user and the teams they belong to."""

    teams: list[str]


class WorkflowState(BaseModel):
    """A status of a team's workflow; `type` is its category."""

    id: str
    name: str
    type: str
    position: int
    isDefault: bool


class IssueLabel(BaseModel):
    """A label; a group's labels exclude each other on one issue. team null: a workspace label."""

    id: str
    name: str
    color: str
    team: str | None
    parent: str | None
    isGroup: bool


class StateRef(BaseModel):
    id: str
    name: str
    type: str


class IssueSummary(BaseModel):
    """An issue as lists show it."""

    id: str
    identifier: str
    title: str
    state: StateRef
    priority: int
    priorityLabel: str
    estimate: int | None
    assignee: UserRef | None
    labels: list[str]
    team: str
    cycle: int | None
    project: str | None
    parent: str | None
    dueDate: str | None
    archivedAt: str | None


class IssueRelation(BaseModel):
    """A relation seen from the issue: `blocks`/`blocked by`, `duplicate of`/`duplicated by`, `related`."""

    id: str
    type: str
    direction: str
    issue: str
    title: str


class MilestoneRef(BaseModel):
    id: str
    name: str


class Issue(IssueSummary):
    """An issue in full: description, creator, milestone, sub-issues, relations and lifecycle times."""

    description: str | None
    creator: UserRef
    projectMilestone: MilestoneRef | None
    children: list[str]
    relations: list[IssueRelation]
    createdAt: str
    startedAt: str | None
    completedAt: str | None
    canceledAt: str | None
    url: str


class Comment(BaseModel):
    id: str
    issue: str
    user: UserRef
    body: str
    parentId: str | None
    createdAt: str
    editedAt: str | None


class Cycle(BaseModel):
    """A team's time-boxed cycle; issue counts by state type."""

    id: str
    number: int
    name: str | None
    startsAt: str
    endsAt: str
    completedAt: str | None
    isActive: bool
    issueCount: int
    completedIssueCount: int


class ProjectMilestone(BaseModel):
    id: str
    name: str
    description: str | None
    targetDate: str | None
    issueCount: int
    completedIssueCount: int


class ProjectSummary(BaseModel):
    id: str
    name: str
    state: str
    lead: UserRef | None
    teams: list[str]
    startDate: str | None
    targetDate: str | None


class Project(ProjectSummary):
    """A project in full: description, milestones and progress (share of its issues completed)."""

    description: str
    milestones: list[ProjectMilestone]
    issueCount: int
    completedIssueCount: int
    progress: float
    completedAt: str | None
    canceledAt: str | None


class Deleted(BaseModel):
    success: bool
    entityId: str


def user_ref(db: Database, user_id: str | None) -> UserRef | None:
    if user_id is None:
        return None
    row = db.get(users, user_id)
    return UserRef(id=row["id"], name=row["name"])


def user_object(row: dict[str, Any]) -> User:
    return User(
        id=row["id"], name=row["name"], displayName=row["display_name"], email=row["email"], admin=row["admin"],
        active=row["active"],
    )  # fmt: skip


def state_object(row: dict[str, Any]) -> WorkflowState:
    return WorkflowState(
        id=row["id"], name=row["name"], type=row["type"], position=row["position"], isDefault=row["is_default"]
    )


def label_object(db: Database, row: dict[str, Any]) -> IssueLabel:
    return IssueLabel(
        id=row["id"],
        name=row["name"],
        color=row["color"],
        team=db.get(teams, row["team_id"])["key"] if row["team_id"] else None,
        parent=db.get(labels, row["parent_id"])["name"] if row["parent_id"] else None,
        isGroup=row["is_group"],
    )


class Names:
    """The small tables an issue refers to (states, labels, teams, cycles, projects, users), read once per call."""

    def __init__(self, db: Database) -> None:
        self.states = {r["id"]: r for r in db.select(workflow_states)}
        self.labels = {r["id"]: r["name"] for r in db.select(labels)}
        self.teams = {r["id"]: r["key"] for r in db.select(teams)}
        self.cycles = {r["id"]: r["number"] for r in db.select(cycles)}
        self.projects = {r["id"]: r["name"] for r in db.select(projects)}
        self.users = {r["id"]: r["name"] for r in db.select(users)}

    def user(self, user_id: str | None) -> UserRef | None:
        return UserRef(id=user_id, name=self.users[user_id]) if user_id else None


def summaries(db: Database, rows: list[dict[str, Any]]) -> list[IssueSummary]:
    """Issues as lists show them, with the names they refer to looked up once for the whole page."""
    names = Names(db)
    parent_ids = sorted({r["parent_id"] for r in rows if r["parent_id"]})
    parents = {}
    if parent_ids:
        found = db.select(issues, f"id IN ({', '.join('?' * len(parent_ids))})", parent_ids)
        parents = {p["id"]: p["identifier"] for p in found}
    out = []
    for row in rows:
        state = names.states[row["state_id"]]
        out.append(
            IssueSummary(
                id=row["id"],
                identifier=row["identifier"],
                title=row["title"],
                state=StateRef(id=state["id"], name=state["name"], type=state["type"]),
                priority=row["priority"],
                priorityLabel=PRIORITY_LABELS[row["priority"]],
                estimate=row["estimate"],
                assignee=names.user(row["assignee_id"]),
                labels=sorted(names.labels[label_id] for label_id in row["label_ids"]),
                team=names.teams[row["team_id"]],
                cycle=names.cycles[row["cycle_id"]] if row["cycle_id"] else None,
                project=names.projects[row["project_id"]] if row["project_id"] else None,
                parent=parents.get(row["parent_id"]) if row["parent_id"] else None,
                dueDate=row["due_date"],
                archivedAt=row["archived_at"],
            )
        )
    return out


def summary_object(db: Database, row: dict[str, Any]) -> IssueSummary:
    return summaries(db, [row])[0]


def _relations(db: Database, row: dict[str, Any]) -> list[IssueRelation]:
    out = []
    outward = {"blocks": "blocks", "duplicate": "duplicate of", "related": "related"}
    inward = {"blocks": "blocked by", "duplicate": "duplicated by", "related": "related"}
    for rel in db.find(issue_relations, issue_id=row["id"]):
        other = db.get(issues, rel["related_issue_id"])
        out.append(IssueRelation(id=rel["id"], type=rel["type"], direction=outward[rel["type"]],
                                 issue=other["identifier"], title=other["title"]))  # fmt: skip
    for rel in db.find(issue_relations, related_issue_id=row["id"]):
        other = db.get(issues, rel["issue_id"])
        out.append(IssueRelation(id=rel["id"], type=rel["type"], direction=inward[rel["type"]],
                                 issue=other["identifier"], title=other["title"]))  # fmt: skip
    return out


def issue_object(db: Database, row: dict[str, Any]) -> Issue:
    milestone = db.get(milestones, row["milestone_id"]) if row["milestone_id"] else None
    children = db.find(issues, parent_id=row["id"], order_by=[issues.c.number])
    creator = user_ref(db, row["creator_id"])
    assert creator is not None
    return Issue(
        **summary_object(db, row).model_dump(),
        description=row["description"],
        creator=creator,
        projectMilestone=MilestoneRef(id=milestone["id"], name=milestone["name"]) if milestone else None,
        children=[c["identifier"] for c in children],
        relations=_relations(db, row),
        createdAt=row["created_at"],
        startedAt=row["started_at"],
        completedAt=row["completed_at"],
        canceledAt=row["canceled_at"],
        url=f"https://linear.app/tidewater/issue/{row['identifier'].lower()}",
    )


def comment_object(db: Database, row: dict[str, Any]) -> Comment:
    author = user_ref(db, row["user_id"])
    assert author is not None
    return Comment(
        id=row["id"], issue=db.get(issues, row["issue_id"])["identifier"], user=author, body=row["body"],
        parentId=row["parent_id"], createdAt=row["created_at"], editedAt=row["edited_at"],
    )  # fmt: skip


def _counts(db: Database, where: str, params: list[Any]) -> tuple[int, int]:
    """(issues, completed issues) among unarchived, non-canceled issues matching `where`."""
    kinds = {r["id"]: r["type"] for r in db.select(workflow_states)}
    found = [kinds[r["state_id"]] for r in db.select(issues, where + " AND archived = 0", params)]
    live = [k for k in found if k != "canceled"]
    return len(live), sum(1 for k in live if k == "completed")


def cycle_object(db: Database, row: dict[str, Any]) -> Cycle:
    total, done = _counts(db, "cycle_id = ?", [row["id"]])
    now = db.now_iso()
    return Cycle(
        id=row["id"], number=row["number"], name=row["name"], startsAt=row["starts_at"], endsAt=row["ends_at"],
        completedAt=row["completed_at"], isActive=row["starts_at"] <= now < row["ends_at"], issueCount=total,
        completedIssueCount=done,
    )  # fmt: skip


def project_summary(db: Database, row: dict[str, Any], team_keys: list[str]) -> ProjectSummary:
    return ProjectSummary(
        id=row["id"], name=row["name"], state=row["state"], lead=user_ref(db, row["lead_id"]), teams=team_keys,
        startDate=row["start_date"], targetDate=row["target_date"],
    )  # fmt: skip


def project_object(db: Database, row: dict[str, Any], team_keys: list[str]) -> Project:
    total, done = _counts(db, "project_id = ?", [row["id"]])
    marks = []
    for m in db.find(milestones, project_id=row["id"], order_by=[milestones.c.sort_order]):
        m_total, m_done = _counts(db, "milestone_id = ?", [m["id"]])
        marks.append(
            ProjectMilestone(
                id=m["id"],
                name=m["name"],
                description=m["description"],
                targetDate=m["target_date"],
                issueCount=m_total,
                completedIssueCount=m_done,
            )  # fmt: skip
        )
    return Project(
        **project_summary(db, row, team_keys).model_dump(),
        description=row["description"],
        milestones=marks,
        issueCount=total,
        completedIssueCount=done,
        progress=round(done / total, 2) if total else 0.0,
        completedAt=row["completed_at"],
        canceledAt=row["canceled_at"],
    )
