"""PagerDuty REST API v2 and Events API v2 tools: users, teams, priorities, escalation policies, schedules and
on-call, services, incidents with notes and log entries, maintenance windows, and acknowledging from the app."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, Unordered, paginate, tool
from envfactory_gym.fields import ErrorText, IsoTimestamp, PageSize
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import acting_responder, as_agent, check_maintainer, check_responder, requester, responders
from .objects import (
    EscalationPolicyObject,
    EventResult,
    FinalSchedule,
    IncidentObject,
    IncidentSummary,
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
    TeamObject,
    UserObject,
    escalation_policy_object,
    incident_object,
    incident_summary,
    layer_object,
    log_entry_objects,
    maintenance_window_object,
    note_object,
    override_object,
    ref,
    schedule_summary,
    service_object,
    team_object,
    user_object,
)
from .oncall import ScheduleView, earliest_levels, oncall_entries, policy_reach
from .rules import (
    MAX_INCIDENT_RANGE,
    MAX_SCHEDULE_RANGE,
    acknowledge,
    add_note,
    assign_policy,
    assign_users,
    change_details,
    check_incident_key,
    check_override_fits,
    check_range,
    check_window_times,
    ensure_open,
    escalate,
    events_integration,
    follow_up_event,
    incident_rows,
    matches,
    merge,
    open_new_incident,
    overlaps,
    phase,
    refusal,
    resolve,
    service_statuses,
    trigger_alert,
    trigger_payload,
    urgency_for,
)
from .schema import (
    alerts,
    escalation_policies,
    escalation_rules,
    incidents,
    maintenance_windows,
    priorities,
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
Timestamp = Annotated[IsoTimestamp, ErrorText("must be an ISO 8601 timestamp such as 2025-06-18T14:00:00Z")]
Offset = Annotated[int, Field(ge=0), ErrorText("offset must be 0 or more (the next_cursor of the previous page)")]
Title = Annotated[str, Field(min_length=1, pattern=r"\S"), ErrorText("title can't be blank")]
NoteText = Annotated[
    str,
    Field(min_length=1, max_length=25_000, pattern=r"\S"),
    ErrorText("Note content can't be blank and can be at most 25,000 characters"),
]
EventSummary = Annotated[
    str,
    Field(min_length=1, max_length=1024, pattern=r"\S"),
    ErrorText("Event object is invalid: payload.summary must be 1 to 1024 characters, not blank"),
]
EventSource = Annotated[
    str, Field(min_length=1, pattern=r"\S"), ErrorText("Event object is invalid: payload.source can't be blank")
]
Assignees = Annotated[list[str], Unordered, Field(min_length=1), ErrorText("Give at least one user")]
SourceIncidents = Annotated[list[str], Unordered, Field(min_length=1), ErrorText("Give at least one source incident")]
WindowServices = Annotated[
    list[str], Unordered, Field(min_length=1), ErrorText("A maintenance window needs at least one service")
]
Level = Annotated[int, Field(ge=1), ErrorText("escalation_level must be 1 or more (1 is the policy's first level)")]
IncidentNumber = Annotated[int, Field(ge=1), ErrorText("Incident numbers start at 1")]


# ---------------------------------------------------------------- users, teams, priorities


@tool(read_only=True)
def list_priorities(db: Database) -> list[PriorityObject]:
    """List the account's incident priorities (P1 is the most severe), with the ids to set an incident's priority."""
    return [PriorityObject(**r) for r in db.find(priorities, order_by=[priorities.c.order.desc()])]


@tool(read_only=True)
def list_users(
    db: Database,
    query: str | None = None,
    team_ids: list[str] | None = None,
    limit: PageSize = 25,
    offset: Offset = 0,
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
        if matches(query, u["name"], u["email"]) and (members is None or u["id"] in members)
    ]
    return paginate([user_object(db, u) for u in rows], limit, str(offset))


@tool(read_only=True)
def list_teams(db: Database, query: str | None = None) -> list[TeamObject]:
    """List teams with their members and each member's team role (manager, responder, observer).

    Args:
        query: Only teams whose name contains this text.
    """
    return [team_object(db, t) for t in db.find(teams, order_by=[teams.c.name]) if matches(query, t["name"])]


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
        if (
            matches(query, policy["name"])
            and (not user_ids or policy_reach(db, rules) & set(user_ids))
            and (not team_ids or set(policy["teams"]) & set(team_ids))
        ):
            result.append(escalation_policy_object(db, policy, rules))
    return result


@tool(read_only=True)
def list_schedules(db: Database, query: str | None = None) -> list[ScheduleSummary]:
    """List on-call schedules with the users who rotate on them and the escalation policies that use them.

    Args:
        query: Only schedules whose name contains this text.
    """
    rows = db.find(schedules, order_by=[schedules.c.name])
    return [schedule_summary(db, s) for s in rows if matches(query, s["name"])]


@tool(read_only=True)
def get_schedule(
    db: Database, schedule_id: str, since: Timestamp | None = None, until: Timestamp | None = None
) -> ScheduleObject:
    """Show a schedule's layers, its overrides and the final schedule (who is on call when, overrides applied)
    between since and until.

    Args:
        schedule_id: The schedule's ID.
        since: Start of the range (ISO 8601); defaults to now.
        until: End of the range; defaults to 7 days after since. At most 93 days after since.
    """
    view = ScheduleView(db, schedule_id)
    start = parse_timestamp(since, "since", dates=True) if since else db.now()
    end = parse_timestamp(until, "until", dates=True) if until else start + timedelta(days=7)
    check_range(start, end, MAX_SCHEDULE_RANGE)
    shifts = view.shifts(start, end)
    covered = sum((s.end - s.start).total_seconds() for s in shifts)
    return ScheduleObject(
        **{k: view.schedule[k] for k in ("id", "name", "description", "time_zone")},
        schedule_layers=[layer_object(db, layer) for layer in reversed(view.layers)],
        overrides=[override_object(db, o) for o in view.overrides if overlaps(o, "start", start, end)],
        final_schedule=FinalSchedule(
            rendered_coverage_percentage=round(100 * covered / (end - start).total_seconds(), 2),
            rendered_schedule_entries=[
                ScheduleEntry(
                    user=ref(db, "user_reference", s.user_id), start=iso_timestamp(s.start), end=iso_timestamp(s.end)
                )
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
    since: Timestamp | None = None,
    until: Timestamp | None = None,
    earliest: bool = False,
    limit: PageSize = 25,
    offset: Offset = 0,
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
    start = parse_timestamp(since, "since", dates=True) if since else db.now()
    end = parse_timestamp(until, "until", dates=True) if until else start
    if end != start:
        check_range(start, end, MAX_SCHEDULE_RANGE)
    entries = oncall_entries(db, escalation_policy_ids, schedule_ids, start, end)
    if user_ids:
        entries = [e for e in entries if e.user.id in user_ids]
    return paginate(earliest_levels(entries) if earliest else entries, limit, str(offset))


# ---------------------------------------------------------------- services


@tool(read_only=True)
def list_services(
    db: Database,
    query: str | None = None,
    team_ids: list[str] | None = None,
    limit: PageSize = 25,
    offset: Offset = 0,
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
        if matches(query, s["name"]) and (not team_ids or set(s["teams"]) & set(team_ids))
    ]
    statuses = service_statuses(db, rows)
    return paginate([service_object(db, s, statuses[s["id"]]) for s in rows], limit, str(offset))


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
    since: Timestamp | None = None,
    until: Timestamp | None = None,
    sort_by: Literal["created_at:desc", "created_at:asc", "incident_number:desc", "incident_number:asc"] = (
        "created_at:desc"
    ),
    limit: PageSize = 25,
    offset: Offset = 0,
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
    end = parse_timestamp(until, "until", dates=True) if until else db.now()
    start = parse_timestamp(since, "since", dates=True) if since else end - timedelta(days=30)
    check_range(start, end, MAX_INCIDENT_RANGE)
    team_services = {s["id"] for s in db.find(services) if set(s["teams"]) & set(team_ids)} if team_ids else None
    rows = [
        i
        for i in incident_rows(db, start, end, sort_by, statuses, urgencies, service_ids, incident_key)
        if (team_services is None or i["service_id"] in team_services)
        and (not user_ids or set(i["assignments"]) & set(user_ids))
    ]
    return paginate([incident_summary(db, i) for i in rows], limit, str(offset))


@tool(read_only=True)
def get_incident(db: Database, incident_id: str) -> IncidentObject:
    """Show one incident in full: assignees, acknowledgers, escalation policy and level, priority, alert counts.

    Args:
        incident_id: The incident's ID (list_incidents gives it with the incident number).
    """
    return incident_object(db, db.get(incidents, incident_id, "Incident"))


@tool(read_only=True)
def list_incident_log_entries(
    db: Database, incident_id: str, limit: PageSize = 25, offset: Offset = 0
) -> Page[LogEntryObject]:
    """List an incident's log entries, newest first: triggers, assignments, escalations, acknowledgements, notes,
    urgency and priority changes, resolution.

    Args:
        incident_id: The incident's ID.
        limit: Entries per page, 1 to 100.
        offset: How many entries to skip (the next_cursor of the previous page).
    """
    incident = db.get(incidents, incident_id, "Incident")
    return paginate(log_entry_objects(db, incident["id"]), limit, str(offset))


@tool()
def create_incident(
    db: Database,
    from_email: str,
    service_id: str,
    title: Title,
    urgency: Urgency | None = None,
    priority_id: str | None = None,
    incident_key: str | None = None,
    body: str | None = None,
    assignee_ids: Assignees | None = None,
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
    if assignee_ids and escalation_policy_id:
        raise InvalidRequest("Give either assignments or an escalation policy, not both")
    check_incident_key(db, service_id, incident_key)
    if priority_id is not None:
        db.get(priorities, priority_id, "Priority")
    if escalation_policy_id is not None:
        db.get(escalation_policies, escalation_policy_id, "Escalation policy")
    values = {
        "title": title.strip(),
        "urgency": urgency or urgency_for(service, db.now()),
        "priority_id": priority_id,
        "incident_key": incident_key,
        "body": body,
        "escalation_policy_id": escalation_policy_id,
        "assignments": responders(db, assignee_ids) if assignee_ids else None,
    }
    return incident_object(db, open_new_incident(db, service, values, as_agent(user), "api"))


@tool()
def update_incident(
    db: Database,
    from_email: str,
    incident_id: str,
    status: Literal["acknowledged", "resolved"] | None = None,
    resolution: NoteText | None = None,
    title: Title | None = None,
    urgency: Urgency | None = None,
    priority_id: str | None = None,
    escalation_level: Level | None = None,
    assignee_ids: Assignees | None = None,
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
    user = acting_responder(db, from_email, incident)
    routing = [v for v in (escalation_level, assignee_ids, escalation_policy_id) if v is not None]
    if not routing and all(v is None for v in (status, title, urgency, priority_id)):
        raise InvalidRequest("Nothing to update: give a status, title, urgency, priority or new assignment")
    if resolution is not None and status != "resolved":
        raise InvalidRequest("A resolution can only be given when resolving the incident")
    if len(routing) > 1:
        raise InvalidRequest("Give only one of escalation_level, assignee_ids or escalation_policy_id")
    if routing and status:
        raise InvalidRequest("Reassigning or escalating can't be combined with a status change")
    incident = change_details(db, incident, user, title, urgency, priority_id)
    if escalation_level is not None:
        incident = escalate(db, incident, user, escalation_level)
    elif assignee_ids is not None:
        incident = assign_users(db, incident, user, assignee_ids)
    elif escalation_policy_id is not None:
        incident = assign_policy(db, incident, user, escalation_policy_id)
    if status == "acknowledged":
        incident = acknowledge(db, incident, as_agent(user), user["name"], "api")
    elif status == "resolved":
        if resolution is not None:
            add_note(db, incident, user, resolution)
        incident = resolve(db, incident, as_agent(user), f"Resolved by {user['name']}.", "api")
    return incident_object(db, incident)


@tool()
def merge_incidents(
    db: Database, from_email: str, incident_id: str, source_incident_ids: SourceIncidents
) -> IncidentObject:
    """Merge other open incidents into one: their alerts move to it and they are resolved, pointing at it.

    Args:
        from_email: Email of the user acting (the "From" header).
        incident_id: The ID of the incident that remains.
        source_incident_ids: IDs of the incidents merged into it and resolved.
    """
    target = ensure_open(db.get(incidents, incident_id, "Incident"))
    merge(db, target, source_incident_ids, acting_responder(db, from_email, target))
    return incident_object(db, db.get(incidents, target["id"]))


@tool()
def create_incident_note(db: Database, from_email: str, incident_id: str, content: NoteText) -> NoteObject:
    """Add a note to an incident's timeline (resolved incidents too).

    Args:
        from_email: Email of the user writing it (the "From" header).
        incident_id: The incident's ID.
        content: The note's text, at most 25,000 characters.
    """
    incident = db.get(incidents, incident_id, "Incident")
    return note_object(db, add_note(db, incident, acting_responder(db, from_email, incident), content))


@tool()
def send_event(
    db: Database,
    routing_key: str,
    event_action: Literal["trigger", "acknowledge", "resolve"],
    dedup_key: str | None = None,
    summary: EventSummary | None = None,
    source: EventSource | None = None,
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
        summary: For a trigger: what is wrong (becomes the incident title), at most 1024 characters.
        source: For a trigger: the affected host or component.
        severity: For a trigger: critical, error, warning or info.
    """
    integration = events_integration(db, routing_key)
    if event_action != "trigger":
        if not dedup_key:
            raise InvalidRequest(f"Event object is invalid: dedup_key is required to {event_action}")
        follow_up_event(db, db.get(services, integration["service_id"], "Service"), dedup_key, event_action)
        return EventResult(status="success", message="Event processed", dedup_key=dedup_key)
    title, origin, level = trigger_payload(summary, source, severity)
    key = dedup_key or db.new_uuid(alerts).replace("-", "")
    trigger_alert(db, integration, key, title, origin, level)
    return EventResult(status="success", message="Event processed", dedup_key=key)


# ---------------------------------------------------------------- schedule overrides


@tool()
def create_schedule_override(
    db: Database, schedule_id: str, user_id: str, start: Timestamp, end: Timestamp
) -> OverrideObject:
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
    begins, ends = parse_timestamp(start, "start", dates=True), parse_timestamp(end, "end", dates=True)
    check_override_fits(db, schedule_id, begins, ends)
    row = db.insert(
        schedule_overrides,
        id=db.new_id(schedule_overrides, "PO", 5),
        schedule_id=schedule_id,
        user_id=user_id,
        start=iso_timestamp(begins),
        end=iso_timestamp(ends),
        ended_early=False,
        ended_at=None,
    )
    return override_object(db, row)


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
    when = phase(override, "start", db.now())
    if when == "past":
        raise Conflict("This override is in the past and can't be removed")
    if when == "future":
        return OverrideRemoval(
            result="deleted", override=override_object(db, db.delete(schedule_overrides, override_id))
        )
    row = db.update(schedule_overrides, override_id, ended_early=True, ended_at=db.now_iso())
    return OverrideRemoval(result="truncated", override=override_object(db, row))


# ---------------------------------------------------------------- maintenance windows


@tool(read_only=True)
def list_maintenance_windows(
    db: Database,
    service_ids: list[str] | None = None,
    filter: Literal["past", "future", "ongoing", "open", "all"] = "all",
    limit: PageSize = 25,
    offset: Offset = 0,
) -> Page[MaintenanceWindowObject]:
    """List maintenance windows by start time. While a window runs, its services open no new incidents.

    Args:
        service_ids: Only windows covering one of these services.
        filter: past, future, ongoing, open (ongoing or future) or all.
        limit: Windows per page, 1 to 100.
        offset: How many windows to skip (the next_cursor of the previous page).
    """
    now = db.now()
    wanted = {"open": {"future", "ongoing"}, "all": {"past", "future", "ongoing"}}.get(filter, {filter})
    rows = [
        w
        for w in db.find(maintenance_windows, order_by=[maintenance_windows.c.start_time])
        if phase(w, "start_time", now) in wanted and (not service_ids or set(w["service_ids"]) & set(service_ids))
    ]
    return paginate([maintenance_window_object(db, w) for w in rows], limit, str(offset))


@tool()
def create_maintenance_window(
    db: Database,
    from_email: str,
    service_ids: WindowServices,
    start_time: Timestamp,
    end_time: Timestamp,
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
    covered = [db.get(services, s, "Service") for s in sorted(set(service_ids))]
    check_maintainer(db, user, covered)
    begins = parse_timestamp(start_time, "start_time", dates=True)
    ends = parse_timestamp(end_time, "end_time", dates=True)
    row = db.insert(
        maintenance_windows,
        id=db.new_id(maintenance_windows, "PW", 5),
        sequence_number=check_window_times(db, begins, ends),
        description=description,
        start_time=iso_timestamp(begins),
        end_time=iso_timestamp(ends),
        ended_early=False,
        ended_at=None,
        service_ids=[s["id"] for s in covered],
        created_by_user_id=user["id"],
        created_at=db.now_iso(),
    )
    return maintenance_window_object(db, row)


@tool()
def delete_maintenance_window(db: Database, maintenance_window_id: str) -> MaintenanceWindowRemoval:
    """Delete a future maintenance window, or end a running one now. Windows that are over can't be deleted.

    Args:
        maintenance_window_id: The window's ID.
    """
    window = db.get(maintenance_windows, maintenance_window_id, "Maintenance window")
    when = phase(window, "start_time", db.now())
    if when == "past":
        raise Conflict("This maintenance window has already ended and can't be deleted")
    if when == "future":
        deleted = db.delete(maintenance_windows, maintenance_window_id)
        return MaintenanceWindowRemoval(result="deleted", maintenance_window=maintenance_window_object(db, deleted))
    row = db.update(maintenance_windows, maintenance_window_id, ended_early=True, ended_at=db.now_iso())
    return MaintenanceWindowRemoval(result="ended", maintenance_window=maintenance_window_object(db, row))


# ---------------------------------------------------------------- the user's phone


@tool(user_only=True)
def acknowledge_in_mobile_app(db: Database, email: str, incident_number: IncidentNumber) -> IncidentObject:
    """(The user, in the PagerDuty mobile app) Acknowledge an incident from the push notification or the app.

    Args:
        email: The account the app is signed in with.
        incident_number: The incident's number the app shows.
    """
    found = db.find(incidents, incident_number=incident_number)
    if not found:
        raise NotFound(f"Incident #{incident_number} not found")
    incident = ensure_open(found[0])
    user = acting_responder(db, email, incident)
    return incident_object(db, acknowledge(db, incident, as_agent(user), user["name"], "mobile"))
