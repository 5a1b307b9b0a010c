"""Order changes: a change request replaces slices of a paid order with new searches on the same airline, each way
to do it is an order change offer (the airline's change penalty, the fare difference, what the order will cost),
an order change is created from one offer and confirmed with a payment when it costs something."""

from __future__ import annotations

import itertools
import json
from datetime import date
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import parse_date

from . import ancillaries, fares
from .orders import issue_tickets, live_order
from .rules import (
    CHANGE_OFFER_LIFETIME,
    CURRENCY,
    check_payment,
    content_id,
    expired,
    get,
    invalid_state,
    iso,
    money,
    new_id,
    validation,
)
from .schema import (
    order_change_offers,
    order_change_requests,
    order_changes,
    order_passengers,
    order_services,
    orders,
    payments,
)
from .search import COMBINATIONS_PER_AIRLINE, Reference, itineraries, priced_slice, take_seats


def _removed(db: Database, order: dict[str, Any], remove: list[str]) -> list[dict[str, Any]]:
    by_id = {s["id"]: s for s in order["slices"]}
    found = []
    for i, slice_id in enumerate(remove):
        if slice_id not in by_id:
            raise validation(f"slices.remove[{i}].slice_id", f"{slice_id} is not a slice of order {order['id']}.")
        stored = by_id[slice_id]
        if ancillaries.departed(db, stored):
            raise invalid_state("order_change_not_allowed", f"Slice {slice_id} has already departed.")
        if not stored["conditions"]["change_before_departure"]["allowed"]:
            raise invalid_state(
                "order_change_not_allowed",
                f"The fare of slice {slice_id} ({stored['fare_brand_name']}) doesn't allow changes.",
            )
        found.append(stored)
    return found


def request_change(
    db: Database, order_id: str, add: list[dict[str, Any]], remove: list[str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An order change request and its change offers (none when the airline has nothing suitable). The same request
    on the same day returns the same change request, its offers' expiry renewed."""
    order = live_order(db, order_id)
    if order["awaiting_payment"]:
        raise invalid_state("invalid_state_error", "Only paid orders can be changed; pay for the hold order first.")
    if not remove or len(add) != len(remove):
        raise validation("slices", "Remove at least one slice and add one new slice for each slice removed.")
    removed = _removed(db, order, remove)
    ref = Reference(db)
    today = db.now().date()
    searches, previous = [], None
    for i, s in enumerate(add):
        origin, destination = s["origin"].strip().upper(), s["destination"].strip().upper()
        for field, code in (("origin", origin), ("destination", destination)):
            if not ref.place_codes(code):
                raise validation(f"slices.add[{i}].{field}", f"{code} is not a valid IATA airport or city code.")
        day = parse_date(s["departure_date"], f"slices.add[{i}].departure_date")
        if day < today or (previous is not None and day < previous):
            raise validation(
                f"slices.add[{i}].departure_date",
                "Departure dates must not be in the past and must be in chronological order.",
            )
        previous = day
        searches.append(
            {
                "origin": origin,
                "destination": destination,
                "departure_date": day.isoformat(),
                "cabin_class": s["cabin_class"],
            }
        )
    stored_slices = {"add": searches, "remove": [{"slice_id": sid} for sid in remove]}
    request_id = content_id("ocr", order_id, json.dumps(stored_slices, sort_keys=True), today.isoformat())
    now = db.now()
    expires = iso(now + CHANGE_OFFER_LIFETIME)
    if db.find(order_change_requests, id=request_id):
        for row in db.find(order_change_offers, order_change_request_id=request_id):
            db.update(order_change_offers, row["id"], expires_at=expires)
        return (
            get(db, order_change_requests, request_id, "Order change request"),
            db.find(order_change_offers, order_change_request_id=request_id),
        )
    request = db.insert(
        order_change_requests, id=request_id, order_id=order_id, slices=stored_slices, created_at=iso(now)
    )
    passengers = db.find(order_passengers, order_id=order_id)
    types = [p["type"] for p in passengers]
    seated = sum(t in fares.SEATED for t in types)
    options = [
        itineraries(
            db,
            ref,
            ref.place_codes(s["origin"]),
            ref.place_codes(s["destination"]),
            date.fromisoformat(s["departure_date"]),
            1,
            s["cabin_class"],
            seated,
        ).get(order["owner"], [])
        for s in searches
    ]
    combos = sorted(
        itertools.product(*options), key=lambda c: (sum(len(s) for s in c), [s[0]["departing_at"] for s in c])
    )
    owner = ref.airlines[order["owner"]]
    removed_amount = sum(s["base_amount"] + s["tax_amount"] for s in removed)
    penalty = sum(s["conditions"]["change_before_departure"]["penalty_amount"] or 0 for s in removed)
    refundable = all(s["conditions"]["refund_before_departure"]["allowed"] for s in removed)
    dropped = sum(s["total_amount"] for s in db.find(order_services, order_id=order_id) if s["slice_id"] in remove)
    created = []
    for combo in combos[:COMBINATIONS_PER_AIRLINE]:
        offer_id = content_id("oco", request_id, *[leg["flight_key"] for legs in combo for leg in legs])
        new_slices = []
        for i, (legs, search, old) in enumerate(zip(combo, searches, removed)):
            long_haul = any(leg["distance_km"] >= fares.LONG_HAUL_KM for leg in legs)
            brand = fares.brand_named(owner, search["cabin_class"], long_haul, old["brand"])
            new_slices.append(
                priced_slice(
                    ref,
                    list(legs),
                    search["cabin_class"],
                    brand,
                    types,
                    today,
                    content_id("sli", offer_id, i),
                    [content_id("seg", offer_id, i, j) for j in range(len(legs))],
                )
            )
        added = sum(s["base_amount"] + s["tax_amount"] for s in new_slices)
        difference = added - removed_amount
        change_total = penalty + difference if (difference > 0 or refundable) else penalty
        created.append(
            db.insert(
                order_change_offers,
                id=offer_id,
                order_change_request_id=request_id,
                order_id=order_id,
                slices={"add": new_slices, "remove": removed},
                penalty_amount=penalty,
                change_total_amount=change_total,
                new_total_amount=order["total_amount"] - removed_amount - dropped + added,
                currency=CURRENCY,
                refund_to="balance" if change_total < 0 else None,
                sort_duration=sum(s["duration_minutes"] for s in new_slices),
                expires_at=expires,
                created_at=iso(now),
            )
        )
    return request, created


def _still_applies(order: dict[str, Any], offer: dict[str, Any]) -> None:
    current = {s["id"] for s in order["slices"]}
    if any(s["id"] not in current for s in offer["slices"]["remove"]):
        raise invalid_state(
            "offer_no_longer_available",
            "The order has changed since this order change offer was made; create a new order change request.",
        )


def create_change(db: Database, offer_id: str) -> dict[str, Any]:
    """A pending order change from a change offer (the same offer gives the same pending change)."""
    offer = get(db, order_change_offers, offer_id, "Order change offer")
    order = live_order(db, offer["order_id"])
    if expired(db, offer["expires_at"]):
        raise invalid_state("offer_expired", "The order change offer has expired; create a new order change request.")
    _still_applies(order, offer)
    existing = db.find(order_changes, order_change_offer_id=offer_id)
    if existing:
        return existing[0]
    now = db.now_iso()
    return db.insert(
        order_changes,
        id=new_id(db, order_changes, "oce"),
        order_id=order["id"],
        order_change_offer_id=offer_id,
        confirmed=False,
        confirmed_at=None,
        expires_at=offer["expires_at"],
        created_at=now,
    )


def confirm_change(db: Database, change_id: str, payment: dict[str, Any] | None) -> dict[str, Any]:
    """Confirm a pending order change: pay change_total_amount when it is above zero (no payment otherwise; a
    negative amount is refunded to the balance); the order gets its new slices, tickets and total, and loses the
    services booked on the slices it no longer has."""
    change = get(db, order_changes, change_id, "Order change")
    if change["confirmed"]:
        raise invalid_state("already_confirmed", "This order change has already been confirmed.")
    offer = get(db, order_change_offers, change["order_change_offer_id"], "Order change offer")
    order = live_order(db, change["order_id"])
    if expired(db, change["expires_at"]):
        raise invalid_state("offer_expired", "The order change has expired; create a new order change request.")
    _still_applies(order, offer)
    due = offer["change_total_amount"]
    if due > 0:
        if payment is None:
            raise validation("payment", f"A payment of {money(due)} {CURRENCY} is needed to confirm this change.")
        if payment["type"] != "balance":
            raise validation("payment.type", "arc_bsp_cash is only available to IATA-accredited agents.")
        check_payment(payment["amount"], payment["currency"], due, "order change")
    elif payment is not None:
        raise validation("payment", f"No payment is needed: the change_total_amount is {money(due)} {CURRENCY}.")
    passengers = db.find(order_passengers, order_id=order["id"])
    seated = sum(p["type"] in fares.SEATED for p in passengers)
    removed_ids = {s["id"] for s in offer["slices"]["remove"]}
    for old in offer["slices"]["remove"]:
        take_seats(db, old["segments"], order["cabin_class"], -seated)
    for new in offer["slices"]["add"]:
        take_seats(db, new["segments"], new["cabin_class"], seated)
    for service in db.find(order_services, order_id=order["id"]):
        if service["slice_id"] in removed_ids:
            db.delete(order_services, service["id"])
    slices = sorted(
        [s for s in order["slices"] if s["id"] not in removed_ids] + offer["slices"]["add"],
        key=lambda s: s["segments"][0]["departing_at_utc"],
    )
    services_amount = sum(s["total_amount"] for s in db.find(order_services, order_id=order["id"]))
    base = sum(s["base_amount"] for s in slices)
    tax = sum(s["tax_amount"] for s in slices)
    owner = Reference(db).airlines[order["owner"]]
    now = db.now_iso()
    db.update(
        orders,
        order["id"],
        slices=slices,
        base_amount=base,
        tax_amount=tax,
        services_amount=services_amount,
        total_amount=base + tax + services_amount,
        conditions=fares.combined_conditions(slices),
        documents=issue_tickets(owner, order["id"], passengers, change_id),
    )
    if due > 0:
        db.insert(
            payments,
            id=new_id(db, payments, "pay"),
            order_id=order["id"],
            purpose="order_change",
            type="balance",
            amount=due,
            currency=CURRENCY,
            created_at=now,
        )
    return db.update(order_changes, change_id, confirmed=True, confirmed_at=now)
