"""Benchling REST API (v2) tools acting with the signed-in user's API key: projects and folders, notebook entries and
review, the registry (DNA sequences, custom entities, registration), inventory (storage, containers, transfers,
check-out, archiving), requests and audit logs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

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

from .access import (
    LOCKED,
    active_user,
    check_authors,
    editable_entry,
    entity_visible,
    entry_project,
    holding,
    live,
    me,
    require,
    role,
    usable,
    visible_container,
    visible_entry,
    visible_folder,
    visible_project,
    visible_projects,
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
    DATE,
    STORAGE_TABLES,
    audit,
    convert,
    destination,
    dimension,
    entity,
    merge_fields,
    missing_required,
    mixed,
    next_registry_id,
    schema_of,
    storage,
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

TENANT = "corvidbio.benchling.com"
IUPAC = set("ACGTURYKMSWBDHVN")
REVIEWABLE = ("IN_PROGRESS", "REJECTED", "RETRACTED")
ArchiveReason = Literal[
    "Made in error",
    "Retired",
    "Expended",
    "Shipped",
    "Contaminated",
    "Expired",
    "Missing",
    "Other",
]
NamingStrategy = Literal["NEW_IDS", "IDS_FROM_NAMES", "DELETE_NAMES", "KEEP_NAMES"]
ReviewStatus = Literal["IN_PROGRESS", "NEEDS_REVIEW", "ACCEPTED", "REJECTED", "RETRACTED"]
RequestStatus = Literal["REQUESTED", "SCHEDULED", "IN_PROGRESS", "COMPLETED", "CANCELLED"]
NEXT_STATUSES = {
    "REQUESTED": {"SCHEDULED", "IN_PROGRESS", "CANCELLED"},
    "SCHEDULED": {"IN_PROGRESS", "CANCELLED"},
    "IN_PROGRESS": {"COMPLETED", "CANCELLED"},
    "COMPLETED": set(),
    "CANCELLED": set(),
}


# ---------------------------------------------------------------- helpers


def _contains(text: str, part: str | None) -> bool:
    return part is None or part.strip().casefold() in text.casefold()


def _entities(
    db: Database,
    user: dict[str, Any],
    table: Any,
    name_includes: str | None,
    folder_id: str | None,
    schema_id: str | None,
    is_registered: bool | None,
    entity_registry_id: str | None,
    include_archived: bool,
) -> list[dict[str, Any]]:
    equals: dict[str, Any] = {}
    if folder_id is not None:
        equals["folder_id"] = visible_folder(db, user, folder_id)["id"]
    if schema_id is not None:
        equals["schema_id"] = schema_id
    if entity_registry_id is not None:
        equals["entity_registry_id"] = entity_registry_id.strip()
    rows = db.find(table, order_by=[table.c.name], **equals)
    return [
        r
        for r in rows
        if entity_visible(db, user, r)
        and _contains(r["name"], name_includes)
        and (include_archived or not r["archive_reason"])
        and (is_registered is None or (r["entity_registry_id"] is not None) == is_registered)
    ]


def _position_key(row: dict[str, Any]) -> tuple[str, int, int, str]:
    position = row["position"] or ""
    row_index = ord(position[0]) if position else 0
    column = int(position[1:]) if position[1:].isdigit() else 0
    return row["parent_storage_id"] or "", row_index, column, row["name"]


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
    page_size: int = 25,
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
        and _contains(p["name"], name_includes)
        and (include_archived or not p["archive_reason"])
    ]
    return paginate([project_object(db, p, user["id"]) for p in rows], page_size, next_token)


@tool(read_only=True)
def list_folders(
    db: Database,
    project_id: str | None = None,
    parent_folder_id: str | None = None,
    name_includes: str | None = None,
    page_size: int = 50,
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
    equals: dict[str, Any] = {}
    if project_id is not None:
        equals["project_id"] = visible_project(db, user, project_id)["id"]
    if parent_folder_id is not None:
        equals["parent_folder_id"] = visible_folder(db, user, parent_folder_id)["id"]
    visible = visible_projects(db, user)
    rows = [
        f
        for f in db.find(folders, order_by=[folders.c.project_id, folders.c.name], **equals)
        if f["project_id"] in visible and _contains(f["name"], name_includes)
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
    page_size: int = 10,
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
    equals: dict[str, Any] = {}
    if folder_id is not None:
        equals["folder_id"] = folder_id
    if review_status is not None:
        equals["review_status"] = review_status
    if display_id is not None:
        equals["display_id"] = display_id.strip().upper()
    rows = []
    for row in db.find(entries, order_by=[entries.c.display_id.desc()], **equals):
        project = entry_project(db, row)
        if (
            project in visible
            and project_id in (None, project)
            and _contains(row["name"], name_includes)
            and (include_archived or not row["archive_reason"])
            and author_id in (None, *row["author_ids"])
            and assigned_reviewer_id in (None, *row["assigned_reviewer_ids"])
        ):
            rows.append(row)
    return paginate([entry_object(db, r) for r in rows], page_size, next_token, max_page_size=50)


@tool()
def create_entry(
    db: Database,
    name: str,
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
    if not 1 <= len(title) <= 200:
        raise InvalidRequest("Entry names must be 1 to 200 characters long.")
    if schema_id is not None:
        schema_of(db, schema_id, "entry")
    authors = check_authors(db, folder["project_id"], author_ids if author_ids is not None else [user["id"]])
    year = db.now().strftime("%y")
    numbers = [int(e["display_id"][5:]) for e in db.find(entries) if e["display_id"].startswith(f"EXP{year}")]
    now = db.now_iso()
    row = db.insert(
        entries,
        id=db.new_id(entries, "etr_", width=8),
        display_id=f"EXP{year}{max(numbers, default=0) + 1:06d}",
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
    name: str | None = None,
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
        if not 1 <= len(name.strip()) <= 200:
            raise InvalidRequest("Entry names must be 1 to 200 characters long.")
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
    audit(db, user, entry_id, "UPDATE", {k: [entry[k], v] for k, v in changes.items() if entry[k] != v})
    return entry_object(db, db.update(entries, entry_id, modified_at=db.now_iso(), **changes))


@tool()
def submit_entry_for_review(db: Database, entry_id: str, reviewer_ids: Annotated[list[str], Unordered]) -> EntryObject:
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
    if not reviewer_ids:
        raise InvalidRequest("Choose at least one reviewer.")
    for reviewer_id in reviewer_ids:
        reviewer = active_user(db, reviewer_id)
        if reviewer_id in entry["author_ids"]:
            raise InvalidRequest(f"{reviewer['name']} is an author of this entry and can't review it.")
        if role(db, reviewer_id, project_id) is None:
            raise InvalidRequest(f"{reviewer['name']} has no access to project '{project['name']}'.")
    reviewers = sorted(set(reviewer_ids))
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
    page_size: int = 25,
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
    user = me(db)
    rows = _entities(
        db,
        user,
        dna_sequences,
        name_includes,
        folder_id,
        schema_id,
        is_registered,
        entity_registry_id,
        include_archived,
    )
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
    name: str,
    bases: str,
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
    clean = "".join(bases.split()).upper()
    if not clean:
        raise InvalidRequest("bases can't be empty.")
    bad = sorted(set(clean) - IUPAC)
    if bad:
        raise InvalidRequest(f"Invalid base(s) {', '.join(bad)}: use IUPAC nucleotide letters.")
    if not name.strip():
        raise InvalidRequest("name is required.")
    schema = schema_of(db, schema_id, "dna_sequence") if schema_id is not None else None
    checked = merge_fields(db, schema, {}, fields or {})
    features = []
    for feature in annotations or []:
        wraps = feature.end < feature.start
        if not (0 <= feature.start < len(clean) and 0 < feature.end <= len(clean)) or (wraps and not is_circular):
            raise InvalidRequest(
                f"Annotation '{feature.name}' ({feature.start}-{feature.end}) lies outside the {len(clean)} bp "
                "sequence."
            )
        features.append(feature.model_dump())
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
    page_size: int = 25,
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
    user = me(db)
    rows = _entities(
        db,
        user,
        custom_entities,
        name_includes,
        folder_id,
        schema_id,
        is_registered,
        entity_registry_id,
        include_archived,
    )
    return paginate([custom_entity_object(db, r) for r in rows], page_size, next_token)


@tool()
def register_entities(
    db: Database, registry_id: str, entity_ids: Annotated[list[str], Unordered], naming_strategy: NamingStrategy
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
    if not entity_ids:
        raise InvalidRequest("Give at least one entity to register.")
    registered = []
    for entity_id in sorted(set(entity_ids)):  # registry numbers follow the ids, not the order they were given in
        table, row = entity(db, entity_id)
        if not entity_visible(db, user, row):
            raise NotFound(f"Entity '{entity_id}' not found")
        require(db, user, entry_project(db, row), "WRITE")
        if row["archive_reason"]:
            raise Conflict(f"'{row['name']}' is archived and can't be registered.")
        if row["entity_registry_id"]:
            raise Conflict(f"'{row['name']}' is already registered as {row['entity_registry_id']}.")
        schema = db.get(schemas, row["schema_id"]) if row["schema_id"] else None
        if schema is None or schema["registry_id"] != registry_id:
            raise InvalidRequest(f"'{row['name']}' needs a schema of the {registry['name']} before registering.")
        missing = missing_required(schema, row["fields"])
        if missing:
            raise InvalidRequest(f"'{row['name']}' is missing required field(s): {', '.join(missing)}.")
        twins = [r for r in db.find(table, schema_id=schema["id"], name=row["name"]) if r["entity_registry_id"]]
        if twins:
            raise Conflict(
                f"A {schema['name']} named '{row['name']}' is already registered as {twins[0]['entity_registry_id']}."
            )
        if naming_strategy in ("IDS_FROM_NAMES", "KEEP_NAMES"):
            registry_number = row["name"]
            if db.find(dna_sequences, entity_registry_id=registry_number) or db.find(
                custom_entities, entity_registry_id=registry_number
            ):
                raise Conflict(f"Registry ID {registry_number} is already taken.")
        else:
            registry_number = next_registry_id(db, schema["prefix"])
        changes = {"entity_registry_id": registry_number, "registry_id": registry_id}
        if naming_strategy == "DELETE_NAMES":
            changes |= {"name": registry_number, "aliases": [*row["aliases"], row["name"]]}
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
    page_size: int = 20,
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
    for prefix, table in STORAGE_TABLES.items():
        kind = {"loc_": "location", "box_": "box", "plt_": "plate"}[prefix]
        if storage_type not in (None, kind):
            continue
        equals: dict[str, Any] = {}
        if parent_storage_id is not None:
            equals["parent_storage_id"] = parent_storage_id
        if barcode is not None:
            equals["barcode"] = barcode.strip().upper()
        for row in db.find(table, order_by=[table.c.name], **equals):
            if (
                row.get("project_id") in (None, *visible)
                and _contains(row["name"], name_includes)
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
    page_size: int = 20,
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
    equals: dict[str, Any] = {}
    if parent_storage_id is not None:
        equals["parent_storage_id"] = storage(db, parent_storage_id)[1]["id"]
    if barcode is not None:
        equals["barcode"] = barcode.strip().upper()
    if checkout_status is not None:
        equals["checkout_status"] = checkout_status
    visible = visible_projects(db, user)
    rows = [
        c
        for c in db.find(containers, **equals)
        if (c["project_id"] is None or c["project_id"] in visible)
        and _contains(c["name"], name_includes)
        and (include_archived or not c["archive_reason"])
        and (entity_id is None or any(x["entity_id"] == entity_id for x in c["contents"]))
    ]
    rows.sort(key=_position_key)
    return paginate([container_object(db, r) for r in rows], page_size, next_token)


@tool()
def update_container(
    db: Database, container_id: str, name: str | None = None, parent_storage_id: str | None = None
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
        if not name.strip():
            raise InvalidRequest("name can't be empty.")
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
        {k: [container[k], v] for k, v in changes.items() if container[k] != v},
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
    kind = dimension(transfer_quantity.units)
    if source["quantity_units"] is None or source["quantity_value"] <= 0:
        raise Conflict(f"Container '{source['name']}' is empty.")
    if dimension(source["quantity_units"]) != kind:
        raise InvalidRequest(
            f"'{source['name']}' is measured in {source['quantity_units']}; transfer a {kind} of the same kind."
        )
    taken = convert(transfer_quantity.value, transfer_quantity.units, source["quantity_units"])
    if taken > source["quantity_value"] + 1e-9:
        raise Conflict(
            f"Container '{source['name']}' only holds {source['quantity_value']:g} {source['quantity_units']}."
        )
    units = dest["quantity_units"] or source["quantity_units"]
    if dimension(units) != kind:
        raise InvalidRequest(f"'{dest['name']}' is measured in {units}; it can't receive a {kind}.")
    held = dest["quantity_value"] or 0.0
    moved = convert(transfer_quantity.value, transfer_quantity.units, units)
    contents = mixed(source, dest | {"quantity_units": units}, moved, held)
    now = db.now_iso()
    left = round(source["quantity_value"] - taken, 6)
    new_source = db.update(containers, source["id"], quantity_value=left, modified_at=now)
    new_dest = db.update(
        containers,
        dest["id"],
        quantity_value=round(held + moved, 6),
        quantity_units=units,
        contents=contents,
        modified_at=now,
    )
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
    container_ids: Annotated[list[str], Unordered],
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
    if not container_ids:
        raise InvalidRequest("Give at least one container.")
    if action != "check_in" and assignee_id is None:
        raise InvalidRequest(f"assignee_id is required to {action.replace('_', ' ')}.")
    if action == "check_in" and assignee_id is not None:
        raise InvalidRequest("Checking in takes no assignee_id.")
    if assignee_id is not None:
        active_user(db, assignee_id)
    status = {"check_out": "CHECKED_OUT", "reserve": "RESERVED", "check_in": "AVAILABLE"}[action]
    done = []
    for container_id in sorted(set(container_ids)):
        container = visible_container(db, user, container_id)
        live(db, user, container)
        held, holder = container["checkout_status"], container["checkout_assignee_id"]
        if action == "check_in":
            if held == "AVAILABLE":
                raise Conflict(f"Container '{container['name']}' is not checked out or reserved.")
            project_id = container["project_id"]
            if holder != user["id"] and not (project_id and role(db, user["id"], project_id) == "ADMIN"):
                raise PermissionDenied(
                    f"Container '{container['name']}' is {holding(db, container)}; only they or a "
                    "project ADMIN can check it in."
                )
        elif held != "AVAILABLE" and holder not in (user["id"], assignee_id):
            raise Conflict(f"Container '{container['name']}' is {holding(db, container)}.")
        elif (held, holder) == (status, assignee_id):
            raise Conflict(f"Container '{container['name']}' is already {holding(db, container)}.")
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
def archive_containers(
    db: Database, container_ids: Annotated[list[str], Unordered], reason: ArchiveReason
) -> ArchivalChange:
    """Archive containers, taking them out of their box or location. Archived containers are read-only.

    Args:
        container_ids: The containers (con_...).
        reason: Made in error, Retired, Expended, Shipped, Contaminated, Expired, Missing or Other.
    """
    user = me(db)
    if not container_ids:
        raise InvalidRequest("Give at least one container.")
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
    page_size: int = 25,
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
    equals: dict[str, Any] = {}
    for key, value in (
        ("request_status", request_status),
        ("requestor_id", requestor_id),
        ("schema_id", schema_id),
        ("project_id", project_id),
    ):
        if value is not None:
            equals[key] = value
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
    scheduled_on: str | None = None,
    assignee_ids: Annotated[list[str], Unordered] | None = None,
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
    found = db.find(requests, id=request_id)
    if not found or role(db, user["id"], found[0]["project_id"]) is None:
        raise NotFound(f"Request '{request_id}' not found")
    request = found[0]
    require(db, user, request["project_id"], "READ")
    if request["request_status"] in ("COMPLETED", "CANCELLED"):
        raise Conflict(f"Request {request['display_id']} is {request['request_status']} and can't change.")
    changes: dict[str, Any] = {}
    if assignee_ids is not None:
        require(db, user, request["project_id"], "WRITE")
        if not assignee_ids:
            raise InvalidRequest("A request needs at least one assignee.")
        for assignee_id in assignee_ids:
            if role(db, active_user(db, assignee_id)["id"], request["project_id"]) is None:
                raise InvalidRequest(f"{db.get(users, assignee_id)['name']} has no access to this project.")
        changes["assignee_ids"] = sorted(set(assignee_ids))
    if scheduled_on is not None:
        if not DATE.match(scheduled_on):
            raise InvalidRequest("scheduled_on must be a date like 2025-06-12.")
        if scheduled_on < db.now().strftime("%Y-%m-%d"):
            raise InvalidRequest("scheduled_on can't be in the past.")
        changes["scheduled_on"] = scheduled_on
    if request_status is not None and request_status != request["request_status"]:
        current = request["request_status"]
        if request_status not in NEXT_STATUSES[current]:
            raise Conflict(f"Request {request['display_id']} can't go from {current} to {request_status}.")
        workers = changes.get("assignee_ids", request["assignee_ids"])
        allowed = [*workers, request["requestor_id"]] if request_status == "CANCELLED" else workers
        if user["id"] not in allowed:
            raise PermissionDenied(f"Only the assignees of {request['display_id']} can move it to {request_status}.")
        if request_status == "SCHEDULED" and not changes.get("scheduled_on", request["scheduled_on"]):
            raise InvalidRequest("Give scheduled_on to schedule a request.")
        changes["request_status"] = request_status
    if not changes:
        raise InvalidRequest("Nothing to update: give request_status, scheduled_on or assignee_ids.")
    audit(db, user, request_id, "UPDATE", {k: [request[k], v] for k, v in changes.items() if request[k] != v})
    return request_object(db, db.update(requests, request_id, modified_at=db.now_iso(), **changes))


# ---------------------------------------------------------------- audit log


def _audited_project(db: Database, object_id: str) -> str | None:
    """The project an audited object belongs to (None for inventory outside projects)."""
    if object_id.startswith("etr_"):
        return db.get(folders, db.get(entries, object_id, "Entry")["folder_id"])["project_id"]
    if object_id.startswith(("seq_", "bfi_")):
        return db.get(folders, entity(db, object_id)[1]["folder_id"])["project_id"]
    if object_id.startswith("con_"):
        return db.get(containers, object_id, "Container")["project_id"]
    if object_id.startswith("req_"):
        return db.get(requests, object_id, "Request")["project_id"]
    if object_id.startswith(tuple(STORAGE_TABLES)):
        return storage(db, object_id)[1].get("project_id")
    raise NotFound(f"Object '{object_id}' not found")


@tool(read_only=True)
def get_audit_log(
    db: Database, object_id: str, page_size: int = 50, next_token: str | None = None
) -> Page[AuditEventObject]:
    """Read the audit log of an entry, entity, container, storage or request: who did what, oldest first.

    Args:
        object_id: The object's ID (etr_, seq_, bfi_, con_, box_, plt_, loc_ or req_...).
        page_size: Events per page, 1 to 100.
        next_token: The next_cursor of the previous page.
    """
    user = me(db)
    project_id = _audited_project(db, object_id)
    if project_id is not None and role(db, user["id"], project_id) is None:
        raise NotFound(f"Object '{object_id}' not found")
    rows = db.find(audit_events, object_id=object_id, order_by=[audit_events.c.id])
    return paginate([audit_object(db, r) for r in rows], page_size, next_token)
