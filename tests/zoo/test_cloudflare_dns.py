"""The CloudflareDNS environment's tools: record validation and conflicts, roles per account, settings, page-rule
limits, purges, DNSSEC and zone activation through the registrar, BIND import/export and member approval, with
every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("cloudflare_dns")
CLOCK = datetime(2025, 7, 8, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ZONE = {z["name"]: z["id"] for z in SEED["zones"]}
ACCOUNT = {a["name"]: a["id"] for a in SEED["accounts"]}
LATTICE, HARBOR, SHOP = ZONE["latticedigital.com"], ZONE["harborcoffee.com"], ZONE["harborcoffee.shop"]
NORTHPEAK, VERDANT, LABS, AGENCY, DEV = (
    ZONE["northpeak.com"],
    ZONE["verdantclinics.org"],
    ZONE["latticelabs.io"],
    ZONE["lattice.agency"],
    ZONE["lattice.dev"],
)


session = session_fixture(SPEC, CLOCK)


def records(session: ToolSession, zone: str, **filters: Any) -> list[dict[str, Any]]:
    return ok(session, "list_dns_records", {"zone_id": zone, **filters})["results"]


def create(session: ToolSession, zone: str, **record: Any) -> dict[str, Any]:
    return ok(session, "create_dns_record", {"zone_id": zone, **record})


def settings(session: ToolSession, zone: str) -> dict[str, Any]:
    return {s["id"]: s["value"] for s in ok(session, "get_zone_settings", {"zone_id": zone})}


# ---------------------------------------------------------------- interface and zones


def test_tools_and_the_owner_actions_are_user_only(session):
    assert 12 <= len(SPEC.tools) <= 25
    assert sorted(t.name for t in SPEC.tools.values() if t.user_only) == [
        "approve_member_invitation",
        "update_registrar",
    ]
    fails(
        session,
        "update_registrar",
        {"domain": "latticelabs.io", "name_servers": ["a.b.com", "c.d.com"]},
        "user_only",
        "",
    )


def test_zones_show_the_tokens_permissions_per_account(session):
    zones = {z["name"]: z for z in ok(session, "list_zones", {"page_size": 100})["results"]}
    assert set(zones) == set(ZONE)
    assert "#cache_purge:edit" in zones["latticedigital.com"]["permissions"]
    assert zones["northpeak.com"]["permissions"] == [
        "#zone:read",
        "#dns_records:read",
        "#zone_settings:read",
        "#member:read",
        "#dns_records:edit",
    ]
    assert "#dns_records:edit" not in zones["verdantclinics.org"]["permissions"]
    pending = ok(session, "list_zones", {"status": "pending"})["results"]
    assert sorted(z["name"] for z in pending) == ["lattice.agency", "latticelabs.io"]


# ---------------------------------------------------------------- DNS records


def test_create_normalizes_names_and_proxied_records_get_automatic_ttl(session):
    row = create(session, LATTICE, type="A", name="Shop", content="203.0.113.77", proxied=True, ttl=300)
    assert (row["name"], row["ttl"], row["proxied"], row["proxiable"]) == ("shop.latticedigital.com", 1, True, True)
    assert records(session, LATTICE, name="shop") == [row]
    mx = create(session, LATTICE, type="MX", name="@", content="Mail.Example.net.", priority=20)
    assert (mx["name"], mx["content"], mx["priority"]) == ("latticedigital.com", "mail.example.net", 20)
    srv = create(session, LATTICE, type="SRV", name="_imaps._tcp", content="5 993 mail.example.net", priority=10)
    assert srv["data"] == {"priority": 10, "weight": 5, "port": 993, "target": "mail.example.net"}
    caa = create(session, LATTICE, type="CAA", name="@", content='0 issuewild "sectigo.com"')
    assert caa["data"] == {"flags": 0, "tag": "issuewild", "value": "sectigo.com"}


@pytest.mark.parametrize(
    "record,kind,text",
    [
        ({"type": "A", "name": "x", "content": "300.1.1.1"}, "InvalidRequest", "code 9005"),
        ({"type": "AAAA", "name": "x", "content": "203.0.113.1"}, "InvalidRequest", "code 9006"),
        ({"type": "MX", "name": "@", "content": "203.0.113.5", "priority": 10}, "InvalidRequest", "must be a hostname"),
        ({"type": "MX", "name": "@", "content": "mx.example.net"}, "InvalidRequest", "priority is required"),
        ({"type": "CNAME", "name": "x", "content": "198.51.100.1"}, "InvalidRequest", "code 9007"),
        ({"type": "TXT", "name": "x", "content": "hello", "proxied": True}, "InvalidRequest", "cannot be proxied"),
        ({"type": "A", "name": "x", "content": "203.0.113.1", "ttl": 30}, "InvalidRequest", "Invalid TTL"),
        ({"type": "A", "name": "x", "content": "203.0.113.1", "ttl": 90000}, "invalid_arguments", "Invalid TTL"),
        ({"type": "A", "name": "x", "content": "203.0.113.1", "ttl": 0}, "invalid_arguments", "code 9021"),
        (
            {"type": "MX", "name": "@", "content": "mx.example.net", "priority": 70000},
            "invalid_arguments",
            "priority must be between 0 and 65535",
        ),
        (
            {"type": "SRV", "name": "sip", "content": "1 5060 sip.example.net", "priority": 1},
            "InvalidRequest",
            "_service",
        ),
        ({"type": "CAA", "name": "@", "content": "0 issue letsencrypt.org"}, "InvalidRequest", "code 9103"),
        ({"type": "CNAME", "name": "api", "content": "api.example.net"}, "Conflict", "code 81053"),
        ({"type": "TXT", "name": "www", "content": "hello"}, "Conflict", "code 81054"),
        ({"type": "A", "name": "www", "content": "203.0.113.9"}, "Conflict", "code 81053"),
        ({"type": "A", "name": "api", "content": "203.0.113.21"}, "Conflict", "Identical record already exists"),
    ],
)
def test_record_rules(session, record, kind, text):
    fails(session, "create_dns_record", {"zone_id": LATTICE, **record}, kind, text)


def test_update_merges_fields_and_rechecks_the_rules(session):
    blog = records(session, LATTICE, name="blog")[0]
    fails(
        session,
        "update_dns_record",
        {"zone_id": LATTICE, "dns_record_id": blog["id"], "type": "TXT"},
        "InvalidRequest",
        "cannot be proxied",
    )
    moved = ok(
        session,
        "update_dns_record",
        {
            "zone_id": LATTICE,
            "dns_record_id": blog["id"],
            "content": "lattice-blog.pages.dev",
            "comment": "moved off Ghost",
        },
    )
    assert (moved["content"], moved["proxied"], moved["comment"]) == ("lattice-blog.pages.dev", True, "moved off Ghost")
    api = records(session, LATTICE, name="api", type="A")[0]
    dns_only = ok(session, "update_dns_record", {"zone_id": LATTICE, "dns_record_id": api["id"], "ttl": 600})
    assert dns_only["ttl"] == 600
    fails(
        session, "update_dns_record", {"zone_id": HARBOR, "dns_record_id": api["id"], "ttl": 300}, "NotFound", "81044"
    )


def test_delete_then_a_cname_may_take_the_name(session):
    for row in records(session, LATTICE, name="vpn"):
        assert ok(session, "delete_dns_record", {"zone_id": LATTICE, "dns_record_id": row["id"]}) == {"id": row["id"]}
    create(session, LATTICE, type="CNAME", name="vpn", content="vpn.example.net")
    assert [r["type"] for r in records(session, LATTICE, name="vpn")] == ["CNAME"]
    fails(session, "delete_dns_record", {"zone_id": LATTICE, "dns_record_id": "0" * 32}, "NotFound", "not found")


# ---------------------------------------------------------------- roles


def test_roles_limit_what_the_token_may_do(session):
    fails(
        session,
        "create_dns_record",
        {"zone_id": VERDANT, "type": "A", "name": "x", "content": "203.0.113.1"},
        "PermissionDenied",
        "Administrator Read Only",
    )
    assert records(session, VERDANT, type="MX")  # reading is fine
    create(session, NORTHPEAK, type="TXT", name="_acme-challenge", content="token123")  # DNS role edits records
    fails(
        session,
        "edit_zone_setting",
        {"zone_id": NORTHPEAK, "setting_id": "ssl", "value": "full"},
        "PermissionDenied",
        "can't edit zone settings",
    )
    fails(
        session,
        "purge_cache",
        {"zone_id": NORTHPEAK, "purge_everything": True},
        "PermissionDenied",
        "can't purge the cache",
    )
    fails(
        session,
        "create_account_member",
        {"account_id": ACCOUNT["Northpeak Outfitters"], "email": "a@b.com", "roles": ["DNS"]},
        "PermissionDenied",
        "can't manage members",
    )
    assert ok(session, "list_account_members", {"account_id": ACCOUNT["Verdant Health Clinics"]})


# ---------------------------------------------------------------- settings


def test_settings_values_and_https_rules(session):
    assert settings(session, LATTICE)["ssl"] == "strict"
    fails(
        session,
        "edit_zone_setting",
        {"zone_id": LATTICE, "setting_id": "ssl", "value": "off"},
        "Conflict",
        "Turn off always_use_https",
    )
    fails(
        session,
        "edit_zone_setting",
        {"zone_id": LATTICE, "setting_id": "ssl", "value": "strictest"},
        "InvalidRequest",
        "Invalid value for zone setting ssl",
    )
    fails(
        session,
        "edit_zone_setting",
        {"zone_id": LATTICE, "setting_id": "security_level", "value": "off"},
        "InvalidRequest",
        "Enterprise",
    )
    ok(session, "edit_zone_setting", {"zone_id": LATTICE, "setting_id": "always_use_https", "value": "off"})
    ok(session, "edit_zone_setting", {"zone_id": LATTICE, "setting_id": "ssl", "value": "off"})
    fails(
        session,
        "edit_zone_setting",
        {"zone_id": LATTICE, "setting_id": "always_use_https", "value": "on"},
        "Conflict",
        "needs SSL",
    )
    ttl = ok(session, "edit_zone_setting", {"zone_id": LATTICE, "setting_id": "browser_cache_ttl", "value": "7200"})
    assert ttl["value"] == 7200 and settings(session, LATTICE)["browser_cache_ttl"] == 7200


# ---------------------------------------------------------------- page rules


def test_page_rules_plan_limit_patterns_and_action_combinations(session):
    forward = [{"id": "forwarding_url", "value": {"url": "https://harborcoffee.com/fall", "status_code": 302}}]
    fails(
        session,
        "create_page_rule",
        {"zone_id": SHOP, "url": "harborcoffee.shop/fall*", "actions": forward},
        "Conflict",
        "the Free plan allows 3 page rules",
    )
    promo = ok(session, "list_page_rules", {"zone_id": SHOP, "status": "disabled"})[0]
    reused = ok(
        session,
        "update_page_rule",
        {
            "zone_id": SHOP,
            "pagerule_id": promo["id"],
            "url": "harborcoffee.shop/fall*",
            "actions": forward,
            "status": "active",
        },
    )
    assert reused["targets"][0]["constraint"]["value"] == "harborcoffee.shop/fall*" and reused["status"] == "active"
    fails(
        session,
        "create_page_rule",
        {"zone_id": DEV, "url": "example.com/*", "actions": [{"id": "cache_level", "value": "bypass"}]},
        "InvalidRequest",
        "must be on lattice.dev",
    )
    fails(
        session,
        "create_page_rule",
        {"zone_id": DEV, "url": "lattice.dev/old/*", "actions": [forward[0], {"id": "cache_level", "value": "bypass"}]},
        "InvalidRequest",
        "can not be combined",
    )
    fails(
        session,
        "create_page_rule",
        {"zone_id": DEV, "url": "lattice.dev/docs/*", "actions": [{"id": "cache_level", "value": "bypass"}]},
        "Conflict",
        "already exists",
    )
    rule = ok(
        session,
        "create_page_rule",
        {"zone_id": DEV, "url": "lattice.dev/api/*", "actions": [{"id": "cache_level", "value": "bypass"}]},
    )
    assert rule["priority"] == 2
    assert [r["id"] for r in ok(session, "list_page_rules", {"zone_id": DEV})][0] == rule["id"]


def test_deleting_a_page_rule_makes_room_on_the_plan(session):
    bypass = [{"id": "cache_level", "value": "bypass"}]
    rules = ok(session, "list_page_rules", {"zone_id": SHOP})
    assert len(rules) == 3
    fails(
        session,
        "delete_page_rule",
        {"zone_id": DEV, "pagerule_id": rules[0]["id"]},
        "NotFound",
        "not found in this zone",
    )
    fails(
        session,
        "delete_page_rule",
        {"zone_id": VERDANT, "pagerule_id": "0" * 32},
        "PermissionDenied",
        "can't edit zone settings",
    )
    gone = ok(session, "delete_page_rule", {"zone_id": SHOP, "pagerule_id": rules[-1]["id"]})
    assert gone == {"id": rules[-1]["id"]}
    assert rules[-1]["id"] not in [r["id"] for r in ok(session, "list_page_rules", {"zone_id": SHOP})]
    ok(session, "create_page_rule", {"zone_id": SHOP, "url": "harborcoffee.shop/cart*", "actions": bypass})
    fails(
        session,
        "create_page_rule",
        {"zone_id": SHOP, "url": "harborcoffee.shop/gift*", "actions": bypass},
        "Conflict",
        "allows 3 page rules",
    )


# ---------------------------------------------------------------- cache


def test_purge_rules(session):
    fails(session, "purge_cache", {"zone_id": HARBOR}, "InvalidRequest", "exactly one")
    fails(session, "purge_cache", {"zone_id": HARBOR, "tags": ["menu"]}, "InvalidRequest", "Enterprise")
    fails(
        session,
        "purge_cache",
        {"zone_id": HARBOR, "files": ["https://example.com/a.css"]},
        "InvalidRequest",
        "must be an http(s) URL on harborcoffee.com",
    )
    fails(session, "purge_cache", {"zone_id": LABS, "purge_everything": True}, "Conflict", "not active")
    fails(
        session,
        "purge_cache",
        {"zone_id": HARBOR, "files": [f"https://harborcoffee.com/{i}" for i in range(31)]},
        "invalid_arguments",
        "at most 30",
    )
    result = ok(session, "purge_cache", {"zone_id": HARBOR, "files": ["https://harborcoffee.com/menu"]})
    assert len(result["id"]) == 32
    purges = session.dump()["cache_purges"]
    assert purges[result["id"]]["files"] == ["https://harborcoffee.com/menu"]


# ---------------------------------------------------------------- DNSSEC and activation


def test_dnssec_waits_for_the_ds_record_at_the_registrar(session):
    assert ok(session, "get_dnssec", {"zone_id": DEV})["status"] == "disabled"
    enabled = ok(session, "edit_dnssec", {"zone_id": DEV, "status": "active"})
    assert enabled["status"] == "pending" and enabled["ds"].startswith("lattice.dev. 3600 IN DS ")
    fails(session, "edit_dnssec", {"zone_id": DEV, "status": "active"}, "Conflict", "already pending")
    ok(session, "update_registrar", {"domain": "lattice.dev", "ds_record": enabled["ds"]}, caller="user")
    assert ok(session, "get_dnssec", {"zone_id": DEV})["status"] == "active"
    assert ok(session, "edit_dnssec", {"zone_id": DEV, "status": "disabled"})["status"] == "pending-disabled"
    ok(session, "update_registrar", {"domain": "lattice.dev", "remove_ds_records": True}, caller="user")
    assert ok(session, "get_dnssec", {"zone_id": DEV})["status"] == "disabled"
    fails(session, "edit_dnssec", {"zone_id": AGENCY, "status": "active"}, "InvalidRequest", "full setup")


def test_a_pending_dnssec_is_disabled_at_once(session):
    ok(session, "edit_dnssec", {"zone_id": DEV, "status": "active"})
    off = ok(session, "edit_dnssec", {"zone_id": DEV, "status": "disabled"})
    assert off["status"] == "disabled" and off["ds"] is None


def test_zone_activation_follows_the_registrar(session):
    fails(session, "zone_activation_check", {"zone_id": LABS}, "Conflict", "still uses dns1.registrar-servers.com")
    labs = ok(session, "list_zones", {"name": "latticelabs.io"})["results"][0]
    ok(session, "update_registrar", {"domain": "latticelabs.io", "name_servers": labs["name_servers"]}, caller="user")
    active = ok(session, "zone_activation_check", {"zone_id": LABS})
    assert active["status"] == "active" and active["activated_on"] is not None
    fails(session, "zone_activation_check", {"zone_id": LABS}, "Conflict", "already active")


def test_partial_zone_needs_the_verification_txt(session):
    agency = ok(session, "list_zones", {"name": "lattice.agency"})["results"][0]
    fails(session, "zone_activation_check", {"zone_id": AGENCY}, "Conflict", agency["verification_key"])
    ok(
        session,
        "update_registrar",
        {"domain": "lattice.agency", "txt_name": "cloudflare-verify.lattice.agency", "txt_content": "wrong"},
        caller="user",
    )
    fails(session, "zone_activation_check", {"zone_id": AGENCY}, "Conflict", "Activation check failed")
    ok(
        session,
        "update_registrar",
        {
            "domain": "lattice.agency",
            "txt_name": "cloudflare-verify.lattice.agency",
            "txt_content": agency["verification_key"],
        },
        caller="user",
    )
    assert ok(session, "zone_activation_check", {"zone_id": AGENCY})["status"] == "active"


# ---------------------------------------------------------------- BIND import and export

ZONE_FILE = """$ORIGIN latticelabs.io.
$TTL 3600
@   IN SOA ns1.registrar-servers.com. hostmaster.latticelabs.io. 2025070801 7200 3600 1209600 3600
@   IN NS  dns1.registrar-servers.com.
@   300 IN A 203.0.113.60
api IN A 203.0.113.61 ; cf_tags=cf-proxied:true
@   IN MX 10 mail.latticelabs.io.
mail IN A 203.0.113.62
@   IN TXT "v=spf1 mx -all"
_sip._tcp IN SRV 10 5 5060 sip.latticelabs.io.
@   IN CAA 0 issue "letsencrypt.org"
"""


def test_import_parses_bind_skips_soa_ns_and_duplicates(session):
    result = ok(session, "import_dns_records", {"zone_id": LABS, "file": ZONE_FILE})
    assert result == {"recs_added": 6, "total_records_parsed": 9}
    api = records(session, LABS, name="api")[0]
    assert (api["proxied"], api["ttl"]) == (True, 1)
    assert records(session, LABS, name="mail")[0]["ttl"] == 3600
    assert records(session, LABS, type="SRV")[0]["data"]["port"] == 5060
    again = ok(session, "import_dns_records", {"zone_id": LABS, "file": ZONE_FILE})
    assert again["recs_added"] == 0


def test_an_invalid_line_imports_nothing(session):
    bad = "$ORIGIN latticelabs.io.\nok IN A 203.0.113.70\nbroken IN MX 10 203.0.113.9\n"
    fails(session, "import_dns_records", {"zone_id": LABS, "file": bad}, "InvalidRequest", "Line 3:")


def test_export_round_trips_through_import(session):
    exported = ok(session, "export_dns_records", {"zone_id": HARBOR})["file"]
    assert "www.harborcoffee.com.\t1\tIN\tCNAME\tharborcoffee.com ; cf_tags=cf-proxied:true" in exported
    count = len(records(session, HARBOR))
    assert ok(session, "import_dns_records", {"zone_id": HARBOR, "file": exported}) == {
        "recs_added": 0,
        "total_records_parsed": count,
    }
    for row in records(session, SHOP):
        ok(session, "delete_dns_record", {"zone_id": SHOP, "dns_record_id": row["id"]})
    shop_file = exported.replace("harborcoffee.com", "harborcoffee.shop")
    added = ok(session, "import_dns_records", {"zone_id": SHOP, "file": shop_file})
    assert added["recs_added"] == count


# ---------------------------------------------------------------- members


def test_invitations_wait_for_the_owner(session):
    lattice = ACCOUNT["Lattice Digital"]
    invited = ok(
        session, "create_account_member", {"account_id": lattice, "email": "Nina@LatticeDigital.com", "roles": ["DNS"]}
    )
    assert (invited["status"], invited["user"]["email"], invited["roles"]) == (
        "pending",
        "nina@latticedigital.com",
        ["DNS"],
    )
    fails(
        session,
        "create_account_member",
        {"account_id": lattice, "email": "tom@latticedigital.com", "roles": ["Administrator"]},
        "Conflict",
        "already a member",
    )
    approved = ok(
        session,
        "approve_member_invitation",
        {"account_name": "Lattice Digital", "email": "nina@latticedigital.com"},
        caller="user",
    )
    assert approved["status"] == "accepted"
    fails(
        session,
        "approve_member_invitation",
        {"account_name": "Harbor Coffee Co", "email": "it@harborcoffee.com"},
        "PermissionDenied",
        "Only the Super Administrator",
        caller="user",
    )
    for email, roles, text in [
        ("nina.latticedigital.com", ["DNS"], "Not a valid email address"),
        ("sam@latticedigital.com", [], "At least one role is required"),
    ]:
        fails(
            session,
            "create_account_member",
            {"account_id": lattice, "email": email, "roles": roles},
            "invalid_arguments",
            text,
        )
    pending = ok(session, "list_account_members", {"account_id": lattice, "status": "pending"})
    assert [m["user"]["email"] for m in pending] == ["omar.haddad@freelance.dev"]


def test_the_registrar_takes_two_to_four_nameservers(session):
    fails(
        session,
        "update_registrar",
        {"domain": "latticelabs.io", "name_servers": ["gina.ns.cloudflare.com"]},
        "invalid_arguments",
        "Give 2 to 4 nameservers",
        caller="user",
    )
    fails(
        session, "update_registrar", {"domain": "latticelabs.io"}, "InvalidRequest", "Nothing to change", caller="user"
    )


def test_the_schema_shows_the_bounds():
    create = SPEC.tools["create_dns_record"].input_schema["properties"]
    assert (create["ttl"]["minimum"], create["ttl"]["maximum"]) == (1, 86400)
    assert create["priority"]["anyOf"][0]["maximum"] == 65535
    assert SPEC.tools["purge_cache"].input_schema["properties"]["files"]["anyOf"][0]["maxItems"] == 30
    assert SPEC.tools["list_dns_records"].input_schema["properties"]["page_size"]["maximum"] == 100
    assert SPEC.tools["create_account_member"].input_schema["properties"]["roles"]["minItems"] == 1


def test_without_an_api_token_nothing_is_reachable(session):
    session.database.delete(SPEC.schema.tables["session"], "current")
    fails(session, "list_zones", {}, "PermissionDenied", "no API token is configured")
