"""Charges: every priced event takes its price off the main account's balance and adds to the day's usage record
of its category for the account that caused it; usage reports add those records up."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import main_account
from .schema import accounts, usage_records


def charge(db: Database, account_sid: str, category: str, price: int, count: int = 1) -> None:
    """Record `count` units of `category` costing `price` today and take the price off the balance."""
    day = db.now().date().isoformat()
    key = f"{account_sid}|{category}|{day}"
    found = db.find(usage_records, id=key)
    if found:
        db.update(usage_records, key, count=found[0]["count"] + count, price=found[0]["price"] + price)
    else:
        db.insert(usage_records, id=key, account_sid=account_sid, category=category, day=day, count=count, price=price)
    main = main_account(db)
    db.update(accounts, main["sid"], balance=main["balance"] - price, date_updated=db.now_iso())


def totals(db: Database, account_sid: str, start: str, end: str, category: str | None) -> list[dict[str, Any]]:
    """Count and price per category over the days `start` .. `end` (inclusive)."""
    where = "account_sid = ? AND day >= ? AND day <= ?"
    params: list[Any] = [account_sid, start, end]
    if category is not None:
        where += " AND category = ?"
        params.append(category)
    sums: dict[str, list[int]] = {}
    for row in db.select(usage_records, where, params, order_by="category"):
        entry = sums.setdefault(row["category"], [0, 0])
        entry[0] += row["count"]
        entry[1] += row["price"]
    return [{"category": c, "count": n, "price": p} for c, (n, p) in sorted(sums.items())]
