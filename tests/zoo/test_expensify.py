"""The Expensify environment's tools: sign-in and roles, expense rules (receipts, limits, age, duplicates),
distance and per diem, report workflow (submit, advanced approval, reject, reimburse, submit & close), members and
categories, with every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("expensify")
CLOCK = datetime(2025, 6, 16, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
US, EU, CO = (
    next(p["policy_id"] for p in SEED["policies"] if p["name"] == name)
    for name in ("Fernhill Studio US", "Fernhill Studio EU", "Fernhill Contractors")
)

session = session_fixture(SPEC, CLOCK)


def email(name: str) -> str:
    return name if "@" in name else f"{name}@fernhillstudio.com"


def report(owner: str, title: str) -> str:
    return next(r["report_id"] for r in SEED["reports"] if r["owner_email"] == email(owner) and r["title"] == title)


def expense(owner: str, merchant: str, created: str, **extra) -> str:
    return next(
        t["transaction_id"]
        for t in SEED["transactions"]
        if t["account_email"] == email(owner)
        and t["merchant"] == merchant
        and t["created"] == created
        and all(t[k] == v for k, v in extra.items())
    )


def sign_in(session: ToolSession, who: str) -> dict:
    return ok(session, "sign_in", {"email": email(who)}, caller="user")


def as_(session: ToolSession, who: str, name: str, args: dict | None = None):
    sign_in(session, who)
    return ok(session, name, args or {})


def row(session: ToolSession, table: str, key: str) -> dict:
    return session.dump()[table][key]


MAYA_JUNE = report("maya.chen", "June 2025 – Maya Chen")
BEN = report("ben.harrington", "Studio display & peripherals")
SAM_MAY = report("sam.okafor", "Bluebird Health review – May")
NATE_QBR = report("nate.sullivan", "Tidewater Energy QBR – May")
THEO_Q2 = report("theo.marsh", "Office restock – Q2")
BERLIN = report("kenji.watanabe", "Berlin – Kaleido Mobility workshop")


# ---------------------------------------------------------------- interface, sign-in, roles


def test_tools_and_the_user_only_actions(session):
    assert len(SPEC.tools) == 22
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in", "smartscan_receipt"]
    assert SPEC.tools["get_account"].input_schema["properties"] == {}
    outcome = session.call("sign_in", {"email": email("dana.whitfield")})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert session.dump()["session"] == {}


def test_every_tool_needs_someone_signed_in(session):
    fails(session, "get_account", {}, "PermissionDenied", "Nobody is signed in")
    fails(
        session,
        "create_expense",
        {"merchant": "Uber", "amount": 1200, "created": "2025-06-12"},
        "PermissionDenied",
        "Nobody is signed in",
    )
    fails(session, "sign_in", {"email": "nobody@fernhillstudio.com"}, "NotFound", "No Expensify account", caller="user")


def test_account_lists_workspaces_with_roles(session):
    kenji = sign_in(session, "KENJI.WATANABE@fernhillstudio.com")
    assert {(w["name"], w["role"], w["submits_to"]) for w in kenji["workspaces"]} == {
        ("Fernhill Studio US", "user", email("raj.patel")),
        ("Fernhill Studio EU", "user", email("lena.hoffmann")),
    }
    ruth = as_(session, "ruth.kessler@kesslercpa.com", "get_account")
    assert {w["role"] for w in ruth["workspaces"]} == {"auditor"}


def test_policy_rules_and_membership(session):
    policy = as_(session, "ines.duarte", "get_policy", {"policy_id": EU})
    assert (policy["approval_mode"], policy["output_currency"], policy["your_role"]) == ("BASIC", "EUR", "user")
    assert policy["rules"]["max_expense_amount_no_receipt"] == 7500 and policy["rules"]["max_expense_age"] == 90
    gifts = next(c for c in policy["categories"] if c["name"] == "Client Gifts")
    assert (gifts["max_expense_amount"], gifts["comment_required"]) == (3500, True)
    germany = {r["subrate"]: r["amount"] for r in policy["per_diem_rates"] if r["destination"] == "Germany"}
    assert germany == {"Full day": 2800, "Partial day": 1400}
    fails(session, "get_policy", {"policy_id": US}, "PermissionDenied", "not a member")
    fails(session, "get_policy", {"policy_id": "0000000000000000"}, "NotFound", "Policy")


# ---------------------------------------------------------------- listing


def test_expenses_paginate_newest_first(session):
    sign_in(session, "carla.mendes")
    mine = [t for t in SEED["transactions"] if t["account_email"] == email("carla.mendes")]
    seen, cursor = [], None
    while True:
        page = ok(session, "list_expenses", {"limit": 7, **({"cursor": cursor} if cursor else {})})
        seen += page["results"]
        if not page["has_more"]:
            break
        assert len(page["results"]) == 7
        cursor = page["next_cursor"]
    assert sorted(e["transaction_id"] for e in seen) == sorted(t["transaction_id"] for t in mine)
    dates = [e["created"] for e in seen]
    assert dates == sorted(dates, reverse=True)
    fails(session, "list_expenses", {"cursor": "x"}, "InvalidRequest", "invalid cursor")
    fails(session, "list_expenses", {"limit": 101}, "invalid_arguments", "less than or equal to 100")


def test_expense_filters(session):
    sign_in(session, "aisha.karim")
    deltas = ok(session, "list_expenses", {"merchant": "delta", "start_date": "2025-06-01"})["results"]
    assert [(e["type"], e["amount"]) for e in deltas] == [("card", 41260), ("cash", 41260)]
    assert all("duplicatedTransaction" in e["violations"] for e in deltas)
    loose = ok(session, "list_expenses", {"unreported_only": True})["results"]
    assert loose and all(e["report_id"] is None for e in loose)
    fails(session, "list_expenses", {"start_date": "06/01/2025"}, "invalid_arguments", "date like")


def test_report_visibility_follows_roles(session):
    sign_in(session, "sam.okafor")
    fails(session, "get_report", {"report_id": BEN}, "NotFound", "Report")
    assert {r["owner_email"] for r in ok(session, "list_reports", {"limit": 100})["results"]} == {email("sam.okafor")}
    assert as_(session, "jordan.ellis", "get_report", {"report_id": BEN})["manager_email"] == email("jordan.ellis")
    audit = as_(session, "ruth.kessler@kesslercpa.com", "list_reports", {"policy_id": US, "status": "PROCESSING"})
    expected = {r["report_id"] for r in SEED["reports"] if r["policy_id"] == US and r["status"] == "PROCESSING"}
    assert {r["report_id"] for r in audit["results"]} == expected
    waiting = as_(session, "jordan.ellis", "list_reports", {"awaiting_my_approval": True})["results"]
    assert {r["owner_email"] for r in waiting} == {email(x) for x in ("sam.okafor", "lucia.ferreira", "ben.harrington")}


# ---------------------------------------------------------------- expenses and rules


def test_create_expense_converts_to_the_workspace_currency(session):
    sign_in(session, "emily.novak")
    new = ok(
        session,
        "create_expense",
        {
            "merchant": "Café de Jaren",
            "amount": 2450,
            "currency": "eur",
            "created": "2025-06-13",
            "category": "Travel Meals",
        },
    )
    assert (new["policy_id"], new["currency"], new["converted_amount"]) == (US, "EUR", 2769)
    assert (new["type"], new["reimbursable"], new["billable"], new["violations"]) == ("cash", True, False, [])
    assert row(session, "transactions", new["transaction_id"])["report_id"] is None


def test_create_expense_validation(session):
    sign_in(session, "maya.chen")
    base = {"merchant": "Blick Art Materials", "amount": 1999, "created": "2025-06-12"}
    fails(session, "create_expense", {**base, "created": "2025-06-17"}, "InvalidRequest", "in the future")
    fails(session, "create_expense", {**base, "currency": "JPY"}, "InvalidRequest", "Unsupported currency")
    fails(session, "create_expense", {**base, "category": "Snacks"}, "InvalidRequest", "doesn't exist")
    fails(session, "create_expense", {**base, "category": "Alcohol"}, "InvalidRequest", "disabled")
    fails(session, "create_expense", {**base, "tag": "Quill & Ink"}, "InvalidRequest", "isn't an enabled Project")
    fails(session, "create_expense", {**base, "amount": 0}, "InvalidRequest", "can't be 0")
    fails(session, "create_expense", {**base, "policy_id": EU}, "PermissionDenied", "not a member")
    fails(session, "create_expense", {**base, "report_id": BEN}, "NotFound", "Report")


def test_duplicates_are_refused_unless_asked(session):
    sign_in(session, "aisha.karim")
    uber = {"merchant": "uber ", "amount": 4620, "created": "2025-06-05", "category": "Ground Transportation"}
    fails(session, "create_expense", uber, "Conflict", "Possible duplicate of expense")
    forced = ok(session, "create_expense", {**uber, "dont_check_duplicates": True})
    assert forced["violations"] == ["duplicatedTransaction"]
    original = expense("aisha.karim", "Uber", "2025-06-05")
    flagged = ok(session, "list_expenses", {"merchant": "uber", "start_date": "2025-06-05", "end_date": "2025-06-05"})
    assert {e["transaction_id"] for e in flagged["results"]} == {original, forced["transaction_id"]}


def test_violations_for_limits_comments_and_missing_receipts(session):
    sign_in(session, "raj.patel")
    flight = ok(
        session,
        "create_expense",
        {"merchant": "Delta Air Lines", "amount": 320000, "created": "2025-06-12", "category": "Airfare"},
    )
    assert flight["violations"] == ["receiptRequired", "overLimit"]
    dinner = ok(
        session,
        "create_expense",
        {"merchant": "Canlis", "amount": 15100, "created": "2025-06-12", "category": "Meals & Entertainment"},
    )
    assert dinner["violations"] == ["missingComment", "receiptRequired", "overCategoryLimit"]
    small = ok(
        session,
        "create_expense",
        {
            "merchant": "Canlis",
            "amount": 7500,
            "created": "2025-06-13",
            "category": "Meals & Entertainment",
            "comment": "Lunch with Acme",
        },
    )
    assert small["violations"] == []  # exactly $75 needs no receipt


def test_receipt_required_blocks_submission_until_smartscan_merges_it(session):
    sign_in(session, "maya.chen")
    fails(session, "submit_report", {"report_id": MAYA_JUNE}, "Conflict", "Olympia Provisions USD 128.40")
    count = len(session.dump()["transactions"])
    merged = ok(
        session,
        "smartscan_receipt",
        {"merchant": "Olympia Provisions", "amount": 12840, "created": "2025-06-11"},
        caller="user",
    )
    assert merged["transaction_id"] == expense("maya.chen", "Olympia Provisions", "2025-06-10")
    assert merged["receipt"]["smartscan_amount"] == 12840 and merged["violations"] == []
    assert len(session.dump()["transactions"]) == count
    submitted = ok(session, "submit_report", {"report_id": MAYA_JUNE})
    assert (submitted["status"], submitted["manager_email"]) == ("PROCESSING", email("jordan.ellis"))
    assert submitted["history"][-1]["action"] == "SUBMITTED"
    fails(session, "submit_report", {"report_id": MAYA_JUNE}, "Conflict", "already PROCESSING")
    fails(session, "smartscan_receipt", {"merchant": "X", "amount": 100, "created": "2025-06-12"}, "user_only", "")


def test_smartscan_without_a_match_creates_an_uncategorized_expense(session):
    sign_in(session, "olivia.brooks")
    new = ok(
        session,
        "smartscan_receipt",
        {"merchant": "Powell's Books", "amount": 2899, "created": "2025-06-14"},
        caller="user",
    )
    assert (new["type"], new["category"], new["report_id"]) == ("cash", None, None)
    assert new["receipt"] is not None and new["violations"] == ["missingCategory"]


def test_expenses_past_the_age_limit_block_submission(session):
    sign_in(session, "theo.marsh")
    fails(session, "submit_report", {"report_id": THEO_Q2}, "Conflict", "(maxAge)")
    costco = expense("theo.marsh", "Costco Business Center", "2025-03-04")
    assert ok(session, "move_expenses", {"transaction_ids": [costco]})[0]["report_id"] is None
    result = ok(session, "submit_report", {"report_id": THEO_Q2})
    assert (result["status"], result["manager_email"], result["expense_count"]) == ("PROCESSING", email("grace.kim"), 2)


def test_category_limit_fixed_by_claiming_less(session):
    sign_in(session, "ines.duarte")
    ines = report("ines.duarte", "June 2025 – Ines Duarte")
    fails(session, "submit_report", {"report_id": ines}, "Conflict", "overCategoryLimit")
    gift = expense("ines.duarte", "Manufactum", "2025-06-11")
    assert ok(session, "update_expense", {"transaction_id": gift, "amount": 3500})["violations"] == []
    assert ok(session, "submit_report", {"report_id": ines})["manager_email"] == email("lena.hoffmann")


# ---------------------------------------------------------------- distance and per diem


def test_distance_expenses_use_the_workspace_rate(session):
    sign_in(session, "nate.sullivan")
    drive = ok(session, "create_distance_expense", {"distance": 94, "created": "2025-06-15", "comment": "Salem"})
    assert (drive["amount"], drive["merchant"], drive["type"]) == (6580, "94.00 mi @ USD 0.70 / mi", "distance")
    assert drive["violations"] == []
    long_drive = ok(session, "create_distance_expense", {"distance": 150, "created": "2025-06-14", "comment": "Bend"})
    assert long_drive["amount"] == 10500 and "receiptRequired" not in long_drive["violations"]
    fails(
        session,
        "create_distance_expense",
        {"distance": 0, "created": "2025-06-15", "comment": "x"},
        "invalid_arguments",
        "more than 0",
    )
    sign_in(session, "leo.marchetti@marchetti-illustration.com")
    fails(
        session,
        "create_distance_expense",
        {"distance": 10, "created": "2025-06-15", "comment": "x"},
        "InvalidRequest",
        "aren't enabled",
    )


def test_per_diem_pays_partial_travel_days_and_full_days_between(session):
    sign_in(session, "kenji.watanabe")
    claim = ok(
        session,
        "create_per_diem_expense",
        {"destination": "germany", "start_date": "2025-06-02", "end_date": "2025-06-06", "report_id": BERLIN},
    )
    assert (claim["amount"], claim["currency"], claim["policy_id"]) == (11200, "EUR", EU)
    assert (claim["category"], claim["merchant"], claim["report_id"]) == ("Per Diem", "Per Diem: Germany", BERLIN)
    subrates = [(s["subrate"], s["quantity"]) for s in claim["per_diem"]["subrates"]]
    assert subrates == [("Partial day", 2), ("Full day", 3)]
    overlap = {"destination": "Germany", "start_date": "2025-06-06", "end_date": "2025-06-07", "policy_id": EU}
    fails(session, "create_per_diem_expense", overlap, "Conflict", "already claimed")
    day = ok(
        session,
        "create_per_diem_expense",
        {"destination": "France - Paris", "start_date": "2025-06-10", "end_date": "2025-06-10", "policy_id": EU},
    )
    assert day["amount"] == 3900


def test_per_diem_rules(session):
    sign_in(session, "kenji.watanabe")
    trip = {"destination": "Germany", "start_date": "2025-05-01", "end_date": "2025-05-02", "policy_id": EU}
    fails(session, "create_per_diem_expense", {**trip, "policy_id": US}, "InvalidRequest", "Per diem isn't enabled")
    fails(session, "create_per_diem_expense", {**trip, "destination": "Atlantis"}, "InvalidRequest", "isn't a per diem")
    fails(session, "create_per_diem_expense", {**trip, "end_date": "2025-04-30"}, "InvalidRequest", "before start_date")
    fails(session, "create_per_diem_expense", {**trip, "end_date": "2025-06-01"}, "InvalidRequest", "at most 30 days")
    fails(session, "create_per_diem_expense", {**trip, "end_date": "2025-06-20"}, "InvalidRequest", "in the future")


# ---------------------------------------------------------------- editing and deleting


def test_update_expense_rules(session):
    sign_in(session, "aisha.karim")
    card = expense("aisha.karim", "Delta Air Lines", "2025-06-05", type="card")
    fails(session, "update_expense", {"transaction_id": card, "amount": 100}, "InvalidRequest", "card feed")
    fails(
        session,
        "update_expense",
        {"transaction_id": card, "reimbursable": True},
        "InvalidRequest",
        "can't be reimbursable",
    )
    fails(session, "update_expense", {"transaction_id": card}, "InvalidRequest", "Nothing to update")
    fails(
        session,
        "update_expense",
        {"transaction_id": expense("maya.chen", "Uber", "2025-06-10"), "comment": "x"},
        "NotFound",
        "Expense",
    )
    updated = ok(session, "update_expense", {"transaction_id": card, "tag": "", "comment": "Bend scouting"})
    assert (updated["tag"], updated["comment"]) == (None, "Bend scouting")
    sign_in(session, "sam.okafor")
    on_submitted = expense("sam.okafor", "Muji", "2025-05-06")
    fails(session, "update_expense", {"transaction_id": on_submitted, "comment": "x"}, "Conflict", "PROCESSING")
    figma = ok(
        session,
        "update_expense",
        {"transaction_id": expense("sam.okafor", "Figma", "2025-06-06"), "amount": 4000, "currency": "GBP"},
    )
    assert figma["converted_amount"] == 5360


def test_delete_expense_rules(session):
    sign_in(session, "aisha.karim")
    card = expense("aisha.karim", "Delta Air Lines", "2025-06-05", type="card")
    fails(session, "delete_expense", {"transaction_id": card}, "Conflict", "company card")
    sign_in(session, "emily.novak")
    gitnation = expense("emily.novak", "GitNation", "2025-06-12")
    receipt = row(session, "transactions", gitnation)["receipt_id"]
    ok(session, "delete_expense", {"transaction_id": gitnation})
    state = session.dump()
    assert gitnation not in state["transactions"] and receipt not in state["receipts"]
    sign_in(session, "ben.harrington")
    fails(
        session,
        "delete_expense",
        {"transaction_id": expense("ben.harrington", "Apple Store", "2025-06-03")},
        "Conflict",
        "PROCESSING",
    )


# ---------------------------------------------------------------- reports


def test_create_report_and_move_expenses(session):
    sign_in(session, "lucia.ferreira")
    car = expense("lucia.ferreira", "Enterprise Rent-A-Car", "2025-06-09")
    new = ok(session, "create_report", {"title": "  Bend shoot ", "transaction_ids": [car]})
    assert (new["title"], new["status"], new["total"]) == ("Bend shoot", "OPEN", 23640)
    assert [h["action"] for h in new["history"]] == ["CREATED"]
    fails(session, "create_report", {"title": "Again", "transaction_ids": [car]}, "Conflict", "already on report")
    fails(session, "create_report", {"title": " "}, "invalid_arguments", "title must be 1 to 100")
    lucia_may = report("lucia.ferreira", "Cascade Outdoor mood board supplies")
    fails(session, "move_expenses", {"transaction_ids": [car], "report_id": lucia_may}, "Conflict", "PROCESSING")
    fails(session, "move_expenses", {"transaction_ids": [car], "report_id": MAYA_JUNE}, "NotFound", "Report")
    fails(session, "move_expenses", {"transaction_ids": []}, "invalid_arguments", "at least one")
    assert ok(session, "move_expenses", {"transaction_ids": [car]})[0]["report_id"] is None
    assert ok(session, "get_report", {"report_id": new["report_id"]})["expense_count"] == 0
    fails(session, "submit_report", {"report_id": new["report_id"]}, "InvalidRequest", "at least one expense")


def test_moving_onto_another_workspace_converts(session):
    sign_in(session, "kenji.watanabe")
    lunch = ok(
        session,
        "create_expense",
        {"merchant": "Curry 36", "amount": 1130, "created": "2025-06-04", "category": "Ground Transportation"},
    )
    moved = ok(session, "move_expenses", {"transaction_ids": [lunch["transaction_id"]], "report_id": BERLIN})[0]
    assert (moved["policy_id"], moved["currency"], moved["converted_amount"]) == (EU, "USD", 1000)


def test_only_the_submitter_submits(session):
    sign_in(session, "jordan.ellis")
    fails(
        session,
        "submit_report",
        {"report_id": report("owen.fitzgerald", "Northwind Bank dinner – June")},
        "NotFound",
        "Report",
    )
    fails(session, "submit_report", {"report_id": BEN}, "PermissionDenied", "Only ben.harrington")


def test_submit_and_close_workspace_closes_without_approval(session):
    sign_in(session, "leo.marchetti@marchetti-illustration.com")
    leo = report("leo.marchetti@marchetti-illustration.com", "June 2025 project costs")
    closed = ok(session, "submit_report", {"report_id": leo})
    assert (closed["status"], closed["manager_email"], closed["history"][-1]["action"]) == ("CLOSED", None, "CLOSED")
    sign_in(session, "priya.raman")
    fails(session, "mark_reports_reimbursed", {"report_ids": [leo]}, "Conflict", "Report is CLOSED")
    fails(session, "reject_report", {"report_id": leo, "reason": "x"}, "Conflict", "CLOSED")


# ---------------------------------------------------------------- approvals


def test_advanced_approval_forwards_over_the_approvers_limit(session):
    sign_in(session, "jordan.ellis")
    small = ok(session, "approve_report", {"report_id": SAM_MAY, "comment": "Thanks!"})
    assert (small["status"], small["history"][-1]["message"]) == ("APPROVED", "Thanks!")
    big = ok(session, "approve_report", {"report_id": BEN})  # $1,689.97 > Jordan's $1,000 limit
    assert (big["status"], big["manager_email"], big["history"][-1]["action"]) == (
        "PROCESSING",
        email("dana.whitfield"),
        "FORWARDED",
    )
    fails(session, "approve_report", {"report_id": BEN}, "PermissionDenied", "waiting on dana.whitfield")
    final = as_(session, "dana.whitfield", "approve_report", {"report_id": BEN})
    assert final["status"] == "APPROVED" and row(session, "reports", BEN)["manager_email"] == email("dana.whitfield")


def test_approves_to_always_forwards_and_basic_mode_is_one_step(session):
    forwarded = as_(session, "carla.mendes", "approve_report", {"report_id": NATE_QBR})
    assert (forwarded["status"], forwarded["manager_email"]) == ("PROCESSING", email("priya.raman"))
    assert as_(session, "priya.raman", "approve_report", {"report_id": NATE_QBR})["status"] == "APPROVED"
    mateo = report("mateo.rossi", "June – Kaleido Mobility sprint")
    assert as_(session, "lena.hoffmann", "approve_report", {"report_id": mateo})["status"] == "APPROVED"


def test_who_may_approve(session):
    sign_in(session, "ben.harrington")
    fails(session, "approve_report", {"report_id": BEN}, "PermissionDenied", "your own report")
    sign_in(session, "dana.whitfield")
    fails(session, "approve_report", {"report_id": BEN}, "PermissionDenied", "waiting on jordan.ellis")
    fails(
        session,
        "approve_report",
        {"report_id": report("nate.sullivan", "June 2025 – Nate Sullivan")},
        "Conflict",
        "only Processing reports",
    )
    sign_in(session, "ruth.kessler@kesslercpa.com")
    fails(session, "approve_report", {"report_id": BEN}, "PermissionDenied", "not yours")


def test_reject_rules(session):
    sign_in(session, "grace.kim")
    fails(session, "reject_report", {"report_id": BEN, "reason": "no"}, "NotFound", "Report")
    sign_in(session, "jordan.ellis")
    fails(session, "reject_report", {"report_id": BEN, "reason": "  "}, "invalid_arguments", "reason must be 1 to 500")
    rejected = ok(session, "reject_report", {"report_id": BEN, "reason": "Split the personal keyboard out."})
    assert (rejected["status"], rejected["manager_email"], rejected["submitted"]) == ("OPEN", None, None)
    assert rejected["history"][-1] == {
        **rejected["history"][-1],
        "action": "REJECTED",
        "message": "Split the personal keyboard out.",
    }
    sign_in(session, "ben.harrington")
    keyboard = expense("ben.harrington", "Best Buy", "2025-06-03")
    assert ok(session, "update_expense", {"transaction_id": keyboard, "comment": "Keyboard"})["comment"] == "Keyboard"
    approved = next(r for r in SEED["reports"] if r["status"] == "APPROVED" and r["policy_id"] == US)
    reimbursed = next(r for r in SEED["reports"] if r["status"] == "REIMBURSED" and r["policy_id"] == US)
    sign_in(session, "ruth.kessler@kesslercpa.com")
    fails(session, "reject_report", {"report_id": approved["report_id"], "reason": "x"}, "PermissionDenied", "admins")
    sign_in(session, "dana.whitfield")
    unapproved = ok(session, "reject_report", {"report_id": approved["report_id"], "reason": "Wrong project"})
    assert (unapproved["status"], unapproved["approved"]) == ("OPEN", None)
    fails(session, "reject_report", {"report_id": reimbursed["report_id"], "reason": "x"}, "Conflict", "REIMBURSED")
    assert ok(session, "reject_report", {"report_id": SAM_MAY, "reason": "Admin override"})["status"] == "OPEN"


def test_mark_reports_reimbursed_skips_what_it_cannot_mark(session):
    olivia = report("olivia.brooks", "April 2025 Expenses")
    card_only = report("aisha.karim", "April card charges")
    sign_in(session, "jordan.ellis")
    fails(session, "mark_reports_reimbursed", {"report_ids": [SAM_MAY]}, "Conflict", "Only workspace admins")
    sign_in(session, "dana.whitfield")
    result = ok(session, "mark_reports_reimbursed", {"report_ids": [olivia, card_only, BEN, "12345678", olivia]})
    assert result["report_ids"] == [olivia]
    assert {s["report_id"]: s["reason"].split(":")[0].split(";")[0] for s in result["skipped_reports"]} == {
        card_only: "Nothing to reimburse",
        BEN: "Report is PROCESSING",
        "12345678": "Report not found.",
    }
    done = ok(session, "get_report", {"report_id": olivia})
    assert (done["status"], done["history"][-1]["message"]) == ("REIMBURSED", "Reimbursed USD 113.10")
    fails(session, "mark_reports_reimbursed", {"report_ids": [olivia]}, "Conflict", "Report is REIMBURSED")


# ---------------------------------------------------------------- members and categories


def test_adding_and_changing_members(session):
    sign_in(session, "lena.hoffmann")
    new = {"policy_id": EU, "email": "Paula.Becker@fernhillstudio.com", "submits_to": email("lena.hoffmann")}
    fails(session, "set_policy_member", new, "InvalidRequest", "give first_name and last_name")
    paula = ok(
        session, "set_policy_member", {**new, "first_name": "Paula", "last_name": "Becker", "employee_id": "FS-EU-019"}
    )
    assert (paula["email"], paula["role"], paula["submits_to"]) == (
        "paula.becker@fernhillstudio.com",
        "user",
        email("lena.hoffmann"),
    )
    assert row(session, "accounts", "paula.becker@fernhillstudio.com")["default_policy_id"] == EU
    fails(session, "set_policy_member", {"policy_id": EU, "email": "not-an-email"}, "invalid_arguments", "valid email")
    jonas = {"policy_id": EU, "email": email("jonas.weber")}
    fails(session, "set_policy_member", {**jonas, "submits_to": email("raj.patel")}, "InvalidRequest", "isn't a member")
    fails(
        session,
        "set_policy_member",
        {"policy_id": EU, "email": email("jonas.weber"), "submits_to": email("jonas.weber")},
        "InvalidRequest",
        "their own reports",
    )
    fails(
        session,
        "set_policy_member",
        {"policy_id": EU, "email": email("jonas.weber"), "approval_limit": 50000},
        "InvalidRequest",
        "over_limit_approver",
    )
    fails(
        session,
        "set_policy_member",
        {"policy_id": EU, "email": email("dana.whitfield"), "role": "user"},
        "Conflict",
        "owner must stay an admin",
    )
    fails(session, "set_policy_member", {"policy_id": EU, "email": email("jonas.weber")}, "InvalidRequest", "Nothing")
    promoted = ok(session, "set_policy_member", {"policy_id": EU, "email": email("jonas.weber"), "role": "auditor"})
    assert promoted["role"] == "auditor"
    sign_in(session, "jonas.weber")
    fails(
        session,
        "set_policy_member",
        {"policy_id": EU, "email": email("anna.kowalski"), "role": "admin"},
        "PermissionDenied",
        "Only admins",
    )


def test_removing_members(session):
    sign_in(session, "marcus.oyelaran")
    fails(session, "remove_policy_member", {"policy_id": US, "email": email("dana.whitfield")}, "Conflict", "owner")
    fails(
        session,
        "remove_policy_member",
        {"policy_id": US, "email": email("grace.kim")},
        "Conflict",
        "theo.marsh@fernhillstudio.com still route reports to grace.kim",
    )
    theo = {"policy_id": US, "email": email("theo.marsh")}
    ok(session, "set_policy_member", {**theo, "submits_to": email("priya.raman")})
    fails(
        session,
        "remove_policy_member",
        {"policy_id": US, "email": email("grace.kim")},
        "Conflict",
        "1 report(s) are waiting on grace.kim",
    )
    fails(session, "remove_policy_member", {"policy_id": US, "email": "someone@else.com"}, "NotFound", "isn't a member")
    removed = ok(session, "remove_policy_member", {"policy_id": US, "email": email("ben.harrington")})
    assert removed["email"] == email("ben.harrington")
    assert row(session, "accounts", email("ben.harrington"))["default_policy_id"] is None
    assert email("ben.harrington") not in {m["email"] for m in ok(session, "list_policy_members", {"policy_id": US})}


def test_categories_are_managed_by_admins(session):
    sign_in(session, "sam.okafor")
    fails(
        session,
        "set_policy_category",
        {"policy_id": US, "name": "Travel Meals", "enabled": False},
        "PermissionDenied",
        "Only admins",
    )
    sign_in(session, "priya.raman")
    added = ok(session, "set_policy_category", {"policy_id": US, "name": "Team Offsite", "gl_code": "6125"})
    assert (added["enabled"], added["max_expense_amount"], added["comment_required"]) == (True, None, False)
    ok(session, "set_policy_category", {"policy_id": US, "name": "Travel Meals", "enabled": False})
    ok(session, "set_policy_category", {"policy_id": US, "name": "Meals & Entertainment", "max_expense_amount": 0})
    fails(session, "set_policy_category", {"policy_id": US, "name": "Lodging"}, "InvalidRequest", "Nothing to update")
    sign_in(session, "sam.okafor")
    starbucks = ok(session, "list_expenses", {"merchant": "Starbucks", "unreported_only": True})["results"][0]
    assert starbucks["violations"] == ["categoryOutOfPolicy"]
    fails(
        session,
        "create_expense",
        {"merchant": "Blue Star Donuts", "amount": 800, "created": "2025-06-12", "category": "Travel Meals"},
        "InvalidRequest",
        "disabled",
    )
    sign_in(session, "priya.raman")
    for name in ("Travel", "Materials", "Software", "Printing"):
        ok(session, "set_policy_category", {"policy_id": CO, "name": name, "enabled": False})
    last = {"policy_id": CO, "name": "Other", "enabled": False}
    fails(session, "set_policy_category", last, "Conflict", "last enabled")


def test_signing_in_starts_one_session_and_replaces_the_last(session):
    sign_in(session, "sam.okafor")
    assert session.dump()["session"]["current"]["email"] == email("sam.okafor")
    sign_in(session, "priya.raman")
    assert list(session.dump()["session"]) == ["current"]
    assert ok(session, "get_account", {})["email"] == email("priya.raman")


@pytest.mark.parametrize(
    "name,args,text",
    [
        ("set_policy_category", {"policy_id": US, "name": "Lodging", "max_expense_amount": -1}, "can't be negative"),
        ("set_policy_category", {"policy_id": US, "name": "x" * 61}, "name must be 1 to 60"),
        ("set_policy_member", {"policy_id": US, "email": "x@y.com", "approval_limit": -5}, "can't be negative"),
        ("mark_reports_reimbursed", {"report_ids": []}, "at least one report_id"),
        ("create_expense", {"merchant": "Muji", "amount": 500, "created": "2025-6-1"}, "date like 2025-06-12"),
        ("create_expense", {"merchant": "Muji", "amount": 500, "created": "2025-06-01", "currency": "euro"}, "Use one"),
        ("create_distance_expense", {"distance": 10_001, "created": "2025-06-15", "comment": "x"}, "at most 10,000"),
    ],
)
def test_typed_bounds_fail_validation_and_change_nothing(session, name, args, text):
    sign_in(session, "priya.raman")
    fails(session, name, args, "invalid_arguments", text)


def test_the_schema_shows_the_bounds():
    props = {name: SPEC.tools[name].input_schema["properties"] for name in SPEC.tools}
    assert props["list_expenses"]["limit"]["maximum"] == 100
    assert props["create_expense"]["created"]["format"] == "date"
    assert props["create_report"]["title"]["maxLength"] == 100
    assert props["create_distance_expense"]["distance"]["exclusiveMinimum"] == 0
    assert props["move_expenses"]["transaction_ids"]["minItems"] == 1
    assert props["set_policy_member"]["approval_limit"]["anyOf"][0]["minimum"] == 0
