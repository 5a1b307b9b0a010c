"""HubSpot CRM v3 tools (contacts, companies, deals, tasks, notes, owners, pipelines, v4 associations, search) as
the signed-in HubSpot user sees them, plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText, text

from .access import owner_by_email, signed_in
from .associations import (
    TABLES,
    associate,
    associated,
    label_type,
    live_record,
    orient,
    pair_rows,
    remove_type,
    types_for,
)
from .errors import forbidden, not_found, option_text
from .objects import (
    AssociatedRecord,
    AssociationResult,
    AssociationType,
    MergeResult,
    Owner,
    Pipeline,
    Record,
    SearchPage,
    owner_object,
    stage_object,
    type_object,
)
from .records import archive, create, day, fetch, merge, out, timestamp, update
from .rules import INDUSTRIES, LEAD_STATUSES, LIFECYCLE_STAGES
from .schema import association_labels, owners, pipelines, sessions, stages
from .search import FilterGroup, Sort, compile_search

ObjectType = Literal["contacts", "companies", "deals", "tasks", "notes"]
RecordId = Annotated[str, Field(pattern=r"^\d+$", description="a record id, digits only, e.g. '30151'")]
OwnerId = Annotated[str, Field(pattern=r"^(\d+)?$", description="an owner id from list_owners; '' to unassign")]
Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$", max_length=254),
    ErrorText(
        '400 VALIDATION_ERROR: Property values were not valid: [{"isValid":false,"message":"Email address is '
        'invalid","error":"INVALID_EMAIL","name":"email"}]'
    ),
]
Lifecycle = Annotated[
    Literal[
        "subscriber",
        "lead",
        "marketingqualifiedlead",
        "salesqualifiedlead",
        "opportunity",
        "customer",
        "evangelist",
        "other",
        "",
    ],
    ErrorText(option_text("lifecyclestage", LIFECYCLE_STAGES)),
]
LeadStatus = Annotated[
    Literal[
        "NEW",
        "OPEN",
        "IN_PROGRESS",
        "OPEN_DEAL",
        "UNQUALIFIED",
        "ATTEMPTED_TO_CONTACT",
        "CONNECTED",
        "BAD_TIMING",
        "",
    ],
    ErrorText(option_text("hs_lead_status", LEAD_STATUSES)),
]
Industry = Annotated[
    Literal[
        "COMPUTER_SOFTWARE",
        "INFORMATION_TECHNOLOGY_AND_SERVICES",
        "HOSPITAL_HEALTH_CARE",
        "FINANCIAL_SERVICES",
        "RETAIL",
        "LOGISTICS_AND_SUPPLY_CHAIN",
        "MARKETING_AND_ADVERTISING",
        "CONSTRUCTION",
        "EDUCATION_MANAGEMENT",
        "FOOD_BEVERAGES",
        "REAL_ESTATE",
        "MACHINERY",
    ],
    ErrorText(option_text("industry", INDUSTRIES)),
]
Priority = Literal["low", "medium", "high", ""]
DealType = Literal["newbusiness", "existingbusiness", ""]
Amount = Annotated[float, Field(ge=0, allow_inf_nan=False)]
TaskStatus = Literal["NOT_STARTED", "IN_PROGRESS", "WAITING", "COMPLETED", "DEFERRED"]
TaskPriority = Literal["NONE", "LOW", "MEDIUM", "HIGH"]
TaskType = Literal["TODO", "CALL", "EMAIL"]
Name = Annotated[str, Field(max_length=100)]
Phone = Annotated[str, Field(pattern=r"^(\+?[0-9 ()\-.]{5,25})?$")]
Domain = Annotated[str, Field(pattern=r"^([a-z0-9-]+\.)+[a-z]{2,}$|^$")]
SearchLimit = Annotated[int, Field(ge=1, le=200)]


# ---------------------------------------------------------------- sign-in and owners


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> Owner:
    """(User only) The person signs in to HubSpot; the assistant then acts as this HubSpot user.

    Args:
        email: Their HubSpot login email.
    """
    owner = owner_by_email(db, email)
    if owner["archived"]:
        raise forbidden(f"The user {owner['email']} is deactivated in this account")
    db.start_session(sessions, user_id=owner["id"])
    return owner_object(owner)


@tool(read_only=True)
def list_owners(db: Database, email: str | None = None, archived: bool = False) -> list[Owner]:
    """List the account's owners (GET /crm/v3/owners): the users records can be assigned to.

    Args:
        email: Keeps the owner with this email (case-insensitive).
        archived: true lists deactivated owners instead of active ones.
    """
    signed_in(db)
    where, params = ["archived = ?"], [archived]
    if email:
        where.append("lower(email) = ?")
        params.append(email.strip().lower())
    return [owner_object(r) for r in db.select(owners, " AND ".join(where), params, order_by='"lastName", id')]


# ---------------------------------------------------------------- search and reads


@tool(read_only=True)
def search_crm(
    db: Database,
    object_type: ObjectType,
    filter_groups: Annotated[list[FilterGroup], Field(max_length=5)] | None = None,
    query: Annotated[str, Field(max_length=200)] | None = None,
    sorts: Annotated[list[Sort], Field(max_length=1)] | None = None,
    limit: SearchLimit = 10,
    after: Annotated[str, Field(pattern=r"^\d+$")] | None = None,
) -> SearchPage:
    """Search contacts, companies, deals, tasks or notes (POST /crm/v3/objects/{objectType}/search). Filter groups are
    ORed, the filters in a group ANDed; string comparisons ignore case; archived records are left out.

    Args:
        object_type: Which object to search.
        filter_groups: Up to 5 groups of up to 10 filters, at most 25 filters in all.
        query: Text matched against the default text properties (contact name, email and phone; company name and
            domain; deal name; task subject; note body).
        sorts: One sort, e.g. [{"propertyName": "amount", "direction": "DESCENDING"}]; default by id.
        limit: Results per page, 1 to 200.
        after: The paging_after of the previous page.
    """
    signed_in(db)
    where, params, order = compile_search(object_type, filter_groups, query, sorts)
    rows = db.select(TABLES[object_type], where, params, order_by=order)
    start = int(after) if after else 0
    page = rows[start : start + limit]
    more = start + limit < len(rows)
    return SearchPage(
        total=len(rows),
        results=[out(db, object_type, r) for r in page],
        paging_after=str(start + limit) if more else None,
    )


@tool(read_only=True)
def get_contact(
    db: Database, contact_id: str, id_property: Literal["hs_object_id", "email"] = "hs_object_id"
) -> Record:
    """Read one contact (GET /crm/v3/objects/contacts/{contactId}).

    Args:
        contact_id: The contact's id, or their email with id_property="email".
        id_property: What contact_id holds: hs_object_id (the record id) or email.
    """
    signed_in(db)
    return out(db, "contacts", fetch(db, "contacts", contact_id.strip(), id_property))


@tool(read_only=True)
def get_company(db: Database, company_id: RecordId) -> Record:
    """Read one company (GET /crm/v3/objects/companies/{companyId}).

    Args:
        company_id: The company's record id.
    """
    signed_in(db)
    return out(db, "companies", fetch(db, "companies", company_id))


@tool(read_only=True)
def get_deal(db: Database, deal_id: RecordId) -> Record:
    """Read one deal (GET /crm/v3/objects/deals/{dealId}) with its stage's probability and whether it is closed.

    Args:
        deal_id: The deal's record id.
    """
    signed_in(db)
    return out(db, "deals", fetch(db, "deals", deal_id))


@tool(read_only=True)
def list_pipelines(db: Database) -> list[Pipeline]:
    """List the deal pipelines with their stages in order (GET /crm/v3/pipelines/deals); a stage's id is the deal's
    dealstage value."""
    signed_in(db)
    result = []
    for p in db.select(pipelines, "", [], order_by='"displayOrder"'):
        rows = db.select(stages, "pipeline_id = ?", [p["id"]], order_by='"displayOrder"')
        result.append(
            Pipeline(
                id=p["id"],
                label=p["label"],
                displayOrder=p["displayOrder"],
                restrictSkippingStages=bool(p["restrict_skipping"]),
                stages=[stage_object(r) for r in rows],
            )
        )
    return result


# ---------------------------------------------------------------- contacts


@tool()
def create_contact(
    db: Database,
    email: Email,
    firstname: Name | None = None,
    lastname: Name | None = None,
    phone: Phone | None = None,
    jobtitle: Name | None = None,
    lifecyclestage: Lifecycle | None = None,
    hs_lead_status: LeadStatus | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Create a contact (POST /crm/v3/objects/contacts). Emails are unique: 409 names the existing contact.

    Args:
        email: The contact's email.
        firstname: First name.
        lastname: Last name.
        phone: Phone number.
        jobtitle: Job title.
        lifecyclestage: Lifecycle stage.
        hs_lead_status: Lead status.
        hubspot_owner_id: The owner's id (list_owners).
    """
    signed_in(db)
    values = dict(email=email.strip().lower(), firstname=firstname, lastname=lastname, phone=phone, jobtitle=jobtitle)
    values.update(lifecyclestage=lifecyclestage, hs_lead_status=hs_lead_status, hubspot_owner_id=hubspot_owner_id)
    return out(db, "contacts", create(db, "contacts", values))


@tool()
def update_contact(
    db: Database,
    contact_id: RecordId,
    email: Email | None = None,
    firstname: Name | None = None,
    lastname: Name | None = None,
    phone: Phone | None = None,
    jobtitle: Name | None = None,
    lifecyclestage: Lifecycle | None = None,
    hs_lead_status: LeadStatus | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Update a contact's properties (PATCH /crm/v3/objects/contacts/{contactId}); omitted ones stay, "" clears one.
    A lifecycle stage only moves forward: to set an earlier one, clear it first.

    Args:
        contact_id: The contact's record id.
        email: New email (unique among contacts).
        firstname: First name.
        lastname: Last name.
        phone: Phone number ("" clears).
        jobtitle: Job title ("" clears).
        lifecyclestage: Lifecycle stage ("" clears).
        hs_lead_status: Lead status ("" clears).
        hubspot_owner_id: The owner's id ("" unassigns).
    """
    signed_in(db)
    values = dict(email=email.strip().lower() if email else None, firstname=firstname, lastname=lastname)
    values.update(phone=phone, jobtitle=jobtitle, lifecyclestage=lifecyclestage, hs_lead_status=hs_lead_status)
    values["hubspot_owner_id"] = hubspot_owner_id
    return out(db, "contacts", update(db, "contacts", contact_id, values))


@tool()
def merge_contacts(db: Database, primary_object_id: RecordId, object_id_to_merge: RecordId) -> MergeResult:
    """Merge a duplicate contact into another (POST /crm/v3/objects/contacts/merge). The primary keeps its values
    (taking the duplicate's only where it has none) and all of the duplicate's associations; the duplicate is
    archived. Cannot be undone.

    Args:
        primary_object_id: The contact to keep.
        object_id_to_merge: The duplicate to merge into it.
    """
    signed_in(db)
    kept, moved = merge(db, primary_object_id, object_id_to_merge)
    return MergeResult(contact=out(db, "contacts", kept), mergedContactId=object_id_to_merge, movedAssociations=moved)


# ---------------------------------------------------------------- companies


@tool()
def create_company(
    db: Database,
    name: NonBlankText,
    domain: Domain | None = None,
    industry: Industry | None = None,
    city: Name | None = None,
    country: Name | None = None,
    numberofemployees: Annotated[int, Field(ge=0)] | None = None,
    annualrevenue: Amount | None = None,
    lifecyclestage: Lifecycle | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Create a company (POST /crm/v3/objects/companies).

    Args:
        name: Company name.
        domain: Website domain, e.g. "example.com".
        industry: Industry.
        city: City.
        country: Country.
        numberofemployees: Number of employees.
        annualrevenue: Annual revenue in the account currency (USD).
        lifecyclestage: Lifecycle stage.
        hubspot_owner_id: The owner's id (list_owners).
    """
    signed_in(db)
    values = dict(name=name.strip(), domain=domain, industry=industry, city=city, country=country)
    values.update(numberofemployees=numberofemployees, annualrevenue=annualrevenue, lifecyclestage=lifecyclestage)
    values["hubspot_owner_id"] = hubspot_owner_id
    return out(db, "companies", create(db, "companies", values))


@tool()
def update_company(
    db: Database,
    company_id: RecordId,
    name: NonBlankText | None = None,
    domain: Domain | None = None,
    industry: Industry | None = None,
    city: Name | None = None,
    country: Name | None = None,
    numberofemployees: Annotated[int, Field(ge=0)] | None = None,
    annualrevenue: Amount | None = None,
    lifecyclestage: Lifecycle | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Update a company's properties (PATCH /crm/v3/objects/companies/{companyId}); "" clears a text value. A
    lifecycle stage only moves forward: to set an earlier one, clear it first.

    Args:
        company_id: The company's record id.
        name: Company name.
        domain: Website domain ("" clears).
        industry: Industry.
        city: City ("" clears).
        country: Country ("" clears).
        numberofemployees: Number of employees.
        annualrevenue: Annual revenue (USD).
        lifecyclestage: Lifecycle stage ("" clears).
        hubspot_owner_id: The owner's id ("" unassigns).
    """
    signed_in(db)
    values = dict(name=name.strip() if name else None, domain=domain, industry=industry, city=city, country=country)
    values.update(numberofemployees=numberofemployees, annualrevenue=annualrevenue, lifecyclestage=lifecyclestage)
    values["hubspot_owner_id"] = hubspot_owner_id
    return out(db, "companies", update(db, "companies", company_id, values))


# ---------------------------------------------------------------- deals


@tool()
def create_deal(
    db: Database,
    dealname: NonBlankText,
    dealstage: NonBlankText,
    pipeline: str = "default",
    amount: Amount | None = None,
    closedate: IsoDate | None = None,
    dealtype: DealType | None = None,
    hs_priority: Priority | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Create a deal (POST /crm/v3/objects/deals) in a pipeline's stage; the stage's required properties must be
    given. A deal created closed gets today's close date unless one is given.

    Args:
        dealname: Deal name.
        dealstage: The stage id (list_pipelines), e.g. "appointmentscheduled".
        pipeline: The pipeline id; "default" is the Sales Pipeline.
        amount: Deal amount (USD).
        closedate: Expected close date, YYYY-MM-DD.
        dealtype: newbusiness or existingbusiness.
        hs_priority: low, medium or high.
        hubspot_owner_id: The owner's id (list_owners).
    """
    signed_in(db)
    values = dict(dealname=dealname.strip(), dealstage=dealstage.strip(), pipeline=pipeline.strip(), amount=amount)
    values.update(closedate=day(closedate) if closedate else None, dealtype=dealtype, hs_priority=hs_priority)
    values["hubspot_owner_id"] = hubspot_owner_id
    return out(db, "deals", create(db, "deals", values))


@tool()
def update_deal(
    db: Database,
    deal_id: RecordId,
    dealname: NonBlankText | None = None,
    pipeline: str | None = None,
    dealstage: str | None = None,
    amount: Amount | None = None,
    closedate: IsoDate | None = None,
    dealtype: DealType | None = None,
    hs_priority: Priority | None = None,
    closed_lost_reason: Annotated[str, text(1000)] | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Update a deal (PATCH /crm/v3/objects/deals/{dealId}). Moving stages follows the pipeline's rules: the new
    stage's required properties must be set (they may come in the same update), and a pipeline that restricts
    skipping moves open deals one stage forward at a time. Closing a deal without a close date sets today's.

    Args:
        deal_id: The deal's record id.
        dealname: Deal name.
        pipeline: Move to this pipeline (give a dealstage of it too).
        dealstage: The new stage id (list_pipelines).
        amount: Deal amount (USD).
        closedate: Close date, YYYY-MM-DD.
        dealtype: newbusiness or existingbusiness ("" clears).
        hs_priority: low, medium or high ("" clears).
        closed_lost_reason: Why the deal was lost.
        hubspot_owner_id: The owner's id ("" unassigns).
    """
    signed_in(db)
    values = dict(dealname=dealname.strip() if dealname else None, pipeline=pipeline, dealstage=dealstage)
    values.update(amount=amount, closedate=day(closedate) if closedate else None, dealtype=dealtype)
    values.update(hs_priority=hs_priority, closed_lost_reason=closed_lost_reason, hubspot_owner_id=hubspot_owner_id)
    return out(db, "deals", update(db, "deals", deal_id, values))


@tool()
def archive_record(db: Database, object_type: ObjectType, record_id: RecordId) -> Record:
    """Archive (delete) a contact, company, deal, task or note (DELETE /crm/v3/objects/{objectType}/{id}); archived
    records leave searches and association lists.

    Args:
        object_type: The record's object type.
        record_id: The record's id.
    """
    signed_in(db)
    return out(db, object_type, archive(db, object_type, record_id))


# ---------------------------------------------------------------- associations


@tool(read_only=True)
def list_association_labels(
    db: Database, from_object_type: ObjectType, to_object_type: ObjectType
) -> list[AssociationType]:
    """List the association types between two object types (GET /crm/v4/associations/{from}/{to}/labels): the
    unlabeled default and labels such as Primary or Decision maker, with any per-record limit.

    Args:
        from_object_type: One object type.
        to_object_type: The other object type.
    """
    signed_in(db)
    f_type, _, t_type, _ = orient(from_object_type, "", to_object_type, "")
    return [type_object(r) for r in types_for(db, f_type, t_type)]


@tool(read_only=True)
def list_associations(
    db: Database, object_type: ObjectType, object_id: RecordId, to_object_type: ObjectType
) -> list[AssociatedRecord]:
    """List the records of one type associated with a record, with their labels
    (GET /crm/v4/objects/{objectType}/{objectId}/associations/{toObjectType}).

    Args:
        object_type: The record's object type.
        object_id: The record's id.
        to_object_type: Which associated records to list.
    """
    signed_in(db)
    live_record(db, object_type, object_id)
    kinds = {r["typeId"]: type_object(r) for r in db.select(association_labels, "", [])}
    found = associated(db, object_type, object_id, to_object_type)
    return [AssociatedRecord(toObjectId=i, associationTypes=[kinds[t] for t in ts]) for i, ts in found.items()]


@tool()
def associate_records(
    db: Database,
    from_object_type: ObjectType,
    from_object_id: RecordId,
    to_object_type: ObjectType,
    to_object_id: RecordId,
    label: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
) -> AssociationResult:
    """Associate two records (PUT /crm/v4/objects/{from}/{id}/associations/{to}/{toId}), optionally with a label
    (list_association_labels). Setting a new Primary company replaces the old one; other capped labels refuse a
    record beyond their limit.

    Args:
        from_object_type: The first record's type.
        from_object_id: The first record's id.
        to_object_type: The second record's type.
        to_object_id: The second record's id.
        label: An association label such as "Primary" or "Decision maker"; omit for the plain association.
    """
    signed_in(db)
    live_record(db, from_object_type, from_object_id)
    live_record(db, to_object_type, to_object_id)
    f_type, f_id, t_type, t_id = orient(from_object_type, from_object_id, to_object_type, to_object_id)
    changed = associate(db, f_type, f_id, t_type, t_id, label)
    kinds = {r["typeId"]: r for r in db.select(association_labels, "", [])}
    now = sorted(r["typeId"] for r in pair_rows(db, f_type, f_id, t_type, t_id))
    return AssociationResult(
        fromObjectId=from_object_id,
        toObjectId=to_object_id,
        associationTypes=[type_object(kinds[t]) for t in now],
        changed=changed,
    )


@tool()
def remove_association(
    db: Database,
    from_object_type: ObjectType,
    from_object_id: RecordId,
    to_object_type: ObjectType,
    to_object_id: RecordId,
    label: Annotated[str, Field(min_length=1, max_length=100)] | None = None,
) -> AssociationResult:
    """Remove the association between two records (DELETE /crm/v4/objects/{from}/{id}/associations/{to}/{toId}), or
    with a label only that label (the records stay associated).

    Args:
        from_object_type: The first record's type.
        from_object_id: The first record's id.
        to_object_type: The second record's type.
        to_object_id: The second record's id.
        label: Remove only this label; omit to remove the association entirely.
    """
    signed_in(db)
    f_type, f_id, t_type, t_id = orient(from_object_type, from_object_id, to_object_type, to_object_id)
    have = {r["typeId"] for r in pair_rows(db, f_type, f_id, t_type, t_id)}
    kind = label_type(db, f_type, t_type, label)["typeId"] if label else None
    if not have or (kind is not None and kind not in have):
        what = f"{label} association" if label else "association"
        raise not_found(f"No {what} between {from_object_type} {from_object_id} and {to_object_type} {to_object_id}")
    remove_type(db, f_type, f_id, t_type, t_id, kind)
    kinds = {r["typeId"]: r for r in db.select(association_labels, "", [])}
    left = sorted(r["typeId"] for r in pair_rows(db, f_type, f_id, t_type, t_id))
    return AssociationResult(
        fromObjectId=from_object_id,
        toObjectId=to_object_id,
        associationTypes=[type_object(kinds[t]) for t in left],
        changed=[],
    )


# ---------------------------------------------------------------- tasks and notes


@tool()
def create_task(
    db: Database,
    hs_task_subject: Annotated[str, Field(min_length=1, max_length=200)],
    hs_timestamp: IsoTimestamp,
    hs_task_body: Annotated[str, text(5000)] | None = None,
    hs_task_type: TaskType = "TODO",
    hs_task_priority: TaskPriority = "NONE",
    hs_task_status: TaskStatus = "NOT_STARTED",
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Create a task (POST /crm/v3/objects/tasks); associate it to records with associate_records.

    Args:
        hs_task_subject: The task's title.
        hs_timestamp: When it is due, ISO 8601 (e.g. 2026-03-20T09:00:00Z).
        hs_task_body: Notes for the task.
        hs_task_type: TODO, CALL or EMAIL.
        hs_task_priority: NONE, LOW, MEDIUM or HIGH.
        hs_task_status: NOT_STARTED, IN_PROGRESS, WAITING, COMPLETED or DEFERRED.
        hubspot_owner_id: Who the task is assigned to (owner id).
    """
    signed_in(db)
    values = dict(hs_task_subject=hs_task_subject.strip(), hs_timestamp=timestamp(hs_timestamp, "hs_timestamp"))
    values.update(hs_task_body=hs_task_body, hs_task_type=hs_task_type, hs_task_priority=hs_task_priority)
    values.update(hs_task_status=hs_task_status, hubspot_owner_id=hubspot_owner_id)
    return out(db, "tasks", create(db, "tasks", values))


@tool()
def update_task(
    db: Database,
    task_id: RecordId,
    hs_task_subject: Annotated[str, Field(min_length=1, max_length=200)] | None = None,
    hs_timestamp: IsoTimestamp | None = None,
    hs_task_body: Annotated[str, text(5000)] | None = None,
    hs_task_priority: TaskPriority | None = None,
    hs_task_status: TaskStatus | None = None,
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Update a task (PATCH /crm/v3/objects/tasks/{taskId}): complete it, reschedule it, reassign it.

    Args:
        task_id: The task's record id.
        hs_task_subject: The task's title.
        hs_timestamp: New due time, ISO 8601.
        hs_task_body: Notes for the task.
        hs_task_priority: NONE, LOW, MEDIUM or HIGH.
        hs_task_status: NOT_STARTED, IN_PROGRESS, WAITING, COMPLETED or DEFERRED.
        hubspot_owner_id: Who the task is assigned to ("" unassigns).
    """
    signed_in(db)
    values = dict(hs_task_subject=hs_task_subject, hs_task_body=hs_task_body, hs_task_priority=hs_task_priority)
    values.update(hs_timestamp=timestamp(hs_timestamp, "hs_timestamp") if hs_timestamp else None)
    values.update(hs_task_status=hs_task_status, hubspot_owner_id=hubspot_owner_id)
    return out(db, "tasks", update(db, "tasks", task_id, values))


@tool()
def create_note(
    db: Database,
    hs_note_body: Annotated[str, Field(min_length=1, max_length=65536)],
    hubspot_owner_id: OwnerId | None = None,
) -> Record:
    """Log a note (POST /crm/v3/objects/notes), time-stamped now; associate it to records with associate_records.

    Args:
        hs_note_body: The note's text.
        hubspot_owner_id: The owner the note is attributed to; the signed-in user when omitted.
    """
    me = signed_in(db)
    owner = me["id"] if hubspot_owner_id is None else hubspot_owner_id
    values = dict(hs_note_body=hs_note_body, hs_timestamp=db.now_iso(), hubspot_owner_id=owner)
    return out(db, "notes", create(db, "notes", values))
