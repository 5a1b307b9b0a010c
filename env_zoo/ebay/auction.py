"""eBay auctions: bid increments, the minimum next bid, and proxy bidding (eBay bids for each bidder up to their
maximum, one increment over the runner-up), with reserve prices and Buy It Now removal."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .rules import usd
from .schema import bids, items

#: eBay US bid increments: (current price from, increment), in cents.
INCREMENTS = [
    (0, 5),
    (100, 25),
    (500, 50),
    (2500, 100),
    (10000, 250),
    (25000, 500),
    (50000, 1000),
    (100000, 2500),
    (250000, 5000),
    (500000, 10000),
]


def increment(price: int) -> int:
    """The bid increment at a current price."""
    return next(step for start, step in reversed(INCREMENTS) if price >= start)


def minimum_bid(item: dict[str, Any]) -> int:
    """The lowest bid a new bidder may place: the opening bid, or the current price plus one increment."""
    if not item["bid_count"]:
        return item["start_price"]
    return item["current_price"] + increment(item["current_price"])


def maximum_of(db: Database, item_id: str, bidder: str | None) -> int | None:
    """A bidder's current maximum (proxy) bid on an auction."""
    if bidder is None:
        return None
    amounts = [b["max_amount"] for b in db.find(bids, item_id=item_id, bidder=bidder)]
    return max(amounts) if amounts else None


def reserve_met(item: dict[str, Any]) -> bool | None:
    """Whether the high bid reaches the reserve; None for auctions without a reserve."""
    if item["reserve_price"] is None:
        return None
    return item["bid_count"] > 0 and item["current_price"] >= item["reserve_price"]


def suggested_bids(item: dict[str, Any]) -> list[int]:
    """Three bid amounts eBay suggests: the minimum and the next two increments above it."""
    first = minimum_bid(item)
    return [first, first + increment(first), first + 2 * increment(first)]


def place_bid(db: Database, item: dict[str, Any], bidder: str, amount: int) -> dict[str, Any]:
    """Record a proxy bid and let eBay's proxy bidding settle the high bidder and the current price."""
    leader = item["high_bidder"] if item["bid_count"] else None
    top = maximum_of(db, item["item_id"], leader)
    if leader == bidder:
        if amount <= top:
            raise Conflict(f"You're already the high bidder; a new maximum must be above your {usd(top)}.")
        price, high = item["current_price"], bidder
    else:
        least = minimum_bid(item)
        if amount < least:
            raise InvalidRequest(f"Your bid must be at least {usd(least)}.")
        if top is None:
            price, high = item["start_price"], bidder
        elif amount > top:
            price, high = min(amount, top + increment(top)), bidder
        else:
            price, high = min(top, amount + increment(amount)), leader
    high_max = amount if high == bidder else top
    reserve = item["reserve_price"]
    if reserve is not None and high_max >= reserve > price:
        price = reserve
    db.insert(
        bids,
        proxy_bid_id=db.new_id(bids, "2", width=9),
        item_id=item["item_id"],
        bidder=bidder,
        max_amount=amount,
        created=db.now_iso(),
    )
    options = item["buying_options"]
    if "FIXED_PRICE" in options and (reserve is None or price >= reserve):
        options = [o for o in options if o != "FIXED_PRICE"]  # Buy It Now goes with the first bid (or the reserve)
    return db.update(
        items,
        item["item_id"],
        current_price=price,
        high_bidder=high,
        bid_count=item["bid_count"] + 1,
        buying_options=options,
    )
