"""Linear's business rules shared by the tools: finding an issue by UUID or identifier (ENG-123) within the teams
the viewer sees, each team's estimate scale, which state, cycle, project, milestone, labels, parent and assignee an
issue may take, and the timestamps a state change sets."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import visible_team_ids
from .errors import conflict, invalid, not_found
from .schema import cycles, issues, labels, milestones, project_teams, projects, team_members, users, workflow_states

#: The estimates each team estimate scale allows (Linear's issue estimation types).
ESTIMATE_SCALES: dict[str, tuple[int, ...]] = {
    "notUsed": (),
    "exponential": (0, 1, 2, 4, 8, 16),
    "fibonacci": (0, 1, 2, 3, 5, 8),
    "linear": (0, 1, 2, 3, 4, 5),
}
PRIORITY_LABELS = {0: "No priority", 1: "Urgent", 2: "High", 3: "Medium", 4: "Low"}
#: Where each workflow state type sits in the life of an issue; the timestamp entering it sets.
STATE_STAMPS = {"started": "started_at", "completed": "completed_at", "canceled": "canceled_at"}


def issue(db: Database, issue_id: str, *, archived_ok: bool = True) -> dict[str, Any]:
    """An issue of a team the viewer sees, by its UUID or identifier (case-insensitive ENG-123)."""
    key = issue_id.strip()
    found = db.find(issues, id=key) or db.find(issues, identifier=key.upper())
    if not found or found[0]["team_id"] not in visible_team_ids(db):
        raise not_found("Issue")
    if found[0]["archived"] and not archived_ok:
        raise conflict(f"Issue {found[0]['identifier']} is archived.")
    return found[0]


def state_of_team(db: Database, state_id: str, team_id: str) -> dict[str, Any]:
    """A workflow state that belongs to this team (another team's state is refused)."""
    found = db.find(workflow_states, id=state_id)
    if not found:
        raise not_found("WorkflowState")
    if found[0]["team_id"] != team_id:
        raise invalid("The workflow state does not belong to the issue's team.")
    return found[0]


def default_state(db: Database, team_id: str) -> dict[str, Any]:
    return db.find(workflow_states, team_id=team_id, is_default=True)[0]


def stamps_for(db: Database, state: dict[str, Any], row: dict[str, Any] | None) -> dict[str, Any]:
    """The timestamps an issue gets when it enters `state` (started_at kept once set; completion and cancellation
    cleared when it leaves those states)."""
    now = db.now_iso()
    out: dict[str, Any] = {"completed_at": None, "canceled_at": None}
    if state["type"] in ("started", "completed") and not (row and row["started_at"]):
        out["started_at"] = now
    if state["type"] in ("completed", "canceled"):
        out[STATE_STAMPS[state["type"]]] = now
    return out


def check_estimate(team: dict[str, Any], estimate: int | None) -> None:
    if estimate is None:
        return
    scale = ESTIMATE_SCALES[team["estimation_type"]]
    if not scale:
        raise invalid(f"The {team['name']} team does not use estimates.")
    if estimate not in scale:
        allowed = ", ".join(str(v) for v in scale)
        raise invalid(
            f"Estimate {estimate} is not on the {team['name']} team's {team['estimation_type']} scale ({allowed})."
        )


def check_assignee(db: Database, user_id: str | None, team_id: str) -> None:
    """An assignee must be an active user who is a member of the issue's team."""
    if user_id is None:
        return
    found = db.find(users, id=user_id)
    if not found:
        raise not_found("User")
    if not found[0]["active"]:
        raise invalid(f"{found[0]['name']} is deactivated and cannot be assigned issues.")
    if not db.find(team_members, team_id=team_id, user_id=user_id):
        raise invalid(f"{found[0]['name']} is not a member of the issue's team.")


def check_labels(db: Database, label_ids: list[str], team_id: str) -> list[str]:
    """Workspace labels or the team's own; never a group itself, and at most one label of each group."""
    groups: dict[str, str] = {}
    for label_id in label_ids:
        found = db.find(labels, id=label_id)
        if not found or found[0]["team_id"] not in (None, team_id):
            raise not_found("IssueLabel")
        label = found[0]
        if label["is_group"]:
            raise invalid(f"Label group '{label['name']}' cannot be applied; pick one of its labels.")
        if label["parent_id"]:
            if label["parent_id"] in groups:
                group = db.get(labels, label["parent_id"])["name"]
                raise invalid(
                    f"Labels '{groups[label['parent_id']]}' and '{label['name']}' are both in the '{group}' group; "
                    "an issue can have only one label of a group."
                )
            groups[label["parent_id"]] = label["name"]
    return sorted(set(label_ids))


def check_parent(db: Database, parent_id: str, row: dict[str, Any] | None) -> dict[str, Any]:
    """A parent that exists, is not archived, and is neither the issue itself nor one of its sub-issues."""
    parent = issue(db, parent_id, archived_ok=False)
    if row is not None:
        cursor: dict[str, Any] | None = parent
        while cursor is not None:
            if cursor["id"] == row["id"]:
                raise invalid("An issue cannot be its own parent or the parent of its parent.")
            cursor = db.get(issues, cursor["parent_id"]) if cursor["parent_id"] else None
    return parent


def check_cycle(db: Database, cycle_id: str, team_id: str) -> dict[str, Any]:
    """A cycle of the issue's team that has not ended."""
    found = db.find(cycles, id=cycle_id)
    if not found:
        raise not_found("Cycle")
    cycle = found[0]
    if cycle["team_id"] != team_id:
        raise invalid("The cycle belongs to another team; issues can only join their own team's cycles.")
    if cycle["completed_at"] or cycle["ends_at"] <= db.now_iso():
        raise conflict(f"Cycle {cycle['number']} is completed; issues cannot be added to a past cycle.")
    return cycle


def check_project(db: Database, project_id: str, team_id: str) -> dict[str, Any]:
    """A project the issue's team takes part in, not completed or canceled."""
    found = db.find(projects, id=project_id)
    if not found:
        raise not_found("Project")
    project = found[0]
    if not db.find(project_teams, project_id=project_id, team_id=team_id):
        raise invalid(f"The issue's team is not part of the project '{project['name']}'.")
    if project["state"] in ("completed", "canceled"):
        raise conflict(f"Project '{project['name']}' is {project['state']}; it no longer takes issues.")
    return project


def check_milestone(db: Database, milestone_id: str, project_id: str | None) -> dict[str, Any]:
    found = db.find(milestones, id=milestone_id)
    if not found:
        raise not_found("ProjectMilestone")
    if project_id is None or found[0]["project_id"] != project_id:
        raise invalid("The milestone belongs to a different project than the issue.")
    return found[0]
