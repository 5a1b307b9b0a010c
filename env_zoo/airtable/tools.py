"""Airtable Web API tools (v0 records, comments and meta endpoints) as a signed-in collaborator sees them, plus the
person's own sign-in. Tables are named by id or name inside a base; records come and go in batches of ten."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import NonBlankText, bounded

from .access import base_access, signed_in
from .errors import not_found, unprocessable
from .formula import compile_formula, evaluate
from .lookup import (
    PRIMARY_TYPES,
    BaseId,
    CommentId,
    FieldRef,
    FieldSpec,
    FieldType,
    Name,
    NewRecord,
    RecordId,
    RecordUpdate,
    TableRef,
    _add_field,
    _cells,
    _comment_out,
    _field_out,
    _new_id,
    _out,
    _own_comment,
    _record_row,
    _schema_of,
    _table,
)
from .objects import (
    Base,
    BaseCollaborators,
    BaseList,
    BaseSchema,
    Collaborator,
    Comment,
    CommentList,
    Deleted,
    DeletedComment,
    DeletedList,
    Record,
    RecordList,
    Records,
    Signed,
    TableSchema,
    Upserted,
    User,
    View,
)
from .objects import Field as FieldOut
from .rules import MERGE_TYPES, by_name, coerce, formula_values, link_names, mirror_links, table_fields
from .schema import bases, collaborators, comments, sessions, tables, users, views
from .schema import fields as field_rows
from .schema import records as record_rows

PageSize = bounded(1, 100)


Batch = Annotated[list[NewRecord], Field(min_length=1, max_length=10)]
UpdateBatch = Annotated[list[RecordUpdate], Field(min_length=1, max_length=10)]
IdBatch = Annotated[list[RecordId], Field(min_length=1, max_length=10), Unordered]


# ---------------------------------------------------------------- people and bases


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Signed:
    """(User only) The person signs in to Airtable; the assistant then acts with their permissions.

    Args:
        email: Their Airtable account email.
    """
    found = db.select(users, "lower(email) = ?", [email.strip().lower()])
    if not found:
        raise not_found("NOT_FOUND", f"No Airtable account for {email.strip()}")
    db.start_session(sessions, user_id=found[0]["id"])
    return Signed(user=User(**found[0]))


@tool(read_only=True)
def whoami(db: Database) -> User:
    """The signed-in user's id, email and name (GET /v0/meta/whoami)."""
    return User(**signed_in(db))


@tool(read_only=True)
def list_bases(db: Database, offset: str | None = None) -> BaseList:
    """The bases the user collaborates on, with their permission level (GET /v0/meta/bases).

    Args:
        offset: The offset from the previous page.
    """
    user = signed_in(db)
    grants = {g["base_id"]: g["permission"] for g in db.find(collaborators, user_id=user["id"])}
    rows = [b for b in db.find(bases, order_by=[bases.c.name]) if b["id"] in grants]
    page = paginate(rows, 100, offset)
    return BaseList(
        bases=[
            Base(id=b["id"], name=b["name"], permissionLevel=grants[b["id"]], workspace=b["workspace"])
            for b in page.results
        ],
        offset=page.next_cursor,
    )


@tool(read_only=True)
def get_base_schema(db: Database, base_id: BaseId) -> BaseSchema:
    """Every table of a base with its fields (types, select choices, links) and views (GET /v0/meta/bases/{id}/tables).

    Args:
        base_id: The base.
    """
    base_access(db, base_id)
    out = []
    for t in db.find(tables, base_id=base_id, order_by=[tables.c.position]):
        vs = db.find(views, table_id=t["id"], order_by=[views.c.id])
        fnames = {f["id"]: f["name"] for f in table_fields(db, t["id"])}
        out.append(
            TableSchema(
                id=t["id"],
                name=t["name"],
                description=t["description"],
                primaryFieldId=t["primary_field_id"],
                fields=[_field_out(f) for f in table_fields(db, t["id"])],
                views=[
                    View(
                        id=v["id"],
                        name=v["name"],
                        type=v["type"],
                        filter=v["formula"],
                        sort=f"{fnames[v['sort_field_id']]} {v['sort_direction']}" if v["sort_field_id"] else None,
                    )
                    for v in vs
                ],
            )
        )
    return BaseSchema(tables=out)


@tool(read_only=True)
def get_base_collaborators(db: Database, base_id: BaseId) -> BaseCollaborators:
    """A base's name, the user's permission on it and everyone who collaborates on it with their permission level and
    user id (GET /v0/meta/bases/{baseId}?include=collaborators); the user id is what a comment mention needs.

    Args:
        base_id: The base.
    """
    _, base, permission = base_access(db, base_id)
    grants = db.find(collaborators, base_id=base_id)
    people = {
        u["id"]: u
        for u in db.select(users, "id IN (" + ",".join("?" * len(grants)) + ")", [g["user_id"] for g in grants])
    }
    rank = {"owner": 0, "create": 1, "edit": 2, "comment": 3, "read": 4}
    grants.sort(key=lambda g: (rank[g["permission"]], people[g["user_id"]]["name"]))
    return BaseCollaborators(
        id=base["id"],
        name=base["name"],
        permissionLevel=permission,
        workspace=base["workspace"],
        collaborators=[
            Collaborator(
                userId=g["user_id"],
                email=people[g["user_id"]]["email"],
                name=people[g["user_id"]]["name"],
                permissionLevel=g["permission"],
            )
            for g in grants
        ],
    )


# ---------------------------------------------------------------- records


@tool(read_only=True)
def list_records(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    filter_by_formula: Annotated[str, Field(max_length=2000)] | None = None,
    view: Annotated[str, Field(min_length=1, max_length=255)] | None = None,
    sort_field: FieldRef | None = None,
    sort_direction: Literal["asc", "desc"] = "asc",
    fields: Annotated[list[FieldRef], Unordered] | None = None,
    max_records: Annotated[int, Field(ge=1)] | None = None,
    page_size: PageSize = 100,
    offset: str | None = None,
) -> RecordList:
    """List a table's records (GET /v0/{baseId}/{table}), optionally only those a formula keeps, those a view shows
    (in the view's order), sorted by one field, with only some fields; pages of up to 100 with an offset.

    Args:
        base_id: The base.
        table: The table's id or name.
        filter_by_formula: A formula such as AND({Status} = "Done", {Score} > 3); records where it is truthy stay.
        view: A view's name or id: only its records, in its sort order.
        sort_field: Field to sort by (overrides the view's sort).
        sort_direction: asc or desc.
        fields: Only these fields in each record.
        max_records: At most this many records over all pages.
        page_size: Records per page, 1 to 100.
        offset: The offset from the previous page.
    """
    base_access(db, base_id)
    t = _table(db, base_id, table)
    tfields = table_fields(db, t["id"])
    known = {f["name"] for f in tfields}
    rows = db.find(record_rows, table_id=t["id"], order_by=[record_rows.c.created_time, record_rows.c.id])
    formulas = []
    sort: tuple[str, str] | None = None
    if view is not None:
        found = [v for v in db.find(views, table_id=t["id"]) if v["id"] == view or v["name"] == view.strip()]
        if not found:
            raise unprocessable("VIEW_NAME_NOT_FOUND", f'Could not find view "{view}"')
        if found[0]["formula"]:
            formulas.append(compile_formula(found[0]["formula"], known))
        if found[0]["sort_field_id"]:
            sort = (found[0]["sort_field_id"], found[0]["sort_direction"])
    if filter_by_formula is not None and filter_by_formula.strip():
        formulas.append(compile_formula(filter_by_formula, known))
    if formulas:
        names = link_names(db, tfields)
        today = db.now().date().isoformat()
        rows = [
            r
            for r in rows
            if all(evaluate(node, formula_values(tfields, r["cells"], names), today) for node in formulas)
        ]
    if sort_field is not None:
        sort = (by_name(tfields, sort_field)["id"], sort_direction)
    if sort is not None:
        key = sort[0]
        present = [r for r in rows if r["cells"].get(key) is not None]
        blank = [r for r in rows if r["cells"].get(key) is None]
        present.sort(
            key=lambda r: (
                (str(r["cells"][key]).lower() if isinstance(r["cells"][key], str) else r["cells"][key])
                if not isinstance(r["cells"][key], list)
                else len(r["cells"][key])
            ),
            reverse=sort[1] == "desc",
        )
        rows = present + blank
    only = None
    if fields is not None:
        only = {by_name(tfields, f)["name"] for f in fields}
    if max_records is not None:
        rows = rows[:max_records]
    page = paginate(rows, page_size, offset)
    return RecordList(records=[_out(r, tfields, only) for r in page.results], offset=page.next_cursor)


@tool(read_only=True)
def get_record(db: Database, base_id: BaseId, table: TableRef, record_id: RecordId) -> Record:
    """One record with all its non-empty cells and its comment count (GET /v0/{baseId}/{table}/{recordId}).

    Args:
        base_id: The base.
        table: The table's id or name.
        record_id: The record.
    """
    base_access(db, base_id)
    t = _table(db, base_id, table)
    row = _record_row(db, t, record_id)
    out = _out(row, table_fields(db, t["id"]))
    out.commentCount = len(db.find(comments, record_id=record_id))
    return out


@tool()
def create_records(db: Database, base_id: BaseId, table: TableRef, records: Batch, typecast: bool = False) -> Records:
    """Create up to 10 records at once (POST /v0/{baseId}/{table}); all or none are created. Select values must be
    existing choices unless typecast is true (then new choices are added); linked records are given as record ids.

    Args:
        base_id: The base.
        table: The table's id or name.
        records: 1 to 10 records, each {"fields": {field name: value}}.
        typecast: Convert values (text to numbers, new select options) instead of refusing them.
    """
    base_access(db, base_id, "edit")
    t = _table(db, base_id, table)
    tfields = table_fields(db, t["id"])
    created = []
    for new in records:
        cells, links = _cells(db, tfields, new.fields, typecast, {})
        rid = _new_id(db, record_rows, "rec")
        db.insert(record_rows, id=rid, table_id=t["id"], cells=cells, created_time=db.now_iso())
        for field, before, after in links:
            mirror_links(db, field, rid, before, after)
        created.append(rid)
    return Records(records=[_out(db.get(record_rows, rid), tfields) for rid in created])


@tool()
def update_records(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    records: UpdateBatch,
    typecast: bool = False,
    replace: bool = False,
) -> Records:
    """Update up to 10 records at once; all or none change. By default only the given cells change (PATCH);
    with replace=true every cell not given is cleared (PUT).

    Args:
        base_id: The base.
        table: The table's id or name.
        records: 1 to 10 of {"id": "rec...", "fields": {field name: value or null}}.
        typecast: Convert values (text to numbers, new select options) instead of refusing them.
        replace: Clear every cell not given (a destructive update).
    """
    base_access(db, base_id, "edit")
    t = _table(db, base_id, table)
    tfields = table_fields(db, t["id"])
    ids = [u.id for u in records]
    if len(set(ids)) != len(ids):
        raise unprocessable("INVALID_RECORDS", "Cannot update the same record more than once in one request")
    for u in records:
        row = _record_row(db, t, u.id)
        start = row["cells"]
        if replace:
            start = {
                k: v
                for k, v in start.items()
                if any(f["id"] == k and f["type"] == "multipleRecordLinks" for f in tfields)
            }
            given = {by_name(tfields, k)["id"] for k in u.fields}
            cleared = {f["id"]: None for f in tfields if f["type"] == "multipleRecordLinks" and f["id"] not in given}
            u = RecordUpdate(id=u.id, fields={**cleared, **u.fields})
        cells, links = _cells(db, tfields, u.fields, typecast, start)
        db.update(record_rows, u.id, cells=cells)
        for field, before, after in links:
            mirror_links(db, field, u.id, before, after)
    return Records(records=[_out(db.get(record_rows, rid), tfields) for rid in ids])


MergeFields = Annotated[list[FieldRef], Field(min_length=1, max_length=3), Unordered]


@tool()
def upsert_records(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    records: Batch,
    fields_to_merge_on: MergeFields,
    typecast: bool = False,
) -> Upserted:
    """Update-or-create up to 10 records matched on 1 to 3 fields (PATCH /v0/{baseId}/{table} with performUpsert):
    a record whose merge-field values match exactly one existing record updates it (only the given cells change),
    one that matches none is created; all or none are written. Merge fields must be text, long text, email, number,
    single select or date, and every record must give a value for each of them.

    Args:
        base_id: The base.
        table: The table's id or name.
        records: 1 to 10 records, each {"fields": {field name: value}}.
        fields_to_merge_on: The field names or ids that identify a record, 1 to 3.
        typecast: Convert values (text to numbers, new select options) instead of refusing them.
    """
    base_access(db, base_id, "edit")
    t = _table(db, base_id, table)
    tfields = table_fields(db, t["id"])
    keys = [by_name(tfields, f) for f in dict.fromkeys(fields_to_merge_on)]
    for k in keys:
        if k["type"] not in MERGE_TYPES:
            raise unprocessable(
                "INVALID_VALUE_FOR_COLUMN", f'Field "{k["name"]}" of type {k["type"]} cannot be used in fieldsToMergeOn'
            )
    rows = db.find(record_rows, table_id=t["id"], order_by=[record_rows.c.created_time, record_rows.c.id])
    plan: list[tuple[str | None, dict[str, Any]]] = []
    seen: set[tuple[Any, ...]] = set()
    for new in records:
        given = {by_name(tfields, name)["id"]: value for name, value in new.fields.items()}
        if any(given.get(k["id"]) in (None, "", []) for k in keys):
            raise unprocessable("INVALID_RECORDS", "Every record needs a value for each field in fieldsToMergeOn")
        key = tuple(coerce(db, k, given[k["id"]], typecast)[0] for k in keys)
        if key in seen:
            raise unprocessable(
                "INVALID_RECORDS", "Two records in the request match on the same fieldsToMergeOn values"
            )
        seen.add(key)
        matches = [r for r in rows if tuple(r["cells"].get(k["id"]) for k in keys) == key]
        if len(matches) > 1:
            raise unprocessable(
                "INVALID_RECORDS",
                f"{len(matches)} existing records match on fieldsToMergeOn; upsert needs them to identify one record",
            )
        plan.append((matches[0]["id"] if matches else None, new.fields))
    created, updated, order = [], [], []
    for rid, given_fields in plan:
        start = db.get(record_rows, rid)["cells"] if rid else {}
        cells, links = _cells(db, tfields, given_fields, typecast, start)
        if rid:
            db.update(record_rows, rid, cells=cells)
            updated.append(rid)
        else:
            rid = _new_id(db, record_rows, "rec")
            db.insert(record_rows, id=rid, table_id=t["id"], cells=cells, created_time=db.now_iso())
            created.append(rid)
        for field, before, after in links:
            mirror_links(db, field, rid, before, after)
        order.append(rid)
    return Upserted(
        records=[_out(db.get(record_rows, rid), tfields) for rid in order],
        createdRecords=created,
        updatedRecords=updated,
    )


@tool()
def delete_records(db: Database, base_id: BaseId, table: TableRef, record_ids: IdBatch) -> DeletedList:
    """Delete up to 10 records at once (DELETE /v0/{baseId}/{table}); links to them disappear from linked records,
    and their comments go with them. Deleted records can't be restored through the API.

    Args:
        base_id: The base.
        table: The table's id or name.
        record_ids: 1 to 10 record ids.
    """
    base_access(db, base_id, "edit")
    t = _table(db, base_id, table)
    tfields = table_fields(db, t["id"])
    rows = [_record_row(db, t, rid) for rid in dict.fromkeys(record_ids)]
    for row in rows:
        current = db.get(record_rows, row["id"])
        for f in tfields:
            if f["type"] == "multipleRecordLinks" and current["cells"].get(f["id"]):
                mirror_links(db, f, row["id"], current["cells"][f["id"]], [])
        for c in db.find(comments, record_id=row["id"]):
            db.delete(comments, c["id"])
        db.delete(record_rows, row["id"])
    return DeletedList(records=[Deleted(id=r["id"], deleted=True) for r in rows])


# ---------------------------------------------------------------- tables and fields


@tool()
def create_table(
    db: Database,
    base_id: BaseId,
    name: Name,
    fields: Annotated[list[FieldSpec], Field(min_length=1, max_length=50)],
    description: Annotated[str, Field(max_length=20000)] | None = None,
) -> TableSchema:
    """Create a table (POST /v0/meta/bases/{id}/tables); the first field is its primary field and must be text,
    email, number or date. Needs creator permission on the base.

    Args:
        base_id: The base.
        name: The table's name, unique in the base.
        fields: Its fields in order.
        description: What the table holds.
    """
    base_access(db, base_id, "create")
    if any(t["name"].lower() == name.strip().lower() for t in db.find(tables, base_id=base_id)):
        raise unprocessable("DUPLICATE_TABLE_NAME", f'Table name "{name.strip()}" is already used in this base')
    if fields[0].type not in PRIMARY_TYPES:
        raise unprocessable(
            "INVALID_FIELD_TYPE_FOR_PRIMARY", f"Field type {fields[0].type} cannot be the primary field"
        )
    tid = _new_id(db, tables, "tbl")
    position = len(db.find(tables, base_id=base_id))
    db.insert(
        tables,
        id=tid,
        base_id=base_id,
        name=name.strip(),
        description=description,
        primary_field_id="",
        position=position,
    )
    made = [_add_field(db, base_id, tid, spec, i, None) for i, spec in enumerate(fields)]
    db.update(tables, tid, primary_field_id=made[0]["id"])
    vid = _new_id(db, views, "viw")
    db.insert(
        views,
        id=vid,
        table_id=tid,
        name="Grid view",
        type="grid",
        formula=None,
        sort_field_id=None,
        sort_direction=None,
    )
    return _schema_of(db, tid)


@tool()
def update_table(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    name: Name | None = None,
    description: Annotated[str, Field(max_length=20000)] | None = None,
) -> TableSchema:
    """Rename a table or change its description (PATCH /v0/meta/bases/{id}/tables/{table}). Needs creator permission.

    Args:
        base_id: The base.
        table: The table's id or name.
        name: The new name, unique in the base.
        description: The new description.
    """
    base_access(db, base_id, "create")
    t = _table(db, base_id, table)
    changes: dict[str, Any] = {}
    if name is not None:
        if any(
            o["id"] != t["id"] and o["name"].lower() == name.strip().lower() for o in db.find(tables, base_id=base_id)
        ):
            raise unprocessable("DUPLICATE_TABLE_NAME", f'Table name "{name.strip()}" is already used in this base')
        changes["name"] = name.strip()
    if description is not None:
        changes["description"] = description
    if changes:
        db.update(tables, t["id"], **changes)
    return _schema_of(db, t["id"])


@tool()
def create_field(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    name: Name,
    type: FieldType,
    description: Annotated[str, Field(max_length=20000)] | None = None,
    choices: Annotated[list[Name], Field(min_length=1, max_length=100)] | None = None,
    linked_table: TableRef | None = None,
    precision: Annotated[int, Field(ge=0, le=8)] | None = None,
) -> FieldOut:
    """Add a field to a table (POST .../tables/{table}/fields). A singleSelect needs its choices; a
    multipleRecordLinks field needs the table it links to, which gets an inverse link field. Needs creator permission.

    Args:
        base_id: The base.
        table: The table's id or name.
        name: The field's name, unique in the table.
        type: Its type.
        description: What it holds.
        choices: The options of a singleSelect.
        linked_table: The table a multipleRecordLinks field links to (id or name).
        precision: Decimal places of a number (0 to 8).
    """
    base_access(db, base_id, "create")
    t = _table(db, base_id, table)
    spec = FieldSpec(name=name, type=type, choices=choices, linked_table=linked_table, precision=precision)
    return _field_out(_add_field(db, base_id, t["id"], spec, len(table_fields(db, t["id"])), description))


@tool()
def update_field(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    field: FieldRef,
    name: Name | None = None,
    description: Annotated[str, Field(max_length=20000)] | None = None,
) -> FieldOut:
    """Rename a field or change its description (PATCH .../fields/{field}); the API can't change a field's type or
    options. Cells keep their values and views' filters follow the new name. Needs creator permission.

    Args:
        base_id: The base.
        table: The table's id or name.
        field: The field's id or name.
        name: The new name, unique in the table.
        description: The new description.
    """
    base_access(db, base_id, "create")
    t = _table(db, base_id, table)
    tfields = table_fields(db, t["id"])
    f = by_name(tfields, field)
    changes: dict[str, Any] = {}
    if name is not None:
        if any(o["id"] != f["id"] and o["name"].lower() == name.strip().lower() for o in tfields):
            raise unprocessable(
                "DUPLICATE_OR_EMPTY_FIELD_NAME", f'Field name "{name.strip()}" is already used in this table'
            )
        changes["name"] = name.strip()
    if description is not None:
        changes["description"] = description
    if "name" in changes and changes["name"] != f["name"]:
        for v in db.find(views, table_id=t["id"]):
            if v["formula"] and "{" + f["name"] + "}" in v["formula"]:
                db.update(
                    views, v["id"], formula=v["formula"].replace("{" + f["name"] + "}", "{" + changes["name"] + "}")
                )
    return _field_out(db.update(field_rows, f["id"], **changes) if changes else f)


# ---------------------------------------------------------------- comments


@tool(read_only=True)
def list_comments(
    db: Database,
    base_id: BaseId,
    table: TableRef,
    record_id: RecordId,
    page_size: PageSize = 100,
    offset: str | None = None,
) -> CommentList:
    """A record's comments, newest first (GET /v0/{baseId}/{table}/{recordId}/comments).

    Args:
        base_id: The base.
        table: The table's id or name.
        record_id: The record.
        page_size: Comments per page, 1 to 100.
        offset: The offset from the previous page.
    """
    base_access(db, base_id)
    _record_row(db, _table(db, base_id, table), record_id)
    rows = db.find(comments, record_id=record_id, order_by=[comments.c.created_time.desc(), comments.c.id.desc()])
    page = paginate(rows, page_size, offset)
    return CommentList(comments=[_comment_out(db, r) for r in page.results], offset=page.next_cursor)


CommentText = Annotated[str, Field(min_length=1, max_length=10000, pattern=r"\S")]


@tool()
def create_comment(db: Database, base_id: BaseId, table: TableRef, record_id: RecordId, text: CommentText) -> Comment:
    """Comment on a record (POST .../{recordId}/comments); mention someone with @[usrXXXXXXXXXXXXXX]. Needs comment
    permission or more.

    Args:
        base_id: The base.
        table: The table's id or name.
        record_id: The record.
        text: The comment.
    """
    user, _, _ = base_access(db, base_id, "comment")
    _record_row(db, _table(db, base_id, table), record_id)
    row = db.insert(
        comments,
        id=_new_id(db, comments, "com"),
        record_id=record_id,
        author_id=user["id"],
        text=text,
        created_time=db.now_iso(),
    )
    return _comment_out(db, row)


@tool()
def update_comment(
    db: Database, base_id: BaseId, table: TableRef, record_id: RecordId, comment_id: CommentId, text: CommentText
) -> Comment:
    """Edit one of the user's own comments (PATCH .../comments/{commentId}).

    Args:
        base_id: The base.
        table: The table's id or name.
        record_id: The record.
        comment_id: The comment.
        text: The new text.
    """
    row = _own_comment(db, base_id, table, record_id, comment_id)
    return _comment_out(db, db.update(comments, row["id"], text=text))


@tool()
def delete_comment(
    db: Database, base_id: BaseId, table: TableRef, record_id: RecordId, comment_id: CommentId
) -> DeletedComment:
    """Delete one of the user's own comments (DELETE .../comments/{commentId}).

    Args:
        base_id: The base.
        table: The table's id or name.
        record_id: The record.
        comment_id: The comment.
    """
    row = _own_comment(db, base_id, table, record_id, comment_id)
    db.delete(comments, row["id"])
    return DeletedComment(id=row["id"], deleted=True)
