"""Salesforce REST API tools as a signed-in user of one org sees them: SOQL queries and search, records of the
standard sObjects (accounts, contacts, opportunities and their contact roles, cases and case comments, tasks,
leads and lead conversion), object descriptions, and deleting to the Recycle Bin; plus the user's own log-in."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied, tool

from . import soql
from .access import check_can_delete, me
from .objects import (
    Account,
    Case,
    CaseComment,
    Contact,
    ContactRole,
    FieldDescription,
    Lead,
    LeadConvertResult,
    Opportunity,
    SaveResult,
    SearchRecord,
    SObjectDescription,
    StagePicklistValue,
    Task,
    UserInfo,
    record,
)  # fmt: skip
from .picklists import (
    PICKLIST_VALUES,
    AccountType,
    CaseOrigin,
    CasePriority,
    CaseReason,
    CaseStatus,
    CaseType,
    CloseDate,
    CommentBody,
    Company,
    ContactRoleName,
    ConvertedStatus,
    Day,
    Deletable,
    Email,
    Employees,
    FirstName,
    Industry,
    LastName,
    LeadSource,
    LeadStatus,
    LongText,
    LossReason,
    Money,
    Name,
    OpportunityName,
    OpportunityType,
    Percent,
    Rating,
    RecordId,
    SearchText,
    ShortText,
    SObjectName,
    SoqlText,
    StageName,
    Subject,
    TaskPriority,
    TaskStatus,
)  # fmt: skip
from .records import (
    MODELS,
    check_duplicates,
    delete_blockers,
    field_type,
    full_record,
    given,
    new_id,
    next_case_number,
    quarter_end,
    recycle,
    save,
)  # fmt: skip
from .rules import (
    PREFIXES,
    STAGES,
    VALIDATION_RULES,
    active_owner,
    check_case,
    check_opportunity,
    live,
    reference,
    sf_error,
    stage_fields,
)  # fmt: skip
from .schema import (
    accounts,
    case_comments,
    cases,
    contact_roles,
    contacts,
    leads,
    opportunities,
    sessions,
    tasks,
    users,
)  # fmt: skip

# ---------------------------------------------------------------- session, query, search, describe


@tool(user_only=True)
def sign_in(db: Database, username: ShortText, password: ShortText) -> UserInfo:
    """(User only) The user logs in to Salesforce so the assistant can act with their session.

    Args:
        username: The Salesforce username (an email-style login).
        password: The password.
    """
    found = db.find(users, Username=username.strip().lower())
    if not found or found[0]["Password"] != password or not found[0]["IsActive"]:
        raise PermissionDenied("INVALID_LOGIN: Invalid username, password, security token; or user locked out.")
    db.start_session(sessions, user_id=found[0]["Id"])
    return record(UserInfo, found[0])


@tool(read_only=True)
def get_user_info(db: Database) -> UserInfo:
    """Who the assistant is acting as: the signed-in user's id, name, username, title and profile (their id is the
    OwnerId of their records)."""
    return record(UserInfo, me(db))


@tool(read_only=True)
def query(db: Database, q: SoqlText) -> dict[str, Any]:
    """Run a SOQL query: SELECT fields (parent fields as Account.Name, Owner.Name, Who.Name, What.Name; or
    COUNT()) FROM Account, Contact, Opportunity, OpportunityContactRole, Case, Task, Lead or User, with WHERE
    (=, !=, <, <=, >, >=, LIKE with %, IN, NOT IN; AND, OR, parentheses), ORDER BY, LIMIT and OFFSET. Strings
    are single-quoted; dates are bare (2026-03-31) or TODAY, LAST_N_DAYS:n, NEXT_N_DAYS:n. Deleted records are
    left out. Answers {totalSize, done, records}; at most 200 records a call (page with LIMIT and OFFSET).

    Args:
        q: The SOQL statement, e.g. SELECT Id, Name, StageName FROM Opportunity WHERE Account.Name = 'Acme'.
    """
    me(db)
    return soql.run(db, q)


@tool(read_only=True)
def search(db: Database, text: SearchText, sobjects: list[SObjectName] | None = None) -> list[SearchRecord]:
    """Search records by name (accounts, contacts, leads, opportunities, users), email (contacts, leads, users) or
    subject and case number (cases), case-insensitively, like the global search box.

    Args:
        text: What the name, email, subject or case number contains.
        sobjects: Only these objects (default: all of them).
    """
    me(db)
    pattern = f"%{text.strip().lower()}%"
    columns = {"Account": ("Name",), "Contact": ("Name", "Email"), "Lead": ("Name", "Email", "Company"),
               "Opportunity": ("Name",), "Case": ("Subject", "CaseNumber"), "User": ("Name", "Email")}  # fmt: skip
    found: list[SearchRecord] = []
    for sobject, cols in columns.items():
        if sobjects and sobject not in sobjects:
            continue
        where = " OR ".join(f"lower(coalesce(\"{c}\", '')) LIKE ?" for c in cols)
        deleted = '"IsDeleted" = 0 AND ' if sobject != "User" else ""
        for row in db.select(PREFIXES[sobject][1], f"{deleted}({where})", [pattern] * len(cols), limit=50):
            label = f"{row['CaseNumber']} {row['Subject']}" if sobject == "Case" else row["Name"]
            found.append(SearchRecord(type=sobject, Id=row["Id"], Name=label))
    return found


@tool(read_only=True)
def get_record(db: Database, sobject: SObjectName, record_id: RecordId) -> dict[str, Any]:
    """Retrieve one record with all its fields; an opportunity comes with its contact roles, a case with its
    comments.

    Args:
        sobject: The record's object (Account, Contact, Opportunity, Case, Task, Lead, User).
        record_id: The record's id.
    """
    me(db)
    return full_record(db, sobject, live(db, sobject, record_id))


@tool(read_only=True)
def describe_sobject(db: Database, sobject: SObjectName) -> SObjectDescription:
    """Describe an object: its fields with their types and picklist values, its key prefix, this org's validation
    rules on it and, for Opportunity, each stage's default probability and forecast category.

    Args:
        sobject: The object to describe.
    """
    me(db)
    prefix, table = PREFIXES[sobject]
    model = MODELS[sobject]
    fields = [
        FieldDescription(
            name=c.name,
            type=field_type(sobject, c),
            nillable=c.nullable,
            picklistValues=PICKLIST_VALUES.get((sobject, c.name), []),
        )
        for c in table.columns
        if c.name in model.model_fields
    ]
    rules = {
        "Opportunity": (
            "Loss_Reason_Required",
            "Close_Date_Not_In_Past",
            "Amount_Required_To_Win",
            "Closed_Won_Locked",
        ),
        "Case": ("Case_Reason_To_Close", "Escalation_Needs_High_Priority"),
    }
    stages = [StagePicklistValue(value=s, defaultProbability=p, forecastCategory=f, closed=c, won=w)
              for s, (p, f, c, w) in STAGES.items()] if sobject == "Opportunity" else []  # fmt: skip
    return SObjectDescription(
        name=sobject, keyPrefix=prefix, fields=fields,
        validationRules=[f"{r}: {VALIDATION_RULES[r]}" for r in rules.get(sobject, ())], stages=stages,
    )  # fmt: skip


@tool()
def delete_record(db: Database, sobject: Deletable, record_id: RecordId) -> list[str]:
    """Delete a record to the Recycle Bin; an account takes its contacts, opportunities and their tasks with it.
    Only the owner, the owner's manager or an administrator may delete; an account with cases or Closed Won
    opportunities, or a contact with cases, cannot be deleted. Answers the ids moved to the Recycle Bin.

    Args:
        sobject: The record's object.
        record_id: The record's id.
    """
    row = live(db, sobject, record_id)
    check_can_delete(db, row)
    delete_blockers(db, sobject, row)
    return recycle(db, sobject, row)


# ---------------------------------------------------------------- accounts and contacts


@tool()
def create_account(
    db: Database,
    Name: Name,
    Type: AccountType | None = None,
    Industry: Industry | None = None,
    Rating: Rating | None = None,
    Phone: ShortText | None = None,
    Website: ShortText | None = None,
    BillingCity: ShortText | None = None,
    BillingState: ShortText | None = None,
    BillingCountry: ShortText | None = None,
    NumberOfEmployees: Employees | None = None,
    ParentId: RecordId | None = None,
    OwnerId: RecordId | None = None,
    allowSave: bool = False,
) -> SaveResult:
    """Create an account. The duplicate rule refuses a name an existing account has (DUPLICATES_DETECTED) unless
    allowSave is true.

    Args:
        Name: The company's name.
        Type: Prospect, Customer - Direct, Customer - Channel, Channel Partner / Reseller or Other.
        Industry: The industry.
        Rating: Hot, Warm or Cold.
        Phone: Main phone.
        Website: Web address.
        BillingCity: Billing city.
        BillingState: Billing state or province.
        BillingCountry: Billing country.
        NumberOfEmployees: Head count.
        ParentId: The parent account, for a subsidiary.
        OwnerId: The owning user (default: you).
        allowSave: Save even when the duplicate rule finds a match.
    """
    user = me(db)
    check_duplicates(db, accounts, "Name", Name, allowSave)
    if ParentId is not None:
        reference(db, "ParentId", ("Account",), ParentId)
    account_id = new_id(db, "Account")
    now = db.now_iso()
    db.insert(
        accounts, Id=account_id, Name=Name.strip(), Type=Type, Industry=Industry, Rating=Rating, Phone=Phone,
        Website=Website, BillingCity=BillingCity, BillingState=BillingState, BillingCountry=BillingCountry,
        AnnualRevenue=None, NumberOfEmployees=NumberOfEmployees, ParentId=ParentId,
        OwnerId=active_owner(db, OwnerId or user["Id"]), IsDeleted=False, CreatedDate=now, LastModifiedDate=now,
    )  # fmt: skip
    return SaveResult(id=account_id)


@tool()
def update_account(
    db: Database,
    record_id: RecordId,
    Name: Name | None = None,
    Type: AccountType | None = None,
    Industry: Industry | None = None,
    Rating: Rating | None = None,
    Phone: ShortText | None = None,
    Website: ShortText | None = None,
    BillingCity: ShortText | None = None,
    BillingState: ShortText | None = None,
    NumberOfEmployees: Employees | None = None,
    OwnerId: RecordId | None = None,
) -> Account:
    """Update an account's fields (only those given change).

    Args:
        record_id: The account's id.
        Name: New name.
        Type: New type.
        Industry: New industry.
        Rating: Hot, Warm or Cold.
        Phone: New phone.
        Website: New web address.
        BillingCity: New billing city.
        BillingState: New billing state.
        NumberOfEmployees: New head count.
        OwnerId: New owner (an active user).
    """
    me(db)
    row = live(db, "Account", record_id)
    if OwnerId is not None:
        active_owner(db, OwnerId)
    changes = given(Name=Name, Type=Type, Industry=Industry, Rating=Rating, Phone=Phone, Website=Website,
                    BillingCity=BillingCity, BillingState=BillingState, NumberOfEmployees=NumberOfEmployees,
                    OwnerId=OwnerId)  # fmt: skip
    return record(Account, save(db, accounts, row, changes))


@tool()
def create_contact(
    db: Database,
    LastName: LastName,
    FirstName: FirstName | None = None,
    AccountId: RecordId | None = None,
    Title: ShortText | None = None,
    Email: Email | None = None,
    Phone: ShortText | None = None,
    MailingCity: ShortText | None = None,
    OwnerId: RecordId | None = None,
    allowSave: bool = False,
) -> SaveResult:
    """Create a contact, usually at an account. The duplicate rule refuses an email another contact has
    (DUPLICATES_DETECTED) unless allowSave is true.

    Args:
        LastName: Last name (required).
        FirstName: First name.
        AccountId: The account the person works at.
        Title: Job title.
        Email: Email address.
        Phone: Phone.
        MailingCity: City.
        OwnerId: The owning user (default: you).
        allowSave: Save even when the duplicate rule finds a match.
    """
    user = me(db)
    check_duplicates(db, contacts, "Email", Email, allowSave)
    if AccountId is not None:
        reference(db, "AccountId", ("Account",), AccountId)
    contact_id = new_id(db, "Contact")
    now = db.now_iso()
    name = " ".join(filter(None, [FirstName, LastName.strip()]))
    db.insert(
        contacts, Id=contact_id, AccountId=AccountId, FirstName=FirstName, LastName=LastName.strip(), Name=name,
        Title=Title, Email=Email, Phone=Phone, MailingCity=MailingCity, OwnerId=active_owner(db, OwnerId or user["Id"]),
        IsDeleted=False, CreatedDate=now, LastModifiedDate=now,
    )  # fmt: skip
    return SaveResult(id=contact_id)


@tool()
def update_contact(
    db: Database,
    record_id: RecordId,
    FirstName: FirstName | None = None,
    LastName: LastName | None = None,
    AccountId: RecordId | None = None,
    Title: ShortText | None = None,
    Email: Email | None = None,
    Phone: ShortText | None = None,
    MailingCity: ShortText | None = None,
    OwnerId: RecordId | None = None,
) -> Contact:
    """Update a contact's fields (only those given change); AccountId moves the person to another account.

    Args:
        record_id: The contact's id.
        FirstName: New first name.
        LastName: New last name.
        AccountId: The account they now work at.
        Title: New job title.
        Email: New email.
        Phone: New phone.
        MailingCity: New city.
        OwnerId: New owner (an active user).
    """
    me(db)
    row = live(db, "Contact", record_id)
    if AccountId is not None:
        reference(db, "AccountId", ("Account",), AccountId)
    if OwnerId is not None:
        active_owner(db, OwnerId)
    changes = given(FirstName=FirstName, LastName=LastName, AccountId=AccountId, Title=Title, Email=Email,
                    Phone=Phone, MailingCity=MailingCity, OwnerId=OwnerId)  # fmt: skip
    if FirstName is not None or LastName is not None:
        first = FirstName if FirstName is not None else row["FirstName"]
        changes["Name"] = " ".join(filter(None, [first, (LastName or row["LastName"]).strip()]))
    return record(Contact, save(db, contacts, row, changes))


# ---------------------------------------------------------------- opportunities


@tool()
def create_opportunity(
    db: Database,
    Name: OpportunityName,
    StageName: StageName,
    CloseDate: CloseDate,
    AccountId: RecordId | None = None,
    Amount: Money | None = None,
    Probability: Percent | None = None,
    Type: OpportunityType | None = None,
    LeadSource: LeadSource | None = None,
    NextStep: ShortText | None = None,
    OwnerId: RecordId | None = None,
) -> SaveResult:
    """Create an opportunity. The stage sets Probability (unless given) and the forecast category; the org's
    validation rules apply (an open one may not close in the past, Closed Won needs an Amount, Closed Lost needs a
    Loss Reason, so create those open and close them with an update).

    Args:
        Name: The deal's name, e.g. "Acme - Platform renewal 2026".
        StageName: The stage (see describe_sobject for the picklist and probabilities).
        CloseDate: Expected close date.
        AccountId: The customer account.
        Amount: Deal value in USD.
        Probability: Percent (0-100) to use instead of the stage's default.
        Type: New Business, Existing Business - Upgrade or Existing Business - Renewal.
        LeadSource: Where the deal came from.
        NextStep: The next step, in a few words.
        OwnerId: The owning user (default: you).
    """
    user = me(db)
    if AccountId is not None:
        reference(db, "AccountId", ("Account",), AccountId)
    values = {"Name": Name.strip(), "AccountId": AccountId, **stage_fields(StageName, Probability), "Amount": Amount,
              "CloseDate": CloseDate, "Type": Type, "LeadSource": LeadSource, "NextStep": NextStep,
              "Loss_Reason__c": None}  # fmt: skip
    check_opportunity(db, None, values)
    opportunity_id = new_id(db, "Opportunity")
    now = db.now_iso()
    db.insert(opportunities, Id=opportunity_id, **values, OwnerId=active_owner(db, OwnerId or user["Id"]),
              IsDeleted=False, CreatedDate=now, LastModifiedDate=now)  # fmt: skip
    return SaveResult(id=opportunity_id)


@tool()
def update_opportunity(
    db: Database,
    record_id: RecordId,
    StageName: StageName | None = None,
    CloseDate: Day | None = None,
    Amount: Money | None = None,
    Probability: Percent | None = None,
    NextStep: ShortText | None = None,
    Loss_Reason__c: LossReason | None = None,
    Name: OpportunityName | None = None,
    Type: OpportunityType | None = None,
    OwnerId: RecordId | None = None,
) -> Opportunity:
    """Update an opportunity (only the fields given change). A new stage sets its default Probability (unless one
    is given) and forecast category, and closes the deal at Closed Won or Closed Lost. The org's validation rules
    run on the saved record: Closed Lost needs Loss_Reason__c, Closed Won needs an Amount, an open deal may not
    have a CloseDate in the past (even when another field is what changes), and Closed Won deals are locked.

    Args:
        record_id: The opportunity's id.
        StageName: New stage.
        CloseDate: New expected close date.
        Amount: New amount in USD.
        Probability: Percent (0-100) to use instead of the stage's default.
        NextStep: The next step.
        Loss_Reason__c: Why a lost deal was lost (Price, Competitor, No Budget, No Decision, Timing, Product Fit).
        Name: New name.
        Type: New type.
        OwnerId: New owner (an active user).
    """
    me(db)
    row = live(db, "Opportunity", record_id)
    if OwnerId is not None:
        active_owner(db, OwnerId)
    changes = given(CloseDate=CloseDate, Amount=Amount, NextStep=NextStep, Loss_Reason__c=Loss_Reason__c, Name=Name,
                    Type=Type, OwnerId=OwnerId, Probability=Probability)  # fmt: skip
    if StageName is not None and StageName != row["StageName"]:
        changes |= stage_fields(StageName, Probability)
    check_opportunity(db, row, row | changes)
    return record(Opportunity, save(db, opportunities, row, changes))


@tool()
def add_opportunity_contact_role(
    db: Database,
    OpportunityId: RecordId,
    ContactId: RecordId,
    Role: ContactRoleName | None = None,
    IsPrimary: bool = False,
) -> ContactRole:
    """Name a contact's role in an opportunity (once per contact); a primary contact replaces the previous one.

    Args:
        OpportunityId: The opportunity.
        ContactId: The contact.
        Role: Decision Maker, Economic Buyer, Technical Buyer, Evaluator, Influencer, ...
        IsPrimary: Make this the opportunity's primary contact.
    """
    me(db)
    live(db, "Opportunity", OpportunityId)
    contact = reference(db, "ContactId", ("Contact",), ContactId)
    taken = db.find(contact_roles, OpportunityId=OpportunityId, ContactId=ContactId)
    if taken:
        raise sf_error("DUPLICATE_VALUE", f"duplicate value found: ContactId duplicates value on record with id: "
                       f"{taken[0]['Id']}", ["ContactId"])  # fmt: skip
    if IsPrimary:
        for other in db.find(contact_roles, OpportunityId=OpportunityId, IsPrimary=True):
            db.update(contact_roles, other["Id"], IsPrimary=False)
    role_id = db.new_id(contact_roles, "00KHs00000", width=8)
    db.insert(contact_roles, Id=role_id, OpportunityId=OpportunityId, ContactId=ContactId, Role=Role,
              IsPrimary=IsPrimary)  # fmt: skip
    return ContactRole(Id=role_id, ContactId=ContactId, ContactName=contact["Name"], Role=Role, IsPrimary=IsPrimary)


# ---------------------------------------------------------------- cases


@tool()
def create_case(
    db: Database,
    Subject: Subject,
    Origin: CaseOrigin,
    ContactId: RecordId | None = None,
    AccountId: RecordId | None = None,
    Description: LongText | None = None,
    Priority: CasePriority = "Medium",
    Type: CaseType | None = None,
    Status: CaseStatus = "New",
    OwnerId: RecordId | None = None,
) -> SaveResult:
    """Open a support case; it gets the next case number. With a contact and no account, the contact's account
    is used. The org's case validation rules apply (escalated cases need High priority).

    Args:
        Subject: One line on the problem.
        Origin: How it came in: Phone, Email or Web.
        ContactId: The customer contact who reported it.
        AccountId: The customer account.
        Description: Details.
        Priority: High, Medium or Low.
        Type: Question, Problem or Feature Request.
        Status: New, Working or Escalated.
        OwnerId: The owning user (default: you).
    """
    user = me(db)
    if ContactId is not None:
        contact = reference(db, "ContactId", ("Contact",), ContactId)
        AccountId = AccountId or contact["AccountId"]
    if AccountId is not None:
        reference(db, "AccountId", ("Account",), AccountId)
    values = {"Subject": Subject.strip(), "Origin": Origin, "ContactId": ContactId, "AccountId": AccountId,
              "Description": Description, "Priority": Priority, "Type": Type, "Status": Status, "Reason": None,
              "IsEscalated": Status == "Escalated", "IsClosed": Status == "Closed"}  # fmt: skip
    check_case(values)
    case_id = new_id(db, "Case")
    now = db.now_iso()
    closed = now if Status == "Closed" else None
    db.insert(cases, Id=case_id, CaseNumber=next_case_number(db), **values, ClosedDate=closed,
              OwnerId=active_owner(db, OwnerId or user["Id"]), IsDeleted=False, CreatedDate=now,
              LastModifiedDate=now)  # fmt: skip
    return SaveResult(id=case_id)


@tool()
def update_case(
    db: Database,
    record_id: RecordId,
    Status: CaseStatus | None = None,
    Priority: CasePriority | None = None,
    Reason: CaseReason | None = None,
    IsEscalated: bool | None = None,
    Type: CaseType | None = None,
    Subject: Subject | None = None,
    OwnerId: RecordId | None = None,
) -> Case:
    """Update a case (only the fields given change). Closed sets ClosedDate; a closed case reopens with any other
    status. The org's validation rules run on the saved case: closing needs a Case Reason, and an escalated case
    (Status Escalated or IsEscalated) needs Priority High.

    Args:
        record_id: The case's id.
        Status: New, Working, Escalated or Closed.
        Priority: High, Medium or Low.
        Reason: Installation, User Education, Performance, Breakdown, Billing, Feedback or Other.
        IsEscalated: Flag the case as escalated.
        Type: Question, Problem or Feature Request.
        Subject: New subject.
        OwnerId: New owner (an active user), to hand the case over.
    """
    me(db)
    row = live(db, "Case", record_id)
    if OwnerId is not None:
        active_owner(db, OwnerId)
    changes = given(Status=Status, Priority=Priority, Reason=Reason, IsEscalated=IsEscalated, Type=Type,
                    Subject=Subject, OwnerId=OwnerId)  # fmt: skip
    if Status is not None:
        changes["IsClosed"] = Status == "Closed"
        changes["ClosedDate"] = (row["ClosedDate"] or db.now_iso()) if Status == "Closed" else None
        if Status == "Escalated" and IsEscalated is None:
            changes["IsEscalated"] = True
    check_case(row | changes)
    return Case(**full_record(db, "Case", save(db, cases, row, changes)))


@tool()
def add_case_comment(
    db: Database, ParentId: RecordId, CommentBody: CommentBody, IsPublished: bool = False
) -> CaseComment:
    """Add a comment to a case; a published comment is visible to the customer, an unpublished one is internal.

    Args:
        ParentId: The case's id.
        CommentBody: The comment's text.
        IsPublished: Show it to the customer.
    """
    user = me(db)
    live(db, "Case", ParentId)
    comment = db.insert(case_comments, Id=db.new_id(case_comments, "00aHs00000", width=8), ParentId=ParentId,
                        CommentBody=CommentBody, IsPublished=IsPublished, CreatedById=user["Id"],
                        CreatedDate=db.now_iso())  # fmt: skip
    return record(CaseComment, comment)


# ---------------------------------------------------------------- tasks


@tool()
def create_task(
    db: Database,
    Subject: Subject,
    ActivityDate: Day | None = None,
    WhoId: RecordId | None = None,
    WhatId: RecordId | None = None,
    Priority: TaskPriority = "Normal",
    Status: TaskStatus = "Not Started",
    Description: LongText | None = None,
    OwnerId: RecordId | None = None,
) -> SaveResult:
    """Create a task (a to-do, or a call or email logged as Completed) about a person (WhoId: a contact or lead)
    and/or a record (WhatId: an account, opportunity or case).

    Args:
        Subject: What to do, e.g. "Call" or "Send pricing".
        ActivityDate: Due date.
        WhoId: The contact or lead it concerns.
        WhatId: The account, opportunity or case it relates to.
        Priority: High, Normal or Low.
        Status: Not Started, In Progress, Completed, Waiting on someone else or Deferred.
        Description: Notes (comments).
        OwnerId: Who should do it (default: you).
    """
    user = me(db)
    if WhoId is not None:
        reference(db, "WhoId", ("Contact", "Lead"), WhoId)
    if WhatId is not None:
        reference(db, "WhatId", ("Account", "Opportunity", "Case"), WhatId)
    task_id = new_id(db, "Task")
    now = db.now_iso()
    db.insert(tasks, Id=task_id, Subject=Subject.strip(), Status=Status, Priority=Priority, ActivityDate=ActivityDate,
              WhoId=WhoId, WhatId=WhatId, Description=Description, IsClosed=Status == "Completed",
              OwnerId=active_owner(db, OwnerId or user["Id"]), IsDeleted=False, CreatedDate=now,
              LastModifiedDate=now)  # fmt: skip
    return SaveResult(id=task_id)


@tool()
def update_task(
    db: Database,
    record_id: RecordId,
    Status: TaskStatus | None = None,
    ActivityDate: Day | None = None,
    Priority: TaskPriority | None = None,
    Description: LongText | None = None,
    OwnerId: RecordId | None = None,
) -> Task:
    """Update a task (only the fields given change); Completed closes it.

    Args:
        record_id: The task's id.
        Status: New status.
        ActivityDate: New due date.
        Priority: New priority.
        Description: New notes (replaces the old ones).
        OwnerId: Reassign to this active user.
    """
    me(db)
    row = live(db, "Task", record_id)
    if OwnerId is not None:
        active_owner(db, OwnerId)
    changes = given(Status=Status, ActivityDate=ActivityDate, Priority=Priority, Description=Description,
                    OwnerId=OwnerId)  # fmt: skip
    if Status is not None:
        changes["IsClosed"] = Status == "Completed"
    return record(Task, save(db, tasks, row, changes))


# ---------------------------------------------------------------- leads


@tool()
def create_lead(
    db: Database,
    LastName: LastName,
    Company: Company,
    FirstName: FirstName | None = None,
    Title: ShortText | None = None,
    Email: Email | None = None,
    Phone: ShortText | None = None,
    LeadSource: LeadSource | None = None,
    Status: LeadStatus = "Open - Not Contacted",
    OwnerId: RecordId | None = None,
    allowSave: bool = False,
) -> SaveResult:
    """Create a lead. The duplicate rule refuses an email another lead has (DUPLICATES_DETECTED) unless allowSave
    is true.

    Args:
        LastName: Last name (required).
        Company: The company (required).
        FirstName: First name.
        Title: Job title.
        Email: Email.
        Phone: Phone.
        LeadSource: Web, Phone Inquiry, Partner Referral, Trade Show, Word of mouth or Other.
        Status: Open - Not Contacted, Working - Contacted or Closed - Not Converted.
        OwnerId: The owning user (default: you).
        allowSave: Save even when the duplicate rule finds a match.
    """
    user = me(db)
    check_duplicates(db, leads, "Email", Email, allowSave)
    lead_id = new_id(db, "Lead")
    now = db.now_iso()
    db.insert(leads, Id=lead_id, FirstName=FirstName, LastName=LastName.strip(),
              Name=" ".join(filter(None, [FirstName, LastName.strip()])), Company=Company.strip(), Title=Title,
              Email=Email, Phone=Phone, LeadSource=LeadSource, Status=Status, IsConverted=False,
              ConvertedAccountId=None, ConvertedContactId=None, ConvertedOpportunityId=None,
              OwnerId=active_owner(db, OwnerId or user["Id"]), IsDeleted=False, CreatedDate=now,
              LastModifiedDate=now)  # fmt: skip
    return SaveResult(id=lead_id)


@tool()
def update_lead(
    db: Database,
    record_id: RecordId,
    Status: LeadStatus | None = None,
    Company: Company | None = None,
    Title: ShortText | None = None,
    Email: Email | None = None,
    Phone: ShortText | None = None,
    OwnerId: RecordId | None = None,
) -> Lead:
    """Update a lead (only the fields given change); a converted lead cannot be changed.

    Args:
        record_id: The lead's id.
        Status: Open - Not Contacted, Working - Contacted or Closed - Not Converted.
        Company: New company.
        Title: New job title.
        Email: New email.
        Phone: New phone.
        OwnerId: New owner (an active user).
    """
    me(db)
    row = live(db, "Lead", record_id)
    if row["IsConverted"]:
        raise sf_error("CANNOT_UPDATE_CONVERTED_LEAD", "cannot reference converted lead", ["Id"])
    if OwnerId is not None:
        active_owner(db, OwnerId)
    changes = given(Status=Status, Company=Company, Title=Title, Email=Email, Phone=Phone, OwnerId=OwnerId)
    return record(Lead, save(db, leads, row, changes))


@tool()
def convert_lead(
    db: Database,
    leadId: RecordId,
    convertedStatus: ConvertedStatus = "Closed - Converted",
    accountId: RecordId | None = None,
    contactId: RecordId | None = None,
    doNotCreateOpportunity: bool = False,
    opportunityName: OpportunityName | None = None,
    ownerId: RecordId | None = None,
) -> LeadConvertResult:
    """Convert a lead: into a new account named after its company (or into an existing account, accountId), a new
    contact (or an existing contact of that account, contactId) and, unless doNotCreateOpportunity, an opportunity
    at Prospecting closing at the end of the quarter. A converted lead cannot be converted or changed again.

    Args:
        leadId: The lead.
        convertedStatus: The converted lead status.
        accountId: Merge into this existing account instead of creating one.
        contactId: Merge into this existing contact of that account instead of creating one.
        doNotCreateOpportunity: Create no opportunity.
        opportunityName: The new opportunity's name (default: the company's name and a dash).
        ownerId: Owner of the new records (default: the lead's owner).
    """
    me(db)
    lead = live(db, "Lead", leadId)
    if lead["IsConverted"]:
        raise sf_error("CANNOT_UPDATE_CONVERTED_LEAD", "cannot reference converted lead", ["leadId"])
    owner = active_owner(db, ownerId or lead["OwnerId"])
    if contactId is not None and accountId is None:
        raise sf_error("REQUIRED_FIELD_MISSING", "Required fields are missing: [accountId]", ["accountId"])
    now = db.now_iso()
    if accountId is not None:
        reference(db, "accountId", ("Account",), accountId)
    else:
        accountId = new_id(db, "Account")
        db.insert(accounts, Id=accountId, Name=lead["Company"], Type="Prospect", Industry=None, Rating=None,
                  Phone=lead["Phone"], Website=None, BillingCity=None, BillingState=None, BillingCountry=None,
                  AnnualRevenue=None, NumberOfEmployees=None, ParentId=None, OwnerId=owner, IsDeleted=False,
                  CreatedDate=now, LastModifiedDate=now)  # fmt: skip
    if contactId is not None:
        if reference(db, "contactId", ("Contact",), contactId)["AccountId"] != accountId:
            raise sf_error("INVALID_CROSS_REFERENCE_KEY", "contactId: the contact does not belong to the account",
                           ["contactId"])  # fmt: skip
    else:
        contactId = new_id(db, "Contact")
        db.insert(contacts, Id=contactId, AccountId=accountId, FirstName=lead["FirstName"], LastName=lead["LastName"],
                  Name=lead["Name"], Title=lead["Title"], Email=lead["Email"], Phone=lead["Phone"], MailingCity=None,
                  OwnerId=owner, IsDeleted=False, CreatedDate=now, LastModifiedDate=now)  # fmt: skip
    opportunity_id = None
    if not doNotCreateOpportunity:
        opportunity_id = new_id(db, "Opportunity")
        db.insert(opportunities, Id=opportunity_id, Name=opportunityName or f"{lead['Company']}-",
                  AccountId=accountId, **stage_fields("Prospecting", None), Amount=None,
                  CloseDate=quarter_end(db.now().date()), Type="New Business", LeadSource=lead["LeadSource"],
                  NextStep=None, Loss_Reason__c=None, OwnerId=owner, IsDeleted=False, CreatedDate=now,
                  LastModifiedDate=now)  # fmt: skip
    save(db, leads, lead, {"Status": convertedStatus, "IsConverted": True, "ConvertedAccountId": accountId,
                           "ConvertedContactId": contactId, "ConvertedOpportunityId": opportunity_id})  # fmt: skip
    return LeadConvertResult(leadId=leadId, accountId=accountId, contactId=contactId, opportunityId=opportunity_id)
