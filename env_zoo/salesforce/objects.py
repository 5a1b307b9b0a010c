"""Salesforce's sObjects as output models, with the API's field names, and how stored rows become them."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def record(model: type[M], row: dict[str, Any]) -> M:
    """A stored row as an output model (columns carry the API's field names)."""
    return model(**{name: row[name] for name in model.model_fields if name in row})


class SaveResult(BaseModel):
    """What creating a record answers: its new id."""

    id: str
    success: bool = True
    errors: list[str] = []


class UserInfo(BaseModel):
    """A Salesforce user."""

    Id: str
    Name: str
    Username: str
    Email: str
    Title: str | None
    Profile: str
    IsActive: bool


class Account(BaseModel):
    """A company: a prospect, customer or partner."""

    Id: str
    Name: str
    Type: str | None
    Industry: str | None
    Rating: str | None
    Phone: str | None
    Website: str | None
    BillingCity: str | None
    BillingState: str | None
    BillingCountry: str | None
    AnnualRevenue: float | None
    NumberOfEmployees: int | None
    ParentId: str | None
    OwnerId: str
    CreatedDate: str


class Contact(BaseModel):
    """A person at an account."""

    Id: str
    AccountId: str | None
    FirstName: str | None
    LastName: str
    Name: str
    Title: str | None
    Email: str | None
    Phone: str | None
    MailingCity: str | None
    OwnerId: str


class ContactRole(BaseModel):
    """A contact's role in an opportunity."""

    Id: str
    ContactId: str
    ContactName: str
    Role: str | None
    IsPrimary: bool


class Opportunity(BaseModel):
    """A deal: its stage (with the stage's probability and forecast category), amount and close date."""

    Id: str
    Name: str
    AccountId: str | None
    StageName: str
    Probability: float
    ForecastCategoryName: str
    Amount: float | None
    CloseDate: str
    Type: str | None
    LeadSource: str | None
    NextStep: str | None
    Loss_Reason__c: str | None
    IsClosed: bool
    IsWon: bool
    OwnerId: str
    ContactRoles: list[ContactRole] = []


class CaseComment(BaseModel):
    """A comment on a case; published ones are visible to the customer."""

    Id: str
    CommentBody: str
    IsPublished: bool
    CreatedById: str
    CreatedDate: str


class Case(BaseModel):
    """A customer's support case."""

    Id: str
    CaseNumber: str
    AccountId: str | None
    ContactId: str | None
    Subject: str | None
    Description: str | None
    Status: str
    Priority: str
    Origin: str
    Type: str | None
    Reason: str | None
    IsClosed: bool
    IsEscalated: bool
    ClosedDate: str | None
    OwnerId: str
    CreatedDate: str
    CaseComments: list[CaseComment] = []


class Task(BaseModel):
    """A to-do or logged activity, about a person (WhoId) and/or a record (WhatId)."""

    Id: str
    Subject: str
    Status: str
    Priority: str
    ActivityDate: str | None
    WhoId: str | None
    WhatId: str | None
    Description: str | None
    IsClosed: bool
    OwnerId: str


class Lead(BaseModel):
    """A prospect not yet qualified; converting it makes an account, a contact and optionally an opportunity."""

    Id: str
    FirstName: str | None
    LastName: str
    Name: str
    Company: str
    Title: str | None
    Email: str | None
    Phone: str | None
    LeadSource: str | None
    Status: str
    IsConverted: bool
    ConvertedAccountId: str | None
    ConvertedContactId: str | None
    ConvertedOpportunityId: str | None
    OwnerId: str


class LeadConvertResult(BaseModel):
    """The records a lead conversion made or used."""

    leadId: str
    accountId: str
    contactId: str
    opportunityId: str | None
    success: bool = True


class SearchRecord(BaseModel):
    """One match of a search: its object, id and name (a case's subject and number)."""

    type: str
    Id: str
    Name: str


class StagePicklistValue(BaseModel):
    """One Opportunity stage with its default probability and forecast category."""

    value: str
    defaultProbability: int
    forecastCategory: str
    closed: bool
    won: bool


class FieldDescription(BaseModel):
    """One field of an sObject: its type, whether it must be set on create, and its picklist values."""

    name: str
    type: str
    nillable: bool
    picklistValues: list[str] = []


class SObjectDescription(BaseModel):
    """An sObject's fields, its key prefix, the org's validation rules on it and (Opportunity) its stages."""

    name: str
    keyPrefix: str
    fields: list[FieldDescription]
    validationRules: list[str] = []
    stages: list[StagePicklistValue] = []
