"""Who is signed in (the portal account's session) and whose charts it may open: the account holder's own and those
of active proxy access, with a teenager's chart limited (no results, no messaging)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .rules import proxy_scope, today
from .schema import accounts, patients, proxy_access, sessions

NOT_SIGNED_IN = "login: You're not signed in. Sign in to the portal first."


def sign_in(db: Database, username: str) -> dict[str, Any]:
    """Start the session of the account with this username (any case)."""
    found = db.select(accounts, "lower(username) = ?", [username.strip().lower()])
    if not found:
        raise NotFound("login: The username or password you entered is incorrect.")
    db.start_session(sessions, account_id=found[0]["id"])
    return found[0]


def signed_in(db: Database) -> dict[str, Any]:
    """The portal account signed in on this device."""
    return db.get(accounts, db.current_session(sessions, NOT_SIGNED_IN)["account_id"], "Account")


def charts(db: Database, account: dict[str, Any]) -> list[tuple[dict[str, Any], str, str]]:
    """(patient, relationship, scope) for every chart the account may open: its own first, then active proxies."""
    own = db.get(patients, account["patient_id"], "Patient")
    found = [(own, "self", "full")]
    on = today(db)
    for grant in db.find(proxy_access, account_id=account["id"], status="active", order_by=[proxy_access.c.id]):
        if grant["expires"] is not None and grant["expires"] < on.isoformat():
            continue
        patient = db.get(patients, grant["patient_id"], "Patient")
        found.append((patient, grant["relationship"], proxy_scope(patient, grant["relationship"], on)))
    return found


def chart(db: Database, patient_id: str, *, needs_full: str | None = None) -> dict[str, Any]:
    """The patient the signed-in account may open; `needs_full` names what a limited proxy may not do."""
    for patient, _relationship, scope in charts(db, signed_in(db)):
        if patient["id"] == patient_id:
            if needs_full is not None and scope == "limited":
                raise PermissionDenied(
                    f"forbidden: Proxy access to {patient['given']}'s chart is limited for ages 12-17 and doesn't "
                    f"include {needs_full}."
                )
            return patient
    raise NotFound(f"not-found: Patient/{patient_id} is not known or you don't have access to this chart.")


def own_row(db: Database, table: Any, key: str, resource: str, *, needs_full: str | None = None) -> dict[str, Any]:
    """A resource row of a chart the account may open (not-found otherwise, as a FHIR server would say)."""
    missing = f"not-found: {resource}/{key} is not known."
    found = db.find(table, **{list(table.primary_key.columns)[0].name: key})
    if not found:
        raise NotFound(missing)
    try:
        chart(db, found[0]["patient_id"], needs_full=needs_full)
    except NotFound:
        raise NotFound(missing) from None
    return found[0]
