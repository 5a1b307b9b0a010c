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


def compensation_histories(db: Database, employee_uuids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each employee's primary-job compensation history, in two queries whatever the number of employees."""
    if not employee_uuids:
        return {}
    marks = ", ".join("?" * len(employee_uuids))
    primary = db.select(jobs, f'employee_uuid IN ({marks}) AND "primary" = 1', employee_uuids)
    owner = {j["uuid"]: j["employee_uuid"] for j in primary}
    histories: dict[str, list[dict[str, Any]]] = {e: [] for e in employee_uuids}
    if owner:
        job_marks = ", ".join("?" * len(owner))
        for comp in db.select(compensations, f"job_uuid IN ({job_marks})", list(owner)):
            histories[owner[comp["job_uuid"]]].append(comp)
    return histories


def people_on(db: Database, payroll_row: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The employees on a payroll, each with the pay unit of the compensation in effect at the period's end."""
    uuids = [i["employee_uuid"] for i in db.find(payroll_items, payroll_uuid=payroll_row["uuid"])]
    if not uuids:
        return {}
    histories = compensation_histories(db, uuids)
    rows = db.select(employees, f"uuid IN ({', '.join('?' * len(uuids))})", uuids)
    people = {}
    for row in rows:
        person = dict(row)
        comp = rules.current_compensation(histories[person["uuid"]], payroll_row["end_date"])
        person["payment_unit"] = comp["payment_unit"] if comp else "Year"
        people[person["uuid"]] = person
    return people


def unprocessed(payroll_row: dict[str, Any]) -> None:
    """Refuse to change a payroll already submitted."""
    if payroll_row["processed"]:
        raise Conflict(
            "invalid_operation (base): this payroll has already been processed and can no longer be updated."
        )


def check_version(payroll_row: dict[str, Any], given: str) -> None:
    """Optimistic concurrency: the version must be the payroll's current one."""
    if given != rules.version(payroll_row["uuid"], payroll_row["revision"]):
        raise Conflict(
            "invalid_attribute_value (version): the payroll has changed since you read it (version mismatch); "
            "fetch it again and use its current version."
        )


def calculate(db: Database, payroll_row: dict[str, Any]) -> dict[str, Any]:
    """Compute every employee's gross, taxes and net pay and the payroll's totals; the payroll is then calculated."""
    per_year = periods_per_year(db, payroll_row["pay_schedule_uuid"])
    items = []
    current = db.find(payroll_items, payroll_uuid=payroll_row["uuid"])
    histories = compensation_histories(db, [i["employee_uuid"] for i in current])
    for item in current:
        comp = rules.current_compensation(histories[item["employee_uuid"]], payroll_row["end_date"])
        if comp is None:
            raise NotFound(f"Employee {item['employee_uuid']} has no compensation.")
        amounts = rules.item_amounts(comp, per_year, item)
        db.update(payroll_items, item["id"], **amounts)
        items.append({**item, **amounts})
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
