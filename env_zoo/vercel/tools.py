"""Vercel REST API tools as a signed-in team member uses them: teams and member roles, projects, deployments
(create, cancel, promote, instant rollback), aliases, project domains and their verification, DNS records and
environment variables. Every call acts on one team: the `team` slug given, else the member's default team."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import NonBlankText, bounded, text

from .access import env_writer, me, require, team_of
from .errors import bad_request, conflict, forbidden, missing, not_found
from .lookups import (
    deployment_of,
    env_of,
    point_alias,
    production_candidate,
    project_of,
    switch_production,
    team_domain,
)
from .objects import (
    Alias,
    AliasList,
    Deleted,
    Deployment,
    DeploymentList,
    DnsRecord,
    DnsRecordList,
    EnvVar,
    EnvVarList,
    Member,
    MemberList,
    Project,
    ProjectDomain,
    ProjectDomainList,
    ProjectList,
    Signed,
    TeamList,
    env_object,
)
from .rules import CANCELABLE, apex, check_record_value, check_targets, opaque, overlaps, verification_value
from .schema import (
    aliases,
    deployments,
    dns_records,
    domains,
    env_vars,
    project_domains,
    projects,
    sessions,
    team_members,
    users,
)
from .views import deployment_view, deployment_views, domain_view, memberships, project_view, record_view

Limit = bounded(1, 100)
TeamSlug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=48, description="the team's slug")]
Role = Literal["OWNER", "MEMBER", "DEVELOPER", "BILLING", "VIEWER"]
ReadyState = Literal["QUEUED", "BUILDING", "READY", "ERROR", "CANCELED"]
TargetName = Literal["production", "preview", "development"]
Targets = Annotated[list[TargetName], Field(min_length=1, max_length=3), Unordered]
EnvType = Literal["plain", "encrypted", "sensitive"]
EnvKey = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=256)]
EnvValue = Annotated[str, Field(max_length=65536)]
Hostname = Annotated[
    str,
    Field(
        pattern=r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$",
        max_length=253,
        description="e.g. shop.example.com",
    ),
]
RecordName = Annotated[
    str, Field(pattern=r"^$|^[a-z0-9_*]([a-z0-9_.-]*[a-z0-9])?$", max_length=253, description='subdomain; "" for apex')
]
RecordType = Literal["A", "AAAA", "CNAME", "TXT", "MX", "CAA"]
Ttl = bounded(60, 2147483647)
Branch = Annotated[str, Field(pattern=r"^[A-Za-z0-9._/-]+$", max_length=250)]
DeploymentRef = Annotated[str, Field(min_length=3, description="a deployment id (dpl_...) or its url")]


# ---------------------------------------------------------------- lookups and views


# ---------------------------------------------------------------- sign-in and teams


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Signed:
    """(User only) The person signs in to Vercel; the assistant then acts with their role on each team.

    Args:
        email: Their Vercel account email.
    """
    rows = db.select(users, "lower(email) = ?", [email.strip().lower()])
    if not rows:
        raise not_found("User", email.strip())
    user = rows[0]
    db.start_session(sessions, user_id=user["id"])
    return Signed(
        uid=user["id"], email=user["email"], username=user["username"], name=user["name"], teams=memberships(db, user)
    )


@tool(read_only=True)
def list_teams(db: Database) -> TeamList:
    """List the teams the signed-in user belongs to, with their role and plan on each (GET /v2/teams)."""
    return TeamList(teams=memberships(db, me(db)))


@tool(read_only=True)
def list_team_members(
    db: Database,
    team: TeamSlug | None = None,
    role: Role | None = None,
    search: str | None = None,
    limit: Limit = 20,
    cursor: str | None = None,
) -> MemberList:
    """List a team's members (GET /v2/teams/{teamId}/members), by name.

    Args:
        team: The team's slug; the user's default team when left out.
        role: Keeps members with this role.
        search: Keeps members whose name, username or email contains this text.
        limit: Members per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    _, found, _ = team_of(db, team)
    out = []
    for m in db.find(team_members, team_id=found["id"], **({"role": role} if role else {})):
        u = db.get(users, m["user_id"])
        hay = f"{u['name']} {u['username']} {u['email']}".lower()
        if search and search.strip().lower() not in hay:
            continue
        out.append(
            Member(
                uid=u["id"],
                email=u["email"],
                username=u["username"],
                name=u["name"],
                role=m["role"],
                joined_at=m["joined_at"],
            )
        )
    out.sort(key=lambda x: (x.name, x.uid))
    page = paginate(out, limit, cursor)
    return MemberList(team=found["slug"], members=page.results, next_cursor=page.next_cursor)


@tool()
def update_team_member(db: Database, email: NonBlankText, role: Role, team: TeamSlug | None = None) -> Member:
    """Change a member's role on a team (PATCH /v1/teams/{teamId}/members/{uid}); owners only, and a team keeps
    at least one owner.

    Args:
        email: The member's email.
        role: Their new role: OWNER, MEMBER, DEVELOPER, BILLING or VIEWER.
        team: The team's slug; the user's default team when left out.
    """
    _, found, my_role = team_of(db, team)
    require(my_role, "OWNER", "change member roles")
    rows = db.select(users, "lower(email) = ?", [email.strip().lower()])
    member = db.find(team_members, team_id=found["id"], user_id=rows[0]["id"]) if rows else []
    if not member:
        raise not_found("Team member", email.strip())
    if member[0]["role"] == "OWNER" and role != "OWNER":
        owners = db.find(team_members, team_id=found["id"], role="OWNER")
        if len(owners) == 1:
            raise bad_request("last_owner", "A team must have at least one owner: make someone else OWNER first.")
    db.update(team_members, member[0]["id"], role=role)
    u = rows[0]
    return Member(
        uid=u["id"],
        email=u["email"],
        username=u["username"],
        name=u["name"],
        role=role,
        joined_at=member[0]["joined_at"],
    )


# ---------------------------------------------------------------- projects and deployments


@tool(read_only=True)
def list_projects(
    db: Database, team: TeamSlug | None = None, search: str | None = None, limit: Limit = 20, cursor: str | None = None
) -> ProjectList:
    """List a team's projects (GET /v10/projects), by name.

    Args:
        team: The team's slug; the user's default team when left out.
        search: Keeps projects whose name contains this text.
        limit: Projects per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    _, found, _ = team_of(db, team)
    if search:
        rows = db.select(
            projects, "team_id = ? AND name LIKE ?", [found["id"], f"%{search.strip().lower()}%"], order_by="name"
        )
    else:
        rows = db.select(projects, "team_id = ?", [found["id"]], order_by="name")
    page = paginate(rows, limit, cursor)
    return ProjectList(projects=[project_view(db, r) for r in page.results], next_cursor=page.next_cursor)


@tool(read_only=True)
def get_project(db: Database, project: NonBlankText, team: TeamSlug | None = None) -> Project:
    """Find a project by id or name (GET /v9/projects/{idOrName}): its production deployment and domains.

    Args:
        project: The project's id (prj_...) or name.
        team: The team's slug; the user's default team when left out.
    """
    _, found, _ = team_of(db, team)
    return project_view(db, project_of(db, found, project))


@tool(read_only=True)
def list_deployments(
    db: Database,
    project: NonBlankText,
    team: TeamSlug | None = None,
    target: Literal["production", "preview"] | None = None,
    state: ReadyState | None = None,
    branch: Branch | None = None,
    limit: Limit = 20,
    cursor: str | None = None,
) -> DeploymentList:
    """List a project's deployments, newest first (GET /v6/deployments).

    Args:
        project: The project's id or name.
        team: The team's slug; the user's default team when left out.
        target: production or preview.
        state: Keeps deployments in this readyState.
        branch: Keeps deployments of this git branch.
        limit: Deployments per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    _, found, _ = team_of(db, team)
    prj = project_of(db, found, project)
    where, params = ["project_id = ?"], [prj["id"]]
    if target == "production":
        where.append("target = 'production'")
    elif target == "preview":
        where.append("target IS NULL")
    if state:
        where.append("ready_state = ?")
        params.append(state)
    if branch:
        where.append("git_branch = ?")
        params.append(branch)
    rows = db.select(deployments, " AND ".join(where), params, order_by="created_at DESC")
    page = paginate(rows, limit, cursor)
    return DeploymentList(deployments=deployment_views(db, page.results, prj), next_cursor=page.next_cursor)


@tool(read_only=True)
def get_deployment(db: Database, deployment: DeploymentRef, team: TeamSlug | None = None) -> Deployment:
    """Get a deployment by id or url (GET /v13/deployments/{idOrUrl}).

    Args:
        deployment: The deployment's id (dpl_...) or url.
        team: The team's slug; the user's default team when left out.
    """
    row, prj, _ = deployment_of(db, deployment, team)
    return deployment_view(db, row, prj)


@tool()
def create_deployment(
    db: Database,
    project: NonBlankText,
    git_branch: Branch,
    target: Literal["production", "preview"] = "preview",
    team: TeamSlug | None = None,
) -> Deployment:
    """Deploy the head of a git branch (POST /v13/deployments); it starts QUEUED. Production deployments need the
    MEMBER role or higher.

    Args:
        project: The project's id or name.
        git_branch: The branch to build.
        target: production or preview (default).
        team: The team's slug; the user's default team when left out.
    """
    user, found, role = team_of(db, team)
    require(role, "MEMBER" if target == "production" else "DEVELOPER", f"create {target} deployments")
    prj = project_of(db, found, project)
    n = db.next_number("deployments", deployments)
    dpl_id = "dpl_" + opaque(f"dpl:{prj['id']}:{n}", 28)
    suffix = opaque(f"url:{dpl_id}", 9).lower()
    heads = db.select(
        deployments, "project_id = ? AND git_branch = ?", [prj["id"], git_branch], order_by="created_at DESC", limit=1
    )
    sha = heads[0]["commit_sha"] if heads else opaque(f"sha:{prj['id']}:{git_branch}", 40).lower()
    message = heads[0]["commit_message"] if heads else f"Merge branch '{git_branch}'"
    row = db.insert(
        deployments,
        id=dpl_id,
        project_id=prj["id"],
        url=f"{prj['name']}-{suffix}-{found['slug']}.vercel.app",
        target="production" if target == "production" else None,
        ready_state="QUEUED",
        git_branch=git_branch,
        commit_sha=sha,
        commit_message=message,
        creator_id=user["id"],
        error_message=None,
        created_at=db.now_iso(),
        canceled_at=None,
    )
    return deployment_view(db, row, prj)


@tool()
def cancel_deployment(db: Database, deployment: DeploymentRef, team: TeamSlug | None = None) -> Deployment:
    """Cancel a deployment that is still QUEUED or BUILDING (PATCH /v12/deployments/{id}/cancel).

    Args:
        deployment: The deployment's id or url.
        team: The team's slug; the user's default team when left out.
    """
    row, prj, role = deployment_of(db, deployment, team)
    require(role, "MEMBER" if row["target"] == "production" else "DEVELOPER", "cancel this deployment")
    if row["ready_state"] not in CANCELABLE:
        raise bad_request(
            "deployment_not_cancelable",
            f"Deployment {row['id']} is {row['ready_state']} and can no longer be canceled.",
        )
    row = db.update(deployments, row["id"], ready_state="CANCELED", canceled_at=db.now_iso())
    return deployment_view(db, row, prj)


@tool()
def promote_deployment(
    db: Database, project: NonBlankText, deployment: DeploymentRef, team: TeamSlug | None = None
) -> Deployment:
    """Promote a READY production deployment to serve production
    (POST /v10/projects/{projectId}/promote/{deploymentId}):
    the project's production domains point at it and a rolled-back project resumes normal assignment.

    Args:
        project: The project's id or name.
        deployment: The deployment's id or url.
        team: The team's slug; the user's default team when left out.
    """
    row, prj, _ = production_candidate(db, deployment, project, team, "promote deployments")
    return switch_production(db, prj, row, rolled_back=False)


@tool()
def rollback_deployment(
    db: Database, project: NonBlankText, deployment: DeploymentRef, team: TeamSlug | None = None
) -> Deployment:
    """Instant rollback of production to an earlier READY production deployment
    (POST /v9/projects/{projectId}/rollback/{deploymentId}). Hobby teams may only go back to the previous one.

    Args:
        project: The project's id or name.
        deployment: The deployment's id or url.
        team: The team's slug; the user's default team when left out.
    """
    row, prj, plan = production_candidate(db, deployment, project, team, "roll back production")
    if plan == "hobby":
        current = db.get(deployments, prj["production_deployment_id"]) if prj["production_deployment_id"] else None
        earlier = db.select(
            deployments,
            "project_id = ? AND target = 'production' AND ready_state = 'READY' AND created_at < ?",
            [prj["id"], current["created_at"] if current else "9999"],
            order_by="created_at DESC",
            limit=1,
        )
        if not earlier or earlier[0]["id"] != row["id"]:
            raise forbidden(
                "On the hobby plan you can only roll back to the previous production deployment. "
                "Upgrade to Pro to roll back further."
            )
    return switch_production(db, prj, row, rolled_back=True)


# ---------------------------------------------------------------- aliases


@tool(read_only=True)
def list_aliases(
    db: Database,
    project: NonBlankText | None = None,
    deployment: DeploymentRef | None = None,
    team: TeamSlug | None = None,
) -> AliasList:
    """List aliases of a project or of one deployment (GET /v4/aliases, GET /v2/deployments/{id}/aliases).

    Args:
        project: The project's id or name.
        deployment: The deployment's id or url (instead of a project).
        team: The team's slug; the user's default team when left out.
    """
    if deployment is not None:
        row, prj, _ = deployment_of(db, deployment, team)
        rows = db.select(aliases, "deployment_id = ?", [row["id"]], order_by="alias")
    elif project is not None:
        _, found, _ = team_of(db, team)
        prj = project_of(db, found, project)
        rows = db.select(aliases, "project_id = ?", [prj["id"]], order_by="alias")
    else:
        raise bad_request("bad_request", "Give a project or a deployment.")
    out = []
    for a in rows:
        d = db.get(deployments, a["deployment_id"])
        out.append(
            Alias(
                uid=a["uid"],
                alias=a["alias"],
                deployment_id=d["id"],
                deployment_url=d["url"],
                project=prj["name"],
                created_at=a["created_at"],
            )
        )
    return AliasList(aliases=out)


@tool()
def assign_alias(db: Database, deployment: DeploymentRef, alias: Hostname, team: TeamSlug | None = None) -> Alias:
    """Point a hostname at a READY deployment (POST /v2/deployments/{id}/aliases); an existing alias of the team
    moves. Custom hostnames must be under a domain the team owns.

    Args:
        deployment: The deployment's id or url.
        alias: The hostname, e.g. qa.example.com or my-app-qa.vercel.app.
        team: The team's slug; the user's default team when left out.
    """
    row, prj, role = deployment_of(db, deployment, team)
    require(role, "MEMBER", "assign aliases")
    if row["ready_state"] != "READY":
        raise bad_request(
            "deployment_not_ready", f"Deployment {row['id']} is {row['ready_state']} and cannot be aliased."
        )
    existing = db.find(aliases, alias=alias)
    if existing and db.get(projects, existing[0]["project_id"])["team_id"] != prj["team_id"]:
        raise conflict("alias_in_use", f"The alias {alias} is already in use by another team.")
    if not alias.endswith(".vercel.app"):
        owned = db.find(domains, name=apex(alias))
        if not owned or owned[0]["team_id"] != prj["team_id"]:
            raise forbidden(f"You don't have access to the domain {apex(alias)}.")
    point_alias(db, prj, alias, row["id"])
    a = db.get(aliases, alias)
    return Alias(
        uid=a["uid"],
        alias=alias,
        deployment_id=row["id"],
        deployment_url=row["url"],
        project=prj["name"],
        created_at=a["created_at"],
    )


# ---------------------------------------------------------------- domains and DNS


@tool(read_only=True)
def list_project_domains(db: Database, project: NonBlankText, team: TeamSlug | None = None) -> ProjectDomainList:
    """List a project's domains with their verification state (GET /v9/projects/{idOrName}/domains).

    Args:
        project: The project's id or name.
        team: The team's slug; the user's default team when left out.
    """
    _, found, _ = team_of(db, team)
    prj = project_of(db, found, project)
    return ProjectDomainList(
        domains=[domain_view(r) for r in db.select(project_domains, "project_id = ?", [prj["id"]], order_by="name")]
    )


@tool()
def add_project_domain(
    db: Database,
    project: NonBlankText,
    name: Hostname,
    redirect: Hostname | None = None,
    git_branch: Branch | None = None,
    team: TeamSlug | None = None,
) -> ProjectDomain:
    """Add a domain to a project (POST /v10/projects/{idOrName}/domains). A domain whose apex another team owns
    comes back unverified with the TXT challenge to satisfy; a verified production domain starts serving the
    current production deployment.

    Args:
        project: The project's id or name.
        name: The hostname to add.
        redirect: Another domain of this project to redirect to.
        git_branch: Serve this branch's latest preview instead of production.
        team: The team's slug; the user's default team when left out.
    """
    _, found, role = team_of(db, team)
    require(role, "MEMBER", "add domains")
    prj = project_of(db, found, project)
    taken = db.find(project_domains, name=name)
    if taken and taken[0]["project_id"] == prj["id"]:
        raise bad_request("domain_already_exists", f"The domain {name} is already assigned to this project.")
    if taken:
        raise conflict("domain_already_in_use", f"Cannot add {name} since it's already in use by another project.")
    if redirect is not None and not db.find(project_domains, project_id=prj["id"], name=redirect):
        raise bad_request("invalid_redirect", f"The redirect target {redirect} is not a domain of this project.")
    owner = db.find(domains, name=apex(name))
    verified = not owner or owner[0]["team_id"] == found["id"]
    row = db.insert(
        project_domains,
        id=db.next_number("project_domains", project_domains),
        project_id=prj["id"],
        name=name,
        apex_name=apex(name),
        redirect=redirect,
        git_branch=git_branch,
        verified=verified,
        verification_value=None if verified else verification_value(prj["id"], name),
        created_at=db.now_iso(),
    )
    if verified and redirect is None and git_branch is None and prj["production_deployment_id"]:
        point_alias(db, prj, name, prj["production_deployment_id"])
    return domain_view(row)


@tool()
def verify_project_domain(
    db: Database, project: NonBlankText, domain: Hostname, team: TeamSlug | None = None
) -> ProjectDomain:
    """Check an unverified project domain's TXT challenge (POST /v9/projects/{idOrName}/domains/{domain}/verify).

    Args:
        project: The project's id or name.
        domain: The domain to verify.
        team: The team's slug; the user's default team when left out.
    """
    _, found, role = team_of(db, team)
    require(role, "MEMBER", "verify domains")
    prj = project_of(db, found, project)
    row = db.find_one(project_domains, project_id=prj["id"], name=domain, not_found=missing("Project domain", domain))
    if row["verified"]:
        return domain_view(row)
    txt = db.find(dns_records, domain=row["apex_name"], name="_vercel", type="TXT", value=row["verification_value"])
    if not txt:
        raise bad_request(
            "missing_txt_record",
            f"Domain {domain} was not verified: no TXT record _vercel.{row['apex_name']} "
            f"with value {row['verification_value']}.",
        )
    row = db.update(project_domains, row["id"], verified=True, verification_value=None)
    if row["redirect"] is None and row["git_branch"] is None and prj["production_deployment_id"]:
        point_alias(db, prj, domain, prj["production_deployment_id"])
    return domain_view(row)


@tool(read_only=True)
def list_dns_records(
    db: Database, domain: Hostname, team: TeamSlug | None = None, limit: Limit = 20, cursor: str | None = None
) -> DnsRecordList:
    """List the DNS records of a domain the team owns (GET /v4/domains/{domain}/records).

    Args:
        domain: The apex domain.
        team: The team's slug; the user's default team when left out.
        limit: Records per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    _, found, _ = team_of(db, team)
    team_domain(db, found, domain)
    rows = db.select(dns_records, "domain = ?", [domain], order_by="name, type")
    page = paginate(rows, limit, cursor)
    return DnsRecordList(records=[record_view(db, r) for r in page.results], next_cursor=page.next_cursor)


@tool()
def create_dns_record(
    db: Database,
    domain: Hostname,
    name: RecordName,
    type: RecordType,
    value: text(2048),
    ttl: Ttl = 60,
    mx_priority: bounded(0, 65535) | None = None,
    team: TeamSlug | None = None,
) -> DnsRecord:
    """Create a DNS record on a domain using Vercel DNS (POST /v2/domains/{domain}/records). A CNAME cannot share
    its name with any other record.

    Args:
        domain: The apex domain.
        name: The subdomain ("" for the apex, "_vercel" for verification).
        type: A, AAAA, CNAME, TXT, MX or CAA.
        value: The record's value.
        ttl: Seconds, 60 or more (default 60).
        mx_priority: Only for MX records.
        team: The team's slug; the user's default team when left out.
    """
    user, found, role = team_of(db, team)
    require(role, "MEMBER", "manage DNS records")
    dom = team_domain(db, found, domain)
    if dom["service_type"] != "zeit.world":
        raise bad_request("not_using_vercel_dns", f"The domain {dom['name']} does not use Vercel's nameservers.")
    check_record_value(type, value.strip(), mx_priority)
    same = db.find(dns_records, domain=dom["name"], name=name)
    if same and (type == "CNAME" or any(r["type"] == "CNAME" for r in same)):
        raise bad_request(
            "cname_conflict", f"A CNAME record cannot coexist with other records at {name or '@'}.{dom['name']}."
        )
    n = db.next_number("dns_records", dns_records)
    row = db.insert(
        dns_records,
        id="rec_" + opaque(f"rec:{dom['name']}:{n}", 24),
        domain=dom["name"],
        name=name,
        type=type,
        value=value.strip(),
        mx_priority=mx_priority,
        ttl=ttl,
        creator_id=user["id"],
        created_at=db.now_iso(),
    )
    return record_view(db, row)


# ---------------------------------------------------------------- environment variables


@tool(read_only=True)
def list_env_vars(
    db: Database, project: NonBlankText, target: TargetName | None = None, team: TeamSlug | None = None
) -> EnvVarList:
    """List a project's environment variables, decrypted where allowed (GET /v10/projects/{idOrName}/env);
    sensitive values are never shown.

    Args:
        project: The project's id or name.
        target: Keeps variables for this environment.
        team: The team's slug; the user's default team when left out.
    """
    _, found, _ = team_of(db, team)
    prj = project_of(db, found, project)
    rows = db.select(env_vars, "project_id = ?", [prj["id"]], order_by="key")
    return EnvVarList(envs=[env_object(r) for r in rows if target is None or target in r["target"]])


@tool()
def create_env_var(
    db: Database,
    project: NonBlankText,
    key: EnvKey,
    value: EnvValue,
    target: Targets,
    type: EnvType = "encrypted",
    git_branch: Branch | None = None,
    comment: text(500) | None = None,
    team: TeamSlug | None = None,
) -> EnvVar:
    """Create an environment variable (POST /v10/projects/{idOrName}/env). It applies from the next deployment.

    Args:
        project: The project's id or name.
        key: The variable's name.
        value: Its value.
        target: Environments: production, preview, development.
        type: plain, encrypted (default) or sensitive (unreadable once saved; not for development).
        git_branch: Limit a preview-only variable to this branch.
        comment: A note for teammates.
        team: The team's slug; the user's default team when left out.
    """
    _, found, role = team_of(db, team)
    targets = sorted(set(target))
    env_writer(role, targets)
    prj = project_of(db, found, project)
    check_targets(type, targets, git_branch)
    for r in db.select(env_vars, "project_id = ? AND key = ?", [prj["id"], key]):
        if overlaps(r, key, targets, git_branch):
            clash = sorted(set(r["target"]) & set(targets))[0]
            raise bad_request(
                "ENV_CONFLICT",
                f"A variable with the name `{key}` already exists for the target {clash} "
                f"on branch {git_branch or 'undefined'}",
            )
    n = db.next_number("env_vars", env_vars)
    now = db.now_iso()
    row = db.insert(
        env_vars,
        id=opaque(f"env:{prj['id']}:{n}", 16),
        project_id=prj["id"],
        key=key,
        value=value,
        type=type,
        target=targets,
        git_branch=git_branch,
        comment=comment,
        created_at=now,
        updated_at=now,
    )
    return env_object(row)


@tool()
def update_env_var(
    db: Database,
    project: NonBlankText,
    env_id: NonBlankText,
    value: EnvValue | None = None,
    target: Targets | None = None,
    type: EnvType | None = None,
    git_branch: Branch | None = None,
    comment: text(500) | None = None,
    team: TeamSlug | None = None,
) -> EnvVar:
    """Edit an environment variable (PATCH /v9/projects/{idOrName}/env/{id}); a sensitive variable stays
    sensitive.

    Args:
        project: The project's id or name.
        env_id: The variable's id.
        value: Its new value.
        target: Its new environments.
        type: plain, encrypted or sensitive.
        git_branch: Limit a preview-only variable to this branch.
        comment: A note for teammates.
        team: The team's slug; the user's default team when left out.
    """
    _, found, role = team_of(db, team)
    prj = project_of(db, found, project)
    row = env_of(db, prj, env_id)
    targets = sorted(set(target)) if target is not None else row["target"]
    env_writer(role, sorted(set(row["target"]) | set(targets)))
    kind = type or row["type"]
    if row["type"] == "sensitive" and kind != "sensitive":
        raise bad_request("invalid_type", "A sensitive environment variable cannot be changed to another type.")
    branch = git_branch if git_branch is not None else row["git_branch"]
    check_targets(kind, targets, branch)
    for r in db.select(env_vars, "project_id = ? AND key = ?", [prj["id"], row["key"]]):
        if r["id"] != row["id"] and overlaps(r, row["key"], targets, branch):
            clash = sorted(set(r["target"]) & set(targets))[0]
            raise bad_request(
                "ENV_CONFLICT",
                f"A variable with the name `{row['key']}` already exists for the target {clash} "
                f"on branch {branch or 'undefined'}",
            )
    changes: dict[str, Any] = {"target": targets, "type": kind, "git_branch": branch, "updated_at": db.now_iso()}
    if value is not None:
        changes["value"] = value
    if comment is not None:
        changes["comment"] = comment
    return env_object(db.update(env_vars, row["id"], **changes))


@tool()
def delete_env_var(db: Database, project: NonBlankText, env_id: NonBlankText, team: TeamSlug | None = None) -> Deleted:
    """Remove an environment variable (DELETE /v9/projects/{idOrName}/env/{id}).

    Args:
        project: The project's id or name.
        env_id: The variable's id.
        team: The team's slug; the user's default team when left out.
    """
    _, found, role = team_of(db, team)
    prj = project_of(db, found, project)
    row = env_of(db, prj, env_id)
    env_writer(role, row["target"])
    db.delete(env_vars, row["id"])
    return Deleted(id=row["id"], removed=True)
