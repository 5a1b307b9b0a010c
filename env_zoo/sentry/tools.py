"""Sentry web API tools (organizations, projects, teams, members, issues and events, releases and deploys, issue
alert rules) as a signed-in member sees them, plus the person's own sign-in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import IsoTimestamp, NonBlankText, bounded, text
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import alert_writer, issue_writer, membership, project_by_slug, signed_in, team_ids_of
from .errors import detail_error, field_error, not_found
from .lookups import (
    AlertTarget,
    assigned_clause,
    check_actions,
    find_issue,
    find_release,
    find_rule,
    log_activity,
    member_by_email,
    owner_ref,
    refuse_duplicate,
)
from .objects import (
    Activity,
    AlertRule,
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
    Team,
)
from .rules import check_release_version, nothing_to_change, resolution, settle_next_release
from .schema import (
    activities,
    alert_rules,
    deploys,
    events,
    issues,
    members,
    projects,
    releases,
    sessions,
    team_members,
    teams,
    users,
)
from .views import (
    event_out,
    issue_detail,
    issue_fields,
    my_orgs,
    project_slugs,
    release_detail,
    release_fields,
    rule_out,
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


# ---------------------------------------------------------------- shared lookups


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
    return Signed(id=user["id"], email=user["email"], name=user["name"], organizations=my_orgs(db, user["id"]))


@tool(read_only=True)
def list_organizations(db: Database) -> list[Organization]:
    """List the organizations the signed-in user belongs to, with their role in each (GET /api/0/organizations/)."""
    return my_orgs(db, signed_in(db)["id"])


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
    slugs = project_slugs(db, org["id"])
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
        where.append(*assigned_clause(db, org, user, assigned.strip(), params))
    order = {"date": "last_seen DESC", "new": "first_seen DESC", "freq": "count DESC", "user": "user_count DESC"}[sort]
    rows = db.select(issues, " AND ".join(where), params, order_by=order)
    if environment is not None:
        rows = [r for r in rows if environment in r["environments"]]
    page = paginate(rows, page_size, cursor)
    return IssueList(
        issues=[Issue(**issue_fields(db, org, r, slugs[r["project_id"]])) for r in page.results],
        next_cursor=page.next_cursor,
    )


@tool(read_only=True)
def get_issue(db: Database, organization_slug: OrgSlug, issue_id: IssueRef) -> IssueDetail:
    """Get one issue with its status details, environments and activity (comments and changes), newest first
    (GET /api/0/organizations/{organization_slug}/issues/{issue_id}/).

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
    """
    org, _, _ = membership(db, organization_slug)
    return issue_detail(db, org, find_issue(db, org, issue_id))


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
    row = find_issue(db, org, issue_id)
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
        log_activity(db, row["id"], user["id"], kind, data)
    if priority is not None and priority != row["priority"]:
        log_activity(db, row["id"], user["id"], "set_priority", {"priority": priority, "previous": row["priority"]})
        row = db.update(issues, row["id"], priority=priority)
    return issue_detail(db, org, row)


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
    row = find_issue(db, org, issue_id)
    if sum([user_email is not None, team_slug is not None, unassign]) != 1:
        raise field_error("assignedTo", "Send exactly one of user_email, team_slug or unassign")
    project = db.get(projects, row["project_id"])
    if unassign:
        if row["assigned_to"] is None:
            raise field_error("assignedTo", "The issue is not assigned")
        updated = db.update(issues, row["id"], assigned_to=None)
        log_activity(db, row["id"], user["id"], "unassigned", {})
        return issue_detail(db, org, updated)
    if team_slug is not None:
        team = db.find(teams, organization_id=org["id"], slug=team_slug)
        if not team:
            raise field_error("assignedTo", f"Unknown team: {team_slug}")
        if team[0]["id"] != project["team_id"]:
            raise field_error("assignedTo", "Cannot assign to a team without access to the project")
        ref, data = f"team:{team[0]['id']}", {"assignee": team[0]["slug"], "assigneeType": "team"}
    else:
        assert user_email is not None
        person = member_by_email(db, org, user_email, "assignedTo")
        if project["team_id"] not in team_ids_of(db, person["id"]):
            raise field_error("assignedTo", "Cannot assign to non-team member")
        ref, data = f"user:{person['id']}", {"assignee": person["email"], "assigneeType": "user"}
    updated = db.update(issues, row["id"], assigned_to=ref)
    log_activity(db, row["id"], user["id"], "assigned", data)
    return issue_detail(db, org, updated)


@tool()
def add_issue_comment(db: Database, organization_slug: OrgSlug, issue_id: IssueRef, text: text(5000)) -> Activity:
    """Comment on an issue; the comment joins its activity (POST .../issues/{issue_id}/comments/).

    Args:
        organization_slug: The organization's slug.
        issue_id: The issue's short id, e.g. CHECKOUT-API-3F.
        text: The comment (Markdown; @-mention people by email).
    """
    org, _, user = issue_writer(db, organization_slug)
    row = find_issue(db, org, issue_id)
    log_activity(db, row["id"], user["id"], "note", {"text": text})
    last = db.select(activities, "issue_id = ?", [row["id"]], order_by="rowid DESC", limit=1)[0]
    return Activity(
        id=last["id"], type="note", user=user["email"], data={"text": text}, date_created=last["date_created"]
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
    issue = find_issue(db, org, issue_id)
    where, params = "issue_id = ?", [issue["id"]]
    if environment is not None:
        where, params = where + " AND environment = ?", params + [environment]
    rows = db.select(events, where, params, order_by="date_created DESC")
    slug = db.get(projects, issue["project_id"])["slug"]
    page = paginate(rows, page_size, cursor)
    return EventList(events=[event_out(r, issue, slug) for r in page.results], next_cursor=page.next_cursor)


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
    return event_out(found[0], issue, project["slug"])


# ---------------------------------------------------------------- releases and deploys


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
    slugs = project_slugs(db, org["id"])
    page = paginate(rows, page_size, cursor)
    return ReleaseList(
        releases=[Release(**release_fields(db, r, slugs)) for r in page.results], next_cursor=page.next_cursor
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
    return release_detail(db, org, find_release(db, org, version.strip()), created=False)


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
        return release_detail(db, org, row, created=False)
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
    return release_detail(db, org, row, created=True)


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
    release = find_release(db, org, version.strip())
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
    return release_detail(db, org, release, created=False)


# ---------------------------------------------------------------- alert rules


@tool(read_only=True)
def list_alert_rules(db: Database, organization_slug: OrgSlug, project_slug: ProjectSlug) -> list[AlertRule]:
    """List a project's issue alert rules (GET /api/0/projects/{organization_slug}/{project_slug}/rules/).

    Args:
        organization_slug: The organization's slug.
        project_slug: The project's slug.
    """
    org, _, _ = membership(db, organization_slug)
    project = project_by_slug(db, org, project_slug)
    return [rule_out(db, r, project["slug"]) for r in db.find(alert_rules, project_id=project["id"])]


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
        "actions": check_actions(db, org, actions),
        "frequency": frequency,
        "environment": environment,
        "owner": owner_ref(db, org, owner_team) if owner_team else None,
    }
    refuse_duplicate(db, row)
    last = db.select(alert_rules, "", [], order_by="id DESC", limit=1)
    created = db.insert(
        alert_rules,
        id=(last[0]["id"] if last else 0) + 1,
        **row,
        status="active",
        created_by=user["id"],
        date_created=db.now_iso(),
    )
    return rule_out(db, created, project["slug"])


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
    whole list. Disabling stops it firing without deleting it; editing a disabled rule enables it again unless
    `status` says disabled.

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
    row = find_rule(db, project, rule_id)
    if clear_min_level and min_level is not None or all_environments and environment is not None:
        raise field_error("filters", "Send a value or its clearing flag, not both")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if conditions is not None:
        changes["conditions"] = sorted(set(conditions))
    if actions is not None:
        changes["actions"] = check_actions(db, org, actions)
    if min_level is not None:
        changes["filters"] = [{"level": min_level, "match": "gte"}]
    if clear_min_level:
        changes["filters"] = []
    if environment is not None or all_environments:
        changes["environment"] = environment
    if owner_team is not None:
        changes["owner"] = owner_ref(db, org, owner_team)
    for key, value in (("action_match", action_match), ("frequency", frequency), ("status", status)):
        if value is not None:
            changes[key] = value
    if not changes:
        raise nothing_to_change()
    if status is None and row["status"] == "disabled":
        changes["status"] = "active"  # Sentry re-enables a disabled rule that is edited
    refuse_duplicate(db, row | changes)
    return rule_out(db, db.update(alert_rules, rule_id, **changes), project["slug"])


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
    row = find_rule(db, project, rule_id)
    out = rule_out(db, row, project["slug"])
    db.delete(alert_rules, rule_id)
    return out
