"""Jira's business rules shared by the tools: field validation on create and edit, default assignees, durations,
workflow transitions (conditions, validators, resolution post functions) and issue editability."""

from __future__ import annotations

import re
from typing import Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .access import assignable, has_permission, me, settings
from .schema import (
    components,
    issue_types,
    issues,
    priorities,
    resolutions,
    statuses,
    transitions,
    users,
    versions,
    workflows,
)

DURATION = re.compile(r"(\d+(?:\.\d+)?)([wdhm])")
#: Jira's duration format ("3h 30m", "1d", "1.5h", "2w"), as the argument types check it.
DURATION_PATTERN = r"^\s*\d+(\.\d+)?[wdhmWDHM](\s+\d+(\.\d+)?[wdhmWDHM])*\s*$"
#: A date (midnight UTC) or a date-time with an optional zone, as worklogs and sprints take them.
MOMENT_PATTERN = r"^\s*\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?)?\s*$"
STORY_POINTS_FIELD = "customfield_10016"
Priority = Literal["Highest", "High", "Medium", "Low", "Lowest"]
Resolution = Literal["Done", "Won't Do", "Duplicate", "Cannot Reproduce"]
IssueTypeName = Literal["Epic", "Story", "Task", "Bug", "Subtask"]
LinkTypeName = Literal["Blocks", "Duplicate", "Relates", "Cloners"]
RoleName = Literal["Administrators", "Developers", "Viewers"]
MAX_SUMMARY = 255
MAX_LABEL = 255
MAX_COMMENT = 32767
MAX_SPRINT_NAME = 30
MAX_SPRINT_ISSUES = 50


# ---------------------------------------------------------------- values


def seconds(db: Database, text: str) -> int:
    """A Jira duration ("3h 30m", "1d", "1.5h", "2w"; the argument type checks the format) in seconds, with the
    site's working day and week."""
    row = settings(db)
    size = {
        "m": 60,
        "h": 3600,
        "d": 3600 * row["hours_per_day"],
        "w": 3600 * row["hours_per_day"] * row["days_per_week"],
    }
    return round(sum(float(amount) * size[unit] for amount, unit in DURATION.findall(text.lower())))


def day(value: str, name: str) -> str:
    """A real calendar date (the argument type checks the YYYY-MM-DD shape)."""
    return parse_date(value, name).isoformat()


def moment(value: str, name: str) -> str:
    """A date (midnight UTC) or date-time (converted to UTC), as YYYY-MM-DDTHH:MM:SSZ."""
    return iso_timestamp(parse_timestamp(value, name, "2025-06-16T09:00:00Z", dates=True, naive_as_utc=True))


def labels(values: list[str]) -> list[str]:
    """Labels as Jira keeps them: a set, in alphabetical order (the argument type refuses spaces)."""
    return sorted(set(values))


def priority_id(db: Database, name: Priority) -> str:
    """The id of a priority by name."""
    return db.find(priorities, name=name)[0]["id"]


def resolution_id(db: Database, name: Resolution) -> str:
    """The id of a resolution by name."""
    return db.find(resolutions, name=name)[0]["id"]


def issue_type(db: Database, project: dict[str, Any], name: IssueTypeName) -> dict[str, Any]:
    """An issue type of the project's issue type scheme, by name."""
    for type_id in project["issue_type_ids"]:
        row = db.get(issue_types, type_id)
        if row["name"] == name:
            return row
    valid = ", ".join(db.get(issue_types, t)["name"] for t in project["issue_type_ids"])
    raise InvalidRequest(f"The issue type '{name}' is not valid in project {project['key']}. Valid types: {valid}.")


def component_ids(db: Database, project: dict[str, Any], names: list[str]) -> list[str]:
    """Ids of components of the project, by name (any case) or id."""
    rows = db.find(components, project_id=project["id"])
    out = []
    for name in names:
        found = [c for c in rows if c["name"].lower() == name.strip().lower() or c["id"] == name.strip()]
        if not found:
            raise InvalidRequest(f"Component name '{name}' is not valid in project {project['key']}.")
        out.append(found[0]["id"])
    return sorted(set(out))


def version_ids(db: Database, project: dict[str, Any], names: list[str]) -> list[str]:
    """Ids of the project's versions by name or id; archived versions can't be chosen."""
    rows = db.find(versions, project_id=project["id"])
    out = []
    for name in names:
        found = [v for v in rows if v["name"].lower() == name.strip().lower() or v["id"] == name.strip()]
        if not found:
            raise InvalidRequest(f"Version name '{name}' is not valid in project {project['key']}.")
        if found[0]["archived"]:
            raise InvalidRequest(f"Version '{found[0]['name']}' is archived and can't be set as a fix version.")
        out.append(found[0]["id"])
    return sorted(set(out))


def story_points(type_row: dict[str, Any], value: float) -> float:
    """Story points are on the screens of standard issue types and epics, never of subtasks."""
    if type_row["subtask"]:
        raise InvalidRequest(
            f"Field '{STORY_POINTS_FIELD}' cannot be set. It is not on the appropriate screen, "
            f"or unknown (Story point estimate isn't on {type_row['name']} screens)."
        )
    return value


def parent(
    db: Database, project: dict[str, Any], type_row: dict[str, Any], parent_issue: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The parent an issue of this type may have: subtasks need a standard issue of the same project; standard
    issues may have an epic; epics have none."""
    if parent_issue is None:
        if type_row["subtask"]:
            raise InvalidRequest("Issue type is a sub-task but parent issue key or id not specified.")
        return None
    parent_type = db.get(issue_types, parent_issue["issue_type_id"])
    if parent_issue["project_id"] != project["id"]:
        raise InvalidRequest(f"The parent {parent_issue['key']} is in another project.")
    wanted = {-1: 0, 0: 1}.get(type_row["hierarchy_level"])
    if wanted is None:
        raise InvalidRequest(f"{type_row['name']} issues can't have a parent.")
    if parent_type["hierarchy_level"] != wanted:
        allowed = "a standard issue (not an epic or subtask)" if wanted == 0 else "an epic"
        raise InvalidRequest(
            f"{parent_issue['key']} is a {parent_type['name']}; a {type_row['name']}'s parent must be {allowed}."
        )
    return parent_issue


def default_assignee(db: Database, project: dict[str, Any], component_list: list[str]) -> str | None:
    """Who gets a new issue no one was assigned to: the lead of its first COMPONENT_LEAD component, else the
    project lead when the project's default is PROJECT_LEAD; never someone who can't be assigned."""
    for component_id in component_list:
        component = db.get(components, component_id, "Component")
        lead = component["lead_account_id"]
        if component["assignee_type"] == "COMPONENT_LEAD" and lead and assignable(db, project, lead):
            return lead
    lead = project["lead_account_id"]
    if project["default_assignee"] == "PROJECT_LEAD" and assignable(db, project, lead):
        return lead
    return None


def check_assignee(db: Database, project: dict[str, Any], account_id: str) -> str:
    """An account that may be assigned issues in the project."""
    found = db.find(users, account_id=account_id.strip())
    if not found or not assignable(db, project, found[0]["account_id"]):
        raise InvalidRequest(f"User '{account_id.strip()}' cannot be assigned issues.")
    return found[0]["account_id"]


def editable(db: Database, issue: dict[str, Any]) -> None:
    """Issues in a status with jira.issue.editable=false (Closed) can't be edited, assigned or have work logged."""
    status = db.get(statuses, issue["status_id"])
    if not status["editable"]:
        raise Conflict(
            f"Issue {issue['key']} is in status {status['name']}, which doesn't allow edits. Reopen it first."
        )


# ---------------------------------------------------------------- workflows


def workflow(db: Database, project: dict[str, Any], type_id: str) -> dict[str, Any]:
    """The workflow the project's workflow scheme maps an issue type to."""
    scheme = project["workflow_scheme"]
    return db.get(workflows, scheme.get(type_id, scheme["default"]), "Workflow")


def _condition_ok(db: Database, project: dict[str, Any], issue: dict[str, Any], condition: str) -> bool:
    if condition == "only_assignee":
        return issue["assignee_account_id"] == me(db)["account_id"]
    if condition.startswith("permission:"):
        return has_permission(db, project, condition.split(":", 1)[1])
    raise ValueError(f"unknown workflow condition {condition!r}")


def available(db: Database, project: dict[str, Any], issue: dict[str, Any]) -> list[dict[str, Any]]:
    """The transitions the current user can take on the issue now: from its status (or global), with every
    condition met, and the TRANSITION_ISSUES permission."""
    if not has_permission(db, project, "TRANSITION_ISSUES"):
        return []
    flow = workflow(db, project, issue["issue_type_id"])
    rows = sorted(db.find(transitions, workflow_id=flow["id"]), key=lambda t: int(t["id"]))
    return [
        t
        for t in rows
        if (not t["from_status_ids"] or issue["status_id"] in t["from_status_ids"])
        and t["to_status_id"] != issue["status_id"]
        and all(_condition_ok(db, project, issue, c) for c in t["conditions"])
    ]


def required_fields(transition: dict[str, Any]) -> list[str]:
    """Fields a transition's validators require."""
    names = {
        "resolution_required": "resolution",
        "assignee_required": "assignee",
        "fix_version_required": "fixVersions",
    }
    return [names[v] for v in transition["validators"]]


def transition_changes(
    db: Database,
    project: dict[str, Any],
    issue: dict[str, Any],
    transition: dict[str, Any],
    resolution: Resolution | None,
    fix_versions: list[str] | None,
) -> dict[str, Any]:
    """The fields a transition sets, after its screen and validators: the new status; the resolution (given,
    the post function's default, kept, or cleared when leaving Done); fix versions from the screen."""
    if (resolution is not None or fix_versions is not None) and not transition["has_screen"]:
        field = "resolution" if resolution is not None else "fixVersions"
        raise InvalidRequest(
            f"Field '{field}' cannot be set. It is not on the appropriate screen, or unknown "
            f"(transition '{transition['name']}' has no screen)."
        )
    target = db.get(statuses, transition["to_status_id"])
    changes: dict[str, Any] = {"status_id": target["id"]}
    if fix_versions is not None:
        changes["fix_version_ids"] = version_ids(db, project, fix_versions)
    if target["category"] == "done":
        if resolution is not None:
            changes["resolution_id"] = resolution_id(db, resolution)
        else:  # keep the issue's resolution, else the post function's default (a validator may insist on one)
            changes["resolution_id"] = issue["resolution_id"] or transition["default_resolution_id"]
    else:
        if resolution is not None:
            raise InvalidRequest(f"A resolution can only be set when moving to a Done status, not {target['name']}.")
        changes["resolution_id"] = None
    merged = {**issue, **changes}
    for validator in transition["validators"]:
        if validator == "resolution_required" and merged["resolution_id"] is None:
            raise InvalidRequest(f"Resolution is required to {transition['name']}.")
        if validator == "assignee_required" and merged["assignee_account_id"] is None:
            raise InvalidRequest(f"Assignee is required: assign {issue['key']} before moving it to {target['name']}.")
        if validator == "fix_version_required" and not merged["fix_version_ids"]:
            raise InvalidRequest(f"Fix Version/s is required to {transition['name']}.")
    if changes["resolution_id"] != issue["resolution_id"]:
        changes["resolution_date"] = db.now_iso() if changes["resolution_id"] else None
    return changes


def next_key(project: dict[str, Any]) -> str:
    """The next key of a project (keys are never reused)."""
    return f"{project['key']}-{project['issue_counter'] + 1}"


def subtasks(db: Database, issue: dict[str, Any]) -> list[dict[str, Any]]:
    """An issue's subtasks."""
    return db.find(issues, parent_id=issue["id"], order_by=[issues.c.id])
