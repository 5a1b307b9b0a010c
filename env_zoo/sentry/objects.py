"""Sentry resources as output models: organizations, projects, teams and members, issues with their status details,
activity and events, releases with their deploys, and issue alert rules."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Actor(BaseModel):
    """A user or team as an assignee or owner."""

    type: str = Field(description="user or team")
    id: str
    name: str
    email: str | None = None
    slug: str | None = None


class Organization(BaseModel):
    """An organization the signed-in user belongs to, with their role there."""

    id: str
    slug: str
    name: str
    role: str = Field(description="owner, manager, admin, member or billing")
    members_can_write_alerts: bool


class Signed(BaseModel):
    """Who is now signed in and their organizations."""

    id: str
    email: str
    name: str
    organizations: list[Organization]


class Project(BaseModel):
    """A project."""

    id: str
    slug: str
    name: str
    platform: str
    team: str = Field(description="slug of the team that owns it")
    unresolved_issues: int


class Member(BaseModel):
    """A member of the organization."""

    user_id: str
    email: str
    name: str
    role: str
    teams: list[str] = Field(description="slugs of their teams")


class Team(BaseModel):
    """A team with its members and projects."""

    id: str
    slug: str
    name: str
    members: list[str] = Field(description="members' emails")
    projects: list[str] = Field(description="project slugs")


class StatusDetails(BaseModel):
    """How an issue was resolved or archived."""

    in_release: str | None = None
    in_next_release: bool | None = None
    ignore_duration: int | None = Field(default=None, description="minutes it stays archived")
    ignore_until: str | None = Field(default=None, description="when an archive for a duration ends")
    ignore_count: int | None = None
    ignore_user_count: int | None = None


class Issue(BaseModel):
    """An issue (a group of similar events)."""

    id: str
    short_id: str
    title: str
    culprit: str
    level: str = Field(description="fatal, error, warning or info")
    status: str = Field(description="unresolved, resolved or ignored")
    substatus: str | None = Field(
        description="new, ongoing, regressed, escalating, archived_until_escalating, archived_until_condition_met or "
        "archived_forever; null when resolved"
    )
    status_details: StatusDetails
    priority: str = Field(description="high, medium or low")
    assigned_to: Actor | None
    project: str = Field(description="project slug")
    first_seen: str
    last_seen: str
    count: int = Field(description="events in the issue")
    user_count: int = Field(description="distinct users affected")
    first_release: str | None
    last_release: str | None
    permalink: str


class IssueList(BaseModel):
    """One page of issues."""

    issues: list[Issue]
    next_cursor: str | None


class Activity(BaseModel):
    """An entry of an issue's activity: a comment or a change."""

    id: str
    type: str
    user: str | None = Field(description="email of who did it; null for Sentry itself")
    data: dict[str, str | int | bool | None]
    date_created: str


class IssueDetail(Issue):
    """An issue with its environments and activity, newest first."""

    environments: list[str]
    activity: list[Activity]


class Event(BaseModel):
    """One event of an issue."""

    event_id: str
    issue_id: str
    issue_short_id: str
    project: str
    date_created: str
    environment: str
    release: str | None
    message: str
    user_email: str | None
    tags: dict[str, str]


class EventList(BaseModel):
    """One page of events, newest first."""

    events: list[Event]
    next_cursor: str | None


class Deploy(BaseModel):
    """A deploy of a release to an environment."""

    id: str
    environment: str
    name: str | None
    url: str | None
    date_started: str | None
    date_finished: str


class Release(BaseModel):
    """A release."""

    version: str
    ref: str | None
    projects: list[str] = Field(description="project slugs")
    date_created: str
    date_released: str | None
    new_groups: int = Field(description="issues first seen in this release")
    last_deploy: Deploy | None


class ReleaseDetail(Release):
    """A release with every deploy, newest first."""

    deploys: list[Deploy]
    created: bool = Field(description="false when the version already existed (projects were added to it)")


class ReleaseList(BaseModel):
    """One page of releases, newest first."""

    releases: list[Release]
    next_cursor: str | None


class AlertAction(BaseModel):
    """Who an alert rule notifies."""

    target_type: str = Field(description="IssueOwners, Team, Member or Slack")
    target: str | None = Field(description="team slug, member email or Slack channel; null for IssueOwners")


class AlertRule(BaseModel):
    """An issue alert rule of a project."""

    id: int
    project: str
    name: str
    conditions: list[str]
    action_match: str
    filter_match: str
    min_level: str | None
    actions: list[AlertAction]
    frequency: int = Field(description="minutes before the rule fires again for the same issue")
    environment: str | None
    owner: str | None = Field(description="owning team slug")
    status: str = Field(description="active or disabled")
    created_by: str | None
    date_created: str
