"""After a purchase: return requests (remorse within the listing's return period, items not as described within
30 days under the Money Back Guarantee) and feedback for the seller (once per line, within 60 days)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied

from .rules import moment, today
from .schema import feedback, items, returns, sellers

REMORSE = {"NO_LONGER_NEED_ITEM", "ORDERED_ACCIDENTALLY", "FOUND_BETTER_PRICE", "WRONG_SIZE"}
NOT_AS_DESCRIBED_DAYS = 30  # eBay Money Back Guarantee
FEEDBACK_DAYS = 60
SCORES = {"POSITIVE": ("positive_count", 1), "NEUTRAL": ("neutral_count", 0), "NEGATIVE": ("negative_count", -1)}


def open_return(
    db: Database, buyer: dict[str, Any], line: dict[str, Any], reason: str, quantity: int, comments: str | None
) -> dict[str, Any]:
    """A return request for a delivered line, with who pays return shipping and the refund it would bring."""
    if line["fulfillment_status"] != "DELIVERED" or not line["delivered_date"]:
        raise Conflict("You can start a return once the item has been delivered.")
    if any(r["status"] != "CLOSED" for r in db.find(returns, line_item_id=line["line_item_id"])):
        raise Conflict(f"A return is already open for '{line['title']}'.")
    if quantity > line["quantity"]:
        raise InvalidRequest(f"quantity must be between 1 and {line['quantity']}.")
    item = db.get(items, line["item_id"], "Item")
    remorse = reason in REMORSE
    if remorse and not item["returns_accepted"]:
        raise PermissionDenied(
            "The seller doesn't accept returns for this item. You can still return it if it isn't as described."
        )
    days = item["return_period_days"] if remorse else NOT_AS_DESCRIBED_DAYS
    deadline = moment(line["delivered_date"]).date() + timedelta(days=days)
    if today(db) > deadline:
        raise Conflict(f"The return window for '{line['title']}' closed on {deadline}.")
    seller = db.get(sellers, line["seller"], "Seller")
    return db.insert(
        returns,
        return_id=db.new_id(returns, "52", width=8),
        line_item_id=line["line_item_id"],
        buyer=buyer["username"],
        seller=line["seller"],
        reason=reason,
        reason_type="REMORSE" if remorse else "SNAD",
        quantity=quantity,
        comments=comments,
        status="READY_FOR_SHIPPING" if seller["auto_accept_returns"] else "RETURN_REQUESTED",
        return_shipping_cost_payer=item["return_shipping_cost_payer"] if remorse else "SELLER",
        estimated_refund=line["unit_price"] * quantity + (0 if remorse else line["shipping_cost"]),
        creation_date=db.now_iso(),
    )


def record_feedback(
    db: Database, buyer: dict[str, Any], line: dict[str, Any], order: dict[str, Any], kind: str, text: str
) -> dict[str, Any]:
    """Feedback on a paid order line, counted in the seller's score."""
    if order["payment_status"] != "PAID":
        raise Conflict("You can leave feedback once the order is paid.")
    if db.find(feedback, line_item_id=line["line_item_id"]):
        raise Conflict(f"You've already left feedback for '{line['title']}'.")
    if today(db) > moment(order["creation_date"]).date() + timedelta(days=FEEDBACK_DAYS):
        raise Conflict(f"Feedback can only be left within {FEEDBACK_DAYS} days of the purchase.")
    seller = db.get(sellers, line["seller"], "Seller")
    column, score = SCORES[kind]
    db.update(
        sellers, seller["username"], **{column: seller[column] + 1}, feedback_score=seller["feedback_score"] + score
    )
    return db.insert(
        feedback,
        feedback_id=db.new_id(feedback, "18", width=8),
        line_item_id=line["line_item_id"],
        item_id=line["item_id"],
        commenting_user=buyer["username"],
        seller=line["seller"],
        comment_type=kind,
        comment_text=text.strip(),
        creation_date=db.now_iso(),
    )
