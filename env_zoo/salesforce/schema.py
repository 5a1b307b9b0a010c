"""Salesforce sObjects as tables, one per object, with columns named as the API names its fields: users and their
sign-in, leads, accounts, contacts, opportunities and their contact roles, cases and case comments, and tasks.
Ids are 18-character Salesforce ids whose first three characters name the object (001 Account, 003 Contact, 006
Opportunity, 500 Case, 00T Task, 00Q Lead, 005 User). Deleted records stay with IsDeleted set (the Recycle Bin)."""

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "user",
    metadata,
    Column("Id", String, primary_key=True),
    Column("Name", String, nullable=False),
    Column("Username", String, nullable=False),
    Column("Email", String, nullable=False),
    Column("Title", String),
    Column("Profile", String, nullable=False),  # System Administrator | Sales User | Support User
    Column("ManagerId", String, ForeignKey("user.Id")),
    Column("IsActive", Boolean, nullable=False),
    Column("Password", String, nullable=False),
)

sessions = Table(
    "session",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("user.Id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

accounts = Table(
    "account",
    metadata,
    Column("Id", String, primary_key=True),
    Column("Name", String, nullable=False),
    Column("Type", String),  # Prospect | Customer - Direct | Customer - Channel | Channel Partner / Reseller | Other
    Column("Industry", String),
    Column("Rating", String),  # Hot | Warm | Cold
    Column("Phone", String),
    Column("Website", String),
    Column("BillingCity", String),
    Column("BillingState", String),
    Column("BillingCountry", String),
    Column("AnnualRevenue", Float),
    Column("NumberOfEmployees", Integer),
    Column("ParentId", String, ForeignKey("account.Id")),
    Column("OwnerId", String, ForeignKey("user.Id"), nullable=False),
    Column("IsDeleted", Boolean, nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Column("LastModifiedDate", String, nullable=False, info={"volatile": True}),
    Index("ix_account_name", "Name"),
)

contacts = Table(
    "contact",
    metadata,
    Column("Id", String, primary_key=True),
    Column("AccountId", String, ForeignKey("account.Id")),
    Column("FirstName", String),
    Column("LastName", String, nullable=False),
    Column("Name", String, nullable=False),
    Column("Title", String),
    Column("Email", String),
    Column("Phone", String),
    Column("MailingCity", String),
    Column("OwnerId", String, ForeignKey("user.Id"), nullable=False),
    Column("IsDeleted", Boolean, nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Column("LastModifiedDate", String, nullable=False, info={"volatile": True}),
    Index("ix_contact_account", "AccountId"),
)

opportunities = Table(
    "opportunity",
    metadata,
    Column("Id", String, primary_key=True),
    Column("Name", String, nullable=False),
    Column("AccountId", String, ForeignKey("account.Id")),
    Column("StageName", String, nullable=False),
    Column("Probability", Float, nullable=False),
    Column("ForecastCategoryName", String, nullable=False),
    Column("Amount", Float),
    Column("CloseDate", String, nullable=False),
    Column("Type", String),  # New Business | Existing Business - Upgrade | Existing Business - Renewal
    Column("LeadSource", String),
    Column("NextStep", String),
    Column("Loss_Reason__c", String),  # custom picklist, required by a validation rule for Closed Lost
    Column("IsClosed", Boolean, nullable=False),
    Column("IsWon", Boolean, nullable=False),
    Column("OwnerId", String, ForeignKey("user.Id"), nullable=False),
    Column("IsDeleted", Boolean, nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Column("LastModifiedDate", String, nullable=False, info={"volatile": True}),
    Index("ix_opportunity_account", "AccountId"),
)

contact_roles = Table(
    "opportunitycontactrole",
    metadata,
    Column("Id", String, primary_key=True),
    Column("OpportunityId", String, ForeignKey("opportunity.Id"), nullable=False),
    Column("ContactId", String, ForeignKey("contact.Id"), nullable=False),
    Column("Role", String),  # Decision Maker | Economic Buyer | Technical Buyer | Evaluator | Influencer | ...
    Column("IsPrimary", Boolean, nullable=False),
    Index("ix_ocr_opportunity", "OpportunityId"),
)

cases = Table(
    "case",
    metadata,
    Column("Id", String, primary_key=True),
    Column("CaseNumber", String, nullable=False),
    Column("AccountId", String, ForeignKey("account.Id")),
    Column("ContactId", String, ForeignKey("contact.Id")),
    Column("Subject", String),
    Column("Description", String),
    Column("Status", String, nullable=False),  # New | Working | Escalated | Closed
    Column("Priority", String, nullable=False),  # High | Medium | Low
    Column("Origin", String, nullable=False),  # Phone | Email | Web
    Column("Type", String),  # Question | Problem | Feature Request
    Column("Reason", String),  # required by a validation rule to close
    Column("IsClosed", Boolean, nullable=False),
    Column("IsEscalated", Boolean, nullable=False),
    Column("ClosedDate", String, info={"volatile": True}),
    Column("OwnerId", String, ForeignKey("user.Id"), nullable=False),
    Column("IsDeleted", Boolean, nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Column("LastModifiedDate", String, nullable=False, info={"volatile": True}),
    Index("ix_case_account", "AccountId"),
)

case_comments = Table(
    "casecomment",
    metadata,
    Column("Id", String, primary_key=True),
    Column("ParentId", String, ForeignKey("case.Id"), nullable=False),
    Column("CommentBody", String, nullable=False),
    Column("IsPublished", Boolean, nullable=False),
    Column("CreatedById", String, ForeignKey("user.Id"), nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Index("ix_comment_case", "ParentId"),
)

tasks = Table(
    "task",
    metadata,
    Column("Id", String, primary_key=True),
    Column("Subject", String, nullable=False),
    Column(
        "Status", String, nullable=False
    ),  # Not Started | In Progress | Completed | Waiting on someone else | Deferred
    Column("Priority", String, nullable=False),  # High | Normal | Low
    Column("ActivityDate", String),
    Column("WhoId", String),  # a contact or lead
    Column("WhatId", String),  # an account, opportunity or case
    Column("Description", String),
    Column("IsClosed", Boolean, nullable=False),
    Column("OwnerId", String, ForeignKey("user.Id"), nullable=False),
    Column("IsDeleted", Boolean, nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Column("LastModifiedDate", String, nullable=False, info={"volatile": True}),
    Index("ix_task_what", "WhatId"),
    Index("ix_task_who", "WhoId"),
)

leads = Table(
    "lead",
    metadata,
    Column("Id", String, primary_key=True),
    Column("FirstName", String),
    Column("LastName", String, nullable=False),
    Column("Name", String, nullable=False),
    Column("Company", String, nullable=False),
    Column("Title", String),
    Column("Email", String),
    Column("Phone", String),
    Column("LeadSource", String),
    Column("Status", String, nullable=False),  # Open - Not Contacted | Working - Contacted | Closed - Converted | ...
    Column("IsConverted", Boolean, nullable=False),
    Column("ConvertedAccountId", String, ForeignKey("account.Id")),
    Column("ConvertedContactId", String, ForeignKey("contact.Id")),
    Column("ConvertedOpportunityId", String, ForeignKey("opportunity.Id")),
    Column("OwnerId", String, ForeignKey("user.Id"), nullable=False),
    Column("IsDeleted", Boolean, nullable=False),
    Column("CreatedDate", String, nullable=False, info={"volatile": True}),
    Column("LastModifiedDate", String, nullable=False, info={"volatile": True}),
)
