"""The FHIR R4 resources the portal returns (Patient, Practitioner, Slot, Appointment, MedicationRequest,
Observation, Communication, AllergyIntolerance, Coverage, searchset Bundles), and how stored rows become them."""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

from envfactory_gym import KeptGeneric

from .rules import age_on, doctor_name, refill_eligible_on, refills_left

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
LOINC = "http://loinc.org"
INTERPRETATION = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
FLAGS = {"N": "Normal", "H": "High", "L": "Low", "HH": "Critical high", "LL": "Critical low"}

T = TypeVar("T")


class Reference(BaseModel):
    reference: str
    display: str | None = None


class Coding(BaseModel):
    system: str
    code: str
    display: str


class CodeableConcept(BaseModel):
    coding: list[Coding]
    text: str


class Period(BaseModel):
    start: str
    end: str | None = None


class Bundle(KeptGeneric, Generic[T]):
    """A FHIR searchset Bundle: every match, with its count."""

    resourceType: Literal["Bundle"] = "Bundle"
    type: Literal["searchset"] = "searchset"
    total: int
    entry: list[T]


def bundle(entries: list[Any]) -> dict[str, Any]:
    """The fields of a searchset Bundle holding `entries`."""
    return {"total": len(entries), "entry": entries}


def concept(system: str, code: str, display: str) -> CodeableConcept:
    return CodeableConcept(coding=[Coding(system=system, code=code, display=display)], text=display)


def ref(resource: str, row: dict[str, Any]) -> Reference:
    """`Practitioner/prac-1203` with its display name."""
    if resource == "Practitioner":
        return Reference(reference=f"Practitioner/{row['id']}", display=doctor_name(row))
    if resource == "Patient":
        return Reference(reference=f"Patient/{row['id']}", display=f"{row['given']} {row['family']}")
    return Reference(reference=f"{resource}/{row['id']}", display=row.get("name"))


class PatientObject(BaseModel):
    resourceType: Literal["Patient"] = "Patient"
    id: str
    mrn: str
    name: str
    birthDate: str
    age: int
    gender: str
    phone: str | None
    email: str | None
    city: str
    generalPractitioner: Reference | None
    preferredPharmacy: str | None
    portalAccess: str  # self | CHILD | PRN | SPS: how the signed-in account reaches this chart
    accessScope: Literal["full", "limited"]


def patient_object(
    row: dict[str, Any], pcp: dict[str, Any] | None, relationship: str, scope: str, on: Any
) -> PatientObject:
    return PatientObject(
        id=row["id"],
        mrn=row["mrn"],
        name=f"{row['given']} {row['family']}",
        birthDate=row["birth_date"],
        age=age_on(row["birth_date"], on),
        gender=row["gender"],
        phone=row["phone"],
        email=row["email"],
        city=row["city"],
        generalPractitioner=ref("Practitioner", pcp) if pcp else None,
        preferredPharmacy=row["preferred_pharmacy"],
        portalAccess=relationship,
        accessScope=scope,  # type: ignore[arg-type]
    )


class PractitionerObject(BaseModel):
    resourceType: Literal["Practitioner"] = "Practitioner"
    id: str
    npi: str
    name: str
    specialty: str
    locations: list[Reference]
    acceptingNewPatients: bool


def practitioner_object(row: dict[str, Any], places: list[dict[str, Any]]) -> PractitionerObject:
    return PractitionerObject(
        id=row["id"],
        npi=row["npi"],
        name=doctor_name(row),
        specialty=row["specialty"],
        locations=[ref("Location", place) for place in places],
        acceptingNewPatients=row["accepting_new_patients"],
    )


class CareTeamMember(BaseModel):
    practitioner: PractitionerObject
    role: Literal["primary-care", "seen-recently"]


class SlotObject(BaseModel):
    resourceType: Literal["Slot"] = "Slot"
    id: str
    practitioner: Reference
    location: Reference
    serviceType: str
    start: str
    end: str
    status: str


def slot_object(row: dict[str, Any], doctor: dict[str, Any], place: dict[str, Any]) -> SlotObject:
    return SlotObject(
        id=row["id"],
        practitioner=ref("Practitioner", doctor),
        location=ref("Location", place),
        serviceType=row["service_type"],
        start=row["start"],
        end=row["end"],
        status=row["status"],
    )


class AppointmentObject(BaseModel):
    resourceType: Literal["Appointment"] = "Appointment"
    id: str
    status: str
    serviceType: str
    start: str
    end: str
    description: str
    patient: Reference
    practitioner: Reference
    location: Reference
    slot: Reference | None
    cancelationReason: str | None
    created: str


def appointment_object(
    row: dict[str, Any], patient: dict[str, Any], doctor: dict[str, Any], place: dict[str, Any]
) -> AppointmentObject:
    return AppointmentObject(
        id=row["id"],
        status=row["status"],
        serviceType=row["service_type"],
        start=row["start"],
        end=row["end"],
        description=row["description"],
        patient=ref("Patient", patient),
        practitioner=ref("Practitioner", doctor),
        location=ref("Location", place),
        slot=Reference(reference=f"Slot/{row['slot_id']}") if row["slot_id"] else None,
        cancelationReason=row["cancelation_reason"],
        created=row["created"],
    )


class DispenseRequest(BaseModel):
    validityPeriod: Period
    numberOfRepeatsAllowed: int
    refillsRemaining: int
    quantity: int
    expectedSupplyDays: int
    lastFilled: str | None
    refillEligibleOn: str | None
    pharmacy: str


class MedicationRequestObject(BaseModel):
    resourceType: Literal["MedicationRequest"] = "MedicationRequest"
    id: str
    status: str
    intent: Literal["order"] = "order"
    medicationCodeableConcept: CodeableConcept
    controlledSchedule: str | None
    subject: Reference
    requester: Reference
    authoredOn: str
    dosageInstruction: str
    dispenseRequest: DispenseRequest
    pendingRequests: list[str]  # ids of open refill or renewal requests


def medication_request_object(
    row: dict[str, Any],
    medication: dict[str, Any],
    patient: dict[str, Any],
    doctor: dict[str, Any],
    pending: list[str],
) -> MedicationRequestObject:
    eligible = refill_eligible_on(row)
    return MedicationRequestObject(
        id=row["id"],
        status=row["status"],
        medicationCodeableConcept=concept(RXNORM, medication["rxnorm"], medication["display"]),
        controlledSchedule=medication["schedule"],
        subject=ref("Patient", patient),
        requester=ref("Practitioner", doctor),
        authoredOn=row["authored_on"],
        dosageInstruction=row["dosage"],
        dispenseRequest=DispenseRequest(
            validityPeriod=Period(start=row["validity_start"], end=row["validity_end"]),
            numberOfRepeatsAllowed=row["repeats_allowed"],
            refillsRemaining=refills_left(row),
            quantity=row["quantity"],
            expectedSupplyDays=row["days_supply"],
            lastFilled=row["last_filled"],
            refillEligibleOn=eligible.isoformat() if eligible else None,
            pharmacy=row["pharmacy"],
        ),
        pendingRequests=pending,
    )


class RefillRequestObject(BaseModel):
    resourceType: Literal["Task"] = "Task"
    id: str
    kind: Literal["refill", "renewal"]
    status: str
    focus: Reference
    pharmacy: str
    note: str
    authoredOn: str


def refill_request_object(row: dict[str, Any], medication: dict[str, Any]) -> RefillRequestObject:
    return RefillRequestObject(
        id=row["id"],
        kind=row["kind"],
        status=row["status"],
        focus=Reference(reference=f"MedicationRequest/{row['medication_request_id']}", display=medication["display"]),
        pharmacy=row["pharmacy"],
        note=row["note"],
        authoredOn=row["created"],
    )


class Quantity(BaseModel):
    value: float
    unit: str


class ReferenceRange(BaseModel):
    low: float | None
    high: float | None


class ObservationObject(BaseModel):
    resourceType: Literal["Observation"] = "Observation"
    id: str
    status: str
    category: Literal["laboratory"] = "laboratory"
    code: CodeableConcept
    report: str
    subject: Reference
    effectiveDateTime: str
    valueQuantity: Quantity
    referenceRange: ReferenceRange
    interpretation: CodeableConcept
    orderedBy: Reference


def observation_object(row: dict[str, Any], patient: dict[str, Any], doctor: dict[str, Any]) -> ObservationObject:
    return ObservationObject(
        id=row["id"],
        status=row["status"],
        code=concept(LOINC, row["loinc"], row["display"]),
        report=row["report"],
        subject=ref("Patient", patient),
        effectiveDateTime=row["effective"],
        valueQuantity=Quantity(value=row["value"], unit=row["unit"]),
        referenceRange=ReferenceRange(low=row["low"], high=row["high"]),
        interpretation=concept(INTERPRETATION, row["interpretation"], FLAGS[row["interpretation"]]),
        orderedBy=ref("Practitioner", doctor),
    )


class CommunicationObject(BaseModel):
    resourceType: Literal["Communication"] = "Communication"
    id: str
    status: Literal["completed"] = "completed"
    thread: str
    category: str
    subject: Reference
    sender: Reference
    recipient: Reference
    topic: str
    payload: str
    sent: str
    read: bool


def communication_object(row: dict[str, Any], patient: dict[str, Any], doctor: dict[str, Any]) -> CommunicationObject:
    mine, theirs = ref("Patient", patient), ref("Practitioner", doctor)
    outgoing = row["direction"] == "to-care-team"
    return CommunicationObject(
        id=row["id"],
        thread=row["thread_id"],
        category=row["category"],
        subject=mine,
        sender=mine if outgoing else theirs,
        recipient=theirs if outgoing else mine,
        topic=row["subject"],
        payload=row["text"],
        sent=row["sent"],
        read=row["read"],
    )


class AllergyObject(BaseModel):
    resourceType: Literal["AllergyIntolerance"] = "AllergyIntolerance"
    id: str
    clinicalStatus: str
    verificationStatus: str
    category: str
    criticality: str
    code: CodeableConcept
    patient: Reference
    reaction: str
    recordedDate: str


def allergy_object(row: dict[str, Any], patient: dict[str, Any]) -> AllergyObject:
    return AllergyObject(
        id=row["id"],
        clinicalStatus=row["clinical_status"],
        verificationStatus=row["verification_status"],
        category=row["category"],
        criticality=row["criticality"],
        code=concept(row["system"], row["code"], row["display"]),
        patient=ref("Patient", patient),
        reaction=row["reaction"],
        recordedDate=row["recorded"],
    )


class CoverageObject(BaseModel):
    resourceType: Literal["Coverage"] = "Coverage"
    id: str
    status: str
    payor: str
    plan: str
    subscriberId: str
    group: str
    subscriber: str
    relationship: str
    beneficiary: Reference
    period: Period
    copayOfficeVisitUsd: int
    copaySpecialistUsd: int


def coverage_object(row: dict[str, Any], patient: dict[str, Any]) -> CoverageObject:
    return CoverageObject(
        id=row["id"],
        status=row["status"],
        payor=row["payor"],
        plan=row["plan"],
        subscriberId=row["member_id"],
        group=row["group_number"],
        subscriber=row["subscriber"],
        relationship=row["relationship"],
        beneficiary=ref("Patient", patient),
        period=Period(start=row["period_start"], end=row["period_end"]),
        copayOfficeVisitUsd=row["copay_office_visit"],
        copaySpecialistUsd=row["copay_specialist"],
    )


class SessionObject(BaseModel):
    username: str
    patient: Reference
