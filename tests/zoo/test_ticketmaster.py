"""The Ticketmaster environment's tools: sign-in, discovery and offers, carts and seat selection, presales, ticket
limits, delivery and payment rules, Verified Resale (caps, sets, payouts), Ticket Transfer (cutoffs, recipients),
refunds and entry, with every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("ticketmaster")
CLOCK = datetime(2025, 6, 12, 17, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


def event(name: str, date: str) -> str:
    return next(e["id"] for e in SEED["events"] if name in e["name"] and e["local_date"] == date)


def level(event_id: str, name: str) -> str:
    return next(p["id"] for p in SEED["price_levels"] if p["event_id"] == event_id and p["name"] == name)


def account(email: str) -> str:
    return next(a["id"] for a in SEED["accounts"] if a["email"] == email)


def card(email: str, brand: str) -> str:
    return next(c["id"] for c in SEED["payment_methods"] if c["account_id"] == account(email) and c["brand"] == brand)


def order(email: str, event_id: str) -> dict:
    return next(o for o in SEED["orders"] if o["account_id"] == account(email) and o["event_id"] == event_id)


def tickets(order_id: str) -> list[str]:
    return [t["id"] for t in SEED["tickets"] if t["order_id"] == order_id]


def listing(email: str, event_id: str) -> dict:
    return next(x for x in SEED["listings"] if x["seller_account_id"] == account(email) and x["event_id"] == event_id)


CHAPPELL_SAT, CHAPPELL_SUN = event("Chappell Roan", "2025-07-19"), event("Chappell Roan", "2025-07-20")
DODGERS, HAMILTON = event("Giants", "2025-06-20"), event("Hamilton", "2025-06-29")
NOAH, KHRUANGBIN = event("Noah Kahan", "2025-08-08"), event("Khruangbin", "2025-06-12")
VAMPIRE, ZACH, GLASS = event("Vampire", "2025-06-12"), event("Zach Bryan", "2025-06-21"), event("Glass", "2025-06-27")
SABRINA, ISBELL = event("Sabrina", "2025-07-22"), event("Isbell", "2025-06-21")
OLIVIA, WALLOWS, HOZIER = event("Olivia", "2025-08-19"), event("Wallows", "2025-06-06"), event("Hozier", "2025-09-12")
TYLER, DUA = event("Tyler", "2025-07-25"), event("Dua Lipa", "2025-05-30")

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


def reserve(session: ToolSession, event_id: str, offer_id: str, quantity: int, **extra) -> dict:
    return ok(session, "reserve_tickets", {"event_id": event_id, "offer_id": offer_id, "quantity": quantity, **extra})


def buy(session: ToolSession, hold: dict, email: str, brand: str = "Visa", delivery: str = "mobile") -> dict:
    return ok(
        session,
        "purchase_tickets",
        {"hold_id": hold["hold_id"], "delivery_method": delivery, "payment_method_id": card(email, brand)},
    )


# ---------------------------------------------------------------- interface and sign-in


def test_tools_user_only_and_parameterless(session):
    assert len(SPEC.tools) == 23
    assert [t.name for t in SPEC.tools.values() if t.user_only] == [
        "sign_in",
        "accept_transfer",
        "present_mobile_ticket",
    ]
    assert SPEC.tools["get_my_account"].input_schema["properties"] == {}
    assert SPEC.tools["get_cart"].input_schema["properties"] == {}
    outcome = session.call("sign_in", {"email": "maya.patel@gmail.com"})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_account_tools_need_a_signed_in_fan(session):
    fails(session, "get_my_account", {}, "PermissionDenied", "Sign in")
    fails(
        session,
        "reserve_tickets",
        {"event_id": HAMILTON, "offer_id": level(HAMILTON, "Balcony"), "quantity": 2},
        "PermissionDenied",
        "Sign in",
    )
    assert ok(session, "search_events", {"keyword": "hamilton"})["results"]  # discovery is public
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "couldn't find", caller="user")
    sign_in(session, "GRACE.LIU@gmail.com")
    cards = ok(session, "get_my_account", {})["payment_methods"]
    assert [(c["last4"], c["is_default"], c["expired"]) for c in cards] == [
        ("4821", True, True),
        ("6405", False, False),
    ]


def test_bounds_and_formats_are_in_the_argument_types(session):
    props = {name: tool.input_schema["properties"] for name, tool in SPEC.tools.items()}
    assert props["search_events"]["size"]["maximum"] == 50 and props["list_orders"]["size"]["maximum"] == 50
    assert props["get_seat_availability"]["size"]["maximum"] == 100
    assert props["reserve_tickets"]["quantity"]["minimum"] == 1
    assert props["create_resale_listing"]["price_per_ticket"]["minimum"] == 500
    assert props["update_resale_listing"]["price_per_ticket"]["minimum"] == 500
    assert props["transfer_tickets"]["ticket_ids"]["minItems"] == 1
    assert "pattern" in props["transfer_tickets"]["recipient_email"]
    message = props["transfer_tickets"]["message"]
    assert any(branch.get("maxLength") == 240 for branch in message.get("anyOf", [message]))
    fails(session, "search_events", {"end_date": "2025-7-31"}, "invalid_arguments", "end_date: end_date must be")
    fails(session, "get_seat_availability", {"event_id": HAMILTON, "size": 101}, "invalid_arguments", "size")


def test_transfer_arguments_are_checked_before_anything_moves(session):
    sign_in(session, "marcus.bell@gmail.com")
    ids = tickets(order("marcus.bell@gmail.com", event("Giants", "2025-06-20"))["id"])[:1]
    base = {"ticket_ids": ids, "recipient_first_name": "Kevin", "recipient_last_name": "Tran"}
    base["recipient_email"] = "kevin@gmail.com"
    fails(session, "transfer_tickets", {**base, "message": "x" * 241}, "invalid_arguments", "at most 240 characters")
    fails(session, "transfer_tickets", {**base, "ticket_ids": []}, "invalid_arguments", "Choose at least one ticket")
    fails(session, "transfer_tickets", {**base, "recipient_first_name": ""}, "invalid_arguments", "first and last")
    sent = ok(session, "transfer_tickets", {**base, "recipient_email": "  Kevin@Gmail.com ", "message": "x" * 240})
    assert sent["recipient_email"] == "kevin@gmail.com"


def test_money_reads_like_dollars_and_a_hold_lasts_ten_minutes(session):
    sign_in(session, "lauren.wu@gmail.com")
    chappell = event("Chappell Roan", "2025-07-20")
    ids = tickets(order("lauren.wu@gmail.com", chappell)["id"])
    fails(
        session,
        "create_resale_listing",
        {"ticket_ids": ids, "price_per_ticket": 1_000_000},
        "InvalidRequest",
        "at most $139.50 per ticket",
    )
    hold = reserve(session, HAMILTON, level(HAMILTON, "Balcony"), 1)
    session.clock.start += timedelta(minutes=8)  # the stored expiry (10 minutes on) is read back as a UTC time
    assert [h["hold_id"] for h in ok(session, "get_cart", {})] == [hold["hold_id"]]


# ---------------------------------------------------------------- discovery


def test_search_filters_skip_past_events_and_paginate(session):
    everything = ok(session, "search_events", {"size": 50})["results"]
    names = [e["name"] for e in everything]
    assert "Dua Lipa: Radical Optimism Tour" not in names  # already happened
    assert "Wallows: Model Tour" in names  # postponed: still listed
    dates = [e["local_date"] for e in everything if e["status"] != "postponed"]
    assert dates == sorted(dates)
    first = ok(session, "search_events", {"city": "los angeles", "size": 3})
    assert len(first["results"]) == 3 and first["has_more"]
    second = ok(session, "search_events", {"city": "Los Angeles", "size": 3, "cursor": first["next_cursor"]})
    assert not {e["id"] for e in first["results"]} & {e["id"] for e in second["results"]}
    comedy = ok(session, "search_events", {"classification_name": "comedy"})["results"]
    assert [(e["name"], e["status"]) for e in comedy] == [("John Mulaney: From Scratch", "rescheduled")]
    july = ok(session, "search_events", {"start_date": "2025-07-01", "end_date": "2025-07-31", "size": 50})["results"]
    assert july and all(e["local_date"].startswith("2025-07") for e in july)
    assert [e["venue_name"] for e in ok(session, "search_events", {"keyword": "red rocks"})["results"]] == [
        "Red Rocks Amphitheatre"
    ]
    fails(session, "search_events", {"start_date": "07/01/2025"}, "invalid_arguments", "start_date: start_date must be")
    fails(session, "search_events", {"size": 51}, "invalid_arguments", "size")


def test_event_details_show_presales_but_never_their_codes(session):
    details = ok(session, "get_event_details", {"event_id": NOAH})
    assert [p["name"] for p in details["presales"]] == ["Citi Cardmember Presale", "Artist Presale"]
    assert "STICKSEASON" not in json.dumps(details)
    assert (details["ticket_limit"], details["transfer_cutoff_hours"], details["resale_price_cap_pct"]) == (4, 24, 100)
    assert details["price_ranges"] == [{"type": "standard", "currency": "USD", "min": 6500, "max": 18500}]
    assert details["venue"]["timezone"] == "America/Los_Angeles"
    fails(session, "get_event_details", {"event_id": "vvG1nope"}, "NotFound", "Event")


def test_offers_and_availability_leave_out_held_seats(session):
    offers = ok(session, "get_event_offers", {"event_id": CHAPPELL_SUN})["offers"]
    upper = next(o for o in offers if o["price_level"] == "Price Level 3")
    held = next(h for h in SEED["holds"] if h["account_id"] == account("sarah.mitchell@gmail.com"))["seat_ids"]
    open_upper = [s["id"] for s in SEED["seats"] if s["price_level_id"] == upper["offer_id"] and s["status"] == "open"]
    assert upper["available"] == len(open_upper) - len(held)
    assert upper["total_per_ticket"] == upper["price"] + upper["fees"] == 6950 + 1350 + 500
    page = ok(session, "get_seat_availability", {"event_id": CHAPPELL_SUN, "offer_id": upper["offer_id"], "size": 100})
    assert not set(held) & {s["seat_id"] for s in page["results"]}
    sabrina = ok(session, "get_event_offers", {"event_id": SABRINA})["offers"]
    resale = [o for o in sabrina if o["offer_type"] == "resale"]
    assert [o["price"] for o in resale] == sorted(o["price"] for o in resale) and len(resale) == 6
    fails(session, "get_seat_availability", {"event_id": CHAPPELL_SUN, "offer_id": "000000000000"}, "NotFound", "Offer")


# ---------------------------------------------------------------- carts and seat selection


def test_best_available_picks_adjacent_seats_and_frees_expired_holds(session):
    sign_in(session, "maya.patel@gmail.com")
    hold = reserve(session, CHAPPELL_SAT, level(CHAPPELL_SAT, "Price Level 2"), 2)
    # row A is sold out, row B only has single seats; row C 4-5 were in a hold that expired two days ago
    assert hold["seats"] == ["Sec 111 Row C Seat 4", "Sec 111 Row C Seat 5"]
    assert (hold["status"], hold["estimated_total"]) == ("active", 2 * (13950 + 3150) + 595)
    assert hold["expires_at"] == "2025-06-12T17:10:30Z"
    page = ok(session, "get_seat_availability", {"event_id": CHAPPELL_SAT, "section": "111"})
    assert not set(hold["seat_ids"]) & {s["seat_id"] for s in page["results"]}
    assert ok(session, "get_cart", {})[0]["hold_id"] == hold["hold_id"]


def test_reserving_exact_seats_and_seat_errors(session):
    sign_in(session, "olivia.brooks@icloud.com")
    lower = level(OLIVIA, "Lower Level")
    f = {n: f"{OLIVIA}-114-F-{n}" for n in range(1, 11)}
    args = {"event_id": OLIVIA, "offer_id": lower, "quantity": 2}
    fails(session, "reserve_tickets", {**args, "seat_ids": [f[9]]}, "InvalidRequest", "exactly 2")
    fails(
        session,
        "reserve_tickets",
        {**args, "seat_ids": [f[8], f[9]]},
        "Conflict",
        "Sec 114 Row F Seat 8 is no longer available",
    )
    floor_seat = f"{OLIVIA}-FLOOR-GA-1"
    fails(session, "reserve_tickets", {**args, "seat_ids": [f[9], floor_seat]}, "NotFound", "not part of this offer")
    fails(session, "reserve_tickets", {**args, "section": "FLOOR"}, "InvalidRequest", "Section FLOOR has no seats")
    fails(
        session,
        "reserve_tickets",
        {**args, "quantity": 0},
        "invalid_arguments",
        "quantity: quantity must be at least 1",
    )
    fails(session, "reserve_tickets", {**args, "offer_id": "000000000000"}, "NotFound", "Offer")
    hold = reserve(session, OLIVIA, lower, 2, seat_ids=[f[10], f[9]])
    assert sorted(hold["seats"]) == ["Sec 114 Row F Seat 10", "Sec 114 Row F Seat 9"]


def test_exact_seats_named_in_any_order_make_the_same_hold(session):
    chappell = event("Chappell Roan", "2025-07-19")
    seats = [f"{chappell}-111-C-5", f"{chappell}-111-C-4"]
    sign_in(session, "ryan.cooper@gmail.com")
    hold = reserve(session, chappell, level(chappell, "Price Level 2"), 2, seat_ids=seats)
    assert hold["seat_ids"] == sorted(seats) and hold["seats"] == ["Sec 111 Row C Seat 4", "Sec 111 Row C Seat 5"]
    ok(session, "release_hold", {"hold_id": hold["hold_id"]})
    again = reserve(session, chappell, level(chappell, "Price Level 2"), 2, seat_ids=sorted(seats))
    assert session.dump()["holds"][again["hold_id"]]["seat_ids"] == hold["seat_ids"]


def test_no_seats_together_is_a_conflict(session):
    sign_in(session, "jake.morrison@gmail.com")
    fails(
        session,
        "reserve_tickets",
        {"event_id": ISBELL, "offer_id": level(ISBELL, "Balcony"), "quantity": 5},
        "Conflict",
        "couldn't find 5 seats together at Balcony",
    )


def test_one_cart_at_a_time_and_release(session):
    sign_in(session, "dan.foster@gmail.com")
    cart = ok(session, "get_cart", {})
    assert [h["event_name"] for h in cart] == ["Los Angeles Dodgers vs. San Francisco Giants"]
    fails(
        session,
        "reserve_tickets",
        {"event_id": HAMILTON, "offer_id": level(HAMILTON, "Balcony"), "quantity": 2},
        "Conflict",
        "already have tickets on hold for Los Angeles Dodgers",
    )
    released = ok(session, "release_hold", {"hold_id": cart[0]["hold_id"]})
    assert released["status"] == "released" and ok(session, "get_cart", {}) == []
    fails(session, "release_hold", {"hold_id": cart[0]["hold_id"]}, "Conflict", "already released")
    page = ok(session, "get_seat_availability", {"event_id": DODGERS, "section": "6TD"})
    assert set(cart[0]["seat_ids"]) <= {s["seat_id"] for s in page["results"]}
    reserve(session, HAMILTON, level(HAMILTON, "Balcony"), 2)
    sign_in(session, "maya.patel@gmail.com")
    fails(session, "release_hold", {"hold_id": cart[0]["hold_id"]}, "NotFound", "Hold")


def test_an_expired_hold_cannot_be_bought(session):
    sign_in(session, "sofia.ramirez@icloud.com")
    hold = reserve(session, HAMILTON, level(HAMILTON, "Mezzanine"), 2)
    session.clock.start += timedelta(minutes=11)
    assert ok(session, "get_cart", {}) == []
    fails(
        session,
        "purchase_tickets",
        {
            "hold_id": hold["hold_id"],
            "delivery_method": "mobile",
            "payment_method_id": card("sofia.ramirez@icloud.com", "Mastercard"),
        },
        "Conflict",
        "Your hold expired",
    )
    assert reserve(session, HAMILTON, level(HAMILTON, "Mezzanine"), 2)["seats"] == hold["seats"]


# ---------------------------------------------------------------- sale windows, limits and purchases


def test_ticket_limit_counts_earlier_purchases(session):
    sign_in(session, "derek.holt@outlook.com")
    fails(
        session,
        "reserve_tickets",
        {"event_id": CHAPPELL_SAT, "offer_id": level(CHAPPELL_SAT, "Price Level 3"), "quantity": 2},
        "Conflict",
        "There is a 4 ticket limit for this event and your account has already purchased 3",
    )
    hold = reserve(session, CHAPPELL_SAT, level(CHAPPELL_SAT, "Price Level 3"), 1)
    buy(session, hold, "derek.holt@outlook.com", "American Express")
    fails(
        session,
        "reserve_tickets",
        {"event_id": CHAPPELL_SAT, "offer_id": level(CHAPPELL_SAT, "Price Level 1"), "quantity": 1},
        "Conflict",
        "already purchased 4",
    )


def test_presale_needs_its_code_until_the_public_onsale(session):
    sign_in(session, "sofia.ramirez@icloud.com")
    args = {"event_id": NOAH, "offer_id": level(NOAH, "Terrace"), "quantity": 2}
    fails(session, "reserve_tickets", args, "PermissionDenied", "Artist Presale is running")
    fails(session, "reserve_tickets", {**args, "presale_code": "412800"}, "PermissionDenied", "isn't valid")
    hold = reserve(session, NOAH, level(NOAH, "Terrace"), 2, presale_code="stickseason")
    assert hold["seats"] == ["Sec J1 Row B Seat 1", "Sec J1 Row B Seat 2"]
    session.reset("seed", datetime(2025, 6, 13, 8, 0, tzinfo=timezone.utc))  # between presale and onsale
    sign_in(session, "sofia.ramirez@icloud.com")
    fails(
        session,
        "reserve_tickets",
        {**args, "presale_code": "STICKSEASON"},
        "Conflict",
        "The public onsale starts 2025-06-13T17:00:00Z",
    )
    session.reset("seed", datetime(2025, 6, 13, 17, 0, tzinfo=timezone.utc))
    sign_in(session, "sofia.ramirez@icloud.com")
    assert reserve(session, NOAH, level(NOAH, "Terrace"), 2)["status"] == "active"


def test_event_status_blocks_standard_sales(session):
    sign_in(session, "maya.patel@gmail.com")
    fails(
        session,
        "reserve_tickets",
        {"event_id": GLASS, "offer_id": level(GLASS, "Terrace"), "quantity": 1},
        "Conflict",
        "has been cancelled",
    )
    fails(
        session,
        "reserve_tickets",
        {"event_id": ZACH, "offer_id": level(ZACH, "Field"), "quantity": 1},
        "Conflict",
        "has been postponed",
    )
    fails(
        session,
        "reserve_tickets",
        {"event_id": SABRINA, "offer_id": level(SABRINA, "Upper Level"), "quantity": 1},
        "Conflict",
        "no longer on sale",
    )
    fails(
        session,
        "reserve_tickets",
        {"event_id": DUA, "offer_id": level(DUA, "Floor"), "quantity": 1},
        "Conflict",
        "already taken place",
    )


def test_purchase_books_order_tickets_and_seats(session):
    email = "jake.morrison@gmail.com"
    sign_in(session, email)
    hold = reserve(session, HAMILTON, level(HAMILTON, "Orchestra"), 2)
    result = buy(session, hold, email, "Visa", "standard_mail")
    assert (result["quantity"], result["subtotal"], result["ticket_fees"], result["order_processing_fee"]) == (
        2,
        2 * 22900,
        2 * (2400 + 400),
        450,
    )
    assert result["total"] == hold["estimated_total"] == 2 * (22900 + 2800) + 450
    assert result["payment"] == "Visa ending 5006" and result["status"] == "completed"
    assert [(t["seat"], t["status"], t["origin"]) for t in result["tickets"]] == [
        (s, "active", "purchase") for s in hold["seats"]
    ]
    state = session.dump()
    assert all(state["seats"][s]["status"] == "sold" for s in hold["seat_ids"])
    assert state["holds"][hold["hold_id"]]["status"] == "purchased"
    assert ok(session, "list_orders", {})["results"][0]["order_id"] == result["order_id"]
    fails(
        session,
        "purchase_tickets",
        {"hold_id": hold["hold_id"], "delivery_method": "mobile", "payment_method_id": card(email, "Visa")},
        "Conflict",
        "already purchased",
    )


def test_delivery_method_rules(session):
    email = "rob.hayes@bellsouth.net"
    sign_in(session, email)
    hold = reserve(session, ISBELL, level(ISBELL, "Balcony"), 4)
    fails(
        session,
        "purchase_tickets",
        {
            "hold_id": hold["hold_id"],
            "delivery_method": "standard_mail",
            "payment_method_id": card(email, "American Express"),
        },
        "InvalidRequest",
        "Standard Mail isn't available within 14 days",
    )
    assert buy(session, hold, email, "American Express", "will_call")["delivery_method"] == "will_call"
    sign_in(session, "maya.patel@gmail.com")
    hold = reserve(session, CHAPPELL_SAT, level(CHAPPELL_SAT, "Price Level 3"), 1)
    fails(
        session,
        "purchase_tickets",
        {
            "hold_id": hold["hold_id"],
            "delivery_method": "will_call",
            "payment_method_id": card("maya.patel@gmail.com", "Visa"),
        },
        "InvalidRequest",
        "Will Call isn't available for these tickets. Options: Mobile Entry",
    )


def test_expired_or_foreign_cards_are_refused(session):
    email = "grace.liu@gmail.com"
    sign_in(session, email)
    hold = reserve(session, TYLER, level(TYLER, "Reserved Rows 1-10"), 2)
    fails(
        session,
        "purchase_tickets",
        {"hold_id": hold["hold_id"], "delivery_method": "will_call", "payment_method_id": card(email, "Visa")},
        "InvalidRequest",
        "Your Visa ending 4821 expired 05/2025",
    )
    fails(
        session,
        "purchase_tickets",
        {
            "hold_id": hold["hold_id"],
            "delivery_method": "will_call",
            "payment_method_id": card("maya.patel@gmail.com", "Visa"),
        },
        "NotFound",
        "Payment method",
    )
    assert buy(session, hold, email, "Mastercard", "will_call")["payment"] == "Mastercard ending 6405"


# ---------------------------------------------------------------- Verified Resale


def test_buying_a_resale_listing_whole(session):
    email = "emily.nguyen@gmail.com"
    pair = next(x for x in SEED["listings"] if x["event_id"] == SABRINA and x["price_per_ticket"] == 18500)
    sign_in(session, email)
    fails(
        session,
        "reserve_tickets",
        {"event_id": SABRINA, "offer_id": pair["id"], "quantity": 1},
        "InvalidRequest",
        "sold as a set of 2",
    )
    hold = reserve(session, SABRINA, pair["id"], 2)
    assert (hold["offer_type"], hold["unit_fees"], hold["delivery_methods"]) == ("resale", 2775, ["mobile"])
    fails(
        session,
        "purchase_tickets",
        {"hold_id": hold["hold_id"], "delivery_method": "will_call", "payment_method_id": card(email, "Visa")},
        "InvalidRequest",
        "Options: Mobile",
    )
    result = buy(session, hold, email)
    assert result["total"] == 2 * (18500 + 2775) + 650 and result["offer_type"] == "resale"
    assert [(t["origin"], t["face_value"]) for t in result["tickets"]] == [("resale", 6950)] * 2
    state = session.dump()
    assert state["listings"][pair["id"]]["status"] == "sold"
    assert [state["tickets"][t]["status"] for t in pair["ticket_ids"]] == ["resold", "resold"]
    fails(
        session,
        "reserve_tickets",
        {"event_id": SABRINA, "offer_id": pair["id"], "quantity": 2},
        "Conflict",
        "no longer available",
    )


def test_a_listing_in_someone_elses_cart_is_hidden(session):
    pair = next(x for x in SEED["listings"] if x["event_id"] == SABRINA and x["price_per_ticket"] == 18500)
    sign_in(session, "emily.nguyen@gmail.com")
    reserve(session, SABRINA, pair["id"], 2)
    sign_in(session, "kevin.obrien@gmail.com")
    offers = ok(session, "get_event_offers", {"event_id": SABRINA})["offers"]
    assert pair["id"] not in {o["offer_id"] for o in offers}
    fails(
        session,
        "reserve_tickets",
        {"event_id": SABRINA, "offer_id": pair["id"], "quantity": 2},
        "Conflict",
        "another fan's cart",
    )
    sign_in(session, "ava.martinez@gmail.com")
    fails(session, "cancel_resale_listing", {"listing_id": pair["id"]}, "Conflict", "checking out")


def test_own_listing_cannot_be_bought(session):
    sign_in(session, "tom.alvarez@gmail.com")
    own = listing("tom.alvarez@gmail.com", TYLER)
    fails(
        session,
        "reserve_tickets",
        {"event_id": TYLER, "offer_id": own["id"], "quantity": 2},
        "InvalidRequest",
        "your own resale listing",
    )


def test_resale_price_cap_and_payout(session):
    email = "lauren.wu@gmail.com"
    ids = tickets(order(email, CHAPPELL_SUN)["id"])
    sign_in(session, email)
    fails(
        session,
        "create_resale_listing",
        {"ticket_ids": ids, "price_per_ticket": 20000},
        "InvalidRequest",
        "caps resale at 100% of face value: at most $139.50",
    )
    fails(
        session,
        "create_resale_listing",
        {"ticket_ids": ids, "price_per_ticket": 499},
        "invalid_arguments",
        "lowest resale price is $5.00",
    )
    created = ok(session, "create_resale_listing", {"ticket_ids": ids, "price_per_ticket": 13950})
    assert (created["buyer_fee_per_ticket"], created["seller_fee_per_ticket"]) == (2093, 1395)
    assert (created["payout_per_ticket"], created["total_payout"]) == (12555, 25110)
    assert {session.dump()["tickets"][t]["status"] for t in ids} == {"listed"}
    fails(
        session,
        "create_resale_listing",
        {"ticket_ids": ids, "price_per_ticket": 9000},
        "Conflict",
        "listed on Verified Resale",
    )
    fails(
        session,
        "transfer_tickets",
        {
            "ticket_ids": ids[:1],
            "recipient_first_name": "A",
            "recipient_last_name": "B",
            "recipient_email": "a.b@gmail.com",
        },
        "Conflict",
        "cancel the listing first",
    )


def test_update_and_cancel_a_listing(session):
    email = "tom.alvarez@gmail.com"
    hozier = listing(email, HOZIER)
    sign_in(session, email)
    fails(
        session,
        "update_resale_listing",
        {"listing_id": hozier["id"], "price_per_ticket": 12000},
        "InvalidRequest",
        "150% of face value: at most $119.25",
    )
    updated = ok(session, "update_resale_listing", {"listing_id": hozier["id"], "price_per_ticket": 11900})
    assert (updated["price_per_ticket"], updated["buyer_fee_per_ticket"], updated["payout_per_ticket"]) == (
        11900,
        1785,
        10710,
    )
    cancelled = ok(session, "cancel_resale_listing", {"listing_id": hozier["id"]})
    assert cancelled["status"] == "cancelled"
    assert {session.dump()["tickets"][t]["status"] for t in hozier["ticket_ids"]} == {"active"}
    fails(
        session,
        "update_resale_listing",
        {"listing_id": hozier["id"], "price_per_ticket": 9000},
        "Conflict",
        "is cancelled",
    )
    fails(
        session,
        "cancel_resale_listing",
        {"listing_id": listing("rachel.kim@gmail.com", ZACH)["id"]},
        "NotFound",
        "Listing",
    )
    assert [x["status"] for x in ok(session, "list_resale_listings", {})] == ["cancelled", "active"]


def test_resale_is_closed_for_some_events(session):
    sign_in(session, "olivia.brooks@icloud.com")
    ids = tickets(order("olivia.brooks@icloud.com", OLIVIA)["id"])
    fails(
        session,
        "create_resale_listing",
        {"ticket_ids": ids, "price_per_ticket": 10000},
        "PermissionDenied",
        "Verified Resale isn't available",
    )
    sign_in(session, "rachel.kim@gmail.com")
    zach = listing("rachel.kim@gmail.com", ZACH)
    fails(
        session,
        "update_resale_listing",
        {"listing_id": zach["id"], "price_per_ticket": 15000},
        "Conflict",
        "event has been postponed",
    )
    sign_in(session, "rob.hayes@bellsouth.net")
    will_call = tickets(order("rob.hayes@bellsouth.net", ISBELL)["id"])
    fails(
        session,
        "create_resale_listing",
        {"ticket_ids": will_call, "price_per_ticket": 9000},
        "Conflict",
        "Will Call tickets can't be resold",
    )


# ---------------------------------------------------------------- Ticket Transfer


def test_transfer_then_cancel(session):
    email = "marcus.bell@gmail.com"
    ids = tickets(order(email, DODGERS)["id"])[2:]
    sign_in(session, email)
    sent = ok(
        session,
        "transfer_tickets",
        {
            "ticket_ids": ids,
            "recipient_first_name": "Kevin",
            "recipient_last_name": "Tran",
            "recipient_email": "Kevin.Tran88@gmail.com",
            "message": "Enjoy the game, bud!",
        },
    )
    assert (sent["status"], sent["recipient_email"], sent["seats"]) == (
        "pending",
        "kevin.tran88@gmail.com",
        ["Sec 148LG Row B Seat 3", "Sec 148LG Row B Seat 4"],
    )
    mine = ok(session, "get_order", {"order_id": order(email, DODGERS)["id"]})["tickets"]
    assert [(t["status"], t["transfer_id"]) for t in mine] == [("active", None)] * 2 + [
        ("transfer_pending", sent["transfer_id"])
    ] * 2
    assert (
        ok(session, "list_transfers", {"direction": "sent", "status": "pending"})[0]["transfer_id"]
        == sent["transfer_id"]
    )
    back = ok(session, "cancel_transfer", {"transfer_id": sent["transfer_id"]})
    assert back["status"] == "cancelled"
    assert {session.dump()["tickets"][t]["status"] for t in ids} == {"active"}
    fails(session, "cancel_transfer", {"transfer_id": sent["transfer_id"]}, "Conflict", "already cancelled")


def test_transfer_rules(session):
    sign_in(session, "marcus.bell@gmail.com")
    ids = tickets(order("marcus.bell@gmail.com", DODGERS)["id"])
    base = {"recipient_first_name": "Kevin", "recipient_last_name": "Tran", "recipient_email": "kevin@gmail.com"}
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": ids, "recipient_email": "marcus.bell@gmail.com"},
        "InvalidRequest",
        "your own account",
    )
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": ids, "recipient_email": "kevin at gmail"},
        "invalid_arguments",
        "recipient_email: Enter a valid email address",
    )
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": ids, "recipient_last_name": " "},
        "invalid_arguments",
        "recipient_last_name: Enter the recipient's first and last name",
    )
    past = tickets(order("marcus.bell@gmail.com", event("Yankees", "2025-05-31"))["id"])
    fails(session, "transfer_tickets", {**base, "ticket_ids": ids[:1] + past[:1]}, "InvalidRequest", "same event")
    fails(session, "transfer_tickets", {**base, "ticket_ids": past}, "Conflict", "already been scanned")
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": tickets(order("maya.patel@gmail.com", DUA)["id"])},
        "NotFound",
        "not found in your account",
    )
    sign_in(session, "hannah.lee@gmail.com")
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": tickets(order("hannah.lee@gmail.com", KHRUANGBIN)["id"])},
        "PermissionDenied",
        "closes 24 hours before the show",
    )
    sign_in(session, "olivia.brooks@icloud.com")
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": tickets(order("olivia.brooks@icloud.com", OLIVIA)["id"])},
        "PermissionDenied",
        "Ticket Transfer isn't available",
    )
    sign_in(session, "omar.haddad@yahoo.com")
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": tickets(order("omar.haddad@yahoo.com", GLASS)["id"])},
        "Conflict",
        "cancelled",
    )
    sign_in(session, "rob.hayes@bellsouth.net")
    fails(
        session,
        "transfer_tickets",
        {**base, "ticket_ids": tickets(order("rob.hayes@bellsouth.net", ISBELL)["id"])},
        "Conflict",
        "Will Call tickets can't be transferred",
    )


def test_the_recipient_accepts_a_transfer(session):
    offer = next(x for x in SEED["transfers"] if x["recipient_email"] == "chris.jordan@gmail.com")
    assert not session.call("accept_transfer", {"transfer_id": offer["id"]}).ok  # user only
    sign_in(session, "maya.patel@gmail.com")
    fails(
        session,
        "accept_transfer",
        {"transfer_id": offer["id"]},
        "PermissionDenied",
        "sent to chris.jordan@gmail.com",
        caller="user",
    )
    sign_in(session, "chris.jordan@gmail.com")
    assert ok(session, "list_transfers", {"direction": "received"})[0]["sender_name"] == "Alex Romero"
    accepted = ok(session, "accept_transfer", {"transfer_id": offer["id"]}, caller="user")
    assert accepted["status"] == "accepted" and len(accepted["accepted_ticket_ids"]) == 2
    state = session.dump()
    assert [state["tickets"][t]["status"] for t in offer["ticket_ids"]] == ["transferred", "transferred"]
    mine = ok(session, "list_my_tickets", {"event_id": DODGERS})
    assert [(t["origin"], t["order_id"], t["seat"]) for t in mine] == [
        ("transfer", None, "Sec 26FD Row A Seat 3"),
        ("transfer", None, "Sec 26FD Row A Seat 4"),
    ]
    fails(session, "accept_transfer", {"transfer_id": offer["id"]}, "Conflict", "already accepted", caller="user")
    sent = ok(
        session,
        "transfer_tickets",
        {
            "ticket_ids": [mine[1]["ticket_id"]],
            "recipient_first_name": "Sam",
            "recipient_last_name": "Jordan",
            "recipient_email": "sam.jordan@outlook.com",
        },
    )
    assert sent["seats"] == ["Sec 26FD Row A Seat 4"]


# ---------------------------------------------------------------- refunds


def test_refunds_only_for_cancelled_postponed_or_rescheduled_events(session):
    sign_in(session, "sam.wilson@gmail.com")
    fails(
        session,
        "request_refund",
        {"order_id": order("sam.wilson@gmail.com", DODGERS)["id"]},
        "Conflict",
        "All sales are final",
    )
    sign_in(session, "priyanka.desai@gmail.com")
    fails(
        session,
        "request_refund",
        {"order_id": order("priyanka.desai@gmail.com", WALLOWS)["id"]},
        "Conflict",
        "refund window for this postponed event closed on 2025-06-10",
    )
    fails(
        session,
        "request_refund",
        {"order_id": order("sam.wilson@gmail.com", DODGERS)["id"]},
        "NotFound",
        "not found in your account",
    )


def test_postponed_refund_keeps_the_order_fee_and_needs_the_listing_down(session):
    email = "rachel.kim@gmail.com"
    placed = order(email, ZACH)
    sign_in(session, email)
    fails(session, "request_refund", {"order_id": placed["id"]}, "Conflict", "in a resale listing; cancel it")
    ok(session, "cancel_resale_listing", {"listing_id": listing(email, ZACH)["id"]})
    refunded = ok(session, "request_refund", {"order_id": placed["id"]})
    assert (refunded["status"], refunded["refund_amount"]) == ("refunded", placed["total"] - 700)
    state = session.dump()
    assert {t["status"] for t in refunded["tickets"]} == {"refunded"}
    assert {state["seats"][t["seat_id"]]["status"] for t in SEED["tickets"] if t["order_id"] == placed["id"]} == {
        "open"
    }
    fails(session, "request_refund", {"order_id": placed["id"]}, "Conflict", "already refunded")


def test_cancelled_refund_covers_transferred_tickets_and_fees(session):
    email = "laura.chen@gmail.com"
    placed = order(email, GLASS)
    sign_in(session, email)
    refunded = ok(session, "request_refund", {"order_id": placed["id"]})
    assert refunded["refund_amount"] == placed["total"] == 4 * (6450 + 1650) + 500
    state = session.dump()
    mia = [
        t
        for t in state["tickets"].values()
        if t["account_id"] == account("mia.lopez@gmail.com") and t["event_id"] == GLASS
    ]
    assert len(mia) == 2 and {t["status"] for t in mia} == {"refunded"}


def test_rescheduled_event_refund_before_deadline(session):
    email = "ben.carter@protonmail.com"
    sign_in(session, email)
    placed = order(email, event("Mulaney", "2025-09-20"))
    assert ok(session, "request_refund", {"order_id": placed["id"]})["refund_amount"] == placed["total"] - 425
    session.reset("seed", datetime(2025, 7, 1, 17, 0, tzinfo=timezone.utc))
    sign_in(session, email)
    fails(session, "request_refund", {"order_id": placed["id"]}, "Conflict", "closed on 2025-06-30")


# ---------------------------------------------------------------- entry and history


def test_mobile_tickets_scan_on_show_day_only(session):
    email = "aisha.khan@outlook.com"
    mine = tickets(order(email, VAMPIRE)["id"])
    sign_in(session, email)
    fails(session, "present_mobile_ticket", {"ticket_id": mine[0]}, "Conflict", "Entry opens 4 hours", caller="user")
    session.reset("seed", datetime(2025, 6, 13, 2, 30, tzinfo=timezone.utc))
    sign_in(session, email)
    assert not session.call("present_mobile_ticket", {"ticket_id": mine[0]}).ok  # the agent can't
    assert ok(session, "present_mobile_ticket", {"ticket_id": mine[0]}, caller="user")["status"] == "scanned"
    fails(session, "present_mobile_ticket", {"ticket_id": mine[0]}, "Conflict", "status is scanned", caller="user")
    fails(session, "present_mobile_ticket", {"ticket_id": mine[1]}, "Conflict", "status is listed", caller="user")
    sign_in(session, "rob.hayes@bellsouth.net")
    fails(
        session,
        "present_mobile_ticket",
        {"ticket_id": tickets(order("rob.hayes@bellsouth.net", ISBELL)["id"])[0]},
        "InvalidRequest",
        "Only Mobile Entry",
        caller="user",
    )


def test_order_history_pages_and_filters(session):
    sign_in(session, "kevin.obrien@gmail.com")
    first = ok(session, "list_orders", {})
    assert len(first["results"]) == 10 and first["has_more"]
    rest = ok(session, "list_orders", {"cursor": first["next_cursor"]})
    history = first["results"] + rest["results"]
    assert len(history) == 12 and not rest["has_more"]
    created = [o["created"] for o in history]
    assert created == sorted(created, reverse=True)
    assert [o["event_name"] for o in ok(session, "list_orders", {"status": "refunded"})["results"]] == [
        "Glass Animals: Tour of Earth"
    ]
    upcoming = ok(session, "list_orders", {"upcoming_only": True, "size": 50})["results"]
    assert {o["event_name"] for o in upcoming} >= {"Mt. Joy", "Tyler Childers: Send In The Hounds Tour"}
    assert not {"Dua Lipa: Radical Optimism Tour", "Wallows: Model Tour"} & {o["event_name"] for o in upcoming}
    fails(session, "list_orders", {"size": 0}, "invalid_arguments", "size")
    fails(session, "get_order", {"order_id": order("maya.patel@gmail.com", DUA)["id"]}, "NotFound", "Order")
