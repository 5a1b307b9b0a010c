"""Vercel's rules that are not about roles: which deployments can be canceled, promoted or rolled back to,
how domains split into apex names, the TXT verification challenge, DNS record values and environment variable
targets."""

from __future__ import annotations

import hashlib
import ipaddress
from typing import Any

from .errors import bad_request

CANCELABLE = ("QUEUED", "BUILDING")
BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def opaque(seed: str, length: int) -> str:
    """A deterministic base62 id of `length` characters derived from `seed`."""
    number = int(hashlib.sha256(seed.encode()).hexdigest(), 16)
    out = []
    for _ in range(length):
        number, digit = divmod(number, 62)
        out.append(BASE62[digit])
    return "".join(out)


def apex(name: str) -> str:
    """The apex (registrable) domain of a hostname: its last two labels."""
    return ".".join(name.split(".")[-2:])


def verification_value(project_id: str, name: str) -> str:
    """The TXT value Vercel asks for at `_vercel.<apex>` to prove a domain may be used by this project."""
    return f"vc-domain-verify={name},{hashlib.sha256((project_id + name).encode()).hexdigest()[:20]}"


def check_record_value(kind: str, value: str, mx_priority: int | None) -> None:
    """400 unless the value fits the record type (IPv4 for A, IPv6 for AAAA, a hostname for CNAME and MX)."""
    if kind in ("A", "AAAA"):
        try:
            address = ipaddress.ip_address(value)
        except ValueError:
            address = None
        if address is None or (kind == "A") != (address.version == 4):
            raise bad_request(
                "invalid_value",
                f"Invalid value for {kind} record: {value!r} is not an IPv{4 if kind == 'A' else 6} address",
            )
    if kind in ("CNAME", "MX") and ("." not in value or " " in value):
        raise bad_request("invalid_value", f"Invalid value for {kind} record: {value!r} is not a hostname")
    if kind == "MX" and mx_priority is None:
        raise bad_request("missing_mx_priority", "MX records need mxPriority")
    if kind != "MX" and mx_priority is not None:
        raise bad_request("invalid_mx_priority", "mxPriority is only allowed for MX records")


def check_targets(kind: str, targets: list[str], git_branch: str | None) -> None:
    """400 for a sensitive development variable or a branch on a variable not scoped to preview alone."""
    if kind == "sensitive" and "development" in targets:
        raise bad_request(
            "invalid_target", "Sensitive environment variables cannot be created in the Development environment"
        )
    if git_branch is not None and targets != ["preview"]:
        raise bad_request("invalid_git_branch", "gitBranch can only be set when the only target is preview")


def overlaps(row: dict[str, Any], key: str, targets: list[str], git_branch: str | None) -> bool:
    """Whether a stored variable already claims `key` for one of `targets` on the same branch."""
    return row["key"] == key and row["git_branch"] == git_branch and bool(set(row["target"]) & set(targets))
