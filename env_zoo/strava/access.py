"""Who is signed in (the athlete who authorized the app, through db.start_session / db.current_session) with
which OAuth scopes, and who may see or edit an activity."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import (
    activities,
    athletes,
    follows,
    oauth_tokens,
    segments,
)


def sign_in(db: Database, email: str, scope: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The athlete with this login email authorizes the app with `scope` (read always included); an earlier
    token is replaced."""
    found = db.find_one(
        athletes, email=email.strip().lower(), not_found="The email or password did not match. Please try again."
    )
    granted = sorted({"read", *scope})
    db.start_session(oauth_tokens, athlete_id=found["id"], scope=granted)
    return found, granted


# ---------------------------------------------------------------- OAuth


def has_scope(granted: list[str], needed: str) -> bool:
    """Whether a token's scopes cover `needed` (a *:read_all scope covers its *:read)."""
    if needed in granted or needed == "read":
        return True
    return needed.endswith(":read") and f"{needed}_all" in granted


def authenticated(db: Database, *needed: str) -> tuple[dict[str, Any], list[str]]:
    """The athlete who authorized the app and the token's scopes; raises without a token or a needed scope."""
    token = db.current_session(
        oauth_tokens, "Authorization Error: no access token. The athlete must authorize this app on strava.com first."
    )
    scope = token["scope"]
    for name in needed:
        if not has_scope(scope, name):
            raise PermissionDenied(
                f"Authorization Error: the token lacks the {name} scope. The athlete must "
                f"authorize the app again and approve {name}."
            )
    return db.get(athletes, token["athlete_id"], "Athlete"), scope


# ---------------------------------------------------------------- visibility


def follows_athlete(db: Database, follower_id: str, athlete_id: str) -> bool:
    """Whether one athlete follows another."""
    return bool(db.find(follows, id=f"{follower_id}-{athlete_id}"))


def can_view(
    db: Database, me: dict[str, Any], scope: list[str], activity: dict[str, Any], followed: set[str] | None = None
) -> bool:
    """Only Me activities are seen by their owner (with activity:read_all); Followers ones by followers too
    (`followed`: the athletes `me` follows, when already read)."""
    if activity["athlete_id"] == me["id"]:
        return activity["visibility"] != "only_me" or "activity:read_all" in scope
    if activity["visibility"] == "everyone":
        return True
    if activity["visibility"] != "followers_only":
        return False
    return (
        activity["athlete_id"] in followed
        if followed is not None
        else follows_athlete(db, me["id"], activity["athlete_id"])
    )


def viewable(db: Database, me: dict[str, Any], scope: list[str], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The activities of `rows` the athlete may see, reading whom they follow once."""
    followed = {f["athlete_id"] for f in db.find(follows, follower_id=me["id"])}
    return [r for r in rows if can_view(db, me, scope, r, followed)]


def visible_activity(db: Database, me: dict[str, Any], scope: list[str], activity_id: str) -> dict[str, Any]:
    """An activity the authenticated athlete may see; anything else is not found, as on Strava."""
    found = db.find(activities, id=str(activity_id))
    if not found or not can_view(db, me, scope, found[0]):
        raise NotFound(f"Record Not Found: activity {activity_id}")
    return found[0]


def own_activity(db: Database, me: dict[str, Any], scope: list[str], activity_id: str) -> dict[str, Any]:
    """An activity of the authenticated athlete (others' visible ones can't be edited)."""
    activity = visible_activity(db, me, scope, activity_id)
    if activity["athlete_id"] != me["id"]:
        raise PermissionDenied("You can only edit your own activities.")
    return activity


def visible_segment(db: Database, me: dict, scope: list[str], segment_id: str) -> dict:
    """A segment the athlete may see: public ones, and their own private ones with read_all."""
    found = db.find(segments, id=str(segment_id))
    if not found or (found[0]["private"] and (found[0]["created_by"] != me["id"] or "read_all" not in scope)):
        raise NotFound(f"Record Not Found: segment {segment_id}")
    return found[0]
