"""Ticketmaster's business rules shared by the tools: the signed-in fan, time at the venue, when an event is on
sale (presales and their codes), ticket limits, holds and seat selection, fees, and what a ticket's status
allows (transfer, resale, refund, entry)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import format_money, iso_timestamp, parse_timestamp

from .schema import (
    attractions,
    events,
    holds,
    listings,
    orders,
    presales,
    price_levels,
    seats,
    venues,
)

HOLD_MINUTES = 10
MAIL_CUTOFF_DAYS = 14  # Standard Mail needs this many days before the event
ENTRY_OPENS_HOURS = 4  # mobile tickets scan from this many hours before the show
RESALE_BUYER_FEE_PCT = 15
RESALE_SELLER_FEE_PCT = 10
MIN_RESALE_PRICE = 500
DELIVERY_LABELS = {
    "mobile": "Mobile Entry",
    "ticketfast": "TicketFast (print at home)",
    "will_call": "Will Call",
    "standard_mail": "Standard Mail",
}
TICKET_BLOCKERS = {
    "listed": "is listed on Verified Resale; cancel the listing first",
    "transfer_pending": "is in a pending transfer; cancel the transfer first",
    "transferred": "was transferred to someone else",
    "resold": "was sold on Verified Resale",
    "scanned": "has already been scanned at the venue",
    "refunded": "was refunded",
}


# ---------------------------------------------------------------- money and time


def dollars(cents: int) -> str:
    """Cents as a fan reads them, e.g. 12950 -> "$129.50"."""
    return format_money(cents, "USD", {"USD": "$"})


def percent_of(cents: int, pct: int) -> int:
    """`pct` percent of an amount, rounded half up to the cent."""
    return (cents * pct + 50) // 100


def venue_of(db: Database, event: dict[str, Any]) -> dict[str, Any]:
    """The event's venue."""
    return db.get(venues, event["venue_id"], "Venue")


def local_now(db: Database, event: dict[str, Any]) -> datetime:
    """The current wall-clock time at the event's venue."""
    return db.now().astimezone(ZoneInfo(venue_of(db, event)["timezone"]))


def starts_at(event: dict[str, Any]) -> datetime:
    """When the show starts."""
    return parse_timestamp(event["start_datetime"], "start_datetime")


def has_started(db: Database, event: dict[str, Any]) -> bool:
    """Whether the show has begun (or is over)."""
    return db.now() >= starts_at(event)


def event_matches(
    db: Database,
    event: dict[str, Any],
    keyword: str | None,
    city: str | None,
    state_code: str | None,
    classification: str | None,
    start_date: str | None,
    end_date: str | None,
) -> bool:
    """Whether an event passes Discovery's filters: every keyword word in its name, performers or venue; the venue's
    city and state (any case); its segment or genre; its venue-local date within the range."""
    venue = venue_of(db, event)
    if keyword:
        names = [event["name"], venue["name"]]
        names += [db.get(attractions, a, "Attraction")["name"] for a in event["attraction_ids"]]
        haystack = " ".join(names).casefold()
        if not all(word in haystack for word in keyword.casefold().split()):
            return False
    if city and venue["city"].casefold() != city.strip().casefold():
        return False
    if state_code and venue["state_code"].casefold() != state_code.strip().casefold():
        return False
    if classification and classification.strip().casefold() not in (
        event["segment"].casefold(),
        event["genre"].casefold(),
    ):
        return False
    return not ((start_date and event["local_date"] < start_date) or (end_date and event["local_date"] > end_date))


def card_expired(db: Database, card: dict[str, Any]) -> bool:
    """A card is good through the last day of its expiry month."""
    now = db.now()
    return (card["exp_year"], card["exp_month"]) < (now.year, now.month)


# ---------------------------------------------------------------- lookups


def event_row(db: Database, event_id: str) -> dict[str, Any]:
    """An event of the catalogue."""
    return db.get(events, event_id, "Event")


def seat_text(seat: dict[str, Any]) -> str:
    """A seat as printed on a ticket."""
    if seat["row"] == "GA":
        return f"{seat['section']} (GA)"
    return f"Sec {seat['section']} Row {seat['row']} Seat {seat['number']}"


def check_movable(tickets_: list[dict[str, Any]], action: str) -> None:
    """Only Mobile Entry and TicketFast tickets can be transferred or resold online."""
    for ticket in tickets_:
        if ticket["delivery_method"] == "will_call":
            raise Conflict(
                f"Will Call tickets can't be {action}; they are picked up at the box office with the "
                "purchaser's photo ID."
            )
        if ticket["delivery_method"] == "standard_mail":
            raise Conflict(f"Mailed paper tickets can't be {action} online.")


# ---------------------------------------------------------------- sales, limits and holds


def check_primary_sale(db: Database, event: dict[str, Any], presale_code: str | None) -> None:
    """Standard tickets need an event on sale: the public onsale, or a running presale with its code."""
    check_event_open(db, event)
    if event["status"] == "offsale":
        raise Conflict("Standard tickets are no longer on sale for this event. Check Verified Resale offers.")
    now = db.now()
    if now >= parse_timestamp(event["public_sale_end"], "public_sale_end"):
        raise Conflict("Online sales for this event have ended.")
    if now >= parse_timestamp(event["public_sale_start"], "public_sale_start"):
        return
    running = [
        p
        for p in db.find(presales, event_id=event["id"])
        if parse_timestamp(p["start_datetime"], "start_datetime")
        <= now
        < parse_timestamp(p["end_datetime"], "end_datetime")
    ]
    if not running:
        raise Conflict(f"Tickets aren't on sale yet. The public onsale starts {event['public_sale_start']}.")
    if presale_code is None:
        raise PermissionDenied(f"The {running[0]['name']} is running: enter your presale code to unlock tickets.")
    if not any(p["code"].casefold() == presale_code.strip().casefold() for p in running):
        raise PermissionDenied("That presale code isn't valid for this event.")


def check_event_open(db: Database, event: dict[str, Any]) -> None:
    """The event still takes place in the future on a known date."""
    if event["status"] in ("cancelled", "postponed"):
        raise Conflict(f"This event has been {event['status']}; tickets are not on sale.")
    if has_started(db, event):
        raise Conflict("This event has already taken place.")


def purchased_count(db: Database, account_id: str, event_id: str) -> int:
    """Tickets the account has bought for the event (refunded orders don't count)."""
    return sum(o["quantity"] for o in db.find(orders, account_id=account_id, event_id=event_id, status="completed"))


def check_ticket_limit(db: Database, account: dict[str, Any], event: dict[str, Any], quantity: int) -> None:
    """Standard and resale purchases together stay within the event's per-account limit."""
    have = purchased_count(db, account["id"], event["id"])
    if have + quantity > event["ticket_limit"]:
        raise Conflict(
            f"There is a {event['ticket_limit']} ticket limit for this event and your account has already "
            f"purchased {have}."
        )


def hold_status(db: Database, hold: dict[str, Any]) -> str:
    """active, expired, released or purchased (an active hold expires by itself)."""
    if hold["status"] == "active" and db.now() >= parse_timestamp(hold["expires_at"], "expires_at"):
        return "expired"
    return hold["status"]


def live_holds(db: Database, **equals: Any) -> list[dict[str, Any]]:
    """Holds that still block their seats."""
    return [h for h in db.find(holds, status="active", **equals) if hold_status(db, h) == "active"]


def check_no_open_cart(db: Database, account: dict[str, Any]) -> None:
    """A fan has one cart at a time."""
    for hold in live_holds(db, account_id=account["id"]):
        name = event_row(db, hold["event_id"])["name"]
        raise Conflict(
            f"You already have tickets on hold for {name} (hold {hold['id']}). Complete that purchase "
            "or release the hold first."
        )


def open_seats(db: Database, event_id: str, **equals: Any) -> list[dict[str, Any]]:
    """Seats nobody has bought or holds, best first (section, row, seat number)."""
    held = {s for h in live_holds(db, event_id=event_id) for s in h["seat_ids"]}
    rows = db.find(
        seats, order_by=[seats.c.section, seats.c.row, seats.c.number], event_id=event_id, status="open", **equals
    )
    return [s for s in rows if s["id"] not in held]


def seats_together(candidates: list[dict[str, Any]], quantity: int) -> list[dict[str, Any]] | None:
    """The best run of `quantity` adjacent seats in one row, if any."""
    run: list[dict[str, Any]] = []
    for seat in candidates:
        if run and (seat["section"], seat["row"], seat["number"]) != (
            run[-1]["section"],
            run[-1]["row"],
            run[-1]["number"] + 1,
        ):
            run = []
        run.append(seat)
        if len(run) == quantity:
            return run
    return None


def choose_seats(
    db: Database, level: dict[str, Any], quantity: int, section: str | None, seat_ids: list[str] | None
) -> list[dict[str, Any]]:
    """The seats a standard reservation takes: the ones asked for, or the best adjacent ones available."""
    candidates = open_seats(db, level["event_id"], price_level_id=level["id"])
    if seat_ids:
        if len(set(seat_ids)) != quantity:
            raise InvalidRequest(f"Choose exactly {quantity} different seats.")
        free = {s["id"]: s for s in candidates}
        for seat_id in seat_ids:
            if seat_id not in free:
                seat = db.find(seats, id=seat_id, event_id=level["event_id"], price_level_id=level["id"])
                if not seat:
                    raise NotFound(f"Seat '{seat_id}' is not part of this offer")
                raise Conflict(f"{seat_text(seat[0])} is no longer available.")
        return [s for s in candidates if s["id"] in set(seat_ids)]  # best first, whatever order they were named in
    if section is not None:
        wanted = section.strip().casefold()
        in_level = {s["section"].casefold() for s in db.find(seats, price_level_id=level["id"])}
        if wanted not in in_level:
            raise InvalidRequest(f"Section {section} has no seats at {level['name']}.")
        candidates = [s for s in candidates if s["section"].casefold() == wanted]
    chosen = seats_together(candidates, quantity)
    if chosen is None:
        where = f" in section {section}" if section else ""
        raise Conflict(f"We couldn't find {quantity} seats together at {level['name']}{where}.")
    return chosen


def hold_expiry(db: Database) -> str:
    """When a new hold lapses."""
    return iso_timestamp(db.now() + timedelta(minutes=HOLD_MINUTES))


def price_level_of(db: Database, event_id: str, offer_id: str) -> dict[str, Any] | None:
    """The standard offer `offer_id` of the event, if it is one."""
    found = db.find(price_levels, id=offer_id, event_id=event_id)
    return found[0] if found else None


def resale_listing_of(db: Database, event_id: str, offer_id: str) -> dict[str, Any]:
    """The active Verified Resale listing `offer_id` of the event."""
    found = db.find(listings, id=offer_id, event_id=event_id)
    if not found:
        raise NotFound(f"Offer '{offer_id}' not found for this event")
    listing = found[0]
    if listing["status"] != "active":
        raise Conflict("These resale tickets are no longer available.")
    return listing


# ---------------------------------------------------------------- delivery, transfer, resale and refunds


def check_delivery(db: Database, event: dict[str, Any], offer_type: str, method: str) -> None:
    """The delivery method must be one the event offers (resale tickets are always Mobile Entry)."""
    allowed = ["mobile"] if offer_type == "resale" else event["delivery_methods"]
    if method not in allowed:
        options = ", ".join(DELIVERY_LABELS[m] for m in allowed)
        raise InvalidRequest(f"{DELIVERY_LABELS[method]} isn't available for these tickets. Options: {options}.")
    if method == "standard_mail" and starts_at(event) - db.now() < timedelta(days=MAIL_CUTOFF_DAYS):
        raise InvalidRequest(f"Standard Mail isn't available within {MAIL_CUTOFF_DAYS} days of the event.")


def check_transfer_window(db: Database, event: dict[str, Any]) -> None:
    """Ticket Transfer must be on for the event and still open."""
    if event["status"] == "cancelled":
        raise Conflict("This event has been cancelled; its tickets can't be transferred.")
    if not event["transfer_enabled"]:
        raise PermissionDenied("Ticket Transfer isn't available for this event.")
    if has_started(db, event):
        raise Conflict("This event has already started.")
    cutoff = event["transfer_cutoff_hours"]
    if cutoff is not None and db.now() >= starts_at(event) - timedelta(hours=cutoff):
        raise PermissionDenied(f"Ticket Transfer for this event closes {cutoff} hours before the show.")


def check_resale_open(db: Database, event: dict[str, Any]) -> None:
    """Verified Resale must be on for the event, which still takes place on a known date."""
    if not event["resale_enabled"]:
        raise PermissionDenied("Verified Resale isn't available for this event.")
    if event["status"] in ("cancelled", "postponed"):
        raise Conflict(f"Resale is closed: this event has been {event['status']}.")
    if has_started(db, event):
        raise Conflict("This event has already started.")


def check_resale_price(event: dict[str, Any], face_value: int, price: int) -> None:
    """A resale price (at least $5, which its argument type checks) is within the organizer's cap."""
    cap = event["resale_price_cap_pct"]
    if cap is not None and price > percent_of(face_value, cap):
        raise InvalidRequest(
            f"The event organizer caps resale at {cap}% of face value: at most {dollars(percent_of(face_value, cap))} "
            "per ticket."
        )


def resale_fees(price: int) -> dict[str, int]:
    """What the buyer pays on top and what the seller gives up, per ticket."""
    return {
        "buyer_fee_per_ticket": percent_of(price, RESALE_BUYER_FEE_PCT),
        "seller_fee_per_ticket": percent_of(price, RESALE_SELLER_FEE_PCT),
    }


def check_refundable(db: Database, event: dict[str, Any]) -> None:
    """Refunds only for cancelled events, or postponed/rescheduled ones within their refund window."""
    status = event["status"]
    if status == "cancelled":
        return
    if status not in ("postponed", "rescheduled"):
        raise Conflict(
            "All sales are final: refunds are only available when an event is cancelled, postponed or rescheduled."
        )
    deadline = event["refund_deadline"]
    if deadline is not None and local_now(db, event).strftime("%Y-%m-%d") > deadline:
        raise Conflict(f"The refund window for this {status} event closed on {deadline}.")


def check_scannable(db: Database, event: dict[str, Any]) -> None:
    """Mobile tickets scan on the show's day, from a few hours before it starts."""
    if event["status"] in ("cancelled", "postponed"):
        raise Conflict(f"This event has been {event['status']}.")
    if local_now(db, event).strftime("%Y-%m-%d") > event["local_date"]:
        raise Conflict("This event is over.")
    if db.now() < starts_at(event) - timedelta(hours=ENTRY_OPENS_HOURS):
        raise Conflict(f"Entry opens {ENTRY_OPENS_HOURS} hours before the show; this ticket can't be scanned yet.")
