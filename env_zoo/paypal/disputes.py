"""The Disputes API: listing disputes, providing evidence, accepting a claim (the buyer is refunded) and
escalating an inquiry to a claim."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from . import checkout
from .errors import unprocessable
from .rules import fetch
from .schema import captures, disputes, refunds

#: Statuses in which the seller may still act.
SELLER_CAN_ACT = ("OPEN", "WAITING_FOR_SELLER_RESPONSE")


def find_disputes(db: Database, status: str | None, capture_id: str | None, start: str | None) -> list[dict[str, Any]]:
    """Disputes matching the filters, newest first."""
    where, params = ["1 = 1"], []
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if capture_id is not None:
        where.append("capture_id = ?")
        params.append(capture_id)
    if start is not None:
        where.append("create_time >= ?")
        params.append(start)
    return db.select(disputes, " AND ".join(where), params, order_by="create_time DESC, dispute_id")


def _actionable(db: Database, dispute_id: str, action: str) -> dict[str, Any]:
    dispute = fetch(db, disputes, dispute_id, "dispute", "dispute_id")
    if dispute["status"] not in SELLER_CAN_ACT:
        raise unprocessable(
            "CANNOT_" + action.upper().replace(" ", "_"),
            f"Dispute `{dispute_id}` is {dispute['status']}: the seller cannot {action} now.",
            "dispute_id",
        )
    return dispute


def provide_evidence(db: Database, dispute_id: str, evidence: Any) -> dict[str, Any]:
    """Add the seller's evidence to a dispute awaiting them: it goes UNDER_REVIEW. Proof of refund must name a
    refund of the disputed capture."""
    dispute = _actionable(db, dispute_id, "provide evidence")
    entry: dict[str, Any] = {"evidence_type": evidence.evidence_type, "notes": evidence.notes}
    if evidence.evidence_type == "PROOF_OF_FULFILLMENT":
        if evidence.tracking_info is None:
            raise unprocessable(
                "MISSING_TRACKING_INFO",
                "Proof of fulfillment needs the carrier and tracking number.",
                "evidence.tracking_info",
            )
        entry["tracking_info"] = evidence.tracking_info.model_dump()
    if evidence.evidence_type == "PROOF_OF_REFUND":
        refund = db.find(refunds, id=evidence.refund_id or "")
        if not refund or refund[0]["capture_id"] != dispute["capture_id"]:
            raise unprocessable(
                "INVALID_REFUND_ID",
                "Proof of refund must name a refund of the disputed transaction.",
                "evidence.refund_id",
            )
        entry["refund_id"] = evidence.refund_id
    return db.update(
        disputes,
        dispute_id,
        evidences=[*dispute["evidences"], entry],
        status="UNDER_REVIEW",
        update_time=db.now_iso(),
    )


def accept_claim(db: Database, dispute_id: str, note: str | None) -> dict[str, Any]:
    """The seller accepts liability: the buyer is refunded the dispute amount and the dispute is RESOLVED in the
    buyer's favour."""
    dispute = _actionable(db, dispute_id, "accept the claim")
    capture_left = db.get(captures, dispute["capture_id"])["amount"] - checkout.refunded_of(db, dispute["capture_id"])
    if capture_left > 0:
        checkout.refund(db, dispute["capture_id"], min(dispute["amount"], capture_left), note, dispute_id=dispute_id)
    return db.update(disputes, dispute_id, status="RESOLVED", outcome="RESOLVED_BUYER_FAVOUR", update_time=db.now_iso())


def escalate(db: Database, dispute_id: str) -> dict[str, Any]:
    """Escalate an inquiry the seller and buyer could not settle to a claim PayPal decides: stage CHARGEBACK,
    UNDER_REVIEW."""
    dispute = _actionable(db, dispute_id, "escalate")
    if dispute["stage"] != "INQUIRY":
        raise unprocessable(
            "DISPUTE_ALREADY_ESCALATED",
            f"Dispute `{dispute_id}` is already a claim ({dispute['stage']}).",
            "dispute_id",
        )
    return db.update(disputes, dispute_id, stage="CHARGEBACK", status="UNDER_REVIEW", update_time=db.now_iso())
