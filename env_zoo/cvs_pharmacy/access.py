"""Who is signed in (the CVS.com account's session) and whom it acts for: the account holder and family members
with active access, and what is theirs: prescriptions, orders, vaccine appointments and the ExtraCare card."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .rules import full_name
from .schema import (
    accounts,
    extracare_cards,
    family_members,
    orders,
    patients,
    prescriptions,
    sessions,
    vaccine_appointments,
)

NOT_SIGNED_IN = "You're not signed in. Sign in to your CVS.com account first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the session of the account with this email address (any case)."""
    found = db.select(accounts, "lower(email) = ?", [email.strip().lower()])
    if not found:
        raise NotFound("We couldn't find a CVS.com account with that email and password.")
    db.start_session(sessions, account_id=found[0]["account_id"])
    return found[0]


def new_family_member(
    db: Database, account: dict[str, Any], first_name: str, last_name: str, date_of_birth: str
) -> dict[str, Any]:
    """The CVS pharmacy patient with this name and date of birth, not yet on the account."""
    found = [  # names compared casefolded (SQLite's lower() only folds ASCII)
        p
        for p in db.find(patients, date_of_birth=date_of_birth)
        if (p["first_name"].casefold(), p["last_name"].casefold())
        == (first_name.strip().casefold(), last_name.strip().casefold())
    ]
    if not found:
        raise NotFound("We couldn't find a CVS pharmacy patient with that name and date of birth.")
    patient = found[0]
    if patient["patient_id"] == account["patient_id"]:
        raise InvalidRequest("That's you: the account holder is already on the account.")
    if db.find(family_members, account_id=account["account_id"], patient_id=patient["patient_id"]):
        raise Conflict(f"{full_name(patient)} is already on your account.")
    return patient


def signed_in(db: Database) -> dict[str, Any]:
    """The CVS.com account signed in on this device."""
    return db.get(accounts, db.current_session(sessions, NOT_SIGNED_IN)["account_id"], "Account")


def patient_for(db: Database, account: dict[str, Any], patient_id: str) -> dict[str, Any]:
    """A patient the account manages: the account holder or a family member whose access is active."""
    if patient_id == account["patient_id"]:
        return db.get(patients, patient_id, "Patient")
    link = db.find(family_members, account_id=account["account_id"], patient_id=patient_id)
    if not link:
        raise NotFound(f"Patient '{patient_id}' is not on your CVS.com account.")
    patient = db.get(patients, patient_id, "Patient")
    if link[0]["access"] != "active":
        raise PermissionDenied(
            f"{full_name(patient)} hasn't authorized you to manage their prescriptions yet (access pending)."
        )
    return patient


def managed_patient_ids(db: Database, account: dict[str, Any]) -> list[str]:
    """The account holder and every family member with active access."""
    family = db.find(family_members, account_id=account["account_id"], access="active")
    return [account["patient_id"], *(f["patient_id"] for f in family)]


def patient_ids(db: Database, account: dict[str, Any], patient_id: str | None) -> list[str]:
    """The patients a listing covers: the one asked for, or every managed patient."""
    if patient_id is None:
        return managed_patient_ids(db, account)
    return [patient_for(db, account, patient_id)["patient_id"]]


def prescription_for(db: Database, account: dict[str, Any], rx_number: str) -> dict[str, Any]:
    """A prescription of a patient the account manages."""
    found = db.find_one(
        prescriptions,
        rx_number=str(rx_number).strip().lstrip("#"),
        not_found=f"Prescription Rx #{rx_number} not found.",
    )
    patient_for(db, account, found["patient_id"])
    return found


def own_order(db: Database, account: dict[str, Any], order_id: str) -> dict[str, Any]:
    """An order of a patient the account manages."""
    order = db.get(orders, order_id.strip(), "Order")
    if order["patient_id"] not in managed_patient_ids(db, account):
        raise NotFound(f"Order '{order_id}' not found")
    return order


def own_appointment(db: Database, account: dict[str, Any], appointment_id: str) -> dict[str, Any]:
    """A vaccine appointment of a patient the account manages."""
    row = db.get(vaccine_appointments, appointment_id.strip(), "Appointment")
    if row["patient_id"] not in managed_patient_ids(db, account):
        raise NotFound(f"Appointment '{appointment_id}' not found")
    return row


def extracare_card(db: Database, account: dict[str, Any]) -> dict[str, Any]:
    """The ExtraCare card linked to the account."""
    return db.find_one(
        extracare_cards, account_id=account["account_id"], not_found="No ExtraCare card is linked to your account."
    )
