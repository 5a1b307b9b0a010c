"""Expensify's workspace rules: currency conversion, expense violations (the flags the app shows), per diem
amounts and where an approved report goes next under the workspace's approval mode."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import format_money, parse_date

from .schema import categories, per_diem_rates, policies, policy_members, reports, transactions

#: Value of one unit of each supported currency in US dollars (the rates of the seed's period).
USD_PER_UNIT = {
    code: Decimal(rate)
    for code, rate in (
        ("USD", "1"),
        ("EUR", "1.13"),
        ("GBP", "1.34"),
        ("CAD", "0.73"),
        ("CHF", "1.21"),
        ("DKK", "0.152"),
        ("MXN", "0.052"),
    )
}
#: Violations that stop a report from being submitted; duplicatedTransaction only warns the approver.
BLOCKING = (
    "missingCategory",
    "categoryOutOfPolicy",
    "tagOutOfPolicy",
    "missingComment",
    "receiptRequired",
    "overLimit",
    "overCategoryLimit",
    "maxAge",
)
RECEIPT_TYPES = ("cash", "card")  # distance and per diem expenses never need a receipt
MAX_PER_DIEM_DAYS = 30


def money(cents: int, currency: str) -> str:
    """Cents as the app shows them, e.g. 12345, "USD" -> "USD 123.45"."""
    return format_money(cents, currency)


def check_currency(currency: str) -> str:
    """An upper-case supported ISO currency code."""
    code = currency.strip().upper()
    if code not in USD_PER_UNIT:
        raise InvalidRequest(f"Unsupported currency '{currency}'. Use one of {', '.join(USD_PER_UNIT)}.")
    return code


def convert(amount: int, currency: str, to: str) -> int:
    """An amount in cents of `currency` converted to cents of `to` (half a cent rounds away from zero)."""
    if currency == to:
        return amount
    exact = amount * USD_PER_UNIT[currency] / USD_PER_UNIT[to]
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def past_date(db: Database, value: str, field: str) -> str:
    """A YYYY-MM-DD date that is not in the future."""
    day = parse_date(value, field, example="2025-06-12")
    if day > db.now().date():
        raise InvalidRequest(f"{field} {value} is in the future.")
    return day.isoformat()


def category_row(db: Database, policy_id: str, name: str | None) -> dict[str, Any] | None:
    """The workspace's category of that name (exact match), if any."""
    if name is None:
        return None
    found = db.find(categories, policy_id=policy_id, name=name)
    return found[0] if found else None


def duplicates(db: Database, tx: dict[str, Any]) -> list[dict[str, Any]]:
    """Other expenses of the same person with the same merchant, amount, currency and date."""
    same = db.find(
        transactions,
        account_email=tx["account_email"],
        amount=tx["amount"],
        currency=tx["currency"],
        created=tx["created"],
    )
    merchant = tx["merchant"].strip().casefold()
    return [
        t
        for t in same
        if t["transaction_id"] != tx.get("transaction_id")
        and t["type"] in RECEIPT_TYPES
        and t["merchant"].strip().casefold() == merchant
    ]


def violations(db: Database, tx: dict[str, Any]) -> list[str]:
    """The workspace-rule violations of one expense, in the app's names."""
    policy = db.get(policies, tx["policy_id"], "Policy")
    found: list[str] = []
    category = category_row(db, tx["policy_id"], tx["category"])
    if tx["category"] is None:
        if policy["requires_category"]:
            found.append("missingCategory")
    elif category is None or not category["enabled"]:
        found.append("categoryOutOfPolicy")
    if tx["tag"] is not None and not any(t["name"] == tx["tag"] and t["enabled"] for t in policy["tags"]):
        found.append("tagOutOfPolicy")
    if category is not None and category["comment_required"] and not tx["comment"].strip():
        found.append("missingComment")
    amount = tx["converted_amount"]
    no_receipt = policy["max_expense_amount_no_receipt"]
    if tx["type"] in RECEIPT_TYPES and tx["receipt_id"] is None and no_receipt is not None and amount > no_receipt:
        found.append("receiptRequired")
    if policy["max_expense_amount"] is not None and amount > policy["max_expense_amount"]:
        found.append("overLimit")
    if category is not None and category["max_expense_amount"] is not None and amount > category["max_expense_amount"]:
        found.append("overCategoryLimit")
    if policy["max_expense_age"] is not None and _age(db, tx) > policy["max_expense_age"]:
        found.append("maxAge")
    if tx["type"] in RECEIPT_TYPES and duplicates(db, tx):
        found.append("duplicatedTransaction")
    return found


def _age(db: Database, tx: dict[str, Any]) -> int:
    """Days between the expense date and its report's submission (today while it is not submitted)."""
    reference = db.now().date()
    if tx["report_id"] is not None:
        submitted = db.get(reports, tx["report_id"], "Report")["submitted"]
        if submitted:
            reference = date.fromisoformat(submitted[:10])
    return (reference - date.fromisoformat(tx["created"])).days


def per_diem_subrates(rates: dict[str, dict[str, Any]], start: date, end: date) -> list[dict[str, Any]]:
    """The subrates of a trip: a one-day trip is one partial day; longer trips pay the travel days (first and
    last) at the partial rate and the days between at the full rate."""
    days = (end - start).days + 1
    counts = [("Partial day", 1)] if days == 1 else [("Partial day", 2), ("Full day", days - 2)]
    return [
        {"subrate": name, "quantity": quantity, "rate": rates[name]["amount"]} for name, quantity in counts if quantity
    ]


def next_approver(db: Database, policy: dict[str, Any], approver: str, total: int) -> str | None:
    """Who gets the report after `approver` approves it; None when this approval is final.

    Only Advanced Approval forwards: to the approver's approves_to, or, for a report total above their approval
    limit, to their over-limit approver."""
    if policy["approval_mode"] != "ADVANCED":
        return None
    found = db.find(policy_members, policy_id=policy["policy_id"], email=approver)
    if not found:
        return None
    member = found[0]
    if member["approves_to"]:
        return member["approves_to"]
    if member["approval_limit"] is not None and total > member["approval_limit"]:
        return member["over_limit_approver"]
    return None


def per_diem_claim(
    db: Database, policy: dict[str, Any], email: str, destination: str, start_date: str, end_date: str
) -> dict[str, Any]:
    """A per diem trip at the workspace's rates for the destination: over, at most 30 days, not overlapping a
    per diem already claimed; its amount, currency and details."""
    if not policy["per_diem_enabled"]:
        raise InvalidRequest(f"Per diem isn't enabled on '{policy['name']}'.")
    wanted = destination.strip().casefold()
    rates = {
        r["subrate"]: r
        for r in db.find(per_diem_rates, policy_id=policy["policy_id"])
        if r["destination"].casefold() == wanted
    }
    if not rates:
        raise InvalidRequest(f"'{destination}' isn't a per diem destination of '{policy['name']}'.")
    start = parse_date(start_date, "start_date", example="2025-06-12")
    end = parse_date(past_date(db, end_date, "end_date"), "end_date", example="2025-06-12")
    if end < start:
        raise InvalidRequest("end_date is before start_date.")
    if (end - start).days + 1 > MAX_PER_DIEM_DAYS:
        raise InvalidRequest(f"A per diem claim covers at most {MAX_PER_DIEM_DAYS} days.")
    for other in db.find(transactions, account_email=email, type="per_diem"):
        trip = other["per_diem"]
        if start.isoformat() <= trip["end_date"] and end.isoformat() >= trip["start_date"]:
            raise Conflict(
                f"You already claimed per diem for {trip['destination']} from {trip['start_date']} to "
                f"{trip['end_date']} (expense {other['transaction_id']})."
            )
    subrates = per_diem_subrates(rates, start, end)
    first = next(iter(rates.values()))
    return {
        "merchant": f"Per Diem: {first['destination']}",
        "amount": sum(s["quantity"] * s["rate"] for s in subrates),
        "currency": first["currency"],
        "created": start.isoformat(),
        "per_diem": {
            "destination": first["destination"],
            "start_date": start.isoformat(),
            "end_date": end.isoformat(),
            "subrates": subrates,
        },
    }


def submission_problems(expenses: list[Any]) -> list[str]:
    """The expenses (ExpenseObjects) whose violations block submitting their report, as the app lists them."""
    problems = []
    for e in expenses:
        blocking = [v for v in e.violations if v in BLOCKING]
        if blocking:
            problems.append(f"{e.merchant} {money(e.amount, e.currency)} on {e.created} ({', '.join(blocking)})")
    return problems


def locked_fields(tx: dict[str, Any], asked: dict[str, Any]) -> None:
    """Card expenses keep the card feed's merchant, amount, currency and date; distance and per diem amounts are
    calculated."""
    locked = {
        "card": ("merchant", "amount", "currency", "created"),
        "distance": ("merchant", "amount", "currency"),
        "per_diem": ("merchant", "amount", "currency", "created"),
    }.get(tx["type"], ())
    for field in locked:
        if asked[field] is not None:
            source = "the card feed" if tx["type"] == "card" else "the calculated " + tx["type"].replace("_", " ")
            raise InvalidRequest(f"The {field} of this expense comes from {source} and can't be edited.")
