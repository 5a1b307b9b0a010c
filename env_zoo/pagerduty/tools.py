"""PagerDuty REST API v2 and Events API v2 tools: users, teams, priorities, escalation policies, schedules and
on-call, services, incidents with notes and log entries, maintenance windows, and acknowledging from the app."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from sqlalchemy import func, select

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

from .clock import effective_end, iso, parse_time, stored
from .objects import (
    EscalationPolicyObject,
    EscalationRuleObject,
    EventResult,
    FinalSchedule,
    IncidentObject,
    IncidentSummary,
    LayerObject,
    LogEntryObject,
    MaintenanceWindowObject,
    MaintenanceWindowRemoval,
    NoteObject,
    OncallObject,
    OverrideObject,
    OverrideRemoval,
    PriorityObject,
    ScheduleEntry,
    ScheduleObject,
    ScheduleSummary,
    ServiceObject,
    TeamMember,
    TeamObject,
    UserObject,
    incident_object,
    incident_summary,
    maintenance_window_object,
    ref,
    ref_incident,
    refs,
    service_object,
    user_object,
)
from .oncall import ScheduleView
from .rules import (
    MANAGER_ROLES,
    acknowledge,
    as_agent,
    check_responder,
    ensure_open,
    first_staffed_level,
    log,
    names,
    open_new_incident,
    policy_responders,
    reassign,
    refusal,
    requester,
    resolve,
    responders,
    service_status,
    urgency_for,
)
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
    schedule_layers,
    schedule_overrides,
    schedules,
    services,
    team_members,
    teams,
    users,
)

Status = Literal["triggered", "acknowledged", "resolved"]
Urgency = Literal["high", "low"]
Severity = Literal["critical", "error", "warning", "info"]
MAX_INCIDENT_RANGE = timedelta(days=180)
MAX_SCHEDULE_RANGE = timedelta(days=93)
ONCALL_MARGIN = timedelta(days=31)


# ---------------------------------------------------------------- helpers


def _matches(query: str | None, *texts: str | None) -> bool:
    """PagerDuty's `query` filter: a case-insensitive substring of the name (or email)."""
    return query is None or any(t and query.strip().casefold() in t.casefold() for t in texts)


def _check_range(start: datetime, end: datetime, limit: timedelta) -> None:
    """A since/until range must have until after since and be at most `limit` long."""
    if end <= start:
        raise InvalidRequest("until must be after since")
    if end - start > limit:
        raise InvalidRequest(f"The date range can be at most {limit.days} days")


def _override(db: Database, row: dict[str, Any]) -> OverrideObject:
    return OverrideObject(
        id=row["id"], user=ref(db, "user_reference", row["user_id"]), start=row["start"], end=iso(effective_end(row))
    )


def _window(db: Database, row: dict[str, Any]) -> MaintenanceWindowObject:
    return maintenance_window_object(db, row, iso(effective_end(row)))


def _incident(db: Database, row: dict[str, Any]) -> IncidentObject:
    return incident_object(db, row, db.find(alerts, incident_id=row["id"]))


def _team_manager(db: Database, user_id: str, team_ids: list[str]) -> bool:
    """Whether a user manages every one of `team_ids` (and there is at least one)."""
    managed = {m["team_id"] for m in db.find(team_members, user_id=user_id, role="manager")}
    return bool(team_ids) and set(team_ids) <= managed


def _add_note(db: Database, incident: dict[str, Any], user: dict[str, Any], content: str) -> dict[str, Any]:
    text = content.strip()
    if not text:
        raise InvalidRequest("Note content can't be blank")
    if len(text) > 25_000:
        raise InvalidRequest("Note content can be at most 25,000 characters")
    log(db, incident["id"], "annotate", f"Note added by {user['name']}.", as_agent(user), "api", text)
    return db.insert(
        incident_notes,
        id=db.new_id(incident_notes, "PN", 5),
        incident_id=incident["id"],
        user_id=user["id"],
        content=text,
        created_at=db.now_iso(),
    )


def _acting_responder(db: Database, from_email: str, incident: dict[str, Any]) -> dict[str, Any]:
    """The "From" user, allowed to act on the incident's service."""
    user = requester(db, from_email)
    check_responder(db, user, db.get(services, incident["service_id"], "Service"))
    return user


# ---------------------------------------------------------------- users, teams, priorities


@tool(read_only=True)
def list_priorities(db: Database) -> list[PriorityObject]:
    """List the account's incident priorities (P1 is the most severe), with the ids to set an incident's priority."""
    return [PriorityObject(**r) for r in db.find(priorities, order_by=[priorities.c.order.desc()])]


@tool(read_only=True)
def list_users(
    db: Database, query: str | None = None, team_ids: list[str] | None = None, limit: int = 25, offset: int = 0
) -> Page[UserObject]:
    """List the account's users with their base role, contact email and teams, sorted by name.

    Args:
        query: Only users whose name or email contains this text.
        team_ids: Only members of these teams.
        limit: Users per page, 1 to 100.
        offset: How many users to skip (the next_cursor of the previous page).
    """
    members = {m["user_id"] for m in db.find(team_members) if m["team_id"] in team_ids} if team_ids else None
    rows = [
        u
        for u in db.find(users, order_by=[users.c.name])
        if _matches(query, u["name"], u["email"]) and (members is None or u["id"] in members)
    ]
    return paginate([user_object(db, u) for u in rows], limit, str(offset))


@tool(read_only=True)
def list_teams(db: Database, query: str | None = None) -> list[TeamObject]:
    """List teams with their members and each member's team role (manager, responder, observer).

    Args:
        query: Only teams whose name contains this text.
    """
    return [
        TeamObject(
            id=t["id"],
            name=t["name"],
            description=t["description"],
            members=[
                TeamMember(user=ref(db, "user_reference", m["user_id"]), role=m["role"])
                for m in db.find(team_members, team_id=t["id"], order_by=[team_members.c.role])
            ],
        )
        for t in db.find(teams, order_by=[teams.c.name])
        if _matches(query, t["name"])
    ]


# ---------------------------------------------------------------- escalation policies, schedules, on-call


@tool(read_only=True)
def list_escalation_policies(
    db: Database, query: str | None = None, user_ids: list[str] | None = None, team_ids: list[str] | None = None
) -> list[EscalationPolicyObject]:
    """List escalation policies with their ordered rules (level 1 first) and targets, the services that use them
    and their teams.

    Args:
        query: Only policies whose name contains this text.
        user_ids: Only policies that reach one of these users, directly or through a schedule.
        team_ids: Only policies of these teams.
    """
    result = []
    for policy in db.find(escalation_policies, order_by=[escalation_policies.c.name]):
        rules = db.find(escalation_rules, escalation_policy_id=policy["id"], order_by=[escalation_rules.c.position])
        reached = {t["id"] for r in rules for t in r["targets"] if t["type"] == "user_reference"} | {
            u
            for r in rules
            for t in r["targets"]
            if t["type"] == "schedule_reference"
            for layer in db.find(schedule_layers, schedule_id=t["id"])
            for u in layer["users"]
        }
        if (
            not _matches(query, policy["name"])
            or (user_ids and not reached & set(user_ids))
            or (team_ids and not set(policy["teams"]) & set(team_ids))
        ):
            continue
        result.append(
            EscalationPolicyObject(
                **{k: policy[k] for k in ("id", "name", "description", "num_loops", "on_call_handoff_notifications")},
                escalation_rules=[
                    EscalationRuleObject(
                        id=r["id"],
                        escalation_delay_in_minutes=r["escalation_delay_in_minutes"],
                        targets=[ref(db, t["type"], t["id"]) for t in r["targets"]],
                    )
                    for r in rules
                ],
                services=refs(
                    db,
                    "service_reference",
                    [s["id"] for s in db.find(services, escalation_policy_id=policy["id"], order_by=[services.c.name])],
                ),
                teams=refs(db, "team_reference", policy["teams"]),
            )
        )
    return result


@tool(read_only=True)
def list_schedules(db: Database, query: str | None = None) -> list[ScheduleSummary]:
    """List on-call schedules with the users who rotate on them and the escalation policies that use them.

    Args:
        query: Only schedules whose name contains this text.
    """
    result = []
    for schedule in db.find(schedules, order_by=[schedules.c.name]):
        if not _matches(query, schedule["name"]):
            continue
        layers = db.find(schedule_layers, schedule_id=schedule["id"], order_by=[schedule_layers.c.position])
        policies = {
            r["escalation_policy_id"]
            for r in db.find(escalation_rules)
            if {"id": schedule["id"], "type": "schedule_reference"} in r["targets"]
        }
        result.append(
            ScheduleSummary(
                **{k: schedule[k] for k in ("id", "name", "description", "time_zone")},
                users=refs(db, "user_reference", list(dict.fromkeys(u for layer in layers for u in layer["users"]))),
                escalation_policies=sorted(
                    refs(db, "escalation_policy_reference", list(policies)), key=lambda r: r.summary
                ),
                teams=refs(db, "team_reference", schedule["teams"]),
            )
        )
    return result


@tool(read_only=True)
def get_schedule(db: Database, schedule_id: str, since: str | None = None, until: str | None = None) -> ScheduleObject:
    """Show a schedule's layers, its overrides and the final schedule (who is on call when, overrides applied)
    between since and until.

    Args:
        schedule_id: The schedule's ID.
        since: Start of the range (ISO 8601); defaults to now.
        until: End of the range; defaults to 7 days after since. At most 93 days after since.
    """
    view = ScheduleView(db, schedule_id)
    start = parse_time(since, "since") if since else db.now()
    end = parse_time(until, "until") if until else start + timedelta(days=7)
    _check_range(start, end, MAX_SCHEDULE_RANGE)
    shifts = view.shifts(start, end)
    covered = sum((s.end - s.start).total_seconds() for s in shifts)
    return ScheduleObject(
        **{k: view.schedule[k] for k in ("id", "name", "description", "time_zone")},
        schedule_layers=[
            LayerObject(
                **{
                    k: layer[k]
                    for k in (
                        "id",
                        "name",
                        "start",
                        "end",
                        "rotation_virtual_start",
                        "rotation_turn_length_seconds",
                        "restrictions",
                    )
                },
                users=refs(db, "user_reference", layer["users"]),
            )
            for layer in reversed(view.layers)
        ],
        overrides=[_override(db, o) for o in view.overrides if stored(o["start"]) < end and effective_end(o) > start],
        final_schedule=FinalSchedule(
            rendered_coverage_percentage=round(100 * covered / (end - start).total_seconds(), 2),
            rendered_schedule_entries=[
                ScheduleEntry(user=ref(db, "user_reference", s.user_id), start=iso(s.start), end=iso(s.end))
                for s in shifts
            ],
        ),
    )


@tool(read_only=True)
def list_oncalls(
    db: Database,
    escalation_policy_ids: list[str] | None = None,
    schedule_ids: list[str] | None = None,
    user_ids: list[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    earliest: bool = False,
    limit: int = 25,
    offset: int = 0,
) -> Page[OncallObject]:
    """List who is on call for each escalation policy level: right now, or every on-call shift overlapping
    since..until. Users targeted directly by a rule are always on call (start and end null).

    Args:
        escalation_policy_ids: Only these escalation policies.
        schedule_ids: Only on-calls that come from these schedules.
        user_ids: Only these users.
        since: Start of the range (ISO 8601); without since and until, who is on call now.
        until: End of the range; defaults to since.
        earliest: Keep only each user's lowest escalation level per policy.
        limit: Entries per page, 1 to 100.
        offset: How many entries to skip (the next_cursor of the previous page).
    """
    start = parse_time(since, "since") if since else db.now()
    end = parse_time(until, "until") if until else start
    if end != start:
        _check_range(start, end, MAX_SCHEDULE_RANGE)
    views: dict[str, ScheduleView] = {}
    entries: list[OncallObject] = []
    for policy in db.find(escalation_policies, order_by=[escalation_policies.c.name]):
        if escalation_policy_ids and policy["id"] not in escalation_policy_ids:
            continue
        policy_ref = ref(db, "escalation_policy_reference", policy["id"])
        rules = db.find(escalation_rules, escalation_policy_id=policy["id"], order_by=[escalation_rules.c.position])
        for level, rule in enumerate(rules, start=1):
            for target in rule["targets"]:
                if target["type"] == "user_reference":
                    if not schedule_ids:
                        entries.append(
                            OncallObject(
                                escalation_policy=policy_ref,
                                escalation_level=level,
                                schedule=None,
                                user=ref(db, "user_reference", target["id"]),
                                start=None,
                                end=None,
                            )
                        )
                    continue
                if schedule_ids and target["id"] not in schedule_ids:
                    continue
                view = views.setdefault(target["id"], ScheduleView(db, target["id"]))
                schedule_ref = ref(db, "schedule_reference", target["id"])
                for shift in view.shifts(start - ONCALL_MARGIN, end + ONCALL_MARGIN + timedelta(seconds=1)):
                    if shift.start <= end and shift.end > start:
                        entries.append(
                            OncallObject(
                                escalation_policy=policy_ref,
                                escalation_level=level,
                                schedule=schedule_ref,
                                user=ref(db, "user_reference", shift.user_id),
                                start=iso(shift.start),
                                end=iso(shift.end),
                            )
                        )
    if user_ids:
        entries = [e for e in entries if e.user.id in user_ids]
    if earliest:
        lowest: dict[tuple[str, str], int] = {}
        for e in entries:
            key = (e.escalation_policy.id, e.user.id)
            lowest[key] = min(lowest.get(key, e.escalation_level), e.escalation_level)
        entries = [e for e in entries if e.escalation_level == lowest[(e.escalation_policy.id, e.user.id)]]
    return paginate(entries, limit, str(offset))


# ---------------------------------------------------------------- services


@tool(read_only=True)
def list_services(
    db: Database, query: str | None = None, team_ids: list[str] | None = None, limit: int = 25, offset: int = 0
) -> Page[ServiceObject]:
    """List services with their current status, escalation policy, urgency rule, support hours and Events API
    integrations (their integration_key is the routing key for events).

    Args:
        query: Only services whose name contains this text.
        team_ids: Only services of these teams.
        limit: Services per page, 1 to 100.
        offset: How many services to skip (the next_cursor of the previous page).
    """
    rows = [
        s
        for s in db.find(services, order_by=[services.c.name])
        if _matches(query, s["name"]) and (not team_ids or set(s["teams"]) & set(team_ids))
    ]
    return paginate([service_object(db, s, service_status(db, s)) for s in rows], limit, str(offset))


# ---------------------------------------------------------------- incidents


@tool(read_only=True)
def list_incidents(
    db: Database,
    statuses: list[Status] | None = None,
    urgencies: list[Urgency] | None = None,
    service_ids: list[str] | None = None,
    team_ids: list[str] | None = None,
    user_ids: list[str] | None = None,
    incident_key: str | None = None,
    since: str | None = None,
    until: str | None = None,
    sort_by: Literal["created_at:desc", "created_at:asc", "incident_number:desc", "incident_number:asc"] = (
        "created_at:desc"
    ),
    limit: int = 25,
    offset: int = 0,
) -> Page[IncidentSummary]:
    """List incidents created between since and until (by default the last 30 days; at most 180 days), newest
    first.

    Args:
        statuses: Only incidents in these statuses.
        urgencies: Only incidents of these urgencies.
        service_ids: Only incidents on these services.
        team_ids: Only incidents on services of these teams.
        user_ids: Only incidents assigned to one of these users.
        incident_key: Only incidents with this incident key (the Events API dedup_key).
        since: Start of the creation range (ISO 8601); defaults to 30 days before until.
        until: End of the creation range; defaults to now.
        sort_by: Sort order.
        limit: Incidents per page, 1 to 100.
        offset: How many incidents to skip (the next_cursor of the previous page).
    """
    end = parse_time(until, "until") if until else db.now()
    start = parse_time(since, "since") if since else end - timedelta(days=30)
    _check_range(start, end, MAX_INCIDENT_RANGE)
    team_services = {s["id"] for s in db.find(services) if set(s["teams"]) & set(team_ids)} if team_ids else None
    field, direction = sort_by.split(":")
    column = incidents.c[field]
    rows = [
        i
        for i in db.find(
            incidents,
            incidents.c.created_at >= iso(start),
            incidents.c.created_at < iso(end),
            order_by=[column.desc() if direction == "desc" else column],
        )
        if (not statuses or i["status"] in statuses)
        and (not urgencies or i["urgency"] in urgencies)
        and (not service_ids or i["service_id"] in service_ids)
        and (team_services is None or i["service_id"] in team_services)
        and (not user_ids or set(i["assignments"]) & set(user_ids))
        and (incident_key is None or i["incident_key"] == incident_key)
    ]
    return paginate([incident_summary(db, i) for i in rows], limit, str(offset))


@tool(read_only=True)
def get_incident(db: Database, incident_id: str) -> IncidentObject:
    """Show one incident in full: assignees, acknowledgers, escalation policy and level, priority, alert counts.

    Args:
        incident_id: The incident's ID (list_incidents gives it with the incident number).
    """
    return _incident(db, db.get(incidents, incident_id, "Incident"))


@tool(read_only=True)
def list_incident_log_entries(db: Database, incident_id: str, limit: int = 25, offset: int = 0) -> Page[LogEntryObject]:
    """List an incident's log entries, newest first: triggers, assignments, escalations, acknowledgements, notes,
    urgency and priority changes, resolution.

    Args:
        incident_id: The incident's ID.
        limit: Entries per page, 1 to 100.
        offset: How many entries to skip (the next_cursor of the previous page).
    """
    incident = db.get(incidents, incident_id, "Incident")
    rows = db.find(log_entries, incident_id=incident["id"], order_by=[log_entries.c.created_at.desc()])
    return paginate(
        [
            LogEntryObject(
                id=r["id"],
                type=r["type"],
                summary=r["summary"],
                created_at=r["created_at"],
                channel=r["channel"],
                agent=ref(db, r["agent"]["type"], r["agent"]["id"]) if r["agent"] else None,
            )
            for r in rows
        ],
        limit,
        str(offset),
    )


@tool()
def create_incident(
    db: Database,
    from_email: str,
    service_id: str,
    title: str,
    urgency: Urgency | None = None,
    priority_id: str | None = None,
    incident_key: str | None = None,
    body: str | None = None,
    assignee_ids: Annotated[list[str], Unordered] | None = None,
    escalation_policy_id: str | None = None,
) -> IncidentObject:
    """Open an incident on a service. It goes to the given assignees, or to whoever is on call at the first level
    with someone on call of the escalation policy (the service's unless another is given). Disabled services and
    services in maintenance open no incidents; an incident key already used by an open incident of the service is
    refused.

    Args:
        from_email: Email of the user opening it (the "From" header).
        service_id: The service's ID.
        title: A short description of what is wrong.
        urgency: high or low; defaults to what the service's urgency rule gives now.
        priority_id: A priority's ID from list_priorities.
        incident_key: A de-duplication key: no second open incident with this key on the service.
        body: Details of the incident.
        assignee_ids: Users to assign instead of the escalation policy's on-call.
        escalation_policy_id: Another escalation policy to assign (not together with assignee_ids).
    """
    service = db.get(services, service_id, "Service")
    user = requester(db, from_email)
    check_responder(db, user, service)
    reason = refusal(db, service)
    if reason:
        raise Conflict(reason)
    if not title.strip():
        raise InvalidRequest("title can't be blank")
    if assignee_ids and escalation_policy_id:
        raise InvalidRequest("Give either assignments or an escalation policy, not both")
    if incident_key:
        same = db.find(incidents, incidents.c.status != "resolved", service_id=service_id, incident_key=incident_key)
        if same:
            raise Conflict(f"Open incident with key '{incident_key}' already exists: #{same[0]['incident_number']}")
    if priority_id is not None:
        db.get(priorities, priority_id, "Priority")
    if escalation_policy_id is not None:
        db.get(escalation_policies, escalation_policy_id, "Escalation policy")
    row = open_new_incident(
        db,
        service,
        {
            "title": title.strip(),
            "urgency": urgency or urgency_for(service, db.now()),
            "priority_id": priority_id,
            "incident_key": incident_key,
            "body": body,
            "escalation_policy_id": escalation_policy_id,
            "assignments": responders(db, assignee_ids) if assignee_ids else None,
        },
        as_agent(user),
        "api",
    )
    return _incident(db, row)


@tool()
def update_incident(
    db: Database,
    from_email: str,
    incident_id: str,
    status: Literal["acknowledged", "resolved"] | None = None,
    resolution: str | None = None,
    title: str | None = None,
    urgency: Urgency | None = None,
    priority_id: str | None = None,
    escalation_level: int | None = None,
    assignee_ids: Annotated[list[str], Unordered] | None = None,
    escalation_policy_id: str | None = None,
) -> IncidentObject:
    """Acknowledge or resolve an incident, retitle it, change its urgency or priority, escalate it to another level
    of its policy, or reassign it to users or another escalation policy. Reassigning or escalating triggers the
    incident again for the new assignees. Resolved incidents can't be changed.

    Args:
        from_email: Email of the user acting (the "From" header).
        incident_id: The incident's ID.
        status: acknowledged or resolved.
        resolution: With status resolved: a resolution note added to the incident.
        title: A new title.
        urgency: high or low.
        priority_id: A priority's ID from list_priorities.
        escalation_level: Escalate (or de-escalate) to this level of the incident's escalation policy (1 is first).
        assignee_ids: Reassign to these users.
        escalation_policy_id: Reassign to this escalation policy (its first level with someone on call).
    """
    incident = ensure_open(db.get(incidents, incident_id, "Incident"))
    user = _acting_responder(db, from_email, incident)
    agent = as_agent(user)
    routing = [v for v in (escalation_level, assignee_ids, escalation_policy_id) if v is not None]
    if not routing and all(v is None for v in (status, title, urgency, priority_id)):
        raise InvalidRequest("Nothing to update: give a status, title, urgency, priority or new assignment")
    if resolution is not None and status != "resolved":
        raise InvalidRequest("A resolution can only be given when resolving the incident")
    if len(routing) > 1:
        raise InvalidRequest("Give only one of escalation_level, assignee_ids or escalation_policy_id")
    if routing and status:
        raise InvalidRequest("Reassigning or escalating can't be combined with a status change")
    changes: dict[str, Any] = {}
    if title is not None:
        if not title.strip():
            raise InvalidRequest("title can't be blank")
        changes["title"] = title.strip()
    if urgency is not None and urgency != incident["urgency"]:
        log(
            db,
            incident["id"],
            "urgency_change",
            f"Urgency changed from {incident['urgency']} to {urgency} by {user['name']}.",
            agent,
            "api",
        )
        changes["urgency"] = urgency
    if priority_id is not None and priority_id != incident["priority_id"]:
        new = db.get(priorities, priority_id, "Priority")
        old = db.get(priorities, incident["priority_id"])["name"] if incident["priority_id"] else "no priority"
        log(
            db,
            incident["id"],
            "priority_change",
            f"Priority changed from {old} to {new['name']} by {user['name']}.",
            agent,
            "api",
        )
        changes["priority_id"] = priority_id
    if changes:
        incident = db.update(incidents, incident["id"], **changes)
    if escalation_level is not None:
        rules = db.find(escalation_rules, escalation_policy_id=incident["escalation_policy_id"])
        if not 1 <= escalation_level <= len(rules):
            raise InvalidRequest(f"escalation_level must be between 1 and {len(rules)} for this escalation policy")
        assignees = policy_responders(db, incident["escalation_policy_id"], escalation_level)
        if not assignees:
            raise Conflict(f"No one is on call at level {escalation_level} of this escalation policy right now")
        incident = reassign(
            db,
            incident,
            assignees,
            agent,
            "escalate",
            f"Escalated to level {escalation_level} ({names(db, assignees)}) by {user['name']}.",
            "api",
            escalation_level=escalation_level,
        )
    elif assignee_ids is not None:
        assignees = responders(db, assignee_ids)
        incident = reassign(
            db, incident, assignees, agent, "assign", f"Reassigned to {names(db, assignees)} by {user['name']}.", "api"
        )
    elif escalation_policy_id is not None:
        policy = db.get(escalation_policies, escalation_policy_id, "Escalation policy")
        level, assignees = first_staffed_level(db, policy["id"])
        incident = reassign(
            db,
            incident,
            assignees,
            agent,
            "assign",
            f"Reassigned to {policy['name']} ({names(db, assignees)}) by {user['name']}.",
            "api",
            escalation_policy_id=policy["id"],
            escalation_level=level,
        )
    if status == "acknowledged":
        incident = acknowledge(db, incident, agent, user["name"], "api")
    elif status == "resolved":
        if resolution is not None:
            _add_note(db, incident, user, resolution)
        incident = resolve(db, incident, agent, f"Resolved by {user['name']}.", "api")
    return _incident(db, incident)


@tool()
def merge_incidents(
    db: Database, from_email: str, incident_id: str, source_incident_ids: Annotated[list[str], Unordered]
) -> IncidentObject:
    """Merge other open incidents into one: their alerts move to it and they are resolved, pointing at it.

    Args:
        from_email: Email of the user acting (the "From" header).
        incident_id: The ID of the incident that remains.
        source_incident_ids: IDs of the incidents merged into it and resolved.
    """
    target = ensure_open(db.get(incidents, incident_id, "Incident"))
    user = _acting_responder(db, from_email, target)
    if not source_incident_ids:
        raise InvalidRequest("Give at least one source incident")
    sources = {}
    for key in sorted(set(source_incident_ids)):  # merged in id order, whatever order they were given in
        source = db.get(incidents, key, "Incident")
        if source["id"] == target["id"]:
            raise InvalidRequest("An incident can't be merged into itself")
        if source["status"] == "resolved":
            raise Conflict(f"Incident #{source['incident_number']} is resolved; only open incidents can be merged")
        check_responder(db, user, db.get(services, source["service_id"], "Service"))
        sources[source["id"]] = source
    for source in sources.values():
        for alert in db.find(alerts, incident_id=source["id"]):
            db.update(alerts, alert["id"], incident_id=target["id"])
        resolve(
            db,
            source,
            as_agent(user),
            f"Resolved by {user['name']} by merging into #{target['incident_number']}.",
            "api",
            resolve_reason=ref_incident(target),
        )
    return _incident(db, db.get(incidents, target["id"]))


@tool()
def create_incident_note(db: Database, from_email: str, incident_id: str, content: str) -> NoteObject:
    """Add a note to an incident's timeline (resolved incidents too).

    Args:
        from_email: Email of the user writing it (the "From" header).
        incident_id: The incident's ID.
        content: The note's text.
    """
    incident = db.get(incidents, incident_id, "Incident")
    user = _acting_responder(db, from_email, incident)
    note = _add_note(db, incident, user, content)
    return NoteObject(
        id=note["id"],
        user=ref(db, "user_reference", user["id"]),
        content=note["content"],
        created_at=note["created_at"],
    )


@tool()
def send_event(
    db: Database,
    routing_key: str,
    event_action: Literal["trigger", "acknowledge", "resolve"],
    dedup_key: str | None = None,
    summary: str | None = None,
    source: str | None = None,
    severity: Severity | None = None,
) -> EventResult:
    """Send an Events API v2 event to a service's integration, as a monitoring tool does. A trigger opens an alert
    and an incident, unless an open alert of the service has the same dedup_key (then it is de-duplicated) or the
    service is in maintenance or disabled (then it is dropped). acknowledge and resolve act on the open alert with
    the dedup_key.

    Args:
        routing_key: The integration_key of one of the service's integrations (list_services).
        event_action: trigger, acknowledge or resolve.
        dedup_key: Identifies the alert; a trigger without one gets a new key, returned in the answer.
        summary: For a trigger: what is wrong (becomes the incident title).
        source: For a trigger: the affected host or component.
        severity: For a trigger: critical, error, warning or info.
    """
    found = db.find(integrations, integration_key=routing_key.strip())
    if not found:
        raise InvalidRequest("Event object is invalid: unknown routing_key")
    integration = found[0]
    if integration["type"] != "events_api_v2_inbound_integration":
        raise InvalidRequest(
            f"Event object is invalid: the routing_key belongs to the {integration['name']} "
            "integration, which does not take Events API events"
        )
    service = db.get(services, integration["service_id"], "Service")
    if event_action != "trigger":
        if not dedup_key:
            raise InvalidRequest(f"Event object is invalid: dedup_key is required to {event_action}")
        _follow_up(db, service, dedup_key, event_action)
        return EventResult(status="success", message="Event processed", dedup_key=dedup_key)
    title, origin = _payload(summary, "summary"), _payload(source, "source")
    if severity is None:
        raise InvalidRequest("Event object is invalid: payload.severity is required for a trigger")
    if len(title) > 1024:
        raise InvalidRequest("Event object is invalid: payload.summary can be at most 1024 characters")
    key = dedup_key or db.new_uuid(alerts).replace("-", "")
    duplicate = db.find(alerts, service_id=service["id"], alert_key=key, status="triggered")
    if duplicate or refusal(db, service):
        return EventResult(status="success", message="Event processed", dedup_key=key)
    incident = open_new_incident(
        db,
        service,
        {
            "title": title,
            "urgency": urgency_for(service, db.now(), severity),
            "priority_id": None,
            "incident_key": key,
            "body": None,
        },
        as_agent(service, "service_reference"),
        "events_api",
    )
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
    return EventResult(status="success", message="Event processed", dedup_key=key)


def _payload(value: str | None, name: str) -> str:
    """A required text field of a trigger's payload, stripped."""
    if value is None or not value.strip():
        raise InvalidRequest(f"Event object is invalid: payload.{name} is required for a trigger")
    return value.strip()


def _follow_up(db: Database, service: dict[str, Any], dedup_key: str, action: str) -> None:
    """An acknowledge or resolve event: acts on the service's open alert with the key, if there is one."""
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


# ---------------------------------------------------------------- schedule overrides


@tool()
def create_schedule_override(db: Database, schedule_id: str, user_id: str, start: str, end: str) -> OverrideObject:
    """Put someone on call on a schedule for a while, over whatever the layers say. Overrides can't end in the past
    or overlap another override of the schedule; Observers and Stakeholders can't go on call.

    Args:
        schedule_id: The schedule's ID.
        user_id: Who takes the shift.
        start: When the override starts (ISO 8601, e.g. 2025-06-20T17:00:00-04:00).
        end: When it ends.
    """
    db.get(schedules, schedule_id, "Schedule")
    responders(db, [user_id])
    begins, ends = parse_time(start, "start"), parse_time(end, "end")
    if ends <= begins:
        raise InvalidRequest("The override must end after it starts")
    if ends <= db.now():
        raise InvalidRequest("Overrides can't end in the past")
    for other in db.find(schedule_overrides, schedule_id=schedule_id):
        if stored(other["start"]) < ends and effective_end(other) > begins:
            who = db.get(users, other["user_id"])["name"]
            raise Conflict(
                f"This override overlaps the override {other['id']} ({who}, {other['start']} to "
                f"{iso(effective_end(other))}); remove that one first"
            )
    row = db.insert(
        schedule_overrides,
        id=db.new_id(schedule_overrides, "PO", 5),
        schedule_id=schedule_id,
        user_id=user_id,
        start=iso(begins),
        end=iso(ends),
        ended_early=False,
        ended_at=None,
    )
    return _override(db, row)


@tool()
def delete_schedule_override(db: Database, schedule_id: str, override_id: str) -> OverrideRemoval:
    """Remove an override. A future override is deleted; one that is running now is cut short at the current time;
    past overrides can't be removed.

    Args:
        schedule_id: The schedule's ID.
        override_id: The override's ID (get_schedule lists them).
    """
    db.get(schedules, schedule_id, "Schedule")
    override = db.get(schedule_overrides, override_id, "Override")
    if override["schedule_id"] != schedule_id:
        raise NotFound(f"Override '{override_id}' not found on this schedule")
    now = db.now()
    if effective_end(override) <= now:
        raise Conflict("This override is in the past and can't be removed")
    if stored(override["start"]) > now:
        return OverrideRemoval(result="deleted", override=_override(db, db.delete(schedule_overrides, override_id)))
    row = db.update(schedule_overrides, override_id, ended_early=True, ended_at=db.now_iso())
    return OverrideRemoval(result="truncated", override=_override(db, row))


# ---------------------------------------------------------------- maintenance windows


@tool(read_only=True)
def list_maintenance_windows(
    db: Database,
    service_ids: list[str] | None = None,
    filter: Literal["past", "future", "ongoing", "open", "all"] = "all",
    limit: int = 25,
    offset: int = 0,
) -> Page[MaintenanceWindowObject]:
    """List maintenance windows by start time. While a window runs, its services open no new incidents.

    Args:
        service_ids: Only windows covering one of these services.
        filter: past, future, ongoing, open (ongoing or future) or all.
        limit: Windows per page, 1 to 100.
        offset: How many windows to skip (the next_cursor of the previous page).
    """
    now = db.now()

    def phase(row: dict[str, Any]) -> str:
        if effective_end(row) <= now:
            return "past"
        return "future" if stored(row["start_time"]) > now else "ongoing"

    wanted = {"open": {"future", "ongoing"}, "all": {"past", "future", "ongoing"}}.get(filter, {filter})
    rows = [
        w
        for w in db.find(maintenance_windows, order_by=[maintenance_windows.c.start_time])
        if phase(w) in wanted and (not service_ids or set(w["service_ids"]) & set(service_ids))
    ]
    return paginate([_window(db, w) for w in rows], limit, str(offset))


@tool()
def create_maintenance_window(
    db: Database,
    from_email: str,
    service_ids: Annotated[list[str], Unordered],
    start_time: str,
    end_time: str,
    description: str | None = None,
) -> MaintenanceWindowObject:
    """Schedule a maintenance window: while it runs, its services open no new incidents. Only Managers, Admins,
    the Account Owner and managers of every affected service's team may create one.

    Args:
        from_email: Email of the user creating it (the "From" header).
        service_ids: The services it covers.
        start_time: When it starts (ISO 8601).
        end_time: When it ends; must be after start_time and in the future.
        description: What the maintenance is.
    """
    user = requester(db, from_email)
    if not service_ids:
        raise InvalidRequest("A maintenance window needs at least one service")
    covered = [db.get(services, s, "Service") for s in sorted(set(service_ids))]
    service_teams = sorted({t for s in covered for t in s["teams"]})
    if user["role"] not in MANAGER_ROLES and not _team_manager(db, user["id"], service_teams):
        raise PermissionDenied(
            f"Access Denied: {user['name']} can't create maintenance windows on these services "
            "(Managers, Admins and the services' team managers can)"
        )
    begins, ends = parse_time(start_time, "start_time"), parse_time(end_time, "end_time")
    if ends <= begins:
        raise InvalidRequest("end_time must be after start_time")
    if ends <= db.now():
        raise InvalidRequest("A maintenance window can't end in the past")
    number = (db.conn.execute(select(func.max(maintenance_windows.c.sequence_number))).scalar() or 0) + 1
    row = db.insert(
        maintenance_windows,
        id=db.new_id(maintenance_windows, "PW", 5),
        sequence_number=number,
        description=description,
        start_time=iso(begins),
        end_time=iso(ends),
        ended_early=False,
        ended_at=None,
        service_ids=[s["id"] for s in covered],
        created_by_user_id=user["id"],
        created_at=db.now_iso(),
    )
    return _window(db, row)


@tool()
def delete_maintenance_window(db: Database, maintenance_window_id: str) -> MaintenanceWindowRemoval:
    """Delete a future maintenance window, or end a running one now. Windows that are over can't be deleted.

    Args:
        maintenance_window_id: The window's ID.
    """
    window = db.get(maintenance_windows, maintenance_window_id, "Maintenance window")
    now = db.now()
    if effective_end(window) <= now:
        raise Conflict("This maintenance window has already ended and can't be deleted")
    if stored(window["start_time"]) > now:
        deleted = db.delete(maintenance_windows, maintenance_window_id)
        return MaintenanceWindowRemoval(result="deleted", maintenance_window=_window(db, deleted))
    row = db.update(maintenance_windows, maintenance_window_id, ended_early=True, ended_at=db.now_iso())
    return MaintenanceWindowRemoval(result="ended", maintenance_window=_window(db, row))


# ---------------------------------------------------------------- the user's phone


@tool(user_only=True)
def acknowledge_in_mobile_app(db: Database, email: str, incident_number: int) -> IncidentObject:
    """(The user, in the PagerDuty mobile app) Acknowledge an incident from the push notification or the app.

    Args:
        email: The account the app is signed in with.
        incident_number: The incident's number the app shows.
    """
    found = db.find(incidents, incident_number=incident_number)
    if not found:
        raise NotFound(f"Incident #{incident_number} not found")
    incident = ensure_open(found[0])
    user = _acting_responder(db, email, incident)
    return _incident(db, acknowledge(db, incident, as_agent(user), user["name"], "mobile"))
