"""Who the API token belongs to and what they may see and change: private datasets and kernels are visible only to
their owner and collaborators; owners and writer collaborators may version a dataset, only owners change its
visibility or collaborators; competition actions act for the Kaggler's team."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, missing, not_found, rules_not_accepted
from .schema import (
    competitions,
    dataset_collaborators,
    datasets,
    kernels,
    rules_acceptances,
    sessions,
    team_members,
    teams,
)

NOT_SIGNED_IN = "401 - Unauthorized: No API token. Ask the user to sign in with their Kaggle API token first."


def me(db: Database) -> str:
    """The username of the Kaggler whose token the assistant uses."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["username"])


def collaborator_role(db: Database, dataset: dict[str, Any], username: str) -> str | None:
    """'owner', 'writer', 'reader' or None."""
    if dataset["owner"] == username:
        return "owner"
    found = db.find(dataset_collaborators, dataset_ref=dataset["ref"], username=username)
    return found[0]["role"] if found else None


def visible_dataset(db: Database, ref: str) -> dict[str, Any]:
    """A dataset the Kaggler may see (public, theirs, or shared with them); 404 otherwise."""
    dataset = db.find_one(datasets, ref=ref.strip().lower(), not_found=missing("Dataset", ref))
    if dataset["is_private"] and collaborator_role(db, dataset, me(db)) is None:
        raise not_found("Dataset", ref)
    return dataset


def writable_dataset(db: Database, ref: str) -> dict[str, Any]:
    """A dataset the Kaggler may create versions of (owner or writer); 403 otherwise."""
    dataset = visible_dataset(db, ref)
    if collaborator_role(db, dataset, me(db)) not in ("owner", "writer"):
        raise forbidden(f"You don't have permission to update the dataset '{dataset['ref']}'.")
    return dataset


def owned_dataset(db: Database, ref: str) -> dict[str, Any]:
    """A dataset the Kaggler owns; 403 otherwise."""
    dataset = visible_dataset(db, ref)
    if dataset["owner"] != me(db):
        raise forbidden(f"Only the owner of '{dataset['ref']}' can change its settings and collaborators.")
    return dataset


def visible_kernel(db: Database, ref: str) -> dict[str, Any]:
    """A kernel the Kaggler may see (public or theirs); 404 otherwise."""
    kernel = db.find_one(kernels, ref=ref.strip().lower(), not_found=missing("Kernel", ref))
    if kernel["is_private"] and kernel["owner"] != me(db):
        raise not_found("Kernel", ref)
    return kernel


def competition_by_slug(db: Database, slug: str) -> dict[str, Any]:
    """A competition by its URL slug; 404 otherwise."""
    return db.find_one(competitions, slug=slug.strip().lower(), not_found=missing("Competition", slug))


def has_accepted(db: Database, competition: dict[str, Any], username: str) -> bool:
    """Whether the Kaggler accepted the competition's rules."""
    return bool(db.find(rules_acceptances, competition=competition["slug"], username=username))


def team_of(db: Database, competition: dict[str, Any], username: str) -> dict[str, Any] | None:
    """The active team the Kaggler competes in, if any."""
    for membership in db.find(team_members, username=username):
        team = db.get(teams, membership["team_id"])
        if team["competition"] == competition["slug"] and team["merged_into"] is None:
            return team
    return None


def my_team(db: Database, competition: dict[str, Any]) -> dict[str, Any]:
    """The Kaggler's active team in a competition; 403 (rules not accepted) when they have none."""
    team = team_of(db, competition, me(db))
    if team is None:
        raise rules_not_accepted(competition["title"])
    return team


def led_team(db: Database, competition: dict[str, Any]) -> dict[str, Any]:
    """The Kaggler's team when they lead it; 403 otherwise."""
    team = my_team(db, competition)
    if team["leader"] != me(db):
        raise forbidden(f"Only the team leader ({team['leader']}) can do this for '{team['name']}'.")
    return team
