"""Cloudflare's DNS record rules: names, content per type, TTL, proxying, CNAME exclusivity, duplicates, and
the BIND zone-file format used by import and export. Errors carry Cloudflare's numeric codes."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .schema import dns_records

TYPES = ("A", "AAAA", "CNAME", "MX", "TXT", "SRV", "CAA")
PROXIABLE = ("A", "AAAA", "CNAME")
HOSTNAME = re.compile(
    r"^(?=.{1,253}$)(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$"
)
TARGET = re.compile(r"^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z]{2,63}$")
SRV_NAME = re.compile(r"^_[a-z0-9-]+\._(tcp|udp|tls)\.")
CAA_CONTENT = re.compile(r'^(\d{1,3}) (issue|issuewild|iodef) "([^"]*)"$')
SRV_CONTENT = re.compile(r"^(\d{1,5}) (\d{1,5}) (\S+)$")


def hex_id(db: Database, table: Any) -> str:
    """A new 32-character hex id, as Cloudflare's ids look."""
    return db.new_uuid(table).replace("-", "")


def error(code: int, message: str) -> str:
    """A message as Cloudflare's errors array shows it."""
    return f"{message} (code {code})"


def qualify(name: str, zone_name: str) -> str:
    """A record name as Cloudflare stores it: lower case, fully qualified, '@' meaning the zone apex."""
    clean = name.strip().lower().rstrip(".")
    if clean in ("", "@"):
        return zone_name
    if clean == zone_name or clean.endswith("." + zone_name):
        return clean
    return f"{clean}.{zone_name}"


def _hostname(value: str) -> str:
    return value.strip().lower().rstrip(".")


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


@dataclass
class Record:
    """A record about to be stored, validated by `check`."""

    type: str
    name: str
    content: str
    ttl: int
    proxied: bool
    priority: int | None


def check(record: Record, zone_name: str) -> Record:
    """Validate and normalize one record against Cloudflare's rules for its type."""
    kind = record.type.upper()
    if kind not in TYPES:
        raise InvalidRequest(error(1004, f"DNS Validation Error: type must be one of {', '.join(TYPES)}"))
    name = qualify(record.name, zone_name)
    if not HOSTNAME.match(name) or any(len(label) > 63 for label in name.split(".")):
        raise InvalidRequest(error(9000, f"DNS name is invalid: {name}"))
    if record.ttl != 1 and not 60 <= record.ttl <= 86400:
        raise InvalidRequest(error(9021, "Invalid TTL. Must be between 60 and 86400 seconds, or 1 for automatic."))
    if record.proxied and kind not in PROXIABLE:
        raise InvalidRequest(error(9004, "This record type cannot be proxied."))
    content = record.content.strip()
    priority = record.priority
    if kind == "A":
        try:
            ipaddress.IPv4Address(content)
        except ValueError:
            raise InvalidRequest(error(9005, "Content for A record must be a valid IPv4 address.")) from None
    elif kind == "AAAA":
        try:
            content = str(ipaddress.IPv6Address(content))
        except ValueError:
            raise InvalidRequest(error(9006, "Content for AAAA record must be a valid IPv6 address.")) from None
    elif kind in ("CNAME", "MX"):
        content = _hostname(content)
        if _is_ip(content) or not TARGET.match(content):
            raise InvalidRequest(
                error(
                    9007 if kind == "CNAME" else 9100,
                    f"Content for {kind} record must be a hostname, not an IP address.",
                )
            )
        if kind == "CNAME" and content == name:
            raise InvalidRequest(error(9007, "A CNAME record can't point to itself."))
    elif kind == "TXT":
        if not content or len(content) > 2048:
            raise InvalidRequest(error(9009, "Content for TXT record must be 1 to 2048 characters."))
    elif kind == "SRV":
        match = SRV_CONTENT.match(content)
        if not SRV_NAME.match(name):
            raise InvalidRequest(error(9101, "SRV record names look like _service._proto.name (e.g. _sip._tls)."))
        if not match or int(match.group(1)) > 65535 or int(match.group(2)) > 65535:
            raise InvalidRequest(error(9102, "Content for SRV record must be 'weight port target'."))
        content = f"{match.group(1)} {match.group(2)} {_hostname(match.group(3))}"
    elif kind == "CAA":
        match = CAA_CONTENT.match(content)
        if not match or int(match.group(1)) > 255:
            raise InvalidRequest(
                error(9103, "Content for CAA record must be 'flags tag \"value\"', tag one of issue, issuewild, iodef.")
            )
    if kind in ("MX", "SRV"):
        if priority is None:
            raise InvalidRequest(error(9104, f"A priority is required for {kind} records."))
        if not 0 <= priority <= 65535:
            raise InvalidRequest(error(9104, "priority must be between 0 and 65535."))
    else:
        priority = None
    return Record(kind, name, content, 1 if record.proxied else record.ttl, record.proxied, priority)


def check_conflicts(record: Record, existing: list[dict[str, Any]], own_id: str | None = None) -> None:
    """CNAME exclusivity and identical duplicates, against the zone's other records."""
    same_name = [r for r in existing if r["name"] == record.name and r["id"] != own_id]
    for other in same_name:
        if other["type"] == record.type and other["content"] == record.content:
            raise Conflict(error(81057, "Identical record already exists."))
    if record.type == "CNAME" and same_name:
        if any(r["type"] in PROXIABLE for r in same_name):
            raise Conflict(error(81053, "An A, AAAA, or CNAME record with that host already exists."))
        raise Conflict(error(81054, f"A CNAME record can't share its name with other records ({record.name})."))
    if any(r["type"] == "CNAME" for r in same_name):
        code = 81053 if record.type in PROXIABLE else 81054
        raise Conflict(error(code, f"A CNAME record with that host already exists ({record.name})."))


def zone_record(db: Database, zone_id: str, dns_record_id: str) -> dict[str, Any]:
    """A DNS record of this zone."""
    row = db.get(dns_records, dns_record_id, "DNS record")
    if row["zone_id"] != zone_id:
        raise NotFound(error(81044, "Record does not exist."))
    return row


def changed(row: dict[str, Any], **changes: Any) -> Record:
    """A stored record with the given fields (those not None) replaced, to be checked again."""
    fields = {k: row[k] for k in ("type", "name", "content", "ttl", "proxied", "priority")}
    return Record(**{**fields, **{k: v for k, v in changes.items() if v is not None}})


def store(db: Database, zone: dict[str, Any], record: Record, comment: str | None) -> dict[str, Any]:
    """Insert a checked record into the zone."""
    now = db.now_iso()
    return db.insert(
        dns_records,
        id=hex_id(db, dns_records),
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


def import_file(db: Database, zone: dict[str, Any], file: str, proxied: bool) -> tuple[int, int]:
    """Import a BIND file's records (skipping identical ones); (added, parsed). Errors name the line."""
    parsed, total = parse_bind(file, zone["name"], proxied)
    added = 0
    for number, raw in parsed:
        try:
            record = check(raw, zone["name"])
        except InvalidRequest as exc:
            raise InvalidRequest(f"Line {number}: {exc}") from None
        existing = db.find(dns_records, zone_id=zone["id"])
        if any((r["type"], r["name"], r["content"]) == (record.type, record.name, record.content) for r in existing):
            continue  # already there
        try:
            check_conflicts(record, existing)
        except Conflict as exc:
            raise Conflict(f"Line {number}: {exc}") from None
        store(db, zone, record, None)
        added += 1
    return added, total


def structured_data(kind: str, content: str, priority: int | None) -> dict[str, Any] | None:
    """The `data` object Cloudflare returns for SRV and CAA records."""
    if kind == "SRV":
        weight, port, target = content.split(" ")
        return {"priority": priority, "weight": int(weight), "port": int(port), "target": target}
    if kind == "CAA":
        match = CAA_CONTENT.match(content)
        assert match is not None
        return {"flags": int(match.group(1)), "tag": match.group(2), "value": match.group(3)}
    return None


# ---------------------------------------------------------------- BIND zone files


def to_bind(zone_name: str, records: list[dict[str, Any]], exported_at: str) -> str:
    """A BIND zone file the way Cloudflare exports one, proxied records tagged cf-proxied."""
    lines = [
        f";; Domain:     {zone_name}.",
        f";; Exported:   {exported_at}",
        ";;",
        ";; This file is intended for use for informational and archival purposes ONLY.",
        "",
    ]
    for kind in TYPES:
        chosen = [r for r in records if r["type"] == kind]
        if not chosen:
            continue
        lines.append(f";; {kind} Records")
        for r in sorted(chosen, key=lambda r: (r["name"], r["content"])):
            value = r["content"]
            if kind in ("MX", "SRV"):
                value = f"{r['priority']} {value}"
            elif kind == "TXT":
                value = '"' + value.replace('"', '\\"') + '"'
            tail = f" ; cf_tags=cf-proxied:{'true' if r['proxied'] else 'false'}" if kind in PROXIABLE else ""
            lines.append(f"{r['name']}.\t{r['ttl']}\tIN\t{kind}\t{value}{tail}")
        lines.append("")
    return "\n".join(lines)


def _split(line: str) -> tuple[list[str], str]:
    """Tokens of a zone-file line (quoted strings kept whole) and its trailing comment."""
    tokens, comment, i = [], "", 0
    while i < len(line):
        ch = line[i]
        if ch == ";":
            comment = line[i + 1 :].strip()
            break
        if ch.isspace():
            i += 1
            continue
        if ch == '"':
            j, buf = i + 1, []
            while j < len(line) and line[j] != '"':
                if line[j] == "\\" and j + 1 < len(line):
                    j += 1
                buf.append(line[j])
                j += 1
            tokens.append('"' + "".join(buf) + '"')
            i = j + 1
            continue
        j = i
        while j < len(line) and not line[j].isspace() and line[j] != ";":
            j += 1
        tokens.append(line[i:j])
        i = j
    return tokens, comment


def parse_bind(text: str, zone_name: str, proxied_default: bool) -> tuple[list[tuple[int, Record]], int]:
    """(line number, record) for every importable record, and how many records were parsed in all
    (SOA and apex NS records are parsed but not imported, as Cloudflare does)."""
    origin, default_ttl, last_name = zone_name, 1, zone_name
    found: list[tuple[int, Record]] = []
    parsed = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens, comment = _split(raw)
        if not tokens:
            continue
        if tokens[0].upper() == "$ORIGIN":
            origin = tokens[1].lower().rstrip(".")
            continue
        if tokens[0].upper() == "$TTL":
            default_ttl = int(tokens[1])
            continue
        if raw[0].isspace():
            name = last_name
        else:
            name = tokens.pop(0)
            name = origin if name == "@" else (name.rstrip(".") if name.endswith(".") else f"{name}.{origin}")
            last_name = name
        ttl = default_ttl
        if tokens and tokens[0].isdigit():
            ttl = int(tokens.pop(0))
        if tokens and tokens[0].upper() == "IN":
            tokens.pop(0)
        if len(tokens) < 2:
            raise InvalidRequest(error(1004, f"DNS Validation Error on line {number}: could not parse '{raw.strip()}'"))
        kind, values = tokens[0].upper(), tokens[1:]
        parsed += 1
        if kind == "SOA" or (kind == "NS" and name.lower().rstrip(".") == zone_name):
            continue
        if kind not in TYPES:
            raise InvalidRequest(error(1004, f"DNS Validation Error on line {number}: unsupported type {kind}"))
        priority = None
        if kind in ("MX", "SRV"):
            if not values[0].isdigit():
                raise InvalidRequest(error(9104, f"Line {number}: {kind} records need a priority"))
            priority = int(values.pop(0))
        if kind == "TXT":
            content = "".join(v.strip('"') for v in values)
        elif kind == "CAA" and len(values) == 3:
            content = f'{values[0]} {values[1]} "{values[2].strip(chr(34))}"'
        else:
            content = " ".join(values)
        proxied = proxied_default and kind in PROXIABLE
        if "cf-proxied:true" in comment:
            proxied = True
        elif "cf-proxied:false" in comment:
            proxied = False
        found.append((number, Record(kind, name, content, ttl, proxied, priority)))
    return found, parsed
