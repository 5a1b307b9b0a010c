"""The Booking.com environment's tools: search and availability from the calendar, occupancy and minimum stays,
Genius prices, orders (book, change dates or guests, cancel with free-cancellation deadlines and fees), wish lists
and reviews after completed stays, with every error path leaving the state unchanged. Runs the real tools on the
real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("booking")
CLOCK = datetime(2025, 6, 12, 8, 0, tzinfo=timezone.utc)  # Thursday; 10:00 in Amsterdam, 09:00 in Lisbon
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def booker(first: str, last: str) -> dict[str, Any]:
    return next(b for b in SEED["bookers"] if (b["first_name"], b["last_name"]) == (first, last))


def acc(name: str) -> int:
    return next(a["id"] for a in SEED["accommodations"] if a["name"] == name)


def city(name: str) -> int:
    return next(c["id"] for c in SEED["cities"] if c["name"] == name)


def room(accommodation: str, name: str) -> int:
    return next(r["id"] for r in SEED["rooms"] if r["accommodation_id"] == acc(accommodation) and r["name"] == name)


def product(accommodation: str, room_name: str, rate: str) -> str:
    return next(
        p["id"] for p in SEED["products"] if p["room_id"] == room(accommodation, room_name) and p["name"] == rate
    )


def order(first: str, last: str, accommodation: str, status: str) -> dict[str, Any]:
    found = [
        o
        for o in SEED["orders"]
        if o["booker_id"] == booker(first, last)["id"]
        and o["accommodation_id"] == acc(accommodation)
        and o["status"] == status
    ]
    assert len(found) == 1
    return found[0]


def wish_list(first: str, last: str, name: str) -> str:
    return next(
        w["id"] for w in SEED["wish_lists"] if w["booker_id"] == booker(first, last)["id"] and w["name"] == name
    )


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, first: str, last: str) -> None:
    ok(session, "sign_in", {"email": booker(first, last)["email"]}, caller="user")


def units(session: ToolSession, accommodation: str, room_name: str, night: str) -> int:
    return session.dump()["availability"][f"{room(accommodation, room_name)}:{night}"]["units_available"]


def stay(accommodation: str, checkin: str, checkout: str, adults: int = 2, **more: Any) -> dict[str, Any]:
    return {
        "accommodation_id": acc(accommodation),
        "checkin": checkin,
        "checkout": checkout,
        "number_of_adults": adults,
        **more,
    }


def offer(result: dict[str, Any], room_name: str, rate: str) -> dict[str, Any]:
    return next(p for p in result["products"] if p["room_name"] == room_name and p["rate_name"] == rate)


# ---------------------------------------------------------------- interface and sign-in


def test_tools_and_the_sign_in_is_the_travellers_own(session):
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in"]
    assert SPEC.tools["get_genius_status"].input_schema["properties"] == {}
    assert SPEC.tools["list_wish_lists"].input_schema["properties"] == {}
    outcome = session.call("sign_in", {"email": booker("Emma", "Lindqvist")["email"]})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert "sessions" not in session.dump() or not session.dump()["sessions"]


def test_account_tools_need_a_signed_in_traveller(session):
    fails(session, "list_orders", {}, "PermissionDenied", "Sign in")
    fails(session, "get_genius_status", {}, "PermissionDenied", "Sign in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "No Booking.com account", caller="user")
    me = ok(session, "sign_in", {"email": "  EMMA.Lindqvist@telia.se "}, caller="user")
    assert (me["first_name"], me["genius_level"]) == ("Emma", 2)
    assert ok(session, "get_genius_status", {})["level"] == 2


# ---------------------------------------------------------------- locations, search, details, reviews


def test_cities_and_the_property_list(session):
    assert [c["name"] for c in ok(session, "list_cities", {"query": "lis"})] == ["Lisbon"]
    assert len(ok(session, "list_cities", {})) == 6
    page = ok(session, "list_accommodations", {"city_id": city("Barcelona"), "query": "gothic"})
    assert [a["name"] for a in page["results"]] == ["Gothic Quarter Boutique Hotel"]
    hostels = ok(session, "list_accommodations", {"city_id": city("Lisbon"), "accommodation_types": ["hostel"]})
    assert [a["name"] for a in hostels["results"]] == ["Bairro Alto Backpackers"]
    fails(session, "list_accommodations", {"city_id": 123}, "NotFound", "City")
    fails(session, "list_accommodations", {"city_id": city("Rome"), "page_size": 0}, "invalid_arguments", "page_size")


def test_search_leaves_out_adults_only_properties_for_children(session):
    args = {"city_id": city("Barcelona"), "checkin": "2025-07-07", "checkout": "2025-07-10", "number_of_adults": 2}
    grown_ups = {r["name"] for r in ok(session, "search_accommodations", args)["results"]}
    with_kids = {r["name"] for r in ok(session, "search_accommodations", {**args, "children_ages": [4]})["results"]}
    assert "Gothic Quarter Boutique Hotel" in grown_ups - with_kids
    details = ok(session, "get_accommodation_details", {"accommodation_id": acc("Gothic Quarter Boutique Hotel")})
    assert details["children_allowed"] is False


def test_search_filters_sorting_and_pagination(session):
    args = {
        "city_id": city("Paris"),
        "checkin": "2025-06-23",
        "checkout": "2025-06-25",
        "number_of_adults": 2,
        "sort_by": "price",
        "page_size": 2,
    }
    first = ok(session, "search_accommodations", args)
    assert first["has_more"] and len(first["results"]) == 2
    rest = ok(session, "search_accommodations", {**args, "cursor": first["next_cursor"]})
    results = first["results"] + rest["results"]
    totals = [r["cheapest_product"]["price"]["total"] for r in results]
    assert totals == sorted(totals) and len({r["id"] for r in results}) == len(results) == 4
    refundable = ok(session, "search_accommodations", {**args, "page_size": 10, "free_cancellation": True})
    assert all(r["cheapest_product"]["cancellation"]["type"] == "free_cancellation" for r in refundable["results"])
    cheap = ok(session, "search_accommodations", {**args, "page_size": 10, "max_price": 300})
    assert all(r["cheapest_product"]["price"]["total"] <= 300 for r in cheap["results"])
    assert len(cheap["results"]) < 4


def test_search_and_stay_validation(session):
    base = {"city_id": city("Rome"), "number_of_adults": 2}
    fails(
        session,
        "search_accommodations",
        {**base, "checkin": "2025-07-05", "checkout": "2025-07-05"},
        "InvalidRequest",
        "after checkin",
    )
    fails(
        session,
        "search_accommodations",
        {**base, "checkin": "2025-06-01", "checkout": "2025-07-05"},
        "InvalidRequest",
        "at most 30 nights",
    )
    fails(
        session,
        "search_accommodations",
        {**base, "checkin": "2025-06-10", "checkout": "2025-06-13"},
        "InvalidRequest",
        "in the past",
    )
    fails(
        session,
        "search_accommodations",
        {**base, "checkin": "5 July", "checkout": "2025-07-08"},
        "invalid_arguments",
        "date like",
    )
    fails(
        session,
        "search_accommodations",
        {**base, "checkin": "2025-07-05", "checkout": "2025-07-08", "number_of_rooms": 3},
        "InvalidRequest",
        "at least one adult",
    )
    fails(
        session,
        "get_availability",
        stay("Hotel Trastevere Luce", "2025-07-05", "2025-07-08", children_ages=[18]),
        "invalid_arguments",
        "0 to 17",
    )


def test_details_and_reviews(session):
    details = ok(session, "get_accommodation_details", {"accommodation_id": acc("Hôtel Le Marais Saint-Paul")})
    assert (details["checkin_from"], details["checkout_until"], details["city"]) == ("15:00", "11:00", "Paris")
    assert details["genius"] == {"discounts": {"1": 10, "2": 15, "3": 20}, "free_breakfast": True}
    seeded = [r for r in SEED["reviews"] if r["accommodation_id"] == acc("Hôtel Le Marais Saint-Paul")]
    assert details["review_count"] == len(seeded)
    assert details["review_score"] == round(sum(r["score"] for r in seeded) / len(seeded), 1)
    assert {p["name"] for r in details["rooms"] for p in r["rate_plans"]} == {
        "Standard rate",
        "Non-refundable",
        "Breakfast included",
    }
    page = ok(
        session, "get_accommodation_reviews", {"accommodation_id": acc("Hôtel Le Marais Saint-Paul"), "page_size": 3}
    )
    dates = [r["date"] for r in page["results"]]
    assert dates == sorted(dates, reverse=True) and page["has_more"]
    families = ok(
        session,
        "get_accommodation_reviews",
        {"accommodation_id": acc("Hôtel Le Marais Saint-Paul"), "traveller_type": "family", "sort_by": "lowest_score"},
    )
    assert all(r["traveller_type"] == "family" for r in families["results"])
    scores = [r["score"] for r in families["results"]]
    assert scores == sorted(scores)
    fails(session, "get_accommodation_details", {"accommodation_id": 42}, "NotFound", "Accommodation 42")


# ---------------------------------------------------------------- availability, Genius, calendar


def test_genius_prices_follow_the_travellers_level(session):
    args = stay("Alfama Heritage Guest House", "2025-06-27", "2025-06-29")
    signed_out = offer(ok(session, "get_availability", args), "Double Room with Private Bathroom", "Standard rate")
    assert signed_out["price"]["genius_discount"] == 0 and signed_out["meal_plan"] == "room_only"
    sign_in(session, "Emma", "Lindqvist")  # level 2: 15% here, and free breakfast on room-only rates
    result = ok(session, "get_availability", args)
    assert result["genius_level"] == 2
    level_two = offer(result, "Double Room with Private Bathroom", "Standard rate")
    assert level_two["price"]["base"] == signed_out["price"]["base"]
    assert level_two["price"]["total"] == round(signed_out["price"]["base"] * 0.85, 2)
    assert level_two["meal_plan"] == "breakfast_included"
    assert level_two["genius_benefits"] == ["15% Genius discount", "Free breakfast (Genius)"]
    sign_in(session, "Marco", "Bianchi")  # level 1: 10%, no breakfast
    level_one = offer(ok(session, "get_availability", args), "Double Room with Private Bathroom", "Standard rate")
    assert level_one["price"]["total"] == round(signed_out["price"]["base"] * 0.9, 2)
    assert level_one["meal_plan"] == "room_only"
    apartments = ok(session, "get_availability", stay("Oosterpark Family Apartments", "2025-07-01", "2025-07-04"))
    assert all(p["price"]["genius_discount"] == 0 for p in apartments["products"])  # not a Genius partner


def test_availability_explains_sold_out_rooms_occupancy_and_minimum_stays(session):
    result = ok(session, "get_availability", stay("Hotel Noord Pier", "2025-06-20", "2025-06-22"))
    assert {p["room_name"] for p in result["products"]} == {"Twin Room"}
    assert "Standard Double Room: sold out on the night of 2025-06-21" in result["unavailable"]
    big = ok(session, "get_availability", stay("Hotel Noord Pier", "2025-06-23", "2025-06-25", adults=3))
    assert {p["room_name"] for p in big["products"]} <= {"Family Room"}
    assert any("sleeps 2 adults" in note for note in big["unavailable"])
    short = ok(session, "get_availability", stay("Barceloneta Beach Apartments", "2025-07-14", "2025-07-15"))
    assert short["products"] == []
    assert any("minimum stay of 2 nights" in note for note in short["unavailable"])
    fails(
        session,
        "create_order",
        {
            **stay("Barceloneta Beach Apartments", "2025-07-14", "2025-07-15"),
            "product_id": product("Barceloneta Beach Apartments", "One-Bedroom Apartment", "Standard rate"),
        },
        "PermissionDenied",
        "Sign in",
    )


def test_calendar_lists_each_room_and_limits_the_range(session):
    calendar = ok(
        session,
        "get_availability_calendar",
        {"accommodation_id": acc("Hotel Noord Pier"), "start_date": "2025-06-20", "end_date": "2025-06-22"},
    )
    assert [c["room_name"] for c in calendar] == ["Standard Double Room", "Twin Room", "Family Room"]
    double = calendar[0]["days"]
    assert [d["date"] for d in double] == ["2025-06-20", "2025-06-21", "2025-06-22"]
    assert double[1]["units_available"] == 0
    fails(
        session,
        "get_availability_calendar",
        {"accommodation_id": acc("Hotel Noord Pier"), "start_date": "2025-06-01", "end_date": "2025-07-10"},
        "InvalidRequest",
        "at most 30 nights after it",
    )
    month = ok(
        session, "get_availability_calendar", {"accommodation_id": acc("Hotel Noord Pier"), "start_date": "2025-07-01"}
    )
    assert [len(c["days"]) for c in month] == [31, 31, 31]


# ---------------------------------------------------------------- booking


def test_booking_takes_rooms_from_the_calendar(session):
    sign_in(session, "Emma", "Lindqvist")
    args = stay("Alfama Heritage Guest House", "2025-06-27", "2025-06-29")
    quoted = offer(ok(session, "get_availability", args), "Double Room with Private Bathroom", "Standard rate")
    before = [
        units(session, "Alfama Heritage Guest House", "Double Room with Private Bathroom", n)
        for n in ("2025-06-27", "2025-06-28")
    ]
    created = ok(
        session, "create_order", {**args, "product_id": quoted["product_id"], "special_requests": " Quiet room please "}
    )
    assert (created["status"], created["payment_timing"], created["meal_plan"]) == (
        "booked",
        "pay_at_the_property",
        "breakfast_included",
    )
    assert created["price"] == quoted["price"] and created["nights"] == 2
    assert created["guest_name"] == "Emma Lindqvist" and created["special_requests"] == "Quiet room please"
    assert len(created["pin_code"]) == 4 and created["fee_if_cancelled_now"] == 0
    assert created["cancellation"]["free_cancellation_until"] == "2025-06-25T23:59:00+01:00"
    after = [
        units(session, "Alfama Heritage Guest House", "Double Room with Private Bathroom", n)
        for n in ("2025-06-27", "2025-06-28")
    ]
    assert after == [u - 1 for u in before]
    assert ok(session, "get_order", {"order_id": created["order_id"]})["order_id"] == created["order_id"]


def test_booking_rules(session):
    sign_in(session, "Chidi", "Okafor")
    family = stay("Gothic Quarter Boutique Hotel", "2025-07-07", "2025-07-10", children_ages=[6, 9])
    double = product("Gothic Quarter Boutique Hotel", "Standard Double Room", "Standard rate")
    fails(session, "create_order", {**family, "product_id": double}, "Conflict", "adults only")
    fails(
        session,
        "create_order",
        {
            **stay("Hotel Noord Pier", "2025-07-07", "2025-07-10", adults=3),
            "product_id": product("Hotel Noord Pier", "Twin Room", "Standard rate"),
        },
        "Conflict",
        "book more rooms",
    )
    fails(
        session,
        "create_order",
        {**stay("Hotel Noord Pier", "2025-07-07", "2025-07-10"), "product_id": double},
        "NotFound",
        "not offered by Hotel Noord Pier",
    )
    hostel = stay("Hostel Jordaan Lofts", "2025-06-16", "2025-06-19", adults=1)
    bed = product("Hostel Jordaan Lofts", "Bed in 6-Bed Mixed Dormitory", "Standard rate")
    fails(
        session,
        "create_order",
        {**hostel, "product_id": bed, "estimated_arrival_time": "23:30"},
        "Conflict",
        "from 14:00 to 22:00",
    )
    fails(
        session,
        "create_order",
        {**hostel, "product_id": bed, "guest_name": "Chidi"},
        "invalid_arguments",
        "first and last name",
    )
    fails(
        session,
        "create_order",
        {
            **stay("Hotel Noord Pier", "2025-06-20", "2025-06-22"),
            "product_id": product("Hotel Noord Pier", "Standard Double Room", "Standard rate"),
        },
        "Conflict",
        "sold out on the night of 2025-06-21",
    )


def test_non_refundable_rates_need_a_valid_saved_card(session):
    args = stay("Hotel Avenida Liberdade Palace", "2025-06-20", "2025-06-22", adults=1)
    prepaid = product("Hotel Avenida Liberdade Palace", "Standard Double Room", "Non-refundable")
    sign_in(session, "Olivia", "Brown")
    fails(session, "create_order", {**args, "product_id": prepaid}, "Conflict", "expired in 03/2025")
    sign_in(session, "Noah", "Williams")
    fails(session, "create_order", {**args, "product_id": prepaid}, "Conflict", "add a payment card")
    pay_later = ok(
        session,
        "create_order",
        {**args, "product_id": product("Hotel Avenida Liberdade Palace", "Standard Double Room", "Standard rate")},
    )
    assert pay_later["payment_timing"] == "pay_at_the_property"
    sign_in(session, "Chloé", "Dubois")
    charged = ok(session, "create_order", {**args, "product_id": prepaid})
    assert charged["payment_timing"] == "pay_online_now"
    assert charged["cancellation"]["free_cancellation_until"] is None
    assert charged["fee_if_cancelled_now"] == charged["price"]["total"]


def test_the_same_property_cannot_be_booked_twice_for_overlapping_dates(session):
    sign_in(session, "Marco", "Bianchi")
    twin = product("Hotel Trastevere Luce", "Twin Room", "Standard rate")
    booked = order("Marco", "Bianchi", "Hotel Trastevere Luce", "booked")
    fails(
        session,
        "create_order",
        {**stay("Hotel Trastevere Luce", "2025-06-15", "2025-06-17"), "product_id": twin},
        "Conflict",
        f"confirmation {booked['id']}",
    )
    after = ok(
        session, "create_order", {**stay("Hotel Trastevere Luce", "2025-06-16", "2025-06-18"), "product_id": twin}
    )  # checking in the day the other stay checks out
    assert after["checkin"] == booked["checkout"]


# ---------------------------------------------------------------- orders


def test_orders_list_filters_pages_and_stays_private(session):
    sign_in(session, "Thomas", "Müller")
    mine = [o for o in SEED["orders"] if o["booker_id"] == booker("Thomas", "Müller")["id"]]
    first = ok(session, "list_orders", {"page_size": 5})
    assert len(first["results"]) == 5 and first["has_more"]
    checkins = [o["checkin"] for o in first["results"]]
    assert checkins == sorted(checkins, reverse=True)
    stayed = ok(session, "list_orders", {"status": "stayed", "page_size": 50})["results"]
    assert len(stayed) == sum(o["status"] == "stayed" for o in mine) and all(o["status"] == "stayed" for o in stayed)
    other = order("Marco", "Bianchi", "Hotel Trastevere Luce", "booked")
    fails(session, "get_order", {"order_id": other["id"]}, "NotFound", "No booking with confirmation number")
    fails(session, "cancel_order", {"order_id": other["id"]}, "NotFound", "No booking")


def test_free_cancellation_before_the_deadline_gives_the_rooms_back(session):
    sign_in(session, "Sophie", "Martin")
    booked = order("Sophie", "Martin", "Montmartre Artist Apartments", "booked")
    nights = [n["date"] for n in booked["nightly_prices"]]
    before = [units(session, "Montmartre Artist Apartments", "One-Bedroom Apartment", n) for n in nights]
    cancelled = ok(session, "cancel_order", {"order_id": booked["id"]})
    assert (cancelled["status"], cancelled["cancellation_fee"], cancelled["cancellation_reason"]) == (
        "cancelled_by_guest",
        0,
        None,
    )
    assert cancelled["fee_if_cancelled_now"] is None
    assert [units(session, "Montmartre Artist Apartments", "One-Bedroom Apartment", n) for n in nights] == [
        u + 1 for u in before
    ]
    fails(session, "cancel_order", {"order_id": booked["id"]}, "Conflict", "cancelled by guest")


def test_a_late_cancellation_costs_the_first_night_and_needs_acceptance(session):
    sign_in(session, "Marco", "Bianchi")
    booked = order("Marco", "Bianchi", "Hotel Trastevere Luce", "booked")
    first_night = booked["nightly_prices"][0]["price"]
    assert ok(session, "get_order", {"order_id": booked["id"]})["fee_if_cancelled_now"] == first_night
    fails(
        session, "cancel_order", {"order_id": booked["id"]}, "Conflict", f"Cancelling now costs EUR {first_night:,.2f}"
    )
    cancelled = ok(
        session,
        "cancel_order",
        {"order_id": booked["id"], "reason": "Family emergency", "accept_cancellation_fee": True},
    )
    assert (cancelled["cancellation_fee"], cancelled["cancellation_reason"]) == (first_night, "Family emergency")


def test_non_refundable_bookings_cost_the_total_and_keep_their_dates(session):
    sign_in(session, "Lucía", "Fernández")
    booked = order("Lucía", "Fernández", "Barceloneta Beach Apartments", "booked")
    fails(
        session,
        "modify_order_dates",
        {"order_id": booked["id"], "checkin": "2025-07-11", "checkout": "2025-07-15"},
        "Conflict",
        "Non-refundable",
    )
    fails(
        session,
        "cancel_order",
        {"order_id": booked["id"]},
        "Conflict",
        f"Cancelling now costs EUR {booked['price_total']:,.2f}",
    )
    cancelled = ok(session, "cancel_order", {"order_id": booked["id"], "accept_cancellation_fee": True})
    assert cancelled["cancellation_fee"] == booked["price_total"]


def test_a_stay_that_has_started_cannot_be_changed_or_cancelled(session):
    in_house = next(o for o in SEED["orders"] if o["status"] == "booked" and o["checkin"] < "2025-06-12")
    guest = next(b for b in SEED["bookers"] if b["id"] == in_house["booker_id"])
    sign_in(session, guest["first_name"], guest["last_name"])
    fails(
        session,
        "cancel_order",
        {"order_id": in_house["id"], "accept_cancellation_fee": True},
        "Conflict",
        "Your stay started",
    )
    fails(
        session,
        "update_guest_details",
        {"order_id": in_house["id"], "special_requests": "Late check-out"},
        "Conflict",
        "Your stay started",
    )


def test_changing_dates_moves_the_rooms_and_reprices(session):
    sign_in(session, "James", "O'Connor")
    booked = order("James", "O'Connor", "Southwark Bridge Hotel", "booked")
    hotel, double = "Southwark Bridge Hotel", "Standard Double Room"
    old = [units(session, hotel, double, n) for n in ("2025-06-19", "2025-06-20")]
    new = [units(session, hotel, double, n) for n in ("2025-06-26", "2025-06-27")]
    quoted = offer(
        ok(session, "get_availability", stay(hotel, "2025-06-26", "2025-06-28", adults=1)), double, "Standard rate"
    )
    moved = ok(
        session, "modify_order_dates", {"order_id": booked["id"], "checkin": "2025-06-26", "checkout": "2025-06-28"}
    )
    assert (moved["checkin"], moved["checkout"], moved["price"]) == ("2025-06-26", "2025-06-28", quoted["price"])
    assert moved["cancellation"]["free_cancellation_until"] == "2025-06-25T23:59:00+01:00"
    assert [units(session, hotel, double, n) for n in ("2025-06-19", "2025-06-20")] == [u + 1 for u in old]
    assert [units(session, hotel, double, n) for n in ("2025-06-26", "2025-06-27")] == [u - 1 for u in new]
    fails(
        session,
        "modify_order_dates",
        {"order_id": booked["id"], "checkin": "2025-06-26", "checkout": "2025-06-28"},
        "InvalidRequest",
        "already the booking's dates",
    )


def test_date_changes_stop_at_the_deadline_and_need_free_rooms(session):
    sign_in(session, "Marco", "Bianchi")
    late = order("Marco", "Bianchi", "Hotel Trastevere Luce", "booked")
    fails(
        session,
        "modify_order_dates",
        {"order_id": late["id"], "checkin": "2025-06-21", "checkout": "2025-06-23"},
        "Conflict",
        "Free cancellation ended at 2025-06-11T23:59:00+02:00",
    )
    sign_in(session, "Lukas", "Novák")
    booked = ok(
        session,
        "create_order",
        {
            **stay("Hotel Noord Pier", "2025-06-23", "2025-06-25"),
            "product_id": product("Hotel Noord Pier", "Standard Double Room", "Standard rate"),
        },
    )
    fails(
        session,
        "modify_order_dates",
        {"order_id": booked["order_id"], "checkin": "2025-06-20", "checkout": "2025-06-22"},
        "Conflict",
        "sold out on the night of 2025-06-21",
    )


def test_guest_details_respect_occupancy_and_check_in_hours(session):
    sign_in(session, "Lucía", "Fernández")
    booked = order("Lucía", "Fernández", "Barceloneta Beach Apartments", "booked")
    fails(
        session,
        "update_guest_details",
        {"order_id": booked["id"], "number_of_adults": 3},
        "Conflict",
        "sleeps 2 adults per room",
    )
    fails(
        session,
        "update_guest_details",
        {"order_id": booked["id"], "estimated_arrival_time": "22:30"},
        "Conflict",
        "from 16:00 to 21:00",
    )
    fails(
        session,
        "update_guest_details",
        {"order_id": booked["id"], "estimated_arrival_time": "8pm"},
        "invalid_arguments",
        "local time like",
    )
    fails(session, "update_guest_details", {"order_id": booked["id"]}, "InvalidRequest", "Nothing to update")
    changed = ok(
        session,
        "update_guest_details",
        {"order_id": booked["id"], "guest_name": "Pablo  Ruiz", "estimated_arrival_time": "20:00"},
    )
    assert (changed["guest_name"], changed["estimated_arrival_time"]) == ("Pablo Ruiz", "20:00")
    assert session.dump()["orders"][booked["id"]]["guest_name"] == "Pablo Ruiz"


# ---------------------------------------------------------------- Genius, wish lists, reviews


def test_genius_status_counts_completed_stays_of_the_last_two_years(session):
    sign_in(session, "Anna", "Kowalski")
    stays = sum(
        1
        for o in SEED["orders"]
        if o["booker_id"] == booker("Anna", "Kowalski")["id"]
        and o["status"] == "stayed"
        and o["checkout"] >= "2023-06-13"
    )
    status = ok(session, "get_genius_status", {})
    assert (status["level"], status["completed_stays_last_2_years"]) == (2, stays)
    assert (status["next_level"], status["stays_to_next_level"]) == (3, 15 - stays)
    sign_in(session, "Hiroshi", "Tanaka")
    top = ok(session, "get_genius_status", {})
    assert (top["level"], top["next_level"], top["stays_to_next_level"]) == (3, None, None)
    assert "Priority support on all bookings" in top["benefits"]


def test_wish_lists(session):
    sign_in(session, "Sophie", "Martin")
    names = [w["name"] for w in ok(session, "list_wish_lists", {})]
    assert names == ["My next trip", "Paris 2025"]
    fails(session, "create_wish_list", {"name": "paris 2025"}, "Conflict", "already have a wish list")
    fails(session, "create_wish_list", {"name": "x" * 51}, "invalid_arguments", "1 to 50")
    ok(session, "create_wish_list", {"name": "Été à Éze"})
    fails(session, "create_wish_list", {"name": "ÉTÉ À ÉZE"}, "Conflict", "already have a wish list")  # not only ASCII
    created = ok(session, "create_wish_list", {"name": "  Lisbon   ideas "})
    assert (created["name"], created["accommodations"]) == ("Lisbon ideas", [])
    saved = ok(
        session,
        "save_to_wish_list",
        {"wish_list_id": created["id"], "accommodation_id": acc("Alfama Heritage Guest House")},
    )
    assert [a["name"] for a in saved["accommodations"]] == ["Alfama Heritage Guest House"]
    fails(
        session,
        "save_to_wish_list",
        {"wish_list_id": created["id"], "accommodation_id": acc("Alfama Heritage Guest House")},
        "Conflict",
        "already saved",
    )
    paris = wish_list("Sophie", "Martin", "Paris 2025")
    left = ok(
        session,
        "remove_from_wish_list",
        {"wish_list_id": paris, "accommodation_id": acc("Montmartre Artist Apartments")},
    )
    assert "Montmartre Artist Apartments" not in [a["name"] for a in left["accommodations"]]
    fails(
        session,
        "remove_from_wish_list",
        {"wish_list_id": paris, "accommodation_id": acc("Montmartre Artist Apartments")},
        "NotFound",
        "not saved",
    )
    fails(
        session,
        "save_to_wish_list",
        {
            "wish_list_id": wish_list("Marco", "Bianchi", "Rome someday"),
            "accommodation_id": acc("Hotel Trastevere Luce"),
        },
        "NotFound",
        "Wish list",
    )


def test_a_review_adds_to_the_property_score(session):
    sign_in(session, "Anna", "Kowalski")
    stayed = order("Anna", "Kowalski", "Canal House Suites Herengracht", "stayed")
    assert ok(session, "get_order", {"order_id": stayed["id"]})["reviewed"] is False
    before = ok(session, "get_accommodation_details", {"accommodation_id": stayed["accommodation_id"]})
    review = ok(
        session,
        "write_review",
        {"order_id": stayed["id"], "score": 9, "traveller_type": "couple", "positive": "Canal views"},
    )
    assert (review["reviewer_name"], review["reviewer_country"], review["stayed_in"], review["date"]) == (
        "Anna",
        "pl",
        "2025-05",
        "2025-06-12",
    )
    after = ok(session, "get_accommodation_details", {"accommodation_id": stayed["accommodation_id"]})
    assert after["review_count"] == before["review_count"] + 1
    newest = ok(session, "get_accommodation_reviews", {"accommodation_id": stayed["accommodation_id"], "page_size": 1})[
        "results"
    ][0]
    assert newest["id"] == review["id"]
    assert ok(session, "get_order", {"order_id": stayed["id"]})["reviewed"] is True
    fails(
        session,
        "write_review",
        {"order_id": stayed["id"], "score": 8, "traveller_type": "couple", "positive": "Again"},
        "Conflict",
        "already reviewed",
    )


def test_only_recent_completed_stays_can_be_reviewed(session):
    sign_in(session, "Jack", "Thompson")
    fails(
        session,
        "write_review",
        {
            "order_id": order("Jack", "Thompson", "Hotel Trastevere Luce", "no_show")["id"],
            "score": 6,
            "traveller_type": "couple",
            "positive": "x",
        },
        "Conflict",
        "Only completed stays",
    )
    stayed = order("Jack", "Thompson", "Latin Quarter Youth Hostel", "stayed")
    fails(
        session,
        "write_review",
        {"order_id": stayed["id"], "score": 11, "traveller_type": "couple", "positive": "x"},
        "invalid_arguments",
        "1 to 10",
    )
    fails(
        session,
        "write_review",
        {"order_id": stayed["id"], "score": 8, "traveller_type": "couple"},
        "InvalidRequest",
        "what you liked",
    )
    sign_in(session, "Thomas", "Müller")
    old = next(
        o for o in SEED["orders"] if o["booker_id"] == booker("Thomas", "Müller")["id"] and o["checkin"] == "2024-02-12"
    )
    fails(
        session,
        "write_review",
        {"order_id": old["id"], "score": 7, "traveller_type": "business", "positive": "x"},
        "Conflict",
        "closed on 2024-05-15",
    )
    sign_in(session, "Sophie", "Martin")
    upcoming = order("Sophie", "Martin", "Montmartre Artist Apartments", "booked")
    fails(
        session,
        "write_review",
        {"order_id": upcoming["id"], "score": 9, "traveller_type": "family", "positive": "x"},
        "Conflict",
        "after your stay",
    )


def test_bounds_live_in_the_argument_types_with_bookings_wording(session):
    schemas = {name: t.input_schema for name, t in SPEC.tools.items()}
    search = schemas["search_accommodations"]["properties"]
    assert search["number_of_rooms"]["maximum"] == 8 and search["number_of_adults"]["maximum"] == 30
    assert search["page_size"]["maximum"] == 25 and schemas["list_orders"]["properties"]["page_size"]["maximum"] == 50
    assert "pattern" in schemas["create_order"]["properties"]["estimated_arrival_time"]["anyOf"][0]
    base = {"city_id": city("Rome"), "checkin": "2025-07-05", "checkout": "2025-07-08", "number_of_adults": 2}
    fails(session, "search_accommodations", {**base, "number_of_rooms": 9}, "invalid_arguments", "between 1 and 8")
    fails(session, "search_accommodations", {**base, "number_of_adults": 31}, "invalid_arguments", "from 1 to 30")
    fails(session, "search_accommodations", {**base, "min_review_score": 11}, "invalid_arguments", "from 1 to 10")
    fails(session, "search_accommodations", {**base, "checkout": "2025-02-30"}, "InvalidRequest", "not a valid date")
    calendar = {"accommodation_id": acc("Hotel Noord Pier"), "start_date": "2025-07-01"}
    fails(session, "get_availability_calendar", {**calendar, "end_date": "1 Aug"}, "invalid_arguments", "end_date")
    sign_in(session, "Sophie", "Martin")
    booked = order("Sophie", "Martin", "Montmartre Artist Apartments", "booked")
    fails(
        session,
        "update_guest_details",
        {"order_id": booked["id"], "special_requests": "x" * 1001},
        "invalid_arguments",
        "at most 1,000 characters",
    )
    fails(session, "cancel_order", {"order_id": booked["id"], "reason": "y" * 1001}, "invalid_arguments", "reason can")
