"""Ramp's spend rules: money in cents, spend intervals and how much of a limit is used, card state changes, the
reimbursement policy (receipts over $75, a 90-day window, no duplicates) and bill pay."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Unordered
from envfactory_gym.values import minor_units

from .schema import cards, spend_requests, transactions

RECEIPT_REQUIRED_CENTS = 7500
REIMBURSEMENT_WINDOW_DAYS = 90
#: The card states each lifecycle action may start from.
CARD_ACTIONS: dict[str, tuple[str, ...]] = {
    "suspend": ("ACTIVE",),
    "unsuspend": ("SUSPENDED",),
    "terminate": ("ACTIVE", "SUSPENDED", "UNACTIVATED"),
    "update": ("ACTIVE", "SUSPENDED", "UNACTIVATED"),
}


def cents(amount: Decimal, name: str = "amount") -> int:
    return minor_units(amount, "USD", name)


def dollars(amount: int | None) -> float | None:
    return None if amount is None else amount / 100


def interval_start(today: date, interval: str) -> date | None:
    """The first day of the spend interval `today` falls in; None for a TOTAL (lifetime) limit."""
    if interval == "DAILY":
        return today
    if interval == "WEEKLY":
        return today - timedelta(days=today.weekday())
    if interval == "MONTHLY":
        return today.replace(day=1)
    if interval == "QUARTERLY":
        return date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    if interval == "YEARLY":
        return date(today.year, 1, 1)
    return None


def spent(db: Database, card: dict[str, Any]) -> tuple[int, date | None]:
    """Cents of cleared and pending spend on `card` in its current interval, and the interval's first day."""
    start = interval_start(db.now().date(), card["interval"])
    where = "card_id = ? AND state IN ('CLEARED', 'PENDING')"
    params: list[Any] = [card["id"]]
    if start is not None:
        where += " AND user_transaction_time >= ?"
        params.append(start.isoformat())
    return sum(t["amount"] for t in db.select(transactions, where, params)), start


def check_card_action(card: dict[str, Any], action: str) -> None:
    """Refuse a lifecycle action the card's state does not allow (a terminated card is final)."""
    if card["state"] in CARD_ACTIONS[action]:
        return
    if card["state"] == "TERMINATED":
        raise Conflict(f"Card {card['id']} is terminated; a terminated card cannot be changed.")
    if card["state"] == "UNACTIVATED":
        raise Conflict(f"Card {card['id']} has not been activated by its cardholder yet.")
    raise Conflict(f"Card {card['id']} is {card['state']}; cannot {action} it.")


def check_restrictions(amount: int, limit: int | None, allowed: list[str], blocked: list[str]) -> None:
    """A per-transaction limit may not exceed the interval amount, and a category cannot be allowed and blocked."""
    if limit is not None and limit > amount:
        raise InvalidRequest("transaction_amount_limit cannot be greater than the spend limit amount.")
    both = sorted(set(allowed) & set(blocked))
    if both:
        raise InvalidRequest(f"Categories cannot be both allowed and blocked: {', '.join(both)}.")


def check_reimbursement_date(today: date, spent_on: date) -> None:
    """A reimbursement is for spend already made, at most 90 days ago."""
    if spent_on > today:
        raise InvalidRequest("transaction_date cannot be in the future.")
    if (today - spent_on).days > REIMBURSEMENT_WINDOW_DAYS:
        raise InvalidRequest(
            f"Reimbursements must be submitted within {REIMBURSEMENT_WINDOW_DAYS} days of the transaction date."
        )


#: Ramp's spend categories (sk_category names) that cards allow or block.
Category = Literal[
    "Airlines", "Lodging", "Car Rental", "Taxi and Rideshare", "Restaurants", "Software", "Advertising",
    "Office Supplies", "Shipping", "Fuel and Gas", "Entertainment", "Education", "Utilities", "Electronics",
    "Alcohol and Bars",
]  # fmt: skip
Interval = Literal["DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY", "TOTAL"]
Categories = Annotated[list[Category], Unordered, Field(max_length=15)]
Amount = Annotated[Decimal, Field(gt=0, max_digits=10, decimal_places=2, description="US dollars, e.g. 250.00")]
RampId = Annotated[str, Field(min_length=36, max_length=36, description="a Ramp UUID")]
PageSize = Annotated[int, Field(ge=2, le=100, description="results per page (2-100)")]


def last_four(card_id: str) -> str:
    """A new card's last four digits, derived from its id (deterministic)."""
    return f"{int(card_id.replace('-', ''), 16) % 10000:04d}"


def approve_request(
    db: Database, request: dict[str, Any], program: dict[str, Any], reviewer_id: str | None, amount: int | None = None
) -> dict[str, Any]:
    """Approve a spend request: issue its virtual card from the program (with the approved amount) and link it."""
    amount = amount or request["amount"]
    limit = program["transaction_amount_limit"]
    card_id = db.new_uuid(cards)
    db.insert(
        cards, id=card_id, cardholder_id=request["user_id"], display_name=request["display_name"],
        last_four=last_four(card_id), is_physical=False, state="ACTIVE", amount=amount, interval=program["interval"],
        transaction_amount_limit=min(limit, amount) if limit else None,
        allowed_categories=list(program["allowed_categories"]), blocked_categories=[],
        spend_program_id=program["id"], created_at=db.now_iso(),
    )  # fmt: skip
    return db.update(spend_requests, request["id"], status="APPROVED", reviewer_id=reviewer_id, card_id=card_id)
