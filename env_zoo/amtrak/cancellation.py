"""Cancelling segments (or one traveller's part of them) under each fare's refund terms: the segments asked for,
the terms of each, and settling them (fees, forfeits, the refund and the eTicket)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .ledger import check_refund_method, record, refund, reissue_eticket
from .objects import CancellationObject, QuoteLine, evoucher_object, segment_amount
from .reservations import check_party, held, open_segments, party, refresh, release, require_confirmed, segment_of
from .rules import SLEEPERS, Terms, Timing, cancellation_terms, check_open, timing
from .schema import passengers, reservations, segments


@dataclass(frozen=True)
class Line:
    """One segment (or one traveller's part of it) to cancel, with its terms."""

    segment: dict[str, Any]
    when: Timing
    amount: int
    terms: Terms

    def quote(self) -> QuoteLine:
        """The line as the agent sees it."""
        s, t = self.segment, self.terms
        return QuoteLine(
            segment_id=s["segment_id"],
            train_number=s["train_number"],
            origin=s["origin"],
            destination=s["destination"],
            service_date=s["service_date"],
            fare_code=s["fare_code"],
            amount_cents=self.amount,
            fee_cents=t.fee_cents,
            refundable_cents=t.refundable_cents,
            forfeited_cents=t.forfeited_cents,
            refund_methods=list(t.refund_methods),
            rule=t.rule,
        )


def cancellation_lines(
    db: Database,
    reservation: dict[str, Any],
    targets: list[dict[str, Any]],
    amount: Callable[[dict[str, Any]], int],
    action: str,
) -> list[Line]:
    """Terms for each target segment, checking each can still be cancelled."""
    lines = []
    for segment in targets:
        when = timing(db, reservation, segment)
        check_open(segment, when, action)
        value = amount(segment)
        lines.append(Line(segment, when, value, cancellation_terms(segment, when, value, reservation["award"])))
    return lines


def settle(
    db: Database, reservation: dict[str, Any], lines: list[Line], method: str, what: str, apply: Callable[[Line], None]
) -> CancellationObject:
    """Cancel the lines: check the refund method is allowed for each, `apply` each to the segments, book fees and
    forfeits, refund the rest, reissue (or void) the eTicket."""
    number = reservation["reservation_number"]
    check_refund_method(reservation["award"], method)
    for line in lines:
        if line.terms.refundable_cents and method not in line.terms.refund_methods:
            raise InvalidRequest(
                f"Segment {line.segment['segment_id']} can't be refunded to {method}: {line.terms.rule}."
            )
    for line in lines:
        apply(line)
        seg = line.segment
        label = f"{what}: train {seg['train_number']} {seg['origin']}-{seg['destination']} {seg['service_date']}"
        if line.terms.fee_cents:
            record(db, number, "fee", "none", line.terms.fee_cents, f"Cancellation fee 25%, {label}")
        if line.terms.forfeited_cents:
            record(db, number, "forfeit", "none", line.terms.forfeited_cents, f"Non-refundable, {label}")
    refundable = sum(line.terms.refundable_cents for line in lines)
    back = refund(db, db.get(reservations, number), refundable, method, f"{what}, reservation {number}")
    row = refresh(db, number)
    ticket = reissue_eticket(db, number, "exchanged" if row["status"] == "CONFIRMED" else "cancelled")
    return CancellationObject(
        reservation_number=number,
        reservation_status=row["status"],
        lines=[line.quote() for line in lines],
        refunded_to_card_cents=back.to_card,
        points_returned=back.points,
        evoucher=evoucher_object(back.evoucher),
        fee_cents=sum(line.terms.fee_cents for line in lines),
        forfeited_cents=sum(line.terms.forfeited_cents for line in lines),
        eticket_number=ticket,
    )


def cancellation_targets(db: Database, reservation: dict[str, Any], segment_ids: list[str]) -> list[dict[str, Any]]:
    """The segments to cancel, each on the reservation, in trip order whatever order they were given in."""
    require_confirmed(reservation)
    chosen = [segment_of(db, reservation, sid) for sid in set(segment_ids)]
    return sorted(chosen, key=lambda s: (s["sequence"], s["segment_id"]))


def cancel_segments(
    db: Database, reservation: dict[str, Any], segment_ids: list[str], method: str
) -> CancellationObject:
    """Cancel segments of a reservation, release their seats and settle each under its fare's terms."""
    targets = cancellation_targets(db, reservation, segment_ids)
    lines = cancellation_lines(db, reservation, targets, segment_amount, "cancelled")

    def cancel(line: Line) -> None:
        release(db, line.segment, held(db, line.segment))
        db.update(segments, line.segment["segment_id"], status="CANCELLED")

    return settle(db, reservation, lines, method, "Cancelled", cancel)


def remove_traveller(db: Database, reservation: dict[str, Any], passenger_id: str, method: str) -> CancellationObject:
    """Take one traveller off the reservation's remaining segments and settle their fares; the rest of the party
    must still be a valid party, and sleeper room charges stay with the room."""
    number = reservation["reservation_number"]
    traveller = db.get(passengers, passenger_id, "Passenger")
    if traveller["reservation_number"] != number or traveller["status"] != "ACTIVE":
        raise NotFound(f"Passenger '{passenger_id}' is not travelling on reservation {number}")
    name = f"{traveller['first_name']} {traveller['last_name']}"
    remaining = party(db, number)
    del remaining[passenger_id]
    if not remaining:
        raise Conflict(f"{name} is the only traveller: cancel the reservation instead.")
    check_party(list(remaining.values()))
    targets = [s for s in open_segments(db, reservation) if passenger_id in s["passenger_fares"]]
    if not targets:
        raise Conflict(f"{traveller['first_name']} has no remaining travel on this reservation.")
    lines = cancellation_lines(db, reservation, targets, lambda s: s["passenger_fares"][passenger_id], "changed")

    def drop(line: Line) -> None:
        segment = line.segment
        seated = traveller["passenger_type"] != "infant" and segment["class_of_service"] not in SLEEPERS
        release(db, segment, 1 if seated else 0)
        fares = {pid: c for pid, c in segment["passenger_fares"].items() if pid != passenger_id}
        db.update(segments, segment["segment_id"], passenger_fares=fares)

    result = settle(db, reservation, lines, method, f"Removed {name}", drop)
    db.update(passengers, passenger_id, status="REMOVED")
    return result
