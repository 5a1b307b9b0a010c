"""The eBay environment's buyer tools: search and item details, the Watchlist, proxy bidding with eBay's
increments and reserves, Best Offers and counteroffers, Buy It Now checkout, payments confirmed in the app,
returns inside the return window and feedback, with every error path leaving the state unchanged. Runs the real
tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve
from envfactory_zoo.ebay.auction import increment

from .toolkit import fails, ok, session_fixture

SPEC = resolve("ebay")
CLOCK = datetime(2025, 6, 18, 17, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by title, never by raw id)


def item(title: str) -> str:
    found = [i["item_id"] for i in SEED["items"] if i["title"].startswith(title)]
    assert len(found) == 1, found
    return found[0]


def line(buyer: str, title: str) -> dict[str, Any]:
    orders = {o["purchase_order_id"] for o in SEED["purchase_orders"] if o["buyer"] == buyer}
    found = [li for li in SEED["line_items"] if li["purchase_order_id"] in orders and title in li["title"]]
    assert len(found) == 1, found
    return found[0]


def offer(buyer: str, title: str) -> str:
    return next(o["best_offer_id"] for o in SEED["best_offers"] if o["buyer"] == buyer and o["item_id"] == item(title))


session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, username: str) -> None:
    ok(session, "sign_in", {"username": username}, caller="user")


def row(session: ToolSession, table: str, key: str) -> dict[str, Any]:
    return session.dump()[table][key]


def checkout(session: ToolSession, *wanted: tuple[str, int]) -> dict[str, Any]:
    lines = [{"item_id": item(title), "quantity": quantity} for title, quantity in wanted]
    return ok(session, "initiate_checkout_session", {"line_items": lines})


AE1 = "Canon AE-1 Program"
EMERALD = "Pokemon Emerald Version"
SPEEDMASTER = "Omega Speedmaster"
SKX = "Seiko SKX007"
RYZEN = "AMD Ryzen 7 5800X3D"
GARMIN = "Garmin Edge 840"
MIXER = "KitchenAid Artisan 5 Qt"
WHITE_YETI = "YETI Tundra 45 Hard Cooler - White"


# ---------------------------------------------------------------- interface and signing in


def test_tools_flags_and_the_user_only_tools_are_refused_to_the_agent(session):
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in", "confirm_payment"]
    assert SPEC.tools["get_user"].input_schema["properties"] == {}
    assert {t.name for t in SPEC.agent_tools if not t.read_only} >= {"place_proxy_bid", "place_order", "create_return"}
    outcome = session.call("sign_in", {"username": "kmorales_84"})
    assert not outcome.ok and outcome.error_kind == "user_only"
    sign_in(session, "sam_okoro_pc")
    gpu = line("sam_okoro_pc", "RTX 3080")["purchase_order_id"]
    outcome = session.call("confirm_payment", {"purchase_order_id": gpu})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert row(session, "purchase_orders", gpu)["payment_status"] == "PENDING"


def test_every_tool_needs_a_signed_in_buyer(session):
    fails(session, "get_user", {}, "PermissionDenied", "sign in to eBay")
    fails(session, "add_to_watchlist", {"item_id": item(AE1)}, "PermissionDenied", "grant access")


def test_sign_in_by_username_or_email_and_suspended_accounts(session):
    fails(session, "sign_in", {"username": "olga_p_deals"}, "PermissionDenied", "suspended", caller="user")
    fails(session, "sign_in", {"username": "nobody_here"}, "NotFound", "couldn't find", caller="user")
    ok(session, "sign_in", {"username": "VLindqvist@fastmail.com"}, caller="user")
    me = ok(session, "get_user", {})
    assert (me["username"], me["shippingAddress"]["stateOrProvince"]) == ("vinylvic", "OR")
    sign_in(session, "dtran_gaming")
    assert ok(session, "get_user", {})["username"] == "dtran_gaming"


# ---------------------------------------------------------------- Browse


def test_search_keywords_conditions_and_price_sort_skip_ended_listings(session):
    page = ok(session, "search_items", {"q": "YETI Tundra 45", "conditions": ["NEW"], "sort": "price"})
    assert [r["price"]["value"] for r in page["results"]] == ["249.99", "269.99", "289.99"]
    assert ok(session, "search_items", {"q": "Grapes of Wrath Steinbeck"})["results"] == []
    both = ok(session, "search_items", {"q": "Jordan 1 Lost and Found 10.5"})["results"]
    assert {r["itemId"] for r in both} == {
        item("Nike Air Jordan 1 Retro High OG Chicago"),
        item("Air Jordan 1 High OG Lost and Found Chicago 2022"),
    }


def test_search_filters_auctions_on_the_current_bid(session):
    args = {"q": "Ryzen 7 5800X3D", "buying_options": ["AUCTION"]}
    assert ok(session, "search_items", {**args, "max_price": 200})["results"] == []
    found = ok(session, "search_items", {**args, "max_price": 220})["results"]
    assert [(r["currentBidPrice"]["value"], r["price"]) for r in found] == [("212.50", None)]
    free = ok(session, "search_items", {"q": "Le Creuset", "free_shipping": True})["results"]
    assert free and all(r["shippingCost"]["value"] == "0.00" for r in free)


def test_search_pages_with_offsets(session):
    first = ok(session, "search_items", {"category_id": "31388", "limit": 3, "sort": "newlyListed"})
    assert first["has_more"] and first["next_cursor"] == "3" and len(first["results"]) == 3
    second = ok(session, "search_items", {"category_id": "31388", "limit": 3, "offset": 3, "sort": "newlyListed"})
    everything = ok(session, "search_items", {"category_id": "31388", "limit": 200, "sort": "newlyListed"})["results"]
    assert [r["itemId"] for r in first["results"] + second["results"]] == [r["itemId"] for r in everything[:6]]
    fails(session, "search_items", {"q": "camera", "offset": 5000}, "InvalidRequest", "invalid cursor")
    fails(session, "search_items", {"q": "camera", "limit": 500}, "invalid_arguments", "limit")


def test_item_details_hide_the_reserve_and_estimate_delivery(session):
    omega = ok(session, "get_item", {"item_id": item(SPEEDMASTER)})
    assert (omega["currentBidPrice"]["value"], omega["minimumPriceToBid"]["value"]) == ("3650.00", "3700.00")
    assert omega["reservePriceMet"] is False and omega["uniqueBidderCount"] == 2
    assert "reserve_price" not in omega and "high_bidder" not in json.dumps(omega)
    drone = ok(session, "get_item", {"item_id": item("DJI Mini 4 Pro Fly More Combo Plus")})
    windows = {
        o["shippingOptionId"]: (o["minEstimatedDeliveryDate"], o["maxEstimatedDeliveryDate"])
        for o in drone["shippingOptions"]
    }
    assert windows["USPSGroundAdvantage"] == ("2025-06-25", "2025-06-29")  # 2 handling days + 5 to 9 in transit
    assert windows["UPSGround"] == ("2025-06-23", "2025-06-25")
    terms = ok(session, "get_item", {"item_id": item("The Lord of the Rings Folio")})["returnTerms"]
    assert terms == {"returnsAccepted": False, "returnPeriod": None, "returnShippingCostPayer": None}


def test_item_ids_are_restful(session):
    fails(session, "get_item", {"item_id": "226415973021"}, "invalid_arguments", "item_id: Invalid item ID")
    fails(session, "get_item", {"item_id": "v1|999999999999|0"}, "NotFound", "not found")


# ---------------------------------------------------------------- Watchlist


def test_watchlist_add_and_remove_move_the_watch_count(session):
    sign_in(session, "guitar_gabe")
    tele = item("Fender Player Telecaster")
    before = row(session, "items", tele)["watch_count"]
    added = ok(session, "add_to_watchlist", {"item_id": tele})
    assert added["listingStatus"] == "ACTIVE" and row(session, "items", tele)["watch_count"] == before + 1
    fails(session, "add_to_watchlist", {"item_id": tele}, "Conflict", "already on your Watchlist")
    assert ok(session, "get_watchlist", {"limit": 1})["results"][0]["itemId"] == tele
    ok(session, "remove_from_watchlist", {"item_id": tele})
    assert row(session, "items", tele)["watch_count"] == before
    fails(session, "remove_from_watchlist", {"item_id": tele}, "NotFound", "isn't on your Watchlist")


def test_ended_listings_cannot_be_watched_but_can_be_removed(session):
    sign_in(session, "bookworm_henry")
    steinbeck = item("The Grapes of Wrath")
    fails(session, "add_to_watchlist", {"item_id": steinbeck}, "Conflict", "has ended")
    watched = ok(session, "get_watchlist", {"limit": 100})["results"]
    assert next(w for w in watched if w["itemId"] == steinbeck)["listingStatus"] == "ENDED"
    ok(session, "remove_from_watchlist", {"item_id": steinbeck})


def test_watchlist_pages_newest_first(session):
    sign_in(session, "kmorales_84")
    mine = sorted(
        (w for w in SEED["watchlist"] if w["username"] == "kmorales_84"), key=lambda w: w["added"], reverse=True
    )
    first = ok(session, "get_watchlist", {"limit": 2})
    rest = ok(session, "get_watchlist", {"limit": 50, "offset": 2})
    assert first["has_more"] and not rest["has_more"]
    assert [w["itemId"] for w in first["results"] + rest["results"]] == [w["item_id"] for w in mine]


# ---------------------------------------------------------------- auctions


@pytest.mark.parametrize(
    "price,step",
    [
        (99, 5),
        (100, 25),
        (499, 25),
        (500, 50),
        (2499, 50),
        (2500, 100),
        (9999, 100),
        (10000, 250),
        (24999, 250),
        (25000, 500),
        (50000, 1000),
        (100000, 2500),
        (250000, 5000),
        (500000, 10000),
        (1234567, 10000),
    ],
)
def test_ebay_bid_increments(price, step):
    assert increment(price) == step


def test_a_proxy_bid_beats_the_leader_by_one_increment(session):
    sign_in(session, "dtran_gaming")
    emerald = item(EMERALD)
    before = ok(session, "get_bidding", {"item_id": emerald})
    assert (before["highBidder"], before["currentPrice"]["value"], before["currentProxyBid"]["maxAmount"]["value"]) == (
        False,
        "62.00",
        "61.00",
    )
    after = ok(session, "place_proxy_bid", {"item_id": emerald, "max_amount": 80})
    assert (after["highBidder"], after["currentPrice"]["value"], after["bidCount"]) == (True, "76.00", 7)
    assert [a["value"] for a in after["suggestedBidAmounts"]] == ["77.00", "78.00", "79.00"]


def test_a_bid_under_the_leaders_maximum_is_outbid_at_once(session):
    sign_in(session, "sam_okoro_pc")
    ryzen = item(RYZEN)
    fails(session, "place_proxy_bid", {"item_id": ryzen, "max_amount": 214.99}, "InvalidRequest", "at least $215.00")
    result = ok(session, "place_proxy_bid", {"item_id": ryzen, "max_amount": 215})
    assert (result["highBidder"], result["currentPrice"]["value"]) == (False, "217.50")
    assert row(session, "items", ryzen)["high_bidder"] == "tex_bidz"


def test_a_high_bidder_only_raises_the_maximum_and_a_reserve_lifts_the_price(session):
    sign_in(session, "watchguy_rob")
    omega = item(SPEEDMASTER)
    fails(session, "place_proxy_bid", {"item_id": omega, "max_amount": 3900}, "Conflict", "above your $4,000.00")
    result = ok(session, "place_proxy_bid", {"item_id": omega, "max_amount": 4250})
    assert (result["currentPrice"]["value"], result["reservePriceMet"], result["highBidder"]) == ("4100.00", True, True)
    fails(
        session,
        "place_proxy_bid",
        {"item_id": omega, "max_amount": 10.005},
        "InvalidRequest",
        "more than 2 decimal places",
    )


def test_the_first_bid_removes_buy_it_now(session):
    sign_in(session, "watchguy_rob")
    seiko = item(SKX)
    assert ok(session, "get_item", {"item_id": seiko})["price"]["value"] == "240.00"
    ok(session, "place_proxy_bid", {"item_id": seiko, "max_amount": 160})
    details = ok(session, "get_item", {"item_id": seiko})
    assert details["buyingOptions"] == ["AUCTION"] and details["price"] is None
    fails(session, "initiate_checkout_session", {"line_items": [{"item_id": seiko}]}, "Conflict", "no Buy It Now")


def test_no_bids_on_ended_auctions_or_fixed_price_listings(session):
    sign_in(session, "sam_okoro_pc")
    fails(
        session,
        "place_proxy_bid",
        {"item_id": item("EVGA GeForce RTX 3080"), "max_amount": 500},
        "Conflict",
        "has ended",
    )
    fails(session, "place_proxy_bid", {"item_id": item(AE1), "max_amount": 150}, "InvalidRequest", "isn't an auction")
    fails(session, "get_bidding", {"item_id": item("Fender Player Telecaster")}, "NotFound", "haven't bid")
    won = ok(session, "get_bidding", {"item_id": item("EVGA GeForce RTX 3080")})
    assert (won["auctionStatus"], won["highBidder"], won["suggestedBidAmounts"]) == ("ENDED", True, [])


def test_an_auction_closes_at_its_end_time(session):
    session.reset("seed", datetime(2025, 6, 20, 3, 0, tzinfo=timezone.utc))  # Pokemon Emerald ended at 02:15
    sign_in(session, "dtran_gaming")
    fails(session, "place_proxy_bid", {"item_id": item(EMERALD), "max_amount": 90}, "Conflict", "has ended")
    assert ok(session, "get_bidding", {"item_id": item(EMERALD)})["auctionStatus"] == "ENDED"


# ---------------------------------------------------------------- where sellers ship


def test_sellers_do_not_sell_where_they_do_not_ship(session):
    sign_in(session, "aloha_keoni")
    fails(
        session,
        "initiate_checkout_session",
        {"line_items": [{"item_id": item(WHITE_YETI)}]},
        "PermissionDenied",
        "doesn't ship to HI",
    )
    navy = checkout(session, ("YETI Tundra 45 Cooler Navy", 1))
    assert navy["pricingSummary"]["tax"]["value"] == "10.80"  # Hawaii: 4% of $269.99
    sign_in(session, "drew_k_collects")
    assert checkout(session, (WHITE_YETI, 1))["lineItems"][0]["itemId"] == item(WHITE_YETI)


# ---------------------------------------------------------------- Best Offers


def test_automatic_acceptance_makes_an_order_and_low_offers_are_declined(session):
    sign_in(session, "mhale_bikes")
    garmin = item(GARMIN)
    accepted = ok(session, "make_best_offer", {"item_id": garmin, "price": 300})
    assert accepted["status"] == "ACCEPTED" and accepted["purchaseOrderId"]
    order = ok(session, "get_order", {"purchase_order_id": accepted["purchaseOrderId"]})
    assert order["purchaseOrderPaymentStatus"] == "PENDING"
    bought = order["lineItems"][0]
    assert (bought["unitPrice"]["value"], bought["purchaseType"]) == ("300.00", "BEST_OFFER")
    assert row(session, "items", garmin)["quantity"] == 3
    sign_in(session, "sneakerhead_jay")
    declined = ok(
        session, "make_best_offer", {"item_id": item("Air Jordan 1 High OG Lost and Found Chicago 2022"), "price": 230}
    )
    assert (declined["status"], declined["purchaseOrderId"]) == ("DECLINED", None)


def test_offer_rules(session):
    sign_in(session, "pkapoor_home")
    fails(
        session,
        "make_best_offer",
        {"item_id": item("Le Creuset Signature 5.5 Qt Round Dutch Oven Marseille"), "price": 249.95},
        "InvalidRequest",
        "below the Buy It Now price",
    )
    fails(session, "make_best_offer", {"item_id": item(AE1), "price": 150}, "InvalidRequest", "doesn't accept offers")
    fails(
        session, "make_best_offer", {"item_id": item(MIXER), "price": 250}, "Conflict", "already have an active offer"
    )
    sign_in(session, "rfernandez_nyc")
    fails(
        session,
        "make_best_offer",
        {"item_id": item("Coach Tabby Shoulder Bag"), "price": 220},
        "Conflict",
        "maximum of 5 offers",
    )


def test_accepting_a_counteroffer_buys_at_the_counter_price(session):
    sign_in(session, "dtran_gaming")
    result = ok(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": offer("dtran_gaming", "Nintendo GameCube Indigo"), "action": "ACCEPT"},
    )
    assert result["status"] == "ACCEPTED"
    order = ok(session, "get_order", {"purchase_order_id": result["purchaseOrderId"]})
    assert order["pricingSummary"]["priceSubtotal"]["value"] == "165.00"
    assert order["pricingSummary"]["tax"]["value"] == "11.25"  # Texas 6.25% of $165 + $14.95 shipping
    fails(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": result["bestOfferId"], "action": "ACCEPT"},
        "Conflict",
        "no counteroffer to answer",
    )


def test_counteroffers_lapse_after_48_hours(session):
    sign_in(session, "lucia_runs")
    vaporfly = offer("lucia_runs", "Nike Vaporfly 3")
    assert ok(session, "get_best_offers", {"status": "EXPIRED"})[0]["bestOfferId"] == vaporfly
    fails(session, "respond_to_counter_offer", {"best_offer_id": vaporfly, "action": "ACCEPT"}, "Conflict", "expired")
    assert ok(session, "make_best_offer", {"item_id": item("Nike Vaporfly 3"), "price": 170})["status"] == "ACCEPTED"
    sign_in(session, "bookworm_henry")
    fails(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": offer("bookworm_henry", "The Old Man and the Sea"), "action": "ACCEPT"},
        "Conflict",
        "it is EXPIRED",
    )


def test_a_buyer_counter_declines_the_sellers_counter_and_is_a_new_offer(session):
    sign_in(session, "pkapoor_home")
    mixer = offer("pkapoor_home", MIXER)
    fails(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": mixer, "action": "COUNTER", "counter_price": 260},
        "InvalidRequest",
        "accept it instead",
    )
    fails(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": mixer, "action": "COUNTER"},
        "InvalidRequest",
        "counter_price is required",
    )
    new = ok(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": mixer, "action": "COUNTER", "counter_price": 240, "message": "Would you meet me at $240?"},
    )
    assert (new["status"], new["price"]["value"], new["message"]) == ("PENDING", "240.00", "Would you meet me at $240?")
    assert row(session, "best_offers", mixer)["status"] == "DECLINED"
    assert [o["status"] for o in ok(session, "get_best_offers", {"item_id": item(MIXER)})] == ["PENDING", "DECLINED"]


def test_declining_a_counteroffer_buys_nothing(session):
    sign_in(session, "mhale_bikes")
    orders = len(session.dump()["purchase_orders"])
    result = ok(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": offer("mhale_bikes", "Shimano Ultegra"), "action": "DECLINE"},
    )
    assert result["status"] == "DECLINED" and len(session.dump()["purchase_orders"]) == orders
    fails(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": offer("mhale_bikes", "Shimano Ultegra"), "action": "DECLINE"},
        "Conflict",
        "no counteroffer",
    )
    fails(
        session,
        "respond_to_counter_offer",
        {"best_offer_id": offer("dtran_gaming", "Nintendo GameCube Indigo"), "action": "ACCEPT"},
        "NotFound",
        "not found on your account",
    )


# ---------------------------------------------------------------- checkout and orders


def test_checkout_prices_shipping_choices_and_tax(session):
    sign_in(session, "tomw_tools")
    started = checkout(
        session,
        ("DeWalt 20V MAX XR Brushless 2-Tool Combo Kit", 1),
        ("DeWalt DCB205-2 20V MAX 5.0Ah Battery 2-Pack", 1),
    )
    assert started["pricingSummary"] == {
        "priceSubtotal": {"value": "428.99", "currency": "USD"},
        "deliveryCost": {"value": "0.00", "currency": "USD"},
        "tax": {"value": "25.74", "currency": "USD"},
        "total": {"value": "454.73", "currency": "USD"},
    }
    session_id = started["checkoutSessionId"]
    changed = ok(
        session,
        "update_shipping_option",
        {"checkout_session_id": session_id, "line_item_id": "1", "shipping_option_id": "FedEx2Day"},
    )
    assert (changed["pricingSummary"]["deliveryCost"]["value"], changed["pricingSummary"]["total"]["value"]) == (
        "29.99",
        "486.52",
    )
    assert [o["shippingOptionId"] for o in changed["lineItems"][0]["shippingOptions"] if o["selected"]] == ["FedEx2Day"]
    fails(
        session,
        "update_shipping_option",
        {"checkout_session_id": session_id, "line_item_id": "2", "shipping_option_id": "FedEx2Day"},
        "InvalidRequest",
        "USPSPriority, UPS2ndDay",
    )
    fails(
        session,
        "update_shipping_option",
        {"checkout_session_id": session_id, "line_item_id": "3", "shipping_option_id": "UPSGround"},
        "NotFound",
        "Line item 3",
    )


def test_placing_an_order_sells_stock_once(session):
    sign_in(session, "campfire_tess")
    fuel = item("MSR IsoPro Fuel Canister")
    session_id = checkout(session, ("MSR IsoPro Fuel Canister", 2))["checkoutSessionId"]
    order = ok(session, "place_order", {"checkout_session_id": session_id})
    assert (order["purchaseOrderStatus"], order["purchaseOrderPaymentStatus"]) == ("PENDING", "PENDING")
    assert order["lineItems"][0]["shippingCost"]["value"] == "15.95"  # $12.95 plus $3.00 for the second pack
    assert row(session, "items", fuel)["quantity"] == 38
    fails(session, "place_order", {"checkout_session_id": session_id}, "Conflict", "already placed order")
    sign_in(session, "kmorales_84")
    fails(session, "place_order", {"checkout_session_id": session_id}, "NotFound", "not found")


def test_quantity_limits_per_buyer_and_in_stock(session):
    sign_in(session, "lego_mom_sara")
    galaxy = [{"item_id": item("LEGO Icons Galaxy Explorer"), "quantity": 3}]
    fails(session, "initiate_checkout_session", {"line_items": galaxy}, "Conflict", "to 3 per buyer")
    galaxy[0]["quantity"] = 2
    ok(session, "initiate_checkout_session", {"line_items": galaxy})
    titanic = [{"item_id": item("LEGO Icons Titanic"), "quantity": 1}]
    fails(session, "initiate_checkout_session", {"line_items": titanic}, "Conflict", "to 1 per buyer")
    sign_in(session, "tomw_tools")
    fails(
        session,
        "initiate_checkout_session",
        {"line_items": [{"item_id": item("DeWalt 20V MAX XR"), "quantity": 7}]},
        "Conflict",
        "Only 6 available",
    )
    twice = [{"item_id": item("DeWalt 20V MAX XR")}, {"item_id": item("DeWalt 20V MAX XR")}]
    fails(session, "initiate_checkout_session", {"line_items": twice}, "InvalidRequest", "listed twice")


def test_buying_the_last_unit_ends_the_listing(session):
    sign_in(session, "kmorales_84")
    ae1 = item(AE1)
    ok(session, "place_order", {"checkout_session_id": checkout(session, (AE1, 1))["checkoutSessionId"]})
    assert row(session, "items", ae1)["listing_status"] == "ENDED"
    assert all(r["itemId"] != ae1 for r in ok(session, "search_items", {"q": "Canon AE-1"})["results"])
    fails(session, "initiate_checkout_session", {"line_items": [{"item_id": ae1}]}, "Conflict", "has ended")


def test_the_buyer_confirms_a_payment_once(session):
    sign_in(session, "sam_okoro_pc")
    gpu = line("sam_okoro_pc", "RTX 3080")["purchase_order_id"]
    paid = ok(session, "confirm_payment", {"purchase_order_id": gpu}, caller="user")
    assert paid["purchaseOrderPaymentStatus"] == "PAID"
    fails(session, "confirm_payment", {"purchase_order_id": gpu}, "Conflict", "already paid", caller="user")
    fails(
        session,
        "confirm_payment",
        {"purchase_order_id": "25-12977-40113"},
        "NotFound",
        "not found on your account",
        caller="user",
    )


def test_orders_newest_first_with_a_status_filter(session):
    sign_in(session, "campfire_tess")
    everything = ok(session, "get_orders", {"limit": 100})["results"]
    dates = [o["purchaseOrderCreationDate"] for o in everything]
    assert dates == sorted(dates, reverse=True) and len(everything) >= 3
    moving = ok(session, "get_orders", {"status": "FULFILLMENT_IN_PROGRESS"})["results"]
    assert [o["lineItems"][0]["title"][:22] for o in moving] == ["REI Co-op Half Dome SL"]
    tracking = moving[0]["lineItems"][0]["shipmentTracking"]
    assert tracking["shippingCarrierCode"] == "UPS" and tracking["actualDeliveryDate"] is None
    page = ok(session, "get_orders", {"limit": 1, "offset": 1})
    assert page["results"][0]["purchaseOrderId"] == everything[1]["purchaseOrderId"]
    fails(
        session,
        "get_order",
        {"purchase_order_id": line("vinylvic", "Rumours")["purchase_order_id"]},
        "NotFound",
        "not found on your account",
    )


# ---------------------------------------------------------------- returns


def test_remorse_returns_follow_the_listing_policy(session):
    sign_in(session, "jchen_audio")
    sony = ok(
        session,
        "create_return",
        {"line_item_id": line("jchen_audio", "Sony WH-1000XM5")["line_item_id"], "reason": "NO_LONGER_NEED_ITEM"},
    )
    assert (sony["reasonType"], sony["status"], sony["returnShippingCostPayer"]) == (
        "REMORSE",
        "READY_FOR_SHIPPING",
        "BUYER",
    )
    assert sony["estimatedRefundAmount"]["value"] == "328.00"  # the item only: remorse keeps the shipping
    airpods = line("jchen_audio", "AirPods Pro 2")["line_item_id"]
    fails(
        session,
        "create_return",
        {"line_item_id": airpods, "reason": "NO_LONGER_NEED_ITEM"},
        "Conflict",
        "closed on 2025-05-28",
    )
    fails(session, "create_return", {"line_item_id": airpods, "reason": "DEFECTIVE_ITEM"}, "Conflict", "closed on")


def test_items_not_as_described_go_back_even_without_a_return_policy(session):
    sign_in(session, "bookworm_henry")
    folio = line("bookworm_henry", "Folio Society")["line_item_id"]
    fails(
        session,
        "create_return",
        {"line_item_id": folio, "reason": "FOUND_BETTER_PRICE"},
        "PermissionDenied",
        "doesn't accept returns",
    )
    result = ok(session, "create_return", {"line_item_id": folio, "reason": "ARRIVED_DAMAGED"})
    assert (result["reasonType"], result["status"], result["returnShippingCostPayer"]) == (
        "SNAD",
        "RETURN_REQUESTED",
        "SELLER",
    )
    assert result["estimatedRefundAmount"]["value"] == "194.00"  # the item and its original shipping
    folio_order = line("bookworm_henry", "Folio Society")["purchase_order_id"]
    order = ok(session, "get_order", {"purchase_order_id": folio_order})
    assert order["lineItems"][0]["returnStatus"] == "RETURN_REQUESTED"


def test_returns_need_a_delivery_and_only_one_open_return(session):
    sign_in(session, "campfire_tess")
    fails(
        session,
        "create_return",
        {"line_item_id": line("campfire_tess", "Half Dome")["line_item_id"], "reason": "DEFECTIVE_ITEM"},
        "Conflict",
        "once the item has been delivered",
    )
    fails(
        session,
        "create_return",
        {"line_item_id": line("campfire_tess", "IsoPro")["line_item_id"], "reason": "DEFECTIVE_ITEM", "quantity": 3},
        "InvalidRequest",
        "between 1 and 2",
    )
    sign_in(session, "kmorales_84")
    lens = next(r["line_item_id"] for r in SEED["returns"] if r["buyer"] == "kmorales_84")
    fails(session, "create_return", {"line_item_id": lens, "reason": "DEFECTIVE_ITEM"}, "Conflict", "already open")


# ---------------------------------------------------------------- feedback


def test_feedback_moves_the_sellers_score_once_per_purchase(session):
    sign_in(session, "vinylvic")
    rumours = line("vinylvic", "Rumours")
    seller = row(session, "sellers", rumours["seller"])
    left = ok(
        session,
        "leave_feedback",
        {
            "line_item_id": rumours["line_item_id"],
            "comment_type": "POSITIVE",
            "comment_text": "  Gorgeous copy, packed like a fortress. A+ ",
        },
    )
    assert (left["commentText"], left["sellerFeedbackScore"]) == (
        "Gorgeous copy, packed like a fortress. A+",
        seller["feedback_score"] + 1,
    )
    assert row(session, "sellers", rumours["seller"])["positive_count"] == seller["positive_count"] + 1
    fails(
        session,
        "leave_feedback",
        {"line_item_id": rumours["line_item_id"], "comment_type": "NEGATIVE", "comment_text": "Changed my mind"},
        "Conflict",
        "already left feedback",
    )
    sign_in(session, "jchen_audio")
    airpods = line("jchen_audio", "AirPods Pro 2")
    before = row(session, "sellers", airpods["seller"])
    ok(
        session,
        "leave_feedback",
        {"line_item_id": airpods["line_item_id"], "comment_type": "NEGATIVE", "comment_text": "Hinge broke"},
    )
    after = row(session, "sellers", airpods["seller"])
    assert (after["feedback_score"], after["negative_count"]) == (
        before["feedback_score"] - 1,
        before["negative_count"] + 1,
    )


def test_feedback_needs_a_paid_purchase_within_60_days(session):
    sign_in(session, "drew_k_collects")
    fails(
        session,
        "leave_feedback",
        {
            "line_item_id": line("drew_k_collects", "2023 1 oz American Silver Eagle")["line_item_id"],
            "comment_type": "POSITIVE",
            "comment_text": "Great",
        },
        "Conflict",
        "within 60 days",
    )
    britannia = line("drew_k_collects", "Britannia")["line_item_id"]
    fails(
        session,
        "leave_feedback",
        {"line_item_id": britannia, "comment_type": "POSITIVE", "comment_text": "x" * 81},
        "invalid_arguments",
        "comment_text: must be 1 to 80 characters",
    )
    fails(
        session,
        "leave_feedback",
        {
            "line_item_id": line("vinylvic", "Rumours")["line_item_id"],
            "comment_type": "POSITIVE",
            "comment_text": "Nice",
        },
        "NotFound",
        "Line item",
    )
    sign_in(session, "sam_okoro_pc")
    unpaid = line("sam_okoro_pc", "RTX 3080")["line_item_id"]
    fails(
        session,
        "leave_feedback",
        {"line_item_id": unpaid, "comment_type": "POSITIVE", "comment_text": "Fast"},
        "Conflict",
        "once the order is paid",
    )


# ---------------------------------------------------------------- bounds in the argument types


def test_schemas_show_the_bounds_the_tools_enforce():
    tools = SPEC.tools
    search = tools["search_items"].input_schema["properties"]
    assert (search["limit"]["minimum"], search["limit"]["maximum"]) == (1, 200)
    assert search["offset"]["minimum"] == 0 and search["min_price"]["anyOf"][0]["minimum"] == 0
    assert "v1" in tools["get_item"].input_schema["properties"]["item_id"]["pattern"]
    offer = tools["make_best_offer"].input_schema["properties"]
    assert offer["price"]["exclusiveMinimum"] == 0 and offer["quantity"]["minimum"] == 1
    assert offer["message"]["anyOf"][0]["maxLength"] == 250
    lines = tools["initiate_checkout_session"].input_schema["properties"]["line_items"]
    assert (lines["minItems"], lines["maxItems"]) == (1, 10)
    assert tools["leave_feedback"].input_schema["properties"]["comment_text"]["maxLength"] == 80
    assert tools["get_orders"].input_schema["properties"]["limit"]["maximum"] == 100


def test_bad_values_fail_validation_with_ebay_wording_and_change_nothing(session):
    sign_in(session, "watchguy_rob")
    omega, mixer = item(SPEEDMASTER), item(MIXER)
    bad = [
        ("place_proxy_bid", {"item_id": omega, "max_amount": 0}, "max_amount: must be a positive amount"),
        ("place_proxy_bid", {"item_id": omega, "max_amount": -5}, "US dollars"),
        ("make_best_offer", {"item_id": mixer, "price": 100, "quantity": 0}, "quantity must be at least 1"),
        ("make_best_offer", {"item_id": mixer, "price": 100, "message": "x" * 251}, "at most 250 characters"),
        ("search_items", {"q": "camera", "offset": -1}, "offset must be 0 or more"),
        ("search_items", {"q": "camera", "min_price": -1}, "min_price"),
        ("initiate_checkout_session", {"line_items": []}, "A checkout holds 1 to 10 line items"),
        (
            "initiate_checkout_session",
            {"line_items": [{"item_id": mixer, "quantity": 1}] * 11},
            "A checkout holds 1 to 10 line items",
        ),
        ("initiate_checkout_session", {"line_items": [{"item_id": mixer, "quantity": 0}]}, "quantity"),
        ("get_best_offers", {"item_id": "226415973021"}, "Invalid item ID"),
        ("get_watchlist", {"limit": 101}, "limit"),
    ]
    for name, args, text in bad:
        fails(session, name, args, "invalid_arguments", text)


def test_signing_in_again_replaces_the_grant(session):
    sign_in(session, "watchguy_rob")
    first = row(session, "auth_sessions", "current")
    assert first["username"] == "watchguy_rob"
    sign_in(session, "guitar_gabe")
    assert row(session, "auth_sessions", "current")["username"] == "guitar_gabe"
    assert len(session.dump()["auth_sessions"]) == 1
