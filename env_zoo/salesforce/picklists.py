"""The argument types of the Salesforce tools: record ids (15 or 18 characters), the org's picklists (restricted:
any other value is refused with INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST) and text limits, each carrying the error
Salesforce answers when a value breaks it."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field

from envfactory_gym.fields import ErrorText, IsoDate

from .rules import STAGES


def _picklist(field: str) -> ErrorText:
    return ErrorText(f"INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST: {field}: bad value for restricted picklist field")


def _too_long(field: str, limit: int) -> ErrorText:
    return ErrorText(f"STRING_TOO_LONG: {field}: data value too large (max length={limit})")


def _required(field: str) -> ErrorText:
    return ErrorText(f"REQUIRED_FIELD_MISSING: Required fields are missing: [{field}]")


RecordId = Annotated[
    str,
    Field(pattern=r"^[a-zA-Z0-9]{15}([a-zA-Z0-9]{3})?$", description="a 15- or 18-character Salesforce id"),
    ErrorText("MALFORMED_ID: invalid id; Salesforce ids are 15 or 18 letters and digits"),
]
SObjectName = Annotated[
    Literal["Account", "Contact", "Opportunity", "Case", "Task", "Lead", "User"],
    ErrorText("NOT_FOUND: The requested resource does not exist"),
]
Deletable = Annotated[
    Literal["Account", "Contact", "Opportunity", "Case", "Task", "Lead"],
    ErrorText("NOT_FOUND: The requested resource does not exist"),
]
Name = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S"), _required("Name")]
OpportunityName = Annotated[str, Field(min_length=1, max_length=120, pattern=r"\S"), _required("Name")]
LastName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"\S"), _required("LastName")]
FirstName = Annotated[str, Field(max_length=40), _too_long("FirstName", 40)]
Company = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S"), _required("Company")]
Subject = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S"), _required("Subject")]
ShortText = Annotated[str, Field(max_length=255), _too_long("field", 255)]
LongText = Annotated[str, Field(max_length=32000), _too_long("Description", 32000)]
CommentBody = Annotated[str, Field(min_length=1, max_length=4000, pattern=r"\S"), _required("CommentBody")]
Email = Annotated[
    str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"), ErrorText("INVALID_EMAIL_ADDRESS: Email: invalid email address")
]
Money = Annotated[
    float, Field(ge=0, le=1e12), ErrorText("NUMBER_OUTSIDE_VALID_RANGE: Amount: value outside of valid range")
]
Percent = Annotated[
    float,
    Field(ge=0, le=100),
    ErrorText("NUMBER_OUTSIDE_VALID_RANGE: Probability: value outside of valid range (0-100)"),
]
Employees = Annotated[int, Field(ge=0, le=99_999_999)]
CloseDate = Annotated[IsoDate, _required("CloseDate")]
Day = IsoDate

StageName = Annotated[Literal[tuple(STAGES)], _picklist("Stage")]  # type: ignore[valid-type]
AccountType = Annotated[
    Literal["Prospect", "Customer - Direct", "Customer - Channel", "Channel Partner / Reseller", "Other"],
    _picklist("Account Type"),
]
Industry = Annotated[
    Literal["Banking", "Education", "Energy", "Healthcare", "Manufacturing", "Media", "Retail", "Technology",
            "Transportation", "Other"],
    _picklist("Industry"),
]  # fmt: skip
Rating = Annotated[Literal["Hot", "Warm", "Cold"], _picklist("Account Rating")]
OpportunityType = Annotated[
    Literal["New Business", "Existing Business - Upgrade", "Existing Business - Renewal"], _picklist("Opportunity Type")
]
LeadSource = Annotated[
    Literal["Web", "Phone Inquiry", "Partner Referral", "Trade Show", "Word of mouth", "Other"],
    _picklist("Lead Source"),
]
LossReason = Annotated[
    Literal["Price", "Competitor", "No Budget", "No Decision", "Timing", "Product Fit"], _picklist("Loss Reason")
]
ContactRoleName = Annotated[
    Literal["Business User", "Decision Maker", "Economic Buyer", "Economic Decision Maker", "Evaluator",
            "Executive Sponsor", "Influencer", "Technical Buyer", "Other"],
    _picklist("Role"),
]  # fmt: skip
CaseStatus = Annotated[Literal["New", "Working", "Escalated", "Closed"], _picklist("Status")]
CasePriority = Annotated[Literal["High", "Medium", "Low"], _picklist("Priority")]
CaseOrigin = Annotated[Literal["Phone", "Email", "Web"], _picklist("Case Origin")]
CaseType = Annotated[Literal["Question", "Problem", "Feature Request"], _picklist("Type")]
CaseReason = Annotated[
    Literal["Installation", "User Education", "Performance", "Breakdown", "Billing", "Feedback", "Other"],
    _picklist("Case Reason"),
]
TaskStatus = Annotated[
    Literal["Not Started", "In Progress", "Completed", "Waiting on someone else", "Deferred"], _picklist("Status")
]
TaskPriority = Annotated[Literal["High", "Normal", "Low"], _picklist("Priority")]
LeadStatus = Annotated[
    Literal["Open - Not Contacted", "Working - Contacted", "Closed - Not Converted"], _picklist("Lead Status")
]
ConvertedStatus = Annotated[Literal["Closed - Converted"], _picklist("convertedStatus")]
SoqlText = Annotated[
    str, Field(min_length=1, max_length=100_000, pattern=r"\S"), ErrorText("MALFORMED_QUERY: empty query")
]
SearchText = Annotated[
    str,
    Field(min_length=2, max_length=4000),
    ErrorText("INVALID_SEARCH: search term must be longer than one character"),
]


def _values(kind: object) -> list[str]:
    return list(get_args(get_args(kind)[0]))


#: Each picklist field's values, for describe_sobject.
PICKLIST_VALUES: dict[tuple[str, str], list[str]] = {
    ("Account", "Type"): _values(AccountType),
    ("Account", "Industry"): _values(Industry),
    ("Account", "Rating"): _values(Rating),
    ("Opportunity", "StageName"): list(STAGES),
    ("Opportunity", "Type"): _values(OpportunityType),
    ("Opportunity", "LeadSource"): _values(LeadSource),
    ("Opportunity", "Loss_Reason__c"): _values(LossReason),
    ("Case", "Status"): _values(CaseStatus),
    ("Case", "Priority"): _values(CasePriority),
    ("Case", "Origin"): _values(CaseOrigin),
    ("Case", "Type"): _values(CaseType),
    ("Case", "Reason"): _values(CaseReason),
    ("Task", "Status"): _values(TaskStatus),
    ("Task", "Priority"): _values(TaskPriority),
    ("Lead", "Status"): [*_values(LeadStatus), "Closed - Converted"],
    ("Lead", "LeadSource"): _values(LeadSource),
}
