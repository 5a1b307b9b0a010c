"""Who the assistant acts as (the seller whose OAuth token it holds) and what they may touch: only a shop the
signed-in user owns, and that shop's listings, receipts, sections and shipping profiles."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import listings, receipts, sessions, shipping_profiles, shops

NOT_SIGNED_IN = "invalid_token: the request needs a valid OAuth access token; sign in first"


def me(db: Database) -> int:
    """The user_id of the seller whose token the assistant holds."""
    return int(db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def own_shop(db: Database, shop_id: int) -> dict[str, Any]:
    """A shop the signed-in user owns (Etsy answers 403 for anyone else's)."""
    shop = db.find_one(shops, shop_id=shop_id, not_found=f"Could not find a shop with shop_id = {shop_id}")
    if shop["user_id"] != me(db):
        raise PermissionDenied(f"The authenticated user does not own shop {shop_id}")
    return shop


def own_listing(db: Database, shop_id: int, listing_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A listing of a shop the signed-in user owns, with the shop."""
    shop = own_shop(db, shop_id)
    listing = db.find_one(listings, listing_id=listing_id, not_found=f"Listing {listing_id} not found")
    if listing["shop_id"] != shop_id:
        raise PermissionDenied(f"Listing {listing_id} does not belong to shop {shop_id}")
    return listing, shop


def readable_listing(db: Database, listing_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Any shop's active listing (public), or any listing of the signed-in user's own shops."""
    user = me(db)
    listing = db.find_one(listings, listing_id=listing_id, not_found=f"Listing {listing_id} not found")
    shop = db.get(shops, listing["shop_id"])
    if shop["user_id"] != user and listing["state"] != "active":
        raise NotFound(f"Listing {listing_id} not found")
    return listing, shop


def own_receipt(db: Database, shop_id: int, receipt_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A receipt of a shop the signed-in user owns, with the shop."""
    shop = own_shop(db, shop_id)
    found = db.find(receipts, receipt_id=receipt_id, shop_id=shop_id)
    if not found:
        raise NotFound(f"Receipt {receipt_id} not found in shop {shop_id}")
    return found[0], shop


def own_profile(db: Database, shop_id: int, shipping_profile_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A shipping profile of a shop the signed-in user owns, with the shop."""
    shop = own_shop(db, shop_id)
    found = db.find(shipping_profiles, shipping_profile_id=shipping_profile_id, shop_id=shop_id)
    if not found:
        raise NotFound(f"Shipping profile {shipping_profile_id} not found in shop {shop_id}")
    return found[0], shop
