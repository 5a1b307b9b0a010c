"""Money and points on a reservation: charges to the card on file, eVouchers and points, refunds back to them,
fees and forfeits in the payment history, and the eTicket reissued whenever the reservation changes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .rules import points_for
from .schema import etickets, evouchers, members, payments, reservations, rewards_activity

EVOUCHER_VALIDITY = timedelta(days=365)


def record(
    db: Database,
    reservation_number: str,
    kind: str,
    method: str,
    amount: int,
    description: str,
    points: int = 0,
    evoucher_number: str | None = None,
) -> None:
    """A line of the reservation's payment history."""
    db.insert(
        payments,
        payment_id=db.new_id(payments, "PMT", 5),
        reservation_number=reservation_number,
        kind=kind,
        method=method,
        amount_cents=amount,
        points=points,
        evoucher_number=evoucher_number,
        description=description,
        created_at=db.now_iso(),
    )


def post_points(
    db: Database, member_number: str, points: int, description: str, reservation_number: str | None
) -> None:
    """Credit (or, negative, debit) a member's Guest Rewards points, with an activity line."""
    member = db.get(members, member_number, "Member")
    db.update(members, member_number, points_balance=member["points_balance"] + points)
    db.insert(
        rewards_activity,
        activity_id=db.new_id(rewards_activity, "AGR", 6),
        member_number=member_number,
        reservation_number=reservation_number,
        description=description,
        points=points,
        posted_at=db.now_iso(),
    )


def issue_evoucher(db: Database, member_number: str, reservation_number: str, cents: int) -> dict[str, Any]:
    """A new eVoucher, valid for a year."""
    return db.insert(
        evouchers,
        evoucher_number=db.new_id(evouchers, "EV", 8),
        member_number=member_number,
        source_reservation=reservation_number,
        original_cents=cents,
        balance_cents=cents,
        expires_on=(db.now() + EVOUCHER_VALIDITY).date().isoformat(),
        status="ACTIVE",
        issued_at=db.now_iso(),
    )


def reissue_eticket(db: Database, reservation_number: str, reason: str | None) -> str | None:
    """Void the eTicket in force (`reason`: exchanged or cancelled) and, unless cancelled, issue a new one."""
    for ticket in db.find(etickets, reservation_number=reservation_number, status="ISSUED"):
        db.update(etickets, ticket["eticket_number"], status="VOID", void_reason=reason)
    if reason == "cancelled":
        return None
    number = db.new_id(etickets, "28734", width=8)
    db.insert(
        etickets,
        eticket_number=number,
        reservation_number=reservation_number,
        status="ISSUED",
        void_reason=None,
        issued_at=db.now_iso(),
    )
    return number


def redeem_evoucher(db: Database, member_number: str, evoucher_number: str, due: int, reservation_number: str) -> int:
    """Apply an eVoucher to an amount due; returns the cents it covers."""
    voucher = db.get(evouchers, evoucher_number.strip().upper(), "eVoucher")
    if voucher["member_number"] != member_number:
        raise InvalidRequest(f"eVoucher {voucher['evoucher_number']} belongs to another Guest Rewards account.")
    if voucher["status"] != "ACTIVE" or voucher["expires_on"] < db.now().date().isoformat():
        state = "expired" if voucher["status"] != "REDEEMED" else "fully redeemed"
        raise Conflict(f"eVoucher {voucher['evoucher_number']} is {state}.")
    applied = min(voucher["balance_cents"], due)
    balance = voucher["balance_cents"] - applied
    db.update(evouchers, voucher["evoucher_number"], balance_cents=balance, status="ACTIVE" if balance else "REDEEMED")
    record(
        db,
        reservation_number,
        "charge",
        "evoucher",
        applied,
        "Paid with eVoucher",
        evoucher_number=voucher["evoucher_number"],
    )
    return applied


def charge(db: Database, reservation: dict[str, Any], cents: int, description: str) -> tuple[int, int]:
    """Collect an amount: in points for award bookings, else on the member's card. Returns (cents, points)."""
    member = db.get(members, reservation["member_number"], "Member")
    number = reservation["reservation_number"]
    if reservation["award"]:
        points = points_for(cents)
        if member["points_balance"] < points:
            raise Conflict(f"Not enough points: {points:,} needed, {member['points_balance']:,} available.")
        post_points(db, member["member_number"], -points, f"Redeemed: {description}", number)
        record(db, number, "charge", "points", cents, description, points=points)
        db.update(reservations, number, paid_points=reservation["paid_points"] + points)
        return 0, points
    if not member["card_on_file"]:
        raise Conflict("No payment card on file: add one to the Guest Rewards profile first.")
    record(db, number, "charge", "card", cents, f"{description} (card ending {member['card_on_file']['last4']})")
    db.update(reservations, number, paid_card_cents=reservation["paid_card_cents"] + cents)
    return cents, 0


@dataclass(frozen=True)
class Refund:
    """Where refunded value went."""

    to_card: int = 0
    points: int = 0
    evoucher: dict[str, Any] | None = None


def refund(db: Database, reservation: dict[str, Any], cents: int, method: str, description: str) -> Refund:
    """Give `cents` back: award bookings as points; `original_payment` to the card up to what the card paid (the
    rest, paid by eVoucher, as a new eVoucher); `evoucher` all as a new eVoucher."""
    number = reservation["reservation_number"]
    if cents <= 0:
        return Refund()
    if reservation["award"]:
        points = min(reservation["paid_points"], points_for(cents))
        post_points(db, reservation["member_number"], points, f"Points redeposited: {description}", number)
        record(db, number, "refund", "points", cents, description, points=points)
        db.update(reservations, number, paid_points=reservation["paid_points"] - points)
        return Refund(points=points)
    to_card = min(cents, reservation["paid_card_cents"]) if method == "original_payment" else 0
    to_voucher = cents - to_card
    from_voucher = min(to_voucher, reservation["paid_evoucher_cents"])
    db.update(
        reservations,
        number,
        paid_card_cents=max(0, reservation["paid_card_cents"] - to_card - (to_voucher - from_voucher)),
        paid_evoucher_cents=reservation["paid_evoucher_cents"] - from_voucher,
    )
    if to_card:
        record(db, number, "refund", "card", to_card, description)
    voucher = None
    if to_voucher:
        voucher = issue_evoucher(db, reservation["member_number"], number, to_voucher)
        record(db, number, "refund", "evoucher", to_voucher, description, evoucher_number=voucher["evoucher_number"])
    return Refund(to_card=to_card, evoucher=voucher)


def check_refund_method(award: bool, method: str) -> None:
    """Award bookings go back to points: only original_payment applies."""
    if award and method != "original_payment":
        raise InvalidRequest("Points redemptions are refunded to the Guest Rewards account: use original_payment.")
