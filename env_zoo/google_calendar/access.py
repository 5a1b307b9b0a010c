"""Whose Google account the app acts for (the OAuth grant) and what each calendar's sharing rules (ACL) let them
do: freeBusyReader < reader < writer < owner."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import acl_rules, calendars, oauth_grants

ROLE_RANK = {"none": 0, "freeBusyReader": 1, "reader": 2, "writer": 3, "owner": 4}
UNAUTHORIZED = (
    "unauthorized: No Google account has granted this app access to Google Calendar. Ask the user to grant access."
)
READ_ONLY_GRANT = (
    "insufficientPermissions: Request had insufficient authentication scopes. The app only has "
    "read-only access; ask the user to grant full Google Calendar access."
)


def me(db: Database) -> str:
    """The account that granted the app access."""
    return db.current_session(oauth_grants, UNAUTHORIZED)["email"]


def writer(db: Database) -> str:
    """The account, when its grant includes write access (scope "calendar", not "calendar.readonly")."""
    grant = db.current_session(oauth_grants, UNAUTHORIZED)
    if grant["scope"] != "calendar":
        raise PermissionDenied(READ_ONLY_GRANT)
    return grant["email"]


def best_role(rules: list[dict[str, Any]], email: str) -> str:
    """The best role any of a calendar's rules gives `email` (the public, the person or group, their domain)."""
    domain = email.rpartition("@")[2]
    best = "none"
    for rule in rules:
        applies = (
            rule["scope_type"] == "default"
            or (rule["scope_type"] in ("user", "group") and rule["scope_value"] == email)
            or (rule["scope_type"] == "domain" and rule["scope_value"] == domain)
        )
        if applies and ROLE_RANK[rule["role"]] > ROLE_RANK[best]:
            best = rule["role"]
    return best


def role(db: Database, calendar_id: str, email: str) -> str:
    """`email`'s access role on a calendar ("none" without any)."""
    return best_role(db.find(acl_rules, calendar_id=calendar_id), email)


def roles(db: Database, calendar_ids: list[str], email: str) -> dict[str, str]:
    """`email`'s access role on each of several calendars."""
    return {cid: role(db, cid, email) for cid in calendar_ids}


def calendar(db: Database, calendar_id: str, account: str, need: str = "freeBusyReader") -> dict[str, Any]:
    """A calendar `account` reaches with at least the `need` role ("primary" is the account's own), with the
    account's role under "role". A calendar they cannot see at all is not found."""
    cid = account if calendar_id == "primary" else calendar_id
    found = db.find(calendars, id=cid)
    have = role(db, cid, account) if found else "none"
    if have == "none":
        raise NotFound(f"notFound: Calendar not found: {calendar_id}")
    if ROLE_RANK[have] < ROLE_RANK[need]:
        raise PermissionDenied(
            f"requiredAccessLevel: You need to have {need} access to this calendar (you have {have})."
        )
    return {**found[0], "role": have}


def at_least(have: str, need: str) -> bool:
    """Whether role `have` includes role `need`."""
    return ROLE_RANK[have] >= ROLE_RANK[need]


def sees_details(cal: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether a calendar's viewer sees a private or confidential event's details: writers and owners of the
    calendar do, and so does a calendar invited to it; others see only that the time is busy."""
    if row["visibility"] not in ("private", "confidential") or at_least(cal["role"], "writer"):
        return True
    return any(a["email"] == cal["id"] for a in row["attendees"])
