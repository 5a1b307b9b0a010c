"""The Twilio environment's tools on the real seed: subaccount status changes (closing is final and releases numbers,
the main account can't be changed), buying, moving and releasing numbers, Lookup, sender pools (one service per
number, sole proprietor campaigns allow one), A2P 10DLC campaign registration (approved brand of the same account,
use cases by brand type, one per service, the vetting fee) and the gate it puts on US long-code traffic (30034),
sending (21610 opt-outs per sender scope, 21606 senders, 21408 regions, 10001 inactive accounts, landlines 30006,
segments and prices, sticky sender), scheduling (35118, 35114, only scheduled messages cancel), usage and balance.
Every error path is checked to leave the state unchanged, with Twilio's code in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("twilio")
CLOCK = datetime(2026, 3, 10, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ACC = {a["friendly_name"]: a["sid"] for a in SEED["accounts"]}
SVC = {s["friendly_name"]: s["sid"] for s in SEED["messaging_services"]}
PN = {n["phone_number"]: n["sid"] for n in SEED["phone_numbers"]}
BRAND = {b["business_name"]: b["sid"] for b in SEED["brands"]}
HV, OAK, PINE, MAR = ACC["Harborview Dental"], ACC["Oakline Pizza"], ACC["Pinecrest Realty"], ACC["Marisol Cakes"]
HVS = SVC["Harborview Appointment Reminders"]
CAMPAIGN = {
    "us_app_to_person_usecase": "MIXED",
    "description": "Listing alerts and open house reminders for Pinecrest Realty contacts who opted in.",
    "message_samples": [
        "Pinecrest Realty: new listing in Kirkland, open house Sat 1-3pm.",
        "Pinecrest Realty: reply STOP to opt out.",
    ],
    "has_embedded_links": False,
    "has_embedded_phone": False,
}

session = session_fixture(SPEC, CLOCK)


def send(session: ToolSession, **args) -> dict:
    return ok(session, "send_message", args)


def balance(session: ToolSession) -> str:
    return ok(session, "get_balance")["balance"]


def pool(session: ToolSession, service: str) -> list[str]:
    return [n["phone_number"] for n in ok(session, "get_messaging_service", {"service_sid": service})["phone_numbers"]]


def numbers_of(session: ToolSession, account: str) -> set[str]:
    found = ok(session, "list_incoming_phone_numbers", {"account_sid": account})["incoming_phone_numbers"]
    return {n["phone_number"] for n in found}


# ---------------------------------------------------------------- accounts


def test_accounts_list_the_main_account_first_and_filter(session):
    accounts = ok(session, "list_accounts")["accounts"]
    assert accounts[0]["friendly_name"] == "Lumen Relay" and accounts[0]["owner_account_sid"] == accounts[0]["sid"]
    assert len(accounts) == 9
    suspended = ok(session, "list_accounts", {"status": "suspended"})["accounts"]
    assert [a["friendly_name"] for a in suspended] == ["Harbor View Yoga"]


def test_closing_a_subaccount_is_final_and_releases_its_numbers(session):
    yoga = ACC["Harbor View Yoga"]
    ok(session, "update_account", {"account_sid": yoga, "status": "closed"})
    assert numbers_of(session, yoga) == set()
    fails(session, "update_account", {"account_sid": yoga, "status": "active"}, "Conflict", "can't be reopened")


def test_closing_cancels_the_subaccounts_scheduled_messages(session):
    ok(session, "update_account", {"account_sid": HV, "status": "closed"})
    statuses = {m["status"] for m in ok(session, "list_messages", {"account_sid": HV, "page_size": 100})["messages"]}
    assert "scheduled" not in statuses and "canceled" in statuses


def test_the_main_accounts_status_cant_change(session):
    fails(session, "update_account", {"account_sid": ACC["Lumen Relay"], "status": "suspended"}, "Conflict", "20008")


def test_suspended_accounts_cant_send_or_buy(session):
    yoga = ACC["Harbor View Yoga"]
    args = {"account_sid": yoga, "to": "+12065553567", "body": "hi", "from_": "+12065550311"}
    fails(session, "send_message", args, "PermissionDenied", "10001")
    offer = ok(session, "search_available_phone_numbers", {"iso_country": "US"})["available_phone_numbers"][0]
    fails(
        session,
        "buy_phone_number",
        {"account_sid": yoga, "phone_number": offer["phone_number"]},
        "PermissionDenied",
        "10001",
    )
    ok(session, "update_account", {"account_sid": yoga, "status": "active"})
    assert send(session, **args)["status"] == "sent"  # the class alerts campaign is VERIFIED


def test_a_new_subaccount_bills_to_the_main_account(session):
    new = ok(session, "create_subaccount", {"friendly_name": "Northwind Bikes"})
    assert new["sid"].startswith("AC") and len(new["sid"]) == 34
    assert new["owner_account_sid"] == ACC["Lumen Relay"] and new["status"] == "active"


def test_unknown_accounts_are_20404(session):
    fails(session, "list_messages", {"account_sid": "AC" + "0" * 32}, "NotFound", "20404")


# ---------------------------------------------------------------- numbers


def test_buying_a_number_charges_its_first_month_and_takes_it_off_the_market(session):
    search = {"iso_country": "US", "type": "toll_free", "sms_enabled": True}
    offer = ok(session, "search_available_phone_numbers", search)["available_phone_numbers"][0]
    assert offer["monthly_price"] == "2.1500"
    bought = ok(session, "buy_phone_number", {"account_sid": OAK, "phone_number": offer["phone_number"]})
    assert bought["sid"].startswith("PN") and bought["friendly_name"].startswith("(")
    assert balance(session) == "410.2200"
    remaining = ok(session, "search_available_phone_numbers", search)["available_phone_numbers"]
    assert offer["phone_number"] not in {o["phone_number"] for o in remaining}
    fails(
        session,
        "buy_phone_number",
        {"account_sid": PINE, "phone_number": offer["phone_number"]},
        "InvalidRequest",
        "21422",
    )
    usage = ok(
        session,
        "list_usage_records",
        {"account_sid": OAK, "start_date": "2026-03-10", "end_date": "2026-03-10", "category": "phonenumbers-tollfree"},
    )
    assert usage["usage_records"][0]["price"] == "2.1500"


def test_search_filters_by_area_code_and_capability(session):
    found = ok(
        session,
        "search_available_phone_numbers",
        {"iso_country": "US", "area_code": "206", "mms_enabled": True, "page_size": 50},
    )
    offers = found["available_phone_numbers"]
    assert offers and all(o["phone_number"].startswith("+1206") and o["capabilities"]["mms"] for o in offers)


def test_a_number_in_a_pool_must_leave_it_before_moving(session):
    promo2 = PN["+15035550121"]
    fails(
        session,
        "update_incoming_phone_number",
        {"phone_number_sid": promo2, "account_sid": PINE},
        "Conflict",
        "remove it",
    )
    ok(session, "remove_phone_number_from_service", {"service_sid": SVC["Oakline Promos"], "phone_number_sid": promo2})
    moved = ok(session, "update_incoming_phone_number", {"phone_number_sid": promo2, "account_sid": PINE})
    assert moved["account_sid"] == PINE and "+15035550121" in numbers_of(session, PINE)


def test_numbers_only_move_to_active_accounts(session):
    args = {"phone_number_sid": PN["+15035550177"], "account_sid": ACC["Harbor View Yoga"]}
    fails(session, "update_incoming_phone_number", args, "PermissionDenied", "10001")


def test_releasing_a_number_takes_it_out_of_its_pool(session):
    ok(session, "release_phone_number", {"phone_number_sid": PN["+12065550187"]})
    assert pool(session, HVS) == ["+12065550142"]
    fails(session, "release_phone_number", {"phone_number_sid": PN["+12065550187"]}, "NotFound", "20404")


def test_lookup_tells_landlines_from_mobiles(session):
    assert ok(session, "lookup_phone_number", {"phone_number": "+12065553302"})["line_type"] == "landline"
    assert ok(session, "lookup_phone_number", {"phone_number": "+12065553301"})["line_type"] == "mobile"
    unknown = ok(session, "lookup_phone_number", {"phone_number": "+33612345678"})
    assert unknown["valid"] is False and unknown["line_type"] is None


# ---------------------------------------------------------------- sender pools


def test_a_number_joins_one_service_at_a_time(session):
    promo1 = PN["+15035550120"]
    fails(
        session,
        "add_phone_number_to_service",
        {"service_sid": SVC["Oakline Promos"], "phone_number_sid": promo1},
        "Conflict",
        "21710",
    )
    fails(
        session,
        "add_phone_number_to_service",
        {"service_sid": SVC["Oakline Order Updates"], "phone_number_sid": promo1},
        "Conflict",
        "21712",
    )


def test_pools_take_only_the_services_own_sms_numbers(session):
    fails(
        session,
        "add_phone_number_to_service",
        {"service_sid": HVS, "phone_number_sid": PN["+15035550177"]},
        "NotFound",
        "20404",
    )
    fails(
        session,
        "add_phone_number_to_service",
        {"service_sid": HVS, "phone_number_sid": PN["+12065550199"]},
        "InvalidRequest",
        "21606",
    )


def test_a_sole_proprietor_campaign_allows_one_number(session):
    args = {"service_sid": SVC["Marisol Order Pickup"], "phone_number_sid": PN["+17205550109"]}
    fails(session, "add_phone_number_to_service", args, "Conflict", "one phone number")
    ok(
        session,
        "remove_phone_number_from_service",
        {"service_sid": SVC["Marisol Order Pickup"], "phone_number_sid": PN["+17205550108"]},
    )
    assert ok(session, "add_phone_number_to_service", args)["messaging_service_sid"] == SVC["Marisol Order Pickup"]


# ---------------------------------------------------------------- A2P 10DLC


def test_campaigns_need_an_approved_brand_of_the_same_account(session):
    service = SVC["Pinecrest Listing Alerts"]
    failed = {"service_sid": service, "brand_registration_sid": BRAND["Pinecrest Realty Group"], **CAMPAIGN}
    fails(session, "create_us_app_to_person_campaign", failed, "Conflict", "FAILED")
    foreign = {"service_sid": service, "brand_registration_sid": BRAND["Oakline Pizza Co"], **CAMPAIGN}
    fails(session, "create_us_app_to_person_campaign", foreign, "NotFound", "20404")


def test_a_registered_campaign_is_vetted_charged_and_unique(session):
    args = {
        "service_sid": SVC["Pinecrest Listing Alerts"],
        "brand_registration_sid": BRAND["Pinecrest Realty Group Inc"],
        **CAMPAIGN,
    }
    campaign = ok(session, "create_us_app_to_person_campaign", args)
    assert campaign["campaign_status"] == "IN_PROGRESS" and campaign["sid"].startswith("QE")
    assert balance(session) == "397.3700"
    fails(session, "create_us_app_to_person_campaign", args, "Conflict", "already has")


def test_use_cases_follow_the_brand_type(session):
    ok(session, "delete_us_app_to_person_campaign", {"service_sid": SVC["Marisol Order Pickup"]})
    args = {
        "service_sid": SVC["Marisol Order Pickup"],
        "brand_registration_sid": BRAND["Marisol Ortega"],
        **CAMPAIGN,
        "us_app_to_person_usecase": "MARKETING",
    }
    fails(session, "create_us_app_to_person_campaign", args, "InvalidRequest", "SOLE_PROPRIETOR")


def test_campaign_fields_are_checked_by_their_types(session):
    args = {
        "service_sid": SVC["Pinecrest Listing Alerts"],
        "brand_registration_sid": BRAND["Pinecrest Realty Group Inc"],
        **CAMPAIGN,
    }
    fails(
        session,
        "create_us_app_to_person_campaign",
        {**args, "message_samples": ["only one sample here, long enough"]},
        "invalid_arguments",
        "message_samples",
    )
    fails(
        session,
        "create_us_app_to_person_campaign",
        {**args, "description": "too short"},
        "invalid_arguments",
        "description",
    )


def test_us_long_codes_need_a_verified_campaign(session):
    pending = send(
        session, account_sid=OAK, to="+15035554410", body="Deal!", messaging_service_sid=SVC["Oakline Promos"]
    )
    assert (pending["status"], pending["error_code"], pending["price"]) == ("failed", 30034, None)
    assert balance(session) == "412.3700"
    toll_free = send(session, account_sid=OAK, to="+15035554410", body="Deal!", from_="+18885550134")
    assert toll_free["status"] == "sent" and toll_free["price"] == "-0.0079"
    canadian = send(
        session,
        account_sid=ACC["Brightwater Clinic"],
        to="+12065557711",
        body="Hi",
        messaging_service_sid=SVC["Brightwater Reminders"],
    )
    assert canadian["status"] == "sent"  # Canadian senders are outside 10DLC
    uk = send(session, account_sid=ACC["Lumen Relay Staging"], to="+447700900555", body="Hi", from_="+13125550188")
    assert uk["status"] == "sent" and uk["price"] == "-0.0463"  # 10DLC covers +1 recipients only


def test_deleting_a_campaign_stops_us_traffic(session):
    assert send(session, account_sid=HV, to="+12065554477", body="Hi", messaging_service_sid=HVS)["status"] == "sent"
    ok(session, "delete_us_app_to_person_campaign", {"service_sid": HVS})
    assert send(session, account_sid=HV, to="+12065554477", body="Hi", messaging_service_sid=HVS)["error_code"] == 30034
    fails(session, "delete_us_app_to_person_campaign", {"service_sid": HVS}, "NotFound", "20404")


# ---------------------------------------------------------------- sending


def test_opted_out_recipients_are_refused_service_wide(session):
    for sender in ({"messaging_service_sid": HVS}, {"from_": "+12065550142"}, {"from_": "+12065550187"}):
        fails(
            session,
            "send_message",
            {"account_sid": HV, "to": "+12065553301", "body": "hi", **sender},
            "InvalidRequest",
            "21610",
        )


def test_an_opt_out_from_a_lone_number_covers_only_that_number(session):
    fails(
        session,
        "send_message",
        {"account_sid": OAK, "to": "+15035559822", "body": "hi", "from_": "+18885550134"},
        "InvalidRequest",
        "21610",
    )
    other = send(session, account_sid=OAK, to="+15035559822", body="hi", messaging_service_sid=SVC["Oakline Promos"])
    assert other["error_code"] == 30034  # not opted out of the promo service; refused only by the carrier gate


def test_a_recipient_who_texted_start_again_can_be_texted(session):
    assert (
        send(session, account_sid=HV, to="+12065554848", body="Welcome back", messaging_service_sid=HVS)["status"]
        == "sent"
    )


def test_senders_must_be_the_accounts_own_sms_numbers(session):
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+12065554477", "body": "hi", "from_": "+15035550177"},
        "InvalidRequest",
        "21606",
    )
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+12065554477", "body": "hi", "from_": "+12065550199"},
        "InvalidRequest",
        "21606",
    )
    outside = {
        "account_sid": HV,
        "to": "+12065554477",
        "body": "hi",
        "from_": "+12065550143",
        "messaging_service_sid": HVS,
    }
    fails(session, "send_message", outside, "InvalidRequest", "sender pool")
    fails(session, "send_message", {"account_sid": HV, "to": "+12065554477", "body": "hi"}, "InvalidRequest", "21603")
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+12065554477", "body": "hi", "messaging_service_sid": SVC["Oakline Promos"]},
        "NotFound",
        "20404",
    )


def test_an_empty_pool_cant_send(session):
    fails(
        session,
        "send_message",
        {"account_sid": OAK, "to": "+15035554410", "body": "hi", "messaging_service_sid": SVC["Oakline Order Updates"]},
        "InvalidRequest",
        "21703",
    )


def test_bad_numbers_bodies_and_regions_are_refused(session):
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "2065554477", "body": "hi", "messaging_service_sid": HVS},
        "invalid_arguments",
        "21211",
    )
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+12065554477", "body": "x" * 1601, "messaging_service_sid": HVS},
        "invalid_arguments",
        "21617",
    )
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+12065554477", "body": "   ", "messaging_service_sid": HVS},
        "invalid_arguments",
        "21602",
    )
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+33612345678", "body": "hi", "messaging_service_sid": HVS},
        "InvalidRequest",
        "21408",
    )


def test_landlines_end_undelivered_but_are_charged(session):
    sent = send(session, account_sid=HV, to="+12065553302", body="hi", messaging_service_sid=HVS)
    assert (sent["status"], sent["error_code"], sent["price"]) == ("undelivered", 30006, "-0.0079")


@pytest.mark.parametrize(
    ("body", "segments"),
    [
        ("a" * 160, 1),
        ("a" * 161, 2),
        ("a" * 306, 2),
        ("a" * 307, 3),
        ("é" * 70, 1),
        ("ł" * 70, 1),
        ("ł" * 71, 2),
        ("€" * 80, 1),
        ("€" * 81, 2),
    ],
)
def test_segments_follow_the_encoding(session, body, segments):
    sent = send(session, account_sid=HV, to="+12065554477", body=body, messaging_service_sid=HVS)
    assert sent["num_segments"] == segments
    assert sent["price"] == f"-{0.0079 * segments:.4f}"


def test_sticky_sender_keeps_the_number_a_recipient_heard_from(session):
    first = send(session, account_sid=HV, to="+12065553380", body="hi", from_="+12065550187")
    assert first["messaging_service_sid"] == HVS
    assert (
        send(session, account_sid=HV, to="+12065553380", body="again", messaging_service_sid=HVS)["from"]
        == "+12065550187"
    )
    fresh = send(session, account_sid=HV, to="+12065554478", body="hi", messaging_service_sid=HVS)
    assert fresh["from"] == "+12065550142"  # never texted: the first number of the pool


def test_a_pool_prefers_a_sender_in_the_recipients_country(session):
    sent = send(
        session,
        account_sid=ACC["Brightwater Clinic"],
        to="+16045550199",
        body="hi",
        messaging_service_sid=SVC["Brightwater Reminders"],
    )
    assert sent["from"] == "+14165550177"  # both are Canadian: the first
    ok(
        session,
        "remove_phone_number_from_service",
        {"service_sid": SVC["Staging QA"], "phone_number_sid": PN["+447700900123"]},
    )
    ok(
        session,
        "add_phone_number_to_service",
        {"service_sid": SVC["Staging QA"], "phone_number_sid": PN["+13125550188"]},
    )
    ok(
        session,
        "add_phone_number_to_service",
        {"service_sid": SVC["Staging QA"], "phone_number_sid": PN["+447700900123"]},
    )
    uk = send(
        session,
        account_sid=ACC["Lumen Relay Staging"],
        to="+447700900555",
        body="hi",
        messaging_service_sid=SVC["Staging QA"],
    )
    assert uk["from"] == "+447700900123"


def test_sending_charges_the_balance_and_the_days_usage(session):
    send(session, account_sid=HV, to="+12065554477", body="a" * 200, messaging_service_sid=HVS)
    assert balance(session) == "412.3542"
    usage = ok(
        session,
        "list_usage_records",
        {"account_sid": HV, "start_date": "2026-03-10", "end_date": "2026-03-10", "category": "sms-outbound"},
    )
    seeded = sum(u["price"] for u in SEED["usage_records"] if u["id"] == f"{HV}|sms-outbound|2026-03-10")
    assert usage["usage_records"][0]["price"] == f"{(seeded + 158) / 10000:.4f}"


def test_usage_ranges_must_run_forward(session):
    fails(
        session,
        "list_usage_records",
        {"account_sid": HV, "start_date": "2026-03-10", "end_date": "2026-03-01"},
        "InvalidRequest",
        "20001",
    )


# ---------------------------------------------------------------- scheduling


def test_scheduling_needs_a_service_and_the_window(session):
    base = {"account_sid": HV, "to": "+12065554477", "body": "hi"}
    fails(
        session,
        "send_message",
        {**base, "from_": "+12065550142", "send_at": "2026-03-12T16:00:00Z"},
        "InvalidRequest",
        "35118",
    )
    for too in ("2026-03-10T16:10:00Z", "2026-04-15T16:00:00Z"):
        fails(
            session, "send_message", {**base, "messaging_service_sid": HVS, "send_at": too}, "InvalidRequest", "35114"
        )
    waiting = send(session, **base, messaging_service_sid=HVS, send_at="2026-04-13T17:00:00Z")
    assert (waiting["status"], waiting["from"], waiting["price"]) == ("scheduled", None, None)
    assert balance(session) == "412.3700"


def test_only_scheduled_messages_cancel(session):
    waiting = send(
        session, account_sid=HV, to="+12065554477", body="hi", messaging_service_sid=HVS, send_at="2026-03-12T16:00:00Z"
    )
    assert ok(session, "cancel_scheduled_message", {"message_sid": waiting["sid"]})["status"] == "canceled"
    fails(session, "cancel_scheduled_message", {"message_sid": waiting["sid"]}, "Conflict", "canceled")
    sent = send(session, account_sid=HV, to="+12065554477", body="hi", messaging_service_sid=HVS)
    fails(session, "cancel_scheduled_message", {"message_sid": sent["sid"]}, "Conflict", "sent")


def test_messages_list_newest_first_and_page(session):
    first = ok(session, "list_messages", {"account_sid": HV, "page_size": 5})
    dates = [m["date_created"] for m in first["messages"]]
    assert dates == sorted(dates, reverse=True) and first["next_page_token"] == "5"
    second = ok(session, "list_messages", {"account_sid": HV, "page_size": 5, "page_token": "5"})
    assert not {m["sid"] for m in first["messages"]} & {m["sid"] for m in second["messages"]}
    inbound = ok(session, "list_messages", {"account_sid": HV, "from_": "+12065553301"})["messages"]
    assert [m["body"] for m in inbound] == ["STOP"] and inbound[0]["direction"] == "inbound"


def test_a_missing_pool_number_is_found_through_an_edited_seed(session):
    def empty_pool(tables):
        for number in tables["phone_numbers"]:
            if number["messaging_service_sid"] == HVS:
                number["messaging_service_sid"] = None

    restore_seed_with(session, empty_pool, CLOCK)
    fails(
        session,
        "send_message",
        {"account_sid": HV, "to": "+12065554477", "body": "hi", "messaging_service_sid": HVS},
        "InvalidRequest",
        "21703",
    )
    waiting = send(
        session, account_sid=HV, to="+12065554477", body="hi", messaging_service_sid=HVS, send_at="2026-03-12T16:00:00Z"
    )
    assert waiting["status"] == "scheduled"  # the sender is picked when it goes out
