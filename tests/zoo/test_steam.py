"""The Steam environment's tools as a customer uses them: regional prices, the wishlist's priorities, the cart's
ownership, DLC and gifting rules, checkout with the wallet or a card (and lifting a limited account), refunds
under the 14-day / 2-hour rule, gifts accepted and declined, friend invites, trade offers with restrictions, holds
and the cancel cooldown, reviews, and Steam Families' slots and cooldowns, with every error path leaving the
state unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("steam")
EVENING = datetime(2026, 3, 10, 18, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, EVENING)

STARDEW, HADES_II, SILKSONG, STRAY, CYBERPUNK, PHANTOM_LIBERTY = 413150, 1145350, 1030300, 1332010, 1091500, 2138330
CS2, CITIES_II, FROSTPUNK_2, LIES_OF_P, ELDEN_RING, BALATRO = 730, 949230, 3159330, 1627720, 1245620, 2379780


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def account(login: str) -> dict[str, Any]:
    return next(a for a in SEED["accounts"] if a["account_name"] == login)


def sid(login: str) -> str:
    return str(account(login)["steamid"])


def code(login: str) -> str:
    return str(int(sid(login)) - 76561197960265728)


def sign_in(session: ToolSession, login: str) -> None:
    ok(session, "sign_in", {"account_name": login}, caller="user")


def transid(session: ToolSession, appid: int) -> str:
    history = ok(session, "get_purchase_history", {"page_size": 50})["results"]
    return next(p["transid"] for p in history for line in p["items"] if line["appid"] == appid)


def wallet(session: ToolSession, login: str) -> int:
    return int(session.dump()["accounts"][sid(login)]["wallet_balance"])


def asset(login: str, prefix: str) -> str:
    return next(i["assetid"] for i in SEED["items"] if i["owner"] == sid(login) and i["name"].startswith(prefix))


def offer_from(session: ToolSession, persona: str) -> str:
    offers = ok(session, "get_trade_offers")["trade_offers"]
    return next(o["tradeofferid"] for o in offers if o["partner"]["persona_name"] == persona)


# ---------------------------------------------------------------- sign-in and the store


def test_sign_in_is_user_only_and_account_tools_need_it(session):
    fails(session, "sign_in", {"account_name": "lena_fischer"}, "user_only", "user")
    fails(session, "sign_in", {"account_name": "nobody"}, "NotFound", "account name or password", caller="user")
    fails(session, "get_owned_games", {}, "PermissionDenied", "Sign in")
    fails(session, "checkout", {"payment_method": "card"}, "PermissionDenied", "Sign in")
    us = ok(session, "get_app_details", {"appid": CYBERPUNK})
    assert us["price_overview"]["currency"] == "USD" and us["owned"] is None
    sign_in(session, "LENA_FISCHER")
    details = ok(session, "get_app_details", {"appid": STARDEW})
    assert details["price_overview"]["currency"] == "EUR" and details["owned"] is True


def test_prices_follow_the_region_and_its_sales(session):
    brazil = ok(session, "get_app_details", {"appid": CYBERPUNK, "cc": "BR"})["price_overview"]
    usa = ok(session, "get_app_details", {"appid": CYBERPUNK, "cc": "US"})["price_overview"]
    assert (brazil["currency"], brazil["discount_percent"], usa["discount_percent"]) == ("BRL", 60, 50)
    assert usa == {"currency": "USD", "initial": "59.99", "final": "29.99", "discount_percent": 50}
    found = ok(session, "search_store", {"term": "hades", "cc": "GB", "specials_only": True})["results"]
    assert [a["name"] for a in found] == ["Hades"]
    cheap = ok(session, "search_store", {"max_price": 5, "page_size": 50})["results"]
    assert cheap and all(a["is_free"] or float(a["price_overview"]["final"]) <= 5 for a in cheap)
    assert ok(session, "get_app_details", {"appid": PHANTOM_LIBERTY})["fullgame"]["appid"] == CYBERPUNK
    fails(session, "get_app_details", {"appid": 999999}, "NotFound", "appid 999999")
    fails(session, "get_app_details", {"appid": 0}, "invalid_arguments", "positive")


# ---------------------------------------------------------------- wishlist


def test_wishlist_keeps_priorities_in_order(session):
    sign_in(session, "lena_fischer")
    fails(session, "add_to_wishlist", {"appid": STARDEW}, "Conflict", "already in your library")
    fails(session, "add_to_wishlist", {"appid": SILKSONG}, "Conflict", "already on your wishlist")
    fails(session, "set_wishlist_priority", {"appid": SILKSONG, "priority": 9}, "Conflict", "priority must be 1 to 6")
    fails(session, "remove_from_wishlist", {"appid": STARDEW}, "NotFound", "not on your wishlist")
    moved = ok(session, "set_wishlist_priority", {"appid": HADES_II, "priority": 2})["items"]
    assert [i["appid"] for i in moved][:3] == [SILKSONG, HADES_II, PHANTOM_LIBERTY]
    assert [i["priority"] for i in moved] == list(range(1, 7))
    left = ok(session, "remove_from_wishlist", {"appid": SILKSONG})["items"]
    assert left[0]["appid"] == HADES_II and [i["priority"] for i in left] == list(range(1, 6))
    added = ok(session, "add_to_wishlist", {"appid": ELDEN_RING})["items"]
    assert added[-1]["appid"] == ELDEN_RING and added[-1]["priority"] == 6


# ---------------------------------------------------------------- cart and checkout


def test_the_cart_refuses_what_the_rules_refuse(session):
    sign_in(session, "lena_fischer")
    fails(session, "add_to_cart", {"appid": STARDEW}, "Conflict", "You already own Stardew Valley")
    fails(session, "add_to_cart", {"appid": CS2}, "Conflict", "free to play")
    fails(session, "add_to_cart", {"appid": PHANTOM_LIBERTY}, "Conflict", "requires the base game Cyberpunk 2077")
    ok(session, "add_to_cart", {"appid": CYBERPUNK})
    cart = ok(session, "add_to_cart", {"appid": PHANTOM_LIBERTY})  # the base game in the same cart will do
    assert [line["appid"] for line in cart["items"]] == [CYBERPUNK, PHANTOM_LIBERTY]
    fails(session, "add_to_cart", {"appid": CYBERPUNK}, "Conflict", "already in your cart")
    fails(session, "add_to_cart", {"appid": STRAY, "gift_to": sid("zoe_m")}, "PermissionDenied", "friends list")
    fails(session, "add_to_cart", {"appid": STRAY, "gift_to": sid("mreed_trades")}, "Conflict", "different currency")
    fails(
        session,
        "add_to_cart",
        {"appid": STARDEW, "gift_to": sid("emma_fischer11")},
        "Conflict",
        "emmaplays already owns",
    )
    gift = ok(session, "add_to_cart", {"appid": STRAY, "gift_to": sid("claire_dubois")})
    assert gift["items"][-1]["gift_to"]["persona_name"] == "clairedb"


def test_checkout_pays_from_the_wallet_or_card_and_delivers(session):
    sign_in(session, "lena_fischer")
    fails(session, "checkout", {"payment_method": "card"}, "Conflict", "cart is empty")
    ok(session, "add_to_cart", {"appid": SILKSONG})
    ok(session, "add_to_cart", {"appid": HADES_II})
    fails(session, "checkout", {"payment_method": "steam_wallet"}, "Conflict", "Insufficient funds")
    before = wallet(session, "lena_fischer")
    receipt = ok(session, "checkout", {"payment_method": "card"})
    assert receipt["payment_method"] == "card" and receipt["total"] == "49.98"
    assert wallet(session, "lena_fischer") == before
    owned = {g["appid"] for g in ok(session, "get_owned_games")["games"]}
    assert {SILKSONG, HADES_II} <= owned
    assert {i["appid"] for i in ok(session, "get_wishlist")["items"]}.isdisjoint({SILKSONG, HADES_II})
    assert ok(session, "get_cart")["items"] == []


def test_a_first_purchase_of_five_lifts_the_limited_account(session):
    sign_in(session, "sofia.romano")
    fails(session, "send_friend_request", {"friend_code": code("giulia_romano")}, "PermissionDenied", "Limited")
    assert "Limited" in ok(session, "get_trade_offers")["trade_restriction"]
    assert "Limited" in ok(session, "get_friend_list")["invite_restriction"]
    ok(session, "add_to_cart", {"appid": BALATRO})
    ok(session, "checkout", {"payment_method": "card"})
    assert session.dump()["accounts"][sid("sofia.romano")]["limited"] is False
    assert ok(session, "get_friend_list")["invite_restriction"] is None
    assert ok(session, "get_trade_offers")["trade_restriction"] is None
    outgoing = ok(session, "send_friend_request", {"friend_code": code("giulia_romano")})["outgoing_invites"]
    assert [i["persona_name"] for i in outgoing] == ["giuliaR"]


def test_a_wallet_without_a_saved_card(session):
    sign_in(session, "diego_alves")
    ok(session, "add_to_cart", {"appid": STARDEW})
    fails(session, "checkout", {"payment_method": "card"}, "Conflict", "no saved card")
    before = wallet(session, "diego_alves")
    ok(session, "checkout", {"payment_method": "steam_wallet"})
    assert wallet(session, "diego_alves") == before - 5599


# ---------------------------------------------------------------- refunds


def test_refunds_follow_the_fourteen_day_two_hour_rule(session):
    sign_in(session, "priya.nair")
    fails(session, "request_refund", {"transid": transid(session, BALATRO), "appid": BALATRO}, "Conflict", "14 days")
    fails(
        session,
        "request_refund",
        {"transid": transid(session, ELDEN_RING), "appid": ELDEN_RING},
        "Conflict",
        "310 minutes",
    )
    fails(
        session,
        "request_refund",
        {"transid": transid(session, LIES_OF_P), "appid": STARDEW},
        "NotFound",
        "doesn't include",
    )
    fails(session, "request_refund", {"transid": "447199999999", "appid": LIES_OF_P}, "NotFound", "No purchase")
    before = wallet(session, "priya.nair")
    refund = ok(session, "request_refund", {"transid": transid(session, LIES_OF_P), "appid": LIES_OF_P})
    assert (refund["refunded_to"], refund["amount"]) == ("card", "49.99") and wallet(session, "priya.nair") == before
    assert LIES_OF_P not in {g["appid"] for g in ok(session, "get_owned_games")["games"]}
    fails(
        session,
        "request_refund",
        {"transid": transid(session, LIES_OF_P), "appid": LIES_OF_P},
        "Conflict",
        "already been refunded",
    )


def test_refund_destinations(session):
    sign_in(session, "priya.nair")
    start = wallet(session, "priya.nair")
    dave = ok(session, "request_refund", {"transid": transid(session, 1868140), "appid": 1868140})
    assert dave["refunded_to"] == "steam_wallet" and wallet(session, "priya.nair") == start + 1699  # paid by wallet
    to_wallet = {"transid": transid(session, LIES_OF_P), "appid": LIES_OF_P, "refund_to": "steam_wallet"}
    assert ok(session, "request_refund", to_wallet)["refunded_to"] == "steam_wallet"
    assert wallet(session, "priya.nair") == start + 1699 + 4999


def test_a_gift_is_refundable_only_until_it_is_accepted(session):
    sign_in(session, "mreed_trades")
    accepted = {"transid": transid(session, 620), "appid": 620}
    fails(session, "request_refund", accepted, "Conflict", "redeemed gifts can't be refunded")
    ok(session, "request_refund", {"transid": transid(session, HADES_II), "appid": HADES_II})
    gifts = ok(session, "list_gifts", {"status": "revoked"})
    assert [(g["appid"], g["recipient"]["persona_name"]) for g in gifts] == [(HADES_II, "Tom B.")]
    sign_in(session, "tbecks")
    fails(
        session,
        "respond_to_gift",
        {"gift_id": gifts[0]["gift_id"], "action": "accept"},
        "Conflict",
        "already been revoked",
    )


# ---------------------------------------------------------------- gifts


def test_gifts_are_accepted_or_declined_by_their_recipient(session):
    sign_in(session, "priya.nair")
    olly = next(g for g in ok(session, "list_gifts") if g["sender"]["persona_name"] == "Olly")
    sign_in(session, "amelia.clarke")
    fails(session, "respond_to_gift", {"gift_id": olly["gift_id"], "action": "accept"}, "PermissionDenied", "recipient")
    sign_in(session, "priya.nair")
    ok(session, "respond_to_gift", {"gift_id": olly["gift_id"], "action": "accept"})
    assert HADES_II in {g["appid"] for g in ok(session, "get_owned_games")["games"]}
    assert HADES_II not in {i["appid"] for i in ok(session, "get_wishlist")["items"]}
    fails(
        session,
        "respond_to_gift",
        {"gift_id": olly["gift_id"], "action": "decline"},
        "Conflict",
        "already been accepted",
    )


def test_a_declined_gift_refunds_the_sender(session):
    sign_in(session, "tbecks")
    gift = ok(session, "list_gifts", {"status": "pending"})[0]
    ok(session, "respond_to_gift", {"gift_id": gift["gift_id"], "action": "decline"})
    lines = session.dump()["purchase_items"].values()
    line = next(li for li in lines if li["appid"] == HADES_II and li["gift_to"] == sid("tbecks"))
    assert (line["status"], line["refunded_to"]) == ("refunded", "card")


# ---------------------------------------------------------------- friends


def test_friend_invites(session):
    sign_in(session, "mreed_trades")
    fails(session, "send_friend_request", {"friend_code": code("tbecks")}, "Conflict", "already your friend")
    fails(session, "send_friend_request", {"friend_code": code("kai_nakamura")}, "Conflict", "accept it instead")
    fails(session, "send_friend_request", {"friend_code": code("mreed_trades")}, "Conflict", "your own friend code")
    fails(session, "send_friend_request", {"friend_code": "1"}, "NotFound", "friend code 1")
    fails(
        session, "respond_to_friend_request", {"steamid": sid("ravi_k"), "action": "accept"}, "NotFound", "no pending"
    )
    ok(session, "send_friend_request", {"friend_code": code("ravi_k")})
    fails(session, "send_friend_request", {"friend_code": code("ravi_k")}, "Conflict", "already sent")
    friends = ok(session, "respond_to_friend_request", {"steamid": sid("kai_nakamura"), "action": "accept"})
    assert "KaiN" in {f["persona_name"] for f in friends["friends"]} and friends["incoming_invites"] == []
    sign_in(session, "kai_nakamura")
    assert "Reedy" in {f["persona_name"] for f in ok(session, "get_friend_list")["friends"]}


def test_only_friends_profiles_are_visible(session):
    sign_in(session, "lena_fischer")
    fails(session, "get_owned_games", {"steamid": sid("zoe_m")}, "PermissionDenied", "private")
    assert ok(session, "get_wishlist", {"steamid": sid("claire_dubois")})["items"]


# ---------------------------------------------------------------- trading


def test_trade_restrictions(session):
    sign_in(session, "priya.nair")
    amelia = {
        "partner": sid("amelia.clarke"),
        "items_to_give": [asset("priya.nair", "Strange")],
        "items_to_receive": [],
    }
    fails(session, "send_trade_offer", amelia, "PermissionDenied", "password was changed recently")
    sign_in(session, "mreed_trades")
    stranger = {
        "partner": sid("ana.costa"),
        "items_to_give": [asset("mreed_trades", "Kilowatt")],
        "items_to_receive": [],
    }
    fails(session, "send_trade_offer", stranger, "PermissionDenied", "only send trade offers to friends")
    to_nina = {
        "partner": sid("nina.park"),
        "items_to_give": [asset("mreed_trades", "Kilowatt")],
        "items_to_receive": [],
    }
    fails(session, "send_trade_offer", to_nina, "Conflict", "ninja_nina can't trade")
    to_tom = {"partner": sid("tbecks"), "items_to_give": [asset("mreed_trades", "P250")], "items_to_receive": []}
    fails(session, "send_trade_offer", to_tom, "Conflict", "not tradable")
    to_tom["items_to_give"] = [asset("tbecks", "AWP | Atheris")]
    fails(session, "send_trade_offer", to_tom, "Conflict", "not in Reedy's inventory")
    fails(session, "send_trade_offer", dict(to_tom, items_to_give=[]), "InvalidRequest", "at least one item")


def test_a_trade_with_an_unsecured_account_is_held_and_cancelling_it_starts_a_cooldown(session):
    sign_in(session, "mreed_trades")
    jake = offer_from(session, "JT_")
    held = ok(session, "respond_to_trade_offer", {"tradeofferid": jake, "action": "accept"})
    assert held["trade_offer_state"] == "InEscrow" and held["escrow_end_date"].startswith("2026-03-25T18:0")
    names = {i["name"] for i in ok(session, "get_inventory", {"appid": 730})["items"]}
    assert "AWP | Asiimov (Battle-Scarred)" not in names and "AK-47 | Redline (Field-Tested)" not in names
    assert session.dump()["items"][asset("jturner", "AK-47 | Redline")]["owner"] == sid("jturner")
    ok(session, "respond_to_trade_offer", {"tradeofferid": jake, "action": "cancel"})
    assert "AWP | Asiimov (Battle-Scarred)" in {
        i["name"] for i in ok(session, "get_inventory", {"appid": 730})["items"]
    }
    assert "cooldown" in ok(session, "get_trade_offers")["trade_restriction"]
    tom = offer_from(session, "Tom B.")
    fails(session, "respond_to_trade_offer", {"tradeofferid": tom, "action": "accept"}, "PermissionDenied", "cooldown")


def test_a_trade_between_secured_accounts_swaps_at_once(session):
    sign_in(session, "mreed_trades")
    tom = offer_from(session, "Tom B.")
    fails(session, "respond_to_trade_offer", {"tradeofferid": tom, "action": "cancel"}, "Conflict", "offers you sent")
    done = ok(session, "respond_to_trade_offer", {"tradeofferid": tom, "action": "accept"})
    assert done["trade_offer_state"] == "Accepted"
    items = session.dump()["items"]
    assert items[asset("tbecks", "AWP | Atheris")]["owner"] == sid("mreed_trades")
    assert items[asset("mreed_trades", "M4A1-S | Printstream")]["owner"] == sid("tbecks")
    fails(session, "respond_to_trade_offer", {"tradeofferid": tom, "action": "decline"}, "Conflict", "Accepted")
    diego = offer_from(session, "Dieguito")
    fails(
        session, "respond_to_trade_offer", {"tradeofferid": diego, "action": "accept"}, "PermissionDenied", "recipient"
    )
    assert (
        ok(session, "respond_to_trade_offer", {"tradeofferid": diego, "action": "cancel"})["trade_offer_state"]
        == "Canceled"
    )
    fails(
        session, "respond_to_trade_offer", {"tradeofferid": "6199999999", "action": "accept"}, "NotFound", "not found"
    )


def test_an_offer_past_its_expiry_cannot_be_answered(session):
    def expired(tables: dict[str, list[dict[str, Any]]]) -> None:
        offer = next(o for o in tables["trade_offers"] if o["sender"] == sid("jturner") and o["state"] == "Active")
        offer["expiration_time"] = "2026-03-10T12:00:00Z"

    restore_seed_with(session, expired, EVENING)
    sign_in(session, "mreed_trades")
    jake = offer_from(session, "JT_")
    fails(session, "respond_to_trade_offer", {"tradeofferid": jake, "action": "accept"}, "Conflict", "expired")


# ---------------------------------------------------------------- reviews


def test_reviews_need_the_app_and_a_second_one_updates(session):
    sign_in(session, "lena_fischer")
    fails(
        session,
        "write_review",
        {"appid": ELDEN_RING, "voted_up": True, "review": "Great"},
        "PermissionDenied",
        "must own",
    )
    fails(
        session, "write_review", {"appid": STARDEW, "voted_up": True, "review": "   "}, "invalid_arguments", "1 to 8000"
    )
    first = ok(session, "write_review", {"appid": FROSTPUNK_2, "voted_up": False, "review": "Too bleak for me."})
    second = ok(session, "write_review", {"appid": FROSTPUNK_2, "voted_up": True, "review": "It grew on me."})
    assert first["recommendationid"] == second["recommendationid"] and second["voted_up"] is True
    assert second["playtime_at_review"] == 130
    mine = [r for r in session.dump()["reviews"].values() if r["steamid"] == sid("lena_fischer")]
    assert len(mine) == 3


# ---------------------------------------------------------------- Steam Families


def test_family_slots_count_members_invites_and_cooldowns(session):
    sign_in(session, "lena_fischer")
    family = ok(session, "get_family")
    assert (len(family["members"]), family["slots_in_cooldown_until"], family["free_slots"]) == (
        4,
        ["2026-11-02T10:00:00Z"],
        1,
    )
    assert STARDEW in {a["appid"] for a in family["shared_library"]}
    fails(
        session,
        "invite_to_family",
        {"steamid": sid("tobikrueger"), "role": "adult"},
        "Conflict",
        "joined a Steam Family in the past year",
    )
    fails(
        session, "invite_to_family", {"steamid": sid("claire_dubois"), "role": "adult"}, "Conflict", "different country"
    )
    fails(session, "invite_to_family", {"steamid": sid("zoe_m"), "role": "adult"}, "PermissionDenied", "private")
    fails(
        session, "invite_to_family", {"steamid": sid("jonas_builds"), "role": "child"}, "Conflict", "already a member"
    )
    ok(session, "invite_to_family", {"steamid": sid("anke.vogel"), "role": "adult"})
    fails(session, "invite_to_family", {"steamid": sid("anke.vogel"), "role": "adult"}, "Conflict", "pending invite")
    fails(session, "invite_to_family", {"steamid": sid("rudi_k"), "role": "adult"}, "Conflict", "no free slot")
    assert ok(session, "get_family")["free_slots"] == 0


def test_children_cannot_invite_and_a_slot_frees_after_its_year(session):
    sign_in(session, "jonas_builds")
    fails(
        session,
        "invite_to_family",
        {"steamid": sid("lena_fischer"), "role": "adult"},
        "PermissionDenied",
        "Only adults",
    )
    sign_in(session, "amelia.clarke")
    fails(session, "get_family", {}, "NotFound", "not a member")

    def cooled(tables: dict[str, list[dict[str, Any]]]) -> None:
        tables["family_slot_cooldowns"][0]["available_at"] = "2026-03-01T10:00:00Z"

    restore_seed_with(session, cooled, EVENING)
    sign_in(session, "lena_fischer")
    assert ok(session, "get_family")["free_slots"] == 2
    ok(session, "invite_to_family", {"steamid": sid("anke.vogel"), "role": "adult"})
    ok(session, "invite_to_family", {"steamid": sid("rudi_k"), "role": "adult"})
