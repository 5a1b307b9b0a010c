"""Cloudflare API v4 tools: zones and activation, DNS records with BIND import/export, zone settings, page
rules, cache purge, DNSSEC and account members; the domain owner's registrar and approval actions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)

from .access import SUPER, membership, require, zone_for, zone_object
from .objects import (
    BindExport,
    DeletedObject,
    DnsRecordObject,
    DnssecObject,
    ImportResult,
    MemberObject,
    MemberUser,
    PageRuleAction,
    PageRuleObject,
    PurgeResult,
    RegistrarDomain,
    ZoneObject,
    ZoneSettingObject,
    page_rule_object,
    record_object,
)
from .records import Record, check, check_conflicts, error, parse_bind, qualify, to_bind
from .rules import (
    PAGE_RULE_LIMIT,
    SETTINGS,
    check_actions,
    check_purge_files,
    check_setting,
    check_target,
    dnssec_object,
    effective_status,
    new_keys,
)
from .schema import (
    account_members,
    accounts,
    cache_purges,
    dns_records,
    dnssec,
    page_rules,
    registrar_domains,
    users,
    zone_settings,
    zones,
)

RecordType = Literal["A", "AAAA", "CNAME", "MX", "TXT", "SRV", "CAA"]
Role = Literal["Administrator", "DNS", "Administrator Read Only"]
SettingId = Literal[
    "ssl",
    "always_use_https",
    "automatic_https_rewrites",
    "min_tls_version",
    "security_level",
    "development_mode",
    "ipv6",
    "browser_cache_ttl",
]


def _hex_id(db: Database, table: Any) -> str:
    """A new 32-character hex id, as Cloudflare's ids look."""
    return db.new_uuid(table).replace("-", "")


def _published_ds(db: Database, zone_name: str) -> list[str]:
    found = db.find(registrar_domains, domain=zone_name)
    return found[0]["ds_records"] if found else []


# ---------------------------------------------------------------- zones


@tool(read_only=True)
def list_zones(
    db: Database,
    name: str | None = None,
    status: Literal["active", "pending"] | None = None,
    account_id: str | None = None,
    page_size: int = 20,
    cursor: str | None = None,
) -> Page[ZoneObject]:
    """List the zones your API token can reach, with their plan, status, nameservers and your permissions.

    Args:
        name: A domain name to look up exactly (example.com).
        status: Only active or only pending zones.
        account_id: Only zones of this account.
        page_size: Zones per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    equals: dict[str, Any] = {}
    if name is not None:
        equals["name"] = name.strip().lower().rstrip(".")
    if status is not None:
        equals["status"] = status
    if account_id is not None:
        equals["account_id"] = account_id
    rows = [z for z in db.find(zones, order_by=[zones.c.name], **equals) if membership(db, z["account_id"])]
    return paginate([zone_object(db, z) for z in rows], page_size, cursor)


@tool()
def zone_activation_check(db: Database, zone_id: str) -> ZoneObject:
    """Ask Cloudflare to check a pending zone now: a full zone activates once the registrar delegates the domain
    to its assigned nameservers; a partial (CNAME) zone once the TXT record cloudflare-verify.<zone> holds its
    verification_key.

    Args:
        zone_id: The zone's ID.
    """
    zone = zone_for(db, zone_id, "zone")
    if zone["status"] == "active":
        raise Conflict(error(1224, f"Zone {zone['name']} is already active."))
    found = db.find(registrar_domains, domain=zone["name"])
    if not found:
        raise Conflict(error(1224, f"{zone['name']} is not registered anywhere Cloudflare can see."))
    registrar = found[0]
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
    else:
        wanted = {"name": f"cloudflare-verify.{zone['name']}", "content": zone["verification_key"]}
        if wanted not in registrar["txt_records"]:
            raise Conflict(
                error(
                    1224,
                    f"Activation check failed: add a TXT record {wanted['name']} with the value "
                    f"{wanted['content']} at your current DNS provider.",
                )
            )
    now = db.now_iso()
    return zone_object(db, db.update(zones, zone_id, status="active", activated_on=now, modified_on=now))


# ---------------------------------------------------------------- DNS records


@tool(read_only=True)
def list_dns_records(
    db: Database,
    zone_id: str,
    type: RecordType | None = None,
    name: str | None = None,
    content: str | None = None,
    search: str | None = None,
    proxied: bool | None = None,
    page_size: int = 100,
    cursor: str | None = None,
) -> Page[DnsRecordObject]:
    """List a zone's DNS records, sorted by type and name.

    Args:
        zone_id: The zone's ID.
        type: Only records of this type.
        name: Only records with this name (www, www.example.com or @ for the apex).
        content: Only records with exactly this content.
        search: Text to look for in names and contents.
        proxied: Only proxied (true) or DNS-only (false) records.
        page_size: Records per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    zone = zone_for(db, zone_id, "read")
    equals: dict[str, Any] = {}
    if type is not None:
        equals["type"] = type
    if name is not None:
        equals["name"] = qualify(name, zone["name"])
    if content is not None:
        equals["content"] = content
    if proxied is not None:
        equals["proxied"] = proxied
    rows = db.find(dns_records, zone_id=zone_id, order_by=[dns_records.c.type, dns_records.c.name], **equals)
    if search:
        needle = search.lower()
        rows = [r for r in rows if needle in r["name"] or needle in r["content"].lower()]
    return paginate([record_object(r, zone["name"]) for r in rows], page_size, cursor)


def _store(db: Database, zone: dict[str, Any], record: Record, comment: str | None) -> dict[str, Any]:
    now = db.now_iso()
    return db.insert(
        dns_records,
        id=_hex_id(db, dns_records),
        zone_id=zone["id"],
        type=record.type,
        name=record.name,
        content=record.content,
        ttl=record.ttl,
        proxied=record.proxied,
        priority=record.priority,
        comment=comment,
        created_on=now,
        modified_on=now,
    )


@tool()
def create_dns_record(
    db: Database,
    zone_id: str,
    type: RecordType,
    name: str,
    content: str,
    ttl: int = 1,
    proxied: bool = False,
    priority: int | None = None,
    comment: str | None = None,
) -> DnsRecordObject:
    """Create a DNS record. Only A, AAAA and CNAME records can be proxied (proxied records have automatic TTL);
    a CNAME can't share its name with any other record; MX and CNAME content must be a hostname.

    Args:
        zone_id: The zone's ID.
        type: A, AAAA, CNAME, MX, TXT, SRV or CAA.
        name: The record name: www, www.example.com, or @ for the apex.
        content: A: IPv4 address; AAAA: IPv6 address; CNAME/MX: hostname; TXT: text; SRV: 'weight port target'
            (e.g. '5 5060 sip.example.com'); CAA: 'flags tag "value"' (e.g. '0 issue "letsencrypt.org"').
        ttl: Seconds, 60 to 86400, or 1 for automatic.
        proxied: Send traffic through Cloudflare (A, AAAA and CNAME only).
        priority: Required for MX and SRV records (0 to 65535).
        comment: A note about the record.
    """
    zone = zone_for(db, zone_id, "dns")
    record = check(Record(type, name, content, ttl, proxied, priority), zone["name"])
    check_conflicts(record, db.find(dns_records, zone_id=zone_id))
    return record_object(_store(db, zone, record, comment), zone["name"])


@tool()
def update_dns_record(
    db: Database,
    zone_id: str,
    dns_record_id: str,
    type: RecordType | None = None,
    name: str | None = None,
    content: str | None = None,
    ttl: int | None = None,
    proxied: bool | None = None,
    priority: int | None = None,
    comment: str | None = None,
) -> DnsRecordObject:
    """Change some fields of a DNS record (the others stay); the result must pass the same rules as a new record.

    Args:
        zone_id: The zone's ID.
        dns_record_id: The record's ID.
        type: New type.
        name: New name.
        content: New content.
        ttl: New TTL in seconds (1 for automatic).
        proxied: Turn proxying on or off.
        priority: New priority (MX, SRV).
        comment: New comment (an empty string clears it).
    """
    zone = zone_for(db, zone_id, "dns")
    row = db.get(dns_records, dns_record_id, "DNS record")
    if row["zone_id"] != zone_id:
        raise NotFound(error(81044, "Record does not exist."))
    record = check(
        Record(
            type or row["type"],
            name if name is not None else row["name"],
            content if content is not None else row["content"],
            ttl if ttl is not None else row["ttl"],
            proxied if proxied is not None else row["proxied"],
            priority if priority is not None else row["priority"],
        ),
        zone["name"],
    )
    check_conflicts(record, db.find(dns_records, zone_id=zone_id), own_id=dns_record_id)
    changes = dict(
        type=record.type,
        name=record.name,
        content=record.content,
        ttl=record.ttl,
        proxied=record.proxied,
        priority=record.priority,
        modified_on=db.now_iso(),
    )
    if comment is not None:
        changes["comment"] = comment or None
    return record_object(db.update(dns_records, dns_record_id, **changes), zone["name"])


@tool()
def delete_dns_record(db: Database, zone_id: str, dns_record_id: str) -> DeletedObject:
    """Delete a DNS record.

    Args:
        zone_id: The zone's ID.
        dns_record_id: The record's ID.
    """
    zone_for(db, zone_id, "dns")
    row = db.get(dns_records, dns_record_id, "DNS record")
    if row["zone_id"] != zone_id:
        raise NotFound(error(81044, "Record does not exist."))
    db.delete(dns_records, dns_record_id)
    return DeletedObject(id=dns_record_id)


@tool()
def import_dns_records(db: Database, zone_id: str, file: str, proxied: bool = False) -> ImportResult:
    """Import records from a BIND zone file ($ORIGIN, $TTL, @ and relative names understood; SOA and apex NS
    records are skipped; records identical to existing ones are not added twice). If any record is invalid,
    nothing is imported and the error names its line.

    Args:
        zone_id: The zone's ID.
        file: The zone file's text.
        proxied: Proxy the imported A, AAAA and CNAME records (a 'cf_tags=cf-proxied:true|false' comment on a
            line overrides this).
    """
    zone = zone_for(db, zone_id, "dns")
    parsed, total = parse_bind(file, zone["name"], proxied)
    added = 0
    for number, raw in parsed:
        try:
            record = check(raw, zone["name"])
        except InvalidRequest as exc:
            raise InvalidRequest(f"Line {number}: {exc}") from None
        existing = db.find(dns_records, zone_id=zone_id)
        if any((r["type"], r["name"], r["content"]) == (record.type, record.name, record.content) for r in existing):
            continue  # already there
        try:
            check_conflicts(record, existing)
        except Conflict as exc:
            raise Conflict(f"Line {number}: {exc}") from None
        _store(db, zone, record, None)
        added += 1
    return ImportResult(recs_added=added, total_records_parsed=total)


@tool(read_only=True)
def export_dns_records(db: Database, zone_id: str) -> BindExport:
    """Export a zone's DNS records as a BIND zone file.

    Args:
        zone_id: The zone's ID.
    """
    zone = zone_for(db, zone_id, "read")
    rows = db.find(dns_records, zone_id=zone_id)
    return BindExport(zone_name=zone["name"], file=to_bind(zone["name"], rows, db.now().strftime("%Y-%m-%d %H:%M:%S")))


# ---------------------------------------------------------------- settings


def _value(setting: str, stored: str) -> str | int:
    """A stored setting value in its API type (numbers for TTLs)."""
    return int(stored) if isinstance(SETTINGS[setting][0], int) else stored


def _settings(db: Database, zone_id: str) -> dict[str, str | int]:
    return {s["setting"]: _value(s["setting"], s["value"]) for s in db.find(zone_settings, zone_id=zone_id)}


@tool(read_only=True)
def get_zone_settings(db: Database, zone_id: str) -> list[ZoneSettingObject]:
    """Read a zone's settings: SSL/TLS encryption mode (off, flexible, full, strict), Always Use HTTPS, Automatic
    HTTPS Rewrites, minimum TLS version, security level, development mode, IPv6 and browser cache TTL.

    Args:
        zone_id: The zone's ID.
    """
    zone_for(db, zone_id, "read")
    rows = db.find(zone_settings, zone_id=zone_id, order_by=[zone_settings.c.setting])
    return [
        ZoneSettingObject(
            id=s["setting"], value=_value(s["setting"], s["value"]), editable=True, modified_on=s["modified_on"]
        )
        for s in rows
    ]


@tool()
def edit_zone_setting(db: Database, zone_id: str, setting_id: SettingId, value: str | int) -> ZoneSettingObject:
    """Change one zone setting. SSL can't be turned off while Always Use HTTPS is on (and the other way round);
    security_level off is Enterprise-only.

    Args:
        zone_id: The zone's ID.
        setting_id: Which setting: ssl, always_use_https, automatic_https_rewrites, min_tls_version,
            security_level, development_mode, ipv6 or browser_cache_ttl.
        value: The new value, e.g. 'strict' for ssl, 'on'/'off', '1.2' for min_tls_version, 14400 for
            browser_cache_ttl.
    """
    zone = zone_for(db, zone_id, "zone")
    current = _settings(db, zone_id)
    if isinstance(value, str) and isinstance(SETTINGS[setting_id][0], int) and value.isdigit():
        value = int(value)
    value = check_setting(setting_id, value, current, zone["plan"])
    row = db.update(zone_settings, f"{zone_id}/{setting_id}", value=str(value), modified_on=db.now_iso())
    return ZoneSettingObject(id=setting_id, value=value, editable=True, modified_on=row["modified_on"])


# ---------------------------------------------------------------- page rules


@tool(read_only=True)
def list_page_rules(
    db: Database, zone_id: str, status: Literal["active", "disabled"] | None = None
) -> list[PageRuleObject]:
    """List a zone's page rules, highest priority first.

    Args:
        zone_id: The zone's ID.
        status: Only active or only disabled rules.
    """
    zone_for(db, zone_id, "read")
    equals = {"status": status} if status is not None else {}
    rows = db.find(page_rules, zone_id=zone_id, **equals)
    return [page_rule_object(r) for r in sorted(rows, key=lambda r: -r["priority"])]


def _target(url: str) -> list[dict[str, Any]]:
    return [{"target": "url", "constraint": {"operator": "matches", "value": url}}]


def _check_unique_target(db: Database, zone_id: str, url: str, own_id: str | None) -> None:
    for rule in db.find(page_rules, zone_id=zone_id):
        if rule["id"] != own_id and rule["targets"][0]["constraint"]["value"] == url:
            raise Conflict(error(1004, f"Page Rule validation failed: a page rule for {url} already exists."))


@tool()
def create_page_rule(
    db: Database,
    zone_id: str,
    url: str,
    actions: list[PageRuleAction],
    status: Literal["active", "disabled"] = "active",
    priority: int | None = None,
) -> PageRuleObject:
    """Create a page rule for a URL pattern on the zone. Plans allow 3 (Free), 20 (Pro), 50 (Business) or 125
    (Enterprise) rules, disabled ones included; forwarding_url and always_use_https can't be combined with other
    actions. A new rule gets the highest priority unless one is given.

    Args:
        zone_id: The zone's ID.
        url: The URL pattern, * as wildcard (e.g. example.com/blog/* or *.example.com/*).
        actions: What the rule does, e.g. [{"id": "forwarding_url", "value": {"url": "https://example.com/$1",
            "status_code": 301}}] or [{"id": "cache_level", "value": "bypass"}].
        status: active or disabled.
        priority: Where the rule ranks; higher numbers win.
    """
    zone = zone_for(db, zone_id, "zone")
    existing = db.find(page_rules, zone_id=zone_id)
    limit = PAGE_RULE_LIMIT[zone["plan"]]
    if len(existing) >= limit:
        raise Conflict(
            error(
                1004,
                f"Page Rule validation failed: the {zone['plan']} plan allows {limit} page rules "
                f"and {zone['name']} has {len(existing)}. Delete or reuse one.",
            )
        )
    target = check_target(url, zone["name"])
    _check_unique_target(db, zone_id, target, None)
    stored = check_actions(actions)
    now = db.now_iso()
    rank = priority if priority is not None else max((r["priority"] for r in existing), default=0) + 1
    row = db.insert(
        page_rules,
        id=_hex_id(db, page_rules),
        zone_id=zone_id,
        targets=_target(target),
        actions=stored,
        priority=rank,
        status=status,
        created_on=now,
        modified_on=now,
    )
    return page_rule_object(row)


@tool()
def update_page_rule(
    db: Database,
    zone_id: str,
    pagerule_id: str,
    url: str | None = None,
    actions: list[PageRuleAction] | None = None,
    status: Literal["active", "disabled"] | None = None,
    priority: int | None = None,
) -> PageRuleObject:
    """Change a page rule's URL pattern, actions (replaced as a whole), status or priority.

    Args:
        zone_id: The zone's ID.
        pagerule_id: The page rule's ID.
        url: New URL pattern.
        actions: New actions, replacing the old ones.
        status: active or disabled.
        priority: New priority; higher numbers win.
    """
    zone = zone_for(db, zone_id, "zone")
    rule = db.get(page_rules, pagerule_id, "Page rule")
    if rule["zone_id"] != zone_id:
        raise NotFound(error(1002, "Page rule not found in this zone."))
    changes: dict[str, Any] = {}
    if url is not None:
        target = check_target(url, zone["name"])
        _check_unique_target(db, zone_id, target, pagerule_id)
        changes["targets"] = _target(target)
    if actions is not None:
        changes["actions"] = check_actions(actions)
    if status is not None:
        changes["status"] = status
    if priority is not None:
        changes["priority"] = priority
    if not changes:
        raise InvalidRequest(error(1004, "Nothing to update: give url, actions, status or priority."))
    return page_rule_object(db.update(page_rules, pagerule_id, modified_on=db.now_iso(), **changes))


# ---------------------------------------------------------------- cache


@tool()
def purge_cache(
    db: Database,
    zone_id: str,
    purge_everything: bool = False,
    files: list[str] | None = None,
    tags: list[str] | None = None,
    hosts: list[str] | None = None,
) -> PurgeResult:
    """Purge cached content of an active zone: everything, up to 30 URLs, or (Enterprise only) by cache tags or
    hostnames. Give exactly one of them.

    Args:
        zone_id: The zone's ID.
        purge_everything: true to purge all cached content.
        files: Full URLs to purge (https://example.com/styles.css).
        tags: Cache-Tag values to purge (Enterprise).
        hosts: Hostnames to purge (Enterprise).
    """
    zone = zone_for(db, zone_id, "purge")
    given = [purge_everything, bool(files), bool(tags), bool(hosts)]
    if sum(given) != 1:
        raise InvalidRequest(error(1012, "Request must contain exactly one of purge_everything, files, tags or hosts."))
    if zone["status"] != "active":
        raise Conflict(error(1012, f"Zone {zone['name']} is not active yet; there is no cache to purge."))
    if (tags or hosts) and zone["plan"] != "Enterprise":
        raise InvalidRequest(error(1134, "Purge by tag or hostname is only available on the Enterprise plan."))
    row = db.insert(
        cache_purges,
        id=_hex_id(db, cache_purges),
        zone_id=zone_id,
        purge_everything=purge_everything,
        files=check_purge_files(files or [], zone["name"]),
        tags=tags or [],
        hosts=hosts or [],
        created_on=db.now_iso(),
    )
    return PurgeResult(id=row["id"])


# ---------------------------------------------------------------- DNSSEC


def _dnssec_row(db: Database, zone: dict[str, Any]) -> dict[str, Any]:
    return db.get(dnssec, zone["id"], "DNSSEC")


@tool(read_only=True)
def get_dnssec(db: Database, zone_id: str) -> DnssecObject:
    """Read a zone's DNSSEC status and the DS record to add at the registrar.

    Args:
        zone_id: The zone's ID.
    """
    zone = zone_for(db, zone_id, "read")
    return dnssec_object(zone["name"], _dnssec_row(db, zone), _published_ds(db, zone["name"]))


@tool()
def edit_dnssec(db: Database, zone_id: str, status: Literal["active", "disabled"]) -> DnssecObject:
    """Enable or disable DNSSEC. Enabling creates keys and shows the DS record; DNSSEC stays pending until that DS
    record is published at the registrar. Disabling an active zone stays pending-disabled until the DS record is
    removed at the registrar. Partial (CNAME) setups can't use DNSSEC.

    Args:
        zone_id: The zone's ID.
        status: active to enable, disabled to disable.
    """
    zone = zone_for(db, zone_id, "dns")
    if zone["type"] != "full":
        raise InvalidRequest(error(1004, "DNSSEC is only available for zones with a full setup."))
    row = _dnssec_row(db, zone)
    published = _published_ds(db, zone["name"])
    current = effective_status(zone["name"], row, published)
    now = db.now_iso()
    if status == "active":
        if current in ("active", "pending"):
            raise Conflict(error(1004, f"DNSSEC is already {current} on {zone['name']}."))
        keys = new_keys(zone["name"], db.next_number(f"dnssec:{zone_id}"))
        row = db.update(dnssec, zone_id, status="pending", modified_on=now, **keys)
    else:
        if current in ("disabled", "pending-disabled"):
            raise Conflict(error(1004, f"DNSSEC is already {current} on {zone['name']}."))
        if current == "pending":
            row = db.update(
                dnssec, zone_id, status="disabled", key_tag=None, digest=None, public_key=None, modified_on=now
            )
        else:
            row = db.update(dnssec, zone_id, status="pending-disabled", modified_on=now)
    return dnssec_object(zone["name"], row, published)


# ---------------------------------------------------------------- members


def _member_object(db: Database, row: dict[str, Any]) -> MemberObject:
    return MemberObject(
        id=row["id"], user=MemberUser(**db.get(users, row["user_id"], "User")), roles=row["roles"], status=row["status"]
    )


@tool(read_only=True)
def list_account_members(
    db: Database, account_id: str, status: Literal["accepted", "pending"] | None = None
) -> list[MemberObject]:
    """List an account's members, their roles (Super Administrator - All Privileges, Administrator, DNS for DNS
    editors, Administrator Read Only) and whether they are accepted or pending approval.

    Args:
        account_id: The account's ID (from a zone's account).
        status: Only accepted or only pending members.
    """
    require(db, account_id, "read")
    equals = {"status": status} if status is not None else {}
    rows = db.find(account_members, account_id=account_id, **equals)
    people = {u["id"]: u for u in db.find(users)}
    return [_member_object(db, r) for r in sorted(rows, key=lambda r: people[r["user_id"]]["email"])]


@tool()
def create_account_member(
    db: Database, account_id: str, email: str, roles: Annotated[list[Role], Unordered]
) -> MemberObject:
    """Invite someone to an account with roles: Administrator (everything), DNS (edit DNS records and DNSSEC) or
    Administrator Read Only (read everything, change nothing). The membership stays pending until the account's
    Super Administrator approves it.

    Args:
        account_id: The account's ID.
        email: The person's email address.
        roles: One or more roles.
    """
    require(db, account_id, "members")
    if not roles:
        raise InvalidRequest(error(1001, "At least one role is required."))
    address = email.strip().lower()
    if "@" not in address or "." not in address.split("@")[-1]:
        raise InvalidRequest(error(1001, f"{email} is not a valid email address."))
    found = db.find(users, email=address)
    person = (
        found[0]
        if found
        else db.insert(
            users,
            id=_hex_id(db, users),
            email=address,
            first_name=None,
            last_name=None,
            two_factor_authentication_enabled=False,
        )
    )
    if db.find(account_members, account_id=account_id, user_id=person["id"]):
        raise Conflict(error(1001, f"{address} is already a member of this account."))
    row = db.insert(
        account_members,
        id=_hex_id(db, account_members),
        account_id=account_id,
        user_id=person["id"],
        roles=list(dict.fromkeys(roles)),
        status="pending",
        invited_on=db.now_iso(),
    )
    return _member_object(db, row)


# ---------------------------------------------------------------- the domain owner (user only)


@tool(user_only=True)
def approve_member_invitation(db: Database, account_name: str, email: str) -> MemberObject:
    """(Account owner only, in the dashboard with two-factor authentication) Approve a pending member invitation.

    Args:
        account_name: The account's name as the dashboard shows it.
        email: The invited person's email address.
    """
    found = db.find(accounts, name=account_name.strip())
    if not found:
        raise NotFound(f"No account named '{account_name}'")
    account = found[0]
    mine = membership(db, account["id"])
    if mine is None or SUPER not in mine["roles"]:
        raise PermissionDenied(f"Only the Super Administrator of '{account['name']}' can approve invitations.")
    person = db.find(users, email=email.strip().lower())
    rows = db.find(account_members, account_id=account["id"], user_id=person[0]["id"]) if person else []
    if not rows:
        raise NotFound(f"No invitation for {email} on '{account['name']}'")
    if rows[0]["status"] == "accepted":
        raise Conflict(f"{email} is already an accepted member of '{account['name']}'.")
    return _member_object(db, db.update(account_members, rows[0]["id"], status="accepted"))


@tool(user_only=True)
def update_registrar(
    db: Database,
    domain: str,
    name_servers: list[str] | None = None,
    txt_name: str | None = None,
    txt_content: str | None = None,
    ds_record: str | None = None,
    remove_ds_records: bool = False,
) -> RegistrarDomain:
    """(Domain owner only, signed in at the registrar) Change the domain's nameservers, add a TXT record at the
    registrar's DNS (e.g. an ownership verification), publish a DS record, or remove the published DS records.

    Args:
        domain: The registered domain.
        name_servers: The nameservers to delegate to (2 to 4).
        txt_name: Name of a TXT record to add (e.g. cloudflare-verify.example.com).
        txt_content: Value of that TXT record.
        ds_record: A DS record to publish, as Cloudflare shows it.
        remove_ds_records: true to remove every published DS record.
    """
    rows = db.find(registrar_domains, domain=domain.strip().lower().rstrip("."))
    if not rows:
        raise NotFound(f"{domain} is not registered in your registrar account")
    row = rows[0]
    changes: dict[str, Any] = {}
    if name_servers is not None:
        clean = [n.strip().lower().rstrip(".") for n in name_servers]
        if not 2 <= len(clean) <= 4:
            raise InvalidRequest("Give 2 to 4 nameservers.")
        changes["name_servers"] = clean
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
    return RegistrarDomain(**db.update(registrar_domains, row["domain"], **changes))
