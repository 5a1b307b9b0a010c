"""Zoom's objects as tables. User ids are Zoom's 22-character ids, meeting and webinar ids 11-digit numbers, meeting
instances (recordings) have base64 UUIDs, occurrence ids are the occurrence's start in epoch milliseconds. Times are
ISO 8601 UTC strings (the account works in Europe/London, on UTC in winter)."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("plan", String, nullable=False),  # e.g. Business
    Column("licensed_seats", Integer, nullable=False),  # how many users may be Licensed (type 2) at once
    Column("webinar_seats", Integer, nullable=False),  # how many users may hold the webinar add-on
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("email", String, nullable=False, unique=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("type", Integer, nullable=False),  # 1 Basic | 2 Licensed
    Column("role_name", String, nullable=False),  # Owner | Admin | Member
    Column("dept", String),
    Column("status", String, nullable=False),  # active | inactive | pending
    Column("pmi", Integer, nullable=False),  # personal meeting ID
    Column("timezone", String, nullable=False),
    Column("webinar", Boolean, nullable=False),  # holds the webinar add-on
    Column("created_at", String, nullable=False),
)

meetings = Table(
    "meetings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("uuid", String, nullable=False),
    Column("host_id", String, ForeignKey("users.id"), nullable=False),
    Column("topic", String, nullable=False),
    Column("type", Integer, nullable=False),  # 1 instant | 2 scheduled | 3 recurring, no fixed time | 8 recurring
    Column("start_time", String),  # null for types 1 and 3
    Column("duration", Integer, nullable=False),  # minutes
    Column("timezone", String, nullable=False),
    Column("agenda", Text, nullable=False, default=""),
    Column("password", String, nullable=False),
    Column("status", String, nullable=False),  # waiting | started | finished
    # host_video, participant_video, join_before_host, jbh_time, mute_upon_entry, waiting_room, approval_type
    # (0 automatic, 1 manual, 2 no registration), auto_recording (none | local | cloud), alternative_hosts
    Column("settings", JSON, nullable=False),
    # type (1 daily | 2 weekly | 3 monthly), repeat_interval, weekly_days ("2,4"; 1 = Sunday), monthly_day, end_times
    Column("recurrence", JSON),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

occurrences = Table(
    "occurrences",
    metadata,
    Column("key", String, primary_key=True),  # "<meeting id>_<occurrence id>"
    Column("meeting_id", Integer, ForeignKey("meetings.id"), nullable=False),
    Column("occurrence_id", String, nullable=False),
    Column("start_time", String, nullable=False),
    Column("duration", Integer, nullable=False),
    Column("status", String, nullable=False),  # available | deleted
)

registrants = Table(
    "registrants",
    metadata,
    Column("id", String, primary_key=True),
    Column("meeting_id", Integer, ForeignKey("meetings.id"), nullable=False),
    Column("email", String, nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("org", String),
    Column("status", String, nullable=False),  # approved | pending | denied
    Column("create_time", String, nullable=False, info={"volatile": True}),
)

recordings = Table(
    "recordings",
    metadata,
    Column("uuid", String, primary_key=True),  # the meeting instance
    Column("meeting_id", Integer, nullable=False),  # the meeting's number (the meeting itself may be gone)
    Column("host_id", String, ForeignKey("users.id"), nullable=False),
    Column("topic", String, nullable=False),
    Column("start_time", String, nullable=False),
    Column("duration", Integer, nullable=False),
)

recording_files = Table(
    "recording_files",
    metadata,
    Column("id", String, primary_key=True),
    Column("recording_uuid", String, ForeignKey("recordings.uuid"), nullable=False),
    # shared_screen_with_speaker_view | active_speaker | audio_only | chat_file | audio_transcript
    Column("recording_type", String, nullable=False),
    Column("file_type", String, nullable=False),  # MP4 | M4A | CHAT | TRANSCRIPT
    Column("file_size", Integer, nullable=False),  # bytes
    Column("status", String, nullable=False),  # completed | trashed
    Column("trashed_at", String, info={"volatile": True}),  # when it went to the trash (kept there 30 days)
)

webinars = Table(
    "webinars",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("uuid", String, nullable=False),
    Column("host_id", String, ForeignKey("users.id"), nullable=False),
    Column("topic", String, nullable=False),
    Column("start_time", String, nullable=False),
    Column("duration", Integer, nullable=False),
    Column("agenda", Text, nullable=False, default=""),
    Column("approval_type", Integer, nullable=False),  # 0 automatic | 1 manual | 2 no registration
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

panelists = Table(
    "panelists",
    metadata,
    Column("id", String, primary_key=True),
    Column("webinar_id", Integer, ForeignKey("webinars.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the Zoom user the assistant acts for
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)
