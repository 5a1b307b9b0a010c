"""Who is calling: the Plaid client (team API keys) the developer gave the assistant, and the Items, accounts and
transfers that belong to it (another client's access token or id is simply not found)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound

from .rules import plaid_error
from .schema import accounts, clients, items, sessions, transfers

NOT_SIGNED_IN = (
    '{"error_type": "INVALID_INPUT", "error_code": "INVALID_API_KEYS", "error_message": "invalid client_id or '
    'secret provided; ask the developer for the team\'s API keys", "display_message": null}'
)


def client(db: Database) -> dict[str, Any]:
    """The client whose keys the assistant holds."""
    client_id = db.current_session(sessions, NOT_SIGNED_IN)["client_id"]
    return db.get(clients, client_id)


def item_for(db: Database, access_token: str) -> dict[str, Any]:
    """The live Item an access token of this client opens."""
    me = client(db)["client_id"]
    found = db.find(items, access_token=access_token, client_id=me)
    if not found:
        raise plaid_error(
            InvalidRequest, "INVALID_INPUT", "INVALID_ACCESS_TOKEN", "provided access token is in an invalid format"
        )
    if found[0]["removed"]:
        raise plaid_error(NotFound, "ITEM_ERROR", "ITEM_NOT_FOUND", "the Item you requested cannot be found")
    return found[0]


def account_of(db: Database, item: dict[str, Any], account_id: str) -> dict[str, Any]:
    """An account of the Item."""
    found = db.find(accounts, account_id=account_id, item_id=item["item_id"])
    if not found:
        raise plaid_error(
            InvalidRequest, "INVALID_INPUT", "INVALID_ACCOUNT_ID", f"account_id {account_id} is not on this item"
        )
    return found[0]


def transfer_for(db: Database, transfer_id: str) -> dict[str, Any]:
    """A transfer of this client."""
    me = client(db)["client_id"]
    found = db.find(transfers, id=transfer_id, client_id=me)
    if not found:
        raise plaid_error(NotFound, "INVALID_INPUT", "TRANSFER_NOT_FOUND", f"transfer {transfer_id} not found")
    return found[0]
