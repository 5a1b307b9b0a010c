"""Viator's business rules, each with a test that can fail: search scope, age bands and per-booking limits, prices
by age band, seats left on a slot (holds count until they lapse), booking questions (names, passports valid past the
travel date, weight limit, pickup points), instant versus on-request confirmation, refunds under STANDARD,
ALL_SALES_FINAL and CUSTOM policies, and failures that change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("viator")
MORNING = datetime(2026, 6, 8, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, MORNING)


def booking(lead: str, product_code: str, status: str | None = None) -> str:
    found = [
        row["booking_ref"]
        for row in SEED["bookings"]
        if row["lead_traveler"] == lead
        and row["product_code"] == product_code
        and (status is None or row["status"] == status)
    ]
    assert len(found) == 1, found
    return found[0]


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def hold(session: ToolSession, product: str, option: str, day: str, time: str, travelers: dict[str, int]) -> str:
    args = {"product_code": product, "option_code": option, "travel_date": day, "start_time": time}
    return ok(session, "hold_booking", {**args, "travelers": travelers})["booking_ref"]


def seats(session: ToolSession, product: str, day: str, travelers: dict[str, int], option: str) -> dict[str, Any]:
    args = {"product_code": product, "travel_date": day, "travelers": travelers, "option_code": option}
    return ok(session, "check_availability", args)["bookable_items"][0]


# ---------------------------------------------------------------- catalog


def test_search_of_a_country_covers_its_cities_and_skips_inactive_products(session):
    portugal = ok(session, "search_products", {"destination_id": 63, "page_size": 50})["results"]
    codes = {product["product_code"] for product in portugal}
    assert {"1144SINTRA", "3001DOURO"} <= codes  # Lisbon and Porto
    assert "1203BELEM" not in codes  # no longer sold
    assert ok(session, "get_product", {"product_code": "1203BELEM"})["status"] == "INACTIVE"


def test_search_filters_by_text_tag_and_price_and_sorts(session):
    found = ok(session, "search_products", {"destination_id": 334, "text": "fuji"})["results"]
    assert {p["product_code"] for p in found} == {"8102FUJI", "8103FUJI"}
    cheap = ok(session, "search_products", {"destination_id": 562, "tag_id": 21983, "max_price": 50})["results"]
    assert [p["product_code"] for p in cheap] == ["9917PARKG"]
    by_price = ok(session, "search_products", {"destination_id": 687, "sort": "PRICE", "page_size": 50})["results"]
    prices = [float(p["from_price"]) for p in by_price]
    assert prices == sorted(prices)


def test_product_shows_bands_options_questions_and_policy(session):
    product = ok(session, "get_product", {"product_code": "4418ANDOR"})
    assert "PASSPORT_EXPIRY" in product["booking_questions"]
    assert product["cancellation_policy"]["type"] == "STANDARD"
    assert {band["band"] for band in product["age_bands"]} == {"ADULT", "SENIOR", "CHILD", "INFANT"}
    custom = ok(session, "get_product", {"product_code": "3345PASTA"})["cancellation_policy"]
    assert custom["description"].startswith("100% refund if cancelled at least 7 days before")


def test_schedule_skips_closed_days_and_counts_seats(session):
    days = ok(session, "get_availability_schedule", {"product_code": "2281VAT", "start_date": "2026-06-15", "days": 4})
    assert "2026-06-17" not in {day["travel_date"] for day in days}
    early = next(d for d in days if d["option_code"] == "EARLY" and d["travel_date"] == "2026-06-18")
    assert early["times"][0] == {"start_time": "07:30", "seats_left": 12}


# ---------------------------------------------------------------- traveler mix and availability


def test_prices_are_per_age_band(session):
    item = seats(session, "1144SINTRA", "2026-06-12", {"ADULT": 2, "CHILD": 1}, "TG2")
    assert [(line["age_band"], line["subtotal"]) for line in item["line_items"]] == [
        ("ADULT", "144.00"),
        ("CHILD", "52.00"),
    ]
    assert item["total_price"] == "196.00"


def test_a_slot_without_enough_seats_is_sold_out_and_cannot_be_held(session):
    item = seats(session, "1144SINTRA", "2026-06-12", {"ADULT": 2, "CHILD": 1}, "TG1")
    assert (item["available"], item["unavailable_reason"], item["seats_left"]) == (False, "SOLD_OUT", 1)
    args = {"product_code": "1144SINTRA", "option_code": "TG1", "travel_date": "2026-06-12", "start_time": "09:00"}
    fails(session, "hold_booking", {**args, "travelers": {"ADULT": 2}}, "Conflict", "1 seats left")


def test_band_limits_minimums_and_adult_rules_are_enforced(session):
    base = {"product_code": "9917PARKG", "travel_date": "2026-06-16"}
    fails(
        session,
        "check_availability",
        {**base, "travelers": {"YOUTH": 9, "ADULT": 1}},
        "InvalidRequest",
        "between 0 and 8",
    )
    fails(
        session, "check_availability", {**base, "travelers": {"SENIOR": 1}}, "InvalidRequest", "SENIOR is not available"
    )
    fails(session, "check_availability", {**base, "travelers": {"CHILD": 2}}, "InvalidRequest", "At least one adult")
    sushi = {"product_code": "8101SUSHI", "travel_date": "2026-06-15", "travelers": {"ADULT": 1}}
    fails(session, "check_availability", sushi, "InvalidRequest", "2 to 8 travelers")
    bike = {"product_code": "8203ARASHI", "travel_date": "2026-06-12", "travelers": {"ADULT": 1, "INFANT": 1}}
    fails(session, "check_availability", bike, "InvalidRequest", "INFANT is not available")


def test_inactive_products_and_closed_or_past_departures_cannot_be_held(session):
    args = {"option_code": "TG1", "start_time": "10:00", "travelers": {"TRAVELER": 2}}
    fails(
        session,
        "hold_booking",
        {**args, "product_code": "1203BELEM", "travel_date": "2026-06-12"},
        "Conflict",
        "no longer available",
    )
    closed = {"product_code": "2281VAT", "option_code": "EARLY", "travel_date": "2026-06-17", "start_time": "07:30"}
    fails(session, "hold_booking", {**closed, "travelers": {"ADULT": 1}}, "NotFound", "No availability")
    past = {"product_code": "2281VAT", "option_code": "EARLY", "travel_date": "2026-06-08", "start_time": "07:30"}
    fails(session, "hold_booking", {**past, "travelers": {"ADULT": 1}}, "InvalidRequest", "in the future")


def test_type_constraints_show_in_errors(session):
    outcome = session.call("get_booking", {"booking_ref": "580300133"})
    assert outcome.error_kind == "invalid_arguments" and "BR-580336258" in (outcome.error or "")
    outcome = session.call(
        "check_availability", {"product_code": "9917PARKG", "travel_date": "2026-06-16", "travelers": {"KID": 1}}
    )
    assert outcome.error_kind == "invalid_arguments"


# ---------------------------------------------------------------- holds


def test_a_hold_takes_seats_until_released(session):
    before = seats(session, "9917PARKG", "2026-06-16", {"ADULT": 1}, "TG1")["seats_left"]
    ref = hold(session, "9917PARKG", "TG1", "2026-06-16", "10:30", {"ADULT": 1, "YOUTH": 8})
    assert ok(session, "get_booking", {"booking_ref": ref})["status"] == "HELD"
    assert seats(session, "9917PARKG", "2026-06-16", {"ADULT": 1}, "TG1")["seats_left"] == before - 9
    ok(session, "release_hold", {"booking_ref": ref})
    assert seats(session, "9917PARKG", "2026-06-16", {"ADULT": 1}, "TG1")["seats_left"] == before
    fails(session, "release_hold", {"booking_ref": ref}, "Conflict", "not on hold")


def test_a_lapsed_hold_reads_expired_and_cannot_be_booked(session):
    ref = next(row["booking_ref"] for row in SEED["bookings"] if row["status"] == "HELD")
    assert ok(session, "get_booking", {"booking_ref": ref})["status"] == "EXPIRED"
    args = {"booking_ref": ref, "lead_traveler": "Sofia Castillo", "email": "sofia.castillo@gmail.com"}
    fails(session, "book_hold", args, "Conflict", "hold has expired")


def test_a_hold_lapses_after_thirty_minutes(session):
    ref = hold(session, "9917PARKG", "TG1", "2026-06-16", "10:30", {"ADULT": 2})
    at(session, "2026-06-08T09:31:00Z")
    assert ok(session, "get_booking", {"booking_ref": ref})["status"] == "EXPIRED"


# ---------------------------------------------------------------- booking questions


def test_instant_products_confirm_and_on_request_products_pend(session):
    ref = hold(session, "9917PARKG", "TG1", "2026-06-16", "10:30", {"ADULT": 2})
    done = ok(session, "book_hold", {"booking_ref": ref, "lead_traveler": "Ana Silva", "email": "ana@example.com"})
    assert done["status"] == "CONFIRMED" and done["total_price"] == "84.00"
    fails(
        session,
        "book_hold",
        {"booking_ref": ref, "lead_traveler": "Ana Silva", "email": "ana@example.com"},
        "Conflict",
        "CONFIRMED",
    )
    ref = hold(session, "4102CROIS", "TG1", "2026-06-13", "10:00", {"ADULT": 2})
    args = {
        "booking_ref": ref,
        "lead_traveler": "Noah Fischer",
        "email": "noah@example.com",
        "special_requirements": "Vegetarian",
    }
    assert ok(session, "book_hold", args)["status"] == "PENDING"


def test_every_traveler_must_be_named_where_names_are_asked(session):
    ref = hold(session, "9916SAGRA", "TG1", "2026-06-15", "09:00", {"ADULT": 2})
    base = {"booking_ref": ref, "lead_traveler": "Ana Silva", "email": "ana@example.com"}
    fails(session, "book_hold", base, "InvalidRequest", "all 2 travelers")
    one_name = [{"first_name": "Ana", "last_name": "Silva"}, {"first_name": "Rui"}]
    fails(
        session, "book_hold", {**base, "traveler_answers": one_name}, "InvalidRequest", "FULL_NAMES_LAST for traveler 2"
    )


def test_passports_must_outlive_the_trip_and_pickup_must_be_offered(session):
    ref = hold(session, "4418ANDOR", "TG1", "2026-06-24", "07:30", {"ADULT": 1})
    traveler = {"first_name": "Ines", "last_name": "Keller", "passport_number": "C48213377"}
    base = {"booking_ref": ref, "lead_traveler": "Ines Keller", "email": "ines@example.com"}
    expired = {
        **base,
        "traveler_answers": [{**traveler, "passport_expiry": "2026-06-20"}],
        "pickup_location_id": "LOC-441801",
    }
    fails(session, "book_hold", expired, "InvalidRequest", "passport expires before the travel date")
    valid = [{**traveler, "passport_expiry": "2031-01-31"}]
    fails(session, "book_hold", {**base, "traveler_answers": valid}, "InvalidRequest", "PICKUP_POINT")
    fails(
        session,
        "book_hold",
        {**base, "traveler_answers": valid, "pickup_location_id": "LOC-114401"},
        "InvalidRequest",
        "not offered",
    )
    done = ok(
        session, "book_hold", {**base, "traveler_answers": valid, "pickup_location_id": "MEET_AT_DEPARTURE_POINT"}
    )
    assert done["status"] == "CONFIRMED" and done["traveler_answers"][0]["passport_expiry"] == "2031-01-31"


def test_helicopters_refuse_travelers_over_the_weight_limit(session):
    ref = hold(session, "7001HELI", "HL20", "2026-06-13", "14:00", {"ADULT": 2})
    base = {"booking_ref": ref, "lead_traveler": "Priya Raman", "email": "priya@example.com"}
    heavy = [
        {"first_name": "Priya", "last_name": "Raman", "weight_kg": 58},
        {"first_name": "Hugo", "last_name": "Martin", "weight_kg": 121},
    ]
    fails(session, "book_hold", {**base, "traveler_answers": heavy}, "InvalidRequest", "weight limit of 115 kg")
    heavy[1]["weight_kg"] = 84
    assert ok(session, "book_hold", {**base, "traveler_answers": heavy})["status"] == "CONFIRMED"


# ---------------------------------------------------------------- cancellation


def quote(session: ToolSession, ref: str) -> tuple[str, int | None]:
    result = ok(session, "get_cancel_quote", {"booking_ref": ref})
    details = result["refund_details"]
    return result["status"], None if details is None else details["refund_percentage"]


def test_standard_policy_refunds_in_full_until_24_hours_before(session):
    ref = booking("Elena Petrova", "1144SINTRA")  # 2026-06-13 09:00
    at(session, "2026-06-12T08:59:00Z")
    assert quote(session, ref) == ("CANCELLABLE", 100)
    at(session, "2026-06-12T10:00:00Z")
    assert quote(session, ref) == ("CANCELLABLE", 0)


def test_all_sales_final_refunds_nothing(session):
    assert quote(session, booking("Sofia Castillo", "7002HELI")) == ("CANCELLABLE", 0)


def test_custom_tiers_refund_by_days_before(session):
    ref = booking("Amara Nwosu", "5151SAIL")  # 2026-06-20 18:30, tiers 2 days 100%, 1 day 50%
    assert quote(session, ref) == ("CANCELLABLE", 100)
    at(session, "2026-06-19T09:00:00Z")
    assert quote(session, ref) == ("CANCELLABLE", 50)
    at(session, "2026-06-20T09:00:00Z")
    assert quote(session, ref) == ("CANCELLABLE", 0)


def test_pending_bookings_refund_in_full_and_cancelling_records_the_refund(session):
    ref = booking("Isabel Moreno", "3345PASTA")
    assert quote(session, ref) == ("CANCELLABLE", 100)
    done = ok(session, "cancel_booking", {"booking_ref": ref, "reason_code": "Customer_Service.Weather"})
    assert (done["status"], done["refund_amount"], done["cancel_reason"]) == (
        "CANCELLED",
        "556.00",
        "Customer_Service.Weather",
    )
    assert quote(session, ref) == ("NOT_CANCELLABLE", None)
    fails(
        session,
        "cancel_booking",
        {"booking_ref": ref, "reason_code": "Customer_Service.Weather"},
        "Conflict",
        "CANCELLED",
    )


def test_rejected_and_held_bookings_cannot_be_cancelled(session):
    rejected = booking("Daniel Okafor", "2401UFFIZI")
    fails(
        session,
        "cancel_booking",
        {"booking_ref": rejected, "reason_code": "Customer_Service.Weather"},
        "Conflict",
        "REJECTED",
    )
    ref = hold(session, "9917PARKG", "TG1", "2026-06-16", "10:30", {"ADULT": 1})
    assert quote(session, ref) == ("NOT_CANCELLABLE", None)
    outcome = session.call("cancel_booking", {"booking_ref": ref, "reason_code": "Not_a_reason"})
    assert outcome.error_kind == "invalid_arguments"


def test_cancelled_seats_return_to_the_slot(session):
    ref = booking("Oliver Grant", "4418ANDOR")  # 2 adults on 2026-06-23 07:30
    before = seats(session, "4418ANDOR", "2026-06-23", {"ADULT": 1}, "TG1")["seats_left"]
    ok(session, "cancel_booking", {"booking_ref": ref, "reason_code": "Customer_Service.I_canceled_my_entire_trip"})
    assert seats(session, "4418ANDOR", "2026-06-23", {"ADULT": 1}, "TG1")["seats_left"] == before + 2


# ---------------------------------------------------------------- lists


def test_bookings_filter_by_traveler_and_live_status(session):
    webb = ok(session, "list_bookings", {"lead_traveler": "webb", "page_size": 50})["results"]
    assert {b["lead_traveler"] for b in webb} == {"Marcus Webb", "Marcus Webber"}
    pending = ok(session, "list_bookings", {"status": "PENDING"})["results"]
    assert {b["lead_traveler"] for b in pending} == {"Isabel Moreno", "James Whitfield"}
    expired = ok(session, "list_bookings", {"status": "EXPIRED"})["results"]
    assert [b["product_code"] for b in expired] == ["9916SAGRA"]


def test_reviews_filter_and_sort(session):
    worst = ok(session, "get_reviews", {"product_code": "6114SEINE", "sort": "LOWEST_RATING", "page_size": 50})[
        "results"
    ]
    assert [r["rating"] for r in worst] == sorted(r["rating"] for r in worst)
    fives = ok(session, "get_reviews", {"product_code": "6114SEINE", "rating": 5, "page_size": 50})["results"]
    assert fives and {r["rating"] for r in fives} == {5}


def test_reference_lists(session):
    reasons = ok(session, "list_cancel_reasons")
    assert "Customer_Service.Duplicate_Booking" in {r["cancellation_reason_code"] for r in reasons}
    questions = {q["id"]: q for q in ok(session, "list_booking_questions")}
    assert questions["PICKUP_POINT"]["group"] == "PER_BOOKING"
    assert [d["name"] for d in ok(session, "list_destinations", {"name": "lis"})] == ["Lisbon"]
    assert len(ok(session, "list_pickup_locations", {"product_code": "1144SINTRA"})) == 5
