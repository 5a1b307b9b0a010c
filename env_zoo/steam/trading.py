"""Trade offers: who may trade (limited accounts, recent password changes, cooldowns), which items may go, the
15-day hold on items leaving an account without a settled Mobile Authenticator, and the cooldown that cancelling a
held trade starts."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied

from . import access
from .rules import cooldown_end, hold_end, needs_hold, offer_expiry, trade_block
from .schema import accounts, items, trade_offers


def check_items(db: Database, owner: dict[str, Any], assetids: list[str]) -> None:
    """Every asset belongs to `owner`, is tradable and isn't held in a trade."""
    for assetid in assetids:
        found = db.find(items, assetid=assetid)
        if not found or found[0]["owner"] != owner["steamid"]:
            raise Conflict(f"Item {assetid} is not in {owner['persona_name']}'s inventory.")
        if not found[0]["tradable"]:
            raise Conflict(f"{found[0]['name']} ({assetid}) is not tradable.")
        if found[0]["in_offer"]:
            raise Conflict(f"{found[0]['name']} ({assetid}) is held in another trade.")


def require_trading(db: Database, account: dict[str, Any], mine: bool) -> None:
    """Refuse when the account may not trade now."""
    block = trade_block(account, db.now())
    if block and mine:
        raise PermissionDenied(block)
    if block:
        raise Conflict(f"{account['persona_name']} can't trade right now.")


def send_offer(
    db: Database, user: dict[str, Any], partner_id: str, give: list[str], receive: list[str], message: str | None
) -> str:
    """Send a trade offer to a friend; returns its tradeofferid."""
    partner = access.account(db, partner_id)
    if not access.is_friend(db, user["steamid"], partner_id):
        raise PermissionDenied(f"You can only send trade offers to friends; {partner['persona_name']} isn't one.")
    if not give and not receive:
        raise InvalidRequest("A trade offer needs at least one item.")
    require_trading(db, user, mine=True)
    require_trading(db, partner, mine=False)
    check_items(db, user, give)
    check_items(db, partner, receive)
    offer_id = db.new_id(trade_offers, "61", 8)
    now = db.now_iso()
    db.insert(
        trade_offers,
        tradeofferid=offer_id,
        sender=user["steamid"],
        recipient=partner_id,
        items_to_give=sorted(give),
        items_to_receive=sorted(receive),
        message=message,
        state="Active",
        time_created=now,
        time_updated=now,
        expiration_time=offer_expiry(db.now()),
        escrow_end_date=None,
    )
    return offer_id


def accept(db: Database, user: dict[str, Any], offer: dict[str, Any]) -> None:
    """Accept a received offer: items change hands now, or go into a 15-day hold."""
    sender = access.account(db, offer["sender"])
    require_trading(db, user, mine=True)
    require_trading(db, sender, mine=False)
    check_items(db, sender, offer["items_to_give"])
    check_items(db, user, offer["items_to_receive"])
    now = db.now()
    held = (offer["items_to_receive"] and needs_hold(user, now)) or (offer["items_to_give"] and needs_hold(sender, now))
    if held:
        for assetid in offer["items_to_give"] + offer["items_to_receive"]:
            db.update(items, assetid, in_offer=offer["tradeofferid"])
        db.update(
            trade_offers,
            offer["tradeofferid"],
            state="InEscrow",
            escrow_end_date=hold_end(now),
            time_updated=db.now_iso(),
        )
        return
    for assetid in offer["items_to_give"]:
        db.update(items, assetid, owner=user["steamid"])
    for assetid in offer["items_to_receive"]:
        db.update(items, assetid, owner=sender["steamid"])
    db.update(trade_offers, offer["tradeofferid"], state="Accepted", time_updated=db.now_iso())


def cancel(db: Database, user: dict[str, Any], offer: dict[str, Any]) -> None:
    """Cancel a sent Active offer, or a held one from either side (which starts a 7-day trading cooldown)."""
    if offer["state"] == "InEscrow":
        for assetid in offer["items_to_give"] + offer["items_to_receive"]:
            db.update(items, assetid, in_offer=None)
        db.update(accounts, user["steamid"], trade_cooldown_until=cooldown_end(db.now()))
    elif offer["state"] != "Active" or offer["sender"] != user["steamid"]:
        raise Conflict(
            f"Trade offer {offer['tradeofferid']} is {offer['state']}; you can cancel offers you sent that are "
            "still active, or trades in a hold."
        )
    db.update(trade_offers, offer["tradeofferid"], state="Canceled", time_updated=db.now_iso())


def decline(db: Database, user: dict[str, Any], offer: dict[str, Any]) -> None:
    """Decline a received Active offer."""
    db.update(trade_offers, offer["tradeofferid"], state="Declined", time_updated=db.now_iso())
