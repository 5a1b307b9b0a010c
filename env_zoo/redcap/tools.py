"""REDCap's API as a signed-in study coordinator uses it: projects, the data dictionary, arms and events, records
(export with filter logic, import, delete, rename, next record name), a record's status, record locking and
e-signatures, data access groups, user rights and the project log; plus the user's own sign-in and e-signature."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import IsoDate, NonBlankText, bounded, page_size, text

from . import flat, rules
from . import schema as t
from .access import me, membership, require
from .errors import bad_request, conflict, forbidden
from .objects import (
    ArmObject,
    DagList,
    DagObject,
    DeleteResult,
    EventList,
    EventObject,
    FieldObject,
    FormStatus,
    ImportResult,
    InstrumentObject,
    LogEntry,
    LogPage,
    Metadata,
    NextRecordName,
    ProjectInfo,
    ProjectList,
    ProjectSummary,
    RecordExport,
    RecordStatus,
    Renamed,
    SignedIn,
    UserList,
    UserObject,
    field_object,
    form_status,
    user_object,
)

ProjectId = Annotated[int, bounded(1)]
Name = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[a-z][a-z0-9_]*$")]
Names = Annotated[list[Name], Unordered, Field(min_length=1, max_length=200)]
RecordName = Annotated[str, text(100)]
Instance = Annotated[int, bounded(1, 9999)]
Flag = Literal[0, 1]
FieldType = Literal["text", "notes", "radio", "dropdown", "checkbox", "yesno"]
Validation = Literal["date_ymd", "datetime_ymd", "integer", "number", "email", "phone", "time"]
LogType = Literal["record", "record_add", "record_edit", "record_delete", "lock_record", "manage", "user"]


@tool(user_only=True)
def sign_in(db: Database, username: NonBlankText) -> SignedIn:
    """(User only) The user signs in to REDCap and hands the app their API token.

    Args:
        username: The user's REDCap username.
    """
    user = db.find_one(
        t.users, username=username.strip().lower(), not_found='{"error": "No REDCap user with this username."}'
    )
    db.start_session(t.sessions, username=user["username"])
    return SignedIn(**user)


@tool(user_only=True)
def esign_form(
    db: Database,
    project_id: ProjectId,
    record: RecordName,
    instrument: Name,
    event: Name | None = None,
    instance: Instance = 1,
) -> FormStatus:
    """(User only) The user e-signs a locked instrument of a record, re-entering their password; this needs the
    "Locking / Unlocking with E-signature authority" right.

    Args:
        project_id: The project's ID, from list_projects.
        record: The record ID (record name), as export_records or get_record_status give it.
        instrument: The instrument's unique name (instrument_name from export_project_info).
        event: The unique event name from export_events (longitudinal projects only).
        instance: The repeat instance (1 unless the instrument repeats).
    """
    project, rights = membership(db, project_id)
    require(rights, "lock_records", 2)
    row = flat.saved_instrument(db, project, rights, record, instrument, event, instance)
    if not row["locked_by"]:
        raise conflict(f"The instrument '{instrument}' must be locked for record {record} before it can be e-signed.")
    if row["esigned_by"]:
        raise conflict(f"The instrument '{instrument}' is already e-signed for record {record}.")
    username = me(db)["username"]
    row = db.update(t.form_data, row["id"], esigned_by=username, esigned_at=rules.stamp(db))
    rules.log(
        db,
        project_id,
        username,
        f"Lock/Unlock record {record}",
        "lock_record",
        f"Action: Save e-signature, Form: {instrument}, Event: {row['event']}, Instance: {instance}",
        record,
    )
    return form_status(row)


@tool(read_only=True)
def list_projects(db: Database) -> ProjectList:
    """List the REDCap projects the signed-in user is a user of."""
    ids = [r["project_id"] for r in db.find(t.project_users, username=me(db)["username"])]
    rows = db.select(t.projects, f"project_id IN ({', '.join('?' * len(ids))})", ids) if ids else []
    return ProjectList(
        projects=[
            ProjectSummary(
                project_id=p["project_id"],
                project_title=p["project_title"],
                status=p["status"],
                is_longitudinal=bool(p["is_longitudinal"]),
                project_pi=p["project_pi"],
            )
            for p in rows
        ]
    )


@tool(read_only=True)
def export_project_info(db: Database, project_id: ProjectId) -> ProjectInfo:
    """Export a project's settings: status, whether it is longitudinal, auto-numbering, its instruments, and how
    many records the user can see.

    Args:
        project_id: The project's ID, from list_projects.
    """
    project, rights = membership(db, project_id)
    found = db.find(t.instruments, project_id=project_id, order_by=[t.instruments.c.position])
    keep = ("project_id", "project_title", "status", "project_pi", "purpose", "project_irb_number")
    return ProjectInfo(
        **{k: project[k] for k in (*keep, "creation_time", "production_time")},
        is_longitudinal=bool(project["is_longitudinal"]),
        data_locked=bool(project["data_locked"]),
        record_autonumbering_enabled=bool(project["record_autonumbering_enabled"]),
        has_repeating_instruments_or_events=any(e["repeating_forms"] for e in db.find(t.events, project_id=project_id)),
        instruments=[
            InstrumentObject(instrument_name=i["instrument_name"], instrument_label=i["instrument_label"])
            for i in found
        ],
        record_count=len(rules.visible_records(db, rights, project_id)),
    )


@tool(read_only=True)
def export_metadata(
    db: Database, project_id: ProjectId, forms: Names | None = None, fields: Names | None = None
) -> Metadata:
    """Export the data dictionary: every field with its instrument, type, label, choices ("code, label | ..."),
    validation and range, identifier and required flags, and branching logic.

    Args:
        project_id: The project's ID, from list_projects.
        forms: Only the fields of these instruments.
        fields: Only these fields.
    """
    membership(db, project_id)
    known = rules.project_fields(db, project_id)
    bad = [f for f in fields or [] if f not in known]
    if bad:
        raise bad_request(f'The following values in the parameter "fields" are not valid: {", ".join(map(repr, bad))}')
    keep = [
        f
        for f in known.values()
        if (not forms or f["form_name"] in forms) and (not fields or f["field_name"] in fields)
    ]
    return Metadata(fields=[field_object(f) for f in keep])


@tool(read_only=True)
def export_events(
    db: Database, project_id: ProjectId, arms: Annotated[list[int], Unordered] | None = None
) -> EventList:
    """Export a longitudinal project's arms and events, each event with the instruments designated for it and
    those that repeat in it.

    Args:
        project_id: The project's ID, from list_projects.
        arms: Only these arm numbers.
    """
    project, _ = membership(db, project_id)
    if not project["is_longitudinal"]:
        return EventList(arms=[], events=[])
    wanted = [
        a
        for a in db.find(t.arms, project_id=project_id, order_by=[t.arms.c.arm_num])
        if not arms or a["arm_num"] in arms
    ]
    numbers = {a["arm_num"] for a in wanted}
    return EventList(
        arms=[ArmObject(arm_num=a["arm_num"], name=a["name"]) for a in wanted],
        events=[
            EventObject(**{k: e[k] for k in EventObject.model_fields})
            for e in rules.project_events(db, project).values()
            if e["arm_num"] in numbers
        ],
    )


@tool(read_only=True)
def export_records(
    db: Database,
    project_id: ProjectId,
    records: Annotated[list[RecordName], Unordered, Field(max_length=200)] | None = None,
    fields: Names | None = None,
    forms: Names | None = None,
    events: Names | None = None,
    filter_logic: Annotated[str, text(1000, 0)] = "",
    export_data_access_groups: bool = False,
) -> RecordExport:
    """Export records in flat format: one row per record and event, one more per repeating instance; values are
    raw codes. The user's data access group, instrument rights and data export right limit what comes back.

    Args:
        project_id: The project's ID, from list_projects.
        records: Only these record IDs.
        fields: Only these fields (the record ID always comes).
        forms: Only these instruments' fields.
        events: Only these unique event names (longitudinal projects).
        filter_logic: Rows to keep, e.g. "[sbp] >= 160 and [sex] = '1'" (comparisons joined by and / or;
            [record-dag-name] is the record's data access group).
        export_data_access_groups: Add each record's redcap_data_access_group.
    """
    project, rights = membership(db, project_id)
    if rights["data_export"] == 0:
        raise forbidden("You do not have Data Export privileges in this project.")
    known = rules.project_fields(db, project_id)
    bad = [f for f in fields or [] if f not in known]
    if bad:
        raise bad_request(f'The following values in the parameter "fields" are not valid: {", ".join(map(repr, bad))}')
    groups = rules.parse_filter(filter_logic, known) if filter_logic.strip() else None
    visible = rules.visible_records(db, rights, project_id)
    wanted = [r for r in visible if not records or r["record"] in records]
    rows = flat.export_rows(
        db,
        project,
        rights,
        wanted,
        set(fields) if fields else None,
        set(forms) if forms else None,
        set(events) if events else None,
        export_data_access_groups,
    )
    if groups is not None:
        dag_of = {r["record"]: r["dag"] or "" for r in wanted}
        rows = [r for r in rows if rules.matches(groups, {**r, rules.DAG_VARIABLE: dag_of[next(iter(r.values()))]})]
    return RecordExport(rows=rows, count=len(rows), records=list(dict.fromkeys(r[next(iter(r))] for r in rows)))


@tool()
def import_records(
    db: Database,
    project_id: ProjectId,
    data: Annotated[list[dict[str, str]], Field(min_length=1, max_length=100)],
    overwrite_behavior: Literal["normal", "overwrite"] = "normal",
) -> ImportResult:
    """Import records in flat format (the record ID field, redcap_event_name in longitudinal projects,
    redcap_repeat_instrument and redcap_repeat_instance for repeating instruments, checkbox columns as
    "field___code", "<instrument>_complete" as 0/1/2); a new record name creates the record. Every value is
    checked against its field; if any row fails, nothing is saved. With "normal", blank values are ignored;
    with "overwrite", they erase what was saved.

    Args:
        project_id: The project's ID, from list_projects.
        data: The rows to save, values as text (raw codes for choices).
        overwrite_behavior: normal or overwrite.
    """
    project, rights = membership(db, project_id)
    touched = flat.import_rows(db, project, rights, me(db)["username"], data, overwrite_behavior == "overwrite")
    return ImportResult(count=len(touched), ids=touched)


@tool()
def delete_records(
    db: Database,
    project_id: ProjectId,
    records: Annotated[list[RecordName], Unordered, Field(min_length=1, max_length=100)],
    instrument: Name | None = None,
    event: Name | None = None,
    repeat_instance: Instance | None = None,
) -> DeleteResult:
    """Delete whole records, or with instrument (and event, repeat_instance) only that instrument's data in them.
    Needs the Delete Records right; locked instruments cannot be deleted.

    Args:
        project_id: The project's ID, from list_projects.
        records: The record IDs, as export_records gives them.
        instrument: Delete only this instrument's data.
        event: With instrument: only in this event (longitudinal projects).
        repeat_instance: With instrument: only this repeat instance.
    """
    project, rights = membership(db, project_id)
    rules.writable(project)
    require(rights, "record_delete")
    missing = [r for r in records if rules.find_record(db, rights, project_id, r) is None]
    if missing:
        raise bad_request(
            "One or more of the records provided cannot be deleted because they do not exist in the project. "
            f"The following records do not exist: {', '.join(missing)}"
        )
    if instrument is not None and instrument not in rules.form_names(db, project_id):
        raise bad_request(f"The instrument '{instrument}' does not exist in this project.")
    username = me(db)["username"]
    order = [r["record"] for r in db.find(t.records, project_id=project_id)]
    for name in sorted(records, key=order.index):
        rows = [
            r
            for r in rules.saved_forms(db, project_id, name)
            if (instrument is None or r["form"] == instrument)
            and (event is None or r["event"] == event)
            and (repeat_instance is None or r["instance"] == repeat_instance)
        ]
        locked = [r for r in rows if r["locked_by"]]
        if locked:
            raise conflict(
                f"Record {name} cannot be deleted: the instrument '{locked[0]['form']}' "
                f"is locked ({locked[0]['event']})."
            )
        for row in rows:
            db.delete(t.form_data, row["id"])
        what = f"Instrument: {instrument}" if instrument else "Entire record"
        record_row = rules.find_record(db, rights, project_id, name)
        assert record_row is not None
        if instrument is None:
            db.delete(t.records, record_row["id"])
        rules.log(
            db, project_id, username, f"Delete record {name} (API)", "record_delete", what, name, record_row["dag"]
        )
    return DeleteResult(count=len(records))


@tool(read_only=True)
def generate_next_record_name(db: Database, project_id: ProjectId) -> NextRecordName:
    """The name the next new record should get: with auto-numbering, a user in a data access group gets
    "<group id>-<n>"; otherwise the highest numbered record plus one.

    Args:
        project_id: The project's ID, from list_projects.
    """
    project, rights = membership(db, project_id)
    return NextRecordName(record=rules.next_record_name(db, project, rights))


@tool()
def rename_record(db: Database, project_id: ProjectId, record: RecordName, new_record_name: RecordName) -> Renamed:
    """Rename a record (needs the Rename Records right); the new name must not be taken.

    Args:
        project_id: The project's ID, from list_projects.
        record: The record's current ID, as export_records gives it.
        new_record_name: Its new name.
    """
    project, rights = membership(db, project_id)
    rules.writable(project)
    require(rights, "record_rename")
    row = rules.record_or_404(db, rights, project_id, record)
    if db.find(t.records, project_id=project_id, record=new_record_name):
        raise bad_request(f"The record name '{new_record_name}' already exists in this project.")
    db.update(t.records, row["id"], record=new_record_name)
    for saved in rules.saved_forms(db, project_id, record):
        db.update(t.form_data, saved["id"], record=new_record_name)
    rules.log(
        db,
        project_id,
        me(db)["username"],
        f"Update record {new_record_name} (API)",
        "record_edit",
        f"Record renamed from {record} to {new_record_name}",
        new_record_name,
        row["dag"],
    )
    return Renamed(record=new_record_name, previous_name=record)


@tool(read_only=True)
def get_record_status(db: Database, project_id: ProjectId, record: RecordName) -> RecordStatus:
    """A record's home page: its arm, data access group and every saved instrument with its status (Incomplete,
    Unverified, Complete), lock and e-signature.

    Args:
        project_id: The project's ID, from list_projects.
        record: The record ID (record name), as export_records or get_record_status give it.
    """
    _, rights = membership(db, project_id)
    row = rules.record_or_404(db, rights, project_id, record)
    return RecordStatus(
        record=record,
        arm_num=row["arm_num"],
        data_access_group=row["dag"],
        forms=[form_status(r) for r in rules.saved_forms(db, project_id, record)],
    )


@tool()
def lock_form(
    db: Database,
    project_id: ProjectId,
    record: RecordName,
    instrument: Name,
    event: Name | None = None,
    instance: Instance = 1,
) -> FormStatus:
    """Lock one instrument of a record so no one can edit it (needs the Record Locking right; a form with no data
    cannot be locked).

    Args:
        project_id: The project's ID, from list_projects.
        record: The record ID (record name), as export_records or get_record_status give it.
        instrument: The instrument's unique name (instrument_name from export_project_info).
        event: The unique event name from export_events (longitudinal projects only).
        instance: The repeat instance (1 unless the instrument repeats).
    """
    project, rights = membership(db, project_id)
    require(rights, "lock_records")
    row = flat.saved_instrument(db, project, rights, record, instrument, event, instance)
    if row["locked_by"]:
        raise conflict(f"The instrument '{instrument}' is already locked for record {record}.")
    username = me(db)["username"]
    row = db.update(t.form_data, row["id"], locked_by=username, locked_at=rules.stamp(db))
    rules.log(
        db,
        project_id,
        username,
        f"Lock/Unlock record {record}",
        "lock_record",
        f"Action: Lock instrument, Form: {instrument}, Event: {row['event']}, Instance: {instance}",
        record,
    )
    return form_status(row)


@tool()
def unlock_form(
    db: Database,
    project_id: ProjectId,
    record: RecordName,
    instrument: Name,
    event: Name | None = None,
    instance: Instance = 1,
) -> FormStatus:
    """Unlock one instrument of a record (needs the Record Locking right); unlocking removes its e-signature.

    Args:
        project_id: The project's ID, from list_projects.
        record: The record ID (record name), as export_records or get_record_status give it.
        instrument: The instrument's unique name (instrument_name from export_project_info).
        event: The unique event name from export_events (longitudinal projects only).
        instance: The repeat instance (1 unless the instrument repeats).
    """
    project, rights = membership(db, project_id)
    require(rights, "lock_records")
    row = flat.saved_instrument(db, project, rights, record, instrument, event, instance)
    if not row["locked_by"]:
        raise conflict(f"The instrument '{instrument}' is not locked for record {record}.")
    username = me(db)["username"]
    note = " (e-signature negated)" if row["esigned_by"] else ""
    row = db.update(t.form_data, row["id"], locked_by=None, locked_at=None, esigned_by=None, esigned_at=None)
    rules.log(
        db,
        project_id,
        username,
        f"Lock/Unlock record {record}",
        "lock_record",
        f"Action: Unlock instrument{note}, Form: {instrument}, Event: {row['event']}, Instance: {instance}",
        record,
    )
    return form_status(row)


@tool(read_only=True)
def export_dags(db: Database, project_id: ProjectId) -> DagList:
    """Export the project's data access groups with the users assigned to each and their record counts.

    Args:
        project_id: The project's ID, from list_projects.
    """
    membership(db, project_id)
    members = db.find(t.project_users, project_id=project_id)
    return DagList(
        dags=[
            DagObject(
                data_access_group_name=g["data_access_group_name"],
                unique_group_name=g["unique_group_name"],
                data_access_group_id=g["group_id"],
                users=[m["username"] for m in members if m["data_access_group"] == g["unique_group_name"]],
                record_count=len(db.find(t.records, project_id=project_id, dag=g["unique_group_name"])),
            )
            for g in db.find(t.dags, project_id=project_id)
        ]
    )


@tool()
def create_dag(db: Database, project_id: ProjectId, data_access_group_name: Annotated[str, text(100)]) -> DagObject:
    """Create a data access group (needs the Data Access Groups right); REDCap derives its unique group name.

    Args:
        project_id: The project's ID, from list_projects.
        data_access_group_name: The group's label, e.g. "Lowell General".
    """
    _, rights = membership(db, project_id)
    require(rights, "data_access_groups")
    existing = db.find(t.dags, project_id=project_id)
    if any(g["data_access_group_name"].lower() == data_access_group_name.strip().lower() for g in existing):
        raise bad_request(f"A data access group named '{data_access_group_name.strip()}' already exists.")
    unique = rules.unique_group_name(data_access_group_name, {g["unique_group_name"] for g in existing})
    row = db.insert(
        t.dags, project_id=project_id, unique_group_name=unique, data_access_group_name=data_access_group_name.strip()
    )
    rules.log(
        db,
        project_id,
        me(db)["username"],
        "Manage/Design",
        "manage",
        f"Create data access group ({data_access_group_name.strip()})",
    )
    return DagObject(
        data_access_group_name=row["data_access_group_name"],
        unique_group_name=unique,
        data_access_group_id=row["group_id"],
        users=[],
        record_count=0,
    )


@tool()
def assign_user_dag(
    db: Database, project_id: ProjectId, username: NonBlankText, unique_group_name: Name | None = None
) -> UserObject:
    """Assign a project user to a data access group, or with no group take them out of any (needs the Data Access
    Groups right). A user in a group sees only that group's records.

    Args:
        project_id: The project's ID, from list_projects.
        username: The user's username, as export_users gives it.
        unique_group_name: The group's unique_group_name from export_dags; leave out to unassign.
    """
    _, rights = membership(db, project_id)
    require(rights, "data_access_groups")
    target = db.find_one(
        t.project_users,
        project_id=project_id,
        username=username.strip().lower(),
        not_found=f'{{"error": "The user \'{username}\' is not a user of this project."}}',
    )
    if unique_group_name:
        rules.dag_by_name(db, project_id, unique_group_name)
    target = db.update(t.project_users, target["id"], data_access_group=unique_group_name)
    rules.log(
        db,
        project_id,
        me(db)["username"],
        "Manage/Design",
        "user",
        f"Assign user to data access group (user = '{target['username']}', group = '{unique_group_name or '[none]'}')",
    )
    return user_object(target, db.get(t.users, target["username"]))


@tool(read_only=True)
def export_users(db: Database, project_id: ProjectId) -> UserList:
    """Export the project's users with their expiration, data access group and rights, including each
    instrument's right (0 no access, 1 view & edit, 2 read only).

    Args:
        project_id: The project's ID, from list_projects.
    """
    membership(db, project_id)
    return UserList(
        users=[user_object(r, db.get(t.users, r["username"])) for r in db.find(t.project_users, project_id=project_id)]
    )


@tool()
def import_user_rights(
    db: Database,
    project_id: ProjectId,
    username: NonBlankText,
    expiration: IsoDate | Literal[""] | None = None,
    design: Flag | None = None,
    user_rights: Flag | None = None,
    data_access_groups: Flag | None = None,
    data_export: Literal[0, 1, 2, 3] | None = None,
    logging: Flag | None = None,
    record_create: Flag | None = None,
    record_rename: Flag | None = None,
    record_delete: Flag | None = None,
    lock_records: Literal[0, 1, 2] | None = None,
    forms: dict[Name, Literal[0, 1, 2]] | None = None,
) -> UserObject:
    """Add a REDCap user to the project or change their rights (the API's Import Users); rights left out keep
    their value (a new user starts with none and read-only instruments). Needs the User Rights right.

    Args:
        project_id: The project's ID, from list_projects.
        username: The REDCap username (export_users lists the project's users).
        expiration: The date their access ends, or "" for no expiration.
        design: Project Design and Setup.
        user_rights: User Rights.
        data_access_groups: Data Access Groups.
        data_export: 0 no access, 2 de-identified, 3 remove identifiers, 1 full data set.
        logging: Logging.
        record_create: Create Records.
        record_rename: Rename Records.
        record_delete: Delete Records.
        lock_records: 0 none, 1 lock/unlock records, 2 lock/unlock with e-signature authority.
        forms: Instrument rights to change: instrument name -> 0 no access, 1 view & edit, 2 read only.
    """
    _, rights = membership(db, project_id)
    require(rights, "user_rights")
    user = db.find_one(
        t.users,
        username=username.strip().lower(),
        not_found=f'{{"error": "The user \'{username}\' does not exist in REDCap."}}',
    )
    names = rules.form_names(db, project_id)
    bad = [f for f in forms or {} if f not in names]
    if bad:
        raise bad_request(f"The following instruments are not valid: {', '.join(bad)}")
    changes = {
        k: v
        for k, v in {
            "design": design,
            "user_rights": user_rights,
            "data_access_groups": data_access_groups,
            "data_export": data_export,
            "logging": logging,
            "record_create": record_create,
            "record_rename": record_rename,
            "record_delete": record_delete,
            "lock_records": lock_records,
        }.items()
        if v is not None
    }
    if expiration is not None:
        changes["expiration"] = expiration or None
    found = db.find(t.project_users, project_id=project_id, username=user["username"])
    if found:
        row = found[0]
        action = "Edit user"
    else:
        blank = dict.fromkeys(
            (
                "design",
                "user_rights",
                "data_access_groups",
                "data_export",
                "logging",
                "record_create",
                "record_rename",
                "record_delete",
                "lock_records",
            ),
            0,
        )
        row = db.insert(
            t.project_users,
            project_id=project_id,
            username=user["username"],
            expiration=None,
            data_access_group=None,
            forms={f: 2 for f in names},
            **blank,
        )
        action = "Add user"
    row = db.update(t.project_users, row["id"], forms={**row["forms"], **(forms or {})}, **changes)
    rules.log(db, project_id, me(db)["username"], "Manage/Design", "user", f"{action} {user['username']}")
    return user_object(row, user)


@tool(read_only=True)
def export_logging(
    db: Database,
    project_id: ProjectId,
    log_type: LogType | None = None,
    user: Annotated[str, text(100)] | None = None,
    record: RecordName | None = None,
    begin_time: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$")] | None = None,
    end_time: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$")] | None = None,
    page_size: page_size(100) = 25,  # type: ignore[valid-type]
    cursor: str | None = None,
) -> LogPage:
    """Export the project log (audit trail), newest first (needs the Logging right; a user in a data access group
    sees only their group's entries).

    Args:
        project_id: The project's ID, from list_projects.
        log_type: record (all record changes), record_add, record_edit, record_delete, lock_record, manage or user.
        user: Only this username's actions.
        record: Only this record.
        begin_time: From this time, "YYYY-MM-DD HH:MM" or a date.
        end_time: Up to this time, "YYYY-MM-DD HH:MM" or a date (the whole day).
        page_size: Entries per page.
        cursor: The next_cursor of the previous page.
    """
    _, rights = membership(db, project_id)
    require(rights, "logging")
    where, params = ["project_id = ?"], [project_id]
    if log_type == "record":
        where.append("log_type IN ('record_add', 'record_edit', 'record_delete')")
    elif log_type:
        where.append("log_type = ?")
        params.append(log_type)
    for column, value in (("username", user), ("record", record), ("dag", rights["data_access_group"])):
        if value:
            where.append(f"{column} = ?")
            params.append(value)
    if begin_time:
        where.append("timestamp >= ?")
        params.append(begin_time)
    if end_time:
        where.append("timestamp <= ?")
        params.append(end_time if len(end_time) > 10 else end_time + " 23:59")
    rows = db.select(t.logs, " AND ".join(where), params, order_by="timestamp DESC, id DESC")
    page = paginate([LogEntry(**{k: r[k] for k in LogEntry.model_fields}) for r in rows], page_size, cursor)
    return LogPage(entries=page.results, next_cursor=page.next_cursor, has_more=page.has_more)


@tool()
def create_event(
    db: Database,
    project_id: ProjectId,
    event_name: Annotated[str, text(60)],
    arm_num: Annotated[int, bounded(1, 99)],
    day_offset: Annotated[int, bounded(-9999, 9999)],
    forms: Names,
    offset_min: Annotated[int, bounded(0, 9999)] = 0,
    offset_max: Annotated[int, bounded(0, 9999)] = 0,
) -> EventObject:
    """Add an event to an arm of a longitudinal project in Development status and designate instruments for it
    (needs Project Design and Setup). REDCap derives the unique event name ("month_6_arm_1").

    Args:
        project_id: The project's ID, from list_projects.
        event_name: The event's label, e.g. "Month 6".
        arm_num: The arm it belongs to.
        day_offset: Days from the start of the schedule.
        forms: The instruments designated for the event.
        offset_min: Days before the offset the window opens.
        offset_max: Days after the offset the window closes.
    """
    project, rights = membership(db, project_id)
    require(rights, "design")
    rules.in_development(project, "Adding events")
    if not project["is_longitudinal"]:
        raise bad_request("This project is not longitudinal; it has no events.")
    if not db.find(t.arms, project_id=project_id, arm_num=arm_num):
        raise bad_request(f"Arm {arm_num} does not exist in this project.")
    names = rules.form_names(db, project_id)
    bad = [f for f in forms if f not in names]
    if bad:
        raise bad_request(f"The following instruments are not valid: {', '.join(bad)}")
    unique = rules.unique_group_name(event_name, set())[:18].strip("_") + f"_arm_{arm_num}"
    taken = rules.project_events(db, project)
    if unique in taken or any(
        e["event_name"].lower() == event_name.strip().lower() and e["arm_num"] == arm_num for e in taken.values()
    ):
        raise bad_request(f"An event named '{event_name.strip()}' already exists in Arm {arm_num}.")
    row = db.insert(
        t.events,
        project_id=project_id,
        unique_event_name=unique,
        event_name=event_name.strip(),
        arm_num=arm_num,
        day_offset=day_offset,
        offset_min=offset_min,
        offset_max=offset_max,
        forms=[f for f in names if f in forms],
        repeating_forms=[],
    )
    rules.log(
        db,
        project_id,
        me(db)["username"],
        "Manage/Design",
        "manage",
        f"Create event ({event_name.strip()}, Arm {arm_num})",
    )
    return EventObject(**{k: row[k] for k in EventObject.model_fields})


@tool()
def add_field(
    db: Database,
    project_id: ProjectId,
    field_name: Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[a-z][a-z0-9_]*$")],
    form_name: Name,
    field_type: FieldType,
    field_label: Annotated[str, text(2000)],
    select_choices: Annotated[str, text(2000)] | None = None,
    validation: Validation | None = None,
    validation_min: Annotated[str, text(20)] | None = None,
    validation_max: Annotated[str, text(20)] | None = None,
    required_field: bool = False,
    identifier: bool = False,
    field_note: Annotated[str, text(500)] | None = None,
    after_field: Name | None = None,
) -> FieldObject:
    """Add a field to an instrument's data dictionary in a Development-status project (needs Project Design and
    Setup); it goes at the end of the instrument, or right after after_field.

    Args:
        project_id: The project's ID, from list_projects.
        field_name: The variable name: lower case letters, digits and underscores, starting with a letter.
        form_name: The instrument's unique name.
        field_type: text, notes, radio, dropdown, checkbox or yesno.
        field_label: The question text.
        select_choices: For radio, dropdown and checkbox: "1, Label | 2, Label".
        validation: For text fields: date_ymd, datetime_ymd, integer, number, email, phone or time.
        validation_min: The lowest value allowed (numbers and dates).
        validation_max: The highest value allowed (numbers and dates).
        required_field: Whether the field is required.
        identifier: Whether the field identifies the participant (PHI).
        field_note: A note shown under the field.
        after_field: Put the new field right after this one (same instrument).
    """
    project, rights = membership(db, project_id)
    require(rights, "design")
    rules.in_development(project, "Changing the data dictionary through the API")
    known = rules.project_fields(db, project_id)
    if field_name in known:
        raise bad_request(f"The field name '{field_name}' already exists in the project.")
    if form_name not in rules.form_names(db, project_id):
        raise bad_request(f"The instrument '{form_name}' does not exist in this project.")
    rules.check_design(field_type, select_choices, validation, validation_min, validation_max)
    in_form = [f for f in known.values() if f["form_name"] == form_name]
    if after_field is not None and after_field not in {f["field_name"] for f in in_form}:
        raise bad_request(f"The field '{after_field}' is not on the instrument '{form_name}'.")
    anchor = known[after_field] if after_field else in_form[-1] if in_form else None
    position = anchor["position"] + 1 if anchor else max((f["position"] for f in known.values()), default=0) + 1
    for f in known.values():
        if f["position"] >= position:
            db.update(t.fields, f["id"], position=f["position"] + 1)
    row = db.insert(
        t.fields,
        project_id=project_id,
        field_name=field_name,
        form_name=form_name,
        position=position,
        field_type=field_type,
        field_label=field_label,
        select_choices=select_choices,
        validation=validation,
        validation_min=validation_min,
        validation_max=validation_max,
        identifier=int(identifier),
        required_field=int(required_field),
        field_note=field_note,
        branching_logic=None,
    )
    rules.log(db, project_id, me(db)["username"], "Manage/Design", "manage", f"Create project field ({field_name})")
    return field_object(row)
