"""Steam's published rules as functions: discounted prices, the refund rule (within 14 days of purchase and under
two hours of playtime), trade restrictions and holds, gifting limits and Steam Families' slots and cooldowns."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_timestamp

REFUND_WINDOW = timedelta(days=14)
REFUND_PLAYTIME_MINUTES = 120
LIMITED_SPEND = 500  # minor units a limited account must spend to lift the limit
TRADE_HOLD = timedelta(days=15)
AUTHENTICATOR_SETTLE = timedelta(days=7)
PASSWORD_CHANGE_LOCK = timedelta(days=5)
TRADE_COOLDOWN = timedelta(days=7)
OFFER_LIFETIME = timedelta(days=14)
FAMILY_SLOTS = 6
FAMILY_COOLDOWN = timedelta(days=365)


def stamp(moment: datetime) -> str:
    """A moment as the stored ISO form, which sorts like time."""
    return iso_timestamp(moment)


def final_price(price: dict[str, Any]) -> int:
    """The price after the current discount, in minor units (Steam rounds down)."""
    return price["initial"] * (100 - price["discount_percent"]) // 100


def refund_refusal(bought_at: str, playtime: int, now: datetime) -> str | None:
    """Why a purchase may not be refunded under the 14-day / 2-hour rule, or None when it may."""
    if bought_at < stamp(now - REFUND_WINDOW):
        return "This purchase was made more than 14 days ago and is not eligible for a refund."
    if playtime >= REFUND_PLAYTIME_MINUTES:
        return (
            f"This product has been played for {playtime} minutes (2 hours or more) and is not eligible for a refund."
        )
    return None


def invite_block(account: dict[str, Any]) -> str | None:
    """Why the account may not send friend invites, or None."""
    if account["limited"]:
        return "Limited user accounts can't send friend invites. Spend at least 5.00 on Steam to lift the limit."
    return None


def trade_block(account: dict[str, Any], now: datetime) -> str | None:
    """Why the account may not trade at all right now, or None."""
    if account["limited"]:
        return "Limited user accounts can't trade. Spend at least 5.00 on Steam to lift the limit."
    if account["password_changed_at"] and account["password_changed_at"] > stamp(now - PASSWORD_CHANGE_LOCK):
        until = _plus(account["password_changed_at"], PASSWORD_CHANGE_LOCK)
        return f"Your password was changed recently; trading is restricted until {until}."
    if account["trade_cooldown_until"] and account["trade_cooldown_until"] > stamp(now):
        return f"You cancelled a held trade; trading is on cooldown until {account['trade_cooldown_until']}."
    return None


def needs_hold(account: dict[str, Any], now: datetime) -> bool:
    """Items leaving an account held unless its Mobile Authenticator has been on for the past 7 days."""
    since = account["authenticator_since"]
    return account["steam_guard"] != "mobile" or since is None or since > stamp(now - AUTHENTICATOR_SETTLE)


def hold_end(now: datetime) -> str:
    """When a trade placed in escrow now is delivered."""
    return stamp(now + TRADE_HOLD)


def cooldown_end(now: datetime) -> str:
    """When a trading cooldown that starts now ends."""
    return stamp(now + TRADE_COOLDOWN)


def offer_expiry(now: datetime) -> str:
    """When an offer sent now expires."""
    return stamp(now + OFFER_LIFETIME)


def family_join_block(invitee: dict[str, Any], family_country: str, now: datetime) -> str | None:
    """Why an account may not join a Steam Family now, or None."""
    if invitee["family_id"] is not None:
        return f"{invitee['persona_name']} is already a member of a Steam Family."
    if invitee["country"] != family_country:
        return f"{invitee['persona_name']} is in a different country; family members must share the family's region."
    joined = invitee["family_joined_at"]
    if joined is not None and joined > stamp(now - FAMILY_COOLDOWN):
        until = _plus(joined, FAMILY_COOLDOWN)
        return f"{invitee['persona_name']} joined a Steam Family in the past year and can't join another until {until}."
    return None


def require_family_slot(used: int) -> None:
    """Members, pending invites and cooling-down slots together may not pass six."""
    if used >= FAMILY_SLOTS:
        raise Conflict(
            "This Steam Family has no free slot: six members, pending invites and slots still in their "
            "one-year cooldown count toward the limit."
        )


def require_adult(account: dict[str, Any]) -> None:
    """Only adult family members manage the family."""
    if account["family_role"] != "adult":
        raise PermissionDenied("Only adults in a Steam Family can invite members.")


def _plus(moment: str, span: timedelta) -> str:
    return stamp(parse_timestamp(moment, "time") + span)
