"""The Payouts API: a batch of payments to email addresses, paid from the merchant's balance; receivers without a
PayPal account leave their item UNCLAIMED, which the sender can cancel (the money comes back)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import unprocessable
from .rules import CURRENCY, adjust_balance, available_balance, cents, dollars, fetch, paypal_id
from .schema import payers, payout_batches, payout_items


def create_batch(db: Database, sender_batch_id: str, email_subject: str | None, items: list[Any]) -> dict[str, Any]:
    """A batch whose items are paid now: SUCCESS for receivers with a PayPal account, else UNCLAIMED."""
    if db.find(payout_batches, sender_batch_id=sender_batch_id):
        raise unprocessable(
            "DUPLICATE_REQUEST_ID",
            f"Batch with given sender_batch_id `{sender_batch_id}` already exists.",
            "sender_batch_header.sender_batch_id",
        )
    amounts = [cents(item.amount.value, f"items[{n}].amount.value") for n, item in enumerate(items)]
    if sum(amounts) > available_balance(db):
        raise unprocessable(
            "INSUFFICIENT_FUNDS",
            f"Sender does not have sufficient funds: the batch needs "
            f"{dollars(sum(amounts))}, the balance is {dollars(available_balance(db))}.",
            "items",
        )
    adjust_balance(db, -sum(amounts))
    now = db.now_iso()
    batch = db.insert(
        payout_batches,
        payout_batch_id=paypal_id(db, payout_batches, 13),
        sender_batch_id=sender_batch_id,
        batch_status="SUCCESS",
        email_subject=email_subject,
        currency=CURRENCY,
        time_created=now,
    )
    for item, amount in zip(items, amounts):
        known = db.find(payers, email_address=item.receiver.lower())
        db.insert(
            payout_items,
            payout_item_id=paypal_id(db, payout_items, 13),
            payout_batch_id=batch["payout_batch_id"],
            receiver=item.receiver.lower(),
            amount=amount,
            currency=CURRENCY,
            transaction_status="SUCCESS" if known else "UNCLAIMED",
            sender_item_id=item.sender_item_id,
            note=item.note,
            time_processed=now,
        )
    return batch


def cancel_item(db: Database, payout_item_id: str) -> dict[str, Any]:
    """Cancel an UNCLAIMED item: RETURNED, its amount back in the balance."""
    item = fetch(db, payout_items, payout_item_id, "payout item", "payout_item_id")
    if item["transaction_status"] != "UNCLAIMED":
        raise unprocessable(
            "ITEM_CANCELLATION_NOT_ALLOWED",
            f"Only UNCLAIMED payout items can be cancelled; this one is {item['transaction_status']}.",
            "payout_item_id",
        )
    adjust_balance(db, item["amount"])
    return db.update(payout_items, payout_item_id, transaction_status="RETURNED", time_processed=db.now_iso())
