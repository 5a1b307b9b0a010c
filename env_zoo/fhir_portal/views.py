"""Stored rows as the FHIR resources the tools return, with the referenced resources looked up."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .objects import (
    AllergyObject,
    AppointmentObject,
    CommunicationObject,
    CoverageObject,
    MedicationRequestObject,
    ObservationObject,
    PatientObject,
    PractitionerObject,
    RefillRequestObject,
    SlotObject,
    allergy_object,
    appointment_object,
    communication_object,
    coverage_object,
    medication_request_object,
    observation_object,
    patient_object,
    practitioner_object,
    refill_request_object,
    slot_object,
)
from .rules import today
from .schema import locations, medications, patients, practitioners, refill_requests


def practitioner_view(db: Database, row: dict[str, Any]) -> PractitionerObject:
    return practitioner_object(row, [db.get(locations, key, "Location") for key in row["location_ids"]])


def patient_view(db: Database, row: dict[str, Any], relationship: str, scope: str) -> PatientObject:
    pcp = db.get(practitioners, row["general_practitioner_id"]) if row["general_practitioner_id"] else None
    return patient_object(row, pcp, relationship, scope, today(db))


def slot_view(db: Database, row: dict[str, Any]) -> SlotObject:
    return slot_object(row, db.get(practitioners, row["practitioner_id"]), db.get(locations, row["location_id"]))


def appointment_view(db: Database, row: dict[str, Any]) -> AppointmentObject:
    return appointment_object(
        row,
        db.get(patients, row["patient_id"]),
        db.get(practitioners, row["practitioner_id"]),
        db.get(locations, row["location_id"]),
    )


def medication_request_view(db: Database, row: dict[str, Any]) -> MedicationRequestObject:
    pending = [r["id"] for r in db.find(refill_requests, medication_request_id=row["id"], status="requested")]
    return medication_request_object(
        row,
        db.get(medications, row["rxnorm"]),
        db.get(patients, row["patient_id"]),
        db.get(practitioners, row["requester_id"]),
        pending,
    )


def refill_request_view(db: Database, row: dict[str, Any], prescription: dict[str, Any]) -> RefillRequestObject:
    return refill_request_object(row, db.get(medications, prescription["rxnorm"]))


def observation_view(db: Database, row: dict[str, Any]) -> ObservationObject:
    return observation_object(row, db.get(patients, row["patient_id"]), db.get(practitioners, row["ordered_by_id"]))


def communication_view(db: Database, row: dict[str, Any]) -> CommunicationObject:
    return communication_object(row, db.get(patients, row["patient_id"]), db.get(practitioners, row["practitioner_id"]))


def allergy_view(db: Database, row: dict[str, Any]) -> AllergyObject:
    return allergy_object(row, db.get(patients, row["patient_id"]))


def coverage_view(db: Database, row: dict[str, Any]) -> CoverageObject:
    return coverage_object(row, db.get(patients, row["patient_id"]))
