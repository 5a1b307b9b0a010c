"""Airbnb's stay rules: nights and guests a listing takes, calendar availability, the price quote (discounts,
extra guests, cleaning, service fee, occupancy tax) and cancellation refunds by policy, read from the simulated
clock. Times are the listing's local time; check-in is at 15:00."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import parse_date

from .schema import calendar_blocks, reservations

SERVICE_FEE_BP = 1400  # the guest service fee, basis points of nights + cleaning
CHECK_IN_HOUR = 15
HOLDING = ("pending", "accepted", "confirmed")  # reservations that hold nights on the calendar
POLICIES = ("flexible", "moderate", "firm", "strict")


def stay_dates(check_in: str, check_out: str) -> tuple[date, date]:
    """The two dates of a stay, refused when check-out is not after check-in."""
    start = parse_date(check_in, "check_in", example="2026-12-18")
    end = parse_date(check_out, "check_out", example="2026-12-21")
    if end <= start:
        raise InvalidRequest("Check-out must be after check-in.")
    return start, end


def check_stay(
    listing: dict[str, Any], start: date, end: date, adults: int, children: int, pets: int, today: date
) -> None:
    """Refuse a stay the listing's rules don't allow: past dates, nights, capacity, pets."""
    if start < today:
        raise InvalidRequest("Check-in can't be in the past.")
    nights = (end - start).days
    if nights < listing["min_nights"]:
        raise InvalidRequest(f"This place has a {listing['min_nights']}-night minimum stay.")
    if nights > listing["max_nights"]:
        raise InvalidRequest(f"This place has a {listing['max_nights']}-night maximum stay.")
    if adults + children > listing["max_guests"]:
        raise InvalidRequest(f"This place has a maximum of {listing['max_guests']} guests, not including infants.")
    if pets and not listing["pets_allowed"]:
        raise InvalidRequest("This place doesn't allow pets.")


def busy_ranges(
    db: Database, listing_id: str, ignore_code: str | None = None, ignore_guest: str | None = None
) -> list[tuple[str, str]]:
    """Date ranges [start, end) the listing is unavailable: host blocks and reservations that hold nights (less
    one reservation being changed, or a guest's own when pricing a change)."""
    blocks = db.select(calendar_blocks, "listing_id = ?", (listing_id,))
    held = db.select(
        reservations,
        "listing_id = ? AND status IN (?, ?, ?) AND code != ? AND guest_id != ?",
        (listing_id, *HOLDING, ignore_code or "", ignore_guest or ""),
    )
    ranges = [(row["start_date"], row["end_date"]) for row in blocks]
    return ranges + [(row["check_in"], row["check_out"]) for row in held]


def is_available(
    db: Database,
    listing_id: str,
    start: date,
    end: date,
    ignore_code: str | None = None,
    ignore_guest: str | None = None,
) -> bool:
    """Whether every night from `start` to the night before `end` is open."""
    first, last = start.isoformat(), end.isoformat()
    busy = busy_ranges(db, listing_id, ignore_code, ignore_guest)
    return all(not (busy_start < last and first < busy_end) for busy_start, busy_end in busy)


def booked_listings(db: Database, start: date, end: date) -> set[str]:
    """Ids of every listing with at least one night from `start` to the night before `end` taken (for search)."""
    first, last = start.isoformat(), end.isoformat()
    blocked = db.select(calendar_blocks, "start_date < ? AND end_date > ?", (last, first))
    held = db.select(reservations, "status IN (?, ?, ?) AND check_in < ? AND check_out > ?", (*HOLDING, last, first))
    return {row["listing_id"] for row in blocked + held}


def require_available(db: Database, listing_id: str, start: date, end: date, ignore_code: str | None = None) -> None:
    """Refuse dates the calendar doesn't have open."""
    if not is_available(db, listing_id, start, end, ignore_code):
        raise Conflict("Those dates are not available. Try changing your dates.")


def open_nights(db: Database, listing_id: str, start: date, days: int) -> list[str]:
    """The nights from `start` on (for `days` days) that are open on the calendar."""
    busy = busy_ranges(db, listing_id)
    nights = [(start + timedelta(days=i)).isoformat() for i in range(days)]
    return [night for night in nights if not any(b_start <= night < b_end for b_start, b_end in busy)]


@dataclass(frozen=True)
class Quote:
    """The price breakdown of a stay, in cents."""

    nights: int
    nightly_price: int
    base: int  # nights x nightly price
    extra_guests: int  # extra-guest fees for the stay
    discount: int
    discount_kind: str | None  # weekly | monthly
    cleaning_fee: int
    service_fee: int
    taxes: int

    @property
    def nights_total(self) -> int:
        return self.base + self.extra_guests - self.discount

    @property
    def total(self) -> int:
        return self.nights_total + self.cleaning_fee + self.service_fee + self.taxes


def share(amount: int, basis_points: int) -> int:
    """`amount` x basis points / 10000, rounded half up (integer cents)."""
    return (amount * basis_points + 5000) // 10000


def quote(listing: dict[str, Any], start: date, end: date, adults: int, children: int) -> Quote:
    """The price of a stay: nights and extra guests less the weekly/monthly discount, cleaning, service fee, tax."""
    nights = (end - start).days
    base = nights * listing["nightly_price"]
    extra = max(0, adults + children - listing["guests_included"]) * listing["extra_guest_fee"] * nights
    kind, percent = None, 0
    if nights >= 28 and listing["monthly_discount"]:
        kind, percent = "monthly", listing["monthly_discount"]
    elif nights >= 7 and listing["weekly_discount"]:
        kind, percent = "weekly", listing["weekly_discount"]
    discount = share(base + extra, percent * 100)
    subtotal = base + extra - discount + listing["cleaning_fee"]
    return Quote(
        nights=nights,
        nightly_price=listing["nightly_price"],
        base=base,
        extra_guests=extra,
        discount=discount,
        discount_kind=kind,
        cleaning_fee=listing["cleaning_fee"],
        service_fee=share(subtotal, SERVICE_FEE_BP),
        taxes=share(subtotal, listing["tax_rate"]),
    )


def check_in_moment(check_in: str) -> datetime:
    """15:00 on the check-in day, as a naive local time."""
    return datetime.fromisoformat(check_in).replace(hour=CHECK_IN_HOUR)


def refund_for(policy: str, reservation: dict[str, Any], now: datetime) -> tuple[int, str]:
    """What cancelling now gives back of what was paid, and the rule that decided it.

    Before check-in only (a stay in progress is cancelled through Airbnb's support). `now` is naive local time."""
    paid = reservation["paid"]
    if reservation["status"] == "pending" or paid == 0:
        return paid, "Nothing has been charged yet, or the request is still with the host: cancelling is free."
    hours = (check_in_moment(reservation["check_in"]) - now).total_seconds() / 3600
    booked = datetime.fromisoformat(reservation["booked_at"].replace("Z", "")).replace(tzinfo=None)
    nights = (datetime.fromisoformat(reservation["check_out"]) - datetime.fromisoformat(reservation["check_in"])).days
    stay = reservation["nights_total"]
    full = (paid, "Full refund.")
    if policy == "flexible":
        if hours >= 24:
            return full
        one_night = stay // nights
        return stay - one_night + reservation[
            "cleaning_fee"
        ], "Less than 24 hours before check-in: the first night isn't refunded, nor the service fee."
    if policy == "moderate":
        if hours >= 5 * 24:
            return full
        return stay // 2 + reservation[
            "cleaning_fee"
        ], "Less than 5 days before check-in: half of the nights are refunded, not the service fee."
    if policy == "firm":
        if hours >= 30 * 24:
            return full
        if hours >= 7 * 24:
            return stay // 2 + reservation[
                "cleaning_fee"
            ], "Less than 30 days before check-in: 50% of the nights are refunded, not the service fee."
        return 0, "Less than 7 days before check-in: no refund."
    if (now - booked).total_seconds() <= 48 * 3600 and hours >= 14 * 24:
        return full
    if hours >= 7 * 24:
        return stay // 2 + reservation[
            "cleaning_fee"
        ], "Outside the 48-hour grace period: 50% of the nights are refunded, not the service fee."
    return 0, "Less than 7 days before check-in: no refund."
