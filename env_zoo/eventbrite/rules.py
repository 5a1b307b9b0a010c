"""Eventbrite's business rules: an event's status from the clock (live -> started -> ended), ticket classes on
sale within their sales window and capacity (the event's capacity caps all classes together), per-order minimum
and maximum, hidden tickets unlocked by access codes, discount codes (scope, dates, uses), Eventbrite's service
fee, and refund requests under the organizer's refund policy (no refunds, or up to 1, 7 or 30 days before the
start; always when the event is canceled)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import discounts, ticket_classes

FEE_PERCENT_TENTHS = 37  # 3.7% of the ticket price
FEE_PER_TICKET = 179  # plus $1.79 per paid ticket
POLICY_DAYS = {"no_refunds": None, "1_day": 1, "7_days": 7, "30_days": 30}
POLICY_ORDER = ["no_refunds", "30_days", "7_days", "1_day"]  # strictest first
POLICY_TEXT = {
    "no_refunds": "No refunds",
    "1_day": "Refunds up to 1 day before event",
    "7_days": "Refunds up to 7 days before event",
    "30_days": "Refunds up to 30 days before event",
}


def moment(value: str) -> datetime:
    """A stored UTC timestamp."""
    return parse_timestamp(value, "timestamp")


def local_to_utc(local: str, timezone: str, name: str) -> str:
    """A naive local time in the event's time zone as a UTC timestamp."""
    try:
        naive = datetime.fromisoformat(local.strip())
    except ValueError:
        raise InvalidRequest(f"ARGUMENTS_ERROR: {name} must be a local time like 2026-07-18T19:00:00.") from None
    if naive.tzinfo is not None:
        raise InvalidRequest(f"ARGUMENTS_ERROR: {name} is local to the event's timezone; give it without an offset.")
    return iso_timestamp(naive.replace(tzinfo=ZoneInfo(timezone)))


def utc_to_local(value: str, timezone: str) -> str:
    """A stored UTC timestamp in the event's time zone, without offset (as Eventbrite's `local`)."""
    return moment(value).astimezone(ZoneInfo(timezone)).strftime("%Y-%m-%dT%H:%M:%S")


def event_status(db: Database, event: dict[str, Any]) -> str:
    """draft | live | started | ended | completed | canceled: a live event starts and ends with the clock."""
    status = str(event["status"])
    if status != "live":
        return status
    now = db.now()
    if now >= moment(event["end_utc"]):
        return "ended"
    if now >= moment(event["start_utc"]):
        return "started"
    return "live"


def today_start(db: Database) -> str:
    """Midnight UTC of the clock's day: the default start of sales (a stored value that must not depend on the
    seconds a conversation took)."""
    day = db.now().date()
    return iso_timestamp(datetime(day.year, day.month, day.day, tzinfo=moment("2000-01-01T00:00:00Z").tzinfo))


def sold_in_event(db: Database, event_id: str) -> int:
    """Tickets sold across all of an event's classes."""
    return sum(row["quantity_sold"] for row in db.find(ticket_classes, event_id=event_id))


def on_sale_status(db: Database, event: dict[str, Any], ticket: dict[str, Any]) -> str:
    """AVAILABLE | SOLD_OUT | NOT_YET_ON_SALE | SALES_ENDED for one ticket class at the clock."""
    now = db.now()
    status = event_status(db, event)
    if status == "draft":
        return "NOT_YET_ON_SALE"
    if status != "live" or now >= moment(ticket["sales_end"]):
        return "SALES_ENDED"
    if now < moment(ticket["sales_start"]):
        return "NOT_YET_ON_SALE"
    if ticket["quantity_sold"] >= ticket["capacity"] or sold_in_event(db, event["id"]) >= event["capacity"]:
        return "SOLD_OUT"
    return "AVAILABLE"


def fee(cost: int) -> int:
    """Eventbrite's service fee on one paid ticket (free tickets carry none)."""
    if cost <= 0:
        return 0
    return (cost * FEE_PERCENT_TENTHS + 500) // 1000 + FEE_PER_TICKET


def discount_for(db: Database, event: dict[str, Any], code: str) -> dict[str, Any]:
    """The discount or access code a buyer typed for this event, if it is usable now."""
    wanted = code.strip().lower()
    for row in db.find(discounts, organization_id=event["organization_id"]):
        if row["code"].lower() != wanted or row["event_id"] not in (None, event["id"]):
            continue
        now = db.now()
        if row["start_date"] and now < moment(row["start_date"]):
            raise Conflict(f"DISCOUNT_NOT_YET_VALID: the code {row['code']} can't be used yet.")
        if row["end_date"] and now >= moment(row["end_date"]):
            raise Conflict(f"DISCOUNT_EXPIRED: the code {row['code']} has expired.")
        return row
    raise NotFound(f"DISCOUNT_NOT_FOUND: no discount code {code} for this event.")


def discounted(row: dict[str, Any] | None, ticket: dict[str, Any]) -> int:
    """One ticket's price with the discount applied, if it covers the class."""
    if row is None or ticket["free"] or not covers(row, ticket["id"]):
        return int(ticket["cost"])
    if row["percent_off"] is not None:
        return ticket["cost"] - (ticket["cost"] * row["percent_off"] + 50) // 100
    if row["amount_off"] is not None:
        return max(0, ticket["cost"] - row["amount_off"])
    return int(ticket["cost"])


def covers(row: dict[str, Any], ticket_class_id: str) -> bool:
    """Whether a discount applies to a ticket class (an empty list covers every class)."""
    return not row["ticket_class_ids"] or ticket_class_id in row["ticket_class_ids"]


def uses_left(row: dict[str, Any]) -> int | None:
    """Tickets the discount may still be used on; None when unlimited."""
    if row["quantity_available"] == 0:
        return None
    return int(row["quantity_available"] - row["quantity_sold"])


def refund_deadline(event: dict[str, Any]) -> datetime | None:
    """The last moment a buyer may ask for a refund under the event's policy; None under no refunds."""
    days = POLICY_DAYS[event["refund_policy"]]
    if days is None:
        return None
    return moment(event["start_utc"]) - timedelta(days=days)


def check_refund_request(db: Database, event: dict[str, Any]) -> None:
    """A buyer may ask for a refund within the policy's window, or at any time once the event is canceled."""
    if event["status"] == "canceled":
        return
    deadline = refund_deadline(event)
    if deadline is None:
        raise Conflict("REFUND_NOT_ALLOWED: the organizer of this event does not offer refunds.")
    if db.now() >= deadline:
        when = iso_timestamp(deadline)
        raise Conflict(f"REFUND_NOT_ALLOWED: refund requests for this event closed at {when} (its refund policy).")


def more_flexible(old: str, new: str) -> bool:
    """Whether a refund policy allows at least what the old one did."""
    return POLICY_ORDER.index(new) >= POLICY_ORDER.index(old)
