"""On board: the conductor scans a traveller's eTicket for the ride on this train, which uses the segment and
credits its Guest Rewards points."""

from __future__ import annotations

from envfactory_gym import Conflict, Database

from .access import member_row
from .ledger import post_points
from .objects import ScanObject, reservation_segments, segment_amount
from .reservations import refresh
from .rules import BOARDING_OPENS, points_earned, segment_times
from .schema import etickets, reservations, segments


def scan(db: Database, eticket_number: str, train_number: str) -> ScanObject:
    """Use the eTicket's ride on `train_number` (boarding opens 30 minutes before departure) and credit its points
    (not for award bookings)."""
    ticket = db.get(etickets, eticket_number, "eTicket")
    if ticket["status"] != "ISSUED":
        raise Conflict(
            f"eTicket {ticket['eticket_number']} is void ({ticket['void_reason']}): show the current "
            f"eTicket of reservation {ticket['reservation_number']}."
        )
    reservation = db.get(reservations, ticket["reservation_number"], "Reservation")
    rides = [
        s
        for s in reservation_segments(db, reservation["reservation_number"])
        if s["train_number"] == train_number and s["status"] == "CONFIRMED"
    ]
    if not rides:
        raise Conflict(f"This eTicket has no confirmed ride on train {train_number}.")
    now = db.now()
    boarding = [s for s in rides if segment_times(db, s)[0] - BOARDING_OPENS <= now <= segment_times(db, s)[1]]
    if not boarding:
        raise Conflict(
            f"This eTicket is for train {train_number} leaving {rides[0]['origin']} at "
            f"{segment_times(db, rides[0])[0]:%Y-%m-%d %H:%M}; it can be scanned only on board that "
            "train."
        )
    segment = boarding[0]
    db.update(segments, segment["segment_id"], status="USED")
    points = 0
    if not reservation["award"]:
        member = member_row(db, reservation["member_number"])
        points = points_earned(segment_amount(segment), member["tier"])
        post_points(
            db,
            member["member_number"],
            points,
            f"Travel: train {segment['train_number']} {segment['origin']}-{segment['destination']}",
            reservation["reservation_number"],
        )
    refresh(db, reservation["reservation_number"])
    return ScanObject(
        eticket_number=ticket["eticket_number"],
        reservation_number=reservation["reservation_number"],
        segment_id=segment["segment_id"],
        train_number=segment["train_number"],
        origin=segment["origin"],
        destination=segment["destination"],
        travelers=len(segment["passenger_fares"]),
        status="USED",
        points_credited=points,
    )
