"""Cloudflare API v4 tools: zones and activation, DNS records with BIND import/export, zone settings, page
rules, cache purge, DNSSEC and account members; the domain owner's registrar and approval actions."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, NotFound, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, PageSize

from .access import invite, membership, pending_invitation, require, zone_for, zone_object
from .objects import (
    BindExport,
    DeletedObject,
    DnsRecordObject,
    DnssecObject,
    ImportResult,
    MemberObject,
    PageRuleAction,
    PageRuleObject,
    PurgeResult,
    RegistrarDomain,
    ZoneObject,
    ZoneSettingObject,
    member_object,
    page_rule_object,
    record_object,
)
from .records import (
    Record,
    changed,
    check,
    check_conflicts,
    error,
    hex_id,
    import_file,
    qualify,
    store,
    to_bind,
    zone_record,
)
from .rules import (
    MAX_PURGE_FILES,
    check_actions,
    check_activation,
    check_purge,
    check_room,
    check_setting,
    check_target,
    check_unique_target,
    current_settings,
    dnssec_change,
    dnssec_object,
    effective_status,
    page_rule_changes,
    page_rule_target,
    published_ds,
    registrar_changes,
    registrar_record,
    setting_value,
    zone_page_rule,
)
from .schema import (
    account_members,
    cache_purges,
    dns_records,
    dnssec,
    page_rules,
    registrar_domains,
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
# 1 (automatic) or 60-86400 seconds; the gap 2-59 is refused by the record rules, which BIND imports share
Ttl = Annotated[
    int,
    Field(ge=1, le=86400),
    ErrorText(error(9021, "Invalid TTL. Must be between 60 and 86400 seconds, or 1 for automatic.")),
]
Priority = Annotated[int, Field(ge=0, le=65535), ErrorText(error(9104, "priority must be between 0 and 65535."))]
Email = Annotated[
    str,
    Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[^@\s]+\s*$"),
    ErrorText(error(1001, "Not a valid email address.")),
]
Roles = Annotated[list[Role], Field(min_length=1), Unordered, ErrorText(error(1001, "At least one role is required."))]
PurgeFiles = Annotated[
    list[str],
    Field(max_length=MAX_PURGE_FILES),
    ErrorText(error(1012, f"You can purge at most {MAX_PURGE_FILES} URLs per request.")),
]
NameServers = Annotated[list[str], Field(min_length=2, max_length=4), ErrorText("Give 2 to 4 nameservers.")]


# ---------------------------------------------------------------- zones


@tool(read_only=True)
def list_zones(
    db: Database,
    name: str | None = None,
    status: Literal["active", "pending"] | None = None,
    account_id: str | None = None,
    page_size: PageSize = 20,
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
    wanted = name.strip().lower().rstrip(".") if name is not None else None
    found = db.find(zones, order_by=[zones.c.name], **given(name=wanted, status=status, account_id=account_id))
    rows = [z for z in found if membership(db, z["account_id"])]
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
    check_activation(zone, registrar_record(db, zone["name"]))
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
    page_size: PageSize = 100,
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
    fqdn = qualify(name, zone["name"]) if name is not None else None
    rows = db.find(
        dns_records,
        zone_id=zone_id,
        order_by=[dns_records.c.type, dns_records.c.name],
        **given(type=type, name=fqdn, content=content, proxied=proxied),
    )
    if search:
        needle = search.lower()
        rows = [r for r in rows if needle in r["name"] or needle in r["content"].lower()]
    return paginate([record_object(r, zone["name"]) for r in rows], page_size, cursor)


@tool()
def create_dns_record(
    db: Database,
    zone_id: str,
    type: RecordType,
    name: str,
    content: str,
    ttl: Ttl = 1,
    proxied: bool = False,
    priority: Priority | None = None,
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
    return record_object(store(db, zone, record, comment), zone["name"])


@tool()
def update_dns_record(
    db: Database,
    zone_id: str,
    dns_record_id: str,
    type: RecordType | None = None,
    name: str | None = None,
    content: str | None = None,
    ttl: Ttl | None = None,
    proxied: bool | None = None,
    priority: Priority | None = None,
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
    row = zone_record(db, zone_id, dns_record_id)
    edited = changed(row, type=type, name=name, content=content, ttl=ttl, proxied=proxied, priority=priority)
    record = check(edited, zone["name"])
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
    db.delete(dns_records, zone_record(db, zone_id, dns_record_id)["id"])
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
    added, total = import_file(db, zone_for(db, zone_id, "dns"), file, proxied)
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
            id=s["setting"], value=setting_value(s["setting"], s["value"]), editable=True, modified_on=s["modified_on"]
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
    value = check_setting(setting_id, value, current_settings(db, zone_id), zone["plan"])
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
    rows = db.find(page_rules, zone_id=zone_id, order_by=[page_rules.c.priority.desc()], **given(status=status))
    return [page_rule_object(r) for r in rows]


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
    check_room(zone, existing)
    target = check_target(url, zone["name"])
    check_unique_target(db, zone_id, target, None)
    stored = check_actions(actions)
    now = db.now_iso()
    rank = priority if priority is not None else max((r["priority"] for r in existing), default=0) + 1
    row = db.insert(
        page_rules,
        id=hex_id(db, page_rules),
        zone_id=zone_id,
        targets=page_rule_target(target),
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
    zone_page_rule(db, zone_id, pagerule_id)
    changes = page_rule_changes(db, zone, pagerule_id, url, actions, status, priority)
    return page_rule_object(db.update(page_rules, pagerule_id, modified_on=db.now_iso(), **changes))


@tool()
def delete_page_rule(db: Database, zone_id: str, pagerule_id: str) -> DeletedObject:
    """Delete a page rule (to make room for a new one on a plan's limit, or when it is no longer wanted).

    Args:
        zone_id: The zone's ID.
        pagerule_id: The page rule's ID.
    """
    zone_for(db, zone_id, "zone")
    db.delete(page_rules, zone_page_rule(db, zone_id, pagerule_id)["id"])
    return DeletedObject(id=pagerule_id)


# ---------------------------------------------------------------- cache


@tool()
def purge_cache(
    db: Database,
    zone_id: str,
    purge_everything: bool = False,
    files: PurgeFiles | None = None,
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
    check_purge(zone, purge_everything, files or [], tags or [], hosts or [])
    row = db.insert(
        cache_purges,
        id=hex_id(db, cache_purges),
        zone_id=zone_id,
        purge_everything=purge_everything,
        files=files or [],
        tags=tags or [],
        hosts=hosts or [],
        created_on=db.now_iso(),
    )
    return PurgeResult(id=row["id"])


# ---------------------------------------------------------------- DNSSEC


@tool(read_only=True)
def get_dnssec(db: Database, zone_id: str) -> DnssecObject:
    """Read a zone's DNSSEC status and the DS record to add at the registrar.

    Args:
        zone_id: The zone's ID.
    """
    zone = zone_for(db, zone_id, "read")
    return dnssec_object(zone["name"], db.get(dnssec, zone_id, "DNSSEC"), published_ds(db, zone["name"]))


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
    published = published_ds(db, zone["name"])
    current = effective_status(zone["name"], db.get(dnssec, zone_id, "DNSSEC"), published)
    changes = dnssec_change(db, zone, current, status)
    return dnssec_object(zone["name"], db.update(dnssec, zone_id, modified_on=db.now_iso(), **changes), published)


# ---------------------------------------------------------------- members


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
    rows = db.find(account_members, account_id=account_id, **given(status=status))
    return sorted((member_object(db, r) for r in rows), key=lambda m: m.user.email)


@tool()
def create_account_member(db: Database, account_id: str, email: Email, roles: Roles) -> MemberObject:
    """Invite someone to an account with roles: Administrator (everything), DNS (edit DNS records and DNSSEC) or
    Administrator Read Only (read everything, change nothing). The membership stays pending until the account's
    Super Administrator approves it.

    Args:
        account_id: The account's ID.
        email: The person's email address.
        roles: One or more roles.
    """
    require(db, account_id, "members")
    return member_object(db, invite(db, account_id, email, roles))


# ---------------------------------------------------------------- the domain owner (user only)


@tool(user_only=True)
def approve_member_invitation(db: Database, account_name: str, email: str) -> MemberObject:
    """(Account owner only, in the dashboard with two-factor authentication) Approve a pending member invitation.

    Args:
        account_name: The account's name as the dashboard shows it.
        email: The invited person's email address.
    """
    invitation = pending_invitation(db, account_name, email)
    return member_object(db, db.update(account_members, invitation["id"], status="accepted"))


@tool(user_only=True)
def update_registrar(
    db: Database,
    domain: str,
    name_servers: NameServers | None = None,
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
    row = registrar_record(db, domain.strip().lower().rstrip("."))
    if row is None:
        raise NotFound(f"{domain} is not registered in your registrar account")
    changes = registrar_changes(row, name_servers, txt_name, txt_content, ds_record, remove_ds_records)
    return RegistrarDomain(**db.update(registrar_domains, row["domain"], **changes))
