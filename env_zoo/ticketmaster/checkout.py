"""Money and tickets changing hands: what a hold costs, turning a hold into an order and its tickets, refunding an
order, and tickets moving between accounts by transfer or resale."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .rules import (
    check_event_open,
    check_primary_sale,
    check_ticket_limit,
    choose_seats,
    hold_expiry,
    live_holds,
    price_level_of,
    resale_listing_of,
    seat_text,
)
from .schema import holds, listings, orders, price_levels, seats, tickets


def standard_hold(
    db: Database,
    account: dict[str, Any],
    event: dict[str, Any],
    level: dict[str, Any],
    quantity: int,
    picks: tuple[str | None, list[str] | None, str | None],
) -> dict[str, Any]:
    """The hold values of seats at a price level: on sale (presale code), within the limit, adjacent or chosen.
    `picks` is (section, seat_ids, presale_code)."""
    section, seat_ids, presale_code = picks
    check_primary_sale(db, event, presale_code)
    check_ticket_limit(db, account, event, quantity)
    return {
        "seat_ids": [s["id"] for s in choose_seats(db, level, quantity, section, seat_ids)],
        "offer_type": "standard",
        "price_level_id": level["id"],
        "listing_id": None,
        "unit_price": level["face_value"],
        "unit_fees": level["service_fee"] + level["facility_fee"],
    }


def resale_hold(
    db: Database, account: dict[str, Any], event: dict[str, Any], offer_id: str, quantity: int
) -> dict[str, Any]:
    """The hold values of a whole Verified Resale listing nobody else is checking out."""
    listing = resale_listing_of(db, event["id"], offer_id)
    check_event_open(db, event)
    if listing["seller_account_id"] == account["id"]:
        raise InvalidRequest("You can't buy your own resale listing.")
    if quantity != len(listing["ticket_ids"]):
        raise InvalidRequest(f"This Verified Resale listing is sold as a set of {len(listing['ticket_ids'])} tickets.")
    if live_holds(db, listing_id=listing["id"]):
        raise Conflict("These resale tickets are in another fan's cart right now.")
    check_ticket_limit(db, account, event, quantity)
    return {
        "seat_ids": [db.get(tickets, t, "Ticket")["seat_id"] for t in listing["ticket_ids"]],
        "offer_type": "resale",
        "price_level_id": None,
        "listing_id": listing["id"],
        "unit_price": listing["price_per_ticket"],
        "unit_fees": listing["buyer_fee_per_ticket"],
    }


def hold(
    db: Database,
    account: dict[str, Any],
    event: dict[str, Any],
    offer_id: str,
    quantity: int,
    picks: tuple[str | None, list[str] | None, str | None],
) -> dict[str, Any]:
    """Put a standard offer's seats or a resale listing in the fan's cart for a few minutes."""
    level = price_level_of(db, event["id"], offer_id)
    values = (
        standard_hold(db, account, event, level, quantity, picks)
        if level is not None
        else resale_hold(db, account, event, offer_id, quantity)
    )
    return db.insert(
        holds,
        id=db.new_uuid(holds),
        account_id=account["id"],
        event_id=event["id"],
        status="active",
        created=db.now_iso(),
        expires_at=hold_expiry(db),
        **values,
    )


def place_order(
    db: Database, account: dict[str, Any], held: dict[str, Any], event: dict[str, Any], method: str, card_id: str
) -> dict[str, Any]:
    """The order for a hold: price breakdown, the resale listing sold, the seats sold and one ticket each."""
    quantity = len(held["seat_ids"])
    fee = event["order_processing_fee"]
    order = db.insert(
        orders,
        id=db.new_id(orders, "41-", 5),
        account_id=account["id"],
        event_id=event["id"],
        offer_type=held["offer_type"],
        listing_id=held["listing_id"],
        quantity=quantity,
        subtotal=held["unit_price"] * quantity,
        ticket_fees=held["unit_fees"] * quantity,
        order_processing_fee=fee,
        total=(held["unit_price"] + held["unit_fees"]) * quantity + fee,
        delivery_method=method,
        payment_method_id=card_id,
        status="completed",
        refund_amount=0,
        created=db.now_iso(),
        refunded_at=None,
    )
    faces = {}  # resale tickets keep the face value printed on the seller's ticket
    if held["listing_id"]:
        listing = db.get(listings, held["listing_id"], "Listing")
        sold = [db.update(tickets, t, status="resold") for t in listing["ticket_ids"]]
        faces = {t["seat_id"]: t["face_value"] for t in sold}
        db.update(listings, listing["id"], status="sold", sold_at=db.now_iso())
    for seat_id in held["seat_ids"]:
        seat = db.update(seats, seat_id, status="sold")
        face = faces.get(seat_id) or db.get(price_levels, seat["price_level_id"])["face_value"]
        issue_ticket(
            db, account, order["id"], event["id"], seat_id, face, method, "resale" if held["listing_id"] else "purchase"
        )
    db.update(holds, held["id"], status="purchased")
    return order


def issue_ticket(
    db: Database,
    account: dict[str, Any],
    order_id: str | None,
    event_id: str,
    seat_id: str,
    face: int,
    method: str,
    origin: str,
) -> dict[str, Any]:
    """A new ticket in the fan's account."""
    return db.insert(
        tickets,
        id=db.new_id(tickets, "tkt_", 6),
        account_id=account["id"],
        order_id=order_id,
        event_id=event_id,
        seat_id=seat_id,
        face_value=face,
        delivery_method=method,
        origin=origin,
        status="active",
        created=db.now_iso(),
    )


def set_status(db: Database, ticket_ids: list[str], status: str) -> None:
    """Move tickets to a status (listed, transfer_pending, active...)."""
    for ticket_id in ticket_ids:
        db.update(tickets, ticket_id, status=status)


def refund(db: Database, order: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """Refund the order's tickets still held or transferred (not those resold), the processing fee only for a
    cancelled event; the seats go back on sale unless the event is cancelled."""
    rows = db.find(tickets, order_id=order["id"])
    for ticket in rows:
        if ticket["status"] in ("listed", "transfer_pending"):
            seat = db.get(seats, ticket["seat_id"], "Seat")
            action = "resale listing" if ticket["status"] == "listed" else "pending transfer"
            raise Conflict(f"The ticket for {seat_text(seat)} is in a {action}; cancel it before requesting a refund.")
    refunded = [t for t in rows if t["status"] in ("active", "transferred")]
    unit = (order["subtotal"] + order["ticket_fees"]) // order["quantity"]
    amount = unit * len(refunded) + (order["order_processing_fee"] if event["status"] == "cancelled" else 0)
    for ticket in refunded:
        for holder in db.find(tickets, seat_id=ticket["seat_id"]):
            if holder["status"] in ("active", "transferred"):
                db.update(tickets, holder["id"], status="refunded")
        if event["status"] != "cancelled":
            db.update(seats, ticket["seat_id"], status="open")
    return db.update(orders, order["id"], status="refunded", refund_amount=amount, refunded_at=db.now_iso())


def receive(db: Database, account: dict[str, Any], ticket_ids: list[str]) -> list[str]:
    """Move transferred tickets into the fan's account as new Mobile Entry tickets; their ids."""
    new_ids = []
    for ticket_id in ticket_ids:
        old = db.update(tickets, ticket_id, status="transferred")
        new = issue_ticket(db, account, None, old["event_id"], old["seat_id"], old["face_value"], "mobile", "transfer")
        new_ids.append(new["id"])
    return new_ids
