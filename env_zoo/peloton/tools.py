"""Peloton tools for the signed-in member: browse instructors and the class library, see the live schedule and
reserve a countdown, schedule Sessions, keep bookmarks and the stack, read workouts and personal records, join
challenges, and find, follow or unfollow other members."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text
from envfactory_gym.values import parse_date

from . import rules
from .access import me
from .objects import (
    Bookmark,
    Challenge,
    FollowResult,
    Instructor,
    Me,
    MemberListing,
    PelotonClass,
    PersonalRecord,
    PersonalRecords,
    Removed,
    Reservation,
    Stack,
    StackEntry,
    Workout,
    WorkoutSummary,
    class_object,
    instructor_name,
    profile,
    workout_summary,
)
from .schema import (
    bookmarks,
    challenge_members,
    challenges,
    classes,
    follows,
    instructors,
    members,
    reservations,
    sessions,
    stack_items,
    workouts,
)

Discipline = Literal["cycling", "running", "walking", "strength", "yoga", "stretching", "meditation", "rowing"]
Difficulty = Literal["beginner", "intermediate", "advanced"]
PelotonId = Annotated[
    str, Field(pattern=r"^[0-9a-f]{32}$"), ErrorText("Invalid id: Peloton ids are 32 lowercase hex characters.")
]
Username = Annotated[str, Field(min_length=3, max_length=30, pattern=r"^[A-Za-z0-9_.-]+$")]
ClassMinutes = Literal[5, 10, 15, 20, 30, 45, 60, 75, 90]
PageSize = page_size(50)


def peloton_class(db: Database, class_id: str) -> dict:
    """A class row, or the API's 404 text."""
    return db.find_one(classes, id=class_id, not_found=f"Class {class_id} not found.")


def own_reservation(db: Database, member_id: str, reservation_id: str) -> dict:
    """One of the member's reservations."""
    return db.find_one(
        reservations, id=reservation_id, member_id=member_id, not_found=f"Reservation {reservation_id} not found."
    )


def member_by_username(db: Database, username: str) -> dict:
    """A member by leaderboard name (case-insensitive)."""
    rows = db.select(members, "lower(username) = ?", (username.lower(),))
    if not rows:
        raise NotFound(f"No member with the username {username}.")
    return rows[0]


def reservation_object(db: Database, row: dict) -> Reservation:
    """A reservation with its class and invitees' usernames."""
    invited = [db.get(members, mid)["username"] for mid in row["invited_member_ids"]]
    return Reservation(
        reservation_id=row["id"],
        kind=row["kind"],
        status=row["status"],
        start_time=row["start_time"],
        peloton_class=class_object(db, peloton_class(db, row["class_id"])),
        invited=invited,
    )


def stack_object(db: Database, member_id: str) -> Stack:
    """The member's stack in play order."""
    rows = db.find(stack_items, member_id=member_id, order_by=[stack_items.c.position])
    entries = [
        StackEntry(position=r["position"], peloton_class=class_object(db, peloton_class(db, r["class_id"])))
        for r in rows
    ]
    return Stack(
        classes=entries,
        total_minutes=sum(e.peloton_class.duration_minutes for e in entries),
        slots_left=rules.STACK_MAX - len(entries),
    )


def challenge_object(db: Database, member_id: str, row: dict) -> Challenge:
    """A challenge with the member's progress when joined."""
    joined = bool(db.find(challenge_members, challenge_id=row["id"], member_id=member_id))
    progress = rules.challenge_progress(db, member_id, row) if joined else None
    return Challenge(
        challenge_id=row["id"],
        title=row["title"],
        kind=row["kind"],
        fitness_disciplines=row["disciplines"],
        goal=row["goal"],
        start_date=row["start_date"],
        end_date=row["end_date"],
        state=rules.challenge_state(db, row),
        badge=row["badge"],
        joined=joined,
        progress=progress,
        badge_earned=progress is not None and progress >= row["goal"],
    )


# ---------------------------------------------------------------- sign-in and profile


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Me:
    """(User only) The member signs in to their Peloton account on this device.

    Args:
        email: The email of the member's Peloton account.
    """
    rows = db.find(members, email=email.strip().lower())
    if not rows:
        raise NotFound("Login failed: no Peloton account uses that email.")
    db.start_session(sessions, member_id=rows[0]["id"])
    return get_me(db)


@tool(read_only=True)
def get_me(db: Database) -> Me:
    """Get the signed-in member's profile: username, subscription, workout totals and follow counts."""
    row = me(db)
    done = db.select(workouts, "member_id = ? AND status = 'COMPLETE'", (row["id"],))
    by_discipline: dict[str, int] = {}
    for w in done:
        by_discipline[w["fitness_discipline"]] = by_discipline.get(w["fitness_discipline"], 0) + 1
    return Me(
        **profile(row).model_dump(),
        subscription=row["subscription"],
        member_since=row["member_since"],
        total_workouts=len(done),
        workouts_by_discipline=dict(sorted(by_discipline.items())),
        following_count=len(db.find(follows, follower_id=row["id"], status="following")),
        followers_count=len(db.find(follows, followee_id=row["id"], status="following")),
    )


# ---------------------------------------------------------------- library


@tool(read_only=True)
def list_instructors(
    db: Database, fitness_discipline: Discipline | None = None, name: text(60) | None = None
) -> list[Instructor]:
    """List Peloton instructors, optionally those who teach a discipline or whose name contains some text.

    Args:
        fitness_discipline: Only instructors teaching this discipline.
        name: Part of the instructor's name, e.g. "Hannah".
    """
    rows = db.find(instructors)
    found = [
        Instructor(
            instructor_id=r["id"], name=r["name"], fitness_disciplines=r["disciplines"], languages=r["languages"]
        )
        for r in rows
        if (fitness_discipline is None or fitness_discipline in r["disciplines"])
        and (name is None or name.strip().lower() in r["name"].lower())
    ]
    return sorted(found, key=lambda i: i.name)


@tool(read_only=True)
def search_classes(
    db: Database,
    fitness_discipline: Discipline | None = None,
    instructor_id: PelotonId | None = None,
    duration_minutes: ClassMinutes | None = None,
    difficulty_level: Difficulty | None = None,
    text: text(80) | None = None,
    sort_by: Literal["original_air_time", "popularity", "difficulty"] = "original_air_time",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[PelotonClass]:
    """Search the on-demand class library. Newest first by default; popularity sorts by total workouts taken,
    difficulty from hardest.

    Args:
        fitness_discipline: cycling, running, walking, strength, yoga, stretching, meditation or rowing.
        instructor_id: Only this instructor's classes (list_instructors).
        duration_minutes: Class length in minutes.
        difficulty_level: beginner, intermediate or advanced.
        text: Words the title or class type must contain, e.g. "climb".
        sort_by: original_air_time, popularity or difficulty.
        page_size: Results per page.
        cursor: next_cursor of the previous page.
    """
    where = ["status = 'ON_DEMAND'"]
    params: list = []
    for column, value in (
        ("fitness_discipline", fitness_discipline),
        ("instructor_id", instructor_id),
        ("difficulty_level", difficulty_level),
    ):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if duration_minutes is not None:
        where.append("duration = ?")
        params.append(duration_minutes * 60)
    for word in (text or "").lower().split():
        where.append("(lower(title) LIKE ? OR lower(class_type) LIKE ?)")
        params += [f"%{word}%", f"%{word}%"]
    order = {
        "original_air_time": "original_air_time DESC",
        "popularity": "total_workouts DESC",
        "difficulty": "difficulty_rating DESC",
    }[sort_by]
    rows = db.select(classes, " AND ".join(where), params, order_by=order + ", id")
    return paginate([class_object(db, r) for r in rows], page_size, cursor)


@tool(read_only=True)
def get_class(db: Database, class_id: PelotonId) -> PelotonClass:
    """Get one class (on demand or scheduled) with its instructor, length, difficulty and air time.

    Args:
        class_id: The class's id.
    """
    return class_object(db, peloton_class(db, class_id))


@tool(read_only=True)
def list_schedule(
    db: Database, fitness_discipline: Discipline | None = None, date: IsoDate | None = None
) -> list[PelotonClass]:
    """List live and encore classes still to air (cancelled ones included, marked CANCELLED), soonest first;
    optionally one discipline or one UTC day.

    Args:
        fitness_discipline: Only this discipline.
        date: Only classes starting on this UTC day (YYYY-MM-DD).
    """
    where = ["scheduled_start IS NOT NULL AND scheduled_start > ?"]
    params: list = [rules.iso(db.now())]
    if fitness_discipline is not None:
        where.append("fitness_discipline = ?")
        params.append(fitness_discipline)
    if date is not None:
        parse_date(date, "date")
        where.append("substr(scheduled_start, 1, 10) = ?")
        params.append(date)
    rows = db.select(classes, " AND ".join(where), params, order_by="scheduled_start, id")
    return [class_object(db, r) for r in rows]


# ---------------------------------------------------------------- schedule


@tool()
def reserve_class(db: Database, class_id: PelotonId) -> Reservation:
    """Reserve a spot (a countdown) in a scheduled live or encore class before it airs.

    Args:
        class_id: The scheduled class's id (list_schedule).
    """
    member = me(db)
    row = peloton_class(db, class_id)
    if row["scheduled_start"] is None:
        raise InvalidRequest("This class is on demand: schedule it as a Session or take it any time.")
    if row["status"] == "CANCELLED":
        raise Conflict("This class has been cancelled and can no longer be reserved.")
    if row["scheduled_start"] <= rules.iso(db.now()):
        raise Conflict("This class has already started.")
    if db.find(reservations, member_id=member["id"], class_id=class_id, status="RESERVED"):
        raise Conflict("You have already reserved this class.")
    created = db.insert(
        reservations,
        id=db.new_uuid(reservations).replace("-", ""),
        member_id=member["id"],
        class_id=class_id,
        kind="LIVE",
        start_time=row["scheduled_start"],
        status="RESERVED",
        invited_member_ids=[],
    )
    return reservation_object(db, created)


@tool()
def schedule_session(
    db: Database,
    class_id: PelotonId,
    start_time: Annotated[str, Field(min_length=16, json_schema_extra={"format": "date-time"})],
    invite_usernames: Annotated[list[Username], Field(max_length=20)] | None = None,
) -> Reservation:
    """Schedule an on-demand cycling or running class over 20 minutes as a Session (a live leaderboard with
    everyone who starts together), on a five-minute mark up to two weeks ahead, optionally inviting members the
    member follows.

    Args:
        class_id: The on-demand class's id.
        start_time: When to start, ISO 8601 UTC, e.g. 2026-05-16T13:05:00Z.
        invite_usernames: Usernames of followed members to invite.
    """
    member = me(db)
    row = peloton_class(db, class_id)
    if row["status"] != "ON_DEMAND":
        raise InvalidRequest("Only on-demand classes can be scheduled as a Session.")
    if row["fitness_discipline"] not in rules.SESSION_DISCIPLINES or row["duration"] <= rules.SESSION_MIN_SECONDS:
        raise InvalidRequest("Only Running and Cycling classes over 20 minutes are eligible as Sessions.")
    start = rules.parse_time(start_time)
    rules.check_session_time(db, start)
    invited: list[str] = []
    for name in invite_usernames or []:
        friend = member_by_username(db, name)
        if not db.find(follows, follower_id=member["id"], followee_id=friend["id"], status="following"):
            raise PermissionDenied(f"You can only invite members you follow; you do not follow {friend['username']}.")
        if friend["id"] not in invited:
            invited.append(friend["id"])
    created = db.insert(
        reservations,
        id=db.new_uuid(reservations).replace("-", ""),
        member_id=member["id"],
        class_id=class_id,
        kind="SESSION",
        start_time=rules.iso(start),
        status="RESERVED",
        invited_member_ids=invited,
    )
    return reservation_object(db, created)


@tool(read_only=True)
def list_reservations(
    db: Database, status: Literal["RESERVED", "CANCELLED", "COMPLETED"] | None = "RESERVED"
) -> list[Reservation]:
    """List the member's live-class reservations and scheduled Sessions, soonest first (upcoming ones by default).

    Args:
        status: RESERVED (upcoming), CANCELLED or COMPLETED; null for all.
    """
    member = me(db)
    rows = db.find(reservations, member_id=member["id"], **({"status": status} if status else {}))
    rows.sort(key=lambda r: (r["start_time"], r["id"]))
    return [reservation_object(db, r) for r in rows]


@tool()
def cancel_reservation(db: Database, reservation_id: PelotonId) -> Reservation:
    """Cancel an upcoming reservation or Session before it starts.

    Args:
        reservation_id: The reservation's id (list_reservations).
    """
    member = me(db)
    row = own_reservation(db, member["id"], reservation_id)
    if row["status"] != "RESERVED":
        raise Conflict(f"This reservation is {row['status']} and cannot be cancelled.")
    if row["start_time"] <= rules.iso(db.now()):
        raise Conflict("This class has already started.")
    return reservation_object(db, db.update(reservations, row["id"], status="CANCELLED"))


# ---------------------------------------------------------------- bookmarks and stack


@tool(read_only=True)
def list_bookmarks(db: Database, fitness_discipline: Discipline | None = None) -> list[Bookmark]:
    """List the classes the member bookmarked, newest bookmark first.

    Args:
        fitness_discipline: Only bookmarks of this discipline.
    """
    member = me(db)
    rows = db.find(bookmarks, member_id=member["id"])
    rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    found = [Bookmark(peloton_class=class_object(db, peloton_class(db, r["class_id"]))) for r in rows]
    return [b for b in found if fitness_discipline is None or b.peloton_class.fitness_discipline == fitness_discipline]


@tool()
def add_bookmark(db: Database, class_id: PelotonId) -> Bookmark:
    """Bookmark an on-demand class to take later.

    Args:
        class_id: The class's id.
    """
    member = me(db)
    row = peloton_class(db, class_id)
    if row["status"] != "ON_DEMAND":
        raise InvalidRequest("Only on-demand classes can be bookmarked.")
    if db.find(bookmarks, member_id=member["id"], class_id=class_id):
        raise Conflict("This class is already bookmarked.")
    db.insert(
        bookmarks,
        id=db.new_uuid(bookmarks).replace("-", ""),
        member_id=member["id"],
        class_id=class_id,
        created_at=db.now_iso(),
    )
    return Bookmark(peloton_class=class_object(db, row))


@tool()
def remove_bookmark(db: Database, class_id: PelotonId) -> Removed:
    """Remove a class from the member's bookmarks.

    Args:
        class_id: The bookmarked class's id.
    """
    member = me(db)
    row = db.find_one(bookmarks, member_id=member["id"], class_id=class_id, not_found="This class is not bookmarked.")
    db.delete(bookmarks, row["id"])
    return Removed(removed=class_id)


@tool(read_only=True)
def get_stack(db: Database) -> Stack:
    """Get the member's stack: the classes that will play back to back, in order, and how many slots are left."""
    return stack_object(db, me(db)["id"])


@tool()
def add_to_stack(db: Database, class_id: PelotonId) -> Stack:
    """Add an on-demand class to the end of the member's stack (at most 10 classes, each at most once).

    Args:
        class_id: The class's id.
    """
    member = me(db)
    row = peloton_class(db, class_id)
    if row["status"] != "ON_DEMAND":
        raise InvalidRequest("Only on-demand classes can be stacked.")
    current = db.find(stack_items, member_id=member["id"])
    if any(r["class_id"] == class_id for r in current):
        raise Conflict("This class is already in your stack.")
    if len(current) >= rules.STACK_MAX:
        raise Conflict("Your stack is full: a stack holds up to 10 classes.")
    db.insert(
        stack_items,
        id=db.new_uuid(stack_items).replace("-", ""),
        member_id=member["id"],
        class_id=class_id,
        position=len(current) + 1,
    )
    return stack_object(db, member["id"])


@tool()
def remove_from_stack(db: Database, class_id: PelotonId | None = None, clear_all: bool = False) -> Stack:
    """Remove one class from the member's stack (later classes move up), or clear the whole stack.

    Args:
        class_id: The stacked class to remove.
        clear_all: True to empty the stack instead.
    """
    member = me(db)
    current = db.find(stack_items, member_id=member["id"], order_by=[stack_items.c.position])
    if clear_all == (class_id is not None):
        raise InvalidRequest("Give either class_id or clear_all=true.")
    if clear_all:
        for r in current:
            db.delete(stack_items, r["id"])
        return stack_object(db, member["id"])
    target = next((r for r in current if r["class_id"] == class_id), None)
    if target is None:
        raise NotFound("This class is not in your stack.")
    db.delete(stack_items, target["id"])
    for r in current:
        if r["position"] > target["position"]:
            db.update(stack_items, r["id"], position=r["position"] - 1)
    return stack_object(db, member["id"])


# ---------------------------------------------------------------- workouts


@tool(read_only=True)
def list_workouts(
    db: Database,
    fitness_discipline: Discipline | None = None,
    from_date: IsoDate | None = None,
    to_date: IsoDate | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[WorkoutSummary]:
    """List the member's workout history, newest first.

    Args:
        fitness_discipline: Only this discipline.
        from_date: Earliest day (UTC), inclusive.
        to_date: Latest day (UTC), inclusive.
        page_size: Results per page.
        cursor: next_cursor of the previous page.
    """
    member = me(db)
    where, params = ["member_id = ?"], [member["id"]]
    if fitness_discipline is not None:
        where.append("fitness_discipline = ?")
        params.append(fitness_discipline)
    if from_date is not None:
        where.append("start_time >= ?")
        params.append(parse_date(from_date, "from_date").isoformat())
    if to_date is not None:
        where.append("start_time < ?")
        params.append((parse_date(to_date, "to_date") + timedelta(days=1)).isoformat())
    rows = db.select(workouts, " AND ".join(where), params, order_by="start_time DESC, id")
    return paginate([workout_summary(r) for r in rows], page_size, cursor)


@tool(read_only=True)
def get_workout(db: Database, workout_id: PelotonId) -> Workout:
    """Get one of the member's workouts with its metrics (output, cadence, resistance, distance, heart rate,
    leaderboard rank) and whether it holds a personal record.

    Args:
        workout_id: The workout's id (list_workouts).
    """
    member = me(db)
    row = db.find_one(workouts, id=workout_id, member_id=member["id"], not_found=f"Workout {workout_id} not found.")
    is_pr = row["fitness_discipline"] in rules.OUTPUT_DISCIPLINES and any(
        r["id"] == row["id"] for r in rules.best_outputs(db, member["id"], row["fitness_discipline"])
    )
    klass = db.find(classes, id=row["class_id"]) if row["class_id"] else []
    return Workout(
        **workout_summary(row).model_dump(),
        class_id=row["class_id"],
        instructor=instructor_name(db, klass[0]["instructor_id"]) if klass else None,
        avg_cadence=row["avg_cadence"],
        avg_resistance_pct=row["avg_resistance"],
        distance_mi=row["distance_mi"] / 100 if row["distance_mi"] is not None else None,
        avg_heart_rate=row["avg_heart_rate"],
        leaderboard_rank=row["leaderboard_rank"],
        leaderboard_total=row["leaderboard_total"],
        is_personal_record=is_pr,
    )


@tool()
def delete_workout(db: Database, workout_id: PelotonId) -> Removed:
    """Delete a workout from the member's history for good; its personal record, if any, falls to the next best
    workout of that length, and challenge progress is recounted.

    Args:
        workout_id: The workout's id.
    """
    member = me(db)
    row = db.find_one(workouts, id=workout_id, member_id=member["id"], not_found=f"Workout {workout_id} not found.")
    db.delete(workouts, row["id"])
    return Removed(removed=workout_id)


@tool(read_only=True)
def get_personal_records(db: Database, fitness_discipline: Literal["cycling", "rowing"]) -> PersonalRecords:
    """Get the member's personal records: the best total output for each class length taken.

    Args:
        fitness_discipline: cycling or rowing.
    """
    member = me(db)
    best = rules.best_outputs(db, member["id"], fitness_discipline)
    return PersonalRecords(
        fitness_discipline=fitness_discipline,
        records=[
            PersonalRecord(
                duration_minutes=r["duration"] // 60,
                total_output_kj=r["total_output_kj"],
                workout_id=r["id"],
                date=r["start_time"][:10],
            )
            for r in best
        ],
    )


# ---------------------------------------------------------------- challenges


@tool(read_only=True)
def list_challenges(
    db: Database, state: Literal["active", "upcoming", "ended", "joined"] | None = None
) -> list[Challenge]:
    """List challenges with their goals and dates; for joined ones, the member's progress and whether the badge is
    earned.

    Args:
        state: active, upcoming, ended, or joined (every challenge the member joined).
    """
    member = me(db)
    found = [challenge_object(db, member["id"], r) for r in db.find(challenges, order_by=[challenges.c.start_date])]
    if state == "joined":
        return [c for c in found if c.joined]
    return [c for c in found if state is None or c.state == state]


@tool()
def join_challenge(db: Database, challenge_id: PelotonId) -> Challenge:
    """Join an active or upcoming challenge; workouts in its dates count from its start, even those before joining.

    Args:
        challenge_id: The challenge's id (list_challenges).
    """
    member = me(db)
    row = db.find_one(challenges, id=challenge_id, not_found=f"Challenge {challenge_id} not found.")
    if rules.challenge_state(db, row) == "ended":
        raise Conflict("This challenge has ended and can no longer be joined.")
    if db.find(challenge_members, challenge_id=challenge_id, member_id=member["id"]):
        raise Conflict("You have already joined this challenge.")
    db.insert(
        challenge_members,
        id=db.new_uuid(challenge_members).replace("-", ""),
        challenge_id=challenge_id,
        member_id=member["id"],
        joined_at=db.now_iso(),
    )
    return challenge_object(db, member["id"], row)


# ---------------------------------------------------------------- members


@tool(read_only=True)
def search_members(db: Database, query: text(40, 2) | None = None, following_only: bool = False) -> list[MemberListing]:
    """Find members by username or name (case-insensitive substring), each with the signed-in member's follow
    status (following, pending, or null); following_only lists just those followed or requested.

    Args:
        query: Part of a username or name; may be left out with following_only.
        following_only: Only members the signed-in member follows or asked to follow.
    """
    member = me(db)
    if query is None and not following_only:
        raise InvalidRequest("Give a query, or following_only=true to list who you follow.")
    needle = f"%{(query or '').strip().lower()}%"
    rows = db.select(
        members,
        "(lower(username) LIKE ? OR lower(name) LIKE ?) AND id != ?",
        (needle, needle, member["id"]),
        "username",
    )
    status = {f["followee_id"]: f["status"] for f in db.find(follows, follower_id=member["id"])}
    if following_only:
        rows = [r for r in rows if r["id"] in status]
    return [MemberListing(**profile(r).model_dump(), follow_status=status.get(r["id"])) for r in rows]


@tool()
def follow_member(db: Database, username: Username) -> FollowResult:
    """Follow a member by username; a private profile gets a follow request (pending) instead.

    Args:
        username: The member's leaderboard name.
    """
    member = me(db)
    other = member_by_username(db, username)
    if other["id"] == member["id"]:
        raise InvalidRequest("You cannot follow yourself.")
    if db.find(follows, follower_id=member["id"], followee_id=other["id"]):
        raise Conflict(f"You already follow or requested to follow {other['username']}.")
    status = "pending" if other["is_private"] else "following"
    db.insert(
        follows,
        id=db.new_uuid(follows).replace("-", ""),
        follower_id=member["id"],
        followee_id=other["id"],
        status=status,
    )
    return FollowResult(username=other["username"], status=status)


@tool()
def unfollow_member(db: Database, username: Username) -> FollowResult:
    """Stop following a member, or withdraw a pending follow request.

    Args:
        username: The member's leaderboard name.
    """
    member = me(db)
    other = member_by_username(db, username)
    row = db.find_one(
        follows, follower_id=member["id"], followee_id=other["id"], not_found=f"You do not follow {other['username']}."
    )
    db.delete(follows, row["id"])
    return FollowResult(username=other["username"], status="unfollowed")
