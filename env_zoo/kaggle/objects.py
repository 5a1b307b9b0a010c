"""Kaggle API resources as output models (Dataset, DatasetVersion, File, Competition, Team, Submission, Kernel,
leaderboard entries) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Identity(BaseModel):
    """The Kaggler the API token belongs to."""

    username: str
    displayName: str
    tier: str
    country: str | None


class File(BaseModel):
    """A file of a dataset version, a competition or a kernel output."""

    name: str
    totalBytes: int


class DatasetVersion(BaseModel):
    """One version of a dataset."""

    versionNumber: int
    versionNotes: str
    creatorName: str
    created: str


class Collaborator(BaseModel):
    """Someone a dataset is shared with."""

    username: str
    role: str = Field(description="reader or writer")


class Dataset(BaseModel):
    """A dataset as `kaggle datasets list` shows it."""

    ref: str = Field(description="owner/slug")
    title: str
    subtitle: str
    ownerName: str
    licenseName: str
    isPrivate: bool
    currentVersionNumber: int
    downloadCount: int
    voteCount: int
    keywords: list[str]
    lastUpdated: str


class DatasetDetail(Dataset):
    """A dataset's metadata with its versions, its current files and its collaborators."""

    description: str
    versions: list[DatasetVersion] = Field(description="newest first")
    files: list[File] = Field(description="the current version's files")
    collaborators: list[Collaborator]


class DatasetList(BaseModel):
    """One page of datasets."""

    datasets: list[Dataset]
    nextPageToken: str | None = Field(description="pass as page_token for the next page; null on the last")


class Competition(BaseModel):
    """A competition as `kaggle competitions list` shows it."""

    ref: str = Field(description="the competition's URL slug")
    title: str
    category: str
    reward: str
    deadline: str
    teamMergerDeadline: str
    evaluationMetric: str
    userHasEntered: bool = Field(description="the Kaggler accepted the rules")


class CompetitionDetail(Competition):
    """A competition's rules and limits and the Kaggler's standing in it."""

    enabledDate: str
    maxTeamSize: int
    maxDailySubmissions: int
    maxFinalSubmissions: int = Field(description="how many submissions a team may select for final scoring")
    higherIsBetter: bool
    myTeamId: int | None
    submissionsLeftToday: int | None = Field(description="for the Kaggler's team; resets at 00:00 UTC")


class CompetitionList(BaseModel):
    """One page of competitions."""

    competitions: list[Competition]
    nextPageToken: str | None


class TeamMember(BaseModel):
    """A member of a team."""

    username: str
    displayName: str


class Team(BaseModel):
    """A team in a competition."""

    teamId: int
    teamName: str
    competition: str
    leader: str
    members: list[TeamMember]
    submissionCount: int
    bestPublicScore: float | None


class MergeRequest(BaseModel):
    """A request to merge one team into another; the receiving team's leader accepts it."""

    id: int
    competition: str
    fromTeam: str
    toTeam: str
    status: str = Field(description="pending, accepted, declined or withdrawn")


class MyTeam(BaseModel):
    """The Kaggler's team in a competition and the merge requests that involve it."""

    team: Team
    incomingMergeRequests: list[MergeRequest]
    outgoingMergeRequests: list[MergeRequest]


class Submission(BaseModel):
    """A submission to a competition."""

    ref: int
    fileName: str
    description: str
    date: str
    status: str = Field(description="complete or error")
    publicScore: float | None
    submittedBy: str
    kernelRef: str | None
    kernelVersion: int | None
    selected: bool = Field(description="chosen for final (private leaderboard) scoring")


class SubmissionList(BaseModel):
    """The team's submissions, newest first, and today's allowance."""

    submissions: list[Submission]
    submissionsLeftToday: int
    selectedCount: int
    maxFinalSubmissions: int


class LeaderboardEntry(BaseModel):
    """A row of the public leaderboard."""

    rank: int
    teamId: int
    teamName: str
    members: list[str] = Field(description="usernames")
    score: float
    submissionCount: int


class Leaderboard(BaseModel):
    """One page of the public leaderboard."""

    competition: str
    entries: list[LeaderboardEntry]
    nextPageToken: str | None


class CompetitionFiles(BaseModel):
    """A competition's data files."""

    competition: str
    files: list[File]


class KernelVersion(BaseModel):
    """One version (run) of a kernel."""

    versionNumber: int
    status: str = Field(description="queued, running, complete or error")
    versionNotes: str
    created: str
    outputFiles: list[File]


class Kernel(BaseModel):
    """A kernel (notebook or script)."""

    ref: str = Field(description="owner/slug")
    title: str
    author: str
    language: str
    kernelType: str
    isPrivate: bool
    enableGpu: bool
    enableInternet: bool
    datasetSources: list[str]
    competitionSources: list[str]
    currentVersionNumber: int
    totalVotes: int
    lastRunTime: str


class KernelDetail(Kernel):
    """A kernel with its versions, newest first."""

    versions: list[KernelVersion]


class KernelList(BaseModel):
    """One page of kernels."""

    kernels: list[Kernel]
    nextPageToken: str | None


def dataset_object(row: dict[str, Any]) -> Dataset:
    """A stored dataset row as the API shows it."""
    return Dataset(
        ref=row["ref"],
        title=row["title"],
        subtitle=row["subtitle"],
        ownerName=row["owner"],
        licenseName=row["license_name"],
        isPrivate=row["is_private"],
        currentVersionNumber=row["current_version"],
        downloadCount=row["download_count"],
        voteCount=row["vote_count"],
        keywords=row["keywords"],
        lastUpdated=row["last_updated"],
    )


def competition_object(row: dict[str, Any], entered: bool) -> Competition:
    """A stored competition row as the list shows it."""
    return Competition(
        ref=row["slug"],
        title=row["title"],
        category=row["category"],
        reward=row["reward"],
        deadline=row["deadline"],
        teamMergerDeadline=row["team_merger_deadline"],
        evaluationMetric=row["evaluation_metric"],
        userHasEntered=entered,
    )


def submission_object(row: dict[str, Any]) -> Submission:
    """A stored submission row as the API shows it."""
    return Submission(
        ref=row["id"],
        fileName=row["file_name"],
        description=row["description"],
        date=row["date"],
        status=row["status"],
        publicScore=row["public_score"],
        submittedBy=row["submitted_by"],
        kernelRef=row["kernel_ref"],
        kernelVersion=row["kernel_version"],
        selected=row["selected"],
    )


def kernel_object(row: dict[str, Any]) -> Kernel:
    """A stored kernel row as the API shows it."""
    return Kernel(
        ref=row["ref"],
        title=row["title"],
        author=row["owner"],
        language=row["language"],
        kernelType=row["kernel_type"],
        isPrivate=row["is_private"],
        enableGpu=row["enable_gpu"],
        enableInternet=row["enable_internet"],
        datasetSources=row["dataset_sources"],
        competitionSources=row["competition_sources"],
        currentVersionNumber=row["current_version"],
        totalVotes=row["total_votes"],
        lastRunTime=row["last_run"],
    )
