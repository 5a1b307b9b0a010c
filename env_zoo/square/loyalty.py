"""The Loyalty API's machinery: finding accounts, accruing points for completed orders, and issuing, redeeming
and deleting rewards."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .customers import digits
from .errors import bad_request, conflict
from .rules import (
    active_location,
    fetch,
    is_paid,
    line_gross,
    new_uid,
    open_order,
    order_total,
    points_for,
    record_event,
)
from .schema import loyalty_accounts, loyalty_events, loyalty_programs, loyalty_rewards, orders, reward_tiers


def find_loyalty_accounts(db: Database, phone: str | None, customer_id: str | None) -> list[dict[str, Any]]:
    """Accounts matching the phone mapping and customer, oldest enrolment first."""
    rows = db.select(
        loyalty_accounts,
        "customer_id = ?" if customer_id else "",
        [customer_id] if customer_id else [],
        order_by="enrolled_at",
    )
    if phone is not None:
        rows = [row for row in rows if digits(row["phone_number"]) == digits(phone)]
    return rows


def _program_location(db: Database, program: dict[str, Any], location_id: str) -> None:
    active_location(db, location_id)
    if location_id not in program["location_ids"]:
        raise bad_request(
            "INVALID_VALUE", f"Location `{location_id}` does not take part in the loyalty program.", "location_id"
        )


def _same_customer(order: dict[str, Any], account: dict[str, Any]) -> None:
    if order["customer_id"] is not None and order["customer_id"] != account["customer_id"]:
        raise bad_request(
            "INVALID_VALUE", f"Order `{order['id']}` belongs to another customer than the loyalty account.", "order_id"
        )


def accumulate_points(db: Database, account_id: str, order_id: str, location_id: str) -> dict[str, Any]:
    """The account after earning a completed order's points."""
    account = fetch(db, loyalty_accounts, account_id, "loyalty account")
    program = db.get(loyalty_programs, account["program_id"])
    _program_location(db, program, location_id)
    order = fetch(db, orders, order_id, "order")
    if order["location_id"] != location_id:
        raise bad_request("INVALID_VALUE", f"Order `{order_id}` was not placed at `{location_id}`.", "location_id")
    if order["state"] != "COMPLETED":
        raise bad_request("BAD_REQUEST", f"Order `{order_id}` is {order['state']}: only COMPLETED orders earn points.")
    if db.find(loyalty_events, order_id=order_id, type="ACCUMULATE_POINTS"):
        raise conflict("CONFLICT", f"Points have already been accumulated for order `{order_id}`.", "order_id")
    _same_customer(order, account)
    excluded = sum(
        line_gross(line) for line in order["line_items"] if line.get("category_id") in program["excluded_category_ids"]
    )
    points = points_for(max(0, order_total(order) - excluded), program["accrual_spend_amount"])
    if points == 0:
        raise bad_request("BAD_REQUEST", f"Order `{order_id}` earns no points.", "order_id")
    record_event(db, account_id, "ACCUMULATE_POINTS", points, order_id=order_id, location_id=location_id)
    return db.update(
        loyalty_accounts,
        account_id,
        balance=account["balance"] + points,
        lifetime_points=account["lifetime_points"] + points,
        updated_at=db.now_iso(),
    )


def _discount(tier: dict[str, Any], order: dict[str, Any]) -> int:
    """What the tier takes off the order's current total."""
    total = order_total(order)
    if tier["discount_type"] == "FIXED_AMOUNT":
        return min(tier["amount"], total)
    off = (total * int(tier["percentage"]) + 50) // 100
    return min(off, tier["max_discount_amount"]) if tier["max_discount_amount"] is not None else off


def create_reward(db: Database, account_id: str, tier_id: str, order_id: str | None) -> dict[str, Any]:
    """A new ISSUED reward paid with the account's points, discounting `order_id` when given."""
    account = fetch(db, loyalty_accounts, account_id, "loyalty account")
    tier = fetch(db, reward_tiers, tier_id, "reward tier")
    if tier["program_id"] != account["program_id"]:
        raise bad_request("INVALID_VALUE", "The reward tier is not in the account's program.", "reward_tier_id")
    if account["balance"] < tier["points"]:
        raise bad_request(
            "BAD_REQUEST",
            f"The loyalty account has {account['balance']} points; `{tier['name']}` needs {tier['points']}.",
            "reward_tier_id",
        )
    reward_id = db.new_uuid(loyalty_rewards)
    if order_id is not None:
        order = fetch(db, orders, order_id, "order")
        open_order(order)
        if is_paid(order):
            raise bad_request("BAD_REQUEST", f"Order `{order_id}` is already paid.", "order_id")
        program = db.get(loyalty_programs, account["program_id"])
        _program_location(db, program, order["location_id"])
        _same_customer(order, account)
        if db.find(loyalty_rewards, order_id=order_id, reward_tier_id=tier_id, status="ISSUED"):
            raise bad_request("BAD_REQUEST", "A reward tier can be applied to an order only once.", "reward_tier_id")
        discount = {"uid": new_uid(db), "name": tier["name"], "amount": _discount(tier, order), "reward_id": reward_id}
        db.update(
            orders,
            order_id,
            discounts=[*order["discounts"], discount],
            customer_id=account["customer_id"],
            version=order["version"] + 1,
            updated_at=db.now_iso(),
        )
    db.insert(
        loyalty_rewards,
        id=reward_id,
        loyalty_account_id=account_id,
        reward_tier_id=tier_id,
        order_id=order_id,
        status="ISSUED",
        points=tier["points"],
        created_at=db.now_iso(),
        redeemed_at=None,
    )
    record_event(db, account_id, "CREATE_REWARD", -tier["points"], order_id=order_id, reward_id=reward_id)
    db.update(loyalty_accounts, account_id, balance=account["balance"] - tier["points"], updated_at=db.now_iso())
    return db.get(loyalty_rewards, reward_id)


def _give_back(db: Database, reward: dict[str, Any]) -> dict[str, Any]:
    account = db.get(loyalty_accounts, reward["loyalty_account_id"])
    db.update(loyalty_rewards, reward["id"], status="DELETED")
    record_event(
        db, account["id"], "DELETE_REWARD", reward["points"], order_id=reward["order_id"], reward_id=reward["id"]
    )
    return db.update(
        loyalty_accounts, account["id"], balance=account["balance"] + reward["points"], updated_at=db.now_iso()
    )


def delete_reward(db: Database, reward_id: str) -> dict[str, Any]:
    """The account after an ISSUED reward is taken back (its discount removed from its order)."""
    reward = fetch(db, loyalty_rewards, reward_id, "loyalty reward")
    if reward["status"] != "ISSUED":
        raise bad_request("BAD_REQUEST", f"Reward `{reward_id}` is {reward['status']} and cannot be deleted.")
    if reward["order_id"] is not None:
        order = db.get(orders, reward["order_id"])
        if is_paid(order) or order["state"] != "OPEN":
            raise bad_request("BAD_REQUEST", f"Order `{order['id']}` is no longer open.")
        db.update(
            orders,
            order["id"],
            discounts=[d for d in order["discounts"] if d.get("reward_id") != reward_id],
            version=order["version"] + 1,
            updated_at=db.now_iso(),
        )
    return _give_back(db, reward)


def release_rewards(db: Database, order_id: str) -> None:
    """A canceled order's ISSUED rewards are deleted and their points returned."""
    for reward in db.find(loyalty_rewards, order_id=order_id, status="ISSUED"):
        _give_back(db, reward)


def redeem_rewards(db: Database, order_id: str) -> None:
    """A paid order's ISSUED rewards become REDEEMED."""
    for reward in db.find(loyalty_rewards, order_id=order_id, status="ISSUED"):
        db.update(loyalty_rewards, reward["id"], status="REDEEMED", redeemed_at=db.now_iso())
        record_event(db, reward["loyalty_account_id"], "REDEEM_REWARD", 0, order_id=order_id, reward_id=reward["id"])
