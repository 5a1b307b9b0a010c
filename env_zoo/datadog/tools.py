"""Datadog API tools (v1 monitors, SLOs, dashboards; v2 downtimes, incidents, users, teams) as a signed-in member
of the organization sees them, plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoTimestamp, NonBlankText, bounded, text
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import signed_in, user_by_handle, writer
from .errors import bad_request, conflict, missing
from .objects import (
    Dashboard,
    DashboardList,
    Downtime,
    DowntimeList,
    Incident,
    IncidentDetail,
    IncidentList,
    Monitor,
    MonitorList,
    Person,
    Signed,
    Slo,
    SloList,
    Team,
    TeamMember,
    TimelineEntry,
    User,
    UserList,
    downtime_object,
    incident_fields,
    monitor_object,
    person,
    slo_object,
)
from .rules import check_thresholds, downtime_status
from .schema import (
    dashboards,
    downtimes,
    incident_notes,
    incidents,
    monitors,
    sessions,
    slos,
    team_members,
    teams,
    users,
)

PageSize = bounded(1, 100)
MonitorId = Annotated[int, Field(ge=1, description="the monitor's numeric id")]
MonitorType = Literal["metric alert", "service check", "log alert"]
Tag = Annotated[str, Field(pattern=r"^(\*|[a-z][a-z0-9_.\-/]*(:[^\s,]+)?)$", max_length=200)]
Tags = Annotated[list[Tag], Unordered]
Scope = Annotated[
    str, Field(pattern=r"^(\*|[a-z][a-z0-9_.\-/]*:[^\s,]+(,[a-z][a-z0-9_.\-/]*:[^\s,]+)*)$", description="'*' or tags")
]
Priority = bounded(1, 5)
Uuid = Annotated[str, Field(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")]
SloId = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$", description="the SLO's 32-character hex id")]
Severity = Literal["SEV-1", "SEV-2", "SEV-3", "SEV-4", "SEV-5", "UNKNOWN"]
IncidentState = Literal["active", "stable", "resolved"]
Timeframe = Literal["7d", "30d", "90d"]
Target = Annotated[float, Field(gt=0, lt=100, description="percent, e.g. 99.9")]
Duration = Annotated[str, Field(pattern=r"^\d+[mhd]$", description="e.g. 30m, 2h, 1d")]
RRule = Annotated[str, Field(pattern=r"^FREQ=(DAILY|WEEKLY|MONTHLY)(;[A-Z]+=[A-Z0-9,+-]+)*$")]
Threshold = Annotated[float, Field(allow_inf_nan=False)]


def _users(db: Database, ids: set[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    rows = db.select(users, f"id IN ({', '.join('?' * len(ids))})", sorted(ids))
    return {r["id"]: r for r in rows}


def _monitor(db: Database, monitor_id: int) -> dict[str, Any]:
    return db.find_one(monitors, id=monitor_id, not_found=missing("Monitor", monitor_id))


def _monitor_out(db: Database, row: dict[str, Any]) -> Monitor:
    return monitor_object(row, db.get(users, row["creator_id"]))


def _user_out(db: Database, row: dict[str, Any]) -> User:
    handles = [
        db.get(teams, m["team_id"])["handle"] for m in db.find(team_members, user_id=row["id"], order_by=["team_id"])
    ]
    return User(
        id=row["id"], handle=row["handle"], name=row["name"], role=row["role"], status=row["status"], teams=handles
    )


# ---------------------------------------------------------------- sign-in and people


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Signed:
    """(User only) The person signs in to Datadog; the assistant then acts with their role.

    Args:
        email: Their Datadog handle (work email).
    """
    user = user_by_handle(db, email)
    if user["status"] != "Active":
        raise bad_request(f"User {user['handle']} is {user['status'].lower()} and cannot sign in")
    db.start_session(sessions, user_id=user["id"])
    return Signed(user=_user_out(db, user))


@tool(read_only=True)
def list_users(
    db: Database,
    filter: str | None = None,
    team: str | None = None,
    page_size: PageSize = 50,
    cursor: str | None = None,
) -> UserList:
    """List the organization's users (GET /api/v2/users), by name.

    Args:
        filter: Keeps users whose name or handle contains this text.
        team: Keeps members of the team with this handle.
        page_size: Users per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    signed_in(db)
    rows = db.select(users, "", [], order_by="name, id")
    if filter:
        needle = filter.strip().lower()
        rows = [r for r in rows if needle in r["name"].lower() or needle in r["handle"].lower()]
    if team is not None:
        found = db.find(teams, handle=team.strip())
        if not found:
            raise bad_request(f"Team {team.strip()} not found")
        members = {m["user_id"] for m in db.find(team_members, team_id=found[0]["id"])}
        rows = [r for r in rows if r["id"] in members]
    page = paginate(rows, page_size, cursor)
    return UserList(users=[_user_out(db, r) for r in page.results], next_cursor=page.next_cursor)


@tool(read_only=True)
def list_teams(db: Database, filter: str | None = None) -> list[Team]:
    """List teams with their members (GET /api/v2/team).

    Args:
        filter: Keeps teams whose name or handle contains this text.
    """
    signed_in(db)
    out = []
    for row in db.find(teams, order_by=[teams.c.name]):
        if filter and filter.strip().lower() not in (row["name"] + " " + row["handle"]).lower():
            continue
        roles = {m["user_id"]: m["role"] for m in db.find(team_members, team_id=row["id"])}
        people = sorted(_users(db, set(roles)).values(), key=lambda u: (roles[u["id"]] != "admin", u["name"]))
        members = [TeamMember(handle=u["handle"], name=u["name"], role=roles[u["id"]]) for u in people]
        out.append(Team(id=row["id"], handle=row["handle"], name=row["name"], members=members))
    return out


# ---------------------------------------------------------------- monitors


@tool(read_only=True)
def list_monitors(
    db: Database,
    name: str | None = None,
    tags: Tags | None = None,
    overall_state: Literal["OK", "Alert", "Warn", "No Data"] | None = None,
    type: MonitorType | None = None,
    page_size: PageSize = 50,
    cursor: str | None = None,
) -> MonitorList:
    """List monitors (GET /api/v1/monitor), by id.

    Args:
        name: Keeps monitors whose name contains this text (case-insensitive).
        tags: Keeps monitors carrying every one of these tags, e.g. ["service:checkout", "env:prod"].
        overall_state: Keeps monitors in this state.
        type: Keeps monitors of this type.
        page_size: Monitors per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    signed_in(db)
    where, params = [], []
    if name:
        where.append("lower(name) LIKE ?")
        params.append(f"%{name.strip().lower()}%")
    for key, value in given(overall_state=overall_state, type=type).items():
        where.append(f"{key} = ?")
        params.append(value)
    rows = db.select(monitors, " AND ".join(where), params, order_by="id")
    if tags:
        rows = [r for r in rows if set(tags) <= set(r["tags"])]
    page = paginate(rows, page_size, cursor)
    return MonitorList(monitors=[_monitor_out(db, r) for r in page.results], next_cursor=page.next_cursor)


@tool(read_only=True)
def get_monitor(db: Database, monitor_id: MonitorId) -> Monitor:
    """Get one monitor with its thresholds, mutes and state (GET /api/v1/monitor/{monitor_id}).

    Args:
        monitor_id: The monitor's id.
    """
    signed_in(db)
    return _monitor_out(db, _monitor(db, monitor_id))


@tool()
def create_monitor(
    db: Database,
    name: text(200),
    type: MonitorType,
    query: NonBlankText,
    message: text(5000, 0) = "",
    critical: Threshold | None = None,
    warning: Threshold | None = None,
    tags: Tags | None = None,
    priority: Priority | None = None,
) -> Monitor:
    """Create a monitor (POST /api/v1/monitor). A metric alert query looks like
    `avg(last_5m):avg:system.cpu.user{env:prod} by {host} > 90`, a log alert query like
    `logs("service:web status:error").index("*").rollup("count").last("5m") > 100`, a service check query like
    `"http.can_connect".over("env:prod").by("host").last(3).count_by_status()`. For metric and log alerts the critical
    threshold must equal the one in the query, and a warning threshold must be on the near side of it (below it for
    > and >=, above it for < and <=). Service check thresholds count consecutive failed checks.

    Args:
        name: The monitor's name.
        type: metric alert, service check or log alert.
        query: The monitor query.
        message: The notification message (may @-mention people, teams and channels).
        critical: The critical (alert) threshold.
        warning: The warning threshold.
        tags: Tags such as service:checkout, env:prod, team:payments.
        priority: 1 (highest) to 5.
    """
    user = writer(db)
    query = query.strip()
    check_thresholds(type, query, critical, warning)
    last = db.select(monitors, "", [], order_by="id DESC", limit=1)
    now = db.now_iso()
    row = db.insert(
        monitors,
        id=(last[0]["id"] if last else 0) + 1,
        name=name.strip(),
        type=type,
        query=query,
        message=message,
        tags=sorted(set(tags or [])),
        priority=priority,
        critical=critical,
        warning=warning,
        overall_state="No Data",
        silenced={},
        creator_id=user["id"],
        created=now,
        modified=now,
    )
    return _monitor_out(db, row)


@tool()
def update_monitor(
    db: Database,
    monitor_id: MonitorId,
    name: text(200) | None = None,
    query: NonBlankText | None = None,
    message: text(5000, 0) | None = None,
    critical: Threshold | None = None,
    warning: Threshold | None = None,
    clear_warning: bool = False,
    tags: Tags | None = None,
    priority: Priority | None = None,
) -> Monitor:
    """Edit a monitor (PUT /api/v1/monitor/{monitor_id}); fields left out keep their value. Changing the critical
    threshold of a metric or log alert needs the query's threshold changed to match (send both).

    Args:
        monitor_id: The monitor's id.
        name: New name.
        query: New query (its type cannot change).
        message: New notification message.
        critical: New critical threshold.
        warning: New warning threshold.
        clear_warning: Remove the warning threshold.
        tags: The full new list of tags (replaces the old list).
        priority: New priority, 1 to 5.
    """
    writer(db)
    row = _monitor(db, monitor_id)
    if clear_warning and warning is not None:
        raise bad_request("Send either warning or clear_warning, not both")
    new_query = query.strip() if query is not None else row["query"]
    new_critical = critical if critical is not None else row["critical"]
    new_warning = None if clear_warning else (warning if warning is not None else row["warning"])
    check_thresholds(row["type"], new_query, new_critical, new_warning)
    changes: dict[str, Any] = {"query": new_query, "critical": new_critical, "warning": new_warning}
    changes |= given(name=name.strip() if name else None, message=message, priority=priority)
    if tags is not None:
        changes["tags"] = sorted(set(tags))
    updated = db.update(monitors, monitor_id, **changes, modified=db.now_iso())
    return _monitor_out(db, updated)


@tool()
def mute_monitor(db: Database, monitor_id: MonitorId, scope: Scope = "*", end: IsoTimestamp | None = None) -> Monitor:
    """Mute a monitor, wholly or for one scope (POST /api/v1/monitor/{monitor_id}/mute). Muting a scope again
    replaces its end time.

    Args:
        monitor_id: The monitor's id.
        scope: '*' for the whole monitor, or a group's tags such as host:web-01 or env:staging.
        end: When the mute ends (ISO 8601, in the future); left out, it lasts until unmuted.
    """
    writer(db)
    row = _monitor(db, monitor_id)
    until = None
    if end is not None:
        moment = parse_timestamp(end, "end")
        if moment <= db.now():
            raise bad_request("Mute end time must be in the future")
        until = iso_timestamp(moment)
    silenced = dict(row["silenced"]) | {scope: until}
    updated = db.update(monitors, monitor_id, silenced=silenced, modified=db.now_iso())
    return _monitor_out(db, updated)


@tool()
def unmute_monitor(db: Database, monitor_id: MonitorId, scope: Scope | None = None) -> Monitor:
    """Unmute a monitor (POST /api/v1/monitor/{monitor_id}/unmute).

    Args:
        monitor_id: The monitor's id.
        scope: The muted scope to lift; left out, every mute of the monitor is lifted.
    """
    writer(db)
    row = _monitor(db, monitor_id)
    if not row["silenced"]:
        raise bad_request(f"Monitor {monitor_id} is not muted")
    if scope is not None and scope not in row["silenced"]:
        raise bad_request(f"Monitor {monitor_id} is not muted for scope {scope}")
    silenced = {} if scope is None else {k: v for k, v in row["silenced"].items() if k != scope}
    updated = db.update(monitors, monitor_id, silenced=silenced, modified=db.now_iso())
    return _monitor_out(db, updated)


# ---------------------------------------------------------------- downtimes


@tool(read_only=True)
def list_downtimes(
    db: Database,
    current_only: bool = False,
    monitor_id: MonitorId | None = None,
    page_size: PageSize = 50,
    cursor: str | None = None,
) -> DowntimeList:
    """List downtimes (GET /api/v2/downtime), newest first.

    Args:
        current_only: Only active and scheduled downtimes (not ended or canceled ones).
        monitor_id: Only downtimes naming this monitor by id.
        page_size: Downtimes per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    signed_in(db)
    now = db.now_iso()
    rows = db.find(downtimes, **given(monitor_id=monitor_id))
    rows.sort(key=lambda r: (r["created"], r["id"]), reverse=True)
    if current_only:
        rows = [r for r in rows if downtime_status(r, now) in ("active", "scheduled")]
    page = paginate(rows, page_size, cursor)
    return DowntimeList(downtimes=[downtime_object(r, now) for r in page.results], next_cursor=page.next_cursor)


@tool()
def create_downtime(
    db: Database,
    scope: Scope,
    monitor_id: MonitorId | None = None,
    monitor_tags: Tags | None = None,
    start: IsoTimestamp | None = None,
    end: IsoTimestamp | None = None,
    rrule: RRule | None = None,
    duration: Duration | None = None,
    message: text(2000, 0) = "",
) -> Downtime:
    """Schedule a downtime that silences monitors (POST /api/v2/downtime). Name the monitors by exactly one of
    `monitor_id` or `monitor_tags` (["*"] silences every monitor in the scope). A one-off downtime runs from `start`
    (default now) to `end` (default indefinitely); a recurring one takes an RRULE and each occurrence's `duration`,
    starting at `start` and recurring until `end` if given.

    Args:
        scope: Which groups are silenced: '*' or tags such as env:staging or env:prod,service:checkout.
        monitor_id: The one monitor to silence.
        monitor_tags: Silence every monitor carrying all these tags.
        start: When it starts (ISO 8601); default now.
        end: When it ends (ISO 8601, after start).
        rrule: A recurrence such as FREQ=WEEKLY;BYDAY=SA.
        duration: How long each recurrence lasts, e.g. 2h (required with rrule).
        message: A message shown on the downtime and in notifications.
    """
    user = writer(db)
    if (monitor_id is None) == (monitor_tags is None):
        raise bad_request("Exactly one of monitor_id or monitor_tags is required in monitor_identifier")
    if monitor_id is not None:
        _monitor(db, monitor_id)
    if (rrule is None) != (duration is None):
        raise bad_request("A recurring downtime needs both rrule and duration")
    begins = parse_timestamp(start, "start") if start is not None else db.now()
    finishes = parse_timestamp(end, "end") if end is not None else None
    if finishes is not None and finishes <= begins:
        raise bad_request("Downtime end must be after its start")
    if finishes is not None and finishes <= db.now():
        raise bad_request("Downtime end must be in the future")
    row = db.insert(
        downtimes,
        id=db.new_uuid(downtimes),
        scope=scope,
        monitor_id=monitor_id,
        monitor_tags=sorted(set(monitor_tags)) if monitor_tags is not None else [],
        message=message,
        start=iso_timestamp(begins),
        end=iso_timestamp(finishes) if finishes else None,
        rrule=rrule,
        duration=duration,
        canceled=False,
        canceled_at=None,
        creator_id=user["id"],
        created=db.now_iso(),
    )
    return downtime_object(row, db.now_iso())


@tool()
def cancel_downtime(db: Database, downtime_id: Uuid) -> Downtime:
    """Cancel a downtime (DELETE /api/v2/downtime/{downtime_id}); its monitors alert again at once.

    Args:
        downtime_id: The downtime's id.
    """
    writer(db)
    row = db.find_one(downtimes, id=downtime_id, not_found=missing("Downtime", downtime_id))
    status = downtime_status(row, db.now_iso())
    if status in ("canceled", "ended"):
        raise conflict(f"Downtime {downtime_id} has already {'been canceled' if status == 'canceled' else 'ended'}")
    updated = db.update(downtimes, downtime_id, canceled=True, canceled_at=db.now_iso())
    return downtime_object(updated, db.now_iso())


# ---------------------------------------------------------------- incidents


def _incident(db: Database, incident_id: str) -> dict[str, Any]:
    return db.find_one(incidents, id=incident_id, not_found=missing("Incident", incident_id))


def _commander(db: Database, email: str) -> dict[str, Any]:
    user = user_by_handle(db, email)
    if user["status"] != "Active":
        raise bad_request(f"Commander {user['handle']} is not an active user")
    return user


def _incident_out(db: Database, row: dict[str, Any]) -> Incident:
    commander = db.get(users, row["commander_id"]) if row["commander_id"] else None
    return Incident(**incident_fields(row, commander))


def _detail(db: Database, row: dict[str, Any]) -> IncidentDetail:
    commander = db.get(users, row["commander_id"]) if row["commander_id"] else None
    notes = db.select(incident_notes, "incident_id = ?", [row["id"]], order_by="created, rowid")
    authors = _users(db, {n["author_id"] for n in notes})
    timeline = [
        TimelineEntry(
            id=n["id"],
            kind=n["kind"],
            content=n["content"],
            author=person(authors[n["author_id"]]),
            created=n["created"],
        )
        for n in notes
    ]
    return IncidentDetail(**incident_fields(row, commander), timeline=timeline)


def _log(db: Database, incident_id: str, author_id: str, kind: str, content: str) -> None:
    db.insert(
        incident_notes,
        id=db.new_uuid(incident_notes),
        incident_id=incident_id,
        author_id=author_id,
        kind=kind,
        content=content,
        created=db.now_iso(),
    )


@tool(read_only=True)
def list_incidents(
    db: Database,
    state: IncidentState | None = None,
    severity: Severity | None = None,
    query: str | None = None,
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> IncidentList:
    """List incidents (GET /api/v2/incidents), newest first.

    Args:
        state: Keeps incidents in this state.
        severity: Keeps incidents of this severity.
        query: Keeps incidents whose title contains this text.
        page_size: Incidents per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    signed_in(db)
    rows = db.find(incidents, **given(state=state, severity=severity))
    if query:
        rows = [r for r in rows if query.strip().lower() in r["title"].lower()]
    rows.sort(key=lambda r: r["public_id"], reverse=True)
    page = paginate(rows, page_size, cursor)
    return IncidentList(incidents=[_incident_out(db, r) for r in page.results], next_cursor=page.next_cursor)


@tool(read_only=True)
def get_incident(db: Database, incident_id: Uuid) -> IncidentDetail:
    """Get one incident with its timeline (GET /api/v2/incidents/{incident_id}).

    Args:
        incident_id: The incident's id (a UUID).
    """
    signed_in(db)
    return _detail(db, _incident(db, incident_id))


@tool()
def create_incident(
    db: Database,
    title: text(200),
    severity: Severity = "UNKNOWN",
    customer_impacted: bool = False,
    customer_impact_scope: text(1000) | None = None,
    commander_email: NonBlankText | None = None,
) -> IncidentDetail:
    """Declare an incident (POST /api/v2/incidents); it starts active. A customer-impacting incident needs its impact
    scope described.

    Args:
        title: What is happening.
        severity: SEV-1 (critical) to SEV-5 (minor), or UNKNOWN.
        customer_impacted: Whether customers are affected.
        customer_impact_scope: Who and what is affected (required when customers are impacted).
        commander_email: The incident commander's handle; default the person declaring it.
    """
    user = writer(db)
    if customer_impacted and customer_impact_scope is None:
        raise bad_request("customer_impact_scope is required when customer_impacted is true")
    if not customer_impacted and customer_impact_scope is not None:
        raise bad_request("customer_impact_scope can only be set when customer_impacted is true")
    commander = _commander(db, commander_email) if commander_email else user
    last = db.select(incidents, "", [], order_by="public_id DESC", limit=1)
    now = db.now_iso()
    row = db.insert(
        incidents,
        id=db.new_uuid(incidents),
        public_id=(last[0]["public_id"] if last else 0) + 1,
        title=title.strip(),
        severity=severity,
        state="active",
        commander_id=commander["id"],
        customer_impacted=customer_impacted,
        customer_impact_scope=customer_impact_scope,
        customer_impact_start=now if customer_impacted else None,
        customer_impact_end=None,
        created=now,
        resolved=None,
        modified=now,
    )
    _log(db, row["id"], user["id"], "state_change", f"Incident declared as {severity}")
    return _detail(db, row)


@tool()
def update_incident(
    db: Database,
    incident_id: Uuid,
    title: text(200) | None = None,
    severity: Severity | None = None,
    state: IncidentState | None = None,
    commander_email: NonBlankText | None = None,
    customer_impacted: bool | None = None,
    customer_impact_scope: text(1000) | None = None,
) -> IncidentDetail:
    """Update an incident (PATCH /api/v2/incidents/{incident_id}); each change is written to its timeline. Resolving
    stamps the resolution time (reopening clears it); marking customers impacted needs an impact scope, and clearing
    it ends the impact window.

    Args:
        incident_id: The incident's id (a UUID).
        title: New title.
        severity: New severity.
        state: active, stable or resolved.
        commander_email: The new commander's handle.
        customer_impacted: Whether customers are affected.
        customer_impact_scope: Who and what is affected.
    """
    user = writer(db)
    row = _incident(db, incident_id)
    impacted = row["customer_impacted"] if customer_impacted is None else customer_impacted
    if impacted and customer_impact_scope is None and not row["customer_impact_scope"]:
        raise bad_request("customer_impact_scope is required when customer_impacted is true")
    if not impacted and customer_impact_scope is not None:
        raise bad_request("customer_impact_scope can only be set when customer_impacted is true")
    now = db.now_iso()
    changes: dict[str, Any] = given(title=title.strip() if title else None)
    entries: list[tuple[str, str]] = []
    if severity is not None and severity != row["severity"]:
        changes["severity"] = severity
        entries.append(("severity_change", f"Severity changed from {row['severity']} to {severity}"))
    if state is not None and state != row["state"]:
        changes["state"] = state
        changes["resolved"] = now if state == "resolved" else None
        entries.append(("state_change", f"State changed from {row['state']} to {state}"))
    if commander_email is not None:
        commander = _commander(db, commander_email)
        if commander["id"] != row["commander_id"]:
            changes["commander_id"] = commander["id"]
            entries.append(("commander_change", f"Commander set to {commander['name']}"))
    if customer_impacted is not None and customer_impacted != row["customer_impacted"]:
        changes["customer_impacted"] = customer_impacted
        if customer_impacted:
            changes |= {"customer_impact_start": now, "customer_impact_end": None}
        else:
            changes["customer_impact_end"] = now
        entries.append(("impact_change", f"Customer impact {'started' if customer_impacted else 'ended'}"))
    if customer_impact_scope is not None:
        changes["customer_impact_scope"] = customer_impact_scope
    if not changes:
        raise bad_request("Nothing to update: the incident already has these values")
    updated = db.update(incidents, incident_id, **changes, modified=now)
    for kind, content in entries:
        _log(db, incident_id, user["id"], kind, content)
    return _detail(db, updated)


@tool()
def add_incident_note(db: Database, incident_id: Uuid, content: text(10000)) -> TimelineEntry:
    """Add a note to an incident's timeline (POST /api/v2/incidents/{incident_id}/timeline).

    Args:
        incident_id: The incident's id (a UUID).
        content: The note (Markdown).
    """
    user = writer(db)
    _incident(db, incident_id)
    _log(db, incident_id, user["id"], "note", content)
    last = db.select(incident_notes, "incident_id = ?", [incident_id], order_by="rowid DESC", limit=1)[0]
    return TimelineEntry(
        id=last["id"],
        kind="note",
        content=content,
        author=Person(handle=user["handle"], name=user["name"]),
        created=last["created"],
    )


# ---------------------------------------------------------------- SLOs


def _slo(db: Database, slo_id: str) -> dict[str, Any]:
    return db.find_one(slos, id=slo_id, not_found=missing("SLO", slo_id))


def _slo_out(db: Database, row: dict[str, Any]) -> Slo:
    return slo_object(row, db.get(users, row["creator_id"]))


def _check_warning(target: float, warning: float | None) -> None:
    if warning is not None and warning <= target:
        raise bad_request(f"Warning ({warning:g}) must be greater than the target ({target:g})")


@tool(read_only=True)
def list_slos(
    db: Database,
    query: str | None = None,
    tags: Tags | None = None,
    page_size: PageSize = 50,
    cursor: str | None = None,
) -> SloList:
    """List SLOs with their status and error budget (GET /api/v1/slo), by name.

    Args:
        query: Keeps SLOs whose name contains this text.
        tags: Keeps SLOs carrying every one of these tags.
        page_size: SLOs per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    signed_in(db)
    where, params = "", []
    if query:
        where, params = "lower(name) LIKE ?", [f"%{query.strip().lower()}%"]
    rows = db.select(slos, where, params, order_by="lower(name), id")
    if tags:
        rows = [r for r in rows if set(tags) <= set(r["tags"])]
    page = paginate(rows, page_size, cursor)
    return SloList(slos=[_slo_out(db, r) for r in page.results], next_cursor=page.next_cursor)


@tool(read_only=True)
def get_slo(db: Database, slo_id: SloId) -> Slo:
    """Get one SLO with its SLI, error budget and status (GET /api/v1/slo/{slo_id}).

    Args:
        slo_id: The SLO's id.
    """
    signed_in(db)
    return _slo_out(db, _slo(db, slo_id))


@tool()
def create_slo(
    db: Database,
    name: text(200),
    type: Literal["metric", "monitor"],
    target: Target,
    timeframe: Timeframe,
    warning: Target | None = None,
    numerator: NonBlankText | None = None,
    denominator: NonBlankText | None = None,
    monitor_ids: Annotated[list[MonitorId], Unordered] | None = None,
    tags: Tags | None = None,
    description: text(2000, 0) = "",
) -> Slo:
    """Create an SLO (POST /api/v1/slo). A metric SLO counts good events over total events (numerator and
    denominator queries such as sum:trace.http.request.hits{service:checkout,!http.status_class:5xx}.as_count());
    a monitor SLO measures the uptime of metric alert or service check monitors. The warning, if any, must be
    stricter (greater) than the target.

    Args:
        name: The SLO's name.
        type: metric or monitor.
        target: The target percent over the timeframe, e.g. 99.9.
        timeframe: 7d, 30d or 90d.
        warning: A warning level above the target.
        numerator: Good events query (metric SLOs).
        denominator: Total events query (metric SLOs).
        monitor_ids: The monitors it measures (monitor SLOs).
        tags: Tags such as service:checkout, team:payments.
        description: What it measures.
    """
    user = writer(db)
    _check_warning(target, warning)
    ids = sorted(set(monitor_ids or []))
    if type == "metric":
        if numerator is None or denominator is None or ids:
            raise bad_request("A metric SLO needs a numerator and a denominator query and no monitor_ids")
    else:
        if not ids or numerator is not None or denominator is not None:
            raise bad_request("A monitor SLO needs monitor_ids and no numerator or denominator")
        for monitor_id in ids:
            if _monitor(db, monitor_id)["type"] == "log alert":
                raise bad_request(f"Monitor {monitor_id} is a log alert; monitor SLOs support metric and service check")
    now = db.now_iso()
    row = db.insert(
        slos,
        id=db.new_uuid(slos).replace("-", ""),
        name=name.strip(),
        type=type,
        description=description,
        numerator=numerator,
        denominator=denominator,
        monitor_ids=ids,
        tags=sorted(set(tags or [])),
        timeframe=timeframe,
        target=target,
        warning=warning,
        sli_value=None,
        creator_id=user["id"],
        created=now,
        modified=now,
    )
    return _slo_out(db, row)


@tool()
def update_slo(
    db: Database,
    slo_id: SloId,
    name: text(200) | None = None,
    target: Target | None = None,
    timeframe: Timeframe | None = None,
    warning: Target | None = None,
    clear_warning: bool = False,
    tags: Tags | None = None,
    description: text(2000, 0) | None = None,
) -> Slo:
    """Edit an SLO (PUT /api/v1/slo/{slo_id}); fields left out keep their value.

    Args:
        slo_id: The SLO's id.
        name: New name.
        target: New target percent.
        timeframe: New timeframe.
        warning: New warning level (above the target).
        clear_warning: Remove the warning level.
        tags: The full new list of tags.
        description: New description.
    """
    writer(db)
    row = _slo(db, slo_id)
    if clear_warning and warning is not None:
        raise bad_request("Send either warning or clear_warning, not both")
    new_target = target if target is not None else row["target"]
    new_warning = None if clear_warning else (warning if warning is not None else row["warning"])
    _check_warning(new_target, new_warning)
    changes: dict[str, Any] = {"target": new_target, "warning": new_warning}
    changes |= given(name=name.strip() if name else None, timeframe=timeframe, description=description)
    if tags is not None:
        changes["tags"] = sorted(set(tags))
    return _slo_out(db, db.update(slos, slo_id, **changes, modified=db.now_iso()))


# ---------------------------------------------------------------- dashboards


@tool(read_only=True)
def list_dashboards(
    db: Database,
    filter: str | None = None,
    team: str | None = None,
    page_size: PageSize = 50,
    cursor: str | None = None,
) -> DashboardList:
    """List dashboards (GET /api/v1/dashboard), by title.

    Args:
        filter: Keeps dashboards whose title contains this text.
        team: Keeps dashboards owned by the team with this handle.
        page_size: Dashboards per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    signed_in(db)
    rows = db.select(dashboards, "", [], order_by="lower(title), id")
    if filter:
        rows = [r for r in rows if filter.strip().lower() in r["title"].lower()]
    team_rows = {t["id"]: t for t in db.find(teams)}
    if team is not None:
        rows = [r for r in rows if r["team_id"] and team_rows[r["team_id"]]["handle"] == team.strip()]
    page = paginate(rows, page_size, cursor)
    authors = _users(db, {r["author_id"] for r in page.results})
    return DashboardList(
        dashboards=[
            Dashboard(
                id=r["id"],
                title=r["title"],
                layout_type=r["layout_type"],
                url=r["url"],
                author=person(authors[r["author_id"]]),
                team=team_rows[r["team_id"]]["handle"] if r["team_id"] else None,
                modified=r["modified"],
            )
            for r in page.results
        ],
        next_cursor=page.next_cursor,
    )
