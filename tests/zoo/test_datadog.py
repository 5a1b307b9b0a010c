"""The Datadog environment's tools on the real seed: sign-in and the read-only role, monitor threshold rules (critical
equal to the query's, warning on the near side of critical for > and < queries, service check counts), scoped mutes
with end times and unmuting, downtimes by monitor id or tags (one-off and recurring, end after start, cancel only
while active or scheduled), incidents (customer impact needs a scope, active commanders, the timeline of changes,
resolution stamps), SLOs (metric and monitor types, log alerts refused, warning above target, error budget) and the
listings. Every error path is checked to leave the state unchanged, with Datadog's `errors` body in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("datadog")
CLOCK = datetime(2026, 3, 12, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
MONITORS = {m["name"]: m for m in SEED["monitors"]}
INCIDENTS = {i["title"]: i for i in SEED["incidents"]}
SLOS = {s["name"]: s for s in SEED["slos"]}
ADMIN = "dana.whitfield@lumenfreight.com"
STANDARD = "priya.raman@lumenfreight.com"
READ_ONLY = "hannah.brooks@lumenfreight.com"
CPU = MONITORS["Checkout high CPU"]
DISK = MONITORS["Checkout low disk space"]
HTTP = MONITORS["Checkout HTTP check"]
LOGS = MONITORS["Checkout error logs spike"]
OPEN = INCIDENTS["Checkout latency spike - card payments"]

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = STANDARD) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


# ---------------------------------------------------------------- sign-in and roles


def test_tools_need_a_signed_in_user(session):
    fails(session, "list_monitors", {}, "PermissionDenied", "sign in")


def test_disabled_users_cannot_sign_in(session):
    fails(session, "sign_in", {"email": "hugo.lambert@lumenfreight.com"}, "InvalidRequest", "disabled", caller="user")


def test_read_only_users_read_but_change_nothing(session):
    sign_in(session, READ_ONLY)
    assert ok(session, "get_monitor", {"monitor_id": CPU["id"]})["id"] == CPU["id"]
    fails(session, "mute_monitor", {"monitor_id": CPU["id"]}, "PermissionDenied", "Read Only")
    fails(session, "add_incident_note", {"incident_id": OPEN["id"], "content": "x"}, "PermissionDenied", "403")


def test_sign_in_shows_teams(session):
    user = sign_in(session)["user"]
    assert user["role"] == "Datadog Standard Role" and "payments" in user["teams"]


# ---------------------------------------------------------------- monitor thresholds


def test_create_metric_monitor_starts_without_data(session):
    sign_in(session)
    made = ok(
        session,
        "create_monitor",
        {
            "name": "Checkout queue depth",
            "type": "metric alert",
            "query": "avg(last_5m):max:queue.depth{service:checkout} > 500",
            "critical": 500,
            "warning": 400,
            "tags": ["service:checkout", "env:prod"],
        },
    )
    assert made["id"] == max(m["id"] for m in SEED["monitors"]) + 1
    assert made["overall_state"] == "No Data" and made["options"]["thresholds"] == {"critical": 500, "warning": 400}


def test_critical_must_match_the_query(session):
    sign_in(session)
    query = "avg(last_5m):max:queue.depth{service:checkout} > 500"
    args = {"name": "q", "type": "metric alert", "query": query, "critical": 450}
    fails(session, "create_monitor", args, "InvalidRequest", "does not match that used in the query (500)")


def test_warning_must_sit_below_critical_for_above_queries(session):
    sign_in(session)
    query = CPU["query"].rsplit(">", 1)[0] + "> 95"
    args = {"monitor_id": CPU["id"], "query": query, "critical": 95, "warning": 97}
    fails(session, "update_monitor", args, "InvalidRequest", "must be less than the alert threshold (95)")
    fails(session, "update_monitor", {**args, "warning": 95}, "InvalidRequest", '"errors"')


def test_warning_must_sit_above_critical_for_below_queries(session):
    sign_in(session)
    query = DISK["query"].rsplit("<", 1)[0] + "< 8"
    args = {"monitor_id": DISK["id"], "query": query, "critical": 8, "warning": 5}
    fails(session, "update_monitor", args, "InvalidRequest", "must be greater than the alert threshold (8)")
    done = ok(session, "update_monitor", {**args, "warning": 15})
    assert done["query"].endswith("< 8") and done["options"]["thresholds"] == {"critical": 8, "warning": 15}


def test_changing_critical_alone_breaks_the_query_match(session):
    sign_in(session)
    fails(session, "update_monitor", {"monitor_id": CPU["id"], "critical": 99}, "InvalidRequest", "does not match")


def test_query_must_fit_the_monitor_type(session):
    sign_in(session)
    args = {"name": "x", "type": "log alert", "query": CPU["query"], "critical": CPU["critical"]}
    fails(session, "create_monitor", args, "InvalidRequest", "invalid for a log alert monitor")


def test_service_check_thresholds_are_counts(session):
    sign_in(session)
    fails(session, "update_monitor", {"monitor_id": HTTP["id"], "warning": 5}, "InvalidRequest", "must not exceed")
    fails(session, "update_monitor", {"monitor_id": HTTP["id"], "critical": 0}, "InvalidRequest", "at least 1")


def test_tags_and_priority_update_and_filter(session):
    sign_in(session)
    ok(session, "update_monitor", {"monitor_id": CPU["id"], "tags": CPU["tags"] + ["team:sre"], "priority": 2})
    found = ok(session, "list_monitors", {"tags": ["team:sre", "service:checkout"]})["monitors"]
    assert [m["id"] for m in found] == [CPU["id"]] and found[0]["priority"] == 2


# ---------------------------------------------------------------- mutes


def test_mute_a_scope_until_a_time_then_unmute_it(session):
    sign_in(session)
    muted = ok(
        session, "mute_monitor", {"monitor_id": CPU["id"], "scope": "host:w-02", "end": "2026-03-13T09:00:00+00:00"}
    )
    assert muted["options"]["silenced"] == {"host:w-02": "2026-03-13T09:00:00Z"}
    fails(session, "unmute_monitor", {"monitor_id": CPU["id"], "scope": "host:w-09"}, "InvalidRequest", "not muted")
    assert ok(session, "unmute_monitor", {"monitor_id": CPU["id"], "scope": "host:w-02"})["options"]["silenced"] == {}


def test_mute_end_must_be_in_the_future(session):
    sign_in(session)
    args = {"monitor_id": CPU["id"], "end": "2026-03-12T10:00:00Z"}
    fails(session, "mute_monitor", args, "InvalidRequest", "Mute end time must be in the future")


def test_unmuting_an_unmuted_monitor_fails(session):
    sign_in(session)
    fails(session, "unmute_monitor", {"monitor_id": CPU["id"]}, "InvalidRequest", "is not muted")
    fails(session, "get_monitor", {"monitor_id": 1}, "NotFound", "Monitor 1 not found")


# ---------------------------------------------------------------- downtimes


def test_downtime_by_tags_is_scheduled_then_canceled(session):
    sign_in(session)
    args = {"scope": "env:staging", "monitor_tags": ["service:checkout"], "start": "2026-03-14T02:00:00Z"}
    made = ok(session, "create_downtime", {**args, "end": "2026-03-14T06:00:00Z"})
    assert made["status"] == "scheduled" and made["monitor_identifier"] == {
        "monitor_id": None,
        "monitor_tags": ["service:checkout"],
    }
    assert ok(session, "cancel_downtime", {"downtime_id": made["id"]})["status"] == "canceled"
    fails(session, "cancel_downtime", {"downtime_id": made["id"]}, "Conflict", "already been canceled")
    current = ok(session, "list_downtimes", {"current_only": True, "page_size": 100})["downtimes"]
    assert made["id"] not in {d["id"] for d in current}


def test_downtime_names_exactly_one_identifier(session):
    sign_in(session)
    fails(session, "create_downtime", {"scope": "*"}, "InvalidRequest", "Exactly one of monitor_id or monitor_tags")
    both = {"scope": "*", "monitor_id": CPU["id"], "monitor_tags": ["*"]}
    fails(session, "create_downtime", both, "InvalidRequest", "Exactly one")


def test_downtime_end_after_start_and_recurrence_needs_duration(session):
    sign_in(session)
    args = {
        "scope": "env:prod",
        "monitor_id": CPU["id"],
        "start": "2026-03-14T06:00:00Z",
        "end": "2026-03-14T02:00:00Z",
    }
    fails(session, "create_downtime", args, "InvalidRequest", "end must be after its start")
    recurring = {"scope": "env:prod", "monitor_id": CPU["id"], "rrule": "FREQ=WEEKLY;BYDAY=SA"}
    fails(session, "create_downtime", recurring, "InvalidRequest", "both rrule and duration")
    made = ok(session, "create_downtime", {**recurring, "duration": "2h"})
    assert made["status"] == "active" and made["schedule"]["rrule"] == "FREQ=WEEKLY;BYDAY=SA"


def test_ended_downtimes_cannot_be_canceled(session):
    sign_in(session)
    ended = next(d for d in SEED["downtimes"] if d["end"] and d["end"] < "2026-03-01" and not d["canceled"])
    fails(session, "cancel_downtime", {"downtime_id": ended["id"]}, "Conflict", "already ended")


# ---------------------------------------------------------------- incidents


def test_customer_impact_needs_a_scope(session):
    sign_in(session)
    fails(session, "create_incident", {"title": "x", "customer_impacted": True}, "InvalidRequest", "is required")
    args = {"incident_id": OPEN["id"], "customer_impacted": False, "customer_impact_scope": "y"}
    fails(session, "update_incident", args, "InvalidRequest", "only be set")


def test_declared_incident_is_active_with_the_declarer_as_commander(session):
    sign_in(session)
    made = ok(session, "create_incident", {"title": "Label printer outage", "severity": "SEV-3"})
    assert made["state"] == "active" and made["commander"]["handle"] == STANDARD
    assert made["public_id"] == max(i["public_id"] for i in SEED["incidents"]) + 1
    assert [e["kind"] for e in made["timeline"]] == ["state_change"]


def test_escalate_resolve_and_reopen_writes_the_timeline(session):
    sign_in(session, ADMIN)
    args = {"incident_id": OPEN["id"], "severity": "SEV-1", "commander_email": "sam.okafor@lumenfreight.com"}
    done = ok(session, "update_incident", args)
    assert done["severity"] == "SEV-1" and done["commander"]["name"] == "Sam Okafor"
    assert [e["kind"] for e in done["timeline"][-2:]] == ["severity_change", "commander_change"]
    resolved = ok(
        session, "update_incident", {"incident_id": OPEN["id"], "state": "resolved", "customer_impacted": False}
    )
    assert resolved["resolved"] and resolved["customer_impact_end"] and not resolved["customer_impacted"]
    reopened = ok(session, "update_incident", {"incident_id": OPEN["id"], "state": "active"})
    assert reopened["resolved"] is None


def test_commander_must_be_active_and_updates_must_change_something(session):
    sign_in(session)
    args = {"incident_id": OPEN["id"], "commander_email": "felix.novak@lumenfreight.com"}
    fails(session, "update_incident", args, "InvalidRequest", "not an active user")
    fails(session, "update_incident", {"incident_id": OPEN["id"], "state": "active"}, "InvalidRequest", "Nothing")


def test_notes_join_the_timeline(session):
    sign_in(session)
    note = ok(session, "add_incident_note", {"incident_id": OPEN["id"], "content": "Rolled back"})
    timeline = ok(session, "get_incident", {"incident_id": OPEN["id"]})["timeline"]
    assert timeline[-1]["id"] == note["id"] and timeline[-1]["content"] == "Rolled back"


# ---------------------------------------------------------------- SLOs


def test_error_budget_and_status(session):
    sign_in(session)
    slo = ok(session, "get_slo", {"slo_id": SLOS["Payments API availability"]["id"]})
    assert slo["status"] == "Breached" and slo["error_budget_remaining"] == -80.0
    ok_slo = ok(session, "get_slo", {"slo_id": SLOS["Checkout availability"]["id"]})
    assert ok_slo["status"] == "OK" and ok_slo["error_budget_remaining"] == 30.0


def test_monitor_slo_refuses_log_alerts_and_needs_monitors(session):
    sign_in(session)
    args = {"name": "s", "type": "monitor", "target": 99.5, "timeframe": "30d", "monitor_ids": [LOGS["id"]]}
    fails(session, "create_slo", args, "InvalidRequest", "is a log alert")
    fails(session, "create_slo", {**args, "monitor_ids": []}, "InvalidRequest", "needs monitor_ids")
    made = ok(session, "create_slo", {**args, "monitor_ids": [CPU["id"], HTTP["id"]]})
    assert made["status"] == "No Data" and made["monitor_ids"] == sorted([CPU["id"], HTTP["id"]])


def test_slo_warning_must_exceed_target(session):
    sign_in(session)
    slo_id = SLOS["Checkout availability"]["id"]
    fails(session, "update_slo", {"slo_id": slo_id, "warning": 99.8}, "InvalidRequest", "must be greater than")
    done = ok(session, "update_slo", {"slo_id": slo_id, "target": 99.95, "warning": 99.97})
    assert done["status"] == "Breached" and done["thresholds"][0]["target"] == 99.95


# ---------------------------------------------------------------- listings


def test_listings_filter_and_page(session):
    sign_in(session)
    first = ok(session, "list_monitors", {"page_size": 10})
    second = ok(session, "list_monitors", {"page_size": 10, "cursor": first["next_cursor"]})
    assert len(first["monitors"]) == 10 and first["monitors"][-1]["id"] < second["monitors"][0]["id"]
    payments = ok(session, "list_users", {"team": "payments"})["users"]
    assert {u["name"] for u in payments} >= {"Priya Raman", "Sam Okafor"}
    assert all(d["team"] == "sre" for d in ok(session, "list_dashboards", {"team": "sre"})["dashboards"])
    stable = ok(session, "list_incidents", {"state": "stable"})["incidents"]
    assert {i["title"] for i in stable} == {
        "Kafka consumer lag on shipments topic",
        "SSO login failures for partner portal",
    }
    sre = ok(session, "list_teams", {"filter": "Site"})[0]
    assert sre["handle"] == "sre" and sre["members"][0] == {
        "handle": "dana.whitfield@lumenfreight.com",
        "name": "Dana Whitfield",
        "role": "admin",
    }
