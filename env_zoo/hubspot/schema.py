"""HubSpot CRM records as tables. Record ids are HubSpot's numeric strings ("30151"); each record table's columns are
the object's internal property names (`firstname`, `dealstage`, `hs_task_status`), so search filters name them
directly. Associations are stored once per pair in a fixed direction (contact -> company, deal -> contact/company,
task/note -> contact/company/deal) with the association type (label) id. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

owners = Table(
    "owners",
    metadata,
    Column("id", String, primary_key=True),  # the owner id other records name in hubspot_owner_id
    Column("email", String, nullable=False, unique=True),
    Column("firstName", String, nullable=False),
    Column("lastName", String, nullable=False),
    Column("userId", Integer, nullable=False),
    Column("team", String),  # the owner's primary team
    Column("archived", Boolean, nullable=False),  # deactivated users: no longer assignable
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("owners.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

companies = Table(
    "companies",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("domain", String),
    Column("industry", String),
    Column("city", String),
    Column("country", String),
    Column("numberofemployees", Integer),
    Column("annualrevenue", Float),
    Column("lifecyclestage", String),
    Column("hubspot_owner_id", String, ForeignKey("owners.id")),
    Column("createdate", String, nullable=False, info={"volatile": True}),
    Column("hs_lastmodifieddate", String, nullable=False, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
)

contacts = Table(
    "contacts",
    metadata,
    Column("id", String, primary_key=True),
    Column("email", String),
    Column("firstname", String),
    Column("lastname", String),
    Column("phone", String),
    Column("jobtitle", String),
    Column("lifecyclestage", String),
    Column("hs_lead_status", String),
    Column("hubspot_owner_id", String, ForeignKey("owners.id")),
    Column("createdate", String, nullable=False, info={"volatile": True}),
    Column("lastmodifieddate", String, nullable=False, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
    Column("merged_into", String),  # set on a contact merged into another (then archived)
)

pipelines = Table(
    "pipelines",
    metadata,
    Column("id", String, primary_key=True),  # "default" for the Sales Pipeline, numeric for the others
    Column("label", String, nullable=False),
    Column("displayOrder", Integer, nullable=False),
    Column("restrict_skipping", Boolean, nullable=False),  # open deals may only move one stage forward at a time
)

stages = Table(
    "stages",
    metadata,
    Column("id", String, primary_key=True),  # the dealstage value, e.g. "appointmentscheduled" or "1170342"
    Column("pipeline_id", String, ForeignKey("pipelines.id"), nullable=False),
    Column("label", String, nullable=False),
    Column("displayOrder", Integer, nullable=False),
    Column("probability", Float, nullable=False),  # 0.0 .. 1.0
    Column("isClosed", Boolean, nullable=False),
    Column("required_properties", JSON, nullable=False),  # deal properties a deal needs to enter this stage
)

deals = Table(
    "deals",
    metadata,
    Column("id", String, primary_key=True),
    Column("dealname", String, nullable=False),
    Column("pipeline", String, ForeignKey("pipelines.id"), nullable=False),
    Column("dealstage", String, ForeignKey("stages.id"), nullable=False),
    Column("amount", Float),
    Column("closedate", String),
    Column("dealtype", String),  # newbusiness | existingbusiness
    Column("hs_priority", String),  # low | medium | high
    Column("closed_lost_reason", Text),
    Column("hubspot_owner_id", String, ForeignKey("owners.id")),
    Column("createdate", String, nullable=False, info={"volatile": True}),
    Column("hs_lastmodifieddate", String, nullable=False, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
)

tasks = Table(
    "tasks",
    metadata,
    Column("id", String, primary_key=True),
    Column("hs_task_subject", String, nullable=False),
    Column("hs_task_body", Text),
    Column("hs_task_status", String, nullable=False),  # NOT_STARTED | IN_PROGRESS | WAITING | COMPLETED | DEFERRED
    Column("hs_task_priority", String, nullable=False),  # NONE | LOW | MEDIUM | HIGH
    Column("hs_task_type", String, nullable=False),  # TODO | CALL | EMAIL
    Column("hs_timestamp", String, nullable=False),  # when the task is due
    Column("hubspot_owner_id", String, ForeignKey("owners.id")),
    Column("hs_createdate", String, nullable=False, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
)

notes = Table(
    "notes",
    metadata,
    Column("id", String, primary_key=True),
    Column("hs_note_body", Text, nullable=False),
    Column("hs_timestamp", String, nullable=False, info={"volatile": True}),  # new notes: the moment logged
    Column("hubspot_owner_id", String, ForeignKey("owners.id")),
    Column("hs_createdate", String, nullable=False, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
)

association_labels = Table(
    "association_labels",
    metadata,
    Column("typeId", Integer, primary_key=True),
    Column("from_type", String, nullable=False),  # contacts, companies, deals, tasks, notes (stored direction)
    Column("to_type", String, nullable=False),
    Column("label", String),  # null: the unlabeled default association
    Column("category", String, nullable=False),  # HUBSPOT_DEFINED | USER_DEFINED
    Column("max_per_record", Integer),  # how many records of to_type one from-record may carry this label to
)

associations = Table(
    "associations",
    metadata,
    Column("id", String, primary_key=True),  # "<from_type>:<from_id>-<to_type>:<to_id>-<typeId>"
    Column("from_type", String, nullable=False),
    Column("from_id", String, nullable=False),
    Column("to_type", String, nullable=False),
    Column("to_id", String, nullable=False),
    Column("typeId", Integer, ForeignKey("association_labels.typeId"), nullable=False),
)
