"""The Okta environment's tools on the real seed: sign-in, the user lifecycle state machine (which operations run from
which statuses, activation with and without a password, deactivation's side effects, deletion only of deprovisioned
users), search expressions and cursor paging, group membership (read-only app groups and Everyone, rule-managed
memberships), group rules (inactive on creation, applied on activation and on profile changes), app assignments by
user and group, MFA factors, admin roles, and what each kind of administrator may do. Every error path is checked to
leave the state unchanged, with Okta's error code in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("okta")
CLOCK = datetime(2026, 3, 10, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
USERS = {u["login"]: u for u in SEED["users"]}
GROUPS = {g["name"]: g["id"] for g in SEED["groups"]}
APPS = {a["label"]: a["id"] for a in SEED["apps"]}
RULES = {r["name"]: r["id"] for r in SEED["group_rules"]}

session = session_fixture(SPEC, CLOCK)


def uid(name: str) -> str:
    return USERS[f"{name}@brightwell.com" if "@" not in name else name]["id"]


def sign_in(session: ToolSession, name: str) -> dict:
    return ok(session, "sign_in", {"login": f"{name}@brightwell.com"}, caller="user")


def status(session: ToolSession, name: str) -> str:
    return ok(session, "get_user", {"user": uid(name)})["status"]


def groups_of(session: ToolSession, name: str) -> set[str]:
    return {g["name"] for g in ok(session, "list_user_groups", {"user_id": uid(name)})["groups"]}


def members(session: ToolSession, group: str) -> dict[str, str | None]:
    found = ok(session, "list_group_members", {"group_id": GROUPS[group], "limit": 200})["members"]
    return {m["user"]["profile"]["login"].split("@")[0]: m["managedByRuleId"] for m in found}


def factor_types(session: ToolSession, name: str) -> set[str]:
    return {f["factorType"] for f in ok(session, "list_factors", {"user_id": uid(name)})["factors"]}


def lifecycle(session: ToolSession, name: str, operation: str, **extra) -> dict:
    return ok(session, "run_user_lifecycle", {"user_id": uid(name), "operation": operation, **extra})


# ---------------------------------------------------------------- sign-in


def test_tools_need_a_signed_in_administrator(session):
    fails(session, "list_users", {}, "PermissionDenied", "E0000011")
    fails(session, "sign_in", {"login": "sam.patel@brightwell.com"}, "PermissionDenied", "E0000006", caller="user")
    me = sign_in(session, "priya.raman")
    assert [r["type"] for r in me["roles"]] == ["SUPER_ADMIN"]


# ---------------------------------------------------------------- the lifecycle state machine


@pytest.mark.parametrize(
    ("name", "operation", "code"),
    [
        ("sam.patel", "suspend", "E0000038"),  # LOCKED_OUT: only ACTIVE users are suspended
        ("hannah.brooks", "unsuspend", "E0000038"),  # ACTIVE
        ("hannah.brooks", "unlock", "E0000038"),
        ("hannah.brooks", "activate", "E0000016"),  # already active
        ("lucy.warren", "activate", "E0000038"),  # PROVISIONED
        ("lucy.warren", "reset_password", "E0000038"),  # no password yet
        ("rita.okafor", "reset_factors", "E0000038"),  # STAGED
        ("felix.grant", "deactivate", "E0000038"),  # already DEPROVISIONED
        ("jordan.mills", "expire_password", "E0000038"),  # SUSPENDED
    ],
)
def test_lifecycle_operations_refuse_the_wrong_status(session, name, operation, code):
    sign_in(session, "priya.raman")
    fails(session, "run_user_lifecycle", {"user_id": uid(name), "operation": operation}, "Conflict", code)


def test_lifecycle_transitions_follow_okta(session):
    sign_in(session, "priya.raman")
    assert lifecycle(session, "sam.patel", "unlock")["user"]["status"] == "ACTIVE"
    assert lifecycle(session, "sam.patel", "suspend")["user"]["status"] == "SUSPENDED"
    assert lifecycle(session, "sam.patel", "unsuspend")["user"]["status"] == "ACTIVE"
    assert lifecycle(session, "sam.patel", "expire_password")["user"]["status"] == "PASSWORD_EXPIRED"
    reset = lifecycle(session, "sam.patel", "reset_password", send_email=False)
    assert reset["user"]["status"] == "RECOVERY" and reset["resetPasswordUrl"].startswith(
        "https://brightwell.okta.com/"
    )
    assert lifecycle(session, "sam.patel", "reset_password")["resetPasswordUrl"] is None  # emailed instead


def test_activation_without_a_password_leaves_the_user_provisioned(session):
    sign_in(session, "priya.raman")
    staged = lifecycle(session, "ben.adler", "activate", send_email=False)
    assert staged["user"]["status"] == "PROVISIONED" and staged["activationUrl"]
    assert lifecycle(session, "felix.grant", "activate")["user"]["status"] == "ACTIVE"  # had a password


def test_deactivation_removes_direct_app_assignments_but_not_groups(session):
    sign_in(session, "priya.raman")
    before = groups_of(session, "jordan.mills")
    lifecycle(session, "jordan.mills", "deactivate")
    assert groups_of(session, "jordan.mills") == before
    for app in ("DocuSign", "Tableau"):
        users = ok(session, "list_app_assignments", {"app_id": APPS[app]})["users"]
        assert uid("jordan.mills") not in {u["id"] for u in users}


def test_reset_factors_removes_every_factor(session):
    sign_in(session, "priya.raman")
    assert factor_types(session, "mira.sorensen") == {"push", "sms", "token:software:totp"}
    lifecycle(session, "mira.sorensen", "reset_factors")
    assert factor_types(session, "mira.sorensen") == set()
    assert status(session, "mira.sorensen") == "SUSPENDED"


def test_nobody_deactivates_themselves(session):
    sign_in(session, "priya.raman")
    fails(
        session,
        "run_user_lifecycle",
        {"user_id": uid("priya.raman"), "operation": "deactivate"},
        "PermissionDenied",
        "E0000006",
    )


def test_only_deprovisioned_users_are_deleted_with_everything_they_hold(session):
    sign_in(session, "priya.raman")
    fails(session, "delete_user", {"user_id": uid("jordan.mills")}, "Conflict", "E0000038")
    ok(session, "delete_user", {"user_id": uid("chris.lee.contractor")})
    fails(session, "get_user", {"user": uid("chris.lee.contractor")}, "NotFound", "E0000007")
    assert "chris.lee.contractor" not in members(session, "Contractors")
    dump = session.dump()
    assert all(r["user_id"] != uid("chris.lee.contractor") for r in dump["factors"].values())


# ---------------------------------------------------------------- listing, search and paging


def test_search_expressions_and_q(session):
    sign_in(session, "grace.kim")
    locked = ok(session, "list_users", {"search": 'status eq "LOCKED_OUT" and profile.department eq "operations"'})
    assert {u["profile"]["login"] for u in locked["users"]} == {
        "ines.duarte@brightwell.com",
        "stefan.novak@brightwell.com",
    }
    either = ok(session, "list_users", {"search": 'profile.lastName eq "Mills" or profile.lastName sw "Sorens"'})
    assert {u["profile"]["lastName"] for u in either["users"]} == {"Mills", "Sorensen"}
    chris = ok(session, "list_users", {"q": "Chris"})["users"]  # q leaves deprovisioned users out
    assert "chris.lee.contractor@brightwell.com" not in {u["profile"]["login"] for u in chris}
    gone = ok(session, "list_users", {"search": 'status eq "DEPROVISIONED" and profile.lastName eq "Lee"'})["users"]
    assert [u["profile"]["login"] for u in gone] == ["chris.lee.contractor@brightwell.com"]
    assert ok(session, "list_users", {"q": "%"})["users"] == []  # no wildcards in q
    no_department = ok(session, "list_users", {"search": 'status eq "ACTIVE" and profile.title eq "contractor"'})
    with_department = ok(session, "list_users", {"search": 'profile.title eq "Contractor" and profile.department pr'})
    assert len(no_department["users"]) == 4 and with_department["users"] == []
    app_groups = ok(session, "list_groups", {"search": 'type eq "APP_GROUP"'})["groups"]
    assert {g["type"] for g in app_groups} == {"APP_GROUP"} and len(app_groups) == 3


@pytest.mark.parametrize(
    "expression", ['status = "ACTIVE"', 'profile.salary eq "1"', 'status eq "ACTIVE" and', "status"]
)
def test_bad_search_expressions_are_refused(session, expression):
    sign_in(session, "grace.kim")
    fails(session, "list_users", {"search": expression}, "InvalidRequest", "E0000031")


def test_limit_and_after_page_through_users(session):
    sign_in(session, "grace.kim")
    seen, after = [], None
    while True:
        page = ok(session, "list_users", {"limit": 40, **({"after": after} if after else {})})
        seen += [u["id"] for u in page["users"]]
        after = page["after"]
        if after is None:
            break
    active = [u for u in SEED["users"] if u["status"] != "DEPROVISIONED"]
    assert len(seen) == len(set(seen)) == len(active)
    fails(session, "list_users", {"limit": 201}, "invalid_arguments", "limit")


# ---------------------------------------------------------------- groups and rules


def test_app_groups_and_everyone_have_read_only_membership(session):
    sign_in(session, "priya.raman")
    for group in ("Workday - All Employees", "Everyone"):
        args = {"group_id": GROUPS[group], "user_id": uid("rita.okafor")}
        fails(session, "add_user_to_group", args, "InvalidRequest", "E0000001")
        fails(session, "remove_user_from_group", {**args, "user_id": uid("sam.patel")}, "InvalidRequest", "E0000001")


def test_rule_made_memberships_cannot_be_removed_by_hand(session):
    sign_in(session, "priya.raman")
    assert members(session, "Sales")["hannah.brooks"] == RULES["Sales department"]
    fails(
        session,
        "remove_user_from_group",
        {"group_id": GROUPS["Sales"], "user_id": uid("hannah.brooks")},
        "InvalidRequest",
        "group rule",
    )
    fails(
        session,
        "remove_user_from_group",
        {"group_id": GROUPS["Sales"], "user_id": uid("theo.lambert")},
        "NotFound",
        "E0000007",
    )
    first = ok(session, "add_user_to_group", {"group_id": GROUPS["VPN Users"], "user_id": uid("theo.lambert")})
    again = ok(session, "add_user_to_group", {"group_id": GROUPS["VPN Users"], "user_id": uid("theo.lambert")})
    assert first == again and "VPN Users" in groups_of(session, "theo.lambert")


def test_group_rules_start_inactive_and_apply_when_activated(session):
    sign_in(session, "marcus.bell")
    rule = ok(
        session,
        "create_group_rule",
        {
            "name": "Marketing department",
            "expression": 'user.department=="Marketing"',
            "group_ids": [GROUPS["Marketing"]],
        },
    )
    assert rule["status"] == "INACTIVE" and "nora.jensen" not in members(session, "Marketing")
    ok(session, "set_group_rule_status", {"rule_id": rule["id"], "action": "activate"})
    after = members(session, "Marketing")
    assert after["nora.jensen"] == rule["id"] and after["theo.lambert"] is None  # manual memberships stay manual
    assert "hana.silva" in after  # already a member by hand, though deprovisioned
    ok(session, "set_group_rule_status", {"rule_id": rule["id"], "action": "deactivate"})
    assert members(session, "Marketing")["nora.jensen"] == rule["id"]  # deactivation keeps what it made


def test_group_rules_refuse_bad_input(session):
    sign_in(session, "marcus.bell")
    base = {"name": "Legal", "expression": 'user.department=="Legal"', "group_ids": [GROUPS["Legal"]]}
    fails(session, "create_group_rule", {**base, "expression": 'user.city=="Oslo"'}, "invalid_arguments", "expression")
    fails(session, "create_group_rule", {**base, "name": "sales DEPARTMENT"}, "InvalidRequest", "already exists")
    fails(
        session,
        "create_group_rule",
        {**base, "group_ids": [GROUPS["AD - Domain Users"]]},
        "InvalidRequest",
        "not an Okta group",
    )
    fails(session, "create_group_rule", {**base, "group_ids": []}, "InvalidRequest", "E0000001")
    sign_in(session, "dana.whitfield")
    fails(session, "create_group_rule", base, "PermissionDenied", "E0000006")


def test_profile_changes_rerun_active_rules(session):
    sign_in(session, "priya.raman")
    ok(session, "update_user", {"user_id": uid("hannah.brooks"), "department": "Engineering"})
    assert {"Engineering", "Sales - EMEA"} <= groups_of(session, "hannah.brooks")
    assert "Sales" not in groups_of(session, "hannah.brooks")  # the rule's membership went with the condition
    ok(session, "set_group_rule_status", {"rule_id": RULES["Sales engineers"], "action": "activate"})
    assert members(session, "Sales Engineering")["ryan.mahmoud"] == RULES["Sales engineers"]
    ok(session, "update_user", {"user_id": uid("ryan.mahmoud"), "title": "Account Executive"})
    assert "ryan.mahmoud" not in members(session, "Sales Engineering")
    assert members(session, "Sales Engineering")["samir.patel"] is None  # added by hand before the rule


def test_new_users_join_everyone_their_groups_and_matching_rules(session):
    sign_in(session, "priya.raman")
    args = {
        "first_name": "Ingrid",
        "last_name": "Solberg",
        "email": "ingrid.solberg@brightwell.com",
        "department": "Sales",
        "group_ids": [GROUPS["Sales - EMEA"]],
        "activate": False,
    }
    user = ok(session, "create_user", args)
    assert user["status"] == "STAGED"
    joined = ok(session, "list_user_groups", {"user_id": user["id"]})["groups"]
    assert {g["name"] for g in joined} == {"Everyone", "Sales", "Sales - EMEA"}
    fails(
        session, "create_user", {**args, "email": "Ingrid.Solberg@brightwell.com"}, "InvalidRequest", "already exists"
    )
    fails(session, "create_user", {**args, "login": "x@y", "email": "a@b.com"}, "invalid_arguments", "login")
    fails(
        session,
        "create_user",
        {**args, "email": "new@brightwell.com", "group_ids": [GROUPS["Workday - All Employees"]]},
        "InvalidRequest",
        "not an Okta group",
    )


# ---------------------------------------------------------------- apps


def test_app_assignment_rules(session):
    sign_in(session, "leo.fischer")
    fails(session, "assign_app", {"app_id": APPS["Tableau"], "user_id": uid("sam.patel")}, "InvalidRequest", "INACTIVE")
    fails(session, "assign_app", {"app_id": APPS["Slack"], "user_id": uid("felix.grant")}, "Conflict", "E0000038")
    fails(session, "assign_app", {"app_id": APPS["Slack"]}, "InvalidRequest", "exactly one")
    fails(
        session,
        "assign_app",
        {"app_id": APPS["Slack"], "user_id": uid("sam.patel"), "group_id": GROUPS["IT"]},
        "InvalidRequest",
        "exactly one",
    )
    jira = ok(session, "list_app_assignments", {"app_id": APPS["Jira Cloud"]})
    scopes = {u["login"]: u["scope"] for u in jira["users"]}
    assert scopes["omar.ueda@brightwell.com"] == "GROUP" and scopes["quinn.foster@northpeak-contract.com"] == "USER"
    fails(
        session,
        "unassign_app",
        {"app_id": APPS["Jira Cloud"], "user_id": uid("omar.ueda")},
        "InvalidRequest",
        "through a group",
    )
    fails(session, "unassign_app", {"app_id": APPS["Figma"], "user_id": uid("omar.ueda")}, "NotFound", "E0000007")
    after = ok(session, "assign_app", {"app_id": APPS["Figma"], "group_id": GROUPS["Customer Support"]})
    assert [(g["name"], g["priority"]) for g in after["groups"]] == [("Marketing", 0), ("Customer Support", 1)]
    assert {u["scope"] for u in after["users"] if u["login"] == "omar.ueda@brightwell.com"} == {"GROUP"}


def test_only_app_admins_and_up_assign_apps(session):
    sign_in(session, "dana.whitfield")
    fails(
        session,
        "assign_app",
        {"app_id": APPS["Slack"], "user_id": uid("hannah.brooks")},
        "PermissionDenied",
        "E0000006",
    )


# ---------------------------------------------------------------- factors


def test_factor_enrollment_rules(session):
    sign_in(session, "priya.raman")
    fails(
        session,
        "enroll_factor",
        {"user_id": uid("hannah.brooks"), "factor_type": "push"},
        "InvalidRequest",
        "already set up",
    )
    fails(session, "enroll_factor", {"user_id": uid("wei.hale"), "factor_type": "sms"}, "InvalidRequest", "phone")
    fails(
        session,
        "enroll_factor",
        {"user_id": uid("wei.hale"), "factor_type": "push", "phone_number": "+14155550100"},
        "InvalidRequest",
        "phone",
    )
    fails(session, "enroll_factor", {"user_id": uid("rita.okafor"), "factor_type": "push"}, "Conflict", "E0000038")
    fails(
        session,
        "enroll_factor",
        {"user_id": uid("wei.hale"), "factor_type": "sms", "phone_number": "555-0100"},
        "invalid_arguments",
        "phone_number",
    )
    sms = ok(
        session, "enroll_factor", {"user_id": uid("wei.hale"), "factor_type": "sms", "phone_number": "+14155550100"}
    )
    push = ok(session, "enroll_factor", {"user_id": uid("wei.hale"), "factor_type": "push"})
    assert (sms["status"], push["status"]) == ("ACTIVE", "PENDING_ACTIVATION")
    assert sms["id"].startswith("mbl") and push["id"].startswith("opf")
    ok(session, "unenroll_factor", {"user_id": uid("wei.hale"), "factor_id": sms["id"]})
    fails(session, "unenroll_factor", {"user_id": uid("sam.patel"), "factor_id": push["id"]}, "NotFound", "E0000007")


# ---------------------------------------------------------------- admin roles


def test_admin_roles_are_managed_by_super_admins_only(session):
    sign_in(session, "marcus.bell")
    fails(
        session,
        "assign_admin_role",
        {"user_id": uid("theo.haddad"), "type": "HELP_DESK_ADMIN"},
        "PermissionDenied",
        "E0000006",
    )
    sign_in(session, "priya.raman")
    fails(
        session,
        "assign_admin_role",
        {"user_id": uid("tomas.ortega"), "type": "HELP_DESK_ADMIN"},
        "Conflict",
        "E0000090",
    )
    fails(
        session,
        "assign_admin_role",
        {"user_id": uid("theo.haddad"), "type": "ORG_ADMIN", "target_group_ids": [GROUPS["IT"]]},
        "InvalidRequest",
        "can't be limited",
    )
    fails(
        session,
        "assign_admin_role",
        {"user_id": uid("theo.haddad"), "type": "USER_ADMIN", "target_group_ids": [GROUPS["AD - Domain Users"]]},
        "InvalidRequest",
        "not an Okta group",
    )
    fails(
        session, "assign_admin_role", {"user_id": uid("felix.grant"), "type": "READ_ONLY_ADMIN"}, "Conflict", "E0000038"
    )
    own = next(r["id"] for r in SEED["admin_roles"] if r["user_id"] == uid("priya.raman"))
    fails(
        session, "unassign_admin_role", {"user_id": uid("priya.raman"), "role_id": own}, "PermissionDenied", "own super"
    )
    role = ok(
        session,
        "assign_admin_role",
        {"user_id": uid("theo.haddad"), "type": "USER_ADMIN", "target_group_ids": [GROUPS["IT"]]},
    )
    assert role["label"] == "Group Administrator" and role["targets"] == [GROUPS["IT"]]


# ---------------------------------------------------------------- what each administrator may do


def test_group_admin_manages_only_non_admin_users_of_their_groups(session):
    sign_in(session, "dana.whitfield")
    ok(session, "run_user_lifecycle", {"user_id": uid("keisha.bennett"), "operation": "unsuspend"})
    fails(
        session,
        "run_user_lifecycle",
        {"user_id": uid("sam.patel"), "operation": "unlock"},
        "PermissionDenied",
        "not a member",
    )
    fails(session, "update_user", {"user_id": uid("dana.whitfield"), "title": "VP"}, "PermissionDenied", "admin roles")
    fails(
        session,
        "add_user_to_group",
        {"group_id": GROUPS["Managers"], "user_id": uid("samir.patel")},
        "PermissionDenied",
        "Managers",
    )
    fails(
        session,
        "create_user",
        {"first_name": "A", "last_name": "B", "email": "a.b@brightwell.com"},
        "PermissionDenied",
        "group administrator",
    )
    ok(
        session,
        "create_user",
        {"first_name": "A", "last_name": "B", "email": "a.b@brightwell.com", "group_ids": [GROUPS["Sales - EMEA"]]},
    )


def test_help_desk_admin_resets_but_does_not_edit(session):
    sign_in(session, "tomas.ortega")
    lifecycle(session, "sam.patel", "unlock")
    lifecycle(session, "sam.patel", "reset_password")
    fails(
        session,
        "run_user_lifecycle",
        {"user_id": uid("mira.sorensen"), "operation": "unsuspend"},
        "PermissionDenied",
        "E0000006",
    )
    fails(session, "update_user", {"user_id": uid("sam.patel"), "title": "Lead"}, "PermissionDenied", "E0000006")
    fails(
        session,
        "enroll_factor",
        {"user_id": uid("elena.vargas"), "factor_type": "push"},
        "PermissionDenied",
        "E0000006",
    )
    fails(
        session,
        "run_user_lifecycle",
        {"user_id": uid("sana.sato"), "operation": "unlock"},
        "PermissionDenied",
        "not a member",
    )
    push = next(f["id"] for f in SEED["factors"] if f["user_id"] == uid("emeka.obi") and f["factor_type"] == "push")
    ok(session, "unenroll_factor", {"user_id": uid("emeka.obi"), "factor_id": push})


def test_org_admin_cannot_touch_super_admins_and_read_only_cannot_write(session):
    sign_in(session, "marcus.bell")
    fails(
        session,
        "update_user",
        {"user_id": uid("owen.clarke"), "title": "CEO"},
        "PermissionDenied",
        "super administrator",
    )
    ok(session, "update_user", {"user_id": uid("leo.fischer"), "title": "Head of IT"})
    sign_in(session, "grace.kim")
    fails(
        session,
        "run_user_lifecycle",
        {"user_id": uid("sam.patel"), "operation": "unlock"},
        "PermissionDenied",
        "E0000006",
    )
    fails(
        session,
        "add_user_to_group",
        {"group_id": GROUPS["VPN Users"], "user_id": uid("sam.patel")},
        "PermissionDenied",
        "E0000006",
    )


def test_group_membership_admin_changes_only_their_groups(session):
    sign_in(session, "nadia.hassan")
    ok(session, "add_user_to_group", {"group_id": GROUPS["Onboarding 2026"], "user_id": uid("tariq.jensen")})
    fails(
        session,
        "add_user_to_group",
        {"group_id": GROUPS["People Team"], "user_id": uid("sam.patel")},
        "PermissionDenied",
        "People Team",
    )
    fails(
        session,
        "run_user_lifecycle",
        {"user_id": uid("rita.okafor"), "operation": "activate"},
        "PermissionDenied",
        "E0000006",
    )
