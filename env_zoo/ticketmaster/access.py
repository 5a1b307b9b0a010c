"""Who is signed in (the fan's session) and what belongs to them: orders, saved cards, tickets, holds, resale
listings and sent transfers. Another fan's records don't exist for the signed-in fan."""

from __future__ import annotations

from typing import Any, Iterable

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .rules import TICKET_BLOCKERS, card_expired, seat_text
from .schema import accounts, holds, listings, orders, payment_methods, seats, sessions, tickets, transfers

NOT_SIGNED_IN = "Sign in to your Ticketmaster account first."


def current_account(db: Database) -> dict[str, Any]:
    """The fan signed in to Ticketmaster."""
    return db.get(accounts, db.current_session(sessions, NOT_SIGNED_IN)["account_id"], "Account")


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the fan's session on the account with this email (any case)."""
    found = db.select(accounts, "lower(email) = ?", [email.strip().casefold()])
    if not found:
        raise NotFound("We couldn't find a Ticketmaster account with that email and password.")
    db.start_session(sessions, account_id=found[0]["id"])
    return found[0]


def own_order(db: Database, account: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the fan's orders."""
    return db.find_one(
        orders, id=order_id.strip(), account_id=account["id"], not_found=f"Order '{order_id}' not found in your account"
    )


def own_card(db: Database, account: dict[str, Any], payment_method_id: str) -> dict[str, Any]:
    """One of the fan's saved cards, not expired."""
    found = db.find(payment_methods, id=payment_method_id, account_id=account["id"])
    if not found:
        raise NotFound(f"Payment method '{payment_method_id}' not found in your account")
    card = found[0]
    if card_expired(db, card):
        raise InvalidRequest(
            f"Your {card['brand']} ending {card['last4']} expired {card['exp_month']:02d}/{card['exp_year']}. "
            "Choose another card."
        )
    return card


def own_tickets(db: Database, account: dict[str, Any], ticket_ids: Iterable[str]) -> list[dict[str, Any]]:
    """The fan's tickets, all for one event, each still in the account (status active)."""
    rows = []
    for ticket_id in sorted(set(ticket_ids)):  # the same tickets in any order are the same request
        found = db.find(tickets, id=ticket_id, account_id=account["id"])
        if not found:
            raise NotFound(f"Ticket '{ticket_id}' not found in your account")
        rows.append(found[0])
    if len({t["event_id"] for t in rows}) > 1:
        raise InvalidRequest("All tickets must be for the same event.")
    for ticket in rows:
        if ticket["status"] != "active":
            seat = db.get(seats, ticket["seat_id"], "Seat")
            raise Conflict(f"The ticket for {seat_text(seat)} {TICKET_BLOCKERS[ticket['status']]}.")
    return rows


def own_ticket(db: Database, account: dict[str, Any], ticket_id: str) -> dict[str, Any]:
    """One ticket in the fan's account, whatever its status."""
    return db.find_one(
        tickets,
        id=ticket_id.strip(),
        account_id=account["id"],
        not_found=f"Ticket '{ticket_id}' not found in your account",
    )


def own_hold(db: Database, account: dict[str, Any], hold_id: str) -> dict[str, Any]:
    """A hold in the fan's cart (any status)."""
    return db.find_one(holds, id=hold_id.strip(), account_id=account["id"], not_found=f"Hold '{hold_id}' not found")


def own_listing(db: Database, account: dict[str, Any], listing_id: str) -> dict[str, Any]:
    """One of the fan's resale listings that is still active."""
    found = db.find(listings, id=listing_id.strip(), seller_account_id=account["id"])
    if not found:
        raise NotFound(f"Listing '{listing_id}' not found in your account")
    listing = found[0]
    if listing["status"] != "active":
        raise Conflict(f"Listing {listing['id']} is {listing['status']} and can't be changed.")
    return listing


def sent_transfer(db: Database, account: dict[str, Any], transfer_id: str) -> dict[str, Any]:
    """A transfer the fan sent."""
    return db.find_one(
        transfers,
        id=transfer_id.strip(),
        sender_account_id=account["id"],
        not_found=f"Transfer '{transfer_id}' not found",
    )
