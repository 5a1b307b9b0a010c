"""Cloudflare's zone-level rules: setting values, page-rule URL patterns, actions and plan limits, cache purge
requests, and DNSSEC keys with the DS record the registrar must publish."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.database import given

from .objects import DnssecObject, ForwardingUrl, PageRuleAction
from .records import error
from .schema import page_rules, registrar_domains, zone_settings

SETTINGS: dict[str, tuple[Any, ...]] = {
    "ssl": ("off", "flexible", "full", "strict"),
    "always_use_https": ("on", "off"),
    "automatic_https_rewrites": ("on", "off"),
    "min_tls_version": ("1.0", "1.1", "1.2", "1.3"),
    "security_level": ("off", "essentially_off", "low", "medium", "high", "under_attack"),
    "development_mode": ("on", "off"),
    "ipv6": ("on", "off"),
    "browser_cache_ttl": (
        0,
        30,
        60,
        120,
        300,
        1200,
        1800,
        3600,
        7200,
        10800,
        14400,
        18000,
        28800,
        43200,
        57600,
        72000,
        86400,
        172800,
        259200,
        345600,
        432000,
        691200,
        1382400,
        2073600,
        2678400,
        5356800,
        16070400,
        31536000,
    ),
}
PAGE_RULE_LIMIT = {"Free": 3, "Pro": 20, "Business": 50, "Enterprise": 125}
CACHE_LEVELS = ("bypass", "basic", "simplified", "aggressive", "cache_everything")
SSL_MODES = ("off", "flexible", "full", "strict")
ALONE = ("forwarding_url", "always_use_https")
MAX_PURGE_FILES = 30


def registrar_record(db: Database, domain: str) -> dict[str, Any] | None:
    """The registrar's view of a domain, if it is registered anywhere Cloudflare can see."""
    found = db.find(registrar_domains, domain=domain)
    return found[0] if found else None


def published_ds(db: Database, zone_name: str) -> list[str]:
    """The DS records the parent zone publishes for the domain."""
    registrar = registrar_record(db, zone_name)
    return registrar["ds_records"] if registrar else []


# ---------------------------------------------------------------- activation


def check_activation(zone: dict[str, Any], registrar: dict[str, Any] | None) -> None:
    """A pending zone activates once the registrar delegates it (full) or holds its verification TXT (partial)."""
    if zone["status"] == "active":
        raise Conflict(error(1224, f"Zone {zone['name']} is already active."))
    if registrar is None:
        raise Conflict(error(1224, f"{zone['name']} is not registered anywhere Cloudflare can see."))
    if zone["type"] == "full":
        if sorted(registrar["name_servers"]) != sorted(zone["name_servers"]):
            raise Conflict(
                error(
                    1224,
                    f"Activation check failed: {zone['name']} still uses "
                    f"{', '.join(registrar['name_servers'])}. At {registrar['registrar']}, replace "
                    f"them with {', '.join(zone['name_servers'])}.",
                )
            )
        return
    wanted = {"name": f"cloudflare-verify.{zone['name']}", "content": zone["verification_key"]}
    if wanted not in registrar["txt_records"]:
        raise Conflict(
            error(
                1224,
                f"Activation check failed: add a TXT record {wanted['name']} with the value "
                f"{wanted['content']} at your current DNS provider.",
            )
        )


# ---------------------------------------------------------------- settings


def setting_value(setting: str, stored: str) -> str | int:
    """A stored setting value in its API type (numbers for TTLs)."""
    return int(stored) if isinstance(SETTINGS[setting][0], int) else stored


def current_settings(db: Database, zone_id: str) -> dict[str, str | int]:
    """A zone's settings by id."""
    return {s["setting"]: setting_value(s["setting"], s["value"]) for s in db.find(zone_settings, zone_id=zone_id)}


def check_setting(setting: str, value: str | int, current: dict[str, Any], plan: str) -> str | int:
    """A valid value for a zone setting, given the zone's other settings and plan."""
    allowed = SETTINGS[setting]
    if isinstance(value, str) and isinstance(allowed[0], int) and value.isdigit():
        value = int(value)
    if value not in allowed:
        shown = ", ".join(str(a) for a in allowed)
        raise InvalidRequest(error(1007, f"Invalid value for zone setting {setting}: {value!r}. Use one of: {shown}"))
    if setting == "security_level" and value == "off" and plan != "Enterprise":
        raise InvalidRequest(error(1007, "security_level 'off' is only available on the Enterprise plan."))
    if setting == "ssl" and value == "off" and current.get("always_use_https") == "on":
        raise Conflict(error(1007, "Turn off always_use_https before setting SSL to off: HTTPS would stop working."))
    if setting == "always_use_https" and value == "on" and current.get("ssl") == "off":
        raise Conflict(error(1007, "always_use_https needs SSL: set ssl to flexible, full or strict first."))
    return value


# ---------------------------------------------------------------- page rules


def page_rule_target(url: str) -> list[dict[str, Any]]:
    """A page rule's targets as stored, for one URL pattern."""
    return [{"target": "url", "constraint": {"operator": "matches", "value": url}}]


def check_room(zone: dict[str, Any], existing: list[dict[str, Any]]) -> None:
    """Plans cap how many page rules (disabled ones included) a zone may have."""
    limit = PAGE_RULE_LIMIT[zone["plan"]]
    if len(existing) >= limit:
        raise Conflict(
            error(
                1004,
                f"Page Rule validation failed: the {zone['plan']} plan allows {limit} page rules "
                f"and {zone['name']} has {len(existing)}. Delete or reuse one.",
            )
        )


def check_unique_target(db: Database, zone_id: str, url: str, own_id: str | None) -> None:
    """Two page rules of a zone can't match the same URL pattern."""
    for rule in db.find(page_rules, zone_id=zone_id):
        if rule["id"] != own_id and rule["targets"][0]["constraint"]["value"] == url:
            raise Conflict(error(1004, f"Page Rule validation failed: a page rule for {url} already exists."))


def zone_page_rule(db: Database, zone_id: str, pagerule_id: str) -> dict[str, Any]:
    """A page rule of this zone."""
    rule = db.get(page_rules, pagerule_id, "Page rule")
    if rule["zone_id"] != zone_id:
        raise NotFound(error(1002, "Page rule not found in this zone."))
    return rule


def page_rule_changes(
    db: Database,
    zone: dict[str, Any],
    pagerule_id: str,
    url: str | None,
    actions: list[PageRuleAction] | None,
    status: str | None,
    priority: int | None,
) -> dict[str, Any]:
    """A page rule's new fields, checked like a new rule's (actions are replaced as a whole)."""
    changes: dict[str, Any] = {}
    if url is not None:
        target = check_target(url, zone["name"])
        check_unique_target(db, zone["id"], target, pagerule_id)
        changes["targets"] = page_rule_target(target)
    if actions is not None:
        changes["actions"] = check_actions(actions)
    changes.update(given(status=status, priority=priority))
    if not changes:
        raise InvalidRequest(error(1004, "Nothing to update: give url, actions, status or priority."))
    return changes


def pattern_host(url: str) -> str:
    """The host part of a page-rule URL pattern, wildcards kept."""
    bare = re.sub(r"^\*?https?://", "", url.strip().lower())
    return bare.split("/", 1)[0].split(":", 1)[0]


def check_target(url: str, zone_name: str) -> str:
    """A page-rule URL pattern that belongs to the zone."""
    clean = url.strip()
    host = pattern_host(clean).lstrip("*").lstrip(".")
    if not clean or not (host == zone_name or host.endswith("." + zone_name)):
        raise InvalidRequest(
            error(
                1004, f"Page Rule validation failed: the URL pattern must be on {zone_name} (e.g. {zone_name}/blog/*)."
            )
        )
    return clean


def check_actions(actions: list[PageRuleAction]) -> list[dict[str, Any]]:
    """Page-rule actions as stored; forwarding_url and always_use_https can't be combined with anything."""
    if not actions:
        raise InvalidRequest(error(1004, "Page Rule validation failed: at least one action is required."))
    ids = [a.id for a in actions]
    if len(set(ids)) != len(ids):
        raise InvalidRequest(error(1004, "Page Rule validation failed: each action can appear only once."))
    for alone in ALONE:
        if alone in ids and len(ids) > 1:
            raise InvalidRequest(
                error(1004, f"Page Rule validation failed: {alone} can not be combined with other settings.")
            )
    stored = []
    for action in actions:
        value = action.value
        if action.id == "forwarding_url":
            if not isinstance(value, ForwardingUrl) or not re.match(r"^https?://", value.url):
                raise InvalidRequest(
                    error(
                        1004,
                        "Page Rule validation failed: forwarding_url needs {url: "
                        "'https://...', status_code: 301 or 302}.",
                    )
                )
            stored.append({"id": action.id, "value": value.model_dump()})
            continue
        if action.id == "always_use_https":
            value = None
        elif action.id == "cache_level" and value not in CACHE_LEVELS:
            raise InvalidRequest(
                error(1004, f"Page Rule validation failed: cache_level must be one of {', '.join(CACHE_LEVELS)}.")
            )
        elif action.id == "ssl" and value not in SSL_MODES:
            raise InvalidRequest(
                error(1004, f"Page Rule validation failed: ssl must be one of {', '.join(SSL_MODES)}.")
            )
        elif action.id in ("browser_cache_ttl", "edge_cache_ttl") and (not isinstance(value, int) or value < 0):
            raise InvalidRequest(error(1004, f"Page Rule validation failed: {action.id} must be seconds."))
        stored.append({"id": action.id, "value": value})
    return stored


# ---------------------------------------------------------------- cache


def check_purge(
    zone: dict[str, Any], purge_everything: bool, files: list[str], tags: list[str], hosts: list[str]
) -> None:
    """One kind of purge per request, on an active zone; tags and hosts on Enterprise only; URLs on the zone."""
    if sum([purge_everything, bool(files), bool(tags), bool(hosts)]) != 1:
        raise InvalidRequest(error(1012, "Request must contain exactly one of purge_everything, files, tags or hosts."))
    if zone["status"] != "active":
        raise Conflict(error(1012, f"Zone {zone['name']} is not active yet; there is no cache to purge."))
    if (tags or hosts) and zone["plan"] != "Enterprise":
        raise InvalidRequest(error(1134, "Purge by tag or hostname is only available on the Enterprise plan."))
    for url in files:
        host = re.sub(r"^https?://", "", url.lower()).split("/", 1)[0]
        if not re.match(r"^https?://", url) or not (host == zone["name"] or host.endswith("." + zone["name"])):
            raise InvalidRequest(error(1012, f"Purge URL {url} must be an http(s) URL on {zone['name']}."))


# ---------------------------------------------------------------- DNSSEC


def new_keys(zone_name: str, generation: int) -> dict[str, Any]:
    """A deterministic ECDSA P-256 key stand-in for a zone: key tag, SHA-256 digest and public key."""
    seed = hashlib.sha256(f"{zone_name}:{generation}".encode()).digest()
    return {
        "key_tag": int.from_bytes(seed[:2], "big") % 65535 + 1,
        "digest": hashlib.sha256(seed).hexdigest().upper(),
        "public_key": base64.b64encode(seed + hashlib.sha256(seed).digest()).decode(),
    }


def ds_record(zone_name: str, row: dict[str, Any]) -> str:
    """The DS record as Cloudflare displays it for the registrar."""
    return f"{zone_name}. 3600 IN DS {row['key_tag']} 13 2 {row['digest']}"


def effective_status(zone_name: str, row: dict[str, Any], published: list[str]) -> str:
    """The DNSSEC status Cloudflare reports, once it sees (or stops seeing) the DS at the registrar."""
    has_ds = row["key_tag"] is not None and ds_record(zone_name, row) in published
    if row["status"] == "pending" and has_ds:
        return "active"
    if row["status"] == "pending-disabled" and not any(d.startswith(f"{zone_name}. ") for d in published):
        return "disabled"
    return row["status"]


def dnssec_change(db: Database, zone: dict[str, Any], current: str, status: str) -> dict[str, Any]:
    """The DNSSEC row's new fields: enabling creates keys (pending until the DS is published); disabling a pending
    zone drops the keys, an active one waits (pending-disabled) for the DS to be removed."""
    if zone["type"] != "full":
        raise InvalidRequest(error(1004, "DNSSEC is only available for zones with a full setup."))
    if status == "active":
        if current in ("active", "pending"):
            raise Conflict(error(1004, f"DNSSEC is already {current} on {zone['name']}."))
        return {"status": "pending", **new_keys(zone["name"], db.next_number(f"dnssec:{zone['id']}"))}
    if current in ("disabled", "pending-disabled"):
        raise Conflict(error(1004, f"DNSSEC is already {current} on {zone['name']}."))
    if current == "pending":
        return {"status": "disabled", "key_tag": None, "digest": None, "public_key": None}
    return {"status": "pending-disabled"}


def dnssec_object(zone_name: str, row: dict[str, Any], published: list[str]) -> DnssecObject:
    """The DNSSEC object; key details are shown while keys exist."""
    status = effective_status(zone_name, row, published)
    if row["key_tag"] is None or status == "disabled":
        return DnssecObject(
            status=status,
            flags=None,
            algorithm=None,
            key_type=None,
            digest_type=None,
            digest_algorithm=None,
            digest=None,
            ds=None,
            key_tag=None,
            public_key=None,
            modified_on=row["modified_on"],
        )
    return DnssecObject(
        status=status,
        flags=257,
        algorithm="13",
        key_type="ECDSAP256SHA256",
        digest_type="2",
        digest_algorithm="SHA256",
        digest=row["digest"],
        ds=ds_record(zone_name, row),
        key_tag=row["key_tag"],
        public_key=row["public_key"],
        modified_on=row["modified_on"],
    )


# ---------------------------------------------------------------- the registrar


def registrar_changes(
    row: dict[str, Any],
    name_servers: list[str] | None,
    txt_name: str | None,
    txt_content: str | None,
    ds_record: str | None,
    remove_ds_records: bool,
) -> dict[str, Any]:
    """What the domain owner changes at the registrar: delegation, a TXT record, published DS records."""
    changes: dict[str, Any] = {}
    if name_servers is not None:
        changes["name_servers"] = [n.strip().lower().rstrip(".") for n in name_servers]
    if (txt_name is None) != (txt_content is None):
        raise InvalidRequest("Give both txt_name and txt_content.")
    if txt_name is not None and txt_content is not None:
        changes["txt_records"] = row["txt_records"] + [
            {"name": txt_name.strip().lower().rstrip("."), "content": txt_content.strip()}
        ]
    if remove_ds_records:
        changes["ds_records"] = []
    if ds_record is not None:
        changes["ds_records"] = changes.get("ds_records", row["ds_records"]) + [" ".join(ds_record.split())]
    if not changes:
        raise InvalidRequest("Nothing to change.")
    return changes
