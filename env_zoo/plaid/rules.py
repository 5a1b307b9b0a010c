"""Plaid's business rules: its error shape, the Item states that block reads, the transactions/sync cursor, the
Transfer authorization decision and the transfer state machine with its effect on the client's ledger."""

from __future__ import annotations

import base64
import json
from typing import Any

from envfactory_gym import Conflict, InvalidRequest
from envfactory_gym.errors import ToolError

LOGIN_REQUIRED_MESSAGE = (
    "the login details of this item have changed (credentials, MFA, or required user action) and a user login is "
    "required to update this information. use Link's update mode to restore the item to a good state"
)
#: Transfers move through these statuses; the keys are the simulated events and where each may come from.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "posted": ("pending",),
    "settled": ("posted",),
    "failed": ("pending",),
    "returned": ("posted", "settled"),
}
#: Only depository accounts of these subtypes carry Auth numbers and can move money with Transfer.
TRANSFERABLE_SUBTYPES = ("checking", "savings")
DECLINES = {
    "NSF": "Transaction likely to result in a return due to insufficient funds.",
    "RISK": "Transaction is high-risk.",
    "TRANSFER_LIMIT_REACHED": "One or several transfer limits are reached, e.g. the per-transfer limit.",
}


def plaid_error(kind: type[ToolError], error_type: str, error_code: str, message: str) -> ToolError:
    """An error in Plaid's shape ({"error_type", "error_code", "error_message", "display_message"}) as the text."""
    body = {"error_type": error_type, "error_code": error_code, "error_message": message, "display_message": None}
    return kind(json.dumps(body))


def item_error(code: str) -> dict[str, Any]:
    """The `error` object an Item in error carries."""
    message = LOGIN_REQUIRED_MESSAGE if code == "ITEM_LOGIN_REQUIRED" else code.lower().replace("_", " ")
    return {"error_type": "ITEM_ERROR", "error_code": code, "error_message": message}


def require_healthy(item: dict[str, Any]) -> None:
    """Data reads of an Item in error fail with the Item's error until Link's update mode fixes it."""
    if item["error_code"] == "ITEM_LOGIN_REQUIRED":
        raise plaid_error(Conflict, "ITEM_ERROR", "ITEM_LOGIN_REQUIRED", LOGIN_REQUIRED_MESSAGE)


def require_product(item: dict[str, Any], product: str) -> None:
    """A product the Item was not initialized with cannot be called on it."""
    if product not in item["products"]:
        raise plaid_error(
            InvalidRequest,
            "ITEM_ERROR",
            "PRODUCT_NOT_ENABLED",
            f"the {product} product is not enabled for this item; add it with Link's update mode",
        )


def encode_cursor(item_id: str, seq: int) -> str:
    """An opaque transactions/sync cursor pointing after change number `seq` of an Item."""
    return base64.urlsafe_b64encode(f"{item_id}:{seq}".encode()).decode().rstrip("=")


def decode_cursor(item_id: str, cursor: str) -> int:
    """The change number a cursor points after; refused when it is not a cursor of this Item."""
    if cursor == "":
        return 0
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        owner, seq = raw.rsplit(":", 1)
        if owner == item_id:
            return int(seq)
    except (ValueError, UnicodeDecodeError):
        pass
    raise plaid_error(InvalidRequest, "INVALID_INPUT", "INVALID_FIELD", "cursor is not a valid cursor for this item")


def sync_change(row: dict[str, Any], after: int) -> tuple[str, int] | None:
    """Which list (added, modified, removed) a transaction falls in for a sync after change `after`, and the change
    number it is ordered by (an added one by its addition, shown with its current data); None when nothing about it
    changed since."""
    if row["removed_seq"] is not None and row["removed_seq"] > after:
        return None if row["added_seq"] > after else ("removed", row["removed_seq"])
    if row["removed_seq"] is not None:
        return None
    if row["added_seq"] > after:
        return "added", row["added_seq"]
    if row["modified_seq"] is not None and row["modified_seq"] > after:
        return "modified", row["modified_seq"]
    return None


def decide(
    client: dict[str, Any], item: dict[str, Any], account: dict[str, Any], kind: str, amount: int
) -> tuple[str, str | None]:
    """Plaid's authorization decision and rationale code: an Item needing login needs the user first; a high-risk
    account, a debit beyond the account's available balance or an amount over the client's per-transfer limit is
    declined; anything else is approved."""
    if item["error_code"] == "ITEM_LOGIN_REQUIRED":
        return "user_action_required", "ITEM_LOGIN_REQUIRED"
    limit = client["debit_limit"] if kind == "debit" else client["credit_limit"]
    if amount > limit:
        return "declined", "TRANSFER_LIMIT_REACHED"
    if account["risk"] == "high":
        return "declined", "RISK"
    available = account["available"] if account["available"] is not None else account["current"]
    if kind == "debit" and amount > available:
        return "declined", "NSF"
    return "approved", None


def ledger_change(kind: str, event: str, before: str, amount: int) -> tuple[int, int]:
    """How (available, pending) of the client's ledger move when a transfer of `kind` in status `before` gets
    `event`: a debit is pending until it settles; a credit leaves the ledger when created and comes back if it
    fails, is cancelled or returns."""
    if kind == "debit":
        if event == "settled":
            return amount, -amount
        if event in ("failed", "cancelled") or (event == "returned" and before == "posted"):
            return 0, -amount
        if event == "returned":
            return -amount, 0
        return 0, 0
    if event in ("failed", "cancelled", "returned"):
        return amount, 0
    return 0, 0


def cents(amount: str) -> int:
    """A Plaid decimal amount string ("125.50") in cents."""
    whole, _, fraction = amount.partition(".")
    return int(whole) * 100 + int((fraction + "00")[:2])


def decimal(value: int) -> str:
    """Cents as Plaid's decimal string ("125.50")."""
    return f"{value // 100}.{value % 100:02d}"
