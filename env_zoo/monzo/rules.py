"""Monzo's account, pot and transfer rules that the tools share: open accounts, live pots, the arranged overdraft,
the daily transfer limit, strong customer authentication and how money moves (a settled transaction per move)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import format_money, iso_timestamp, parse_timestamp

from .schema import accounts, payees, payments, pots, transactions

SCA_THRESHOLD = 25_000  # payments of £250 or more always need approval in the app


def pounds(pennies: int) -> str:
    """Pennies as people read them, e.g. -1250 -> "-£12.50"."""
    return format_money(pennies, "GBP", {"GBP": "£"})


def today(db: Database) -> str:
    """The simulated clock's calendar day, YYYY-MM-DD."""
    return db.now().strftime("%Y-%m-%d")


def moment(value: str, name: str) -> str:
    """A since/before argument (a timestamp, or a date meaning its midnight UTC) as a stored timestamp."""
    return iso_timestamp(parse_timestamp(value, name, "2025-05-01T00:00:00Z", dates=True))


def open_account(db: Database, account_id: str) -> dict[str, Any]:
    """An account that is not closed."""
    account = db.get(accounts, account_id, "Account")
    if account["closed"]:
        raise Conflict(f"Account {account_id} is closed.")
    return account


def transfer_account(db: Database, account_id: str) -> dict[str, Any]:
    """An open current account that can send money (the legacy prepaid account cannot)."""
    account = open_account(db, account_id)
    if account["type"] == "uk_prepaid":
        raise InvalidRequest("Prepaid accounts can't make bank transfers or hold pots.")
    return account


def live_pot(db: Database, pot_id: str) -> dict[str, Any]:
    """A pot that has not been deleted."""
    pot = db.get(pots, pot_id, "Pot")
    if pot["deleted"]:
        raise NotFound(f"Pot '{pot_id}' not found")
    return pot


def pot_account(db: Database, pot: dict[str, Any], account_id: str, argument: str) -> dict[str, Any]:
    """The pot's own current account, named by `argument` of a pot transfer."""
    if account_id != pot["current_account_id"]:
        raise InvalidRequest(f"{argument} must be the current account this pot belongs to.")
    return transfer_account(db, account_id)


def spent_today(db: Database, account_id: str) -> int:
    """Today's card and transfer spending that counts in insights (negative pennies; declines left out)."""
    rows = db.select(
        transactions,
        "account_id = ? AND include_in_spending = 1 AND amount < 0 AND decline_reason IS NULL AND created LIKE ?",
        (account_id, f"{today(db)}%"),
    )
    return sum(t["amount"] for t in rows)


def sent_today(db: Database, account_id: str) -> int:
    """Pennies sent or waiting for approval today by Faster Payment: what counts towards the daily limit."""
    rows = db.select(
        payments,
        "account_id = ? AND status IN ('completed', 'pending_approval') AND created LIKE ?",
        (account_id, f"{today(db)}%"),
    )
    return sum(p["amount"] for p in rows)


def check_funds(account: dict[str, Any], amount: int) -> None:
    """A payment may use the arranged overdraft, never go past it."""
    available = account["balance"] + account["overdraft_limit"]
    if amount > available:
        raise Conflict(
            f"Insufficient funds: {pounds(max(available, 0))} available including your "
            f"{pounds(account['overdraft_limit'])} overdraft."
        )


def check_daily_limit(db: Database, account: dict[str, Any], amount: int) -> None:
    """Outgoing Faster Payments of a calendar day stay within the account's daily transfer limit."""
    sent = sent_today(db, account["id"])
    if sent + amount > account["daily_transfer_limit"]:
        left = max(account["daily_transfer_limit"] - sent, 0)
        raise Conflict(
            f"This payment would go over your daily transfer limit of {pounds(account['daily_transfer_limit'])} "
            f"({pounds(left)} left today)."
        )


def needs_approval(db: Database, payee_id: str, amount: int) -> bool:
    """Strong customer authentication: the first payment to a payee, and any of £250 or more."""
    return amount >= SCA_THRESHOLD or not db.find(payments, payee_id=payee_id, status="completed")


def post(db: Database, account: dict[str, Any], amount: int, **values: Any) -> dict[str, Any]:
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


def repeated_pot_move(db: Database, pot_id: str, dedupe_id: str) -> bool:
    """Whether a pot transfer with this dedupe_id already happened (repeating it moves nothing)."""
    return bool(db.find(transactions, pot_id=pot_id, dedupe_id=dedupe_id))


def move_pot_money(db: Database, pot: dict[str, Any], account: dict[str, Any], amount: int, dedupe_id: str) -> None:
    """Book a pot transfer: `amount` > 0 comes out of the pot into the account, < 0 goes into the pot."""
    post(
        db,
        account,
        amount,
        description=pot["id"],
        merchant=None,
        category="savings",
        notes="",
        scheme="uk_retail_pot",
        pot_id=pot["id"],
        include_in_spending=False,
        dedupe_id=dedupe_id,
        counterparty=None,
    )
    db.update(pots, pot["id"], balance=pot["balance"] - amount, updated=db.now_iso())


def check_deposit(account: dict[str, Any], amount: int) -> None:
    """Money from the overdraft can't go into a pot."""
    if amount > account["balance"]:
        raise Conflict(
            f"Insufficient funds: only {pounds(max(account['balance'], 0))} in the account. Money from your "
            "overdraft can't be moved into a pot."
        )


def check_withdrawal(db: Database, pot: dict[str, Any], amount: int) -> None:
    """A locked pot stays shut until its unlock date; a pot gives at most what it holds."""
    if pot["locked"] and (pot["locked_until"] is None or pot["locked_until"] > today(db)):
        until = f" until {pot['locked_until']}" if pot["locked_until"] else ""
        raise PermissionDenied(f"The pot '{pot['name']}' is locked{until}; money can't be withdrawn yet.")
    if amount > pot["balance"]:
        raise Conflict(f"The pot '{pot['name']}' only holds {pounds(pot['balance'])}.")


def check_deletable(pot: dict[str, Any]) -> None:
    """Only an empty, unlocked pot can be deleted."""
    if pot["locked"]:
        raise PermissionDenied(f"The pot '{pot['name']}' is locked and can't be deleted.")
    if pot["balance"] != 0:
        raise Conflict(f"Move the {pounds(pot['balance'])} out of '{pot['name']}' before deleting it.")


def keep_one_round_up(db: Database, pot: dict[str, Any]) -> None:
    """Round-ups go to one pot per account: switch them off on the account's other pots."""
    for other in db.find(pots, current_account_id=pot["current_account_id"], round_up=True):
        if other["id"] != pot["id"]:
            db.update(pots, other["id"], round_up=False, updated=db.now_iso())


def send(db: Database, payment: dict[str, Any]) -> dict[str, Any]:
    """Move the money of an approved payment: the Faster Payment leaves the account now."""
    account = open_account(db, payment["account_id"])
    check_funds(account, payment["amount"])
    payee = db.get(payees, payment["payee_id"], "Payee")
    tx = post(
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


def existing_payee(db: Database, account_id: str, sort_code: str, account_number: str) -> None:
    """An account can save a bank account as a payee only once."""
    existing = db.find(payees, account_id=account_id, sort_code=sort_code, account_number=account_number)
    if existing:
        raise Conflict(f"You already have this account saved as the payee '{existing[0]['name']}'.")


def check_payee_removable(db: Database, payee: dict[str, Any]) -> None:
    """A payee with a payment waiting for approval stays until the payment is approved or declined."""
    if db.find(payments, payee_id=payee["id"], status="pending_approval"):
        raise Conflict(f"A payment to {payee['name']} is waiting for approval in the app; approve or decline it first.")


def waiting_payment(db: Database, payee_name: str, amount: int) -> dict[str, Any]:
    """The latest payment of `amount` to `payee_name` (as the app shows it) waiting for approval."""
    waiting = [
        p
        for p in db.find(payments, status="pending_approval", amount=amount)
        if p["payee_name"].casefold() == payee_name.strip().casefold()
    ]
    if not waiting:
        raise NotFound(f"No payment of {pounds(amount)} to {payee_name} is waiting for approval")
    return waiting[-1]


def account_payee(db: Database, account_id: str, payee_id: str) -> dict[str, Any]:
    """A payee saved on the paying account."""
    payee = db.get(payees, payee_id, "Payee")
    if payee["account_id"] != account_id:
        raise InvalidRequest(f"Payee {payee['name']} is saved on another account.")
    return payee
