"""Gold Plus Rewards accounts: points postings and balances, transfers to the member's spouse or domestic
partner, and the member's contact details and driver's license on file."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import parse_date

from .objects import MemberProfile, member_profile
from .rules import age_on
from .schema import members, points_activity, vehicle_classes


def profile(db: Database, member: dict[str, Any]) -> MemberProfile:
    """The member's Gold Plus Rewards profile, with their age today."""
    return member_profile(db, member, age_on(member["date_of_birth"], db.now().date()))


def post_points(
    db: Database,
    member: dict[str, Any],
    points: int,
    kind: str,
    description: str,
    confirmation_number: str | None = None,
) -> dict[str, Any]:
    """Move a member's points balance by `points` (signed), record the posting and return the member."""
    db.insert(
        points_activity,
        activity_id=db.new_id(points_activity, "PA", 6),
        member_number=member["member_number"],
        activity_type=kind,
        points=points,
        confirmation_number=confirmation_number,
        description=description,
        posted_at=db.now_iso(),
    )
    return db.update(members, member["member_number"], points_balance=member["points_balance"] + points)


def require_points(member: dict[str, Any], needed: int) -> None:
    """The member holds at least `needed` points."""
    if needed > member["points_balance"]:
        raise Conflict(
            f"Not enough Gold Plus Rewards points: this needs {needed:,} and you have {member['points_balance']:,}."
        )


def partner_of(db: Database, member: dict[str, Any], recipient_member_number: str) -> dict[str, Any]:
    """The spouse or domestic partner on the member's profile, the only member points may go to."""
    recipient = db.get(members, recipient_member_number.strip(), "Member")
    if recipient["member_number"] != member["partner_member_number"]:
        raise PermissionDenied("Points can only be transferred to the spouse or domestic partner on your profile.")
    return recipient


def transfer(db: Database, member: dict[str, Any], recipient: dict[str, Any], points: int) -> dict[str, Any]:
    """Move `points` from the member to their partner, posted on both accounts; the sender as it is after."""
    require_points(member, points)
    name = f"{recipient['first_name']} {recipient['last_name']}"
    sender = post_points(db, member, -points, "transfer_out", f"Points transferred to {name}")
    post_points(
        db, recipient, points, "transfer_in", f"Points transferred from {member['first_name']} {member['last_name']}"
    )
    return sender


def us_phone(value: str) -> str:
    """A US phone number (its type checks the digits) as 415-555-0134."""
    digits = re.sub(r"\D", "", value)[-10:]
    return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"


def free_email(db: Database, member: dict[str, Any], email: str) -> str:
    """An email address no other member uses, lower-cased."""
    clean = email.strip().lower()
    taken = db.find(members, email=clean)
    if taken and taken[0]["member_number"] != member["member_number"]:
        raise Conflict("That email is already used by another Gold Plus Rewards account.")
    return clean


def future_expiration(db: Database, license_expiration: str) -> str:
    """A license expiry date still ahead; an expired license can't be put on file."""
    if parse_date(license_expiration, "license_expiration") <= db.now().date():
        raise InvalidRequest("license_expiration must be in the future; an expired license can't be used.")
    return license_expiration


def profile_changes(
    db: Database,
    member: dict[str, Any],
    email: str | None,
    phone: str | None,
    license_number: str | None,
    license_state: str | None,
    license_expiration: str | None,
    preferred_sipp_code: str | None,
) -> dict[str, Any]:
    """The member columns a profile update sets, each normalized the way Hertz stores it."""
    changes: dict[str, Any] = {}
    if email is not None:
        changes["email"] = free_email(db, member, email)
    if phone is not None:
        changes["phone"] = us_phone(phone)
    if license_number is not None:
        changes["license_number"] = license_number.replace(" ", "").upper()
    if license_state is not None:
        changes["license_state"] = license_state.strip().upper()
    if license_expiration is not None:
        changes["license_expiration"] = future_expiration(db, license_expiration)
    if preferred_sipp_code is not None:
        vehicle = db.get(vehicle_classes, preferred_sipp_code.strip().upper(), "Vehicle class")
        changes["preferred_sipp_code"] = vehicle["sipp_code"]
    if not changes:
        raise InvalidRequest("Nothing to update.")
    return changes
