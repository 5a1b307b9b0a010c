"""Instacart's rules shared by the tools: Instacart+ benefits, credits, stock and purchase limits, replacements,
window availability, fees, order pricing, what can change once an order is placed, and the tip and support windows."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import format_money, parse_timestamp

from .schema import (
    cart_items,
    carts,
    credit_transactions,
    memberships,
    order_items,
    orders,
    retailers,
    service_options,
    store_items,
    stores,
    users,
)

FREE_DELIVERY_MINIMUM = 3500  # Instacart+ waives delivery and pickup fees from $35
SERVICE_FEE_PERCENT = 5
PLAN_FEES = {"monthly": (999, 30), "annual": (9900, 365)}  # cents, days
TRIAL_DAYS = 14
TIP_HOURS = 24  # tips can change until 24 hours after delivery
ISSUE_HOURS = 96  # problems can be self-reported up to 4 days after delivery or pickup
MAX_INSTRUCTIONS = 250
ACTIVE_STATUSES = ("placed", "shopping", "delivering", "ready_for_pickup")
MEMBER_STATUSES = ("trialing", "active", "canceled")  # canceled memberships keep benefits until the period ends


def dollars(cents: int) -> str:
    """Cents as shoppers read them: 1250 -> "$12.50"."""
    return format_money(cents, "USD", {"USD": "$"})


def parse_time(value: str) -> datetime:
    """A stored ISO timestamp (with Z or an offset) as an aware datetime."""
    return parse_timestamp(value, "timestamp")


def today(db: Database) -> str:
    """Today's date (UTC) as YYYY-MM-DD."""
    return db.now().date().isoformat()


# ---------------------------------------------------------------- the customer


def membership_of(db: Database, user_id: str) -> dict[str, Any] | None:
    """The customer's Instacart+ membership row, if they ever had one."""
    found = db.find(memberships, user_id=user_id)
    return found[0] if found else None


def benefits_active(db: Database, membership: dict[str, Any] | None) -> bool:
    """Whether Instacart+ benefits apply right now."""
    return bool(
        membership
        and membership["status"] in MEMBER_STATUSES
        and membership["current_period_end"]
        and membership["current_period_end"] >= today(db)
    )


def grant_credits(db: Database, user: dict[str, Any], amount: int, reason: str, order_id: str | None) -> None:
    """Move the customer's Instacart credit balance and book it in the credit history."""
    if amount == 0:
        return
    db.update(users, user["id"], credit_balance_cents=user["credit_balance_cents"] + amount)
    db.insert(
        credit_transactions,
        id=db.new_id(credit_transactions, "crd_"),
        user_id=user["id"],
        amount_cents=amount,
        reason=reason,
        order_id=order_id,
        created_at=db.now_iso(),
    )


# ---------------------------------------------------------------- stores and items


def store(db: Database, location_code: str) -> dict[str, Any]:
    """A store with its retailer's name, logo and order minimum merged in."""
    row = db.get(stores, location_code, "Store")
    retailer = db.get(retailers, row["retailer_key"], "Retailer")
    return {
        **row,
        "retailer_name": retailer["name"],
        "retailer_logo_url": retailer["retailer_logo_url"],
        "order_minimum_cents": retailer["order_minimum_cents"],
    }


def item(db: Database, item_id: str) -> dict[str, Any]:
    """A catalog item."""
    return db.get(store_items, item_id, "Item")


def check_orderable(row: dict[str, Any], quantity: int) -> None:
    """An item can be bought in this quantity (1 or more): in stock, within its purchase limit."""
    if row["stock_level"] == "out_of_stock":
        raise Conflict(f"{row['name']} ({row['size']}) is out of stock at this store.")
    if row["purchase_limit"] is not None and quantity > row["purchase_limit"]:
        raise InvalidRequest(f"{row['name']} is limited to {row['purchase_limit']} per order.")


def replacement_choice(db: Database, original: dict[str, Any], replacement_item_id: str) -> dict[str, Any]:
    """A specific replacement: another in-stock item of the same store."""
    row = item(db, replacement_item_id)
    if row["item_id"] == original["item_id"]:
        raise InvalidRequest("An item can't replace itself; pick a different product.")
    if row["location_code"] != original["location_code"]:
        raise InvalidRequest("The replacement must come from the same store as the item.")
    if row["stock_level"] == "out_of_stock":
        raise Conflict(f"{row['name']} ({row['size']}) is out of stock and can't be a replacement.")
    return row


def check_replacement_args(policy: str, replacement_item_id: str | None) -> None:
    """users_choice needs a replacement item; the other policies take none."""
    if policy == "users_choice" and replacement_item_id is None:
        raise InvalidRequest("replacement_item_id is required with users_choice.")
    if policy != "users_choice" and replacement_item_id is not None:
        raise InvalidRequest("replacement_item_id is only used with users_choice.")


# ---------------------------------------------------------------- windows and fees


def window_problems(db: Database, window: dict[str, Any]) -> list[str]:
    """Why a window can't be booked any more: window_started, window_full (none when it can)."""
    reasons = []
    if parse_time(window["start_at"]) <= db.now():
        reasons.append("window_started")
    if window["booked"] >= window["capacity"]:
        reasons.append("window_full")
    return reasons


def bookable_window(db: Database, service_option_id: int, location_code: str) -> dict[str, Any]:
    """A window of this store that is still open for booking."""
    window = db.get(service_options, service_option_id, "Service option")
    if window["location_code"] != location_code:
        raise InvalidRequest(f"Service option {service_option_id} belongs to another store.")
    reasons = window_problems(db, window)
    if "window_started" in reasons:
        raise Conflict("That window has already started; pick a later one.")
    if "window_full" in reasons:
        raise Conflict("That window is full; pick another time.")
    return window


def service_fee(subtotal: int) -> int:
    """The service fee: 5% of the item subtotal."""
    return (subtotal * SERVICE_FEE_PERCENT + 50) // 100


def window_fee(db: Database, user_id: str, window: dict[str, Any], subtotal: int) -> int:
    """The window's delivery or pickup fee, waived for active Instacart+ members on orders of $35 or more."""
    if subtotal >= FREE_DELIVERY_MINIMUM and benefits_active(db, membership_of(db, user_id)):
        return 0
    return window["fee_cents"]


def deliverable(shop: dict[str, Any], address: dict[str, Any]) -> dict[str, Any]:
    """A saved address the store delivers to."""
    if not shop["delivery_available"] or address["postal_code"] not in shop["delivery_postal_codes"]:
        raise Conflict(f"{shop['name']} doesn't deliver to {address['postal_code']}.")
    return address


def address_snapshot(address: dict[str, Any]) -> dict[str, Any]:
    """The address as an order keeps it."""
    return {k: address[k] for k in ("street", "apartment", "city", "state", "postal_code")}


# ---------------------------------------------------------------- carts


def cart_of(db: Database, user_id: str, location_code: str) -> dict[str, Any] | None:
    """The customer's cart at a store, if they have one."""
    found = db.find(carts, user_id=user_id, location_code=location_code)
    return found[0] if found else None


def cart_lines(db: Database, cart_id: str) -> list[dict[str, Any]]:
    """A cart's lines, each with its catalog item under "item"."""
    rows = db.find(cart_items, cart_id=cart_id, order_by=[cart_items.c.added_at])
    return [{**r, "item": item(db, r["item_id"])} for r in rows]


def cart_subtotal(lines: list[dict[str, Any]]) -> int:
    """What a cart's items cost."""
    return sum(line["item"]["price_cents"] * line["quantity"] for line in lines)


# ---------------------------------------------------------------- orders


def require_placed(order: dict[str, Any], action: str) -> None:
    """Orders can be changed only until the shopper starts shopping."""
    if order["status"] == "placed":
        return
    if order["status"] == "canceled":
        raise Conflict(f"Order {order['id']} was canceled.")
    raise Conflict(
        f"Your shopper has already started order {order['id']} (status {order['status']}), so you can "
        f"no longer {action}."
    )


def line_charge(line: dict[str, Any]) -> int:
    """What one order line costs now: the replacement's price when one was picked, nothing when refunded."""
    if line["status"] == "refunded":
        return 0
    if line["status"] == "replaced" and line["replacement"]:
        return line["replacement"]["unit_price_cents"] * line["quantity"]
    return line["unit_price_cents"] * line["quantity"]


def reprice(db: Database, order: dict[str, Any], window: dict[str, Any] | None = None) -> dict[str, Any]:
    """Recompute an order's subtotal, fees and total after a change. With `window` (orders not yet shopped) the
    window's fees are charged again; credits never grow, and any excess goes back to the customer's balance."""
    subtotal = sum(line_charge(line) for line in db.find(order_items, order_id=order["id"]))
    changes: dict[str, Any] = {"subtotal_cents": subtotal, "service_fee_cents": service_fee(subtotal)}
    if window is not None:
        changes.update(
            service_option_id=window["id"],
            window_start_at=window["start_at"],
            window_end_at=window["end_at"],
            delivery_fee_cents=window_fee(db, order["user_id"], window, subtotal),
            express_fee_cents=window["express_fee_cents"],
        )
    merged = {**order, **changes}
    before_tip = subtotal + merged["delivery_fee_cents"] + merged["express_fee_cents"] + merged["service_fee_cents"]
    credits = min(order["credits_applied_cents"], before_tip)
    if credits < order["credits_applied_cents"]:
        grant_credits(
            db,
            db.get(users, order["user_id"]),
            order["credits_applied_cents"] - credits,
            "returned_from_order",
            order["id"],
        )
    changes.update(credits_applied_cents=credits, total_cents=before_tip + merged["tip_cents"] - credits)
    return db.update(orders, order["id"], **changes)


def add_order_line(
    db: Database,
    order_id: str,
    line_num: int,
    product: dict[str, Any],
    quantity: int,
    policy: str = "shoppers_choice",
    replacement_item_id: str | None = None,
    instructions: str | None = None,
) -> None:
    """Add a catalog item to an order at today's price, waiting to be shopped."""
    db.insert(
        order_items,
        id=db.new_id(order_items, "oi_", width=5),
        order_id=order_id,
        line_num=line_num,
        item_id=product["item_id"],
        name=product["name"],
        size=product["size"],
        unit_price_cents=product["price_cents"],
        quantity=quantity,
        replacement_policy=policy,
        replacement_item_id=replacement_item_id,
        special_instructions=instructions,
        status="pending",
        replacement=None,
        replacement_status=None,
    )


def release_window(db: Database, service_option_id: int | None) -> None:
    """Give a booked spot back to its window."""
    if service_option_id is not None:
        window = db.get(service_options, service_option_id, "Service option")
        db.update(service_options, service_option_id, booked=max(window["booked"] - 1, 0))


def book_window(db: Database, window: dict[str, Any]) -> None:
    """Take one spot of a window."""
    db.update(service_options, window["id"], booked=window["booked"] + 1)


def within(db: Database, since: str | None, hours: int) -> bool:
    """Whether `since` (a completion time) is at most `hours` ago."""
    return since is not None and db.now() - parse_time(since) <= timedelta(hours=hours)


def tip_problem(tip_cents: int, fulfillment_type: str) -> InvalidRequest | None:
    """Tips are for delivery orders only."""
    if tip_cents and fulfillment_type == "pickup":
        return InvalidRequest("Tips are only for delivery orders.")
    return None
