"""Marriott Bonvoy's programme rules, each with a test that can fail: sign-in and whose reservations are whose,
the award chart by category and season with Stay for 5, Pay for 4, standard rooms only for awards, Free Night
Certificates (cap plus a 15,000-point top-up, expiry), Points Advance (30-day lead, 3 open, due date, funding),
cancellation deadlines and penalties (flexible, Prepay and Save, awards), changes, Suite Night Awards (one per
night, valid on arrival, 2 p.m. cut-off, eligible rooms, returned on withdrawal or cancellation), transfers (yearly
limits), missing stay credit (base points by brand, elite bonus, nights and tier), sold-out nights, occupancy,
closed hotels, and failures that change nothing."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("marriott")
CLOCK = datetime(2026, 6, 10, 15, 0, tzinfo=timezone.utc)

session = session_fixture(SPEC, CLOCK)

PRIYA, GRACE, MARCUS, DAVID, JAMES = "418273650", "690117245", "502917384", "733150442", "902384716"


def sign_in(session: ToolSession, login: str) -> None:
    ok(session, "sign_in", {"login": login}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def account(session: ToolSession) -> dict[str, Any]:
    return ok(session, "get_account")


def award(session: ToolSession, code: str, room: str, arrival: str, departure: str, **extra: Any) -> dict[str, Any]:
    args = {"property_code": code, "room_code": room, "arrival": arrival, "departure": departure, **extra}
    return ok(session, "redeem_free_night_award", args)


# ---------------------------------------------------------------- sign-in and ownership


def test_tools_need_a_signed_in_member_and_sign_in_is_user_only(session):
    fails(session, "get_account", {}, "PermissionDenied", "sign in")
    fails(session, "sign_in", {"login": "nobody@example.com"}, "NotFound", "couldn't find", caller="user")
    assert not session.call("sign_in", {"login": PRIYA}, caller="agent").ok
    sign_in(session, "PRIYA.RAMAN@outlook.com")
    assert account(session)["member_number"] == PRIYA


def test_another_members_reservation_does_not_exist_for_you(session):
    sign_in(session, PRIYA)
    fails(session, "get_reservation", {"confirmation_number": "84132286"}, "NotFound", "84132286")
    fails(session, "cancel_reservation", {"confirmation_number": "84132286"}, "NotFound", "84132286")


# ---------------------------------------------------------------- award pricing


def test_award_price_follows_category_and_season(session):
    sign_in(session, PRIYA)
    june = ok(
        session, "check_availability", {"property_code": "BOSWS", "arrival": "2026-06-24", "departure": "2026-06-25"}
    )
    king = next(room for room in june["rooms"] if room["room_code"] == "GENK")
    assert king["award"]["points_per_night"] == [60000]  # category 6, June is peak
    january = ok(
        session, "check_availability", {"property_code": "BOSWS", "arrival": "2027-01-10", "departure": "2027-01-11"}
    )
    assert next(r for r in january["rooms"] if r["room_code"] == "GENK")["award"]["points_per_night"] == [40000]
    suite = next(room for room in june["rooms"] if room["room_code"] == "SUIT1")
    assert suite["award"] is None


def test_every_fifth_points_night_is_free(session):
    sign_in(session, JAMES)
    stay = award(session, "PARCE", "GENK", "2026-10-01", "2026-10-06")
    assert stay["nightly"] == [100000] * 5 and stay["points_total"] == 400000
    four = award(session, "PARCE", "GENK", "2026-10-10", "2026-10-14")
    assert four["points_total"] == 400000
    assert four["points_advance"] and account(session)["points"] == 540200 - 400000


def test_awards_book_standard_rooms_only(session):
    sign_in(session, JAMES)
    args = {"property_code": "SFOSR", "room_code": "SUIT1", "arrival": "2026-08-01", "departure": "2026-08-02"}
    fails(session, "redeem_free_night_award", args, "InvalidRequest", "standard rooms")


def test_redeeming_deducts_points_and_posts_activity(session):
    sign_in(session, PRIYA)
    stay = award(session, "LISMC", "GENK", "2026-06-27", "2026-06-28")
    assert stay["points_total"] == 30000 and stay["points_paid"] and not stay["points_advance"]
    assert account(session)["points"] == 123400 - 30000
    latest = ok(session, "list_point_activity", {"type": "AWARD"})["results"][0]
    assert latest["points"] == -30000 and latest["confirmation_number"] == stay["confirmation_number"]


# ---------------------------------------------------------------- certificates


def test_certificate_covers_cap_plus_top_up_and_no_more(session):
    sign_in(session, GRACE)
    cert = "FNC58263"  # 35,000 cap
    fails(
        session,
        "redeem_free_night_award",
        {
            "property_code": "PARCE",
            "room_code": "GENK",
            "arrival": "2026-09-02",
            "departure": "2026-09-03",
            "certificate_id": cert,
        },
        "Conflict",
        "15,000-point top-up",
    )
    stay = award(session, "OGGSM", "GENK", "2026-09-24", "2026-09-25", certificate_id=cert)
    assert stay["top_up_points"] == 15000 and stay["points_total"] == 15000
    assert ok(session, "list_free_night_certificates", {"status": "USED"})[0]["certificate_id"] == cert
    again = {"property_code": "OGGSM", "room_code": "GENK", "arrival": "2026-09-25", "departure": "2026-09-26"}
    fails(session, "redeem_free_night_award", {**again, "certificate_id": cert}, "Conflict", "is used")


def test_certificate_must_not_expire_before_arrival(session):
    sign_in(session, "sofia.martinez@icloud.com")
    args = {
        "property_code": "AUSRI",
        "room_code": "STDK",
        "arrival": "2026-10-09",
        "departure": "2026-10-10",
        "certificate_id": "FNC58198",
    }
    fails(session, "redeem_free_night_award", args, "Conflict", "expires on 2026-07-31")


def test_free_cancellation_returns_points_and_certificate(session):
    sign_in(session, PRIYA)
    stay = award(session, "BOSCY", "GEN2", "2026-07-03", "2026-07-05", certificate_id="FNC58133")
    before = account(session)["points"]
    assert stay["points_total"] == 30000
    cancelled = ok(session, "cancel_reservation", {"confirmation_number": stay["confirmation_number"]})
    assert cancelled["status"] == "CANCELLED" and cancelled["penalty"] == 0
    assert account(session)["points"] == before + 30000
    assert ok(session, "list_free_night_certificates", {"status": "AVAILABLE"})[0]["certificate_id"] == "FNC58133"


# ---------------------------------------------------------------- Points Advance


def test_points_advance_needs_thirty_days(session):
    sign_in(session, DAVID)
    args = {"property_code": "MCOJW", "room_code": "GENK", "arrival": "2026-07-01", "departure": "2026-07-02"}
    fails(session, "redeem_free_night_award", args, "Conflict", "at least 30 days away")


def test_points_advance_due_date_limit_and_funding(session):
    sign_in(session, DAVID)
    first = award(session, "MCOJW", "GEN2", "2026-12-12", "2026-12-15")
    assert first["points_advance"] and not first["points_paid"] and first["points_due_by"] == "2026-08-09"
    near = award(session, "MCOFI", "GENK", "2026-07-20", "2026-07-21")  # 15,000 points (peak), 8,200 held
    assert near["points_due_by"] == "2026-07-06"  # 14 days before arrival comes first
    assert account(session)["points"] == 8200 and account(session)["open_points_advances"] == 3
    args = {"property_code": "MCOFI", "room_code": "GENK", "arrival": "2026-08-20", "departure": "2026-08-21"}
    fails(session, "redeem_free_night_award", args, "Conflict", "already hold 3")
    fails(
        session, "pay_points_advance", {"confirmation_number": near["confirmation_number"]}, "Conflict", "need 15,000"
    )


def test_unpaid_points_advance_lapses_after_its_due_date(session):
    sign_in(session, DAVID)
    at(session, "2026-08-11T10:00:00Z")
    assert ok(session, "get_reservation", {"confirmation_number": "84132640"})["status"] == "CANCELLED"
    fails(session, "pay_points_advance", {"confirmation_number": "84132640"}, "Conflict", "due date passed")


def test_refunded_award_points_can_pay_a_points_advance(session):
    sign_in(session, GRACE)
    ok(session, "cancel_reservation", {"confirmation_number": "84129954"})
    paid = ok(session, "pay_points_advance", {"confirmation_number": "84132577"})
    assert paid["points_paid"] and account(session)["points"] == 96800 + 100000 - 150000
    fails(session, "pay_points_advance", {"confirmation_number": "84132577"}, "Conflict", "no points due")


# ---------------------------------------------------------------- cancellation and changes


def test_flexible_cancellation_after_the_deadline_costs_a_night(session):
    sign_in(session, PRIYA)
    at(session, "2026-06-23T00:30:00Z")
    late = ok(session, "cancel_reservation", {"confirmation_number": "84131207"})
    assert late["penalty"] == 39900


def test_cancelling_before_the_deadline_is_free(session):
    sign_in(session, PRIYA)
    at(session, "2026-06-22T23:00:00Z")
    assert ok(session, "cancel_reservation", {"confirmation_number": "84131207"})["penalty"] == 0
    fails(session, "cancel_reservation", {"confirmation_number": "84131207"}, "Conflict", "cancelled")


def test_prepay_is_never_refunded_or_changed(session):
    sign_in(session, PRIYA)
    fails(session, "change_reservation", {"confirmation_number": "84131522", "guests": 2}, "Conflict", "Prepay")
    cancelled = ok(session, "cancel_reservation", {"confirmation_number": "84131522"})
    assert cancelled["penalty"] == 52600 == sum(cancelled["nightly"])


def test_late_award_cancellation_keeps_the_first_nights_points(session):
    sign_in(session, "elena.sokolova@gmail.com")
    at(session, "2027-01-06T12:00:00Z")  # the Paris award's deadline was 2027-01-05 23:59
    cancelled = ok(session, "cancel_reservation", {"confirmation_number": "84134410"})
    assert cancelled["penalty"] == 70000
    assert account(session)["points"] == 311700 + 280000 - 70000


def test_changes_reprice_and_refuse_awards_and_past_deadlines(session):
    sign_in(session, MARCUS)
    changed = ok(session, "change_reservation", {"confirmation_number": "84132286", "departure": "2026-06-21"})
    assert changed["nights"] == 3 and changed["cash_total"] == "927.00"
    sign_in(session, PRIYA)
    fails(session, "change_reservation", {"confirmation_number": "84133048", "guests": 1}, "Conflict", "Award")
    at(session, "2026-06-23T09:00:00Z")
    fails(session, "change_reservation", {"confirmation_number": "84131207", "guests": 1}, "Conflict", "deadline")


def test_sold_out_nights_occupancy_and_closed_hotels_are_refused(session):
    sign_in(session, PRIYA)
    base = {
        "property_code": "BOSCY",
        "room_code": "GENK",
        "rate_plan": "MEMBER",
        "arrival": "2026-07-02",
        "departure": "2026-07-04",
    }
    fails(session, "book_stay", base, "Conflict", "not available on 2026-07-03")
    stay = {"property_code": "BOSCY", "arrival": "2026-07-02", "departure": "2026-07-04"}
    rooms = {room["room_code"]: room for room in ok(session, "check_availability", stay)["rooms"]}
    assert rooms["GENK"]["unavailable_nights"] == ["2026-07-03"] and not rooms["GENK"]["available"]
    assert rooms["GEN2"]["available"] and len(rooms["GEN2"]["prices"]) >= 3
    fails(session, "book_stay", {**base, "room_code": "GEN2", "guests": 5}, "InvalidRequest", "sleeps at most 4")
    fails(session, "book_stay", {**base, "property_code": "LONCA"}, "Conflict", "temporarily closed")
    fails(session, "book_stay", {**base, "rate_plan": "SENIOR", "room_code": "VIEWK"}, "NotFound", "SENIOR")
    fails(session, "book_stay", {**base, "arrival": "2026-06-01"}, "InvalidRequest", "past")


# ---------------------------------------------------------------- Suite Night Awards


def test_suite_nights_take_one_per_night_and_come_back_on_withdrawal(session):
    sign_in(session, GRACE)
    args = {"confirmation_number": "84131933", "room_code": "SUIT1"}
    fails(session, "request_suite_night_upgrade", args, "Conflict", "needs 3 Suite Night Awards")
    ok(session, "withdraw_suite_night_request", {"confirmation_number": "84132801"})
    assert account(session)["suite_night_awards"] == 5
    upgraded = ok(session, "request_suite_night_upgrade", args)
    assert upgraded["upgrade_status"] == "REQUESTED" and account(session)["suite_night_awards"] == 2


def test_suite_nights_must_be_valid_on_arrival(session):
    sign_in(session, "elena.sokolova@gmail.com")
    args = {"confirmation_number": "84134410", "room_code": "SUIT1"}
    fails(session, "request_suite_night_upgrade", args, "Conflict", "you have 0 valid on 2027-01-08")


def test_suite_nights_close_at_two_pm_the_day_before_and_need_an_eligible_room(session):
    sign_in(session, PRIYA)
    fails(
        session,
        "request_suite_night_upgrade",
        {"confirmation_number": "84131207", "room_code": "PRES"},
        "InvalidRequest",
        "can't be confirmed",
    )
    at(session, "2026-06-23T14:00:00Z")
    fails(
        session,
        "request_suite_night_upgrade",
        {"confirmation_number": "84131207", "room_code": "SUIT1"},
        "Conflict",
        "2 p.m.",
    )


def test_dates_cannot_change_under_a_pending_request_and_cancelling_returns_the_awards(session):
    sign_in(session, GRACE)
    fails(
        session,
        "change_reservation",
        {"confirmation_number": "84132801", "departure": "2026-07-24"},
        "Conflict",
        "Withdraw the Suite Night Award request",
    )
    ok(session, "cancel_reservation", {"confirmation_number": "84132801"})
    assert account(session)["suite_night_awards"] == 5


# ---------------------------------------------------------------- points


def test_transfers_respect_the_yearly_limit_and_move_points(session):
    sign_in(session, JAMES)
    fails(
        session,
        "transfer_points",
        {"recipient_member_number": GRACE, "points": 25000},
        "Conflict",
        "10,000 more this year",
    )
    fails(session, "transfer_points", {"recipient_member_number": JAMES, "points": 1000}, "InvalidRequest", "own")
    assert not session.call("transfer_points", {"recipient_member_number": GRACE, "points": 1500}).ok
    after = ok(session, "transfer_points", {"recipient_member_number": GRACE, "points": 10000})
    assert after["points"] == 530200
    sign_in(session, GRACE)
    assert account(session)["points"] == 106800
    assert ok(session, "list_point_activity", {"type": "TRANSFER_IN"})["results"][0]["points"] == 10000


def test_missing_stay_credit_earns_base_and_bonus_and_upgrades_the_tier(session):
    sign_in(session, MARCUS)
    ok(session, "request_missing_stay_credit", {"confirmation_number": "84127705"})
    member = account(session)
    assert member["points"] == 41250 + 8970 + 897 and member["nights_this_year"] == 25 and member["tier"] == "GOLD"
    fails(session, "request_missing_stay_credit", {"confirmation_number": "84127705"}, "Conflict", "already credited")
    fails(session, "request_missing_stay_credit", {"confirmation_number": "84132286"}, "Conflict", "completed")


def test_extended_stay_brands_earn_five_points_and_award_stays_only_nights(session):
    sign_in(session, "nina.petrov@gmail.com")
    ok(session, "request_missing_stay_credit", {"confirmation_number": "84128020"})
    assert account(session)["points"] == 23100 + 6225 + 622
    ok(session, "request_missing_stay_credit", {"confirmation_number": "84126404"})
    member = account(session)
    assert member["points"] == 23100 + 6225 + 622 and member["nights_this_year"] == 18


def test_a_member_receives_at_most_500000_points_a_year(session):
    def edit(tables: dict[str, list[dict[str, Any]]]) -> None:
        tables["postings"].append(
            {
                "id": "PST999001",
                "member_number": GRACE,
                "posted_on": "2026-01-20",
                "type": "TRANSFER_IN",
                "points": 435000,  # with the 60,000 from James in February: 495,000
                "nights": 0,
                "description": "Points transfer",
                "confirmation_number": None,
                "counterparty": "611408923",
            }
        )

    restore_seed_with(session, edit, CLOCK)
    sign_in(session, JAMES)
    fails(session, "transfer_points", {"recipient_member_number": GRACE, "points": 6000}, "Conflict", "500,000")
    assert ok(session, "transfer_points", {"recipient_member_number": GRACE, "points": 5000})["points"] == 535200
