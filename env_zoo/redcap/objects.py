"""REDCap's API objects as output models (project, data dictionary field, arm, event, data access group, user with
rights, log entry, record status, import and delete results), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class SignedIn(BaseModel):
    """The REDCap user whose API token the app now uses."""

    username: str
    firstname: str
    lastname: str
    email: str


class ProjectSummary(BaseModel):
    """A project the user is a user of."""

    project_id: int
    project_title: str
    status: str = Field(description="development | production | analysis (Analysis/Cleanup)")
    is_longitudinal: bool
    project_pi: str | None


class ProjectList(BaseModel):
    """The user's projects."""

    projects: list[ProjectSummary]


class InstrumentObject(BaseModel):
    """A data collection instrument."""

    instrument_name: str
    instrument_label: str


class ProjectInfo(ProjectSummary):
    """A project's settings (Export Project Info) with its instruments."""

    purpose: str
    data_locked: bool = Field(description="Analysis/Cleanup with data marked read-only")
    record_autonumbering_enabled: bool
    project_irb_number: str | None
    creation_time: str
    production_time: str | None
    has_repeating_instruments_or_events: bool
    instruments: list[InstrumentObject]
    record_count: int = Field(description="records the user's data access group lets them see")


class FieldObject(BaseModel):
    """One row of the data dictionary (Export Metadata)."""

    field_name: str
    form_name: str
    field_type: str
    field_label: str
    select_choices_or_calculations: str
    text_validation_type_or_show_slider_number: str
    text_validation_min: str
    text_validation_max: str
    identifier: str = Field(description='"y" for identifiers')
    required_field: str = Field(description='"y" when required')
    field_note: str
    branching_logic: str


class Metadata(BaseModel):
    """The data dictionary."""

    fields: list[FieldObject]


class ArmObject(BaseModel):
    """An arm of a longitudinal project."""

    arm_num: int
    name: str


class EventObject(BaseModel):
    """An event with the instruments designated for it and those that repeat in it."""

    unique_event_name: str
    event_name: str
    arm_num: int
    day_offset: int
    offset_min: int
    offset_max: int
    forms: list[str]
    repeating_forms: list[str]


class EventList(BaseModel):
    """Arms and events (empty for a classic project)."""

    arms: list[ArmObject]
    events: list[EventObject]


class RecordExport(BaseModel):
    """Records in REDCap's flat format: one row per record and event, plus one per repeating instance; values are
    raw codes as text."""

    rows: list[dict[str, str]]
    count: int = Field(description="rows")
    records: list[str] = Field(description="the record IDs in these rows, in order")


class ImportResult(BaseModel):
    """What Import Records saved."""

    count: int
    ids: list[str]


class DeleteResult(BaseModel):
    """How many records (or how many records' instrument data) were deleted."""

    count: int


class NextRecordName(BaseModel):
    """The name the next new record should get."""

    record: str


class Renamed(BaseModel):
    """A renamed record."""

    record: str
    previous_name: str


class FormStatus(BaseModel):
    """One saved instrument of a record: its status, lock and e-signature."""

    event: str
    instrument: str
    instance: int
    status: str = Field(description="Incomplete | Unverified | Complete")
    locked: bool
    locked_by: str | None
    locked_at: str | None
    esigned: bool
    esigned_by: str | None
    esigned_at: str | None


class RecordStatus(BaseModel):
    """A record's home page: arm, data access group and every saved instrument."""

    record: str
    arm_num: int
    data_access_group: str | None
    forms: list[FormStatus]


class DagObject(BaseModel):
    """A data access group and the users assigned to it."""

    data_access_group_name: str
    unique_group_name: str
    data_access_group_id: int
    users: list[str]
    record_count: int


class DagList(BaseModel):
    """The project's data access groups."""

    dags: list[DagObject]


class UserObject(BaseModel):
    """A project user and their rights (Export Users)."""

    username: str
    email: str
    firstname: str
    lastname: str
    expiration: str | None
    data_access_group: str | None
    design: int
    user_rights: int
    data_access_groups: int
    data_export: int = Field(description="0 no access, 2 de-identified, 3 remove identifiers, 1 full data set")
    logging: int
    record_create: int
    record_rename: int
    record_delete: int
    lock_records: int = Field(description="0 none, 1 lock/unlock, 2 lock/unlock with e-signature authority")
    forms: dict[str, int] = Field(description="per instrument: 0 no access, 1 view & edit, 2 read only")


class UserList(BaseModel):
    """The project's users."""

    users: list[UserObject]


class LogEntry(BaseModel):
    """One entry of the project log."""

    timestamp: str
    username: str
    action: str
    record: str | None
    details: str


class LogPage(BaseModel):
    """A page of log entries, newest first."""

    entries: list[LogEntry]
    next_cursor: str | None
    has_more: bool


STATUS = {0: "Incomplete", 1: "Unverified", 2: "Complete"}


def field_object(row: dict[str, Any]) -> FieldObject:
    """A data dictionary row as REDCap exports it (empty strings for unset columns)."""
    return FieldObject(
        field_name=row["field_name"],
        form_name=row["form_name"],
        field_type=row["field_type"],
        field_label=row["field_label"],
        select_choices_or_calculations=row["select_choices"] or "",
        text_validation_type_or_show_slider_number=row["validation"] or "",
        text_validation_min=row["validation_min"] or "",
        text_validation_max=row["validation_max"] or "",
        identifier="y" if row["identifier"] else "",
        required_field="y" if row["required_field"] else "",
        field_note=row["field_note"] or "",
        branching_logic=row["branching_logic"] or "",
    )


def form_status(row: dict[str, Any]) -> FormStatus:
    """A saved instrument's status."""
    return FormStatus(
        event=row["event"],
        instrument=row["form"],
        instance=row["instance"],
        status=STATUS[row["complete"]],
        locked=row["locked_by"] is not None,
        locked_by=row["locked_by"],
        locked_at=row["locked_at"],
        esigned=row["esigned_by"] is not None,
        esigned_by=row["esigned_by"],
        esigned_at=row["esigned_at"],
    )


def user_object(rights: dict[str, Any], user: dict[str, Any]) -> UserObject:
    """A project user with their rights."""
    return UserObject(
        username=user["username"],
        email=user["email"],
        firstname=user["firstname"],
        lastname=user["lastname"],
        **{k: rights[k] for k in UserObject.model_fields if k in rights and k != "username"},
    )
