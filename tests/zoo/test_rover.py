"""Rover's business rules, each with a test that can fail: sign-in and ownership, pet preferences (species, dog
size, puppies, pets at a time), availability (blocked dates, pets already booked), pricing (holiday, puppy and
additional-pet rates, the 11% owner fee capped at $50), the request states (pending, accepted within 72 hours,
booked, expired), refunds under flexible, moderate and strict policies, date moves, Meet & Greets, reviews within
21 days, and failures that change nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("rover")
MORNING = datetime(2026, 5, 12, 9, 0, tzinfo=timezone.utc)

session = session_fixture(SPEC, MORNING)


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


MAYA, DANIEL, PRIYA, TOM, HANNAH = (
    "maya.okafor@example.com",
    "daniel.reyes@example.com",
    "priya.natarajan@example.com",
    "tom.lindqvist@example.com",
    "hannah.brooks@example.com",
)


# ---------------------------------------------------------------- sign-in and ownership


def test_tools_need_a_signed_in_owner_and_unknown_emails_are_refused(session):
    fails(session, "list_pets", {}, "PermissionDenied", "Please sign in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "don't recognize", caller="user")
    sign_in(session, MAYA)
    assert {p["name"] for p in ok(session, "list_pets")} == {"Biscuit", "Pepper", "Miso"}


def test_another_owners_booking_and_pet_are_not_found(session):
    sign_in(session, MAYA)
    fails(session, "get_booking", {"booking_id": "bk_004201"}, "NotFound", "bk_004201")
    args = {"sitter_id": "marcus-t-capitol-hill", "service_type": "boarding", "pet_ids": ["pet_20021"]}
    fails(
        session,
        "get_price_quote",
        {**args, "start_date": "2026-06-10", "end_date": "2026-06-12"},
        "NotFound",
        "isn't on your account",
    )


# ---------------------------------------------------------------- pets and preferences


def test_dog_size_follows_rovers_weight_bands(session):
    sign_in(session, PRIYA)
    sizes = {p["name"]: p["size"] for p in ok(session, "list_pets")}
    assert sizes == {"Atlas": "giant", "Chai": None}
    sign_in(session, HANNAH)
    assert {p["name"]: p["size"] for p in ok(session, "list_pets")} == {"Kona": "medium", "Peanut": "small"}


def test_sitter_preferences_refuse_sizes_cats_puppies_and_too_many_pets(session):
    sign_in(session, PRIYA)
    span = {"start_date": "2026-06-10", "end_date": "2026-06-12"}
    base = {"service_type": "boarding", **span}
    fails(
        session,
        "get_price_quote",
        {**base, "sitter_id": "jessica-m-ballard", "pet_ids": ["pet_20031"]},
        "InvalidRequest",
        "doesn't accept giant dogs",
    )
    fails(
        session,
        "get_price_quote",
        {**base, "sitter_id": "sam-o-hawthorne", "pet_ids": ["pet_20032"]},
        "InvalidRequest",
        "doesn't offer cat care",
    )
    walk = {"service_type": "dog_walking", "sitter_id": "lena-v-pearl", "pet_ids": ["pet_20032"], **span}
    fails(session, "get_price_quote", walk, "InvalidRequest", "for dogs only")
    sign_in(session, DANIEL)
    fails(
        session,
        "get_price_quote",
        {**base, "sitter_id": "ana-r-fremont", "pet_ids": ["pet_20022"]},
        "InvalidRequest",
        "puppies",
    )
    fails(
        session,
        "get_price_quote",
        {**base, "sitter_id": "brooke-h-capitol-hill", "pet_ids": ["pet_20021", "pet_20022"]},
        "InvalidRequest",
        "at most 1 pets",
    )


def test_search_keeps_only_sitters_who_take_the_pets_and_are_free(session):
    sign_in(session, PRIYA)
    found = ok(
        session,
        "search_sitters",
        {"service_type": "boarding", "city": "Portland", "pet_ids": ["pet_20031"], "page_size": 50},
    )
    ids = {s["sitter_id"] for s in found["results"]}
    assert "rachel-p-sellwood" in ids and "lena-v-pearl" not in ids  # Lena takes small and medium dogs only
    busy = ok(
        session,
        "search_sitters",
        {
            "service_type": "boarding",
            "city": "Portland",
            "start_date": "2026-06-06",
            "end_date": "2026-06-08",
            "page_size": 50,
        },
    )
    assert "rachel-p-sellwood" not in {s["sitter_id"] for s in busy["results"]}  # blocked June 6-7


def test_memorialized_pet_cannot_be_booked_or_edited_and_duplicate_names_are_refused(session):
    sign_in(session, TOM)
    args = {
        "sitter_id": "ana-r-fremont",
        "service_type": "drop_in",
        "pet_ids": ["pet_20043"],
        "start_date": "2026-06-01",
        "end_date": "2026-06-02",
    }
    fails(session, "get_price_quote", args, "Conflict", "memorialized")
    fails(session, "update_pet", {"pet_id": "pet_20043", "weight_lbs": 30}, "Conflict", "memorialized")
    new = {
        "name": "noodle",
        "species": "cat",
        "breed": "Tabby",
        "weight_lbs": 9,
        "birth_date": "2024-01-01",
        "sex": "male",
    }
    fails(session, "add_pet", new, "Conflict", "already have a pet named Noodle")
    added = ok(session, "add_pet", {**new, "name": "Sven", "species": "dog", "weight_lbs": 45})
    assert added["pet_id"] == "pet_20901" and added["size"] == "large"


# ---------------------------------------------------------------- pricing


def test_price_is_units_times_rate_plus_additional_pets_and_a_capped_fee(session):
    sign_in(session, MAYA)
    two = ["pet_20011", "pet_20012"]
    quote = ok(
        session,
        "get_price_quote",
        {
            "sitter_id": "jessica-m-ballard",
            "service_type": "boarding",
            "pet_ids": two,
            "start_date": "2026-06-10",
            "end_date": "2026-06-13",
        },
    )
    assert (quote["units"], quote["unit_price"], quote["subtotal"], quote["service_fee"]) == (
        3,
        "85.00",
        "255.00",
        "28.05",
    )
    long = ok(
        session,
        "get_price_quote",
        {
            "sitter_id": "jessica-m-ballard",
            "service_type": "boarding",
            "pet_ids": two,
            "start_date": "2026-06-01",
            "end_date": "2026-06-10",
        },
    )
    assert long["subtotal"] == "765.00" and long["service_fee"] == "50.00"  # 11% would be 84.15


def test_holiday_rate_applies_to_the_whole_booking_when_any_date_touches_a_holiday(session):
    sign_in(session, MAYA)
    args = {"sitter_id": "jessica-m-ballard", "service_type": "boarding", "pet_ids": ["pet_20011"]}
    plain = ok(session, "get_price_quote", {**args, "start_date": "2026-05-18", "end_date": "2026-05-21"})
    touching = ok(session, "get_price_quote", {**args, "start_date": "2026-05-19", "end_date": "2026-05-22"})
    assert (plain["holiday_rate_applied"], plain["unit_price"]) == (False, "55.00")
    assert (touching["holiday_rate_applied"], touching["unit_price"], touching["subtotal"]) == (True, "70.00", "210.00")


def test_puppy_rate_and_visits_per_day(session):
    sign_in(session, DANIEL)
    boarding = ok(
        session,
        "get_price_quote",
        {
            "sitter_id": "marcus-t-capitol-hill",
            "service_type": "boarding",
            "pet_ids": ["pet_20022"],
            "start_date": "2026-06-08",
            "end_date": "2026-06-10",
        },
    )
    assert boarding["unit_price"] == "68.00"  # puppy rate, not the 60.00 base
    walks = ok(
        session,
        "get_price_quote",
        {
            "sitter_id": "marcus-t-capitol-hill",
            "service_type": "dog_walking",
            "pet_ids": ["pet_20021"],
            "start_date": "2026-06-08",
            "end_date": "2026-06-10",
            "visits_per_day": 2,
        },
    )
    assert (walks["units"], walks["subtotal"]) == (6, "168.00")


# ---------------------------------------------------------------- requests


def test_request_needs_future_dates_a_free_sitter_and_no_duplicate(session):
    sign_in(session, MAYA)
    args = {"sitter_id": "jessica-m-ballard", "service_type": "boarding", "pet_ids": ["pet_20011"]}
    fails(
        session,
        "send_booking_request",
        {**args, "start_date": "2026-05-12", "end_date": "2026-05-14"},
        "InvalidRequest",
        "future",
    )
    fails(
        session,
        "send_booking_request",
        {**args, "start_date": "2026-05-29", "end_date": "2026-06-01"},
        "Conflict",
        "unavailable on 2026-05-30",
    )
    fails(
        session,
        "send_booking_request",
        {**args, "start_date": "2026-06-03", "end_date": "2026-06-03"},
        "InvalidRequest",
        "after the start",
    )
    away = {
        "sitter_id": "diego-s-ballard",
        "service_type": "boarding",
        "pet_ids": ["pet_20011"],
        "start_date": "2026-06-03",
        "end_date": "2026-06-05",
    }
    fails(session, "send_booking_request", away, "Conflict", "away")
    made = ok(session, "send_booking_request", {**args, "start_date": "2026-06-03", "end_date": "2026-06-05"})
    assert (made["booking_id"], made["status"], made["cancellation_policy"]) == ("bk_004801", "pending", "strict")
    fails(
        session,
        "send_booking_request",
        {**args, "start_date": "2026-06-04", "end_date": "2026-06-06"},
        "Conflict",
        "already have an open request",
    )


def test_pending_request_cannot_be_booked_and_accepted_one_expires_after_72_hours(session):
    sign_in(session, TOM)
    fails(session, "book_request", {"booking_id": "bk_004403"}, "Conflict", "hasn't accepted")
    sign_in(session, DANIEL)
    assert ok(session, "get_booking", {"booking_id": "bk_004203"})["status"] == "expired"
    fails(session, "book_request", {"booking_id": "bk_004203", "payment_method_id": "card_3022"}, "Conflict", "expired")
    assert ok(session, "get_booking", {"booking_id": "bk_004201"})["accept_by"] == "2026-05-14T08:00:00Z"
    at(session, "2026-05-14T08:00:00Z")
    fails(session, "book_request", {"booking_id": "bk_004201", "payment_method_id": "card_3022"}, "Conflict", "expired")


def test_booking_refuses_an_expired_card_and_books_with_a_good_one(session):
    sign_in(session, DANIEL)
    fails(session, "book_request", {"booking_id": "bk_004201"}, "InvalidRequest", "ending in 5454 has expired")
    booked = ok(session, "book_request", {"booking_id": "bk_004201", "payment_method_id": "card_3022"})
    assert (booked["status"], booked["payment_method_id"]) == ("booked", "card_3022")
    fails(session, "book_request", {"booking_id": "bk_004201"}, "Conflict", "booked and can't be booked")


def test_changing_a_request_reprices_it_and_sends_it_back_to_pending(session):
    sign_in(session, HANNAH)
    before = ok(session, "get_booking", {"booking_id": "bk_004503"})
    assert before["status"] == "accepted" and before["pets"] == ["Kona", "Peanut"]
    changed = ok(session, "update_booking_request", {"booking_id": "bk_004503", "pet_ids": ["pet_20051"]})
    assert changed["status"] == "pending" and changed["accept_by"] is None
    assert changed["unit_price"] == "52.00" and changed["subtotal"] == "156.00"
    fails(
        session,
        "update_booking_request",
        {"booking_id": "bk_004502", "end_date": "2026-05-04"},
        "Conflict",
        "completed",
    )


def test_a_full_sitter_is_unavailable_once_booked(session):
    def fill(tables):
        for row in tables["sitters"]:
            if row["id"] == "rachel-p-sellwood":
                row["max_pets"] = 1

    restore_seed_with(session, fill, MORNING)
    sign_in(session, HANNAH)
    day = ok(
        session, "get_sitter_availability", {"sitter_id": "rachel-p-sellwood", "start_date": "2026-05-23", "days": 1}
    )[0]
    assert day == {"date": "2026-05-23", "available": False, "pets_booked": 1, "max_pets": 1}  # Priya's Atlas


# ---------------------------------------------------------------- cancellation


def test_strict_policy_after_its_deadline_refunds_half_of_the_first_seven_days(session):
    sign_in(session, MAYA)
    quote = ok(session, "get_cancellation_quote", {"booking_id": "bk_004102"})
    assert quote["full_refund_until"] == "2026-05-09T12:00:00Z"
    assert (quote["service_refund"], quote["service_fee_refund"], quote["total_refund"]) == (
        "127.50",
        "14.02",
        "141.52",
    )
    canceled = ok(session, "cancel_booking", {"booking_id": "bk_004102", "reason": "plans_changed"})
    assert (canceled["status"], canceled["refund"]) == ("canceled", "141.52")
    fails(session, "cancel_booking", {"booking_id": "bk_004102", "reason": "plans_changed"}, "Conflict", "canceled")


def test_penalty_refunds_days_beyond_seven_in_full(session):
    sign_in(session, TOM)
    quote = ok(session, "get_cancellation_quote", {"booking_id": "bk_004401"})
    booking = ok(session, "get_booking", {"booking_id": "bk_004401"})
    nightly = int(float(booking["unit_price"]) * 100)
    assert booking["units"] == 10
    assert quote["service_refund"] == f"{(7 * nightly // 2 + 3 * nightly) / 100:.2f}"


def test_moderate_policy_refunds_in_full_until_noon_the_day_before(session):
    sign_in(session, MAYA)
    quote = ok(session, "get_cancellation_quote", {"booking_id": "bk_004103"})
    assert quote["full_refund_until"] == "2026-05-15T12:00:00Z" and quote["total_refund"] == quote["total_paid"]
    at(session, "2026-05-15T12:00:00Z")
    late = ok(session, "get_cancellation_quote", {"booking_id": "bk_004103"})
    assert late["total_refund"] != late["total_paid"]


def test_walks_are_always_flexible_and_refund_days_not_yet_delivered(session):
    sign_in(session, HANNAH)
    assert ok(session, "get_booking", {"booking_id": "bk_004501"})["cancellation_policy"] == "flexible"
    at(session, "2026-05-20T09:00:00Z")
    quote = ok(session, "get_cancellation_quote", {"booking_id": "bk_004501"})
    assert quote["service_refund"] == "174.00"  # May 20-22, two walks a day at the 29.00 holiday rate


def test_cancelling_a_request_costs_nothing(session):
    sign_in(session, TOM)
    canceled = ok(session, "cancel_booking", {"booking_id": "bk_004403", "reason": "found_other_care"})
    assert (canceled["status"], canceled["refund"]) == ("canceled", "0.00")


def test_date_move_keeps_the_length_and_reprices_without_penalty(session):
    sign_in(session, MAYA)
    args = {"booking_id": "bk_004102"}
    fails(
        session,
        "change_booking_dates",
        {**args, "start_date": "2026-05-23", "end_date": "2026-05-27"},
        "InvalidRequest",
        "same length",
    )
    fails(
        session,
        "change_booking_dates",
        {**args, "start_date": "2026-05-29", "end_date": "2026-06-01"},
        "Conflict",
        "unavailable on 2026-05-30",
    )
    moved = ok(session, "change_booking_dates", {**args, "start_date": "2026-05-23", "end_date": "2026-05-26"})
    assert (moved["status"], moved["holiday_rate_applied"], moved["unit_price"]) == ("booked", True, "100.00")
    sign_in(session, DANIEL)
    fails(
        session,
        "change_booking_dates",
        {"booking_id": "bk_004202", "start_date": "2026-06-04", "end_date": "2026-06-08"},
        "Conflict",
        "completed",
    )


# ---------------------------------------------------------------- meet & greets and reviews


def test_one_open_meet_greet_per_sitter_and_future_dates_only(session):
    sign_in(session, DANIEL)
    args = {"sitter_id": "marcus-t-capitol-hill", "pet_ids": ["pet_20021"], "time": "18:00", "location": "public_place"}
    fails(session, "request_meet_greet", {**args, "date": "2026-05-20"}, "Conflict", "already have a Meet & Greet")
    ok(session, "cancel_meet_greet", {"meet_greet_id": "mg_00201"})
    fails(session, "cancel_meet_greet", {"meet_greet_id": "mg_00201"}, "Conflict", "canceled")
    fails(session, "request_meet_greet", {**args, "date": "2026-05-12"}, "InvalidRequest", "future date")
    made = ok(session, "request_meet_greet", {**args, "date": "2026-05-20"})
    assert (made["meet_greet_id"], made["status"]) == ("mg_00018", "requested")


def test_reviews_only_for_completed_bookings_once_within_21_days(session):
    sign_in(session, MAYA)
    fails(session, "write_review", {"booking_id": "bk_004102", "rating": 5, "text": "x"}, "Conflict", "Only completed")
    fails(session, "write_review", {"booking_id": "bk_004101", "rating": 5, "text": "x"}, "Conflict", "window")
    fails(session, "write_review", {"booking_id": "bk_004105", "rating": 5, "text": "x"}, "Conflict", "window")
    before = ok(session, "get_sitter", {"sitter_id": "ben-k-green-lake"})
    review = ok(session, "write_review", {"booking_id": "bk_004104", "rating": 5, "text": "Great", "tip": 15})
    assert (review["author"], review["tip"]) == ("Maya O.", "15.00")
    after = ok(session, "get_sitter", {"sitter_id": "ben-k-green-lake"})
    assert (before["review_count"], before["rating"]) == (37, 4.81)
    assert (after["review_count"], after["rating"]) == (38, 4.81)  # (4.81 x 37 + 5) / 38, to the hundredth below
    fails(
        session,
        "write_review",
        {"booking_id": "bk_004104", "rating": 4, "text": "again"},
        "Conflict",
        "already reviewed",
    )


def test_types_refuse_bad_values_with_the_products_wording(session):
    sign_in(session, MAYA)
    fails(session, "write_review", {"booking_id": "bk_004104", "rating": 6, "text": "x"}, "invalid_arguments", "1 to 5")
    fails(
        session,
        "write_review",
        {"booking_id": "bk_004104", "rating": 5, "text": "x", "tip": 900},
        "invalid_arguments",
        "$0 to $500",
    )
    fails(
        session,
        "request_meet_greet",
        {
            "sitter_id": "ana-r-fremont",
            "pet_ids": ["pet_20013"],
            "date": "2026-05-20",
            "time": "25:00",
            "location": "owner_home",
        },
        "invalid_arguments",
        "HH:MM",
    )
