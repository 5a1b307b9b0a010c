"""Strava API v3 objects as output models (DetailedAthlete, SummaryActivity, DetailedSegment, ...)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import func, select

from envfactory_gym import Database

from .rules import Ranks, clock_time, is_starred, leaderboard
from .schema import (
    athletes,
    comments,
    gear,
    kudos,
    laps,
    segment_efforts,
    segment_stars,
    segments,
)

Visibility = Literal["everyone", "followers_only", "only_me"]


class AthleteSummary(BaseModel):
    """Another athlete as Strava shows them (MetaAthlete with name)."""

    id: str
    firstname: str
    lastname: str


class TokenObject(BaseModel):
    """The access token the app received after the athlete approved it."""

    token_type: str
    athlete: AthleteSummary
    scope: list[str]


class GearObject(BaseModel):
    """A bike or a pair of shoes of the athlete (DetailedGear)."""

    id: str
    kind: Literal["bike", "shoes"]
    name: str
    brand_name: str
    model_name: str
    frame_type: int | None = Field(description="bikes: 1 mtb, 2 cross, 3 road, 4 time trial, 5 gravel")
    description: str
    primary: bool = Field(description="the default gear for new activities of its kind")
    retired: bool
    distance: float = Field(description="meters, the starting distance plus every activity with this gear")
    notification_distance: float | None = Field(description="meters; shoes: remind me to replace them at")


class ClubSummary(BaseModel):
    """A club of the athlete (SummaryClub with the athlete's membership)."""

    id: str
    name: str
    url: str
    sport_type: str
    city: str
    private: bool
    verified: bool
    member_count: int
    membership: Literal["member", "pending"]
    admin: bool
    owner: bool


class DetailedAthlete(BaseModel):
    """The authenticated athlete's profile with clubs, bikes and shoes."""

    id: str
    username: str
    firstname: str
    lastname: str
    bio: str
    city: str
    state: str
    country: str
    sex: str
    summit: bool
    created_at: str
    follower_count: int
    friend_count: int = Field(description="athletes this athlete follows")
    measurement_preference: str
    weight: float | None = Field(description="kilograms")
    ftp: int | None = Field(description="functional threshold power, watts")
    default_visibility: str = Field(description="privacy given to new activities")
    clubs: list[ClubSummary]
    bikes: list[GearObject]
    shoes: list[GearObject]


class ZoneRange(BaseModel):
    """One zone; max -1 means no upper bound."""

    min: int
    max: int


class HeartRateZones(BaseModel):
    """Heart rate zones, from the athlete's max heart rate unless set by hand."""

    custom_zones: bool
    zones: list[ZoneRange]


class PowerZones(BaseModel):
    """Seven power zones derived from FTP."""

    zones: list[ZoneRange]


class Zones(BaseModel):
    """The athlete's training zones."""

    heart_rate: HeartRateZones | None
    power: PowerZones | None = Field(description="only when an FTP is set")


class SummaryActivity(BaseModel):
    """An activity in a listing."""

    id: str
    athlete: AthleteSummary
    name: str
    sport_type: str
    workout_type: int | None
    start_date: str
    start_date_local: str
    timezone: str
    distance: float = Field(description="meters")
    moving_time: int = Field(description="seconds")
    elapsed_time: int = Field(description="seconds")
    total_elevation_gain: float = Field(description="meters")
    average_speed: float = Field(description="meters per second")
    max_speed: float
    trainer: bool
    commute: bool
    manual: bool
    private: bool
    visibility: Visibility
    hide_from_home: bool
    gear_id: str | None
    kudos_count: int
    comment_count: int
    achievement_count: int = Field(description="segment PRs and KOM/QOM placings of this activity")
    has_kudoed: bool = Field(description="whether the authenticated athlete gave kudos")


class LapObject(BaseModel):
    """A lap of a recorded activity."""

    id: str
    lap_index: int
    name: str
    elapsed_time: int
    moving_time: int
    distance: float
    total_elevation_gain: float
    average_speed: float
    average_heartrate: float | None
    average_watts: float | None


class SummarySegment(BaseModel):
    """A segment as an effort shows it."""

    id: str
    name: str
    activity_type: str
    distance: float
    average_grade: float
    climb_category: int
    starred: bool


class SegmentEffortObject(BaseModel):
    """An effort on a segment within an activity; ranks are derived from all efforts."""

    id: str
    name: str
    activity_id: str
    segment: SummarySegment
    elapsed_time: int
    moving_time: int
    start_date_local: str
    distance: float
    average_heartrate: float | None
    average_watts: float | None
    pr_rank: int | None = Field(description="1-3 when among the athlete's three best times on the segment then")
    kom_rank: int | None = Field(description="1-10 on the KOM (men) or QOM (women) leaderboard; 1 holds the crown")


class GearRef(BaseModel):
    """The gear used for an activity."""

    id: str
    name: str
    distance: float


class DetailedActivity(SummaryActivity):
    """An activity with description, effort data, gear, laps and segment efforts."""

    description: str
    average_heartrate: float | None
    max_heartrate: float | None
    average_watts: float | None
    calories: float | None
    device_name: str | None
    gear: GearRef | None
    laps: list[LapObject]
    segment_efforts: list[SegmentEffortObject]


class SegmentStats(BaseModel):
    """The authenticated athlete's record on a segment."""

    pr_elapsed_time: int | None
    pr_date: str | None
    pr_activity_id: str | None
    effort_count: int


class Xoms(BaseModel):
    """The fastest times on the leaderboard, formatted like Strava ("5:42")."""

    kom: str | None
    qom: str | None
    overall: str | None


class DetailedSegment(BaseModel):
    """A segment with leaderboard crowns and the athlete's own stats."""

    id: str
    name: str
    activity_type: str
    distance: float
    average_grade: float
    maximum_grade: float
    elevation_high: float
    elevation_low: float
    total_elevation_gain: float
    climb_category: int = Field(description="0 uncategorized, 1 cat 4, 2 cat 3, 3 cat 2, 4 cat 1, 5 HC")
    start_latlng: list[float]
    end_latlng: list[float]
    city: str
    state: str
    country: str
    private: bool
    hazardous: bool
    starred: bool
    star_count: int
    effort_count: int
    athlete_count: int
    athlete_segment_stats: SegmentStats
    xoms: Xoms


class KudosResult(BaseModel):
    """The activity's kudos after giving one."""

    activity_id: str
    kudos_count: int
    has_kudoed: bool


class CommentObject(BaseModel):
    """A comment on an activity."""

    id: str
    activity_id: str
    athlete: AthleteSummary
    text: str
    created_at: str


class ClubMember(BaseModel):
    """A member of a club, or an athlete asking to join."""

    athlete: AthleteSummary
    membership: Literal["member", "pending"]
    role: Literal["member", "admin", "owner"]


class DetailedClub(BaseModel):
    """A club; members are listed to members, join requests to admins."""

    id: str
    name: str
    vanity: str
    url: str
    sport_type: str
    description: str
    city: str
    state: str
    country: str
    private: bool = Field(description="joining needs an admin's approval")
    verified: bool
    member_count: int
    membership: Literal["member", "pending"] | None
    admin: bool
    owner: bool
    members: list[ClubMember]
    join_requests: list[ClubMember]


class MembershipResult(BaseModel):
    """The athlete's membership after joining or leaving a club."""

    success: bool
    active: bool
    membership: Literal["member", "pending"] | None


class MemberUpdate(BaseModel):
    """A club member after an admin's action."""

    club_id: str
    athlete: AthleteSummary
    action: str
    membership: Literal["member", "pending"] | None = Field(description="None once removed or declined")
    role: Literal["member", "admin", "owner"] | None
    member_count: int


class RouteSegment(BaseModel):
    """A segment along a route."""

    id: str
    name: str


class RouteObject(BaseModel):
    """A route the athlete created."""

    id: str
    name: str
    description: str
    type: int = Field(description="1 ride, 2 run")
    sub_type: int = Field(description="1 road, 2 mountain bike, 3 cross, 4 trail, 5 mixed")
    distance: float
    elevation_gain: float
    estimated_moving_time: int
    private: bool
    starred: bool
    created_at: str
    segments: list[RouteSegment]


class UploadObject(BaseModel):
    """An upload and the activity it became."""

    id: str
    id_str: str
    external_id: str
    error: str | None
    status: str
    activity_id: str | None


# ---------------------------------------------------------------- row -> object


def summary(row: dict[str, Any]) -> AthleteSummary:
    """An athlete row as an AthleteSummary."""
    return AthleteSummary(id=row["id"], firstname=row["firstname"], lastname=row["lastname"])


def gear_object(row: dict[str, Any]) -> GearObject:
    """A gear row as a GearObject."""
    return GearObject(**{k: row[k] for k in GearObject.model_fields})


def effort_object(db: Database, me: dict[str, Any], effort: dict[str, Any], ranks: Ranks) -> SegmentEffortObject:
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
        pr_rank=ranks.pr(effort),
        kom_rank=ranks.kom(effort),
    )


def summary_activities(db: Database, me: dict[str, Any], rows: list[dict[str, Any]]) -> list[SummaryActivity]:
    """Activity rows as SummaryActivity objects seen by the authenticated athlete, in a few queries per page."""
    return [SummaryActivity(**fields) for fields in _summary_fields(db, me, rows)]


def _in(column: Any, values: list[Any]) -> Any:
    return column.in_(list(dict.fromkeys(values)))


def _summary_fields(db: Database, me: dict[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = [r["id"] for r in rows]
    if not ids:
        return []
    people = {a["id"]: a for a in db.find(athletes, _in(athletes.c.id, [r["athlete_id"] for r in rows]))}
    counts = {}
    for table in (kudos, comments):
        stmt = (
            select(table.c.activity_id, func.count()).where(_in(table.c.activity_id, ids)).group_by(table.c.activity_id)
        )
        counts[table.name] = dict(db.conn.execute(stmt).all())
    mine = {f"{i}-{me['id']}" for i in ids}
    kudoed = {k["id"] for k in db.find(kudos, _in(kudos.c.id, list(mine)))}
    ranks = Ranks(db)
    efforts = db.find(segment_efforts, _in(segment_efforts.c.activity_id, ids))
    ranks.preload(efforts)
    achievements: dict[str, int] = {}
    for e in efforts:
        hit = ranks.pr(e) is not None or ranks.kom(e) is not None
        achievements[e["activity_id"]] = achievements.get(e["activity_id"], 0) + hit
    return [
        {
            **{k: row[k] for k in SummaryActivity.model_fields if k in row},
            "athlete": summary(people[row["athlete_id"]]),
            "private": row["visibility"] == "only_me",
            "kudos_count": counts["kudos"].get(row["id"], 0),
            "comment_count": counts["comments"].get(row["id"], 0),
            "achievement_count": achievements.get(row["id"], 0),
            "has_kudoed": f"{row['id']}-{me['id']}" in kudoed,
        }
        for row in rows
    ]


def detailed_activity(db: Database, me: dict[str, Any], row: dict[str, Any]) -> DetailedActivity:
    """An activity with laps, segment efforts and gear."""
    item = db.get(gear, row["gear_id"], "Gear") if row["gear_id"] else None
    efforts = db.find(segment_efforts, activity_id=row["id"], order_by=[segment_efforts.c.start_date])
    ranks = Ranks(db)
    ranks.preload(efforts)
    return DetailedActivity(
        **_summary_fields(db, me, [row])[0],
        **{
            k: row[k]
            for k in ("description", "average_heartrate", "max_heartrate", "average_watts", "calories", "device_name")
        },
        gear=GearRef(id=item["id"], name=item["name"], distance=item["distance"]) if item else None,
        laps=[
            LapObject(**{k: lap[k] for k in LapObject.model_fields})
            for lap in db.find(laps, activity_id=row["id"], order_by=[laps.c.lap_index])
        ],
        segment_efforts=[effort_object(db, me, e, ranks) for e in efforts],
    )


def detailed_segment(db: Database, me: dict, seg: dict) -> DetailedSegment:
    """A segment with the athlete's stats on it and its KOM, QOM and overall record times."""
    mine = db.find(segment_efforts, segment_id=seg["id"], athlete_id=me["id"])
    best = min(mine, key=lambda e: (e["elapsed_time"], e["start_date"], e["id"])) if mine else None
    crowns = {sex: leaderboard(db, seg["id"], sex) for sex in ("M", "F")}
    overall = leaderboard(db, seg["id"])
    all_efforts = db.find(segment_efforts, segment_id=seg["id"])
    return DetailedSegment(
        **{k: seg[k] for k in DetailedSegment.model_fields if k in seg},
        starred=is_starred(db, me["id"], seg["id"]),
        star_count=len(db.find(segment_stars, segment_id=seg["id"])),
        effort_count=len(all_efforts),
        athlete_count=len({e["athlete_id"] for e in all_efforts}),
        athlete_segment_stats=SegmentStats(
            pr_elapsed_time=best["elapsed_time"] if best else None,
            pr_date=best["start_date_local"][:10] if best else None,
            pr_activity_id=best["activity_id"] if best else None,
            effort_count=len(mine),
        ),
        xoms=Xoms(
            kom=clock_time(crowns["M"][0]["elapsed_time"]) if crowns["M"] else None,
            qom=clock_time(crowns["F"][0]["elapsed_time"]) if crowns["F"] else None,
            overall=clock_time(overall[0]["elapsed_time"]) if overall else None,
        ),
    )


def club_member(db: Database, row: dict) -> ClubMember:
    """A membership row as a ClubMember."""
    return ClubMember(
        athlete=summary(db.get(athletes, row["athlete_id"], "Athlete")), membership=row["membership"], role=row["role"]
    )


def zones_from(limit: int, shares: tuple[float, ...]) -> list[ZoneRange]:
    """Zones from a limit (max heart rate or FTP) and each zone's upper share of it; the last is open."""
    bounds = [round(limit * share) for share in shares]
    lows = [0, *(b + 1 for b in bounds)]
    return [ZoneRange(min=low, max=high) for low, high in zip(lows, [*bounds, -1])]
