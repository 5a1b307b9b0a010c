"""The PagerDuty environment's tools: on-call computed from layers, restrictions and overrides; the incident
lifecycle with roles, urgency rules, incident keys, merges and log entries; Events API de-duplication; maintenance
windows; every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone

from envfactory_gym import ToolSession, resolve
from envfactory_zoo.pagerduty.oncall import ONCALL_MARGIN, ScheduleView

from .toolkit import fails, ok, session_fixture

SPEC = resolve("pagerduty")
CLOCK = datetime(2025, 6, 18, 14, 0, tzinfo=timezone.utc)  # a Wednesday, 10:00 in New York
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


def _by(table: str, column: str, value: object) -> dict:
    return next(r for r in SEED[table] if r[column] == value)


def user(name: str) -> str:
    return _by("users", "name", name)["id"]


def email(name: str) -> str:
    return _by("users", "name", name)["email"]


def service(name: str) -> str:
    return _by("services", "name", name)["id"]


def schedule(name: str) -> str:
    return _by("schedules", "name", name)["id"]


def policy(name: str) -> str:
    return _by("escalation_policies", "name", name)["id"]


def incident(number: int) -> str:
    return _by("incidents", "incident_number", number)["id"]


def routing_key(service_name: str) -> str:
    return next(
        i["integration_key"]
        for i in SEED["integrations"]
        if i["service_id"] == service(service_name) and i["type"] == "events_api_v2_inbound_integration"
    )


def priority(name: str) -> str:
    return _by("priorities", "name", name)["id"]


CHECKOUT_5XX, WEBHOOK, CHECKOUT_P99, KAFKA_LAG, NODE_POOL = 1419, 1420, 1421, 1422, 1416
SSO_ACME, POSTGRES_LAG, ANDROID_502 = 1412, 1414, 1418

session = session_fixture(SPEC, CLOCK)


def update(session: ToolSession, who: str, number: int, **changes: object) -> dict:
    return ok(session, "update_incident", {"from_email": email(who), "incident_id": incident(number), **changes})


def get(session: ToolSession, number: int) -> dict:
    return ok(session, "get_incident", {"incident_id": incident(number)})


def names(refs: list[dict]) -> list[str]:
    return [r["summary"] for r in refs]


def entries(result: dict) -> list[tuple[str, str, str]]:
    """A get_schedule answer's final schedule as (user, start, end)."""
    return [(e["user"]["summary"], e["start"], e["end"]) for e in result["final_schedule"]["rendered_schedule_entries"]]


def incident_count(session: ToolSession) -> int:
    return len(session.dump()["incidents"])


# ---------------------------------------------------------------- interface


def test_tools_and_the_app_acknowledgement_is_user_only(session):
    assert len(SPEC.tools) == 22
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["acknowledge_in_mobile_app"]
    assert SPEC.tools["list_priorities"].input_schema["properties"] == {}
    outcome = session.call(
        "acknowledge_in_mobile_app", {"email": email("Nadia Rahman"), "incident_number": CHECKOUT_5XX}
    )
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert [p["name"] for p in ok(session, "list_priorities")] == ["P1", "P2", "P3", "P4", "P5"]


# ---------------------------------------------------------------- on-call


def test_oncall_now_follows_rotations_overrides_and_direct_targets(session):
    entries = ok(session, "list_oncalls", {"escalation_policy_ids": [policy("SRE Escalation")]})["results"]
    by_level = {}
    for e in entries:
        by_level.setdefault(e["escalation_level"], []).append(e)
    # Elena's SRE Primary week, covered by Marcus's override until 18:00 UTC
    assert [(e["user"]["summary"], e["start"], e["end"]) for e in by_level[1]] == [
        ("Marcus Oyelaran", "2025-06-17T22:00:00Z", "2025-06-18T18:00:00Z")
    ]
    assert [e["user"]["summary"] for e in by_level[2]] == ["Tomasz Kowalczyk"]
    assert [(e["user"]["summary"], e["start"]) for e in by_level[3]] == [("Dana Whitfield", None), ("Alex Chen", None)]


def test_final_schedule_applies_the_override_then_the_rotation(session):
    result = ok(session, "get_schedule", {"schedule_id": schedule("SRE Primary"), "until": "2025-06-24T00:00:00Z"})
    assert entries(result) == [
        ("Marcus Oyelaran", "2025-06-18T14:00:00Z", "2025-06-18T18:00:00Z"),
        ("Elena Petrova", "2025-06-18T18:00:00Z", "2025-06-23T14:00:00Z"),
        ("Jamal Carter", "2025-06-23T14:00:00Z", "2025-06-24T00:00:00Z"),
    ]
    assert result["final_schedule"]["rendered_coverage_percentage"] == 100.0
    assert [o["user"]["summary"] for o in result["overrides"]] == ["Marcus Oyelaran"]


def test_restricted_layers_follow_the_sun(session):
    result = ok(
        session,
        "get_schedule",
        {
            "schedule_id": schedule("Identity Follow-the-Sun"),
            "since": "2025-06-18T00:00:00Z",
            "until": "2025-06-19T12:00:00Z",
        },
    )
    entries = [
        (e["user"]["summary"], e["start"][11:16], e["end"][11:16])
        for e in result["final_schedule"]["rendered_schedule_entries"]
    ]
    assert entries == [
        ("Yuki Tanaka", "00:00", "06:00"),
        ("Sven Lindqvist", "06:00", "18:00"),
        ("Yuki Tanaka", "18:00", "06:00"),
        ("Sven Lindqvist", "06:00", "12:00"),
    ]


def test_a_higher_layer_wins_where_it_has_coverage(session):
    result = ok(
        session,
        "get_schedule",
        {"schedule_id": schedule("Mobile On-Call"), "since": "2025-06-20T00:00:00Z", "until": "2025-06-24T00:00:00Z"},
    )
    # the weekend backup layer (Saturday 00:00 to Monday 00:00 Los Angeles time) beats the weekly rotation
    assert entries(result) == [
        ("Ana Costa", "2025-06-20T00:00:00Z", "2025-06-21T07:00:00Z"),
        ("Ethan Brooks", "2025-06-21T07:00:00Z", "2025-06-23T07:00:00Z"),
        ("Ana Costa", "2025-06-23T07:00:00Z", "2025-06-23T17:00:00Z"),
        ("Zoe Park", "2025-06-23T17:00:00Z", "2025-06-24T00:00:00Z"),
    ]


def test_business_hours_schedule_has_no_weekend_coverage(session):
    weekend = ok(
        session,
        "get_schedule",
        {
            "schedule_id": schedule("Platform Business Hours"),
            "since": "2025-06-21T00:00:00Z",
            "until": "2025-06-23T00:00:00Z",
        },
    )
    assert weekend["final_schedule"] == {"rendered_coverage_percentage": 0.0, "rendered_schedule_entries": []}
    thursday = ok(
        session,
        "get_schedule",
        {
            "schedule_id": schedule("Platform Business Hours"),
            "since": "2025-06-19T04:00:00Z",
            "until": "2025-06-20T04:00:00Z",
        },
    )
    assert entries(thursday) == [("Dana Whitfield", "2025-06-19T13:00:00Z", "2025-06-19T21:00:00Z")]
    fails(
        session,
        "get_schedule",
        {"schedule_id": schedule("SRE Primary"), "since": "2025-06-01T00:00:00Z", "until": "2025-09-30T00:00:00Z"},
        "InvalidRequest",
        "at most 93 days",
    )


def test_oncalls_over_a_range_show_the_handoff(session):
    result = ok(
        session,
        "list_oncalls",
        {
            "schedule_ids": [schedule("Data Platform On-Call")],
            "since": "2025-06-18T14:59:00Z",
            "until": "2025-06-18T15:01:00Z",
        },
    )
    assert [(e["user"]["summary"], e["start"], e["end"]) for e in result["results"]] == [
        ("Noah Fischer", "2025-06-11T15:00:00Z", "2025-06-18T15:00:00Z"),
        ("Isabella Rossi", "2025-06-18T15:00:00Z", "2025-06-25T15:00:00Z"),
    ]
    earliest = ok(session, "list_oncalls", {"user_ids": [user("Marcus Oyelaran")], "earliest": True})["results"]
    assert {(e["escalation_policy"]["summary"], e["escalation_level"]) for e in earliest} == {
        ("SRE Escalation", 1),
        ("Database Escalation", 2),
    }


# ---------------------------------------------------------------- opening incidents


def test_create_incident_goes_to_level_one_oncall_and_is_logged(session):
    created = ok(
        session,
        "create_incident",
        {"from_email": email("Sofia Marquez"), "title": "Promo codes rejected", "service_id": service("Checkout API")},
    )
    assert (created["incident_number"], created["status"], created["urgency"]) == (1423, "triggered", "high")
    assert names(created["assignments"]) == ["Nadia Rahman"] and created["escalation_level"] == 1
    logs = ok(session, "list_incident_log_entries", {"incident_id": created["id"]})["results"]
    assert sorted(e["type"] for e in logs) == ["assign_log_entry", "trigger_log_entry"]
    assert {e["agent"]["summary"] for e in logs} == {"Sofia Marquez"}


def test_a_level_with_nobody_on_call_is_skipped(session):
    session.reset("seed", datetime(2025, 6, 21, 12, 0, tzinfo=timezone.utc))  # Saturday: no business-hours cover
    created = ok(
        session,
        "create_incident",
        {"from_email": email("Jamal Carter"), "title": "Grafana unreachable", "service_id": service("Internal Tools")},
    )
    assert (names(created["assignments"]), created["escalation_level"]) == (["Dana Whitfield"], 2)
    assert created["urgency"] == "low"  # Internal Tools: constant low urgency


def test_urgency_follows_the_services_rule(session):
    args = {"from_email": email("Sofia Marquez"), "service_id": service("Billing Jobs"), "title": "Dunning stuck"}
    assert ok(session, "create_incident", args)["urgency"] == "high"  # 10:00 New York: support hours
    session.reset("seed", datetime(2025, 6, 18, 23, 0, tzinfo=timezone.utc))  # 19:00 New York
    assert ok(session, "create_incident", args)["urgency"] == "low"
    assert ok(session, "create_incident", {**args, "urgency": "high"})["urgency"] == "high"


def test_an_open_incident_key_cannot_be_used_twice_on_a_service(session):
    args = {
        "from_email": email("Nadia Rahman"),
        "service_id": service("Checkout API"),
        "title": "Dup",
        "incident_key": "datadog-monitor-48213771",
    }
    fails(session, "create_incident", args, "Conflict", "already exists: #1419")
    ok(session, "create_incident", {**args, "service_id": service("Payments Gateway")})  # keys are per service
    update(session, "Nadia Rahman", CHECKOUT_5XX, status="resolved")
    assert ok(session, "create_incident", args)["incident_key"] == "datadog-monitor-48213771"


def test_disabled_and_maintenance_services_open_no_incidents(session):
    base = {"from_email": email("Grace Okafor"), "title": "Anything"}
    fails(session, "create_incident", {**base, "service_id": service("Legacy Reports")}, "Conflict", "disabled")
    fails(
        session,
        "create_incident",
        {**base, "service_id": service("Data Pipeline")},
        "Conflict",
        "in maintenance until 2025-06-18T20:00:00Z",
    )
    fails(
        session,
        "create_incident",
        {
            **base,
            "service_id": service("Checkout API"),
            "assignee_ids": [user("Kenji Watanabe")],
            "escalation_policy_id": policy("Payments Critical"),
        },
        "InvalidRequest",
        "not both",
    )
    fails(
        session,
        "create_incident",
        {**base, "service_id": service("Checkout API"), "title": "  "},
        "invalid_arguments",
        "title: title can't be blank",
    )


# ---------------------------------------------------------------- Events API


def test_triggers_are_deduplicated_and_suppressed_in_maintenance(session):
    before = incident_count(session)
    trigger = {"event_action": "trigger", "summary": "5xx again", "source": "checkout-api.prod", "severity": "critical"}
    answer = ok(
        session,
        "send_event",
        {"routing_key": routing_key("Checkout API"), **trigger, "dedup_key": "datadog-monitor-48213771"},
    )
    assert answer == {"status": "success", "message": "Event processed", "dedup_key": "datadog-monitor-48213771"}
    assert incident_count(session) == before
    ok(session, "send_event", {"routing_key": routing_key("Data Pipeline"), **trigger, "dedup_key": "dag-1"})
    assert incident_count(session) == before  # dropped: the pipeline is in maintenance
    window = next(w["id"] for w in SEED["maintenance_windows"] if w["description"] == "Snowflake warehouse migration")
    assert ok(session, "delete_maintenance_window", {"maintenance_window_id": window})["result"] == "ended"
    ok(
        session,
        "send_event",
        {"routing_key": routing_key("Data Pipeline"), **trigger, "dedup_key": "dag-1", "severity": "warning"},
    )
    created = ok(session, "list_incidents", {"incident_key": "dag-1"})["results"]
    assert [(i["service"]["summary"], i["urgency"], names(i["assignments"])) for i in created] == [
        ("Data Pipeline", "low", ["Noah Fischer"])
    ]  # severity-based urgency: a warning is low


def test_an_incident_resolves_through_events_when_its_last_alert_does(session):
    keys = [a["alert_key"] for a in SEED["alerts"] if a["incident_id"] == incident(CHECKOUT_5XX)]
    assert len(keys) == 2
    route = routing_key("Checkout API")
    ok(session, "send_event", {"routing_key": route, "event_action": "acknowledge", "dedup_key": keys[0]})
    acked = get(session, CHECKOUT_5XX)
    assert acked["status"] == "acknowledged" and acked["acknowledgements"][0]["type"] == "service_reference"
    ok(session, "send_event", {"routing_key": route, "event_action": "resolve", "dedup_key": keys[0]})
    assert get(session, CHECKOUT_5XX)["alert_counts"] == {"all": 2, "triggered": 1, "resolved": 1}
    ok(session, "send_event", {"routing_key": route, "event_action": "resolve", "dedup_key": keys[1]})
    assert get(session, CHECKOUT_5XX)["status"] == "resolved"
    before = session.dump()
    ok(session, "send_event", {"routing_key": route, "event_action": "resolve", "dedup_key": "no-such-alert"})
    assert session.dump() == before


def test_invalid_events(session):
    fails(
        session,
        "send_event",
        {"routing_key": "0" * 32, "event_action": "trigger", "summary": "x", "source": "y", "severity": "info"},
        "InvalidRequest",
        "routing_key",
    )
    fails(
        session,
        "send_event",
        {
            "routing_key": routing_key("Kafka Cluster"),
            "event_action": "trigger",
            "source": "kafka",
            "severity": "error",
        },
        "InvalidRequest",
        "payload.summary",
    )
    fails(
        session,
        "send_event",
        {"routing_key": routing_key("Kafka Cluster"), "event_action": "resolve"},
        "InvalidRequest",
        "dedup_key is required",
    )
    email_key = next(
        i["integration_key"]
        for i in SEED["integrations"]
        if i["service_id"] == service("SSO Gateway") and i["type"] == "generic_email_inbound_integration"
    )
    fails(
        session,
        "send_event",
        {"routing_key": email_key, "event_action": "trigger", "summary": "x", "source": "y", "severity": "error"},
        "InvalidRequest",
        "does not take Events API events",
    )


# ---------------------------------------------------------------- the incident lifecycle


def test_acknowledge_resolve_and_resolved_incidents_are_final(session):
    acked = update(session, "Nadia Rahman", CHECKOUT_5XX, status="acknowledged")
    assert acked["status"] == "acknowledged" and names(acked["acknowledgements"]) == ["Nadia Rahman"]
    resolved = update(session, "Nadia Rahman", CHECKOUT_5XX, status="resolved", resolution="Rolled back 2025.06.18-3")
    assert resolved["status"] == "resolved" and resolved["alert_counts"]["triggered"] == 0
    notes = [n for n in session.dump()["incident_notes"].values() if n["incident_id"] == incident(CHECKOUT_5XX)]
    assert [n["content"] for n in notes] == ["Rolled back 2025.06.18-3"]
    fails(
        session,
        "update_incident",
        {"from_email": email("Nadia Rahman"), "incident_id": incident(CHECKOUT_5XX), "title": "Again"},
        "Conflict",
        "Incident Already Resolved",
    )
    ok(
        session,
        "create_incident_note",
        {
            "from_email": email("Sofia Marquez"),
            "incident_id": incident(CHECKOUT_5XX),
            "content": "Postmortem on Friday.",
        },
    )


def test_reassigning_triggers_the_incident_again(session):
    assert get(session, NODE_POOL)["status"] == "acknowledged"
    moved = update(session, "Dana Whitfield", NODE_POOL, assignee_ids=[user("Elena Petrova")])
    assert (moved["status"], names(moved["assignments"]), moved["acknowledgements"]) == (
        "triggered",
        ["Elena Petrova"],
        [],
    )
    logs = ok(session, "list_incident_log_entries", {"incident_id": incident(NODE_POOL), "limit": 1})
    assert logs["results"][0]["summary"] == "Reassigned to Elena Petrova by Dana Whitfield." and logs["has_more"]


def test_escalation_levels(session):
    second = update(session, "Marcus Oyelaran", KAFKA_LAG, escalation_level=2)
    assert (second["escalation_level"], names(second["assignments"])) == (2, ["Tomasz Kowalczyk"])
    third = update(session, "Marcus Oyelaran", KAFKA_LAG, escalation_level=3)
    assert sorted(names(third["assignments"])) == ["Alex Chen", "Dana Whitfield"]
    fails(
        session,
        "update_incident",
        {"from_email": email("Marcus Oyelaran"), "incident_id": incident(KAFKA_LAG), "escalation_level": 4},
        "InvalidRequest",
        "between 1 and 3",
    )
    other = update(session, "Dana Whitfield", KAFKA_LAG, escalation_policy_id=policy("Database Escalation"))
    assert (other["escalation_policy"]["summary"], names(other["assignments"])) == (
        "Database Escalation",
        ["Victor Nguyen"],
    )


def test_update_argument_rules(session):
    base = {"from_email": email("Nadia Rahman"), "incident_id": incident(CHECKOUT_5XX)}
    fails(session, "update_incident", base, "InvalidRequest", "Nothing to update")
    fails(
        session,
        "update_incident",
        {**base, "status": "acknowledged", "resolution": "x"},
        "InvalidRequest",
        "only be given when resolving",
    )
    fails(
        session,
        "update_incident",
        {**base, "escalation_level": 2, "assignee_ids": [user("Kenji Watanabe")]},
        "InvalidRequest",
        "only one of",
    )
    fails(
        session,
        "update_incident",
        {**base, "escalation_level": 2, "status": "acknowledged"},
        "InvalidRequest",
        "can't be combined",
    )
    fails(session, "update_incident", {**base, "priority_id": "PNOPE00"}, "NotFound", "Priority")


def test_urgency_and_priority_changes_are_logged(session):
    changed = update(session, "Zoe Park", ANDROID_502, urgency="high", priority_id=priority("P2"))
    assert (changed["urgency"], changed["priority"]["summary"]) == ("high", "P2")
    summaries = [
        e["summary"]
        for e in ok(session, "list_incident_log_entries", {"incident_id": incident(ANDROID_502)})["results"]
    ]
    assert "Urgency changed from low to high by Zoe Park." in summaries
    assert "Priority changed from no priority to P2 by Zoe Park." in summaries
    assert [s["status"] for s in ok(session, "list_services", {"query": "Mobile API"})["results"]] == ["critical"]


def test_roles_decide_who_may_act(session):
    base = {"incident_id": incident(CHECKOUT_5XX), "status": "acknowledged"}
    fails(
        session, "update_incident", {**base, "from_email": email("Julia Santos")}, "PermissionDenied", "Observer role"
    )
    fails(session, "update_incident", {**base, "from_email": email("Tom Baker")}, "PermissionDenied", "Stakeholder")
    fails(session, "update_incident", {**base, "from_email": "nobody@orbitly.io"}, "InvalidRequest", '"From" header')
    fails(
        session,
        "create_incident_note",
        {"from_email": email("Ben Hartley"), "incident_id": incident(POSTGRES_LAG), "content": "x"},
        "PermissionDenied",
        "restricted access",
    )
    assert ok(session, "update_incident", {**base, "from_email": email("Ben Hartley")})["status"] == "acknowledged"


def test_only_responders_can_be_assigned_or_go_on_call(session):
    fails(
        session,
        "update_incident",
        {
            "from_email": email("Sofia Marquez"),
            "incident_id": incident(CHECKOUT_5XX),
            "assignee_ids": [user("Rachel Kim")],
        },
        "InvalidRequest",
        "Observer",
    )
    fails(
        session,
        "create_schedule_override",
        {
            "schedule_id": schedule("Payments Primary"),
            "user_id": user("Tom Baker"),
            "start": "2025-06-19T13:00:00Z",
            "end": "2025-06-19T20:00:00Z",
        },
        "InvalidRequest",
        "Stakeholder",
    )


def test_merge_moves_alerts_and_resolves_the_sources(session):
    merged = ok(
        session,
        "merge_incidents",
        {
            "from_email": email("Nadia Rahman"),
            "incident_id": incident(CHECKOUT_5XX),
            "source_incident_ids": [incident(CHECKOUT_P99), incident(WEBHOOK)],
        },
    )
    assert merged["status"] == "triggered" and merged["alert_counts"] == {"all": 4, "triggered": 4, "resolved": 0}
    for number in (WEBHOOK, CHECKOUT_P99):
        source = get(session, number)
        assert source["status"] == "resolved" and source["alert_counts"]["all"] == 0
        assert source["resolve_reason"]["incident"]["id"] == incident(CHECKOUT_5XX)
    fails(
        session,
        "merge_incidents",
        {
            "from_email": email("Nadia Rahman"),
            "incident_id": incident(CHECKOUT_5XX),
            "source_incident_ids": [incident(WEBHOOK)],
        },
        "Conflict",
        "only open incidents",
    )
    fails(
        session,
        "merge_incidents",
        {
            "from_email": email("Nadia Rahman"),
            "incident_id": incident(CHECKOUT_5XX),
            "source_incident_ids": [incident(CHECKOUT_5XX)],
        },
        "InvalidRequest",
        "itself",
    )
    fails(
        session,
        "merge_incidents",
        {
            "from_email": email("Nadia Rahman"),
            "incident_id": incident(WEBHOOK),
            "source_incident_ids": [incident(KAFKA_LAG)],
        },
        "Conflict",
        "Already Resolved",
    )


def test_notes_show_in_the_log(session):
    note = ok(
        session,
        "create_incident_note",
        {
            "from_email": email("Sven Lindqvist"),
            "incident_id": incident(SSO_ACME),
            "content": "  New metadata imported.  ",
        },
    )
    assert note["content"] == "New metadata imported." and note["user"]["summary"] == "Sven Lindqvist"
    newest = ok(session, "list_incident_log_entries", {"incident_id": incident(SSO_ACME)})["results"][0]
    assert (newest["type"], newest["channel"]["summary"]) == ("annotate_log_entry", "New metadata imported.")
    fails(
        session,
        "create_incident_note",
        {"from_email": email("Sven Lindqvist"), "incident_id": incident(SSO_ACME), "content": "   "},
        "invalid_arguments",
        "content: Note content can't be blank",
    )
    fails(
        session,
        "create_incident_note",
        {"from_email": email("Lena Vogel"), "incident_id": incident(SSO_ACME), "content": "Customer asks"},
        "PermissionDenied",
        "Stakeholder",
    )


# ---------------------------------------------------------------- overrides


def test_override_rules(session):
    base = {"schedule_id": schedule("Payments Primary"), "user_id": user("Aisha Bello")}
    fails(
        session,
        "create_schedule_override",
        {**base, "start": "2025-06-19T13:00:00Z", "end": "2025-06-19T12:00:00Z"},
        "InvalidRequest",
        "end after it starts",
    )
    fails(
        session,
        "create_schedule_override",
        {**base, "start": "2025-06-17T13:00:00Z", "end": "2025-06-18T13:00:00Z"},
        "InvalidRequest",
        "in the past",
    )
    fails(
        session,
        "create_schedule_override",
        {**base, "start": "2025-06-20T09:00:00-04:00", "end": "2025-06-21T09:00:00-04:00"},
        "Conflict",
        "Liam O'Connor",
    )
    made = ok(
        session,
        "create_schedule_override",
        {**base, "start": "2025-06-19T09:00:00-04:00", "end": "2025-06-19T17:00:00-04:00"},
    )
    assert (made["start"], made["end"]) == ("2025-06-19T13:00:00Z", "2025-06-19T21:00:00Z")
    day = ok(
        session,
        "get_schedule",
        {"schedule_id": schedule("Payments Primary"), "since": "2025-06-19T13:00:00Z", "until": "2025-06-20T13:00:00Z"},
    )["final_schedule"]["rendered_schedule_entries"]
    assert [(e["user"]["summary"], e["start"], e["end"]) for e in day] == [
        ("Aisha Bello", "2025-06-19T13:00:00Z", "2025-06-19T21:00:00Z"),
        ("Kenji Watanabe", "2025-06-19T21:00:00Z", "2025-06-20T13:00:00Z"),
    ]


def test_removing_overrides_future_running_and_past(session):
    overrides = {(o["schedule_id"], o["start"]): o["id"] for o in SEED["schedule_overrides"]}
    sre = schedule("SRE Primary")
    future = overrides[(schedule("DBA On-Call"), "2025-06-23T09:00:00Z")]
    assert (
        ok(session, "delete_schedule_override", {"schedule_id": schedule("DBA On-Call"), "override_id": future})[
            "result"
        ]
        == "deleted"
    )
    assert future not in session.dump()["schedule_overrides"]
    running = overrides[(sre, "2025-06-17T22:00:00Z")]
    cut = ok(session, "delete_schedule_override", {"schedule_id": sre, "override_id": running})
    assert cut["result"] == "truncated" and cut["override"]["end"].startswith("2025-06-18T14:00")
    now = ok(session, "list_oncalls", {"schedule_ids": [sre]})["results"]
    assert [e["user"]["summary"] for e in now] == ["Elena Petrova", "Elena Petrova"]  # SRE and Database level 2
    fails(session, "delete_schedule_override", {"schedule_id": sre, "override_id": running}, "Conflict", "in the past")
    fails(session, "delete_schedule_override", {"schedule_id": sre, "override_id": future}, "NotFound", "Override")


# ---------------------------------------------------------------- maintenance windows


def test_who_may_create_maintenance_windows(session):
    base = {"start_time": "2025-06-19T02:00:00Z", "end_time": "2025-06-19T03:00:00Z"}
    fails(
        session,
        "create_maintenance_window",
        {**base, "from_email": email("Ana Costa"), "service_ids": [service("Mobile API")]},
        "PermissionDenied",
        "Ana Costa",
    )
    fails(
        session,
        "create_maintenance_window",
        {**base, "from_email": email("Zoe Park"), "service_ids": [service("Mobile API"), service("Checkout API")]},
        "PermissionDenied",
        "team managers",
    )
    window = ok(
        session,
        "create_maintenance_window",
        {
            **base,
            "from_email": email("Zoe Park"),
            "service_ids": [service("Push Notifications"), service("Mobile API")],
        },
    )
    assert window["sequence_number"] == 18
    assert sorted(names(window["services"])) == ["Mobile API", "Push Notifications"]
    ok(
        session,
        "create_maintenance_window",
        {**base, "from_email": email("Dana Whitfield"), "service_ids": [service("Checkout API")]},
    )


def test_maintenance_window_validation(session):
    base = {"from_email": email("Dana Whitfield"), "service_ids": [service("Kafka Cluster")]}
    fails(
        session,
        "create_maintenance_window",
        {**base, "start_time": "2025-06-19T03:00:00Z", "end_time": "2025-06-19T02:00:00Z"},
        "InvalidRequest",
        "after start_time",
    )
    fails(
        session,
        "create_maintenance_window",
        {**base, "start_time": "2025-06-18T10:00:00Z", "end_time": "2025-06-18T12:00:00Z"},
        "InvalidRequest",
        "in the past",
    )
    fails(
        session,
        "create_maintenance_window",
        {**base, "service_ids": [], "start_time": "2025-06-19T02:00:00Z", "end_time": "2025-06-19T03:00:00Z"},
        "invalid_arguments",
        "service_ids: A maintenance window needs at least one service",
    )
    fails(
        session,
        "create_maintenance_window",
        {**base, "start_time": "next tuesday", "end_time": "2025-06-19T03:00:00Z"},
        "InvalidRequest",
        "ISO 8601",
    )
    fails(
        session,
        "create_maintenance_window",
        {**base, "start_time": "tomorrow", "end_time": "2025-06-19T03:00:00Z"},
        "invalid_arguments",
        "start_time: must be an ISO 8601 timestamp",
    )


def test_deleting_maintenance_windows(session):
    windows = {w["description"]: w["id"] for w in SEED["maintenance_windows"]}
    assert (
        ok(session, "list_maintenance_windows", {"filter": "ongoing"})["results"][1]["id"]
        == windows["Elasticsearch reindex of the products index"]
    )
    ended = ok(
        session,
        "delete_maintenance_window",
        {"maintenance_window_id": windows["Elasticsearch reindex of the products index"]},
    )
    assert ended["result"] == "ended" and ended["maintenance_window"]["end_time"].startswith("2025-06-18T14:00")
    assert ok(session, "list_services", {"query": "Search Indexer"})["results"][0]["status"] == "active"
    gone = ok(session, "delete_maintenance_window", {"maintenance_window_id": windows["Kafka broker rolling restart"]})
    assert (
        gone["result"] == "deleted"
        and windows["Kafka broker rolling restart"] not in session.dump()["maintenance_windows"]
    )
    fails(
        session,
        "delete_maintenance_window",
        {"maintenance_window_id": windows["Kafka 3.7 upgrade"]},
        "Conflict",
        "already ended",
    )
    assert [w["description"] for w in ok(session, "list_maintenance_windows", {"filter": "future"})["results"]] == [
        "Payments Gateway TLS certificate rotation",
        "Postgres 16.3 minor upgrade",
    ]


def test_service_status_is_derived(session):
    statuses = {s["name"]: s["status"] for s in ok(session, "list_services", {"limit": 100})["results"]}
    assert statuses["Data Pipeline"] == statuses["Search Indexer"] == "maintenance"
    assert statuses["Legacy Reports"] == statuses["Status Page Sync"] == "disabled"
    assert statuses["Checkout API"] == "critical"  # triggered incidents
    assert statuses["SSO Gateway"] == "warning"  # acknowledged only
    assert statuses["Analytics Warehouse"] == "maintenance" and statuses["Postgres Primary"] == "critical"
    assert "active" not in statuses.values()
    update(session, "Sven Lindqvist", SSO_ACME, status="resolved")
    assert ok(session, "list_services", {"query": "SSO"})["results"][0]["status"] == "active"


# ---------------------------------------------------------------- listing


def test_list_incidents_filters_range_and_pagination(session):
    open_now = ok(session, "list_incidents", {"statuses": ["triggered", "acknowledged"], "limit": 100})["results"]
    assert len(open_now) == 17 and open_now[0]["incident_number"] == KAFKA_LAG  # newest first
    recent = ok(session, "list_incidents", {"limit": 100, "sort_by": "created_at:asc"})["results"]
    assert recent[0]["created_at"] >= "2025-05-19T14:00:00Z"  # by default, the last 30 days
    spring = ok(
        session, "list_incidents", {"since": "2025-04-01T00:00:00Z", "until": "2025-05-19T14:00:00Z", "limit": 100}
    )
    assert spring["results"] and all(i["created_at"] < "2025-05-19T14:00:00Z" for i in spring["results"])
    page = ok(session, "list_incidents", {"limit": 10})
    assert len(page["results"]) == 10 and page["has_more"] and page["next_cursor"] == "10"
    second = ok(session, "list_incidents", {"limit": 10, "offset": 10})
    assert second["results"][0]["incident_number"] < page["results"][-1]["incident_number"]
    mine = ok(session, "list_incidents", {"user_ids": [user("Nadia Rahman")], "statuses": ["triggered"]})["results"]
    assert sorted(i["incident_number"] for i in mine) == [CHECKOUT_5XX, WEBHOOK, CHECKOUT_P99]
    fails(session, "list_incidents", {"since": "2024-06-01T00:00:00Z"}, "InvalidRequest", "at most 180 days")
    fails(session, "list_incidents", {"limit": 500}, "invalid_arguments", "limit")
    fails(session, "list_incidents", {"offset": -1}, "invalid_arguments", "offset")


def test_users_teams_and_policies(session):
    priyas = ok(session, "list_users", {"query": "priya"})["results"]
    assert [(u["name"], names(u["teams"])) for u in priyas] == [
        ("Priya Nair", ["Site Reliability"]),
        ("Priya Shah", ["Identity"]),
    ]
    team = _by("teams", "name", "Mobile")["id"]
    assert [u["name"] for u in ok(session, "list_users", {"team_ids": [team]})["results"]] == [
        "Ana Costa",
        "Ethan Brooks",
        "Samir Haddad",
        "Zoe Park",
    ]
    mobile = ok(session, "list_teams", {"query": "mobile"})[0]
    assert {m["user"]["summary"]: m["role"] for m in mobile["members"]}["Zoe Park"] == "manager"
    sre = ok(session, "list_schedules", {"query": "SRE"})
    assert [(s["name"], names(s["escalation_policies"])) for s in sre] == [
        ("SRE Primary", ["Database Escalation", "SRE Escalation"]),
        ("SRE Secondary", ["SRE Escalation"]),
    ]
    reaching = ok(session, "list_escalation_policies", {"user_ids": [user("Victor Nguyen")]})
    assert [p["name"] for p in reaching] == ["Database Escalation"]
    assert [names(r["targets"]) for r in reaching[0]["escalation_rules"]] == [
        ["DBA On-Call"],
        ["Carlos Mendes", "SRE Primary"],
    ]


# ---------------------------------------------------------------- the mobile app


def test_acknowledging_in_the_mobile_app(session):
    acked = ok(
        session,
        "acknowledge_in_mobile_app",
        {"email": email("Victor Nguyen"), "incident_number": POSTGRES_LAG},
        caller="user",
    )
    assert acked["status"] == "acknowledged" and names(acked["acknowledgements"]) == ["Victor Nguyen"]
    newest = ok(session, "list_incident_log_entries", {"incident_id": incident(POSTGRES_LAG)})["results"][0]
    assert (newest["type"], newest["channel"]["type"]) == ("acknowledge_log_entry", "mobile")
    fails(
        session,
        "acknowledge_in_mobile_app",
        {"email": email("Rachel Kim"), "incident_number": KAFKA_LAG},
        "PermissionDenied",
        "Observer",
        caller="user",
    )
    resolved = next(i["incident_number"] for i in SEED["incidents"] if i["status"] == "resolved")
    fails(
        session,
        "acknowledge_in_mobile_app",
        {"email": email("Victor Nguyen"), "incident_number": resolved},
        "Conflict",
        "Already Resolved",
        caller="user",
    )
    fails(
        session,
        "acknowledge_in_mobile_app",
        {"email": email("Victor Nguyen"), "incident_number": 99999},
        "NotFound",
        "#99999",
        caller="user",
    )


# ---------------------------------------------------------------- bounds in the argument types


def test_bounds_live_in_the_argument_types(session):
    """Every bound a tool enforces is in its schema and refused by validation with PagerDuty's wording."""
    note = SPEC.tools["create_incident_note"].input_schema["properties"]["content"]
    assert (note["minLength"], note["maxLength"]) == (1, 25_000)
    merge = SPEC.tools["merge_incidents"].input_schema["properties"]["source_incident_ids"]
    assert merge["minItems"] == 1 and merge["uniqueItems"]
    limit = SPEC.tools["list_incidents"].input_schema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"]) == (1, 100)
    nadia = {"from_email": email("Nadia Rahman"), "incident_id": incident(CHECKOUT_5XX)}
    fails(session, "create_incident_note", {**nadia, "content": "x" * 25_001}, "invalid_arguments", "25,000")
    assert (
        ok(session, "create_incident_note", {**nadia, "content": " " + "x" * 24_998 + " "})["content"] == "x" * 24_998
    )
    fails(session, "merge_incidents", {**nadia, "source_incident_ids": []}, "invalid_arguments", "at least one source")
    fails(session, "update_incident", {**nadia, "assignee_ids": []}, "invalid_arguments", "at least one user")
    fails(session, "update_incident", {**nadia, "escalation_level": 0}, "invalid_arguments", "escalation_level")
    fails(session, "update_incident", {**nadia, "title": " "}, "invalid_arguments", "title can't be blank")
    fails(
        session,
        "update_incident",
        {**nadia, "status": "resolved", "resolution": ""},
        "invalid_arguments",
        "resolution: Note content can't be blank",
    )
    trigger = {"routing_key": routing_key("Kafka Cluster"), "event_action": "trigger", "severity": "error"}
    fails(session, "send_event", {**trigger, "summary": "x" * 1025, "source": "kafka"}, "invalid_arguments", "1024")
    fails(session, "send_event", {**trigger, "summary": "lag", "source": " "}, "invalid_arguments", "payload.source")
    fails(session, "list_oncalls", {"limit": 0}, "invalid_arguments", "limit")
    fails(
        session, "get_schedule", {"schedule_id": schedule("SRE Primary"), "since": "2025"}, "invalid_arguments", "since"
    )
    fails(
        session,
        "acknowledge_in_mobile_app",
        {"email": email("Nadia Rahman"), "incident_number": 0},
        "invalid_arguments",
        "incident_number",
        caller="user",
    )


def test_oncall_shifts_are_the_final_schedules_shifts_that_overlap_the_range(session):
    """list_oncalls evaluates only the stretches around its range; it must give the shifts (with their full
    extent within the margin) that rendering the whole margin and keeping the overlapping ones gives."""
    draws = random.Random(18)
    for row in SEED["schedules"]:
        view = ScheduleView(session.database, row["id"])
        for _ in range(40):
            since = CLOCK + timedelta(minutes=30 * draws.randint(-48 * 40, 48 * 40))
            until = since if draws.random() < 0.5 else since + timedelta(minutes=30 * draws.randint(1, 48 * 20))
            low, high = since - ONCALL_MARGIN, until + ONCALL_MARGIN + timedelta(seconds=1)
            expected = [s for s in view.shifts(low, high) if s.start <= until and s.end > since]
            assert view.shifts_overlapping(since, until, low, high) == expected, (row["name"], since, until)
