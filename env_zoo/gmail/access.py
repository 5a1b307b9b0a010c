"""Whose mailbox the app acts for, and what its OAuth grant lets it do."""

from __future__ import annotations

from typing import Any, Literal

from envfactory_gym import Database, PermissionDenied

from .schema import mailboxes, oauth_grants

Scope = Literal["gmail.readonly", "gmail.modify", "mail.google.com"]
LEVEL = {"gmail.readonly": 0, "gmail.modify": 1, "mail.google.com": 2}
INSUFFICIENT = "Request had insufficient authentication scopes."


def grant(db: Database) -> dict[str, Any]:
    """The current OAuth grant; refused when nobody has signed in."""
    found = db.find(oauth_grants, id="current")
    if not found:
        raise PermissionDenied(
            "Login Required: no Google account has granted this app access to Gmail. Ask the user to sign in."
        )
    return found[0]


def me(db: Database, need: Scope = "gmail.readonly") -> str:
    """The signed-in mailbox's address, when the grant covers `need` (reading, modifying, or deleting forever)."""
    current = grant(db)
    if LEVEL[current["scope"]] < LEVEL[need]:
        url = "https://mail.google.com/" if need == "mail.google.com" else f"https://www.googleapis.com/auth/{need}"
        raise PermissionDenied(f"{INSUFFICIENT} This needs {url} and the user granted {current['scope']}.")
    return current["email"]


def domain(email: str) -> str:
    """The domain part of an address."""
    return email.rsplit("@", 1)[-1].lower()


def mailbox(db: Database, email: str) -> dict[str, Any]:
    """A mailbox row of the domain."""
    return db.get(mailboxes, email, "Mailbox")
