"""Benchling's objects as tables: users and the signed-in session, projects with collaborators, folders, schemas and
registries, notebook entries, DNA sequences, custom entities, locations, boxes, plates, containers, requests and the
audit log. Ids keep Benchling's prefixes (ent_, src_, lib_, etr_, seq_, bfi_, loc_, box_, plt_, con_, req_)."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # ent_...
    Column("handle", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("title", String, nullable=False),
    Column("is_suspended", Boolean, nullable=False, default=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": whose API key the assistant holds
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

projects = Table(
    "projects",
    metadata,
    Column("id", String, primary_key=True),  # src_...
    Column("name", String, nullable=False, unique=True),
    Column("description", Text, nullable=False, default=""),
    Column("owner_id", String, ForeignKey("users.id"), nullable=False),
    Column("archive_reason", String),  # set when archived: Retired | Made in error | Other
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

collaborations = Table(
    "collaborations",
    metadata,
    Column("id", String, primary_key=True),  # col_...
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # READ | WRITE | ADMIN
)

folders = Table(
    "folders",
    metadata,
    Column("id", String, primary_key=True),  # lib_...
    Column("name", String, nullable=False),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("parent_folder_id", String, ForeignKey("folders.id")),
    Column("archive_reason", String),
)

registries = Table(
    "registries",
    metadata,
    Column("id", String, primary_key=True),  # src_... (registries share the project prefix in Benchling)
    Column("name", String, nullable=False),
)

schemas = Table(
    "schemas",
    metadata,
    Column("id", String, primary_key=True),  # ts_ (entity/entry), assaysch_ (request), locsch_/boxsch_/pltsch_/consch_
    Column("name", String, nullable=False),
    # entry | dna_sequence | custom_entity | request | location | box | plate | container
    Column("type", String, nullable=False),
    Column("registry_id", String, ForeignKey("registries.id")),
    Column("prefix", String),  # naming prefix of registry IDs (PL -> PL0142) or request display IDs
    Column("fields", JSON, nullable=False),  # [{"name", "type", "is_required", "options"}]
    Column("num_rows", Integer),  # boxes and plates
    Column("num_columns", Integer),
)

entries = Table(
    "entries",
    metadata,
    Column("id", String, primary_key=True),  # etr_...
    Column("display_id", String, nullable=False, unique=True),  # EXP25000123
    Column("name", String, nullable=False),
    Column("folder_id", String, ForeignKey("folders.id"), nullable=False),
    Column("schema_id", String, ForeignKey("schemas.id")),
    Column("fields", JSON, nullable=False),  # {field name: value}
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("author_ids", JSON, nullable=False),
    Column("assigned_reviewer_ids", JSON, nullable=False),
    # IN_PROGRESS | NEEDS_REVIEW | ACCEPTED | REJECTED | RETRACTED
    Column("review_status", String, nullable=False),
    Column("review_comment", Text),
    Column("signed_by_id", String, ForeignKey("users.id")),  # the reviewer who accepted or rejected it
    Column("days", JSON, nullable=False),  # [{"date", "notes": [text, ...]}]
    Column("archive_reason", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
    Column("signed_at", String, info={"volatile": True}),
)

dna_sequences = Table(
    "dna_sequences",
    metadata,
    Column("id", String, primary_key=True),  # seq_...
    Column("name", String, nullable=False),
    Column("bases", Text, nullable=False),
    Column("is_circular", Boolean, nullable=False),
    Column("annotations", JSON, nullable=False),  # [{"name", "type", "start", "end", "strand", "color"}]
    Column("folder_id", String, ForeignKey("folders.id"), nullable=False),
    Column("schema_id", String, ForeignKey("schemas.id")),
    Column("fields", JSON, nullable=False),
    Column("aliases", JSON, nullable=False),
    Column("entity_registry_id", String, unique=True),
    Column("registry_id", String, ForeignKey("registries.id")),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("archive_reason", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

custom_entities = Table(
    "custom_entities",
    metadata,
    Column("id", String, primary_key=True),  # bfi_...
    Column("name", String, nullable=False),
    Column("schema_id", String, ForeignKey("schemas.id"), nullable=False),
    Column("folder_id", String, ForeignKey("folders.id"), nullable=False),
    Column("fields", JSON, nullable=False),
    Column("aliases", JSON, nullable=False),
    Column("entity_registry_id", String, unique=True),
    Column("registry_id", String, ForeignKey("registries.id")),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("archive_reason", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

locations = Table(
    "locations",
    metadata,
    Column("id", String, primary_key=True),  # loc_...
    Column("name", String, nullable=False),
    Column("barcode", String, nullable=False, unique=True),
    Column("parent_storage_id", String, ForeignKey("locations.id")),
    Column("schema_id", String, ForeignKey("schemas.id"), nullable=False),
    Column("archive_reason", String),
)

boxes = Table(
    "boxes",
    metadata,
    Column("id", String, primary_key=True),  # box_...
    Column("name", String, nullable=False),
    Column("barcode", String, nullable=False, unique=True),
    Column("parent_storage_id", String, ForeignKey("locations.id")),
    Column("schema_id", String, ForeignKey("schemas.id"), nullable=False),
    Column("project_id", String, ForeignKey("projects.id")),
    Column("archive_reason", String),
)

plates = Table(
    "plates",
    metadata,
    Column("id", String, primary_key=True),  # plt_...
    Column("name", String, nullable=False),
    Column("barcode", String, nullable=False, unique=True),
    Column("parent_storage_id", String, ForeignKey("locations.id")),
    Column("schema_id", String, ForeignKey("schemas.id"), nullable=False),
    Column("project_id", String, ForeignKey("projects.id")),
    Column("archive_reason", String),
)

containers = Table(
    "containers",
    metadata,
    Column("id", String, primary_key=True),  # con_... (plate wells are containers too)
    Column("name", String, nullable=False),
    Column("barcode", String, unique=True),  # wells have none
    Column("schema_id", String, ForeignKey("schemas.id"), nullable=False),
    Column("parent_storage_id", String),  # loc_, box_ or plt_; None once archived
    Column("position", String),  # A1 ... inside a box or plate
    Column("contents", JSON, nullable=False),  # [{"entity_id", "concentration": {"value", "units"} | None}]
    Column("quantity_value", Float),
    Column("quantity_units", String),  # L mL uL nL | g mg ug ng
    Column("project_id", String, ForeignKey("projects.id")),
    Column("checkout_status", String, nullable=False),  # AVAILABLE | RESERVED | CHECKED_OUT
    Column("checkout_assignee_id", String, ForeignKey("users.id")),
    Column("checkout_comment", Text, nullable=False, default=""),
    Column("archive_reason", String),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

requests = Table(
    "requests",
    metadata,
    Column("id", String, primary_key=True),  # req_...
    Column("display_id", String, nullable=False, unique=True),  # SEQ142
    Column("schema_id", String, ForeignKey("schemas.id"), nullable=False),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("requestor_id", String, ForeignKey("users.id"), nullable=False),
    Column("assignee_ids", JSON, nullable=False),
    # REQUESTED | SCHEDULED | IN_PROGRESS | COMPLETED | CANCELLED
    Column("request_status", String, nullable=False),
    Column("scheduled_on", String),  # YYYY-MM-DD
    Column("fields", JSON, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

audit_events = Table(
    "audit_events",
    metadata,
    Column("id", String, primary_key=True),  # aud_...
    Column("object_id", String, nullable=False),
    # CREATE | UPDATE | REVIEW | REGISTER | TRANSFER | MOVE | CHECKOUT | ARCHIVE
    Column("action", String, nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("changes", JSON, nullable=False),  # {field: [old, new]} or a short description
    Column("timestamp", String, nullable=False, info={"volatile": True}),
)
