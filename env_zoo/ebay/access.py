"""Who granted this application access, and the records that are theirs: orders, order lines, checkout sessions
and Best Offers."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied

from .schema import auth_sessions, best_offers, checkout_sessions, line_items, purchase_orders, users

NOT_SIGNED_IN = "Invalid access token: the buyer must sign in to eBay and grant access first."


def sign_in(db: Database, username: str) -> dict[str, Any]:
    """The member with this username or email grants access (an earlier grant is replaced)."""
    wanted = username.strip().casefold()
    found = db.select(users, "lower(username) = ? OR lower(email) = ?", (wanted, wanted))
    if not found:
        raise NotFound("We couldn't find an eBay account with that username or email.")
    if found[0]["status"] != "CONFIRMED":
        raise PermissionDenied("This eBay account is suspended and can't grant access.")
    db.start_session(auth_sessions, username=found[0]["username"])
    return found[0]


def signed_in(db: Database) -> dict[str, Any]:
    """The member who granted this application access; raises when nobody has."""
    return db.get(users, db.current_session(auth_sessions, NOT_SIGNED_IN)["username"], "User")


def own_order(db: Database, buyer: dict[str, Any], purchase_order_id: str) -> dict[str, Any]:
    """One of the buyer's purchase orders."""
    return db.find_one(
        purchase_orders,
        purchase_order_id=purchase_order_id.strip(),
        buyer=buyer["username"],
        not_found=f"Purchase order {purchase_order_id} was not found on your account.",
    )


def own_line_item(db: Database, buyer: dict[str, Any], line_item_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """One of the buyer's order line items, with its purchase order."""
    found = db.find(line_items, line_item_id=line_item_id.strip())
    if not found:
        raise NotFound(f"Line item {line_item_id} was not found on your account.")
    order = db.get(purchase_orders, found[0]["purchase_order_id"], "Purchase order")
    if order["buyer"] != buyer["username"]:
        raise NotFound(f"Line item {line_item_id} was not found on your account.")
    return found[0], order


def own_session(db: Database, buyer: dict[str, Any], checkout_session_id: str) -> dict[str, Any]:
    """One of the buyer's checkout sessions that hasn't placed its order yet."""
    found = db.find(checkout_sessions, checkout_session_id=checkout_session_id.strip(), username=buyer["username"])
    if not found:
        raise NotFound(f"Checkout session {checkout_session_id} was not found.")
    if found[0]["status"] != "ACTIVE":
        raise Conflict(f"Checkout session {checkout_session_id} already placed order {found[0]['purchase_order_id']}.")
    return found[0]


def own_offer(db: Database, buyer: dict[str, Any], best_offer_id: str) -> dict[str, Any]:
    """One of the buyer's Best Offers."""
    return db.find_one(
        best_offers,
        best_offer_id=best_offer_id.strip(),
        buyer=buyer["username"],
        not_found=f"Best Offer {best_offer_id} was not found on your account.",
    )
