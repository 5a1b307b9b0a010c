"""Best Offers: sending an offer (the seller's automatic rules may answer at once), and answering a seller's
counteroffer. An accepted offer is a commitment to buy: it becomes an order to pay."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .orders import Purchase, create_order, options_of
from .rules import (
    OFFER_HOURS,
    check_offer_allowed,
    check_quantity,
    later,
    offer_status,
    require_active,
    seller_decision,
    usd,
)
from .schema import best_offers, items


def buy_negotiated(db: Database, buyer: dict[str, Any], item: dict[str, Any], quantity: int, price: int) -> str:
    """An order for a negotiated sale, shipped with the listing's default (cheapest) service; its order id."""
    check_quantity(db, buyer, item, quantity)
    option = options_of(db, item["item_id"])[0]
    order = create_order(db, buyer, buyer["shipping_address"], [Purchase(item, quantity, price, option, "BEST_OFFER")])
    return order["purchase_order_id"]


def submit_offer(
    db: Database, buyer: dict[str, Any], item: dict[str, Any], price: int, quantity: int, message: str | None
) -> dict[str, Any]:
    """Send an offer to the seller, whose automatic rules may accept or decline it at once."""
    check_offer_allowed(db, buyer, item)
    status = seller_decision(item, price)
    order_id = buy_negotiated(db, buyer, item, quantity, price) if status == "ACCEPTED" else None
    return db.insert(
        best_offers,
        best_offer_id=db.new_id(best_offers, "50", width=8),
        item_id=item["item_id"],
        buyer=buyer["username"],
        price=price,
        quantity=quantity,
        message=message,
        status=status,
        counter_price=None,
        counter_message=None,
        purchase_order_id=order_id,
        created=db.now_iso(),
        expiration=later(db, OFFER_HOURS),
    )


def answer_counter(
    db: Database, buyer: dict[str, Any], offer: dict[str, Any], action: str, price: int | None, message: str | None
) -> dict[str, Any]:
    """ACCEPT, DECLINE or COUNTER a live counteroffer (a counter is a new, lower offer; the old one is declined)."""
    status = offer_status(db, offer)
    if status == "EXPIRED" and offer["status"] == "COUNTERED":
        raise Conflict(f"The seller's counteroffer expired at {offer['expiration']}.")
    if status != "COUNTERED":
        raise Conflict(f"There's no counteroffer to answer on this offer (it is {status}).")
    item = db.get(items, offer["item_id"], "Item")
    if action == "DECLINE":
        return db.update(best_offers, offer["best_offer_id"], status="DECLINED")
    require_active(db, item)
    if action == "ACCEPT":
        order_id = buy_negotiated(db, buyer, item, offer["quantity"], offer["counter_price"])
        return db.update(best_offers, offer["best_offer_id"], status="ACCEPTED", purchase_order_id=order_id)
    if price is None:
        raise InvalidRequest("counter_price is required to counter.")
    if price >= offer["counter_price"]:
        raise InvalidRequest(
            f"Your counteroffer must be below the seller's {usd(offer['counter_price'])}; accept it instead."
        )
    db.update(best_offers, offer["best_offer_id"], status="DECLINED")
    return submit_offer(db, buyer, item, price, offer["quantity"], message)
