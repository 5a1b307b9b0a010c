"""The Gusto environment's tools on the real seed: signing in and company access, employee versions and updates,
compensation rules (one effective date per job, Exempt pay salaried and above the FLSA threshold, new rates in later
calculations), terminations taking people off later payrolls, the payroll state machine (only unprocessed payrolls
change, hours only for hourly staff, versions, calculate before submit, late submission moving the check date, cancel
only while submitted), contractor payments (wage or hours by wage type, direct-deposit lead time, historical payments
in the past, inactive contractors, cancelling unfunded payments) and time off (enrolment, balances, one decision).
Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("gusto")
CLOCK = datetime(2026, 3, 9, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
CO = {c["trade_name"].split()[0]: c["uuid"] for c in SEED["companies"]}
A, B, C = CO["Bluebird"], CO["Juniper"], CO["Harbor"]

session = session_fixture(SPEC, CLOCK)


def emp(company: str, first: str, last: str) -> str:
    return next(
        e["uuid"]
        for e in SEED["employees"]
        if e["company_uuid"] == company and e["first_name"] == first and e["last_name"] == last
    )


def job(employee_uuid: str) -> str:
    return next(j["uuid"] for j in SEED["jobs"] if j["employee_uuid"] == employee_uuid)


def payroll(company: str, start: str) -> str:
    return next(p["uuid"] for p in SEED["payrolls"] if p["company_uuid"] == company and p["start_date"] == start)


def contractor(company: str, name: str) -> str:
    return next(
        k["uuid"]
        for k in SEED["contractors"]
        if k["company_uuid"] == company and name in (k["first_name"], k["business_name"])
    )


def policy(company: str, name: str) -> str:
    return next(p["uuid"] for p in SEED["time_off_policies"] if p["company_uuid"] == company and p["name"] == name)


def sign_in(session: ToolSession, email: str = "priya@bluebirdbakery.com", password: str = "crumb-2026") -> Any:
    return ok(session, "sign_in", {"email": email, "password": password}, caller="user")


def get_payroll(session: ToolSession, company: str, payroll_uuid: str) -> dict[str, Any]:
    return ok(session, "get_payroll", {"company_uuid": company, "payroll_uuid": payroll_uuid})


def entry(payroll_obj: dict[str, Any], employee_uuid: str) -> dict[str, Any]:
    return next(e for e in payroll_obj["employee_compensations"] if e["employee_uuid"] == employee_uuid)


PA, PB, PM = payroll(A, "2026-02-21"), payroll(B, "2026-03-01"), payroll(A, "2026-03-01")
SAM, CLAIRE = emp(A, "Sam", "Patel"), emp(A, "Claire", "Dubois")


# ---------------------------------------------------------------- sign-in and access


def test_sign_in_checks_the_password_and_lists_the_admins_companies(session: ToolSession) -> None:
    fails(session, "get_me", {}, "PermissionDenied", "invalid_token")
    fails(
        session,
        "sign_in",
        {"email": "priya@bluebirdbakery.com", "password": "nope"},
        "PermissionDenied",
        "wrong",
        caller="user",
    )
    assert sign_in(session)["email"] == "priya@bluebirdbakery.com"
    me = ok(session, "get_me")
    assert {r["company_uuid"] for r in me["roles"]} == {A, B}


def test_a_company_the_admin_does_not_administer_is_refused(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "list_employees", {"company_uuid": C}, "PermissionDenied", "missing_permissions")
    fails(
        session, "get_employee", {"employee_uuid": emp(C, "Tara", "Quinn")}, "PermissionDenied", "missing_permissions"
    )


def test_employee_search_and_pages(session: ToolSession) -> None:
    sign_in(session)
    hannahs = ok(session, "list_employees", {"company_uuid": A, "search_term": "hannah"})
    assert sorted(h["last_name"] for h in hannahs) == ["Schmidt", "Schultz"]
    first = ok(session, "list_employees", {"company_uuid": A, "per": 5})
    second = ok(session, "list_employees", {"company_uuid": A, "per": 5, "page": 2})
    assert len(first) == len(second) == 5 and not {e["uuid"] for e in first} & {e["uuid"] for e in second}
    gone = ok(session, "list_employees", {"company_uuid": A, "terminated": True})
    assert {e["last_name"] for e in gone} == {"Dunn", "Morgan"}


def test_update_employee_needs_the_current_version(session: ToolSession) -> None:
    sign_in(session)
    e = ok(session, "get_employee", {"employee_uuid": SAM})
    updated = ok(session, "update_employee", {"employee_uuid": SAM, "version": e["version"], "department": "Pastry"})
    assert updated["department"] == "Pastry" and updated["version"] != e["version"]
    fails(
        session,
        "update_employee",
        {"employee_uuid": SAM, "version": e["version"], "department": "Bread"},
        "Conflict",
        "version",
    )


# ---------------------------------------------------------------- compensation


def test_compensation_rules(session: ToolSession) -> None:
    sign_in(session)
    base = {"job_uuid": job(CLAIRE), "payment_unit": "Year", "flsa_status": "Exempt"}
    fails(
        session,
        "create_compensation",
        {**base, "rate": "30000", "effective_date": "2026-04-01"},
        "InvalidRequest",
        "$684",
    )
    fails(
        session,
        "create_compensation",
        {**base, "payment_unit": "Hour", "rate": "60", "effective_date": "2026-04-01"},
        "InvalidRequest",
        "salary",
    )
    ok(session, "create_compensation", {**base, "rate": "98000", "effective_date": "2026-04-01"})
    fails(
        session,
        "create_compensation",
        {**base, "rate": "99000", "effective_date": "2026-04-01"},
        "Conflict",
        "already exists",
    )
    fails(
        session,
        "create_compensation",
        {**base, "rate": "99000", "effective_date": "2001-01-01"},
        "InvalidRequest",
        "hire date",
    )


def test_a_new_rate_applies_to_periods_ending_after_it_and_drops_the_calculation(session: ToolSession) -> None:
    sign_in(session)
    calculated = ok(session, "calculate_payroll", {"company_uuid": A, "payroll_uuid": PM})
    before = Decimal(entry(calculated, CLAIRE)["gross_pay"])
    assert before == Decimal("7666.67")  # 92,000 / 12
    ok(
        session,
        "create_compensation",
        {
            "job_uuid": job(CLAIRE),
            "rate": "98000",
            "payment_unit": "Year",
            "flsa_status": "Exempt",
            "effective_date": "2026-03-31",
        },
    )
    assert get_payroll(session, A, PM)["calculated"] is False
    again = ok(session, "calculate_payroll", {"company_uuid": A, "payroll_uuid": PM})
    assert Decimal(entry(again, CLAIRE)["gross_pay"]) == Decimal("8166.67")


# ---------------------------------------------------------------- payrolls


def test_update_payroll_rules(session: ToolSession) -> None:
    sign_in(session)
    p = get_payroll(session, A, PA)
    args = {"company_uuid": A, "payroll_uuid": PA, "version": p["version"]}
    fails(
        session,
        "update_payroll",
        {**args, "version": "0" * 32, "employee_compensations": [{"employee_uuid": SAM, "bonus": "10"}]},
        "Conflict",
        "version",
    )
    fails(
        session,
        "update_payroll",
        {**args, "employee_compensations": [{"employee_uuid": CLAIRE, "bonus": "10"}]},
        "NotFound",
        "not on this payroll",
    )
    pm = get_payroll(session, A, PM)
    fails(
        session,
        "update_payroll",
        {
            "company_uuid": A,
            "payroll_uuid": PM,
            "version": pm["version"],
            "employee_compensations": [{"employee_uuid": CLAIRE, "regular_hours": "10"}],
        },
        "InvalidRequest",
        "hourly",
    )
    done = ok(
        session,
        "update_payroll",
        {**args, "employee_compensations": [{"employee_uuid": SAM, "regular_hours": "72", "overtime_hours": "4"}]},
    )
    assert entry(done, SAM)["regular_hours"] == "72.000" and done["calculated"] is False


def test_calculation_pays_hourly_overtime_at_time_and_a_half(session: ToolSession) -> None:
    sign_in(session)
    p = get_payroll(session, A, PA)
    ok(
        session,
        "update_payroll",
        {
            "company_uuid": A,
            "payroll_uuid": PA,
            "version": p["version"],
            "employee_compensations": [
                {
                    "employee_uuid": SAM,
                    "regular_hours": "10",
                    "overtime_hours": "2",
                    "bonus": "0",
                    "reimbursement": "20",
                }
            ],
        },
    )
    calc = ok(session, "calculate_payroll", {"company_uuid": A, "payroll_uuid": PA})
    sam = entry(calc, SAM)
    assert Decimal(sam["gross_pay"]) == Decimal("24.50") * 10 + Decimal("24.50") * Decimal("1.5") * 2
    totals = calc["totals"]
    assert Decimal(totals["company_debit"]) == Decimal(totals["net_pay"]) + Decimal(totals["employee_taxes"]) + Decimal(
        totals["employer_taxes"]
    )


def test_submit_needs_a_calculation_and_the_current_version_and_is_final(session: ToolSession) -> None:
    sign_in(session)
    p = get_payroll(session, A, PA)
    fails(
        session,
        "submit_payroll",
        {"company_uuid": A, "payroll_uuid": PA, "version": p["version"]},
        "Conflict",
        "calculated",
    )
    calc = ok(session, "calculate_payroll", {"company_uuid": A, "payroll_uuid": PA})
    fails(
        session,
        "submit_payroll",
        {"company_uuid": A, "payroll_uuid": PA, "version": p["version"]},
        "Conflict",
        "version",
    )
    sent = ok(session, "submit_payroll", {"company_uuid": A, "payroll_uuid": PA, "version": calc["version"]})
    assert sent["payroll_status"] == "submitted" and sent["check_date"] == "2026-03-13"
    fails(session, "calculate_payroll", {"company_uuid": A, "payroll_uuid": PA}, "Conflict", "already been processed")


def test_cancel_only_a_submitted_payroll(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "cancel_payroll", {"company_uuid": A, "payroll_uuid": PA}, "Conflict", "only a submitted payroll")
    paid = payroll(A, "2026-02-07")
    fails(session, "cancel_payroll", {"company_uuid": A, "payroll_uuid": paid}, "Conflict", "only a submitted payroll")
    calc = ok(session, "calculate_payroll", {"company_uuid": A, "payroll_uuid": PA})
    ok(session, "submit_payroll", {"company_uuid": A, "payroll_uuid": PA, "version": calc["version"]})
    back = ok(session, "cancel_payroll", {"company_uuid": A, "payroll_uuid": PA})
    assert back["payroll_status"] == "unprocessed" and back["calculated"] is False


def test_a_payroll_submitted_after_its_deadline_is_late_by_one_business_day() -> None:
    late = ToolSession(SPEC)
    late.reset("seed", datetime(2026, 3, 10, 1, 0, tzinfo=timezone.utc))
    try:
        sign_in(late)
        calc = ok(late, "calculate_payroll", {"company_uuid": B, "payroll_uuid": PB})
        sent = ok(late, "submit_payroll", {"company_uuid": B, "payroll_uuid": PB, "version": calc["version"]})
        assert sent["check_date"] == "2026-03-16" and sent["payroll_deadline"].startswith("2026-03-10")
    finally:
        late.close()


def test_termination_takes_an_employee_off_later_payrolls_only(session: ToolSession) -> None:
    sign_in(session)
    felix = emp(A, "Felix", "Braun")
    ok(session, "terminate_employee", {"employee_uuid": felix, "effective_date": "2026-03-06"})
    assert any(e["employee_uuid"] == felix for e in get_payroll(session, A, PA)["employee_compensations"])
    later = get_payroll(session, A, payroll(A, "2026-03-07"))
    assert all(e["employee_uuid"] != felix for e in later["employee_compensations"])
    fails(
        session,
        "terminate_employee",
        {"employee_uuid": felix, "effective_date": "2026-03-07"},
        "Conflict",
        "already been terminated",
    )
    fails(
        session,
        "create_compensation",
        {
            "job_uuid": job(felix),
            "rate": "20",
            "payment_unit": "Hour",
            "flsa_status": "Nonexempt",
            "effective_date": "2026-04-01",
        },
        "Conflict",
        "terminated",
    )


# ---------------------------------------------------------------- contractors


def test_contractor_payment_rules(session: ToolSession) -> None:
    sign_in(session)
    coastal, reese, walt = contractor(A, "Coastal Refrigeration Repair"), contractor(A, "Jordan"), contractor(A, "Walt")
    base = {"company_uuid": A, "date": "2026-03-11"}
    fails(
        session, "create_contractor_payment", {**base, "contractor_uuid": walt, "wage": "100"}, "Conflict", "not active"
    )
    fails(
        session,
        "create_contractor_payment",
        {**base, "contractor_uuid": coastal, "wage": "100"},
        "InvalidRequest",
        "by hours",
    )
    fails(
        session,
        "create_contractor_payment",
        {**base, "contractor_uuid": reese, "hours": "3"},
        "InvalidRequest",
        "a wage",
    )
    fails(
        session,
        "create_contractor_payment",
        {**base, "date": "2026-03-10", "contractor_uuid": reese, "wage": "100"},
        "InvalidRequest",
        "2 business days",
    )
    fails(
        session,
        "create_contractor_payment",
        {**base, "payment_method": "Historical Payment", "contractor_uuid": reese, "wage": "100"},
        "InvalidRequest",
        "in the past",
    )
    paid = ok(
        session,
        "create_contractor_payment",
        {**base, "contractor_uuid": coastal, "hours": "6.5", "reimbursement": "10"},
    )
    assert paid["wage"] == "617.50" and paid["wage_total"] == "627.50" and paid["may_cancel"] is True


def test_only_unfunded_contractor_payments_can_be_cancelled(session: ToolSession) -> None:
    sign_in(session)
    past = next(p for p in SEED["contractor_payments"] if p["company_uuid"] == A and p["status"] == "Funded")
    fails(
        session,
        "cancel_contractor_payment",
        {"company_uuid": A, "contractor_payment_uuid": past["uuid"]},
        "Conflict",
        "funded",
    )
    future = next(p for p in SEED["contractor_payments"] if p["company_uuid"] == A and p["status"] == "Unfunded")
    ok(session, "cancel_contractor_payment", {"company_uuid": A, "contractor_payment_uuid": future["uuid"]})
    left = ok(
        session, "list_contractor_payments", {"company_uuid": A, "start_date": "2026-03-09", "end_date": "2026-12-31"}
    )
    assert future["uuid"] not in {p["uuid"] for p in left}


# ---------------------------------------------------------------- time off


def test_time_off_balance_enrolment_and_one_decision(session: ToolSession) -> None:
    sign_in(session)
    kevin, vacation, sick = emp(A, "Kevin", "O'Brien"), policy(A, "Vacation"), policy(A, "Sick leave")
    retired = policy(A, "Vacation (2024 plan, retired)")
    fails(
        session,
        "create_time_off_request",
        {
            "employee_uuid": kevin,
            "time_off_policy_uuid": retired,
            "start_date": "2026-04-01",
            "end_date": "2026-04-01",
            "hours": "8",
        },
        "InvalidRequest",
        "not enrolled",
    )
    fails(
        session,
        "create_time_off_request",
        {
            "employee_uuid": kevin,
            "time_off_policy_uuid": sick,
            "start_date": "2026-04-02",
            "end_date": "2026-04-01",
            "hours": "8",
        },
        "InvalidRequest",
        "end_date",
    )
    big = ok(
        session,
        "create_time_off_request",
        {
            "employee_uuid": kevin,
            "time_off_policy_uuid": sick,
            "start_date": "2026-04-01",
            "end_date": "2026-04-03",
            "hours": "24",
        },
    )
    fails(
        session,
        "decide_time_off_request",
        {"time_off_request_uuid": big["uuid"], "decision": "approved"},
        "Conflict",
        "exceed",
    )
    small = ok(
        session,
        "create_time_off_request",
        {
            "employee_uuid": kevin,
            "time_off_policy_uuid": vacation,
            "start_date": "2026-04-06",
            "end_date": "2026-04-06",
            "hours": "8",
        },
    )
    ok(session, "decide_time_off_request", {"time_off_request_uuid": small["uuid"], "decision": "approved"})
    balance = next(
        e
        for e in ok(session, "get_time_off_policy", {"time_off_policy_uuid": vacation})["employees"]
        if e["uuid"] == kevin
    )
    assert balance["balance"] == "32.000"
    fails(
        session,
        "decide_time_off_request",
        {"time_off_request_uuid": small["uuid"], "decision": "denied"},
        "Conflict",
        "already been approved",
    )


def test_unlimited_policies_approve_without_a_balance(session: ToolSession) -> None:
    sign_in(session)
    ethan = emp(B, "Ethan", "Brooks")
    req = ok(
        session,
        "create_time_off_request",
        {
            "employee_uuid": ethan,
            "time_off_policy_uuid": policy(B, "Flexible vacation"),
            "start_date": "2026-03-30",
            "end_date": "2026-04-03",
            "hours": "40",
        },
    )
    assert (
        ok(session, "decide_time_off_request", {"time_off_request_uuid": req["uuid"], "decision": "approved"})["status"]
        == "approved"
    )


def test_amounts_and_hours_are_recorded_in_one_canonical_form(session: ToolSession) -> None:
    sign_in(session)
    args = {"company_uuid": A, "contractor_uuid": contractor(A, "Jordan"), "date": "2026-03-13", "wage": 600}
    outcome = session.call("create_contractor_payment", args)
    assert outcome.ok and outcome.arguments["wage"] == "600.00" and outcome.arguments["bonus"] == "0.00"
    hourly = {"company_uuid": A, "contractor_uuid": contractor(A, "Ana"), "date": "2026-03-13", "hours": 9.5}
    assert session.call("create_contractor_payment", hourly).arguments["hours"] == "9.500"
