"""HubSpot's CRM rules: enumeration options, lifecycle stages that only move forward, deal pipeline stage rules,
owners that must be active, unique contact emails, and record ids."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import conflict, invalid_property
from .schema import contacts, owners, pipelines, stages

LIFECYCLE_STAGES = [
    "subscriber",
    "lead",
    "marketingqualifiedlead",
    "salesqualifiedlead",
    "opportunity",
    "customer",
    "evangelist",
    "other",
]
LEAD_STATUSES = [
    "NEW",
    "OPEN",
    "IN_PROGRESS",
    "OPEN_DEAL",
    "UNQUALIFIED",
    "ATTEMPTED_TO_CONTACT",
    "CONNECTED",
    "BAD_TIMING",
]
INDUSTRIES = [
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
]


def next_id(db: Database, table: Any, start: int) -> str:
    """The next numeric record id of `table` (HubSpot ids are numeric strings), at least `start`."""
    last = db.select(table, "", [], order_by="CAST(id AS INTEGER) DESC", limit=1)
    return str(max(start, int(last[0]["id"]) + 1 if last else start))


def check_lifecycle(current: str | None, new: str | None) -> None:
    """A lifecycle stage only moves forward; to move it back the value must be cleared ("") first."""
    if not new or not current or new == current:
        return
    if LIFECYCLE_STAGES.index(new) < LIFECYCLE_STAGES.index(current):
        raise invalid_property(
            "lifecyclestage",
            "INVALID_LIFECYCLE_STAGE_TRANSITION",
            f"Lifecycle stage cannot be set backward from {current} to {new}; clear the value first, then set it",
        )


def check_owner(db: Database, owner_id: str | None) -> None:
    """hubspot_owner_id must name an active owner ("" clears it)."""
    if not owner_id:
        return
    found = db.select(owners, "id = ? AND archived = 0", [owner_id])
    if not found:
        raise invalid_property(
            "hubspot_owner_id", "INVALID_OPTION", f"{owner_id} was not one of the allowed options (active owners)"
        )


def check_unique_email(db: Database, email: str | None, contact_id: str | None = None) -> None:
    """409 when another active contact already has this email (emails are unique, case-insensitively)."""
    if not email:
        return
    rows = db.select(contacts, "lower(email) = ? AND archived = 0 AND id != ?", [email.lower(), contact_id or ""])
    if rows:
        raise conflict(f"Contact already exists. Existing ID: {rows[0]['id']}")


def stage_of(db: Database, pipeline_id: str, stage_id: str) -> dict[str, Any]:
    """The stage `stage_id` of pipeline `pipeline_id` (INVALID_OPTION if the pipeline does not have it)."""
    if not db.select(pipelines, "id = ?", [pipeline_id]):
        raise invalid_property("pipeline", "INVALID_OPTION", f"{pipeline_id} was not one of the allowed options")
    found = db.select(stages, "id = ? AND pipeline_id = ?", [stage_id, pipeline_id])
    if not found:
        options = [s["id"] for s in db.select(stages, "pipeline_id = ?", [pipeline_id], order_by='"displayOrder"')]
        raise invalid_property(
            "dealstage",
            "INVALID_OPTION",
            f"{stage_id} was not one of the allowed options for pipeline {pipeline_id}: {', '.join(options)}",
        )
    return found[0]


def check_stage_move(db: Database, deal: dict[str, Any], old_stage: dict[str, Any] | None) -> None:
    """Entering a stage needs its required properties set on the deal; in a pipeline that restricts skipping, an
    open deal moves forward one open stage at a time (closing it or moving it back is always allowed)."""
    target = stage_of(db, deal["pipeline"], deal["dealstage"])
    for name in target["required_properties"]:
        if deal.get(name) in (None, ""):
            raise invalid_property(
                name, "REQUIRED", f"{name} is required to move a deal into the {target['label']} stage"
            )
    if old_stage is None or old_stage["id"] == target["id"] or old_stage["pipeline_id"] != target["pipeline_id"]:
        return
    pipeline = db.get(pipelines, target["pipeline_id"])
    if pipeline["restrict_skipping"] and not target["isClosed"] and not old_stage["isClosed"]:
        if target["displayOrder"] > old_stage["displayOrder"] + 1:
            following = db.select(
                stages,
                'pipeline_id = ? AND "displayOrder" = ?',
                [target["pipeline_id"], old_stage["displayOrder"] + 1],
            )
            raise invalid_property(
                "dealstage",
                "STAGE_SKIP_NOT_ALLOWED",
                f"Deals in the {pipeline['label']} pipeline cannot skip stages: move from {old_stage['label']} "
                f"to {following[0]['label']} first",
            )
