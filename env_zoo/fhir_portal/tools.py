"""FHIR portal tools: sign-in and proxy charts, practitioners and the care team, slots and appointments,
prescriptions with refill and renewal requests, released lab results, secure messages, allergies and coverage."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate, NonBlankText, page_size, text

from .access import chart, charts, own_row, signed_in
from .access import sign_in as start_session
from .objects import (
    AllergyObject,
    AppointmentObject,
    Bundle,
    CareTeamMember,
    CommunicationObject,
    CoverageObject,
    MedicationRequestObject,
    ObservationObject,
    PatientObject,
    PractitionerObject,
    Reference,
    RefillRequestObject,
    SessionObject,
    SlotObject,
    bundle,
)
from .rules import (
    booking_status,
    care_team,
    moment,
    practitioner_row,
    refuse_cancel,
    refuse_overlap,
    refuse_refill,
    refuse_renewal,
)
from .schema import (
    allergies,
    appointments,
    communications,
    coverages,
    medication_requests,
    medications,
    observations,
    patients,
    practitioners,
    refill_requests,
    slots,
)
from .views import (
    allergy_view,
    appointment_view,
    communication_view,
    coverage_view,
    medication_request_view,
    observation_view,
    patient_view,
    practitioner_view,
    refill_request_view,
    slot_view,
)

ServiceType = Literal["annual-physical", "follow-up", "sick-visit", "telehealth", "well-child", "consultation"]
AppointmentStatus = Literal["proposed", "booked", "fulfilled", "cancelled", "noshow"]
CancelReason = Literal["schedule-conflict", "feeling-better", "rescheduled", "transportation", "other"]
MessageCategory = Literal["medical-question", "medication", "appointment", "billing"]
DateArg = Annotated[IsoDate, ErrorText("invalid: dates look like 2026-03-18")]
Count = page_size(50)


@tool(user_only=True)
def sign_in(db: Database, username: str) -> SessionObject:
    """Sign in to the patient portal with your username (the patient does this themselves).

    Args:
        username: The portal username.
    """
    account = start_session(db, username)
    own = db.get(patients, account["patient_id"])
    return SessionObject(
        username=account["username"],
        patient=Reference(reference=f"Patient/{own['id']}", display=f"{own['given']} {own['family']}"),
    )


@tool(read_only=True)
def list_patients(db: Database) -> Bundle[PatientObject]:
    """The charts this account can open: the account holder's own and those shared by proxy access (a child or a
    parent), with each chart's relationship and access scope (`limited` hides results and messaging)."""
    return Bundle[PatientObject](**bundle([patient_view(db, *found) for found in charts(db, signed_in(db))]))


@tool()
def update_patient_contact(
    db: Database,
    patient_id: str,
    phone: Annotated[str, Field(pattern=r"^\+1\d{10}$"), ErrorText("invalid: phone must look like +15035550123")]
    | None = None,
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"), ErrorText("invalid: not an email address")]
    | None = None,
    preferred_pharmacy: text(120) | None = None,
) -> PatientObject:
    """Update a chart's phone, email or preferred pharmacy (new refill requests go to the preferred pharmacy).

    Args:
        patient_id: The Patient's id, from list_patients.
        phone: New mobile number in E.164 form.
        email: New email address.
        preferred_pharmacy: The pharmacy's name as the patient calls it, e.g. "Walgreens - Hawthorne Blvd".
    """
    patient = chart(db, patient_id)
    changes = given(phone=phone, email=email, preferred_pharmacy=preferred_pharmacy)
    if not changes:
        raise InvalidRequest("required: Give at least one of phone, email or preferred_pharmacy.")
    row = db.update(patients, patient["id"], **changes)
    relationship, scope = next((r, s) for p, r, s in charts(db, signed_in(db)) if p["id"] == patient_id)
    return patient_view(db, row, relationship, scope)


@tool(read_only=True)
def search_practitioners(
    db: Database, name: text(80) | None = None, specialty: text(80) | None = None, location_id: str | None = None
) -> Bundle[PractitionerObject]:
    """Search the health system's practitioners by name, specialty or clinic location.

    Args:
        name: Part of the practitioner's given or family name.
        specialty: Part of the specialty, e.g. "Dermatology", "Pediatrics".
        location_id: Only practitioners who work at this Location.
    """
    clauses, params = ["1 = 1"], []
    if name:
        clauses.append("(lower(given) LIKE ? OR lower(family) LIKE ? OR lower(given || ' ' || family) LIKE ?)")
        params += [f"%{name.strip().lower()}%"] * 3
    if specialty:
        clauses.append("lower(specialty) LIKE ?")
        params.append(f"%{specialty.strip().lower()}%")
    found = db.select(practitioners, " AND ".join(clauses), params, order_by="family")
    found = [p for p in found if location_id is None or location_id in p["location_ids"]]
    return Bundle[PractitionerObject](**bundle([practitioner_view(db, p) for p in found]))


@tool(read_only=True)
def list_care_team(db: Database, patient_id: str) -> Bundle[CareTeamMember]:
    """A patient's care team: the primary care provider and practitioners seen in the last three years. Secure
    messages can only go to them, and appointments with them are booked at once.

    Args:
        patient_id: The Patient's id, from list_patients.
    """
    patient = chart(db, patient_id)
    members = [
        CareTeamMember(
            practitioner=practitioner_view(db, practitioner_row(db, key)),
            role="primary-care" if key == patient["general_practitioner_id"] else "seen-recently",
        )
        for key in care_team(db, patient)
    ]
    return Bundle[CareTeamMember](**bundle(members))


@tool(read_only=True)
def search_slots(
    db: Database,
    practitioner_id: str | None = None,
    location_id: str | None = None,
    service_type: ServiceType | None = None,
    date_from: DateArg | None = None,
    date_to: DateArg | None = None,
    count: Count = 20,
) -> Bundle[SlotObject]:
    """Free appointment slots from now on, earliest first, by practitioner, location, service type and dates.

    Args:
        practitioner_id: Only this Practitioner's slots.
        location_id: Only slots at this Location.
        service_type: Only slots for this kind of visit.
        date_from: First day to search (default today).
        date_to: Last day to search, inclusive.
        count: Most slots to return.
    """
    clauses, params = ["status = 'free'", "start > ?"], [db.now_iso()]
    if date_from:
        clauses.append("start >= ?")
        params.append(date_from)
    if date_to:
        clauses.append("start < ?")
        params.append(f"{date_to}T23:59:59Z")
    filters = given(practitioner_id=practitioner_id, location_id=location_id, service_type=service_type)
    for column, value in filters.items():
        clauses.append(f"{column} = ?")
        params.append(value)
    found = db.select(slots, " AND ".join(clauses), params, order_by="start", limit=count)
    return Bundle[SlotObject](**bundle([slot_view(db, s) for s in found]))


@tool()
def book_appointment(db: Database, patient_id: str, slot_id: str, reason: text(500)) -> AppointmentObject:
    """Book a free slot for a patient. With a practitioner on the patient's care team it is `booked`; with a new
    practitioner who accepts new patients it is a `proposed` request the clinic confirms.

    Args:
        patient_id: The Patient's id, from list_patients.
        slot_id: A free Slot's id, from search_slots.
        reason: The reason for the visit, in the patient's words.
    """
    patient = chart(db, patient_id)
    slot = db.find_one(slots, id=slot_id, not_found=f"not-found: Slot/{slot_id} is not known.")
    if slot["status"] != "free" or moment(slot["start"]) <= db.now():
        raise Conflict(f"conflict: Slot/{slot_id} is no longer available. Search for another time.")
    status = booking_status(db, patient, practitioner_row(db, slot["practitioner_id"]))
    refuse_overlap(db, patient["id"], slot["start"], slot["end"])
    db.update(slots, slot_id, status="busy" if status == "booked" else "busy-tentative")
    row = db.insert(
        appointments,
        id=db.new_id(appointments, "appt-"),
        patient_id=patient["id"],
        practitioner_id=slot["practitioner_id"],
        location_id=slot["location_id"],
        slot_id=slot_id,
        service_type=slot["service_type"],
        status=status,
        start=slot["start"],
        end=slot["end"],
        description=reason,
        cancelation_reason=None,
        created=db.now_iso(),
    )
    return appointment_view(db, row)


@tool(read_only=True)
def list_appointments(
    db: Database, patient_id: str, status: AppointmentStatus | None = None, date_from: DateArg | None = None
) -> Bundle[AppointmentObject]:
    """A patient's appointments, past and upcoming, earliest first.

    Args:
        patient_id: The Patient's id, from list_patients.
        status: Only appointments in this status.
        date_from: Only appointments starting on or after this day.
    """
    patient = chart(db, patient_id)
    clauses, params = ["patient_id = ?"], [patient["id"]]
    if status:
        clauses.append("status = ?")
        params.append(status)
    if date_from:
        clauses.append("start >= ?")
        params.append(date_from)
    found = db.select(appointments, " AND ".join(clauses), params, order_by="start")
    return Bundle[AppointmentObject](**bundle([appointment_view(db, a) for a in found]))


@tool()
def cancel_appointment(db: Database, appointment_id: str, reason: CancelReason) -> AppointmentObject:
    """Cancel a booked or proposed appointment (online until 24 hours before it starts); its slot opens again.

    Args:
        appointment_id: The Appointment's id, from list_appointments.
        reason: Why it is cancelled.
    """
    appointment = own_row(db, appointments, appointment_id, "Appointment")
    refuse_cancel(db, appointment)
    if appointment["slot_id"]:
        db.update(slots, appointment["slot_id"], status="free")
    row = db.update(appointments, appointment_id, status="cancelled", cancelation_reason=reason)
    return appointment_view(db, row)


@tool(read_only=True)
def list_medication_requests(
    db: Database, patient_id: str, status: Literal["active", "completed", "stopped", "on-hold"] | None = None
) -> Bundle[MedicationRequestObject]:
    """A patient's prescriptions (MedicationRequest) with RxNorm codes, refills remaining and validity period.

    Args:
        patient_id: The Patient's id, from list_patients.
        status: Only prescriptions in this status.
    """
    patient = chart(db, patient_id)
    found = db.find(medication_requests, patient_id=patient["id"], **given(status=status), order_by=["id"])
    return Bundle[MedicationRequestObject](**bundle([medication_request_view(db, m) for m in found]))


@tool(read_only=True)
def get_medication_request(db: Database, medication_request_id: str) -> MedicationRequestObject:
    """One prescription with its dispense details: refills remaining, when the next refill is allowed, pending
    refill or renewal requests.

    Args:
        medication_request_id: The MedicationRequest's id.
    """
    return medication_request_view(db, own_row(db, medication_requests, medication_request_id, "MedicationRequest"))


@tool()
def request_refill(db: Database, medication_request_id: str, note: text(500, min_length=0) = "") -> RefillRequestObject:
    """Request a refill of a prescription, sent to the patient's preferred pharmacy (or the prescription's own).
    Controlled substances can't be refilled online; with no refills left or past the validity period, request a
    renewal instead.

    Args:
        medication_request_id: The MedicationRequest's id.
        note: A note for the pharmacy.
    """
    prescription = own_row(db, medication_requests, medication_request_id, "MedicationRequest")
    refuse_refill(db, prescription, db.get(medications, prescription["rxnorm"]))
    patient = db.get(patients, prescription["patient_id"])
    db.update(medication_requests, prescription["id"], repeats_used=prescription["repeats_used"] + 1)
    row = db.insert(
        refill_requests,
        id=db.new_id(refill_requests, "task-"),
        medication_request_id=prescription["id"],
        kind="refill",
        status="requested",
        pharmacy=patient["preferred_pharmacy"] or prescription["pharmacy"],
        note=note,
        created=db.now_iso(),
    )
    return refill_request_view(db, row, prescription)


@tool()
def request_renewal(
    db: Database, medication_request_id: str, note: text(500, min_length=0) = ""
) -> RefillRequestObject:
    """Ask the prescriber to renew a prescription that is out of refills or whose validity period ends within 30
    days (controlled substances included).

    Args:
        medication_request_id: The MedicationRequest's id.
        note: A note for the prescriber.
    """
    prescription = own_row(db, medication_requests, medication_request_id, "MedicationRequest")
    refuse_renewal(db, prescription, db.get(medications, prescription["rxnorm"]))
    patient = db.get(patients, prescription["patient_id"])
    row = db.insert(
        refill_requests,
        id=db.new_id(refill_requests, "task-"),
        medication_request_id=prescription["id"],
        kind="renewal",
        status="requested",
        pharmacy=patient["preferred_pharmacy"] or prescription["pharmacy"],
        note=note,
        created=db.now_iso(),
    )
    return refill_request_view(db, row, prescription)


@tool(read_only=True)
def list_observations(
    db: Database,
    patient_id: str,
    report: text(80) | None = None,
    loinc: Annotated[str, Field(pattern=r"^\d{1,7}-\d$"), ErrorText("invalid: LOINC codes look like 2345-7")]
    | None = None,
    abnormal_only: bool = False,
    date_from: DateArg | None = None,
) -> Bundle[ObservationObject]:
    """A patient's lab results released to the portal, newest first, with reference ranges and interpretation
    flags (N, H, L, HH, LL). Not available on a limited proxy chart.

    Args:
        patient_id: The Patient's id, from list_patients.
        report: Part of the panel's name, e.g. "lipid", "metabolic".
        loinc: Only results with this LOINC code.
        abnormal_only: Only results flagged outside the reference range.
        date_from: Only results collected on or after this day.
    """
    patient = chart(db, patient_id, needs_full="test results")
    clauses, params = ["patient_id = ?", "released = 1"], [patient["id"]]
    if report:
        clauses.append("lower(report) LIKE ?")
        params.append(f"%{report.strip().lower()}%")
    if loinc:
        clauses.append("loinc = ?")
        params.append(loinc)
    if abnormal_only:
        clauses.append("interpretation != 'N'")
    if date_from:
        clauses.append("effective >= ?")
        params.append(date_from)
    found = db.select(observations, " AND ".join(clauses), params, order_by="effective DESC, id")
    return Bundle[ObservationObject](**bundle([observation_view(db, o) for o in found]))


@tool(read_only=True)
def get_observation(db: Database, observation_id: str) -> ObservationObject:
    """One released lab result.

    Args:
        observation_id: The Observation's id.
    """
    row = own_row(db, observations, observation_id, "Observation", needs_full="test results")
    if not row["released"]:
        raise NotFound(f"not-found: Observation/{observation_id} is not known.")
    return observation_view(db, row)


@tool(read_only=True)
def list_messages(db: Database, patient_id: str, unread_only: bool = False) -> Bundle[CommunicationObject]:
    """Secure messages (Communication) between a patient and the care team, newest first.

    Args:
        patient_id: The Patient's id, from list_patients.
        unread_only: Only messages from the care team not yet read.
    """
    patient = chart(db, patient_id, needs_full="messaging")
    clauses, params = ["patient_id = ?"], [patient["id"]]
    if unread_only:
        clauses.append("read = 0 AND direction = 'from-care-team'")
    found = db.select(communications, " AND ".join(clauses), params, order_by="sent DESC, id")
    return Bundle[CommunicationObject](**bundle([communication_view(db, c) for c in found]))


@tool()
def send_message(
    db: Database,
    patient_id: str,
    practitioner_id: str,
    category: MessageCategory,
    subject: Annotated[str, Field(min_length=1, max_length=100), ErrorText("invalid: subject is 1-100 characters")],
    text: Annotated[
        str,
        Field(min_length=1, max_length=2000, pattern=r"\S"),
        ErrorText("invalid: a message holds 1-2000 characters of text"),
    ],
    thread_id: str | None = None,
) -> CommunicationObject:
    """Send a secure message about a patient to a practitioner on their care team, new or as a reply in a thread.
    Opening it marks the thread's earlier messages read.

    Args:
        patient_id: The Patient's id, from list_patients.
        practitioner_id: The Practitioner, from list_care_team.
        category: What the message is about.
        subject: The subject line.
        text: The message.
        thread_id: The thread to reply in, from list_messages.
    """
    patient = chart(db, patient_id, needs_full="messaging")
    doctor = practitioner_row(db, practitioner_id)
    if practitioner_id not in care_team(db, patient):
        raise PermissionDenied(
            f"forbidden: {doctor['prefix']} {doctor['family']} isn't on {patient['given']}'s care team; messages go "
            "only to the primary care provider and practitioners seen in the last three years."
        )
    if thread_id is not None:
        earlier = db.find(communications, thread_id=thread_id, patient_id=patient["id"])
        if not earlier:
            raise NotFound(f"not-found: Thread {thread_id} is not known.")
        if earlier[0]["practitioner_id"] != practitioner_id:
            raise InvalidRequest(f"invalid: Thread {thread_id} is with another practitioner.")
        for message in earlier:
            if not message["read"]:
                db.update(communications, message["id"], read=True)
    key = db.new_id(communications, "comm-")
    row = db.insert(
        communications,
        id=key,
        patient_id=patient["id"],
        thread_id=thread_id or f"thread-{key.removeprefix('comm-')}",
        practitioner_id=practitioner_id,
        direction="to-care-team",
        category=category,
        subject=subject,
        text=text,
        sent=db.now_iso(),
        read=True,
    )
    return communication_view(db, row)


@tool(read_only=True)
def list_allergies(db: Database, patient_id: str, include_inactive: bool = False) -> Bundle[AllergyObject]:
    """A patient's allergies and intolerances (AllergyIntolerance).

    Args:
        patient_id: The Patient's id, from list_patients.
        include_inactive: Also list inactive and resolved ones.
    """
    patient = chart(db, patient_id)
    found = db.find(allergies, patient_id=patient["id"], order_by=["id"])
    found = [a for a in found if include_inactive or a["clinical_status"] == "active"]
    return Bundle[AllergyObject](**bundle([allergy_view(db, a) for a in found]))


@tool()
def add_allergy(
    db: Database,
    patient_id: str,
    substance: NonBlankText,
    category: Literal["medication", "food", "environment", "biologic"],
    criticality: Literal["low", "high", "unable-to-assess"],
    reaction: text(200, min_length=0) = "",
) -> AllergyObject:
    """Report an allergy for a patient. It is recorded as unconfirmed until the care team reviews it.

    Args:
        patient_id: The Patient's id, from list_patients.
        substance: What the patient reacts to, e.g. "Amoxicillin", "Peanuts".
        category: The kind of substance.
        criticality: `high` for a serious reaction (swelling, trouble breathing), else `low`.
        reaction: What happens, in the patient's words.
    """
    patient = chart(db, patient_id)
    name = substance.strip()
    for known in db.find(allergies, patient_id=patient["id"], clinical_status="active"):
        if known["display"].casefold() == name.casefold():
            raise Conflict(f"duplicate: {known['display']} is already on the allergy list ({known['id']}).")
    drug = db.select(medications, "lower(display) LIKE ?", [f"{name.lower()} %"], order_by="rxnorm", limit=1)
    row = db.insert(
        allergies,
        id=db.new_id(allergies, "alg-"),
        patient_id=patient["id"],
        code=drug[0]["rxnorm"] if drug else "patient-reported",
        system="http://www.nlm.nih.gov/research/umls/rxnorm" if drug else "text",
        display=name,
        category=category,
        criticality=criticality,
        clinical_status="active",
        verification_status="unconfirmed",
        reaction=reaction,
        recorded=db.now().date().isoformat(),
    )
    return allergy_view(db, row)


@tool()
def update_allergy_status(
    db: Database, allergy_id: str, clinical_status: Literal["active", "inactive", "resolved"]
) -> AllergyObject:
    """Change the clinical status of an allergy the patient reported (unconfirmed); confirmed ones only the care
    team can change.

    Args:
        allergy_id: The AllergyIntolerance's id, from list_allergies.
        clinical_status: The new status (`resolved` when the patient outgrew it).
    """
    allergy = own_row(db, allergies, allergy_id, "AllergyIntolerance")
    if allergy["verification_status"] == "confirmed":
        raise PermissionDenied(
            f"forbidden: {allergy['display']} was confirmed by the care team and only they can change it. Send them "
            "a message."
        )
    if allergy["clinical_status"] == clinical_status:
        raise Conflict(f"business-rule: {allergy['display']} is already {clinical_status}.")
    return allergy_view(db, db.update(allergies, allergy_id, clinical_status=clinical_status))


@tool(read_only=True)
def list_coverage(db: Database, patient_id: str) -> Bundle[CoverageObject]:
    """A patient's insurance coverage on file, with member and group numbers and copays.

    Args:
        patient_id: The Patient's id, from list_patients.
    """
    patient = chart(db, patient_id)
    found = db.find(coverages, patient_id=patient["id"], order_by=["id"])
    return Bundle[CoverageObject](**bundle([coverage_view(db, c) for c in found]))
