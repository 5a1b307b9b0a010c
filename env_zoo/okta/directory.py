"""The machinery the tools share: Okta-shaped ids, group memberships kept in step with group rules, effective app
assignments, and what removing or deactivating a user takes with it."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database

from .rules import rule_matches
from .schema import admin_roles, app_groups, app_users, factors, group_members, group_rules, users

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def okta_id(db: Database, table: Table, prefix: str) -> str:
    """A fresh, deterministic 20-character Okta id with the kind's prefix (00u, 00g, 0pr, ...)."""
    pk = list(table.primary_key.columns)[0].name
    while True:
        number = db.next_number(f"okta:{table.name}:{prefix}")
        digest = int(hashlib.sha256(f"{table.name}:{prefix}:{number}".encode()).hexdigest(), 16)
        tail = ""
        for _ in range(20 - len(prefix)):
            digest, index = divmod(digest, len(ALPHABET))
            tail += ALPHABET[index]
        candidate = prefix + tail
        if not db.select(table, f'"{pk}" = ?', (candidate,)):
            return candidate


def membership(db: Database, group_id: str, user_id: str) -> dict[str, Any] | None:
    """A user's membership row in a group, if any."""
    found = db.find(group_members, group_id=group_id, user_id=user_id)
    return found[0] if found else None


def remove_membership(db: Database, group_id: str, user_id: str) -> None:
    """Drop one membership row."""
    c = group_members.c
    db.conn.execute(group_members.delete().where(c.group_id == group_id, c.user_id == user_id))


def apply_rule(db: Database, rule: dict[str, Any]) -> int:
    """Assign every matching user to the rule's groups (existing memberships are left as they are); returns how many
    memberships were added."""
    added = 0
    for user in db.select(users, "status != ?", ("DEPROVISIONED",)):
        if rule_matches(rule, user):
            for group_id in rule["group_ids"]:
                if membership(db, group_id, user["id"]) is None:
                    db.insert(group_members, group_id=group_id, user_id=user["id"], rule_id=rule["id"])
                    added += 1
    return added


def reevaluate(db: Database, user: dict[str, Any]) -> None:
    """After a profile change: active rules that now match add the user to their groups; memberships a rule made
    whose condition no longer holds are removed."""
    for rule in db.find(group_rules, status="ACTIVE"):
        matches = rule_matches(rule, user)
        for group_id in rule["group_ids"]:
            current = membership(db, group_id, user["id"])
            if matches and current is None:
                db.insert(group_members, group_id=group_id, user_id=user["id"], rule_id=rule["id"])
            elif not matches and current is not None and current["rule_id"] == rule["id"]:
                remove_membership(db, group_id, user["id"])


def app_scope(db: Database, app_id: str, user_id: str, user_groups: set[str]) -> str | None:
    """USER when a user is assigned to an app directly, GROUP when only through one of their groups, else None."""
    if db.find(app_users, app_id=app_id, user_id=user_id):
        return "USER"
    if any(g["group_id"] in user_groups for g in db.find(app_groups, app_id=app_id)):
        return "GROUP"
    return None


def unassign_direct_apps(db: Database, user_id: str) -> None:
    """Deactivation deprovisions the user from the apps assigned to them directly."""
    db.conn.execute(app_users.delete().where(app_users.c.user_id == user_id))


def purge_user(db: Database, user_id: str) -> None:
    """Deleting a user removes everything that hangs off them."""
    for table in (group_members, app_users, factors, admin_roles):
        db.conn.execute(table.delete().where(table.c.user_id == user_id))
    db.delete(users, user_id)
