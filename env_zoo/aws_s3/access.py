"""Who is signed in (an IAM user of the account) and whether AWS lets them make a request: their attached managed
policies and, for S3 resources, the bucket policy decide (see policy.py)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import denied
from .policy import evaluate
from .schema import iam_policies, iam_users, sessions, user_policy_attachments

ACCOUNT_ID = "210987654321"
ACCOUNT_ALIAS = "harbor-lane"
NOT_SIGNED_IN = "InvalidClientTokenId: The security token included in the request is invalid. Ask the user to sign in."


def user_arn(user: dict[str, Any]) -> str:
    """arn:aws:iam::<account>:user<path><name>."""
    return f"arn:aws:iam::{ACCOUNT_ID}:user{user['path']}{user['user_name']}"


def signed_in(db: Database) -> dict[str, Any]:
    """The IAM user the assistant acts as."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(iam_users, session["user_name"])


def identity_documents(db: Database, user_name: str) -> list[dict[str, Any]]:
    """The policy documents of every managed policy attached to the user."""
    arns = [a["policy_arn"] for a in db.find(user_policy_attachments, user_name=user_name)]
    if not arns:
        return []
    rows = db.select(iam_policies, f"arn IN ({', '.join('?' * len(arns))})", arns)
    return [r["document"] for r in rows]


def decide(db: Database, user: dict[str, Any], action: str, resource: str, bucket: dict[str, Any] | None) -> Any:
    """(decision, deciding policy kind) for the user's request, the bucket's policy included when given."""
    policy = bucket["policy"] if bucket is not None else None
    return evaluate(identity_documents(db, user["user_name"]), policy, user_arn(user), action, resource)


def authorize(db: Database, action: str, resource: str, bucket: dict[str, Any] | None = None) -> dict[str, Any]:
    """The signed-in user, if AWS allows them `action` on `resource`; AccessDenied saying why otherwise."""
    user = signed_in(db)
    decision, kind = decide(db, user, action, resource, bucket)
    if decision == "allowed":
        return user
    prefix = f'User: {user_arn(user)} is not authorized to perform: {action} on resource: "{resource}"'
    if decision == "explicitDeny":
        where = "a resource-based policy" if kind == "resource" else "an identity-based policy"
        raise denied(f"{prefix} with an explicit deny in {where}")
    raise denied(f"{prefix} because no identity-based policy allows the {action} action")
