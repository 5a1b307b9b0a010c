"""Moving a transfer along its state machine: the new status, the event Plaid records, and the client's ledger."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .rules import ledger_change
from .schema import clients, transfer_events, transfers


def record_event(db: Database, transfer: dict[str, Any], event_type: str, failure_reason: str | None = None) -> None:
    """Append a transfer event (ids count up across the event stream)."""
    last = db.select(transfer_events, order_by="event_id DESC", limit=1)
    db.insert(
        transfer_events,
        event_id=last[0]["event_id"] + 1 if last else 1,
        transfer_id=transfer["id"],
        account_id=transfer["account_id"],
        transfer_type=transfer["type"],
        transfer_amount=transfer["amount"],
        event_type=event_type,
        failure_reason=failure_reason,
        timestamp=db.now_iso(),
    )


def adjust_ledger(db: Database, client_id: str, available: int, pending: int) -> None:
    """Add to the client's ledger balances (cents)."""
    if available or pending:
        row = db.get(clients, client_id)
        db.update(
            clients,
            client_id,
            ledger_available=row["ledger_available"] + available,
            ledger_pending=row["ledger_pending"] + pending,
        )


def move(db: Database, transfer: dict[str, Any], event: str, failure_reason: str | None = None) -> dict[str, Any]:
    """Give `transfer` the status `event` names, record the event and move the ledger; returns the updated row."""
    available, pending = ledger_change(transfer["type"], event, transfer["status"], transfer["amount"])
    adjust_ledger(db, transfer["client_id"], available, pending)
    record_event(db, transfer, event, failure_reason)
    return db.update(transfers, transfer["id"], status=event, failure_reason=failure_reason)
