"""Monzo's account, pot and transfer rules that the tools share."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .schema import accounts, payees, payments, pots, transactions

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?Z)?$")


def pounds(pennies: int) -> str:
    """Pennies as people read them, e.g. -1250 -> "-£12.50"."""
    sign = "-" if pennies < 0 else ""
    return f"{sign}£{abs(pennies) / 100:,.2f}"


def _open_account(db: Database, account_id: str) -> dict[str, Any]:
    account = db.get(accounts, account_id, "Account")
    if account["closed"]:
        raise Conflict(f"Account {account_id} is closed.")
    return account


def _transfer_account(db: Database, account_id: str) -> dict[str, Any]:
    """An open current account that can send money (the legacy prepaid account cannot)."""
    account = _open_account(db, account_id)
    if account["type"] == "uk_prepaid":
        raise InvalidRequest("Prepaid accounts can't make bank transfers or hold pots.")
    return account


def _pot(db: Database, pot_id: str) -> dict[str, Any]:
    pot = db.get(pots, pot_id, "Pot")
    if pot["deleted"]:
        raise NotFound(f"Pot '{pot_id}' not found")
    return pot


def _today(db: Database) -> str:
    return db.now().strftime("%Y-%m-%d")


def _post(db: Database, account: dict[str, Any], amount: int, **values: Any) -> dict[str, Any]:
    """Book a settled transaction and move the account's balance."""
    now = db.now_iso()
    db.update(accounts, account["id"], balance=account["balance"] + amount)
    return db.insert(
        transactions,
        id=db.new_id(transactions, "tx_"),
        account_id=account["id"],
        amount=amount,
        currency=account["currency"],
        local_amount=amount,
        local_currency=account["currency"],
        is_load=amount > 0 and values.get("scheme") != "uk_retail_pot",
        decline_reason=None,
        card_id=None,
        created=now,
        settled=now,
        **values,
    )


def _sent_today(db: Database, account_id: str) -> int:
    today = _today(db)
    return sum(
        p["amount"]
        for p in db.find(payments, account_id=account_id)
        if p["status"] in ("completed", "pending_approval") and p["created"].startswith(today)
    )


def _check_funds(db: Database, account: dict[str, Any], amount: int) -> None:
    available = account["balance"] + account["overdraft_limit"]
    if amount > available:
        raise Conflict(
            f"Insufficient funds: {pounds(max(available, 0))} available including your "
            f"{pounds(account['overdraft_limit'])} overdraft."
        )


def _check_daily_limit(db: Database, account: dict[str, Any], amount: int) -> None:
    sent = _sent_today(db, account["id"])
    if sent + amount > account["daily_transfer_limit"]:
        left = max(account["daily_transfer_limit"] - sent, 0)
        raise Conflict(
            f"This payment would go over your daily transfer limit of {pounds(account['daily_transfer_limit'])} "
            f"({pounds(left)} left today)."
        )


def _send(db: Database, payment: dict[str, Any]) -> dict[str, Any]:
    """Move the money of an approved payment: the Faster Payment leaves the account now."""
    account = _open_account(db, payment["account_id"])
    _check_funds(db, account, payment["amount"])
    payee = db.get(payees, payment["payee_id"], "Payee")
    tx = _post(
        db,
        account,
        -payment["amount"],
        description=payment["reference"],
        merchant=None,
        category="transfers",
        notes="",
        scheme="payport_faster_payments",
        pot_id=None,
        include_in_spending=True,
        dedupe_id=None,
        counterparty={
            "name": payee["name"],
            "sort_code": payee["sort_code"],
            "account_number": payee["account_number"],
        },
    )
    return db.update(payments, payment["id"], status="completed", transaction_id=tx["id"])


def _moment(value: str, name: str) -> str:
    if not TIMESTAMP.match(value):
        raise InvalidRequest(f"{name} must be an RFC 3339 timestamp (2025-05-01T00:00:00Z) or a date (2025-05-01)")
    return value if "T" in value else f"{value}T00:00:00Z"
