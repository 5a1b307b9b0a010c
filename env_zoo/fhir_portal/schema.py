"""The portal's FHIR R4 resources as tables. Ids are FHIR logical ids (`pat-4821`, `prac-1203`, `appt-0042`);
references are stored as the bare id of the referenced resource and shown as `Practitioner/prac-1203`. Times are ISO
8601 UTC strings, dates ISO dates."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

patients = Table(
    "patients",
    metadata,
    Column("id", String, primary_key=True),
    Column("mrn", String, nullable=False, unique=True),  # the clinic's medical record number (identifier)
    Column("given", String, nullable=False),
    Column("family", String, nullable=False),
    Column("birth_date", String, nullable=False),
    Column("gender", String, nullable=False),  # male | female | other | unknown
    Column("phone", String),
    Column("email", String),
    Column("city", String, nullable=False),
    Column("general_practitioner_id", String, ForeignKey("practitioners.id")),
    Column("preferred_pharmacy", String),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, nullable=False, unique=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),  # whose portal account it is
)

proxy_access = Table(
    "proxy_access",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),
    Column("relationship", String, nullable=False),  # CHILD | PRN (parent) | SPS (spouse)
    Column("status", String, nullable=False),  # active | pending | revoked
    Column("expires", String),  # access ends on this date (a child's at 18)
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the portal account signed in
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

locations = Table(
    "locations",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("address", String, nullable=False),
    Column("phone", String, nullable=False),
)

practitioners = Table(
    "practitioners",
    metadata,
    Column("id", String, primary_key=True),
    Column("npi", String, nullable=False, unique=True),
    Column("prefix", String, nullable=False),
    Column("given", String, nullable=False),
    Column("family", String, nullable=False),
    Column("specialty", String, nullable=False),  # a display of the PractitionerRole specialty
    Column("location_ids", JSON, nullable=False),
    Column("accepting_new_patients", Boolean, nullable=False),
)

slots = Table(
    "slots",
    metadata,
    Column("id", String, primary_key=True),
    Column("practitioner_id", String, ForeignKey("practitioners.id"), nullable=False),
    Column("location_id", String, ForeignKey("locations.id"), nullable=False),
    Column("service_type", String, nullable=False),  # office-visit | follow-up | annual-physical | ...
    Column("start", String, nullable=False),
    Column("end", String, nullable=False),
    Column("status", String, nullable=False),  # free | busy | busy-tentative | busy-unavailable
)

appointments = Table(
    "appointments",
    metadata,
    Column("id", String, primary_key=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),
    Column("practitioner_id", String, ForeignKey("practitioners.id"), nullable=False),
    Column("location_id", String, ForeignKey("locations.id"), nullable=False),
    Column("slot_id", String, ForeignKey("slots.id")),
    Column("service_type", String, nullable=False),
    Column("status", String, nullable=False),  # proposed | booked | fulfilled | cancelled | noshow
    Column("start", String, nullable=False),
    Column("end", String, nullable=False),
    Column("description", Text, nullable=False, default=""),  # the reason for visit the patient gave
    Column("cancelation_reason", String, info={"volatile": True}),  # the patient's pick; any fits
    Column("created", String, nullable=False, info={"volatile": True}),
)

medications = Table(
    "medications",
    metadata,
    Column("rxnorm", String, primary_key=True),
    Column("display", String, nullable=False),
    Column("schedule", String),  # DEA schedule II..V for a controlled substance, else null
)

medication_requests = Table(
    "medication_requests",
    metadata,
    Column("id", String, primary_key=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),
    Column("rxnorm", String, ForeignKey("medications.rxnorm"), nullable=False),
    Column("requester_id", String, ForeignKey("practitioners.id"), nullable=False),
    Column("status", String, nullable=False),  # active | completed | stopped | on-hold
    Column("dosage", String, nullable=False),
    Column("authored_on", String, nullable=False),
    Column("validity_start", String, nullable=False),
    Column("validity_end", String, nullable=False),
    Column("repeats_allowed", Integer, nullable=False),
    Column("repeats_used", Integer, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("days_supply", Integer, nullable=False),
    Column("last_filled", String),
    Column("pharmacy", String, nullable=False),
)

refill_requests = Table(
    "refill_requests",
    metadata,
    Column("id", String, primary_key=True),
    Column("medication_request_id", String, ForeignKey("medication_requests.id"), nullable=False),
    Column("kind", String, nullable=False),  # refill | renewal
    Column("status", String, nullable=False),  # requested | completed | declined
    Column("pharmacy", String, nullable=False),
    Column("note", Text, nullable=False, default="", info={"volatile": True}),  # free text for the pharmacy
    Column("created", String, nullable=False, info={"volatile": True}),
)

observations = Table(
    "observations",
    metadata,
    Column("id", String, primary_key=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),
    Column("report", String, nullable=False),  # the panel (DiagnosticReport) it belongs to, e.g. "Lipid panel"
    Column("loinc", String, nullable=False),
    Column("display", String, nullable=False),
    Column("value", Float, nullable=False),
    Column("unit", String, nullable=False),
    Column("low", Float),
    Column("high", Float),
    Column("interpretation", String, nullable=False),  # N | H | L | HH | LL
    Column("status", String, nullable=False),  # preliminary | final | amended
    Column("effective", String, nullable=False),
    Column("released", Boolean, nullable=False),  # released to the portal
    Column("ordered_by_id", String, ForeignKey("practitioners.id"), nullable=False),
)

communications = Table(
    "communications",
    metadata,
    Column("id", String, primary_key=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),  # the subject
    Column("thread_id", String, nullable=False),
    Column("practitioner_id", String, ForeignKey("practitioners.id"), nullable=False),
    Column("direction", String, nullable=False),  # to-care-team | from-care-team
    # medical-question | medication | appointment | billing, and the subject line: the sender's wording, any fits
    Column("category", String, nullable=False, info={"volatile": True}),
    Column("subject", String, nullable=False, info={"volatile": True}),
    Column("text", Text, nullable=False),
    Column("sent", String, nullable=False, info={"volatile": True}),
    Column("read", Boolean, nullable=False),
)

allergies = Table(
    "allergies",
    metadata,
    Column("id", String, primary_key=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),
    Column("code", String, nullable=False),
    Column("system", String, nullable=False),  # http://www.nlm.nih.gov/research/umls/rxnorm | http://snomed.info/sct
    Column("display", String, nullable=False),
    Column("category", String, nullable=False),  # medication | food | environment | biologic
    Column("criticality", String, nullable=False),  # low | high | unable-to-assess
    Column("clinical_status", String, nullable=False),  # active | inactive | resolved
    Column("verification_status", String, nullable=False),  # confirmed | unconfirmed | entered-in-error
    Column("reaction", String, nullable=False, default=""),
    Column("recorded", String, nullable=False),
)

coverages = Table(
    "coverages",
    metadata,
    Column("id", String, primary_key=True),
    Column("patient_id", String, ForeignKey("patients.id"), nullable=False),
    Column("payor", String, nullable=False),
    Column("plan", String, nullable=False),
    Column("member_id", String, nullable=False),
    Column("group_number", String, nullable=False),
    Column("subscriber", String, nullable=False),
    Column("relationship", String, nullable=False),  # self | child | spouse
    Column("status", String, nullable=False),  # active | cancelled
    Column("period_start", String, nullable=False),
    Column("period_end", String),
    Column("copay_office_visit", Integer, nullable=False),  # US dollars
    Column("copay_specialist", Integer, nullable=False),
)
