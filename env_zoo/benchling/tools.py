"""Benchling REST API (v2) tools acting with the signed-in user's API key: projects and folders, notebook entries and
review, the registry (DNA sequences, custom entities, registration), inventory (storage, containers, transfers,
check-out, archiving), requests and audit logs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, PageSize, page_size

from .access import (
    LOCKED,
    active_user,
    audited_project,
    check_assignees,
    check_authors,
    check_checkout,
    check_reviewers,
    editable_entry,
    entity_visible,
    entry_project,
    me,
    require,
    role,
    usable,
    visible_container,
    visible_entities,
    visible_entry,
    visible_folder,
    visible_project,
    visible_projects,
    visible_request,
    writable_folder,
)
from .objects import (
    Annotation,
    ArchivalChange,
    AuditEventObject,
    ContainerObject,
    CustomEntityObject,
    DnaSequenceObject,
    DnaSequenceSummary,
    EntryObject,
    FieldValue,
    FolderObject,
    ProjectObject,
    RegisteredEntity,
    RegistryObject,
    RequestObject,
    SessionObject,
    StorageObject,
    TransferQuantity,
    TransferResult,
    audit_object,
    container_object,
    custom_entity_object,
    entry_object,
    project_object,
    request_object,
    schema_object,
    sequence_object,
    sequence_summary,
    storage_object,
    user_summary,
)
from .rules import (
    CHECKOUT_STATUS,
    REVIEWABLE,
    STORAGE_KINDS,
    STORAGE_TABLES,
    TENANT,
    ArchiveReason,
    NamingStrategy,
    RequestStatus,
    ReviewStatus,
    audit,
    changed,
    clean_bases,
    contains,
    destination,
    entity,
    merge_fields,
    missing_required,
    next_display_id,
    placed_annotations,
    position_key,
    registration,
    request_changes,
    schedule_date,
    schema_of,
    storage,
    transfer,
)
from .schema import (
    audit_events,
    containers,
    custom_entities,
    dna_sequences,
    entries,
    folders,
    projects,
    registries,
    requests,
    schemas,
    sessions,
    users,
)

EntryPageSize = page_size(50)
EntryName = Annotated[
    str, Field(min_length=1, max_length=200, pattern=r"\S"), ErrorText("Entry names must be 1 to 200 characters long.")
]
SequenceName = Annotated[NonBlankText, ErrorText("name is required.")]
ContainerName = Annotated[NonBlankText, ErrorText("name can't be empty.")]
Bases = Annotated[
    str,
    Field(pattern=r"^\s*[ACGTURYKMSWBDHVNacgturykmswbdhvn][ACGTURYKMSWBDHVNacgturykmswbdhvn\s]*$"),
    ErrorText("Invalid bases: use IUPAC nucleotide letters (A, C, G, T, U, R, Y, K, M, S, W, B, D, H, V or N)."),
]
Reviewers = Annotated[list[str], Unordered, Field(min_length=1), ErrorText("Choose at least one reviewer.")]
EntityIds = Annotated[list[str], Unordered, Field(min_length=1), ErrorText("Give at least one entity to register.")]
ContainerIds = Annotated[list[str], Unordered, Field(min_length=1), ErrorText("Give at least one container.")]
Assignees = Annotated[list[str], Unordered, Field(min_length=1), ErrorText("A request needs at least one assignee.")]
ScheduledOn = Annotated[IsoDate, ErrorText("scheduled_on must be a date like 2025-06-12.")]


# ---------------------------------------------------------------- user-only: signing in and e-signatures


@tool(user_only=True)
def sign_in(db: Database, email: str) -> SessionObject:
    """(User only, in the browser) The user signs in to Benchling with single sign-on and two-factor approval; the
    assistant then acts with their API key.

    Args:
        email: The user's work email.
    """
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound("No Benchling account uses that email.")
    user = found[0]
    if user["is_suspended"]:
        raise PermissionDenied("This account is suspended. Contact your Benchling admin.")
    db.start_session(sessions, user_id=user["id"])
    return SessionObject(user=user_summary(db, user["id"]), email=user["email"], title=user["title"], tenant=TENANT)


@tool(user_only=True)
def sign_entry_review(
    db: Database, display_id: str, decision: Literal["ACCEPTED", "REJECTED"], comment: str = ""
) -> EntryObject:
    """(Reviewer only, in the Benchling app) Accept or reject an entry waiting for review, signing electronically
    with the reviewer's password (21 CFR Part 11). Accepted entries are locked.

    Args:
        display_id: The entry's display ID as the app shows it (EXP25000123).
        decision: ACCEPTED or REJECTED.
        comment: The reviewer's comment; required to reject.
    """
    user = me(db)
    found = db.find(entries, display_id=display_id.strip().upper())
    if not found:
        raise NotFound(f"Entry {display_id} not found")
    entry = visible_entry(db, user, found[0]["id"])
    if entry["review_status"] != "NEEDS_REVIEW":
        raise Conflict(f"Entry {entry['display_id']} is not waiting for review ({entry['review_status']}).")
    if user["id"] not in entry["assigned_reviewer_ids"]:
        raise PermissionDenied(f"You are not an assigned reviewer of {entry['display_id']}.")
    if decision == "REJECTED" and not comment.strip():
        raise InvalidRequest("A comment is required to reject an entry.")
    row = db.update(
        entries,
        entry["id"],
        review_status=decision,
        review_comment=comment.strip() or None,
        signed_by_id=user["id"],
        signed_at=db.now_iso(),
        modified_at=db.now_iso(),
    )
    audit(db, user, entry["id"], "REVIEW", {"review_status": ["NEEDS_REVIEW", decision]})
    return entry_object(db, row)


# ---------------------------------------------------------------- projects and folders


@tool(read_only=True)
def list_projects(
    db: Database,
    name_includes: str | None = None,
    include_archived: bool = False,
    page_size: PageSize = 25,
    next_token: str | None = None,
) -> Page[ProjectObject]:
    """List the projects you collaborate on, with your role and every collaborator's role (READ, WRITE or ADMIN).

    Args:
        name_includes: Only projects whose name contains this text.
        include_archived: Also list archived projects.
        page_size: Projects per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    rows = [
        p
        for p in db.find(projects, order_by=[projects.c.name])
        if role(db, user["id"], p["id"])
        and contains(p["name"], name_includes)
        and (include_archived or not p["archive_reason"])
    ]
    return paginate([project_object(db, p, user["id"]) for p in rows], page_size, next_token)


@tool(read_only=True)
def list_folders(
    db: Database,
    project_id: str | None = None,
    parent_folder_id: str | None = None,
    name_includes: str | None = None,
    page_size: PageSize = 50,
    next_token: str | None = None,
) -> Page[FolderObject]:
    """List folders in the projects you can see.

    Args:
        project_id: Only folders of this project (src_...).
        parent_folder_id: Only the subfolders of this folder (lib_...).
        name_includes: Only folders whose name contains this text.
        page_size: Folders per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    if project_id is not None:
        visible_project(db, user, project_id)
    if parent_folder_id is not None:
        visible_folder(db, user, parent_folder_id)
    visible = visible_projects(db, user)
    equals = given(project_id=project_id, parent_folder_id=parent_folder_id)
    rows = [
        f
        for f in db.find(folders, order_by=[folders.c.project_id, folders.c.name], **equals)
        if f["project_id"] in visible and contains(f["name"], name_includes)
    ]
    return paginate([FolderObject(**f) for f in rows], page_size, next_token)


# ---------------------------------------------------------------- notebook entries


@tool(read_only=True)
def list_entries(
    db: Database,
    project_id: str | None = None,
    folder_id: str | None = None,
    review_status: ReviewStatus | None = None,
    name_includes: str | None = None,
    author_id: str | None = None,
    assigned_reviewer_id: str | None = None,
    display_id: str | None = None,
    include_archived: bool = False,
    page_size: EntryPageSize = 10,
    next_token: str | None = None,
) -> Page[EntryObject]:
    """List notebook entries you can see, newest first, with their fields, review record and notes.

    Args:
        project_id: Only entries in this project (src_...).
        folder_id: Only entries in this folder (lib_...).
        review_status: Only entries in this review status.
        name_includes: Only entries whose name contains this text.
        author_id: Only entries this user (ent_...) is an author of.
        assigned_reviewer_id: Only entries assigned to this reviewer (ent_...).
        display_id: The entry with this display ID (EXP25000123).
        include_archived: Also list archived entries.
        page_size: Entries per page, 1 to 50.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    if project_id is not None:
        visible_project(db, user, project_id)
    if folder_id is not None:
        visible_folder(db, user, folder_id)
    visible = visible_projects(db, user)
    equals = given(
        folder_id=folder_id, review_status=review_status, display_id=display_id and display_id.strip().upper()
    )
    rows = []
    for row in db.find(entries, order_by=[entries.c.display_id.desc()], **equals):
        project = entry_project(db, row)
        if (
            project in visible
            and project_id in (None, project)
            and contains(row["name"], name_includes)
            and (include_archived or not row["archive_reason"])
            and author_id in (None, *row["author_ids"])
            and assigned_reviewer_id in (None, *row["assigned_reviewer_ids"])
        ):
            rows.append(row)
    return paginate([entry_object(db, r) for r in rows], page_size, next_token)


@tool()
def create_entry(
    db: Database,
    name: EntryName,
    folder_id: str,
    schema_id: str | None = None,
    author_ids: Annotated[list[str], Unordered] | None = None,
) -> EntryObject:
    """Create a notebook entry in a folder (needs WRITE on its project). It starts IN_PROGRESS with today's page.

    Args:
        name: The entry's title.
        folder_id: The folder to create it in (lib_...).
        schema_id: An entry schema (ts_...) whose fields the entry gets, e.g. the Experiment schema.
        author_ids: Authors (ent_...), each with WRITE on the project; defaults to you.
    """
    user = me(db)
    folder = writable_folder(db, user, folder_id)
    title = name.strip()
    if schema_id is not None:
        schema_of(db, schema_id, "entry")
    authors = check_authors(db, folder["project_id"], author_ids if author_ids is not None else [user["id"]])
    now = db.now_iso()
    row = db.insert(
        entries,
        id=db.new_id(entries, "etr_", width=8),
        display_id=next_display_id(db),
        name=title,
        folder_id=folder_id,
        schema_id=schema_id,
        fields={},
        creator_id=user["id"],
        author_ids=authors,
        assigned_reviewer_ids=[],
        review_status="IN_PROGRESS",
        review_comment=None,
        signed_by_id=None,
        days=[{"date": db.now().strftime("%Y-%m-%d"), "notes": []}],
        archive_reason=None,
        created_at=now,
        modified_at=now,
        signed_at=None,
    )
    audit(db, user, row["id"], "CREATE", {"name": [None, title], "folder_id": [None, folder_id]})
    return entry_object(db, row)


@tool()
def update_entry(
    db: Database,
    entry_id: str,
    name: EntryName | None = None,
    folder_id: str | None = None,
    fields: dict[str, FieldValue | None] | None = None,
    author_ids: Annotated[list[str], Unordered] | None = None,
) -> EntryObject:
    """Rename an entry, move it to another folder, set its schema fields or change its authors. Only authors (or a
    project ADMIN) edit an entry; entries waiting for review or accepted are locked.

    Args:
        entry_id: The entry's ID (etr_...).
        name: New title.
        folder_id: Folder to move it to (lib_...); needs WRITE on that folder's project too.
        fields: Schema field values by field name, e.g. {"Outcome": "Successful"}; null clears a field.
        author_ids: The new list of authors (ent_...), each with WRITE on the project.
    """
    user = me(db)
    entry = editable_entry(db, user, visible_entry(db, user, entry_id))
    project_id = entry_project(db, entry)
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if folder_id is not None:
        project_id = writable_folder(db, user, folder_id)["project_id"]
        changes["folder_id"] = folder_id
    if fields is not None:
        schema = db.get(schemas, entry["schema_id"]) if entry["schema_id"] else None
        changes["fields"] = merge_fields(db, schema, entry["fields"], fields)
    if author_ids is not None:
        changes["author_ids"] = check_authors(db, project_id, author_ids)
    elif "folder_id" in changes:
        check_authors(db, project_id, entry["author_ids"])
    if not changes:
        raise InvalidRequest("Nothing to update: give a name, folder_id, fields or author_ids.")
    audit(db, user, entry_id, "UPDATE", changed(entry, changes))
    return entry_object(db, db.update(entries, entry_id, modified_at=db.now_iso(), **changes))


@tool()
def submit_entry_for_review(db: Database, entry_id: str, reviewer_ids: Reviewers) -> EntryObject:
    """Send an entry for review (an author sends it; it becomes NEEDS_REVIEW and locked). Its schema's required
    fields must be filled; reviewers must collaborate on the project and cannot be the entry's authors.

    Args:
        entry_id: The entry's ID (etr_...).
        reviewer_ids: The reviewers (ent_...) who will accept or reject it.
    """
    user = me(db)
    entry = visible_entry(db, user, entry_id)
    project_id = entry_project(db, entry)
    project = require(db, user, project_id, "WRITE")
    if entry["archive_reason"]:
        raise Conflict(f"Entry {entry['display_id']} is archived.")
    if entry["review_status"] not in REVIEWABLE:
        raise Conflict(f"Entry {entry['display_id']} {LOCKED[entry['review_status']]}.")
    if user["id"] not in entry["author_ids"]:
        raise PermissionDenied(f"Only the authors of {entry['display_id']} can send it for review.")
    missing = missing_required(db.get(schemas, entry["schema_id"]) if entry["schema_id"] else None, entry["fields"])
    if missing:
        raise InvalidRequest(f"Fill the required field(s) {', '.join(missing)} before sending for review.")
    reviewers = check_reviewers(db, entry, project, reviewer_ids)
    audit(
        db,
        user,
        entry_id,
        "REVIEW",
        {
            "review_status": [entry["review_status"], "NEEDS_REVIEW"],
            "assigned_reviewer_ids": [entry["assigned_reviewer_ids"], reviewers],
        },
    )
    row = db.update(
        entries,
        entry_id,
        review_status="NEEDS_REVIEW",
        assigned_reviewer_ids=reviewers,
        review_comment=None,
        signed_by_id=None,
        signed_at=None,
        modified_at=db.now_iso(),
    )
    return entry_object(db, row)


# ---------------------------------------------------------------- registry


@tool(read_only=True)
def list_registries(db: Database) -> list[RegistryObject]:
    """List the tenant's registries with their entity schemas: fields (and which are required) and the naming prefix
    of registry IDs."""
    me(db)
    return [
        RegistryObject(
            id=r["id"],
            name=r["name"],
            entity_schemas=[schema_object(s) for s in db.find(schemas, registry_id=r["id"], order_by=[schemas.c.name])],
        )
        for r in db.find(registries, order_by=[registries.c.name])
    ]


@tool(read_only=True)
def list_dna_sequences(
    db: Database,
    name_includes: str | None = None,
    folder_id: str | None = None,
    schema_id: str | None = None,
    is_registered: bool | None = None,
    entity_registry_id: str | None = None,
    include_archived: bool = False,
    page_size: PageSize = 25,
    next_token: str | None = None,
) -> Page[DnaSequenceSummary]:
    """List DNA sequences (plasmids, oligos, gene fragments) by name, without their bases.

    Args:
        name_includes: Only sequences whose name contains this text.
        folder_id: Only sequences in this folder (lib_...).
        schema_id: Only sequences of this schema (ts_...).
        is_registered: true for registered sequences only, false for unregistered ones.
        entity_registry_id: The sequence with this registry ID (PL0142).
        include_archived: Also list archived sequences.
        page_size: Sequences per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    equals = given(
        folder_id=folder_id, schema_id=schema_id, entity_registry_id=entity_registry_id and entity_registry_id.strip()
    )
    rows = visible_entities(db, me(db), dna_sequences, name_includes, is_registered, include_archived, **equals)
    return paginate([sequence_summary(db, r) for r in rows], page_size, next_token)


@tool(read_only=True)
def get_dna_sequence(db: Database, dna_sequence_id: str) -> DnaSequenceObject:
    """Get one DNA sequence with its bases and annotations.

    Args:
        dna_sequence_id: The sequence's ID (seq_...).
    """
    user = me(db)
    found = db.find(dna_sequences, id=dna_sequence_id)
    if not found or not entity_visible(db, user, found[0]):
        raise NotFound(f"DNA sequence '{dna_sequence_id}' not found")
    return sequence_object(db, found[0])


@tool()
def create_dna_sequence(
    db: Database,
    name: SequenceName,
    bases: Bases,
    folder_id: str,
    is_circular: bool = False,
    schema_id: str | None = None,
    fields: dict[str, FieldValue] | None = None,
    annotations: list[Annotation] | None = None,
) -> DnaSequenceObject:
    """Create an unregistered DNA sequence in a folder (needs WRITE on its project). Bases use IUPAC letters;
    annotations must lie within the sequence (only circular sequences may wrap past the end).

    Args:
        name: The sequence's name.
        bases: The bases, e.g. ATGACCATGATTACG.
        folder_id: The folder to create it in (lib_...).
        is_circular: true for plasmids.
        schema_id: A DNA sequence schema (ts_...) such as Plasmid or Oligo.
        fields: Schema field values by field name.
        annotations: Features to annotate: name, type, 0-based start, exclusive end, strand.
    """
    user = me(db)
    writable_folder(db, user, folder_id)
    clean = clean_bases(bases)
    schema = schema_of(db, schema_id, "dna_sequence") if schema_id is not None else None
    checked = merge_fields(db, schema, {}, fields or {})
    features = placed_annotations(annotations or [], len(clean), is_circular)
    now = db.now_iso()
    row = db.insert(
        dna_sequences,
        id=db.new_id(dna_sequences, "seq_", width=8),
        name=name.strip(),
        bases=clean,
        is_circular=is_circular,
        annotations=features,
        folder_id=folder_id,
        schema_id=schema_id,
        fields=checked,
        aliases=[],
        entity_registry_id=None,
        registry_id=None,
        creator_id=user["id"],
        archive_reason=None,
        created_at=now,
        modified_at=now,
    )
    audit(db, user, row["id"], "CREATE", {"name": [None, row["name"]], "length": [None, len(clean)]})
    return sequence_object(db, row)


@tool(read_only=True)
def list_custom_entities(
    db: Database,
    schema_id: str | None = None,
    name_includes: str | None = None,
    folder_id: str | None = None,
    is_registered: bool | None = None,
    entity_registry_id: str | None = None,
    include_archived: bool = False,
    page_size: PageSize = 25,
    next_token: str | None = None,
) -> Page[CustomEntityObject]:
    """List custom entities (cell lines, strains, antibodies, proteins) with their schema fields.

    Args:
        schema_id: Only entities of this schema (ts_...).
        name_includes: Only entities whose name contains this text.
        folder_id: Only entities in this folder (lib_...).
        is_registered: true for registered entities only, false for unregistered ones.
        entity_registry_id: The entity with this registry ID (CL0023).
        include_archived: Also list archived entities.
        page_size: Entities per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    equals = given(
        folder_id=folder_id, schema_id=schema_id, entity_registry_id=entity_registry_id and entity_registry_id.strip()
    )
    rows = visible_entities(db, me(db), custom_entities, name_includes, is_registered, include_archived, **equals)
    return paginate([custom_entity_object(db, r) for r in rows], page_size, next_token)


@tool()
def register_entities(
    db: Database, registry_id: str, entity_ids: EntityIds, naming_strategy: NamingStrategy
) -> list[RegisteredEntity]:
    """Register DNA sequences or custom entities in a registry, all or none. Each needs a schema of that registry with
    its required fields filled, a name not already registered for the schema, and WRITE on its project.
    NEW_IDS gives the next registry ID of the schema's prefix and keeps the name; DELETE_NAMES does too and renames
    the entity to its registry ID; IDS_FROM_NAMES and KEEP_NAMES use the current name as the registry ID.

    Args:
        registry_id: The registry (src_...), from list_registries.
        entity_ids: The entities to register (seq_... or bfi_...).
        naming_strategy: NEW_IDS, DELETE_NAMES, IDS_FROM_NAMES or KEEP_NAMES.
    """
    user = me(db)
    registry = db.get(registries, registry_id, "Registry")
    registered = []
    for entity_id in sorted(set(entity_ids)):  # registry numbers follow the ids, not the order they were given in
        table, row = entity(db, entity_id)
        if not entity_visible(db, user, row):
            raise NotFound(f"Entity '{entity_id}' not found")
        require(db, user, entry_project(db, row), "WRITE")
        changes = registration(db, registry, table, row, naming_strategy)
        registry_number = changes["entity_registry_id"]
        updated = db.update(table, entity_id, modified_at=db.now_iso(), **changes)
        audit(db, user, entity_id, "REGISTER", {"entity_registry_id": [None, registry_number]})
        registered.append(
            RegisteredEntity(
                id=entity_id, name=updated["name"], entity_registry_id=registry_number, registry_id=registry_id
            )
        )
    return registered


# ---------------------------------------------------------------- inventory


@tool(read_only=True)
def list_storage(
    db: Database,
    name_includes: str | None = None,
    barcode: str | None = None,
    parent_storage_id: str | None = None,
    storage_type: Literal["location", "box", "plate"] | None = None,
    include_archived: bool = False,
    page_size: PageSize = 20,
    next_token: str | None = None,
) -> Page[StorageObject]:
    """Find locations (rooms, freezers, shelves, racks), boxes and plates; boxes and plates list their free
    positions.

    Args:
        name_includes: Only storage whose name contains this text.
        barcode: The storage with this barcode.
        parent_storage_id: Only what sits directly in this location (loc_...).
        storage_type: Only locations, boxes or plates.
        include_archived: Also list archived storage.
        page_size: Items per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    visible = visible_projects(db, me(db))
    found = []
    equals = given(parent_storage_id=parent_storage_id, barcode=barcode and barcode.strip().upper())
    for prefix, table in STORAGE_TABLES.items():
        kind = STORAGE_KINDS[prefix]
        if storage_type not in (None, kind):
            continue
        for row in db.find(table, order_by=[table.c.name], **equals):
            if (
                row.get("project_id") in (None, *visible)
                and contains(row["name"], name_includes)
                and (include_archived or not row["archive_reason"])
            ):
                found.append((row, kind))
    return paginate([storage_object(db, row, kind) for row, kind in found], page_size, next_token)


@tool(read_only=True)
def list_containers(
    db: Database,
    name_includes: str | None = None,
    barcode: str | None = None,
    parent_storage_id: str | None = None,
    entity_id: str | None = None,
    checkout_status: Literal["AVAILABLE", "RESERVED", "CHECKED_OUT"] | None = None,
    include_archived: bool = False,
    page_size: PageSize = 20,
    next_token: str | None = None,
) -> Page[ContainerObject]:
    """List containers (tubes, vials, plate wells) with contents, quantity, position and check-out record; a box or
    plate's containers come in position order.

    Args:
        name_includes: Only containers whose name contains this text.
        barcode: The container with this barcode.
        parent_storage_id: Only containers directly in this location, box or plate.
        entity_id: Only containers holding this entity (seq_... or bfi_...).
        checkout_status: Only containers in this check-out status.
        include_archived: Also list archived containers.
        page_size: Containers per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    if parent_storage_id is not None:
        storage(db, parent_storage_id)
    equals = given(
        parent_storage_id=parent_storage_id,
        barcode=barcode and barcode.strip().upper(),
        checkout_status=checkout_status,
    )
    visible = visible_projects(db, user)
    rows = [
        c
        for c in db.find(containers, **equals)
        if (c["project_id"] is None or c["project_id"] in visible)
        and contains(c["name"], name_includes)
        and (include_archived or not c["archive_reason"])
        and (entity_id is None or any(x["entity_id"] == entity_id for x in c["contents"]))
    ]
    rows.sort(key=position_key)
    return paginate([container_object(db, r) for r in rows], page_size, next_token)


@tool()
def update_container(
    db: Database, container_id: str, name: ContainerName | None = None, parent_storage_id: str | None = None
) -> ContainerObject:
    """Rename a container or move it: into a location (loc_...), or into a free position of a box (box_...:B4) of a
    project you can write to. Plate wells stay in their plate.

    Args:
        container_id: The container's ID (con_...).
        name: New name.
        parent_storage_id: Where to put it: a location id, or a box id with a coordinate (box_...:B4).
    """
    user = me(db)
    container = visible_container(db, user, container_id)
    usable(db, user, container)
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if parent_storage_id is not None:
        if container["barcode"] is None:
            raise InvalidRequest("Plate wells can't be moved out of their plate.")
        target, position = destination(db, parent_storage_id.strip())
        owner = storage(db, target)[1].get("project_id")
        if owner:
            require(db, user, owner, "WRITE")
        changes |= {"parent_storage_id": target, "position": position}
    if not changes:
        raise InvalidRequest("Nothing to update: give a name or parent_storage_id.")
    audit(
        db,
        user,
        container_id,
        "MOVE" if parent_storage_id is not None else "UPDATE",
        changed(container, changes),
    )
    return container_object(db, db.update(containers, container_id, modified_at=db.now_iso(), **changes))


@tool()
def transfer_into_container(
    db: Database, destination_container_id: str, source_container_id: str, transfer_quantity: TransferQuantity
) -> TransferResult:
    """Transfer an amount from one container into another. The source must hold enough, both must measure the
    same kind of quantity (volume or mass), and concentrations in the destination are diluted by volume.

    Args:
        destination_container_id: The container receiving the transfer (con_...).
        source_container_id: The container the amount comes from (con_...).
        transfer_quantity: How much to move, e.g. {"value": 50, "units": "uL"}.
    """
    user = me(db)
    if destination_container_id == source_container_id:
        raise InvalidRequest("Source and destination must be different containers.")
    source = visible_container(db, user, source_container_id)
    dest = visible_container(db, user, destination_container_id)
    for container in (source, dest):
        usable(db, user, container)
    source_changes, dest_changes = transfer(source, dest, transfer_quantity)
    now = db.now_iso()
    new_source = db.update(containers, source["id"], modified_at=now, **source_changes)
    new_dest = db.update(containers, dest["id"], modified_at=now, **dest_changes)
    left = new_source["quantity_value"]
    amount = f"{transfer_quantity.value:g} {transfer_quantity.units}"
    audit(
        db,
        user,
        source["id"],
        "TRANSFER",
        {"quantity": [source["quantity_value"], left], "to": dest["id"], "amount": amount},
    )
    audit(
        db,
        user,
        dest["id"],
        "TRANSFER",
        {"quantity": [dest["quantity_value"], new_dest["quantity_value"]], "from": source["id"], "amount": amount},
    )
    return TransferResult(source=container_object(db, new_source), destination=container_object(db, new_dest))


@tool()
def checkout_containers(
    db: Database,
    container_ids: ContainerIds,
    action: Literal["check_out", "reserve", "check_in"],
    assignee_id: str | None = None,
    comment: str = "",
) -> list[ContainerObject]:
    """Check containers out to a user, reserve them for a user, or check them back in. A container checked out or
    reserved by someone else can't be taken; only its holder checks it in.

    Args:
        container_ids: The containers (con_...).
        action: check_out, reserve or check_in.
        assignee_id: Who gets them (ent_...); required to check out or reserve.
        comment: A note on the check-out record.
    """
    user = me(db)
    if action != "check_in" and assignee_id is None:
        raise InvalidRequest(f"assignee_id is required to {action.replace('_', ' ')}.")
    if action == "check_in" and assignee_id is not None:
        raise InvalidRequest("Checking in takes no assignee_id.")
    if assignee_id is not None:
        active_user(db, assignee_id)
    status = CHECKOUT_STATUS[action]
    done = []
    for container_id in sorted(set(container_ids)):
        container = visible_container(db, user, container_id)
        check_checkout(db, user, container, status, assignee_id)
        held, holder = container["checkout_status"], container["checkout_assignee_id"]
        row = db.update(
            containers,
            container_id,
            checkout_status=status,
            checkout_assignee_id=assignee_id,
            checkout_comment=comment.strip(),
            modified_at=db.now_iso(),
        )
        audit(
            db,
            user,
            container_id,
            "CHECKOUT",
            {"checkout_status": [held, status], "assignee_id": [holder, assignee_id]},
        )
        done.append(container_object(db, row))
    return done


@tool()
def archive_containers(db: Database, container_ids: ContainerIds, reason: ArchiveReason) -> ArchivalChange:
    """Archive containers, taking them out of their box or location. Archived containers are read-only.

    Args:
        container_ids: The containers (con_...).
        reason: Made in error, Retired, Expended, Shipped, Contaminated, Expired, Missing or Other.
    """
    user = me(db)
    ids = sorted(set(container_ids))
    for container_id in ids:
        container = visible_container(db, user, container_id)
        usable(db, user, container)
        if container["barcode"] is None:
            raise InvalidRequest("Plate wells are archived with their plate.")
        db.update(
            containers,
            container_id,
            archive_reason=reason,
            parent_storage_id=None,
            position=None,
            checkout_status="AVAILABLE",
            checkout_assignee_id=None,
            modified_at=db.now_iso(),
        )
        audit(
            db,
            user,
            container_id,
            "ARCHIVE",
            {
                "archive_reason": [None, reason],
                "parent_storage_id": [
                    container["parent_storage_id"] + (f":{container['position']}" if container["position"] else "")
                    if container["parent_storage_id"]
                    else None,
                    None,
                ],
            },
        )
    return ArchivalChange(container_ids=ids, reason=reason)


# ---------------------------------------------------------------- requests


@tool(read_only=True)
def list_requests(
    db: Database,
    request_status: RequestStatus | None = None,
    assignee_id: str | None = None,
    requestor_id: str | None = None,
    schema_id: str | None = None,
    project_id: str | None = None,
    page_size: PageSize = 25,
    next_token: str | None = None,
) -> Page[RequestObject]:
    """List requests (sequencing, maxipreps, purifications, cell banking) in your projects, oldest first.

    Args:
        request_status: Only requests in this status.
        assignee_id: Only requests assigned to this user (ent_...).
        requestor_id: Only requests made by this user (ent_...).
        schema_id: Only requests of this schema (assaysch_...).
        project_id: Only requests of this project (src_...).
        page_size: Requests per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    equals = given(request_status=request_status, requestor_id=requestor_id, schema_id=schema_id, project_id=project_id)
    visible = visible_projects(db, user)
    rows = [
        r
        for r in db.find(requests, order_by=[requests.c.created_at], **equals)
        if r["project_id"] in visible and assignee_id in (None, *r["assignee_ids"])
    ]
    return paginate([request_object(db, r) for r in rows], page_size, next_token)


@tool()
def update_request(
    db: Database,
    request_id: str,
    request_status: RequestStatus | None = None,
    scheduled_on: ScheduledOn | None = None,
    assignee_ids: Assignees | None = None,
) -> RequestObject:
    """Move a request along (REQUESTED -> SCHEDULED -> IN_PROGRESS -> COMPLETED, or CANCELLED), schedule it or
    reassign it. Only assignees schedule, start and complete a request; its requestor or an assignee cancels it;
    reassigning needs WRITE on the project. Scheduling needs a date.

    Args:
        request_id: The request's ID (req_...).
        request_status: The new status.
        scheduled_on: The date it is scheduled for (YYYY-MM-DD).
        assignee_ids: The new assignees (ent_...), each with access to the project.
    """
    user = me(db)
    request = visible_request(db, user, request_id)
    require(db, user, request["project_id"], "READ")
    if request["request_status"] in ("COMPLETED", "CANCELLED"):
        raise Conflict(f"Request {request['display_id']} is {request['request_status']} and can't change.")
    changes: dict[str, Any] = {}
    if assignee_ids is not None:
        require(db, user, request["project_id"], "WRITE")
        changes["assignee_ids"] = check_assignees(db, request["project_id"], assignee_ids)
    if scheduled_on is not None:
        changes["scheduled_on"] = schedule_date(db, scheduled_on)
    changes = request_changes(db, user, request, changes, request_status)
    if not changes:
        raise InvalidRequest("Nothing to update: give request_status, scheduled_on or assignee_ids.")
    audit(db, user, request_id, "UPDATE", changed(request, changes))
    return request_object(db, db.update(requests, request_id, modified_at=db.now_iso(), **changes))


# ---------------------------------------------------------------- audit log


@tool(read_only=True)
def get_audit_log(
    db: Database, object_id: str, page_size: PageSize = 50, next_token: str | None = None
) -> Page[AuditEventObject]:
    """Read the audit log of an entry, entity, container, storage or request: who did what, oldest first.

    Args:
        object_id: The object's ID (etr_, seq_, bfi_, con_, box_, plt_, loc_ or req_...).
        page_size: Events per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    project_id = audited_project(db, object_id)
    if project_id is not None and role(db, user["id"], project_id) is None:
        raise NotFound(f"Object '{object_id}' not found")
    rows = db.find(audit_events, object_id=object_id, order_by=[audit_events.c.id])
    return paginate([audit_object(db, r) for r in rows], page_size, next_token)
