"""The store's writes: the cart, checkout with the Steam Wallet or a saved card, refunds under the 14-day / 2-hour
rule, and gifts (sending, accepting, declining)."""

from __future__ import annotations

from typing import Any, Literal

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied
from envfactory_gym.values import format_amount

from . import access
from .rules import LIMITED_SPEND, final_price, refund_refusal
from .schema import accounts, apps, cart_items, gifts, library, purchase_items, purchases, wishlist

RefundTo = Literal["steam_wallet", "original_payment_method"]


def cart_price(db: Database, appid: int, currency: str) -> int:
    """What an app costs in the cart now."""
    price = access.price(db, appid, currency)
    if price is None:
        raise Conflict(f"{access.app(db, appid)['name']} is not sold in {currency}.")
    return final_price(price)


def add_to_cart(db: Database, user: dict[str, Any], appid: int, gift_to: str | None) -> None:
    """Put an app in the cart for the user or, with `gift_to`, as a gift for a friend."""
    app = access.app(db, appid)
    if app["is_free"]:
        raise Conflict(f"{app['name']} is free to play; add it to your library from its store page.")
    owner = user if gift_to is None else access.account(db, gift_to)
    if gift_to is not None:
        if not access.is_friend(db, user["steamid"], gift_to):
            raise PermissionDenied("You can only send gifts to people on your friends list.")
        if owner["currency"] != user["currency"]:
            raise Conflict(
                f"{app['name']} can't be gifted to {owner['persona_name']}: gifts can't be sent to a friend in "
                "a region with a different currency."
            )
    who = "You already own" if gift_to is None else f"{owner['persona_name']} already owns"
    if access.owned(db, owner["steamid"], appid):
        raise Conflict(f"{who} {app['name']}.")
    base_in_cart = db.find(cart_items, steamid=user["steamid"], appid=app["fullgame_appid"], gift_to=gift_to)
    if app["fullgame_appid"] and not base_in_cart and not access.owned(db, owner["steamid"], app["fullgame_appid"]):
        base = access.app(db, app["fullgame_appid"])["name"]
        lacks = "you don't own" if gift_to is None else f"{owner['persona_name']} doesn't own"
        raise Conflict(f"{app['name']} requires the base game {base}, which {lacks} (add it to the cart first).")
    if db.find(cart_items, steamid=user["steamid"], appid=appid, gift_to=gift_to):
        raise Conflict(f"{app['name']} is already in your cart.")
    cart_price(db, appid, user["currency"])
    db.insert(
        cart_items,
        id=db.new_id(cart_items, "cart_"),
        steamid=user["steamid"],
        appid=appid,
        gift_to=gift_to,
        added_at=db.now_iso(),
    )


def checkout(db: Database, user: dict[str, Any], method: Literal["steam_wallet", "card"], message: str | None) -> str:
    """Buy everything in the cart; returns the new transid."""
    lines = db.select(cart_items, "steamid = ?", (user["steamid"],), order_by="added_at")
    if not lines:
        raise Conflict("Your cart is empty.")
    prices = [cart_price(db, line["appid"], user["currency"]) for line in lines]
    total = sum(prices)
    if method == "steam_wallet" and user["wallet_balance"] < total:
        raise Conflict(
            f"Insufficient funds: your Steam Wallet holds {format_amount(user['wallet_balance'], user['currency'])} "
            f"{user['currency']} and this purchase costs {format_amount(total, user['currency'])}."
        )
    if method == "card" and not user["saved_card"]:
        raise Conflict("There is no saved card on this account.")
    now = db.now_iso()
    transid = db.new_id(purchases, "4471", 8)
    db.insert(
        purchases,
        transid=transid,
        steamid=user["steamid"],
        created_at=now,
        payment_method=method,
        currency=user["currency"],
        total=total,
    )
    for line, price in zip(lines, prices):
        line_id = db.new_id(purchase_items, "li_", 5)
        db.insert(
            purchase_items,
            id=line_id,
            transid=transid,
            appid=line["appid"],
            price=price,
            gift_to=line["gift_to"],
            status="completed",
        )
        if line["gift_to"] is None:
            grant(db, user["steamid"], line["appid"], "purchase")
        else:
            db.insert(
                gifts,
                gift_id=db.new_id(gifts, "gift_", 5),
                line_id=line_id,
                sender=user["steamid"],
                recipient=line["gift_to"],
                appid=line["appid"],
                status="pending",
                sent_at=now,
                message=message,
            )
        db.delete(cart_items, line["id"])
    changes: dict[str, Any] = {}
    if method == "steam_wallet":
        changes["wallet_balance"] = user["wallet_balance"] - total
    if user["limited"] and total >= LIMITED_SPEND:
        changes["limited"] = False
    if changes:
        db.update(accounts, user["steamid"], **changes)
    return transid


def grant(db: Database, steamid: str, appid: int, source: str) -> None:
    """Add an app to a library (and take it off that account's wishlist)."""
    db.insert(
        library,
        id=db.new_id(library, "lib_", 5),
        steamid=steamid,
        appid=appid,
        acquired_at=db.now_iso(),
        source=source,
        playtime_forever=0,
        playtime_2weeks=0,
        last_played=None,
    )
    for row in db.find(wishlist, steamid=steamid, appid=appid):
        unwish(db, row)


def unwish(db: Database, row: dict[str, Any]) -> None:
    """Remove a wishlist entry and close the gap in the priorities below it."""
    db.delete(wishlist, row["id"])
    for below in db.select(wishlist, "steamid = ? AND priority > ?", (row["steamid"], row["priority"])):
        db.update(wishlist, below["id"], priority=below["priority"] - 1)


def refund(db: Database, user: dict[str, Any], transid: str, appid: int, refund_to: RefundTo) -> dict[str, Any]:
    """Refund one app of a purchase if the rule allows; returns the refunded line."""
    purchase = db.find_one(
        purchases, not_found=f"No purchase {transid} on your account.", transid=transid, steamid=user["steamid"]
    )
    found = db.find(purchase_items, transid=transid, appid=appid)
    if not found:
        raise NotFound(f"Purchase {transid} doesn't include appid {appid}.")
    line = found[0]
    name = access.app(db, appid)["name"]
    if line["status"] == "refunded":
        raise Conflict(f"{name} from purchase {transid} has already been refunded.")
    gift = db.find(gifts, line_id=line["id"])
    if gift and gift[0]["status"] != "pending":
        raise Conflict(f"The gift of {name} has been {gift[0]['status']}; redeemed gifts can't be refunded.")
    entry = None if gift else access.owned(db, user["steamid"], appid)
    refusal = refund_refusal(purchase["created_at"], entry["playtime_forever"] if entry else 0, db.now())
    if refusal:
        raise Conflict(refusal)
    if refund_to == "original_payment_method":
        destination = purchase["payment_method"]
    else:
        destination = "steam_wallet"
    settle_refund(db, line, purchase, destination)
    if gift:
        db.update(gifts, gift[0]["gift_id"], status="revoked")
    elif entry:
        db.delete(library, entry["id"])
    return db.get(purchase_items, line["id"])


def settle_refund(db: Database, line: dict[str, Any], purchase: dict[str, Any], destination: str) -> None:
    """Mark a line refunded and return its price to the buyer's wallet when it goes there."""
    db.update(purchase_items, line["id"], status="refunded", refunded_to=destination, refunded_at=db.now_iso())
    if destination == "steam_wallet":
        buyer = db.get(accounts, purchase["steamid"], "Account")
        db.update(accounts, buyer["steamid"], wallet_balance=buyer["wallet_balance"] + line["price"])


def answer_gift(db: Database, user: dict[str, Any], gift_id: str, action: Literal["accept", "decline"]) -> None:
    """Accept a pending gift into the library, or decline it (the sender is refunded to how they paid)."""
    gift = db.find_one(gifts, not_found=f"Gift {gift_id} was not found.", gift_id=gift_id)
    if gift["recipient"] != user["steamid"]:
        raise PermissionDenied("Only the gift's recipient can accept or decline it.")
    if gift["status"] != "pending":
        raise Conflict(f"This gift has already been {gift['status']}.")
    name = db.get(apps, gift["appid"], "App")["name"]
    if action == "accept":
        if access.owned(db, user["steamid"], gift["appid"]):
            raise Conflict(f"You already own {name}; decline the gift so the sender is refunded.")
        grant(db, user["steamid"], gift["appid"], "gift")
        db.update(gifts, gift_id, status="accepted")
        return
    db.update(gifts, gift_id, status="declined")
    if gift["line_id"]:
        line = db.get(purchase_items, gift["line_id"], "Purchase line")
        purchase = db.get(purchases, line["transid"], "Purchase")
        settle_refund(db, line, purchase, purchase["payment_method"])
