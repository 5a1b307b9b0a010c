"""Datadog resources as output models (Monitor, Downtime, Incident and its timeline, SLO with its error budget,
Dashboard, User, Team) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .rules import downtime_status, error_budget_remaining


class Person(BaseModel):
    """A user as other objects name them."""

    handle: str
    name: str


class User(BaseModel):
    """A user of the organization."""

    id: str
    handle: str
    name: str
    role: str = Field(description="Datadog Admin Role, Datadog Standard Role or Datadog Read Only Role")
    status: str = Field(description="Active, Pending or Disabled")
    teams: list[str] = Field(description="handles of the teams they belong to")


class UserList(BaseModel):
    """Users matching the filter."""

    users: list[User]
    next_cursor: str | None


class TeamMember(BaseModel):
    """A member of a team and their role in it."""

    handle: str
    name: str
    role: str = Field(description="admin (leads the team) or member")


class Team(BaseModel):
    """A team and its members, leads first."""

    id: str
    handle: str
    name: str
    members: list[TeamMember]


class Thresholds(BaseModel):
    """A monitor's thresholds: for service checks, counts of consecutive failing checks."""

    critical: float | None
    warning: float | None


class MonitorOptions(BaseModel):
    """A monitor's options."""

    thresholds: Thresholds
    silenced: dict[str, str | None] = Field(
        description="muted scopes ('*' for the whole monitor) -> when the mute ends, null for indefinitely"
    )


class Monitor(BaseModel):
    """A monitor."""

    id: int
    name: str
    type: str = Field(description="metric alert, service check or log alert")
    query: str
    message: str
    tags: list[str]
    priority: int | None
    options: MonitorOptions
    overall_state: str = Field(description="OK, Alert, Warn or No Data")
    creator: Person
    created: str
    modified: str


class MonitorList(BaseModel):
    """One page of monitors."""

    monitors: list[Monitor]
    next_cursor: str | None


class MonitorIdentifier(BaseModel):
    """Which monitors a downtime silences: one monitor id, or every monitor carrying all the tags."""

    monitor_id: int | None
    monitor_tags: list[str] | None


class Schedule(BaseModel):
    """When a downtime applies: one window, or a recurrence (RRULE) each lasting `duration`."""

    start: str
    end: str | None
    rrule: str | None
    duration: str | None


class Downtime(BaseModel):
    """A downtime (v2)."""

    id: str
    scope: str
    monitor_identifier: MonitorIdentifier
    schedule: Schedule
    message: str
    status: str = Field(description="active, scheduled, ended or canceled")
    canceled: str | None
    created: str


class DowntimeList(BaseModel):
    """Downtimes."""

    downtimes: list[Downtime]
    next_cursor: str | None


class TimelineEntry(BaseModel):
    """One entry of an incident's timeline."""

    id: str
    kind: str = Field(description="note, state_change, severity_change, commander_change or impact_change")
    content: str
    author: Person
    created: str


class Incident(BaseModel):
    """An incident (v2)."""

    id: str
    public_id: int
    title: str
    severity: str = Field(description="SEV-1 (most severe) to SEV-5, or UNKNOWN")
    state: str = Field(description="active, stable or resolved")
    commander: Person | None
    customer_impacted: bool
    customer_impact_scope: str | None
    customer_impact_start: str | None
    customer_impact_end: str | None
    created: str
    resolved: str | None


class IncidentDetail(Incident):
    """An incident with its timeline, oldest first."""

    timeline: list[TimelineEntry]


class IncidentList(BaseModel):
    """One page of incidents."""

    incidents: list[Incident]
    next_cursor: str | None


class SloThreshold(BaseModel):
    """An SLO's target over its timeframe."""

    timeframe: str = Field(description="7d, 30d or 90d")
    target: float
    warning: float | None


class Slo(BaseModel):
    """A service level objective with its current status over its timeframe."""

    id: str
    name: str
    type: str = Field(description="metric or monitor")
    description: str
    query: dict[str, str] | None = Field(description="numerator and denominator of a metric SLO")
    monitor_ids: list[int]
    tags: list[str]
    thresholds: list[SloThreshold]
    sli_value: float | None = Field(description="measured SLI over the timeframe, percent")
    error_budget_remaining: float | None = Field(description="percent of the error budget left; negative: breached")
    status: str = Field(description="OK, Warning, Breached or No Data")
    creator: Person
    created: str
    modified: str


class SloList(BaseModel):
    """One page of SLOs."""

    slos: list[Slo]
    next_cursor: str | None


class Dashboard(BaseModel):
    """A dashboard as the list shows it."""

    id: str
    title: str
    layout_type: str
    url: str
    author: Person
    team: str | None = Field(description="the owning team's handle")
    modified: str


class DashboardList(BaseModel):
    """Dashboards."""

    dashboards: list[Dashboard]
    next_cursor: str | None


class Signed(BaseModel):
    """The signed-in user."""

    user: User


def person(row: dict[str, Any]) -> Person:
    """A user row as a Person."""
    return Person(handle=row["handle"], name=row["name"])


def monitor_object(row: dict[str, Any], creator: dict[str, Any]) -> Monitor:
    """A monitor row as the API returns it."""
    return Monitor(
        id=row["id"],
        name=row["name"],
        type=row["type"],
        query=row["query"],
        message=row["message"],
        tags=row["tags"],
        priority=row["priority"],
        options=MonitorOptions(
            thresholds=Thresholds(critical=row["critical"], warning=row["warning"]), silenced=row["silenced"]
        ),
        overall_state=row["overall_state"],
        creator=person(creator),
        created=row["created"],
        modified=row["modified"],
    )


def downtime_object(row: dict[str, Any], now: str) -> Downtime:
    """A downtime row with its status at `now`."""
    return Downtime(
        id=row["id"],
        scope=row["scope"],
        monitor_identifier=MonitorIdentifier(
            monitor_id=row["monitor_id"], monitor_tags=None if row["monitor_id"] is not None else row["monitor_tags"]
        ),
        schedule=Schedule(start=row["start"], end=row["end"], rrule=row["rrule"], duration=row["duration"]),
        message=row["message"],
        status=downtime_status(row, now),
        canceled=row["canceled_at"],
        created=row["created"],
    )


def incident_fields(row: dict[str, Any], commander: dict[str, Any] | None) -> dict[str, Any]:
    """An incident row's output fields."""
    return {
        "id": row["id"],
        "public_id": row["public_id"],
        "title": row["title"],
        "severity": row["severity"],
        "state": row["state"],
        "commander": person(commander) if commander else None,
        "customer_impacted": row["customer_impacted"],
        "customer_impact_scope": row["customer_impact_scope"],
        "customer_impact_start": row["customer_impact_start"],
        "customer_impact_end": row["customer_impact_end"],
        "created": row["created"],
        "resolved": row["resolved"],
    }


def slo_object(row: dict[str, Any], creator: dict[str, Any]) -> Slo:
    """An SLO row with its error budget and status."""
    budget = error_budget_remaining(row["sli_value"], row["target"])
    if row["sli_value"] is None:
        status = "No Data"
    elif row["sli_value"] < row["target"]:
        status = "Breached"
    elif row["warning"] is not None and row["sli_value"] < row["warning"]:
        status = "Warning"
    else:
        status = "OK"
    return Slo(
        id=row["id"],
        name=row["name"],
        type=row["type"],
        description=row["description"],
        query={"numerator": row["numerator"], "denominator": row["denominator"]} if row["type"] == "metric" else None,
        monitor_ids=row["monitor_ids"],
        tags=row["tags"],
        thresholds=[SloThreshold(timeframe=row["timeframe"], target=row["target"], warning=row["warning"])],
        sli_value=row["sli_value"],
        error_budget_remaining=budget,
        status=status,
        creator=person(creator),
        created=row["created"],
        modified=row["modified"],
    )
