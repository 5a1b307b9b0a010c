"""Sentry's issue workflow: how a status change sets the substatus and status details, which releases an issue can be
resolved in, how a new release settles issues resolved "in the next release", and when two alert rules are the same."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .errors import detail_error, field_error, nested_field_error
from .schema import issues, releases

NO_NEXT_RELEASE = "No release data present in the system to form a basis for 'Next Release'"


def project_releases(db: Database, organization_id: str, project_id: str) -> list[dict[str, Any]]:
    """The organization's releases that include the project, newest first."""
    rows = db.select(releases, "organization_id = ?", [organization_id], order_by="date_created DESC")
    return [r for r in rows if project_id in r["projects"]]


def resolution(
    db: Database,
    issue: dict[str, Any],
    organization_id: str,
    status: str,
    in_release: str | None,
    ignore_duration: int | None,
    ignore_count: int | None,
    ignore_user_count: int | None,
    forever: bool,
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """(column changes, activity type, activity data) for moving `issue` to `status`, or a 400 when the details do not
    fit the status (release details need `resolved`, archive conditions need `ignored`)."""
    archive = ignore_duration is not None or ignore_count is not None or ignore_user_count is not None or forever
    if in_release is not None and status != "resolved":
        raise field_error("statusDetails", "inRelease requires status resolved")
    if archive and status != "ignored":
        raise field_error("statusDetails", "ignore conditions require status ignored")
    if forever and (ignore_duration is not None or ignore_count is not None or ignore_user_count is not None):
        raise field_error("statusDetails", "archive forever takes no ignore conditions")
    now = db.now_iso()
    if status == "unresolved":
        return (
            {
                "status": "unresolved",
                "substatus": "ongoing",
                "status_details": {},
                "resolved_at": None,
                "archived_at": None,
            },
            ("set_unresolved"),
            {},
        )
    if status == "resolved":
        details: dict[str, Any] = {}
        kind = "set_resolved"
        if in_release is not None:
            found = [
                r for r in project_releases(db, organization_id, issue["project_id"]) if r["version"] == in_release
            ]
            if not found:
                raise nested_field_error(
                    "statusDetails", "inRelease", "Unable to find a release with the given version."
                )
            details = {"in_release": in_release}
            kind = "set_resolved_in_release"
        changes = {
            "status": "resolved",
            "substatus": None,
            "status_details": details,
            "resolved_at": now,
            "archived_at": None,
        }
        return changes, kind, {"version": in_release} if in_release else {}
    if status == "resolvedInNextRelease":
        if not project_releases(db, organization_id, issue["project_id"]):
            raise nested_field_error("statusDetails", "inNextRelease", NO_NEXT_RELEASE)
        changes = {"status": "resolved", "substatus": None, "status_details": {"in_next_release": True}}
        return changes | {"resolved_at": now, "archived_at": None}, "set_resolved_in_release", {"version": "next"}
    details = {}
    substatus = "archived_until_escalating"
    if forever:
        substatus = "archived_forever"
    if ignore_duration is not None:
        details["ignore_duration"] = ignore_duration
    if ignore_count is not None:
        details["ignore_count"] = ignore_count
    if ignore_user_count is not None:
        details["ignore_user_count"] = ignore_user_count
    if details:
        substatus = "archived_until_condition_met"
    changes = {"status": "ignored", "substatus": substatus, "status_details": details, "resolved_at": None}
    return changes | {"archived_at": now}, "set_ignored", dict(details) | {"substatus": substatus}


def settle_next_release(db: Database, project_ids: list[str], version: str) -> None:
    """A new release of these projects is the "next release": issues waiting for it are now resolved in it."""
    where = f"status = 'resolved' AND project_id IN ({', '.join('?' * len(project_ids))})"
    for row in db.select(issues, where, project_ids):
        if row["status_details"].get("in_next_release"):
            db.update(issues, row["id"], status_details={"in_release": version})


def check_release_version(version: str) -> str:
    """The version stripped; 400 for the names Sentry refuses."""
    version = version.strip()
    if version in (".", "..", "latest"):
        raise field_error("version", f"Release with name {version} is not allowed")
    return version


def same_rule(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when two rules would fire and notify identically (Sentry refuses exact duplicates in a project)."""
    keys = ("conditions", "filters", "action_match", "filter_match", "actions", "frequency", "environment")
    return all(a[k] == b[k] for k in keys)


def nothing_to_change() -> Exception:
    """400 for an update that names no field."""
    return detail_error("Nothing to update: send at least one field")


def ignore_until(row: dict[str, Any]) -> str | None:
    """When an issue archived for a duration comes back: its archiving time plus the duration."""
    minutes = row["status_details"].get("ignore_duration")
    if minutes is None or not row["archived_at"]:
        return None
    return iso_timestamp(parse_timestamp(row["archived_at"], "archived_at") + timedelta(minutes=minutes))
