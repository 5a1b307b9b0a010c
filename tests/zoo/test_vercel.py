"""The Vercel environment's tools on the real seed: sign-in and team scoping, roles (VIEWER and BILLING read only,
DEVELOPER previews and non-production variables, MEMBER production, OWNER roles with a last-owner guard),
deployment cancel/promote/rollback with the hobby-plan limit, aliases on owned domains only, project domains
(in use elsewhere, TXT verification across teams), DNS values and the CNAME rule, and environment variables
(sensitive rules, branch scoping, ENV_CONFLICT). Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("vercel")
CLOCK = datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
OWNER = "maya@latticecommerce.com"
MEMBER = "priya@latticecommerce.com"
DEVELOPER = "aisha@latticecommerce.com"
VIEWER = "hannah@latticecommerce.com"
BILLING = "grace@latticecommerce.com"
POLLEN_OWNER = "elena@pollen.studio"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = OWNER) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


def prod_ready(session: ToolSession, project: str, team: str | None = None) -> list[dict]:
    args = {"project": project, "target": "production", "state": "READY", "limit": 100}
    return ok(session, "list_deployments", args | ({"team": team} if team else {}))["deployments"]


def env_id(session: ToolSession, project: str, key: str, target: str) -> str:
    envs = ok(session, "list_env_vars", {"project": project, "target": target})["envs"]
    return next(e["id"] for e in envs if e["key"] == key)


# ---------------------------------------------------------------- sign-in, teams, roles


def test_tools_need_a_signed_in_user(session):
    fails(session, "list_projects", {}, "PermissionDenied", "sign in")


def test_sign_in_lists_teams_and_default(session):
    teams = {t["slug"]: t for t in sign_in(session)["teams"]}
    assert teams["lattice"]["role"] == "OWNER" and teams["lattice"]["default"]
    assert teams["pollen-studio"]["role"] == "MEMBER" and teams["pollen-studio"]["plan"] == "hobby"


def test_same_project_name_in_two_teams_resolves_by_team(session):
    sign_in(session)
    lattice = ok(session, "get_project", {"project": "storefront"})
    pollen = ok(session, "get_project", {"project": "storefront", "team": "pollen-studio"})
    assert lattice["id"] != pollen["id"] and pollen["framework"] == "sveltekit"
    fails(session, "get_project", {"project": "web", "team": "brightcart"}, "NotFound", "Team brightcart")


def test_viewer_and_billing_only_read(session):
    for email in (VIEWER, BILLING):
        sign_in(session, email)
        assert ok(session, "list_env_vars", {"project": "docs"})["envs"]
        fails(session, "create_deployment", {"project": "docs", "git_branch": "main"}, "PermissionDenied", "403")
        fails(
            session,
            "create_env_var",
            {"project": "docs", "key": "X", "value": "1", "target": ["preview"]},
            "PermissionDenied",
            "role",
        )


def test_developer_previews_but_not_production(session):
    sign_in(session, DEVELOPER)
    made = ok(session, "create_deployment", {"project": "docs", "git_branch": "docs/webhooks"})
    assert made["ready_state"] == "QUEUED" and made["target"] is None and made["creator"] == "aishak"
    args = {"project": "docs", "git_branch": "main", "target": "production"}
    fails(session, "create_deployment", args, "PermissionDenied", "DEVELOPER")
    fails(
        session,
        "create_env_var",
        {"project": "docs", "key": "X", "value": "1", "target": ["production"]},
        "PermissionDenied",
        "Production",
    )
    prod_log = env_id(session, "docs", "LOG_LEVEL", "production")
    fails(
        session,
        "update_env_var",
        {"project": "docs", "env_id": prod_log, "value": "x"},
        "PermissionDenied",
        "Production",
    )
    prev = prod_ready(session, "docs")[1]["id"]
    fails(session, "rollback_deployment", {"project": "docs", "deployment": prev}, "PermissionDenied", "roll back")


def test_only_owners_change_roles_and_a_team_keeps_an_owner(session):
    sign_in(session, MEMBER)
    fails(
        session, "update_team_member", {"email": VIEWER, "role": "DEVELOPER"}, "PermissionDenied", "change member roles"
    )
    sign_in(session, POLLEN_OWNER)
    assert ok(session, "update_team_member", {"email": "sam@whitaker.design", "role": "MEMBER"})["role"] == "MEMBER"
    fails(
        session, "update_team_member", {"email": POLLEN_OWNER, "role": "MEMBER"}, "InvalidRequest", "at least one owner"
    )
    fails(session, "update_team_member", {"email": "dev@brightcart.io", "role": "VIEWER"}, "NotFound", "Team member")


def test_member_filters(session):
    sign_in(session)
    jordans = ok(session, "list_team_members", {"search": "jordan"})["members"]
    assert {m["role"] for m in jordans} == {"MEMBER", "DEVELOPER"}
    owners = ok(session, "list_team_members", {"role": "OWNER"})["members"]
    assert [m["name"] for m in owners] == ["Maya Chen", "Tomás Ibarra"]


# ---------------------------------------------------------------- deployments


def test_cancel_only_queued_or_building(session):
    sign_in(session)
    building = ok(session, "list_deployments", {"project": "checkout-api", "state": "BUILDING"})["deployments"][0]
    done = ok(session, "cancel_deployment", {"deployment": building["url"]})
    assert done["ready_state"] == "CANCELED"
    fails(session, "cancel_deployment", {"deployment": building["id"]}, "InvalidRequest", "deployment_not_cancelable")
    ready = prod_ready(session, "checkout-api")[0]
    fails(session, "cancel_deployment", {"deployment": ready["id"]}, "InvalidRequest", "READY")


def test_rollback_moves_every_production_host_and_marks_the_project(session):
    sign_in(session, MEMBER)
    project = ok(session, "get_project", {"project": "checkout-api"})
    assert not project["rolled_back"]
    earlier = [d for d in prod_ready(session, "checkout-api") if not d["is_current_production"]][2]
    ok(session, "rollback_deployment", {"project": "checkout-api", "deployment": earlier["id"]})
    hosts = {a["alias"] for a in ok(session, "list_aliases", {"deployment": earlier["id"]})["aliases"]}
    assert {"api.latticecommerce.com", "checkout-api-lattice.vercel.app"} <= hosts
    after = ok(session, "get_project", {"project": "checkout-api"})
    assert after["rolled_back"] and after["production_deployment"] == earlier["id"]
    current = project["production_deployment"]
    assert ok(session, "promote_deployment", {"project": "checkout-api", "deployment": current})[
        "is_current_production"
    ]
    assert not ok(session, "get_project", {"project": "checkout-api"})["rolled_back"]


def test_promote_and_rollback_refusals(session):
    sign_in(session, MEMBER)
    current = ok(session, "get_project", {"project": "checkout-api"})["production_deployment"]
    fails(
        session, "promote_deployment", {"project": "checkout-api", "deployment": current}, "InvalidRequest", "already"
    )
    errored = ok(session, "list_deployments", {"project": "checkout-api", "state": "ERROR"})["deployments"][0]
    fails(
        session,
        "rollback_deployment",
        {"project": "checkout-api", "deployment": errored["id"]},
        "InvalidRequest",
        "not READY",
    )
    preview = ok(session, "list_deployments", {"project": "checkout-api", "target": "preview", "state": "READY"})
    pid = preview["deployments"][0]["id"]
    fails(session, "promote_deployment", {"project": "checkout-api", "deployment": pid}, "InvalidRequest", "preview")
    other = prod_ready(session, "docs")[0]["id"]
    fails(session, "promote_deployment", {"project": "checkout-api", "deployment": other}, "NotFound", "Deployment")


def test_hobby_plan_rolls_back_only_to_the_previous_build(session):
    sign_in(session, POLLEN_OWNER)
    builds = prod_ready(session, "portfolio")
    assert builds[0]["is_current_production"]
    fails(
        session,
        "rollback_deployment",
        {"project": "portfolio", "deployment": builds[2]["id"]},
        "PermissionDenied",
        "hobby",
    )
    ok(session, "rollback_deployment", {"project": "portfolio", "deployment": builds[1]["id"]})


# ---------------------------------------------------------------- aliases and domains


def test_aliases_need_ready_builds_and_owned_domains(session):
    sign_in(session, MEMBER)
    ready = prod_ready(session, "docs")[1]["id"]
    assert ok(session, "assign_alias", {"deployment": ready, "alias": "docs-old.vercel.app"})["deployment_id"] == ready
    fails(
        session,
        "assign_alias",
        {"deployment": ready, "alias": "docs.brightcart.io"},
        "PermissionDenied",
        "brightcart.io",
    )
    errored = ok(session, "list_deployments", {"project": "docs", "state": "ERROR"})["deployments"][0]["id"]
    fails(
        session,
        "assign_alias",
        {"deployment": errored, "alias": "x-docs.vercel.app"},
        "InvalidRequest",
        "deployment_not_ready",
    )
    fails(
        session, "assign_alias", {"deployment": ready, "alias": "web-brightcart.vercel.app"}, "Conflict", "alias_in_use"
    )


def test_domain_in_use_elsewhere_or_twice(session):
    sign_in(session)
    fails(
        session,
        "add_project_domain",
        {"project": "blog", "name": "docs.latticecommerce.com"},
        "Conflict",
        "domain_already_in_use",
    )
    fails(
        session,
        "add_project_domain",
        {"project": "docs", "name": "docs.latticecommerce.com"},
        "InvalidRequest",
        "domain_already_exists",
    )
    args = {"project": "docs", "name": "help.latticecommerce.com", "redirect": "nope.latticecommerce.com"}
    fails(session, "add_project_domain", args, "InvalidRequest", "invalid_redirect")


def test_own_domain_is_verified_and_serves_production(session):
    sign_in(session)
    added = ok(session, "add_project_domain", {"project": "docs", "name": "help.latticecommerce.com"})
    assert added["verified"] and added["verification"] == []
    current = ok(session, "get_project", {"project": "docs"})["production_deployment"]
    hosts = {a["alias"] for a in ok(session, "list_aliases", {"deployment": current})["aliases"]}
    assert "help.latticecommerce.com" in hosts


def test_foreign_domain_verifies_through_the_txt_record(session):
    sign_in(session)
    added = ok(session, "add_project_domain", {"project": "blog", "name": "collab.pollen.studio"})
    assert not added["verified"] and added["verification"][0]["domain"] == "_vercel.pollen.studio"
    args = {"project": "blog", "domain": "collab.pollen.studio"}
    fails(session, "verify_project_domain", args, "InvalidRequest", "missing_txt_record")
    fails(
        session,
        "create_dns_record",
        {"domain": "pollen.studio", "name": "_vercel", "type": "TXT", "value": "x"},
        "NotFound",
        "Domain",
    )
    value = added["verification"][0]["value"]
    ok(
        session,
        "create_dns_record",
        {"domain": "pollen.studio", "name": "_vercel", "type": "TXT", "value": value, "team": "pollen-studio"},
    )
    assert ok(session, "verify_project_domain", args)["verified"]


# ---------------------------------------------------------------- DNS


def test_dns_values_and_cname_rule(session):
    sign_in(session)
    base = {"domain": "latticecommerce.com"}
    fails(
        session,
        "create_dns_record",
        base | {"name": "x", "type": "A", "value": "2001:db8::1"},
        "InvalidRequest",
        "IPv4",
    )
    fails(
        session,
        "create_dns_record",
        base | {"name": "", "type": "MX", "value": "mx.example.com"},
        "InvalidRequest",
        "mxPriority",
    )
    fails(
        session,
        "create_dns_record",
        base | {"name": "api", "type": "TXT", "value": "hello"},
        "InvalidRequest",
        "cname_conflict",
    )
    fails(
        session,
        "create_dns_record",
        base | {"name": "", "type": "CNAME", "value": "a.example.com"},
        "InvalidRequest",
        "CNAME",
    )
    args = {"domain": "latticecommerce.co.uk", "name": "x", "type": "A", "value": "203.0.113.9"}
    fails(session, "create_dns_record", args, "InvalidRequest", "not_using_vercel_dns")
    made = ok(session, "create_dns_record", base | {"name": "x", "type": "A", "value": "203.0.113.9", "ttl": 300})
    assert made["id"].startswith("rec_") and made["ttl"] == 300
    fails(
        session,
        "create_dns_record",
        base | {"name": "y", "type": "A", "value": "203.0.113.9", "ttl": 30},
        "invalid_arguments",
        "ttl",
    )


# ---------------------------------------------------------------- environment variables


def test_sensitive_values_are_hidden_and_rules_hold(session):
    sign_in(session)
    prod = ok(session, "list_env_vars", {"project": "storefront", "target": "production"})["envs"]
    assert all(e["value"] is None for e in prod if e["type"] == "sensitive")
    base = {"project": "storefront", "key": "NEW_SECRET", "value": "s3cret"}
    fails(
        session,
        "create_env_var",
        base | {"type": "sensitive", "target": ["development"]},
        "InvalidRequest",
        "Development",
    )
    fails(
        session, "create_env_var", base | {"target": ["production"], "git_branch": "x"}, "InvalidRequest", "gitBranch"
    )
    made = ok(session, "create_env_var", base | {"type": "sensitive", "target": ["production"]})
    assert made["value"] is None
    fails(
        session,
        "update_env_var",
        {"project": "storefront", "env_id": made["id"], "type": "plain"},
        "InvalidRequest",
        "sensitive",
    )


def test_env_conflicts_per_target_and_branch(session):
    sign_in(session)
    fails(
        session,
        "create_env_var",
        {"project": "docs", "key": "LOG_LEVEL", "value": "x", "target": ["preview"]},
        "InvalidRequest",
        "ENV_CONFLICT",
    )
    ok(
        session,
        "create_env_var",
        {"project": "docs", "key": "LOG_LEVEL", "value": "x", "target": ["preview"], "git_branch": "docs/webhooks"},
    )
    prod = env_id(session, "docs", "LOG_LEVEL", "production")
    fails(
        session,
        "update_env_var",
        {"project": "docs", "env_id": prod, "target": ["production", "development"]},
        "InvalidRequest",
        "already exists",
    )
    assert ok(session, "delete_env_var", {"project": "docs", "env_id": prod})["removed"]
    keys = [e["key"] for e in ok(session, "list_env_vars", {"project": "docs", "target": "production"})["envs"]]
    assert "LOG_LEVEL" not in keys
