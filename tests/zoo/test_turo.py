"""Turo's business rules, each with a test that can fail: sign-in, roles and ownership; trip length, advance notice
and availability (blocked dates, overlapping trips, snoozed listings); age limits by vehicle class; pricing
(duration discounts, trip fee, protection share, Extras, young driver fee); requests that expire after 8 hours and
hosts who accept them; change requests priced from the booked daily price; Extras changed before the start; the
free cancellation period (24 hours before, or one hour after a late booking) and the guest's and host's fees;
check-in from an hour before the start and checkout with the required photos; reimbursement windows, fixed fees
and the guest's 48 hours to pay or dispute; listing edits; and failures that change nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("turo")
MORNING = datetime(2026, 6, 10, 9, 0, tzinfo=timezone.utc)

session = session_fixture(SPEC, MORNING)

CHRIS, DANA, MARIA, JORDAN, TYLER, AISHA, RYAN = (
    "chris.nguyen@example.com",
    "dana.whitfield@example.com",
    "maria.lopez@example.com",
    "jordan.lee@example.com",
    "tyler.brooks@example.com",
    "aisha.karim@example.com",
    "ryan.cole@example.com",
)
MARCUS, ELENA, SAM, JAKE = (
    "marcus.bell@example.com",
    "elena.ruiz@example.com",
    "sam.keller@example.com",
    "jake.thornton@example.com",
)
ALL = ["front", "rear", "driver_side", "passenger_side", "dashboard"]


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def trip_args(vehicle: str, start: str, end: str, plan: str = "standard", **more: object) -> dict[str, object]:
    return {"vehicle_id": vehicle, "start_at": start, "end_at": end, "protection_plan": plan, **more}


# ---------------------------------------------------------------- sign-in, roles, ownership


def test_tools_need_a_signed_in_account_and_unknown_emails_are_refused(session):
    fails(session, "list_trips", {}, "PermissionDenied", "Log in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "couldn't find", caller="user")
    sign_in(session, CHRIS)
    assert {t["trip_id"] for t in ok(session, "list_trips")["results"]} == {"31839412", "31838055", "31837310"}


def test_guests_and_hosts_see_only_their_own_trips_and_tools(session):
    sign_in(session, CHRIS)
    fails(session, "get_trip", {"trip_id": "31839977"}, "NotFound", "31839977")
    fails(session, "update_listing", {"vehicle_id": "683717", "daily_price": 10}, "PermissionDenied", "Only hosts")
    sign_in(session, MARCUS)
    fails(session, "update_listing", {"vehicle_id": "640088", "daily_price": 10}, "NotFound", "isn't one of your")
    fails(
        session, "book_trip", trip_args("655002", "2026-06-20T10:00", "2026-06-21T10:00"), "PermissionDenied", "guest"
    )
    assert ok(session, "get_trip", {"trip_id": "31839412"})["guest_name"] == "Chris Nguyen"


# ---------------------------------------------------------------- times, availability, age


def test_trip_times_need_half_hours_notice_and_length_limits(session):
    sign_in(session, CHRIS)
    fails(
        session,
        "get_trip_quote",
        trip_args("683717", "2026-06-20T10:15", "2026-06-21T10:00"),
        "invalid_arguments",
        "half hour",
    )
    fails(
        session,
        "get_trip_quote",
        trip_args("683717", "2026-06-10T12:00", "2026-06-12T12:00"),
        "InvalidRequest",
        "6 hours' notice",
    )
    fails(
        session,
        "get_trip_quote",
        trip_args("715560", "2026-06-25T10:00", "2026-06-26T10:00"),
        "InvalidRequest",
        "2-day minimum",
    )
    fails(
        session,
        "get_trip_quote",
        trip_args("683717", "2026-06-21T10:00", "2026-06-20T10:00"),
        "InvalidRequest",
        "after trip start",
    )
    # 25 hours is two days: each started 24 hours counts
    assert (
        ok(session, "get_trip_quote", trip_args("655002", "2026-06-24T10:00", "2026-06-25T11:00"))["price"]["days"] == 2
    )


def test_blocked_dates_other_trips_and_snoozed_listings_make_a_car_unavailable(session):
    sign_in(session, CHRIS)
    quote = ok(session, "get_trip_quote", trip_args("690125", "2026-06-25T10:00", "2026-06-27T10:00"))
    assert quote["available"] is False and "blocked 2026-06-25" in quote["unavailable_reason"]
    fails(
        session, "book_trip", trip_args("683717", "2026-06-21T10:00", "2026-06-24T10:00"), "Conflict", "already booked"
    )
    results = ok(
        session,
        "search_vehicles",
        {"city": "Austin", "start_at": "2026-06-19T10:00", "end_at": "2026-06-22T10:00", "page_size": 50},
    )
    shown = {r["vehicle_id"] for r in results["results"]}
    assert "683717" not in shown and "690125" not in shown and "655002" in shown
    sign_in(session, JAKE)
    ok(session, "update_listing", {"vehicle_id": "655002", "status": "snoozed"})
    sign_in(session, CHRIS)
    fails(session, "book_trip", trip_args("655002", "2026-06-24T10:00", "2026-06-25T10:00"), "Conflict", "snoozed")


def test_age_limits_by_vehicle_class_and_driver_approval(session):
    sign_in(session, DANA)
    fails(
        session,
        "book_trip",
        trip_args("702341", "2026-06-20T10:00", "2026-06-22T10:00"),
        "InvalidRequest",
        "at least 25",
    )
    sign_in(session, TYLER)
    fails(
        session,
        "get_trip_quote",
        trip_args("733415", "2026-06-24T10:00", "2026-06-26T10:00"),
        "InvalidRequest",
        "at least 30",
    )
    sign_in(session, RYAN)
    fails(
        session,
        "book_trip",
        trip_args("655002", "2026-06-20T10:00", "2026-06-22T10:00"),
        "InvalidRequest",
        "approved to drive",
    )


# ---------------------------------------------------------------- pricing


def test_price_has_discount_trip_fee_protection_extras_and_young_driver_fee(session):
    sign_in(session, DANA)
    # Jeep: $70 x 7 days, 10% weekly discount -> 441.00; fee 15% 66.15; minimum 12% 52.92; camping gear 40; $30 x 7
    quote = ok(
        session,
        "get_trip_quote",
        trip_args("694410", "2026-07-01T10:00", "2026-07-08T10:00", "minimum", extras={"ext_0010": 1}),
    )["price"]
    assert (quote["trip_price"], quote["discount"], quote["trip_fee"]) == ("490.00", "49.00", "66.15")
    assert (quote["protection_cost"], quote["extras_cost"], quote["young_driver_fee"]) == ("52.92", "40.00", "210.00")
    assert quote["total"] == "810.07" and quote["distance_allowed"] is None
    sign_in(session, CHRIS)
    seats = ok(
        session, "get_trip_quote", trip_args("683717", "2026-07-01T10:00", "2026-07-03T10:00", extras={"ext_0001": 2})
    )
    assert seats["price"]["extras_cost"] == "32.00" and seats["price"]["young_driver_fee"] == "0.00"
    fails(
        session,
        "get_trip_quote",
        trip_args("683717", "2026-07-01T10:00", "2026-07-03T10:00", extras={"ext_0001": 3}),
        "InvalidRequest",
        "limited to 2",
    )
    fails(
        session,
        "get_trip_quote",
        trip_args("683717", "2026-07-01T10:00", "2026-07-03T10:00", extras={"ext_0010": 1}),
        "NotFound",
        "isn't offered",
    )


# ---------------------------------------------------------------- requests and booking


def test_instant_book_books_at_once_and_requests_wait_for_the_host_for_8_hours(session):
    sign_in(session, CHRIS)
    booked = ok(session, "book_trip", trip_args("655002", "2026-06-24T10:00", "2026-06-25T10:00"))
    assert booked["status"] == "booked" and booked["booked_at"] is not None
    pending = ok(session, "book_trip", trip_args("702341", "2026-06-24T10:00", "2026-06-25T10:00"))
    assert pending["status"] == "pending"
    sign_in(session, MARCUS)
    at(session, "2026-06-10T17:30:00Z")
    fails(
        session, "respond_to_trip_request", {"trip_id": pending["trip_id"], "decision": "accept"}, "Conflict", "expired"
    )
    assert ok(session, "get_trip", {"trip_id": pending["trip_id"]})["status"] == "expired"


def test_host_accepts_a_pending_request_and_an_expired_card_is_refused(session):
    sign_in(session, CHRIS)
    fails(
        session,
        "book_trip",
        trip_args("655002", "2026-06-24T10:00", "2026-06-25T10:00", payment_method_id="card_1102"),
        "InvalidRequest",
        "has expired",
    )
    sign_in(session, ELENA)
    accepted = ok(session, "respond_to_trip_request", {"trip_id": "31840118", "decision": "accept"})
    assert accepted["status"] == "booked"
    fails(session, "respond_to_trip_request", {"trip_id": "31840118", "decision": "decline"}, "Conflict", "booked")


# ---------------------------------------------------------------- changes and extras


def test_change_requests_are_priced_and_applied_when_the_host_approves(session):
    sign_in(session, CHRIS)
    change = ok(session, "request_trip_change", {"trip_id": "31839412", "new_end_at": "2026-06-23T10:00"})
    assert (
        change["status"] == "pending"
        and change["price_difference"] == "90.47"
        and change["expires_at"] == "2026-06-10T17:00"
    )
    fails(
        session,
        "request_trip_change",
        {"trip_id": "31839412", "new_end_at": "2026-06-24T10:00"},
        "Conflict",
        "already have a change",
    )
    sign_in(session, MARCUS)
    trip = ok(session, "respond_to_trip_change", {"change_id": change["change_id"], "decision": "approve"})
    assert trip["end_at"] == "2026-06-23T10:00" and trip["price"]["days"] == 4
    assert trip["free_cancellation_until"] == "2026-06-18T10:00"


def test_trips_in_progress_only_move_their_end_and_not_into_the_next_booking(session):
    sign_in(session, MARIA)
    fails(
        session,
        "request_trip_change",
        {"trip_id": "31839977", "new_start_at": "2026-06-08T12:00"},
        "Conflict",
        "only its end",
    )
    fails(
        session,
        "request_trip_change",
        {"trip_id": "31839977", "new_end_at": "2026-06-13T12:00"},
        "Conflict",
        "already booked",
    )
    assert (
        ok(session, "request_trip_change", {"trip_id": "31839977", "new_end_at": "2026-06-12T10:00"})["new_days"] == 5
    )


def test_extras_change_only_before_the_trip_starts(session):
    sign_in(session, CHRIS)
    trip = ok(session, "update_trip_extras", {"trip_id": "31839412", "extras": {"ext_0001": 2, "ext_0003": 1}})
    assert trip["price"]["extras_cost"] == "58.00"
    sign_in(session, MARIA)
    fails(session, "update_trip_extras", {"trip_id": "31839977", "extras": {}}, "Conflict", "in_progress")


# ---------------------------------------------------------------- cancellation


def test_guest_cancels_free_until_24_hours_before_and_pays_a_day_after(session):
    sign_in(session, CHRIS)
    assert ok(session, "get_cancellation_quote", {"trip_id": "31839412"})["cancellation_fee"] == "0.00"
    at(session, "2026-06-18T12:00:00Z")
    quote = ok(session, "get_cancellation_quote", {"trip_id": "31839412"})
    # 3 days: (186.00 - 9.30 + 26.50) / 3 = 67.73, one day's average trip cost
    assert quote["cancellation_fee"] == "67.73" and quote["refund"] == "203.64"
    trip = ok(session, "cancel_trip", {"trip_id": "31839412", "reason": "plans_changed"})
    assert trip["status"] == "canceled" and trip["refund"] == "203.64"
    fails(session, "cancel_trip", {"trip_id": "31839412", "reason": "other"}, "Conflict", "canceled")


def test_late_bookings_get_one_free_hour_and_short_trips_pay_half_a_day(session):
    sign_in(session, TYLER)
    assert (
        ok(session, "get_cancellation_quote", {"trip_id": "31840102"})["free_cancellation_until"] == "2026-06-10T09:30"
    )
    at(session, "2026-06-10T10:00:00Z")
    quote = ok(session, "get_cancellation_quote", {"trip_id": "31840102"})
    # 2 days: (156.00 + 23.40) / 2 = 89.70, half of it
    assert quote["cancellation_fee"] == "44.85"


def test_host_cancellation_refunds_the_guest_and_charges_the_host(session):
    sign_in(session, SAM)
    assert ok(session, "get_cancellation_quote", {"trip_id": "31839740"})["host_penalty"] == "25.00"
    trip = ok(session, "cancel_trip", {"trip_id": "31839740", "reason": "vehicle_issue"})
    assert trip["canceled_by"] == "host" and trip["refund"] == trip["price"]["total"]
    at(session, "2026-06-14T12:00:00Z")
    fails(session, "cancel_trip", {"trip_id": "31839655", "reason": "other"}, "Conflict", "already started")


def test_host_fee_is_50_within_24_hours_and_started_trips_cannot_be_canceled(session):
    sign_in(session, SAM)
    at(session, "2026-06-14T12:00:00Z")
    assert ok(session, "get_cancellation_quote", {"trip_id": "31839740"})["host_penalty"] == "50.00"
    sign_in(session, MARIA)
    fails(session, "cancel_trip", {"trip_id": "31839977", "reason": "other"}, "Conflict", "in progress")


# ---------------------------------------------------------------- check-in and checkout


def test_check_in_opens_an_hour_before_and_needs_the_photos(session):
    sign_in(session, CHRIS)
    fails(
        session,
        "check_in",
        {"trip_id": "31839412", "odometer": 1, "fuel_percent": 100, "photos": ALL},
        "Conflict",
        "up to an hour",
    )
    sign_in(session, JORDAN)
    fails(
        session,
        "check_in",
        {"trip_id": "31839655", "odometer": 33120, "fuel_percent": 100, "photos": ["front", "rear"]},
        "InvalidRequest",
        "Missing: driver_side, passenger_side, dashboard",
    )
    trip = ok(session, "check_in", {"trip_id": "31839655", "odometer": 33120, "fuel_percent": 100, "photos": ALL})
    assert trip["status"] == "in_progress" and trip["check_in"]["odometer"] == 33120


def test_checkout_records_readings_and_refuses_a_lower_odometer(session):
    sign_in(session, MARIA)
    fails(
        session,
        "check_out",
        {"trip_id": "31839977", "odometer": 48000, "fuel_percent": 90, "photos": ALL},
        "InvalidRequest",
        "48210",
    )
    trip = ok(session, "check_out", {"trip_id": "31839977", "odometer": 48930, "fuel_percent": 75, "photos": ALL})
    assert trip["status"] == "completed" and trip["distance_driven"] == 720


# ---------------------------------------------------------------- reimbursements


def test_host_invoices_distance_fuel_and_late_return_from_the_records(session):
    sign_in(session, MARCUS)
    distance = ok(session, "request_reimbursement", {"trip_id": "31839288", "kind": "distance", "description": "Over"})
    assert distance["amount"] == "63.90"  # (742 - 600) x $0.45
    fuel = ok(
        session, "request_reimbursement", {"trip_id": "31839288", "kind": "fuel", "description": "Fuel", "amount": 48.5}
    )
    assert fuel["amount"] == "58.50" and fuel["due_at"] == "2026-06-12T09:01"
    assert (
        ok(session, "request_reimbursement", {"trip_id": "31839288", "kind": "late_return", "description": "Late"})[
            "amount"
        ]
        == "20.00"
    )
    fails(
        session,
        "request_reimbursement",
        {"trip_id": "31839288", "kind": "fuel", "description": "Again", "amount": 5},
        "Conflict",
        "already requested",
    )
    fails(
        session,
        "request_reimbursement",
        {"trip_id": "31839288", "kind": "smoking", "description": "x", "amount": 5},
        "InvalidRequest",
        "leave it out",
    )


def test_reimbursement_windows_and_eligibility(session):
    sign_in(session, MARCUS)
    fails(
        session,
        "request_reimbursement",
        {"trip_id": "31839005", "kind": "fuel", "description": "x", "amount": 20},
        "Conflict",
        "within 24 hours",
    )
    assert (
        ok(
            session,
            "request_reimbursement",
            {"trip_id": "31839005", "kind": "tolls", "description": "x", "amount": 12.75},
        )["amount"]
        == "12.75"
    )
    fails(
        session,
        "request_reimbursement",
        {"trip_id": "31839412", "kind": "tolls", "description": "x", "amount": 3},
        "Conflict",
        "completed trips",
    )


def test_guest_pays_or_disputes_within_48_hours(session):
    sign_in(session, CHRIS)
    fails(
        session,
        "respond_to_reimbursement",
        {"reimbursement_id": "rmb_00031", "action": "dispute"},
        "InvalidRequest",
        "why",
    )
    paid = ok(session, "respond_to_reimbursement", {"reimbursement_id": "rmb_00031", "action": "pay"})
    assert paid["status"] == "paid"
    fails(
        session,
        "respond_to_reimbursement",
        {"reimbursement_id": "rmb_00031", "action": "pay"},
        "Conflict",
        "already paid",
    )
    sign_in(session, MARIA)
    at(session, "2026-06-11T12:00:00Z")
    fails(
        session, "respond_to_reimbursement", {"reimbursement_id": "rmb_00029", "action": "pay"}, "Conflict", "48-hour"
    )


# ---------------------------------------------------------------- listings and messages


def test_listing_edits_keep_booked_trips_and_check_discounts(session):
    sign_in(session, MARCUS)
    fails(
        session, "update_listing", {"vehicle_id": "683717", "discount_7_day": 2}, "InvalidRequest", "at least the 3-day"
    )
    fails(session, "update_listing", {"vehicle_id": "683717"}, "InvalidRequest", "Nothing to update")
    listing = ok(session, "update_listing", {"vehicle_id": "683717", "daily_price": 80, "unlimited_distance": True})
    assert listing["daily_price"] == "80.00" and listing["distance_per_day"] is None
    assert ok(session, "get_trip", {"trip_id": "31839412"})["price"]["daily_price"] == "62.00"


def test_messages_go_to_the_trip_thread(session):
    sign_in(session, CHRIS)
    ok(session, "send_message", {"trip_id": "31839412", "text": "See you soon!"})
    thread = ok(session, "list_messages", {"trip_id": "31839412"})
    assert [m["sender_name"] for m in thread] == ["Chris Nguyen", "Marcus Bell", "Chris Nguyen"]


def test_a_seed_edit_shows_an_unapproved_state(session):
    def unapprove(tables):
        for row in tables["accounts"]:
            if row["email"] == AISHA:
                row["approved_to_drive"] = False

    restore_seed_with(session, unapprove, MORNING)
    sign_in(session, AISHA)
    fails(
        session,
        "get_trip_quote",
        trip_args("670455", "2026-06-24T10:00", "2026-06-25T10:00"),
        "InvalidRequest",
        "approved",
    )


def test_change_requests_expire_and_are_withdrawn_when_the_trip_is_canceled(session):
    sign_in(session, MARCUS)
    at(session, "2026-06-10T15:00:00Z")
    fails(session, "respond_to_trip_change", {"change_id": "chg_00041", "decision": "approve"}, "Conflict", "expired")
    at(session, "2026-06-10T09:00:00Z")
    sign_in(session, CHRIS)
    change = ok(session, "request_trip_change", {"trip_id": "31839412", "new_start_at": "2026-06-19T12:00"})
    ok(session, "cancel_trip", {"trip_id": "31839412", "reason": "plans_changed"})
    assert ok(session, "get_trip", {"trip_id": "31839412"})["changes"][0]["status"] == "withdrawn"
    sign_in(session, MARCUS)
    fails(
        session,
        "respond_to_trip_change",
        {"change_id": change["change_id"], "decision": "approve"},
        "Conflict",
        "withdrawn",
    )


def test_reimbursements_need_fuel_below_check_in_miles_over_the_allowance_and_a_late_return(session):
    def tidy(tables):
        for row in tables["trips"]:
            if row["id"] == "31839288":
                row.update(checkout_fuel=100, checkout_odometer=40500, checkout_at="2026-06-09T19:00")

    restore_seed_with(session, tidy, MORNING)
    sign_in(session, MARCUS)
    args = {"trip_id": "31839288", "description": "x"}
    fails(session, "request_reimbursement", {**args, "kind": "fuel", "amount": 20}, "Conflict", "not below")
    fails(session, "request_reimbursement", {**args, "kind": "distance"}, "Conflict", "within the trip's allowance")
    fails(session, "request_reimbursement", {**args, "kind": "late_return"}, "Conflict", "2 or more hours late")
    fails(session, "request_reimbursement", {**args, "kind": "cleaning"}, "InvalidRequest", "Enter the amount")
    assert ok(session, "request_reimbursement", {**args, "kind": "smoking"})["amount"] == "150.00"


def test_search_filters_and_sorts_and_list_trips_filters_by_live_status(session):
    sign_in(session, CHRIS)
    found = ok(
        session,
        "search_vehicles",
        {
            "city": "Denver",
            "start_at": "2026-06-20T10:00",
            "end_at": "2026-06-22T10:00",
            "min_seats": 7,
            "sort": "price_low",
        },
    )["results"]
    assert [r["vehicle_id"] for r in found][:2] == ["611851", "648230"]
    assert all(r["seats"] >= 7 for r in found)
    sign_in(session, MARCUS)
    at(session, "2026-06-10T16:00:00Z")
    assert [t["trip_id"] for t in ok(session, "list_trips", {"status": "expired"})["results"]][:1] == ["31840090"]
