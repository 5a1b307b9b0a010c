"""Strava's rules shared by the tools: OAuth scopes, who may see an activity, derived PR and KOM ranks, gear
that fits a sport, and how stored rows become API objects."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import func, select

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from .objects import (
    AthleteSummary,
    DetailedActivity,
    GearObject,
    GearRef,
    LapObject,
    SegmentEffortObject,
    SummaryActivity,
    SummarySegment,
)
from .schema import (
    activities,
    athletes,
    comments,
    follows,
    gear,
    kudos,
    laps,
    oauth_tokens,
    segment_efforts,
    segment_stars,
    segments,
)

BIKE_SPORTS = {
    "Ride",
    "MountainBikeRide",
    "GravelRide",
    "EBikeRide",
    "EMountainBikeRide",
    "VirtualRide",
    "Velomobile",
    "Handcycle",
}
SHOE_SPORTS = {"Run", "TrailRun", "VirtualRun", "Walk", "Hike"}
_OFFSET = re.compile(r"^\(GMT([+-])(\d{2}):(\d{2})\)")
_LOCAL = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z?$")


# ---------------------------------------------------------------- OAuth


def has_scope(granted: list[str], needed: str) -> bool:
    """Whether a token's scopes cover `needed` (a *:read_all scope covers its *:read)."""
    if needed in granted or needed == "read":
        return True
    return needed.endswith(":read") and f"{needed}_all" in granted


def authenticated(db: Database, *needed: str) -> tuple[dict[str, Any], list[str]]:
    """The athlete who authorized the app and the token's scopes; raises without a token or a needed scope."""
    token = db.find(oauth_tokens, id="current")
    if not token:
        raise PermissionDenied(
            "Authorization Error: no access token. The athlete must authorize this app on strava.com first."
        )
    scope = token[0]["scope"]
    for name in needed:
        if not has_scope(scope, name):
            raise PermissionDenied(
                f"Authorization Error: the token lacks the {name} scope. The athlete must "
                f"authorize the app again and approve {name}."
            )
    return db.get(athletes, token[0]["athlete_id"], "Athlete"), scope


def summary(row: dict[str, Any]) -> AthleteSummary:
    """An athlete row as an AthleteSummary."""
    return AthleteSummary(id=row["id"], firstname=row["firstname"], lastname=row["lastname"])


# ---------------------------------------------------------------- visibility


def follows_athlete(db: Database, follower_id: str, athlete_id: str) -> bool:
    """Whether one athlete follows another."""
    return bool(db.find(follows, id=f"{follower_id}-{athlete_id}"))


def can_view(db: Database, me: dict[str, Any], scope: list[str], activity: dict[str, Any]) -> bool:
    """Only Me activities are seen by their owner (with activity:read_all); Followers ones by followers too."""
    if activity["athlete_id"] == me["id"]:
        return activity["visibility"] != "only_me" or "activity:read_all" in scope
    if activity["visibility"] == "everyone":
        return True
    return activity["visibility"] == "followers_only" and follows_athlete(db, me["id"], activity["athlete_id"])


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


# ---------------------------------------------------------------- time


def parse_local(value: str) -> str:
    """A local start time as Strava stores it: 'YYYY-MM-DDTHH:MM:SSZ'."""
    text = value.strip()
    if not _LOCAL.match(text):
        raise InvalidRequest("start_date_local must be an ISO 8601 local time, e.g. 2025-06-12T06:30:00")
    text = text.rstrip("Z")
    if len(text) == 16:
        text += ":00"
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise InvalidRequest(f"start_date_local {value!r} is not a valid date and time") from None
    return text + "Z"


def utc_offset(timezone_label: str) -> int:
    """Seconds east of UTC from a Strava timezone label such as '(GMT-06:00) America/Denver'."""
    match = _OFFSET.match(timezone_label)
    if match is None:
        return 0
    seconds = int(match.group(2)) * 3600 + int(match.group(3)) * 60
    return -seconds if match.group(1) == "-" else seconds


def to_utc(local: str, offset: int) -> str:
    """The UTC instant of a local 'YYYY-MM-DDTHH:MM:SSZ' time."""
    moment = datetime.fromisoformat(local.rstrip("Z")) - timedelta(seconds=offset)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def add_seconds(local: str, seconds: int) -> str:
    """A 'YYYY-MM-DDTHH:MM:SSZ' time moved by `seconds`."""
    return (datetime.fromisoformat(local.rstrip("Z")) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def epoch(iso_utc: str) -> int:
    """Seconds since 1970 of a UTC 'YYYY-MM-DDTHH:MM:SSZ' time."""
    return int(datetime.fromisoformat(iso_utc.rstrip("Z")).replace(tzinfo=timezone.utc).timestamp())


def clock_time(seconds: int | None) -> str | None:
    """Seconds as Strava prints times: '5:42' or '1:02:03'."""
    if seconds is None:
        return None
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# ---------------------------------------------------------------- gear


def gear_kind(sport_type: str) -> str | None:
    """The kind of gear a sport takes: bike, shoes, or none."""
    if sport_type in BIKE_SPORTS:
        return "bike"
    return "shoes" if sport_type in SHOE_SPORTS else None


def default_gear(db: Database, athlete_id: str, sport_type: str) -> str | None:
    """The athlete's primary bike or shoes for a sport, if any."""
    kind = gear_kind(sport_type)
    if kind is None:
        return None
    found = db.find(gear, athlete_id=athlete_id, kind=kind, primary=True, retired=False)
    return found[0]["id"] if found else None


def usable_gear(db: Database, athlete_id: str, gear_id: str, sport_type: str) -> dict[str, Any]:
    """The athlete's own, active gear of the kind the sport takes."""
    found = db.find(gear, id=gear_id)
    if not found or found[0]["athlete_id"] != athlete_id:
        raise NotFound(f"Record Not Found: gear {gear_id}")
    item = found[0]
    if item["retired"]:
        raise InvalidRequest(f"'{item['name']}' is retired; un-retire it before adding it to an activity.")
    kind = gear_kind(sport_type)
    if kind != item["kind"]:
        needed = f"takes {'a bike' if kind == 'bike' else 'shoes'}" if kind else "takes no gear"
        raise InvalidRequest(f"'{item['name']}' can't be used for a {sport_type}: a {sport_type} {needed}.")
    return item


def move_gear_distance(db: Database, old_id: str | None, new_id: str | None, distance: float) -> None:
    """Move an activity's distance from one gear's total to another's."""
    if old_id == new_id or not distance:
        return
    if old_id is not None:
        old = db.get(gear, old_id, "Gear")
        db.update(gear, old_id, distance=round(max(old["distance"] - distance, 0.0), 1))
    if new_id is not None:
        new = db.get(gear, new_id, "Gear")
        db.update(gear, new_id, distance=round(new["distance"] + distance, 1))


def gear_object(row: dict[str, Any]) -> GearObject:
    """A gear row as a GearObject."""
    return GearObject(**{k: row[k] for k in GearObject.model_fields})


# ---------------------------------------------------------------- segments: PRs and leaderboards


def pr_rank(db: Database, effort: dict[str, Any]) -> int | None:
    """1-3 when the effort was among the athlete's three best on its segment at the time it was ridden or run."""
    history = [
        e
        for e in db.find(segment_efforts, segment_id=effort["segment_id"], athlete_id=effort["athlete_id"])
        if e["start_date"] <= effort["start_date"]
    ]
    history.sort(key=lambda e: (e["elapsed_time"], e["start_date"], e["id"]))
    rank = next(i for i, e in enumerate(history, start=1) if e["id"] == effort["id"])
    return rank if rank <= 3 else None


def leaderboard(db: Database, segment_id: str, sex: str | None = None) -> list[dict[str, Any]]:
    """Each athlete's best effort on a segment, fastest first; Only Me activities never count."""
    stmt = (
        select(segment_efforts, athletes.c.sex)
        .join(activities, activities.c.id == segment_efforts.c.activity_id)
        .join(athletes, athletes.c.id == segment_efforts.c.athlete_id)
        .where(segment_efforts.c.segment_id == segment_id, activities.c.visibility != "only_me")
    )
    if sex is not None:
        stmt = stmt.where(athletes.c.sex == sex)
    best: dict[str, dict[str, Any]] = {}
    for row in db.conn.execute(stmt).mappings():
        current = best.get(row["athlete_id"])
        key = (row["elapsed_time"], row["start_date"], row["id"])
        if current is None or key < (current["elapsed_time"], current["start_date"], current["id"]):
            best[row["athlete_id"]] = dict(row)
    return sorted(best.values(), key=lambda e: (e["elapsed_time"], e["start_date"], e["id"]))


def kom_rank(db: Database, effort: dict[str, Any]) -> int | None:
    """The effort's place (top 10) on its segment's KOM or QOM leaderboard, when it is the athlete's best."""
    sex = db.get(athletes, effort["athlete_id"], "Athlete")["sex"]
    for rank, entry in enumerate(leaderboard(db, effort["segment_id"], sex)[:10], start=1):
        if entry["id"] == effort["id"]:
            return rank
    return None


def is_starred(db: Database, athlete_id: str, segment_id: str) -> bool:
    """Whether the athlete starred the segment."""
    return bool(db.find(segment_stars, id=f"{athlete_id}-{segment_id}"))


def effort_object(db: Database, me: dict[str, Any], effort: dict[str, Any]) -> SegmentEffortObject:
    """An effort with its segment and derived ranks."""
    seg = db.get(segments, effort["segment_id"], "Segment")
    return SegmentEffortObject(
        **{
            k: effort[k]
            for k in (
                "id",
                "activity_id",
                "elapsed_time",
                "moving_time",
                "start_date_local",
                "distance",
                "average_heartrate",
                "average_watts",
            )
        },
        name=seg["name"],
        segment=SummarySegment(
            **{k: seg[k] for k in ("id", "name", "activity_type", "distance", "average_grade", "climb_category")},
            starred=is_starred(db, me["id"], seg["id"]),
        ),
        pr_rank=pr_rank(db, effort),
        kom_rank=kom_rank(db, effort),
    )


# ---------------------------------------------------------------- activities


def _count(db: Database, table: Any, activity_id: str) -> int:
    return db.conn.execute(select(func.count()).select_from(table).where(table.c.activity_id == activity_id)).scalar()


def summary_activity(db: Database, me: dict[str, Any], row: dict[str, Any]) -> SummaryActivity:
    """An activity row as a SummaryActivity, seen by the authenticated athlete."""
    return SummaryActivity(**_summary_fields(db, me, row))


def _summary_fields(db: Database, me: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    achievements = sum(
        1
        for e in db.find(segment_efforts, activity_id=row["id"])
        if pr_rank(db, e) is not None or kom_rank(db, e) is not None
    )
    return {
        **{k: row[k] for k in SummaryActivity.model_fields if k in row},
        "athlete": summary(db.get(athletes, row["athlete_id"], "Athlete")),
        "private": row["visibility"] == "only_me",
        "kudos_count": _count(db, kudos, row["id"]),
        "comment_count": _count(db, comments, row["id"]),
        "achievement_count": achievements,
        "has_kudoed": bool(db.find(kudos, id=f"{row['id']}-{me['id']}")),
    }


def detailed_activity(db: Database, me: dict[str, Any], row: dict[str, Any]) -> DetailedActivity:
    """An activity with laps, segment efforts and gear."""
    item = db.get(gear, row["gear_id"], "Gear") if row["gear_id"] else None
    efforts = db.find(segment_efforts, activity_id=row["id"], order_by=[segment_efforts.c.start_date])
    return DetailedActivity(
        **_summary_fields(db, me, row),
        **{
            k: row[k]
            for k in ("description", "average_heartrate", "max_heartrate", "average_watts", "calories", "device_name")
        },
        gear=GearRef(id=item["id"], name=item["name"], distance=item["distance"]) if item else None,
        laps=[
            LapObject(**{k: lap[k] for k in LapObject.model_fields})
            for lap in db.find(laps, activity_id=row["id"], order_by=[laps.c.lap_index])
        ],
        segment_efforts=[effort_object(db, me, e) for e in efforts],
    )
