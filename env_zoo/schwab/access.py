"""Who is signed in (the schwab.com login that authorized the app) and which accounts that login may reach, by the
encrypted hashValue every account call takes."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from .schema import accounts, logins, sessions

NOT_SIGNED_IN = "Unauthorized: the client has not signed in to authorize this app"


def signed_in(db: Database) -> dict[str, Any]:
    """The login that authorized the app."""
    login_id = db.current_session(sessions, NOT_SIGNED_IN)["login_id"]
    return db.get(logins, login_id, "Login")


def sign_in(db: Database, login_id: str, password: str) -> dict[str, Any]:
    """Check the login's password and start its session."""
    found = db.find(logins, login_id=login_id.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("Login ID or password is incorrect")
    db.start_session(sessions, login_id=found[0]["login_id"])
    return found[0]


def linked_accounts(db: Database) -> list[dict[str, Any]]:
    """The signed-in login's accounts, primary first, then by account number."""
    rows = db.find(accounts, login_id=signed_in(db)["login_id"], order_by=[accounts.c.account_number])
    return sorted(rows, key=lambda r: not r["primary_account"])


def account_by_hash(db: Database, account_hash: str) -> dict[str, Any]:
    """A linked account by its hashValue; a plain account number is refused, as the API does."""
    me = signed_in(db)["login_id"]
    key = account_hash.strip()
    if key.isdigit():
        raise InvalidRequest("Invalid account number: pass the account's encrypted hashValue, not the plain number")
    found = db.find(accounts, hash_value=key)
    if not found:
        raise NotFound("Invalid account number: no account with this hashValue")
    if found[0]["login_id"] != me:
        raise PermissionDenied("Account is not linked to the signed-in login")
    return found[0]
