"""Instacart+: joining (a 14-day free trial the first time, else the plan's fee), turning renewal back on while a
canceled membership still has benefits, and canceling (benefits last until the period ends)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .rules import PLAN_FEES, TRIAL_DAYS, benefits_active, membership_of
from .schema import memberships


def cancel(db: Database, row: dict[str, Any] | None) -> dict[str, Any]:
    """Stop renewal of a membership that renews."""
    if row is None or not benefits_active(db, row) or not row["auto_renew"]:
        raise Conflict("You don't have an Instacart+ membership that renews.")
    return db.update(memberships, row["id"], status="canceled", auto_renew=False, updated_at=db.now_iso())


def join(db: Database, user: dict[str, Any], plan: str | None) -> dict[str, Any]:
    """Join Instacart+, or resume a canceled membership that still has benefits."""
    row = membership_of(db, user["id"])
    active = benefits_active(db, row)
    if row is not None and active and row["auto_renew"]:
        raise Conflict("You're already an Instacart+ member.")
    if row is not None and active:
        if plan is not None and plan != row["plan"]:
            raise InvalidRequest(
                f"Your {row['plan']} plan resumes as it was; change plans after {row['current_period_end']}."
            )
        status = "active" if row["fee_paid_cents"] else "trialing"
        return db.update(memberships, row["id"], status=status, auto_renew=True, updated_at=db.now_iso())
    if plan is None:
        raise InvalidRequest("Choose a plan to join Instacart+: monthly or annual.")
    trial = not (row and row["trial_used"])
    fee, days = (0, TRIAL_DAYS) if trial else PLAN_FEES[plan]
    values = {
        "plan": plan,
        "status": "trialing" if trial else "active",
        "auto_renew": True,
        "trial_used": True,
        "current_period_end": (db.now() + timedelta(days=days)).date().isoformat(),
        "fee_paid_cents": fee,
        "updated_at": db.now_iso(),
    }
    if row is None:
        return db.insert(memberships, id=db.new_id(memberships, "mbr_"), user_id=user["id"], **values)
    return db.update(memberships, row["id"], **values)
