"""The lifecycle state machine of an Okta user and the group-rule expressions that place users into groups."""

from __future__ import annotations

import re
from typing import Any

#: operation -> (the statuses it may start from, the status it leads to; None: decided by the operation)
LIFECYCLE: dict[str, tuple[frozenset[str], str | None]] = {
    "activate": (frozenset({"STAGED", "DEPROVISIONED"}), None),
    "deactivate": (
        frozenset({"STAGED", "PROVISIONED", "ACTIVE", "RECOVERY", "PASSWORD_EXPIRED", "LOCKED_OUT", "SUSPENDED"}),
        "DEPROVISIONED",
    ),
    "suspend": (frozenset({"ACTIVE"}), "SUSPENDED"),
    "unsuspend": (frozenset({"SUSPENDED"}), "ACTIVE"),
    "unlock": (frozenset({"LOCKED_OUT"}), "ACTIVE"),
    "reset_password": (frozenset({"ACTIVE", "RECOVERY", "PASSWORD_EXPIRED", "LOCKED_OUT"}), "RECOVERY"),
    "expire_password": (frozenset({"ACTIVE", "RECOVERY", "PASSWORD_EXPIRED"}), "PASSWORD_EXPIRED"),
    "reset_factors": (
        frozenset({"PROVISIONED", "ACTIVE", "RECOVERY", "PASSWORD_EXPIRED", "LOCKED_OUT", "SUSPENDED"}),
        None,
    ),
}

#: statuses in which a user can sign in and so enroll MFA factors
CAN_ENROLL = frozenset({"ACTIVE", "RECOVERY", "PASSWORD_EXPIRED", "PROVISIONED"})

#: the profile attributes a group rule may test
RULE_ATTRIBUTES = {"department": "department", "title": "title"}
RULE_PATTERN = re.compile(r'^\s*user\.(department|title)\s*==\s*"([^"]+)"\s*$')

#: admin roles that may be limited to groups
SCOPED_ROLES = frozenset({"USER_ADMIN", "HELP_DESK_ADMIN", "GROUP_MEMBERSHIP_ADMIN"})

#: the ids of a factor type's enrollments
FACTOR_PREFIX = {"sms": "mbl", "push": "opf", "token:software:totp": "ost"}


def parse_rule(expression: str) -> tuple[str, str] | None:
    """The (attribute, value) a group rule's expression tests, or None when it is not one we understand."""
    match = RULE_PATTERN.match(expression)
    return (match.group(1), match.group(2)) if match else None


def rule_matches(rule: dict[str, Any], user: dict[str, Any]) -> bool:
    """Whether a group rule's condition holds for a user (deprovisioned users are never assigned)."""
    parsed = parse_rule(rule["expression"])
    if parsed is None or user["status"] == "DEPROVISIONED":
        return False
    attribute, value = parsed
    return user[RULE_ATTRIBUTES[attribute]] == value
