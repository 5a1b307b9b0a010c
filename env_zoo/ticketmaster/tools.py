"""Ticketmaster tools: Discovery search and event details, offers and seat availability (public), and the signed-in
fan's side: holds, purchases, order history, Ticket Transfer, Verified Resale and refunds, plus what only the fan
does in the app (signing in, accepting a transfer, presenting a mobile ticket at the gate)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size

from . import checkout
from .access import (
    current_account,
    own_card,
    own_hold,
    own_listing,
    own_order,
    own_ticket,
    own_tickets,
    sent_transfer,
)
from .access import sign_in as start_session
from .objects import (
    AccountObject,
    EventObject,
    EventOffersObject,
    EventSummary,
    HoldObject,
    ListingObject,
    OrderObject,
    OrderSummary,
    SeatObject,
    SessionObject,
    TicketObject,
    TransferObject,
    card_object,
    event_object,
    event_summary,
    hold_object,
    listing_object,
    order_object,
    order_summary,
    resale_offer,
    seat_object,
    standard_offer,
    ticket_object,
    transfer_object,
)
from .rules import (
    MIN_RESALE_PRICE,
    card_expired,
    check_delivery,
    check_movable,
    check_no_open_cart,
    check_refundable,
    check_resale_open,
    check_resale_price,
    check_scannable,
    check_transfer_window,
    dollars,
    event_matches,
    event_row,
    has_started,
    hold_status,
    live_holds,
    open_seats,
    resale_fees,
    seat_text,
)
from .schema import events, holds, listings, orders, payment_methods, presales, price_levels, seats, tickets, transfers

DeliveryMethod = Literal["mobile", "ticketfast", "will_call", "standard_mail"]
TicketStatus = Literal["active", "transfer_pending", "transferred", "listed", "resold", "scanned", "refunded"]
Email = Annotated[
    str,
    Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[A-Za-z]{2,}\s*$"),
    ErrorText("Enter a valid email address, like name@example.com."),
]
RecipientName = Annotated[NonBlankText, ErrorText("Enter the recipient's first and last name.")]
TransferNote = Annotated[str, Field(max_length=240), ErrorText("The message can be at most 240 characters.")]
TicketIds = Annotated[list[str], Field(min_length=1), ErrorText("Choose at least one ticket."), Unordered]
Quantity = Annotated[int, Field(ge=1), ErrorText("quantity must be at least 1.")]
ResalePrice = Annotated[
    int,
    Field(ge=MIN_RESALE_PRICE),
    ErrorText(f"The lowest resale price is {dollars(MIN_RESALE_PRICE)} per ticket (price_per_ticket is in cents)."),
]
StartDate = Annotated[IsoDate, ErrorText("start_date must be a date like 2025-07-19")]
EndDate = Annotated[IsoDate, ErrorText("end_date must be a date like 2025-07-19")]
EventPageSize = page_size(50)
SeatPageSize = page_size(100)


# ---------------------------------------------------------------- Discovery (public)


@tool(read_only=True)
def search_events(
    db: Database,
    keyword: str | None = None,
    city: str | None = None,
    state_code: str | None = None,
    classification_name: str | None = None,
    start_date: StartDate | None = None,
    end_date: EndDate | None = None,
    size: EventPageSize = 20,
    cursor: str | None = None,
) -> Page[EventSummary]:
    """Search upcoming events (cancelled and postponed ones included, flagged by status), soonest first.

    Args:
        keyword: Words matched against the event, its performers and its venue (e.g. "noah kahan").
        city: The venue's city, e.g. "Los Angeles".
        state_code: The venue's state, e.g. "CA".
        classification_name: A segment or genre: Music, Sports, Arts & Theatre, Rock, Pop, Comedy, Baseball...
        start_date: Only events on or after this venue-local date (YYYY-MM-DD).
        end_date: Only events on or before this venue-local date (YYYY-MM-DD).
        size: Events per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    found = [
        event_summary(db, event)
        for event in db.find(events, order_by=[events.c.start_datetime])
        if (not has_started(db, event) or event["status"] == "postponed")
        and event_matches(db, event, keyword, city, state_code, classification_name, start_date, end_date)
    ]
    return paginate(found, size, cursor, max_page_size=50)


@tool(read_only=True)
def get_event_details(db: Database, event_id: str) -> EventObject:
    """Get an event: date and status, sale and presale windows, venue, performers, price ranges, the ticket limit,
    delivery methods, and its transfer, resale and refund policies.

    Args:
        event_id: The event's ID, as returned by search_events.
    """
    event = event_row(db, event_id)
    return event_object(db, event, db.find(presales, event_id=event_id, order_by=[presales.c.start_datetime]))


@tool(read_only=True)
def get_event_offers(db: Database, event_id: str) -> EventOffersObject:
    """List what is for sale for an event: each standard price level with its face value, fees and open seats, and
    each Verified Resale listing (bought as a set) with its seats and price.

    Args:
        event_id: The event's ID.
    """
    event = event_row(db, event_id)
    offers = [standard_offer(db, level) for level in db.find(price_levels, event_id=event_id)]
    busy = {h["listing_id"] for h in live_holds(db, event_id=event_id, offer_type="resale")}
    resale = db.find(listings, order_by=[listings.c.price_per_ticket], event_id=event_id, status="active")
    offers += [resale_offer(db, listing) for listing in resale if listing["id"] not in busy]
    return EventOffersObject(
        event_id=event_id,
        event_name=event["name"],
        status=event["status"],
        ticket_limit=event["ticket_limit"],
        order_processing_fee=event["order_processing_fee"],
        offers=offers,
    )


@tool(read_only=True)
def get_seat_availability(
    db: Database,
    event_id: str,
    offer_id: str | None = None,
    section: str | None = None,
    size: SeatPageSize = 50,
    cursor: str | None = None,
) -> Page[SeatObject]:
    """List the open seats of an event (not sold, not in anyone's cart), best first: section, row, seat number.

    Args:
        event_id: The event's ID.
        offer_id: Only seats of this standard offer (price level).
        section: Only seats in this section, e.g. "102" or "Floor GA".
        size: Seats per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    event_row(db, event_id)
    levels = {p["id"]: p for p in db.find(price_levels, event_id=event_id)}
    if offer_id is not None and offer_id not in levels:
        raise NotFound(f"Offer '{offer_id}' not found for this event")
    rows = open_seats(db, event_id, **given(price_level_id=offer_id))
    if section is not None:
        rows = [s for s in rows if s["section"].casefold() == section.strip().casefold()]
    return paginate([seat_object(s, levels[s["price_level_id"]]) for s in rows], size, cursor)


# ---------------------------------------------------------------- the fan's account


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(Fan only) Sign in to a Ticketmaster account; the password never reaches the assistant.

    Args:
        email: The account's email address.
    """
    account = start_session(db, email)
    return SessionObject(account_id=account["id"], first_name=account["first_name"], email=account["email"])


@tool(read_only=True)
def get_my_account(db: Database) -> AccountObject:
    """Show the signed-in fan's profile and saved cards (flagging expired ones)."""
    account = current_account(db)
    cards = db.find(payment_methods, account_id=account["id"], order_by=[payment_methods.c.is_default.desc()])
    return AccountObject(**account, payment_methods=[card_object(c, card_expired(db, c)) for c in cards])


@tool(read_only=True)
def get_cart(db: Database) -> list[HoldObject]:
    """Show the tickets on hold in the signed-in fan's cart (empty when nothing is held or the hold expired)."""
    account = current_account(db)
    return [hold_object(db, h) for h in live_holds(db, account_id=account["id"])]


# ---------------------------------------------------------------- holds and purchases


@tool()
def reserve_tickets(
    db: Database,
    event_id: str,
    offer_id: str,
    quantity: Quantity,
    section: str | None = None,
    seat_ids: Annotated[list[str], Unordered] | None = None,
    presale_code: str | None = None,
) -> HoldObject:
    """Hold tickets in the fan's cart for 10 minutes while they check out. For a standard offer the best adjacent
    seats are picked (optionally within one section), or exactly the seats given; a Verified Resale listing is
    held whole. A fan has one cart at a time, and purchases count against the event's ticket limit.

    Args:
        event_id: The event's ID.
        offer_id: A standard offer (price level) or resale listing ID from get_event_offers.
        quantity: How many tickets; for a resale listing, all of its tickets.
        section: Standard offers: only seats in this section.
        seat_ids: Standard offers: these exact seats (from get_seat_availability), as many as quantity.
        presale_code: The code that unlocks a running presale before the public onsale.
    """
    account = current_account(db)
    event = event_row(db, event_id)
    check_no_open_cart(db, account)
    held = checkout.hold(db, account, event, offer_id, quantity, (section, seat_ids, presale_code))
    return hold_object(db, held)


@tool()
def release_hold(db: Database, hold_id: str) -> HoldObject:
    """Give back the tickets in the fan's cart so others can buy them.

    Args:
        hold_id: The hold's ID, from reserve_tickets.
    """
    held = own_hold(db, current_account(db), hold_id)
    if held["status"] != "active":
        raise Conflict(f"This hold was already {held['status']}.")
    return hold_object(db, db.update(holds, held["id"], status="released"))


@tool()
def purchase_tickets(
    db: Database, hold_id: str, delivery_method: DeliveryMethod, payment_method_id: str
) -> OrderObject:
    """Buy the tickets held in the fan's cart with a saved card, before the hold expires. The delivery method must
    be one the event offers (resale tickets are Mobile Entry only; Standard Mail needs 14 days before the show).

    Args:
        hold_id: The hold's ID, from reserve_tickets.
        delivery_method: mobile (Mobile Entry), ticketfast (print at home), will_call or standard_mail.
        payment_method_id: One of the fan's saved cards (pm_...), from get_my_account.
    """
    account = current_account(db)
    held = own_hold(db, account, hold_id)
    status = hold_status(db, held)
    if status == "expired":
        raise Conflict(f"Your hold expired at {held['expires_at']} and the tickets were released. Reserve them again.")
    if status != "active":
        raise Conflict(f"This hold was already {status}.")
    event = event_row(db, held["event_id"])
    check_delivery(db, event, held["offer_type"], delivery_method)
    card = own_card(db, account, payment_method_id)
    return order_object(db, checkout.place_order(db, account, held, event, delivery_method, card["id"]))


# ---------------------------------------------------------------- order history


@tool(read_only=True)
def list_orders(
    db: Database,
    status: Literal["completed", "refunded"] | None = None,
    upcoming_only: bool = False,
    size: EventPageSize = 10,
    cursor: str | None = None,
) -> Page[OrderSummary]:
    """List the signed-in fan's orders, newest first.

    Args:
        status: Only orders in this status.
        upcoming_only: true to leave out events that have already happened.
        size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    account = current_account(db)
    rows = db.find(orders, order_by=[orders.c.created.desc()], account_id=account["id"], **given(status=status))
    if upcoming_only:
        rows = [o for o in rows if not has_started(db, event_row(db, o["event_id"]))]
    return paginate([order_summary(db, o) for o in rows], size, cursor, max_page_size=50)


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """Get one of the fan's orders with its price breakdown, payment, refund and tickets (seat and status).

    Args:
        order_id: The order number, e.g. 41-18342.
    """
    return order_object(db, own_order(db, current_account(db), order_id))


@tool(read_only=True)
def list_my_tickets(
    db: Database, event_id: str | None = None, status: TicketStatus | None = None
) -> list[TicketObject]:
    """List the tickets in the signed-in fan's account (My Events), bought or received by transfer, by event date.

    Args:
        event_id: Only tickets for this event.
        status: Only tickets in this status.
    """
    account = current_account(db)
    rows = db.find(tickets, account_id=account["id"], **given(event_id=event_id, status=status))
    dates = {e["id"]: e["start_datetime"] for e in db.find(events)}
    return [ticket_object(db, t) for t in sorted(rows, key=lambda t: (dates[t["event_id"]], t["id"]))]


# ---------------------------------------------------------------- Ticket Transfer


@tool()
def transfer_tickets(
    db: Database,
    ticket_ids: TicketIds,
    recipient_first_name: RecipientName,
    recipient_last_name: RecipientName,
    recipient_email: Email,
    message: TransferNote | None = None,
) -> TransferObject:
    """Send tickets to a friend by email; they stay pending until the friend accepts them, and can be cancelled
    until then. Only Mobile Entry or TicketFast tickets of events with Ticket Transfer on, and not inside the
    event's transfer cutoff before the show.

    Args:
        ticket_ids: The tickets to send (from get_order), all for one event.
        recipient_first_name: The friend's first name.
        recipient_last_name: The friend's last name.
        recipient_email: Where the transfer offer is sent.
        message: A note shown with the offer (at most 240 characters).
    """
    account = current_account(db)
    rows = own_tickets(db, account, ticket_ids)
    event = event_row(db, rows[0]["event_id"])
    check_movable(rows, "transferred")
    check_transfer_window(db, event)
    email = recipient_email.strip().lower()
    if email == account["email"].lower():
        raise InvalidRequest("You can't transfer tickets to your own account.")
    ids = [t["id"] for t in rows]
    checkout.set_status(db, ids, "transfer_pending")
    row = db.insert(
        transfers,
        id=db.new_id(transfers, "TRF-", 5),
        event_id=event["id"],
        sender_account_id=account["id"],
        recipient_email=email,
        recipient_first_name=recipient_first_name.strip(),
        recipient_last_name=recipient_last_name.strip(),
        message=message,
        ticket_ids=ids,
        accepted_ticket_ids=None,
        status="pending",
        created=db.now_iso(),
        responded_at=None,
    )
    return transfer_object(db, row, account["id"])


@tool()
def cancel_transfer(db: Database, transfer_id: str) -> TransferObject:
    """Take back a transfer the friend has not accepted yet; the tickets return to the fan's account.

    Args:
        transfer_id: The transfer's ID (TRF-...).
    """
    account = current_account(db)
    transfer = sent_transfer(db, account, transfer_id)
    if transfer["status"] != "pending":
        raise Conflict(f"This transfer was already {transfer['status']} and can't be cancelled.")
    checkout.set_status(db, transfer["ticket_ids"], "active")
    row = db.update(transfers, transfer["id"], status="cancelled", responded_at=db.now_iso())
    return transfer_object(db, row, account["id"])


@tool(read_only=True)
def list_transfers(
    db: Database,
    direction: Literal["sent", "received"] | None = None,
    status: Literal["pending", "accepted", "cancelled"] | None = None,
) -> list[TransferObject]:
    """List transfers the fan has sent, and those sent to the fan's email, newest first.

    Args:
        direction: sent or received; both when omitted.
        status: Only transfers in this status.
    """
    account = current_account(db)
    rows = db.find(transfers, order_by=[transfers.c.created.desc()], **given(status=status))
    found = []
    for row in rows:
        sent = row["sender_account_id"] == account["id"]
        received = row["recipient_email"] == account["email"].lower()
        if (sent and direction != "received") or (received and direction != "sent"):
            found.append(transfer_object(db, row, account["id"]))
    return found


@tool(user_only=True)
def accept_transfer(db: Database, transfer_id: str) -> TransferObject:
    """(Fan only, from the transfer email) Accept tickets a friend sent to the fan's email; they move into the
    fan's account.

    Args:
        transfer_id: The transfer offered in the email (TRF-...).
    """
    account = current_account(db)
    transfer = db.get(transfers, transfer_id.strip(), "Transfer")
    if transfer["recipient_email"] != account["email"].lower():
        raise PermissionDenied(f"This transfer was sent to {transfer['recipient_email']}.")
    if transfer["status"] != "pending":
        raise Conflict(f"This transfer was already {transfer['status']}.")
    new_ids = checkout.receive(db, account, transfer["ticket_ids"])
    row = db.update(
        transfers, transfer["id"], status="accepted", accepted_ticket_ids=new_ids, responded_at=db.now_iso()
    )
    return transfer_object(db, row, account["id"])


# ---------------------------------------------------------------- Verified Resale


@tool()
def create_resale_listing(db: Database, ticket_ids: TicketIds, price_per_ticket: ResalePrice) -> ListingObject:
    """List tickets on Verified Resale, sold together as one set. The price may not exceed the event organizer's
    cap (a % of face value); buyers pay a 15% fee on top and the seller's payout is the price less a 10% fee.

    Args:
        ticket_ids: The tickets to sell (from get_order), all for one event.
        price_per_ticket: Asking price per ticket in cents (at least 500), e.g. 12500 for $125.
    """
    account = current_account(db)
    rows = own_tickets(db, account, ticket_ids)
    event = event_row(db, rows[0]["event_id"])
    check_movable(rows, "resold")
    check_resale_open(db, event)
    check_resale_price(event, min(t["face_value"] for t in rows), price_per_ticket)
    ids = [t["id"] for t in rows]
    checkout.set_status(db, ids, "listed")
    row = db.insert(
        listings,
        id=db.new_id(listings, "RSL-", 5),
        seller_account_id=account["id"],
        event_id=event["id"],
        ticket_ids=ids,
        price_per_ticket=price_per_ticket,
        status="active",
        created=db.now_iso(),
        sold_at=None,
        **resale_fees(price_per_ticket),
    )
    return listing_object(db, row)


@tool()
def update_resale_listing(db: Database, listing_id: str, price_per_ticket: ResalePrice) -> ListingObject:
    """Change the asking price of one of the fan's active resale listings.

    Args:
        listing_id: The listing's ID (RSL-...).
        price_per_ticket: New asking price per ticket in cents (at least 500).
    """
    listing = own_listing(db, current_account(db), listing_id)
    event = event_row(db, listing["event_id"])
    check_resale_open(db, event)
    faces = [db.get(tickets, t, "Ticket")["face_value"] for t in listing["ticket_ids"]]
    check_resale_price(event, min(faces), price_per_ticket)
    row = db.update(listings, listing["id"], price_per_ticket=price_per_ticket, **resale_fees(price_per_ticket))
    return listing_object(db, row)


@tool()
def cancel_resale_listing(db: Database, listing_id: str) -> ListingObject:
    """Take an active resale listing down; its tickets return to the fan's account.

    Args:
        listing_id: The listing's ID (RSL-...).
    """
    listing = own_listing(db, current_account(db), listing_id)
    if live_holds(db, listing_id=listing["id"]):
        raise Conflict("A buyer is checking out these tickets right now; try again in a few minutes.")
    checkout.set_status(db, listing["ticket_ids"], "active")
    return listing_object(db, db.update(listings, listing["id"], status="cancelled"))


@tool(read_only=True)
def list_resale_listings(
    db: Database, status: Literal["active", "sold", "cancelled"] | None = None
) -> list[ListingObject]:
    """List the fan's Verified Resale listings with their prices and payouts.

    Args:
        status: Only listings in this status.
    """
    account = current_account(db)
    rows = db.find(
        listings, order_by=[listings.c.created.desc()], seller_account_id=account["id"], **given(status=status)
    )
    return [listing_object(db, r) for r in rows]


# ---------------------------------------------------------------- refunds and entry


@tool()
def request_refund(db: Database, order_id: str) -> OrderObject:
    """Refund an order of a cancelled event, or of a postponed or rescheduled one before its refund deadline (all
    other sales are final). Tickets still in the account or transferred are refunded at price plus ticket fees;
    the order processing fee only when the event is cancelled; tickets sold on resale are not refunded.

    Args:
        order_id: The order number, e.g. 41-18342.
    """
    order = own_order(db, current_account(db), order_id)
    if order["status"] != "completed":
        raise Conflict(f"Order {order['id']} was already {order['status']}.")
    event = event_row(db, order["event_id"])
    check_refundable(db, event)
    return order_object(db, checkout.refund(db, order, event))


@tool(user_only=True)
def present_mobile_ticket(db: Database, ticket_id: str) -> TicketObject:
    """(Fan only, at the venue gate) Show a Mobile Entry ticket in the app to be scanned on the day of the show.

    Args:
        ticket_id: The ticket shown.
    """
    ticket = own_ticket(db, current_account(db), ticket_id)
    if ticket["delivery_method"] != "mobile":
        raise InvalidRequest("Only Mobile Entry tickets are scanned from the app.")
    check_scannable(db, event_row(db, ticket["event_id"]))
    if ticket["status"] != "active":
        seat = db.get(seats, ticket["seat_id"], "Seat")
        raise Conflict(f"The ticket for {seat_text(seat)} can't be scanned: its status is {ticket['status']}.")
    return ticket_object(db, db.update(tickets, ticket["id"], status="scanned"))
