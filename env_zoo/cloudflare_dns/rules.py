"""Cloudflare's zone-level rules: setting values, page-rule URL patterns, actions and plan limits, cache purge
requests, and DNSSEC keys with the DS record the registrar must publish."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from envfactory_gym import Conflict, InvalidRequest

from .objects import DnssecObject, ForwardingUrl, PageRuleAction
from .records import error

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


def check_setting(setting: str, value: str | int, current: dict[str, Any], plan: str) -> str | int:
    """A valid value for a zone setting, given the zone's other settings and plan."""
    allowed = SETTINGS[setting]
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


def check_purge_files(files: list[str], zone_name: str) -> list[str]:
    """URLs to purge: at most 30 a request, all on the zone."""
    if len(files) > MAX_PURGE_FILES:
        raise InvalidRequest(error(1012, f"You can purge at most {MAX_PURGE_FILES} URLs per request."))
    for url in files:
        host = re.sub(r"^https?://", "", url.lower()).split("/", 1)[0]
        if not re.match(r"^https?://", url) or not (host == zone_name or host.endswith("." + zone_name)):
            raise InvalidRequest(error(1012, f"Purge URL {url} must be an http(s) URL on {zone_name}."))
    return files


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
