"""Cloudflare API v4 objects as output (and nested input) models, and how stored rows become them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .records import PROXIABLE, structured_data
from .schema import users


class AccountRef(BaseModel):
    """The account a zone belongs to."""

    id: str
    name: str


class ZoneObject(BaseModel):
    """A zone (a domain on Cloudflare) and what your token may do with it."""

    id: str
    name: str
    status: str = Field(
        description="active, or pending until the domain's nameservers (or, for a partial "
        "setup, the verification TXT record) are in place"
    )
    type: str = Field(description="full (Cloudflare is authoritative) or partial (CNAME setup)")
    plan: str
    paused: bool
    account: AccountRef
    name_servers: list[str]
    original_name_servers: list[str]
    original_registrar: str | None
    verification_key: str | None = Field(
        description="partial setups: the value of the TXT record cloudflare-verify.<zone> that proves ownership"
    )
    permissions: list[str]
    created_on: str
    modified_on: str
    activated_on: str | None


class DnsRecordObject(BaseModel):
    """A DNS record."""

    id: str
    zone_id: str
    zone_name: str
    name: str
    type: str
    content: str
    proxiable: bool
    proxied: bool
    ttl: int = Field(description="seconds; 1 means automatic")
    priority: int | None
    data: dict[str, Any] | None = Field(description="SRV and CAA records: the content's parts")
    comment: str | None
    created_on: str
    modified_on: str


class DeletedObject(BaseModel):
    """What a delete returns."""

    id: str


class ImportResult(BaseModel):
    """What a BIND import did."""

    recs_added: int
    total_records_parsed: int


class BindExport(BaseModel):
    """A zone's records as a BIND zone file."""

    zone_name: str
    file: str


class ZoneSettingObject(BaseModel):
    """One zone setting."""

    id: str
    value: str | int
    editable: bool
    modified_on: str | None


class ForwardingUrl(BaseModel):
    """Where a forwarding_url page rule redirects."""

    url: str = Field(description="the destination; $1, $2... insert what the URL pattern's wildcards matched")
    status_code: Literal[301, 302]


class PageRuleAction(BaseModel):
    """A setting a page rule applies."""

    id: Literal["forwarding_url", "always_use_https", "cache_level", "ssl", "browser_cache_ttl", "edge_cache_ttl"]
    value: ForwardingUrl | str | int | None = Field(
        default=None,
        description="forwarding_url: {url, status_code}; cache_level: bypass, basic, simplified, "
        "aggressive or cache_everything; ssl: off, flexible, full or strict; TTLs: seconds; always_use_https: none",
    )


class PageRuleTarget(BaseModel):
    """The URL pattern a page rule matches."""

    target: str
    constraint: dict[str, str]


class PageRuleObject(BaseModel):
    """A page rule."""

    id: str
    targets: list[PageRuleTarget]
    actions: list[PageRuleAction]
    priority: int = Field(description="higher numbers win when several rules match")
    status: str = Field(description="active or disabled")
    created_on: str
    modified_on: str


class PurgeResult(BaseModel):
    """The accepted purge request."""

    id: str


class DnssecObject(BaseModel):
    """A zone's DNSSEC state and the DS record to publish at the registrar."""

    status: str = Field(
        description="disabled, pending (waiting for the DS record at the registrar), active, or "
        "pending-disabled (waiting for the DS record to be removed)"
    )
    flags: int | None
    algorithm: str | None
    key_type: str | None
    digest_type: str | None
    digest_algorithm: str | None
    digest: str | None
    ds: str | None
    key_tag: int | None
    public_key: str | None
    modified_on: str | None


class MemberUser(BaseModel):
    """The person behind a membership."""

    id: str
    email: str
    first_name: str | None
    last_name: str | None
    two_factor_authentication_enabled: bool


class MemberObject(BaseModel):
    """A member of an account and their roles."""

    id: str
    user: MemberUser
    roles: list[str]
    status: str = Field(description="accepted, or pending until the account's Super Administrator approves")


class TxtRecord(BaseModel):
    """A TXT record at the registrar's DNS."""

    name: str
    content: str


class RegistrarDomain(BaseModel):
    """A domain as its registrar holds it."""

    domain: str
    registrar: str
    name_servers: list[str]
    txt_records: list[TxtRecord]
    ds_records: list[str]


def record_object(row: dict[str, Any], zone_name: str) -> DnsRecordObject:
    """A stored record with its derived fields."""
    return DnsRecordObject(
        **{
            k: row[k]
            for k in (
                "id",
                "zone_id",
                "name",
                "type",
                "content",
                "proxied",
                "ttl",
                "priority",
                "comment",
                "created_on",
                "modified_on",
            )
        },
        zone_name=zone_name,
        proxiable=row["type"] in PROXIABLE,
        data=structured_data(row["type"], row["content"], row["priority"]),
    )


def page_rule_object(row: dict[str, Any]) -> PageRuleObject:
    """A stored page rule."""
    return PageRuleObject(**row)


def member_object(db: Database, row: dict[str, Any]) -> MemberObject:
    """A stored membership with the person behind it."""
    return MemberObject(
        id=row["id"], user=MemberUser(**db.get(users, row["user_id"], "User")), roles=row["roles"], status=row["status"]
    )
