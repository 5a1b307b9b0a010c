"""PagerDuty's business rules shared by the tools: query and date-range filters, service status, urgency rules and
maintenance, and the incident lifecycle (triggering, acknowledging, resolving, reassigning, notes, Events API
follow-ups) with its log entries."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp

from .access import as_agent, check_responder, responders
from .clock import effective_end, stored
from .objects import ref_incident
from .oncall import on_call_for_rule, rule_at_level
from .schema import (
    alerts,
    escalation_policies,
    escalation_rules,
    incident_notes,
    incidents,
    integrations,
    log_entries,
    maintenance_windows,
    priorities,
    schedule_overrides,
    services,
    users,
)

TRIGGER_CHANNELS = {"api": "API", "events_api": "Events API"}
MAX_INCIDENT_RANGE = timedelta(days=180)
MAX_SCHEDULE_RANGE = timedelta(days=93)


# ---------------------------------------------------------------- filters


def matches(query: str | None, *texts: str | None) -> bool:
    """PagerDuty's `query` filter: a case-insensitive substring of the name (or email)."""
    return query is None or any(t and query.strip().casefold() in t.casefold() for t in texts)


def check_range(start: datetime, end: datetime, limit: timedelta) -> None:
    """A since/until range must have until after since and be at most `limit` long."""
    if end <= start:
        raise InvalidRequest("until must be after since")
    if end - start > limit:
        raise InvalidRequest(f"The date range can be at most {limit.days} days")


def incident_rows(
    db: Database,
    since: datetime,
    until: datetime,
    sort_by: str,
    statuses: list[str] | None,
    urgencies: list[str] | None,
    service_ids: list[str] | None,
    incident_key: str | None,
) -> list[dict[str, Any]]:
    """Incidents created in [since, until) with the given statuses, urgencies, services and key, in SQL."""
    where, params = ['"created_at" >= ?', '"created_at" < ?'], [iso_timestamp(since), iso_timestamp(until)]
    for column, values in (("status", statuses), ("urgency", urgencies), ("service_id", service_ids)):
        if values:
            where.append(f'"{column}" IN ({", ".join("?" * len(values))})')
            params.extend(values)
    if incident_key is not None:
        where.append('"incident_key" = ?')
        params.append(incident_key)
    field, direction = sort_by.split(":")
    return db.select(incidents, " AND ".join(where), params, order_by=f'"{field}" {direction.upper()}')


# ---------------------------------------------------------------- services


def running_windows(db: Database, moment: datetime) -> list[dict[str, Any]]:
    """The maintenance windows running at `moment`, by start time (started by then, not yet over)."""
    started = db.select(maintenance_windows, '"start_time" <= ?', [iso_timestamp(moment)], order_by='"start_time"')
    return [w for w in started if moment < effective_end(w)]


def maintenance_at(db: Database, service_id: str, moment: datetime) -> dict[str, Any] | None:
    """The maintenance window covering a service at `moment`, if any."""
    return next((w for w in running_windows(db, moment) if service_id in w["service_ids"]), None)


def service_statuses(db: Database, rows: list[dict[str, Any]]) -> dict[str, str]:
    """Each service's status now: disabled, maintenance, critical (a triggered incident), warning (acknowledged
    incidents only) or active; one read of the running windows and one of the open incidents for all of them."""
    in_maintenance = {s for w in running_windows(db, db.now()) for s in w["service_ids"]}
    open_statuses: dict[str, set[str]] = {}
    for incident in db.select(incidents, '"status" != ?', ["resolved"]):
        open_statuses.setdefault(incident["service_id"], set()).add(incident["status"])
    return {s["id"]: _status(s, s["id"] in in_maintenance, open_statuses.get(s["id"], set())) for s in rows}


def _status(service: dict[str, Any], in_maintenance: bool, open_statuses: set[str]) -> str:
    if service["status"] == "disabled":
        return "disabled"
    if in_maintenance:
        return "maintenance"
    return "critical" if "triggered" in open_statuses else "warning" if open_statuses else "active"


def refusal(db: Database, service: dict[str, Any]) -> str | None:
    """Why a service opens no new incidents now (it is disabled or in maintenance), or None."""
    if service["status"] == "disabled":
        return f"Service {service['name']} is disabled; enable it before opening incidents on it"
    window = maintenance_at(db, service["id"], db.now())
    if window:
        return (
            f"Service {service['name']} is in maintenance until {iso_timestamp(effective_end(window))}; "
            "no new incidents can be opened on it"
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


def add_note(db: Database, incident: dict[str, Any], user: dict[str, Any], content: str) -> dict[str, Any]:
    """Add a note (its text stripped) to an incident's timeline, with its annotate log entry."""
    text = content.strip()
    log(db, incident["id"], "annotate", f"Note added by {user['name']}.", as_agent(user), "api", text)
    return db.insert(
        incident_notes,
        id=db.new_id(incident_notes, "PN", 5),
        incident_id=incident["id"],
        user_id=user["id"],
        content=text,
        created_at=db.now_iso(),
    )


def follow_up_event(db: Database, service: dict[str, Any], dedup_key: str, action: str) -> None:
    """An Events API acknowledge or resolve: acts on the service's open alert with the key, if there is one."""
    found = db.find(alerts, service_id=service["id"], alert_key=dedup_key, status="triggered")
    if not found:
        return
    alert = found[0]
    incident = db.get(incidents, alert["incident_id"])
    agent = as_agent(service, "service_reference")
    if action == "acknowledge":
        if incident["status"] == "triggered":
            acknowledge(db, incident, agent, service["name"], "events_api")
        return
    db.update(alerts, alert["id"], status="resolved")
    if not db.find(alerts, incident_id=incident["id"], status="triggered") and incident["status"] != "resolved":
        resolve(db, incident, agent, "Resolved through the Events API.", "events_api")


def change_details(
    db: Database,
    incident: dict[str, Any],
    user: dict[str, Any],
    title: str | None,
    urgency: str | None,
    priority_id: str | None,
) -> dict[str, Any]:
    """Retitle an incident or change its urgency or priority; a changed urgency or priority is logged."""
    agent, changes = as_agent(user), {}
    if title is not None:
        changes["title"] = title.strip()
    if urgency is not None and urgency != incident["urgency"]:
        summary = f"Urgency changed from {incident['urgency']} to {urgency} by {user['name']}."
        log(db, incident["id"], "urgency_change", summary, agent, "api")
        changes["urgency"] = urgency
    if priority_id is not None and priority_id != incident["priority_id"]:
        new = db.get(priorities, priority_id, "Priority")
        old = db.get(priorities, incident["priority_id"])["name"] if incident["priority_id"] else "no priority"
        summary = f"Priority changed from {old} to {new['name']} by {user['name']}."
        log(db, incident["id"], "priority_change", summary, agent, "api")
        changes["priority_id"] = priority_id
    return db.update(incidents, incident["id"], **changes) if changes else incident


def escalate(db: Database, incident: dict[str, Any], user: dict[str, Any], level: int) -> dict[str, Any]:
    """Escalate (or de-escalate) an incident to a level of its policy, triggering it for who is on call there."""
    rules = db.find(escalation_rules, escalation_policy_id=incident["escalation_policy_id"])
    if level > len(rules):
        raise InvalidRequest(f"escalation_level must be between 1 and {len(rules)} for this escalation policy")
    assignees = policy_responders(db, incident["escalation_policy_id"], level)
    if not assignees:
        raise Conflict(f"No one is on call at level {level} of this escalation policy right now")
    summary = f"Escalated to level {level} ({names(db, assignees)}) by {user['name']}."
    return reassign(db, incident, assignees, as_agent(user), "escalate", summary, "api", escalation_level=level)


def assign_users(db: Database, incident: dict[str, Any], user: dict[str, Any], user_ids: list[str]) -> dict[str, Any]:
    """Reassign an incident to users who may respond."""
    assignees = responders(db, user_ids)
    summary = f"Reassigned to {names(db, assignees)} by {user['name']}."
    return reassign(db, incident, assignees, as_agent(user), "assign", summary, "api")


def assign_policy(db: Database, incident: dict[str, Any], user: dict[str, Any], policy_id: str) -> dict[str, Any]:
    """Reassign an incident to another escalation policy, at its first level with someone on call."""
    policy = db.get(escalation_policies, policy_id, "Escalation policy")
    level, assignees = first_staffed_level(db, policy["id"])
    summary = f"Reassigned to {policy['name']} ({names(db, assignees)}) by {user['name']}."
    return reassign(
        db,
        incident,
        assignees,
        as_agent(user),
        "assign",
        summary,
        "api",
        escalation_policy_id=policy["id"],
        escalation_level=level,
    )


def merge(db: Database, target: dict[str, Any], source_ids: list[str], user: dict[str, Any]) -> None:
    """Merge open incidents (in id order) into `target`: their alerts move to it and they are resolved, pointing at
    it. The user must be allowed to act on every source's service."""
    sources = []
    for key in sorted(set(source_ids)):
        source = db.get(incidents, key, "Incident")
        if source["id"] == target["id"]:
            raise InvalidRequest("An incident can't be merged into itself")
        if source["status"] == "resolved":
            raise Conflict(f"Incident #{source['incident_number']} is resolved; only open incidents can be merged")
        check_responder(db, user, db.get(services, source["service_id"], "Service"))
        sources.append(source)
    for source in sources:
        for alert in db.find(alerts, incident_id=source["id"]):
            db.update(alerts, alert["id"], incident_id=target["id"])
        summary = f"Resolved by {user['name']} by merging into #{target['incident_number']}."
        resolve(db, source, as_agent(user), summary, "api", resolve_reason=ref_incident(target))


def check_incident_key(db: Database, service_id: str, incident_key: str | None) -> None:
    """No second open incident with the same key on a service."""
    if incident_key:
        same = db.find(incidents, incidents.c.status != "resolved", service_id=service_id, incident_key=incident_key)
        if same:
            raise Conflict(f"Open incident with key '{incident_key}' already exists: #{same[0]['incident_number']}")


# ---------------------------------------------------------------- Events API


def events_integration(db: Database, routing_key: str) -> dict[str, Any]:
    """The Events API v2 integration a routing key belongs to."""
    found = db.find(integrations, integration_key=routing_key.strip())
    if not found:
        raise InvalidRequest("Event object is invalid: unknown routing_key")
    integration = found[0]
    if integration["type"] != "events_api_v2_inbound_integration":
        raise InvalidRequest(
            f"Event object is invalid: the routing_key belongs to the {integration['name']} "
            "integration, which does not take Events API events"
        )
    return integration


def trigger_payload(summary: str | None, source: str | None, severity: str | None) -> tuple[str, str, str]:
    """A trigger's summary and source (stripped) and severity, all three required."""
    if summary is None:
        raise InvalidRequest("Event object is invalid: payload.summary is required for a trigger")
    if source is None:
        raise InvalidRequest("Event object is invalid: payload.source is required for a trigger")
    if severity is None:
        raise InvalidRequest("Event object is invalid: payload.severity is required for a trigger")
    return summary.strip(), source.strip(), severity


def trigger_alert(db: Database, integration: dict[str, Any], key: str, title: str, origin: str, severity: str) -> None:
    """A trigger event: a new alert and incident, unless an open alert of the service has the key (de-duplicated)
    or the service opens no incidents now (dropped)."""
    service = db.get(services, integration["service_id"], "Service")
    if db.find(alerts, service_id=service["id"], alert_key=key, status="triggered") or refusal(db, service):
        return
    values = {
        "title": title,
        "urgency": urgency_for(service, db.now(), severity),
        "priority_id": None,
        "incident_key": key,
        "body": None,
    }
    incident = open_new_incident(db, service, values, as_agent(service, "service_reference"), "events_api")
    db.insert(
        alerts,
        id=db.new_id(alerts, "PA", 5),
        incident_id=incident["id"],
        service_id=service["id"],
        integration_id=integration["id"],
        status="triggered",
        severity=severity,
        summary=title,
        source=origin,
        alert_key=key,
        created_at=db.now_iso(),
    )


# ---------------------------------------------------------------- overrides and maintenance windows


def phase(row: dict[str, Any], start: str, now: datetime) -> str:
    """Whether an override or a maintenance window (starting at `row[start]`) is past, running or future."""
    if effective_end(row) <= now:
        return "past"
    return "future" if stored(row[start]) > now else "ongoing"


def overlaps(row: dict[str, Any], start: str, since: datetime, until: datetime) -> bool:
    """Whether an override or a maintenance window (starting at `row[start]`) overlaps [since, until)."""
    return stored(row[start]) < until and effective_end(row) > since


def check_override_fits(db: Database, schedule_id: str, begins: datetime, ends: datetime) -> None:
    """A new override ends after it starts, not in the past, and overlaps no other override of the schedule."""
    if ends <= begins:
        raise InvalidRequest("The override must end after it starts")
    if ends <= db.now():
        raise InvalidRequest("Overrides can't end in the past")
    for other in db.find(schedule_overrides, schedule_id=schedule_id):
        if overlaps(other, "start", begins, ends):
            who = db.get(users, other["user_id"])["name"]
            raise Conflict(
                f"This override overlaps the override {other['id']} ({who}, {other['start']} to "
                f"{iso_timestamp(effective_end(other))}); remove that one first"
            )


def check_window_times(db: Database, begins: datetime, ends: datetime) -> int:
    """A new maintenance window ends after it starts and in the future; returns its sequence number."""
    if ends <= begins:
        raise InvalidRequest("end_time must be after start_time")
    if ends <= db.now():
        raise InvalidRequest("A maintenance window can't end in the past")
    return (db.conn.execute(select(func.max(maintenance_windows.c.sequence_number))).scalar() or 0) + 1
