"""Orders: booking an offer (instant with a balance payment, or hold to pay by a deadline), the passengers' details
an airline needs, paying a hold order, adding bags after booking, cancelling (quote, then confirm the latest quote
before it expires), and how a stored order becomes the API's Order."""

from __future__ import annotations

from datetime import date
from typing import Any

from envfactory_gym import Database

from . import ancillaries, fares
from .objects import (
    Document,
    LoyaltyProgrammeAccount,
    Order,
    OrderPassenger,
    OrderService,
    OrderSummary,
    PassengerName,
    PaymentStatus,
    ServiceMetadata,
    airline,
    conditions,
    slice_object,
    slice_summary,
)
from .rules import (
    CANCELLATION_LIFETIME,
    CURRENCY,
    age_on,
    booking_reference,
    check_payment,
    content_id,
    expired,
    get,
    invalid_state,
    iso,
    money,
    new_id,
    ticket_number,
    validation,
)
from .schema import (
    offers,
    order_cancellations,
    order_passengers,
    order_services,
    orders,
    payments,
)
from .search import Reference, seats_left, take_seats
from .shopping import usable_offer

AGE_RANGES = {"infant_without_seat": (0, 1), "child": (2, 11), "adult": (12, 130)}


# ---------------------------------------------------------------- booking


def _check_passengers(offer: dict[str, Any], given: list[dict[str, Any]]) -> None:
    expected = {p["id"]: p for p in offer["passengers"]}
    ids = [p["id"] for p in given]
    if sorted(ids) != sorted(expected):
        raise validation(
            "passengers", f"Give every passenger of the offer exactly once: {', '.join(sorted(expected))}."
        )
    last_departure = date.fromisoformat(offer["slices"][-1]["departure_date"])
    infants = {pid for pid, p in expected.items() if p["type"] == "infant_without_seat"}
    carried: list[str] = []
    for i, p in enumerate(given):
        offered = expected[p["id"]]
        age = age_on(date.fromisoformat(p["born_on"]), last_departure)
        low, high = AGE_RANGES[offered["type"]]
        if not low <= age <= high or (offered.get("age") is not None and offered["age"] != age):
            wanted = f"aged {offered['age']}" if offered.get("age") is not None else f"a {offered['type']}"
            raise validation(
                f"passengers[{i}].born_on",
                f"The passenger was searched for as {wanted}, but born on "
                f"{p['born_on']} they are {age} on the last slice's departure.",
            )
        if offered.get("given_name") and (
            offered["given_name"].casefold() != p["given_name"].casefold()
            or offered["family_name"].casefold() != p["family_name"].casefold()
        ):
            raise validation(
                f"passengers[{i}]",
                "The name must match the one given with the passenger's loyalty "
                f"programme account ({offered['given_name']} {offered['family_name']}).",
            )
        if p.get("infant_passenger_id"):
            if offered["type"] != "adult" or p["infant_passenger_id"] not in infants:
                raise validation(
                    f"passengers[{i}].infant_passenger_id",
                    "Only an adult can travel with an infant, and it must be an infant_without_seat of the offer.",
                )
            carried.append(p["infant_passenger_id"])
        _check_documents(offer, p, i, last_departure)
    if sorted(carried) != sorted(infants):
        raise validation(
            "passengers", "Each infant_without_seat must be assigned to exactly one adult with infant_passenger_id."
        )


def _check_documents(offer: dict[str, Any], passenger: dict[str, Any], index: int, last_departure: date) -> None:
    documents = passenger.get("identity_documents") or []
    allowed = offer["allowed_identity_document_types"]
    field = f"passengers[{index}].identity_documents"
    if documents and not allowed:
        raise validation(field, "This offer doesn't accept identity documents; leave them out.")
    if len(documents) > 1:
        raise validation(field, "You may only provide one identity document per passenger.")
    if offer["identity_documents_required"] and not documents:
        raise validation(field, "This offer requires an identity document for every passenger.")
    for doc in documents:
        if doc["type"] not in allowed:
            raise validation(field, f"{doc['type']} is not accepted; allowed: {', '.join(allowed)}.")
        if doc["expires_on"] <= last_departure.isoformat():
            raise validation(field, f"The document expires on {doc['expires_on']}, before the end of the trip.")


def issue_tickets(owner: dict[str, Any], order_id: str, passengers: list[dict[str, Any]], version: str) -> list[dict]:
    return [
        {
            "type": "electronic_ticket",
            "passenger_ids": [p["id"]],
            "unique_identifier": ticket_number(owner["ticket_prefix"], order_id, p["id"], version),
        }
        for p in passengers
    ]


def copy_slices(stored: list[dict[str, Any]], owner_key: str) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Slices with new slice and segment ids for an order (the same flights get new ids in every order), and the
    old-to-new id map."""
    mapping: dict[str, str] = {}
    copied = []
    for i, s in enumerate(stored):
        new_slice = content_id("sli", owner_key, i)
        mapping[s["id"]] = new_slice
        segments = []
        for j, seg in enumerate(s["segments"]):
            new_seg = content_id("seg", owner_key, i, j)
            mapping[seg["id"]] = new_seg
            segments.append(dict(seg, id=new_seg))
        copied.append(dict(s, id=new_slice, segments=segments))
    return copied, mapping


def service_row(
    db: Database, order_id: str, service: ancillaries.Service, quantity: int, mapping: dict[str, str] | None = None
) -> dict[str, Any]:
    """A booked service row."""
    remap = mapping or {}
    meta = (
        {"type": "checked", "maximum_weight_kg": ancillaries.BAG_WEIGHT_KG}
        if service.type == "baggage"
        else {"designator": service.designator, "name": service.name, "disclosures": list(service.disclosures)}
    )
    return db.insert(
        order_services,
        id=new_id(db, order_services, "ser"),
        order_id=order_id,
        type=service.type,
        passenger_id=service.passenger_id,
        slice_id=remap.get(service.slice_id, service.slice_id),
        segment_ids=[remap.get(s, s) for s in service.segment_ids],
        flight_keys=list(service.flight_keys),
        designator=service.designator,
        quantity=quantity,
        total_amount=service.unit_amount * quantity,
        total_currency=CURRENCY,
        metadata=meta,
    )


def create_order(
    db: Database,
    offer_id: str,
    order_type: str,
    passengers: list[dict[str, Any]],
    services: list[dict[str, Any]],
    payment: list[dict[str, Any]],
    metadata: dict[str, str],
) -> str:
    """Book an offer; returns the new order's id."""
    ref = Reference(db)
    offer = get(db, offers, offer_id, "Offer")
    usable_offer(db, offer)
    if db.find(orders, offer_id=offer_id):
        raise invalid_state(
            "offer_no_longer_available", "The offer is no longer available: it has already been booked."
        )
    if db.find(orders, offer_request_id=offer["offer_request_id"]):
        raise invalid_state(
            "offer_request_already_booked",
            "An order has already been created from this offer request; create a new offer request to book again.",
        )
    seated = sum(p["type"] in fares.SEATED for p in offer["passengers"])
    legs = [seg for s in offer["slices"] for seg in s["segments"]]
    left = seats_left(db, [leg["flight_key"] for leg in legs])
    if any(left[leg["flight_key"]][offer["cabin_class"]] < seated for leg in legs):
        raise invalid_state(
            "offer_no_longer_available",
            "The offer is no longer available: the airline has no more seats at this fare. Choose another offer.",
        )
    _check_passengers(offer, passengers)
    position = {o["id"]: i for i, o in enumerate(offer["passengers"])}
    passengers = sorted(passengers, key=lambda p: position[p["id"]])  # an unordered list: kept in the offer's order
    carriers = {p["id"] for p in passengers if p.get("infant_passenger_id")}
    chosen = ancillaries.resolve(db, ref, offer, [(s["id"], s["quantity"]) for s in services], carriers)
    services_amount = sum(s.unit_amount * q for s, q in chosen)
    if order_type == "hold":
        if offer["requires_instant_payment"]:
            raise validation(
                "type", "This offer requires instant payment and can't be held; create an instant order with a payment."
            )
        if payment:
            raise validation(
                "payments",
                "A hold order is created without payments; pay it before payment_required_by with create_payment.",
            )
        if chosen:
            raise validation("services", "Services can't be booked with a hold order.")
    else:
        if len(payment) != 1:
            raise validation("payments", "An instant order needs exactly one payment.")
        if payment[0]["type"] != "balance":
            raise validation(
                "payments[0].type", "arc_bsp_cash is only available to IATA-accredited agents; pay with balance."
            )
        check_payment(
            payment[0]["amount"],
            payment[0]["currency"],
            offer["total_amount"] + services_amount,
            "offer and selected services",
        )
    order_id = new_id(db, orders, "ord")
    slices, mapping = copy_slices(offer["slices"], order_id)
    take_seats(db, legs, offer["cabin_class"], seated)
    owner = ref.airlines[offer["owner"]]
    instant = order_type == "instant"
    now = db.now_iso()
    db.insert(
        orders,
        id=order_id,
        offer_id=offer_id,
        offer_request_id=offer["offer_request_id"],
        booking_reference=booking_reference(order_id),
        owner=offer["owner"],
        type=order_type,
        cabin_class=offer["cabin_class"],
        slices=slices,
        base_amount=offer["base_amount"],
        tax_amount=offer["tax_amount"],
        services_amount=services_amount,
        total_amount=offer["total_amount"] + services_amount,
        total_currency=CURRENCY,
        conditions=offer["conditions"],
        awaiting_payment=not instant,
        payment_required_by=None if instant else offer["payment_required_by"],
        price_guarantee_expires_at=None if instant else offer["price_guarantee_expires_at"],
        documents=issue_tickets(owner, order_id, passengers, "0") if instant else [],
        metadata=dict(metadata),
        cancelled=False,
        paid_at=now if instant else None,
        cancelled_at=None,
        created_at=now,
    )
    for p in passengers:
        offered = next(o for o in offer["passengers"] if o["id"] == p["id"])
        db.insert(
            order_passengers,
            id=p["id"],
            order_id=order_id,
            type=offered["type"],
            title=p["title"],
            gender=p["gender"],
            given_name=p["given_name"],
            family_name=p["family_name"],
            born_on=p["born_on"],
            email=p["email"],
            phone_number=p["phone_number"],
            infant_passenger_id=p.get("infant_passenger_id"),
            loyalty_programme_accounts=offered.get("loyalty_programme_accounts", []),
            identity_documents=[dict(d) for d in p.get("identity_documents") or []],
        )
    for service, quantity in chosen:
        service_row(db, order_id, service, quantity, mapping)
    if instant:
        db.insert(
            payments,
            id=new_id(db, payments, "pay"),
            order_id=order_id,
            purpose="order",
            type="balance",
            amount=offer["total_amount"] + services_amount,
            currency=CURRENCY,
            created_at=now,
        )
    return order_id


# ---------------------------------------------------------------- after booking


def live_order(db: Database, order_id: str) -> dict[str, Any]:
    """An order that is not cancelled."""
    order = get(db, orders, order_id, "Order")
    if order["cancelled"]:
        raise invalid_state("already_cancelled", "The order has already been cancelled.")
    return order


def pay_hold_order(db: Database, order_id: str, payment: dict[str, Any]) -> dict[str, Any]:
    """Pay a hold order in full before payment_required_by; its tickets are issued."""
    order = live_order(db, order_id)
    if not order["awaiting_payment"]:
        raise invalid_state("already_paid", "The order has already been paid for.")
    if expired(db, order["payment_required_by"]):
        raise invalid_state(
            "order_expired",
            "The order's payment_required_by has passed and the airline has released its space; create a new order.",
        )
    if payment["type"] != "balance":
        raise validation("payment.type", "arc_bsp_cash is only available to IATA-accredited agents; pay with balance.")
    check_payment(payment["amount"], payment["currency"], order["total_amount"], "order")
    now = db.now_iso()
    row = db.insert(
        payments,
        id=new_id(db, payments, "pay"),
        order_id=order_id,
        purpose="order",
        type="balance",
        amount=order["total_amount"],
        currency=CURRENCY,
        created_at=now,
    )
    passengers = db.find(order_passengers, order_id=order_id)
    owner = Reference(db).airlines[order["owner"]]
    db.update(
        orders, order_id, awaiting_payment=False, paid_at=now, documents=issue_tickets(owner, order_id, passengers, "0")
    )
    return row


def add_services(db: Database, order_id: str, requested: list[tuple[str, int]], payment: dict[str, Any]) -> None:
    """Book extra bags on a paid order, paying for them from the balance."""
    order = live_order(db, order_id)
    if order["awaiting_payment"]:
        raise invalid_state("invalid_state_error", "Services can only be added to an order that has been paid.")
    ref = Reference(db)
    catalog = {s.id: s for s in ancillaries.order_bags(db, ref, order, db.find(order_passengers, order_id=order_id))}
    chosen = []
    for sid, quantity in sorted(requested):  # the list is unordered: rows are booked in service-id order
        service = catalog.get(sid)
        if service is None:
            raise validation("add_services", f"The service {sid} is not available for this order.")
        if quantity > service.maximum_quantity:
            raise validation("add_services", f"The quantity of {sid} can be at most {service.maximum_quantity}.")
        chosen.append((service, quantity))
    amount = sum(s.unit_amount * q for s, q in chosen)
    if payment["type"] != "balance":
        raise validation("payment.type", "arc_bsp_cash is only available to IATA-accredited agents; pay with balance.")
    check_payment(payment["amount"], payment["currency"], amount, "selected services")
    for service, quantity in chosen:
        service_row(db, order_id, service, quantity)
    db.insert(
        payments,
        id=new_id(db, payments, "pay"),
        order_id=order_id,
        purpose="services",
        type="balance",
        amount=amount,
        currency=CURRENCY,
        created_at=db.now_iso(),
    )
    db.update(
        orders, order_id, services_amount=order["services_amount"] + amount, total_amount=order["total_amount"] + amount
    )


def quote_cancellation(db: Database, order_id: str) -> dict[str, Any]:
    """A cancellation quote: a hold order awaiting payment refunds nothing (refund_to awaiting_payment); a paid
    order refunds its total less the refund penalty if its fare is refundable, else nothing; the refund goes to the
    balance. An order whose first flight has left can't be cancelled."""
    order = live_order(db, order_id)
    if any(ancillaries.departed(db, s) for s in order["slices"]):
        raise invalid_state(
            "order_not_cancellable", "The order can't be cancelled: some of its flights have already departed."
        )
    rule = order["conditions"]["refund_before_departure"]
    if order["awaiting_payment"]:
        refund, refund_to = 0, "awaiting_payment"
    else:
        refund = max(0, order["total_amount"] - (rule["penalty_amount"] or 0)) if rule["allowed"] else 0
        refund_to = "balance"
    now = db.now()
    sequence = len(db.find(order_cancellations, order_id=order_id)) + 1
    return db.insert(
        order_cancellations,
        id=new_id(db, order_cancellations, "ore"),
        order_id=order_id,
        sequence=sequence,
        refund_amount=refund,
        refund_currency=CURRENCY,
        refund_to=refund_to,
        confirmed=False,
        confirmed_at=None,
        expires_at=iso(now + CANCELLATION_LIFETIME),
        created_at=iso(now),
    )


def confirm_cancellation(db: Database, cancellation_id: str) -> dict[str, Any]:
    """Confirm the latest, unexpired cancellation quote of an order: the order is cancelled, its seats released and
    the refund sent to where the quote said."""
    quote = get(db, order_cancellations, cancellation_id, "Order cancellation")
    if quote["confirmed"]:
        raise invalid_state("already_cancelled", "This order cancellation has already been confirmed.")
    order = live_order(db, quote["order_id"])
    latest = max(q["sequence"] for q in db.find(order_cancellations, order_id=order["id"]))
    if quote["sequence"] != latest:
        raise invalid_state(
            "invalid_state_error",
            "You can only confirm the most recent order cancellation that you have created for an order.",
        )
    if expired(db, quote["expires_at"]):
        raise invalid_state(
            "order_cancellation_expired",
            "This order cancellation has expired; create a new one to get an up-to-date refund amount.",
        )
    if any(ancillaries.departed(db, s) for s in order["slices"]):
        raise invalid_state(
            "order_not_cancellable", "The order can't be cancelled: some of its flights have already departed."
        )
    now = db.now_iso()
    seated = len([p for p in db.find(order_passengers, order_id=order["id"]) if p["type"] in fares.SEATED])
    for s in order["slices"]:
        take_seats(db, s["segments"], order["cabin_class"], -seated)
    db.update(orders, order["id"], cancelled=True, cancelled_at=now)
    return db.update(order_cancellations, cancellation_id, confirmed=True, confirmed_at=now)


# ---------------------------------------------------------------- the API's Order


def changeable(db: Database, order: dict[str, Any], stored_slice: dict[str, Any]) -> bool:
    """A slice can be changed on a paid, live order before it departs, if its fare allows changes."""
    return (
        not order["cancelled"]
        and not order["awaiting_payment"]
        and not ancillaries.departed(db, stored_slice)
        and stored_slice["conditions"]["change_before_departure"]["allowed"]
    )


def order_object(db: Database, ref: Reference, order: dict[str, Any]) -> Order:
    """A stored order with its passengers, services, seats and tickets."""
    passengers = db.find(order_passengers, order_id=order["id"])
    services = db.find(order_services, order_id=order["id"])
    seats = {
        (seg, s["passenger_id"]): {
            "designator": s["designator"],
            "name": s["metadata"]["name"],
            "disclosures": s["metadata"]["disclosures"],
        }
        for s in services
        if s["type"] == "seat"
        for seg in s["segment_ids"]
    }
    slice_flags = [changeable(db, order, s) for s in order["slices"]]
    actions = [] if order["cancelled"] else ["cancel", "update"] + (["change"] if any(slice_flags) else [])
    if not order["cancelled"] and any(ancillaries.departed(db, s) for s in order["slices"]):
        actions = [a for a in actions if a != "cancel"]
    return Order(
        id=order["id"],
        booking_reference=order["booking_reference"],
        owner=airline(ref, order["owner"]),
        type=order["type"],
        slices=[slice_object(ref, s, passengers, seats, flag) for s, flag in zip(order["slices"], slice_flags)],
        passengers=[
            OrderPassenger(
                id=p["id"],
                type=p["type"],
                title=p["title"],
                gender=p["gender"],
                given_name=p["given_name"],
                family_name=p["family_name"],
                born_on=p["born_on"],
                email=p["email"],
                phone_number=p["phone_number"],
                infant_passenger_id=p["infant_passenger_id"],
                loyalty_programme_accounts=[LoyaltyProgrammeAccount(**a) for a in p["loyalty_programme_accounts"]],
            )
            for p in passengers
        ],
        services=[
            OrderService(
                id=s["id"],
                type=s["type"],
                passenger_ids=[s["passenger_id"]],
                segment_ids=s["segment_ids"],
                quantity=s["quantity"],
                total_amount=money(s["total_amount"]),
                total_currency=s["total_currency"],
                metadata=ServiceMetadata(**{k: v for k, v in s["metadata"].items() if k != "disclosures"}),
            )
            for s in services
        ],
        base_amount=money(order["base_amount"]),
        tax_amount=money(order["tax_amount"]),
        total_amount=money(order["total_amount"]),
        total_currency=order["total_currency"],
        conditions=conditions(order["conditions"]),
        payment_status=_payment_status(order),
        documents=[Document(**d) for d in order["documents"]],
        metadata=order["metadata"],
        available_actions=actions,
        cancelled_at=order["cancelled_at"],
        created_at=order["created_at"],
    )


def _payment_status(order: dict[str, Any]) -> PaymentStatus:
    return PaymentStatus(
        awaiting_payment=order["awaiting_payment"],
        payment_required_by=order["payment_required_by"],
        price_guarantee_expires_at=order["price_guarantee_expires_at"],
        paid_at=order["paid_at"],
    )


def order_summary(ref: Reference, order: dict[str, Any], passengers: list[dict[str, Any]]) -> OrderSummary:
    """An order in short, for lists."""
    return OrderSummary(
        id=order["id"],
        booking_reference=order["booking_reference"],
        owner=airline(ref, order["owner"]),
        type=order["type"],
        slices=[slice_summary(s) for s in order["slices"]],
        passengers=[
            PassengerName(id=p["id"], type=p["type"], given_name=p["given_name"], family_name=p["family_name"])
            for p in passengers
        ],
        total_amount=money(order["total_amount"]),
        total_currency=order["total_currency"],
        payment_status=_payment_status(order),
        metadata=order["metadata"],
        cancelled_at=order["cancelled_at"],
        created_at=order["created_at"],
    )
