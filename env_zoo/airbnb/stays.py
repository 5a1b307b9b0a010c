"""A reservation's life as a guest sees it: booking (Instant Book, or a request the host's rules answer), payment
confirmation, alterations of dates or guests with the price difference, and cancellation with its refund."""

from __future__ import annotations

from datetime import date
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .rules import Quote, check_in_moment, check_stay, quote, refund_for, require_available
from .schema import hosts, listings, payments, reservations, reviews

CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CHANGEABLE = ("pending", "accepted", "confirmed")


def local_now(db: Database) -> Any:
    """The simulated clock as naive local time."""
    return db.now().replace(tzinfo=None)


def confirmation_code(db: Database) -> str:
    """A fresh, deterministic confirmation code like HMX4Q7ZK2P."""
    while True:
        number = (db.next_number("reservation_code") * 2654435761 + 97531) % len(CODE_LETTERS) ** 8
        letters = []
        for _ in range(8):
            number, digit = divmod(number, len(CODE_LETTERS))
            letters.append(CODE_LETTERS[digit])
        code = "HM" + "".join(letters)
        if not db.find(reservations, code=code):
            return code


def refuse_expired(db: Database, method: dict[str, Any]) -> None:
    """A card past its expiry month can't pay."""
    if method["exp_year"] is None:
        return
    today = local_now(db).date()
    if (method["exp_year"], method["exp_month"]) < (today.year, today.month):
        raise InvalidRequest(
            f"Your {method['brand']} ending {method['last4']} has expired. Update it or use another payment method."
        )


def stored_prices(stay: Quote) -> dict[str, int]:
    """A quote as the reservation's price columns."""
    return {
        "nights_total": stay.nights_total,
        "cleaning_fee": stay.cleaning_fee,
        "service_fee": stay.service_fee,
        "taxes": stay.taxes,
        "total": stay.total,
    }


def book(
    db: Database,
    guest: dict[str, Any],
    listing: dict[str, Any],
    stay: tuple[date, date],
    party: dict[str, int],
    method: dict[str, Any],
    message: str,
) -> dict[str, Any]:
    """Reserve the stay: Instant Book is accepted at once; a request is answered by the host's rules (declined for
    unverified guests where the host requires verification, left pending by hosts who answer within a day)."""
    start, end = stay
    check_stay(listing, start, end, party["adults"], party["children"], party["pets"], local_now(db).date())
    require_available(db, listing["id"], start, end)
    refuse_expired(db, method)
    if not listing["instant_book"] and not message.strip():
        raise InvalidRequest("Send the host a message to introduce yourself and your trip with your request.")
    host = db.get(hosts, listing["host_id"])
    if listing["instant_book"]:
        status = "accepted"
    elif host["verified_guests_only"] and not guest["identity_verified"]:
        status = "declined"
    elif host["response_time"] == "within a day":
        status = "pending"
    else:
        status = "accepted"
    return db.insert(
        reservations,
        code=confirmation_code(db),
        listing_id=listing["id"],
        guest_id=guest["id"],
        check_in=start.isoformat(),
        check_out=end.isoformat(),
        **party,
        status=status,
        booked_at=db.now_iso(),
        payment_method_id=method["id"],
        paid=0,
        message_to_host=message,
        cancelled_at=None,
        refund=None,
        **stored_prices(quote(listing, start, end, party["adults"], party["children"])),
    )


def record_payment(db: Database, code: str, kind: str, amount: int, reason: str) -> None:
    """A charge or refund on the reservation's payment method."""
    db.insert(
        payments,
        id=db.new_id(payments, "pay_", width=6),
        reservation_code=code,
        kind=kind,
        amount=amount,
        reason=reason,
        created_at=db.now_iso(),
    )


def confirm_payment(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Charge an accepted reservation's total; it is then confirmed."""
    if row["status"] != "accepted":
        raise Conflict(f"Reservation {row['code']} isn't waiting for payment (it is {row['status']}).")
    record_payment(db, row["code"], "charge", row["total"], "booking")
    return db.update(reservations, row["code"], status="confirmed", paid=row["total"])


def refuse_started(db: Database, row: dict[str, Any], action: str) -> None:
    """Only upcoming, open reservations can be changed or cancelled here."""
    if row["status"] not in CHANGEABLE:
        raise Conflict(f"This reservation is {row['status']} and can't be {action}.")
    if local_now(db) >= check_in_moment(row["check_in"]):
        raise Conflict(f"This trip has already started, so it can't be {action} here. Contact Airbnb Support.")


def alter(
    db: Database, row: dict[str, Any], listing: dict[str, Any], stay: tuple[date, date], party: dict[str, int]
) -> tuple[dict[str, Any], int, int, int]:
    """Change dates or guests: re-check the rules and calendar, re-quote, and settle the difference on a paid
    reservation (a saving is refunded as far as the cancellation policy allows now). Returns the new row, the
    difference, what was charged and what was refunded."""
    refuse_started(db, row, "changed")
    start, end = stay
    check_stay(listing, start, end, party["adults"], party["children"], party["pets"], local_now(db).date())
    same = (start.isoformat(), end.isoformat()) == (row["check_in"], row["check_out"]) and all(
        row[key] == value for key, value in party.items()
    )
    if same:
        raise InvalidRequest("Nothing to change: the dates and guests are the same as your reservation's.")
    require_available(db, listing["id"], start, end, ignore_code=row["code"])
    prices = stored_prices(quote(listing, start, end, party["adults"], party["children"]))
    difference = prices["total"] - row["total"]
    charged = refunded = 0
    paid = row["paid"]
    if row["status"] == "confirmed" and difference > 0:
        charged = difference
        record_payment(db, row["code"], "charge", charged, "alteration")
    elif row["status"] == "confirmed" and difference < 0:
        refunded = alteration_refund(db, row, listing, -difference)
        if refunded:
            record_payment(db, row["code"], "refund", refunded, "alteration")
    updated = db.update(
        reservations,
        row["code"],
        check_in=start.isoformat(),
        check_out=end.isoformat(),
        **party,
        **prices,
        paid=paid + charged - refunded,
    )
    return updated, difference, charged, refunded


def alteration_refund(db: Database, row: dict[str, Any], listing: dict[str, Any], saving: int) -> int:
    """What a cheaper alteration gives back: all of the saving while cancelling would still be fully refunded,
    half of it while the policy gives a partial refund, nothing after."""
    refund, _ = refund_for(listing["cancellation_policy"], row, local_now(db))
    if refund >= row["paid"]:
        return saving
    return saving // 2 if refund else 0


def cancel(db: Database, row: dict[str, Any], policy: str) -> tuple[dict[str, Any], int, str]:
    """Cancel before check-in; the policy decides the refund of what was paid."""
    refuse_started(db, row, "cancelled")
    refund, rule = refund_for(policy, row, local_now(db))
    if refund:
        record_payment(db, row["code"], "refund", refund, "cancellation")
    updated = db.update(
        reservations,
        row["code"],
        status="cancelled",
        refund=refund,
        paid=row["paid"] - refund,
        cancelled_at=db.now_iso(),
    )
    return updated, refund, rule


def post_review(
    db: Database, guest: dict[str, Any], row: dict[str, Any], rating: int, text: str, window_days: int
) -> dict[str, Any]:
    """Publish the guest's review of a completed stay and fold it into the listing's rating."""
    if row["status"] != "completed":
        raise Conflict("You can write a review after your stay is completed.")
    if db.find(reviews, reservation_code=row["code"]):
        raise Conflict("You've already written a review for this stay.")
    checkout = date.fromisoformat(row["check_out"])
    if (local_now(db).date() - checkout).days > window_days:
        raise Conflict(f"The {window_days}-day window to review this stay has closed.")
    review = db.insert(
        reviews,
        id=db.new_id(reviews, "rev_", width=5),
        listing_id=row["listing_id"],
        reservation_code=row["code"],
        author=guest["first_name"],
        guest_id=guest["id"],
        rating=rating,
        text=text,
        created_at=local_now(db).date().isoformat(),
    )
    place = db.get(listings, row["listing_id"])
    count = place["review_count"]
    total = (place["rating"] or 0) * count + rating * 100
    db.update(listings, place["id"], review_count=count + 1, rating=(total + (count + 1) // 2) // (count + 1))
    return review
