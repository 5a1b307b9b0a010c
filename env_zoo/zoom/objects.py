"""Zoom API v2 resources as output models (User, Meeting with its settings and occurrences, Registrant, Recording
and its files, Webinar, Panelist) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

USER_TYPES = {1: "Basic", 2: "Licensed"}
ZOOM_URL = "https://haldenpryce.zoom.us"


class User(BaseModel):
    """A Zoom user of the account."""

    id: str
    email: str
    first_name: str
    last_name: str
    type: int = Field(description="1 Basic, 2 Licensed")
    type_name: str
    role_name: str = Field(description="Owner, Admin or Member")
    dept: str | None
    status: str = Field(description="active, inactive or pending")
    pmi: int
    timezone: str
    webinar: bool = Field(description="holds the webinar add-on (needed to host webinars)")
    created_at: str


class UserList(BaseModel):
    """One page of users."""

    users: list[User]
    total_records: int
    next_page_token: str = Field(description="pass back for the next page; empty on the last page")


class SignedIn(BaseModel):
    """Who the assistant now acts for."""

    user: User


class Settings(BaseModel):
    """A meeting's settings."""

    host_video: bool
    participant_video: bool
    join_before_host: bool
    jbh_time: int = Field(description="minutes before the start participants may join (0 = any time)")
    mute_upon_entry: bool
    waiting_room: bool
    approval_type: int = Field(description="0 automatically approve, 1 manually approve, 2 no registration")
    auto_recording: str = Field(description="none, local or cloud")
    alternative_hosts: str = Field(description="emails, separated by ;")


class Recurrence(BaseModel):
    """How a recurring meeting repeats."""

    type: int = Field(description="1 daily, 2 weekly, 3 monthly")
    repeat_interval: int
    weekly_days: str | None = Field(default=None, description="1 = Sunday ... 7 = Saturday, comma separated")
    monthly_day: int | None = None
    end_times: int


class Occurrence(BaseModel):
    """One occurrence of a recurring meeting."""

    occurrence_id: str
    start_time: str
    duration: int
    status: str = Field(description="available or deleted")


class Meeting(BaseModel):
    """A meeting with its settings (and occurrences, when recurring)."""

    id: int
    uuid: str
    host_id: str
    host_email: str
    topic: str
    type: int = Field(description="1 instant, 2 scheduled, 3 recurring with no fixed time, 8 recurring")
    status: str = Field(description="waiting, started or finished")
    start_time: str | None
    duration: int
    timezone: str
    agenda: str
    password: str
    join_url: str
    settings: Settings
    recurrence: Recurrence | None
    occurrences: list[Occurrence]


class MeetingSummary(BaseModel):
    """A meeting in a list."""

    id: int
    uuid: str
    host_id: str
    topic: str
    type: int
    start_time: str | None
    duration: int
    join_url: str


class MeetingList(BaseModel):
    """One page of a user's meetings."""

    meetings: list[MeetingSummary]
    total_records: int
    next_page_token: str


class Deleted(BaseModel):
    """What a delete removed."""

    id: int
    occurrence_id: str | None
    deleted: bool


class Registrant(BaseModel):
    """A meeting registrant."""

    id: str
    email: str
    first_name: str
    last_name: str
    org: str | None
    status: str = Field(description="approved, pending or denied")
    create_time: str
    join_url: str | None = Field(description="their personal join link once approved")


class RegistrantList(BaseModel):
    """One page of a meeting's registrants with one status."""

    registrants: list[Registrant]
    total_records: int
    next_page_token: str


class RegistrantStatusResult(BaseModel):
    """Registrants whose status changed."""

    action: str
    registrants: list[Registrant]


class RecordingFile(BaseModel):
    """One file of a cloud recording."""

    id: str
    recording_type: str
    file_type: str
    file_size: int
    status: str = Field(description="completed or trashed")
    deleted_time: str | None = Field(description="when it was moved to the trash")


class Recording(BaseModel):
    """The cloud recording of one meeting instance."""

    uuid: str
    id: int = Field(description="the meeting's number")
    host_id: str
    topic: str
    start_time: str
    duration: int
    total_size: int
    recording_count: int
    recording_files: list[RecordingFile]


class RecordingList(BaseModel):
    """One page of a user's cloud recordings."""

    meetings: list[Recording]
    total_records: int
    next_page_token: str


class Webinar(BaseModel):
    """A webinar."""

    id: int
    uuid: str
    host_id: str
    topic: str
    start_time: str
    duration: int
    agenda: str
    approval_type: int = Field(description="0 automatically approve, 1 manually approve, 2 no registration")
    join_url: str


class WebinarList(BaseModel):
    """One page of a user's webinars."""

    webinars: list[Webinar]
    total_records: int
    next_page_token: str


class Panelist(BaseModel):
    """A webinar panelist."""

    id: str
    name: str
    email: str


class PanelistList(BaseModel):
    """A webinar's panelists."""

    panelists: list[Panelist]
    total_records: int


def user_object(row: dict[str, Any]) -> User:
    """A stored user as Zoom returns it."""
    fields = {k: v for k, v in row.items() if k in User.model_fields}
    return User(**fields, type_name=USER_TYPES[row["type"]])


def join_url(meeting_id: int, password: str, kind: str = "j") -> str:
    """A meeting's or webinar's join link."""
    return f"{ZOOM_URL}/{kind}/{meeting_id}?pwd={password}"


def meeting_object(row: dict[str, Any], host_email: str, occurrences: list[dict[str, Any]]) -> Meeting:
    """A stored meeting with its occurrences."""
    return Meeting(
        **{k: v for k, v in row.items() if k in Meeting.model_fields and k not in ("settings", "recurrence")},
        host_email=host_email,
        join_url=join_url(row["id"], row["password"]),
        settings=Settings(**row["settings"]),
        recurrence=Recurrence(**row["recurrence"]) if row["recurrence"] else None,
        occurrences=[Occurrence(**{k: o[k] for k in Occurrence.model_fields}) for o in occurrences],
    )


def meeting_summary(row: dict[str, Any]) -> MeetingSummary:
    """A meeting in a list."""
    return MeetingSummary(
        **{k: v for k, v in row.items() if k in MeetingSummary.model_fields},
        join_url=join_url(row["id"], row["password"]),
    )


def registrant_object(row: dict[str, Any]) -> Registrant:
    """A stored registrant."""
    link = f"{ZOOM_URL}/w/{row['meeting_id']}?tk={row['id']}" if row["status"] == "approved" else None
    return Registrant(**{k: v for k, v in row.items() if k in Registrant.model_fields}, join_url=link)


def recording_object(row: dict[str, Any], files: list[dict[str, Any]]) -> Recording:
    """A stored recording with its files."""
    return Recording(
        uuid=row["uuid"],
        id=row["meeting_id"],
        host_id=row["host_id"],
        topic=row["topic"],
        start_time=row["start_time"],
        duration=row["duration"],
        total_size=sum(f["file_size"] for f in files),
        recording_count=len(files),
        recording_files=[
            RecordingFile(
                id=f["id"],
                recording_type=f["recording_type"],
                file_type=f["file_type"],
                file_size=f["file_size"],
                status=f["status"],
                deleted_time=f["trashed_at"],
            )
            for f in files
        ],
    )


def webinar_object(row: dict[str, Any]) -> Webinar:
    """A stored webinar."""
    return Webinar(
        **{k: v for k, v in row.items() if k in Webinar.model_fields},
        join_url=f"{ZOOM_URL}/w/{row['id']}",
    )
