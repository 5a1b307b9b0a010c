"""DocuSign's envelope and recipient state machines: which statuses allow which actions, and how routing order
decides who is active."""

from __future__ import annotations

from typing import Any

#: envelopes that are out for signature
IN_PROCESS = frozenset({"sent", "delivered"})
#: envelopes whose recipients, tabs and notification settings may still change
EDITABLE = frozenset({"created", "sent", "delivered"})
#: recipient statuses that are final: such recipients can't be corrected, removed or given tabs
FINISHED = frozenset({"completed", "declined"})
#: recipient statuses of whoever currently holds the envelope
ACTIVE = frozenset({"sent", "delivered"})
#: recipient types that act on the documents (and so may carry tabs)
ACTING_TYPES = frozenset({"signer", "certifiedDelivery"})
#: tab types only a signer can carry
SIGNER_TABS = frozenset({"signHere", "dateSigned", "text"})
#: profiles that may send, correct and void
SENDING_PROFILES = frozenset({"Account Administrator", "DocuSign Sender"})
ADMIN_PROFILE = "Account Administrator"


def pending(recipients: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recipients who have not finished."""
    return [r for r in recipients if r["status"] not in FINISHED]


def current_routing_order(recipients: list[dict[str, Any]]) -> int | None:
    """The lowest routing order with unfinished recipients (they act in parallel); None when all are done."""
    orders = [r["routing_order"] for r in pending(recipients)]
    return min(orders) if orders else None


def activation_status(recipient: dict[str, Any]) -> str:
    """The status a recipient takes when the envelope reaches them: a carbon copy is complete on receipt."""
    return "completed" if recipient["recipient_type"] == "carbonCopy" else "sent"
