"""Gusto's payroll objects as tables: payroll admins and the companies they administer, employees with their jobs
and compensation history, contractors and their payments, pay schedules, payrolls with one row per employee's
compensation, time off policies with employee balances, and time off requests. Money is in integer cents, hours in
hundredths of an hour; ids are UUIDs as Gusto gives them."""

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

companies = Table(
    "companies",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("trade_name", String),
    Column("ein", String, nullable=False),
    Column("entity_type", String, nullable=False),  # LLC | C-Corporation | S-Corporation | Sole proprietor
    Column("state", String, nullable=False),  # the primary work location's state
    Column("payroll_speed", Integer, nullable=False),  # business days between payroll deadline and check date
)

company_admins = Table(
    "company_admins",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
)

pay_schedules = Table(
    "pay_schedules",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("frequency", String, nullable=False),  # Every week | Every other week | Twice per month | Monthly
    Column("anchor_pay_date", String, nullable=False),
    Column("periods_per_year", Integer, nullable=False),
)

employees = Table(
    "employees",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("department", String, nullable=False),
    Column("pay_schedule_uuid", String, ForeignKey("pay_schedules.uuid"), nullable=False),
    Column("hire_date", String, nullable=False),
    Column("terminated", Boolean, nullable=False),
    Column("termination_date", String),
    Column("revision", Integer, nullable=False),
    Index("ix_employees_company", "company_uuid"),
)

jobs = Table(
    "jobs",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("employee_uuid", String, ForeignKey("employees.uuid"), nullable=False),
    Column("title", String, nullable=False),
    Column("primary", Boolean, nullable=False),
    Column("hire_date", String, nullable=False),
    Index("ix_jobs_employee", "employee_uuid"),
)

compensations = Table(
    "compensations",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("job_uuid", String, ForeignKey("jobs.uuid"), nullable=False),
    Column("rate", Integer, nullable=False),  # cents per payment_unit
    Column("payment_unit", String, nullable=False),  # Hour | Week | Month | Year | Paycheck
    Column("flsa_status", String, nullable=False),  # Exempt | Nonexempt | Owner
    Column("effective_date", String, nullable=False),
    Index("ix_compensations_job", "job_uuid"),
)

contractors = Table(
    "contractors",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("type", String, nullable=False),  # Individual | Business
    Column("first_name", String),
    Column("last_name", String),
    Column("business_name", String),
    Column("email", String, nullable=False),
    Column("wage_type", String, nullable=False),  # Fixed | Hourly
    Column("hourly_rate", Integer),  # cents, for Hourly contractors
    Column("is_active", Boolean, nullable=False),
    Column("start_date", String, nullable=False),
    Index("ix_contractors_company", "company_uuid"),
)

contractor_payments = Table(
    "contractor_payments",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("contractor_uuid", String, ForeignKey("contractors.uuid"), nullable=False),
    Column("date", String, nullable=False),
    Column("payment_method", String, nullable=False),  # Direct Deposit | Check | Historical Payment
    Column("hours", Integer, nullable=False),  # hundredths of an hour
    Column("wage", Integer, nullable=False),
    Column("bonus", Integer, nullable=False),
    Column("reimbursement", Integer, nullable=False),
    Column("wage_total", Integer, nullable=False),
    Column("status", String, nullable=False),  # Funded | Unfunded
    Index("ix_contractor_payments_company", "company_uuid", "date"),
)

payrolls = Table(
    "payrolls",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("pay_schedule_uuid", String, ForeignKey("pay_schedules.uuid"), nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("check_date", String, nullable=False),
    Column("payroll_deadline", String, nullable=False),  # 4:00pm PT on the deadline day, as a UTC timestamp
    Column("processed", Boolean, nullable=False),
    Column("processed_date", String),
    Column("calculated", Boolean, nullable=False),
    Column("gross_pay", Integer),
    Column("employee_taxes", Integer),
    Column("employer_taxes", Integer),
    Column("net_pay", Integer),
    Column("reimbursements", Integer),
    Column("company_debit", Integer),
    Column("revision", Integer, nullable=False),
    Index("ix_payrolls_company", "company_uuid", "start_date"),
)

payroll_items = Table(
    "payroll_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("payroll_uuid", String, ForeignKey("payrolls.uuid"), nullable=False),
    Column("employee_uuid", String, ForeignKey("employees.uuid"), nullable=False),
    Column("excluded", Boolean, nullable=False),
    Column("regular_hours", Integer, nullable=False),  # hundredths of an hour, for hourly pay
    Column("overtime_hours", Integer, nullable=False),
    Column("bonus", Integer, nullable=False),
    Column("commission", Integer, nullable=False),
    Column("reimbursement", Integer, nullable=False),
    Column("gross_pay", Integer),
    Column("employee_taxes", Integer),
    Column("employer_taxes", Integer),
    Column("net_pay", Integer),
    Index("ix_payroll_items_payroll", "payroll_uuid"),
)

time_off_policies = Table(
    "time_off_policies",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("policy_type", String, nullable=False),  # vacation | sick
    Column("accrual_method", String, nullable=False),  # unlimited | per_pay_period | per_calendar_year
    Column("accrual_rate", Integer),  # hundredths of an hour
    Column("max_accrual_hours", Integer),
    Column("is_active", Boolean, nullable=False),
)

policy_employees = Table(
    "policy_employees",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("policy_uuid", String, ForeignKey("time_off_policies.uuid"), nullable=False),
    Column("employee_uuid", String, ForeignKey("employees.uuid"), nullable=False),
    Column("balance", Integer, nullable=False),  # hundredths of an hour
    Index("ix_policy_employees", "policy_uuid", "employee_uuid"),
)

time_off_requests = Table(
    "time_off_requests",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("company_uuid", String, ForeignKey("companies.uuid"), nullable=False),
    Column("employee_uuid", String, ForeignKey("employees.uuid"), nullable=False),
    Column("policy_uuid", String, ForeignKey("time_off_policies.uuid"), nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("hours", Integer, nullable=False),  # hundredths of an hour
    Column("status", String, nullable=False),  # pending | approved | denied
    Column("employee_note", String),
    Column("employer_note", String),
    Index("ix_time_off_requests_company", "company_uuid", "status"),
)
