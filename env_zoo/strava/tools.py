"""Strava API v3 tools: the authenticated athlete, activities, kudos and comments, segments, gear, clubs and
routes, plus what only the athlete does on strava.com (authorizing the app, uploading a watch file)."""

from __future__ import annotations

from typing import Literal

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from .objects import (
    ClubMember,
    ClubSummary,
    CommentObject,
    DetailedActivity,
    DetailedAthlete,
    DetailedClub,
    DetailedSegment,
    GearObject,
    HeartRateZones,
    KudosResult,
    MemberUpdate,
    MembershipResult,
    PowerZones,
    RouteObject,
    RouteSegment,
    SegmentStats,
    SummaryActivity,
    TokenObject,
    UploadObject,
    Visibility,
    Xoms,
    ZoneRange,
    Zones,
)
from .rules import (
    add_seconds,
    authenticated,
    can_view,
    clock_time,
    default_gear,
    detailed_activity,
    epoch,
    gear_kind,
    gear_object,
    is_starred,
    leaderboard,
    move_gear_distance,
    own_activity,
    parse_local,
    summary,
    summary_activity,
    to_utc,
    usable_gear,
    utc_offset,
    visible_activity,
)
from .schema import (
    activities,
    athletes,
    club_memberships,
    clubs,
    comments,
    device_files,
    follows,
    gear,
    kudos,
    laps,
    oauth_tokens,
    routes,
    segment_efforts,
    segment_stars,
    segments,
    uploads,
)

SportType = Literal[
    "AlpineSki",
    "BackcountrySki",
    "Canoeing",
    "Crossfit",
    "EBikeRide",
    "Elliptical",
    "EMountainBikeRide",
    "Golf",
    "GravelRide",
    "Handcycle",
    "HighIntensityIntervalTraining",
    "Hike",
    "IceSkate",
    "InlineSkate",
    "Kayaking",
    "Kitesurf",
    "MountainBikeRide",
    "NordicSki",
    "Pickleball",
    "Pilates",
    "Ride",
    "RockClimbing",
    "RollerSki",
    "Rowing",
    "Run",
    "Sail",
    "Skateboard",
    "Snowboard",
    "Snowshoe",
    "Soccer",
    "StairStepper",
    "StandUpPaddling",
    "Surfing",
    "Swim",
    "Tennis",
    "TrailRun",
    "Velomobile",
    "VirtualRide",
    "VirtualRow",
    "VirtualRun",
    "Walk",
    "WeightTraining",
    "Wheelchair",
    "Windsurf",
    "Workout",
    "Yoga",
]
Scope = Literal[
    "read", "read_all", "profile:read_all", "profile:write", "activity:read", "activity:read_all", "activity:write"
]
MemberAction = Literal["approve", "decline", "remove", "promote", "demote"]
HR_ZONE_SHARES = (0.65, 0.81, 0.89, 0.97)
POWER_ZONE_SHARES = (0.55, 0.75, 0.90, 1.05, 1.20, 1.50)
MAX_COMMENT = 1000


# ---------------------------------------------------------------- what only the athlete does


@tool(user_only=True)
def authorize_app(db: Database, email: str, scope: list[Scope] | None = None) -> TokenObject:
    """(User only, on strava.com) The athlete signs in and approves this app's access with the chosen scopes;
    the app then acts for that athlete. Authorizing again replaces the token and its scopes.

    Args:
        email: The athlete's Strava login email.
        scope: Scopes the athlete approves: read (public data), read_all (private routes and segments),
            profile:read_all, profile:write, activity:read, activity:read_all (includes Only Me activities),
            activity:write. Defaults to read and activity:read.
    """
    found = db.find(athletes, email=email.strip().lower())
    if not found:
        raise NotFound("The email or password did not match. Please try again.")
    granted = sorted({"read", *(scope or ["activity:read"])})
    db.conn.execute(oauth_tokens.delete())
    db.insert(oauth_tokens, id="current", athlete_id=found[0]["id"], scope=granted, authorized_at=db.now_iso())
    return TokenObject(token_type="Bearer", athlete=summary(found[0]), scope=granted)


_DAY_PARTS = ((5, "Morning"), (11, "Lunch"), (14, "Afternoon"), (18, "Evening"), (22, "Night"))
_SPORT_WORDS = {
    "VirtualRide": "Virtual Ride",
    "VirtualRun": "Virtual Run",
    "TrailRun": "Trail Run",
    "GravelRide": "Gravel Ride",
    "MountainBikeRide": "Mountain Bike Ride",
    "EBikeRide": "E-Bike Ride",
    "WeightTraining": "Weight Training",
}


def _default_name(sport_type: str, local: str) -> str:
    hour = int(local[11:13])
    part = "Night"
    for start, label in _DAY_PARTS:
        if hour >= start:
            part = label
    return f"{part} {_SPORT_WORDS.get(sport_type, sport_type)}"


@tool(user_only=True)
def upload_activity_file(
    db: Database,
    file_name: str,
    name: str | None = None,
    description: str = "",
    trainer: bool = False,
    commute: bool = False,
) -> UploadObject:
    """(User only, on strava.com) The athlete uploads an activity file from their watch or bike computer. Strava
    creates the activity with its laps and segment efforts, names it after the time of day unless a name is given,
    gives it the athlete's default gear and privacy, and rejects a file that was already uploaded.

    Args:
        file_name: The file's name on the device, e.g. "2025-06-14-06-12-40.fit" (.fit, .tcx or .gpx).
        name: The activity's name; defaults to e.g. "Morning Run".
        description: The activity's description.
        trainer: Whether it was done on a trainer or treadmill.
        commute: Whether it was a commute.
    """
    data_type = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    if data_type not in {"fit", "tcx", "gpx"}:
        raise InvalidRequest("data_type must be one of fit, tcx or gpx (from the file's extension).")
    found = db.find(device_files, id=file_name)
    if not found:
        raise NotFound(f"No file named {file_name} on the device.")
    file, data = found[0], found[0]["data"]
    athlete = db.get(athletes, file["athlete_id"], "Athlete")
    duplicate = db.find(activities, athlete_id=athlete["id"], external_id=file_name)
    if duplicate:
        raise Conflict(f"{file_name} duplicate of activity {duplicate[0]['id']}")
    offset = utc_offset(athlete["timezone"])
    local = data["start_date_local"]
    gear_id = default_gear(db, athlete["id"], data["sport_type"])
    activity = db.insert(
        activities,
        id=db.new_id(activities, "1451", 7),
        athlete_id=athlete["id"],
        name=name or _default_name(data["sport_type"], local),
        description=description,
        sport_type=data["sport_type"],
        workout_type=None,
        start_date=to_utc(local, offset),
        start_date_local=local,
        timezone=athlete["timezone"],
        utc_offset=offset,
        distance=data["distance"],
        moving_time=data["moving_time"],
        elapsed_time=data["elapsed_time"],
        total_elevation_gain=data["total_elevation_gain"],
        average_speed=round(data["distance"] / data["moving_time"], 3),
        max_speed=data["max_speed"],
        average_heartrate=data.get("average_heartrate"),
        max_heartrate=data.get("max_heartrate"),
        average_watts=data.get("average_watts"),
        calories=data.get("calories"),
        trainer=trainer,
        commute=commute,
        manual=False,
        visibility=athlete["default_visibility"],
        hide_from_home=False,
        gear_id=gear_id,
        device_name=file["device_name"],
        external_id=file_name,
    )
    move_gear_distance(db, None, gear_id, data["distance"])
    for index, lap in enumerate(data["laps"], start=1):
        db.insert(
            laps, id=db.new_id(laps, "5120", 7), activity_id=activity["id"], lap_index=index, name=f"Lap {index}", **lap
        )
    for effort in data["efforts"]:
        effort_local = add_seconds(local, effort["start_offset"])
        db.insert(
            segment_efforts,
            id=db.new_id(segment_efforts, "3291", 8),
            activity_id=activity["id"],
            segment_id=effort["segment_id"],
            athlete_id=athlete["id"],
            elapsed_time=effort["elapsed_time"],
            moving_time=effort["moving_time"],
            start_date=to_utc(effort_local, offset),
            start_date_local=effort_local,
            distance=effort["distance"],
            average_heartrate=effort.get("average_heartrate"),
            average_watts=effort.get("average_watts"),
        )
    upload_id = db.new_id(uploads, "1532", 7)
    db.insert(
        uploads,
        id=upload_id,
        athlete_id=athlete["id"],
        external_id=file_name,
        data_type=data_type,
        status="Your activity is ready.",
        error=None,
        activity_id=activity["id"],
        created_at=db.now_iso(),
    )
    return UploadObject(
        id=upload_id,
        id_str=upload_id,
        external_id=file_name,
        error=None,
        status="Your activity is ready.",
        activity_id=activity["id"],
    )


# ---------------------------------------------------------------- athlete


def _member_count(db: Database, club_id: str) -> int:
    return db.conn.execute(
        select(func.count())
        .select_from(club_memberships)
        .where(club_memberships.c.club_id == club_id, club_memberships.c.membership == "member")
    ).scalar()


@tool(read_only=True)
def get_logged_in_athlete(db: Database) -> DetailedAthlete:
    """The authenticated athlete's profile: location, weight, FTP, default privacy, follower counts, clubs
    (with membership and admin status), bikes and shoes (with distance, default and retired flags)."""
    me, _ = authenticated(db)
    club_rows = []
    for m in db.find(club_memberships, athlete_id=me["id"], order_by=[club_memberships.c.club_id]):
        club = db.get(clubs, m["club_id"], "Club")
        club_rows.append(
            ClubSummary(
                id=club["id"],
                name=club["name"],
                url=f"https://www.strava.com/clubs/{club['vanity']}",
                sport_type=club["sport_type"],
                city=club["city"],
                private=club["private"],
                verified=club["verified"],
                member_count=_member_count(db, club["id"]),
                membership=m["membership"],
                admin=m["role"] in {"admin", "owner"},
                owner=m["role"] == "owner",
            )
        )
    own_gear = db.find(gear, athlete_id=me["id"], order_by=[gear.c.name])
    return DetailedAthlete(
        **{k: me[k] for k in DetailedAthlete.model_fields if k in me},
        follower_count=len(db.find(follows, athlete_id=me["id"])),
        friend_count=len(db.find(follows, follower_id=me["id"])),
        clubs=club_rows,
        bikes=[gear_object(g) for g in own_gear if g["kind"] == "bike"],
        shoes=[gear_object(g) for g in own_gear if g["kind"] == "shoes"],
    )


def _zones_from(limit: int, shares: tuple[float, ...]) -> list[ZoneRange]:
    bounds = [round(limit * share) for share in shares]
    lows = [0, *(b + 1 for b in bounds)]
    return [ZoneRange(min=low, max=high) for low, high in zip(lows, [*bounds, -1])]


@tool(read_only=True)
def get_logged_in_athlete_zones(db: Database) -> Zones:
    """The authenticated athlete's heart rate zones (custom, or derived from max heart rate) and seven power
    zones derived from FTP. Needs the profile:read_all scope."""
    me, _ = authenticated(db, "profile:read_all")
    heart = None
    if me["custom_hr_zones"]:
        heart = HeartRateZones(custom_zones=True, zones=[ZoneRange(**z) for z in me["custom_hr_zones"]])
    elif me["max_heartrate"]:
        heart = HeartRateZones(custom_zones=False, zones=_zones_from(me["max_heartrate"], HR_ZONE_SHARES))
    power = PowerZones(zones=_zones_from(me["ftp"], POWER_ZONE_SHARES)) if me["ftp"] else None
    return Zones(heart_rate=heart, power=power)


@tool()
def update_logged_in_athlete(db: Database, weight: float | None = None, ftp: int | None = None) -> DetailedAthlete:
    """Update the authenticated athlete's weight and/or FTP (power zones follow the FTP). Needs profile:write.

    Args:
        weight: Body weight in kilograms, 20 to 300.
        ftp: Functional threshold power in watts, 50 to 600.
    """
    me, _ = authenticated(db, "profile:write")
    if weight is None and ftp is None:
        raise InvalidRequest("Give a weight, an ftp, or both.")
    changes: dict[str, float | int] = {}
    if weight is not None:
        if not 20 <= weight <= 300:
            raise InvalidRequest("weight must be between 20 and 300 kg.")
        changes["weight"] = round(float(weight), 1)
    if ftp is not None:
        if not 50 <= ftp <= 600:
            raise InvalidRequest("ftp must be between 50 and 600 watts.")
        changes["ftp"] = ftp
    db.update(athletes, me["id"], **changes)
    return get_logged_in_athlete(db)


# ---------------------------------------------------------------- activities


@tool(read_only=True)
def list_athlete_activities(
    db: Database,
    before: int | None = None,
    after: int | None = None,
    page_size: int = 30,
    cursor: str | None = None,
) -> Page[SummaryActivity]:
    """The authenticated athlete's activities, newest first. Needs activity:read; Only Me activities are listed
    only with activity:read_all.

    Args:
        before: Only activities that started before this time (seconds since the epoch, UTC).
        after: Only activities that started after this time (seconds since the epoch, UTC).
        page_size: Activities per page, 1 to 200.
        cursor: The next_cursor of the previous page.
    """
    me, scope = authenticated(db, "activity:read")
    rows = [
        r
        for r in db.find(activities, athlete_id=me["id"], order_by=[activities.c.start_date.desc()])
        if can_view(db, me, scope, r)
        and (before is None or epoch(r["start_date"]) < before)
        and (after is None or epoch(r["start_date"]) > after)
    ]
    page = paginate(rows, page_size, cursor, max_page_size=200)
    return Page[SummaryActivity](
        results=[summary_activity(db, me, r) for r in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool(read_only=True)
def get_activity(db: Database, activity_id: str) -> DetailedActivity:
    """One activity in full: stats, gear, laps and segment efforts with PR and KOM/QOM ranks. Works for the
    athlete's own activities and for others' that they may see (Everyone, or Followers when they follow).

    Args:
        activity_id: The activity's id.
    """
    me, scope = authenticated(db, "activity:read")
    return detailed_activity(db, me, visible_activity(db, me, scope, activity_id))


@tool()
def create_activity(
    db: Database,
    name: str,
    sport_type: SportType,
    start_date_local: str,
    elapsed_time: int,
    description: str = "",
    distance: float = 0.0,
    trainer: bool = False,
    commute: bool = False,
) -> DetailedActivity:
    """Create a manual activity (no GPS file) for the authenticated athlete. It gets the athlete's default privacy
    and, for rides and foot sports, their default bike or shoes, whose distance grows by the activity's. Needs
    activity:write.

    Args:
        name: The activity's name.
        sport_type: The sport, e.g. Run, TrailRun, Ride, VirtualRide, Swim, Hike, Walk, Yoga, WeightTraining.
        start_date_local: Start in the athlete's local time, ISO 8601, e.g. "2025-06-12T06:30:00".
        elapsed_time: Duration in seconds; must be greater than 0.
        description: The activity's description.
        distance: Distance in meters.
        trainer: Done on a trainer or treadmill.
        commute: Marked as a commute.
    """
    me, _ = authenticated(db, "activity:write")
    if not name.strip():
        raise InvalidRequest("name can't be blank.")
    if elapsed_time <= 0:
        raise InvalidRequest("elapsed_time must be greater than 0 seconds.")
    if distance < 0:
        raise InvalidRequest("distance can't be negative.")
    local = parse_local(start_date_local)
    offset = utc_offset(me["timezone"])
    start = to_utc(local, offset)
    if start > db.now_iso():
        raise InvalidRequest("start_date_local can't be in the future.")
    gear_id = default_gear(db, me["id"], sport_type)
    speed = round(distance / elapsed_time, 3)
    row = db.insert(
        activities,
        id=db.new_id(activities, "1451", 7),
        athlete_id=me["id"],
        name=name.strip(),
        description=description,
        sport_type=sport_type,
        workout_type=None,
        start_date=start,
        start_date_local=local,
        timezone=me["timezone"],
        utc_offset=offset,
        distance=float(distance),
        moving_time=elapsed_time,
        elapsed_time=elapsed_time,
        total_elevation_gain=0.0,
        average_speed=speed,
        max_speed=speed,
        average_heartrate=None,
        max_heartrate=None,
        average_watts=None,
        calories=None,
        trainer=trainer,
        commute=commute,
        manual=True,
        visibility=me["default_visibility"],
        hide_from_home=False,
        gear_id=gear_id,
        device_name=None,
        external_id=None,
    )
    move_gear_distance(db, None, gear_id, row["distance"])
    return detailed_activity(db, me, row)


@tool()
def update_activity(
    db: Database,
    activity_id: str,
    name: str | None = None,
    description: str | None = None,
    sport_type: SportType | None = None,
    gear_id: str | None = None,
    commute: bool | None = None,
    trainer: bool | None = None,
    hide_from_home: bool | None = None,
    visibility: Visibility | None = None,
) -> DetailedActivity:
    """Edit one of the authenticated athlete's activities. Changing the gear moves the activity's distance from the
    old gear's total to the new one's; changing the sport to one the current gear doesn't fit switches to the
    default gear of the new sport (or none). Only Me activities drop off segment leaderboards. Needs
    activity:write.

    Args:
        activity_id: The activity to edit.
        name: New name.
        description: New description.
        sport_type: New sport.
        gear_id: The athlete's bike or shoes to use, or "none" to remove the gear.
        commute: Mark or unmark as a commute.
        trainer: Mark or unmark as done on a trainer or treadmill.
        hide_from_home: Mute the activity from followers' home feeds.
        visibility: Who can see it: everyone, followers_only or only_me.
    """
    me, scope = authenticated(db, "activity:write")
    row = own_activity(db, me, scope, activity_id)
    given = {
        "name": name,
        "description": description,
        "sport_type": sport_type,
        "commute": commute,
        "trainer": trainer,
        "hide_from_home": hide_from_home,
        "visibility": visibility,
    }
    changes = {k: v for k, v in given.items() if v is not None}
    if not changes and gear_id is None:
        raise InvalidRequest("Nothing to update: give at least one field.")
    if name is not None and not name.strip():
        raise InvalidRequest("name can't be blank.")
    if name is not None:
        changes["name"] = name.strip()
    sport = sport_type or row["sport_type"]
    new_gear = row["gear_id"]
    if gear_id is not None:
        new_gear = None if gear_id == "none" else usable_gear(db, me["id"], gear_id, sport)["id"]
    elif row["gear_id"] is not None and gear_kind(sport) != db.get(gear, row["gear_id"], "Gear")["kind"]:
        new_gear = default_gear(db, me["id"], sport)
    move_gear_distance(db, row["gear_id"], new_gear, row["distance"])
    return detailed_activity(db, me, db.update(activities, row["id"], gear_id=new_gear, **changes))


@tool()
def give_kudos(db: Database, activity_id: str) -> KudosResult:
    """Give kudos to another athlete's activity that the authenticated athlete can see. Not on your own
    activities, and only once per activity. Needs activity:write.

    Args:
        activity_id: The activity to give kudos to.
    """
    me, scope = authenticated(db, "activity:write")
    row = visible_activity(db, me, scope, activity_id)
    if row["athlete_id"] == me["id"]:
        raise InvalidRequest("You can't give kudos to your own activity.")
    key = f"{row['id']}-{me['id']}"
    if db.find(kudos, id=key):
        raise Conflict("You already gave kudos to this activity.")
    db.insert(kudos, id=key, activity_id=row["id"], athlete_id=me["id"])
    return KudosResult(activity_id=row["id"], kudos_count=len(db.find(kudos, activity_id=row["id"])), has_kudoed=True)


@tool()
def create_activity_comment(db: Database, activity_id: str, text: str) -> CommentObject:
    """Comment on an activity the authenticated athlete can see (their own or another's). Needs activity:write.

    Args:
        activity_id: The activity to comment on.
        text: The comment, up to 1000 characters.
    """
    me, scope = authenticated(db, "activity:write")
    row = visible_activity(db, me, scope, activity_id)
    body = text.strip()
    if not body:
        raise InvalidRequest("text can't be blank.")
    if len(body) > MAX_COMMENT:
        raise InvalidRequest(f"text is longer than {MAX_COMMENT} characters.")
    comment = db.insert(
        comments,
        id=db.new_id(comments, "9870", 6),
        activity_id=row["id"],
        athlete_id=me["id"],
        text=body,
        created_at=db.now_iso(),
    )
    return CommentObject(
        id=comment["id"], activity_id=row["id"], athlete=summary(me), text=body, created_at=comment["created_at"]
    )


# ---------------------------------------------------------------- segments


def _visible_segment(db: Database, me: dict, scope: list[str], segment_id: str) -> dict:
    found = db.find(segments, id=str(segment_id))
    if not found or (found[0]["private"] and (found[0]["created_by"] != me["id"] or "read_all" not in scope)):
        raise NotFound(f"Record Not Found: segment {segment_id}")
    return found[0]


def _detailed_segment(db: Database, me: dict, seg: dict) -> DetailedSegment:
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


@tool(read_only=True)
def get_segment(db: Database, segment_id: str) -> DetailedSegment:
    """A segment with its KOM, QOM and overall best times, star count, and the authenticated athlete's PR and
    effort count. Private segments are seen only by their creator with the read_all scope.

    Args:
        segment_id: The segment's id, e.g. from an activity's segment efforts.
    """
    me, scope = authenticated(db)
    return _detailed_segment(db, me, _visible_segment(db, me, scope, segment_id))


@tool()
def star_segment(db: Database, segment_id: str, starred: bool = True) -> DetailedSegment:
    """Star or unstar a segment for the authenticated athlete (starring twice changes nothing). Needs
    profile:write.

    Args:
        segment_id: The segment's id.
        starred: True to star, False to unstar.
    """
    me, scope = authenticated(db, "profile:write")
    seg = _visible_segment(db, me, scope, segment_id)
    key = f"{me['id']}-{seg['id']}"
    exists = bool(db.find(segment_stars, id=key))
    if starred and not exists:
        db.insert(segment_stars, id=key, athlete_id=me["id"], segment_id=seg["id"])
    if not starred and exists:
        db.delete(segment_stars, key)
    return _detailed_segment(db, me, seg)


# ---------------------------------------------------------------- gear


@tool()
def update_gear(
    db: Database,
    gear_id: str,
    name: str | None = None,
    primary: bool | None = None,
    retired: bool | None = None,
    notification_distance: float | None = None,
) -> GearObject:
    """Edit one of the authenticated athlete's bikes or shoes: rename, make it the default for new activities of
    its kind (the previous default stops being one), retire or un-retire it (retired gear can't be the default),
    or set the shoes' replacement reminder. Needs profile:write.

    Args:
        gear_id: The bike's or shoes' id, from get_logged_in_athlete.
        name: New nickname.
        primary: True to make it the default bike or shoes.
        retired: True to retire it, False to bring it back.
        notification_distance: Shoes only: remind at this distance, in meters.
    """
    me, _ = authenticated(db, "profile:write")
    found = db.find(gear, id=gear_id)
    if not found or found[0]["athlete_id"] != me["id"]:
        raise NotFound(f"Record Not Found: gear {gear_id}")
    item = found[0]
    if name is None and primary is None and retired is None and notification_distance is None:
        raise InvalidRequest("Nothing to update: give at least one field.")
    changes: dict = {}
    if name is not None:
        if not name.strip():
            raise InvalidRequest("name can't be blank.")
        changes["name"] = name.strip()
    if notification_distance is not None:
        if item["kind"] != "shoes":
            raise InvalidRequest("Only shoes have a replacement reminder.")
        if notification_distance <= 0:
            raise InvalidRequest("notification_distance must be greater than 0.")
        changes["notification_distance"] = float(notification_distance)
    is_retired = item["retired"] if retired is None else retired
    if retired is not None:
        changes["retired"] = retired
        if retired:
            changes["primary"] = False
    if primary:
        if is_retired:
            raise InvalidRequest(f"'{item['name']}' is retired and can't be your default {item['kind']}.")
        for other in db.find(gear, athlete_id=me["id"], kind=item["kind"], primary=True):
            db.update(gear, other["id"], primary=False)
        changes["primary"] = True
    elif primary is False:
        changes["primary"] = False
    return gear_object(db.update(gear, item["id"], **changes))


# ---------------------------------------------------------------- clubs


def _club(db: Database, club_id: str) -> dict:
    found = db.find(clubs, id=str(club_id)) or db.find(clubs, vanity=str(club_id).strip().lower())
    if not found:
        raise NotFound(f"Record Not Found: club {club_id}")
    return found[0]


def _membership(db: Database, club_id: str, athlete_id: str) -> dict | None:
    found = db.find(club_memberships, id=f"{club_id}-{athlete_id}")
    return found[0] if found else None


def _club_member(db: Database, row: dict) -> ClubMember:
    return ClubMember(
        athlete=summary(db.get(athletes, row["athlete_id"], "Athlete")), membership=row["membership"], role=row["role"]
    )


@tool(read_only=True)
def get_club(db: Database, club_id: str) -> DetailedClub:
    """A club by id or by the vanity name in its link (strava.com/clubs/<vanity>), with the authenticated
    athlete's membership. Members see the member list; admins also see pending join requests.

    Args:
        club_id: The club's id, or its vanity name, e.g. "boulder-trail-runners".
    """
    me, _ = authenticated(db)
    club = _club(db, club_id)
    mine = _membership(db, club["id"], me["id"])
    is_member = mine is not None and mine["membership"] == "member"
    is_admin = is_member and mine["role"] in {"admin", "owner"}
    rows = db.find(club_memberships, club_id=club["id"], order_by=[club_memberships.c.athlete_id])
    return DetailedClub(
        **{k: club[k] for k in DetailedClub.model_fields if k in club},
        url=f"https://www.strava.com/clubs/{club['vanity']}",
        member_count=_member_count(db, club["id"]),
        membership=mine["membership"] if mine else None,
        admin=is_admin,
        owner=is_member and mine["role"] == "owner",
        members=[_club_member(db, r) for r in rows if r["membership"] == "member"] if is_member else [],
        join_requests=[_club_member(db, r) for r in rows if r["membership"] == "pending"] if is_admin else [],
    )


@tool()
def join_club(db: Database, club_id: str) -> MembershipResult:
    """Join a club as the authenticated athlete. Public clubs admit at once; private clubs record a request
    that an admin must approve. Needs profile:write.

    Args:
        club_id: The club's id or vanity name.
    """
    me, _ = authenticated(db, "profile:write")
    club = _club(db, club_id)
    mine = _membership(db, club["id"], me["id"])
    if mine is not None:
        state = "are already a member of" if mine["membership"] == "member" else "already asked to join"
        raise Conflict(f"You {state} {club['name']}.")
    membership = "pending" if club["private"] else "member"
    db.insert(
        club_memberships,
        id=f"{club['id']}-{me['id']}",
        club_id=club["id"],
        athlete_id=me["id"],
        membership=membership,
        role="member",
        joined_at=db.now_iso(),
    )
    return MembershipResult(success=True, active=membership == "member", membership=membership)


@tool()
def leave_club(db: Database, club_id: str) -> MembershipResult:
    """Leave a club, or withdraw a pending request to join. The owner can't leave their own club. Needs
    profile:write.

    Args:
        club_id: The club's id or vanity name.
    """
    me, _ = authenticated(db, "profile:write")
    club = _club(db, club_id)
    mine = _membership(db, club["id"], me["id"])
    if mine is None:
        raise Conflict(f"You are not a member of {club['name']}.")
    if mine["role"] == "owner":
        raise Conflict(f"You own {club['name']}; make another admin the owner before leaving.")
    db.delete(club_memberships, mine["id"])
    return MembershipResult(success=True, active=False, membership=None)


@tool()
def manage_club_member(db: Database, club_id: str, athlete_id: str, action: MemberAction) -> MemberUpdate:
    """Club admins only: approve or decline a request to join, remove a member, or make a member an admin
    (promote) or an admin a member again (demote). Only the owner may remove or demote an admin; nobody can
    act on the owner or on themselves. Needs profile:write.

    Args:
        club_id: The club's id or vanity name.
        athlete_id: The member or requester, from get_club.
        action: approve, decline, remove, promote or demote.
    """
    me, _ = authenticated(db, "profile:write")
    club = _club(db, club_id)
    mine = _membership(db, club["id"], me["id"])
    if mine is None or mine["membership"] != "member" or mine["role"] not in {"admin", "owner"}:
        raise PermissionDenied(f"Only admins of {club['name']} can manage its members.")
    if athlete_id == me["id"]:
        raise InvalidRequest("You can't manage your own membership; use leave_club to leave.")
    target = _membership(db, club["id"], athlete_id)
    if target is None:
        raise NotFound(f"Athlete {athlete_id} is not a member of {club['name']} and has not asked to join.")
    who = summary(db.get(athletes, athlete_id, "Athlete"))
    if target["role"] == "owner":
        raise PermissionDenied(f"{who.firstname} {who.lastname} owns {club['name']}.")
    pending = target["membership"] == "pending"
    if action in {"approve", "decline"} and not pending:
        raise Conflict(f"{who.firstname} {who.lastname} is already a member; there is no request to {action}.")
    if action in {"remove", "promote", "demote"} and pending:
        raise Conflict(f"{who.firstname} {who.lastname} has only asked to join; approve or decline the request.")
    if action in {"remove", "demote"} and target["role"] == "admin" and mine["role"] != "owner":
        raise PermissionDenied(f"Only the owner of {club['name']} can {action} an admin.")
    if action == "promote" and target["role"] == "admin":
        raise Conflict(f"{who.firstname} {who.lastname} is already an admin.")
    if action == "demote" and target["role"] != "admin":
        raise Conflict(f"{who.firstname} {who.lastname} is not an admin.")
    membership, role = None, None
    if action in {"decline", "remove"}:
        db.delete(club_memberships, target["id"])
    else:
        updated = db.update(
            club_memberships,
            target["id"],
            **(
                {"membership": "member"}
                if action == "approve"
                else {"role": "admin" if action == "promote" else "member"}
            ),
        )
        membership, role = updated["membership"], updated["role"]
    return MemberUpdate(
        club_id=club["id"],
        athlete=who,
        action=action,
        membership=membership,
        role=role,
        member_count=_member_count(db, club["id"]),
    )


@tool(read_only=True)
def list_club_activities(
    db: Database, club_id: str, page_size: int = 30, cursor: str | None = None
) -> Page[SummaryActivity]:
    """Recent activities of a club's members, newest first, as the authenticated athlete may see them. Only
    members can read a club's feed.

    Args:
        club_id: The club's id or vanity name.
        page_size: Activities per page, 1 to 200.
        cursor: The next_cursor of the previous page.
    """
    me, scope = authenticated(db)
    club = _club(db, club_id)
    mine = _membership(db, club["id"], me["id"])
    if mine is None or mine["membership"] != "member":
        raise PermissionDenied(f"Only members of {club['name']} can see its activities.")
    members = [m["athlete_id"] for m in db.find(club_memberships, club_id=club["id"], membership="member")]
    rows = db.find(activities, activities.c.athlete_id.in_(members), order_by=[activities.c.start_date.desc()])
    page = paginate([r for r in rows if can_view(db, me, scope, r)], page_size, cursor, max_page_size=200)
    return Page[SummaryActivity](
        results=[summary_activity(db, me, r) for r in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


# ---------------------------------------------------------------- routes


@tool(read_only=True)
def list_athlete_routes(db: Database, page_size: int = 30, cursor: str | None = None) -> Page[RouteObject]:
    """The authenticated athlete's routes, newest first, with distance, elevation gain, estimated moving time and
    segments along the way. Private routes are listed only with the read_all scope.

    Args:
        page_size: Routes per page, 1 to 200.
        cursor: The next_cursor of the previous page.
    """
    me, scope = authenticated(db)
    rows = [
        r
        for r in db.find(routes, athlete_id=me["id"], order_by=[routes.c.created_at.desc()])
        if not r["private"] or "read_all" in scope
    ]
    page = paginate(rows, page_size, cursor, max_page_size=200)
    results = [
        RouteObject(
            **{k: r[k] for k in RouteObject.model_fields if k in r},
            segments=[RouteSegment(id=s, name=db.get(segments, s, "Segment")["name"]) for s in r["segment_ids"]],
        )
        for r in page.results
    ]
    return Page[RouteObject](results=results, next_cursor=page.next_cursor, has_more=page.has_more)
