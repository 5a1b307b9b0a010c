"""Who the API token belongs to, what each account role allows, and the zones it can reach."""

from __future__ import annotations

from typing import Any, Literal

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied

from .objects import AccountRef, ZoneObject
from .records import error, hex_id
from .schema import account_members, accounts, session, users, zones

SUPER = "Super Administrator - All Privileges"
# what each role may do: read everything, edit DNS (records, import, DNSSEC), edit the zone (settings, page rules,
# activation), purge the cache, manage members
ROLES: dict[str, set[str]] = {
    SUPER: {"read", "dns", "zone", "purge", "members"},
    "Administrator": {"read", "dns", "zone", "purge", "members"},
    "DNS": {"read", "dns"},
    "Administrator Read Only": {"read"},
}
GRANTS = {
    "read": ["#zone:read", "#dns_records:read", "#zone_settings:read", "#member:read"],
    "dns": ["#dns_records:edit"],
    "zone": ["#zone:edit", "#zone_settings:edit"],
    "purge": ["#cache_purge:edit"],
    "members": ["#member:edit"],
}
Need = Literal["read", "dns", "zone", "purge", "members"]
ACTIONS = {
    "dns": "edit DNS records",
    "zone": "edit zone settings",
    "purge": "purge the cache",
    "members": "manage members",
    "read": "read",
}


def me(db: Database) -> str:
    """The id of the user whose API token is in use."""
    return db.current_session(session, error(10000, "Authentication error: no API token is configured."))["user_id"]


def membership(db: Database, account_id: str) -> dict[str, Any] | None:
    """Your accepted membership of an account, if any."""
    found = db.find(account_members, account_id=account_id, user_id=me(db), status="accepted")
    return found[0] if found else None


def allowed(db: Database, account_id: str) -> set[str]:
    """What your roles on an account allow."""
    member = membership(db, account_id)
    return set().union(*(ROLES[r] for r in member["roles"])) if member else set()


def require(db: Database, account_id: str, need: Need) -> None:
    """Raise Cloudflare's authentication error when your roles on the account don't allow `need`."""
    if need in allowed(db, account_id):
        return
    account = db.get(accounts, account_id, "Account")
    member = membership(db, account_id)
    roles = ", ".join(member["roles"]) if member else "no role"
    raise PermissionDenied(
        f"Authentication error (code 10000): your role ({roles}) on the account "
        f"'{account['name']}' can't {ACTIONS[need]}."
    )


def zone_for(db: Database, zone_id: str, need: Need) -> dict[str, Any]:
    """A zone your token can reach, checked for the permission the operation needs."""
    zone = db.get(zones, zone_id, "Zone")
    if membership(db, zone["account_id"]) is None:
        raise PermissionDenied(f"Authentication error (code 10000): your token has no access to zone {zone_id}.")
    require(db, zone["account_id"], need)
    return zone


def zone_object(db: Database, zone: dict[str, Any]) -> ZoneObject:
    """A zone row as the API returns it, with your permissions on it."""
    account = db.get(accounts, zone["account_id"], "Account")
    grants = [
        p
        for need in ("read", "dns", "zone", "purge", "members")
        if need in allowed(db, zone["account_id"])
        for p in GRANTS[need]
    ]
    return ZoneObject(
        **{k: zone[k] for k in ZoneObject.model_fields if k in zone},
        account=AccountRef(id=account["id"], name=account["name"]),
        permissions=grants,
    )


def invite(db: Database, account_id: str, email: str, roles: list[str]) -> dict[str, Any]:
    """A pending membership for `email` (a new user if Cloudflare doesn't know the address yet)."""
    address = email.strip().lower()
    found = db.find(users, email=address)
    person = (
        found[0]
        if found
        else db.insert(
            users,
            id=hex_id(db, users),
            email=address,
            first_name=None,
            last_name=None,
            two_factor_authentication_enabled=False,
        )
    )
    if db.find(account_members, account_id=account_id, user_id=person["id"]):
        raise Conflict(error(1001, f"{address} is already a member of this account."))
    return db.insert(
        account_members,
        id=hex_id(db, account_members),
        account_id=account_id,
        user_id=person["id"],
        roles=list(dict.fromkeys(roles)),
        status="pending",
        invited_on=db.now_iso(),
    )


def pending_invitation(db: Database, account_name: str, email: str) -> dict[str, Any]:
    """The invitation the account's Super Administrator (and only they) may approve."""
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
    return rows[0]
