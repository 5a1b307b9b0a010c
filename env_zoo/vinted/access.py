"""Who is signed in to Vinted, and the orders, offers and conversations that member takes part in."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import conversations, members, offers, orders, sessions

NOT_SIGNED_IN = "You need to log in to Vinted first."


def sign_in(db: Database, login: str) -> dict[str, Any]:
    """The member with this username or email signs in (an earlier session is replaced)."""
    wanted = login.strip().lower()
    found = db.select(members, "lower(login) = ? OR lower(email) = ?", (wanted, wanted))
    if not found:
        raise NotFound("Incorrect username or email.")
    db.start_session(sessions, user_id=found[0]["id"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in member; PermissionDenied when nobody is."""
    return db.get(members, db.current_session(sessions, NOT_SIGNED_IN)["user_id"], "Member")


def own_order(db: Database, member: dict[str, Any], order_id: int) -> dict[str, Any]:
    """An order the member bought or sold."""
    order = db.find_one(orders, id=order_id, not_found=f"Order {order_id} not found.")
    if member["id"] not in (order["buyer_id"], order["seller_id"]):
        raise NotFound(f"Order {order_id} not found.")
    return order


def as_buyer(member: dict[str, Any], order: dict[str, Any]) -> None:
    if order["buyer_id"] != member["id"]:
        raise PermissionDenied("Only the buyer can do this for an order.")


def as_seller(member: dict[str, Any], order: dict[str, Any]) -> None:
    if order["seller_id"] != member["id"]:
        raise PermissionDenied("Only the seller can do this for an order.")


def own_conversation(db: Database, member: dict[str, Any], conversation_id: int) -> dict[str, Any]:
    found = db.find_one(conversations, id=conversation_id, not_found=f"Conversation {conversation_id} not found.")
    if member["id"] not in (found["buyer_id"], found["seller_id"]):
        raise NotFound(f"Conversation {conversation_id} not found.")
    return found


def own_offer(db: Database, member: dict[str, Any], offer_id: int) -> dict[str, Any]:
    found = db.find_one(offers, id=offer_id, not_found=f"Offer {offer_id} not found.")
    if member["id"] not in (found["buyer_id"], found["seller_id"]):
        raise NotFound(f"Offer {offer_id} not found.")
    return found
