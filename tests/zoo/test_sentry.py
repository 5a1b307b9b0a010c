"""The Sentry environment's tools on the real seed: sign-in and organization roles (billing reads only, alert rules
for owners, managers and admins, and members only where the organization allows), issue status changes (resolved,
resolved in a release of the issue's project, resolved in the next release and how a new release settles it,
archiving until escalation, for a duration, a count or forever, reopening), assignment limited to members of the
project's team or the owning team, comments in the activity, events, releases (version rules, existing versions gain
projects) and deploys (no future finish, start before finish), and issue alert rules (an action is required, exact
duplicates refused, partial updates, deletion). Every error path is checked to leave the state unchanged, with
Sentry's HTTP status and body in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("sentry")
CLOCK = datetime(2026, 6, 10, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
TW, LAB = "tidewater", "tidewater-labs"
ADMIN = "maya.okoro@tidewaterbikes.com"
MEMBER = "sam.patel@tidewaterbikes.com"
BILLING = "tom.becker@tidewaterbikes.com"
LABS_ADMIN = "ellen.shaw@tidewaterlabs.io"
KEYERROR = "CHECKOUT-API-12"  # unresolved, unassigned, checkout-api (payments)
REFUNDS = "CHECKOUT-API-1V"  # resolved in the next release
GATEWAY = "DOCK-GATEWAY-1N"  # dock-gateway has no releases

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = ADMIN) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


def issue(session: ToolSession, short_id: str, org: str = TW) -> dict:
    return ok(session, "get_issue", {"organization_slug": org, "issue_id": short_id})


def update(session: ToolSession, short_id: str, **changes) -> dict:
    return ok(session, "update_issue", {"organization_slug": TW, "issue_id": short_id, **changes})


# ---------------------------------------------------------------- sign-in and roles


def test_tools_need_a_signed_in_user(session):
    fails(session, "list_organizations", {}, "PermissionDenied", "401")


def test_unknown_email_cannot_sign_in(session):
    fails(session, "sign_in", {"email": "nobody@tidewaterbikes.com"}, "InvalidRequest", "Invalid email", caller="user")


def test_sign_in_lists_each_organization_with_the_role_there(session):
    orgs = {o["slug"]: o for o in sign_in(session, MEMBER)["organizations"]}
    assert orgs[TW]["role"] == "member" and orgs[LAB]["role"] == "billing"
    assert orgs[TW]["members_can_write_alerts"] is False and orgs[LAB]["members_can_write_alerts"] is True


def test_unknown_organization_is_404_and_a_foreign_one_403(session):
    sign_in(session, LABS_ADMIN)
    fails(session, "list_projects", {"organization_slug": "acme"}, "NotFound", "does not exist")
    fails(session, "list_projects", {"organization_slug": TW}, "PermissionDenied", "403")


def test_billing_role_reads_but_cannot_triage(session):
    sign_in(session, BILLING)
    assert issue(session, KEYERROR)["status"] == "unresolved"
    args = {"organization_slug": TW, "issue_id": KEYERROR}
    fails(session, "update_issue", args | {"status": "resolved"}, "PermissionDenied", "billing")
    fails(session, "add_issue_comment", args | {"text": "x"}, "PermissionDenied", "403")
    fails(
        session,
        "create_release",
        {"organization_slug": TW, "version": "x@1", "projects": ["checkout-api"]},
        "PermissionDenied",
        "403",
    )


def test_members_write_alerts_only_where_the_organization_allows(session):
    sign_in(session, "nia.brooks@tidewaterbikes.com")
    args = {
        "project_slug": "dock-gateway",
        "name": "Gateway",
        "conditions": ["first_seen_event"],
        "actions": [{"target_type": "IssueOwners"}],
    }
    fails(session, "create_alert_rule", {"organization_slug": TW, **args}, "PermissionDenied", "may not create")
    labs = ok(session, "create_alert_rule", {"organization_slug": LAB, **args | {"project_slug": "route-planner"}})
    assert labs["created_by"] == "nia.brooks@tidewaterbikes.com" and labs["status"] == "active"


# ---------------------------------------------------------------- issue status


def test_issues_are_found_by_short_id_within_their_organization(session):
    sign_in(session)
    assert issue(session, "ROUTE-PLANNER-1X", LAB)["project"] == "route-planner"
    fails(session, "get_issue", {"organization_slug": TW, "issue_id": "ROUTE-PLANNER-1X"}, "NotFound", "does not exist")


def test_search_defaults_to_unresolved_and_filters(session):
    sign_in(session)
    found = ok(session, "list_issues", {"organization_slug": TW, "query": "currency"})["issues"]
    assert {i["short_id"] for i in found} == {KEYERROR, "PRICING-SERVICE-1F", "INVENTORY-WORKER-Z"}
    every = ok(session, "list_issues", {"organization_slug": TW, "query": "currency", "status": "all"})["issues"]
    assert REFUNDS in {i["short_id"] for i in every}
    mine = ok(session, "list_issues", {"organization_slug": TW, "assigned": "me", "status": "all"})["issues"]
    assert mine and all(i["assigned_to"]["email"] == ADMIN for i in mine)
    fatal = ok(session, "list_issues", {"organization_slug": TW, "level": "fatal"})["issues"]
    assert fatal and all(i["level"] == "fatal" for i in fatal)


def test_resolve_and_reopen(session):
    sign_in(session)
    done = update(session, KEYERROR, status="resolved")
    assert done["status"] == "resolved" and done["substatus"] is None
    assert done["activity"][0]["type"] == "set_resolved"
    back = update(session, KEYERROR, status="unresolved")
    assert back["status"] == "unresolved" and back["substatus"] == "ongoing"


def test_resolve_in_a_release_of_the_issues_project_only(session):
    sign_in(session)
    done = update(session, KEYERROR, status="resolved", in_release="checkout-api@2.14.1")
    assert done["status_details"]["in_release"] == "checkout-api@2.14.1"
    args = {"organization_slug": TW, "issue_id": "CHECKOUT-API-13", "status": "resolved"}
    fails(session, "update_issue", args | {"in_release": "pricing-service@1.9.2"}, "InvalidRequest", "inRelease")
    fails(session, "update_issue", args | {"in_release": "checkout-api@9.9.9"}, "InvalidRequest", "Unable to find")


def test_release_details_need_the_matching_status(session):
    sign_in(session)
    args = {"organization_slug": TW, "issue_id": KEYERROR}
    fails(
        session,
        "update_issue",
        args | {"status": "ignored", "in_release": "checkout-api@2.14.1"},
        "InvalidRequest",
        "requires status resolved",
    )
    fails(session, "update_issue", args | {"status": "resolved", "ignore_count": 5}, "InvalidRequest", "ignored")
    fails(session, "update_issue", args | {"ignore_count": 5}, "InvalidRequest", "need a status")
    fails(session, "update_issue", args, "InvalidRequest", "Nothing to update")


def test_next_release_needs_a_release_and_the_next_one_settles_it(session):
    sign_in(session)
    args = {"organization_slug": TW, "issue_id": GATEWAY, "status": "resolvedInNextRelease"}
    fails(session, "update_issue", args, "InvalidRequest", "No release data present")
    waiting = update(session, KEYERROR, status="resolvedInNextRelease")
    assert waiting["status"] == "resolved" and waiting["status_details"]["in_next_release"] is True
    ok(
        session,
        "create_release",
        {"organization_slug": TW, "version": "checkout-api@2.14.2", "projects": ["checkout-api"]},
    )
    for short in (KEYERROR, REFUNDS):
        assert issue(session, short)["status_details"]["in_release"] == "checkout-api@2.14.2"
    other = issue(session, "INVENTORY-WORKER-Z")
    assert other["status_details"]["in_release"] is None


def test_archive_modes(session):
    sign_in(session)
    assert update(session, KEYERROR, status="ignored")["substatus"] == "archived_until_escalating"
    forever = update(session, KEYERROR, status="ignored", archive_forever=True)
    assert forever["substatus"] == "archived_forever"
    timed = update(session, KEYERROR, status="ignored", ignore_duration=60)
    assert timed["substatus"] == "archived_until_condition_met"
    assert timed["status_details"]["ignore_until"].startswith("2026-06-10T16:0")  # an hour after the (ticking) clock
    counted = update(session, KEYERROR, status="ignored", ignore_count=10, ignore_user_count=3)
    assert counted["status_details"]["ignore_count"] == 10 and counted["status_details"]["ignore_user_count"] == 3
    args = {"organization_slug": TW, "issue_id": KEYERROR, "status": "ignored", "archive_forever": True}
    fails(session, "update_issue", args | {"ignore_count": 2}, "InvalidRequest", "forever")
    fails(session, "update_issue", args | {"ignore_duration": 0}, "invalid_arguments", "ignore_duration")


def test_priority_change_is_logged(session):
    sign_in(session)
    done = update(session, KEYERROR, priority="high")
    assert done["priority"] == "high"
    assert done["activity"][0]["data"] == {"priority": "high", "previous": "medium"}


# ---------------------------------------------------------------- assignment and comments


def test_assign_to_a_member_of_the_projects_team(session):
    sign_in(session)
    args = {"organization_slug": TW, "issue_id": KEYERROR}
    done = ok(session, "assign_issue", args | {"user_email": "ravi.iyer@tidewaterbikes.com"})
    assert done["assigned_to"]["email"] == "ravi.iyer@tidewaterbikes.com"
    assert done["activity"][0]["type"] == "assigned"
    fails(
        session,
        "assign_issue",
        args | {"user_email": "kris.young@tidewaterbikes.com"},
        "InvalidRequest",
        "Cannot assign to non-team member",
    )
    fails(
        session,
        "assign_issue",
        args | {"user_email": "ellen.shaw@tidewaterlabs.io"},
        "InvalidRequest",
        "not a member of tidewater",
    )


def test_assign_to_the_owning_team_and_unassign(session):
    sign_in(session)
    args = {"organization_slug": TW, "issue_id": KEYERROR}
    fails(session, "assign_issue", args | {"team_slug": "web"}, "InvalidRequest", "without access to the project")
    assert ok(session, "assign_issue", args | {"team_slug": "payments"})["assigned_to"]["slug"] == "payments"
    assert ok(session, "assign_issue", args | {"unassign": True})["assigned_to"] is None
    fails(session, "assign_issue", args | {"unassign": True}, "InvalidRequest", "not assigned")
    fails(session, "assign_issue", args | {"team_slug": "payments", "unassign": True}, "InvalidRequest", "exactly one")


def test_comments_join_the_activity(session):
    sign_in(session, MEMBER)
    note = ok(session, "add_issue_comment", {"organization_slug": TW, "issue_id": KEYERROR, "text": "On it."})
    assert note["type"] == "note" and note["user"] == MEMBER
    assert issue(session, KEYERROR)["activity"][0]["data"]["text"] == "On it."


def test_events_newest_first_and_by_project(session):
    sign_in(session)
    events = ok(session, "list_issue_events", {"organization_slug": TW, "issue_id": KEYERROR})["events"]
    assert [e["date_created"] for e in events] == sorted((e["date_created"] for e in events), reverse=True)
    latest = events[0]["event_id"]
    got = ok(session, "get_event", {"organization_slug": TW, "project_slug": "checkout-api", "event_id": latest})
    assert got["issue_short_id"] == KEYERROR
    fails(
        session,
        "get_event",
        {"organization_slug": TW, "project_slug": "pricing-service", "event_id": latest},
        "NotFound",
        "does not exist",
    )


# ---------------------------------------------------------------- releases and deploys


def test_release_versions_are_checked(session):
    sign_in(session)
    args = {"organization_slug": TW, "projects": ["checkout-api"]}
    fails(session, "create_release", args | {"version": "latest"}, "InvalidRequest", "not allowed")
    fails(session, "create_release", args | {"version": "has space"}, "invalid_arguments", "version")
    fails(session, "create_release", args | {"version": "x@1", "projects": ["nope"]}, "NotFound", "does not exist")


def test_an_existing_version_gains_projects(session):
    sign_in(session)
    args = {"organization_slug": TW, "version": "storefront-shared@1.4.0", "projects": ["rentals-mobile"]}
    again = ok(session, "create_release", args)
    assert again["created"] is False
    assert again["projects"] == ["rentals-mobile", "storefront-web", "storefront-web-legacy"]


def test_deploys_finish_now_or_in_the_past_after_they_start(session):
    sign_in(session)
    args = {"organization_slug": TW, "version": "checkout-api@2.14.1", "environment": "canary"}
    fails(session, "create_deploy", args | {"date_finished": "2026-06-11T00:00:00Z"}, "InvalidRequest", "future")
    fails(
        session,
        "create_deploy",
        args | {"date_started": "2026-06-10T14:00:00Z", "date_finished": "2026-06-10T13:00:00Z"},
        "InvalidRequest",
        "dateStarted",
    )
    fails(session, "create_deploy", args | {"version": "checkout-api@0.0.1"}, "NotFound", "does not exist")
    done = ok(session, "create_deploy", args)
    assert done["last_deploy"]["environment"] == "canary" and len(done["deploys"]) == 3


def test_a_deploy_releases_an_unreleased_version(session):
    sign_in(session)
    ok(
        session,
        "create_release",
        {"organization_slug": TW, "version": "dock-gateway@1.0.0", "projects": ["dock-gateway"]},
    )
    done = ok(
        session,
        "create_deploy",
        {"organization_slug": TW, "version": "dock-gateway@1.0.0", "environment": "production"},
    )
    assert done["date_released"] is not None


# ---------------------------------------------------------------- alert rules


def _rule_args(**more) -> dict:
    return {
        "organization_slug": TW,
        "project_slug": "checkout-api",
        "name": "New",
        "conditions": ["first_seen_event"],
        "actions": [{"target_type": "Slack", "target": "#payments-alerts"}],
        "frequency": 30,
        "environment": "production",
    } | more


def test_alert_rules_need_an_action_and_valid_targets(session):
    sign_in(session)
    fails(session, "create_alert_rule", _rule_args(actions=[]), "InvalidRequest", "You must add an action")
    fails(
        session,
        "create_alert_rule",
        _rule_args(actions=[{"target_type": "Team", "target": "nope"}]),
        "InvalidRequest",
        "Unknown team",
    )
    fails(session, "create_alert_rule", _rule_args(actions=[{"target_type": "Member"}]), "InvalidRequest", "target")
    fails(session, "create_alert_rule", _rule_args(frequency=2), "invalid_arguments", "frequency")


def test_exact_duplicates_are_refused(session):
    sign_in(session)
    fails(
        session,
        "create_alert_rule",
        _rule_args(),
        "InvalidRequest",
        "exact duplicate of 'New checkout errors to #payments-alerts'",
    )
    made = ok(session, "create_alert_rule", _rule_args(frequency=60))
    assert made["id"] == 338
    fails(
        session,
        "update_alert_rule",
        {"organization_slug": TW, "project_slug": "checkout-api", "rule_id": 338, "frequency": 30},
        "InvalidRequest",
        "exact duplicate",
    )


def test_update_changes_only_what_is_sent_and_delete_removes(session):
    sign_in(session)
    base = {"organization_slug": TW, "project_slug": "checkout-api", "rule_id": 304}
    done = ok(session, "update_alert_rule", base | {"status": "disabled", "clear_min_level": True})
    assert done["status"] == "disabled" and done["min_level"] is None and done["frequency"] == 60
    fails(session, "update_alert_rule", base, "InvalidRequest", "Nothing to update")
    fails(session, "update_alert_rule", base | {"project_slug": "pricing-service"}, "NotFound", "does not exist")
    ok(session, "delete_alert_rule", base)
    assert 304 not in {
        r["id"]
        for r in ok(
            session,
            "list_alert_rules",
            {"organization_slug": TW, "project_slug": "checkout-api"},
        )
    }


def test_members_cannot_edit_alerts_where_not_allowed(session):
    sign_in(session, MEMBER)
    fails(
        session,
        "update_alert_rule",
        {"organization_slug": TW, "project_slug": "checkout-api", "rule_id": 301, "frequency": 60},
        "PermissionDenied",
        "may not create or edit alerts",
    )


def test_the_setting_lets_members_write_alerts(session):
    def allow(tables):
        for org in tables["organizations"]:
            org["alerts_member_write"] = True

    restore_seed_with(session, allow, CLOCK)
    sign_in(session, MEMBER)
    done = ok(
        session,
        "update_alert_rule",
        {"organization_slug": TW, "project_slug": "checkout-api", "rule_id": 301, "frequency": 60},
    )
    assert done["frequency"] == 60


def test_editing_a_disabled_rule_enables_it_again(session):
    sign_in(session)
    base = {"organization_slug": TW, "project_slug": "storefront-web", "rule_id": 316}
    assert ok(session, "update_alert_rule", base | {"frequency": 720})["status"] == "active"
    again = ok(session, "update_alert_rule", base | {"status": "disabled", "name": "Paused"})
    assert again["status"] == "disabled" and again["name"] == "Paused"


def test_duplicates_name_the_rule_they_repeat(session):
    sign_in(session)
    outcome = fails(session, "create_alert_rule", _rule_args(), "InvalidRequest", "exact duplicate")
    assert '"ruleId": [301]' in (outcome.error or "")
    fails(
        session,
        "create_alert_rule",
        _rule_args(frequency=45, owner_team="nope"),
        "InvalidRequest",
        "Could not resolve owner",
    )
