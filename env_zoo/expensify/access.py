"""Who is signed in and what they may see or do: workspace membership and roles, report visibility, and the
expenses and reports only their owner may still change."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .schema import accounts, policies, policy_members, report_actions, reports, session, transactions

EDITABLE = "OPEN"


def me(db: Database) -> dict[str, Any]:
    """The signed-in account."""
    signed_in = db.current_session(session, "Nobody is signed in. Sign in to Expensify with your magic code first.")
    return db.get(accounts, signed_in["email"], "Account")


def membership(db: Database, policy_id: str, email: str) -> dict[str, Any] | None:
    """The member row of `email` in the workspace, if any."""
    found = db.find(policy_members, policy_id=policy_id, email=email)
    return found[0] if found else None


def is_admin(db: Database, policy_id: str, email: str) -> bool:
    """Whether `email` administers the workspace."""
    member = membership(db, policy_id, email)
    return member is not None and member["role"] == "admin"


def member_policy(db: Database, policy_id: str, email: str) -> dict[str, Any]:
    """A workspace the account belongs to."""
    policy = db.get(policies, policy_id, "Policy")
    if membership(db, policy_id, email) is None:
        raise PermissionDenied(f"You're not a member of the workspace '{policy['name']}'.")
    return policy


def admin_policy(db: Database, policy_id: str, email: str) -> dict[str, Any]:
    """A workspace the account administers."""
    policy = member_policy(db, policy_id, email)
    if not is_admin(db, policy_id, email):
        raise PermissionDenied(f"Only admins of '{policy['name']}' can do that.")
    return policy


def can_view(db: Database, report: dict[str, Any], email: str) -> bool:
    """Submitter, current approver, anyone who acted on it, and the workspace's admins and auditors."""
    if email in (report["owner_email"], report["manager_email"]):
        return True
    member = membership(db, report["policy_id"], email)
    if member is not None and member["role"] in ("admin", "auditor"):
        return True
    return bool(db.find(report_actions, report_id=report["report_id"], actor_email=email))


def visible_report(db: Database, report_id: str, email: str) -> dict[str, Any]:
    """A report the account may open (others are reported as not found, as the API does)."""
    found = db.find(reports, report_id=report_id)
    if not found or not can_view(db, found[0], email):
        raise NotFound(f"Report '{report_id}' not found")
    return found[0]


def own_open_report(db: Database, report_id: str, email: str) -> dict[str, Any]:
    """One of the account's own reports that is still Open."""
    report = visible_report(db, report_id, email)
    if report["owner_email"] != email:
        raise PermissionDenied(f"'{report['title']}' belongs to {report['owner_email']}; only they can change it.")
    if report["status"] != EDITABLE:
        raise Conflict(f"'{report['title']}' is {report['status']}; only Open reports can be changed.")
    return report


def own_expense(db: Database, transaction_id: str, email: str) -> dict[str, Any]:
    """One of the account's own expenses."""
    found = db.find(transactions, transaction_id=transaction_id)
    if not found or found[0]["account_email"] != email:
        raise NotFound(f"Expense '{transaction_id}' not found")
    return found[0]


def editable_expense(db: Database, transaction_id: str, email: str) -> dict[str, Any]:
    """One of the account's own expenses that is unreported or on an Open report."""
    tx = own_expense(db, transaction_id, email)
    if tx["report_id"] is not None:
        report = db.get(reports, tx["report_id"], "Report")
        if report["status"] != EDITABLE:
            raise Conflict(
                f"The {tx['merchant']} expense is on '{report['title']}', which is {report['status']}; "
                "it can't be changed unless the report is rejected back to Open."
            )
    return tx


def approver_email(db: Database, policy_id: str, email: str, field: str, subject: str) -> str:
    """An approver for `subject`'s reports: a member of the workspace other than the subject."""
    value = email.strip().lower()
    if value == subject:
        raise InvalidRequest(f"{field}: {subject} can't approve their own reports.")
    if membership(db, policy_id, value) is None:
        raise InvalidRequest(f"{field}: {value} isn't a member of this workspace.")
    return value


def check_approver(db: Database, report: dict[str, Any], email: str) -> None:
    """Only the approver a Processing report waits on may approve it, and never its submitter."""
    if report["status"] != "PROCESSING":
        raise Conflict(f"'{report['title']}' is {report['status']}; only Processing reports can be approved.")
    if report["owner_email"] == email:
        raise PermissionDenied("You can't approve your own report.")
    if report["manager_email"] != email:
        raise PermissionDenied(f"'{report['title']}' is waiting on {report['manager_email']}'s approval, not yours.")


def check_rejecter(db: Database, report: dict[str, Any], email: str) -> None:
    """The current approver or an admin rejects a Processing report; only admins unapprove an Approved one."""
    admin = is_admin(db, report["policy_id"], email)
    title, status = report["title"], report["status"]
    if status not in ("PROCESSING", "APPROVED"):
        raise Conflict(f"'{title}' is {status}; only Processing or Approved reports can be rejected.")
    if status == "PROCESSING" and email != report["manager_email"] and not admin:
        raise PermissionDenied(f"Only {report['manager_email']} or a workspace admin can reject '{title}'.")
    if status == "APPROVED" and not admin:
        raise PermissionDenied("Only workspace admins can unapprove an Approved report.")


def not_reimbursable(db: Database, report: Any, email: str) -> str | None:
    """Why `email` can't mark this report (a ReportObject, or None when not found) as reimbursed."""
    if report is None:
        return "Report not found."
    if not is_admin(db, report.policy_id, email):
        return "Only workspace admins can mark reports as reimbursed."
    if report.status != "APPROVED":
        return f"Report is {report.status}; only Approved reports can be marked as reimbursed."
    if report.reimbursable_total == 0:
        return "Nothing to reimburse: the report has no reimbursable expenses."
    return None
