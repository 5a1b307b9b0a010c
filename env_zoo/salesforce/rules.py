"""Salesforce's rules the tools share: its error shape (a JSON array of {message, errorCode, fields}), the
Opportunity stage picklist with each stage's default probability and forecast category, the org's validation
rules (FIELD_CUSTOM_VALIDATION_EXCEPTION), lookups that must point at a live record of the right object, and the
objects' id prefixes."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError

from .schema import accounts, cases, contacts, leads, opportunities, tasks, users

#: Each sObject's key prefix (the first three characters of its ids) and table.
PREFIXES: dict[str, tuple[str, Table]] = {
    "Account": ("001", accounts),
    "Contact": ("003", contacts),
    "Opportunity": ("006", opportunities),
    "Case": ("500", cases),
    "Task": ("00T", tasks),
    "Lead": ("00Q", leads),
    "User": ("005", users),
}
#: The Opportunity stage picklist in order: (default probability, forecast category, closed, won).
STAGES: dict[str, tuple[int, str, bool, bool]] = {
    "Prospecting": (10, "Pipeline", False, False),
    "Qualification": (10, "Pipeline", False, False),
    "Needs Analysis": (20, "Pipeline", False, False),
    "Value Proposition": (50, "Pipeline", False, False),
    "Id. Decision Makers": (60, "Pipeline", False, False),
    "Perception Analysis": (70, "Pipeline", False, False),
    "Proposal/Price Quote": (75, "Pipeline", False, False),
    "Negotiation/Review": (90, "Commit", False, False),
    "Closed Won": (100, "Closed", True, True),
    "Closed Lost": (0, "Omitted", True, False),
}
#: This org's active validation rules: (object, rule name) -> the error message users see.
VALIDATION_RULES: dict[str, str] = {
    "Loss_Reason_Required": "Select a Loss Reason before closing an opportunity as Closed Lost.",
    "Close_Date_Not_In_Past": "Close Date cannot be in the past for an open opportunity. Move it to today or later.",
    "Amount_Required_To_Win": "An opportunity needs an Amount greater than zero to be Closed Won.",
    "Closed_Won_Locked": "Closed Won opportunities are locked. Ask a System Administrator to change them.",
    "Case_Reason_To_Close": "Set a Case Reason before closing the case.",
    "Escalation_Needs_High_Priority": "Escalated cases must have Priority set to High.",
}
SEEN_ID = 18


def sf_error(
    code: str, message: str, fields: list[str] | None = None, kind: type[ToolError] = InvalidRequest
) -> ToolError:
    """An error in Salesforce's REST shape: a one-element JSON array of {message, errorCode, fields}."""
    return kind(json.dumps([{"message": message, "errorCode": code, "fields": fields or []}]))


def validation(rule: str, fields: list[str]) -> ToolError:
    """A failed validation rule of this org."""
    return sf_error("FIELD_CUSTOM_VALIDATION_EXCEPTION", VALIDATION_RULES[rule], fields)


def sobject_of(record_id: str) -> str | None:
    """The sObject an id belongs to, by its key prefix."""
    return next((name for name, (prefix, _) in PREFIXES.items() if record_id.startswith(prefix)), None)


def live(db: Database, sobject: str, record_id: str) -> dict[str, Any]:
    """The record `record_id` of `sobject`, for reading or changing it: NOT_FOUND when there is none (or the id is
    another object's), ENTITY_IS_DELETED when it is in the Recycle Bin."""
    prefix, table = PREFIXES[sobject]
    found = db.find(table, Id=record_id) if record_id.startswith(prefix) else []
    if not found:
        raise sf_error("NOT_FOUND", "The requested resource does not exist", kind=NotFound)
    if found[0].get("IsDeleted"):
        raise sf_error("ENTITY_IS_DELETED", "entity is deleted")
    return found[0]


def reference(db: Database, field: str, allowed: tuple[str, ...], record_id: str) -> dict[str, Any]:
    """The record a lookup field points at: FIELD_INTEGRITY_EXCEPTION for an id of another object,
    INVALID_CROSS_REFERENCE_KEY for none, ENTITY_IS_DELETED for a deleted one."""
    sobject = sobject_of(record_id)
    if sobject not in allowed:
        label = " or ".join(allowed)
        raise sf_error(
            "FIELD_INTEGRITY_EXCEPTION", f"{field}: id value of incorrect type: {record_id} ({label})", [field]
        )
    table = PREFIXES[sobject][1]
    found = db.find(table, Id=record_id)
    if not found:
        raise sf_error("INVALID_CROSS_REFERENCE_KEY", f"invalid cross reference id: {record_id}", [field])
    if found[0].get("IsDeleted"):
        raise sf_error("ENTITY_IS_DELETED", f"entity is deleted: {record_id}", [field])
    return found[0]


def active_owner(db: Database, owner_id: str) -> str:
    """An owner must be an active user."""
    user = reference(db, "OwnerId", ("User",), owner_id)
    if not user["IsActive"]:
        raise sf_error("INACTIVE_OWNER_OR_USER", "operation performed with inactive user as owner", ["OwnerId"])
    return owner_id


def stage_fields(stage: str, probability: float | None) -> dict[str, Any]:
    """The fields a stage sets: its default probability (unless one is given), forecast category, closed and won."""
    default, forecast, closed, won = STAGES[stage]
    chosen = default if probability is None or closed else probability
    return {"StageName": stage, "Probability": float(chosen), "ForecastCategoryName": forecast, "IsClosed": closed,
            "IsWon": won}  # fmt: skip


def check_opportunity(db: Database, before: dict[str, Any] | None, after: dict[str, Any]) -> None:
    """Run the org's Opportunity validation rules on the record as it would be saved."""
    if before is not None and before["IsWon"]:
        raise validation("Closed_Won_Locked", ["StageName"])
    if after["StageName"] == "Closed Lost" and not after.get("Loss_Reason__c"):
        raise validation("Loss_Reason_Required", ["Loss_Reason__c"])
    if after["StageName"] == "Closed Won" and not (after.get("Amount") or 0) > 0:
        raise validation("Amount_Required_To_Win", ["Amount"])
    if not STAGES[after["StageName"]][2] and after["CloseDate"] < db.now().date().isoformat():
        raise validation("Close_Date_Not_In_Past", ["CloseDate"])


def check_case(after: dict[str, Any]) -> None:
    """Run the org's Case validation rules on the record as it would be saved."""
    if after["Status"] == "Closed" and not after.get("Reason"):
        raise validation("Case_Reason_To_Close", ["Reason"])
    if (after["Status"] == "Escalated" or after["IsEscalated"]) and after["Priority"] != "High":
        raise validation("Escalation_Needs_High_Priority", ["Priority"])
