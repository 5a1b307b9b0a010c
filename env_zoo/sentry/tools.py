"""Sentry web API tools (organizations, projects, teams, members, issues and events, releases and deploys, issue
alert rules) as a signed-in member sees them, plus the person's own sign-in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import IsoTimestamp, NonBlankText, bounded, text
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import alert_writer, issue_writer, membership, project_by_slug, signed_in, team_ids_of
from .errors import detail_error, field_error, not_found
from .objects import (
    Activity,
    Actor,
    AlertAction,
    AlertRule,
    Deploy,
    Event,
    EventList,
    Issue,
    IssueDetail,
    IssueList,
    Member,
    Organization,
    Project,
    Release,
    ReleaseDetail,
    ReleaseList,
    Signed,
    StatusDetails,
    Team,
)
from .rules import check_release_version, nothing_to_change, resolution, same_rule, settle_next_release
from .schema import (
    activities,
    alert_rules,
    deploys,
    events,
    issues,
    members,
    organizations,
    projects,
    releases,
    sessions,
    team_members,
    teams,
    users,
)

PageSize = bounded(1, 100)
OrgSlug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=50, description="organization slug")]
ProjectSlug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=50, description="project slug")]
TeamSlug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=50, description="team slug, without #")]
IssueRef = Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9-]*-[A-Z0-9]+$", description="short id, e.g. CHECKOUT-API-3F")]
EventId = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$", description="32-character hex event id")]
Version = Annotated[
    str, Field(pattern=r"^[^\s/\\]{1,200}$", description="release version, e.g. checkout-api@2.14.0 (no spaces or /)")
]
EnvName = Annotated[str, Field(pattern=r"^[^\s/]{1,64}$", description="environment name, e.g. production")]
Level = Literal["fatal", "error", "warning", "info"]
Priority = Literal["high", "medium", "low"]
Condition = Literal[
    "first_seen_event", "regression_event", "reappeared_event", "high_priority_issue", "existing_high_priority_issue"
]
Minutes = bounded(5, 43200)
LEVEL_RANK = {"info": 0, "warning": 1, "error": 2, "fatal": 3}


class AlertTarget(BaseModel):
    """Who an alert notifies: the issue's owners, a team (slug), a member (email) or a Slack channel (#name)."""

    target_type: Literal["IssueOwners", "Team", "Member", "Slack"]
    target: str | None = Field(default=None, max_length=100, description="team slug, member email or #channel")


# ---------------------------------------------------------------- shared lookups


def _org_out(db: Database, org: dict[str, Any], role: str) -> Organization:
    return Organization(
        id=org["id"], slug=org["slug"], name=org["name"], role=role, members_can_write_alerts=org["alerts_member_write"]
    )


def _project_slugs(db: Database, org_id: str) -> dict[str, str]:
    return {p["id"]: p["slug"] for p in db.find(projects, organization_id=org_id)}


def _actor(db: Database, ref: str | None) -> Actor | None:
    if not ref:
        return None
    kind, key = ref.split(":", 1)
    if kind == "team":
        team = db.get(teams, key)
        return Actor(type="team", id=team["id"], name=team["name"], slug=team["slug"])
    user = db.get(users, key)
    return Actor(type="user", id=user["id"], name=user["name"], email=user["email"])


def _issue(db: Database, org: dict[str, Any], ref: str) -> dict[str, Any]:
    found = db.find(issues, short_id=ref)
    if not found or db.get(projects, found[0]["project_id"])["organization_id"] != org["id"]:
        raise not_found(f"issue {ref}")
    return found[0]


def _issue_fields(db: Database, org: dict[str, Any], row: dict[str, Any], slug: str) -> dict[str, Any]:
    return dict(
        id=row["id"],
        short_id=row["short_id"],
        title=row["title"],
        culprit=row["culprit"],
        level=row["level"],
        status=row["status"],
        substatus=row["substatus"],
        status_details=StatusDetails(**row["status_details"]),
        priority=row["priority"],
        assigned_to=_actor(db, row["assigned_to"]),
        project=slug,
        first_seen=row["first_seen"],
        last_seen=row["last_seen"],
        count=row["count"],
        user_count=row["user_count"],
        first_release=row["first_release"],
        last_release=row["last_release"],
        permalink=f"https://{org['slug']}.sentry.io/issues/{row['id']}/",
    )


def _detail(db: Database, org: dict[str, Any], row: dict[str, Any]) -> IssueDetail:
    slug = db.get(projects, row["project_id"])["slug"]
    feed = db.select(activities, "issue_id = ?", [row["id"]], order_by="date_created DESC, rowid DESC")
    emails = {u["id"]: u["email"] for u in db.find(users)} if feed else {}
    return IssueDetail(
        **_issue_fields(db, org, row, slug),
        environments=row["environments"],
        activity=[
            Activity(
                id=a["id"],
                type=a["type"],
                user=emails.get(a["user_id"]) if a["user_id"] else None,
                data=a["data"],
                date_created=a["date_created"],
            )
            for a in feed
        ],
    )


def _log(db: Database, issue_id: str, user_id: str | None, kind: str, data: dict[str, Any]) -> None:
    db.insert(
        activities,
        id=str(db.next_number("activity", None) + 7_000_000),
        issue_id=issue_id,
        type=kind,
        user_id=user_id,
        data=data,
        date_created=db.now_iso(),
    )


# ---------------------------------------------------------------- sign-in, organizations, people


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Signed:
    """(User only) The person signs in to Sentry; the assistant then acts as them in their organizations.

    Args:
        email: Their Sentry account email.
    """
    found = db.select(users, "lower(email) = ?", [email.strip().lower()])
    if not found:
        raise detail_error("Invalid email or password.")
    user = found[0]
    db.start_session(sessions, user_id=user["id"])
    return Signed(id=user["id"], email=user["email"], name=user["name"], organizations=_my_orgs(db, user["id"]))


def _my_orgs(db: Database, user_id: str) -> list[Organization]:
    out = [(db.get(organizations, m["organization_id"]), m["role"]) for m in db.find(members, user_id=user_id)]
    return [_org_out(db, org, role) for org, role in sorted(out, key=lambda p: p[0]["slug"])]


@tool(read_only=True)
def list_organizations(db: Database) -> list[Organization]:
    """List the organizations the signed-in user belongs to, with their role in each (GET /api/0/organizations/)."""
    return _my_orgs(db, signed_in(db)["id"])


@tool(read_only=True)
def list_projects(db: Database, organization_slug: OrgSlug, query: str | None = None) -> list[Project]:
    """List an organization's projects with their owning team and unresolved issue count
    (GET /api/0/organizations/{organization_slug}/projects/).

    Args:
        organization_slug: The organization's slug.
        query: Keeps projects whose slug or name contains this text.
    """
    org, _, _ = membership(db, organization_slug)
    out = []
    for p in db.find(projects, organization_id=org["id"], order_by=[projects.c.slug]):
        if query and query.strip().lower() not in (p["slug"] + " " + p["name"]).lower():
            continue
        open_count = len(db.select(issues, "project_id = ? AND status = 'unresolved'", [p["id"]]))
        team = db.get(teams, p["team_id"])["slug"]
        out.append(
            Project(
                id=p["id"],
                slug=p["slug"],
                name=p["name"],
                platform=p["platform"],
                team=team,
                unresolved_issues=open_count,
            )
        )
    return out


@tool(read_only=True)
def list_teams(db: Database, organization_slug: OrgSlug) -> list[Team]:
    """List an organization's teams with their members and projects
    (GET /api/0/organizations/{organization_slug}/teams/).

    Args:
        organization_slug: The organization's slug.
    """
    org, _, _ = membership(db, organization_slug)
    emails = {u["id"]: u["email"] for u in db.find(users)}
    out = []
    for t in db.find(teams, organization_id=org["id"], order_by=[teams.c.slug]):
        people = sorted(emails[m["user_id"]] for m in db.find(team_members, team_id=t["id"]))
        owned = [p["slug"] for p in db.find(projects, team_id=t["id"], order_by=[projects.c.slug])]
        out.append(Team(id=t["id"], slug=t["slug"], name=t["name"], members=people, projects=owned))
    return out


@tool(read_only=True)
def list_members(db: Database, organization_slug: OrgSlug, query: str | None = None) -> list[Member]:
    """List an organization's members with their roles and teams
    (GET /api/0/organizations/{organization_slug}/members/).

    Args:
        organization_slug: The organization's slug.
        query: Keeps members whose name or email contains this text.
    """
    org, _, _ = membership(db, organization_slug)
    slugs = {t["id"]: t["slug"] for t in db.find(teams, organization_id=org["id"])}
    out = []
    for m in db.find(members, organization_id=org["id"]):
        user = db.get(users, m["user_id"])
        if query and query.strip().lower() not in (user["name"] + " " + user["email"]).lower():
            continue
        mine = sorted(slugs[t] for t in team_ids_of(db, user["id"]) if t in slugs)
        out.append(Member(user_id=user["id"], email=user["email"], name=user["name"], role=m["role"], teams=mine))
    return sorted(out, key=lambda m: (m.name, m.email))


# ---------------------------------------------------------------- issues


@tool(read_only=True)
def list_issues(
    db: Database,
    organization_slug: OrgSlug,
    project_slug: ProjectSlug | None = None,
    query: str | None = None,
    status: Literal["unresolved", "resolved", "ignored", "all"] = "unresolved",
    assigned: Annotated[str, Field(description="'me', 'none', a member's email or #team-slug")] | None = None,
    level: Level | None = None,
    environment: EnvName | None = None,
    release: Version | None = None,
    sort: Literal["date", "new", "freq", "user"] = "date",
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> IssueList:
    """Search an organization's issues (GET /api/0/organizations/{organization_slug}/issues/). Like Sentry's default
    search it shows unresolved issues unless another status is asked for.

    Args:
        organization_slug: The organization's slug.
        project_slug: Keeps one project's issues.
        query: Keeps issues whose title or culprit contains this text (case-insensitive).
        status: unresolved (default), resolved, ignored, or all.
        assigned: 'me', 'none' (unassigned), a member's email, or #team-slug.
        level: Keeps issues of this level.
        environment: Keeps issues seen in this environment.
        release: Keeps issues first seen in this release version.
        sort: date (last seen, default), new (first seen), freq (events) or user (users affected); newest or
            largest first.
        page_size: Issues per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    org, _, user = membership(db, organization_slug)
    slugs = _project_slugs(db, org["id"])
    ids = list(slugs)
    if project_slug is not None:
        ids = [project_by_slug(db, org, project_slug)["id"]]
    where = [f"project_id IN ({', '.join('?' * len(ids))})"]
    params: list[Any] = list(ids)
    if status != "all":
        where.append("status = ?")
        params.append(status)
    if query:
        where.append("(lower(title) LIKE ? OR lower(culprit) LIKE ?)")
        params += [f"%{query.strip().lower()}%"] * 2
    if level is not None:
        where.append("level = ?")
        params.append(level)
    if release is not None:
        where.append("first_release = ?")
        params.append(release)
    if assigned is not None:
        where.append(*_assigned_clause(db, org, user, assigned.strip(), params))
    order = {"date": "last_seen DESC", "new": "first_seen DESC", "freq": "count DESC", "user": "user_count DESC"}[sort]
    rows = db.select(issues, " AND ".join(where), params, order_by=order)
    if environment is not None:
        rows = [r for r in rows if environment in r["environments"]]
    page = paginate(rows, page_size, cursor)
    return IssueList(
        issues=[Issue(**_issue_fields(db, org, r, slugs[r["project_id"]])) for r in page.results],
        next_cursor=page.next_cursor,
    )


def _assigned_clause(db: Database, org: dict[str, Any], me: dict[str, Any], who: str, params: list[Any]) -> list[str]:
    if who == "none":
        return ["assigned_to IS NULL"]
    if who == "me":
        params.append(f"user:{me['id']}")
        return ["assigned_to = ?"]
    if who.startswith("#"):
        team = db.find(teams, organization_id=org["id"], slug=who[1:])
        if not team:
            raise field_error("assigned", f"Unknown team {who}")
        params.append(f"team:{team[0]['id']}")
        return ["assigned_to = ?"]
    person = _member_by_email(db, org, who, "assigned")
    params.append(f"user:{person['id']}")
    return ["assigned_to = ?"]


def _member_by_email(db: Database, org: dict[str, Any], email: str, field: str) -> dict[str, Any]:
    found = db.select(users, "lower(email) = ?", [email.strip().lower()])
    if not found or not db.find(members, organization_id=org["id"], user_id=found[0]["id"]):
        raise field_error(field, f"{email.strip()} is not a member of {org['slug']}")
    return found[0]


@tool(read_only=True)
def get_issue(db: Database, organization_slug: OrgSlug, issue_id: IssueRef) -> IssueDetail:
    """Get one issue with its status details, environments and activity (comments and changes), newest first
    (GET /api/0/organizations/{organization_slug}/issues/{issue_id}/).

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
    """
    org, _, _ = membership(db, organization_slug)
    return _detail(db, org, _issue(db, org, issue_id))


@tool()
def update_issue(
    db: Database,
    organization_slug: OrgSlug,
    issue_id: IssueRef,
    status: Literal["resolved", "resolvedInNextRelease", "unresolved", "ignored"] | None = None,
    in_release: Version | None = None,
    ignore_duration: Annotated[int, Field(ge=1, le=525600, description="minutes")] | None = None,
    ignore_count: Annotated[int, Field(ge=1, le=1000000)] | None = None,
    ignore_user_count: Annotated[int, Field(ge=1, le=1000000)] | None = None,
    archive_forever: bool = False,
    priority: Priority | None = None,
) -> IssueDetail:
    """Change an issue's status or priority (PUT /api/0/organizations/{organization_slug}/issues/{issue_id}/).
    `resolved` may name the release that fixes it (`in_release`, a release of the issue's project);
    `resolvedInNextRelease` resolves it in whatever release of its project comes next (the project needs a release
    already). `ignored` (archived) lasts until the issue escalates unless given a duration, an event count or a user
    count after which it comes back, or `archive_forever`. `unresolved` reopens it.

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
        status: resolved, resolvedInNextRelease, unresolved or ignored.
        in_release: With resolved: the release version that fixes it.
        ignore_duration: With ignored: minutes until it comes back.
        ignore_count: With ignored: comes back after this many more events.
        ignore_user_count: With ignored: comes back after this many more users are affected.
        archive_forever: With ignored: never comes back on its own.
        priority: high, medium or low.
    """
    org, _, user = issue_writer(db, organization_slug)
    row = _issue(db, org, issue_id)
    if status is None and priority is None:
        if in_release is not None or ignore_duration or ignore_count or ignore_user_count or archive_forever:
            raise field_error("status", "Status details need a status")
        raise nothing_to_change()
    if status is not None:
        changes, kind, data = resolution(
            db,
            row,
            org["id"],
            status,
            in_release,
            ignore_duration,
            ignore_count,
            ignore_user_count,
            archive_forever,
        )
        row = db.update(issues, row["id"], **changes)
        _log(db, row["id"], user["id"], kind, data)
    if priority is not None and priority != row["priority"]:
        _log(db, row["id"], user["id"], "set_priority", {"priority": priority, "previous": row["priority"]})
        row = db.update(issues, row["id"], priority=priority)
    return _detail(db, org, row)


@tool()
def assign_issue(
    db: Database,
    organization_slug: OrgSlug,
    issue_id: IssueRef,
    user_email: NonBlankText | None = None,
    team_slug: TeamSlug | None = None,
    unassign: bool = False,
) -> IssueDetail:
    """Assign an issue to a member or a team, or unassign it (PUT .../issues/{issue_id}/ with assignedTo). A member
    must belong to a team with access to the issue's project; a team must own the project.

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
        user_email: The member to assign.
        team_slug: The team to assign (its slug, without #).
        unassign: Remove the current assignee.
    """
    org, _, user = issue_writer(db, organization_slug)
    row = _issue(db, org, issue_id)
    if sum([user_email is not None, team_slug is not None, unassign]) != 1:
        raise field_error("assignedTo", "Send exactly one of user_email, team_slug or unassign")
    project = db.get(projects, row["project_id"])
    if unassign:
        if row["assigned_to"] is None:
            raise field_error("assignedTo", "The issue is not assigned")
        updated = db.update(issues, row["id"], assigned_to=None)
        _log(db, row["id"], user["id"], "unassigned", {})
        return _detail(db, org, updated)
    if team_slug is not None:
        team = db.find(teams, organization_id=org["id"], slug=team_slug)
        if not team:
            raise field_error("assignedTo", f"Unknown team: {team_slug}")
        if team[0]["id"] != project["team_id"]:
            raise field_error("assignedTo", "Cannot assign to a team without access to the project")
        ref, data = f"team:{team[0]['id']}", {"assignee": team[0]["slug"], "assigneeType": "team"}
    else:
        assert user_email is not None
        person = _member_by_email(db, org, user_email, "assignedTo")
        if project["team_id"] not in team_ids_of(db, person["id"]):
            raise field_error("assignedTo", "Cannot assign to non-team member")
        ref, data = f"user:{person['id']}", {"assignee": person["email"], "assigneeType": "user"}
    updated = db.update(issues, row["id"], assigned_to=ref)
    _log(db, row["id"], user["id"], "assigned", data)
    return _detail(db, org, updated)


@tool()
def add_issue_comment(db: Database, organization_slug: OrgSlug, issue_id: IssueRef, text: text(5000)) -> Activity:
    """Comment on an issue; the comment joins its activity (POST .../issues/{issue_id}/comments/).

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
        text: The comment (Markdown; @-mention people by email).
    """
    org, _, user = issue_writer(db, organization_slug)
    row = _issue(db, org, issue_id)
    _log(db, row["id"], user["id"], "note", {"text": text})
    last = db.select(activities, "issue_id = ?", [row["id"]], order_by="rowid DESC", limit=1)[0]
    return Activity(
        id=last["id"], type="note", user=user["email"], data={"text": text}, date_created=last["date_created"]
    )


def _event_out(row: dict[str, Any], issue: dict[str, Any], slug: str) -> Event:
    return Event(
        event_id=row["id"],
        issue_id=issue["id"],
        issue_short_id=issue["short_id"],
        project=slug,
        date_created=row["date_created"],
        environment=row["environment"],
        release=row["release"],
        message=row["message"],
        user_email=row["user_email"],
        tags=row["tags"],
    )


@tool(read_only=True)
def list_issue_events(
    db: Database,
    organization_slug: OrgSlug,
    issue_id: IssueRef,
    environment: EnvName | None = None,
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> EventList:
    """List an issue's events, newest first, with their release, environment, user and tags
    (GET .../issues/{issue_id}/events/).

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
        environment: Keeps events from this environment.
        page_size: Events per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    org, _, _ = membership(db, organization_slug)
    issue = _issue(db, org, issue_id)
    where, params = "issue_id = ?", [issue["id"]]
    if environment is not None:
        where, params = where + " AND environment = ?", params + [environment]
    rows = db.select(events, where, params, order_by="date_created DESC")
    slug = db.get(projects, issue["project_id"])["slug"]
    page = paginate(rows, page_size, cursor)
    return EventList(events=[_event_out(r, issue, slug) for r in page.results], next_cursor=page.next_cursor)


@tool(read_only=True)
def get_event(db: Database, organization_slug: OrgSlug, project_slug: ProjectSlug, event_id: EventId) -> Event:
    """Get one event of a project (GET /api/0/projects/{organization_slug}/{project_slug}/events/{event_id}/).

    Args:
        organization_slug: The organization's slug.
        project_slug: The project's slug.
        event_id: The event's 32-character hex id.
    """
    org, _, _ = membership(db, organization_slug)
    project = project_by_slug(db, org, project_slug)
    found = db.find(events, id=event_id)
    issue = db.get(issues, found[0]["issue_id"]) if found else None
    if issue is None or issue["project_id"] != project["id"]:
        raise not_found(f"event {event_id}")
    return _event_out(found[0], issue, project["slug"])


# ---------------------------------------------------------------- releases and deploys


def _deploy_out(row: dict[str, Any]) -> Deploy:
    return Deploy(
        id=row["id"],
        environment=row["environment"],
        name=row["name"],
        url=row["url"],
        date_started=row["date_started"],
        date_finished=row["date_finished"],
    )


def _release_fields(db: Database, row: dict[str, Any], slugs: dict[str, str]) -> dict[str, Any]:
    done = db.select(deploys, "release_id = ?", [row["id"]], order_by="date_finished DESC")
    new_groups = len(db.select(issues, "first_release = ?", [row["version"]]))
    return dict(
        version=row["version"],
        ref=row["ref"],
        projects=sorted(slugs[p] for p in row["projects"]),
        date_created=row["date_created"],
        date_released=row["date_released"],
        new_groups=new_groups,
        last_deploy=_deploy_out(done[0]) if done else None,
    )


def _release(db: Database, org: dict[str, Any], version: str) -> dict[str, Any]:
    return db.find_one(
        releases, organization_id=org["id"], version=version, not_found=not_found(f"release {version}").args[0]
    )


def _release_detail(db: Database, org: dict[str, Any], row: dict[str, Any], created: bool) -> ReleaseDetail:
    done = db.select(deploys, "release_id = ?", [row["id"]], order_by="date_finished DESC")
    return ReleaseDetail(
        **_release_fields(db, row, _project_slugs(db, org["id"])),
        deploys=[_deploy_out(d) for d in done],
        created=created,
    )


@tool(read_only=True)
def list_releases(
    db: Database,
    organization_slug: OrgSlug,
    project_slug: ProjectSlug | None = None,
    query: str | None = None,
    page_size: PageSize = 25,
    cursor: str | None = None,
) -> ReleaseList:
    """List an organization's releases, newest first, with their last deploy
    (GET /api/0/organizations/{organization_slug}/releases/).

    Args:
        organization_slug: The organization's slug.
        project_slug: Keeps releases of this project.
        query: Keeps releases whose version starts with this text.
        page_size: Releases per page, 1 to 100.
        cursor: The cursor from the previous page.
    """
    org, _, _ = membership(db, organization_slug)
    where, params = "organization_id = ?", [org["id"]]
    if query:
        where, params = where + " AND version LIKE ?", params + [query.strip() + "%"]
    rows = db.select(releases, where, params, order_by="date_created DESC")
    if project_slug is not None:
        pid = project_by_slug(db, org, project_slug)["id"]
        rows = [r for r in rows if pid in r["projects"]]
    slugs = _project_slugs(db, org["id"])
    page = paginate(rows, page_size, cursor)
    return ReleaseList(
        releases=[Release(**_release_fields(db, r, slugs)) for r in page.results], next_cursor=page.next_cursor
    )


@tool(read_only=True)
def get_release(db: Database, organization_slug: OrgSlug, version: Version) -> ReleaseDetail:
    """Get one release with its projects and every deploy
    (GET /api/0/organizations/{organization_slug}/releases/{version}/).

    Args:
        organization_slug: The organization's slug.
        version: The release version.
    """
    org, _, _ = membership(db, organization_slug)
    return _release_detail(db, org, _release(db, org, version.strip()), created=False)


@tool()
def create_release(
    db: Database,
    organization_slug: OrgSlug,
    version: Version,
    projects: Annotated[list[ProjectSlug], Unordered, Field(min_length=1)],
    ref: Annotated[str, Field(max_length=100)] | None = None,
    date_released: IsoTimestamp | None = None,
) -> ReleaseDetail:
    """Create a release for one or more projects (POST /api/0/organizations/{organization_slug}/releases/). If the
    version exists already, the projects are added to it (created is false). A new release of a project becomes the
    release its issues marked "resolved in next release" are resolved in.

    Args:
        organization_slug: The organization's slug.
        version: The version, unique in the organization, e.g. checkout-api@2.15.0.
        projects: Slugs of the projects it ships.
        ref: The commit or tag it was built from.
        date_released: When it went out (ISO 8601); left out while it is not released yet.
    """
    org, _, _ = issue_writer(db, organization_slug)
    version = check_release_version(version)
    ids = sorted({project_by_slug(db, org, slug)["id"] for slug in projects})
    released = iso_timestamp(parse_timestamp(date_released, "date_released")) if date_released else None
    existing = db.find(releases, organization_id=org["id"], version=version)
    if existing:
        row = existing[0]
        added = [p for p in ids if p not in row["projects"]]
        row = db.update(releases, row["id"], projects=sorted(row["projects"] + added))
        if added:
            settle_next_release(db, added, version)
        return _release_detail(db, org, row, created=False)
    row = db.insert(
        releases,
        id=str(db.next_number("release", None) + 900_000),
        organization_id=org["id"],
        version=version,
        ref=ref,
        projects=ids,
        date_created=db.now_iso(),
        date_released=released,
    )
    settle_next_release(db, ids, version)
    return _release_detail(db, org, row, created=True)


@tool()
def create_deploy(
    db: Database,
    organization_slug: OrgSlug,
    version: Version,
    environment: EnvName,
    name: Annotated[str, Field(max_length=64)] | None = None,
    url: Annotated[str, Field(max_length=200, pattern=r"^https?://")] | None = None,
    date_started: IsoTimestamp | None = None,
    date_finished: IsoTimestamp | None = None,
) -> ReleaseDetail:
    """Record a deploy of a release to an environment (POST .../releases/{version}/deploys/). It finishes now unless
    `date_finished` says otherwise; a start must not come after the finish.

    Args:
        organization_slug: The organization's slug.
        version: The release version deployed.
        environment: Where it was deployed, e.g. production or staging.
        name: A name for the deploy.
        url: A link to the deploy (CI run, dashboard).
        date_started: When it started (ISO 8601).
        date_finished: When it finished (ISO 8601); default now.
    """
    org, _, _ = issue_writer(db, organization_slug)
    release = _release(db, org, version.strip())
    finished = parse_timestamp(date_finished, "date_finished") if date_finished else db.now()
    started = parse_timestamp(date_started, "date_started") if date_started else None
    if started is not None and started > finished:
        raise field_error("dateStarted", "dateStarted must be before dateFinished")
    if finished > db.now():
        raise field_error("dateFinished", "dateFinished cannot be in the future")
    db.insert(
        deploys,
        id=str(db.next_number("deploy", None) + 50_000),
        release_id=release["id"],
        environment=environment,
        name=name,
        url=url,
        date_started=iso_timestamp(started) if started else None,
        date_finished=iso_timestamp(finished),
    )
    if release["date_released"] is None:
        release = db.update(releases, release["id"], date_released=iso_timestamp(finished))
    return _release_detail(db, org, release, created=False)


# ---------------------------------------------------------------- alert rules


def _rule_out(db: Database, row: dict[str, Any], slug: str) -> AlertRule:
    owner = db.get(teams, row["owner"].split(":", 1)[1])["slug"] if row["owner"] else None
    creator = db.get(users, row["created_by"])["email"] if row["created_by"] else None
    return AlertRule(
        id=row["id"],
        project=slug,
        name=row["name"],
        conditions=row["conditions"],
        action_match=row["action_match"],
        filter_match=row["filter_match"],
        min_level=row["filters"][0]["level"] if row["filters"] else None,
        actions=[AlertAction(**a) for a in row["actions"]],
        frequency=row["frequency"],
        environment=row["environment"],
        owner=owner,
        status=row["status"],
        created_by=creator,
        date_created=row["date_created"],
    )


def _rule(db: Database, project: dict[str, Any], rule_id: int) -> dict[str, Any]:
    return db.find_one(
        alert_rules, id=rule_id, project_id=project["id"], not_found=not_found(f"alert rule {rule_id}").args[0]
    )


def _actions(db: Database, org: dict[str, Any], targets: list[AlertTarget]) -> list[dict[str, Any]]:
    if not targets:
        raise field_error("actions", "You must add an action for this alert to fire.")
    out = []
    for a in targets:
        target = a.target.strip() if a.target else None
        if a.target_type == "IssueOwners":
            if target:
                raise field_error("actions", "IssueOwners takes no target")
        elif target is None:
            raise field_error("actions", f"{a.target_type} needs a target")
        elif a.target_type == "Team":
            if not db.find(teams, organization_id=org["id"], slug=target.lstrip("#")):
                raise field_error("actions", f"Unknown team: {target}")
            target = target.lstrip("#")
        elif a.target_type == "Member":
            target = _member_by_email(db, org, target, "actions")["email"]
        elif not target.startswith("#"):
            target = "#" + target
        entry = {"target_type": a.target_type, "target": target}
        if entry not in out:
            out.append(entry)
    return out


def _owner(db: Database, org: dict[str, Any], slug: str) -> str:
    team = db.find(teams, organization_id=org["id"], slug=slug)
    if not team:
        raise field_error("owner", f"Unknown team: {slug}")
    return f"team:{team[0]['id']}"


def _no_duplicate(db: Database, candidate: dict[str, Any]) -> None:
    for other in db.find(alert_rules, project_id=candidate["project_id"]):
        if other["id"] != candidate.get("id") and same_rule(other, candidate):
            raise field_error(
                "name", f"This rule is an exact duplicate of '{other['name']}' in this project and may not be created."
            )


@tool(read_only=True)
def list_alert_rules(db: Database, organization_slug: OrgSlug, project_slug: ProjectSlug) -> list[AlertRule]:
    """List a project's issue alert rules (GET /api/0/projects/{organization_slug}/{project_slug}/rules/).

    Args:
        organization_slug: The organization's slug.
        project_slug: The project's slug.
    """
    org, _, _ = membership(db, organization_slug)
    project = project_by_slug(db, org, project_slug)
    return [_rule_out(db, r, project["slug"]) for r in db.find(alert_rules, project_id=project["id"])]


@tool()
def create_alert_rule(
    db: Database,
    organization_slug: OrgSlug,
    project_slug: ProjectSlug,
    name: text(256),
    conditions: Annotated[list[Condition], Unordered, Field(min_length=1)],
    actions: Annotated[list[AlertTarget], Unordered],
    action_match: Literal["all", "any"] = "any",
    filter_match: Literal["all", "any", "none"] = "all",
    min_level: Level | None = None,
    frequency: Minutes = 30,
    environment: EnvName | None = None,
    owner_team: TeamSlug | None = None,
) -> AlertRule:
    """Create an issue alert rule for a project (POST /api/0/projects/{organization_slug}/{project_slug}/rules/).
    Triggers: first_seen_event (a new issue is created), regression_event (a resolved issue comes back),
    reappeared_event (an archived issue comes back), high_priority_issue (Sentry marks a new issue high priority),
    existing_high_priority_issue (an existing issue becomes high priority). Owners, managers and admins can always
    write alerts; members only where the organization allows it. A rule that exactly repeats another of the project's
    rules is refused.

    Args:
        organization_slug: The organization's slug.
        project_slug: The project's slug.
        name: The rule's name.
        conditions: Triggers (at least one).
        actions: Who is notified (at least one).
        action_match: any (default) or all of the triggers must fire.
        filter_match: How filters combine: all (default), any or none.
        min_level: Filter: only events at this level or above.
        frequency: Minutes before it fires again for the same issue, 5 to 43200 (30 days); default 30.
        environment: Only events from this environment; left out, every environment.
        owner_team: The team that owns the rule (slug).
    """
    org, _, user = alert_writer(db, organization_slug)
    project = project_by_slug(db, org, project_slug)
    row = {
        "project_id": project["id"],
        "name": name.strip(),
        "conditions": sorted(set(conditions)),
        "filters": [{"level": min_level, "match": "gte"}] if min_level else [],
        "action_match": action_match,
        "filter_match": filter_match,
        "actions": _actions(db, org, actions),
        "frequency": frequency,
        "environment": environment,
        "owner": _owner(db, org, owner_team) if owner_team else None,
    }
    _no_duplicate(db, row)
    last = db.select(alert_rules, "", [], order_by="id DESC", limit=1)
    created = db.insert(
        alert_rules,
        id=(last[0]["id"] if last else 0) + 1,
        **row,
        status="active",
        created_by=user["id"],
        date_created=db.now_iso(),
    )
    return _rule_out(db, created, project["slug"])


@tool()
def update_alert_rule(
    db: Database,
    organization_slug: OrgSlug,
    project_slug: ProjectSlug,
    rule_id: Annotated[int, Field(ge=1)],
    name: text(256) | None = None,
    conditions: Annotated[list[Condition], Unordered, Field(min_length=1)] | None = None,
    actions: Annotated[list[AlertTarget], Unordered] | None = None,
    action_match: Literal["all", "any"] | None = None,
    min_level: Level | None = None,
    clear_min_level: bool = False,
    frequency: Minutes | None = None,
    environment: EnvName | None = None,
    all_environments: bool = False,
    owner_team: TeamSlug | None = None,
    status: Literal["active", "disabled"] | None = None,
) -> AlertRule:
    """Edit an issue alert rule (PUT .../rules/{rule_id}/); fields left out keep their value, `actions` replaces the
    whole list. Disabling stops it firing without deleting it.

    Args:
        organization_slug: The organization's slug.
        project_slug: The project's slug.
        rule_id: The rule's id.
        name: New name.
        conditions: The full new list of triggers.
        actions: The full new list of who is notified.
        action_match: any or all.
        min_level: New level filter.
        clear_min_level: Remove the level filter.
        frequency: Minutes between notifications for one issue, 5 to 43200.
        environment: Only this environment from now on.
        all_environments: Fire for every environment (removes the environment).
        owner_team: New owning team (slug).
        status: active or disabled.
    """
    org, _, _ = alert_writer(db, organization_slug)
    project = project_by_slug(db, org, project_slug)
    row = _rule(db, project, rule_id)
    if clear_min_level and min_level is not None or all_environments and environment is not None:
        raise field_error("filters", "Send a value or its clearing flag, not both")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if conditions is not None:
        changes["conditions"] = sorted(set(conditions))
    if actions is not None:
        changes["actions"] = _actions(db, org, actions)
    if min_level is not None:
        changes["filters"] = [{"level": min_level, "match": "gte"}]
    if clear_min_level:
        changes["filters"] = []
    if environment is not None or all_environments:
        changes["environment"] = environment
    if owner_team is not None:
        changes["owner"] = _owner(db, org, owner_team)
    for key, value in (("action_match", action_match), ("frequency", frequency), ("status", status)):
        if value is not None:
            changes[key] = value
    if not changes:
        raise nothing_to_change()
    _no_duplicate(db, row | changes)
    return _rule_out(db, db.update(alert_rules, rule_id, **changes), project["slug"])


@tool()
def delete_alert_rule(
    db: Database, organization_slug: OrgSlug, project_slug: ProjectSlug, rule_id: Annotated[int, Field(ge=1)]
) -> AlertRule:
    """Delete an issue alert rule (DELETE .../rules/{rule_id}/); returns what it was. Cannot be undone.

    Args:
        organization_slug: The organization's slug.
        project_slug: The project's slug.
        rule_id: The rule's id.
    """
    org, _, _ = alert_writer(db, organization_slug)
    project = project_by_slug(db, org, project_slug)
    row = _rule(db, project, rule_id)
    out = _rule_out(db, row, project["slug"])
    db.delete(alert_rules, rule_id)
    return out
