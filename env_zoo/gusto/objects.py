"""Gusto's API objects as output models, and how stored rows become them (money as decimal strings, hours as
strings with three decimals, a version on every object that takes updates)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from . import rules
from .schema import compensations, jobs, pay_schedules, payroll_items


class CompanyRole(BaseModel):
    company_uuid: str
    name: str


class SignedIn(BaseModel):
    uuid: str
    name: str
    email: str


class CurrentUser(SignedIn):
    roles: list[CompanyRole]


class Company(BaseModel):
    uuid: str
    name: str
    trade_name: str | None
    ein: str
    entity_type: str
    state: str
    payroll_speed: str


class PaySchedule(BaseModel):
    uuid: str
    name: str
    frequency: str
    anchor_pay_date: str


class Compensation(BaseModel):
    uuid: str
    rate: str
    payment_unit: str
    flsa_status: str
    effective_date: str


class Job(BaseModel):
    uuid: str
    title: str
    primary: bool
    hire_date: str
    rate: str
    payment_unit: str
    current_compensation_uuid: str
    compensations: list[Compensation]


class EmployeeSummary(BaseModel):
    uuid: str
    first_name: str
    last_name: str
    email: str
    department: str
    terminated: bool


class Employee(EmployeeSummary):
    company_uuid: str
    pay_schedule_uuid: str
    hire_date: str
    termination_date: str | None
    jobs: list[Job]
    version: str


class Contractor(BaseModel):
    uuid: str
    type: str
    first_name: str | None
    last_name: str | None
    business_name: str | None
    email: str
    wage_type: str
    hourly_rate: str | None
    is_active: bool
    start_date: str


class ContractorPayment(BaseModel):
    uuid: str
    contractor_uuid: str
    date: str
    payment_method: str
    hours: str
    wage: str
    bonus: str
    reimbursement: str
    wage_total: str
    status: str
    may_cancel: bool


class PayPeriod(BaseModel):
    start_date: str
    end_date: str
    pay_schedule_uuid: str


class Totals(BaseModel):
    gross_pay: str
    employee_taxes: str
    employer_taxes: str
    net_pay: str
    reimbursements: str
    company_debit: str


class PayrollSummary(BaseModel):
    payroll_uuid: str
    company_uuid: str
    pay_period: PayPeriod
    check_date: str
    payroll_deadline: str
    processed: bool
    processed_date: str | None
    payroll_status: str
    calculated: bool
    totals: Totals | None
    version: str


class EmployeeCompensation(BaseModel):
    employee_uuid: str
    first_name: str
    last_name: str
    excluded: bool
    payment_unit: str
    regular_hours: str
    overtime_hours: str
    bonus: str
    commission: str
    reimbursement: str
    gross_pay: str | None
    net_pay: str | None


class Payroll(PayrollSummary):
    employee_compensations: list[EmployeeCompensation]


class TimeOffPolicy(BaseModel):
    uuid: str
    name: str
    policy_type: str
    accrual_method: str
    accrual_rate: str | None
    max_accrual_hours: str | None
    is_active: bool


class PolicyEmployee(BaseModel):
    uuid: str
    first_name: str
    last_name: str
    balance: str


class TimeOffPolicyDetail(TimeOffPolicy):
    employees: list[PolicyEmployee]


class TimeOffRequest(BaseModel):
    uuid: str
    employee_uuid: str
    employee_name: str
    policy_uuid: str
    request_type: str
    start_date: str
    end_date: str
    hours: str
    status: str
    employee_note: str | None
    employer_note: str | None


def compensation_object(c: dict[str, Any]) -> Compensation:
    return Compensation(
        uuid=c["uuid"], rate=rules.money(c["rate"]) or "0.00", payment_unit=c["payment_unit"],
        flsa_status=c["flsa_status"], effective_date=c["effective_date"],
    )  # fmt: skip


def job_object(db: Database, job: dict[str, Any]) -> Job:
    comps = db.find(compensations, job_uuid=job["uuid"], order_by=[compensations.c.effective_date])
    current = rules.current_compensation(comps, db.now().date().isoformat())
    assert current is not None
    return Job(
        uuid=job["uuid"], title=job["title"], primary=job["primary"], hire_date=job["hire_date"],
        rate=rules.money(current["rate"]) or "0.00", payment_unit=current["payment_unit"],
        current_compensation_uuid=current["uuid"], compensations=[compensation_object(c) for c in comps],
    )  # fmt: skip


def summary_object(e: dict[str, Any]) -> EmployeeSummary:
    return EmployeeSummary(
        uuid=e["uuid"], first_name=e["first_name"], last_name=e["last_name"], email=e["email"],
        department=e["department"], terminated=e["terminated"],
    )  # fmt: skip


def employee_object(db: Database, e: dict[str, Any]) -> Employee:
    return Employee(
        **summary_object(e).model_dump(), company_uuid=e["company_uuid"], pay_schedule_uuid=e["pay_schedule_uuid"],
        hire_date=e["hire_date"], termination_date=e["termination_date"],
        jobs=[job_object(db, j) for j in db.find(jobs, employee_uuid=e["uuid"], order_by=[jobs.c.hire_date])],
        version=rules.version(e["uuid"], e["revision"]),
    )  # fmt: skip


def contractor_object(c: dict[str, Any]) -> Contractor:
    return Contractor(
        uuid=c["uuid"], type=c["type"], first_name=c["first_name"], last_name=c["last_name"],
        business_name=c["business_name"], email=c["email"], wage_type=c["wage_type"],
        hourly_rate=rules.money(c["hourly_rate"]), is_active=c["is_active"], start_date=c["start_date"],
    )  # fmt: skip


def contractor_payment_object(p: dict[str, Any], today: str) -> ContractorPayment:
    return ContractorPayment(
        uuid=p["uuid"], contractor_uuid=p["contractor_uuid"], date=p["date"], payment_method=p["payment_method"],
        hours=rules.hours(p["hours"]), wage=rules.money(p["wage"]) or "0.00", bonus=rules.money(p["bonus"]) or "0.00",
        reimbursement=rules.money(p["reimbursement"]) or "0.00", wage_total=rules.money(p["wage_total"]) or "0.00",
        status=p["status"], may_cancel=p["status"] == "Unfunded" and p["date"] > today,
    )  # fmt: skip


def payroll_summary(db: Database, p: dict[str, Any]) -> PayrollSummary:
    shown = p["calculated"] or p["processed"]
    totals = (
        Totals(**{k: rules.money(p[k]) or "0.00" for k in Totals.model_fields}) if shown and p["gross_pay"] is not None
        else None
    )  # fmt: skip
    return PayrollSummary(
        payroll_uuid=p["uuid"], company_uuid=p["company_uuid"],
        pay_period=PayPeriod(
            start_date=p["start_date"], end_date=p["end_date"], pay_schedule_uuid=p["pay_schedule_uuid"]
        ),
        check_date=p["check_date"], payroll_deadline=p["payroll_deadline"], processed=p["processed"],
        processed_date=p["processed_date"], payroll_status=rules.payroll_status(p, db.now()),
        calculated=p["calculated"], totals=totals, version=rules.version(p["uuid"], p["revision"]),
    )  # fmt: skip


def payroll_object(db: Database, p: dict[str, Any], people: dict[str, dict[str, Any]]) -> Payroll:
    """The payroll with one entry per employee on it; `people` maps employee uuids to rows and their pay unit."""
    shown = p["calculated"] or p["processed"]
    entries = [
        EmployeeCompensation(
            employee_uuid=i["employee_uuid"],
            first_name=people[i["employee_uuid"]]["first_name"],
            last_name=people[i["employee_uuid"]]["last_name"],
            excluded=i["excluded"],
            payment_unit=people[i["employee_uuid"]]["payment_unit"],
            regular_hours=rules.hours(i["regular_hours"]),
            overtime_hours=rules.hours(i["overtime_hours"]),
            bonus=rules.money(i["bonus"]) or "0.00",
            commission=rules.money(i["commission"]) or "0.00",
            reimbursement=rules.money(i["reimbursement"]) or "0.00",
            gross_pay=rules.money(i["gross_pay"]) if shown else None,
            net_pay=rules.money(i["net_pay"]) if shown else None,
        )  # fmt: skip
        for i in db.find(payroll_items, payroll_uuid=p["uuid"], order_by=[payroll_items.c.id])
    ]
    return Payroll(**payroll_summary(db, p).model_dump(), employee_compensations=entries)


def schedule_object(s: dict[str, Any]) -> PaySchedule:
    return PaySchedule(uuid=s["uuid"], name=s["name"], frequency=s["frequency"], anchor_pay_date=s["anchor_pay_date"])


def periods_per_year(db: Database, schedule_uuid: str) -> int:
    return int(db.get(pay_schedules, schedule_uuid, "Pay schedule")["periods_per_year"])


def policy_object(p: dict[str, Any]) -> TimeOffPolicy:
    return TimeOffPolicy(
        uuid=p["uuid"], name=p["name"], policy_type=p["policy_type"], accrual_method=p["accrual_method"],
        accrual_rate=None if p["accrual_rate"] is None else rules.hours(p["accrual_rate"]),
        max_accrual_hours=None if p["max_accrual_hours"] is None else rules.hours(p["max_accrual_hours"]),
        is_active=p["is_active"],
    )  # fmt: skip


def request_object(r: dict[str, Any], person: dict[str, Any], policy_type: str) -> TimeOffRequest:
    return TimeOffRequest(
        uuid=r["uuid"], employee_uuid=r["employee_uuid"], employee_name=f"{person['first_name']} {person['last_name']}",
        policy_uuid=r["policy_uuid"], request_type=policy_type, start_date=r["start_date"], end_date=r["end_date"],
        hours=rules.hours(r["hours"]), status=r["status"], employee_note=r["employee_note"],
        employer_note=r["employer_note"],
    )  # fmt: skip
