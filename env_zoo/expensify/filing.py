"""Filing expenses: where a new expense goes (workspace and report), the category and tag checks every
kind of expense shares, duplicate detection and the insert itself."""

from __future__ import annotations

from datetime import date
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.database import given

from .access import member_policy, own_open_report
from .rules import category_row, check_currency, convert, duplicates, locked_fields, money, past_date
from .schema import receipts, report_actions, reports, transactions

TRANSACTION_PREFIX, TRANSACTION_WIDTH = "59", 14  # 16-digit numeric transactionIDs
ACTION_PREFIX, ACTION_WIDTH = "88", 8
RECEIPT_PREFIX, RECEIPT_WIDTH = "7", 8
RECEIPT_MATCH_DAYS = 3  # SmartScan merges a receipt into an expense this close in date


def workspace_and_report(
    db: Database, account: dict[str, Any], policy_id: str | None, report_id: str | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The workspace and (optional) Open report a new expense of `account` goes to."""
    report = own_open_report(db, report_id, account["email"]) if report_id is not None else None
    if report is not None:
        if policy_id is not None and policy_id != report["policy_id"]:
            raise InvalidRequest(f"'{report['title']}' belongs to another workspace than {policy_id}.")
        policy_id = report["policy_id"]
    policy_id = policy_id or account["default_policy_id"]
    if policy_id is None:
        raise InvalidRequest("You have no default workspace; pass policy_id.")
    return member_policy(db, policy_id, account["email"]), report


def check_category(db: Database, policy: dict[str, Any], name: str | None) -> str | None:
    """A category that exists and is enabled on the workspace."""
    if name is None:
        return None
    row = category_row(db, policy["policy_id"], name)
    if row is None:
        raise InvalidRequest(f"Category '{name}' doesn't exist on '{policy['name']}'.")
    if not row["enabled"]:
        raise InvalidRequest(f"Category '{name}' is disabled on '{policy['name']}'.")
    return name


def check_tag(policy: dict[str, Any], tag: str | None) -> str | None:
    """A tag that is enabled in the workspace's tag list."""
    if tag is None:
        return None
    if not any(t["name"] == tag and t["enabled"] for t in policy["tags"]):
        label = policy["tag_list_name"] or "tag"
        raise InvalidRequest(f"'{tag}' isn't an enabled {label} on '{policy['name']}'.")
    return tag


def check_duplicate(db: Database, values: dict[str, Any]) -> None:
    """Refuse an expense that repeats one the person already has (same merchant, amount, currency, date)."""
    same = duplicates(db, values)
    if same:
        first = same[0]
        raise Conflict(
            f"Possible duplicate of expense {first['transaction_id']} ({first['merchant']}, "
            f"{money(first['amount'], first['currency'])} on {first['created']}). "
            "Set dont_check_duplicates to create it anyway."
        )


def insert_expense(db: Database, policy: dict[str, Any], **values: Any) -> dict[str, Any]:
    """Store a new expense, converting its amount to the workspace's output currency."""
    defaults: dict[str, Any] = {
        "report_id": None,
        "category": None,
        "tag": None,
        "comment": "",
        "receipt_id": None,
        "card_last4": None,
        "distance": None,
        "distance_unit": None,
        "distance_rate": None,
        "per_diem": None,
    }
    row = {**defaults, **values}
    return db.insert(
        transactions,
        transaction_id=db.new_id(transactions, TRANSACTION_PREFIX, TRANSACTION_WIDTH),
        policy_id=policy["policy_id"],
        converted_amount=convert(row["amount"], row["currency"], policy["output_currency"]),
        inserted=db.now_iso(),
        **row,
    )


def move_to(db: Database, tx: dict[str, Any], report: dict[str, Any] | None) -> dict[str, Any]:
    """Put an expense on a report (taking the report's workspace) or take it off (report None)."""
    if report is None:
        return db.update(transactions, tx["transaction_id"], report_id=None)
    return db.update(
        transactions,
        tx["transaction_id"],
        report_id=report["report_id"],
        policy_id=report["policy_id"],
        converted_amount=convert(tx["amount"], tx["currency"], report["currency"]),
    )


def log(db: Database, report_id: str, actor: str, action: str, message: str = "") -> None:
    """Add an entry to a report's history."""
    db.insert(
        report_actions,
        action_id=db.new_id(report_actions, ACTION_PREFIX, ACTION_WIDTH),
        report_id=report_id,
        actor_email=actor,
        action=action,
        message=message,
        created=db.now_iso(),
    )


def require_owner(report: dict[str, Any], email: str, verb: str) -> None:
    """Only the submitter may `verb` their report."""
    if report["owner_email"] != email:
        raise PermissionDenied(f"Only {report['owner_email']} can {verb} '{report['title']}'.")


def store_receipt(db: Database, merchant: str, amount: int, currency: str, day: date) -> str:
    """A scanned receipt image and what SmartScan read from it; its receiptID."""
    receipt_id = db.new_id(receipts, RECEIPT_PREFIX, RECEIPT_WIDTH)
    db.insert(
        receipts,
        receipt_id=receipt_id,
        filename=f"w_{receipt_id}.jpg",
        url=f"https://www.expensify.com/receipts/w_{receipt_id}.jpg",
        smartscan_merchant=merchant.strip(),
        smartscan_amount=amount,
        smartscan_currency=currency,
        smartscan_created=day.isoformat(),
        uploaded=db.now_iso(),
    )
    return receipt_id


def receipt_match(db: Database, email: str, amount: int, currency: str, day: date) -> dict[str, Any] | None:
    """The expense a scanned receipt belongs to: same amount and currency, no receipt yet, within 3 days, still
    editable; the closest in date."""
    candidates = [
        t
        for t in db.find(
            transactions, transactions.c.receipt_id.is_(None), account_email=email, amount=amount, currency=currency
        )
        if t["type"] in ("cash", "card")
        and abs((date.fromisoformat(t["created"]) - day).days) <= RECEIPT_MATCH_DAYS
        and (t["report_id"] is None or db.get(reports, t["report_id"])["status"] == "OPEN")
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda t: (abs((date.fromisoformat(t["created"]) - day).days), t["transaction_id"]))


def expense_changes(
    db: Database,
    policy: dict[str, Any],
    tx: dict[str, Any],
    asked: dict[str, Any],
    comment: str | None,
    billable: bool | None,
    reimbursable: bool | None,
) -> dict[str, Any]:
    """An expense's edited fields, checked like a new expense's; card, distance and per diem fields that come
    from the feed or a calculation stay."""
    locked_fields(tx, asked)
    changes: dict[str, Any] = given(billable=billable)
    if asked["merchant"] is not None:
        changes["merchant"] = asked["merchant"].strip()
    if asked["amount"] is not None:
        if asked["amount"] == 0:
            raise InvalidRequest("amount can't be 0.")
        changes["amount"] = asked["amount"]
    if asked["currency"] is not None:
        changes["currency"] = check_currency(asked["currency"])
    if asked["created"] is not None:
        changes["created"] = past_date(db, asked["created"], "created")
    if asked["category"] is not None:
        changes["category"] = check_category(db, policy, asked["category"])
    if asked["tag"] is not None:
        changes["tag"] = check_tag(policy, asked["tag"]) if asked["tag"].strip() else None
    if comment is not None:
        changes["comment"] = comment.strip()
    if reimbursable is not None:
        if reimbursable and tx["type"] == "card":
            raise InvalidRequest("Company card expenses are paid by the company and can't be reimbursable.")
        changes["reimbursable"] = reimbursable
    if not changes:
        raise InvalidRequest("Nothing to update.")
    return changes
