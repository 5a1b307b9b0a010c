"""Who is signed in (a payroll admin) and which companies they administer."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import companies, company_admins, employees, sessions

NOT_SIGNED_IN = "invalid_token: the payroll admin has not signed in to Gusto yet."


def signed_in(db: Database) -> str:
    """The id of the signed-in payroll admin; refused when nobody has signed in."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def company(db: Database, company_uuid: str) -> dict[str, Any]:
    """A company the signed-in admin administers; another company is refused as Gusto refuses a missing scope."""
    user_id = signed_in(db)
    row = db.get(companies, company_uuid, "Company")
    if not db.find(company_admins, user_id=user_id, company_uuid=company_uuid):
        raise PermissionDenied(f"missing_permissions: you are not an admin of company {company_uuid}.")
    return row


def company_uuids(db: Database) -> list[str]:
    """The companies the signed-in admin administers, in the order they were granted."""
    return [r["company_uuid"] for r in db.find(company_admins, user_id=signed_in(db))]


def employee(db: Database, employee_uuid: str) -> dict[str, Any]:
    """An employee of a company the signed-in admin administers."""
    try:
        row = db.get(employees, employee_uuid, "Employee")
    except NotFound:
        raise NotFound(f"Employee {employee_uuid} not found.") from None
    company(db, row["company_uuid"])
    return row
