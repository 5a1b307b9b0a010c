"""Who is signed in (the Intuit user who connected the assistant) and which companies (realms) they may open."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .rules import fault
from .schema import companies, company_users, sessions

NOT_SIGNED_IN = (
    '{"Fault": {"Error": [{"Message": "message=AuthenticationFailed; errorCode=003200; statusCode=401", '
    '"Detail": "Ask the user to sign in to QuickBooks first.", "code": "3200"}], "type": "AuthenticationFault"}}'
)


def signed_in(db: Database) -> str:
    """The id of the user who connected the assistant; refused when nobody has."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def company(db: Database, realm_id: str) -> dict[str, Any]:
    """A company the signed-in user may open; any other realm is an authorization failure, as QuickBooks answers."""
    if not db.find(company_users, user_id=signed_in(db), realm_id=realm_id):
        raise fault(
            "3100",
            "message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403",
            f"You are not authorized to access company {realm_id}.",
            PermissionDenied,
            fault_type="AuthorizationFault",
        )
    return db.get(companies, realm_id, "Company")


def realm_ids(db: Database) -> list[str]:
    """The companies the signed-in user may open, in the order they were connected."""
    return [c["realm_id"] for c in db.find(company_users, user_id=signed_in(db))]
