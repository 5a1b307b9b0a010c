"""Trainline's business rules, each with a test that can fail: sign-in, Off-Peak validity on peak trains, Advance
quotas and the 18:00 cut-off, child and Railcard prices (34% off rounded down to 5p, the 16-25 £12 morning minimum,
Two Together before 09:30, Family & Friends children and Standard class, expiry, holders travelling), returns,
cancelled trains, seat reservations, refunds (Advance, tiered fees, activated mobile tickets, the 28-day window) and
changes (route, departure, fare difference never refunded, admin fee), and failures that change nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("trainline")
CLOCK = datetime(2025, 4, 8, 9, 0, tzinfo=timezone.utc)
USERS = {
    "priya": ("priya.raman@example.co.uk", "Kings-Cross-88"),
    "tom": ("tom.whitfield@example.co.uk", "Harrogate!2019"),
    "margaret": ("m.doyle@example.co.uk", "Bramble-Cottage7"),
    "daniel": ("daniel.okoro@student.leeds.example", "Headingley#21"),
    "hannah": ("hannah.lewis@example.co.uk", "CliftonSusp3nsion"),
}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str) -> None:
    email, password = USERS[who]
    ok(session, "sign_in", {"email": email, "password": password}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def journey(session: ToolSession, origin: str, destination: str, date: str, service_id: str, **extra) -> dict:
    found = ok(session, "search_journeys", {"origin": origin, "destination": destination, "date": date, **extra})
    return next(j for j in found["results"] if j["service_id"] == service_id)


def fare(found: dict, fare_type: str, travel_class: str = "STANDARD") -> dict:
    return next(f for f in found["fares"] if f["fare_type"] == fare_type and f["travel_class"] == travel_class)


def book(session: ToolSession, **args) -> dict:
    return ok(session, "create_booking", args)


ME = [{"name": "Priya Raman"}]


# ---------------------------------------------------------------- account


def test_sign_in_refuses_a_wrong_password_and_tools_need_a_signed_in_traveller(session):
    fails(session, "list_bookings", {}, "PermissionDenied", "sign in")
    fails(
        session,
        "sign_in",
        {"email": "priya.raman@example.co.uk", "password": "nope"},
        "PermissionDenied",
        "incorrect",
        caller="user",
    )
    sign_in(session, "priya")
    assert ok(session, "get_account", {})["name"] == "Priya Raman"


def test_bookings_of_another_account_read_as_not_found(session):
    sign_in(session, "hannah")
    fails(session, "get_booking", {"booking_ref": "TL60400548"}, "NotFound", "not found in your account")


def test_railcards_list_only_active_ones_and_adding_checks_expiry_holders_and_duplicates(session):
    sign_in(session, "tom")
    assert {c["railcard_id"] for c in ok(session, "list_railcards", {})} == {"rc_0003", "rc_0004"}
    base = {"type": "TWO_TOGETHER", "number": "TT1234AB", "expires": "2026-01-01"}
    fails(session, "add_railcard", {**base, "holders": ["Tom Whitfield"]}, "InvalidRequest", "two cardholders")
    fails(
        session,
        "add_railcard",
        {**base, "holders": ["Tom Whitfield", "Sarah Whitfield"], "expires": "2025-01-01"},
        "InvalidRequest",
        "expired",
    )
    fails(
        session,
        "add_railcard",
        {**base, "number": "TT9021LM", "holders": ["Tom Whitfield", "Sarah Whitfield"]},
        "Conflict",
        "already saved",
    )
    ok(session, "remove_railcard", {"railcard_id": "rc_0004"})
    assert [c["railcard_id"] for c in ok(session, "list_railcards", {})] == ["rc_0003"]
    fails(session, "remove_railcard", {"railcard_id": "rc_0004"}, "NotFound", "not found")


# ---------------------------------------------------------------- fares


def test_off_peak_is_not_sold_on_weekday_peak_trains_but_is_at_weekends(session):
    sign_in(session, "priya")
    peak = journey(session, "KGX", "YRK", "2025-04-11", "svc_20250411_2D11")
    assert peak["peak"] and not any(f["fare_type"] == "OFF_PEAK" for f in peak["fares"])
    assert any("OFF_PEAK STANDARD" in reason and "peak train" in reason for reason in peak["unavailable"])
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250411_2D11", "fare_type": "OFF_PEAK", "passengers": ME},
        "Conflict",
        "not valid on the 08:37",
    )
    saturday = journey(session, "KGX", "YRK", "2025-04-12", "svc_20250412_2D11")
    assert not saturday["peak"] and fare(saturday, "OFF_PEAK")["single_price"] == "67.30"


def test_children_pay_half_and_a_railcard_takes_34_percent_off_rounded_down_to_5p(session):
    sign_in(session, "daniel")
    found = journey(session, "LDS", "KGX", "2025-04-14", "svc_20250414_3D27", children=1, railcard_id="rc_0006")
    lines = fare(found, "ADVANCE")["passengers"]
    assert [(p["passenger_type"], p["price"], p["railcard_applied"]) for p in lines] == [
        ("ADULT", "27.75", True),  # 42.10 less 34% = 27.786 -> 27.75
        ("CHILD", "21.05", False),  # half of 42.10, no 16-25 discount for a child
    ]


def test_16_25_railcard_keeps_a_12_pound_minimum_on_weekday_mornings_only(session):
    sign_in(session, "daniel")
    morning = journey(session, "LDS", "MCV", "2025-04-10", "svc_20250410_1N80", railcard_id="rc_0006")
    assert fare(morning, "ANYTIME")["single_price"] == "12.00"  # 17.90 less 34% would be 11.80
    later = journey(session, "LDS", "MCV", "2025-04-10", "svc_20250410_3N82", railcard_id="rc_0006")
    assert fare(later, "ANYTIME")["single_price"] == "11.80"
    saturday = journey(session, "LDS", "MCV", "2025-04-12", "svc_20250412_1N80", railcard_id="rc_0006")
    assert fare(saturday, "ANYTIME")["single_price"] == "11.80"


def test_two_together_needs_both_holders_and_is_not_valid_before_0930_on_weekdays(session):
    sign_in(session, "tom")
    couple = [{"name": "Tom Whitfield"}, {"name": "Sarah Whitfield"}]
    args = {"fare_type": "ADVANCE", "passengers": couple, "railcard_id": "rc_0003"}
    early = journey(session, "KGX", "YRK", "2025-04-16", "svc_20250416_2D11", adults=2, railcard_id="rc_0003")
    assert "before 09:30" in fare(early, "ADVANCE")["railcard_note"]
    fails(session, "create_booking", {**args, "service_id": "svc_20250416_2D11"}, "InvalidRequest", "before 09:30")
    fails(
        session,
        "create_booking",
        {
            **args,
            "service_id": "svc_20250416_3D12",
            "passengers": [{"name": "Tom Whitfield"}, {"name": "Linda Hargreaves"}],
        },
        "InvalidRequest",
        "must be one of the passengers",
    )
    booked = book(session, **args, service_id="svc_20250416_3D12")
    assert [t["price"] for t in booked["tickets"]] == ["26.30", "26.30"]  # 39.90 less 34%


def test_family_and_friends_needs_a_child_is_standard_only_and_takes_60_percent_off_children(session):
    sign_in(session, "tom")
    family = [
        {"name": "Tom Whitfield"},
        {"name": "Ellie Whitfield", "passenger_type": "CHILD"},
    ]
    base = {"service_id": "svc_20250412_3D12", "fare_type": "OFF_PEAK", "railcard_id": "rc_0004"}
    fails(
        session,
        "create_booking",
        {**base, "passengers": [{"name": "Tom Whitfield"}]},
        "InvalidRequest",
        "at least one child",
    )
    fails(
        session,
        "create_booking",
        {**base, "passengers": family, "travel_class": "FIRST"},
        "InvalidRequest",
        "Standard class only",
    )
    booked = book(session, **base, passengers=family)
    assert [t["price"] for t in booked["tickets"]] == ["44.40", "13.45"]  # 67.30 less 34%; 33.65 less 60%


def test_an_expired_railcard_is_refused_for_travel_after_its_expiry(session):
    sign_in(session, "tom")
    family = [{"name": "Tom Whitfield"}, {"name": "Jack Whitfield", "passenger_type": "CHILD"}]
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250417_3G42", "fare_type": "OFF_PEAK", "passengers": family, "railcard_id": "rc_0004"},
        "InvalidRequest",
        "expires on 2025-04-15",
    )


# ---------------------------------------------------------------- Advance and bookings


def test_advance_quota_is_checked_and_spent_and_sales_stop_at_1800_the_day_before(session):
    sign_in(session, "priya")
    pair = ME + [{"name": "Arjun Raman"}]
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250411_5S04", "fare_type": "ADVANCE", "passengers": pair},
        "Conflict",
        "Only 1 Advance",
    )
    assert ok(session, "get_journey", {"service_id": "svc_20250411_3S02"})["advance_standard_left"] == 8
    booked = book(session, service_id="svc_20250411_3S02", fare_type="ADVANCE", passengers=pair)
    assert all(t["seat"] for t in booked["tickets"])  # Advance always comes with seats
    assert ok(session, "get_journey", {"service_id": "svc_20250411_3S02"})["advance_standard_left"] == 6
    at(session, "2025-04-10T18:00:00Z")
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250411_4S03", "fare_type": "ADVANCE", "passengers": ME},
        "Conflict",
        "off sale at 18:00",
    )


def test_returns_must_come_back_the_same_way_and_advance_is_single_only(session):
    sign_in(session, "priya")
    base = {"service_id": "svc_20250412_3D12", "passengers": ME}
    fails(
        session,
        "create_booking",
        {**base, "fare_type": "ADVANCE", "return_service_id": "svc_20250413_3D17"},
        "InvalidRequest",
        "singles only",
    )
    fails(
        session,
        "create_booking",
        {**base, "fare_type": "OFF_PEAK", "return_service_id": "svc_20250413_3S07"},
        "InvalidRequest",
        "back to the origin",
    )
    booked = book(session, **base, fare_type="OFF_PEAK", return_service_id="svc_20250413_3D17")
    ticket = booked["tickets"][0]
    assert ticket["journey_type"] == "RETURN" and ticket["price"] == "68.40" and ticket["return_seat"]


def test_cancelled_or_departed_trains_cannot_be_booked(session):
    sign_in(session, "priya")
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250411_3D12", "fare_type": "ANYTIME", "passengers": ME},
        "Conflict",
        "cancelled",
    )
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250408_1S00", "fare_type": "ANYTIME", "passengers": ME},
        "InvalidRequest",
        "already departed",
    )


# ---------------------------------------------------------------- seats


def test_seats_must_be_free_and_in_the_tickets_class(session):
    sign_in(session, "margaret")
    fails(
        session, "reserve_seat", {"ticket_id": "tkt_00028", "coach": "A", "seat": 2}, "Conflict", "already reserved"
    )  # Patricia's
    fails(
        session,
        "reserve_seat",
        {"ticket_id": "tkt_00028", "coach": "K", "seat": 1},
        "InvalidRequest",
        "not a standard class seat",
    )
    moved = ok(session, "reserve_seat", {"ticket_id": "tkt_00028", "coach": "A", "seat": 5})
    assert moved["seat"] == "A5"
    tables = ok(session, "get_seat_map", {"service_id": "svc_20250415_3S02", "feature": "TABLE"})["seats"]
    assert ("A", 5) not in {(s["coach"], s["seat"]) for s in tables} and ("A", 6) in {
        (s["coach"], s["seat"]) for s in tables
    }


# ---------------------------------------------------------------- refunds


def test_advance_is_non_refundable_but_a_cancelled_train_refunds_in_full_without_fee(session):
    sign_in(session, "priya")
    fails(
        session,
        "refund_tickets",
        {"booking_ref": "TL60400548", "ticket_ids": ["tkt_00005"]},
        "Conflict",
        "non-refundable",
    )
    done = ok(session, "refund_tickets", {"booking_ref": "TL60400822", "ticket_ids": ["tkt_00007", "tkt_00008"]})
    assert (
        done["status"] == "REFUNDED" and done["refunds"][0]["fee"] == "0.00" and done["refunds"][0]["amount"] == "49.80"
    )


def test_flexible_refunds_pay_back_less_the_tiered_fee_per_ticket_and_part_refunds_keep_the_rest(session):
    sign_in(session, "tom")
    quote = ok(session, "get_refund_quote", {"booking_ref": "TL60401370", "ticket_ids": ["tkt_00018"]})
    assert quote["tickets"][0]["fee"] == "5.00" and quote["total_refund"] == "8.65"
    done = ok(session, "refund_tickets", {"booking_ref": "TL60401370", "ticket_ids": ["tkt_00018"]})
    assert done["status"] == "PARTLY_REFUNDED"
    assert [t["status"] for t in done["tickets"]] == ["ISSUED", "ISSUED", "ISSUED", "REFUNDED"]
    fails(
        session,
        "refund_tickets",
        {"booking_ref": "TL60401370", "ticket_ids": ["tkt_00018"]},
        "Conflict",
        "already refunded",
    )


def test_activated_mobile_tickets_cannot_be_refunded_and_activation_is_for_the_day_of_travel(session):
    sign_in(session, "daniel")
    fails(session, "activate_ticket", {"ticket_id": "tkt_00036"}, "Conflict", "day of travel", caller="user")
    fails(
        session, "activate_ticket", {"ticket_id": "tkt_00037"}, "InvalidRequest", "Only mobile tickets", caller="user"
    )
    ok(session, "activate_ticket", {"ticket_id": "tkt_00040"}, caller="user")
    quote = ok(session, "get_refund_quote", {"booking_ref": "TL60403562"})
    assert not quote["tickets"][0]["refundable"] and "activated" in quote["tickets"][0]["reason"]
    fails(
        session, "refund_tickets", {"booking_ref": "TL60403562", "ticket_ids": ["tkt_00040"]}, "Conflict", "activated"
    )


def test_refunds_close_28_days_after_the_ticket_expires(session):
    sign_in(session, "margaret")
    assert ok(session, "get_refund_quote", {"booking_ref": "TL60402055"})["tickets"][0]["refundable"]
    at(session, "2025-05-03T09:00:00Z")  # travelled (out and back) on 4 April
    fails(
        session,
        "refund_tickets",
        {"booking_ref": "TL60402055", "ticket_ids": ["tkt_00026"]},
        "Conflict",
        "within 28 days",
    )


# ---------------------------------------------------------------- changes


def test_a_change_pays_the_difference_plus_the_admin_fee_and_never_refunds_a_cheaper_fare(session):
    sign_in(session, "priya")
    dearer = ok(session, "get_exchange_quote", {"booking_ref": "TL60400548", "new_service_id": "svc_20250410_3S02"})
    assert dearer["lines"][0]["difference"] == "6.60" and dearer["amount_to_pay"] == "16.60"
    cheaper = ok(session, "get_exchange_quote", {"booking_ref": "TL60400685", "new_service_id": "svc_20250413_3S07"})
    assert cheaper["lines"][0]["new_price"] == "28.05" and cheaper["amount_to_pay"] == "10.00"
    done = ok(session, "exchange_booking", {"booking_ref": "TL60400548", "new_service_id": "svc_20250410_3S02"})
    assert done["amount_charged"] == "16.60" and done["new_booking"]["tickets"][0]["seat"]
    assert done["new_booking"]["exchanged_from"] == "TL60400548" and done["new_booking"]["change_paid"] == "16.60"
    old = ok(session, "get_booking", {"booking_ref": "TL60400548"})
    assert old["status"] == "EXCHANGED" and old["exchanged_to"] == done["new_booking"]["booking_ref"]
    assert old["tickets"][0]["status"] == "EXCHANGED"


def test_changes_keep_the_route_happen_before_departure_and_not_for_returns(session):
    sign_in(session, "priya")
    fails(
        session,
        "exchange_booking",
        {"booking_ref": "TL60400548", "new_service_id": "svc_20250411_4D13"},
        "InvalidRequest",
        "same origin and destination",
    )
    fails(
        session,
        "get_exchange_quote",
        {"booking_ref": "TL60400959", "new_service_id": "svc_20250416_4D23"},
        "InvalidRequest",
        "Return tickets",
    )
    at(session, "2025-04-11T10:45:00Z")
    fails(
        session,
        "exchange_booking",
        {"booking_ref": "TL60400548", "new_service_id": "svc_20250411_4S03"},
        "Conflict",
        "before the booked train departs",
    )


def test_a_change_to_a_train_without_advance_left_needs_another_fare_type(session):
    sign_in(session, "tom")
    fails(
        session,
        "exchange_booking",
        {"booking_ref": "TL60401644", "new_service_id": "svc_20250413_4C68"},
        "Conflict",
        "Not enough Advance",
    )
    done = ok(
        session,
        "exchange_booking",
        {"booking_ref": "TL60401644", "new_service_id": "svc_20250413_4C68", "fare_type": "OFF_PEAK"},
    )
    assert done["amount_charged"] == "62.80" and {t["fare_type"] for t in done["new_booking"]["tickets"]} == {
        "OFF_PEAK"
    }


# ---------------------------------------------------------------- Eurostar


def test_eurostar_sells_its_own_fares_only_without_railcards_and_times_are_local(session):
    sign_in(session, "priya")
    found = journey(session, "STP", "PNO", "2025-04-12", "svc_20250412_9002", railcard_id="rc_0001")
    assert {f["fare_type"] for f in found["fares"]} == {"EUROSTAR"} and found["duration_minutes"] == 136
    assert fare(found, "EUROSTAR")["railcard_note"] == "Railcards can't be used on Eurostar."
    base = {"service_id": "svc_20250412_9002", "passengers": ME}
    fails(session, "create_booking", {**base, "fare_type": "ANYTIME"}, "InvalidRequest", "Eurostar fares only")
    fails(
        session,
        "create_booking",
        {**base, "fare_type": "EUROSTAR", "railcard_id": "rc_0001"},
        "InvalidRequest",
        "can't be used on Eurostar",
    )
    fails(
        session,
        "create_booking",
        {"service_id": "svc_20250412_3S02", "fare_type": "EUROSTAR", "passengers": ME},
        "InvalidRequest",
        "only sold on Eurostar trains",
    )
    booked = book(session, **base, fare_type="EUROSTAR")
    assert booked["tickets"][0]["price"] == "89.00" and booked["tickets"][0]["seat"]


def test_eurostar_refunds_only_7_days_out_less_25_pounds_and_changes_are_free_until_an_hour_before(session):
    sign_in(session, "hannah")
    soon = book(session, service_id="svc_20250412_9002", fare_type="EUROSTAR", passengers=[{"name": "Hannah Lewis"}])
    later = book(session, service_id="svc_20250418_9100", fare_type="EUROSTAR", passengers=[{"name": "Hannah Lewis"}])
    fails(
        session,
        "refund_tickets",
        {"booking_ref": soon["booking_ref"], "ticket_ids": [soon["tickets"][0]["ticket_id"]]},
        "Conflict",
        "within 7 days",
    )
    quote = ok(session, "get_refund_quote", {"booking_ref": later["booking_ref"]})
    assert quote["total_fees"] == "25.00" and quote["total_refund"] == "64.00"  # 89.00 less 25.00
    change = ok(
        session, "get_exchange_quote", {"booking_ref": soon["booking_ref"], "new_service_id": "svc_20250412_9000"}
    )
    assert (
        change["lines"][0]["admin_fee"] == "0.00" and change["amount_to_pay"] == "0.00"
    )  # 69.00 < 89.00: not refunded
    at(session, "2025-04-12T08:45:00Z")  # 46 minutes before the 09:31
    fails(
        session,
        "exchange_booking",
        {"booking_ref": soon["booking_ref"], "new_service_id": "svc_20250412_9004"},
        "Conflict",
        "one hour before",
    )
