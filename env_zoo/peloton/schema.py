"""Peloton's member-side objects as tables: members and who they follow; instructors and the class library (on-demand
rides and live or encore classes with a scheduled start); a member's bookmarks, stack, reservations and scheduled
sessions; workouts with their metrics; challenges and who joined them. Ids are Peloton's 32-character lowercase hex
strings; times are ISO UTC timestamps; output is in kilojoules, distance in miles."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

members = Table(
    "members",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, nullable=False, unique=True),  # leaderboard name, e.g. "PowerZoneKate"
    Column("name", String, nullable=False),
    Column("email", String, nullable=True),  # only for members who can sign in here
    Column("location", String, nullable=False),
    Column("is_private", Boolean, nullable=False),  # private profiles need an approved follow request
    Column("subscription", String, nullable=False),  # ALL_ACCESS | APP_ONE | APP_PLUS
    Column("member_since", String, nullable=False),
)

follows = Table(
    "follows",
    metadata,
    Column("id", String, primary_key=True),
    Column("follower_id", String, ForeignKey("members.id"), nullable=False),
    Column("followee_id", String, ForeignKey("members.id"), nullable=False),
    Column("status", String, nullable=False),  # following | pending
    Index("ix_follows_follower", "follower_id"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the signed-in member
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

instructors = Table(
    "instructors",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("disciplines", JSON, nullable=False),  # e.g. ["cycling", "strength"]
    Column("languages", JSON, nullable=False),
)

classes = Table(
    "classes",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),  # "30 min Pop Ride"
    Column("fitness_discipline", String, nullable=False),
    Column("class_type", String, nullable=False),  # Climb, HIIT & Hills, Power Zone, Intervals, Upper Body...
    Column("instructor_id", String, ForeignKey("instructors.id"), nullable=False),
    Column("duration", Integer, nullable=False),  # seconds
    Column("difficulty_level", String, nullable=False),  # beginner | intermediate | advanced
    Column("difficulty_rating", Integer, nullable=False),  # hundredths, e.g. 812 = 8.12 / 10
    Column("explicit", Boolean, nullable=False),
    Column("has_closed_captions", Boolean, nullable=False),
    Column("original_air_time", String, nullable=False),
    Column("scheduled_start", String, nullable=True),  # live or encore classes still to air
    Column("is_encore", Boolean, nullable=False),
    Column("status", String, nullable=False),  # ON_DEMAND | SCHEDULED | CANCELLED
    Column("total_workouts", Integer, nullable=False),
    Index("ix_classes_discipline", "fitness_discipline"),
    Index("ix_classes_instructor", "instructor_id"),
)

bookmarks = Table(
    "bookmarks",
    metadata,
    Column("id", String, primary_key=True),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("class_id", String, ForeignKey("classes.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_bookmarks_member", "member_id"),
)

stack_items = Table(
    "stack_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("class_id", String, ForeignKey("classes.id"), nullable=False),
    Column("position", Integer, nullable=False),  # 1-based order of play
    Index("ix_stack_member", "member_id"),
)

reservations = Table(
    "reservations",
    metadata,
    Column("id", String, primary_key=True),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("class_id", String, ForeignKey("classes.id"), nullable=False),
    Column(
        "kind", String, nullable=False
    ),  # LIVE (a countdown for a scheduled class) | SESSION (on-demand at a set time)
    Column("start_time", String, nullable=False),
    Column("status", String, nullable=False),  # RESERVED | CANCELLED | COMPLETED
    Column("invited_member_ids", JSON, nullable=False),
    Index("ix_reservations_member", "member_id"),
)

workouts = Table(
    "workouts",
    metadata,
    Column("id", String, primary_key=True),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("class_id", String, ForeignKey("classes.id"), nullable=True),  # null for Just Ride / Just Run
    Column("fitness_discipline", String, nullable=False),
    Column("title", String, nullable=False),
    Column("start_time", String, nullable=False),
    Column("duration", Integer, nullable=False),  # seconds the member was in class
    Column("status", String, nullable=False),  # COMPLETE | INCOMPLETE
    Column("total_output_kj", Integer, nullable=True),  # cycling and rowing
    Column("avg_cadence", Integer, nullable=True),
    Column("avg_resistance", Integer, nullable=True),
    Column("distance_mi", Integer, nullable=True),  # hundredths of a mile
    Column("calories", Integer, nullable=False),
    Column("avg_heart_rate", Integer, nullable=True),
    Column("leaderboard_rank", Integer, nullable=True),
    Column("leaderboard_total", Integer, nullable=True),
    Index("ix_workouts_member", "member_id"),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("kind", String, nullable=False),  # MINUTES | WORKOUTS | DISTANCE (miles)
    Column("disciplines", JSON, nullable=False),  # the disciplines that count; [] = all
    Column("goal", Integer, nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("badge", String, nullable=False),
)

challenge_members = Table(
    "challenge_members",
    metadata,
    Column("id", String, primary_key=True),
    Column("challenge_id", String, ForeignKey("challenges.id"), nullable=False),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("joined_at", String, nullable=False, info={"volatile": True}),
    Index("ix_challenge_members_member", "member_id"),
)
