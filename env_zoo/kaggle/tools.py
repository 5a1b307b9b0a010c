"""Kaggle's public API as one Kaggler's token reaches it (the `kaggle` CLI's competitions, datasets and kernels
commands): competitions and their rules, teams and merges, submissions and the leaderboard; datasets, their
versions, files, licenses, visibility and collaborators; kernels and their versions; plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import NonBlankText, bounded, text

from . import teams as team_rules
from .access import (
    competition_by_slug,
    has_accepted,
    led_team,
    me,
    my_team,
    owned_dataset,
    visible_dataset,
    visible_kernel,
    writable_dataset,
)
from .details import (
    add_version,
    competition_detail,
    dataset_detail,
    kernel_detail,
    submission_list,
    team_view,
    version_files,
)
from .errors import bad_request, conflict, forbidden, missing, not_found, rules_not_accepted
from .objects import (
    CompetitionDetail,
    CompetitionFiles,
    CompetitionList,
    DatasetDetail,
    DatasetList,
    File,
    Identity,
    KernelDetail,
    KernelList,
    Leaderboard,
    MergeRequest,
    MyTeam,
    Submission,
    SubmissionList,
    Team,
    competition_object,
    dataset_object,
    kernel_object,
    submission_object,
)
from .rules import LICENSES, require_merge_fits, require_merge_window, require_open, submissions_today
from .schema import (
    competition_files,
    competitions,
    dataset_collaborators,
    datasets,
    kernel_outputs,
    kernel_versions,
    kernels,
    merge_requests,
    rules_acceptances,
    sessions,
    submissions,
    team_members,
    teams,
    users,
)

PageSize = bounded(1, 100)
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{4,49}$", description="lowercase letters, digits, hyphens")]
Ref = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]+/[a-z0-9-]+$", description="owner/slug")]
CompetitionSlug = Annotated[str, Field(min_length=1, description="the competition's URL slug, e.g. titanic")]
License = Literal[LICENSES]  # type: ignore[valid-type]
Title = Annotated[str, Field(min_length=6, max_length=50)]
Subtitle = Annotated[str, Field(min_length=20, max_length=80)]
Notes = text(1000)
Keywords = Annotated[list[Annotated[str, Field(min_length=1, max_length=30)]], Unordered, Field(max_length=20)]


class UploadFile(BaseModel):
    """A file in the folder being uploaded."""

    name: Annotated[str, Field(pattern=r"^[\w.-]+\.[A-Za-z0-9]+$", max_length=100)]
    total_bytes: Annotated[int, Field(ge=1)]


# ---------------------------------------------------------------- identity


@tool(user_only=True)
def sign_in(db: Database, username: NonBlankText) -> Identity:
    """(User only) The user puts their Kaggle API token (kaggle.json) in place; the assistant then acts as them.

    Args:
        username: The Kaggle username the token belongs to.
    """
    user = db.find_one(users, username=username.strip().lower(), not_found=missing("User", username))
    db.start_session(sessions, username=user["username"])
    return _identity(user)


def _identity(user: dict) -> Identity:
    """A user row as the token's identity."""
    return Identity(
        username=user["username"], displayName=user["display_name"], tier=user["tier"], country=user["country"]
    )


@tool(read_only=True)
def get_identity(db: Database) -> Identity:
    """Who the API token belongs to (`kaggle config view`): username, display name, tier and country."""
    return _identity(db.get(users, me(db)))


# ---------------------------------------------------------------- competitions


@tool(user_only=True)
def accept_competition_rules(db: Database, competition: CompetitionSlug) -> CompetitionDetail:
    """(User only) The user reads and accepts a competition's rules on its Rules page (the API cannot); this enters
    them as a team of one named after them.

    Args:
        competition: The competition's URL slug.
    """
    comp = competition_by_slug(db, competition)
    username = me(db)
    if has_accepted(db, comp, username):
        raise conflict(f"You have already accepted the rules of '{comp['title']}'.")
    require_open(db, comp)
    db.insert(
        rules_acceptances,
        id=f"{comp['slug']}:{username}",
        competition=comp["slug"],
        username=username,
        accepted=db.now_iso(),
    )
    team_id = db.next_number("team_id", teams)
    db.insert(
        teams, id=team_id, competition=comp["slug"], name=db.get(users, username)["display_name"], leader=username
    )
    db.insert(team_members, id=f"{team_id}:{username}", team_id=team_id, username=username)
    return competition_detail(db, comp)


@tool(read_only=True)
def list_competitions(
    db: Database,
    search: str | None = None,
    category: Literal["featured", "research", "playground", "gettingStarted", "community"] | None = None,
    group: Literal["general", "entered"] = "general",
    sort_by: Literal["latestDeadline", "earliestDeadline", "recentlyCreated"] = "latestDeadline",
    page_size: PageSize = 20,
    page_token: str | None = None,
) -> CompetitionList:
    """List competitions (`kaggle competitions list`); `general` lists those still running, `entered` the ones the
    Kaggler accepted the rules of (running or ended).

    Args:
        search: Words to find in the title or slug.
        category: Only this category.
        group: general (running competitions) or entered (the Kaggler's).
        sort_by: latestDeadline, earliestDeadline or recentlyCreated.
        page_size: Competitions per page, 1 to 100.
        page_token: The nextPageToken of the previous page.
    """
    username = me(db)
    conditions, params = [], []
    if search:
        conditions.append("(lower(title) LIKE ? OR slug LIKE ?)")
        params += [f"%{search.strip().lower()}%"] * 2
    if category:
        conditions.append("category = ?")
        params.append(category)
    if group == "general":
        conditions.append("deadline > ?")
        params.append(db.now_iso())
    else:
        conditions.append("slug IN (SELECT competition FROM rules_acceptances WHERE username = ?)")
        params.append(username)
    order = {"latestDeadline": "deadline DESC", "earliestDeadline": "deadline", "recentlyCreated": "enabled_date DESC"}
    rows = db.select(competitions, " AND ".join(conditions), params, order_by=order[sort_by])
    page = paginate(rows, page_size, page_token)
    return CompetitionList(
        competitions=[competition_object(r, has_accepted(db, r, username)) for r in page.results],
        nextPageToken=page.next_cursor,
    )


@tool(read_only=True)
def get_competition(db: Database, competition: CompetitionSlug) -> CompetitionDetail:
    """A competition's deadlines, limits and evaluation, and the Kaggler's team and submissions left today.

    Args:
        competition: The competition's URL slug.
    """
    return competition_detail(db, competition_by_slug(db, competition))


@tool(read_only=True)
def list_competition_files(db: Database, competition: CompetitionSlug) -> CompetitionFiles:
    """A competition's data files (`kaggle competitions files`); needs its rules accepted.

    Args:
        competition: The competition's URL slug.
    """
    comp = competition_by_slug(db, competition)
    if not has_accepted(db, comp, me(db)):
        raise rules_not_accepted(comp["title"])
    rows = db.find(competition_files, competition=comp["slug"], order_by=[competition_files.c.name])
    return CompetitionFiles(
        competition=comp["slug"], files=[File(name=r["name"], totalBytes=r["total_bytes"]) for r in rows]
    )


@tool()
def submit_to_competition(
    db: Database,
    competition: CompetitionSlug,
    kernel: Ref,
    kernel_version: Annotated[int, Field(ge=1)],
    file_name: NonBlankText,
    message: text(500),
) -> Submission:
    """Submit an output file of one of the Kaggler's kernel versions (`kaggle competitions submit -k -v -f -m`).
    Counts against the team's daily allowance (resets 00:00 UTC); the public score comes back at once.

    Args:
        competition: The competition's URL slug.
        kernel: The kernel whose output is submitted, owner/slug (the Kaggler's own).
        kernel_version: The kernel version that wrote the file.
        file_name: The output file, e.g. submission.csv.
        message: The submission's description.
    """
    comp = competition_by_slug(db, competition)
    username = me(db)
    if not has_accepted(db, comp, username):
        raise rules_not_accepted(comp["title"])
    require_open(db, comp)
    team = my_team(db, comp)
    code = visible_kernel(db, kernel)
    if code["owner"] != username:
        raise forbidden("You can only submit the output of your own kernels.")
    output_id = f"{code['ref']}@{kernel_version}/{file_name.strip()}"
    output = db.find_one(kernel_outputs, id=output_id, not_found=missing("Kernel output", output_id))
    used = submissions_today(db, team["id"])
    if used >= comp["max_daily_submissions"]:
        raise bad_request(
            f"Your team has used its daily Submission allowance ({comp['max_daily_submissions']}) today, "
            "please try again tomorrow UTC."
        )
    scored = output["competition"] == comp["slug"] and output["public_score"] is not None
    row = db.insert(
        submissions,
        id=db.next_number("submission_id", submissions) + 41_000_000,
        competition=comp["slug"],
        team_id=team["id"],
        submitted_by=username,
        file_name=output["name"],
        kernel_ref=code["ref"],
        kernel_version=kernel_version,
        description=message,
        date=db.now_iso(),
        status="complete" if scored else "error",
        public_score=output["public_score"] if scored else None,
        selected=False,
    )
    return submission_object(row)


@tool(read_only=True)
def list_submissions(db: Database, competition: CompetitionSlug) -> SubmissionList:
    """The Kaggler's team's submissions to a competition, newest first (`kaggle competitions submissions`).

    Args:
        competition: The competition's URL slug.
    """
    comp = competition_by_slug(db, competition)
    return submission_list(db, comp, my_team(db, comp))


@tool()
def select_submission(
    db: Database, competition: CompetitionSlug, submission_id: Annotated[int, Field(ge=1)], selected: bool
) -> SubmissionList:
    """Select a submission for final (private leaderboard) scoring, or unselect it; a team may select at most the
    competition's maxFinalSubmissions, and only completed ones, until the deadline.

    Args:
        competition: The competition's URL slug.
        submission_id: The submission's ref.
        selected: True to select it, false to unselect it.
    """
    comp = competition_by_slug(db, competition)
    team = my_team(db, comp)
    require_open(db, comp)
    row = db.find_one(
        submissions, id=submission_id, team_id=team["id"], not_found=missing("Submission", str(submission_id))
    )
    if selected and not row["selected"]:
        if row["status"] != "complete":
            raise bad_request("Only submissions that scored successfully can be selected.")
        chosen = len(db.find(submissions, team_id=team["id"], selected=True))
        if chosen >= comp["num_scored_submissions"]:
            raise bad_request(
                f"You can select at most {comp['num_scored_submissions']} submissions for final scoring; "
                "unselect one first."
            )
    db.update(submissions, row["id"], selected=selected)
    return submission_list(db, comp, team)


@tool(read_only=True)
def get_leaderboard(
    db: Database, competition: CompetitionSlug, page_size: PageSize = 20, page_token: str | None = None
) -> Leaderboard:
    """The public leaderboard: each active team's best public score, best first (`kaggle competitions leaderboard`).

    Args:
        competition: The competition's URL slug.
        page_size: Teams per page, 1 to 100.
        page_token: The nextPageToken of the previous page.
    """
    me(db)
    comp = competition_by_slug(db, competition)
    page = paginate(team_rules.leaderboard(db, comp), page_size, page_token)
    return Leaderboard(competition=comp["slug"], entries=page.results, nextPageToken=page.next_cursor)


# ---------------------------------------------------------------- teams


@tool(read_only=True)
def get_my_team(db: Database, competition: CompetitionSlug) -> MyTeam:
    """The Kaggler's team in a competition, its members, and the merge requests it sent or received.

    Args:
        competition: The competition's URL slug.
    """
    comp = competition_by_slug(db, competition)
    return team_view(db, comp, my_team(db, comp))


@tool()
def rename_team(db: Database, competition: CompetitionSlug, name: text(64)) -> Team:
    """Rename the Kaggler's team (team leader only).

    Args:
        competition: The competition's URL slug.
        name: The new team name.
    """
    comp = competition_by_slug(db, competition)
    team = led_team(db, comp)
    require_open(db, comp)
    clash = [
        t
        for t in db.find(teams, competition=comp["slug"], merged_into=None)
        if t["name"].lower() == name.strip().lower()
    ]
    if clash and clash[0]["id"] != team["id"]:
        raise conflict(f"A team named '{name.strip()}' already exists in this competition.")
    updated = db.update(teams, team["id"], name=name.strip())
    return team_rules.team_object(db, updated, comp["higher_is_better"])


@tool()
def request_team_merge(
    db: Database, competition: CompetitionSlug, team_id: Annotated[int, Field(ge=1)]
) -> MergeRequest:
    """Ask another team to merge (team leader only): when its leader accepts, your team joins theirs. Allowed until
    the team merger deadline, if the merged team fits the team size limit and holds no more submissions than the
    daily allowance times the days the competition has run.

    Args:
        competition: The competition's URL slug.
        team_id: The other team's id (from the leaderboard).
    """
    comp = competition_by_slug(db, competition)
    mine = led_team(db, comp)
    require_merge_window(db, comp)
    other = db.find_one(
        teams, id=team_id, competition=comp["slug"], merged_into=None, not_found=missing("Team", str(team_id))
    )
    if other["id"] == mine["id"]:
        raise bad_request("A team can't merge with itself.")
    if db.find(merge_requests, from_team=mine["id"], to_team=other["id"], status="pending"):
        raise conflict(f"You already asked '{other['name']}' to merge.")
    require_merge_fits(
        db,
        comp,
        len(team_rules.members_of(db, mine["id"])) + len(team_rules.members_of(db, other["id"])),
        len(db.find(submissions, team_id=mine["id"])) + len(db.find(submissions, team_id=other["id"])),
    )
    row = db.insert(
        merge_requests,
        id=db.next_number("merge_request_id", merge_requests),
        competition=comp["slug"],
        from_team=mine["id"],
        to_team=other["id"],
        status="pending",
        created=db.now_iso(),
    )
    return team_rules.request_object(db, row)


@tool()
def respond_to_merge_request(
    db: Database, request_id: Annotated[int, Field(ge=1)], action: Literal["accept", "decline", "withdraw"]
) -> MyTeam:
    """Accept or decline a merge request your team received, or withdraw one it sent (team leader only). Accepting
    merges the requesting team into yours, within the same limits as the request.

    Args:
        request_id: The merge request's id (from get_my_team).
        action: accept or decline (received requests), withdraw (sent ones).
    """
    row = db.find_one(merge_requests, id=request_id, not_found=missing("Merge request", str(request_id)))
    comp = competition_by_slug(db, row["competition"])
    mine = led_team(db, comp)
    if mine["id"] != (row["from_team"] if action == "withdraw" else row["to_team"]):
        raise not_found("Merge request", str(request_id))
    if row["status"] != "pending":
        raise conflict(f"The merge request is already {row['status']}.")
    if action == "accept":
        require_merge_window(db, comp)
        source = db.get(teams, row["from_team"])
        require_merge_fits(
            db,
            comp,
            len(team_rules.members_of(db, mine["id"])) + len(team_rules.members_of(db, source["id"])),
            len(db.find(submissions, team_id=mine["id"])) + len(db.find(submissions, team_id=source["id"])),
        )
        team_rules.merge(db, source, mine)
    db.update(
        merge_requests, row["id"], status={"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[action]
    )
    return team_view(db, comp, mine)


# ---------------------------------------------------------------- datasets


@tool(read_only=True)
def list_datasets(
    db: Database,
    search: str | None = None,
    user: str | None = None,
    mine: bool = False,
    license_name: License | None = None,
    sort_by: Literal["hottest", "votes", "updated", "active"] = "hottest",
    page_size: PageSize = 20,
    page_token: str | None = None,
) -> DatasetList:
    """List datasets the Kaggler can see (`kaggle datasets list`): public ones, their own, and those shared with them.

    Args:
        search: Words to find in the title, subtitle, slug or keywords.
        user: Only datasets this user owns.
        mine: Only the Kaggler's own datasets and those shared with them.
        license_name: Only datasets under this license.
        sort_by: hottest (downloads), votes, updated (most recently updated) or active.
        page_size: Datasets per page, 1 to 100.
        page_token: The nextPageToken of the previous page.
    """
    username = me(db)
    shared = "ref IN (SELECT dataset_ref FROM dataset_collaborators WHERE username = ?)"
    conditions = [f"(is_private = 0 OR owner = ? OR {shared})"]
    params: list = [username, username]
    if search:
        conditions.append("(lower(title) LIKE ? OR lower(subtitle) LIKE ? OR ref LIKE ? OR lower(keywords) LIKE ?)")
        params += [f"%{search.strip().lower()}%"] * 4
    if user:
        conditions.append("owner = ?")
        params.append(user.strip().lower())
    if mine:
        conditions.append(f"(owner = ? OR {shared})")
        params += [username, username]
    if license_name:
        conditions.append("license_name = ?")
        params.append(license_name)
    order = {
        "hottest": "download_count DESC",
        "votes": "vote_count DESC",
        "updated": "last_updated DESC",
        "active": "download_count + vote_count * 10 DESC",
    }
    rows = db.select(datasets, " AND ".join(conditions), params, order_by=order[sort_by])
    page = paginate(rows, page_size, page_token)
    return DatasetList(datasets=[dataset_object(r) for r in page.results], nextPageToken=page.next_cursor)


@tool(read_only=True)
def get_dataset(db: Database, dataset: Ref) -> DatasetDetail:
    """A dataset's metadata, versions (newest first), current files and collaborators (`kaggle datasets metadata`,
    `files`).

    Args:
        dataset: The dataset's ref, owner/slug.
    """
    return dataset_detail(db, visible_dataset(db, dataset))


@tool()
def create_dataset(
    db: Database,
    slug: Slug,
    title: Title,
    files: Annotated[list[UploadFile], Field(min_length=1, max_length=50)],
    license_name: License,
    is_private: bool = True,
    subtitle: Subtitle | None = None,
    keywords: Keywords | None = None,
) -> DatasetDetail:
    """Create a dataset under the Kaggler's account as version 1 (`kaggle datasets create`; private unless
    `is_private` is false).

    Args:
        slug: The URL slug; the ref becomes <username>/<slug>.
        title: The title, 6 to 50 characters.
        files: The files in the folder uploaded.
        license_name: The license, as dataset-metadata.json names it.
        is_private: Whether only the owner and collaborators can see it.
        subtitle: A subtitle, 20 to 80 characters.
        keywords: Keywords (tags).
    """
    username = me(db)
    ref = f"{username}/{slug}"
    if db.find(datasets, ref=ref):
        raise conflict(f"The dataset '{ref}' already exists; create a new version of it instead.")
    names = [f.name for f in files]
    if len(set(names)) != len(names):
        raise bad_request("Two files have the same name.")
    row = db.insert(
        datasets,
        ref=ref,
        owner=username,
        slug=slug,
        title=title,
        subtitle=subtitle or "",
        description="",
        license_name=license_name,
        is_private=is_private,
        keywords=sorted(keywords or []),
        current_version=1,
        download_count=0,
        vote_count=0,
        last_updated=db.now_iso(),
    )
    add_version(db, row, 1, "Initial release", [(f.name, f.total_bytes) for f in files])
    return dataset_detail(db, row)


@tool()
def create_dataset_version(
    db: Database,
    dataset: Ref,
    version_notes: Annotated[str, Field(min_length=1, max_length=1000)],
    upload: Annotated[list[UploadFile], Field(max_length=50)] | None = None,
    remove: Annotated[list[str], Unordered] | None = None,
) -> DatasetDetail:
    """Publish a new version of a dataset (`kaggle datasets version -m`; owner or writer collaborator). The new
    version holds the current files, with `upload` added or replacing files of the same name and `remove` dropped.

    Args:
        dataset: The dataset's ref, owner/slug.
        version_notes: What changed in this version.
        upload: Files added or replaced.
        remove: Names of current files left out of the new version.
    """
    row = writable_dataset(db, dataset)
    current = {f["name"]: f["total_bytes"] for f in version_files(db, row, row["current_version"])}
    for name in remove or []:
        if name not in current:
            raise bad_request(f"The current version has no file named '{name}'.")
        del current[name]
    for upload_file in upload or []:
        current[upload_file.name] = upload_file.total_bytes
    if not current:
        raise bad_request("A dataset version must hold at least one file.")
    number = row["current_version"] + 1
    add_version(db, row, number, version_notes, sorted(current.items()))
    updated = db.update(datasets, row["ref"], current_version=number, last_updated=db.now_iso())
    return dataset_detail(db, updated)


@tool()
def update_dataset_metadata(
    db: Database,
    dataset: Ref,
    title: Title | None = None,
    subtitle: Subtitle | None = None,
    description: text(5000) | None = None,
    license_name: License | None = None,
    keywords: Keywords | None = None,
) -> DatasetDetail:
    """Update a dataset's metadata without a new version (`kaggle datasets metadata --update`; owner or writer).

    Args:
        dataset: The dataset's ref, owner/slug.
        title: A new title.
        subtitle: A new subtitle.
        description: A new description (markdown).
        license_name: A new license.
        keywords: The new full keyword list.
    """
    row = writable_dataset(db, dataset)
    changes = given(title=title, subtitle=subtitle, description=description, license_name=license_name)
    if keywords is not None:
        changes["keywords"] = sorted(keywords)
    if not changes:
        raise bad_request("Nothing to update.")
    return dataset_detail(db, db.update(datasets, row["ref"], **changes, last_updated=db.now_iso()))


@tool()
def set_dataset_visibility(db: Database, dataset: Ref, is_private: bool) -> DatasetDetail:
    """Make a private dataset public (owner only). A public dataset can't be made private again.

    Args:
        dataset: The dataset's ref, owner/slug.
        is_private: false to make it public.
    """
    row = owned_dataset(db, dataset)
    if is_private and not row["is_private"]:
        raise bad_request("Public datasets can't be made private.")
    return dataset_detail(db, db.update(datasets, row["ref"], is_private=is_private))


@tool()
def set_dataset_collaborator(
    db: Database, dataset: Ref, username: NonBlankText, role: Literal["reader", "writer", "none"]
) -> DatasetDetail:
    """Share a dataset with another Kaggler as reader (can view) or writer (can also version it), change their
    role, or remove them with `none` (owner only).

    Args:
        dataset: The dataset's ref, owner/slug.
        username: The collaborator's Kaggle username.
        role: reader, writer or none.
    """
    row = owned_dataset(db, dataset)
    other = db.find_one(users, username=username.strip().lower(), not_found=missing("User", username))
    if other["username"] == row["owner"]:
        raise bad_request("The owner can't be a collaborator on their own dataset.")
    key = f"{row['ref']}:{other['username']}"
    existing = db.find(dataset_collaborators, id=key)
    if role == "none":
        if not existing:
            raise not_found("Collaborator", other["username"])
        db.delete(dataset_collaborators, key)
    elif existing:
        db.update(dataset_collaborators, key, role=role)
    else:
        db.insert(dataset_collaborators, id=key, dataset_ref=row["ref"], username=other["username"], role=role)
    return dataset_detail(db, row)


# ---------------------------------------------------------------- kernels


@tool(read_only=True)
def list_kernels(
    db: Database,
    search: str | None = None,
    mine: bool = False,
    user: str | None = None,
    competition: str | None = None,
    dataset: str | None = None,
    page_size: PageSize = 20,
    page_token: str | None = None,
) -> KernelList:
    """List kernels the Kaggler can see, most voted first (`kaggle kernels list`).

    Args:
        search: Words to find in the title or slug.
        mine: Only the Kaggler's own kernels.
        user: Only this user's kernels.
        competition: Only kernels using this competition's data (slug).
        dataset: Only kernels using this dataset (owner/slug).
        page_size: Kernels per page, 1 to 100.
        page_token: The nextPageToken of the previous page.
    """
    username = me(db)
    conditions, params = ["(is_private = 0 OR owner = ?)"], [username]
    if search:
        conditions.append("(lower(title) LIKE ? OR ref LIKE ?)")
        params += [f"%{search.strip().lower()}%"] * 2
    for wanted, column in ((username if mine else None, "owner"), (user and user.strip().lower(), "owner")):
        if wanted:
            conditions.append(f"{column} = ?")
            params.append(wanted)
    rows = db.select(kernels, " AND ".join(conditions), params, order_by="total_votes DESC")
    if competition:
        rows = [r for r in rows if competition.strip().lower() in r["competition_sources"]]
    if dataset:
        rows = [r for r in rows if dataset.strip().lower() in r["dataset_sources"]]
    page = paginate(rows, page_size, page_token)
    return KernelList(kernels=[kernel_object(r) for r in page.results], nextPageToken=page.next_cursor)


@tool(read_only=True)
def get_kernel(db: Database, kernel: Ref) -> KernelDetail:
    """A kernel's settings, sources and versions with each version's status and output files (`kaggle kernels
    status`, `output`).

    Args:
        kernel: The kernel's ref, owner/slug.
    """
    return kernel_detail(db, visible_kernel(db, kernel))


@tool()
def push_kernel(
    db: Database,
    slug: Slug,
    version_notes: Annotated[str, Field(min_length=1, max_length=500)],
    title: Title | None = None,
    language: Literal["python", "r"] = "python",
    kernel_type: Literal["notebook", "script"] = "notebook",
    is_private: bool | None = None,
    enable_gpu: bool | None = None,
    enable_internet: bool | None = None,
    dataset_sources: Annotated[list[str], Unordered] | None = None,
    competition_sources: Annotated[list[str], Unordered] | None = None,
) -> KernelDetail:
    """Push the Kaggler's kernel (`kaggle kernels push`): creates it, or queues a new version of an existing one
    with any settings given changed (settings not given stay). Sources must be visible to the Kaggler, competition
    sources need the rules accepted, and a public kernel can't use private datasets.

    Args:
        slug: The kernel's slug; its ref is <username>/<slug>.
        version_notes: What this version changes.
        title: The title (required when creating).
        language: python or r (when creating).
        kernel_type: notebook or script (when creating).
        is_private: Whether only the owner can see it (new kernels: private).
        enable_gpu: Run with a GPU accelerator.
        enable_internet: Allow internet access.
        dataset_sources: The full list of attached datasets (owner/slug).
        competition_sources: The full list of attached competitions (slugs).
    """
    username = me(db)
    ref = f"{username}/{slug}"
    found = db.find(kernels, ref=ref)
    current = found[0] if found else None
    if current is None and title is None:
        raise bad_request("A new kernel needs a title.")
    settings = {
        "title": title if title is not None else current["title"],
        "is_private": is_private if is_private is not None else (True if current is None else current["is_private"]),
        "enable_gpu": enable_gpu if enable_gpu is not None else bool(current and current["enable_gpu"]),
        "enable_internet": enable_internet
        if enable_internet is not None
        else bool(current and current["enable_internet"]),
        "dataset_sources": sorted({s.strip().lower() for s in dataset_sources})
        if dataset_sources is not None
        else (current["dataset_sources"] if current else []),
        "competition_sources": sorted({s.strip().lower() for s in competition_sources})
        if competition_sources is not None
        else (current["competition_sources"] if current else []),
    }
    for source in settings["dataset_sources"]:
        attached = visible_dataset(db, source)
        if attached["is_private"] and not settings["is_private"]:
            raise bad_request(
                f"A public kernel can't use the private dataset '{attached['ref']}'; make it public first."
            )
    for source in settings["competition_sources"]:
        comp = competition_by_slug(db, source)
        if not has_accepted(db, comp, username):
            raise rules_not_accepted(comp["title"])
    number = 1 if current is None else current["current_version"] + 1
    if current is None:
        row = db.insert(
            kernels,
            ref=ref,
            owner=username,
            slug=slug,
            language=language,
            kernel_type=kernel_type,
            current_version=1,
            total_votes=0,
            last_run=db.now_iso(),
            **settings,
        )
    else:
        row = db.update(kernels, ref, current_version=number, last_run=db.now_iso(), **settings)
    db.insert(
        kernel_versions,
        id=f"{ref}@{number}",
        kernel_ref=ref,
        version_number=number,
        status="queued",
        version_notes=version_notes,
        created=db.now_iso(),
    )
    return kernel_detail(db, row)
