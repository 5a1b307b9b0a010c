"""Home Assistant's data as tables: the floor, area, device and entity registries (an entity row also carries its
current state and attributes), users, automations, scenes, scripts and the logbook. Entity ids are
`<domain>.<object_id>`; registry ids are Home Assistant's snake_case ids (areas, floors) or 32-hex ids (devices,
users). Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("is_admin", Boolean, nullable=False),
    Column("is_active", Boolean, nullable=False),
)

floors = Table(
    "floors",
    metadata,
    Column("floor_id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("level", Integer, nullable=False),
)

areas = Table(
    "areas",
    metadata,
    Column("area_id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("floor_id", String, ForeignKey("floors.floor_id")),
    Column("aliases", JSON, nullable=False),
)

devices = Table(
    "devices",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("manufacturer", String, nullable=False),
    Column("model", String, nullable=False),
    Column("area_id", String, ForeignKey("areas.area_id")),
)

entities = Table(
    "entities",
    metadata,
    Column("entity_id", String, primary_key=True),
    Column("domain", String, nullable=False),
    Column("name", String, nullable=False),  # friendly_name
    Column("device_id", String, ForeignKey("devices.id")),
    Column("area_id", String, ForeignKey("areas.area_id")),  # set: overrides the device's area
    Column("state", String, nullable=False),
    Column("attributes", JSON, nullable=False),
    Column("lock_code", String),  # locks with a code_format: the code unlocking needs (never shown)
    Column("last_changed", String, nullable=False, info={"volatile": True}),
    # automations and scripts: when they last ran; scenes: when last applied (a scene's state)
    Column("last_triggered", String, info={"volatile": True}),
)

automations = Table(
    "automations",
    metadata,
    Column("entity_id", String, ForeignKey("entities.entity_id"), primary_key=True),
    Column("id", String, nullable=False, unique=True),  # the id in automations.yaml
    Column("description", Text, nullable=False),
    Column("mode", String, nullable=False),  # single | restart | queued | parallel
    Column("triggers", JSON, nullable=False),
    Column("conditions", JSON, nullable=False),
    Column("actions", JSON, nullable=False),
)

scenes = Table(
    "scenes",
    metadata,
    Column("entity_id", String, ForeignKey("entities.entity_id"), primary_key=True),
    Column("entities", JSON, nullable=False),  # entity_id -> {"state": ..., attribute: value}
    Column("created_by", String, ForeignKey("users.id")),  # set: made with scene.create
)

scripts = Table(
    "scripts",
    metadata,
    Column("entity_id", String, ForeignKey("entities.entity_id"), primary_key=True),
    Column("sequence", JSON, nullable=False),
)

logbook = Table(
    "logbook",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("when", String, nullable=False, info={"volatile": True}),
    Column("entity_id", String, ForeignKey("entities.entity_id"), nullable=False),
    Column("state", String, nullable=False),
    Column("context_user_id", String, ForeignKey("users.id")),
    Column("context_source", String),  # the automation or script entity that caused it; None: a service call
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)
