"""The detail views tools return, assembled from several tables (a dataset with its versions, files and
collaborators; a competition with the Kaggler's standing; a team with its merge requests; a kernel with its versions
and outputs), and a dataset version's rows."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from . import teams as team_rules
from .access import has_accepted, me, team_of
from .objects import (
    Collaborator,
    CompetitionDetail,
    DatasetDetail,
    DatasetVersion,
    File,
    KernelDetail,
    KernelVersion,
    MyTeam,
    SubmissionList,
    competition_object,
    dataset_object,
    kernel_object,
    submission_object,
)
from .rules import submissions_today
from .schema import (
    dataset_collaborators,
    dataset_files,
    dataset_versions,
    kernel_outputs,
    kernel_versions,
    merge_requests,
    submissions,
)


def version_files(db: Database, dataset: dict[str, Any], version: int) -> list[dict[str, Any]]:
    """A dataset version's files, by name."""
    return db.find(dataset_files, dataset_ref=dataset["ref"], version_number=version, order_by=[dataset_files.c.name])


def dataset_detail(db: Database, dataset: dict[str, Any]) -> DatasetDetail:
    """A dataset with its versions (newest first), current files and collaborators."""
    versions = db.find(
        dataset_versions, dataset_ref=dataset["ref"], order_by=[dataset_versions.c.version_number.desc()]
    )
    shared = db.find(dataset_collaborators, dataset_ref=dataset["ref"], order_by=[dataset_collaborators.c.username])
    return DatasetDetail(
        **dataset_object(dataset).model_dump(),
        description=dataset["description"],
        versions=[
            DatasetVersion(
                versionNumber=v["version_number"],
                versionNotes=v["version_notes"],
                creatorName=v["created_by"],
                created=v["created"],
            )
            for v in versions
        ],
        files=[
            File(name=f["name"], totalBytes=f["total_bytes"])
            for f in version_files(db, dataset, dataset["current_version"])
        ],
        collaborators=[Collaborator(username=c["username"], role=c["role"]) for c in shared],
    )


def add_version(db: Database, dataset: dict[str, Any], number: int, notes: str, files: list[tuple[str, int]]) -> None:
    """Store a dataset version and its files, created by the signed-in Kaggler."""
    db.insert(
        dataset_versions,
        id=f"{dataset['ref']}@{number}",
        dataset_ref=dataset["ref"],
        version_number=number,
        version_notes=notes,
        created_by=me(db),
        created=db.now_iso(),
    )
    for name, size in files:
        db.insert(
            dataset_files,
            id=f"{dataset['ref']}@{number}/{name}",
            dataset_ref=dataset["ref"],
            version_number=number,
            name=name,
            total_bytes=size,
        )


def competition_detail(db: Database, competition: dict[str, Any]) -> CompetitionDetail:
    """A competition with its limits and the Kaggler's team and submissions left today."""
    username = me(db)
    team = team_of(db, competition, username)
    left = None if team is None else max(competition["max_daily_submissions"] - submissions_today(db, team["id"]), 0)
    return CompetitionDetail(
        **competition_object(competition, has_accepted(db, competition, username)).model_dump(),
        enabledDate=competition["enabled_date"],
        maxTeamSize=competition["max_team_size"],
        maxDailySubmissions=competition["max_daily_submissions"],
        maxFinalSubmissions=competition["num_scored_submissions"],
        higherIsBetter=competition["higher_is_better"],
        myTeamId=None if team is None else team["id"],
        submissionsLeftToday=left,
    )


def submission_list(db: Database, comp: dict[str, Any], team: dict[str, Any]) -> SubmissionList:
    """A team's submissions, newest first, with today's allowance and its final selections."""
    rows = db.find(submissions, team_id=team["id"], order_by=[submissions.c.id.desc()])
    return SubmissionList(
        submissions=[submission_object(r) for r in rows],
        submissionsLeftToday=max(comp["max_daily_submissions"] - submissions_today(db, team["id"]), 0),
        selectedCount=sum(r["selected"] for r in rows),
        maxFinalSubmissions=comp["num_scored_submissions"],
    )


def team_view(db: Database, comp: dict[str, Any], team: dict[str, Any]) -> MyTeam:
    """A team with the merge requests it received and sent."""
    incoming = db.find(merge_requests, to_team=team["id"], order_by=[merge_requests.c.id])
    outgoing = db.find(merge_requests, from_team=team["id"], order_by=[merge_requests.c.id])
    return MyTeam(
        team=team_rules.team_object(db, team, comp["higher_is_better"]),
        incomingMergeRequests=[team_rules.request_object(db, r) for r in incoming],
        outgoingMergeRequests=[team_rules.request_object(db, r) for r in outgoing],
    )


def kernel_detail(db: Database, kernel: dict[str, Any]) -> KernelDetail:
    """A kernel with its versions (newest first) and each version's output files."""
    versions = db.find(kernel_versions, kernel_ref=kernel["ref"], order_by=[kernel_versions.c.version_number.desc()])
    return KernelDetail(
        **kernel_object(kernel).model_dump(),
        versions=[
            KernelVersion(
                versionNumber=v["version_number"],
                status=v["status"],
                versionNotes=v["version_notes"],
                created=v["created"],
                outputFiles=[
                    File(name=o["name"], totalBytes=o["total_bytes"])
                    for o in db.find(
                        kernel_outputs,
                        kernel_ref=kernel["ref"],
                        version_number=v["version_number"],
                        order_by=[kernel_outputs.c.name],
                    )
                ],
            )
            for v in versions
        ],
    )
