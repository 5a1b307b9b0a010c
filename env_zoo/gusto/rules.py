"""Gusto's payroll rules: payroll statuses from the deadline and check date, versions for optimistic concurrency,
business days, and how a payroll is calculated (gross pay from compensation and hours, taxes, net pay, debit)."""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

EMPLOYEE_TAX_RATE = Decimal("0.1765")  # FICA 7.65% + a flat 10% federal withholding, this mirror's simplification
EMPLOYER_TAX_RATE = Decimal("0.0825")  # FICA 7.65% + FUTA 0.6%
EXEMPT_MINIMUM_YEARLY = 3556800  # cents: the FLSA salary threshold of $684 a week
UNITS_PER_YEAR = {"Year": 1, "Month": 12, "Week": 52}


def version(uuid: str, revision: int) -> str:
    """The opaque version string Gusto returns with an object; it changes whenever the object does."""
    return hashlib.md5(f"{uuid}:{revision}".encode()).hexdigest()


def money(cents: int | None) -> str | None:
    """Cents as Gusto's decimal string ("1234.50")."""
    return None if cents is None else f"{Decimal(cents) / 100:.2f}"


def hours(hundredths: int) -> str:
    """Hundredths of an hour as Gusto's hours string ("80.000")."""
    return f"{Decimal(hundredths) / 100:.3f}"


def cents(amount: Decimal) -> int:
    """A dollar amount as whole cents."""
    return int((amount * 100).quantize(Decimal(1), ROUND_HALF_UP))


def add_business_days(day: date, count: int) -> date:
    """`day` moved by `count` business days (Monday to Friday), backwards when `count` is negative."""
    step = 1 if count >= 0 else -1
    left = abs(count)
    while left:
        day += timedelta(days=step)
        if day.weekday() < 5:
            left -= 1
    return day


def payroll_status(payroll: dict[str, Any], now: datetime) -> str:
    """unprocessed -> submitted (until 4pm PT on the deadline) -> pending (until the check date) -> paid."""
    if not payroll["processed"]:
        return "unprocessed"
    if now.strftime("%Y-%m-%dT%H:%M:%SZ") < payroll["payroll_deadline"]:
        return "submitted"
    if now.date().isoformat() < payroll["check_date"]:
        return "pending"
    return "paid"


def period_gross(comp: dict[str, Any], periods_per_year: int, item: dict[str, Any]) -> int:
    """Gross pay of one pay period: a salary's share of the year, or hourly rate times hours (overtime at 1.5x),
    plus bonus and commission."""
    rate = Decimal(comp["rate"])
    if comp["payment_unit"] == "Hour":
        base = rate * item["regular_hours"] / 100 + rate * Decimal("1.5") * item["overtime_hours"] / 100
    elif comp["payment_unit"] == "Paycheck":
        base = rate
    else:
        base = rate * UNITS_PER_YEAR[comp["payment_unit"]] / periods_per_year
    return int(base.quantize(Decimal(1), ROUND_HALF_UP)) + item["bonus"] + item["commission"]


def item_amounts(comp: dict[str, Any], periods_per_year: int, item: dict[str, Any]) -> dict[str, int]:
    """Gross, taxes and net pay of one employee on one payroll (reimbursements are paid untaxed)."""
    if item["excluded"]:
        return {"gross_pay": 0, "employee_taxes": 0, "employer_taxes": 0, "net_pay": 0}
    gross = period_gross(comp, periods_per_year, item)
    employee_taxes = int((gross * EMPLOYEE_TAX_RATE).quantize(Decimal(1), ROUND_HALF_UP))
    employer_taxes = int((gross * EMPLOYER_TAX_RATE).quantize(Decimal(1), ROUND_HALF_UP))
    net = gross - employee_taxes + item["reimbursement"]
    return {"gross_pay": gross, "employee_taxes": employee_taxes, "employer_taxes": employer_taxes, "net_pay": net}


def totals(items: list[dict[str, Any]]) -> dict[str, int]:
    """A payroll's totals from its calculated items; the company is debited net pay, both taxes' shares."""
    included = [i for i in items if not i["excluded"]]
    gross = sum(i["gross_pay"] for i in included)
    employee_taxes = sum(i["employee_taxes"] for i in included)
    employer_taxes = sum(i["employer_taxes"] for i in included)
    reimbursements = sum(i["reimbursement"] for i in included)
    net = sum(i["net_pay"] for i in included)
    return {
        "gross_pay": gross,
        "employee_taxes": employee_taxes,
        "employer_taxes": employer_taxes,
        "net_pay": net,
        "reimbursements": reimbursements,
        "company_debit": net + employee_taxes + employer_taxes,
    }


def current_compensation(comps: list[dict[str, Any]], on: str) -> dict[str, Any] | None:
    """The compensation in effect on day `on`: the latest effective on or before it (else the earliest)."""
    ordered = sorted(comps, key=lambda c: c["effective_date"])
    effective = [c for c in ordered if c["effective_date"] <= on]
    return effective[-1] if effective else (ordered[0] if ordered else None)
