"""Duolingo tools for the signed-in learner: profile and streak, courses and their path, XP history and the daily
goal, the weekly leaderboard, the shop (streak freezes, heart refills, Double or Nothing, streak repair), quests and
their rewards, the gem ledger, and finding, following and pairing up with friends."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, bounded, page_size, text
from envfactory_gym.values import parse_date

from . import rules
from .access import me
from .objects import (
    Course,
    CourseProgress,
    EnrolledCourse,
    FollowResult,
    GemTransaction,
    Leaderboard,
    LeaderboardEntry,
    LeaderboardSetting,
    Learner,
    Me,
    Profile,
    Purchase,
    Quest,
    QuestClaim,
    ShopItem,
    Streak,
    UnitProgress,
    XpDay,
    XpHistory,
    course_object,
    course_units,
    enrollment,
    is_following,
    learner,
    quest_object,
    quest_status,
    wager_object,
)
from .schema import (
    courses,
    daily_xp,
    enrollments,
    follows,
    gem_transactions,
    league_members,
    quests,
    sessions,
    shop_items,
    users,
)

CourseId = Annotated[
    str,
    Field(pattern=r"^DUOLINGO_[A-Z_]+$"),
    ErrorText("Invalid course id: course ids look like DUOLINGO_ES_EN."),
]
Username = Annotated[str, Field(min_length=1, max_length=30, pattern=r"^[A-Za-z0-9_.-]+$")]
ItemId = Literal["streak_freeze", "heart_refill", "streak_wager", "streak_repair"]


# ---------------------------------------------------------------- helpers


def user_by_username(db: Database, username: str) -> dict[str, Any]:
    """A learner by username (case-insensitive); NotFound otherwise."""
    rows = db.select(users, "lower(username) = ?", (username.lower(),))
    if not rows:
        raise NotFound(f"User {username} not found.")
    return rows[0]


def course_row(db: Database, course_id: str) -> dict[str, Any]:
    return db.find_one(courses, id=course_id, not_found=f"Course {course_id} not found.")


def xp_on(db: Database, user_id: int, day: str) -> int:
    rows = db.find(daily_xp, user_id=user_id, date=day)
    return rows[0]["xp"] if rows else 0


# ---------------------------------------------------------------- sign-in and profile


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Me:
    """(User only) The learner signs in to their Duolingo account on this device.

    Args:
        email: The email of the learner's Duolingo account.
    """
    rows = db.find(users, email=email.strip().lower())
    if not rows:
        raise NotFound("Login failed: no Duolingo account uses that email.")
    db.start_session(sessions, user_id=rows[0]["id"])
    return get_me(db)


@tool(read_only=True)
def get_me(db: Database) -> Me:
    """Get the signed-in learner's profile: gems, hearts, daily goal and today's XP, streak, league and current
    course."""
    row = me(db)
    today_xp = xp_on(db, row["id"], rules.today(db).isoformat())
    return Me(
        user_id=row["id"],
        username=row["username"],
        name=row["name"],
        total_xp=row["total_xp"],
        gems=row["gems"],
        hearts=None if row["has_super"] else row["hearts"],
        unlimited_hearts=row["has_super"],
        has_super=row["has_super"],
        daily_goal_xp=row["daily_goal_xp"],
        daily_goal_name=rules.GOAL_NAMES[row["daily_goal_xp"]],
        xp_today=today_xp,
        daily_goal_met=today_xp >= row["daily_goal_xp"],
        streak=row["streak"],
        streak_freezes=row["streak_freezes"],
        league=row["league"],
        leaderboards_enabled=row["leaderboards_enabled"],
        current_course_id=row["current_course_id"],
        created_at=row["created_at"],
    )


@tool(read_only=True)
def get_streak(db: Database) -> Streak:
    """Get the learner's streak: its length, whether today's lesson extended it, equipped streak freezes, an active
    Double or Nothing wager, and a lost streak that can still be repaired."""
    row = me(db)
    deadline = rules.repair_deadline(row) if rules.can_repair(db, row) else None
    return Streak(
        streak=row["streak"],
        extended_today=row["streak_extended_on"] == rules.today(db).isoformat(),
        longest_streak=row["longest_streak"],
        streak_freezes=row["streak_freezes"],
        wager=wager_object(db, row),
        repairable_streak=row["lost_streak"] if deadline else None,
        repair_until=deadline.isoformat() if deadline else None,
    )


@tool()
def set_daily_goal(db: Database, xp: Literal[10, 20, 30, 50]) -> Me:
    """Change the daily XP goal: 10 (Casual), 20 (Regular), 30 (Serious) or 50 (Intense).

    Args:
        xp: The new daily goal in XP.
    """
    row = me(db)
    if row["daily_goal_xp"] == xp:
        raise Conflict(f"Your daily goal is already {xp} XP.")
    db.update(users, row["id"], daily_goal_xp=xp)
    return get_me(db)


@tool(read_only=True)
def get_xp_history(db: Database, start_date: IsoDate, end_date: IsoDate) -> XpHistory:
    """Get the learner's XP day by day (at most 31 days): XP, lessons, whether the current daily goal was met and
    whether a streak freeze covered the day.

    Args:
        start_date: First day (UTC), YYYY-MM-DD.
        end_date: Last day (UTC), inclusive.
    """
    row = me(db)
    days = rules.date_range(parse_date(start_date, "start_date"), parse_date(end_date, "end_date"))
    found = {
        r["date"]: r
        for r in db.select(
            daily_xp, "user_id = ? AND date >= ? AND date <= ?", (row["id"], days[0].isoformat(), days[-1].isoformat())
        )
    }
    out = []
    for day in days:
        r = found.get(day.isoformat())
        xp = r["xp"] if r else 0
        out.append(
            XpDay(
                date=day.isoformat(),
                xp=xp,
                lessons=r["lessons"] if r else 0,
                goal_met=xp >= row["daily_goal_xp"],
                frozen=bool(r and r["frozen"]),
            )
        )
    return XpHistory(
        start_date=days[0].isoformat(),
        end_date=days[-1].isoformat(),
        daily_goal_xp=row["daily_goal_xp"],
        total_xp=sum(d.xp for d in out),
        days_goal_met=sum(d.goal_met for d in out),
        days=out,
    )


# ---------------------------------------------------------------- courses


@tool(read_only=True)
def list_courses(
    db: Database,
    enrolled_only: bool = False,
    from_language: Annotated[str, Field(pattern=r"^[a-z]{2}$")] | None = None,
    query: text(40) | None = None,
) -> list[Course]:
    """List Duolingo courses (most learners first) with the learner's XP and lessons in those they take.

    Args:
        enrolled_only: Only the courses the learner has added.
        from_language: Only courses taught from this language code, e.g. "en".
        query: Part of the course title or language code, e.g. "Spanish" or "ja".
    """
    user = me(db)
    where, params = ["1 = 1"], []
    if from_language is not None:
        where.append("from_language = ?")
        params.append(from_language)
    if query is not None:
        where.append("(lower(title) LIKE ? OR learning_language = ?)")
        params += [f"%{query.strip().lower()}%", query.strip().lower()]
    if enrolled_only:
        where.append("id IN (SELECT course_id FROM enrollments WHERE user_id = ?)")
        params.append(user["id"])
    rows = db.select(courses, " AND ".join(where), params, order_by="num_learners DESC, id")
    return [course_object(db, user, r) for r in rows]


@tool(read_only=True)
def get_course_progress(db: Database, course_id: CourseId) -> CourseProgress:
    """Get the learner's path in a course they take: every unit with its lessons completed and status (complete,
    in_progress, locked).

    Args:
        course_id: The course's id, e.g. DUOLINGO_FR_EN (list_courses).
    """
    user = me(db)
    row = course_row(db, course_id)
    enrolled = enrollment(db, user["id"], course_id)
    if enrolled is None:
        raise NotFound(f"You are not learning {row['title']} ({course_id}).")
    left = enrolled["lessons_completed"]
    path, current = [], None
    for unit in course_units(db, course_id):
        done = min(left, unit["num_lessons"])
        left -= done
        status = "complete" if done == unit["num_lessons"] else ("locked" if current else "in_progress")
        if status == "in_progress":
            current = unit["title"]
        path.append(
            UnitProgress(
                unit_id=unit["id"],
                section=unit["section"],
                unit_index=unit["unit_index"],
                title=unit["title"],
                cefr_level=unit["cefr_level"],
                num_lessons=unit["num_lessons"],
                lessons_completed=done,
                status=status,
            )
        )
    return CourseProgress(
        course_id=course_id,
        title=row["title"],
        is_current=user["current_course_id"] == course_id,
        xp=enrolled["xp"],
        lessons_completed=enrolled["lessons_completed"],
        total_lessons=sum(u.num_lessons for u in path),
        current_unit=current,
        units=path,
    )


@tool()
def add_course(db: Database, course_id: CourseId) -> Course:
    """Add a course to the learner's courses and switch to it (progress starts at the first unit).

    Args:
        course_id: The course's id (list_courses).
    """
    user = me(db)
    row = course_row(db, course_id)
    if enrollment(db, user["id"], course_id) is not None:
        raise Conflict(f"You are already learning {row['title']} ({course_id}).")
    db.insert(
        enrollments,
        id=db.new_id(enrollments, "enr_", 5),
        user_id=user["id"],
        course_id=course_id,
        xp=0,
        lessons_completed=0,
        added_at=db.now_iso(),
    )
    db.update(users, user["id"], current_course_id=course_id)
    return course_object(db, me(db), row)


@tool()
def switch_course(db: Database, course_id: CourseId) -> Course:
    """Make one of the learner's courses the current one (lessons, quests and the home screen follow it).

    Args:
        course_id: A course the learner has added.
    """
    user = me(db)
    row = course_row(db, course_id)
    if enrollment(db, user["id"], course_id) is None:
        raise NotFound(f"You are not learning {row['title']} ({course_id}): add the course first.")
    if user["current_course_id"] == course_id:
        raise Conflict(f"{row['title']} is already your current course.")
    db.update(users, user["id"], current_course_id=course_id)
    return course_object(db, me(db), row)


@tool()
def remove_course(db: Database, course_id: CourseId) -> list[Course]:
    """Remove a course and its progress for good (XP already earned stays in the total); the current course cannot
    be removed. Answers with the courses left.

    Args:
        course_id: A course the learner has added, not the current one.
    """
    user = me(db)
    row = course_row(db, course_id)
    enrolled = enrollment(db, user["id"], course_id)
    if enrolled is None:
        raise NotFound(f"You are not learning {row['title']} ({course_id}).")
    if user["current_course_id"] == course_id:
        raise Conflict("You can't remove the course you're currently learning: switch to another course first.")
    db.delete(enrollments, enrolled["id"])
    return list_courses(db, enrolled_only=True)


# ---------------------------------------------------------------- leagues


@tool(read_only=True)
def get_leaderboard(db: Database) -> Leaderboard:
    """Get this week's league: the tier, everyone in the learner's cohort ranked by XP this week, and the promotion
    and demotion zones (the week runs Monday 00:00 UTC to Sunday night)."""
    user = me(db)
    tier = user["league"]
    spots = rules.PROMOTED[tier]
    demotion = 0 if tier == "BRONZE" else rules.DEMOTED
    mine = db.find(league_members, user_id=user["id"], week_start=rules.week_start(db).isoformat())
    if not mine:
        note = (
            "Leaderboards are turned off in your settings."
            if not user["leaderboards_enabled"]
            else "You are not in a league this week: finish a lesson to join one."
        )
        return Leaderboard(
            enabled=user["leaderboards_enabled"],
            tier=tier,
            week_start=None,
            week_end=None,
            my_rank=None,
            my_xp=None,
            my_zone=None,
            promotion_spots=spots,
            demotion_spots=demotion,
            entries=[],
            note=note,
        )
    rows = db.find(league_members, cohort_id=mine[0]["cohort_id"])
    people = {r["user_id"]: db.get(users, r["user_id"]) for r in rows}
    rows.sort(key=lambda r: (-r["xp"], people[r["user_id"]]["username"].lower()))
    entries = [
        LeaderboardEntry(
            rank=i,
            username=people[r["user_id"]]["username"],
            name=people[r["user_id"]]["name"],
            xp=r["xp"],
            zone=rules.zone(tier, i, len(rows)),
            is_me=r["user_id"] == user["id"],
        )
        for i, r in enumerate(rows, 1)
    ]
    own = next(e for e in entries if e.is_me)
    return Leaderboard(
        enabled=True,
        tier=tier,
        week_start=rules.week_start(db).isoformat(),
        week_end=rules.week_end(db).isoformat(),
        my_rank=own.rank,
        my_xp=own.xp,
        my_zone=own.zone,
        promotion_spots=spots,
        demotion_spots=demotion,
        entries=entries,
        note=None,
    )


@tool()
def set_leaderboard_participation(db: Database, enabled: bool) -> LeaderboardSetting:
    """Turn leaderboards off (the learner leaves this week's league and its XP ranking) or back on (they join a
    league when the next week starts).

    Args:
        enabled: False to leave leaderboards, true to take part again.
    """
    user = me(db)
    if user["leaderboards_enabled"] == enabled:
        raise Conflict(f"Leaderboards are already turned {'on' if enabled else 'off'}.")
    if not enabled:
        for r in db.find(league_members, user_id=user["id"], week_start=rules.week_start(db).isoformat()):
            db.delete(league_members, r["id"])
        note = "You left this week's league; your XP still counts toward your streak and goals."
    else:
        note = "You will be placed in a league when the next week starts (Monday 00:00 UTC)."
    db.update(users, user["id"], leaderboards_enabled=enabled)
    return LeaderboardSetting(leaderboards_enabled=enabled, note=note)


# ---------------------------------------------------------------- shop and gems


@tool(read_only=True)
def list_shop_items(db: Database) -> list[ShopItem]:
    """List the shop's power-ups with their gem prices and whether the learner can afford each."""
    user = me(db)
    return [
        ShopItem(
            item_id=r["id"],
            name=r["name"],
            price_gems=r["price_gems"],
            description=r["description"],
            can_afford=user["gems"] >= r["price_gems"],
        )
        for r in db.find(shop_items, order_by=[shop_items.c.price_gems])
    ]


@tool()
def buy_item(db: Database, item_id: ItemId, quantity: bounded(1, 2) = 1) -> Purchase:
    """Buy a power-up with gems: streak_freeze (equipped at once, at most 2 at a time; quantity 1 or 2),
    heart_refill (back to 5 hearts; not for Super members), streak_wager (Double or Nothing: keep the streak 7 days
    for double the gems back; one at a time) or streak_repair (restore a streak lost in the last 2 days).

    Args:
        item_id: streak_freeze, heart_refill, streak_wager or streak_repair.
        quantity: How many (only streak freezes come in 2).
    """
    user = me(db)
    item = db.get(shop_items, item_id)
    if quantity > 1 and item_id != "streak_freeze":
        raise InvalidRequest("Only streak freezes can be bought more than one at a time.")
    changes: dict[str, Any] = {}
    if item_id == "streak_freeze":
        if user["streak_freezes"] + quantity > rules.MAX_FREEZES:
            raise Conflict(
                f"You can equip up to {rules.MAX_FREEZES} streak freezes at a time; "
                f"you have {user['streak_freezes']} equipped."
            )
        changes["streak_freezes"] = user["streak_freezes"] + quantity
    elif item_id == "heart_refill":
        if user["has_super"]:
            raise InvalidRequest("Super members have unlimited hearts.")
        if user["hearts"] >= rules.MAX_HEARTS:
            raise Conflict("Your hearts are already full.")
        changes["hearts"] = rules.MAX_HEARTS
    elif item_id == "streak_wager":
        if user["wager_started_on"]:
            raise Conflict("You already have an active Double or Nothing wager.")
        if user["streak"] == 0:
            raise Conflict("Start a streak before making a Double or Nothing wager.")
        changes["wager_started_on"] = rules.today(db).isoformat()
    else:
        if not rules.can_repair(db, user):
            raise Conflict("There is no lost streak to repair: a streak can be repaired within 2 days of losing it.")
        restored = user["lost_streak"] + user["streak"]
        changes.update(
            streak=restored,
            longest_streak=max(user["longest_streak"], restored),
            lost_streak=None,
            streak_lost_on=None,
        )
    price = item["price_gems"] * quantity
    rules.spend_gems(db, user, price, f"Bought {item['name']}" + (f" x{quantity}" if quantity > 1 else ""))
    after = db.update(users, user["id"], **changes)
    return Purchase(
        item_id=item_id,
        quantity=quantity,
        gems_spent=price,
        gems_left=after["gems"],
        hearts=None if after["has_super"] else after["hearts"],
        streak=after["streak"],
        streak_freezes=after["streak_freezes"],
        wager=wager_object(db, after),
    )


@tool(read_only=True)
def list_gem_history(db: Database, page_size: page_size(50) = 20, cursor: str | None = None) -> Page[GemTransaction]:
    """List the learner's gem ledger, newest first: gems earned (quests, leagues) and spent (shop).

    Args:
        page_size: Entries per page.
        cursor: next_cursor of the previous page.
    """
    user = me(db)
    rows = db.select(gem_transactions, "user_id = ?", (user["id"],), order_by="created_at DESC, id DESC")
    items = [GemTransaction(amount=r["amount"], reason=r["reason"], created_at=r["created_at"]) for r in rows]
    return paginate(items, page_size, cursor)


# ---------------------------------------------------------------- quests


@tool(read_only=True)
def list_quests(
    db: Database,
    kind: Literal["DAILY", "MONTHLY", "FRIENDS"] | None = None,
    status: Literal["in_progress", "complete", "claimed", "expired"] | None = None,
) -> list[Quest]:
    """List the learner's quests with progress and status (complete means the reward is waiting to be claimed);
    a Friends Quest counts both partners' progress.

    Args:
        kind: DAILY, MONTHLY or FRIENDS.
        status: in_progress, complete, claimed or expired.
    """
    user = me(db)
    rows = db.find(quests, user_id=user["id"], **({"kind": kind} if kind else {}))
    rows.sort(key=lambda r: (r["ends_on"], r["id"]), reverse=True)
    found = [quest_object(db, r) for r in rows]
    return [q for q in found if status is None or q.status == status]


@tool()
def claim_quest_reward(db: Database, quest_id: Annotated[str, Field(pattern=r"^qst_\d+$")]) -> QuestClaim:
    """Claim the gems of a completed quest (once, before or after it ends).

    Args:
        quest_id: The quest's id (list_quests).
    """
    user = me(db)
    row = db.find_one(quests, id=quest_id, user_id=user["id"], not_found=f"Quest {quest_id} not found.")
    progress, status = quest_status(db, row)
    if status == "claimed":
        raise Conflict("You already claimed this quest's reward.")
    if status == "expired":
        raise Conflict("This quest has ended without being completed.")
    if status != "complete":
        raise Conflict(f"This quest isn't complete yet: {progress}/{row['target']}.")
    db.update(quests, row["id"], claimed=True)
    after = db.update(users, user["id"], gems=user["gems"] + row["reward_gems"])
    db.insert(
        gem_transactions,
        id=db.new_id(gem_transactions, "gtx_", 5),
        user_id=user["id"],
        amount=row["reward_gems"],
        reason=f"Quest reward: {row['title']}",
        created_at=db.now_iso(),
    )
    return QuestClaim(quest_id=quest_id, gems_awarded=row["reward_gems"], gems=after["gems"])


@tool()
def start_friends_quest(db: Database, username: Username) -> Quest:
    """Start this week's Friends Quest with a friend: both must follow each other and neither may already have a
    Friends Quest this week; together you earn 1,000 XP by Sunday for 40 gems each.

    Args:
        username: The friend's username.
    """
    user = me(db)
    friend = user_by_username(db, username)
    if friend["id"] == user["id"]:
        raise InvalidRequest("You can't start a Friends Quest with yourself.")
    if not rules.follows_each_other(db, user["id"], friend["id"]):
        raise PermissionDenied(
            f"You can only start a Friends Quest with a friend who follows you back; {friend['username']} doesn't."
        )
    monday = rules.week_start(db).isoformat()
    for who, label in ((user, "You already have"), (friend, f"{friend['username']} already has")):
        if db.select(quests, "user_id = ? AND kind = 'FRIENDS' AND ends_on >= ?", (who["id"], monday)):
            raise Conflict(f"{label} a Friends Quest this week.")
    sunday = rules.week_end(db).isoformat()
    today = rules.today(db).isoformat()
    title = f"Earn {rules.FRIENDS_QUEST_TARGET:,} XP together"
    created = None
    for a, b in ((user, friend), (friend, user)):
        row = db.insert(
            quests,
            id=db.new_id(quests, "qst_", 4),
            user_id=a["id"],
            kind="FRIENDS",
            title=title,
            target=rules.FRIENDS_QUEST_TARGET,
            progress=0,
            reward_gems=rules.FRIENDS_QUEST_REWARD,
            partner_id=b["id"],
            starts_on=today,
            ends_on=sunday,
            claimed=False,
        )
        created = created or row
    return quest_object(db, created)


# ---------------------------------------------------------------- friends


@tool(read_only=True)
def search_users(db: Database, query: text(40, 2)) -> list[Learner]:
    """Find learners by username or name (case-insensitive substring), with whether you follow each other.

    Args:
        query: Part of a username or a name.
    """
    user = me(db)
    needle = f"%{query.strip().lower()}%"
    rows = db.select(
        users, "(lower(username) LIKE ? OR lower(name) LIKE ?) AND id != ?", (needle, needle, user["id"]), "username"
    )
    return [learner(db, user["id"], r) for r in rows[:25]]


@tool(read_only=True)
def list_friends(db: Database, direction: Literal["following", "followers"] = "following") -> list[Learner]:
    """List who the learner follows, or who follows them, with streaks, XP and leagues.

    Args:
        direction: following (people you follow) or followers (people who follow you).
    """
    user = me(db)
    if direction == "following":
        ids = [r["followee_id"] for r in db.find(follows, follower_id=user["id"])]
    else:
        ids = [r["follower_id"] for r in db.find(follows, followee_id=user["id"])]
    rows = sorted((db.get(users, i) for i in ids), key=lambda r: r["username"].lower())
    return [learner(db, user["id"], r) for r in rows]


@tool(read_only=True)
def get_user_profile(db: Database, username: Username) -> Profile:
    """Get a learner's public profile: streak, total XP, league, courses, follow counts and whether you follow
    each other.

    Args:
        username: The learner's username.
    """
    user = me(db)
    row = user_by_username(db, username)
    taken = []
    for e in db.find(enrollments, user_id=row["id"]):
        taken.append(
            EnrolledCourse(course_id=e["course_id"], title=db.get(courses, e["course_id"])["title"], xp=e["xp"])
        )
    taken.sort(key=lambda c: -c.xp)
    return Profile(
        **learner(db, user["id"], row).model_dump(),
        has_super=row["has_super"],
        created_at=row["created_at"],
        following_count=len(db.find(follows, follower_id=row["id"])),
        followers_count=len(db.find(follows, followee_id=row["id"])),
        courses=taken,
        can_be_followed=row["social_enabled"],
    )


@tool()
def follow_user(db: Database, username: Username) -> FollowResult:
    """Follow a learner by username.

    Args:
        username: The learner's username.
    """
    user = me(db)
    other = user_by_username(db, username)
    if other["id"] == user["id"]:
        raise InvalidRequest("You can't follow yourself.")
    if not other["social_enabled"]:
        raise PermissionDenied(f"{other['username']} has limited social features and can't be followed.")
    if is_following(db, user["id"], other["id"]):
        raise Conflict(f"You already follow {other['username']}.")
    db.insert(
        follows,
        id=db.new_id(follows, "fol_", 5),
        follower_id=user["id"],
        followee_id=other["id"],
        created_at=db.now_iso(),
    )
    return FollowResult(
        username=other["username"], following=True, follows_you=is_following(db, other["id"], user["id"])
    )


@tool()
def unfollow_user(db: Database, username: Username) -> FollowResult:
    """Stop following a learner.

    Args:
        username: The learner's username.
    """
    user = me(db)
    other = user_by_username(db, username)
    row = db.find_one(
        follows, follower_id=user["id"], followee_id=other["id"], not_found=f"You don't follow {other['username']}."
    )
    db.delete(follows, row["id"])
    return FollowResult(
        username=other["username"], following=False, follows_you=is_following(db, other["id"], user["id"])
    )
