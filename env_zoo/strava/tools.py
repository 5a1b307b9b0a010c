"""Strava API v3 tools: the authenticated athlete, activities, kudos and comments, segments, gear, clubs and
routes, plus what only the athlete does on strava.com (authorizing the app, uploading a watch file)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, page_size

from .access import viewable, sign_in, authenticated, visible_activity, own_activity, visible_segment
from .objects import (
    Visibility,
    TokenObject,
    GearObject,
    ClubSummary,
    DetailedAthlete,
    ZoneRange,
    HeartRateZones,
    PowerZones,
    Zones,
    SummaryActivity,
    DetailedActivity,
    DetailedSegment,
    KudosResult,
    CommentObject,
    DetailedClub,
    MembershipResult,
    MemberUpdate,
    RouteSegment,
    RouteObject,
    UploadObject,
    summary,
    gear_object,
    summary_activities,
    detailed_activity,
    detailed_segment,
    club_member,
    zones_from,
)
from .rules import (
    LATEST_EPOCH,
    activities_of,
    member_count,
    find_club,
    membership_row,
    record_upload,
    manual_activity,
    gear_changes,
    regear,
    LOCAL_PATTERN,
    HR_ZONE_SHARES,
    POWER_ZONE_SHARES,
)
from .schema import (
    activities,
    athletes,
    club_memberships,
    clubs,
    comments,
    follows,
    gear,
    kudos,
    routes,
    segment_stars,
    segments,
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
MAX_COMMENT = 1000
ActivityName = Annotated[str, Field(pattern=r"\S"), ErrorText("name can't be blank.")]
GearName = ActivityName
LocalTime = Annotated[
    str,
    Field(pattern=LOCAL_PATTERN),
    ErrorText("start_date_local must be an ISO 8601 local time, e.g. 2025-06-12T06:30:00"),
]
CommentText = Annotated[
    str,
    Field(max_length=MAX_COMMENT, pattern=r"\S"),
    ErrorText(f"text can't be blank or longer than {MAX_COMMENT} characters."),
]
Weight = Annotated[float, Field(ge=20, le=300), ErrorText("weight must be between 20 and 300 kg.")]
EpochSeconds = Annotated[int, Field(ge=0, le=LATEST_EPOCH)]
Ftp = Annotated[int, Field(ge=50, le=600), ErrorText("ftp must be between 50 and 600 watts.")]


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
    athlete, granted = sign_in(db, email, scope or ["activity:read"])
    return TokenObject(token_type="Bearer", athlete=summary(athlete), scope=granted)


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
    upload = record_upload(db, file_name, name, description, trainer, commute)
    return UploadObject(
        id=upload["id"],
        id_str=upload["id"],
        external_id=file_name,
        error=None,
        status=upload["status"],
        activity_id=upload["activity_id"],
    )


# ---------------------------------------------------------------- athlete


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
                member_count=member_count(db, club["id"]),
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


@tool(read_only=True)
def get_logged_in_athlete_zones(db: Database) -> Zones:
    """The authenticated athlete's heart rate zones (custom, or derived from max heart rate) and seven power
    zones derived from FTP. Needs the profile:read_all scope."""
    me, _ = authenticated(db, "profile:read_all")
    heart = None
    if me["custom_hr_zones"]:
        heart = HeartRateZones(custom_zones=True, zones=[ZoneRange(**z) for z in me["custom_hr_zones"]])
    elif me["max_heartrate"]:
        heart = HeartRateZones(custom_zones=False, zones=zones_from(me["max_heartrate"], HR_ZONE_SHARES))
    power = PowerZones(zones=zones_from(me["ftp"], POWER_ZONE_SHARES)) if me["ftp"] else None
    return Zones(heart_rate=heart, power=power)


@tool()
def update_logged_in_athlete(db: Database, weight: Weight | None = None, ftp: Ftp | None = None) -> DetailedAthlete:
    """Update the authenticated athlete's weight and/or FTP (power zones follow the FTP). Needs profile:write.

    Args:
        weight: Body weight in kilograms, 20 to 300.
        ftp: Functional threshold power in watts, 50 to 600.
    """
    me, _ = authenticated(db, "profile:write")
    if weight is None and ftp is None:
        raise InvalidRequest("Give a weight, an ftp, or both.")
    changes = given(weight=round(float(weight), 1) if weight is not None else None, ftp=ftp)
    db.update(athletes, me["id"], **changes)
    return get_logged_in_athlete(db)


# ---------------------------------------------------------------- activities


@tool(read_only=True)
def list_athlete_activities(
    db: Database,
    before: EpochSeconds | None = None,
    after: EpochSeconds | None = None,
    page_size: page_size(200) = 30,
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
    rows = viewable(db, me, scope, activities_of(db, [me["id"]], before, after))
    page = paginate(rows, page_size, cursor, max_page_size=200)
    return Page[SummaryActivity](
        results=summary_activities(db, me, page.results),
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
    name: ActivityName,
    sport_type: SportType,
    start_date_local: LocalTime,
    elapsed_time: Annotated[int, Field(gt=0), ErrorText("elapsed_time must be greater than 0 seconds.")],
    description: str = "",
    distance: Annotated[float, Field(ge=0), ErrorText("distance can't be negative.")] = 0.0,
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
    row = manual_activity(
        db, me, name, sport_type, start_date_local, elapsed_time, description, distance, trainer, commute
    )
    return detailed_activity(db, me, row)


@tool()
def update_activity(
    db: Database,
    activity_id: str,
    name: ActivityName | None = None,
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
    changes = given(
        name=name.strip() if name is not None else None,
        description=description,
        sport_type=sport_type,
        commute=commute,
        trainer=trainer,
        hide_from_home=hide_from_home,
        visibility=visibility,
    )
    if not changes and gear_id is None:
        raise InvalidRequest("Nothing to update: give at least one field.")
    new_gear = regear(db, me, row, gear_id, sport_type or row["sport_type"])
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
def create_activity_comment(db: Database, activity_id: str, text: CommentText) -> CommentObject:
    """Comment on an activity the authenticated athlete can see (their own or another's). Needs activity:write.

    Args:
        activity_id: The activity to comment on.
        text: The comment, up to 1000 characters.
    """
    me, scope = authenticated(db, "activity:write")
    row = visible_activity(db, me, scope, activity_id)
    body = text.strip()
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


@tool(read_only=True)
def get_segment(db: Database, segment_id: str) -> DetailedSegment:
    """A segment with its KOM, QOM and overall best times, star count, and the authenticated athlete's PR and
    effort count. Private segments are seen only by their creator with the read_all scope.

    Args:
        segment_id: The segment's id, e.g. from an activity's segment efforts.
    """
    me, scope = authenticated(db)
    return detailed_segment(db, me, visible_segment(db, me, scope, segment_id))


@tool()
def star_segment(db: Database, segment_id: str, starred: bool = True) -> DetailedSegment:
    """Star or unstar a segment for the authenticated athlete (starring twice changes nothing). Needs
    profile:write.

    Args:
        segment_id: The segment's id.
        starred: True to star, False to unstar.
    """
    me, scope = authenticated(db, "profile:write")
    seg = visible_segment(db, me, scope, segment_id)
    key = f"{me['id']}-{seg['id']}"
    exists = bool(db.find(segment_stars, id=key))
    if starred and not exists:
        db.insert(segment_stars, id=key, athlete_id=me["id"], segment_id=seg["id"])
    if not starred and exists:
        db.delete(segment_stars, key)
    return detailed_segment(db, me, seg)


# ---------------------------------------------------------------- gear


@tool()
def update_gear(
    db: Database,
    gear_id: str,
    name: GearName | None = None,
    primary: bool | None = None,
    retired: bool | None = None,
    notification_distance: Annotated[float, Field(gt=0), ErrorText("notification_distance must be greater than 0.")]
    | None = None,
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
    changes = gear_changes(db, me, found[0], name, primary, retired, notification_distance)
    return gear_object(db.update(gear, found[0]["id"], **changes))


# ---------------------------------------------------------------- clubs


@tool(read_only=True)
def get_club(db: Database, club_id: str) -> DetailedClub:
    """A club by id or by the vanity name in its link (strava.com/clubs/<vanity>), with the authenticated
    athlete's membership. Members see the member list; admins also see pending join requests.

    Args:
        club_id: The club's id, or its vanity name, e.g. "boulder-trail-runners".
    """
    me, _ = authenticated(db)
    club = find_club(db, club_id)
    mine = membership_row(db, club["id"], me["id"])
    is_member = mine is not None and mine["membership"] == "member"
    is_admin = is_member and mine["role"] in {"admin", "owner"}
    rows = db.find(club_memberships, club_id=club["id"], order_by=[club_memberships.c.athlete_id])
    return DetailedClub(
        **{k: club[k] for k in DetailedClub.model_fields if k in club},
        url=f"https://www.strava.com/clubs/{club['vanity']}",
        member_count=member_count(db, club["id"]),
        membership=mine["membership"] if mine else None,
        admin=is_admin,
        owner=is_member and mine["role"] == "owner",
        members=[club_member(db, r) for r in rows if r["membership"] == "member"] if is_member else [],
        join_requests=[club_member(db, r) for r in rows if r["membership"] == "pending"] if is_admin else [],
    )


@tool()
def join_club(db: Database, club_id: str) -> MembershipResult:
    """Join a club as the authenticated athlete. Public clubs admit at once; private clubs record a request
    that an admin must approve. Needs profile:write.

    Args:
        club_id: The club's id or vanity name.
    """
    me, _ = authenticated(db, "profile:write")
    club = find_club(db, club_id)
    mine = membership_row(db, club["id"], me["id"])
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
    club = find_club(db, club_id)
    mine = membership_row(db, club["id"], me["id"])
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
    club = find_club(db, club_id)
    mine = membership_row(db, club["id"], me["id"])
    if mine is None or mine["membership"] != "member" or mine["role"] not in {"admin", "owner"}:
        raise PermissionDenied(f"Only admins of {club['name']} can manage its members.")
    if athlete_id == me["id"]:
        raise InvalidRequest("You can't manage your own membership; use leave_club to leave.")
    target = membership_row(db, club["id"], athlete_id)
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
        member_count=member_count(db, club["id"]),
    )


@tool(read_only=True)
def list_club_activities(
    db: Database, club_id: str, page_size: page_size(200) = 30, cursor: str | None = None
) -> Page[SummaryActivity]:
    """Recent activities of a club's members, newest first, as the authenticated athlete may see them. Only
    members can read a club's feed.

    Args:
        club_id: The club's id or vanity name.
        page_size: Activities per page, 1 to 200.
        cursor: The next_cursor of the previous page.
    """
    me, scope = authenticated(db)
    club = find_club(db, club_id)
    mine = membership_row(db, club["id"], me["id"])
    if mine is None or mine["membership"] != "member":
        raise PermissionDenied(f"Only members of {club['name']} can see its activities.")
    members = [m["athlete_id"] for m in db.find(club_memberships, club_id=club["id"], membership="member")]
    page = paginate(viewable(db, me, scope, activities_of(db, members)), page_size, cursor, max_page_size=200)
    return Page[SummaryActivity](
        results=summary_activities(db, me, page.results),
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


# ---------------------------------------------------------------- routes


@tool(read_only=True)
def list_athlete_routes(db: Database, page_size: page_size(200) = 30, cursor: str | None = None) -> Page[RouteObject]:
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
