"""Who is signed in to Steam, and the accounts, apps and records they may reach: their own library, cart,
purchases and offers, and their friends' public profiles."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import accounts, app_prices, apps, friends, library, sessions, trade_offers

NOT_SIGNED_IN = "Sign in to your Steam account to continue."


def sign_in(db: Database, account_name: str) -> dict[str, Any]:
    """Start the session of the account with this login name (the password stays with the person)."""
    account = db.find_one(
        accounts,
        not_found="The account name or password that you have entered is incorrect.",
        account_name=account_name.strip().lower(),
    )
    db.start_session(sessions, steamid=account["steamid"])
    return account


def me(db: Database) -> dict[str, Any]:
    """The signed-in account."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(accounts, session["steamid"], "Account")


def account(db: Database, steamid: str) -> dict[str, Any]:
    """Any account by its SteamID64."""
    return db.find_one(accounts, not_found=f"No Steam account with SteamID {steamid}.", steamid=steamid)


def app(db: Database, appid: int) -> dict[str, Any]:
    """An app by its appid."""
    return db.find_one(apps, not_found=f"No app with appid {appid} is on the Steam store.", appid=appid)


def price(db: Database, appid: int, currency: str) -> dict[str, Any] | None:
    """The app's price row in a currency, None for free apps."""
    found = db.find(app_prices, appid=appid, currency=currency)
    return found[0] if found else None


def owned(db: Database, steamid: str, appid: int) -> dict[str, Any] | None:
    """The library entry of an app for an account, if it owns it."""
    found = db.find(library, steamid=steamid, appid=appid)
    return found[0] if found else None


def is_friend(db: Database, steamid: str, other: str) -> bool:
    """Whether two accounts are friends."""
    return bool(db.find(friends, steamid=steamid, friend=other))


def friend(db: Database, user: dict[str, Any], steamid: str) -> dict[str, Any]:
    """A friend of the signed-in account (their profile details are visible to friends only)."""
    other = account(db, steamid)
    if steamid != user["steamid"] and not is_friend(db, user["steamid"], steamid):
        raise PermissionDenied(f"{other['persona_name']}'s profile is private to their friends.")
    return other


def own_offer(db: Database, user: dict[str, Any], tradeofferid: str) -> dict[str, Any]:
    """A trade offer the signed-in account sent or received."""
    offer = db.find(trade_offers, tradeofferid=tradeofferid)
    if not offer or user["steamid"] not in (offer[0]["sender"], offer[0]["recipient"]):
        raise NotFound(f"Trade offer {tradeofferid} was not found.")
    return offer[0]


def signed_in_id(db: Database) -> str | None:
    """The signed-in SteamID64, or None (for store pages that work either way)."""
    found = db.find(sessions)
    return found[0]["steamid"] if found else None
