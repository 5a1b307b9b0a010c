"""Friends and Steam Families: friend invites both ways, and family invites within the six-slot limit."""

from __future__ import annotations

from typing import Any, Literal

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied

from . import access
from .objects import STEAMID_BASE
from .rules import family_join_block, invite_block, require_adult, require_family_slot, stamp
from .schema import accounts, families, family_invites, family_slot_cooldowns, friend_invites, friends


def by_friend_code(db: Database, code: str) -> dict[str, Any]:
    """The account a friend code names."""
    found = db.find(accounts, steamid=str(int(code) + STEAMID_BASE))
    if not found:
        raise NotFound(f"No Steam account has friend code {code}.")
    return found[0]


def invite_friend(db: Database, user: dict[str, Any], code: str) -> dict[str, Any]:
    """Send a friend invite; returns the invited account."""
    refusal = invite_block(user)
    if refusal:
        raise PermissionDenied(refusal)
    other = by_friend_code(db, code)
    if other["steamid"] == user["steamid"]:
        raise Conflict("That is your own friend code.")
    if access.is_friend(db, user["steamid"], other["steamid"]):
        raise Conflict(f"{other['persona_name']} is already your friend.")
    if db.find(friend_invites, sender=user["steamid"], recipient=other["steamid"], status="pending"):
        raise Conflict(f"You already sent {other['persona_name']} a friend invite.")
    if db.find(friend_invites, sender=other["steamid"], recipient=user["steamid"], status="pending"):
        raise Conflict(f"{other['persona_name']} already sent you a friend invite; accept it instead.")
    db.insert(
        friend_invites,
        id=db.new_id(friend_invites, "inv_"),
        sender=user["steamid"],
        recipient=other["steamid"],
        sent_at=db.now_iso(),
        status="pending",
    )
    return other


def answer_invite(db: Database, user: dict[str, Any], steamid: str, action: Literal["accept", "ignore"]) -> None:
    """Accept or ignore a pending friend invite from `steamid`."""
    found = db.find(friend_invites, sender=steamid, recipient=user["steamid"], status="pending")
    if not found:
        raise NotFound(f"There is no pending friend invite from {steamid}.")
    db.update(friend_invites, found[0]["id"], status="accepted" if action == "accept" else "ignored")
    if action == "accept":
        now = db.now_iso()
        for one, other in ((user["steamid"], steamid), (steamid, user["steamid"])):
            db.insert(friends, id=f"{one}:{other}", steamid=one, friend=other, friend_since=now)


def family_of(db: Database, user: dict[str, Any]) -> dict[str, Any]:
    """The signed-in account's Steam Family."""
    if user["family_id"] is None:
        raise NotFound("You are not a member of a Steam Family.")
    return db.get(families, user["family_id"], "Family")


def slots_used(db: Database, family_id: str) -> int:
    """Members, pending invites and slots still in their one-year cooldown."""
    now = stamp(db.now())
    members = len(db.find(accounts, family_id=family_id))
    pending = len(db.find(family_invites, family_id=family_id, status="pending"))
    cooling = len(db.select(family_slot_cooldowns, "family_id = ? AND available_at > ?", (family_id, now)))
    return members + pending + cooling


def invite_to_family(db: Database, user: dict[str, Any], steamid: str, role: Literal["adult", "child"]) -> str:
    """Invite a friend to the user's family; returns the invite id."""
    family = family_of(db, user)
    require_adult(user)
    invitee = access.friend(db, user, steamid)
    if steamid == user["steamid"]:
        raise Conflict("You are already in this family.")
    if db.find(family_invites, family_id=family["family_id"], invitee=steamid, status="pending"):
        raise Conflict(f"{invitee['persona_name']} already has a pending invite to this family.")
    country = db.get(accounts, user["steamid"], "Account")["country"]
    refusal = family_join_block(invitee, country, db.now())
    if refusal:
        raise Conflict(refusal)
    require_family_slot(slots_used(db, family["family_id"]))
    invite_id = db.new_id(family_invites, "finv_")
    db.insert(
        family_invites,
        id=invite_id,
        family_id=family["family_id"],
        invitee=steamid,
        role=role,
        invited_by=user["steamid"],
        sent_at=db.now_iso(),
        status="pending",
    )
    return invite_id
