"""Expensify's API objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database, Page, paginate

from .rules import violations
from .schema import (
    accounts,
    categories,
    per_diem_rates,
    policies,
    policy_members,
    receipts,
    report_actions,
    transactions,
)


class WorkspaceRole(BaseModel):
    """A workspace the account belongs to and its place there."""

    policy_id: str
    name: str
    role: str = Field(description="admin, auditor or user")
    submits_to: str | None = Field(description="email of the approver this person's reports go to")


class AccountObject(BaseModel):
    """An Expensify account."""

    email: str
    account_id: int
    first_name: str
    last_name: str
    default_policy_id: str | None = Field(description="the workspace new expenses go to by default")
    workspaces: list[WorkspaceRole]


class CategoryObject(BaseModel):
    """An expense category of a workspace, with its rules."""

    policy_id: str
    name: str
    enabled: bool
    gl_code: str | None
    max_expense_amount: int | None = Field(description="per-expense cap in cents of the output currency")
    comment_required: bool


class TagObject(BaseModel):
    """A tag of the workspace's tag list."""

    name: str
    enabled: bool


class PerDiemRateObject(BaseModel):
    """A per diem rate: one subrate of one destination."""

    rate_id: str
    destination: str
    subrate: str = Field(description="Full day or Partial day (the first and last day of a trip)")
    amount: int = Field(description="cents per day")
    currency: str


class PolicyRules(BaseModel):
    """The workspace's expense rules."""

    max_expense_amount: int | None = Field(description="cents; larger expenses are flagged overLimit")
    max_expense_amount_no_receipt: int | None = Field(description="cents; larger expenses need a receipt")
    max_expense_age: int | None = Field(description="days; older expenses are flagged maxAge")
    requires_category: bool
    default_billable: bool


class PolicyObject(BaseModel):
    """A workspace (policy) with its rules, categories, tags, distance rate and per diem rates."""

    policy_id: str
    name: str
    type: str = Field(description="corporate (Control) or team (Collect)")
    owner_email: str
    output_currency: str
    approval_mode: str = Field(description="OPTIONAL (submit & close), BASIC (one approver) or ADVANCED")
    your_role: str
    rules: PolicyRules
    tag_list_name: str | None
    tags: list[TagObject]
    categories: list[CategoryObject]
    distance_rate: int | None = Field(description="cents per distance unit; None when distance is off")
    distance_unit: str | None
    per_diem_enabled: bool
    per_diem_rates: list[PerDiemRateObject]


class MemberObject(BaseModel):
    """A workspace member (employee) with role and approval workflow."""

    policy_id: str
    email: str
    first_name: str
    last_name: str
    role: str = Field(description="admin, auditor or user")
    employee_id: str | None
    submits_to: str | None = Field(description="who approves this member's reports first")
    approves_to: str | None = Field(description="where reports go after this member approves them")
    approval_limit: int | None = Field(description="cents; reports above it go on to over_limit_approver")
    over_limit_approver: str | None


class ReceiptObject(BaseModel):
    """A receipt image and what SmartScan read from it."""

    receipt_id: str
    filename: str
    url: str
    smartscan_merchant: str | None
    smartscan_amount: int | None
    smartscan_currency: str | None
    smartscan_created: str | None


class PerDiemSubrate(BaseModel):
    """How many days of one subrate a per diem expense pays."""

    subrate: str
    quantity: int
    rate: int = Field(description="cents per day")


class PerDiemDetails(BaseModel):
    """What a per diem expense covers."""

    destination: str
    start_date: str
    end_date: str
    subrates: list[PerDiemSubrate]


class ExpenseObject(BaseModel):
    """An expense (transaction) with its receipt and its current violations."""

    transaction_id: str
    account_email: str
    policy_id: str
    report_id: str | None = Field(description="None while unreported")
    type: str = Field(description="cash, card (company card feed), distance or per_diem")
    merchant: str
    amount: int = Field(description="cents in `currency`")
    currency: str
    converted_amount: int = Field(description="cents in the workspace's output currency")
    created: str = Field(description="the expense date")
    category: str | None
    tag: str | None
    comment: str
    billable: bool
    reimbursable: bool
    receipt: ReceiptObject | None
    card_last4: str | None
    distance: float | None
    distance_unit: str | None
    distance_rate: int | None
    per_diem: PerDiemDetails | None
    violations: list[str]


class ReportObject(BaseModel):
    """An expense report as listed."""

    report_id: str
    policy_id: str
    title: str
    owner_email: str
    manager_email: str | None = Field(description="the approver the report is waiting on")
    status: str = Field(description="OPEN, PROCESSING (submitted), APPROVED, REIMBURSED or CLOSED")
    currency: str
    total: int = Field(description="cents")
    reimbursable_total: int = Field(description="cents owed to the submitter")
    expense_count: int
    created: str
    submitted: str | None
    approved: str | None
    reimbursed: str | None


class ReportActionObject(BaseModel):
    """One entry of a report's history."""

    action_id: str
    actor_email: str
    action: str = Field(description="CREATED, SUBMITTED, FORWARDED, APPROVED, REJECTED, REIMBURSED or CLOSED")
    message: str
    created: str


class ReportDetails(ReportObject):
    """An expense report with its expenses and history."""

    expenses: list[ExpenseObject]
    history: list[ReportActionObject]


class SkippedReport(BaseModel):
    """A report a bulk status update left alone, and why."""

    report_id: str
    reason: str


class ReimbursementResult(BaseModel):
    """What marking reports as reimbursed did."""

    report_ids: list[str] = Field(description="reports now REIMBURSED")
    skipped_reports: list[SkippedReport]


def account_object(db: Database, email: str) -> AccountObject:
    """An account with the workspaces it belongs to."""
    account = db.get(accounts, email, "Account")
    workspaces = [
        WorkspaceRole(
            policy_id=m["policy_id"],
            name=db.get(policies, m["policy_id"])["name"],
            role=m["role"],
            submits_to=m["submits_to"],
        )
        for m in db.find(policy_members, email=email, order_by=[policy_members.c.policy_id])
    ]
    return AccountObject(**account, workspaces=workspaces)


def policy_object(db: Database, policy: dict[str, Any], role: str) -> PolicyObject:
    """A workspace with everything a member needs to file expenses on it."""
    pid = policy["policy_id"]
    return PolicyObject(
        **{k: policy[k] for k in PolicyObject.model_fields if k in policy and k != "tags"},
        your_role=role,
        rules=PolicyRules(**{k: policy[k] for k in PolicyRules.model_fields}),
        tags=[TagObject(**t) for t in policy["tags"]],
        categories=[CategoryObject(**c) for c in db.find(categories, policy_id=pid, order_by=[categories.c.name])],
        per_diem_rates=[
            PerDiemRateObject(**r)
            for r in db.find(per_diem_rates, policy_id=pid, order_by=[per_diem_rates.c.destination])
        ],
    )


def member_object(db: Database, member: dict[str, Any]) -> MemberObject:
    """A member with the name of their account."""
    account = db.get(accounts, member["email"], "Account")
    return MemberObject(**member, first_name=account["first_name"], last_name=account["last_name"])


def expense_object(db: Database, tx: dict[str, Any]) -> ExpenseObject:
    """An expense with its receipt expanded and its violations computed."""
    receipt = db.get(receipts, tx["receipt_id"], "Receipt") if tx["receipt_id"] else None
    return ExpenseObject(
        **{k: v for k, v in tx.items() if k in ExpenseObject.model_fields and k != "per_diem"},
        receipt=ReceiptObject(**receipt) if receipt else None,
        per_diem=PerDiemDetails(**tx["per_diem"]) if tx["per_diem"] else None,
        violations=violations(db, tx),
    )


def report_expenses(db: Database, report_id: str) -> list[dict[str, Any]]:
    """The expenses on a report, by date."""
    return db.find(transactions, report_id=report_id, order_by=[transactions.c.created])


def report_object(db: Database, report: dict[str, Any]) -> ReportObject:
    """A report with its totals."""
    expenses = report_expenses(db, report["report_id"])
    return ReportObject(
        **report,
        total=sum(t["converted_amount"] for t in expenses),
        reimbursable_total=sum(t["converted_amount"] for t in expenses if t["reimbursable"]),
        expense_count=len(expenses),
    )


def report_details(db: Database, report: dict[str, Any]) -> ReportDetails:
    """A report with its expenses and its history."""
    history = db.find(report_actions, report_id=report["report_id"], order_by=[report_actions.c.created])
    return ReportDetails(
        **report_object(db, report).model_dump(),
        expenses=[expense_object(db, t) for t in report_expenses(db, report["report_id"])],
        history=[ReportActionObject(**{k: a[k] for k in ReportActionObject.model_fields}) for a in history],
    )


def page_of(rows: list[dict[str, Any]], limit: int, cursor: str | None, convert_row: Any) -> Page[Any]:
    """Paginate stored rows, building output objects for the returned page only."""
    page = paginate(rows, limit, cursor)
    return Page[Any](
        results=[convert_row(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )
