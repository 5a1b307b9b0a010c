"""Gusto API tools as a signed-in payroll admin sees them: their companies, employees with jobs and compensation,
terminations, contractors and contractor payments, pay schedules, payrolls (update, calculate, submit, cancel),
time off policies with balances, and time off requests; plus the admin's own sign-in."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoDate, NonBlankText, text
from envfactory_gym.values import parse_date

from . import rules
from .access import company, company_uuids, employee, signed_in
from .objects import (
    Company,
    CompanyRole,
    Compensation,
    Contractor,
    ContractorPayment,
    CurrentUser,
    Employee,
    EmployeeSummary,
    Payroll,
    PayrollSummary,
    PaySchedule,
    PolicyEmployee,
    SignedIn,
    TimeOffPolicy,
    TimeOffPolicyDetail,
    TimeOffRequest,
    compensation_object,
    contractor_object,
    contractor_payment_object,
    employee_object,
    payroll_object,
    payroll_summary,
    policy_object,
    request_object,
    schedule_object,
    summary_object,
)
from .payroll import (
    calculate,
    check_version,
    invalidate,
    invalidate_for_employee,
    payroll,
    people_on,
    unprocessed,
)
from .schema import (
    companies,
    compensations,
    contractor_payments,
    contractors,
    employees,
    jobs,
    pay_schedules,
    payroll_items,
    payrolls,
    policy_employees,
    sessions,
    time_off_policies,
    time_off_requests,
    users,
)

Uuid = Annotated[str, Field(min_length=36, max_length=36, description="a UUID as Gusto returns it")]
Version = Annotated[str, Field(min_length=32, max_length=32, description="the object's current version, as read")]
# Amounts and hours are kept in one canonical form (250 and "250.00" are the same value), as Gusto echoes them.
Cents = AfterValidator(lambda amount: amount.quantize(Decimal("0.01")))
Thousandths = AfterValidator(lambda amount: amount.quantize(Decimal("0.001")))
Money = Annotated[Decimal, Field(ge=0, max_digits=10, decimal_places=2, description='dollars, e.g. "250.00"'), Cents]
Hours = Annotated[Decimal, Field(ge=0, le=200, decimal_places=3, description='hours, e.g. "80.000"'), Thousandths]
Page = Annotated[int, Field(ge=1, description="page number, from 1")]
Per = Annotated[int, Field(ge=1, le=100, description="records per page (default 25)")]
PaymentUnit = Literal["Hour", "Week", "Month", "Year", "Paycheck"]
FlsaStatus = Literal["Exempt", "Nonexempt", "Owner"]


class EmployeeCompensationInput(BaseModel):
    """Changes to one employee's entry on a payroll; a field left out keeps its value, a given one overwrites it."""

    employee_uuid: Uuid
    excluded: bool | None = None
    regular_hours: Hours | None = None
    overtime_hours: Hours | None = None
    bonus: Money | None = None
    commission: Money | None = None
    reimbursement: Money | None = None


# ---------------------------------------------------------------- the admin and companies


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> SignedIn:
    """(User only) The payroll admin signs in to Gusto and authorizes the assistant for the companies they
    administer (get_me then lists them).

    Args:
        email: The admin's Gusto login email.
        password: Their password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("invalid_token: wrong email or password.")
    db.start_session(sessions, user_id=found[0]["id"])
    return SignedIn(uuid=found[0]["id"], name=found[0]["name"], email=found[0]["email"])


@tool(read_only=True)
def get_me(db: Database) -> CurrentUser:
    """The signed-in payroll admin and the companies they administer (every other call names one by its uuid)."""
    user = db.get(users, signed_in(db))
    roles = [CompanyRole(company_uuid=c, name=db.get(companies, c)["name"]) for c in company_uuids(db)]
    return CurrentUser(uuid=user["id"], name=user["name"], email=user["email"], roles=roles)


@tool(read_only=True)
def get_company(db: Database, company_uuid: Uuid) -> Company:
    """A company's details: legal and trade name, EIN, entity type, state and payroll speed (how many business
    days before the check date a payroll must be submitted).

    Args:
        company_uuid: The company.
    """
    c = company(db, company_uuid)
    return Company(
        uuid=c["uuid"], name=c["name"], trade_name=c["trade_name"], ein=c["ein"], entity_type=c["entity_type"],
        state=c["state"], payroll_speed=f"{c['payroll_speed']}-day",
    )  # fmt: skip


@tool(read_only=True)
def list_pay_schedules(db: Database, company_uuid: Uuid) -> list[PaySchedule]:
    """The company's pay schedules (frequency and anchor pay date); each employee is on one.

    Args:
        company_uuid: The company.
    """
    company(db, company_uuid)
    return [schedule_object(s) for s in db.find(pay_schedules, company_uuid=company_uuid)]


# ---------------------------------------------------------------- employees


@tool(read_only=True)
def list_employees(
    db: Database,
    company_uuid: Uuid,
    search_term: NonBlankText | None = None,
    terminated: bool | None = None,
    page: Page = 1,
    per: Per = 25,
) -> list[EmployeeSummary]:
    """List a company's employees by last then first name; search_term matches part of the name or email.

    Args:
        company_uuid: The company.
        search_term: Text the first name, last name or email contains (case-insensitive).
        terminated: Only terminated (true) or only active (false) employees; both when left out.
        page: Which page.
        per: Records per page.
    """
    company(db, company_uuid)
    where, params = "company_uuid = ?", [company_uuid]
    if search_term is not None:
        like = f"%{search_term.strip().lower()}%"
        where += " AND (lower(first_name || ' ' || last_name) LIKE ? OR lower(email) LIKE ?)"
        params += [like, like]
    if terminated is not None:
        where += " AND terminated = ?"
        params.append(terminated)
    rows = db.select(employees, where, params, order_by="last_name, first_name", limit=page * per)
    return [summary_object(e) for e in rows[(page - 1) * per :]]


@tool(read_only=True)
def get_employee(db: Database, employee_uuid: Uuid) -> Employee:
    """An employee with their jobs, each job's current rate and compensation history, and the version to update
    them with.

    Args:
        employee_uuid: The employee.
    """
    return employee_object(db, employee(db, employee_uuid))


@tool()
def update_employee(
    db: Database,
    employee_uuid: Uuid,
    version: Version,
    first_name: NonBlankText | None = None,
    last_name: NonBlankText | None = None,
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")] | None = None,
    department: text(80) | None = None,
) -> Employee:
    """Update an employee's name, email or department; the version must be the one last read.

    Args:
        employee_uuid: The employee.
        version: The employee's current version (from get_employee).
        first_name: New first name.
        last_name: New last name.
        email: New work email.
        department: New department.
    """
    e = employee(db, employee_uuid)
    if version != rules.version(e["uuid"], e["revision"]):
        raise Conflict(
            "invalid_attribute_value (version): the employee has changed since you read them; fetch them again."
        )
    changes = given(first_name=first_name, last_name=last_name, email=email, department=department)
    if not changes:
        raise InvalidRequest("invalid_attribute_value (base): nothing to update.")
    return employee_object(db, db.update(employees, employee_uuid, revision=e["revision"] + 1, **changes))


@tool()
def create_compensation(
    db: Database,
    job_uuid: Uuid,
    rate: Annotated[Decimal, Field(gt=0, max_digits=10, decimal_places=2, description='dollars, e.g. "24.50"'), Cents],
    payment_unit: PaymentUnit,
    flsa_status: FlsaStatus,
    effective_date: IsoDate,
) -> Compensation:
    """Give a job a new compensation (a raise, a move to salary) from an effective date; payrolls whose pay
    period ends on or after it use the new rate, and calculated unprocessed payrolls must be calculated again.
    Exempt employees are salaried at no less than $684 a week ($35,568 a year).

    Args:
        job_uuid: The job (from get_employee).
        rate: The new rate, per payment_unit.
        payment_unit: What the rate is per.
        flsa_status: Exempt (salaried, no overtime), Nonexempt or Owner.
        effective_date: The first day the new rate applies (YYYY-MM-DD).
    """
    job = db.get(jobs, job_uuid, "Job")
    e = employee(db, job["employee_uuid"])
    parse_date(effective_date, "effective_date")
    if e["terminated"]:
        raise Conflict("invalid_operation (employee): cannot change the compensation of a terminated employee.")
    if effective_date < job["hire_date"]:
        raise InvalidRequest("invalid_attribute_value (effective_date): must be on or after the job's hire date.")
    if db.find(compensations, job_uuid=job_uuid, effective_date=effective_date):
        raise Conflict(
            "duplicate_operation (effective_date): a compensation with this effective date already exists for the job."
        )
    amount = rules.cents(rate)
    if flsa_status == "Exempt":
        if payment_unit in ("Hour", "Paycheck"):
            raise InvalidRequest(
                "invalid_attribute_value (flsa_status): Exempt employees must be paid a salary (Week, Month or Year)."
            )
        if amount * rules.UNITS_PER_YEAR[payment_unit] < rules.EXEMPT_MINIMUM_YEARLY:
            raise InvalidRequest(
                "invalid_attribute_value (rate): Exempt employees must earn at least $684 per week ($35,568 per year)."
            )
    row = db.insert(
        compensations, uuid=db.new_uuid(compensations), job_uuid=job_uuid, rate=amount, payment_unit=payment_unit,
        flsa_status=flsa_status, effective_date=effective_date,
    )  # fmt: skip
    invalidate_for_employee(db, e["uuid"])
    return compensation_object(row)


@tool()
def terminate_employee(
    db: Database, employee_uuid: Uuid, effective_date: IsoDate, run_termination_payroll: bool = False
) -> Employee:
    """Terminate an employee from an effective date (their last day). They come off every unprocessed payroll
    whose pay period starts after it, and those payrolls must be calculated again.

    Args:
        employee_uuid: The employee.
        effective_date: Their last day of work (YYYY-MM-DD).
        run_termination_payroll: Whether a separate final payroll will pay them off-cycle.
    """
    e = employee(db, employee_uuid)
    parse_date(effective_date, "effective_date")
    if e["terminated"]:
        raise Conflict("invalid_operation (employee): this employee has already been terminated.")
    if effective_date < e["hire_date"]:
        raise InvalidRequest("invalid_attribute_value (effective_date): must be on or after the employee's hire date.")
    for item in db.find(payroll_items, employee_uuid=employee_uuid):
        p = db.get(payrolls, item["payroll_uuid"])
        if not p["processed"] and p["start_date"] > effective_date:
            db.delete(payroll_items, item["id"])
            invalidate(db, p)
    updated = db.update(
        employees, employee_uuid, terminated=True, termination_date=effective_date, revision=e["revision"] + 1
    )
    return employee_object(db, updated)


# ---------------------------------------------------------------- contractors


@tool(read_only=True)
def list_contractors(
    db: Database, company_uuid: Uuid, search_term: NonBlankText | None = None, page: Page = 1, per: Per = 25
) -> list[Contractor]:
    """List a company's contractors (individuals and businesses, active and not).

    Args:
        company_uuid: The company.
        search_term: Text the name, business name or email contains (case-insensitive).
        page: Which page.
        per: Records per page.
    """
    company(db, company_uuid)
    where, params = "company_uuid = ?", [company_uuid]
    if search_term is not None:
        like = f"%{search_term.strip().lower()}%"
        where += (
            " AND (lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) LIKE ?"
            " OR lower(coalesce(business_name, '')) LIKE ? OR lower(email) LIKE ?)"
        )
        params += [like, like, like]
    rows = db.select(contractors, where, params, order_by="coalesce(business_name, last_name)", limit=page * per)
    return [contractor_object(c) for c in rows[(page - 1) * per :]]


@tool()
def create_contractor_payment(
    db: Database,
    company_uuid: Uuid,
    contractor_uuid: Uuid,
    date: IsoDate,
    payment_method: Literal["Direct Deposit", "Check", "Historical Payment"] = "Direct Deposit",
    wage: Money | None = None,
    hours: Hours | None = None,
    bonus: Money = Decimal("0.00"),
    reimbursement: Money = Decimal("0.00"),
) -> ContractorPayment:
    """Pay a contractor. Fixed-wage contractors are paid a wage; hourly ones are paid hours times their hourly rate.
    A direct deposit needs as many business days before its date as the company's payroll speed; a Historical
    Payment records one already made (dated in the past).

    Args:
        company_uuid: The company.
        contractor_uuid: The contractor.
        date: The payment date (YYYY-MM-DD).
        payment_method: How it is paid.
        wage: The fixed wage (Fixed contractors only).
        hours: Hours worked (Hourly contractors only).
        bonus: A bonus on top.
        reimbursement: Expenses paid back.
    """
    c = company(db, company_uuid)
    k = db.find_one(
        contractors, uuid=contractor_uuid, company_uuid=company_uuid,
        not_found=f"Contractor {contractor_uuid} not found.",
    )  # fmt: skip
    day = parse_date(date, "date")
    today = db.now().date()
    if not k["is_active"]:
        raise Conflict("invalid_operation (contractor): this contractor is not active and cannot be paid.")
    if payment_method == "Historical Payment":
        if day >= today:
            raise InvalidRequest("invalid_attribute_value (date): a historical payment must be dated in the past.")
    elif payment_method == "Direct Deposit" and day < rules.add_business_days(today, c["payroll_speed"]):
        raise InvalidRequest(
            f"invalid_attribute_value (date): a direct deposit must be dated at least {c['payroll_speed']} business "
            "days from today."
        )
    elif day < today:
        raise InvalidRequest("invalid_attribute_value (date): a check payment cannot be dated in the past.")
    if k["wage_type"] == "Hourly":
        if wage is not None or hours is None:
            raise InvalidRequest("invalid_attribute_value (hours): hourly contractors are paid by hours, not a wage.")
        amount, worked = rules.cents(hours * Decimal(k["hourly_rate"]) / 100), int(hours * 100)
    else:
        if hours is not None or wage is None:
            raise InvalidRequest("invalid_attribute_value (wage): fixed contractors are paid a wage, not hours.")
        amount, worked = rules.cents(wage), 0
    extra = rules.cents(bonus) + rules.cents(reimbursement)
    if amount + extra <= 0:
        raise InvalidRequest("invalid_attribute_value (wage): the payment must be more than zero.")
    row = db.insert(
        contractor_payments, uuid=db.new_uuid(contractor_payments), company_uuid=company_uuid,
        contractor_uuid=contractor_uuid, date=date, payment_method=payment_method, hours=worked, wage=amount,
        bonus=rules.cents(bonus), reimbursement=rules.cents(reimbursement), wage_total=amount + extra,
        status="Funded" if payment_method == "Historical Payment" else "Unfunded",
    )  # fmt: skip
    return contractor_payment_object(row, today.isoformat())


@tool(read_only=True)
def list_contractor_payments(
    db: Database, company_uuid: Uuid, start_date: IsoDate, end_date: IsoDate, contractor_uuid: Uuid | None = None
) -> list[ContractorPayment]:
    """The company's contractor payments dated between two days (inclusive), oldest first.

    Args:
        company_uuid: The company.
        start_date: First payment date (YYYY-MM-DD).
        end_date: Last payment date (YYYY-MM-DD).
        contractor_uuid: Only this contractor's payments.
    """
    company(db, company_uuid)
    where, params = "company_uuid = ? AND date >= ? AND date <= ?", [company_uuid, start_date, end_date]
    if contractor_uuid is not None:
        where += " AND contractor_uuid = ?"
        params.append(contractor_uuid)
    today = db.now().date().isoformat()
    return [contractor_payment_object(p, today) for p in db.select(contractor_payments, where, params, "date")]


@tool()
def cancel_contractor_payment(db: Database, company_uuid: Uuid, contractor_payment_uuid: Uuid) -> ContractorPayment:
    """Cancel (delete) a contractor payment that has not been funded yet (may_cancel is true).

    Args:
        company_uuid: The company.
        contractor_payment_uuid: The payment.
    """
    company(db, company_uuid)
    p = db.find_one(
        contractor_payments, uuid=contractor_payment_uuid, company_uuid=company_uuid,
        not_found=f"Contractor payment {contractor_payment_uuid} not found.",
    )  # fmt: skip
    today = db.now().date().isoformat()
    if not contractor_payment_object(p, today).may_cancel:
        raise Conflict(
            "invalid_operation (base): this contractor payment has been funded and can no longer be canceled."
        )
    db.delete(contractor_payments, contractor_payment_uuid)
    return contractor_payment_object(p, today)


# ---------------------------------------------------------------- payrolls


@tool(read_only=True)
def list_payrolls(
    db: Database,
    company_uuid: Uuid,
    processing_statuses: Literal["unprocessed", "processed"] | None = None,
    start_date: IsoDate | None = None,
    end_date: IsoDate | None = None,
) -> list[PayrollSummary]:
    """A company's regular payrolls by pay period, with their check date, deadline, status and (once calculated)
    totals. The next payroll to run is the earliest unprocessed one.

    Args:
        company_uuid: The company.
        processing_statuses: Only unprocessed or only processed payrolls.
        start_date: Only pay periods ending on or after this day.
        end_date: Only pay periods starting on or before this day.
    """
    company(db, company_uuid)
    where, params = "company_uuid = ?", [company_uuid]
    if processing_statuses is not None:
        where += " AND processed = ?"
        params.append(processing_statuses == "processed")
    if start_date is not None:
        where += " AND end_date >= ?"
        params.append(start_date)
    if end_date is not None:
        where += " AND start_date <= ?"
        params.append(end_date)
    return [payroll_summary(db, p) for p in db.select(payrolls, where, params, "start_date")]


@tool(read_only=True)
def get_payroll(db: Database, company_uuid: Uuid, payroll_uuid: Uuid) -> Payroll:
    """A payroll with every employee's hours, bonus, commission and reimbursement (and, once calculated, gross and
    net pay), its totals and its version.

    Args:
        company_uuid: The company.
        payroll_uuid: The payroll.
    """
    company(db, company_uuid)
    p = payroll(db, company_uuid, payroll_uuid)
    return payroll_object(db, p, people_on(db, p))


@tool()
def update_payroll(
    db: Database,
    company_uuid: Uuid,
    payroll_uuid: Uuid,
    version: Version,
    employee_compensations: Annotated[list[EmployeeCompensationInput], Field(min_length=1, max_length=50)],
) -> Payroll:
    """Enter hours, bonuses, commissions and reimbursements on an unprocessed payroll, or exclude employees from
    it. Values given overwrite what is there; the payroll must then be calculated again.

    Args:
        company_uuid: The company.
        payroll_uuid: The payroll.
        version: The payroll's current version (from get_payroll or list_payrolls).
        employee_compensations: One entry per employee to change.
    """
    company(db, company_uuid)
    p = payroll(db, company_uuid, payroll_uuid)
    unprocessed(p)
    check_version(p, version)
    people = people_on(db, p)
    for entry in employee_compensations:
        if entry.employee_uuid not in people:
            raise NotFound(
                f"not_found (employee_compensations): employee {entry.employee_uuid} is not on this payroll."
            )
        hourly = people[entry.employee_uuid]["payment_unit"] == "Hour"
        if not hourly and (entry.regular_hours is not None or entry.overtime_hours is not None):
            raise InvalidRequest(
                "invalid_attribute_value (employee_compensations): hours can only be entered for hourly employees."
            )
        item = db.find_one(payroll_items, payroll_uuid=payroll_uuid, employee_uuid=entry.employee_uuid, not_found="")
        changes = given(
            excluded=entry.excluded,
            regular_hours=None if entry.regular_hours is None else int(entry.regular_hours * 100),
            overtime_hours=None if entry.overtime_hours is None else int(entry.overtime_hours * 100),
            bonus=None if entry.bonus is None else rules.cents(entry.bonus),
            commission=None if entry.commission is None else rules.cents(entry.commission),
            reimbursement=None if entry.reimbursement is None else rules.cents(entry.reimbursement),
        )  # fmt: skip
        db.update(payroll_items, item["id"], **changes)
    return payroll_object(db, invalidate(db, p), people)


@tool()
def calculate_payroll(db: Database, company_uuid: Uuid, payroll_uuid: Uuid) -> Payroll:
    """Calculate an unprocessed payroll: every employee's gross pay, taxes and net pay, and the totals the company
    will be debited. Required before submitting, and again after any change.

    Args:
        company_uuid: The company.
        payroll_uuid: The payroll.
    """
    company(db, company_uuid)
    p = payroll(db, company_uuid, payroll_uuid)
    unprocessed(p)
    done = calculate(db, p)
    return payroll_object(db, done, people_on(db, done))


@tool()
def submit_payroll(db: Database, company_uuid: Uuid, payroll_uuid: Uuid, version: Version) -> PayrollSummary:
    """Submit a calculated payroll for processing. Submitted after 4:00pm PT on its payroll deadline, the payroll
    is late: its deadline and check date move one business day later.

    Args:
        company_uuid: The company.
        payroll_uuid: The payroll.
        version: The payroll's current version (the one calculate_payroll returned).
    """
    company(db, company_uuid)
    p = payroll(db, company_uuid, payroll_uuid)
    unprocessed(p)
    check_version(p, version)
    if not p["calculated"]:
        raise Conflict("invalid_operation (base): the payroll must be calculated before it can be submitted.")
    changes = {"processed": True, "processed_date": db.now().date().isoformat(), "revision": p["revision"] + 1}
    if db.now_iso() >= p["payroll_deadline"]:
        deadline = parse_date(p["payroll_deadline"][:10], "payroll_deadline")
        changes["check_date"] = rules.add_business_days(parse_date(p["check_date"], "check_date"), 1).isoformat()
        changes["payroll_deadline"] = f"{rules.add_business_days(deadline, 1).isoformat()}{p['payroll_deadline'][10:]}"
    return payroll_summary(db, db.update(payrolls, payroll_uuid, **changes))


@tool()
def cancel_payroll(db: Database, company_uuid: Uuid, payroll_uuid: Uuid) -> PayrollSummary:
    """Cancel a submitted payroll before 4:00pm PT on its deadline; it returns to unprocessed and uncalculated.

    Args:
        company_uuid: The company.
        payroll_uuid: The payroll.
    """
    company(db, company_uuid)
    p = payroll(db, company_uuid, payroll_uuid)
    if rules.payroll_status(p, db.now()) != "submitted":
        raise Conflict(
            "invalid_operation (base): only a submitted payroll can be canceled, before 4:00pm PT on its deadline."
        )
    reopened = db.update(payrolls, payroll_uuid, processed=False, processed_date=None)
    return payroll_summary(db, invalidate(db, reopened))


# ---------------------------------------------------------------- time off


@tool(read_only=True)
def list_time_off_policies(db: Database, company_uuid: Uuid) -> list[TimeOffPolicy]:
    """The company's time off policies (vacation, sick) and how they accrue.

    Args:
        company_uuid: The company.
    """
    company(db, company_uuid)
    return [policy_object(p) for p in db.find(time_off_policies, company_uuid=company_uuid)]


@tool(read_only=True)
def get_time_off_policy(db: Database, time_off_policy_uuid: Uuid) -> TimeOffPolicyDetail:
    """A time off policy with every enrolled employee's balance in hours.

    Args:
        time_off_policy_uuid: The policy.
    """
    p = db.get(time_off_policies, time_off_policy_uuid, "Time off policy")
    company(db, p["company_uuid"])
    enrolled = [
        PolicyEmployee(
            uuid=e["uuid"], first_name=e["first_name"], last_name=e["last_name"], balance=rules.hours(m["balance"])
        )
        for m in db.find(policy_employees, policy_uuid=time_off_policy_uuid)
        for e in [db.get(employees, m["employee_uuid"])]
    ]  # fmt: skip
    return TimeOffPolicyDetail(**policy_object(p).model_dump(), employees=enrolled)


@tool(read_only=True)
def list_time_off_requests(
    db: Database,
    company_uuid: Uuid,
    status: Literal["pending", "approved", "denied"] | None = None,
    employee_uuid: Uuid | None = None,
) -> list[TimeOffRequest]:
    """The company's time off requests by start date.

    Args:
        company_uuid: The company.
        status: Only requests with this status.
        employee_uuid: Only this employee's requests.
    """
    company(db, company_uuid)
    rows = db.find(
        time_off_requests, company_uuid=company_uuid, **given(status=status, employee_uuid=employee_uuid),
        order_by=[time_off_requests.c.start_date],
    )  # fmt: skip
    return [
        request_object(
            r, db.get(employees, r["employee_uuid"]), db.get(time_off_policies, r["policy_uuid"])["policy_type"]
        )
        for r in rows
    ]  # fmt: skip


@tool()
def create_time_off_request(
    db: Database,
    employee_uuid: Uuid,
    time_off_policy_uuid: Uuid,
    start_date: IsoDate,
    end_date: IsoDate,
    hours: Annotated[
        Decimal, Field(gt=0, le=400, decimal_places=3, description='total hours, e.g. "16.000"'), Thousandths
    ],
    employee_note: text(500) | None = None,
) -> TimeOffRequest:
    """File a pending time off request for an employee under a policy they are enrolled in.

    Args:
        employee_uuid: The employee.
        time_off_policy_uuid: The policy it draws on.
        start_date: First day off (YYYY-MM-DD).
        end_date: Last day off (YYYY-MM-DD).
        hours: Total hours off.
        employee_note: The employee's note.
    """
    e = employee(db, employee_uuid)
    policy = db.get(time_off_policies, time_off_policy_uuid, "Time off policy")
    first, last = parse_date(start_date, "start_date"), parse_date(end_date, "end_date")
    if e["terminated"]:
        raise Conflict("invalid_operation (employee): a terminated employee cannot request time off.")
    if not db.find(policy_employees, policy_uuid=time_off_policy_uuid, employee_uuid=employee_uuid):
        raise InvalidRequest("invalid_attribute_value (time_off_policy): the employee is not enrolled in this policy.")
    if last < first:
        raise InvalidRequest("invalid_attribute_value (end_date): must be on or after start_date.")
    if last - first > timedelta(days=60):
        raise InvalidRequest("invalid_attribute_value (end_date): a request may span at most 60 days.")
    row = db.insert(
        time_off_requests, uuid=db.new_uuid(time_off_requests), company_uuid=e["company_uuid"],
        employee_uuid=employee_uuid, policy_uuid=time_off_policy_uuid, start_date=start_date, end_date=end_date,
        hours=int(hours * 100), status="pending", employee_note=employee_note, employer_note=None,
    )  # fmt: skip
    return request_object(row, e, policy["policy_type"])


@tool()
def decide_time_off_request(
    db: Database,
    time_off_request_uuid: Uuid,
    decision: Literal["approved", "denied"],
    employer_note: text(500) | None = None,
) -> TimeOffRequest:
    """Approve or deny a pending time off request. Approving takes its hours off the employee's balance, which may
    not go below zero unless the policy is unlimited.

    Args:
        time_off_request_uuid: The request.
        decision: approved or denied.
        employer_note: A note to the employee.
    """
    r = db.get(time_off_requests, time_off_request_uuid, "Time off request")
    e = employee(db, r["employee_uuid"])
    policy = db.get(time_off_policies, r["policy_uuid"])
    if r["status"] != "pending":
        raise Conflict(f"invalid_operation (status): this request has already been {r['status']}.")
    if decision == "approved" and policy["accrual_method"] != "unlimited":
        member = db.find_one(
            policy_employees, policy_uuid=policy["uuid"], employee_uuid=e["uuid"], not_found="Not enrolled."
        )
        if member["balance"] < r["hours"]:
            raise Conflict(
                f"invalid_attribute_value (hours): {rules.hours(r['hours'])} hours exceed the employee's balance of "
                f"{rules.hours(member['balance'])} hours."
            )
        db.update(policy_employees, member["id"], balance=member["balance"] - r["hours"])
    updated = db.update(time_off_requests, r["uuid"], status=decision, **given(employer_note=employer_note))
    return request_object(updated, e, policy["policy_type"])
