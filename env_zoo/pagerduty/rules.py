"""PagerDuty's business rules shared by the tools: who may act (base roles, restricted access, the "From" user),
service status, urgency rules and maintenance, and the incident lifecycle with its log entries."""

from __future__ import annotations

from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied

from .clock import effective_end, iso, stored
from .objects import user_teams
from .oncall import on_call_for_rule, rule_at_level
from .schema import alerts, incidents, log_entries, maintenance_windows, users

ROLE_LABELS = {
    "owner": "Account Owner",
    "admin": "Admin",
    "user": "Manager",
    "limited_user": "Responder",
    "restricted_access": "Restricted Access",
    "observer": "Observer",
    "read_only_user": "Stakeholder",
}
RESPONDER_ROLES = {"owner", "admin", "user", "limited_user", "restricted_access"}
MANAGER_ROLES = {"owner", "admin", "user"}
TRIGGER_CHANNELS = {"api": "API", "events_api": "Events API"}


# ---------------------------------------------------------------- who acts


def requester(db: Database, from_email: str) -> dict[str, Any]:
    """The user named by the "From" header."""
    found = db.find(users, email=from_email.strip().lower())
    if not found:
        raise InvalidRequest(
            f'The "From" header must be the email address of a user on this account; no user has the email {from_email}'
        )
    return found[0]


def check_responder(db: Database, user: dict[str, Any], service: dict[str, Any]) -> None:
    """Observers and Stakeholders can't act on incidents; Restricted Access users only on their teams' services."""
    if user["role"] not in RESPONDER_ROLES:
        raise PermissionDenied(
            f"Access Denied: {user['name']} has the {ROLE_LABELS[user['role']]} role and can't take action on incidents"
        )
    if user["role"] == "restricted_access" and not set(service["teams"]) & set(user_teams(db, user["id"])):
        raise PermissionDenied(
            f"Access Denied: {user['name']} has restricted access and is not on a team of the service {service['name']}"
        )


def responders(db: Database, user_ids: list[str]) -> list[str]:
    """Users who may be assigned incidents or put on call (not Observers or Stakeholders), sorted and unique."""
    if not user_ids:
        raise InvalidRequest("Give at least one user")
    for user_id in user_ids:
        user = db.get(users, user_id, "User")
        if user["role"] not in RESPONDER_ROLES:
            raise InvalidRequest(
                f"{user['name']} is a read-only {ROLE_LABELS[user['role']]} and can't be assigned "
                "incidents or go on call"
            )
    return sorted(set(user_ids))


def as_agent(row: dict[str, Any], kind: str = "user_reference") -> dict[str, str]:
    """A log-entry agent: the user (or the service) that did something."""
    return {"id": row["id"], "type": kind}


# ---------------------------------------------------------------- services


def maintenance_at(db: Database, service_id: str, moment: datetime) -> dict[str, Any] | None:
    """The maintenance window covering a service at `moment`, if any."""
    for window in db.find(maintenance_windows, order_by=[maintenance_windows.c.start_time]):
        if service_id in window["service_ids"] and stored(window["start_time"]) <= moment < effective_end(window):
            return window
    return None


def service_status(db: Database, service: dict[str, Any]) -> str:
    """disabled, maintenance, critical (a triggered incident), warning (acknowledged incidents) or active."""
    if service["status"] == "disabled":
        return "disabled"
    if maintenance_at(db, service["id"], db.now()):
        return "maintenance"
    statuses = {i["status"] for i in db.find(incidents, incidents.c.status != "resolved", service_id=service["id"])}
    return "critical" if "triggered" in statuses else "warning" if statuses else "active"


def refusal(db: Database, service: dict[str, Any]) -> str | None:
    """Why a service opens no new incidents now (it is disabled or in maintenance), or None."""
    if service["status"] == "disabled":
        return f"Service {service['name']} is disabled; enable it before opening incidents on it"
    window = maintenance_at(db, service["id"], db.now())
    if window:
        return (
            f"Service {service['name']} is in maintenance until {iso(effective_end(window))}; no new incidents "
            "can be opened on it"
        )
    return None


def in_support_hours(hours: dict[str, Any], moment: datetime) -> bool:
    """Whether `moment` falls in a service's fixed daily support hours."""
    local = moment.astimezone(ZoneInfo(hours["time_zone"]))
    start, end = time.fromisoformat(hours["start_time"]), time.fromisoformat(hours["end_time"])
    return local.isoweekday() in hours["days_of_week"] and start <= local.time().replace(tzinfo=None) < end


def urgency_for(service: dict[str, Any], moment: datetime, severity: str | None = None) -> str:
    """The urgency a new incident gets from the service's urgency rule."""
    rule = service["incident_urgency_rule"]
    if rule["type"] == "constant":
        return rule["urgency"]
    if rule["type"] == "severity_based":
        return "low" if severity in ("warning", "info") else "high"
    inside = in_support_hours(service["support_hours"], moment)
    return rule["during_support_hours" if inside else "outside_support_hours"]["urgency"]


# ---------------------------------------------------------------- incidents


def ensure_open(incident: dict[str, Any]) -> dict[str, Any]:
    """The incident, which must not be resolved yet."""
    if incident["status"] == "resolved":
        raise Conflict(f"Incident Already Resolved: #{incident['incident_number']} can't be changed")
    return incident


def log(
    db: Database,
    incident_id: str,
    kind: str,
    summary: str,
    agent: dict[str, str] | None,
    channel: str,
    details: str | None = None,
) -> dict[str, Any]:
    """Record a `<kind>_log_entry` on an incident; `details` (a note's text) goes into its channel summary."""
    return db.insert(
        log_entries,
        id=db.new_id(log_entries, "R", 25),
        incident_id=incident_id,
        type=f"{kind}_log_entry",
        summary=summary,
        agent=agent,
        channel={"type": channel, **({"summary": details} if details else {})},
        created_at=db.now_iso(),
    )


def names(db: Database, user_ids: list[str]) -> str:
    """Users' names, comma separated."""
    return ", ".join(db.get(users, u, "User")["name"] for u in user_ids) or "nobody"


def policy_responders(db: Database, policy_id: str, level: int) -> list[str]:
    """Who an escalation policy level notifies now."""
    rule = rule_at_level(db, policy_id, level)
    return on_call_for_rule(db, rule, db.now()) if rule else []


def first_staffed_level(db: Database, policy_id: str) -> tuple[int, list[str]]:
    """The first level of a policy with someone on call now, and who (a level with nobody is skipped)."""
    level = 1
    while rule_at_level(db, policy_id, level):
        found = policy_responders(db, policy_id, level)
        if found:
            return level, found
        level += 1
    return 1, []


def open_new_incident(
    db: Database, service: dict[str, Any], values: dict[str, Any], agent: dict[str, str], channel: str
) -> dict[str, Any]:
    """Trigger an incident on a service: numbered after the last one, assigned to the given users or to who is on
    call at the first staffed level of its escalation policy."""
    policy_id = values.pop("escalation_policy_id", None) or service["escalation_policy_id"]
    assignees = values.pop("assignments", None)
    level, on_call = first_staffed_level(db, policy_id)
    if assignees is None:
        assignees = on_call
    number = (db.conn.execute(select(func.max(incidents.c.incident_number))).scalar() or 0) + 1
    now = db.now_iso()
    row = db.insert(
        incidents,
        id=db.new_id(incidents, "Q", 13),
        incident_number=number,
        status="triggered",
        service_id=service["id"],
        escalation_policy_id=policy_id,
        escalation_level=level,
        assignments=assignees,
        acknowledgements=[],
        resolve_reason=None,
        last_status_change_by=agent,
        created_at=now,
        last_status_change_at=now,
        **values,
    )
    log(db, row["id"], "trigger", f"Triggered through the {TRIGGER_CHANNELS[channel]}.", agent, channel)
    log(db, row["id"], "assign", f"Assigned to {names(db, assignees)}.", agent, channel)
    return row


def acknowledge(
    db: Database, incident: dict[str, Any], agent: dict[str, str], who: str, channel: str
) -> dict[str, Any]:
    """Acknowledge an open incident (acknowledging again adds the acknowledger once)."""
    if agent in incident["acknowledgements"]:
        return incident
    log(db, incident["id"], "acknowledge", f"Acknowledged by {who}.", agent, channel)
    return db.update(
        incidents,
        incident["id"],
        status="acknowledged",
        last_status_change_by=agent,
        acknowledgements=incident["acknowledgements"] + [agent],
        last_status_change_at=db.now_iso(),
    )


def resolve(
    db: Database, incident: dict[str, Any], agent: dict[str, str], summary: str, channel: str, **values: Any
) -> dict[str, Any]:
    """Resolve an open incident and its alerts."""
    for alert in db.find(alerts, incident_id=incident["id"], status="triggered"):
        db.update(alerts, alert["id"], status="resolved")
    log(db, incident["id"], "resolve", summary, agent, channel)
    return db.update(
        incidents,
        incident["id"],
        status="resolved",
        last_status_change_by=agent,
        last_status_change_at=db.now_iso(),
        **values,
    )


def reassign(
    db: Database,
    incident: dict[str, Any],
    assignees: list[str],
    agent: dict[str, str],
    kind: str,
    summary: str,
    channel: str,
    **values: Any,
) -> dict[str, Any]:
    """Hand an incident to new assignees: it is triggered again for them and earlier acknowledgements lapse."""
    log(db, incident["id"], kind, summary, agent, channel)
    return db.update(
        incidents,
        incident["id"],
        assignments=assignees,
        status="triggered",
        acknowledgements=[],
        last_status_change_by=agent,
        last_status_change_at=db.now_iso(),
        **values,
    )
