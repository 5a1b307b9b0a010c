"""Administering a workspace: adding members and changing their roles and approval workflow, removing them,
and its categories. Only admins get here; these functions hold the rules, the tools only call them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, or_, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import approver_email, membership
from .schema import accounts, categories, policy_members, reports


def member_changes(
    db: Database,
    policy: dict[str, Any],
    address: str,
    existing: dict[str, Any] | None,
    asked: dict[str, Any],
) -> dict[str, Any]:
    """The member fields to set: the owner stays an admin, approvers are other members, a limit needs an
    over-limit approver."""
    policy_id = policy["policy_id"]
    changes: dict[str, Any] = {}
    if asked["role"] is not None:
        if address == policy["owner_email"] and asked["role"] != "admin":
            raise Conflict("The workspace owner must stay an admin.")
        changes["role"] = asked["role"]
    if asked["submits_to"] is not None:
        changes["submits_to"] = approver_email(db, policy_id, asked["submits_to"], "submits_to", address)
    for field in ("approves_to", "over_limit_approver"):
        value = asked[field]
        if value is not None:
            changes[field] = approver_email(db, policy_id, value, field, address) if value.strip() else None
    if asked["approval_limit"] is not None:
        changes["approval_limit"] = asked["approval_limit"] or None
    if asked["employee_id"] is not None:
        changes["employee_id"] = asked["employee_id"].strip() or None
    limit = changes.get("approval_limit", existing and existing["approval_limit"])
    over = changes.get("over_limit_approver", existing and existing["over_limit_approver"])
    if limit and not over:
        raise InvalidRequest("An approval limit needs an over_limit_approver.")
    return changes


def add_member(
    db: Database,
    policy: dict[str, Any],
    address: str,
    changes: dict[str, Any],
    first_name: str | None,
    last_name: str | None,
) -> dict[str, Any]:
    """A new member (a new Expensify account too, when the address has none): a user submitting to the owner
    unless `changes` say otherwise."""
    policy_id = policy["policy_id"]
    account = db.find(accounts, email=address)
    if not account:
        if not (first_name and first_name.strip() and last_name and last_name.strip()):
            raise InvalidRequest(f"{address} has no Expensify account yet; give first_name and last_name.")
        next_id = db.conn.execute(select(func.max(accounts.c.account_id))).scalar_one() + 1
        db.insert(
            accounts,
            email=address,
            account_id=next_id,
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            default_policy_id=policy_id,
        )
    elif account[0]["default_policy_id"] is None:
        db.update(accounts, address, default_policy_id=policy_id)
    return db.insert(
        policy_members,
        **{
            "policy_id": policy_id,
            "email": address,
            "role": "user",
            "employee_id": None,
            "submits_to": policy["owner_email"] if address != policy["owner_email"] else None,
            "approves_to": None,
            "approval_limit": None,
            "over_limit_approver": None,
            "joined": db.now_iso(),
            **changes,
        },
    )


def removable_member(db: Database, policy: dict[str, Any], address: str) -> dict[str, Any]:
    """A member who may leave: not the owner, nobody routes reports to them, nothing waits on their approval."""
    policy_id = policy["policy_id"]
    member = membership(db, policy_id, address)
    if member is None:
        raise NotFound(f"{address} isn't a member of '{policy['name']}'")
    if address == policy["owner_email"]:
        raise Conflict("The workspace owner can't be removed.")
    routed = db.find(
        policy_members,
        or_(
            policy_members.c.submits_to == address,
            policy_members.c.approves_to == address,
            policy_members.c.over_limit_approver == address,
        ),
        policy_id=policy_id,
        order_by=[policy_members.c.email],
    )
    if routed:
        names = ", ".join(m["email"] for m in routed)
        raise Conflict(f"{names} still route reports to {address}; change their approver first.")
    waiting = db.find(reports, policy_id=policy_id, status="PROCESSING", manager_email=address)
    if waiting:
        raise Conflict(f"{len(waiting)} report(s) are waiting on {address}'s approval; approve or reject them first.")
    return member


def remove_member(db: Database, policy_id: str, member: dict[str, Any]) -> None:
    """Delete the membership; the account's default workspace moves to another of theirs (or none)."""
    address = member["email"]
    db.delete(policy_members, member["id"])
    account = db.get(accounts, address, "Account")
    if account["default_policy_id"] == policy_id:
        others = db.find(policy_members, email=address, order_by=[policy_members.c.policy_id])
        db.update(accounts, address, default_policy_id=others[0]["policy_id"] if others else None)


def set_category(db: Database, policy: dict[str, Any], label: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Add the category, or change it; at least one category stays enabled."""
    policy_id = policy["policy_id"]
    found = db.find(categories, policy_id=policy_id, name=label)
    if not found:
        defaults = {"enabled": True, "gl_code": None, "max_expense_amount": None, "comment_required": False}
        return db.insert(categories, policy_id=policy_id, name=label, **{**defaults, **changes})
    if not changes:
        raise InvalidRequest("Nothing to update: give enabled, gl_code, max_expense_amount or comment_required.")
    last = len(db.find(categories, policy_id=policy_id, enabled=True)) == 1
    if changes.get("enabled") is False and found[0]["enabled"] and last:
        raise Conflict(f"'{label}' is the last enabled category on '{policy['name']}'; at least one must stay.")
    return db.update(categories, found[0]["id"], **changes)
