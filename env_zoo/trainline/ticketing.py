"""Issuing tickets: pricing a party on a train (child and Railcard discounts), checking a Railcard against the
passengers, reserving seats, writing a booking with its tickets, and pricing a change of journey."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from . import rules
from .objects import ExchangeLine, ExchangeQuote, gbp
from .schema import bookings, services, tickets


def holder_flags(card: dict[str, Any] | None, names: list[str]) -> list[bool]:
    held = {h.lower() for h in card["holders"]} if card else set()
    return [name.strip().lower() in held for name in names]


def check_holders(card: dict[str, Any], names: list[str]) -> None:
    """The named cardholder must travel; Two Together needs both."""
    flags = holder_flags(card, names)
    need = 2 if card["type"] == "TWO_TOGETHER" else 1
    if sum(flags) < need:
        who = " and ".join(card["holders"])
        raise InvalidRequest(f"The Railcard holder ({who}) must be one of the passengers travelling.")


def price_party(
    db: Database,
    row: dict[str, Any],
    fare_type: str,
    travel_class: str,
    journey_type: str,
    kinds: list[str],
    names: list[str] | None,
    card: dict[str, Any] | None,
) -> list[tuple[int, bool]]:
    """(price, railcard applied) per passenger; refuses a Railcard that isn't valid for this train and party."""
    base = rules.adult_fare(db, row, fare_type, travel_class, journey_type)
    if card is not None:
        problem = rules.railcard_problem(card, row, travel_class, kinds.count("ADULT"), kinds.count("CHILD"))
        if problem:
            raise InvalidRequest(problem)
    flags = holder_flags(card, names) if names else [True] * len(kinds)
    return rules.price_passengers(base, kinds, card, row, flags)


def check_return(db: Database, out: dict[str, Any], back: dict[str, Any], fare_type: str) -> None:
    if back["origin"] != out["destination"] or back["destination"] != out["origin"]:
        raise InvalidRequest("The return journey must run from the destination back to the origin.")
    if back["departs"] <= out["arrives"]:
        raise InvalidRequest("The return journey must depart after the outward journey arrives.")
    if (
        rules.parse_date(back["travel_date"], "travel_date").toordinal()
        - rules.parse_date(out["travel_date"], "travel_date").toordinal()
        > 31
    ):
        raise InvalidRequest("The return part must be used within one calendar month.")
    if fare_type == "OFF_PEAK" and rules.is_peak(back):
        raise Conflict(f"Off-Peak tickets are not valid on the {rules.clock(back)} return departure (a peak train).")


def issue(
    db: Database,
    user_id: str,
    out: dict[str, Any],
    back: dict[str, Any] | None,
    fare_type: str,
    travel_class: str,
    party: list[tuple[str, str]],
    card: dict[str, Any] | None,
    delivery: str,
    reserve: bool,
    preference: str | None,
) -> dict[str, Any]:
    """Write a booking and one ticket per passenger, reserving seats (always for Advance)."""
    names = [name for name, _ in party]
    kinds = [kind for _, kind in party]
    if card is not None:
        check_holders(card, names)
    journey_type = "RETURN" if back is not None else "SINGLE"
    prices = price_party(db, out, fare_type, travel_class, journey_type, kinds, names, card)
    if fare_type in rules.RESERVED:
        left = rules.advance_left(out, travel_class)
        if left < len(party):
            what = "Advance" if fare_type == "ADVANCE" else "Eurostar"
            raise Conflict(f"Only {left} {what} {travel_class.lower()} tickets left on this train.")
        column = "advance_standard_left" if travel_class == "STANDARD" else "advance_first_left"
        db.update(services, out["id"], **{column: left - len(party)})
    seats = (
        rules.pick_seats(db, out, travel_class, len(party), preference)
        if reserve or fare_type in rules.RESERVED
        else []
    )
    back_seats = rules.pick_seats(db, back, travel_class, len(party), preference) if back and reserve else []
    ref = f"TL{61000000 + db.next_number('booking_refs'):08d}"
    stored = db.insert(
        bookings,
        booking_ref=ref,
        user_id=user_id,
        status="CONFIRMED",
        railcard_id=card["id"] if card else None,
        delivery=delivery,
        total=sum(price for price, _ in prices),
        created_at=db.now_iso(),
        exchanged_to=None,
        exchanged_from=None,
        change_paid=None,
    )
    for i, ((name, kind), (price, applied)) in enumerate(zip(party, prices)):
        db.insert(
            tickets,
            id=db.new_id(tickets, "tkt_", 5),
            booking_ref=ref,
            passenger_name=name.strip(),
            passenger_type=kind,
            fare_type=fare_type,
            travel_class=travel_class,
            journey_type=journey_type,
            service_id=out["id"],
            return_service_id=back["id"] if back else None,
            price=price,
            railcard_applied=applied,
            status="ISSUED",
            coach=seats[i][0] if seats else None,
            seat=seats[i][1] if seats else None,
            return_coach=back_seats[i][0] if back_seats else None,
            return_seat=back_seats[i][1] if back_seats else None,
        )
    return stored


def live_tickets(db: Database, booking: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in db.find(tickets, booking_ref=booking["booking_ref"]) if t["status"] == "ISSUED"]


def exchange_quote(
    db: Database, booking: dict[str, Any], new: dict[str, Any], fare_type: str | None, card: dict[str, Any] | None
) -> tuple[ExchangeQuote, list[dict[str, Any]], list[int], str]:
    """Price a change of a whole single booking onto another train of the same route before departure."""
    if booking["status"] not in ("CONFIRMED",):
        raise Conflict(f"Booking {booking['booking_ref']} is {booking['status'].lower()} and can't be changed.")
    held = live_tickets(db, booking)
    if not held:
        raise Conflict("This booking has no unused tickets to change.")
    if any(t["journey_type"] == "RETURN" for t in held):
        raise InvalidRequest("Return tickets can't be changed online; refund them and book again.")
    old = rules.service(db, held[0]["service_id"])
    if old["departs"] <= rules.local_now(db):
        raise Conflict("Changes must be made before the booked train departs.")
    if (new["origin"], new["destination"]) != (old["origin"], old["destination"]):
        raise InvalidRequest("A change must keep the same origin and destination stations.")
    if new["id"] == old["id"]:
        raise InvalidRequest("The tickets are already for that train.")
    kind = fare_type or held[0]["fare_type"]
    travel_class = held[0]["travel_class"]
    names = [t["passenger_name"] for t in held]
    prices = price_party(db, new, kind, travel_class, "SINGLE", [t["passenger_type"] for t in held], names, card)
    if kind == "EUROSTAR" and rules.local_now(db) > rules.moment_text(old, rules.EUROSTAR_CHANGE_CUTOFF):
        raise Conflict("Eurostar changes close one hour before the booked train departs.")
    lines, fees, pay = [], [], 0
    for ticket, (price, _) in zip(held, prices):
        fee = 0 if kind == "EUROSTAR" else rules.exchange_fee(int(ticket["price"]))
        difference = max(price - int(ticket["price"]), 0)
        fees.append(fee)
        pay += difference + fee
        lines.append(
            ExchangeLine(
                passenger_name=ticket["passenger_name"],
                old_price=gbp(ticket["price"]),
                new_price=gbp(price),
                difference=gbp(difference),
                admin_fee=gbp(fee),
            )
        )
    if kind in rules.RESERVED and rules.advance_left(new, travel_class) < len(held):
        if kind == "EUROSTAR":
            raise Conflict("Not enough Eurostar tickets left on that train.")
        raise Conflict("Not enough Advance tickets left on that train; choose an Off-Peak or Anytime fare.")
    quote = ExchangeQuote(
        booking_ref=booking["booking_ref"],
        new_service_id=new["id"],
        departs=new["departs"],
        fare_type=kind,
        lines=lines,
        amount_to_pay=gbp(pay),
    )
    return quote, held, [price for price, _ in prices], kind
