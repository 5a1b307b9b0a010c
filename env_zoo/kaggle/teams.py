"""Teams in a competition: what a team looks like, its best public score, the public leaderboard, and merging one
team into another (members and submissions move to the receiving team, whose name and leader stay)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .objects import LeaderboardEntry, MergeRequest, Team, TeamMember
from .schema import merge_requests, submissions, team_members, teams, users


def members_of(db: Database, team_id: int) -> list[str]:
    """Usernames on a team, sorted."""
    return sorted(m["username"] for m in db.find(team_members, team_id=team_id))


def best_score(rows: list[dict[str, Any]], higher_is_better: bool) -> float | None:
    """The best public score among completed submissions."""
    scores = [r["public_score"] for r in rows if r["status"] == "complete" and r["public_score"] is not None]
    if not scores:
        return None
    return max(scores) if higher_is_better else min(scores)


def team_object(db: Database, team: dict[str, Any], higher_is_better: bool) -> Team:
    """A stored team as the API shows it."""
    rows = db.find(submissions, team_id=team["id"])
    return Team(
        teamId=team["id"],
        teamName=team["name"],
        competition=team["competition"],
        leader=team["leader"],
        members=[
            TeamMember(username=name, displayName=db.get(users, name)["display_name"])
            for name in members_of(db, team["id"])
        ],
        submissionCount=len(rows),
        bestPublicScore=best_score(rows, higher_is_better),
    )


def request_object(db: Database, row: dict[str, Any]) -> MergeRequest:
    """A stored merge request as the API shows it."""
    return MergeRequest(
        id=row["id"],
        competition=row["competition"],
        fromTeam=db.get(teams, row["from_team"])["name"],
        toTeam=db.get(teams, row["to_team"])["name"],
        status=row["status"],
    )


def leaderboard(db: Database, competition: dict[str, Any]) -> list[LeaderboardEntry]:
    """Active teams with a scored submission, best first (ties: earlier team id first); three queries in all."""
    higher = competition["higher_is_better"]
    by_team: dict[int, list[dict[str, Any]]] = {}
    for row in db.select(submissions, "competition = ?", [competition["slug"]]):
        by_team.setdefault(row["team_id"], []).append(row)
    members: dict[int, list[str]] = {}
    in_competition = "team_id IN (SELECT id FROM teams WHERE competition = ?)"
    for member in db.select(team_members, in_competition, [competition["slug"]], order_by="username"):
        members.setdefault(member["team_id"], []).append(member["username"])
    entries = []
    for team in db.find(teams, competition=competition["slug"], merged_into=None):
        rows = by_team.get(team["id"], [])
        score = best_score(rows, higher)
        if score is not None:
            entries.append((team, score, len(rows)))
    entries.sort(key=lambda e: (-e[1] if higher else e[1], e[0]["id"]))
    return [
        LeaderboardEntry(
            rank=i + 1, teamId=t["id"], teamName=t["name"], members=members.get(t["id"], []), score=s, submissionCount=n
        )
        for i, (t, s, n) in enumerate(entries)
    ]


def merge(db: Database, source: dict[str, Any], target: dict[str, Any]) -> None:
    """Move the source team's members and submissions to the target team and retire the source."""
    for member in db.find(team_members, team_id=source["id"]):
        db.delete(team_members, member["id"])
        db.insert(
            team_members, id=f"{target['id']}:{member['username']}", team_id=target["id"], username=member["username"]
        )
    for row in db.find(submissions, team_id=source["id"]):
        db.update(submissions, row["id"], team_id=target["id"], selected=False)
    db.update(teams, source["id"], merged_into=target["id"])
    for pending in db.find(merge_requests, status="pending"):
        if source["id"] in (pending["from_team"], pending["to_team"]):
            db.update(merge_requests, pending["id"], status="withdrawn")
