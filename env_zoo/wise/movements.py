"""Money moved between a profile's own balances: conversions with a quote (from one currency's balance to
another's) and moves into or out of a jar of the same currency, each with its activity entry."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .ledger import credit, debit, next_id, owned_balance, record, standard_balance
from .rules import usable_quote, wise_error
from .schema import balance_movements, quotes


def convert(db: Database, profile_id: int, quote: dict[str, Any]) -> dict[str, Any]:
    """Convert with a pending quote that has no recipient, between the two currencies' open STANDARD balances."""
    usable_quote(db, quote)
    if quote["target_account"] is not None or quote["source_currency"] == quote["target_currency"]:
        raise wise_error(InvalidRequest, "NOT_VALID", "This quote is for a transfer, not a conversion.", "quoteId")
    source = standard_balance(db, profile_id, quote["source_currency"])
    target = standard_balance(db, profile_id, quote["target_currency"])
    if source is None or target is None:
        missing = quote["source_currency"] if source is None else quote["target_currency"]
        raise wise_error(Conflict, "error.balance.not.found", f"Open a {missing} balance first.", "quoteId")
    debit(db, source, quote["source_amount"])
    credit(db, target["id"], quote["target_amount"])
    db.update(quotes, quote["id"], status="FUNDED")
    row = db.insert(
        balance_movements,
        id=next_id(db, balance_movements),
        profile_id=profile_id,
        type="CONVERSION",
        source_balance_id=source["id"],
        target_balance_id=target["id"],
        source_amount=quote["source_amount"],
        source_currency=quote["source_currency"],
        target_amount=quote["target_amount"],
        target_currency=quote["target_currency"],
        fee=quote["fee"],
        rate=quote["rate"],
        quote_id=quote["id"],
        created=db.now_iso(),
    )
    record(
        db,
        profile_id,
        "CONVERSION",
        ("BALANCE_MOVEMENT", row["id"]),
        f"Converted {quote['source_currency']} to {quote['target_currency']}",
        "Balance conversion",
        (-quote["source_amount"], quote["source_currency"]),
        (quote["target_amount"], quote["target_currency"]),
    )
    return row


def move(db: Database, profile_id: int, source_id: int, target_id: int, value: int, currency: str) -> dict[str, Any]:
    """Move `value` between a balance and one of its jars (same currency, either way)."""
    source, target = owned_balance(db, profile_id, source_id), owned_balance(db, profile_id, target_id)
    if source["currency"] != target["currency"] or currency != source["currency"]:
        raise wise_error(
            InvalidRequest, "NOT_VALID", "Both balances and the amount must be in the same currency.", "amount"
        )
    kinds = (source["type"], target["type"])
    if kinds not in (("STANDARD", "SAVINGS"), ("SAVINGS", "STANDARD")):
        raise wise_error(
            InvalidRequest, "NOT_VALID", "Money moves between a balance and one of its jars.", "targetBalanceId"
        )
    debit(db, source, value)
    credit(db, target_id, value)
    kind = "DEPOSIT" if target["type"] == "SAVINGS" else "WITHDRAWAL"
    row = db.insert(
        balance_movements,
        id=next_id(db, balance_movements),
        profile_id=profile_id,
        type=kind,
        source_balance_id=source_id,
        target_balance_id=target_id,
        source_amount=value,
        source_currency=currency,
        target_amount=value,
        target_currency=currency,
        fee=0,
        rate=1.0,
        quote_id=None,
        created=db.now_iso(),
    )
    jar = target if kind == "DEPOSIT" else source
    title = f"Moved to {jar['name']}" if kind == "DEPOSIT" else f"Moved from {jar['name']}"
    record(db, profile_id, "BALANCE_MOVEMENT", ("BALANCE_MOVEMENT", row["id"]), title, "Jar", (value, currency))
    return row
