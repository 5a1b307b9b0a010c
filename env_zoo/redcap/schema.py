"""REDCap's objects as tables: users of the REDCap server and the signed-in session, projects with their user
rights, instruments and fields (the data dictionary), arms, events and the instrument-event mapping, repeating
instruments, data access groups, records and their saved form data (one row per record, event, instrument and
repeat instance, with its lock and e-signature), and the project log. Times are "YYYY-MM-DD HH:MM" strings as
REDCap shows them."""

from sqlalchemy import JSON, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("username", String, primary_key=True),  # e.g. "dmoreno"
    Column("firstname", String, nullable=False),
    Column("lastname", String, nullable=False),
    Column("email", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

projects = Table(
    "projects",
    metadata,
    Column("project_id", Integer, primary_key=True),
    Column("project_title", String, nullable=False),
    Column("purpose", String, nullable=False),  # Research | Quality Improvement | Operational Support
    Column("status", String, nullable=False),  # development | production | analysis
    Column("data_locked", Integer, nullable=False),  # analysis/cleanup with data marked read-only/locked
    Column("is_longitudinal", Integer, nullable=False),
    Column("record_autonumbering_enabled", Integer, nullable=False),
    Column("project_pi", String),
    Column("project_irb_number", String),
    Column("creation_time", String, nullable=False),
    Column("production_time", String),
)

project_users = Table(
    "project_users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("username", String, ForeignKey("users.username"), nullable=False, index=True),
    Column("expiration", String),  # YYYY-MM-DD or null
    Column("data_access_group", String),  # unique_group_name or null
    Column("design", Integer, nullable=False),
    Column("user_rights", Integer, nullable=False),
    Column("data_access_groups", Integer, nullable=False),
    Column("data_export", Integer, nullable=False),  # 0 no access, 2 de-identified, 3 remove identifiers, 1 full
    Column("logging", Integer, nullable=False),
    Column("record_create", Integer, nullable=False),
    Column("record_rename", Integer, nullable=False),
    Column("record_delete", Integer, nullable=False),
    Column("lock_records", Integer, nullable=False),  # 0 none, 1 lock/unlock, 2 lock/unlock with e-signature
    Column("forms", JSON, nullable=False),  # {form_name: 0 no access | 1 view & edit | 2 read only}
)

instruments = Table(
    "instruments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("instrument_name", String, nullable=False),
    Column("instrument_label", String, nullable=False),
    Column("position", Integer, nullable=False),
)

fields = Table(
    "fields",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("field_name", String, nullable=False),
    Column("form_name", String, nullable=False),
    Column("position", Integer, nullable=False),
    Column("field_type", String, nullable=False),  # text | notes | radio | dropdown | checkbox | yesno | descriptive
    Column("field_label", Text, nullable=False),
    Column("select_choices", Text),  # "1, Mild | 2, Moderate | 3, Severe"
    Column("validation", String),  # date_ymd | datetime_ymd | integer | number | email | phone | time
    Column("validation_min", String),
    Column("validation_max", String),
    Column("identifier", Integer, nullable=False),
    Column("required_field", Integer, nullable=False),
    Column("field_note", Text),
    Column("branching_logic", Text),
)

arms = Table(
    "arms",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("arm_num", Integer, nullable=False),
    Column("name", String, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),  # REDCap's event_id
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("unique_event_name", String, nullable=False),  # "week_6_arm_1"
    Column("event_name", String, nullable=False),
    Column("arm_num", Integer, nullable=False),
    Column("day_offset", Integer, nullable=False),
    Column("offset_min", Integer, nullable=False),
    Column("offset_max", Integer, nullable=False),
    Column("forms", JSON, nullable=False),  # the instrument-event mapping: instrument names, in order
    Column("repeating_forms", JSON, nullable=False),  # instruments that repeat in this event
)

dags = Table(
    "dags",
    metadata,
    Column("group_id", Integer, primary_key=True),  # data_access_group_id
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("unique_group_name", String, nullable=False),
    Column("data_access_group_name", String, nullable=False),
)

records = Table(
    "records",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("record", String, nullable=False, index=True),
    Column("arm_num", Integer, nullable=False),
    Column("dag", String),  # unique_group_name or null
)

form_data = Table(
    "form_data",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("record", String, nullable=False, index=True),
    Column("event", String, nullable=False),  # unique_event_name ("event_1_arm_1" in classic projects)
    Column("form", String, nullable=False),
    Column("instance", Integer, nullable=False),  # 1 unless the instrument repeats
    Column("values", JSON, nullable=False),  # {field_name: raw value as text}
    Column("complete", Integer, nullable=False),  # 0 Incomplete | 1 Unverified | 2 Complete
    Column("locked_by", String),
    Column("locked_at", String, info={"volatile": True}),
    Column("esigned_by", String),
    Column("esigned_at", String, info={"volatile": True}),
)

logs = Table(
    "logs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", Integer, ForeignKey("projects.project_id"), nullable=False, index=True),
    Column("timestamp", String, nullable=False, info={"volatile": True}),
    Column("username", String, nullable=False),
    Column("action", String, nullable=False),  # "Update record 412-7", "Manage/Design", "Lock/Unlock record"
    Column("record", String),
    Column(
        "log_type", String, nullable=False
    ),  # record_add | record_edit | record_delete | lock_record | manage | user
    Column("dag", String),
    Column("details", Text, nullable=False),
)
