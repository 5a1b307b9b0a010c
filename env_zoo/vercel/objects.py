"""Vercel resources as output models: teams and members, projects, deployments, aliases, domains, DNS records and
environment variables (sensitive values are never returned)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Membership(BaseModel):
    """A team the signed-in user belongs to."""

    id: str
    slug: str
    name: str
    plan: str = Field(description="hobby, pro or enterprise")
    role: str = Field(description="the user's role: OWNER, MEMBER, DEVELOPER, BILLING or VIEWER")
    default: bool = Field(description="calls without a team act on this one")


class Signed(BaseModel):
    """The signed-in user and their teams."""

    uid: str
    email: str
    username: str
    name: str
    teams: list[Membership]


class TeamList(BaseModel):
    """The user's teams."""

    teams: list[Membership]


class Member(BaseModel):
    """A member of a team."""

    uid: str
    email: str
    username: str
    name: str
    role: str
    joined_at: str


class MemberList(BaseModel):
    """A team's members."""

    team: str
    members: list[Member]
    next_cursor: str | None


class Project(BaseModel):
    """A project and what serves its production traffic."""

    id: str
    name: str
    team: str
    framework: str | None
    production_branch: str
    production_deployment: str | None = Field(description="id of the deployment serving production")
    rolled_back: bool = Field(description="true after an instant rollback until a deployment is promoted again")
    domains: list[str] = Field(default_factory=list)
    created_at: str


class ProjectList(BaseModel):
    """Projects of a team."""

    projects: list[Project]
    next_cursor: str | None


class Deployment(BaseModel):
    """A deployment of a project."""

    id: str
    url: str
    project: str
    target: str | None = Field(description="production, or null for a preview")
    ready_state: str = Field(description="QUEUED, BUILDING, READY, ERROR or CANCELED")
    git_branch: str
    commit_sha: str
    commit_message: str
    creator: str = Field(description="username of who deployed it")
    error_message: str | None
    is_current_production: bool
    aliases: list[str] = Field(default_factory=list)
    created_at: str


class DeploymentList(BaseModel):
    """Deployments, newest first."""

    deployments: list[Deployment]
    next_cursor: str | None


class Alias(BaseModel):
    """A hostname pointing at a deployment."""

    uid: str
    alias: str
    deployment_id: str
    deployment_url: str
    project: str
    created_at: str


class AliasList(BaseModel):
    """Aliases, by hostname."""

    aliases: list[Alias]


class Verification(BaseModel):
    """What must exist in DNS for Vercel to verify a domain."""

    type: str
    domain: str
    value: str
    reason: str


class ProjectDomain(BaseModel):
    """A domain attached to a project."""

    name: str
    apex_name: str
    project_id: str
    redirect: str | None
    git_branch: str | None
    verified: bool
    verification: list[Verification]


class ProjectDomainList(BaseModel):
    """A project's domains."""

    domains: list[ProjectDomain]


class DnsRecord(BaseModel):
    """A DNS record of a domain on Vercel DNS."""

    id: str
    domain: str
    name: str
    type: str
    value: str
    mx_priority: int | None
    ttl: int
    creator: str
    created_at: str


class DnsRecordList(BaseModel):
    """A domain's records."""

    records: list[DnsRecord]
    next_cursor: str | None


class EnvVar(BaseModel):
    """An environment variable of a project; the value of a sensitive one is never returned."""

    id: str
    key: str
    value: str | None
    type: str = Field(description="plain, encrypted or sensitive")
    target: list[str]
    git_branch: str | None
    comment: str | None
    updated_at: str


class EnvVarList(BaseModel):
    """A project's environment variables."""

    envs: list[EnvVar]


class Deleted(BaseModel):
    """What was removed."""

    id: str
    removed: bool


def env_object(row: dict[str, Any]) -> EnvVar:
    """A stored variable as the API shows it."""
    return EnvVar(
        id=row["id"],
        key=row["key"],
        value=None if row["type"] == "sensitive" else row["value"],
        type=row["type"],
        target=sorted(row["target"]),
        git_branch=row["git_branch"],
        comment=row["comment"],
        updated_at=row["updated_at"],
    )
