"""How money moves on a profile's balances: ids for new rows, the STANDARD balance of a currency, debits and credits,
and the activity entries Wise shows for each movement."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table

from envfactory_gym import Conflict, Database, NotFound

from .rules import wise_error
from .schema import activities, balances

#: Where each table's integer ids start (the seed numbers its rows on from there).
ID_BASE = {"balances": 100_000, "recipients": 148_392_000, "transfers": 51_230_000, "balance_movements": 700_000}


def next_id(db: Database, table: Table) -> int:
    """The next integer id of `table`, from a counter kept in the state."""
    return ID_BASE[table.name] + db.next_number(f"id:{table.name}", table)


def standard_balance(db: Database, profile_id: int, currency: str) -> dict[str, Any] | None:
    """The profile's open STANDARD balance in `currency`, if it has one."""
    found = db.find(balances, profile_id=profile_id, currency=currency, type="STANDARD", closed=False)
    return found[0] if found else None


def debit(db: Database, balance: dict[str, Any], amount: int) -> None:
    """Take `amount` from a balance; refused when it holds less."""
    if balance["amount"] < amount:
        raise wise_error(
            Conflict,
            "error.balance.insufficient.funds",
            f"Not enough money in the {balance['currency']} balance.",
            "sourceBalanceId",
        )
    db.update(balances, balance["id"], amount=balance["amount"] - amount, modification_time=db.now_iso())


def credit(db: Database, balance_id: int, amount: int) -> None:
    """Add `amount` to a balance."""
    balance = db.get(balances, balance_id, "Balance")
    db.update(balances, balance_id, amount=balance["amount"] + amount, modification_time=db.now_iso())


def record(
    db: Database,
    profile_id: int,
    kind: str,
    resource: tuple[str, Any],
    title: str,
    description: str,
    primary: tuple[int, str],
    secondary: tuple[int, str] | None = None,
    status: str = "COMPLETED",
) -> dict[str, Any]:
    """Add an entry to the profile's activity list."""
    return db.insert(
        activities,
        id=db.new_id(activities, "act_", width=6),
        profile_id=profile_id,
        type=kind,
        resource_type=resource[0],
        resource_id=str(resource[1]),
        title=title,
        description=description,
        primary_amount=primary[0],
        primary_currency=primary[1],
        secondary_amount=secondary[0] if secondary else None,
        secondary_currency=secondary[1] if secondary else None,
        status=status,
        created_on=db.now_iso(),
    )


def set_activity_status(db: Database, resource_type: str, resource_id: Any, status: str) -> None:
    """Change the status of the activity entries of one resource."""
    for row in db.find(activities, resource_type=resource_type, resource_id=str(resource_id)):
        db.update(activities, row["id"], status=status)


def owned_balance(db: Database, profile_id: int, balance_id: int) -> dict[str, Any]:
    """An open balance of the profile; others read as not found."""
    row = db.get(balances, balance_id, "Balance")
    if row["profile_id"] != profile_id or row["closed"]:
        raise NotFound(f"Balance '{balance_id}' not found")
    return row
