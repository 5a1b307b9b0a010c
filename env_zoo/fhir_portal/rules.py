"""The portal's business rules: ages and proxy scope, the care team, refill and renewal eligibility, booking and
cancelling appointments. Errors carry the FHIR OperationOutcome issue code first (`business-rule: ...`)."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import parse_date, parse_timestamp

from .schema import appointments, locations, practitioners, refill_requests

TEEN_AGE = 12  # a parent's proxy access to a child of 12-17 is limited (no results, no messaging)
CARE_TEAM_YEARS = 3  # practitioners seen within this many years can be messaged
CANCEL_CUTOFF = timedelta(hours=24)  # online cancellation closes this long before the start
REFILL_FRACTION = 0.75  # share of the last fill's days supply that must have passed
RENEWAL_WINDOW = timedelta(days=30)  # a renewal may be asked this close to the end of the validity period
SCHEDULES = {"II", "III", "IV", "V"}


def today(db: Database) -> date:
    """The simulated date."""
    return db.now().date()


def day(value: str) -> date:
    """A stored ISO date."""
    return parse_date(value, "date")


def moment(value: str) -> datetime:
    """A stored ISO timestamp."""
    return parse_timestamp(value, "timestamp")


def age_on(birth_date: str, on: date) -> int:
    """Whole years from `birth_date` to `on`."""
    born = day(birth_date)
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def proxy_scope(patient: dict[str, Any], relationship: str, on: date) -> str:
    """`full` or `limited`: a parent's access to a child aged 12-17 hides results and messaging."""
    if relationship == "CHILD" and TEEN_AGE <= age_on(patient["birth_date"], on) < 18:
        return "limited"
    return "full"


def doctor_name(practitioner: dict[str, Any]) -> str:
    """`Dr. Ana Ortiz`."""
    return f"{practitioner['prefix']} {practitioner['given']} {practitioner['family']}"


def care_team(db: Database, patient: dict[str, Any]) -> list[str]:
    """Practitioner ids the patient may message: the primary care provider and everyone seen (a fulfilled
    appointment) in the last three years."""
    since = today(db).replace(year=today(db).year - CARE_TEAM_YEARS).isoformat()
    seen = db.select(
        appointments, "patient_id = ? AND status = 'fulfilled' AND start >= ?", [patient["id"], since], order_by="start"
    )
    team = [patient["general_practitioner_id"]] if patient["general_practitioner_id"] else []
    for visit in seen:
        if visit["practitioner_id"] not in team:
            team.append(visit["practitioner_id"])
    return team


def refills_left(request: dict[str, Any]) -> int:
    """Refills remaining on a MedicationRequest."""
    return request["repeats_allowed"] - request["repeats_used"]


def refill_eligible_on(request: dict[str, Any]) -> date | None:
    """The first day a refill may be asked: 75% of the last fill's days supply after it."""
    if request["last_filled"] is None:
        return None
    return day(request["last_filled"]) + timedelta(days=math.ceil(request["days_supply"] * REFILL_FRACTION))


def pending_request(db: Database, request_id: str, kind: str) -> dict[str, Any] | None:
    """The open refill or renewal request of a prescription, if any."""
    found = db.find(refill_requests, medication_request_id=request_id, kind=kind, status="requested")
    return found[0] if found else None


def refuse_refill(db: Database, request: dict[str, Any], medication: dict[str, Any]) -> None:
    """Raise the OperationOutcome a refill request gets, unless the prescription may be refilled online now."""
    name = medication["display"]
    if request["status"] != "active":
        raise Conflict(f"business-rule: The prescription for {name} is {request['status']} and can't be refilled.")
    if medication["schedule"] in SCHEDULES:
        raise InvalidRequest(
            f"business-rule: {name} is a controlled substance (schedule {medication['schedule']}) and can't be "
            "refilled online. Call your provider's office."
        )
    if day(request["validity_end"]) < today(db):
        raise Conflict(
            f"business-rule: The prescription for {name} expired on {request['validity_end']}. Request a renewal "
            "instead."
        )
    if refills_left(request) <= 0:
        raise Conflict(f"business-rule: No refills remain on {name}. Request a renewal instead.")
    pending = pending_request(db, request["id"], "refill")
    if pending is not None:
        raise Conflict(f"duplicate: A refill of {name} was already requested on {pending['created'][:10]}.")
    eligible = refill_eligible_on(request)
    if eligible is not None and eligible > today(db):
        raise Conflict(f"business-rule: Too soon to refill {name}; it can be refilled on or after {eligible}.")


def refuse_renewal(db: Database, request: dict[str, Any], medication: dict[str, Any]) -> None:
    """Raise unless a renewal may be asked: the prescription has run out of refills or its validity period ends
    within 30 days (or has ended), and no renewal is pending."""
    name = medication["display"]
    if request["status"] in ("stopped", "on-hold"):
        raise Conflict(f"business-rule: {name} was {request['status']} by your provider and can't be renewed.")
    ends = day(request["validity_end"])
    if refills_left(request) > 0 and ends - today(db) > RENEWAL_WINDOW:
        raise Conflict(
            f"business-rule: {name} still has {refills_left(request)} refill(s) through {ends}. Request a refill "
            "instead."
        )
    pending = pending_request(db, request["id"], "renewal")
    if pending is not None:
        raise Conflict(f"duplicate: A renewal of {name} was already requested on {pending['created'][:10]}.")


def booking_status(db: Database, patient: dict[str, Any], practitioner: dict[str, Any]) -> str:
    """`booked` with a practitioner on the patient's care team; `proposed` (the clinic confirms) with a new one who
    accepts new patients; refused otherwise."""
    if practitioner["id"] in care_team(db, patient):
        return "booked"
    if not practitioner["accepting_new_patients"]:
        raise Conflict(f"business-rule: {doctor_name(practitioner)} isn't accepting new patients.")
    return "proposed"


def refuse_overlap(db: Database, patient_id: str, start: str, end: str) -> None:
    """Raise when the patient already has a booked or proposed appointment overlapping [start, end)."""
    clash = db.select(
        appointments,
        "patient_id = ? AND status IN ('booked', 'proposed') AND start < ? AND \"end\" > ?",
        [patient_id, end, start],
    )
    if clash:
        raise Conflict(f"duplicate: The patient already has an appointment at {clash[0]['start']} ({clash[0]['id']}).")


def refuse_cancel(db: Database, appointment: dict[str, Any]) -> None:
    """Raise unless the appointment is booked or proposed and starts more than 24 hours from now."""
    if appointment["status"] not in ("booked", "proposed"):
        raise Conflict(f"business-rule: Appointment {appointment['id']} is {appointment['status']}.")
    if moment(appointment["start"]) - db.now() < CANCEL_CUTOFF:
        clinic = db.get(locations, appointment["location_id"], "Location")
        raise Conflict(
            "business-rule: Appointments within 24 hours can't be cancelled online. Call "
            f"{clinic['name']} at {clinic['phone']}."
        )


def practitioner_row(db: Database, practitioner_id: str) -> dict[str, Any]:
    """The Practitioner, or not-found."""
    return db.get(practitioners, practitioner_id, "Practitioner")
