"""Payroll machinery the tools share: finding a company's payroll, who is on it with which pay unit, calculating
it, and dropping a calculation when something it depended on changed."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, NotFound

from . import rules
from .objects import periods_per_year
from .schema import compensations, employees, jobs, payroll_items, payrolls


def payroll(db: Database, company_uuid: str, payroll_uuid: str) -> dict[str, Any]:
    """One of the company's payrolls."""
    return db.find_one(
        payrolls, uuid=payroll_uuid, company_uuid=company_uuid, not_found=f"Payroll {payroll_uuid} not found."
    )


def primary_compensations(db: Database, employee_uuid: str) -> list[dict[str, Any]]:
    """The compensation history of the employee's primary job."""
    job = db.find_one(jobs, employee_uuid=employee_uuid, primary=True, not_found="Employee has no primary job.")
    return db.find(compensations, job_uuid=job["uuid"])


def people_on(db: Database, payroll_row: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The employees on a payroll, each with the pay unit of the compensation in effect at the period's end."""
    people = {}
    for item in db.find(payroll_items, payroll_uuid=payroll_row["uuid"]):
        person = dict(db.get(employees, item["employee_uuid"]))
        comp = rules.current_compensation(primary_compensations(db, person["uuid"]), payroll_row["end_date"])
        person["payment_unit"] = comp["payment_unit"] if comp else "Year"
        people[person["uuid"]] = person
    return people


def unprocessed(payroll_row: dict[str, Any]) -> None:
    """Refuse to change a payroll already submitted."""
    if payroll_row["processed"]:
        raise Conflict("invalid_operation: this payroll has already been processed and can no longer be updated.")


def check_version(payroll_row: dict[str, Any], given: str) -> None:
    """Optimistic concurrency: the version must be the payroll's current one."""
    if given != rules.version(payroll_row["uuid"], payroll_row["revision"]):
        raise Conflict(
            "version: the payroll has changed since you read it (version mismatch); fetch it again and use its "
            "current version."
        )


def calculate(db: Database, payroll_row: dict[str, Any]) -> dict[str, Any]:
    """Compute every employee's gross, taxes and net pay and the payroll's totals; the payroll is then calculated."""
    per_year = periods_per_year(db, payroll_row["pay_schedule_uuid"])
    items = []
    for item in db.find(payroll_items, payroll_uuid=payroll_row["uuid"]):
        comp = rules.current_compensation(primary_compensations(db, item["employee_uuid"]), payroll_row["end_date"])
        if comp is None:
            raise NotFound(f"Employee {item['employee_uuid']} has no compensation.")
        items.append(db.update(payroll_items, item["id"], **rules.item_amounts(comp, per_year, item)))
    return db.update(
        payrolls, payroll_row["uuid"], calculated=True, revision=payroll_row["revision"] + 1, **rules.totals(items)
    )


def invalidate(db: Database, payroll_row: dict[str, Any]) -> dict[str, Any]:
    """Drop a payroll's calculation (it must be calculated again before it is submitted) and bump its version."""
    cleared = dict.fromkeys(["gross_pay", "employee_taxes", "employer_taxes", "net_pay", "reimbursements"])
    return db.update(
        payrolls, payroll_row["uuid"], calculated=False, revision=payroll_row["revision"] + 1, company_debit=None,
        **cleared,
    )  # fmt: skip


def invalidate_for_employee(db: Database, employee_uuid: str) -> None:
    """Drop the calculation of every unprocessed, calculated payroll the employee is on."""
    for item in db.find(payroll_items, employee_uuid=employee_uuid):
        row = db.get(payrolls, item["payroll_uuid"])
        if not row["processed"] and row["calculated"]:
            invalidate(db, row)
