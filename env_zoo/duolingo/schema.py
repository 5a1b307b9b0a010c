"""Duolingo's learner-side objects as tables: learners (numeric user ids) with their gems, hearts, streak, daily goal
and league; the course catalogue (ids like DUOLINGO_ES_EN) and its units; enrolments with progress; daily XP
history; weekly league cohorts; follows; quests; shop items and the gem ledger. Dates are ISO days (UTC), times ISO
UTC timestamps."""

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),  # Duolingo's numeric user id
    Column("username", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=True),  # only for learners who can sign in here
    Column("created_at", String, nullable=False),
    Column("total_xp", Integer, nullable=False),
    Column("gems", Integer, nullable=False),
    Column("hearts", Integer, nullable=False),  # 0-5; Super members have unlimited hearts
    Column("has_super", Boolean, nullable=False),
    Column("daily_goal_xp", Integer, nullable=False),  # 10 | 20 | 30 | 50
    Column("streak", Integer, nullable=False),
    Column("streak_extended_on", String, nullable=True),  # last day a lesson extended the streak
    Column("longest_streak", Integer, nullable=False),
    Column("streak_freezes", Integer, nullable=False),  # equipped, 0-2
    Column("lost_streak", Integer, nullable=True),  # the streak lost most recently, while it can be repaired
    Column("streak_lost_on", String, nullable=True),
    Column("wager_started_on", String, nullable=True),  # an active Double or Nothing
    Column("league", String, nullable=False),  # BRONZE ... DIAMOND
    Column("leaderboards_enabled", Boolean, nullable=False),
    Column("social_enabled", Boolean, nullable=False),  # false: limited social features (cannot be followed)
    Column("current_course_id", String, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

courses = Table(
    "courses",
    metadata,
    Column("id", String, primary_key=True),  # DUOLINGO_<LEARNING>_<FROM>, e.g. DUOLINGO_ES_EN
    Column("title", String, nullable=False),  # "Spanish"
    Column("learning_language", String, nullable=False),  # es
    Column("from_language", String, nullable=False),  # en
    Column("num_learners", Integer, nullable=False),
    Column("subject", String, nullable=False),  # language | math | music
)

units = Table(
    "units",
    metadata,
    Column("id", String, primary_key=True),
    Column("course_id", String, ForeignKey("courses.id"), nullable=False),
    Column("section", Integer, nullable=False),
    Column("unit_index", Integer, nullable=False),  # 1-based across the course
    Column("title", String, nullable=False),
    Column("cefr_level", String, nullable=True),
    Column("num_lessons", Integer, nullable=False),
    Index("ix_units_course", "course_id"),
)

enrollments = Table(
    "enrollments",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("course_id", String, ForeignKey("courses.id"), nullable=False),
    Column("xp", Integer, nullable=False),
    Column("lessons_completed", Integer, nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
    Index("ix_enrollments_user", "user_id"),
)

daily_xp = Table(
    "daily_xp",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("xp", Integer, nullable=False),
    Column("lessons", Integer, nullable=False),
    Column("frozen", Boolean, nullable=False),  # a streak freeze was used this day
    Index("ix_daily_xp_user", "user_id", "date"),
)

league_members = Table(
    "league_members",
    metadata,
    Column("id", String, primary_key=True),
    Column("cohort_id", String, nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("week_start", String, nullable=False),
    Column("tier", String, nullable=False),
    Column("xp", Integer, nullable=False),  # XP earned this week
    Index("ix_league_members_cohort", "cohort_id"),
    Index("ix_league_members_user", "user_id"),
)

follows = Table(
    "follows",
    metadata,
    Column("id", String, primary_key=True),
    Column("follower_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("followee_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_follows_follower", "follower_id"),
    Index("ix_follows_followee", "followee_id"),
)

quests = Table(
    "quests",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("kind", String, nullable=False),  # DAILY | MONTHLY | FRIENDS
    Column("title", String, nullable=False),
    Column("target", Integer, nullable=False),
    Column("progress", Integer, nullable=False),  # for FRIENDS quests: this learner's share
    Column("reward_gems", Integer, nullable=False),
    Column("partner_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("starts_on", String, nullable=False),
    Column("ends_on", String, nullable=False),  # last day it counts
    Column("claimed", Boolean, nullable=False),
    Index("ix_quests_user", "user_id"),
)

shop_items = Table(
    "shop_items",
    metadata,
    Column("id", String, primary_key=True),  # streak_freeze | heart_refill | streak_wager | streak_repair
    Column("name", String, nullable=False),
    Column("price_gems", Integer, nullable=False),
    Column("description", String, nullable=False),
)

gem_transactions = Table(
    "gem_transactions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("amount", Integer, nullable=False),  # + earned, - spent
    Column("reason", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_gem_transactions_user", "user_id"),
)
