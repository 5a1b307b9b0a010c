"""PagerDuty's API objects as output models, and how stored rows become them (references carry a summary)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import Table

from envfactory_gym import Database
from envfactory_gym.values import iso_timestamp

from .clock import effective_end
from .schema import (
    alerts,
    escalation_policies,
    escalation_rules,
    integrations,
    log_entries,
    priorities,
    schedule_layers,
    schedules,
    services,
    team_members,
    teams,
    users,
)


class Ref(BaseModel):
    """A reference to another object, as PagerDuty embeds them."""

    id: str
    type: str
    summary: str


class UserObject(BaseModel):
    """A user of the account with their base role and teams."""

    id: str
    name: str
    email: str
    role: str = Field(
        description="owner, admin, user (Manager), limited_user (Responder), restricted_access, "
        "observer or read_only_user (Stakeholder)"
    )
    job_title: str | None
    time_zone: str
    teams: list[Ref]


class TeamMember(BaseModel):
    """A member of a team and their team role."""

    user: Ref
    role: str = Field(description="manager, responder or observer")


class TeamObject(BaseModel):
    """A team and its members."""

    id: str
    name: str
    description: str | None
    members: list[TeamMember]


class PriorityObject(BaseModel):
    """An incident priority of the account."""

    id: str
    name: str
    description: str
    order: int


class EscalationRuleObject(BaseModel):
    """One level of an escalation policy."""

    id: str
    escalation_delay_in_minutes: int
    targets: list[Ref]


class EscalationPolicyObject(BaseModel):
    """An escalation policy: its ordered rules, the services using it and its teams."""

    id: str
    name: str
    description: str | None
    num_loops: int
    on_call_handoff_notifications: str
    escalation_rules: list[EscalationRuleObject]
    services: list[Ref]
    teams: list[Ref]


class ScheduleSummary(BaseModel):
    """A schedule as listed: who rotates on it and which escalation policies use it."""

    id: str
    name: str
    description: str | None
    time_zone: str
    users: list[Ref]
    escalation_policies: list[Ref]
    teams: list[Ref]


class LayerObject(BaseModel):
    """A schedule layer: a rotation of users, maybe restricted to certain hours."""

    id: str
    name: str
    start: str
    end: str | None
    rotation_virtual_start: str
    rotation_turn_length_seconds: int
    users: list[Ref]
    restrictions: list[dict[str, Any]]


class OverrideObject(BaseModel):
    """A schedule override: someone else on call for a while."""

    id: str
    user: Ref
    start: str
    end: str


class ScheduleEntry(BaseModel):
    """A stretch of the final schedule."""

    user: Ref
    start: str
    end: str


class FinalSchedule(BaseModel):
    """The schedule as rendered between since and until, overrides included."""

    rendered_coverage_percentage: float
    rendered_schedule_entries: list[ScheduleEntry]


class ScheduleObject(BaseModel):
    """A schedule with its layers, overrides and final schedule in the requested range."""

    id: str
    name: str
    description: str | None
    time_zone: str
    schedule_layers: list[LayerObject]
    overrides: list[OverrideObject]
    final_schedule: FinalSchedule


class OncallObject(BaseModel):
    """Someone on call for an escalation policy level, through a schedule or directly (start/end null)."""

    escalation_policy: Ref
    escalation_level: int
    schedule: Ref | None
    user: Ref
    start: str | None
    end: str | None


class IntegrationObject(BaseModel):
    """How monitoring tools send events to a service."""

    id: str
    name: str
    type: str
    integration_key: str = Field(description="the routing_key for the Events API")


class ServiceObject(BaseModel):
    """A service: what it escalates to, how urgent its incidents are, and its current status."""

    id: str
    name: str
    description: str | None
    status: str = Field(description="active, warning, critical, maintenance or disabled")
    escalation_policy: Ref
    teams: list[Ref]
    acknowledgement_timeout: int | None
    auto_resolve_timeout: int | None
    incident_urgency_rule: dict[str, Any]
    support_hours: dict[str, Any] | None
    integrations: list[IntegrationObject]


class IncidentSummary(BaseModel):
    """An incident as listed."""

    id: str
    incident_number: int
    title: str
    status: str
    urgency: str
    priority: Ref | None
    service: Ref
    assignments: list[Ref]
    incident_key: str | None
    created_at: str


class AlertCounts(BaseModel):
    """How many alerts an incident holds."""

    all: int
    triggered: int
    resolved: int


class IncidentObject(IncidentSummary):
    """An incident in full."""

    body: str | None
    escalation_policy: Ref
    escalation_level: int
    acknowledgements: list[Ref]
    resolve_reason: dict[str, Any] | None
    last_status_change_at: str
    last_status_change_by: Ref | None
    alert_counts: AlertCounts


class LogEntryObject(BaseModel):
    """Something that happened to an incident."""

    id: str
    type: str
    summary: str
    created_at: str
    agent: Ref | None
    channel: dict[str, str]


class NoteObject(BaseModel):
    """A note on an incident."""

    id: str
    user: Ref
    content: str
    created_at: str


class MaintenanceWindowObject(BaseModel):
    """A maintenance window: no new incidents on its services while it runs."""

    id: str
    sequence_number: int
    description: str | None
    start_time: str
    end_time: str
    services: list[Ref]
    created_by: Ref


class EventResult(BaseModel):
    """The Events API's answer."""

    status: str
    message: str
    dedup_key: str


class OverrideRemoval(BaseModel):
    """What removing an override did: deleted (future) or truncated to now (running)."""

    result: Literal["deleted", "truncated"]
    override: OverrideObject


class MaintenanceWindowRemoval(BaseModel):
    """What deleting a maintenance window did: deleted (future) or ended now (running)."""

    result: Literal["deleted", "ended"]
    maintenance_window: MaintenanceWindowObject


# ---------------------------------------------------------------- references

_KINDS: dict[str, tuple[Table, str]] = {
    "user_reference": (users, "name"),
    "team_reference": (teams, "name"),
    "service_reference": (services, "name"),
    "schedule_reference": (schedules, "name"),
    "escalation_policy_reference": (escalation_policies, "name"),
    "priority_reference": (priorities, "name"),
}


def ref(db: Database, kind: str, key: str) -> Ref:
    """A `<kind>_reference` to the row `key`, summarised by its name."""
    table, column = _KINDS[kind]
    return Ref(id=key, type=kind, summary=db.get(table, key)[column])


def refs(db: Database, kind: str, keys: list[str]) -> list[Ref]:
    """References to several rows."""
    return [ref(db, kind, key) for key in keys]


def user_teams(db: Database, user_id: str) -> list[str]:
    """Ids of the teams a user belongs to."""
    return [m["team_id"] for m in db.find(team_members, user_id=user_id)]


# ---------------------------------------------------------------- conversions


def user_object(db: Database, row: dict[str, Any]) -> UserObject:
    """A user with their teams."""
    return UserObject(
        **{k: row[k] for k in ("id", "name", "email", "role", "job_title", "time_zone")},
        teams=refs(db, "team_reference", user_teams(db, row["id"])),
    )


def service_object(db: Database, row: dict[str, Any], status: str) -> ServiceObject:
    """A service with its integrations; `status` is derived by the caller."""
    return ServiceObject(
        **{
            k: row[k]
            for k in (
                "id",
                "name",
                "description",
                "acknowledgement_timeout",
                "auto_resolve_timeout",
                "incident_urgency_rule",
                "support_hours",
            )
        },
        status=status,
        escalation_policy=ref(db, "escalation_policy_reference", row["escalation_policy_id"]),
        teams=refs(db, "team_reference", row["teams"]),
        integrations=[
            IntegrationObject(**{k: i[k] for k in ("id", "name", "type", "integration_key")})
            for i in db.find(integrations, service_id=row["id"])
        ],
    )


def incident_summary(db: Database, row: dict[str, Any]) -> IncidentSummary:
    """An incident as listed."""
    return IncidentSummary(
        **{k: row[k] for k in ("id", "incident_number", "title", "status", "urgency", "incident_key", "created_at")},
        priority=ref(db, "priority_reference", row["priority_id"]) if row["priority_id"] else None,
        service=ref(db, "service_reference", row["service_id"]),
        assignments=refs(db, "user_reference", row["assignments"]),
    )


def incident_object(db: Database, row: dict[str, Any]) -> IncidentObject:
    """An incident in full, with its alert counts."""
    changed_by = row["last_status_change_by"]
    alert_rows = db.find(alerts, incident_id=row["id"])
    triggered = sum(1 for a in alert_rows if a["status"] == "triggered")
    return IncidentObject(
        **incident_summary(db, row).model_dump(),
        body=row["body"],
        escalation_policy=ref(db, "escalation_policy_reference", row["escalation_policy_id"]),
        escalation_level=row["escalation_level"],
        acknowledgements=[ref(db, a["type"], a["id"]) for a in row["acknowledgements"]],
        resolve_reason=row["resolve_reason"],
        last_status_change_at=row["last_status_change_at"],
        last_status_change_by=ref(db, changed_by["type"], changed_by["id"]) if changed_by else None,
        alert_counts=AlertCounts(all=len(alert_rows), triggered=triggered, resolved=len(alert_rows) - triggered),
    )


def maintenance_window_object(db: Database, row: dict[str, Any]) -> MaintenanceWindowObject:
    """A maintenance window, ending when it really ends (earlier if it was ended early)."""
    return MaintenanceWindowObject(
        **{k: row[k] for k in ("id", "sequence_number", "description", "start_time")},
        end_time=iso_timestamp(effective_end(row)),
        services=refs(db, "service_reference", row["service_ids"]),
        created_by=ref(db, "user_reference", row["created_by_user_id"]),
    )


def override_object(db: Database, row: dict[str, Any]) -> OverrideObject:
    """A schedule override, ending when it really ends (earlier if it was cut short)."""
    return OverrideObject(
        id=row["id"],
        user=ref(db, "user_reference", row["user_id"]),
        start=row["start"],
        end=iso_timestamp(effective_end(row)),
    )


def note_object(db: Database, row: dict[str, Any]) -> NoteObject:
    """A note on an incident."""
    return NoteObject(
        id=row["id"],
        user=ref(db, "user_reference", row["user_id"]),
        content=row["content"],
        created_at=row["created_at"],
    )


def team_object(db: Database, row: dict[str, Any]) -> TeamObject:
    """A team with its members, managers first."""
    return TeamObject(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        members=[
            TeamMember(user=ref(db, "user_reference", m["user_id"]), role=m["role"])
            for m in db.find(team_members, team_id=row["id"], order_by=[team_members.c.role])
        ],
    )


def escalation_policy_object(db: Database, row: dict[str, Any], rules: list[dict[str, Any]]) -> EscalationPolicyObject:
    """An escalation policy with its ordered `rules`, the services using it and its teams."""
    return EscalationPolicyObject(
        **{k: row[k] for k in ("id", "name", "description", "num_loops", "on_call_handoff_notifications")},
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
            [s["id"] for s in db.find(services, escalation_policy_id=row["id"], order_by=[services.c.name])],
        ),
        teams=refs(db, "team_reference", row["teams"]),
    )


def schedule_summary(db: Database, row: dict[str, Any]) -> ScheduleSummary:
    """A schedule as listed: the users of its layers in order of appearance and the policies that use it."""
    layers = db.find(schedule_layers, schedule_id=row["id"], order_by=[schedule_layers.c.position])
    target = {"id": row["id"], "type": "schedule_reference"}
    policies = {r["escalation_policy_id"] for r in db.find(escalation_rules) if target in r["targets"]}
    return ScheduleSummary(
        **{k: row[k] for k in ("id", "name", "description", "time_zone")},
        users=refs(db, "user_reference", list(dict.fromkeys(u for layer in layers for u in layer["users"]))),
        escalation_policies=sorted(refs(db, "escalation_policy_reference", list(policies)), key=lambda r: r.summary),
        teams=refs(db, "team_reference", row["teams"]),
    )


def layer_object(db: Database, row: dict[str, Any]) -> LayerObject:
    """A schedule layer with its users in rotation order."""
    return LayerObject(
        **{k: row[k] for k in ("id", "name", "start", "end", "rotation_virtual_start", "rotation_turn_length_seconds")},
        restrictions=row["restrictions"],
        users=refs(db, "user_reference", row["users"]),
    )


def log_entry_objects(db: Database, incident_id: str) -> list[LogEntryObject]:
    """An incident's log entries, newest first."""
    return [
        LogEntryObject(
            id=r["id"],
            type=r["type"],
            summary=r["summary"],
            created_at=r["created_at"],
            channel=r["channel"],
            agent=ref(db, r["agent"]["type"], r["agent"]["id"]) if r["agent"] else None,
        )
        for r in db.find(log_entries, incident_id=incident_id, order_by=[log_entries.c.created_at.desc()])
    ]


def ref_incident(row: dict[str, Any]) -> dict[str, Any]:
    """How a merge resolve reason points at the surviving incident."""
    return {
        "type": "merge_resolve_reason",
        "incident": {
            "id": row["id"],
            "type": "incident_reference",
            "summary": f"[#{row['incident_number']}] {row['title']}",
        },
    }
