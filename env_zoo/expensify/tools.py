"""Expensify tools: the signed-in account, workspaces (policies) with members and categories, expenses (cash,
distance, per diem, company card) with SmartScanned receipts, and expense reports from Open to Reimbursed."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy import func

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import CurrencyCode, ErrorText, IsoDate, PageSize

from .access import (
    admin_policy,
    can_view,
    check_approver,
    check_rejecter,
    editable_expense,
    me,
    member_policy,
    membership,
    not_reimbursable,
    own_open_report,
    visible_report,
)
from .filing import (
    check_category,
    check_duplicate,
    check_tag,
    expense_changes,
    insert_expense,
    log,
    move_to,
    receipt_match,
    require_owner,
    store_receipt,
    workspace_and_report,
)
from .objects import (
    AccountObject,
    CategoryObject,
    ExpenseObject,
    MemberObject,
    PolicyObject,
    ReimbursementResult,
    ReportDetails,
    ReportObject,
    SkippedReport,
    account_object,
    expense_object,
    member_object,
    page_of,
    policy_object,
    report_details,
    report_expenses,
    report_object,
)
from .rules import (
    USD_PER_UNIT,
    check_currency,
    convert,
    money,
    next_approver,
    past_date,
    per_diem_claim,
    submission_problems,
)
from .schema import accounts, policy_members, receipts, reports, session, transactions
from .workspace import add_member, member_changes, removable_member, remove_member, set_category

Role = Literal["admin", "auditor", "user"]
ReportStatus = Literal["OPEN", "PROCESSING", "APPROVED", "REIMBURSED", "CLOSED"]
REPORT_PREFIX, REPORT_WIDTH = "9", 7  # 8-digit numeric reportIDs
Day = Annotated[IsoDate, ErrorText("must be a date like 2025-06-12")]
Currency = Annotated[CurrencyCode, ErrorText(f"Unsupported currency. Use one of {', '.join(USD_PER_UNIT)}.")]
Email = Annotated[
    str, Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[A-Za-z]{2,}\s*$"), ErrorText("That isn't a valid email address.")
]
Title = Annotated[
    str, Field(min_length=1, max_length=100, pattern=r"\S"), ErrorText("title must be 1 to 100 characters.")
]
Merchant = Annotated[
    str, Field(min_length=1, max_length=255, pattern=r"\S"), ErrorText("merchant must be 1 to 255 characters.")
]
Comment = Annotated[
    str, Field(min_length=1, max_length=500, pattern=r"\S"), ErrorText("comment must be 1 to 500 characters.")
]
Reason = Annotated[
    str, Field(min_length=1, max_length=500, pattern=r"\S"), ErrorText("reason must be 1 to 500 characters.")
]
CategoryName = Annotated[
    str, Field(min_length=1, max_length=60, pattern=r"\S"), ErrorText("name must be 1 to 60 characters.")
]
ApprovalLimit = Annotated[int, Field(ge=0), ErrorText("approval_limit can't be negative.")]
CategoryLimit = Annotated[int, Field(ge=0), ErrorText("max_expense_amount can't be negative.")]
Distance = Annotated[float, Field(gt=0, le=10_000), ErrorText("distance must be more than 0 and at most 10,000.")]
TransactionIds = Annotated[list[str], Field(min_length=1), Unordered, ErrorText("Give at least one transaction_id.")]
ReportIds = Annotated[list[str], Field(min_length=1), ErrorText("Give at least one report_id.")]


# ---------------------------------------------------------------- account and workspaces


@tool(read_only=True)
def get_account(db: Database) -> AccountObject:
    """Who is signed in: their email, name, default workspace, and every workspace they belong to with their
    role and the approver their reports go to."""
    return account_object(db, me(db)["email"])


@tool(read_only=True)
def get_policy(db: Database, policy_id: str) -> PolicyObject:
    """Retrieve a workspace (policy): its expense rules (receipt threshold, maximum amount, maximum age),
    categories with their limits, tags, distance rate, per diem rates and approval mode.

    Args:
        policy_id: The workspace's policyID (16 hex characters), as listed by get_account.
    """
    email = me(db)["email"]
    policy = member_policy(db, policy_id, email)
    return policy_object(db, policy, membership(db, policy_id, email)["role"])


@tool(read_only=True)
def list_policy_members(db: Database, policy_id: str) -> list[MemberObject]:
    """List a workspace's members (employees) with their role and approval workflow: who they submit to, who
    their approvals go on to, and their approval limit.

    Args:
        policy_id: The workspace's policyID.
    """
    member_policy(db, policy_id, me(db)["email"])
    rows = db.find(policy_members, policy_id=policy_id, order_by=[policy_members.c.email])
    return [member_object(db, m) for m in rows]


@tool()
def set_policy_member(
    db: Database,
    policy_id: str,
    email: Email,
    role: Role | None = None,
    submits_to: str | None = None,
    approves_to: str | None = None,
    approval_limit: ApprovalLimit | None = None,
    over_limit_approver: str | None = None,
    employee_id: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
) -> MemberObject:
    """Add an employee to a workspace or change a member's role and approval workflow (admins only). New
    members default to the user role and submit to the workspace owner; someone without an Expensify account
    needs a first and last name. Approvers must be members of the workspace.

    Args:
        policy_id: The workspace's policyID.
        email: The employee's email.
        role: admin, auditor (sees every report, changes nothing) or user.
        submits_to: Email of the approver the member's reports go to first.
        approves_to: Email of the next approver after this member approves (Advanced Approval); "" clears it.
        approval_limit: Cents; reports above it go on to over_limit_approver after this member approves; 0
            removes the limit.
        over_limit_approver: Email of the approver for reports above approval_limit; "" clears it.
        employee_id: The payroll employee ID.
        first_name: First name, for someone new to Expensify.
        last_name: Last name, for someone new to Expensify.
    """
    policy = admin_policy(db, policy_id, me(db)["email"])
    address = email.strip().lower()
    existing = membership(db, policy_id, address)
    asked = dict(
        role=role,
        submits_to=submits_to,
        approves_to=approves_to,
        approval_limit=approval_limit,
        over_limit_approver=over_limit_approver,
        employee_id=employee_id,
    )
    changes = member_changes(db, policy, address, existing, asked)
    if existing is None:
        return member_object(db, add_member(db, policy, address, changes, first_name, last_name))
    if not changes:
        raise InvalidRequest("Nothing to update: give a role, approver, limit or employee_id.")
    return member_object(db, db.update(policy_members, existing["id"], **changes))


@tool()
def remove_policy_member(db: Database, policy_id: str, email: str) -> MemberObject:
    """Remove someone from a workspace (admins only). The owner can't be removed, nor an approver others still
    route reports to or who has reports waiting on their approval.

    Args:
        policy_id: The workspace's policyID.
        email: The member's email.
    """
    policy = admin_policy(db, policy_id, me(db)["email"])
    member = removable_member(db, policy, email.strip().lower())
    removed = member_object(db, member)
    remove_member(db, policy_id, member)
    return removed


@tool()
def set_policy_category(
    db: Database,
    policy_id: str,
    name: CategoryName,
    enabled: bool | None = None,
    gl_code: str | None = None,
    max_expense_amount: CategoryLimit | None = None,
    comment_required: bool | None = None,
) -> CategoryObject:
    """Add a category to a workspace or change one (admins only): enable or disable it, its GL code, its
    per-expense limit and whether expenses in it need a comment. At least one category must stay enabled.

    Args:
        policy_id: The workspace's policyID.
        name: The category's exact name; a new name adds the category.
        enabled: false hides the category from new expenses and flags expenses already in it.
        gl_code: The general-ledger code exported with it.
        max_expense_amount: Per-expense limit in cents of the workspace currency; 0 removes the limit.
        comment_required: Whether expenses in this category need a comment.
    """
    policy = admin_policy(db, policy_id, me(db)["email"])
    changes = given(enabled=enabled, gl_code=gl_code, comment_required=comment_required)
    if max_expense_amount is not None:
        changes["max_expense_amount"] = max_expense_amount or None
    return CategoryObject(**set_category(db, policy, name.strip(), changes))


# ---------------------------------------------------------------- expenses


@tool(read_only=True)
def list_expenses(
    db: Database,
    start_date: Day | None = None,
    end_date: Day | None = None,
    merchant: str | None = None,
    category: str | None = None,
    report_id: str | None = None,
    unreported_only: bool = False,
    limit: PageSize = 50,
    cursor: str | None = None,
) -> Page[ExpenseObject]:
    """List your own expenses, newest first, with receipts and violations.

    Args:
        start_date: Only expenses dated on or after this day (YYYY-MM-DD).
        end_date: Only expenses dated on or before this day.
        merchant: Only merchants containing this text (case-insensitive).
        category: Only this category.
        report_id: Only expenses on this report.
        unreported_only: Only expenses not on any report.
        limit: Expenses per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    conditions = []
    if start_date is not None:
        conditions.append(transactions.c.created >= start_date)
    if end_date is not None:
        conditions.append(transactions.c.created <= end_date)
    if merchant is not None:
        conditions.append(func.lower(transactions.c.merchant).contains(merchant.strip().lower()))
    if unreported_only:
        conditions.append(transactions.c.report_id.is_(None))
    rows = db.find(
        transactions,
        *conditions,
        order_by=[transactions.c.created.desc()],
        account_email=me(db)["email"],
        **given(category=category, report_id=report_id),
    )
    return page_of(rows, limit, cursor, lambda r: expense_object(db, r))


@tool()
def create_expense(
    db: Database,
    merchant: Merchant,
    amount: int,
    created: Day,
    currency: Currency | None = None,
    category: str | None = None,
    tag: str | None = None,
    comment: str = "",
    billable: bool | None = None,
    reimbursable: bool = True,
    policy_id: str | None = None,
    report_id: str | None = None,
    dont_check_duplicates: bool = False,
) -> ExpenseObject:
    """Create an out-of-pocket (cash) expense in your account, optionally straight onto one of your Open
    reports. An expense matching one you already have (merchant, amount, currency and date) is refused as a
    duplicate unless dont_check_duplicates is set. Rule violations (missing receipt, over a limit, too old) are
    flagged on the expense and must be fixed before its report is submitted.

    Args:
        merchant: Where the money was spent.
        amount: Cents in `currency`, e.g. 4250 for 42.50; negative for a refund.
        created: The expense date, YYYY-MM-DD (not in the future).
        currency: ISO code (USD, EUR, GBP, CAD, CHF, DKK, MXN); defaults to the workspace's currency.
        category: One of the workspace's enabled categories.
        tag: One of the workspace's enabled tags (e.g. the client project).
        comment: The expense's description.
        billable: Whether to bill it to a client; defaults to the workspace setting.
        reimbursable: Whether you are owed the money back.
        policy_id: The workspace; defaults to your default workspace (or the report's).
        report_id: An Open report of yours to add it to.
        dont_check_duplicates: Create it even if it looks like a duplicate.
    """
    account = me(db)
    policy, report = workspace_and_report(db, account, policy_id, report_id)
    if amount == 0:
        raise InvalidRequest("amount can't be 0.")
    values = {
        "account_email": account["email"],
        "type": "cash",
        "merchant": merchant.strip(),
        "amount": amount,
        "currency": check_currency(currency or policy["output_currency"]),
        "created": past_date(db, created, "created"),
        "category": check_category(db, policy, category),
        "tag": check_tag(policy, tag),
        "comment": comment.strip(),
        "billable": policy["default_billable"] if billable is None else billable,
        "reimbursable": reimbursable,
        "report_id": report and report["report_id"],
    }
    if not dont_check_duplicates:
        check_duplicate(db, values)
    return expense_object(db, insert_expense(db, policy, **values))


@tool()
def create_distance_expense(
    db: Database,
    distance: Distance,
    created: Day,
    comment: Comment,
    category: str = "Mileage",
    tag: str | None = None,
    billable: bool | None = None,
    policy_id: str | None = None,
    report_id: str | None = None,
) -> ExpenseObject:
    """Create a distance (mileage) expense: the distance times the workspace's rate, in the workspace's unit
    (mi or km). Distance expenses need no receipt.

    Args:
        distance: Distance driven, in the workspace's unit.
        created: The date of the trip, YYYY-MM-DD.
        comment: The route or purpose, e.g. "Office to Bluebird Health and back".
        category: The category; Mileage by default.
        tag: One of the workspace's enabled tags.
        billable: Whether to bill it to a client; defaults to the workspace setting.
        policy_id: The workspace; defaults to your default workspace (or the report's).
        report_id: An Open report of yours to add it to.
    """
    account = me(db)
    policy, report = workspace_and_report(db, account, policy_id, report_id)
    rate, unit = policy["distance_rate"], policy["distance_unit"]
    if rate is None:
        raise InvalidRequest(f"Distance expenses aren't enabled on '{policy['name']}'.")
    currency = policy["output_currency"]
    row = insert_expense(
        db,
        policy,
        account_email=account["email"],
        type="distance",
        merchant=f"{distance:.2f} {unit} @ {money(rate, currency)} / {unit}",
        amount=round(distance * rate),
        currency=currency,
        created=past_date(db, created, "created"),
        category=check_category(db, policy, category),
        tag=check_tag(policy, tag),
        comment=comment.strip(),
        billable=policy["default_billable"] if billable is None else billable,
        reimbursable=True,
        report_id=report and report["report_id"],
        distance=distance,
        distance_unit=unit,
        distance_rate=rate,
    )
    return expense_object(db, row)


@tool()
def create_per_diem_expense(
    db: Database,
    destination: str,
    start_date: Day,
    end_date: Day,
    comment: str = "",
    tag: str | None = None,
    policy_id: str | None = None,
    report_id: str | None = None,
) -> ExpenseObject:
    """Claim per diem for a business trip at the workspace's rates for the destination: the first and last day
    at the Partial day rate, the days between at the Full day rate (a one-day trip is one Partial day). Trips
    may last up to 30 days, must be over, and can't overlap a per diem you already claimed.

    Args:
        destination: The per diem destination as the workspace lists it, e.g. "France - Paris".
        start_date: The day the trip began, YYYY-MM-DD.
        end_date: The day it ended (on or after start_date, not in the future).
        comment: The trip's purpose.
        tag: One of the workspace's enabled tags.
        policy_id: The workspace; defaults to your default workspace (or the report's).
        report_id: An Open report of yours to add it to.
    """
    account = me(db)
    policy, report = workspace_and_report(db, account, policy_id, report_id)
    claim = per_diem_claim(db, policy, account["email"], destination, start_date, end_date)
    row = insert_expense(
        db,
        policy,
        account_email=account["email"],
        type="per_diem",
        category=check_category(db, policy, "Per Diem"),
        tag=check_tag(policy, tag),
        comment=comment.strip(),
        billable=policy["default_billable"],
        reimbursable=True,
        report_id=report and report["report_id"],
        **claim,
    )
    return expense_object(db, row)


@tool()
def update_expense(
    db: Database,
    transaction_id: str,
    merchant: Merchant | None = None,
    amount: int | None = None,
    currency: Currency | None = None,
    created: Day | None = None,
    category: str | None = None,
    tag: str | None = None,
    comment: str | None = None,
    billable: bool | None = None,
    reimbursable: bool | None = None,
) -> ExpenseObject:
    """Edit one of your expenses while it is unreported or on an Open report. Company card expenses keep the
    merchant, amount, currency and date of the card feed and are never reimbursable; distance and per diem
    amounts are calculated and can't be typed in.

    Args:
        transaction_id: The expense's transactionID.
        merchant: New merchant.
        amount: New amount in cents.
        currency: New ISO currency code.
        created: New expense date, YYYY-MM-DD.
        category: New category (an enabled one of the expense's workspace).
        tag: New tag; "" removes it.
        comment: New description (replaces the old).
        billable: Whether to bill it to a client.
        reimbursable: Whether you are owed the money back.
    """
    account = me(db)
    tx = editable_expense(db, transaction_id, account["email"])
    policy = member_policy(db, tx["policy_id"], account["email"])
    asked = dict(merchant=merchant, amount=amount, currency=currency, created=created, category=category, tag=tag)
    changes = expense_changes(db, policy, tx, asked, comment, billable, reimbursable)
    merged = {**tx, **changes}
    changes["converted_amount"] = convert(merged["amount"], merged["currency"], policy["output_currency"])
    return expense_object(db, db.update(transactions, transaction_id, **changes))


@tool()
def delete_expense(db: Database, transaction_id: str) -> ExpenseObject:
    """Delete one of your expenses (and its receipt) while it is unreported or on an Open report. Company card
    expenses can't be deleted.

    Args:
        transaction_id: The expense's transactionID.
    """
    tx = editable_expense(db, transaction_id, me(db)["email"])
    if tx["type"] == "card":
        raise Conflict(
            f"The {tx['merchant']} expense came from your company card (ending {tx['card_last4']}); "
            "card expenses can't be deleted."
        )
    deleted = expense_object(db, tx)
    db.delete(transactions, transaction_id)
    if tx["receipt_id"]:
        db.delete(receipts, tx["receipt_id"])
    return deleted


# ---------------------------------------------------------------- reports


@tool(read_only=True)
def list_reports(
    db: Database,
    status: ReportStatus | None = None,
    policy_id: str | None = None,
    owner_email: str | None = None,
    awaiting_my_approval: bool = False,
    limit: PageSize = 50,
    cursor: str | None = None,
) -> Page[ReportObject]:
    """List the expense reports you can see, newest first: your own, those you approve, and (for workspace
    admins and auditors) every report of the workspace.

    Args:
        status: Only reports in this status.
        policy_id: Only reports of this workspace.
        owner_email: Only reports submitted by this person.
        awaiting_my_approval: Only Processing reports waiting on your approval.
        limit: Reports per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    email = me(db)["email"]
    owner = owner_email.strip().lower() if owner_email is not None else None
    equals = given(status=status, policy_id=policy_id, owner_email=owner)
    if awaiting_my_approval:
        equals.update(status="PROCESSING", manager_email=email)
    rows = [r for r in db.find(reports, order_by=[reports.c.created.desc()], **equals) if can_view(db, r, email)]
    return page_of(rows, limit, cursor, lambda r: report_object(db, r))


@tool(read_only=True)
def get_report(db: Database, report_id: str) -> ReportDetails:
    """Retrieve a report with its totals, its expenses (with violations) and its history of submissions,
    approvals, rejections and reimbursement.

    Args:
        report_id: The reportID, as listed by list_reports.
    """
    return report_details(db, visible_report(db, report_id, me(db)["email"]))


@tool()
def create_report(
    db: Database, title: Title, transaction_ids: list[str] | None = None, policy_id: str | None = None
) -> ReportDetails:
    """Create an Open expense report in a workspace, optionally with some of your unreported expenses on it.

    Args:
        title: The report's title.
        transaction_ids: Unreported expenses of yours to put on it.
        policy_id: The workspace; defaults to your default workspace.
    """
    account = me(db)
    policy_id = policy_id or account["default_policy_id"]
    if policy_id is None:
        raise InvalidRequest("You have no default workspace; pass policy_id.")
    policy = member_policy(db, policy_id, account["email"])
    report = db.insert(
        reports,
        report_id=db.new_id(reports, REPORT_PREFIX, REPORT_WIDTH),
        policy_id=policy_id,
        owner_email=account["email"],
        manager_email=None,
        title=title.strip(),
        status="OPEN",
        currency=policy["output_currency"],
        created=db.now_iso(),
        submitted=None,
        approved=None,
        reimbursed=None,
    )
    log(db, report["report_id"], account["email"], "CREATED")
    for transaction_id in transaction_ids or []:
        tx = editable_expense(db, transaction_id, account["email"])
        if tx["report_id"] is not None:
            raise Conflict(f"The {tx['merchant']} expense is already on report {tx['report_id']}.")
        move_to(db, tx, report)
    return report_details(db, report)


@tool()
def move_expenses(db: Database, transaction_ids: TransactionIds, report_id: str | None = None) -> list[ExpenseObject]:
    """Move your expenses onto one of your Open reports, or take them off their report (unreported) when
    report_id is not given. Only unreported expenses and those on Open reports can move.

    Args:
        transaction_ids: The expenses' transactionIDs.
        report_id: The Open report to move them to; omit to take them off their report.
    """
    email = me(db)["email"]
    target = own_open_report(db, report_id, email) if report_id is not None else None
    moved = [move_to(db, editable_expense(db, t, email), target) for t in dict.fromkeys(transaction_ids)]
    return [expense_object(db, t) for t in moved]


@tool()
def submit_report(db: Database, report_id: str) -> ReportDetails:
    """Submit one of your Open reports for approval. It goes to the approver you submit to (status
    PROCESSING), or straight to CLOSED on Submit & Close workspaces. Reports with blocking violations
    (missing receipt or category, over a limit, older than the maximum age, ...) can't be submitted.

    Args:
        report_id: The reportID.
    """
    email = me(db)["email"]
    report = visible_report(db, report_id, email)
    require_owner(report, email, "submit")
    if report["status"] != "OPEN":
        raise Conflict(f"'{report['title']}' is already {report['status']}.")
    expenses = [expense_object(db, t) for t in report_expenses(db, report_id)]
    if not expenses:
        raise InvalidRequest("Add at least one expense before submitting.")
    problems = submission_problems(expenses)
    if problems:
        raise Conflict("Fix these expenses before submitting: " + "; ".join(problems) + ".")
    policy = member_policy(db, report["policy_id"], email)
    now = db.now_iso()
    if policy["approval_mode"] == "OPTIONAL":
        db.update(reports, report_id, status="CLOSED", submitted=now)
        log(db, report_id, email, "CLOSED", "Submitted and closed")
        return report_details(db, db.get(reports, report_id))
    approver = membership(db, policy["policy_id"], email)["submits_to"] or policy["owner_email"]
    if approver == email:
        raise Conflict("You have no approver other than yourself; ask a workspace admin to set who you submit to.")
    updated = db.update(reports, report_id, status="PROCESSING", manager_email=approver, submitted=now)
    log(db, report_id, email, "SUBMITTED", f"Submitted to {approver}")
    return report_details(db, updated)


@tool()
def approve_report(db: Database, report_id: str, comment: str = "") -> ReportDetails:
    """Approve a Processing report that is waiting on you. Under Advanced Approval it goes on to your next
    approver (or, above your approval limit, to your over-limit approver); otherwise it becomes APPROVED.
    Nobody can approve their own report.

    Args:
        report_id: The reportID.
        comment: A note for the submitter, kept in the report's history.
    """
    email = me(db)["email"]
    report = visible_report(db, report_id, email)
    check_approver(db, report, email)
    policy = member_policy(db, report["policy_id"], email)
    following = next_approver(db, policy, email, report_object(db, report).total)
    if following is not None and following != report["owner_email"]:  # a submitter never approves their own
        log(
            db,
            report_id,
            email,
            "FORWARDED",
            " ".join(filter(None, [f"Approved and forwarded to {following}.", comment.strip()])),
        )
        return report_details(db, db.update(reports, report_id, manager_email=following))
    log(db, report_id, email, "APPROVED", comment.strip())
    return report_details(db, db.update(reports, report_id, status="APPROVED", approved=db.now_iso()))


@tool()
def reject_report(db: Database, report_id: str, reason: Reason) -> ReportDetails:
    """Reject a report back to its submitter as Open, with the reason. Its current approver or a workspace
    admin can reject a Processing report; only admins can unapprove an Approved one. Reimbursed and closed
    reports are final.

    Args:
        report_id: The reportID.
        reason: Why it is rejected; the submitter sees it in the report's history.
    """
    email = me(db)["email"]
    report = visible_report(db, report_id, email)
    check_rejecter(db, report, email)
    log(db, report_id, email, "REJECTED", reason.strip())
    updated = db.update(reports, report_id, status="OPEN", manager_email=None, submitted=None, approved=None)
    return report_details(db, updated)


@tool()
def mark_reports_reimbursed(db: Database, report_ids: ReportIds) -> ReimbursementResult:
    """Mark Approved reports as reimbursed once they have been paid outside Expensify (workspace admins only).
    Reports that can't be marked are skipped with the reason; if none can, nothing changes.

    Args:
        report_ids: The reportIDs to mark.
    """
    email = me(db)["email"]
    done: list[str] = []
    skipped: list[SkippedReport] = []
    for report_id in dict.fromkeys(report_ids):
        found = db.find(reports, report_id=report_id)
        report = report_object(db, found[0]) if found and can_view(db, found[0], email) else None
        reason = not_reimbursable(db, report, email)
        if report is None or reason is not None:
            skipped.append(SkippedReport(report_id=report_id, reason=reason or "Report not found."))
            continue
        db.update(reports, report_id, status="REIMBURSED", reimbursed=db.now_iso())
        log(db, report_id, email, "REIMBURSED", f"Reimbursed {money(report.reimbursable_total, report.currency)}")
        done.append(report_id)
    if not done:
        raise Conflict("No report was marked as reimbursed: " + " ".join(f"{s.report_id}: {s.reason}" for s in skipped))
    return ReimbursementResult(report_ids=done, skipped_reports=skipped)


# ---------------------------------------------------------------- the person at the device


@tool(user_only=True)
def sign_in(db: Database, email: str) -> AccountObject:
    """(User only) Sign in to Expensify on this device with the magic code emailed to the account.

    Args:
        email: The account's email.
    """
    found = db.find(accounts, func.lower(accounts.c.email) == email.strip().lower())
    if not found:
        raise NotFound(f"No Expensify account uses {email}")
    db.start_session(session, email=found[0]["email"])
    return account_object(db, found[0]["email"])


@tool(user_only=True)
def smartscan_receipt(
    db: Database, merchant: Merchant, amount: int, created: Day, currency: Currency | None = None
) -> ExpenseObject:
    """(User only) Photograph a paper receipt with the Expensify app. SmartScan reads it and merges it into
    your matching expense without a receipt (same amount and currency, within 3 days, still editable), or
    creates a new expense from it.

    Args:
        merchant: The merchant printed on the receipt.
        amount: The receipt's total in cents.
        created: The receipt's date, YYYY-MM-DD.
        currency: The receipt's currency; defaults to your default workspace's.
    """
    account = me(db)
    policy, _ = workspace_and_report(db, account, None, None)
    if amount == 0:
        raise InvalidRequest("amount can't be 0.")
    code = check_currency(currency or policy["output_currency"])
    day = date.fromisoformat(past_date(db, created, "created"))
    receipt_id = store_receipt(db, merchant, amount, code, day)
    match = receipt_match(db, account["email"], amount, code, day)
    if match is not None:
        return expense_object(db, db.update(transactions, match["transaction_id"], receipt_id=receipt_id))
    row = insert_expense(
        db,
        policy,
        account_email=account["email"],
        type="cash",
        merchant=merchant.strip(),
        amount=amount,
        currency=code,
        created=day.isoformat(),
        billable=policy["default_billable"],
        reimbursable=True,
        receipt_id=receipt_id,
    )
    return expense_object(db, row)
